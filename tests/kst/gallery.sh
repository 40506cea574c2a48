#!/bin/sh
# gallery.sh GALLERY BFGEN OUT: Kaitai's format gallery (a checkout of kaitai_struct_formats,
# read where it lies, never copied in) imported with `bfgen import`, each schema generated and
# its C compiled with the project's flags. One line per format (ok, or the first step that
# refused it and its first message), then the totals and the constructs that stopped most.
set -u
gallery=$(cd "$1" && pwd) bfgen=$(realpath "$2") out=$3
flags="-std=c11 -Wall -Wextra -Werror"
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
total=0 imported=0 compiled=0
: > "$out/why"
for ksy in $(cd "$gallery" && find . -name '*.ksy' | sed 's|^\./||' | LC_ALL=C sort); do
    total=$((total + 1))
    name=$(basename "$ksy" .ksy)
    dir=$out/$(dirname "$ksy")/$name
    mkdir -p "$dir"
    if ! "$bfgen" import "$gallery/$ksy" -I "$gallery" -o "$dir/$name.yaml" > "$dir/log" 2>&1; then
        why=$(grep -m1 'error:' "$dir/log" | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //')
        echo "$ksy: import: $why"
        grep 'error:' "$dir/log" | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //; s/ '"'"'[^'"'"']*'"'"'/ X/g' >> "$out/why"
        continue
    fi
    imported=$((imported + 1))
    # the format's schema only: those it imports (written beside it) are libraries it names
    if ! "$bfgen" --out "$dir/c" "$dir/$name.yaml" >> "$dir/log" 2>&1; then
        echo "$ksy: bfgen: $(grep -m1 'error' "$dir/log" | cut -c1-200)"
        continue
    fi
    bad=""
    for c in "$dir"/c/*.c; do
        gcc $flags -c -o /dev/null -I"$root/runtime" -iquote "$dir/c" "$c" >> "$dir/log" 2>&1 || { bad=$(basename "$c"); break; }
    done
    if [ -n "$bad" ]; then
        echo "$ksy: cc: $bad: $(grep -m1 'error:' "$dir/log" | cut -c1-200)"
        continue
    fi
    compiled=$((compiled + 1))
    echo "$ksy: ok"
done
echo "== what stopped the imports most (a format can have several):"
sort "$out/why" | uniq -c | sort -rn | head -12
echo "== kaitai-gallery: $total formats: $imported imported, $compiled imported and compiled ($((100 * compiled / total)) %)"
