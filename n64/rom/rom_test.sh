#!/bin/sh
# make n64-rom-test: the ROM images in cen64 against the host's binform.
#
#   rom_test.sh NAME MODEL IMAGE "RENDER OPTIONS" [NAME MODEL IMAGE "OPTIONS" ...]
#
#  1. Each picture: the framebuffer the console's RSP and RDP drew must equal,
#     pixel for pixel, the picture binform render draws on the host from the
#     same model with the same options (animation frame, camera, 16-bit colour).
#  2. The torus with a lying vertex count (broken-ipl.bin): the console must
#     report the same error, field path and byte offset as binform check.
# Environment (from rom.mk): BINFORM ROM_CHECK ROM_DIR ROM_TIMEOUT ROM_SAMPLE.
set -eu
dir=$ROM_DIR
pif=$dir/pif.bin

while [ $# -ge 4 ]; do
    name=$1 model=$2 image=$3 options=$4
    shift 4
    echo "== n64-rom-test: $name drawn on cen64 ($image) and by binform render"
    # shellcheck disable=SC2086 # the options are words
    "$BINFORM" render "$model" -o "$dir/$name-host.png" $options --stats
    sh n64/rom/run_cen64.sh "$ROM_TIMEOUT" "$pif" "$dir/$image" "$dir/$name.log"
    grep -E '^(model|check|draw|rsp|rdp|frame|heap|done):' "$dir/$name.log"
    "$ROM_CHECK" picture "$dir/$name.log" "$dir/$name-host.png" "$dir/$name-console.png"
done
[ -f "$ROM_SAMPLE" ] || echo "skipped: n64-rom-test's sample picture ($ROM_SAMPLE not found)"

echo "== n64-rom-test: a lying count, on cen64 (broken-ipl.bin) and by binform check"
sh n64/rom/run_cen64.sh "$ROM_TIMEOUT" "$pif" "$dir/broken-ipl.bin" "$dir/broken.log"
grep -E '^(model|check|done):' "$dir/broken.log"
set +e
"$BINFORM" check "$dir/models/torus-broken.t3dm" > "$dir/broken-host.txt"
host_status=$?
set -e
if [ $host_status -ne 1 ]; then
    echo "n64-rom-test: binform check should refuse torus-broken.t3dm (exit $host_status)"
    exit 1
fi
# the findings without the file names, as each side prints them
sed 's/^[^:]*: //' "$dir/broken-host.txt" > "$dir/broken-host.findings"
grep '^check: ' "$dir/broken.log" | grep -v '^check: [0-9]* errors' | sed 's/^check: [^:]*: //' \
    > "$dir/broken-console.findings"
if ! grep -q '^done: refused' "$dir/broken.log" || ! diff "$dir/broken-host.findings" "$dir/broken-console.findings"; then
    echo "n64-rom-test: the console's findings differ from binform check's (< host, > console)"
    exit 1
fi
echo "n64-rom-test: the console reports what binform check reports: $(cat "$dir/broken-console.findings")"
echo "n64-rom-test: every check passed"
