#include "json.h"

#include <math.h>
#include <string.h>

void json_init(json *j, FILE *out, int pretty)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->pretty = pretty;
    j->first[0] = 1;
}

static void newline(json *j)
{
    if (!j->pretty || (j->inline_from && j->depth >= j->inline_from))
        return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

/* Before a value or key: the comma and indentation it needs. */
static void separate(json *j)
{
    if (!j->first[j->depth])
        fputc(',', j->out);
    if (j->depth)
        newline(j);
    j->first[j->depth] = 0;
}

static void value_start(json *j)
{
    if (j->after_key)
        j->after_key = 0;
    else
        separate(j);
}

static void open(json *j, char c)
{
    value_start(j);
    fputc(c, j->out);
    if (j->depth < 63)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close(json *j, char c)
{
    int empty = j->first[j->depth];
    int was_inline = j->inline_from && j->depth >= j->inline_from;
    if (j->inline_from == j->depth)
        j->inline_from = 0;
    j->depth--;
    if (!empty && !was_inline)
        newline(j);
    fputc(c, j->out);
    if (j->depth == 0 && j->pretty)
        fputc('\n', j->out);
}

void json_begin_object(json *j) { open(j, '{'); }
void json_end_object(json *j) { close(j, '}'); }
void json_begin_array(json *j) { open(j, '['); }
void json_end_array(json *j) { close(j, ']'); }

void json_begin_inline_array(json *j)
{
    open(j, '[');
    if (!j->inline_from)
        j->inline_from = j->depth;
}

static void write_escaped(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c); /* bytes from files are not UTF-8: keep them exact */
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void json_key(json *j, const char *key)
{
    separate(j);
    write_escaped(j->out, key, strlen(key));
    fputs(j->pretty ? ": " : ":", j->out);
    j->after_key = 1;
}

void json_string(json *j, const char *s, size_t len)
{
    value_start(j);
    write_escaped(j->out, s, len);
}

void json_cstring(json *j, const char *s) { json_string(j, s, strlen(s)); }

void json_int(json *j, int64_t v)
{
    value_start(j);
    fprintf(j->out, "%lld", (long long)v);
}

void json_uint(json *j, uint64_t v)
{
    value_start(j);
    fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_double(json *j, double v)
{
    value_start(j);
    if (isnan(v) || isinf(v))
        fprintf(j->out, "\"%s\"", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"); /* not JSON numbers */
    else
        fprintf(j->out, "%.9g", v);
}

void json_raw(json *j, const char *text)
{
    value_start(j);
    fputs(text, j->out);
}

void json_null(json *j)
{
    value_start(j);
    fputs("null", j->out);
}

void json_bool(json *j, int v)
{
    value_start(j);
    fputs(v ? "true" : "false", j->out);
}
