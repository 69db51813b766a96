#ifndef PHOTOFILER_EXIV2_READER_H
#define PHOTOFILER_EXIV2_READER_H

// The metadata the filing path reads (size, orientation, MIME type, tags), from
// exiv2 itself rather than through gexiv2.
//
// Why: gexiv2 0.14's every open builds an Exiv2::PreviewManager and lists every
// preview the file embeds, which the filing path never uses. Measured on a 45 KB
// JPEG (2,000 iterations): gexiv2_metadata_open_buf 56.5 µs, exiv2's
// ImageFactory::open + readMetadata 11.6 µs, 52 µs with the preview listing
// added back. gexiv2 stays for the previews themselves (gexiv2_preview_guard.h),
// for the process-wide start-up (gexiv2_initialize: BMFF on, the XMP parser's
// lock) and for registering XMP namespaces: exiv2's tables are one per process,
// shared by both.
//
// Each answer is the one gexiv2 0.14.0 gives for the same call (the equivalence
// test reads every corpus file both ways). Every entry point catches every C++
// exception: exiv2 throws more than Exiv2::Error on hostile files (fuzzing found
// std::overflow_error, Tests/PhotoFilerCoreTests/Media/FuzzInputs: one bad TIFF
// in an inbox killed the daemon at every start while gexiv2 let it through). An
// exception in a look-up reads as "absent".

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One parsed file. It reads the caller's bytes in place (no copy): they stay
// mapped until pf_exiv2_close.
typedef struct pf_exiv2_image pf_exiv2_image;

// Parses `count` bytes at `bytes` (a sandboxed helper opens no path: its mapping
// of the file). NULL on failure, with `*failure` set to exiv2's message (free it
// with free()).
//
// With `list_previews`, also lists the previews as gexiv2's open does, and fails
// when that throws, as gexiv2's open did: the one file known to differ (the
// fuzzer's TIFF, Tests/PhotoFilerCoreTests/Media/FuzzInputs) throws there only,
// and read without the listing it becomes a DNG whose strips end past the file.
pf_exiv2_image *pf_exiv2_open(const uint8_t *bytes, size_t count, int list_previews, char **failure);
void pf_exiv2_close(pf_exiv2_image *image);

// exiv2's pixel size of the main image (0 when it found none).
int pf_exiv2_pixel_width(const pf_exiv2_image *image);
int pf_exiv2_pixel_height(const pf_exiv2_image *image);
// The MIME type of the format exiv2 recognised ("image/x-nikon-nef"); valid until close.
const char *pf_exiv2_mime_type(const pf_exiv2_image *image);
// Whether the file has EXIF data, XMP data: a reader skips look-ups there are no answers to.
int pf_exiv2_has_exif(const pf_exiv2_image *image);
int pf_exiv2_has_xmp(const pf_exiv2_image *image);

// The orientation as gexiv2_metadata_try_get_orientation gives it: 1-8, or 0
// when unspecified.
int pf_exiv2_orientation(pf_exiv2_image *image);

// An Exif. or Xmp. key's value as exiv2 prints it (gexiv2_metadata_try_get_tag_string):
// NULL when absent or when the key is not one exiv2 knows; free it with free().
char *pf_exiv2_tag_string(pf_exiv2_image *image, const char *key);

// An Exif. key's value as stored (the Apple MakerNote's bytes, which exiv2 0.27
// does not decode): NULL when absent or empty; free it with free().
uint8_t *pf_exiv2_tag_raw(pf_exiv2_image *image, const char *key, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
