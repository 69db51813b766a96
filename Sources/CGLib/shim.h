#include <glib.h>

// G_LOG_LEVEL_MASK is a macro over an enum Swift imports as a struct:
// spelled out here so the Swift side can ask for every level.
static inline GLogLevelFlags photofiler_g_log_all_levels(void) {
    return (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION);
}
