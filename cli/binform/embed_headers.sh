#!/bin/sh
# embed_headers.sh OUT.c HEADER...: the runtime's headers as C strings, for binform --schema,
# which compiles generated code against them wherever binform is installed (schema_build.c),
# and their SHA-256, which is part of the schema cache's key (schema_cache.c).
set -e
out=$1
shift
{
    echo "/* Written by cli/binform/embed_headers.sh from the runtime's headers. Do not edit. */"
    echo "#include \"runtime_headers.h\""
    echo "const embedded_file runtime_headers[] = {"
    for h in "$@"; do
        printf '    {"%s",\n' "$(basename "$h")"
        sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/     "/' -e 's/$/\\n"/' "$h"
        echo "    },"
    done
    echo "    {0, 0},"
    echo "};"
    printf 'const char runtime_headers_digest[] = "%s";\n' "$(cat "$@" | sha256sum | cut -c1-64)"
} > "$out.tmp"
mv "$out.tmp" "$out"
