/* bfgen reports schema mistakes like a compiler: file:line:col, every one, non-zero exit. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run {
    int status;
    char path[64];
    char output[8192];
} run;

/* Writes `schema` to a temporary .yaml file and runs bfgen --syntax-only on it. */
static void bfgen(run *r, const char *schema)
{
    strcpy(r->path, "/tmp/bfgen_case_XXXXXX.yaml");
    int fd = mkstemps(r->path, 5);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, schema, strlen(schema)), (ssize_t)strlen(schema));
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/build/bin/bfgen --syntax-only %s 2>&1", BF_PROJECT_DIR, r->path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(r->output, 1, sizeof r->output - 1, p);
    r->output[n] = '\0';
    r->status = pclose(p);
    unlink(r->path);
}

/* Expects the line "PATH:LINE:COL: error: MESSAGE..." in the output. */
static void expect_error(const run *r, int line, int col, const char *message)
{
    char want[1024];
    snprintf(want, sizeof want, "%s:%d:%d: error: %s", r->path, line, col, message);
    cr_expect(strstr(r->output, want) != NULL, "expected\n  %s\nin\n%s", want, r->output);
    cr_expect_neq(r->status, 0, "bfgen must fail");
}

#define HEAD "format: x\nendian: little\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n    fields:\n"

Test(bfgen_errors, a_valid_schema_passes)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, doc: A. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
    cr_expect_str_eq(r.output, "");
}

Test(bfgen_errors, unknown_key)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, sise: 4 }\n");
    expect_error(&r, 8, 30, "unknown key 'sise' in a field");
}

Test(bfgen_errors, unknown_type)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u17 }\n");
    expect_error(&r, 8, 9, "unknown type 'u17'");
}

Test(bfgen_errors, bad_expression)
{
    run r;
    bfgen(&r, HEAD "      - { name: n, type: u8 }\n      - { name: a, type: u8, count: \"n +\" }\n");
    expect_error(&r, 9, 41, "expression ends too early in expression 'n +'");
    cr_expect(strstr(r.output, "bfgen: 1 error") != NULL, "no follow-on errors: %s", r.output);
}

Test(bfgen_errors, undefined_name)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: \"u8[nope]\" }\n");
    expect_error(&r, 8, 30, "'nope' is not defined here");
}

Test(bfgen_errors, name_used_before_it_is_read)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, count: n }\n      - { name: n, type: u8 }\n");
    expect_error(&r, 8, 37, "'n' is read after this point");
}

Test(bfgen_errors, declared_offset_does_not_match_layout)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u16, at: 0x00 }\n      - { name: b, type: u32, at: 0x04 }\n");
    expect_error(&r, 9, 9, "'b' is declared at 0x4 but the fields before it end at 0x2");
}

Test(bfgen_errors, declared_size_does_not_match_layout)
{
    run r;
    bfgen(&r, "format: x\nendian: big\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n    size: 8\n    fields:\n"
              "      - { name: a, type: \"u16[3]\" }\n");
    expect_error(&r, 6, 3, "'T' declares size 0x8 but its fields take 0x6 bytes");
}

Test(bfgen_errors, offset_after_variable_field_cannot_be_checked)
{
    run r;
    bfgen(&r, HEAD "      - { name: s, type: cstr }\n      - { name: b, type: u8, at: 4 }\n");
    expect_error(&r, 9, 9, "declared offset 0x4 of 'b' cannot be checked: 's' before it has no fixed size");
}

Test(bfgen_errors, yaml_syntax)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8\n");
    cr_expect(strstr(r.output, "error: YAML syntax") != NULL, "%s", r.output);
    cr_expect_neq(r.status, 0);
}

Test(bfgen_errors, every_error_is_reported)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u17 }\n      - { name: b, type: u8, colour: red }\n"
                   "      - { name: b, type: u8 }\n");
    expect_error(&r, 8, 9, "unknown type 'u17'");
    expect_error(&r, 9, 30, "unknown key 'colour' in a field");
    expect_error(&r, 10, 9, "field 'b' is declared twice in 'T' (first at line 9)");
    cr_expect(strstr(r.output, "bfgen: 3 errors") != NULL, "%s", r.output);
}

Test(bfgen_errors, switch_case_must_be_an_enum_member)
{
    run r;
    bfgen(&r, "format: x\nendian: big\nfiles:\n  - { name: f, root: T }\nenums:\n  K:\n    type: u8\n"
              "    values: { a: 1, b: 2 }\ntypes:\n  A:\n    fields: [ { name: v, type: u8 } ]\n  T:\n    fields:\n"
              "      - { name: k, type: u8, enum: K }\n      - name: body\n        type:\n          switch: k\n"
              "          cases: { a: A, c: A }\n");
    expect_error(&r, 18, 26, "case 'c' is neither a member of K nor a constant");
}

Test(bfgen_errors, inline_recursion_is_infinite)
{
    run r;
    bfgen(&r, HEAD "      - { name: self, type: T }\n");
    expect_error(&r, 6, 3, "type 'T' contains itself inline");
}

Test(bfgen_errors, generated_member_names_must_not_clash)
{
    run r;
    bfgen(&r, HEAD "      - { name: n, type: u8 }\n      - { name: data, type: \"u8[n]\" }\n"
                   "      - { name: data_count, type: u8 }\n");
    expect_error(&r, 10, 9, "field 'data_count' clashes with the C member 'data_count'");
}

Test(bfgen_errors, bits_wider_than_their_field)
{
    run r;
    bfgen(&r, HEAD "      - name: v\n        type: u8\n        bits: [ { name: a, width: 5 }, { name: b, width: 4 } ]\n");
    expect_error(&r, 8, 9, "the bit fields of 'v' take 9 bits but u8 has 8");
}

Test(bfgen_errors, switch_case_types_cannot_take_parameters)
{
    run r;
    bfgen(&r, "format: x\nendian: big\nfiles:\n  - { name: f, root: T }\ntypes:\n  P:\n    params: [n]\n"
              "    fields: [ { name: v, type: \"u8[n]\", doc: V. } ]\n  T:\n    fields:\n"
              "      - { name: k, type: u8, doc: K. }\n      - name: body\n        doc: B.\n        type:\n"
              "          switch: k\n          cases: { 1: P }\n");
    expect_error(&r, 16, 20, "case type 'P' takes parameters, which a switch case cannot pass");
}

Test(bfgen_errors, string_arrays_need_a_count)
{
    run r;
    bfgen(&r, HEAD "      - { name: names, type: \"cstr[]\", to_end: true, doc: N. }\n");
    expect_error(&r, 8, 9, "an array of strings needs a 'count'");
}

Test(bfgen_errors, located_fields_have_no_declared_offset)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, pos: 16, at: 0, doc: A. }\n");
    expect_error(&r, 8, 9, "'a' has both 'at' and 'pos'");
}

Test(bfgen_errors, missing_doc_is_a_warning)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8 }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
    cr_expect(strstr(r.output, ":8:9: warning: field 'a' has no 'doc'") != NULL, "%s", r.output);
}

Test(bfgen_errors, character_literals_up_to_eight_bytes)
{
    run r;
    bfgen(&r, HEAD "      - { name: tag, type: u32, const: \"'INF1'\", doc: T. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, HEAD "      - { name: tag, type: u32, const: \"'TOOLONGXX'\", doc: T. }\n");
    cr_expect(strstr(r.output, "a character literal holds 1 to 8 characters") != NULL, "%s", r.output);
}

Test(bfgen_errors, c_keywords_are_not_field_names)
{
    run r;
    bfgen(&r, HEAD "      - { name: register, type: u8, doc: A. }\n");
    expect_error(&r, 8, 17, "'register' is a C keyword");
}

Test(bfgen_errors, padding_needs_an_array_and_its_texts)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, padding: { fill: [PAD], below: 4 }, doc: A. }\n");
    expect_error(&r, 8, 9, "'padding' is for an array or a bytes field");
    bfgen(&r, HEAD "      - { name: a, type: \"u8[]\", to_end: true, padding: { below: 4 }, doc: A. }\n");
    expect_error(&r, 8, 57, "padding needs 'fill'");
    bfgen(&r, HEAD "      - { name: a, type: \"u8[]\", to_end: true, padding: { fill: [\"\"], below: 0 }, doc: A. }\n");
    expect_error(&r, 8, 66, "a fill text cannot be empty");
    expect_error(&r, 8, 78, "below must be at least 1");
}

Test(bfgen_errors, new_functions_check_their_arguments)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, doc: A. }\n      - { name: b, type: \"u8[first_nonzero(a)]\", doc: B. }\n");
    expect_error(&r, 9, 30, "first_nonzero(a, b, ..., otherwise)");
    bfgen(&r, HEAD "      - { name: a, type: u8, doc: A. }\n      - { name: b, type: \"u8[lz4_size(a, 0)]\", doc: B. }\n");
    expect_error(&r, 9, 30, "lz4_size(bytes, window) takes a bytes field");
}

Test(bfgen_errors, a_document_title_names_a_document)
{
    run r;
    bfgen(&r, "format: x\nendian: little\ndocument_title: \"A title\"\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n"
              "    fields:\n      - { name: a, type: u8, doc: A. }\n");
    expect_error(&r, 3, 17, "'document_title' names the document given by 'document', which is missing");
}

/* Expects a line "PATH:LINE:COL: note: MESSAGE..." in the output. */
static void expect_note(const run *r, int line, int col, const char *message)
{
    char want[1024];
    snprintf(want, sizeof want, "%s:%d:%d: note: %s", r->path, line, col, message);
    cr_expect(strstr(r->output, want) != NULL, "expected\n  %s\nin\n%s", want, r->output);
}

Test(bfgen_errors, a_char_constant_fills_its_field)
{
    run r;
    bfgen(&r, HEAD "      - { name: m, type: \"char[4]\", const: ABC, doc: M. }\n");
    expect_error(&r, 8, 44, "const 'ABC' has 3 characters but the field is char[4]");
    bfgen(&r, HEAD "      - { name: m, type: \"char[4]\", const: ABCD, doc: M. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
}

Test(bfgen_errors, misspellings_get_a_suggestion)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, tpye: u8, doc: A. }\n");
    expect_error(&r, 8, 20, "unknown key 'tpye' in a field (did you mean 'type'?)");
    bfgen(&r, HEAD "      - { name: a, type: u61, doc: A. }\n");
    expect_error(&r, 8, 9, "unknown type 'u61' (did you mean 'u16'?)");
    bfgen(&r, HEAD "      - { name: count, type: u8, doc: A. }\n      - { name: b, type: \"u8[cuont]\", doc: B. }\n");
    expect_error(&r, 9, 30, "'cuont' is not defined here");
    cr_expect(strstr(r.output, "(did you mean 'count'?)") != NULL, "%s", r.output);
    /* nothing close: no suggestion, the known keys instead */
    bfgen(&r, HEAD "      - { name: a, type: u8, colour: 3, doc: A. }\n");
    expect_error(&r, 8, 30, "unknown key 'colour' in a field (known keys: name, type,");
    cr_expect(strstr(r.output, "did you mean") == NULL, "%s", r.output);
}

Test(bfgen_errors, an_unquoted_array_type_in_flow_style_gets_a_hint)
{
    run r;
    bfgen(&r, HEAD "      - { name: n, type: u8, doc: N. }\n      - { name: d, type: T[n], doc: D. }\n");
    expect_error(&r, 9, 27, "YAML syntax");
    expect_note(&r, 9, 26, "in flow style an array type must be quoted: write type: \"T[n]\"");
}

/* A type with values, and the fields given after its `fields:` key. */
#define VHEAD "format: x\nendian: little\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n"

Test(bfgen_errors, named_values_that_are_valid_pass)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      twice: \"n * 2\"\n      at: { value: \"first(xs, _it == twice)\", doc: Where. }\n"
                    "    fields:\n      - { name: n, type: u8, doc: N. }\n      - { name: xs, type: \"u8[twice]\", doc: X. }\n"
                    "      - { name: y, type: \"u8[at + count(xs, _it > 1)]\", doc: Y. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
    cr_expect_str_eq(r.output, "");
}

Test(bfgen_errors, a_value_that_depends_on_itself)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      a: \"b + 1\"\n      b: \"a * 2\"\n    fields:\n      - { name: n, type: u8 }\n");
    expect_error(&r, 9, 11, "value 'a' depends on itself");
}

Test(bfgen_errors, an_unknown_name_in_a_value)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      a: \"nope + 1\"\n    fields:\n      - { name: n, type: u8 }\n");
    expect_error(&r, 8, 11, "'nope' is not defined here (not a field read before this point, a value");
}

Test(bfgen_errors, a_value_of_fields_not_read_yet)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      a: \"later + 1\"\n    fields:\n      - { name: xs, type: \"u8[a]\" }\n"
                    "      - { name: later, type: u8 }\n");
    expect_error(&r, 10, 31, "value 'a' uses 'later', which is read after this point");
}

Test(bfgen_errors, a_value_cannot_use_the_cursor)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      a: \"_pos + 1\"\n    fields:\n      - { name: n, type: u8 }\n");
    expect_error(&r, 8, 11, "'_pos' only has a meaning while reading");
}

Test(bfgen_errors, a_value_name_is_checked)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      n: \"1\"\n      _x: \"2\"\n    fields:\n      - { name: n, type: u8 }\n");
    expect_error(&r, 8, 7, "value 'n' has the name of a field of 'T'");
    expect_error(&r, 9, 7, "'_x' is not a valid value name");
}

Test(bfgen_errors, a_quantifier_in_a_read_cannot_capture_the_element)
{
    run r;
    bfgen(&r, VHEAD "    fields:\n      - { name: xs, type: \"u8[2]\" }\n"
                    "      - { name: ys, type: \"u8[]\", until: \"count(xs, _it == 1) > 0\" }\n"
                    "      - { name: zs, type: \"u8[]\", until: \"any(xs, _it == 1) && _it == 0\" }\n"
                    "      - { name: w, type: \"u8[sum(xs, _it) + 2]\", const: \"sum(xs, _value)\" }\n");
    cr_expect(strstr(r.output, "until") == NULL, "quantifiers in until are allowed: %s", r.output);
    expect_error(&r, 11, 58, "sum() in a read expression can use neither '_value'");
}

Test(bfgen_errors, a_value_with_tag_is_not_for_reads)
{
    run r;
    bfgen(&r, VHEAD "    values:\n      k: \"tag(body)\"\n    fields:\n      - { name: t, type: u8 }\n"
                    "      - { name: body, type: { switch: t, cases: { 1: U }, default: bytes }, size: 1 }\n"
                    "      - { name: xs, type: \"u8[k]\" }\n  U:\n    fields:\n      - { name: u, type: u8 }\n");
    expect_error(&r, 12, 31, "value 'k' uses tag() or offset(), which only rules and values can use");
}

#define MEMBER_HEAD "format: x\nendian: little\nfiles:\n  - name: f\n    root: T\n    members:\n"
#define MEMBER_TAIL "types:\n  T:\n    fields:\n      - { name: a, type: u8, doc: A. }\n"

Test(bfgen_errors, file_set_members)
{
    run r;
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"{stem}.x\", each: \"owner.a:T\" }\n" MEMBER_TAIL);
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: g, files: \"{stem}.x\" }\n" MEMBER_TAIL);
    expect_error(&r, 7, 9, "member 'm': unknown file kind 'g'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"{stem}.x\", each: \"owner.a:U\" }\n" MEMBER_TAIL);
    expect_error(&r, 7, 9, "member 'm': unknown type 'U' after 'each'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f }\n" MEMBER_TAIL);
    expect_error(&r, 7, 9, "a member needs 'files'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: a, below: owner.a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "a member check needs 'values' or 'count', a path starting 'owner.' or 'member.'");
}

/* `among` checks (names in other files), '*' patterns (every file of a folder) and orphans
 * (numbered files no structure claims). */
Test(bfgen_errors, file_set_names_patterns_and_orphans)
{
    run r;
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"*.x\", checks: [{ values: owner.a, among: member.a, ignore_case: true }] }\n"
                          "      - { name: s, kind: f, files: \"{stem}.{n}.x\", each: owner.a, orphans: error }\n" MEMBER_TAIL);
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a, below: owner.a, among: owner.a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "a member check has one of 'below', 'equals' and 'among'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "a member check needs 'below' (paths of numbers to stay under), 'equals' (paths of numbers "
                            "to equal) or 'among'");
    /* `count`: how many things a path finds, equal to (or below) a sum */
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ count: member.a, equals: owner.a }] }\n" MEMBER_TAIL);
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ count: member.a, values: member.a, below: owner.a }] }\n"
                          MEMBER_TAIL);
    expect_error(&r, 7, 57, "a member check has 'values' (numbers compared) or 'count' (how many), not both");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ count: member.a, among: owner.a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "'count' is compared with 'below' or 'equals', not 'among'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ count: member.a, equals: a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "'equals' path 'a' must start with 'owner.' or 'member.'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a, below: owner.a, ignore_case: true }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 96, "'ignore_case' is for 'among' checks (names), not 'below'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a, among: a }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 48, "'among' path 'a' must start with 'owner.' or 'member.'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: [\"*/x.tml\"] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 36, "pattern '*/x.tml': '*' only in the file name, not in a folder");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"{stem}.{n}.*\", each: owner.a }\n" MEMBER_TAIL);
    expect_error(&r, 7, 36, "pattern '{stem}.{n}.*': '*' and '{n}' together");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"{stem}.{n}.x\", each: owner.a, orphans: maybe }\n" MEMBER_TAIL);
    expect_error(&r, 7, 76, "orphans must be 'error' or 'warning'");
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: \"{stem}.x\", orphans: warning }\n" MEMBER_TAIL);
    expect_error(&r, 7, 57, "'orphans' needs 'each' and a pattern with '{n}'");
}

/* The validator compares numbers: an `expect` on anything else is the schema's mistake, found
 * by --syntax-only too (it once reached the validator template and failed there). */
Test(bfgen_errors, expect_needs_numbers)
{
    run r;
    bfgen(&r, HEAD "      - { name: s, type: S, expect: 3, doc: S. }\n"
                   "      - { name: b, type: \"bytes[2]\", expect: 3, doc: B. }\n"
                   "  S:\n    fields:\n      - { name: q, type: u8, doc: Q. }\n");
    expect_error(&r, 8, 9, "'expect' needs a number field or an array of numbers");
    expect_error(&r, 9, 9, "'expect' needs a number field or an array of numbers");
    bfgen(&r, HEAD "      - { name: a, type: \"u8[2]\", expect: 3, doc: A. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
}

/* The builder makes a computed table from its count: without one it had nothing to go by
 * (found by --syntax-only now, not inside the writer template). */
Test(bfgen_errors, a_computed_table_needs_a_count)
{
    run r;
    bfgen(&r, HEAD "      - { name: rs, type: \"S[]\", to_end: true, computed: true, doc: R. }\n"
                   "  S:\n    fields:\n      - { name: q, type: u8, doc: Q. }\n");
    expect_error(&r, 8, 9, "'computed' needs a 'count': the builder makes that many elements");
    bfgen(&r, HEAD "      - { name: n, type: u8, doc: N. }\n"
                   "      - { name: rs, type: \"S[n]\", computed: true, doc: R. }\n"
                   "  S:\n    fields:\n      - { name: q, type: u8, doc: Q. }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
}

/* `--report ir` prints the IR the templates get (ir_lua.c), to compare two bfgens with diff. */
Test(bfgen_errors, the_ir_report_shows_what_templates_get)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/build/bin/bfgen --report ir %s/tests/schemas/cx_endian.yaml", BF_PROJECT_DIR,
             BF_PROJECT_DIR);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    static char out[1 << 20];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    cr_expect_eq(pclose(p), 0);
    static const char *const lines[] = {
        "\ncx_endian.endian = \"big\"\n",
        "\ncx_endian.types[1].fields[14].endian = \"le\"\n",
        "\ncx_endian.types[1].fields[14].offset = integer:52\n",
        "\ncx_endian.types[1].fields[14].prim = \"u16\"\n",
        "\ncx_endian.types[1].fields[14].prim_size = integer:2\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        cr_expect(strstr(out, lines[i]) != NULL, "missing %s", lines[i]);
}

/* A member check's severity: error (default) or warning, nothing else. */
Test(bfgen_errors, file_set_check_severity)
{
    run r;
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a, among: member.a, severity: warning },\n"
                          "                                              { values: owner.a, below: member.a, severity: error }] }\n" MEMBER_TAIL);
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, MEMBER_HEAD "      - { name: m, kind: f, files: x, checks: [{ values: owner.a, among: member.a, severity: fatal }] }\n" MEMBER_TAIL);
    expect_error(&r, 7, 94, "severity must be 'error' or 'warning'");
}

/* A rule's `name` (for binform check --ignore) is a C identifier. */
Test(bfgen_errors, rule_names_are_identifiers)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, doc: A. }\n    rules:\n      - { check: \"a < 3\", message: m, name: small_a }\n");
    cr_expect_eq(r.status, 0, "%s", r.output);
    bfgen(&r, HEAD "      - { name: a, type: u8, doc: A. }\n    rules:\n      - { check: \"a < 3\", message: m, name: \"small a\" }\n");
    expect_error(&r, 10, 45, "a rule's name is a C identifier (letters, digits, '_'), not 'small a'");
}

Test(bfgen_errors, string_table_keys_are_for_bytes)
{
    run r;
    bfgen(&r, HEAD "      - { name: a, type: u8, prefix: S, doc: A. }\n      - { name: b, type: u8, never_empty: true, doc: B. }\n");
    expect_error(&r, 8, 9, "'prefix' is for a bytes field used as a string table");
    expect_error(&r, 9, 9, "'never_empty' is for a bytes field used as a string table");
}

/* ---- a format that fails to generate stops no other ---- */

/* Runs `cmd` through the shell: its exit status, stdout and stderr in r->output. */
static void shell(run *r, const char *cmd)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(r->output, 1, sizeof r->output - 1, p);
    r->output[n] = '\0';
    r->status = pclose(p);
}

static void remove_tree(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(bfgen_runs, a_failing_format_stops_no_other)
{
    char dir[64] = "/tmp/bfgen_failing_XXXXXX", cmd[1024];
    cr_assert_not_null(mkdtemp(dir));
    /* templates that say on stderr which format they make, and fail for some */
    snprintf(cmd, sizeof cmd, "%s/build/bin/bfgen --templates %s/tests/fixtures/bfgen_failing --out %s %s/tests/schemas/*.yaml 2>&1",
             BF_PROJECT_DIR, BF_PROJECT_DIR, dir, BF_PROJECT_DIR);
    run first;
    shell(&first, cmd);
    cr_expect_neq(first.status, 0, "four formats fail: %s", first.output);
    /* every format is made, failing or not, in the order of the schemas */
    static const char *const order[] = {"making cx_arrays", "making cx_chunks", "making cx_endian", "making cx_expect",
                                        "making cx_j3d", "making cx_p3m", "no page for cx_p3m", "making cx_padding",
                                        "no page for cx_padding", "making cx_prims", "no page for cx_prims",
                                        "making cx_rev", "making cx_toshi", "no page for cx_toshi",
                                        "making cx_values"};
    const char *at = first.output;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *next = strstr(at, order[i]);
        cr_expect_not_null(next, "'%s' missing or out of order in:\n%s", order[i], first.output);
        at = next ? next : at;
    }
    char made[128];
    snprintf(made, sizeof made, "%s/cx_values.txt", dir);
    cr_expect_eq(access(made, R_OK), 0, "a format after a failing one is still made");
    remove_tree(dir);
}

/* ---- hostile schemas: a located error, never a crash, a hang or undefined behaviour ---- */

/* Runs the sanitizer build of bfgen (ASan+UBSan, tests/bfgen/bfgen.mk) with `options` on
 * `schema` (`len` bytes: it may hold a NUL), reading all it prints (the first 8 KiB kept). */
static void bfgen_san(run *r, const char *options, const char *schema, size_t len)
{
    strcpy(r->path, "/tmp/bfgen_case_XXXXXX.yaml");
    int fd = mkstemps(r->path, 5);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, schema, len), (ssize_t)len);
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/build/san/bin/bfgen %s %s 2>&1", BF_PROJECT_DIR, options, r->path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(r->output, 1, sizeof r->output - 1, p);
    r->output[n] = '\0';
    char rest[4096];
    while (fread(rest, 1, sizeof rest, p) > 0)
        ;
    r->status = pclose(p);
    unlink(r->path);
}

/* Refused: exit status 1 (not a signal, not a sanitizer's abort), with the located error. */
static void expect_refused(const run *r, int line, int col, const char *message)
{
    cr_expect(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 1, "bfgen must exit 1, status 0x%x:\n%s", r->status,
              r->output);
    cr_expect(strstr(r->output, "runtime error") == NULL && strstr(r->output, "Sanitizer") == NULL, "%s", r->output);
    expect_error(r, line, col, message);
}

/* prefix, then `unit` n times, then suffix: a schema too deep or too large on purpose. */
static char *repeated(const char *prefix, const char *unit, int n, const char *suffix)
{
    size_t a = strlen(prefix), u = strlen(unit), z = strlen(suffix);
    char *s = malloc(a + u * (size_t)n + z + 1);
    cr_assert_not_null(s);
    memcpy(s, prefix, a);
    for (int i = 0; i < n; i++)
        memcpy(s + a + u * (size_t)i, unit, u);
    memcpy(s + a + u * (size_t)n, suffix, z + 1);
    return s;
}

typedef struct hostile_case {
    const char *schema;
    int line, col;
    const char *message;
} hostile_case;

/* Each of these crashed bfgen, overflowed an integer in it, or was accepted and gave C that
 * does not compile (issue 27; the full schemas are in ../shared/repro). */
static const hostile_case hostile_cases[] = {
    /* a mapping as a key: its NULL text was compared (SIGSEGV) */
    {"format: x\nendian: big\n? {a: 1}\n: 1\nb: 2\n", 3, 3, "mapping keys must be plain names"},
    {HEAD "      - { name: a, type: u8, doc: A. }\n    ? [k]\n    : 1\n", 9, 7, "mapping keys must be plain names"},
    /* a bit field without a name, then used: NULL name compared */
    {HEAD "      - name: v\n        type: u16\n        doc: V.\n        bits: [ { width: 5, doc: W. } ]\n"
          "      - { name: w, type: u8, if: \"v.y == 1\", doc: W. }\n",
     11, 17, "a bit field needs a valid 'name'"},
    /* a file kind without a name, with a member naming a kind */
    {"format: x\nendian: big\nfiles:\n  - { root: T, doc: F. }\n"
     "  - { name: g, root: T, doc: G., members: [ { name: m, kind: f, files: \"*.x\" } ] }\n"
     "types:\n  T:\n    fields: [ { name: a, type: u8, doc: A. } ]\n",
     4, 5, "a file kind needs a valid 'name'"},
    {"format: x\nendian: big\nfiles: [ 3 ]\ntypes:\n  T:\n    fields: [ { name: a, type: u8, doc: A. } ]\n", 3, 10,
     "a file kind must be a mapping"},
    /* widths and fixed formats beyond int overflowed the checker's sums (UBSan) */
    {HEAD "      - name: v\n        type: u16\n        doc: V.\n        bits: [ { name: a, width: 2147483647, doc: A. },"
          " { name: b, width: 2147483647, doc: B. } ]\n",
     11, 35, "width must be between 1 and 64"},
    {HEAD "      - name: v\n        type: u16\n        doc: V.\n        bits: [ { name: a, width: -2147483648, doc: A. } ]\n",
     11, 35, "width must be between 1 and 64"},
    {HEAD "      - { name: v, type: s32, fixed: \"2147483647.2147483647\", doc: V. }\n", 8, 38,
     "fixed must be INT.FRAC bits"},
    /* sizes whose products overflowed 64 bits (UBSan), counts C cannot declare */
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: C }\ntypes:\n"
     "  A:\n    fields: [ { name: a, type: \"u8[0xFFFFFFFF]\", doc: A. } ]\n"
     "  B:\n    fields: [ { name: b, type: \"A[0xFFFFFFFF]\", doc: B. } ]\n"
     "  C:\n    fields: [ { name: c, type: \"B[0xFFFFFFFF]\", doc: C. } ]\n",
     8, 3, "'B' takes more than 0xFFFFFFFF bytes, bfgen's limit"},
    {HEAD "      - { name: a, type: \"u32[-1]\", doc: A. }\n", 8, 31, "count -1 of 'a' is negative"},
    {HEAD "      - { name: a, type: \"u8[4294967296]\", if: \"1\", doc: A. }\n", 8, 30,
     "count 4294967296 of 'a' is beyond bfgen's limit of 0xFFFFFFFF"},
    {HEAD "      - { name: a, type: \"char[99999999999]\", doc: A. }\n", 8, 26, "char[N] is a fixed-length string"},
    /* numbers C cannot write: `if (inf)` */
    {HEAD "      - { name: a, type: u8, if: \"1e400\", doc: A. }\n", 8, 35, "number too large for a double"},
    {HEAD "      - { name: a, type: u8, count: \"18446744073709551616\", doc: A. }\n", 8, 38,
     "number too large for 64 bits"},
    /* an enum value its type cannot hold (-2^63 made a template recurse forever) */
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: T }\nenums:\n  E:\n    type: u8\n"
     "    values: { a: 0, b: -9223372036854775808 }\ntypes:\n  T:\n    fields: [ { name: a, type: u8, enum: E, doc: A. } ]\n",
     8, 21, "value -9223372036854775808 of 'b' does not fit in u8"},
    /* names that generate one C name twice */
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: T }\n  - { name: f, root: T }\n"
     "types:\n  T:\n    fields: [ { name: a, type: u8, doc: A. } ]\n",
     5, 5, "file kind 'f' is listed twice (first at line 4)"},
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: R }\ntypes:\n  T:\n    params: [n, n]\n"
     "    fields: [ { name: a, type: \"u8[n]\", doc: A. } ]\n"
     "  R:\n    fields: [ { name: t, type: T, args: { n: 1 }, doc: T. } ]\n",
     7, 17, "parameter 'n' is declared twice in 'T' (first at line 7)"},
    /* a parameter and a field of one name: `count: n` read the field, silently */
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: R }\ntypes:\n  T:\n    params: [n]\n    fields:\n"
     "      - { name: n, type: u8, doc: N. }\n      - { name: a, type: u8, count: n, doc: A. }\n"
     "  R:\n    fields: [ { name: t, type: T, args: { n: 1 }, doc: T. } ]\n",
     9, 9, "field 'n' has the name of a parameter of 'T'"},
    /* a type no root reaches: its reading functions were unused static functions (-Werror) */
    {HEAD "      - { name: a, type: u8, doc: A. }\n  Lonely:\n    fields: [ { name: b, type: u8, doc: B. } ]\n", 9, 3,
     "type 'Lonely' is not reached from any file kind's root"},
    /* libyaml's reader errors were all at 1:1 */
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n    doc: \"\x01\"\n", 7, 11,
     "YAML syntax: control characters are not allowed"},
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n    doc: \"caf\xc3\x28\"\n", 7, 15,
     "YAML syntax: invalid trailing UTF-8 octet"},
};

Test(bfgen_hostile, each_case_is_a_located_error)
{
    for (size_t i = 0; i < sizeof hostile_cases / sizeof hostile_cases[0]; i++) {
        const hostile_case *c = &hostile_cases[i];
        run r;
        bfgen_san(&r, "--syntax-only", c->schema, strlen(c->schema));
        expect_refused(&r, c->line, c->col, c->message);
    }
}

Test(bfgen_hostile, a_nul_byte_is_located)
{
    static const char schema[] = "format: x\nendian: big\nfiles:\n  - { name: f, root: T }\nty\0pes:\n";
    run r;
    bfgen_san(&r, "--syntax-only", schema, sizeof schema - 1);
    expect_refused(&r, 5, 3, "YAML syntax: control characters are not allowed");
}

typedef struct deep_case {
    const char *prefix, *unit;
    int times;
    const char *suffix;
    int line, col;
    const char *message;
} deep_case;

/* Nesting that overflowed the stack of a recursive reader (or took seconds to render): each
 * is bounded where it is written. 50,000 levels, as the hostile schemas had. */
#define FIELD_COUNT(expr_start) HEAD "      - { name: n, type: u8, doc: N. }\n      - { name: a, type: u8, doc: A., count: \"" expr_start
static const deep_case deep_cases[] = {
    {"format: x\nendian: big\nx: ", "[", 50000, "", 3, 67, "the schema nests more than 64 levels deep here"},
    {"format: x\nendian: big\nx: ", "{a: ", 50000, "", 3, 256, "the schema nests more than 64 levels deep here"},
    {FIELD_COUNT(""), "(", 50000, "n\" }\n", 9, 303, "expression nested more than 256 levels deep"},
    {FIELD_COUNT(""), "- ", 50000, "n\" }\n", 9, 558, "expression nested more than 256 levels deep"},
    {FIELD_COUNT("n"), "+1", 10000, "\" }\n", 9, 560, "expression nested more than 256 levels deep"},
    {FIELD_COUNT("n"), ".x", 50000, "\" }\n", 9, 560, "expression nested more than 256 levels deep"},
    {FIELD_COUNT(""), "n ? 1 : ", 50000, "1\" }\n", 9, 2090, "expression nested more than 256 levels deep"},
    {FIELD_COUNT("indexof(n"), ", 1", 50000, ")\" }\n", 9, 824, "a call takes at most 256 arguments"},
    {"format: x\nendian: big\nfiles:\n  - { name: f, root: T }\nenums:\n  E:\n    type: u8\n    values: { a: ", "1+",
     50000, "1 }\ntypes:\n  T:\n    fields: [ { name: a, type: u8, enum: E, doc: A. } ]\n", 8, 531,
     "expression nested more than 256 levels deep"},
};

Test(bfgen_hostile, nesting_is_bounded, .timeout = 120)
{
    for (size_t i = 0; i < sizeof deep_cases / sizeof deep_cases[0]; i++) {
        const deep_case *c = &deep_cases[i];
        char *schema = repeated(c->prefix, c->unit, c->times, c->suffix);
        run r;
        bfgen_san(&r, "--syntax-only", schema, strlen(schema));
        expect_refused(&r, c->line, c->col, c->message);
        free(schema);
    }
}

/* Values using values, and structures holding structures inline, each 20,000 deep. */
Test(bfgen_hostile, chains_of_values_and_types_are_bounded, .timeout = 120)
{
    size_t cap = 2000000, used = 0;
    char *s = malloc(cap);
    cr_assert_not_null(s);
    used += (size_t)snprintf(s + used, cap - used, "format: x\nendian: big\nfiles:\n  - { name: f, root: T }\ntypes:\n"
                                                   "  T:\n    values:\n      v0: n\n");
    for (int i = 1; i <= 20000; i++)
        used += (size_t)snprintf(s + used, cap - used, "      v%d: v%d + 1\n", i, i - 1);
    used += (size_t)snprintf(s + used, cap - used, "    fields:\n      - { name: n, type: u8, doc: N. }\n"
                                                   "      - { name: a, type: u8, count: v20000, doc: A. }\n");
    run r;
    bfgen_san(&r, "--syntax-only", s, used);
    expect_refused(&r, 19753, 15, "value 'v19744' is reached through more than 256 values that use each other");

    used = (size_t)snprintf(s, cap, "format: x\nendian: big\nfiles:\n  - { name: f, root: T0 }\ntypes:\n");
    for (int i = 0; i < 20000; i++)
        used += (size_t)snprintf(s + used, cap - used, "  T%d:\n    fields: [ { name: x, type: T%d, doc: X. } ]\n", i, i + 1);
    used += (size_t)snprintf(s + used, cap - used, "  T20000:\n    fields: [ { name: x, type: u8, doc: X. } ]\n");
    bfgen_san(&r, "--syntax-only", s, used);
    expect_refused(&r, 518, 3, "type 'T256' is held inline through more than 256 structures");
    free(s);
}

/* ---- a schema's size, not its square, sets bfgen's time ---- */

/* 50,000 enum members, 50,000 named values each using a field and a member, 50,000 fields:
 * about 1 s of CPU for the release bfgen, where the pairwise checks it had took more than
 * 300 s. Run under a CPU limit (not a clock: a busy machine does not matter) 50 times what
 * it needs, so that quadratic work fails here instead of hanging the suite. */
Test(bfgen_linear, fifty_thousand_of_each, .timeout = 300)
{
    enum { N = 50000 };
    size_t cap = 6000000, used = 0;
    char *s = malloc(cap);
    cr_assert_not_null(s);
    used += (size_t)snprintf(s + used, cap - used, "format: x\nendian: little\nfiles:\n  - { name: f, root: T }\n"
                                                   "enums:\n  E:\n    type: u32\n    values:\n");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(s + used, cap - used, "      v%d: %d\n", i, i);
    used += (size_t)snprintf(s + used, cap - used, "types:\n  T:\n    values:\n");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(s + used, cap - used, "      w%d: { value: f%d + E.v%d, doc: W. }\n", i, i, i);
    used += (size_t)snprintf(s + used, cap - used, "    fields:\n");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(s + used, cap - used, "      - { name: f%d, type: u8, doc: F. }\n", i);
    cr_assert_lt(used, cap - 1);
    run r;
    strcpy(r.path, "/tmp/bfgen_case_XXXXXX.yaml");
    int fd = mkstemps(r.path, 5);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, s, used), (ssize_t)used);
    close(fd);
    free(s);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ulimit -t 60; %s/build/bin/bfgen --syntax-only %s 2>&1", BF_PROJECT_DIR, r.path);
    shell(&r, cmd);
    unlink(r.path);
    cr_expect_eq(r.status, 0, "status 0x%x (killed by the CPU limit when it is SIGXCPU):\n%s", r.status, r.output);
}

/* `image:` roles name fields and values of the type; the codec is one binform decodes. */
#define IMAGE_HEAD "format: x\nendian: little\nfiles:\n  - { name: f, root: T }\ntypes:\n  T:\n"
#define IMAGE_FIELDS "    fields:\n      - { name: w, type: u8, doc: W. }\n      - { name: data, type: bytes, count: 4, doc: D. }\n"

Test(bfgen_errors, image_roles_name_what_the_type_has)
{
    run r;
    bfgen(&r, IMAGE_HEAD "    image: { codec: gx, format: fmt, width: wdth, height: h, pixels: data.x }\n"
                         "    fields:\n      - { name: fmt, type: u8, doc: F. }\n"
                         "      - { name: h, type: \"u16[2]\", doc: H. }\n"
                         "      - { name: data, type: bytes, count: 4, doc: D. }\n");
    expect_error(&r, 7, 12, "image width 'wdth' is neither a field nor a value of 'T'");
    expect_error(&r, 7, 12, "image height 'h' is not a single number of 'T'");
    expect_error(&r, 7, 12, "image pixels 'data.x': 'data' is not a structure");
    bfgen(&r, IMAGE_HEAD "    image: { codec: png, width: w, height: w, pixels: data }\n" IMAGE_FIELDS);
    expect_error(&r, 7, 21, "unknown image codec 'png'");
    bfgen(&r, IMAGE_HEAD "    image: { codec: rgba8888, width: w, height: w, pixels: data, short_pixels: maybe }\n"
                         IMAGE_FIELDS);
    expect_error(&r, 7, 80, "short_pixels is 'error' (the default) or 'pad', not 'maybe'");
    bfgen(&r, IMAGE_HEAD "    image: { codec: rgba8888, width: w, height: w, pixels: data }\n" IMAGE_FIELDS);
    cr_expect_eq(r.status, 0, "%s", r.output);
}
