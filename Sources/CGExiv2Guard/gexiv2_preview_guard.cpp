#include "gexiv2_preview_guard.h"

#include <algorithm>
#include <vector>

extern "C" gboolean pf_gexiv2_preview(const guint8 *bytes, glong count, int rank, guint8 **preview,
                                      guint32 *preview_size, int *thrown) {
    *thrown = 0;
    *preview = NULL;
    *preview_size = 0;
    GExiv2Metadata *metadata = gexiv2_metadata_new();
    if (metadata == NULL) return FALSE;
    gboolean found = FALSE;
    try {
        if (gexiv2_metadata_open_buf(metadata, bytes, count, NULL)) {
            std::vector<GExiv2PreviewProperties *> all;
            for (GExiv2PreviewProperties **it = gexiv2_metadata_get_preview_properties(metadata);
                 it != NULL && *it != NULL; ++it) {
                all.push_back(*it);
            }
            auto pixels = [](GExiv2PreviewProperties *p) {
                return (guint64)gexiv2_preview_properties_get_width(p) *
                       (guint64)gexiv2_preview_properties_get_height(p);
            };
            std::sort(all.begin(), all.end(), [&](auto *a, auto *b) { return pixels(a) > pixels(b); });
            GExiv2PreviewImage *image = rank >= 0 && (size_t)rank < all.size()
                                            ? gexiv2_metadata_try_get_preview_image(metadata, all[rank], NULL)
                                            : NULL;
            if (image != NULL) {
                guint32 size = 0;
                const guint8 *data = gexiv2_preview_image_get_data(image, &size);
                if (data != NULL && size > 0) {
                    *preview = (guint8 *)g_memdup2(data, size);
                    *preview_size = size;
                    found = TRUE;
                }
                g_object_unref(image);
            }
        }
    } catch (...) {
        *thrown = 1;
        g_free(*preview);
        *preview = NULL;
        *preview_size = 0;
        found = FALSE;
    }
    g_object_unref(metadata);
    return found;
}
