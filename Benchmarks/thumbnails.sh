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
    echo "Load average when done: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores."
} | tee "$out"
