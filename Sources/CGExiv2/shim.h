#include <gexiv2/gexiv2.h>

// G_LOG_LEVEL_MASK and friends are macros over an enum Swift imports as a
// struct: spelled out here so Media can route gexiv2's and libvips' GLib logging
// into the product's log.
//
// Without info and debug: libvips says several g_info lines per picture it
// thumbnails ("thumbnailing source", "selected loader is …"), and routing each
// through the product's log cost a third of `thumb --all`'s time. GLib drops those
// levels by default; so does the product.
static inline GLogLevelFlags photofiler_g_log_notable_levels(void) {
    return (GLogLevelFlags)(G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE |
                            G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION);
}
