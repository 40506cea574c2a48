/* File sets, driven by the schema's `members` tables (bf_member_desc): which files belong
 * with a file, where they are, which numbers of one must stay below numbers of the other, and
 * which names of one must be among the names of the others.
 * Nothing here knows a format: paths are walked through the reflection tables (bf_path.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* struct dirent's d_type */
#include "file_set.h"

#include "bf_path.h"

#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- sums and names ---- */

typedef struct summing {
    int64_t sum;
} summing;

static void add_value(const bf_found *f, void *ctx)
{
    if (!f->type && !f->str)
        ((summing *)ctx)->sum += f->value;
}

typedef struct spelling {
    char text[256];
    size_t len;
    int stop; /* a char string ended, or a number was written */
} spelling;

/* A character of a name taken from a file: one that cannot leave the folder or the line, nor
 * widen a '*' pattern. */
static char name_char(int c)
{
    return c > ' ' && c < 0x7F && c != '/' && c != '\\' && c != '*' ? (char)c : '_';
}

/* A placeholder's value: a string field or the characters of a char field up to the first
 * zero, or a number. */
static void spell_value(const bf_found *f, void *ctx)
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

/* Where a path starts: `owner.` is the owning object, `member.` the root of a member file
 * (one member can be several files: a '*' pattern). */
typedef struct ends {
    const bf_type_desc *owner_type;
    const void *owner;
    const document *const *members; /* the member's files that read */
    size_t member_count;
} ends;

enum { ALL_MEMBERS = -1 };

/* Walks `p` from the owner, or from member file `k` (every one for ALL_MEMBERS). Returns 0
 * when a name is not a field. */
static int walk_from(const ends *e, const char *p, int k, bf_found_fn fn, void *ctx)
{
    if (strncmp(p, "owner.", 6) == 0)
        return bf_path_walk(e->owner_type, e->owner, p + 6, NULL, fn, ctx);
    if (strncmp(p, "member.", 7) != 0 || !e->member_count)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < e->member_count; i++)
        if (k == ALL_MEMBERS || (size_t)k == i)
            ok &= bf_path_walk(e->members[i]->entry->root, e->members[i]->root, p + 7, NULL, fn, ctx);
    return ok;
}

/* Stands for {n} in a pattern expanded to find the files no `each` object claims. */
#define N_MARK '\x01'
#define ANY_N UINT64_MAX

/* Expands a name pattern: {stem} is the owner's file name without its last extension, {n}
 * counts the owner objects (N_MARK for ANY_N), {a.b} is a field of the owner file's root.
 * Relative to the owner's folder. Returns 0 when the pattern names no field. */
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
            if (n == ANY_N)
                len += (size_t)snprintf(out + len, size - len, "%c", N_MARK);
            else
                len += (size_t)snprintf(out + len, size - len, "%" PRIu64, n);
        } else {
            char field[128];
            snprintf(field, sizeof field, "%.*s", (int)k, p + 1);
            spelling s = {.len = 0};
            if (!bf_path_walk(owner->entry->root, owner->root, field, NULL, spell_value, &s))
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

/* ---- lists of file names ---- */

typedef struct name_list {
    char **items;
    size_t count, cap;
} name_list;

static void names_push(name_list *l, const char *name)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return;
        l->items = items;
        l->cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        l->items[l->count++] = copy;
}

static void names_free(name_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    *l = (name_list){0};
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* `name` matches `pattern`, where '*' is any run of characters and N_MARK a run of digits. */
static int name_matches(const char *pattern, const char *name)
{
    if (!*pattern)
        return !*name;
    if (*pattern == '*') {
        for (const char *p = name;; p++) {
            if (name_matches(pattern + 1, p))
                return 1;
            if (!*p)
                return 0;
        }
    }
    if (*pattern == N_MARK) {
        const char *p = name;
        while (*p >= '0' && *p <= '9')
            if (name_matches(pattern + 1, ++p))
                return 1;
        return 0;
    }
    return *pattern == *name && name_matches(pattern + 1, name + 1);
}

/* The regular files of the folder of `path` whose names match its last part (see
 * name_matches), sorted; the folder's part is taken as written. Hidden files only when the
 * pattern starts with a dot. */
static void list_matches(const char *path, name_list *out)
{
    const char *slash = strrchr(path, '/');
    const char *pattern = slash ? slash + 1 : path;
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 2, slash ? path : "./");
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t first = out->count;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        char full[2048];
        if ((ent->d_name[0] == '.' && pattern[0] != '.') || !name_matches(pattern, ent->d_name))
            continue;
        /* the folder says what a name is (no stat) unless it is a link or does not know */
        if (snprintf(full, sizeof full, "%s%s", slash ? dir : "", ent->d_name) < (int)sizeof full &&
            (ent->d_type == DT_REG || ((ent->d_type == DT_UNKNOWN || ent->d_type == DT_LNK) && is_file(full))))
            names_push(out, full);
    }
    closedir(d);
    if (out->count > first)
        qsort(out->items + first, out->count - first, sizeof *out->items, compare_names);
}

/* ---- findings ---- */

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

/* A finding at `prefix.path` (either may be empty), in `member_file` when given. */
static void add_at(bf_findings *out, bf_severity severity, uint64_t offset, const char *member_file, const char *prefix,
                   const char *path, const char *message, const char *origin)
{
    /* "[member file] path", cut at BF_PATH_MAX like every finding's path */
    char where[BF_PATH_MAX] = "";
    if (member_file) {
        append_cut(where, sizeof where, "[");
        append_cut(where, sizeof where, file_base(member_file));
        append_cut(where, sizeof where, "] ");
    }
    if (prefix && prefix[0]) {
        append_cut(where, sizeof where, prefix);
        if (path[0])
            append_cut(where, sizeof where, ".");
    }
    append_cut(where, sizeof where, path);
    bf_findings_add(out, severity, offset, where, message, origin);
}

static void add(bf_findings *out, uint64_t offset, const char *member_file, const char *path, const char *message,
                const char *origin)
{
    add_at(out, BF_SEVERITY_ERROR, offset, member_file, NULL, path, message, origin);
}

/* "in a.tml, b.tml" or "of Animation chunk_data[2].body" or "of the file": where the numbers
 * or names a check compares with come from. */
static void limit_source(const char *limit_path, const ends *e, const char *owner_path, char *out, size_t size)
{
    out[0] = '\0';
    if (strncmp(limit_path, "member.", 7) == 0 && e->member_count) {
        append_cut(out, size, "in ");
        for (size_t i = 0; i < e->member_count; i++) {
            if (i)
                append_cut(out, size, ", ");
            append_cut(out, size, file_base(e->members[i]->path));
        }
    } else if (owner_path[0]) {
        snprintf(out, size, "of %s %s", e->owner_type->name, owner_path);
    } else {
        snprintf(out, size, "of the file");
    }
}

/* ---- `below` and `equals` checks: numbers (or how many things) under or equal to a sum ---- */

typedef struct over {
    int64_t limit, worst;
    int equal; /* `equals`: a value other than the limit is out of range; else one not below it */
    size_t count;
    uint64_t offset;
    char path[BF_PATH_MAX];
} over;

static void note_over(const bf_found *f, void *ctx)
{
    over *o = ctx;
    if (f->type || f->str || (o->equal ? f->value == o->limit : f->value < o->limit))
        return;
    if (!o->count++ || f->value > o->worst) {
        o->worst = f->value;
        o->offset = f->offset;
        snprintf(o->path, sizeof o->path, "%s", f->path);
    }
}

/* `count:`: how many things a path finds, and where the first is. */
typedef struct counting {
    int64_t count;
    uint64_t offset;
} counting;

static void count_found(const bf_found *f, void *ctx)
{
    counting *n = ctx;
    if (!n->count++)
        n->offset = f->offset;
}

/* The schema's `severity` of a failed check (a wrong path is always an error: the schema's). */
static bf_severity check_severity(const bf_member_check_desc *k)
{
    return k->warning ? BF_SEVERITY_WARNING : BF_SEVERITY_ERROR;
}

static void wrong_path(const bf_member_check_desc *k, const char *owner_path, bf_findings *out)
{
    char msg[BF_MESSAGE_MAX];
    snprintf(msg, sizeof msg, "the schema's member check on '%s' names a field the file does not have", k->values);
    add(out, 0, NULL, owner_path, msg, k->origin);
}

/* The path `values` names below its `owner.` or `member.`: where a count is reported. */
static const char *path_inside(const char *p)
{
    return strncmp(p, "owner.", 6) == 0 ? p + 6 : strncmp(p, "member.", 7) == 0 ? p + 7 : p;
}

static void check_below(const bf_member_check_desc *k, const ends *e, const char *owner_path, bf_findings *out)
{
    int equal = k->equals_count > 0;
    const char *const *limits = equal ? k->equals : k->below;
    size_t limit_count = equal ? k->equals_count : k->below_count;
    summing s = {0};
    int ok = 1;
    for (size_t b = 0; b < limit_count; b++)
        ok &= walk_from(e, limits[b], ALL_MEMBERS, add_value, &s);
    char limit[160] = "", from[BF_PATH_MAX + 64];
    for (size_t b = 0; b < limit_count; b++)
        snprintf(limit + strlen(limit), sizeof limit - strlen(limit), "%s%s", b ? " + " : "", limits[b]);
    limit_source(limits[0], e, owner_path, from, sizeof from);
    int in_member = strncmp(k->values, "member.", 7) == 0;
    /* values in the member: one finding per member file */
    size_t rounds = in_member ? e->member_count : 1;
    for (size_t i = 0; i < rounds && ok; i++) {
        char msg[BF_MESSAGE_MAX];
        int n;
        over o = {.limit = s.sum, .equal = equal};
        if (k->counts) {
            counting c = {0};
            ok &= walk_from(e, k->values, (int)i, count_found, &c);
            note_over(&(bf_found){.value = c.count, .offset = c.offset, .path = path_inside(k->values)}, &o);
            if (!ok || !o.count)
                continue;
            n = snprintf(msg, sizeof msg, "%" PRId64 " of %s, %s%s = %" PRId64 " %s", c.count, k->values,
                         equal ? "but " : "not below ", limit, s.sum, from);
        } else {
            ok &= walk_from(e, k->values, (int)i, note_over, &o);
            if (!ok || !o.count)
                continue;
            n = snprintf(msg, sizeof msg, "%" PRId64 " is not %s %s = %" PRId64 " %s; %zu value%s out of range",
                         o.worst, equal ? "equal to" : "below", limit, s.sum, from, o.count, o.count == 1 ? "" : "s");
        }
        if (n < 0)
            msg[0] = '\0';
        add_at(out, check_severity(k), o.offset, in_member ? e->members[i]->path : NULL, in_member ? NULL : owner_path,
               o.path, msg, k->origin);
    }
    if (!ok)
        wrong_path(k, owner_path, out);
}

/* ---- `among` checks: names (or numbers) one of a list ---- */

/* A name or number an `among` check compares with; strings point into the documents. */
typedef struct listed {
    int is_str;
    bf_str str;
    int64_t value;
} listed;

typedef struct gathering {
    listed *items;
    size_t count, cap;
    int failed;
} gathering;

static void gather(const bf_found *f, void *ctx)
{
    gathering *g = ctx;
    if (f->type || g->failed)
        return;
    if (g->count == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        listed *items = realloc(g->items, cap * sizeof *items);
        if (!items) {
            g->failed = 1;
            return;
        }
        g->items = items;
        g->cap = cap;
    }
    g->items[g->count++] = f->str ? (listed){.is_str = 1, .str = *f->str} : (listed){.value = f->value};
}

static int same_text(const bf_str *a, const bf_str *b, int ignore_case)
{
    if (a->len != b->len)
        return 0;
    for (uint32_t i = 0; i < a->len; i++) {
        int x = (unsigned char)a->ptr[i], y = (unsigned char)b->ptr[i];
        if (ignore_case) {
            x = x >= 'A' && x <= 'Z' ? x + 32 : x;
            y = y >= 'A' && y <= 'Z' ? y + 32 : y;
        }
        if (x != y)
            return 0;
    }
    return 1;
}

typedef struct looking {
    const gathering *pool;
    const bf_member_check_desc *k;
    const char *member_file, *owner_path, *from;
    bf_findings *out;
} looking;

/* A name for a message: printable ASCII, the rest as '?'. */
static void show_text(const bf_str *s, char *out, size_t size)
{
    size_t n = 0;
    for (uint32_t i = 0; i < s->len && n + 1 < size; i++) {
        int c = (unsigned char)s->ptr[i];
        out[n++] = c >= ' ' && c < 0x7F ? (char)c : '?';
    }
    out[n] = '\0';
}

static void look_up(const bf_found *f, void *ctx)
{
    looking *l = ctx;
    if (f->type)
        return;
    const gathering *g = l->pool;
    for (size_t i = 0; i < g->count; i++) {
        const listed *x = &g->items[i];
        if (f->str ? x->is_str && same_text(f->str, &x->str, l->k->ignore_case) : !x->is_str && x->value == f->value)
            return;
    }
    char what[96], msg[BF_MESSAGE_MAX];
    if (f->str) {
        char text[80];
        show_text(f->str, text, sizeof text);
        snprintf(what, sizeof what, "'%s'", text);
    } else {
        snprintf(what, sizeof what, "%" PRId64, f->value);
    }
    char among[160] = "";
    for (size_t b = 0; b < l->k->among_count; b++)
        snprintf(among + strlen(among), sizeof among - strlen(among), "%s%s", b ? " or " : "", l->k->among[b]);
    if (snprintf(msg, sizeof msg, "%s is not among the %zu of %s %s%s", what, g->count, among, l->from,
                 l->k->ignore_case ? " (ignoring case)" : "") < 0)
        msg[0] = '\0';
    add_at(l->out, check_severity(l->k), f->offset, l->member_file, l->member_file ? NULL : l->owner_path, f->path, msg,
           l->k->origin);
}

static void check_among(const bf_member_check_desc *k, const ends *e, const char *owner_path, bf_findings *out)
{
    gathering g = {0};
    int ok = 1;
    for (size_t b = 0; b < k->among_count; b++)
        ok &= walk_from(e, k->among[b], ALL_MEMBERS, gather, &g);
    char from[BF_PATH_MAX + 64];
    limit_source(k->among[0], e, owner_path, from, sizeof from);
    int in_member = strncmp(k->values, "member.", 7) == 0;
    size_t rounds = in_member ? e->member_count : 1;
    for (size_t i = 0; i < rounds && ok && !g.failed; i++) {
        looking l = {&g, k, in_member ? e->members[i]->path : NULL, owner_path, from, out};
        ok &= walk_from(e, k->values, (int)i, look_up, &l);
    }
    if (!ok)
        wrong_path(k, owner_path, out);
    free(g.items);
}

/* ---- libraries kept for the run ---- */

/* A library read once: many files of a folder find the same '*' members. */
typedef struct kept {
    struct kept *next;
    char *key;  /* "FORMAT.KIND:" and the file's resolved path */
    char *path; /* the name it was first found by: the document's path */
    document doc;
} kept;

struct file_set_cache {
    pthread_mutex_t lock;
    kept **buckets;
    size_t bucket_count, count;
};

static size_t hash_text(const char *s)
{
    size_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

file_set_cache *file_set_cache_new(void)
{
    file_set_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->bucket_count = 64;
    c->buckets = calloc(c->bucket_count, sizeof *c->buckets);
    if (!c->buckets) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void file_set_cache_free(file_set_cache *c)
{
    if (!c)
        return;
    for (size_t b = 0; b < c->bucket_count; b++) {
        for (kept *k = c->buckets[b], *next; k; k = next) {
            next = k->next;
            document_close(&k->doc);
            free(k->key);
            free(k->path);
            free(k);
        }
    }
    free(c->buckets);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* Twice the buckets when there are twice as many files as buckets; stays as it is when
 * memory is short (the chains only get longer). */
static void cache_grow(file_set_cache *c)
{
    if (c->count <= 2 * c->bucket_count)
        return;
    size_t count = 2 * c->bucket_count;
    kept **buckets = calloc(count, sizeof *buckets);
    if (!buckets)
        return;
    for (size_t b = 0; b < c->bucket_count; b++) {
        for (kept *k = c->buckets[b], *next; k; k = next) {
            next = k->next;
            size_t h = hash_text(k->key) % count;
            k->next = buckets[h];
            buckets[h] = k;
        }
    }
    free(c->buckets);
    c->buckets = buckets;
    c->bucket_count = count;
}

/* The library `file` read as `format`: kept from an earlier file of the run, or read now and
 * kept. `real_dir` is its folder resolved (NULL: resolve the file here), so that every
 * spelling of the folder finds it. NULL when it does not read (nothing is kept: the caller
 * reads it again to say why) or cannot be kept. The document is shared between threads:
 * only read from it. */
static const document *cache_get(file_set_cache *c, const char *format, const char *file, const char *real_dir)
{
    char *real = real_dir ? NULL : realpath(file, NULL);
    if (!real_dir && !real)
        return NULL;
    const char *name = real_dir ? file_base(file) : "";
    size_t n = strlen(format) + 1 + strlen(real_dir ? real_dir : real) + 1 + strlen(name) + 1;
    char *key = malloc(n);
    if (key)
        snprintf(key, n, "%s:%s%s%s", format, real_dir ? real_dir : real, real_dir ? "/" : "", name);
    free(real);
    if (!key)
        return NULL;
    size_t h = hash_text(key);
    const document *d = NULL;
    /* one lock for look-up and reading: a library is read once however many threads want it */
    pthread_mutex_lock(&c->lock);
    for (kept *k = c->buckets[h % c->bucket_count]; k && !d; k = k->next)
        if (strcmp(k->key, key) == 0)
            d = &k->doc;
    kept *k = d ? NULL : calloc(1, sizeof *k);
    if (k && (k->path = strdup(file)) != NULL &&
        document_load(&k->doc, k->path, &(open_opts){.format = format, .regular_only = 1}) == 0) {
        k->key = key;
        key = NULL;
        k->next = c->buckets[h % c->bucket_count];
        c->buckets[h % c->bucket_count] = k;
        c->count++;
        cache_grow(c);
        d = &k->doc;
    } else if (k) {
        if (k->path)
            document_close(&k->doc);
        free(k->path);
        free(k);
    }
    pthread_mutex_unlock(&c->lock);
    free(key);
    return d;
}

/* ---- one member ---- */

typedef struct set_walk {
    const document *owner;
    file_set_cache *cache;
    const bf_member_desc *m;
    bf_findings *out;
    uint64_t n;
    name_list claimed; /* the files found for `each` objects, for orphans */
} set_walk;

/* The files of member `m` for the n-th owner object: the first pattern that names an existing
 * file, or (with '*') at least one. Lists the names tried in `tried` when none does. Returns 1
 * when a '*' pattern found them. */
static int find_files(const set_walk *w, uint64_t n, name_list *files, char *tried, size_t tried_size)
{
    int globbed = 0;
    for (size_t k = 0; w->m->files[k] && !files->count; k++) {
        char name[1024];
        if (!expand(w->m->files[k], w->owner, n, name, sizeof name))
            continue;
        globbed = strchr(file_base(name), '*') != NULL;
        if (globbed)
            list_matches(name, files);
        else if (is_file(name))
            names_push(files, name);
        if (!files->count && strlen(tried) + strlen(name) + 8 < tried_size)
            if (snprintf(tried + strlen(tried), tried_size - strlen(tried), "%s'%s'", tried[0] ? " or " : "", name) < 0)
                tried[0] = '\0';
    }
    return globbed && files->count;
}

/* Reads one file of a member as its kind into `d` and adds its own findings (`own`), or only
 * that it does not read. Returns the document read (`d`, or one the cache kept), or NULL. */
static const document *read_member(const set_walk *w, const bf_found *obj, const char *file, int own, const char *real_dir,
                                   document *d)
{
    const bf_member_desc *m = w->m;
    char format[128], msg[BF_MESSAGE_MAX];
    if (strchr(m->kind, '.'))
        snprintf(format, sizeof format, "%s", m->kind);
    else
        snprintf(format, sizeof format, "%s.%s", w->owner->format->name, m->kind);
    /* a shared library (no findings of its own to add) is read once per run */
    const document *kept_doc = !own && w->cache ? cache_get(w->cache, format, file, real_dir) : NULL;
    if (kept_doc)
        return kept_doc;
    open_opts oo = {.format = format, .regular_only = 1};
    int rc = document_load(d, file, &oo);
    if (rc == EXIT_USAGE) {
        if (snprintf(msg, sizeof msg, "%s: %s", m->name, d->problem) < 0) /* cut when long */
            msg[0] = '\0';
        add(w->out, obj->offset, NULL, obj->path, msg, NULL);
    } else if (rc == EXIT_INVALID) {
        add(w->out, d->err.offset, file, d->err.path, d->err.message, NULL);
    } else if (rc == 0 && !own) {
        return d;
    } else if (rc == 0) {
        bf_findings mine = {0};
        d->entry->validate(d->root, d->data, d->size, &mine);
        for (size_t k = 0; k < mine.count; k++) {
            const bf_finding *f = &mine.items[k];
            add_at(w->out, f->severity, f->offset, file, NULL, f->path, f->message, f->origin);
        }
        bf_findings_free(&mine);
        return d;
    }
    document_close(d);
    return NULL;
}

static void check_member(const bf_found *obj, void *ctx)
{
    set_walk *w = ctx;
    const bf_member_desc *m = w->m;
    uint64_t n = w->n++;
    char tried[BF_MESSAGE_MAX] = "", msg[BF_MESSAGE_MAX];
    name_list files = {0};
    /* files found by a '*' pattern are libraries shared by many files: their own findings are
     * theirs (checked on their own), not repeated for every file that uses them */
    int shared = find_files(w, n, &files, tried, sizeof tried);
    if (!files.count) {
        char number[32] = "";
        if (m->each)
            snprintf(number, sizeof number, " %" PRIu64, n);
        if (snprintf(msg, sizeof msg, "missing %s%s: no file %s", m->name, number, tried[0] ? tried : "(no name)") < 0)
            msg[0] = '\0';
        add(w->out, obj->offset, NULL, obj->path, msg, m->doc);
        names_free(&files);
        return;
    }
    /* owned: the documents read here, closed here; docs: every one that read, owned or kept */
    document *owned = calloc(files.count, sizeof *owned);
    const document **docs = calloc(files.count, sizeof *docs);
    unsigned char *close_it = calloc(files.count, 1);
    /* a '*' member's files share one folder: resolved once, not once per file */
    char *real_dir = NULL;
    if (shared && w->cache) {
        char dir[1024];
        const char *base = file_base(files.items[0]);
        snprintf(dir, sizeof dir, "%.*s", base > files.items[0] ? (int)(base - files.items[0]) : 1,
                 base > files.items[0] ? files.items[0] : ".");
        real_dir = realpath(dir, NULL);
    }
    size_t read = 0;
    for (size_t i = 0; owned && docs && close_it && i < files.count; i++) {
        names_push(&w->claimed, files.items[i]);
        const document *d = read_member(w, obj, files.items[i], !shared, real_dir, &owned[i]);
        close_it[i] = d == &owned[i];
        if (d)
            docs[read++] = d;
    }
    if (read) {
        ends e = {obj->type, obj->obj, docs, read};
        for (size_t c = 0; c < m->check_count; c++) {
            if (m->checks[c].among_count)
                check_among(&m->checks[c], &e, obj->path, w->out);
            else
                check_below(&m->checks[c], &e, obj->path, w->out);
        }
    }
    for (size_t i = 0; close_it && i < files.count; i++)
        if (close_it[i])
            document_close(&owned[i]);
    free(real_dir);
    free(close_it);
    free(owned);
    free(docs);
    names_free(&files);
}

/* Files a numbered pattern matches that no `each` object claimed (a stream beyond the
 * model's animations): findings of the schema's `orphans` severity. */
static void find_orphans(set_walk *w)
{
    const bf_member_desc *m = w->m;
    bf_severity severity = strcmp(m->orphans, "error") == 0 ? BF_SEVERITY_ERROR : BF_SEVERITY_WARNING;
    for (size_t k = 0; m->files[k]; k++) {
        char pattern[1024];
        if (!strstr(m->files[k], "{n}") || strchr(m->files[k], '*') ||
            !expand(m->files[k], w->owner, ANY_N, pattern, sizeof pattern) || !strchr(file_base(pattern), N_MARK))
            continue;
        name_list found_files = {0};
        list_matches(pattern, &found_files);
        for (size_t i = 0; i < found_files.count; i++) {
            const char *file = found_files.items[i];
            int claimed = 0;
            for (size_t c = 0; c < w->claimed.count && !claimed; c++)
                claimed = strcmp(w->claimed.items[c], file) == 0;
            if (claimed)
                continue;
            char msg[BF_MESSAGE_MAX], range[64] = "";
            if (w->n)
                snprintf(range, sizeof range, ": n from 0 to %" PRIu64, w->n - 1);
            if (snprintf(msg, sizeof msg, "orphan %s file '%s': it matches '%s' but no %s claims it (there are %" PRIu64 "%s)",
                         m->name, file, m->files[k], m->each_type ? m->each_type : m->each, w->n, range) < 0)
                msg[0] = '\0';
            add_at(w->out, severity, 0, NULL, NULL, "", msg, m->doc);
        }
        names_free(&found_files);
    }
}

void file_set_check(const document *owner, file_set_cache *cache, bf_findings *out)
{
    /* a file read from a pipe, standard input or a device (/dev/stdin) has no folder to find
     * its members in */
    if (!owner->entry || !owner->root || owner->streamed || strcmp(owner->path, "-") == 0 ||
        strncmp(owner->path, "/dev/", 5) == 0 || strncmp(owner->path, "/proc/", 6) == 0)
        return;
    for (size_t i = 0; i < owner->entry->member_count; i++) {
        const bf_member_desc *m = &owner->entry->members[i];
        set_walk w = {owner, cache, m, out, 0, {0}};
        if (!m->each) {
            check_member(&(bf_found){.type = owner->entry->root, .obj = owner->root, .path = ""}, &w);
        } else {
            if (!bf_path_walk(owner->entry->root, owner->root, m->each + strlen("owner."), m->each_type, check_member,
                              &w)) {
                char msg[BF_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "the schema's member '%s' walks '%s', a field the file does not have", m->name, m->each);
                add(out, 0, NULL, "", msg, NULL);
            } else if (m->orphans) {
                find_orphans(&w);
            }
        }
        names_free(&w.claimed);
    }
}
