#!/bin/sh
# make sanitize: the helpers' decoding paths under AddressSanitizer (Swift, C, C++)
# and UndefinedBehaviorSanitizer (C, C++), built by the Makefile into BUILD
# (.build/sanitize/debug), over every file of Tests/Fixtures and the fuzz seeds:
#  1. `photofiler save` of every fixture file into a scratch library: each file
#     through the light and the full helper (type, completeness, metadata) and its
#     thumbnails at 256 and 1024 (libvips, libheif, libavcodec and libswscale),
#     in the sandboxed helpers as the daemon runs them;
#  2. `photofiler-fuzz --replay` of the fuzzer's inputs and of every fixture, then
#     mutations of the end-marker seeds (the daemon's EndMarkerScan) and of the
#     fuzzer's inputs.
# Any sanitizer report, a helper that dies or a fuzz run that outlasts its timeout
# (a decoder in a loop) fails the step; the reports are
# printed with the module and offset of each frame (a sandboxed helper cannot run
# llvm-symbolizer: `llvm-symbolizer --obj=MODULE OFFSET` names them).
# Debian's C libraries are not instrumented: ASan sees their heap through its
# malloc, not their every access.
set -eu
build=${1:-.build/sanitize/debug}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Leaks are not memory errors, and LeakSanitizer cannot stop a sandboxed helper's
# threads at exit (no ptrace there). max_allocation_size_mb bounds a bomb as
# RLIMIT_AS does in the shipped helpers (the sanitizers' shadow rules that limit out).
export ASAN_OPTIONS=detect_leaks=0:symbolize=0:halt_on_error=1:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:symbolize=0
# The Swift runtime's backtracer would wait on a crashed process; the sanitizers print the stack.
export SWIFT_BACKTRACE=enable=no
started=$(date +%s)
find Tests/Fixtures -type f ! -name '*.sh' ! -name '*.md' ! -name '*.tsv' ! -name '*.txt' ! -name '*.c' \
	| sort > "$work/fixtures"
seeds=Tests/Fixtures/fuzz-seeds/end-markers
fuzz_inputs=Tests/PhotoFilerCoreTests/Media/FuzzInputs
status=0
# save exits 1 for the files it refuses (the broken ones, on purpose); xargs says 123 then.
saved=0
tr '\n' '\0' < "$work/fixtures" | xargs -0 "$build/photofiler" save --library "$work/library" \
	> /dev/null 2> "$work/save.log" || saved=$?
[ "$saved" = 0 ] || [ "$saved" = 123 ] || status=$saved
{ cat "$work/fixtures"; find "$fuzz_inputs" -type f; } | tr '\n' '\0' \
	| xargs -0 timeout 600 "$build/photofiler-fuzz" --replay > "$work/fuzz.log" 2>&1 || status=$?
find "$seeds" "$fuzz_inputs" -type f ! -name '*.sh' | sort | tr '\n' '\0' \
	| xargs -0 timeout 900 "$build/photofiler-fuzz" --iterations "${SANITIZE_ITERATIONS:-20}" >> "$work/fuzz.log" 2>&1 \
	|| status=$?
files=$(wc -l < "$work/fixtures")
inputs=$(awk '/^photofiler-fuzz: [0-9]+ input/ { sum += $2 } END { print sum + 0 }' "$work/fuzz.log")
reports=$(cat "$work/save.log" "$work/fuzz.log" \
	| grep -cE 'ERROR: AddressSanitizer|runtime error:|Sanitizer: CHECK failed|sandboxed reader (crashed|stopped)' \
	|| true)
echo "sanitize: $files fixture files saved, $inputs fuzz inputs run in $(($(date +%s) - started)) s: $reports report(s)"
if [ "$reports" != 0 ] || [ "$status" != 0 ]; then
	cat "$work/save.log" "$work/fuzz.log" >&2
	echo "sanitize: FAILED (exit status $status; the reports are above)" >&2
	exit 1
fi
