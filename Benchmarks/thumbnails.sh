#!/bin/bash
# `make bench`'s thumbnail rows: `photofiler thumb --all` against `vipsthumbnail` (the
# same library without photofiler around it) on the same files, the same two sizes
# (1024 and 256 px, never enlarged, JPEG Q 82, stripped), both using both cores.
# Writes a Markdown table to $2 (default bench-results/thumbnails.md).
set -euo pipefail
photofiler=$(realpath "${1:-.build/release/photofiler}")
out=${2:-bench-results/thumbnails.md}
corpus=$(realpath "${CORPUS:-Tests/Fixtures/corpus}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R

# 1,000 distinct JPEGs the size of the filing benchmark's (256-416 × 192-312 px of noise).
mkdir "$work/jpegs"
for i in $(seq 0 999); do
    vips gaussnoise "$work/jpegs/photo_$i.jpg[Q=90]" $((256 + i % 160)) $((192 + i % 120)) --mean 128 --sigma 40
done
# 20 distinct HEICs: the corpus's two, each with a small `free` box of its own appended
# (valid ISO-BMFF, so each copy is a new asset).
mkdir "$work/heics"
for n in $(seq 10 29); do
    for name in IMG_2682 libheif_example; do
        cp "$corpus/$name.heic" "$work/heics/$name-$n.heic"
        printf '\000\000\000\023freepf-bench-%s' "$n" >> "$work/heics/$name-$n.heic"
    done
done

seconds() { { time "$@" > /dev/null 2>&1; } 2>&1; }
# One library per set, desktop thumbnails off (vipsthumbnail makes no desktop entries).
printf '[library]\ndesktop-thumbnails = false\n' > "$work/off.conf"
ours() {  # folder: files filed with save, then their thumbnails removed and timed
    local library=$work/library-$1
    XDG_CACHE_HOME=$work/cache "$photofiler" save --config "$work/off.conf" --library "$library" "$work/$1"/* > /dev/null 2>&1
    rm -rf "$library/.photofiler/thumbnails"
    seconds "$photofiler" thumb --all --config "$work/off.conf" --library "$library"
}
floor() {  # folder: vipsthumbnail at both sizes, the files split over the cores
    mkdir -p "$work/floor-$1"
    ls "$work/$1"/* | seconds xargs -P "$cores" -n $(( ($(ls "$work/$1" | wc -l) + cores - 1) / cores )) sh -c \
        'vipsthumbnail -s "1024>" -o "'"$work/floor-$1"'/%s-1024.jpg[Q=82,strip]" "$@" &&
         vipsthumbnail -s "256>" -o "'"$work/floor-$1"'/%s-256.jpg[Q=82,strip]" "$@"' _
}
desktop() {  # the JPEG library again, with the desktop cache (8 PNGs an asset) on
    rm -rf "$work/library-jpegs/.photofiler/thumbnails"
    XDG_CACHE_HOME=$work/cache seconds "$photofiler" thumb --all --library "$work/library-jpegs"
}

# Peak memory of the helper that makes one 48-megapixel picture's thumbnails (8000 ×
# 6000, as a current phone's main camera): a daemon files it, the background queue
# has a helper decode it, and that helper's VmHWM is read while it waits out its idle
# minute. JPEG shrinks on load; a grid HEIC is decoded tile by tile; a one-image HEIC
# is decoded whole by libde265, then shrunk from its YCbCr planes; PNG is decoded whole.
# The pictures take minutes to make (x265 encodes the grid's 192 tiles of noise one
# by one): they are made once and kept in bench-cache beside the release build
# (BENCH_CACHE), where photofiler-bench keeps its workload. Bump the version when they
# are made another way.
big=$(realpath -m "${BENCH_CACHE:-$(dirname "$photofiler")/../bench-cache}")/thumbnails-48mp-v2
if [ ! -s "$big/48mp-grid.heic" ]; then
    rm -rf "$big.partial"
    mkdir -p "$big.partial"
    (
        cd "$big.partial"
        vips gaussnoise float.v 8000 6000 --mean 128 --sigma 30
        vips cast float.v noise.v uchar
        vips bandjoin "noise.v noise.v noise.v" rgb.v
        vips copy rgb.v "48mp.jpg[Q=90]"
        vips copy rgb.v "48mp.png[compression=1]"
        heif-enc -q 60 -p preset=ultrafast -o 48mp.heic 48mp.jpg > /dev/null
        # As a phone writes it: a grid of 512 px tiles (heif-enc's tiled input, named
        # tile-ROW-COLUMN; dzsave's google layout pads the last ones, the grid crops them).
        vips dzsave 48mp.jpg dz --layout google --tile-size 512 --overlap 0 --depth one --suffix '.jpg[Q=90]'
        mkdir tiles
        for tile in dz/0/*/*.jpg; do
            row=$(basename "$(dirname "$tile")"); column=$(basename "$tile" .jpg)
            mv "$tile" "tiles/tile-$(printf %02d "$row")-$(printf %02d "$column").jpg"
        done
        heif-enc -q 60 -p preset=ultrafast -T --tiled-image-width 8000 --tiled-image-height 6000 \
            -o 48mp-grid.heic tiles/tile-00-00.jpg > /dev/null
        rm -r dz tiles ./*.v
    )
    rm -rf "$big"
    mv "$big.partial" "$big"
fi
helper_peak() {  # file: the helper's VmHWM in MB
    local name=$(basename "$1") dir=$work/peak-$(basename "$1")
    mkdir -p "$dir/inbox"
    XDG_CACHE_HOME=$work/cache "$photofiler" watch --config "$work/off.conf" --library "$dir/library" \
        --inbox "Big=$dir/inbox" --settle 0 > "$dir/log" 2>&1 &
    local daemon=$!
    until "$photofiler" status --library "$dir/library" > /dev/null 2>&1; do sleep 0.1; done
    cp "$1" "$dir/inbox/"
    # A benchmark may poll: wait until it is filed and its thumbnails are made.
    until [ -z "$(ls -A "$dir/inbox")" ] && "$photofiler" status --json --library "$dir/library" |
        python3 -c 'import json, sys; s = json.load(sys.stdin); sys.exit(not (s["assets"] == 1 and s["thumbnailsPending"] == 0))'; do
        sleep 0.2
    done
    local peak=0 pid kb
    for pid in $(pgrep -P "$daemon" photofiler-help); do
        kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
        [ "${kb:-0}" -gt "$peak" ] && peak=$kb
    done
    kill "$daemon"; wait "$daemon" || true
    [ -s "$dir/library/.photofiler/thumbnails/"*/*-1024.jpg ] || { echo "no thumbnail of $name" >&2; exit 1; }
    echo $((peak / 1024))
}
peak_jpeg=$(helper_peak "$big/48mp.jpg")
peak_png=$(helper_peak "$big/48mp.png")
peak_heic=$(helper_peak "$big/48mp.heic")
peak_heic_grid=$(helper_peak "$big/48mp-grid.heic")

row() {  # label count ours floor
    awk -v label="$1" -v n="$2" -v a="$3" -v b="$4" 'BEGIN {
        printf "| %s | %.2f s (%.1f/s) | %.2f s (%.1f/s) | %.2f× |\n", label, a, n / a, b, n / b, b / a }'
}
jpegs_ours=$(ours jpegs); jpegs_floor=$(floor jpegs)
heics_ours=$(ours heics); heics_floor=$(floor heics)
jpegs_desktop=$(desktop)
{
    echo "| thumbnails (1024 + 256 px) of | photofiler thumb --all | vipsthumbnail, $cores processes | photofiler ÷ floor |"
    echo "| --- | --- | --- | --- |"
    row "1,000 bench JPEGs" 1000 "$jpegs_ours" "$jpegs_floor"
    row "20 corpus HEICs" 20 "$heics_ours" "$heics_floor"
    awk -v a="$jpegs_desktop" 'BEGIN { printf "| 1,000 bench JPEGs, with the desktop cache (8 PNGs more each) | %.2f s (%.1f/s) | | |\n", a, 1000 / a }'
    echo
    echo "| helper's peak memory (VmHWM) making the thumbnails of one 48-megapixel (8000 × 6000) | MB | target |"
    echo "| --- | ---: | --- |"
    echo "| JPEG (shrink-on-load) | $peak_jpeg | ≤ 150 MB |"
    echo "| PNG | $peak_png | ≤ 150 MB |"
    echo "| HEIC, one 48 MP image (x265; libde265 decodes it whole, shrunk from its YCbCr planes) | $peak_heic | ≤ 150 MB |"
    echo "| HEIC, a grid of 512 px tiles as a phone writes (decoded tile by tile) | $peak_heic_grid | ≤ 150 MB |"
    echo
    echo "Load average when done: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores."
} | tee "$out"
