#!/bin/sh
# Every schema bfgen is given either generates C that compiles with the project's flags, or
# is refused with located errors (FILE:LINE:COL: error: ...), exit status 1 and no crash.
#
#   compile_schemas.sh BFGEN CC JOBS SCHEMA...
#
# Each schema is generated alone into its own folder (several define one format name), and
# each generated .c is compiled at -O0 (not -fsyntax-only: gcc finds unused static constants only
# when it compiles). JOBS
# schemas at a time.
set -u
if [ "${1:-}" = --one ]; then
    bfgen=$2 cc=$3 schema=$4 work=$5
    out=$work/$(printf '%s' "$schema" | tr '/.' '__')
    mkdir -p "$out"
    "$bfgen" --out "$out" "$schema" > "$out.log" 2>&1
    status=$?
    if [ $status -eq 0 ]; then
        for c in "$out"/*.c; do
            if ! $cc -std=c11 -Wall -Wextra -Werror -c -o /dev/null -Iruntime -I"$out" "$c" >> "$out.log" 2>&1; then
                echo "FAIL $schema: accepted, but $(basename "$c") does not compile:"; head -20 "$out.log"
                exit 1
            fi
        done
        echo "ok   $schema: generates C that compiles"
    elif [ $status -eq 1 ]; then
        # every error names the schema, a line and a column
        if ! grep -q "^$schema:[0-9]*:[0-9]*: error: " "$out.log"; then
            echo "FAIL $schema: refused without a located error:"; head -20 "$out.log"; exit 1
        fi
        if grep "error" "$out.log" | grep -v "^$schema:[0-9]*:[0-9]*: error: \|^bfgen: [0-9]* errors\?$" | grep -q .; then
            echo "FAIL $schema: an error without a location:"
            grep "error" "$out.log" | grep -v "^$schema:[0-9]*:[0-9]*: error: \|^bfgen: [0-9]* errors\?$" | head -5; exit 1
        fi
        echo "ok   $schema: refused, $(grep -c ": error: " "$out.log") located error(s)"
    else
        echo "FAIL $schema: bfgen exited with status $status (a signal when above 128):"; tail -20 "$out.log"; exit 1
    fi
    rm -rf "$out" "$out.log"
    exit 0
fi
bfgen=$1 cc=$2 jobs=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/bfgen_schemas.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh "$0" --one "$bfgen" "$cc" {} "$work" > "$work/report" 2>&1
status=$?
sort "$work/report"
total=$(grep -c '^ok\|^FAIL' "$work/report")
failed=$(grep -c '^FAIL' "$work/report")
echo "== $total schemas, $failed failed"
[ $status -eq 0 ] && [ "$failed" -eq 0 ]
