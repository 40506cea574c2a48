#!/bin/sh
# make bench: binform --schema. The first use of a 134-line schema binform never saw
# (tests/bench/bitmap.yaml: bfgen, the C compiler, the cache entry) with a cold cache, and
# 'check' of the T3DM samples through --schema schemas/t3dm.yaml (its entry cached) against
# the compiled-in t3dm, in CPU time (the processes' and their children's, user + system).
# usage: tests/bench/schema_bench.sh BINFORM SHARED_DIR [ROUNDS]
set -eu
binform=$1 shared=$2 rounds=${3:-40}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"

# cpu COMMAND...: the CPU seconds it took, with its children
cpu() { /usr/bin/time -f '%U %S %e' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
    awk '{ printf "%.3f", $1 + $2 }' "$tmp/time"; }
wall() { awk '{ printf "%.2f", $3 }' "$tmp/time"; }

t=$(cpu "$binform" formats --schema "$root/tests/bench/bitmap.yaml")
echo "bench: schema_first_use_cold $t s CPU ($(wall) s wall; $(wc -l < "$root/tests/bench/bitmap.yaml")-line schema, goal < 2 s)"
t=$(cpu "$binform" formats --schema "$root/tests/bench/bitmap.yaml")
echo "bench: schema_cached_use $t s CPU ($(wall) s wall)"

if [ ! -d "$shared/samples/t3dm" ]; then
    echo "bench: $shared/samples/t3dm not found; no schema_vs_compiled"
    exit 0
fi
find "$shared/samples/t3dm" -type f \( -name '*.t3dm' -o -name '*.sdata' \) | sort > "$tmp/files"
t3dm="$root/schemas/t3dm.yaml"
"$binform" formats --schema "$t3dm" >/dev/null # its entry, before the measured rounds
# rounds ARGS...: ROUNDS runs of 'binform check -q ARGS FILES'
cat > "$tmp/rounds.sh" <<'SH'
n=$1; shift; i=0
while [ "$i" -lt "$n" ]; do "$@" || [ $? -eq 1 ]; i=$((i + 1)); done
SH
compiled=$(cpu sh "$tmp/rounds.sh" "$rounds" sh -c '"$0" check -q $(cat "$1")' "$binform" "$tmp/files")
schema=$(cpu sh "$tmp/rounds.sh" "$rounds" sh -c '"$0" check -q --schema "$2" $(cat "$1")' "$binform" "$tmp/files" "$t3dm")
echo "bench: schema_vs_compiled $(echo "$schema $compiled" | awk '{ printf "%.2f", $1 / $2 }')" \
    "($rounds checks of the $(wc -l < "$tmp/files") T3DM samples: $schema s CPU through --schema, $compiled s compiled in; goal <= 1.3)"
