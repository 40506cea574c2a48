/* Random valid schemas: `schema_gen SEED` prints one to standard output, the same for the same
 * seed. bfgen must accept each, its C must compile, and files its builder writes must read
 * back equal (tests/fuzz/fuzz_schemas.sh checks all three).
 *
 * What a schema may hold: either endianness; enums (u8, u16, u32); structures nested inline
 * (each type may hold the ones made before it); fields of every primitive; fixed arrays;
 * arrays and bytes counted by an earlier field (`count: n`, `u16[n]`, `n + 1`); char[N], cstr;
 * fields read only when an earlier one says so (`if:`); bit fields, signed and not; enum
 * fields; switches on an earlier field over earlier types, with or without a default;
 * arrays ended by a value (`until: "_it == 0"`); a root ending in an array to the end of the
 * file (always: see type()); declared offsets (`at:`) where the layout is static; rules comparing fields;
 * fields read at a position (`pos:`, from the structure's start or counted from the end of the
 * file) or inside a region (`size:`, its tail kept); alignment (`align:`); derived values
 * (`derive:`); a field's own byte order (`endian:`); types with a parameter (`params:`, passed
 * with `args:`); named values (`values:`) and rules that use them; two revisions chosen by
 * `_revision`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state;

/* xorshift64*: small, and the same sequence on every platform */
static unsigned pick(unsigned n)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (unsigned)((state * UINT64_C(2685821657736338717)) >> 33) % n;
}

static const char *const prims[] = {"u8", "u16", "u24", "u32", "u64", "s8", "s16", "s24", "s32", "s64", "f32", "f64"};
static const int prim_sizes[] = {1, 2, 3, 4, 8, 1, 2, 3, 4, 8, 4, 8};
enum { PRIMS = 12, MAX_TYPES = 6, MAX_FIELDS = 8, MAX_ENUMS = 3 };

typedef struct type_info {
    int static_size; /* -1 when variable */
    int used;        /* by a field of a later type (bfgen refuses a type no root reaches) */
    int has_param;   /* takes `n`, passed with args: (switch cases cannot) */
} type_info;

static type_info types[MAX_TYPES];
static const char *enum_types[MAX_ENUMS];
static int enums, revisions;

/* The args: a field of type `inner` needs, from a counter (or 1). */
static const char *args_for(int inner, const char *counter)
{
    static char text[64];
    if (!types[inner].has_param)
        return "";
    snprintf(text, sizeof text, ", args: { n: %s }", counter ? counter : "1");
    return text;
}

/* One field of type `t` (its `i`-th); `counters` are names of earlier u8 fields holding small
 * numbers (counts, tags), `offset` the static offset so far (-1: variable). Returns the
 * field's static size, -1 when variable. */
static int field(int t, int i, char counters[][16], int *ncounters, int offset, int is_root_last)
{
    char name[16];
    snprintf(name, sizeof name, "f%d", i);
    const char *at = "";
    char at_text[32];
    if (offset >= 0 && pick(3) == 0) {
        snprintf(at_text, sizeof at_text, ", at: %d", offset);
        at = at_text;
    }
    if (is_root_last) {
        printf("      - { name: %s, type: \"u8[]\", to_end: true, doc: \"The rest of the file.\" }\n", name);
        return -1;
    }
    const char *c = *ncounters ? counters[pick((unsigned)*ncounters)] : NULL;
    switch (pick(19)) {
    case 0: { /* a counter or tag for the fields after it */
        printf("      - { name: %s, type: u8%s, doc: \"A small number.\" }\n", name, at);
        if (*ncounters < 8)
            snprintf(counters[(*ncounters)++], 16, "%s", name);
        return 1;
    }
    case 1: {
        int p = (int)pick(PRIMS);
        printf("      - { name: %s, type: %s%s, doc: \"A number.\" }\n", name, prims[p], at);
        return prim_sizes[p];
    }
    case 2: {
        int p = (int)pick(PRIMS), n = 1 + (int)pick(4);
        printf("      - { name: %s, type: \"%s[%d]\"%s, doc: \"A fixed array.\" }\n", name, prims[p], n, at);
        return prim_sizes[p] * n;
    }
    case 3:
        if (!c)
            break;
        switch (pick(3)) {
        case 0: printf("      - { name: %s, type: \"%s[%s]\", doc: \"Counted.\" }\n", name, prims[pick(PRIMS)], c); break;
        case 1: printf("      - { name: %s, type: %s, count: \"%s + 1\", doc: \"Counted.\" }\n", name, prims[pick(PRIMS)], c); break;
        default: printf("      - { name: %s, type: bytes, count: %s, doc: \"Counted bytes.\" }\n", name, c); break;
        }
        return -1;
    case 4: {
        int n = 1 + (int)pick(8);
        printf("      - { name: %s, type: \"char[%d]\"%s, doc: \"A fixed string.\" }\n", name, n, at);
        return n;
    }
    case 5:
        printf("      - { name: %s, type: cstr, doc: \"A string.\" }\n", name);
        return -1;
    case 6:
        if (!t)
            break;
        {
            int inner = (int)pick((unsigned)t), shape = (int)pick(3);
            types[inner].used |= shape < 2 || c;
            const char *args = args_for(inner, c);
            if (shape == 0) {
                printf("      - { name: %s, type: T%d%s%s, doc: \"A structure.\" }\n", name, inner, at, args);
                return types[inner].static_size;
            }
            if (shape == 1) {
                printf("      - { name: %s, type: \"T%d[2]\"%s%s, doc: \"Two structures.\" }\n", name, inner, at, args);
                return types[inner].static_size < 0 ? -1 : 2 * types[inner].static_size;
            }
            if (c) {
                printf("      - { name: %s, type: \"T%d[%s]\"%s, doc: \"Counted structures.\" }\n", name, inner, c, args);
                return -1;
            }
        }
        break;
    case 7:
        if (!c)
            break;
        printf("      - { name: %s, type: %s, if: \"%s %s\", doc: \"Only sometimes.\" }\n", name, prims[pick(PRIMS)], c,
               pick(2) ? "!= 0" : "& 1");
        return -1;
    case 8: {
        int wide = (int)pick(2);
        printf("      - name: %s\n        type: %s\n        doc: \"Packed.\"\n        bits:\n", name, wide ? "u32" : "u16");
        int left = wide ? 32 : 16, n = 1 + (int)pick(3);
        for (int b = 0; b < n && left > 0; b++) {
            int w = 1 + (int)pick((unsigned)(left < 9 ? left : 9));
            left -= w;
            printf("          - { name: b%d, width: %d%s, doc: \"Bits.\" }\n", b, w, pick(2) ? ", signed: true" : "");
        }
        return wide ? 4 : 2;
    }
    case 9:
        if (!enums)
            break;
        {
            int e = (int)pick((unsigned)enums);
            printf("      - { name: %s, type: %s, enum: E%d%s, doc: \"A named value.\" }\n", name, enum_types[e], e, at);
            return enum_types[e][1] == '8' ? 1 : enum_types[e][1] == '1' ? 2 : 4;
        }
    case 10:
        if (!c || !t)
            break;
        printf("      - name: %s\n        doc: \"One of several.\"\n        type:\n          switch: %s\n          cases:\n",
               name, c);
        for (int k = 0, cases = 1 + (int)pick(3); k < cases; k++) {
            int inner = (int)pick((unsigned)t);
            if (types[inner].has_param) /* a switch case cannot take parameters: raw bytes */
                printf("            %d: bytes\n", k + 1);
            else
                printf("            %d: T%d\n", k + 1, inner);
            types[inner].used |= !types[inner].has_param;
        }
        {
            int inner = (int)pick((unsigned)t);
            if (pick(2) && !types[inner].has_param) {
                types[inner].used = 1;
                printf("          default: T%d\n", inner);
            } else {
                printf("          default: bytes\n");
            }
        }
        return -1;
    case 11: /* read again at the structure's start: a position, taking no bytes inline */
        printf("      - { name: %s, type: u8, pos: _start, doc: \"The structure's first byte again.\" }\n", name);
        return offset > 0 ? 0 : -1;
    case 12: /* a region: an array filling it, or a structure whose unread bytes are its tail */
        if (!c)
            break;
        if (t && pick(2)) {
            int inner = (int)pick((unsigned)t);
            types[inner].used |= 1;
            printf("      - { name: %s, type: T%d, size: \"%s + 8\"%s, doc: \"A structure in a region.\" }\n", name, inner,
                   c, args_for(inner, c));
        } else {
            printf("      - { name: %s, type: \"u16[]\", size: \"%s * 2\", doc: \"As many u16 as the region holds.\" }\n",
                   name, c);
        }
        return -1;
    case 13: {
        static const int aligns[] = {2, 4, 8, 16};
        printf("      - { name: %s, type: %s, align: %d, doc: \"Aligned.\" }\n", name, prims[pick(PRIMS)], aligns[pick(4)]);
        return -1;
    }
    case 14: {
        static const char *const derives[] = {"_value * 2.5", "(_value + 1) / 256.0", "_value / 3"};
        int p = (int)pick(10); /* integers only */
        printf("      - { name: %s, type: %s, derive: \"%s\"%s, doc: \"Derived.\" }\n", name, prims[p], derives[pick(3)], at);
        return prim_sizes[p];
    }
    case 15: {
        int p = 1 + (int)pick(4); /* u16..u64 */
        printf("      - { name: %s, type: %s, endian: %s%s, doc: \"Its own byte order.\" }\n", name, prims[p],
               pick(2) ? "big" : "little", at);
        return prim_sizes[p];
    }
    case 16: /* read only in one of the revisions */
        if (!revisions)
            break;
        printf("      - { name: %s, type: u16, if: \"_revision == Revision.r%d\", doc: \"In one revision.\" }\n", name,
               (int)pick(2));
        return -1;
    case 17: /* counted from the end of the file */
        printf("      - { name: %s, type: u8, if: \"_size >= 1\", pos: \"_size - 1\", doc: \"The last byte.\" }\n", name);
        return offset >= 0 ? 0 : -1;
    default:
        printf("      - { name: %s, type: \"%s[]\", until: \"_it == 0\", doc: \"Ends with a zero.\" }\n", name,
               pick(2) ? "u8" : "u16");
        return -1;
    }
    printf("      - { name: %s, type: u8%s, doc: \"A byte.\" }\n", name, at);
    return 1;
}

static void type(int t, int is_root)
{
    if (is_root)
        printf("  Root:\n    doc: \"The whole file.\"\n");
    else
        printf("  T%d:\n    doc: \"A structure.\"\n", t);
    char counters[8][16];
    int ncounters = 0, offset = 0, n = 1 + (int)pick(MAX_FIELDS);
    if (!is_root && pick(4) == 0) {
        types[t].has_param = 1;
        printf("    params: [{ name: n, doc: \"A count from the holder.\" }]\n");
        snprintf(counters[ncounters++], 16, "n");
        offset = -1; /* its arrays may be counted by n */
    }
    printf("    fields:\n");
    for (int u = 0; is_root && u < t; u++)
        if (!types[u].used) {
            printf("      - { name: u%d, type: T%d%s, doc: \"A structure nothing else holds.\" }\n", u, u, args_for(u, NULL));
            offset = offset < 0 || types[u].static_size < 0 ? -1 : offset + types[u].static_size;
        }
    for (int i = 0; i < n; i++) {
        /* the root ends with the rest of the file: a root of fixed size cut short is reported
         * with an empty path (the whole structure is checked at once, and the root has no
         * name), which fuzz_reader.c counts as a finding; left to the runtime's owners */
        int size = field(t, i, counters, &ncounters, offset, is_root && i == n - 1);
        offset = offset < 0 || size < 0 ? -1 : offset + size;
    }
    if (!is_root)
        types[t].static_size = offset;
    int first = types[t].has_param; /* counters[0] is the parameter: a field is needed */
    if (ncounters > first && pick(2)) {
        printf("    values:\n      twice: { value: \"%s * 2 + 1\", doc: \"A number computed from a field.\" }\n",
               counters[first]);
        printf("    rules:\n      - { check: \"twice %% 2 == 1\", message: \"{twice} is even\", severity: warning }\n");
    } else if (ncounters >= 2 && pick(2)) {
        printf("    rules:\n      - { check: \"%s <= 255 && %s >= 0\", message: \"{%s} out of range\", severity: warning }\n",
               counters[0], counters[1], counters[0]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: schema_gen SEED\n");
        return 2;
    }
    unsigned long long seed = strtoull(argv[1], NULL, 10);
    state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    printf("format: rs%llu\ntitle: Random schema %llu\nendian: %s\ndoc: Made by tests/fuzz/schema_gen.c.\n\n", seed, seed,
           pick(2) ? "little" : "big");
    printf("files:\n  - { name: file, root: Root, doc: \"A random file.\" }\n\n");
    revisions = pick(4) == 0;
    if (revisions)
        printf("revisions:\n  r0: { doc: \"The first layout.\" }\n  r1: { doc: \"The second layout.\" }\n\n");
    enums = (int)pick(MAX_ENUMS + 1);
    if (enums) {
        printf("enums:\n");
        for (int e = 0; e < enums; e++) {
            static const char *const bases[] = {"u8", "u16", "u32"};
            enum_types[e] = bases[pick(3)];
            printf("  E%d:\n    type: %s\n    doc: \"Named values.\"\n    values: { zero: 0, one: 1, seven: 7 }\n", e,
                   enum_types[e]);
        }
    }
    printf("types:\n");
    int n = (int)pick(MAX_TYPES);
    for (int t = 0; t < n; t++)
        type(t, 0);
    type(n, 1);
    return 0;
}
