#ifndef CLARISSA_CPNG_SHIM_H
#define CLARISSA_CPNG_SHIM_H

/* libpng's simplified API (png_image_*), Debian libpng-dev. */
#include <png.h>

/* PNG_IMAGE_FAILED is a macro Swift cannot import. */
static inline int clarissa_png_image_failed(const png_image *image) {
  return PNG_IMAGE_FAILED(*image);
}

#endif
