#!/bin/bash
# `make bench`'s gallery rows (issue 13's targets), one run:
# 1. thumbnail requests per second from `photofiler serve` against Debian's nginx
#    serving the very same thumbnail files, both loaded by wrk on loopback with
#    keep-alive, each URL in turn, as a ratio (target: photofiler >= 0.5x nginx);
# 2. the album page in headless chromium on a 100,000-asset library made by
#    photofiler-bench (first screen of thumbnails <= 1 s, jump to the oldest month
#    <= 300 ms), measured with the Performance API by gallery_browser_bench.py.
# Usage: gallery.sh PHOTOFILER PHOTOFILER-BENCH [OUT.md]; ASSETS=N for another size.
set -euo pipefail
photofiler=$(realpath "${1:-.build/release/photofiler}")
bench=$(realpath "${2:-.build/release/photofiler-bench}")
out=${3:-bench-results/gallery.md}
assets=${ASSETS:-100000}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
cores=$(nproc)
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The first line `serve` prints is its address; its port.
serve_port() {
    local log=$1
    for _ in $(seq 600); do
        if [ -s "$log" ]; then sed -n '1s#^http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$log"; return; fi
        sleep 0.1
    done
    echo "photofiler serve printed no address" >&2; exit 1
}
# Requests per second of wrk with the paths in $1, in turn, against port $2.
load() {
    PATHS=$1 wrk -t2 -c32 -d5s -s "$work/rotate.lua" "http://127.0.0.1:$2" | awk '/^Requests\/sec:/ { print $2 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cat > "$work/rotate.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local next = 0
request = function()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end
LUA

# 1. 500 distinct JPEGs (320-479 x 240-359 px of noise) filed with their thumbnails.
mkdir "$work/jpegs"
for i in $(seq 0 499); do
    vips gaussnoise "$work/jpegs/photo_$i.jpg[Q=90]" $((320 + i % 160)) $((240 + i % 120)) --mean 128 --sigma 40
done
library=$work/thumbs-library
printf '[library]\ndesktop-thumbnails = false\n' > "$work/off.conf"
"$photofiler" save --config "$work/off.conf" --library "$library" --album Bench "$work"/jpegs/* > /dev/null
"$photofiler" thumb --all --config "$work/off.conf" --library "$library" > /dev/null 2>&1
"$photofiler" list --library "$library" --json | /usr/bin/python3 -c '
import json, sys
assets = json.load(sys.stdin)
thumbs = sys.argv[1] + "/.photofiler/thumbnails/"
with open(sys.argv[2], "w") as ours, open(sys.argv[3], "w") as theirs:
    for asset in assets:
        assert asset["thumbnail"] and asset["thumbnail"].startswith(thumbs), asset
        ours.write("/api/assets/%d/thumbnail?size=256\n" % asset["id"])
        theirs.write("/" + asset["thumbnail"][len(thumbs):] + "\n")
' "$library" "$work/ours.txt" "$work/nginx.txt"

"$photofiler" serve --config "$work/off.conf" --library "$library" --listen 127.0.0.1:0 > "$work/serve.log" 2>&1 &
pids+=($!)
ours_port=$(serve_port "$work/serve.log")
nginx_port=$(free_port)
# The same files through sendfile, keep-alive without a request limit, no access log; as
# many workers as photofiler serve has pool threads (HTTPLimits.threads), so on a shared
# machine the scheduler gives both the same number of runnable threads.
cat > "$work/nginx.conf" <<NGINX
worker_processes 4;
user root;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { image/jpeg jpg; }
    server { listen 127.0.0.1:$nginx_port; root $library/.photofiler/thumbnails; }
}
NGINX
nginx -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf" &
pids+=($!)
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && break; sleep 0.1; done
first=$(head -1 "$work/nginx.txt")
cmp <(curl -s "http://127.0.0.1:$nginx_port$first") <(curl -s "http://127.0.0.1:$ours_port$(head -1 "$work/ours.txt")") ||
    { echo "nginx and photofiler serve different bytes for the first thumbnail" >&2; exit 1; }
# A warm-up each, then five rounds taking turns (a shared machine's load moves; both see it alike).
load "$work/ours.txt" "$ours_port" > /dev/null
load "$work/nginx.txt" "$nginx_port" > /dev/null
for _ in 1 2 3 4 5; do
    load "$work/ours.txt" "$ours_port" >> "$work/ours.rps"
    load "$work/nginx.txt" "$nginx_port" >> "$work/nginx.rps"
done
ours_rps=$(median < "$work/ours.rps")
nginx_rps=$(median < "$work/nginx.rps")
thumb_size=$(stat -c %s "$library/.photofiler/thumbnails$first")

# 2. The browser on the large library.
"$bench" --make-library "$work/large" --assets "$assets"
browser=$(/usr/bin/python3 "$here/gallery_browser_bench.py" "$photofiler" "$work/large")

{
    echo "| gallery | photofiler serve | Debian nginx | photofiler ÷ nginx | target |"
    echo "| --- | --- | --- | --- | --- |"
    awk -v a="$ours_rps" -v b="$nginx_rps" -v n="$(wc -l < "$work/ours.txt")" -v s="$thumb_size" 'BEGIN {
        printf "| 256 px thumbnails, %d in turn (~%.0f KB), wrk -t2 -c32, keep-alive, median of 5 alternating 5 s rounds | %.0f req/s | %.0f req/s | %.2f× | ≥ 0.5× |\n",
            n, s / 1024, a, b, a / b }'
    echo
    echo "$browser"
    echo
    echo "Load average when done: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores."
} | tee "$out"
