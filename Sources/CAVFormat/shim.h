#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/log.h>

// AVERROR(e) is a macro Swift cannot import.
static inline int photofiler_averror(int e) { return AVERROR(e); }

// AV_NOPTS_VALUE is a cast expression Swift cannot import.
static inline int64_t photofiler_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// AVERROR_EOF is a macro over FFERRTAG Swift cannot import: the end a custom
// reader reports.
static inline int photofiler_averror_eof(void) { return AVERROR_EOF; }
