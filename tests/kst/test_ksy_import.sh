#!/bin/sh
# bfgen import on small Kaitai formats written here: the schema it writes (compared line by
# line), that bfgen accepts that schema and binform reads a file with it, and that what binform
# cannot express is refused with an error at the .ksy's line and column naming the construct.
#
#   test_ksy_import.sh BFGEN BINFORM
set -u
bfgen=$1 binform=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# binform --schema keeps what it compiles in $XDG_CACHE_HOME/binform: this test's, not the user's
export XDG_CACHE_HOME="$work/cache"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# ---- a format binform expresses: seq, enums, switch, repeat, bit run, contents, values, pos, params
cat > "$work/pets.ksy" <<'EOF'
meta:
  id: pets
  endian: le
doc: A header, pets by kind, and a trailer reached by offset.
seq:
  - id: magic
    contents: PET
  - id: version
    contents: [0x01, 0xff]
  - id: num_pets
    type: u1
  - id: flags_hi
    type: b3
  - id: flags_lo
    type: b5
  - id: pets
    type: pet(flags_lo)
    repeat: expr
    repeat-expr: num_pets
    doc: One per pet.
  - id: trailer_ofs
    type: u2be
instances:
  trailer:
    pos: trailer_ofs
    type: u1
    enum: animal
  is_big:
    value: 'num_pets > 2 and not (flags_hi == 0)'
  mod_neg:
    value: '-7 % 3'
enums:
  animal:
    1: cat
    2:
      id: dog
      doc: A dog.
types:
  pet:
    params:
      - id: bonus
        type: u1
    seq:
      - id: kind
        type: u1
        enum: animal
      - id: body
        size: 2
        type:
          switch-on: kind
          cases:
            'animal::cat': cat
            'animal::dog': dog
  cat:
    seq:
      - id: lives
        type: u2
  dog:
    seq:
      - id: tricks
        type: u1
        repeat: until
        repeat-until: _ == 0
  unused:
    seq:
      - id: x
        type: u1
EOF
cat > "$work/pets.expected" <<'EOF'
# Imported from WORK/pets.ksy by bfgen import.
format: pets
endian: little
doc: "A header, pets by kind, and a trailer reached by offset."
files:
  - name: file
    root: Pets
enums:
  Animal:
    type: u8
    open: true
    values:
      cat: 0x1
      dog: { value: 0x2, doc: "A dog." }
types:
  Pets:
    doc: "A header, pets by kind, and a trailer reached by offset."
    values:
      is_big: "num_pets > 2 && !(bits0.flags_hi == 0)"
      mod_neg: "(-7 % 3 + 3) % 3"
      flags_hi: bits0.flags_hi
      flags_lo: bits0.flags_lo
    fields:
      - name: magic
        type: "char[3]"
        const: PET
      - name: version
        type: u16
        endian: big
        const: 0x1FF
      - name: num_pets
        type: u8
      - name: bits0
        type: u8
        endian: big
        doc: "Kaitai's bit fields flags_hi to flags_lo, packed in 8 bits."
        bits:
          - { name: flags_hi, width: 3 }
          - { name: flags_lo, width: 5 }
      - name: pets
        type: "Pet[]"
        args: { bonus: bits0.flags_lo }
        count: num_pets
        doc: "One per pet."
      - name: trailer_ofs
        type: u16
        endian: big
      - name: trailer
        pos: trailer_ofs
        type: u8
        enum: Animal
  Pet:
    params:
      - bonus
    fields:
      - name: kind
        type: u8
        enum: Animal
      - name: body
        type:
          switch: kind
          cases:
            cat: Cat
            dog: Dog
          default: bytes
        size: 2
  Cat:
    fields:
      - name: lives
        type: u16
  Dog:
    fields:
      - name: tricks
        type: "u8[]"
        until: "_it == 0"
  # Kaitai's type 'unused' is left out: this format does not read it.
EOF
if ! "$bfgen" import "$work/pets.ksy" -o "$work/pets.yaml" 2> "$work/pets.err"; then
    fail "pets.ksy: refused:"; cat "$work/pets.err"
else
    sed "s|WORK|$work|" "$work/pets.expected" > "$work/pets.want"
    if ! diff -u "$work/pets.want" "$work/pets.yaml"; then
        fail "pets.ksy: the schema differs from the expected one (above)"
    elif ! "$bfgen" --syntax-only "$work/pets.yaml" > "$work/check.log" 2>&1; then
        fail "pets.yaml: bfgen refuses the imported schema:"; cat "$work/check.log"
    else
        echo "ok   pets.ksy: imported as expected; bfgen accepts the schema"
    fi
fi

# binform reads a file with it: two pets (a cat, a dog with tricks 5, 0), the trailer at 15: a dog
printf 'PET\001\377\002\245\001\011\000\002\005\000\000\017\002' > "$work/two.pets"
if [ -f "$work/pets.yaml" ] && "$binform" dump --compact --schema "$work/pets.yaml" --format pets "$work/two.pets" \
        > "$work/dump.json" 2> "$work/dump.err"; then
    before=$failures
    for want in '"bits0_flags_hi":5' '"bits0_flags_lo":5' '"lives":9' '"tricks":[5,0]' \
                '"trailer":{"name":"dog","value":2}' '"is_big":0' '"mod_neg":2'; do
        grep -qF "$want" "$work/dump.json" || fail "two.pets: the dump has no $want: $(cat "$work/dump.json")"
    done
    [ $failures -eq $before ] && echo "ok   two.pets: read with the imported schema"
else
    fail "two.pets: binform cannot read it with the imported schema:"; cat "$work/dump.err" 2>/dev/null
fi

# ---- Kaitai's _parent (a parameter the parent passes) and a positioned instance read before its use
cat > "$work/family.ksy" <<'EOF'
meta:
  id: family
  endian: be
seq:
  - id: header
    type: header
  - id: kids
    type: kid
    repeat: expr
    repeat-expr: num_kids
instances:
  num_kids:
    pos: header.count_ofs
    type: u1
types:
  header:
    seq:
      - id: name_len
        type: u1
      - id: count_ofs
        type: u1
  kid:
    seq:
      - id: name
        type: grandkid
  grandkid:
    seq:
      - id: letters
        size: _parent._parent.header.name_len
EOF
if ! "$bfgen" import "$work/family.ksy" -o "$work/family.yaml" 2> "$work/family.err"; then
    fail "family.ksy: refused:"; cat "$work/family.err"
else
    before=$failures
    for want in "      - { name: parent_parent_header_name_len, doc: \"Kaitai's _parent._parent.header.name_len, passed by the parent.\" }" \
                '        args: { parent_parent_header_name_len: parent_header_name_len }' \
                '        args: { parent_header_name_len: header.name_len }' \
                '        size: parent_parent_header_name_len'; do
        grep -qxF "$want" "$work/family.yaml" || fail "family.ksy: no line '$want' in the schema"
    done
    # num_kids is read before kids, which use it
    order=$(grep -o 'name: num_kids$\|name: kids$' "$work/family.yaml" | tr '\n' ,)
    [ "$order" = "name: num_kids,name: kids," ] || fail "family.ksy: num_kids is not before kids: $order"
    # name_len 2, the count at offset 6: two kids of two letters
    printf '\002\006abcd\002' > "$work/two.family"
    if "$binform" dump --compact --schema "$work/family.yaml" --format family "$work/two.family" \
            > "$work/family.json" 2> "$work/family.err"; then
        grep -qF '"letters":"6162"' "$work/family.json" && grep -qF '"letters":"6364"' "$work/family.json" ||
            fail "two.family: the kids' letters are not ab and cd: $(cat "$work/family.json")"
    else
        fail "two.family: binform cannot read it with the imported schema:"; cat "$work/family.err"
    fi
    [ $failures -eq $before ] && echo "ok   family.ksy: _parent passed as parameters; the instance read before its use"
fi

# ---- imports: the imported format is written beside, with only the types the importer reads
mkdir -p "$work/lib"
cat > "$work/lib/shapes.ksy" <<'EOF'
meta:
  id: shapes
  endian: le
seq:
  - id: whole
    type: u1
enums:
  kind:
    3: triangle
types:
  point:
    seq:
      - id: x
        type: u2
  unused:
    seq:
      - id: y
        type: u1
EOF
cat > "$work/drawing.ksy" <<'EOF'
meta:
  id: drawing
  imports:
    - lib/shapes
seq:
  - id: kind
    type: u1
    enum: shapes::kind
  - id: at
    type: shapes::point
EOF
mkdir -p "$work/out"
if ! "$bfgen" import "$work/drawing.ksy" -o "$work/out/drawing.yaml" 2> "$work/drawing.err"; then
    fail "drawing.ksy: refused:"; cat "$work/drawing.err"
else
    before=$failures
    grep -qxF '  - lib/shapes.yaml' "$work/out/drawing.yaml" || fail "drawing.yaml: does not import lib/shapes.yaml"
    grep -qxF 'endian: little' "$work/out/drawing.yaml" || fail "drawing.yaml: not little-endian like its import"
    if [ ! -f "$work/out/lib/shapes.yaml" ]; then
        fail "drawing.ksy: lib/shapes.yaml was not written beside drawing.yaml"
    else
        grep -q '^files:' "$work/out/lib/shapes.yaml" && fail "shapes.yaml: an imported schema with files:"
        grep -qxF '  Point:' "$work/out/lib/shapes.yaml" || fail "shapes.yaml: no type Point"
        grep -qxF '        endian: little' "$work/out/lib/shapes.yaml" || fail "shapes.yaml: Point.x without its own byte order"
        grep -qxF '  Unused:' "$work/out/lib/shapes.yaml" && fail "shapes.yaml: the unread type Unused is there"
        grep -qxF '  Shapes:' "$work/out/lib/shapes.yaml" && fail "shapes.yaml: the unread root type Shapes is there"
    fi
    printf '\003\001\002' > "$work/one.drawing"
    if "$binform" dump --compact --schema "$work/out/drawing.yaml" --format drawing "$work/one.drawing" \
            > "$work/drawing.json" 2> "$work/drawing.err"; then
        grep -qF '"kind":{"name":"triangle","value":3}' "$work/drawing.json" && grep -qF '"x":513' "$work/drawing.json" ||
            fail "one.drawing: not a triangle at 513: $(cat "$work/drawing.json")"
    else
        fail "one.drawing: binform cannot read it with the imported schema:"; cat "$work/drawing.err"
    fi
    [ $failures -eq $before ] && echo "ok   drawing.ksy: its import written beside it, with the types it reads"
fi

# ---- a bit field named from another type (`_.more`, `groups[0].low`): a value of the type carries it
cat > "$work/septets.ksy" <<'EOF'
meta:
  id: septets
seq:
  - id: groups
    type: group
    repeat: until
    repeat-until: not _.more
instances:
  first_low:
    value: groups[0].low
types:
  group:
    seq:
      - id: more
        type: b1
      - id: low
        type: b7
EOF
if ! "$bfgen" import "$work/septets.ksy" -o "$work/septets.yaml" 2> "$work/septets.err"; then
    fail "septets.ksy: refused:"; cat "$work/septets.err"
else
    before=$failures
    grep -qxF '      more: bits0.more' "$work/septets.yaml" || fail "septets.yaml: no value 'more' in Group"
    # three groups (0x81 0x82 0x03): the repeat stops after the third, whose top bit is clear
    printf '\201\202\003\377' > "$work/three.septets"
    if "$binform" dump --compact --schema "$work/septets.yaml" --format septets "$work/three.septets" \
            > "$work/septets.json" 2> "$work/septets.err"; then
        n=$(grep -o '"bits0_low":' "$work/septets.json" | wc -l)
        [ "$n" -eq 3 ] || fail "three.septets: $n groups, not 3: $(cat "$work/septets.json")"
        grep -qF '"first_low":1' "$work/septets.json" || fail "three.septets: first_low is not 1: $(cat "$work/septets.json")"
    else
        fail "three.septets: binform cannot read it with the imported schema:"; cat "$work/septets.err"
    fi
    [ $failures -eq $before ] && echo "ok   septets.ksy: bit fields named from another type"
fi

# ---- a value instance naming a structure (binform's values are numbers): its path is written where
# it is used; one naming a number stays a value
cat > "$work/bodies.ksy" <<'EOF'
meta:
  id: bodies
seq:
  - id: num
    type: u1
  - id: heads
    type: head
    repeat: expr
    repeat-expr: num
  - id: bodies
    type: body(_index)
    repeat: expr
    repeat-expr: num
instances:
  first_len:
    value: heads[0].len
types:
  head:
    seq:
      - id: len
        type: u1
  body:
    params:
      - id: idx
        type: u1
    seq:
      - id: data
        size: my_head.len
    instances:
      my_head:
        value: _root.heads[idx]
EOF
if ! "$bfgen" import "$work/bodies.ksy" -o "$work/bodies.yaml" 2> "$work/bodies.err"; then
    fail "bodies.ksy: refused:"; cat "$work/bodies.err"
else
    before=$failures
    grep -qF 'size: "root.heads[idx].len"' "$work/bodies.yaml" || fail "bodies.yaml: my_head.len not written as its path"
    grep -qF 'my_head' "$work/bodies.yaml" && fail "bodies.yaml: the structure my_head is still a value"
    # two heads (lengths 1, 2), bodies "a" and "bc"
    printf '\002\001\002abc' > "$work/two.bodies"
    if "$binform" dump --compact --schema "$work/bodies.yaml" --format bodies "$work/two.bodies" \
            > "$work/bodies.json" 2> "$work/bodies.err"; then
        grep -qF '"data":"61"' "$work/bodies.json" && grep -qF '"data":"6263"' "$work/bodies.json" &&
            grep -qF '"first_len":1' "$work/bodies.json" ||
            fail "two.bodies: not bodies a and bc with first_len 1: $(cat "$work/bodies.json")"
    else
        fail "two.bodies: binform cannot read it with the imported schema:"; cat "$work/bodies.err"
    fi
    [ $failures -eq $before ] && echo "ok   bodies.ksy: a value naming a structure written where it is used"
fi

# ---- what binform cannot say yet: one located error each, naming the Kaitai construct
cat > "$work/nope.ksy" <<'EOF'
meta:
  id: nope
  endian: le
seq:
  - id: packed
    size: 4
    process: zlib
  - id: name
    type: str
    size: packed.size
    encoding: UTF-8
  - id: word
    type: u2
    valid:
      min: 3
  - id: label
    type: str
    encoding: UTF-16LE
    size: 4
instances:
  up:
    value: _parent.x
  greeting:
    value: '"hi"'
EOF
"$bfgen" import "$work/nope.ksy" -o "$work/nope.yaml" > /dev/null 2> "$work/nope.err"
status=$?
[ $status -eq 1 ] || fail "nope.ksy: exit status $status, not 1"
[ ! -e "$work/nope.yaml" ] || fail "nope.ksy: a schema was written despite the errors"
for want in \
    "nope.ksy:7:14: error: Kaitai's 'process' (decompression, xor, rotation) cannot be expressed in binform" \
    "nope.ksy:9:11: error: Kaitai's variable-length string" \
    "nope.ksy:15:7: error: Kaitai's 'valid' with 'min' cannot be expressed in binform" \
    "nope.ksy:18:15: error: Kaitai's encoding 'UTF-16LE' cannot be expressed in binform" \
    "nope.ksy:22:21: error: Kaitai's '_parent' in the root type (which has no parent) cannot be expressed in binform" \
    "nope.ksy:24:12: error: Kaitai's string literal cannot be expressed in binform" \
    "bfgen import: 6 errors"; do
    grep -qF "$work/$want" "$work/nope.err" || grep -qxF "$want" "$work/nope.err" || {
        fail "nope.ksy: no '$want' among the errors"; missing=1; }
done
if [ -z "${missing:-}" ]; then echo "ok   nope.ksy: refused with located errors naming each construct"
else cat "$work/nope.err"; fi

# ---- a type read inside itself through seq (a tree of chunks): refused where the loop closes,
# even with a size (binform holds a structure field inline); through a switch it is accepted
cat > "$work/tree.ksy" <<'EOF'
meta:
  id: tree
seq:
  - id: top
    type: node
types:
  node:
    seq:
      - id: len_kids
        type: u1
      - id: kids
        size: len_kids
        type: node
        repeat: eos
EOF
"$bfgen" import "$work/tree.ksy" -o "$work/tree.yaml" > /dev/null 2> "$work/tree.err"
status=$?
want="tree.ksy:13:15: error: Kaitai's type 'node' read inside itself through seq cannot be expressed in binform"
if [ $status -ne 1 ] || [ -e "$work/tree.yaml" ]; then
    fail "tree.ksy: not refused (exit status $status)"; cat "$work/tree.err"
elif ! grep -qF "$work/$want" "$work/tree.err"; then
    fail "tree.ksy: no '$want' among the errors"; cat "$work/tree.err"
else
    echo "ok   tree.ksy: a type read inside itself refused where the loop closes"
fi
cat > "$work/cases.ksy" <<'EOF'
meta:
  id: cases
seq:
  - id: top
    type: node
types:
  node:
    seq:
      - id: len_kids
        type: u1
      - id: kids
        size: len_kids
        type:
          switch-on: len_kids
          cases:
            0: leaf
            _: node
  leaf:
    seq: []
EOF
if ! "$bfgen" import "$work/cases.ksy" -o "$work/cases.yaml" 2> "$work/cases.err"; then
    fail "cases.ksy: refused:"; cat "$work/cases.err"
elif ! "$bfgen" --syntax-only "$work/cases.yaml" > "$work/cases.log" 2>&1; then
    fail "cases.yaml: bfgen refuses the imported schema:"; cat "$work/cases.log"
else
    echo "ok   cases.ksy: a type read inside itself through a switch imported"
fi

if [ $failures -ne 0 ]; then
    echo "test_ksy_import: $failures failures"
    exit 1
fi
echo "test_ksy_import: all passed"
