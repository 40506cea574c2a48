#!/bin/sh
# make bench: how many files per second 'binform check -r --no-set --jobs N --json-lines' gets through
# on a tree of 100 000 files: hard links to the samples (or to the project's own models when
# the samples are absent), 1000 to a folder, in a temporary directory removed afterwards.
# usage: tests/bench/batch_check.sh BINFORM SHARED_DIR [FILES] [JOBS]
set -eu
binform=$1 shared=$2 total=${3:-100000} jobs=${4:-$(nproc)}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$shared/samples" ]; then
    find "$shared/samples" -type f ! -name '*.md' ! -path '*nonconforming*' | sort > "$tmp/sources"
else
    echo "batch: $shared/samples not found; using the project's own models"
    find "$root/tests/fixtures/demo" "$root/tests/fixtures/sprite" -type f \( -name '*.t3dm' -o -name '*.sdata' -o -name '*.sprite' \) | sort > "$tmp/sources"
fi
sources=$(wc -l < "$tmp/sources")
# one folder of 1000 links, then copies of it made of links (cp -al): no process per file
mkdir -p "$tmp/tree/000"
awk '{ src[NR] = $0 } END {
    for (i = 0; i < 1000; i++) { n = split(src[i % NR + 1], parts, "/"); printf "%s\t%04d_%s\n", src[i % NR + 1], i, parts[n] } }' \
    "$tmp/sources" | while IFS="$(printf '\t')" read -r src name; do ln "$src" "$tmp/tree/000/$name"; done
folders=$(( (total + 999) / 1000 ))
i=1
while [ "$i" -lt "$folders" ]; do cp -al "$tmp/tree/000" "$tmp/tree/$(printf %03d "$i")"; i=$((i + 1)); done
made=$(find "$tmp/tree" -type f | wc -l)
bytes=$(find "$tmp/tree" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
start=$(date +%s.%N)
status=0
# --no-set: the links are renamed (0042_snake.t3dm), so a model's streams and a TMD's library are
# not where its schema's names say; each file is checked alone, as before file sets
"$binform" check -r --no-set --jobs "$jobs" --json-lines "$tmp/tree" > "$tmp/lines" 2> "$tmp/summary" || status=$?
end=$(date +%s.%N)
lines=$(wc -l < "$tmp/lines")
awk -v made="$made" -v lines="$lines" -v start="$start" -v end="$end" -v jobs="$jobs" -v sources="$sources" -v bytes="$bytes" 'BEGIN {
    t = end - start
    printf "batch check: %d files (%d distinct samples, %.1f MB) with --jobs %d: %.2f s, %.0f files/s, %.1f MB/s; %d JSON lines\n",
        made, sources, bytes / 1e6, jobs, t, made / t, bytes / 1e6 / t, lines }'
sed 's/^/batch check: /' "$tmp/summary"
[ "$lines" = "$made" ] || { echo "batch check: $lines lines for $made files"; exit 1; }
echo "batch check: exit status $status"
