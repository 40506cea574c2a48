#!/bin/sh
# embed_files.sh OUT.c HEADER NAME FILE [NAME FILE]...: each FILE as `const char NAME[]`, its
# bytes and a closing zero, declared in HEADER. binform carries the files it writes out (the
# explain page's style and script) built in, and they stay files in the tree, edited as what
# they are.
set -eu
out=$1
header=$2
shift 2
{
    echo "/* Written by cli/binform/embed_files.sh. Do not edit. */"
    echo "#include \"$header\""
    while [ $# -ge 2 ]; do
        echo
        echo "/* $2 */"
        echo "const char $1[] = {"
        od -An -v -tx1 "$2" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/    /'
        echo "    0,"
        echo "};"
        shift 2
    done
} > "$out.tmp"
mv "$out.tmp" "$out"
