#include <vips/vips.h>

// The libvips calls the thumbnail maker needs. Each is variadic in libvips (its
// options are name/value pairs ending in NULL) and Swift cannot call C variadic
// functions, so each gets a fixed-argument wrapper here.

/// Decodes from `source` straight to a picture that fits in `edge` × `edge`:
/// shrink-on-load (a JPEG decoded at 1/8, a HEIC through its own scaling), EXIF
/// orientation applied, the first page of an animation, never enlarged, in sRGB
/// (CMYK through libvips' built-in profile when the file has none). With
/// `through_profile`, the file's embedded ICC profile converts it to sRGB; that
/// costs an lcms transform (about 40 ms a picture here), so the caller asks for it
/// only when the file has a profile. A decoder's error on the pixels (a PNG whose
/// data is no zlib stream) fails the call: libvips would otherwise fill the rest
/// with grey and say nothing. libvips 8.14's thumbnail does not hand its own
/// `fail_on` to the loader of a source or a buffer: the loader's options do.
static inline int photofiler_vips_thumbnail_source(VipsSource *source, VipsImage **out, int edge,
                                                   int through_profile) {
    if (through_profile)
        return vips_thumbnail_source(source, out, edge, "height", edge, "size", VIPS_SIZE_DOWN,
                                     "export_profile", "srgb", "option_string", "fail_on=error", NULL);
    return vips_thumbnail_source(source, out, edge, "height", edge, "size", VIPS_SIZE_DOWN, "option_string",
                                 "fail_on=error", NULL);
}

/// A TIFF's first page, its main image (not a SubIFD), with the same strictness:
/// libvips 8.14's thumbnail takes a TIFF whose later pages or SubIFDs are smaller
/// for a pyramid and decodes the smallest one that it finds large enough, even when
/// none is, so a TIFF is loaded here and thumbnailed as a picture in memory.
static inline VipsImage *photofiler_vips_open_first_page(VipsSource *source) {
    return vips_image_new_from_source(source, "", "page", 0, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                      VIPS_FAIL_ON_ERROR, NULL);
}

/// Opens a picture's header from `source` (no pixels are decoded).
static inline VipsImage *photofiler_vips_open_source(VipsSource *source) {
    return vips_image_new_from_source(source, "", NULL);
}

/// As above, from bytes in memory (a camera file's embedded preview).
static inline int photofiler_vips_thumbnail_buffer(void *bytes, size_t count, VipsImage **out, int edge) {
    return vips_thumbnail_buffer(bytes, count, out, edge, "height", edge, "size", VIPS_SIZE_DOWN,
                                 "export_profile", "srgb", "option_string", "fail_on=error", NULL);
}

/// A smaller rendition of an already small picture: scaled by `scale` (< 1).
static inline int photofiler_vips_resize(VipsImage *in, VipsImage **out, double scale) {
    return vips_resize(in, out, scale, NULL);
}

/// Turns a picture by `angle` (a video's display rotation).
static inline int photofiler_vips_rot(VipsImage *in, VipsImage **out, VipsAngle angle) {
    return vips_rot(in, out, angle, NULL);
}

/// Mirrors a picture (a HEIF grid's `imir`): HORIZONTAL swaps left and right.
static inline int photofiler_vips_flip(VipsImage *in, VipsImage **out, VipsDirection direction) {
    return vips_flip(in, out, direction, NULL);
}

/// Applies the `orientation` metadata field, as a viewer would (a camera
/// preview that lacks its file's EXIF gets the file's orientation set first).
static inline int photofiler_vips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/// A new header over the same pixels, so metadata can be changed on it alone.
static inline int photofiler_vips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

/// Adds an opaque alpha band (freedesktop thumbnails are RGBA).
static inline int photofiler_vips_add_alpha(VipsImage *in, VipsImage **out) {
    return vips_bandjoin_const1(in, out, 255.0, NULL);
}

/// A baseline JPEG at `quality`, metadata stripped, into a buffer freed with g_free.
static inline int photofiler_vips_jpegsave_buffer(VipsImage *in, void **bytes, size_t *count, int quality) {
    return vips_jpegsave_buffer(in, bytes, count, "Q", quality, "strip", TRUE, NULL);
}

/// A PNG at zlib level `compression`. Not stripped: libvips writes each
/// `png-comment-N-KEY` string field as a text chunk only when it does not strip,
/// so the caller removes the profile and EXIF fields instead.
/// Every row filter is tried (adaptive filtering): at zlib level 1 that gives smaller
/// files than no filter at level 3, in less time.
static inline int photofiler_vips_pngsave_buffer(VipsImage *in, void **bytes, size_t *count, int compression) {
    return vips_pngsave_buffer(in, bytes, count, "compression", compression, "filter", VIPS_FOREIGN_PNG_FILTER_ALL,
        NULL);
}

/// Drops the alpha band over a white background (JPEG has no alpha).
static inline int photofiler_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[] = {255.0, 255.0, 255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

// A HEIF grid (a phone's HEIC, a tiled AVIF) decoded tile by tile (HeifGridDecoder):
// each tile shrunk as it comes, the small tiles joined, cropped, then thumbnailed.

/// A tile averaged over `factor` × `factor` blocks (a power of two that divides the
/// tile, so blocks never straddle two tiles).
static inline int photofiler_vips_shrink(VipsImage *in, VipsImage **out, int factor) {
    return vips_shrink(in, out, (double)factor, (double)factor, NULL);
}

/// `count` equal tiles in rows of `across`, left to right, top to bottom.
static inline int photofiler_vips_arrayjoin(VipsImage **tiles, int count, VipsImage **out, int across) {
    return vips_arrayjoin(tiles, out, count, "across", across, NULL);
}

/// The `width` × `height` area at (`left`, `top`).
static inline int photofiler_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width,
                                               int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/// As photofiler_vips_thumbnail_source, from a picture already in memory (the
/// joined grid, a few megabytes): fitted in `edge` × `edge`, in sRGB, through its
/// `icc-profile-data` when `through_profile`.
static inline int photofiler_vips_thumbnail_image(VipsImage *in, VipsImage **out, int edge, int through_profile) {
    if (through_profile)
        return vips_thumbnail_image(in, out, edge, "height", edge, "size", VIPS_SIZE_DOWN, "export_profile",
                                    "srgb", NULL);
    return vips_thumbnail_image(in, out, edge, "height", edge, "size", VIPS_SIZE_DOWN, NULL);
}

/// As photofiler_vips_thumbnail_image, to exactly `width` × `height` (a shrunk grid
/// made the size the whole picture would have).
static inline int photofiler_vips_thumbnail_image_to(VipsImage *in, VipsImage **out, int width, int height,
                                                     int through_profile) {
    if (through_profile)
        return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, "export_profile",
                                    "srgb", NULL);
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

// A HEIF image stored as one picture, decoded to its YCbCr planes (HeifPlanesDecoder):
// libvips reads the planes where libheif left them, scales them to one size, and
// converts them to RGB with libheif's matrix.

/// Scaled by `hscale` across and `vscale` down (a luma plane to its chroma's size,
/// or a chroma plane to its luma's).
static inline int photofiler_vips_resize_to(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/// `count` images of one size as the bands of one.
static inline int photofiler_vips_bandjoin(VipsImage **in, int count, VipsImage **out) {
    return vips_bandjoin(in, out, count, NULL);
}

/// Each band `i` times `a[i]` plus `b[i]`, in floats.
static inline int photofiler_vips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int count) {
    return vips_linear(in, out, a, b, count, NULL);
}

/// Each pixel's three bands times the 3 × 3 `matrix` (row by row).
static inline int photofiler_vips_recomb3(VipsImage *in, VipsImage **out, const double *matrix) {
    VipsImage *m = vips_image_new_matrix_from_array(3, 3, matrix, 9);
    if (!m)
        return -1;
    int result = vips_recomb(in, out, m, NULL);
    g_object_unref(m);
    return result;
}

/// The same pixels, said to be sRGB.
static inline int photofiler_vips_as_srgb(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
}

/// Decodes an encoded picture in memory (the tests read thumbnails back with it).
static inline VipsImage *photofiler_vips_load_buffer(const void *bytes, size_t count) {
    return vips_image_new_from_buffer(bytes, count, "", NULL);
}


#include <libheif/heif.h>
// The transformation properties of an item (HeifPrimaryImage).
#include <libheif/heif_properties.h>

