#!/bin/sh
# make bench: what 'binform explain --html' costs on the largest samples (the J3D models and the
# largest T3DM): the page's size and the peak memory, each also per byte of the file.
# usage: tests/bench/explain_page.sh BINFORM SHARED_DIR
set -eu
binform=$1 shared=$2
if [ ! -d "$shared/samples/bmd" ]; then
    echo "explain page: $shared/samples not found; nothing to measure"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for file in $(find "$shared/samples/bmd" -name '*.bmd' -o -name '*.bdl' | sort) "$shared/samples/t3dm/17_culling/platformer.t3dm"; do
    [ -f "$file" ] || continue
    size=$(wc -c < "$file")
    kib=$(/usr/bin/time -f %M "$binform" explain --html "$tmp/page.html" "$file" 2>&1 >/dev/null | tail -1)
    page=$(wc -c < "$tmp/page.html")
    awk -v f="${file#$shared/samples/}" -v s="$size" -v p="$page" -v k="$kib" 'BEGIN {
        printf "explain --html %-32s %7d bytes: page %8d bytes (%5.1f per byte), peak %6d KiB (%5.0f per byte)\n",
               f, s, p, p / s, k, k * 1024 / s }'
done
