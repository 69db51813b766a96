#!/bin/sh
# Seeds for photofiler-fuzz's end-marker scan (the daemon's EndMarkerScan, run while
# hashing): small JPEG, PNG and GIF files whole, cut (before the end, inside the
# first scan, inside the header) and with bytes appended after the end (a Samsung
# SEFT-like trailer, a motion photo's MP4, a second image). Made from ffmpeg's test
# pattern with Debian 12's ffmpeg; the cuts and appends are plain byte arithmetic.
# Run from anywhere: sh Tests/Fixtures/fuzz-seeds/end-markers/make-seeds.sh
set -eu
cd "$(dirname "$0")"
ff="ffmpeg -nostdin -v error -y -f lavfi -i testsrc2=size=48x32:rate=1 -frames:v 1 -fflags +bitexact -flags +bitexact"
$ff -q:v 5 whole.jpg
$ff whole.png
$ff whole.gif
for format in jpg png gif; do
	size=$(wc -c < whole.$format)
	head -c $((size / 2)) whole.$format > cut-half.$format
	head -c $((size - 1)) whole.$format > cut-last-byte.$format
	head -c 40 whole.$format > cut-header.$format
	{ cat whole.$format; printf 'SEFH\001\000\000\000trailer of a phone\000SEFT'; } > trailer.$format
	cat whole.$format whole.$format > twice.$format
done
# A motion photo's shape: a JPEG, then an MP4 after its end.
ffmpeg -nostdin -v error -y -f lavfi -i testsrc2=size=32x32:rate=10 -frames:v 2 -c:v libx264 \
	-threads 1 -fflags +bitexact -flags:v +bitexact -map_metadata -1 "${TMPDIR:-/tmp}/seed-video.mp4"
cat whole.jpg "${TMPDIR:-/tmp}/seed-video.mp4" > motion-photo.jpg
rm -f "${TMPDIR:-/tmp}/seed-video.mp4"
