/* The typed IR of a schema: formats, types, fields, enums, flags. */
#ifndef BFGEN_MODEL_H
#define BFGEN_MODEL_H

#include <stdint.h>

#include "diag.h"
#include "name_map.h"
#include "expr.h"
#include "yaml_tree.h"

typedef enum {
    PRIM_U8, PRIM_U16, PRIM_U24, PRIM_U32, PRIM_U64,
    PRIM_S8, PRIM_S16, PRIM_S24, PRIM_S32, PRIM_S64,
    PRIM_F32, PRIM_F64, PRIM_CHAR,
    PRIM_COUNT
} prim_kind;

/* The primitive types: the one table the checker and the templates (through the IR) share. */
typedef struct prim_info {
    const char *name;  /* as the schema writes it */
    const char *ctype; /* the C type a reader stores it in */
    int size;          /* bytes in the file */
    int is_signed;     /* a signed integer (floats are not counted) */
    int is_float;
} prim_info;

typedef enum {
    FT_PRIM,   /* integer, float or char */
    FT_STRUCT, /* a declared type */
    FT_BYTES,  /* raw bytes, kept as they are */
    FT_CSTR,   /* zero-terminated string */
    FT_STR,    /* fixed-length string: char[N] */
    FT_SWITCH  /* a variant chosen by a tag */
} field_kind;

typedef struct enum_value {
    const char *name, *doc;
    int64_t value;
    src_loc loc;
} enum_value;

typedef struct enum_def {
    const char *name, *doc;
    src_loc loc;
    prim_kind base;
    int is_flags;      /* flags: values are bit numbers */
    int is_open;       /* other values are allowed too (no membership check) */
    ptr_vec values;    /* enum_value* */
    name_map value_names; /* by name */
} enum_def;

typedef struct bit_field {
    const char *name, *doc;
    src_loc loc;
    int width, shift, is_signed;
} bit_field;

typedef struct type_def type_def;

typedef struct switch_case {
    src_loc loc;
    const char *label; /* as written */
    int64_t value;
    int is_default;
    const char *type_name; /* NULL: raw bytes */
    type_def *type;
    int64_t align;         /* where the builder places this case's data (0: the type's) */
    int pool;              /* raw case whose bytes are what the builder places into it */
} switch_case;

typedef struct named_expr {
    const char *name;
    src_loc loc;
    expr *value;
} named_expr;

/* A value a type computes from its fields (`values:`), usable by name in its expressions. */
typedef struct named_value {
    const char *name, *doc;
    src_loc loc;
    expr *value;
    struct type_def *owner;
    int synthetic;      /* a quantifier of a read expression, lifted so it is computed once */
    /* computed by the checker */
    int state;          /* 0 new, 1 being checked, 2 checked */
    int last_field;     /* the last field of the owner it reads (-1: none) */
    int rules_only;     /* it uses tag() or offset(): not available while reading */
    int state_marking;  /* being walked by the field-role marking */
} named_value;

typedef struct field {
    const char *name, *doc, *erratum;
    src_loc loc;
    type_def *owner;
    int index;

    field_kind kind;
    const char *type_text;
    prim_kind prim;
    int little_endian;
    const char *type_name;
    type_def *type;     /* FT_STRUCT */
    const char *enum_name;
    enum_def *enumdef;  /* enum: or flags: */
    int64_t str_len;    /* FT_STR: char[N] */

    /* repetition */
    int is_array;
    expr *count;        /* count: */
    expr *until;        /* until: (terminator included) */
    int to_end;         /* to_end: true (to the end of the region) */

    expr *size;         /* size: bytes of the region this field is read in */
    expr *pos;          /* pos: absolute offset of located data */
    expr *cond;         /* if: */
    int64_t align;      /* align: pad before the field to a multiple of this */

    expr *const_value;  /* const: a mismatch fails the read */
    const char *const_str;
    expr *expect;       /* expect: a mismatch is a validator finding */
    int expect_warning; /* expect: { severity: warning } */
    const char *expect_origin;

    ptr_vec bits;       /* bit_field*, most significant first */
    expr *string_table; /* string: the table (a bytes field) this offset points into */
    int has_string_null;
    int64_t string_null;
    int fixed_int, fixed_frac, is_fixed;
    expr *derive;       /* derived value from `value` */
    expr *value;        /* value: what the builder writes here (a formula over the document) */
    const char *prefix; /* prefix: bytes a built string table starts with */
    int never_empty;    /* never_empty: a built string table without strings holds the empty one */
    int computed;       /* computed: true: the builder makes this array from other data */
    int has_padding;    /* padding: the field's region ends before its trailing padding */
    ptr_vec pad_fill;   /* const char*: texts the padding is a prefix of */
    expr *pad_unit;     /* the padding starts at a multiple of this many bytes (NULL: the element size) */
    int64_t pad_below;  /* the padding is shorter than this */
    int has_fill_to;    /* fill_to: the builder pads the field's region to a multiple of fill_align */
    int64_t fill_align;
    ptr_vec tail_fill;  /* const char*: the texts the builder's padding is a prefix of */
    const char *derive_doc;
    ptr_vec args;       /* named_expr*, for FT_STRUCT with params */

    expr *switch_on;    /* FT_SWITCH */
    ptr_vec cases;      /* switch_case* */

    int has_at;
    int64_t declared_at;
    int has_document_at;
    int64_t document_at;  /* where the document puts it, when an erratum moved it */

    /* computed by the checker */
    int64_t static_offset; /* -1: not known statically */
    int64_t elem_size;     /* encoded size of one element, -1: variable */
    int64_t min_elem_size; /* at least this many bytes per element */
    int used_as_count;     /* named by some count/size/length expression */
    int used_as_offset;    /* named by some pos expression */
    int used_as_index;     /* selects the element a count or offset comes from */
} field;

typedef struct param {
    const char *name, *doc;
    src_loc loc;
    int index; /* in its type's params */
} param;

/* Part of a rule's message: literal text, or a value written in decimal or hex. */
typedef struct msg_part {
    const char *text;
    expr *value;
    int hex;
} msg_part;

/* A validation rule of a type: `check` must hold (for each element of `each`, if given). */
typedef struct rule {
    src_loc loc;
    expr *check;
    const char *message;
    ptr_vec parts;      /* msg_part* */
    int warning;        /* severity: warning (default error) */
    const char *origin; /* the document sentence it comes from */
    const char *each;   /* name of an array field of the type */
    struct field *each_field;
    expr *at;           /* the field the finding points at (default: the element or the type) */
    const char *name;   /* the rule's name after its type's (`--ignore`); NULL: from `at` or `each` */
} rule;

/* A row of a document table that real files do not have. */
typedef struct absent_row {
    const char *row, *reason;
    src_loc loc;
} absent_row;

/* How objects of a type are images (schema `image:`): each role names a field or a value of
 * the type; the codec is a word, or picked by a field's enum label or a number
 * (`codec: {by:, cases:}`). */
typedef struct image_def {
    src_loc loc;
    const char *codec;     /* NULL when codec_by picks it */
    const char *codec_by;  /* a field with an enum */
    ptr_vec codec_cases;   /* const char*: label, codec, label, codec, ... */
    const char *format, *width, *height, *pixels, *palette, *palette_format;
    const char *compression; /* NULL, or how the pixels are packed (lz4_frame) */
    int pad_short;           /* `short_pixels: pad`: real files hold fewer pixels than the size */
} image_def;

struct type_def {
    const char *name, *doc;
    src_loc loc;
    image_def *image;    /* `image:`, or NULL */
    ptr_vec tables;      /* const char*: the document tables this type mirrors */
    ptr_vec absent_rows; /* absent_row* */
    ptr_vec rules;       /* rule* */
    ptr_vec fields; /* field* */
    ptr_vec params; /* param* */
    ptr_vec values; /* named_value*: `values:`, then lifted quantifiers */
    name_map field_names, value_names, param_names; /* the first of each name */
    int has_size;
    int64_t declared_size;
    int64_t align;       /* align: where the builder places data of this type */

    /* computed by the checker */
    int state;           /* 0 new, 1 sizing, 2 sized */
    int64_t static_size; /* -1: variable */
    int64_t min_size;
    int needs_link;      /* it or something inside resolves strings after reading */
    int kind_id;         /* 1-based number used by switch results */
};

/* A cross-file check of a member (see bf_member_check_desc). */
typedef struct member_check {
    src_loc loc;
    const char *values;
    ptr_vec below; /* const char*: paths whose numbers are summed */
    ptr_vec among; /* const char*: paths whose names or numbers `values` must be among */
    ptr_vec equals; /* const char*: paths whose numbers are summed, for `values` to equal */
    int counts;     /* `count: PATH`: how many things the path finds is compared, not their numbers */
    int ignore_case; /* `among` compares names without ASCII case */
    int warning;     /* a failed check is a warning, not an error (`severity: warning`) */
    const char *origin;
} member_check;

/* Another file of a file set, found by name (schema key `members` of a file kind). */
typedef struct member {
    src_loc loc;
    const char *name, *doc, *kind, *each, *each_type;
    ptr_vec files;  /* const char*: name patterns */
    ptr_vec checks; /* member_check* */
    const char *orphans; /* "error" or "warning": files a {n} pattern matches beyond the count; NULL: not looked for */
} member;

typedef struct entry {
    const char *name, *doc;
    src_loc loc;
    type_def *root;
    const char *root_name;
    ptr_vec extensions; /* const char* */
    const char *magic;
    int64_t magic_at;
    ptr_vec members; /* member* */
} entry;

/* A named layout variant of the format, chosen by the reader's caller or detected. */
typedef struct revision {
    const char *name, *doc;
    src_loc loc;
} revision;

typedef struct format {
    const char *name, *title, *doc, *document, *document_title, *file;
    ptr_vec revisions; /* revision*, in the order detection tries them */
    src_loc loc;
    int little_endian;
    ptr_vec entries; /* entry* */
    ptr_vec enums;   /* enum_def* (enums and flags) */
    ptr_vec types;   /* type_def* */
    name_map type_names, enum_names; /* the first of each name */
} format;

/* Builds the IR from a schema's tree; reports every problem it finds. */
format *model_build(const ynode *doc);
/* Resolves names, types expressions and computes the layout; reports every problem. */
void model_check(format *f);

const prim_info *prim_get(prim_kind p);
const char *prim_name(prim_kind p);
int prim_size(prim_kind p);
int prim_is_signed(prim_kind p);
int prim_is_float(prim_kind p);
type_def *find_type(const format *f, const char *name);
enum_def *find_enum(const format *f, const char *name);
field *find_field(const type_def *t, const char *name);

#endif
