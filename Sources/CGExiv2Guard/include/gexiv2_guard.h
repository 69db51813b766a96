#ifndef PHOTOFILER_GEXIV2_GUARD_H
#define PHOTOFILER_GEXIV2_GUARD_H

// The gexiv2 calls photofiler makes, each behind a C++ catch-all.
//
// gexiv2 catches Exiv2::Error only: exiv2 also throws std::overflow_error (and
// others) on hostile files, which then unwinds out of a C function and aborts the
// process. Found by fuzzing (Tests/PhotoFilerCoreTests/Media/FuzzInputs): one bad
// TIFF in an inbox killed the daemon at every start. `*thrown` is set to 1 when a
// C++ exception was caught; the result then means nothing.

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
