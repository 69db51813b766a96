#include <vips/vips.h>
// vips_vector_set_enabled: vips.h leaves the vector header out.
#include <vips/vector.h>

// Swift cannot call C variadic functions: these non-variadic wrappers exist
// only so that the Swift side can reach the few libvips calls it needs.

/// Opens the header only, the loader set to refuse any error (a PNG chunk CRC,
/// say) instead of warning and carrying on, so a damaged header's size is not
/// believed: such a file is filed of unknown size, without a thumbnail.
/// Reads from memory (the helper's mapping of the file): a sandboxed helper
/// cannot open paths. The image must be unreferenced before the memory goes.
static inline VipsImage *photofiler_vips_open_header_strict(const void *bytes, size_t count) {
    return vips_image_new_from_buffer(bytes, count, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

// Used by the benchmark (Benchmarks/photofiler-bench) to make its own workload
// of real, distinct JPEGs; variadic in libvips, hence these wrappers.

/// Gaussian noise, `width` × `height`, one band of floats.
static inline int photofiler_vips_gaussnoise(VipsImage **out, int width, int height, double mean, double sigma) {
    return vips_gaussnoise(out, width, height, "mean", mean, "sigma", sigma, NULL);
}

/// `text` rendered as an 8-bit mask `width` pixels wide at `dpi`.
static inline int photofiler_vips_text(VipsImage **out, const char *text, int width, int dpi) {
    return vips_text(out, text, "width", width, "dpi", dpi, NULL);
}

/// `sub` pasted over `main` at (`x`, `y`).
static inline int photofiler_vips_insert(VipsImage *main, VipsImage *sub, VipsImage **out, int x, int y) {
    return vips_insert(main, sub, out, x, y, NULL);
}

/// Cast to 8-bit unsigned pixels.
static inline int photofiler_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast_uchar(in, out, NULL);
}

/// Writes a baseline JPEG at quality `quality`.
static inline int photofiler_vips_jpegsave(VipsImage *in, const char *path, int quality) {
    return vips_jpegsave(in, path, "Q", quality, NULL);
}
