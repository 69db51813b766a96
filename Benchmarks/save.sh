#!/bin/bash
# `make bench`'s save rows, all from one run on the same files: `photofiler save --move`
# of $FILES 640 × 480 JPEGs (20-60 KB) with the desktop thumbnail cache on and off,
# `photosort sync` (PyPI, in the venv `make bench-deps` makes) on the same files, and
# the thumbnails of a burst dropped into a running daemon's inbox, cache on and off,
# against `vipsthumbnail` making the library's two sizes of the same files.
# Writes a Markdown table to $2 (default bench-results/save.md).
set -euo pipefail
photofiler=$(realpath "${1:-.build/release/photofiler}")
out=${2:-bench-results/save.md}
photosort=$(realpath "${PHOTOSORT:-.build/bench-venv/bin/photosort}")
files=${FILES:-2000}
# Desktop PNGs an asset: `large` for its roll file and its album entry (8 for a build
# that wrote all four sizes).
pngs=$((files * ${PNGS_PER_ASSET:-2}))
work=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null || true; rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R
seconds() { { time "$@" > /dev/null 2>&1; } 2>&1; }

# 20 pictures of blurred noise, each with its EXIF date (photosort skips a file without
# one), then $FILES files, each one of them with a JPEG comment of its own after the
# APP segments: distinct bytes, so each is an asset of its own for both.
mkdir "$work/base" "$work/set"
for i in $(seq 0 19); do
    vips gaussnoise "$work/noise.v" 640 480 --mean $((90 + i * 4)) --sigma 40
    vips gaussblur "$work/noise.v" "$work/blur.v" 1.4
    vips cast "$work/blur.v" "$work/grey.v" uchar
    vips bandjoin "$work/grey.v $work/grey.v $work/grey.v" "$work/rgb.v"
    vips copy "$work/rgb.v" "$work/base/$i.jpg[Q=$((70 + i % 15))]"
    exiftool -q -overwrite_original -DateTimeOriginal="2024:$(printf %02d $((1 + i % 12))):1$((i % 10)) 12:00:00" \
        "$work/base/$i.jpg"
done
python3 - "$work/base" "$work/set" "$files" << 'EOF'
import os, struct, sys
base, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
pictures = [open(os.path.join(base, f"{i}.jpg"), "rb").read() for i in range(20)]
for n in range(count):
    data = pictures[n % 20]
    at = 2
    while data[at + 1] in range(0xE0, 0xF0):  # APPn segments
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    text = f"photofiler save bench {n}".encode()
    segment = b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text
    with open(os.path.join(out, f"IMG_{n:05d}.jpg"), "wb") as f:
        f.write(data[:at] + segment + data[at:])
EOF
sizes=$(ls -l "$work/set" | awk 'NR > 1 {print $5}' | sort -n | sed -n '1p;$p' | tr '\n' ' ')

printf '[library]\ndesktop-thumbnails = false\n' > "$work/off.conf"
printf '[library]\n' > "$work/on.conf"
# Each run its own copy of the set, made now: photosort's copy waits out its 30 seconds
# while photofiler runs.
for run in on off daemon photosort burst-on burst-off; do cp -r "$work/set" "$work/in-$run"; done
copied=$(date +%s)

save() {  # on|off: save --move of the set into a fresh library, its own desktop cache
    XDG_CACHE_HOME=$work/cache-$1 seconds nice "$photofiler" save --quiet --move --album Bench \
        --config "$work/$1.conf" --library "$work/library-$1" "$work/in-$1"/*
}
save_on=$(save on)
save_off=$(save off)
# Beside a daemon watching the library: save ends once its files are filed, and the
# daemon makes the thumbnails after it (waited for, not timed).
daemon_save() {
    local library=$work/library-daemon cache=$work/cache-daemon
    mkdir -p "$work/daemon-inbox"
    XDG_CACHE_HOME=$cache nice "$photofiler" watch --config "$work/on.conf" --library "$library" \
        --inbox "Idle=$work/daemon-inbox" > "$work/daemon.log" 2>&1 &
    local daemon=$!
    until "$photofiler" status --json --library "$library" 2> /dev/null |
        python3 -c 'import json, sys; sys.exit(not json.load(sys.stdin)["running"])'; do
        sleep 0.1
    done
    XDG_CACHE_HOME=$cache seconds nice "$photofiler" save --quiet --move --album Bench \
        --config "$work/on.conf" --library "$library" "$work/in-daemon"/*
    until [ "$(find "$library/.photofiler/thumbnails" -name '*.jpg' 2> /dev/null | wc -l)" = $((files * 2)) ] &&
        [ "$(find "$cache" -name '*.png' 2> /dev/null | wc -l)" = "$pngs" ]; do
        sleep 0.2
    done
    kill "$daemon"
    wait "$daemon" || true
}
save_daemon=$(daemon_save)
filed_on=$(find "$work/library-on/Roll" -type f | wc -l)
desktop_on=$(find "$work/cache-on/thumbnails" -type f | wc -l)
[ "$filed_on" = "$files" ] || { echo "save filed $filed_on of $files" >&2; exit 1; }

# photosort sync: EXIF date, MD5 dedupe, moved into YYYY/MM. It leaves a file alone until
# it is 30 seconds unchanged (its walk.py): that wait is not timed.
cat > "$work/photosort.yml" << EOF
sources:
  bench:
    dir: $work/in-photosort
output:
  dir: $work/photosort-out
  dir_pattern: "%(year)d/%(month)02d"
  file_prefix: ""
  duplicates_dir: duplicates
  db_file: photos.csv
  log_file: photosort.log
  chmod: "0644"
EOF
mkdir -p "$work/photosort-out"
sleep $((copied + 32 - $(date +%s) > 0 ? copied + 32 - $(date +%s) : 0))
photosort_sync=$(seconds nice "$photosort" sync --config "$work/photosort.yml")
sorted=$(find "$work/photosort-out" -name '*.jpg' -path '*/20*' | wc -l)
[ "$sorted" = "$files" ] || { echo "photosort sorted $sorted of $files" >&2; exit 1; }

# A burst into a daemon's inbox: the time from the drop until every thumbnail is made
# (the library's two sizes, and with the cache on its large PNGs of the roll
# file and the album entry).
burst() {  # on|off
    local library=$work/burst-library-$1 inbox=$work/burst-inbox-$1 cache=$work/burst-cache-$1
    mkdir -p "$inbox"
    XDG_CACHE_HOME=$cache nice "$photofiler" watch --config "$work/$1.conf" --library "$library" \
        --inbox "Bench=$inbox" --settle 0 > "$work/burst-$1.log" 2>&1 &
    local daemon=$!
    until "$photofiler" status --library "$library" > /dev/null 2>&1; do sleep 0.1; done
    local want=0
    [ "$1" = on ] && want=$pngs
    local start=$(date +%s.%N)
    mv "$work/in-burst-$1"/* "$inbox/"
    until [ -z "$(ls -A "$inbox")" ] && [ "$(find "$library/.photofiler/thumbnails" -name '*.jpg' 2> /dev/null | wc -l)" = $((files * 2)) ] &&
        [ "$(find "$cache" -name '*.png' 2> /dev/null | wc -l)" = "$want" ]; do
        sleep 0.2
    done
    local end=$(date +%s.%N)
    kill "$daemon"
    wait "$daemon" || true
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}
burst_on=$(burst on)
burst_off=$(burst off)
mkdir "$work/vipsthumbnail"
floor=$(ls "$work/set"/* | seconds xargs -P "$cores" -n $(((files + cores - 1) / cores)) sh -c \
    'vipsthumbnail -s "1024>" -o "'"$work/vipsthumbnail"'/%s-1024.jpg[Q=82,strip]" "$@" &&
     vipsthumbnail -s "256>" -o "'"$work/vipsthumbnail"'/%s-256.jpg[Q=82,strip]" "$@"' _)

mkdir -p "$(dirname "$out")"
awk -v n="$files" -v sizes="$sizes" -v on="$save_on" -v off="$save_off" -v ps="$photosort_sync" \
    -v desktop="$desktop_on" -v daemon="$save_daemon" -v bon="$burst_on" -v boff="$burst_off" -v floor="$floor" -v cores="$cores" \
    -v version="$("$(dirname "$photosort")/pip" show photosort 2> /dev/null | sed -n 's/^Version: //p')" 'BEGIN {
    printf "## save and the desktop thumbnail cache (%d JPEGs, 640 × 480, %s bytes; %d cores)\n\n", n, sizes, cores
    printf "| run | time | files/s | target |\n| --- | ---: | ---: | --- |\n"
    printf "| `save --move`, desktop cache on (%d PNGs) | %.2f s | %.0f | ≤ 1.5× off: %.2f× |\n", desktop, on, n / on, on / off
    printf "| `save --move`, desktop cache off | %.2f s | %.0f | |\n", off, n / off
    printf "| `save --move` beside a running daemon (it makes the thumbnails after) | %.2f s | %.0f | |\n", daemon, n / daemon
    printf "| `photosort sync` %s (after its 30 s) | %.2f s | %.0f | save ≥ 10× faster: alone %.1f×, beside a daemon %.1f× |\n", version, ps, n / ps, ps / on, ps / daemon
    printf "| burst into the daemon until its thumbnails are made, cache on | %.2f s | %.0f | ≤ 1.5× off: %.2f× |\n", bon, n / bon, bon / boff
    printf "| the same, cache off | %.2f s | %.0f | |\n", boff, n / boff
    printf "| `vipsthumbnail` 1024 and 256 px of the same files, %d processes | %.2f s | %.0f | cache on ≤ 2×: %.2f× |\n", cores, floor, n / floor, bon / floor
}' | tee "$out"
