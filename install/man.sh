#!/bin/sh
# Writes a man page per command into DIR from the commands' own --help, so that the pages
# and the help never disagree: binform.1, binform-CMD.1 for each command, bfgen.1.
# usage: install/man.sh BINFORM BFGEN DIR VERSION
set -eu
binform=$1 bfgen=$2 dir=$3 version=$4
mkdir -p "$dir"

# roff-safe text: backslashes doubled, lines starting with . or ' escaped
escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

page() { # NAME SECTION-TITLE SUMMARY; the help text on stdin
    name=$1 title=$2 summary=$3
    {
        echo ".TH $(echo "$name" | tr a-z A-Z) 1 \"\" \"binform $version\" \"$title\""
        echo ".SH NAME"
        echo "$name \\- $summary"
        echo ".SH DESCRIPTION"
        echo ".nf"
        escape
        echo ".fi"
        echo ".SH SEE ALSO"
        echo "binform(1), bfgen(1)"
    } > "$dir/$name.1"
}

"$binform" --help | page binform "binform" "read, check, dump and build binary files described by schemas"
"$binform" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1 \2/p' | while read -r cmd summary; do
    [ "$cmd" = help ] && continue
    "$binform" help "$cmd" | page "binform-$cmd" "binform" "$summary"
done
"$bfgen" --help | page bfgen "bfgen" "generate C readers, writers, validators and docs from binary schemas"
