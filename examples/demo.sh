#!/usr/bin/env bash
# demo.sh — play three chat apps saving pictures into their export folders, the
# way each of them really writes, so that a running `photofiler watch` can be
# seen filing them (and ignoring what it must ignore).
#
#   examples/run.sh            # terminal 1: the daemon, watching examples/inboxes/*
#   examples/demo.sh           # terminal 2: the apps
#   examples/demo.sh DIR       # use DIR/QQ, DIR/WeChat, DIR/Weibo as the inboxes
#   photofiler albums          # then look
#
# DEMO_PAUSE (seconds, default 1) is how long WeChat stops between chunks: it is
# longer than the daemon's settle time (300 ms), yet the file is not filed
# early, because WeChat still holds it open for writing.
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
pictures="$here/pictures"
root=${1:-"$here/inboxes"}
pause=${DEMO_PAUSE:-1}

qq="$root/QQ"
wechat="$root/WeChat"
weibo="$root/Weibo"

if [ -t 1 ]; then
    say() { printf '\033[1m%s\033[0m %s\n' "$1" "$2"; }
else
    say() { printf '%s %s\n' "$1" "$2"; }
fi

for picture in harbour.jpg sunset.jpg mmexport1701428096000.jpg IMG_20231201_123456.jpg \
    Screenshot_20240105-093000.png wx_camera_1704441600000.jpg; do
    if [ ! -f "$pictures/$picture" ]; then
        echo "demo.sh: the sample picture '$pictures/$picture' is missing; restore examples/pictures from git." >&2
        exit 1
    fi
done
mkdir -p -- "$qq" "$wechat" "$weibo"
say "inboxes:" "$qq  $wechat  $weibo"

# QQ writes a hidden temporary file, then renames it into place: one atomic
# IN_MOVED_TO, the easy case. Its names carry the date: QQ图片YYYYMMDDhhmmss.jpg.
say "QQ" "saves QQ图片20230714162000.jpg (temp file + atomic rename; EXIF date 2023-07-14 16:20 +08:00)"
cp -- "$pictures/harbour.jpg" "$qq/.QQ图片20230714162000.jpg.tmp"
mv -- "$qq/.QQ图片20230714162000.jpg.tmp" "$qq/QQ图片20230714162000.jpg"

say "QQ" "saves Screenshot_20240105-093000.png (date from the name: 2024-01-05 09:30)"
cp -- "$pictures/Screenshot_20240105-093000.png" "$qq/.screenshot.tmp"
mv -- "$qq/.screenshot.tmp" "$qq/Screenshot_20240105-093000.png"

# WeChat strips EXIF and names exports mmexport<Unix ms>.jpg; it writes in
# chunks with pauses, keeping the file open the whole time.
target="$wechat/mmexport1701428096000.jpg"
size=$(wc -c <"$pictures/mmexport1701428096000.jpg")
chunk=4096
chunks=$(((size + chunk - 1) / chunk))
say "WeChat" "writes mmexport1701428096000.jpg slowly: $chunks chunks of $chunk bytes, ${pause}s apart, one open file"
exec 3>"$target"
index=0
while [ "$index" -lt "$chunks" ]; do
    dd if="$pictures/mmexport1701428096000.jpg" bs="$chunk" skip="$index" count=1 status=none >&3
    index=$((index + 1))
    printf '  chunk %d/%d written\n' "$index" "$chunks"
    if [ "$index" -lt "$chunks" ]; then sleep "$pause"; fi
done
exec 3>&-
say "WeChat" "closed mmexport1701428096000.jpg (only now may it be filed: 2023-12-01 10:54:56 UTC from the name)"

say "WeChat" "saves wx_camera_1704441600000.jpg (date from the name: 2024-01-05 08:00 UTC)"
cp -- "$pictures/wx_camera_1704441600000.jpg" "$wechat/wx_camera_1704441600000.jpg"

say "WeChat" "leaves a zero-byte placeholder placeholder.jpg (must NOT be filed)"
: >"$wechat/placeholder.jpg"

# Weibo downloads like a browser: NAME.part grows, then is renamed to NAME.
say "Weibo" "downloads IMG_20231201_123456.jpg via IMG_20231201_123456.jpg.part (date from the name)"
cp -- "$pictures/IMG_20231201_123456.jpg" "$weibo/IMG_20231201_123456.jpg.part"
sleep "$pause"
mv -- "$weibo/IMG_20231201_123456.jpg.part" "$weibo/IMG_20231201_123456.jpg"

say "Weibo" "downloads sunset.jpg via sunset.jpg.part (EXIF date 2022-12-31 18:45)"
cp -- "$pictures/sunset.jpg" "$weibo/sunset.jpg.part"
mv -- "$weibo/sunset.jpg.part" "$weibo/sunset.jpg"

say "Weibo" "leaves an unfinished download harbour.jpg.tmp (must NOT be filed)"
dd if="$pictures/harbour.jpg" of="$weibo/harbour.jpg.tmp" bs=2048 count=1 status=none

# The same bytes from a second app: one asset in the Roll, in both albums.
say "QQ" "saves the same sunset again as QQ图片20221231184510.jpg (a duplicate: no second roll file, joins album QQ)"
cp -- "$pictures/sunset.jpg" "$qq/.dup.tmp"
mv -- "$qq/.dup.tmp" "$qq/QQ图片20221231184510.jpg"

echo
say "done." "Expect 6 assets in the Roll and albums QQ (3), WeChat (2), Weibo (2); then try:"
echo "  photofiler albums"
echo "  photofiler list --album QQ"
echo "Left in the inboxes: $wechat/placeholder.jpg and $weibo/harbour.jpg.tmp (never filed)."
