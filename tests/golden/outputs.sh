#!/bin/sh
# outputs.sh record|compare BINFORM SHARED: what dump, check, explain and explain --html print
# for every sample file and every binary fixture, and for each sample cut to half and to a
# quarter of its size (so read errors count too), as one sha256 a line in outputs.sha256.
# `record` rewrites that list; `compare` fails on any line that changed. Reading and writing
# paths may be rebuilt freely, but what users see of a file must not move.
set -u
mode=$1 binform=$(realpath "$2") shared=$3
here=$(cd "$(dirname "$0")" && pwd)
list=$here/outputs.sha256
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT INT TERM

# hash_outputs ROOT LABEL: one line per file under ROOT and command, paths relative to ROOT.
hash_outputs() {
    (cd "$1" && find . -type f \( -name '*.t3dm' -o -name '*.sdata' -o -name '*.p3m' -o -name '*.tmd' \
            -o -name '*.tkl' -o -name '*.tml' -o -name '*.bmd' -o -name '*.bdl' -o -name '*.sprite' \) \
            | LC_ALL=C sort) | while read -r rel; do
        rel=${rel#./}
        for cut in 1 2 4; do
            name=$rel input=$rel
            if [ "$cut" != 1 ]; then
                size=$(wc -c < "$1/$rel")
                input=$tmp/cut && head -c $((size / cut)) "$1/$rel" > "$input"
                name="$rel/$cut"
                # The cut file sits apart from its set: the same name keeps the same kind.
                mkdir -p "$tmp/d" && input=$tmp/d/$(basename "$rel") && mv "$tmp/cut" "$input"
            else
                input=$1/$rel
            fi
            for cmd in dump check explain html; do
                case $cmd in
                    html) (cd "$(dirname "$input")" && "$binform" explain --html "$tmp/page.html" \
                            "$(basename "$input")" > "$tmp/out" 2>&1; echo "exit $?" >> "$tmp/out"; \
                            cat "$tmp/page.html" >> "$tmp/out" 2>/dev/null; rm -f "$tmp/page.html") ;;
                    *) (cd "$(dirname "$input")" && "$binform" "$cmd" $([ "$cmd" = check ] && echo -v) "$(basename "$input")" \
                            > "$tmp/out" 2>&1; echo "exit $?" >> "$tmp/out") ;;
                esac
                echo "$(sha256sum < "$tmp/out" | cut -c1-64) $2 $cmd $name"
            done
            [ "$cut" != 1 ] && rm -f "$input"
        done
    done
}

{
    hash_outputs "$here/../fixtures" fixtures
    [ -d "$shared/samples" ] && hash_outputs "$shared/samples" samples
} > "$tmp/now"

case $mode in
record)
    cp "$tmp/now" "$list"
    echo "outputs.sh: recorded $(wc -l < "$list") outputs" ;;
compare)
    if [ ! -d "$shared/samples" ]; then
        grep ' fixtures ' "$list" > "$tmp/want"
        echo "skipped: golden outputs of the samples ($shared/samples not found)"
    else
        cp "$list" "$tmp/want"
    fi
    if ! diff "$tmp/want" "$tmp/now" > "$tmp/diff"; then
        echo "outputs.sh: what binform prints changed (< recorded, > now):"
        cat "$tmp/diff"
        exit 1
    fi
    echo "outputs.sh: $(wc -l < "$tmp/now") outputs as recorded" ;;
*) echo "usage: outputs.sh record|compare BINFORM SHARED" >&2; exit 2 ;;
esac
