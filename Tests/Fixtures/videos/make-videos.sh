#!/bin/sh
# Makes the phone-video corpus of this folder with Debian 12's ffmpeg (5.1, libx264,
# libx265): shapes phones write (portrait through a rotation matrix, widths that are
# not a multiple of 16, 10-bit HEVC, 4K) and the odd ones (non-square pixels, one
# frame, no video stream). The picture is ffmpeg's own test pattern (testsrc2:
# colours, a moving square, a counter) with a white block in its top left corner,
# so that a mirror or a turn shows; nothing here is anyone else's work.
# Single-threaded, bit-exact muxing: the same Debian packages make the same bytes.
# Run from anywhere: sh Tests/Fixtures/videos/make-videos.sh
set -eu
cd "$(dirname "$0")"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
quiet="-nostdin -v error -y -threads 1"
exact="-fflags +bitexact -flags:v +bitexact -map_metadata -1"

# video NAME SIZE CODEC PIXELS TURN FRAMES [ENCODER OPTIONS…]
# TURN is the clockwise turn that shows the picture upright (a phone held upright
# records 90, as its EXIF twin would say orientation 6); ffmpeg 5.1's `rotate` tag
# counts the other way, so 90 is written as rotate=270.
video() {
	name=$1 size=$2 codec=$3 pixels=$4 turn=$5 frames=$6
	shift 6
	case $codec in
	h264) encoder="-c:v libx264 -preset veryfast -crf 30 -x264-params threads=1" ;;
	hevc) encoder="-c:v libx265 -preset ultrafast -crf 32 -tag:v hvc1 -x265-params pools=none:frame-threads=1:info=0:log-level=error" ;;
	esac
	# shellcheck disable=SC2086 # the option lists split on purpose
	ffmpeg $quiet -f lavfi -i "testsrc2=size=$size:rate=10,drawbox=w=iw/3:h=ih/3:color=white:t=fill" -frames:v "$frames" \
		$encoder -pix_fmt "$pixels" "$@" $exact "$scratch/$name"
	ffmpeg $quiet -i "$scratch/$name" -c copy -metadata:s:v:0 rotate=$(((360 - turn) % 360)) \
		$exact "$name"
}

# The issue's portrait phone video: 568×320 stored, shown 320×568.
video h264-568x320-turn90.mov 568x320 h264 yuv420p 90 10
# The common phone size whose width is not a multiple of 16.
video h264-360x640.mp4 360x640 h264 yuv420p 0 10
video h264-600x336-turn180.mp4 600x336 h264 yuv420p 180 10
# A full-HD portrait recording stored upright, BT.709 as HD video is.
video h264-1080x1920.mp4 1080x1920 h264 yuv420p 0 3 -colorspace bt709 -color_primaries bt709 -color_trc bt709
# H.264 High 10, turned the other way.
video h264-10bit-520x296-turn270.mov 520x296 h264 yuv420p10le 270 10
video hevc-232x408-turn90.mov 232x408 hevc yuv420p 90 10
video hevc-264x200-turn270.mp4 264x200 hevc yuv420p 270 10
video hevc-10bit-456x256-turn180.mp4 456x256 hevc yuv420p10le 180 10
# An iPhone's 4K HDR video: 10-bit HEVC, BT.2020 with HLG, held upright; three frames, low rate.
video hevc-10bit-3840x2160-turn90.mov 3840x2160 hevc yuv420p10le 90 3 \
	-colorspace bt2020nc -color_primaries bt2020 -color_trc arib-std-b67
# Non-square pixels (PAL CIF, 12:11): 352×288 stored, 384×288 shown.
video h264-352x288-sar12-11.mp4 352x288 h264 yuv420p 0 10 -vf setsar=12/11
# One frame only: the tenth-in frame is the only one.
video h264-216x120-one-frame.mp4 216x120 h264 yuv420p 0 1
# An MP4 with only a sound track: libmagic calls it video/mp4, but there is no picture.
ffmpeg $quiet -f lavfi -i "sine=frequency=440:duration=0.5" -c:a aac $exact audio-only.mp4
