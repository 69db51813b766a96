#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/log.h>

// AVERROR(e) is a macro Swift cannot import.
static inline int photofiler_averror(int e) { return AVERROR(e); }

// AV_NOPTS_VALUE is a cast expression Swift cannot import.
static inline int64_t photofiler_av_nopts_value(void) { return AV_NOPTS_VALUE; }
