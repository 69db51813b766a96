#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

// AVERROR(EAGAIN) is a macro Swift cannot import: the decoder's "send more packets".
static inline int photofiler_averror_again(void) { return AVERROR(EAGAIN); }

// AVERROR_EOF is a macro over FFERRTAG Swift cannot import: what a custom reader
// returns at the end of the file.
static inline int photofiler_av_end_of_file(void) { return AVERROR_EOF; }
