#ifndef CLARISSA_CWEBP_SHIM_H
#define CLARISSA_CWEBP_SHIM_H

/* libwebp's decoder (Debian libwebp-dev). */
#include <webp/decode.h>

#endif
