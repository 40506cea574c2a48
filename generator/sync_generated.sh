#!/bin/sh
# Brings a folder of generated code in line with the schemas: every file there that bfgen no
# longer writes (a removed schema's, a part a schema no longer asks for) is deleted first, so
# that the formats table bfgen then writes lists these schemas' formats and no others; bfgen
# rewrites only files whose content changed, so nothing recompiles for nothing.
# usage: sync_generated.sh BFGEN OUT_DIR SCRATCH_DIR SCHEMA.yaml...
set -eu
bfgen=$1 out=$2 scratch=$3
shift 3
rm -rf "$scratch" && mkdir -p "$scratch" "$out"
"$bfgen" --out "$scratch/files" "$@" > /dev/null
(cd "$scratch/files" && find . -type f | sort) > "$scratch/want"
(cd "$out" && find . -type f | sort) > "$scratch/have"
comm -13 "$scratch/want" "$scratch/have" | while read -r stale; do
    echo "removed $out/${stale#./} (no schema generates it any more)"
    rm -f "$out/$stale"
done
find "$out" -mindepth 1 -type d -empty -delete
"$bfgen" --out "$out" "$@"
rm -rf "$scratch"
