#ifndef CLARISSA_CTURBOJPEG_SHIM_H
#define CLARISSA_CTURBOJPEG_SHIM_H

/* libjpeg-turbo's TurboJPEG API: errors are return values, not longjmp (Debian libturbojpeg0-dev). */
#include <turbojpeg.h>

#endif
