#ifndef PHOTOFILER_GEXIV2_REFERENCE_H
#define PHOTOFILER_GEXIV2_REFERENCE_H

// The gexiv2 0.14 calls photofiler's metadata reader made before it read through
// exiv2 itself (Sources/CGExiv2Guard/exiv2_reader.h), kept for the tests alone:
// ExifReaderEquivalenceTests holds the new reader to gexiv2's answers.
//
// Each is behind a C++ catch-all: gexiv2 catches Exiv2::Error only, and exiv2
// also throws std::overflow_error (and others) on hostile files (the fuzzer's
// inputs in Tests/PhotoFilerCoreTests/Media/FuzzInputs). `*thrown` is set to 1
// when a C++ exception was caught; the result then means nothing.

#include <gexiv2/gexiv2.h>

#ifdef __cplusplus
extern "C" {
#endif

// Reads from memory (the helper's read-only mapping of the file it was handed):
// a sandboxed helper cannot open paths.
gboolean pf_gexiv2_open_buf(GExiv2Metadata *metadata, const guint8 *data, glong count, GError **error, int *thrown);
gint pf_gexiv2_get_pixel_width(GExiv2Metadata *metadata, int *thrown);
gint pf_gexiv2_get_pixel_height(GExiv2Metadata *metadata, int *thrown);
GExiv2Orientation pf_gexiv2_try_get_orientation(GExiv2Metadata *metadata, GError **error, int *thrown);
gchar *pf_gexiv2_try_get_tag_string(GExiv2Metadata *metadata, const gchar *tag, GError **error, int *thrown);
GBytes *pf_gexiv2_try_get_tag_raw(GExiv2Metadata *metadata, const gchar *tag, GError **error, int *thrown);
// exiv2's own type detection: the MIME type of the format it recognised (valid while `metadata` lives).
const gchar *pf_gexiv2_get_mime_type(GExiv2Metadata *metadata, int *thrown);

#ifdef __cplusplus
}
#endif

#endif
