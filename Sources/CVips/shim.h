#include <vips/vips.h>

// Swift cannot call C variadic functions: these non-variadic wrappers exist
// only so that the Swift side can reach the few libvips calls it needs.

/// Opens an image lazily (header only until pixels are asked for), all pages.
static inline VipsImage *photofiler_vips_open_all_pages(const char *path) {
    return vips_image_new_from_file(path, "n", -1, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// A thumbnail that fits in `width` × `width`, EXIF orientation applied.
static inline int photofiler_vips_thumbnail(const char *path, VipsImage **out, int width) {
    return vips_thumbnail(path, out, width, NULL);
}

/// Writes an image to a file whose suffix picks the format (".jpg[Q=80]").
static inline int photofiler_vips_write(VipsImage *image, const char *path) {
    return vips_image_write_to_file(image, path, NULL);
}

/// Opens the header only, the loader set to refuse any error (a PNG chunk CRC,
/// say) instead of warning and carrying on, so a damaged file is not filed.
static inline VipsImage *photofiler_vips_open_header_strict(const char *path) {
    return vips_image_new_from_file(path, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}
