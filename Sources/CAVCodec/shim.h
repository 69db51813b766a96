#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

// AVERROR(EAGAIN) is a macro Swift cannot import: the decoder's "send more packets".
static inline int photofiler_averror_again(void) { return AVERROR(EAGAIN); }

