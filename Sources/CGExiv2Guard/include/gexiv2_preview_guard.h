#ifndef PHOTOFILER_GEXIV2_PREVIEW_GUARD_H
#define PHOTOFILER_GEXIV2_PREVIEW_GUARD_H

// The largest preview exiv2 finds in a RAW or DNG file, for its thumbnail:
// Debian's libvips 8.14 has no libraw loader, so a camera file's pixels come from
// the JPEG (or small TIFF) its camera embedded. Behind a C++ catch-all, like
// every exiv2 call (exiv2_reader.h says why).

#include <gexiv2/gexiv2.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the metadata of `count` bytes at `bytes` (the whole file, in memory: no
/// path is opened) and copies the preview of rank `rank` by pixels (0: the one
/// with the most) into a buffer the caller frees with g_free. A caller whose
/// largest preview does not decode (a stub) asks for the next rank. Returns FALSE
/// when there is no such preview or exiv2 fails; `*thrown` is 1 when a C++
/// exception was caught.
gboolean pf_gexiv2_preview(const guint8 *bytes, glong count, int rank, guint8 **preview, guint32 *preview_size,
                           int *thrown);

#ifdef __cplusplus
}
#endif

#endif
