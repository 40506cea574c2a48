/* bfgen import: a Kaitai Struct format (.ksy) -> a binform schema (.yaml). */
#ifndef BFGEN_KSY_IMPORT_H
#define BFGEN_KSY_IMPORT_H

#include <stdint.h>

#include "diag.h"

/* `bfgen import FILE.ksy [-I DIR]... -o FILE.yaml`; argv[0] is "import". */
int ksy_import_main(int argc, char **argv);

/* A growing text, pool-backed. */
typedef struct ksy_buf {
    char *text;
    size_t len, cap;
} ksy_buf;
void ksy_buf_add(ksy_buf *b, const char *s);
const char *ksy_buf_text(ksy_buf *b);

/* The Kaitai type an expression is written in: names resolve from it outwards. */
typedef struct ksy_scope ksy_scope;

/* A Kaitai expression as a binform one, or NULL after reporting what cannot be said. */
const char *ksy_expr(ksy_scope *scope, const char *text, src_loc at);
/* An integer constant, `true`/`false` or an enum literal, for switch labels. */
int ksy_const_int(ksy_scope *scope, const char *text, src_loc at, int64_t *out);

/* Callbacks of the expression translator into the importer. */
/* `enum::member` (possibly `type::enum::member`) -> "Enum.member", or NULL (reported). */
const char *ksy_enum_literal(ksy_scope *scope, const char *word, src_loc at);
/* The same as a number; `member` (may be NULL) gets the member's name. */
int ksy_enum_value(ksy_scope *scope, const char *word, src_loc at, int64_t *out, const char **member);
/* `_io.NAME` -> binform text (parenthesised when it is not one name), or NULL (reported). */
const char *ksy_io_member(ksy_scope *scope, const char *name, src_loc at);

/* A name of the current type as binform spells it (a Kaitai bit field: "bitsN.name"). */
const char *ksy_local_name(ksy_scope *scope, const char *name);

/* Whether a name of the current type is a float (a f4/f8 field, or a value computed with a
 * float literal). */
int ksy_is_float(ksy_scope *scope, const char *name);

/* `_parent.PATH` in the current type: the name of the parameter that carries it (added to the
 * type; every field of the type passes the parent's PATH), or NULL (reported). */
const char *ksy_parent_param(ksy_scope *scope, const char *path, src_loc at);

/* Kaitai's sizeof<NAME> and NAME._sizeof (a field of the current type) where the layout is
 * fixed: the number of bytes as text, or NULL (reported). */
const char *ksy_sizeof_type(ksy_scope *scope, const char *name, src_loc at);
const char *ksy_sizeof_field(ksy_scope *scope, const char *name, src_loc at);

#endif
