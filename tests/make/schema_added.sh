#!/bin/sh
# Adding and removing a schema with nothing but plain `make`: it regenerates, builds binform with
# the new formats, and deletes the files no schema generates any more. The new formats are named
# like the headers of the C library and of libpng (png, stdio, string), which generated/ must not
# shadow. Works in a copy of the project and of its release build tree, so that only the new
# formats compile.
# usage: tests/make/schema_added.sh BUILD_DIR   (from the project's root, after `make all`)
set -u
root=$(pwd)
build=$1
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; sed 's/^/    /' "$tmp/out" | tail -25; }

src=$tmp/src
mkdir -p "$src/build"
git ls-files -z -co --exclude-standard | xargs -0 tar cf - --no-recursion | tar xf - -C "$src" || {
    echo "skipped: test-make-schemas (cannot copy the project's files: git ls-files failed)"; exit 0; }
(cd "$build" && tar cf - --exclude=./san --exclude=./tests --exclude=./testgen --exclude=./test-logs --exclude=./fuzz \
    --exclude=./n64/obj-san --exclude=./gencheck .) | tar xf - -C "$src/build"

for name in png stdio string; do
    magic=$(echo "$name" | tr a-z A-Z | cut -c1-3)X
    cat > "$src/schemas/$name.yaml" <<YAML
format: $name
title: A format named like a header of the C library or libpng
endian: big
doc: Three fields behind a magic.
files:
  - name: image
    root: Image
    extensions: [${name}x]
    magic: $magic
    doc: One image.
types:
  Image:
    doc: The whole file.
    fields:
      - { name: magic, type: "char[4]", const: $magic, at: 0x00, doc: "Magic." }
      - { name: width, type: u32, at: 0x04, doc: "Width." }
      - { name: height, type: u32, at: 0x08, doc: "Height." }
YAML
done
printf 'PNGX\000\000\000\040\000\000\000\020' > "$tmp/picture.pngx"

cd "$src"
make -j2 > "$tmp/out" 2>&1; st=$?; cp "$tmp/out" "$tmp/first.log"
if [ $st = 0 ]; then ok "plain make builds with formats named png, stdio and string"; else bad "plain make builds with formats named png, stdio and string"; fi
if [ -f generated/png.h ] && [ -f generated/stdio_view.c ] && [ -f generated/docs/string.md ]; then
    ok "plain make generated the new formats"
else
    bad "plain make generated the new formats"
fi
build/bin/binform formats > "$tmp/out" 2>&1
if grep -q '^png ' "$tmp/out" && grep -q '^stdio ' "$tmp/out" && grep -q '^string ' "$tmp/out"; then
    ok "binform knows the new formats"
else
    bad "binform knows the new formats"
fi
if build/bin/binform dump "$tmp/picture.pngx" > "$tmp/out" 2>&1 && grep -q '"width": 32' "$tmp/out"; then
    ok "binform reads a file of the new format named png"
else
    bad "binform reads a file of the new format named png"
fi

rm schemas/png.yaml schemas/stdio.yaml schemas/string.yaml
if make -j2 > "$tmp/out" 2>&1; then ok "plain make builds after the schemas are removed"; else bad "plain make builds after the schemas are removed"; fi
left=$(ls generated generated/docs | grep -E '^(png|stdio|string)[._]' || true)
if [ -z "$left" ]; then ok "their generated files are deleted"; else echo "left: $left" > "$tmp/out"; bad "their generated files are deleted"; fi
build/bin/binform formats > "$tmp/out" 2>&1
if grep -q '^t3dm ' "$tmp/out" && ! grep -q '^png ' "$tmp/out"; then ok "binform no longer knows them"; else bad "binform no longer knows them"; fi
if make -q all > "$tmp/out" 2>&1; then ok "and then there is nothing left to do"; else bad "and then there is nothing left to do"; fi

echo "schemas added and removed: $passed passed, $failed failed"
[ "$failed" = 0 ]
