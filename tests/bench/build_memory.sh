#!/bin/sh
# make bench: the memory 'binform build' takes (maximum resident set, /usr/bin/time) for the dump
# of the largest sample (the project's pyramid when the samples are absent), pretty and
# compact, both ways of building, and for the densest JSON there is ([0,0,...], 9 MB: refused
# as a document once parsed, so the figure is the parser's).
# usage: tests/bench/build_memory.sh BINFORM SHARED_DIR
set -eu
binform=$1 shared=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$shared/samples" ]; then
    largest=$(find "$shared/samples" -type f ! -name '*.md' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
else
    largest=$root/tests/fixtures/demo/pyramid.t3dm
fi
"$binform" dump "$largest" > "$tmp/pretty.json"
"$binform" dump --compact "$largest" > "$tmp/compact.json"
awk 'BEGIN { printf "["; for (i = 1; i < 4500000; i++) printf "0,"; print "0]" }' > "$tmp/dense.json"
measure() { # NAME JSON OPTIONS...
    name=$1 json=$2
    shift 2
    kib=$( { /usr/bin/time -f '%M' "$binform" build "$@" "$json" -o "$tmp/out" 2>&1 >/dev/null || true; } | tail -1)
    bytes=$(wc -c < "$json")
    awk -v n="$name" -v b="$bytes" -v k="$kib" 'BEGIN {
        printf "build memory, %-34s %9d bytes of JSON: %7d KiB (%.1f x the JSON)\n", n ":", b, k, k * 1024 / b }'
}
echo "== binform build: memory for $(basename "$largest") and the densest JSON"
measure "$(basename "$largest") dump" "$tmp/pretty.json"
measure "$(basename "$largest") dump, --keep-layout" "$tmp/pretty.json" --keep-layout
measure "$(basename "$largest") dump --compact" "$tmp/compact.json"
measure "[0,0,...] (parser only)" "$tmp/dense.json"
