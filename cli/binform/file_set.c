/* File sets, driven by the schema's `members` tables (bf_member_desc): which files belong
 * with a file, where they are, and which numbers of one must stay below numbers of the other.
 * Nothing here knows a format: paths are walked through the reflection tables. */
#define _POSIX_C_SOURCE 200809L
#include "file_set.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One thing a path leads to: a structure (type, obj) or a number (value). */
typedef struct found {
    const bf_type_desc *type; /* NULL for a number */
    const void *obj;
    int64_t value;
    int is_char;
    const bf_str *str; /* a string field */
    uint64_t offset;
    const char *path;
} found;

typedef void (*found_fn)(const found *f, void *ctx);

static void append_step(char *path, size_t size, size_t len, const bf_field_desc *f, uint64_t i)
{
    const char *dot = len ? "." : "";
    if (len >= size)
        return;
    if (f->array == BF_SCALAR)
        snprintf(path + len, size - len, "%s%s", dot, f->name);
    else
        snprintf(path + len, size - len, "%s%s[%" PRIu64 "]", dot, f->name, i);
}

static const bf_field_desc *field_named(const bf_type_desc *t, const char *name, size_t len)
{
    for (size_t k = 0; k < t->field_count; k++)
        if (strlen(t->fields[k].name) == len && memcmp(t->fields[k].name, name, len) == 0)
            return &t->fields[k];
    return NULL;
}

/* Walks `rest` (field names separated by dots) from `obj`, every element of every array on
 * the way; calls fn for what the last name leads to (structures only of type `only`, when
 * given). Returns 0 when a name is not a field: the schema's path is wrong. */
static int walk(const bf_type_desc *t, const void *obj, const char *rest, const char *only, char *path, size_t len,
                found_fn fn, void *ctx)
{
    const char *dot = strchr(rest, '.');
    size_t n = dot ? (size_t)(dot - rest) : strlen(rest);
    const bf_field_desc *f = field_named(t, rest, n);
    if (!f)
        return 0;
    uint64_t count = bf_field_count(f, obj);
    int ok = 1;
    for (uint64_t i = 0; i < count && ok; i++) {
        append_step(path, BF_PATH_MAX, len, f, i);
        size_t here = strlen(path);
        const bf_type_desc *st = NULL;
        const void *sobj = NULL;
        if (f->kind == BF_FIELD_STRUCT) {
            st = f->type;
            sobj = bf_field_elem(f, obj, i);
        } else if (f->kind == BF_FIELD_SWITCH) {
            bf_switch_view v = bf_field_switch(f, obj);
            st = v.type;
            sobj = v.ptr;
        }
        if (dot) {
            if (st && sobj)
                ok = walk(st, sobj, dot + 1, only, path, here, fn, ctx);
        } else if (st && sobj) {
            if (!only || strcmp(st->name, only) == 0)
                fn(&(found){.type = st, .obj = sobj, .offset = bf_obj_offset(sobj), .path = path}, ctx);
        } else if (f->kind == BF_FIELD_STR) {
            const bf_str *str = bf_field_elem(f, obj, i);
            fn(&(found){.str = str, .offset = bf_field_pos(f, obj), .path = path}, ctx);
        } else if (f->kind == BF_FIELD_PRIM && !bf_prim_is_float(f->prim)) {
            uint64_t step = f->elem_size > 0 ? (uint64_t)f->elem_size : (uint64_t)bf_prim_size(f->prim);
            found x = {.value = bf_prim_int(f->prim, bf_field_elem(f, obj, i)), .is_char = f->prim == BF_CHAR,
                       .offset = bf_field_pos(f, obj) + i * step, .path = path};
            fn(&x, ctx);
        }
        path[len] = '\0';
    }
    return ok;
}

/* ---- sums and names ---- */

typedef struct summing {
    int64_t sum;
} summing;

static void add_value(const found *f, void *ctx)
{
    if (!f->type && !f->str)
        ((summing *)ctx)->sum += f->value;
}

typedef struct spelling {
    char text[256];
    size_t len;
    int stop; /* a char string ended, or a number was written */
} spelling;

/* A character of a name taken from a file: one that cannot leave the folder or the line. */
static char name_char(int c)
{
    return c > ' ' && c < 0x7F && c != '/' && c != '\\' ? (char)c : '_';
}

/* A placeholder's value: a string field or the characters of a char field up to the first
 * zero, or a number. */
static void spell_value(const found *f, void *ctx)
{
    spelling *s = ctx;
    if (f->type || s->stop || s->len + 24 >= sizeof s->text)
        return;
    if (f->str) {
        for (uint32_t k = 0; f->str->ptr && k < f->str->len && f->str->ptr[k] && s->len + 1 < sizeof s->text; k++)
            s->text[s->len++] = name_char((unsigned char)f->str->ptr[k]);
        s->stop = 1;
    } else if (f->is_char) {
        if (f->value == 0)
            s->stop = 1;
        else
            s->text[s->len++] = name_char((int)f->value);
    } else {
        s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "%" PRId64, f->value);
        s->stop = 1;
    }
    s->text[s->len] = '\0';
}

/* Where a path starts: `owner.` is the owning object, `member.` the member's root. */
typedef struct ends {
    const bf_type_desc *owner_type, *member_type;
    const void *owner, *member;
} ends;

static int walk_from(const ends *e, const char *p, found_fn fn, void *ctx)
{
    char path[BF_PATH_MAX] = "";
    if (strncmp(p, "owner.", 6) == 0)
        return walk(e->owner_type, e->owner, p + 6, NULL, path, 0, fn, ctx);
    if (strncmp(p, "member.", 7) == 0 && e->member)
        return walk(e->member_type, e->member, p + 7, NULL, path, 0, fn, ctx);
    return 0;
}

/* Expands a name pattern: {stem} is the owner's file name without its last extension, {n}
 * counts the owner objects, {a.b} is a field of the owner file's root. Relative to the
 * owner's folder. Returns 0 when the pattern names no field. */
static int expand(const char *pattern, const document *owner, uint64_t n, char *out, size_t size)
{
    const char *slash = strrchr(owner->path, '/');
    size_t dir_len = slash ? (size_t)(slash - owner->path) + 1 : 0;
    const char *base = owner->path + dir_len;
    const char *ext = strrchr(base, '.');
    size_t stem_len = ext && ext != base ? (size_t)(ext - base) : strlen(base);
    size_t len = 0;
    if (pattern[0] != '/')
        len = (size_t)snprintf(out, size, "%.*s", (int)dir_len, owner->path);
    for (const char *p = pattern; *p && len < size; p++) {
        if (*p != '{') {
            out[len++] = *p;
            continue;
        }
        const char *close = strchr(p, '}');
        if (!close)
            return 0;
        size_t k = (size_t)(close - p - 1);
        if (k == 4 && memcmp(p + 1, "stem", 4) == 0) {
            len += (size_t)snprintf(out + len, size - len, "%.*s", (int)stem_len, base);
        } else if (k == 1 && p[1] == 'n') {
            len += (size_t)snprintf(out + len, size - len, "%" PRIu64, n);
        } else {
            char field[128], path[BF_PATH_MAX] = "";
            snprintf(field, sizeof field, "%.*s", (int)k, p + 1);
            spelling s = {.len = 0};
            if (!walk(owner->entry->root, owner->root, field, NULL, path, 0, spell_value, &s))
                return 0;
            len += (size_t)snprintf(out + len, size - len, "%s", s.text);
        }
        p = close;
    }
    if (len >= size)
        return 0;
    out[len] = '\0';
    return 1;
}

/* ---- one member ---- */

typedef struct over {
    int64_t limit, worst;
    size_t count;
    uint64_t offset;
    char path[BF_PATH_MAX];
} over;

static void note_over(const found *f, void *ctx)
{
    over *o = ctx;
    if (f->type || f->str || f->value < o->limit)
        return;
    if (!o->count++ || f->value > o->worst) {
        o->worst = f->value;
        o->offset = f->offset;
        snprintf(o->path, sizeof o->path, "%s", f->path);
    }
}

static const char *file_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Appends `text` to the zero-terminated `buf`, cutting what does not fit. */
static void append_cut(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf), n = strlen(text);
    if (n > size - 1 - used)
        n = size - 1 - used;
    memcpy(buf + used, text, n);
    buf[used + n] = '\0';
}

static void add(bf_findings *out, uint64_t offset, const char *member_file, const char *path, const char *message,
                const char *origin)
{
    /* "[member file] path", cut at BF_PATH_MAX like every finding's path */
    char where[BF_PATH_MAX] = "";
    if (member_file) {
        append_cut(where, sizeof where, "[");
        append_cut(where, sizeof where, file_base(member_file));
        append_cut(where, sizeof where, "] ");
    }
    append_cut(where, sizeof where, path);
    bf_findings_add(out, BF_SEVERITY_ERROR, offset, where, message, origin);
}

static void run_checks(const bf_member_desc *m, const ends *e, const char *member_file, const char *owner_path,
                       bf_findings *out)
{
    for (size_t c = 0; c < m->check_count; c++) {
        const bf_member_check_desc *k = &m->checks[c];
        summing s = {0};
        char msg[BF_MESSAGE_MAX];
        int ok = 1;
        for (size_t b = 0; b < k->below_count; b++)
            ok &= walk_from(e, k->below[b], add_value, &s);
        over o = {.limit = s.sum};
        ok &= walk_from(e, k->values, note_over, &o);
        if (!ok) {
            snprintf(msg, sizeof msg, "the schema's member check on '%s' names a field the file does not have", k->values);
            add(out, 0, NULL, owner_path, msg, k->origin);
            continue;
        }
        if (!o.count)
            continue;
        char limit[160] = "";
        for (size_t b = 0; b < k->below_count; b++)
            snprintf(limit + strlen(limit), sizeof limit - strlen(limit), "%s%s", b ? " + " : "", k->below[b]);
        /* say where the limit comes from: the owner's structure or the member file */
        char from[BF_PATH_MAX + 64];
        if (strncmp(k->below[0], "member.", 7) == 0 && member_file)
            snprintf(from, sizeof from, "in %s", file_base(member_file));
        else if (owner_path[0])
            snprintf(from, sizeof from, "of %s %s", e->owner_type->name, owner_path);
        else
            snprintf(from, sizeof from, "of the file");
        if (snprintf(msg, sizeof msg, "%" PRId64 " is not below %s = %" PRId64 " %s; %zu value%s out of range", o.worst,
                     limit, s.sum, from, o.count, o.count == 1 ? "" : "s") < 0)
            msg[0] = '\0';
        int in_member = strncmp(k->values, "member.", 7) == 0;
        add(out, o.offset, in_member ? member_file : NULL, o.path, msg, k->origin);
    }
}

typedef struct set_walk {
    const document *owner;
    const bf_member_desc *m;
    bf_findings *out;
    uint64_t n;
} set_walk;

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void check_member(const found *obj, void *ctx)
{
    set_walk *w = ctx;
    const bf_member_desc *m = w->m;
    uint64_t n = w->n++;
    char file[1024] = "", tried[BF_MESSAGE_MAX] = "", msg[BF_MESSAGE_MAX];
    int have = 0;
    for (size_t k = 0; m->files[k] && !have; k++) {
        char name[1024];
        if (!expand(m->files[k], w->owner, n, name, sizeof name))
            continue;
        if (exists(name)) {
            snprintf(file, sizeof file, "%s", name);
            have = 1;
        } else if (strlen(tried) + strlen(name) + 8 < sizeof tried) {
            if (snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s'%s'", tried[0] ? " or " : "", name) < 0)
                tried[0] = '\0';
        }
    }
    if (!have) {
        char number[32] = "";
        if (m->each)
            snprintf(number, sizeof number, " %" PRIu64, n);
        if (snprintf(msg, sizeof msg, "missing %s%s: no file %s", m->name, number, tried[0] ? tried : "(no name)") < 0)
            msg[0] = '\0';
        add(w->out, obj->offset, NULL, obj->path, msg, m->doc);
        return;
    }
    char format[128];
    if (strchr(m->kind, '.'))
        snprintf(format, sizeof format, "%s", m->kind);
    else
        snprintf(format, sizeof format, "%s.%s", w->owner->format->name, m->kind);
    document d;
    open_opts oo = {.format = format};
    int rc = document_load(&d, file, &oo);
    if (rc == EXIT_USAGE) {
        if (snprintf(msg, sizeof msg, "%s: %s", m->name, d.problem) < 0) /* cut when long */
            msg[0] = '\0';
        add(w->out, obj->offset, NULL, obj->path, msg, NULL);
    } else if (rc == EXIT_INVALID) {
        add(w->out, d.err.offset, file, d.err.path, d.err.message, NULL);
    } else if (rc == 0) {
        bf_findings mine = {0};
        d.entry->validate(d.root, d.data, d.size, &mine);
        for (size_t k = 0; k < mine.count; k++) {
            const bf_finding *f = &mine.items[k];
            char where[BF_PATH_MAX];
            if (snprintf(where, sizeof where, "[%s] %s", file_base(file), f->path) < 0)
                where[0] = '\0';
            bf_findings_add(w->out, f->severity, f->offset, where, f->message, f->origin);
        }
        bf_findings_free(&mine);
        ends e = {obj->type, d.entry->root, obj->obj, d.root};
        run_checks(m, &e, file, obj->path, w->out);
    }
    document_close(&d);
}

void file_set_check(const document *owner, bf_findings *out)
{
    /* a file read from a pipe, standard input or a device (/dev/stdin) has no folder to find
     * its members in */
    if (!owner->entry || !owner->root || owner->streamed || strcmp(owner->path, "-") == 0 ||
        strncmp(owner->path, "/dev/", 5) == 0 || strncmp(owner->path, "/proc/", 6) == 0)
        return;
    for (size_t i = 0; i < owner->entry->member_count; i++) {
        const bf_member_desc *m = &owner->entry->members[i];
        set_walk w = {owner, m, out, 0};
        if (!m->each) {
            check_member(&(found){.type = owner->entry->root, .obj = owner->root, .path = ""}, &w);
            continue;
        }
        char path[BF_PATH_MAX] = "";
        if (!walk(owner->entry->root, owner->root, m->each + strlen("owner."), m->each_type, path, 0, check_member, &w)) {
            char msg[BF_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "the schema's member '%s' walks '%s', a field the file does not have", m->name, m->each);
            add(out, 0, NULL, "", msg, NULL);
        }
    }
}
