#!/bin/sh
# make n64-rom-test: the ROM images in cen64 against the host's binform.
#  1. The torus: the framebuffer the console's RSP and RDP drew must equal,
#     pixel for pixel, the picture binform render draws on the host with the
#     same model, animation frame and camera (ROM_RENDER_ARGS).
#  2. The torus with a lying vertex count: the console must report the same
#     error, field path and byte offset as binform check on the host.
# Environment (from rom.mk): BINFORM ROM_CHECK ROM_DIR ROM_TIMEOUT ROM_RENDER_ARGS.
set -eu
dir=$ROM_DIR
models=$dir/models

echo "== n64-rom-test: the torus drawn on cen64 and by binform render"
# shellcheck disable=SC2086 # the options are words
"$BINFORM" render "$models/torus.t3dm" -o "$dir/torus-host.png" $ROM_RENDER_ARGS --stats
sh n64/rom/run_cen64.sh "$ROM_TIMEOUT" "$dir/pif.bin" "$dir/binform-ipl.bin" "$dir/binform.log"
grep -E '^(model|check|draw|rsp|rdp|frame|heap|done):' "$dir/binform.log"
"$ROM_CHECK" picture "$dir/binform.log" "$dir/torus-host.png"

echo "== n64-rom-test: a lying count, on cen64 and by binform check"
sh n64/rom/run_cen64.sh "$ROM_TIMEOUT" "$dir/pif.bin" "$dir/broken-ipl.bin" "$dir/broken.log"
grep -E '^(model|check|done):' "$dir/broken.log"
set +e
"$BINFORM" check "$models/torus-broken.t3dm" > "$dir/broken-host.txt"
host_status=$?
set -e
if [ $host_status -ne 1 ]; then
    echo "n64-rom-test: binform check should refuse torus-broken.t3dm (exit $host_status)"
    exit 1
fi
# the findings without the file names, as each side prints them
sed 's/^[^:]*: //' "$dir/broken-host.txt" > "$dir/broken-host.findings"
grep '^check: ' "$dir/broken.log" | grep -v '^check: [0-9]* errors' | sed 's/^check: [^:]*: //' \
    > "$dir/broken-rom.findings"
if ! grep -q '^done: refused' "$dir/broken.log" || ! diff "$dir/broken-host.findings" "$dir/broken-rom.findings"; then
    echo "n64-rom-test: the console's findings differ from binform check's (< host, > console)"
    exit 1
fi
echo "n64-rom-test: the console reports what binform check reports: $(cat "$dir/broken-rom.findings")"
echo "n64-rom-test: both checks passed"
