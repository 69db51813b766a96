#include "gexiv2_reference.h"

// See the header: every call is wrapped so that no C++ exception leaves exiv2.

extern "C" gboolean pf_gexiv2_open_buf(GExiv2Metadata *metadata, const guint8 *data, glong count, GError **error, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_open_buf(metadata, data, count, error);
    } catch (...) {
        *thrown = 1;
        return FALSE;
    }
}

extern "C" gint pf_gexiv2_get_pixel_width(GExiv2Metadata *metadata, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_get_pixel_width(metadata);
    } catch (...) {
        *thrown = 1;
        return 0;
    }
}

extern "C" gint pf_gexiv2_get_pixel_height(GExiv2Metadata *metadata, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_get_pixel_height(metadata);
    } catch (...) {
        *thrown = 1;
        return 0;
    }
}

extern "C" GExiv2Orientation pf_gexiv2_try_get_orientation(GExiv2Metadata *metadata, GError **error, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_try_get_orientation(metadata, error);
    } catch (...) {
        *thrown = 1;
        return static_cast<GExiv2Orientation>(0);  // gexiv2's "orientation unknown"
    }
}

extern "C" gchar *pf_gexiv2_try_get_tag_string(GExiv2Metadata *metadata, const gchar *tag, GError **error, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_try_get_tag_string(metadata, tag, error);
    } catch (...) {
        *thrown = 1;
        return nullptr;
    }
}

extern "C" GBytes *pf_gexiv2_try_get_tag_raw(GExiv2Metadata *metadata, const gchar *tag, GError **error, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_try_get_tag_raw(metadata, tag, error);
    } catch (...) {
        *thrown = 1;
        return nullptr;
    }
}

extern "C" const gchar *pf_gexiv2_get_mime_type(GExiv2Metadata *metadata, int *thrown) {
    *thrown = 0;
    try {
        return gexiv2_metadata_get_mime_type(metadata);
    } catch (...) {
        *thrown = 1;
        return nullptr;
    }
}
