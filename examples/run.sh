#!/usr/bin/env bash
# run.sh — `make run`: the daemon in the foreground, watching the three demo
# inboxes under examples/inboxes, filing into ${PHOTOFILER_LIBRARY:-~/Pictures/PhotoFiler}.
# Stop it with Ctrl-C.
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
repo=$(cd -- "$here/.." && pwd)
binary="$repo/.build/release/photofiler"
library=${PHOTOFILER_LIBRARY:-"$HOME/Pictures/PhotoFiler"}

if [ ! -x "$binary" ]; then
    echo "run.sh: '$binary' is missing; build it first with 'make release' (or use 'make run')." >&2
    exit 1
fi

cd -- "$repo"
mkdir -p examples/inboxes/QQ examples/inboxes/WeChat examples/inboxes/Weibo

cat <<MESSAGE
photofiler is about to watch examples/inboxes/{QQ,WeChat,Weibo}
and file into the library $library.

In another terminal, play the apps:
    examples/demo.sh
then look at the result:
    $binary albums --library "$library"
    $binary list --library "$library"

The gallery (albums, covers, new pictures as they arrive) is at the address
printed below; Ctrl-C here stops the daemon and the gallery.

MESSAGE

# The gallery beside the daemon: it reads the same catalog and hears of every change.
"$binary" serve --library "$library" &
gallery=$!
trap 'kill "$gallery" 2>/dev/null || true' EXIT

"$binary" watch --library "$library" \
    --inbox QQ=examples/inboxes/QQ \
    --inbox WeChat=examples/inboxes/WeChat \
    --inbox Weibo=examples/inboxes/Weibo
