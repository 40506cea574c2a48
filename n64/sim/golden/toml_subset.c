/* Recursive-descent reader for the TOML subset described in toml_subset.h. */
#include "toml_subset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p;
    int line;
    char *error;
    size_t error_size;
    bool failed;
} parser_t;

static bool fail(parser_t *ps, const char *fmt, ...)
{
    if (!ps->failed) {
        int n = snprintf(ps->error, ps->error_size, "line %d: ", ps->line);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < ps->error_size)
            vsnprintf(ps->error + n, ps->error_size - (size_t)n, fmt, ap);
        va_end(ap);
        ps->failed = true;
    }
    return false;
}

static void *grow(void *array, size_t count, size_t item_size)
{
    /* The capacity is the smallest power of two above count: grow when count
     * reaches a power of two (or is zero). */
    if (count & (count - 1))
        return array;
    return realloc(array, (count ? count * 2 : 1) * item_size);
}

static void skip_spaces(parser_t *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
        ps->p++;
}

/* Skips spaces, newlines and comments (inside arrays and between lines). */
static void skip_blank(parser_t *ps)
{
    for (;;) {
        skip_spaces(ps);
        if (*ps->p == '#') {
            while (*ps->p && *ps->p != '\n')
                ps->p++;
        } else if (*ps->p == '\n') {
            ps->line++;
            ps->p++;
        } else {
            return;
        }
    }
}

static bool is_bare_key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static char *parse_bare_key(parser_t *ps)
{
    const char *start = ps->p;
    while (is_bare_key_char(*ps->p))
        ps->p++;
    if (ps->p == start) {
        fail(ps, "expected a key");
        return NULL;
    }
    size_t length = (size_t)(ps->p - start);
    char *key = malloc(length + 1);
    if (!key) {
        fail(ps, "out of memory");
        return NULL;
    }
    memcpy(key, start, length);
    key[length] = '\0';
    return key;
}

static bool parse_escape(parser_t *ps, char *out)
{
    switch (*ps->p) {
    case 'n': *out = '\n'; break;
    case 't': *out = '\t'; break;
    case 'r': *out = '\r'; break;
    case '"': *out = '"'; break;
    case '\\': *out = '\\'; break;
    default: return fail(ps, "unsupported escape \\%c", *ps->p);
    }
    ps->p++;
    return true;
}

static bool parse_string(parser_t *ps, toml_value_t *value)
{
    bool multiline = strncmp(ps->p, "\"\"\"", 3) == 0;
    ps->p += multiline ? 3 : 1;
    if (multiline && *ps->p == '\n') { /* a newline right after the opening quotes is dropped */
        ps->line++;
        ps->p++;
    }
    size_t length = 0;
    char *text = malloc(strlen(ps->p) + 1);
    if (!text)
        return fail(ps, "out of memory");
    for (;;) {
        char c = *ps->p;
        if (c == '\0') {
            free(text);
            return fail(ps, "unterminated string");
        }
        if (multiline ? strncmp(ps->p, "\"\"\"", 3) == 0 : c == '"')
            break;
        if (c == '\n') {
            if (!multiline) {
                free(text);
                return fail(ps, "newline in string");
            }
            ps->line++;
        }
        ps->p++;
        if (c == '\\' && !parse_escape(ps, &c)) {
            free(text);
            return false;
        }
        text[length++] = c;
    }
    ps->p += multiline ? 3 : 1;
    text[length] = '\0';
    value->kind = TOML_STRING;
    value->string = text;
    return true;
}

static bool parse_integer(parser_t *ps, toml_value_t *value)
{
    bool negative = false;
    if (*ps->p == '+' || *ps->p == '-')
        negative = *ps->p++ == '-';
    unsigned base = 10;
    if (ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X')) {
        base = 16;
        ps->p += 2;
    }
    uint64_t magnitude = 0;
    int digits = 0;
    for (;; ps->p++) {
        char c = *ps->p;
        unsigned digit;
        if (c == '_' && digits > 0)
            continue;
        if (c >= '0' && c <= '9')
            digit = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            digit = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            digit = (unsigned)(c - 'A' + 10);
        else
            break;
        if (digit >= base)
            break;
        if (magnitude > (UINT64_C(1) << 62))
            return fail(ps, "integer too large");
        magnitude = magnitude * base + digit;
        digits++;
    }
    if (digits == 0)
        return fail(ps, "expected a value");
    value->kind = TOML_INTEGER;
    value->integer = negative ? -(int64_t)magnitude : (int64_t)magnitude;
    return true;
}

static void free_value(toml_value_t *value);
static bool parse_value(parser_t *ps, toml_value_t *value);

static bool parse_array(parser_t *ps, toml_value_t *value)
{
    value->kind = TOML_ARRAY;
    value->items = NULL;
    value->count = 0;
    ps->p++; /* '[' */
    for (;;) {
        skip_blank(ps);
        if (*ps->p == ']') {
            ps->p++;
            return true;
        }
        toml_value_t *items = grow(value->items, value->count, sizeof(*items));
        if (!items)
            return fail(ps, "out of memory");
        value->items = items;
        if (!parse_value(ps, &value->items[value->count])) {
            value->count++; /* so that the partial item is freed */
            return false;
        }
        value->count++;
        skip_blank(ps);
        if (*ps->p == ',')
            ps->p++;
        else if (*ps->p != ']')
            return fail(ps, "expected ',' or ']' in array");
    }
}

static bool parse_value(parser_t *ps, toml_value_t *value)
{
    memset(value, 0, sizeof(*value));
    if (*ps->p == '"')
        return parse_string(ps, value);
    if (*ps->p == '[')
        return parse_array(ps, value);
    return parse_integer(ps, value);
}

static void free_value(toml_value_t *value)
{
    free(value->string);
    for (size_t i = 0; i < value->count; i++)
        free_value(&value->items[i]);
    free(value->items);
}

static void free_table(toml_table_t *table)
{
    for (size_t i = 0; i < table->count; i++) {
        free(table->entries[i].key);
        free_value(&table->entries[i].value);
    }
    free(table->entries);
}

static bool end_of_line(parser_t *ps)
{
    skip_spaces(ps);
    if (*ps->p == '#')
        while (*ps->p && *ps->p != '\n')
            ps->p++;
    if (*ps->p == '\n' || *ps->p == '\0')
        return true;
    return fail(ps, "unexpected text after value");
}

static bool parse_key_value(parser_t *ps, toml_table_t *table)
{
    char *key = parse_bare_key(ps);
    if (!key)
        return false;
    if (toml_get(table, key)) {
        fail(ps, "duplicate key '%s'", key);
        free(key);
        return false;
    }
    skip_spaces(ps);
    if (*ps->p != '=') {
        free(key);
        return fail(ps, "expected '='");
    }
    ps->p++;
    skip_spaces(ps);
    toml_entry_t *entries = grow(table->entries, table->count, sizeof(*entries));
    if (!entries) {
        free(key);
        return fail(ps, "out of memory");
    }
    table->entries = entries;
    toml_entry_t *entry = &table->entries[table->count];
    entry->key = key;
    bool ok = parse_value(ps, &entry->value);
    table->count++; /* counted even on failure so that toml_free releases it */
    return ok && end_of_line(ps);
}

static toml_table_t *open_table_array(parser_t *ps, toml_document_t *doc)
{
    ps->p += 2; /* "[[" */
    skip_spaces(ps);
    char *name = parse_bare_key(ps);
    if (!name)
        return NULL;
    skip_spaces(ps);
    if (strncmp(ps->p, "]]", 2) != 0) {
        free(name);
        fail(ps, "expected ']]'");
        return NULL;
    }
    ps->p += 2;
    toml_table_array_t *array = NULL;
    for (size_t i = 0; i < doc->array_count; i++)
        if (strcmp(doc->arrays[i].name, name) == 0)
            array = &doc->arrays[i];
    if (array) {
        free(name);
    } else {
        toml_table_array_t *arrays = grow(doc->arrays, doc->array_count, sizeof(*arrays));
        if (!arrays) {
            free(name);
            fail(ps, "out of memory");
            return NULL;
        }
        doc->arrays = arrays;
        array = &doc->arrays[doc->array_count++];
        array->name = name;
        array->tables = NULL;
        array->count = 0;
    }
    toml_table_t *tables = grow(array->tables, array->count, sizeof(*tables));
    if (!tables) {
        fail(ps, "out of memory");
        return NULL;
    }
    array->tables = tables;
    toml_table_t *table = &array->tables[array->count++];
    table->entries = NULL;
    table->count = 0;
    return end_of_line(ps) ? table : NULL;
}

bool toml_parse(const char *text, toml_document_t *doc, char *error, size_t error_size)
{
    parser_t ps = {.p = text, .line = 1, .error = error, .error_size = error_size};
    memset(doc, 0, sizeof(*doc));
    toml_table_t *current = &doc->root;
    for (;;) {
        skip_blank(&ps);
        if (*ps.p == '\0')
            return true;
        if (strncmp(ps.p, "[[", 2) == 0)
            current = open_table_array(&ps, doc);
        else if (*ps.p == '[')
            fail(&ps, "plain [tables] are not supported");
        else
            parse_key_value(&ps, current);
        if (ps.failed) {
            toml_free(doc);
            return false;
        }
    }
}

void toml_free(toml_document_t *doc)
{
    free_table(&doc->root);
    for (size_t i = 0; i < doc->array_count; i++) {
        for (size_t t = 0; t < doc->arrays[i].count; t++)
            free_table(&doc->arrays[i].tables[t]);
        free(doc->arrays[i].tables);
        free(doc->arrays[i].name);
    }
    free(doc->arrays);
    memset(doc, 0, sizeof(*doc));
}

const toml_value_t *toml_get(const toml_table_t *table, const char *key)
{
    for (size_t i = 0; i < table->count; i++)
        if (strcmp(table->entries[i].key, key) == 0)
            return &table->entries[i].value;
    return NULL;
}

const toml_table_array_t *toml_get_table_array(const toml_document_t *doc, const char *name)
{
    for (size_t i = 0; i < doc->array_count; i++)
        if (strcmp(doc->arrays[i].name, name) == 0)
            return &doc->arrays[i];
    return NULL;
}
