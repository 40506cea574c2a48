/* Reflection: generated tables that describe every format, type and field, so that tools
 * (dump, explain, check, fuzzers) work for every format with no per-format code. */
#ifndef BF_META_H
#define BF_META_H

#include <stddef.h>
#include <stdint.h>

#include "bf_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bf_findings;
struct bf_buffer;
struct bf_ctx;

/* Member offsets of 0 below mean "no such member": every generated structure starts with its
 * `_offset`, so no other member is ever at 0. Generated tables leave out every member that
 * has its default (0, NULL, BF_SCALAR). */

typedef enum {
    BF_U8, BF_U16, BF_U24, BF_U32, BF_U64, BF_S8, BF_S16, BF_S24, BF_S32, BF_S64, BF_F32, BF_F64, BF_CHAR
} bf_prim;

typedef enum { BF_FIELD_PRIM, BF_FIELD_STRUCT, BF_FIELD_BYTES, BF_FIELD_STR, BF_FIELD_SWITCH } bf_field_kind;

typedef enum {
    BF_SCALAR,      /* one value */
    BF_ARRAY_FIXED, /* a C array of fixed_count elements */
    BF_ARRAY        /* a pointer and a uint32_t count member */
} bf_array_kind;

typedef struct bf_type_desc bf_type_desc;

typedef struct bf_enum_value_desc {
    const char *name, *doc;
    int64_t value;
} bf_enum_value_desc;

typedef struct bf_enum_desc {
    const char *name, *doc;
    int is_flags; /* values are bit numbers */
    const bf_enum_value_desc *values;
    size_t count;
} bf_enum_desc;

typedef struct bf_bits_desc {
    const char *name, *doc;
    unsigned width, shift;
    int is_signed;
    size_t offset; /* of the int64_t/uint64_t member */
} bf_bits_desc;

typedef struct bf_case_desc {
    int64_t tag;
    const char *label;
    const bf_type_desc *type; /* NULL: raw bytes */
    size_t ptr_offset;        /* offsetof the case's pointer in the parent (0 when no type) */
} bf_case_desc;

typedef struct bf_field_desc {
    const char *name, *doc, *erratum;
    bf_field_kind kind;
    bf_prim prim;           /* BF_FIELD_PRIM */
    int little_endian;
    bf_array_kind array;
    uint32_t fixed_count;   /* BF_ARRAY_FIXED */
    size_t offset;          /* offsetof the member */
    size_t count_offset;    /* offsetof name_count (BF_ARRAY) */
    size_t has_offset;      /* offsetof has_name, or 0 */
    size_t at_offset;       /* offsetof name_at, or 0 (then static_offset applies) */
    int64_t static_offset;  /* offset inside the structure when at_offset is 0 */
    int64_t elem_size;      /* encoded bytes per element, -1 when variable */
    size_t value_offset;    /* offsetof the derived double(s), or 0 */
    size_t str_offset;      /* offsetof name_str (a string reference), or 0 */
    size_t tail_offset;     /* offsetof name_tail, or 0 */
    size_t pad_offset;      /* offsetof name_pad, or 0 */
    const bf_type_desc *type;  /* BF_FIELD_STRUCT */
    const bf_enum_desc *enumdef;
    const bf_bits_desc *bits;
    size_t bit_count;
    const bf_case_desc *cases; /* BF_FIELD_SWITCH: the `kind` int is at `offset` */
    size_t case_count;
    size_t switch_raw_offset;  /* offsetof the raw bf_bytes */
    unsigned roles;            /* BF_ROLE_*: how other fields' expressions use this one */
} bf_field_desc;

#define BF_ROLE_COUNT 1u  /* a count, length or size */
#define BF_ROLE_OFFSET 2u /* an offset or address */
#define BF_ROLE_INDEX 4u  /* selects the array element a count or offset comes from */

/* A number a type computes from its fields (schema `values:`): not stored in the file, so
 * tools show it marked as computed. One of the two functions is set, by is_float. */
typedef struct bf_value_desc {
    const char *name, *doc;
    int is_float;
    int64_t (*int_of)(struct bf_ctx *c, const void *obj);
    double (*float_of)(struct bf_ctx *c, const void *obj);
} bf_value_desc;

/* How objects of a type are images (schema `image:`), for tools that extract textures: each
 * role is the name of a field or a named value of the type; `pixels` and `palette` are paths
 * of fields (`images.data`: an array's first element on the way). The codec is `codec`, or
 * the one `codec_cases` (label or number, codec, ..., NULL) gives for the enum label or the
 * number of `codec_by`. `compression` (NULL or "lz4_frame"): the pixels are packed so, and
 * `pixels` may name the structure the packed data starts at. `pad_short` (`short_pixels: pad`):
 * real files hold fewer pixel bytes than the size takes, and the rest is left transparent
 * with a warning, not refused. */
typedef struct bf_image_desc {
    const char *codec, *codec_by;
    const char *const *codec_cases;
    const char *format, *width, *height, *pixels, *palette, *palette_format;
    const char *compression;
    int pad_short;
} bf_image_desc;

struct bf_type_desc {
    const char *name, *doc;
    int kind_id;           /* the value a switch's `kind` member takes for this type */
    size_t size;           /* sizeof the C struct */
    int64_t encoded_size;  /* bytes in the file when fixed, else -1 */
    const bf_field_desc *fields;
    size_t field_count;
    const bf_value_desc *values; /* its named values */
    size_t value_count;
    const bf_image_desc *image;  /* its objects are images, or NULL */
};

/* The active member of a switch field. */
typedef struct bf_switch_view {
    int kind;
    const void *ptr;       /* the case's structure, or NULL */
    const bf_type_desc *type;
    bf_bytes raw;
} bf_switch_view;

/* A file-set check (schema key `members`): every number found by `values` must be below the sum
 * of the numbers found by `below` (or equal to the sum of those found by `equals`), or every
 * name (or number) found by `values` must be one of those found by `among`. With `counts` (schema
 * `count: PATH`), what is compared is how many things `values` finds (in each member file), not
 * their numbers. Paths start with `owner.` (the object the member belongs to) or `member.` (the
 * member file's root; every file of a member named by a '*' pattern); arrays on the way are
 * walked element by element. */
typedef struct bf_member_check_desc {
    const char *values;
    const char *const *below;
    size_t below_count;
    const char *const *equals;
    size_t equals_count;
    int counts; /* compare how many things `values` finds, not their numbers */
    const char *origin;
    const char *const *among;
    size_t among_count;
    int ignore_case; /* `among` compares names without ASCII case */
    int warning;     /* a failed check is a warning (schema `severity: warning`), else an error */
} bf_member_check_desc;

/* Another file that belongs with a file of this kind, found by name (schema key `members`). */
typedef struct bf_member_desc {
    const char *name, *doc;
    const char *kind;               /* KIND of this format or FORMAT.KIND */
    const char *each;               /* path of the owner objects, one member each; NULL: one member */
    const char *each_type;          /* only the objects of this type (a switch's case), or NULL */
    const char *const *files;       /* name patterns, tried in order; NULL-terminated */
    const bf_member_check_desc *checks;
    size_t check_count;
    const char *orphans; /* "error"/"warning": files a {n} pattern matches that no object claims; NULL */
} bf_member_desc;

typedef struct bf_entry_desc {
    const char *name, *doc;
    const bf_type_desc *root;
    const char *const *extensions; /* NULL-terminated, without dots */
    const char *magic;             /* NULL: none */
    size_t magic_len;
    uint64_t magic_at;
    int (*read)(const uint8_t *data, size_t size, bf_arena *arena, const bf_read_opts *opts, void **out,
                bf_error *err);
    /* Adds findings to a bf_findings (bf_validate.h); 1 when none is an error. */
    int (*validate)(const void *doc, const uint8_t *data, size_t size, struct bf_findings *out);
    /* Writes the document into a bf_buffer (bf_write.h); 0 with `err` set on failure. */
    int (*write)(const void *doc, struct bf_buffer *out, bf_error *err);
    size_t revision_offset; /* offsetof the root's int64_t _revision, or 0 */
    /* Lays the document out from scratch (the builder) into a bf_buffer; counts, offsets and
     * sizes are computed and stored back into `doc`. 0 with `err` set on failure. */
    int (*build)(void *doc, bf_arena *arena, struct bf_buffer *out, bf_error *err);
    const bf_member_desc *members; /* the files of its set (schema key `members`) */
    size_t member_count;
} bf_entry_desc;

typedef struct bf_format_desc {
    const char *name, *title, *doc;
    const char *endian;
    const bf_entry_desc *entries;
    size_t entry_count;
    const bf_type_desc *const *types;
    size_t type_count;
    const char *const *revisions; /* the layouts, by bf_read_opts.revision name; none: NULL */
    size_t revision_count;
    const bf_enum_desc *const *enums; /* every enum and flag set of the schema */
    size_t enum_count;
} bf_format_desc;

/* ---- walking documents through the tables ---- */

/* Number of elements of a field in `obj` (1 for scalars; 0 when an `if:` left it out). */
uint64_t bf_field_count(const bf_field_desc *f, const void *obj);
/* Bytes one element of a field takes in memory (arrays of it are allocated with this). */
size_t bf_field_elem_mem_size(const bf_field_desc *f);
/* Address of element `i` of a field (a number, a struct, a bf_str, a bf_bytes). */
const void *bf_field_elem(const bf_field_desc *f, const void *obj, uint64_t i);
/* A number element as int64 / double (floats: the double; integers: exact). */
int64_t bf_prim_int(bf_prim p, const void *elem);
double bf_prim_double(bf_prim p, const void *elem);
int bf_prim_is_float(bf_prim p);
int bf_prim_size(bf_prim p);
const char *bf_prim_name(bf_prim p);
/* Where a field starts in the file, for an object that starts at `_offset`. */
uint64_t bf_field_pos(const bf_field_desc *f, const void *obj);
/* The active member of a switch field. */
bf_switch_view bf_field_switch(const bf_field_desc *f, const void *obj);
/* A named value of `obj`, a structure of the document whose root is `root`, read as
 * `revision` (0 when its format has none) from an input of `size` bytes (`_size`): *i or *f
 * by v->is_float. 0 with `err` set when it cannot be computed (an index out of range, a
 * division by zero). */
int bf_value_get(const bf_value_desc *v, const void *root, int64_t revision, size_t size, const void *obj, int64_t *i,
                 double *f, bf_error *err);
/* The name of an enum value, or NULL. */
const char *bf_enum_name(const bf_enum_desc *e, int64_t value);
/* The `_offset` every generated structure starts with. */
static inline uint64_t bf_obj_offset(const void *obj)
{
    uint64_t v;
    memcpy(&v, obj, sizeof v);
    return v;
}

/* Picks the entry for a file: by magic first, then by extension (the hint). NULL if none. */
const bf_entry_desc *bf_detect(const bf_format_desc *const *formats, const uint8_t *data, size_t size,
                               const char *path, const bf_format_desc **format_out);

#ifdef __cplusplus
}
#endif

#endif
