#include <gexiv2/gexiv2.h>

// G_LOG_LEVEL_MASK is a macro over an enum Swift imports as a struct:
// spelled out here so Media can route every level of gexiv2's and libvips'
// GLib logging into the product's log.
static inline GLogLevelFlags photofiler_g_log_all_levels(void) {
    return (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION);
}
