/* binform check: read and validate; one line (or JSON) per finding.
 * Exit 0 when every file is valid, 1 when any has an error, 2 on usage or I/O errors.
 * With --jobs N, N threads read and validate while the main thread prints the results in
 * the order of the files, so the output is the same whatever N is. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bf_validate.h"
#include "commands.h"
#include "document.h"
#include "file_set.h"
#include "inputs.h"
#include "json.h"

/* What checking one file found; made by a worker, printed and freed by the main thread. */
typedef struct checked {
    int status; /* 0, EXIT_INVALID, EXIT_USAGE or DOC_SKIPPED */
    const char *format, *kind;
    bf_findings findings;
    char *problem; /* EXIT_USAGE: why the file could not be read */
} checked;

static checked *check_one(const options *o, file_set_cache *cache, const file_list *files, size_t i)
{
    const char *path = files->paths[i];
    int walked = files->walked[i];
    checked *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (files->problems[i]) { /* the walk found it and could not read it */
        r->status = EXIT_USAGE;
        if (!(r->problem = strdup(files->problems[i]))) {
            free(r);
            return NULL;
        }
        return r;
    }
    document d;
    open_opts oo = {.format = o->format, .revision = o->revision, .skip_unknown = walked};
    r->status = document_load(&d, path, &oo);
    if (d.entry) {
        r->format = d.format->name;
        r->kind = d.entry->name;
    }
    if (r->status == EXIT_INVALID) /* the reader's error is the first (and only) finding */
        bf_findings_add(&r->findings, BF_SEVERITY_ERROR, d.err.offset, d.err.path, d.err.message, NULL);
    else if (r->status == 0) {
        d.entry->validate(d.root, d.data, d.size, &r->findings);
        if (!o->no_set)
            file_set_check(&d, cache, &r->findings);
        for (int i = 0; i < o->ignore_count; i++)
            bf_findings_ignore(&r->findings, o->ignore[i]);
    }
    if (r->status == EXIT_USAGE)
        r->problem = strdup(d.problem);
    else if (r->findings.errors)
        r->status = EXIT_INVALID;
    document_close(&d);
    return r;
}

static void checked_free(checked *r)
{
    if (!r)
        return;
    bf_findings_free(&r->findings);
    free(r->problem);
    free(r);
}

static void json_finding(json *j, const char *file, const bf_finding *f)
{
    json_begin_object(j);
    if (file) {
        json_key(j, "file");
        json_cstring(j, file);
    }
    json_key(j, "severity");
    json_cstring(j, f->severity == BF_SEVERITY_ERROR ? "error" : "warning");
    json_key(j, "path");
    json_cstring(j, f->path);
    json_key(j, "offset");
    json_uint(j, f->offset);
    json_key(j, "message");
    json_cstring(j, f->message);
    json_key(j, "origin");
    if (f->origin)
        json_cstring(j, f->origin);
    else
        json_null(j);
    json_key(j, "rule");
    if (f->rule)
        json_cstring(j, f->rule);
    else
        json_null(j);
    json_end_object(j);
}

/* ---- grouping repeats in text output ---- */

/* Findings of one rule shown in a file's text output; the rest are counted in a note. */
#define SHOWN_PER_RULE 3

/* How many findings each rule has in one file: an open-addressing table keyed by the rule's
 * name (static text: one pointer per rule). */
typedef struct rule_tally {
    const char **rules;
    size_t *counts, *shown;
    size_t cap;
} rule_tally;

static size_t tally_slot(const rule_tally *t, const char *rule)
{
    size_t i = ((uintptr_t)rule >> 3) % t->cap;
    while (t->rules[i] && t->rules[i] != rule)
        i = (i + 1) % t->cap;
    return i;
}

/* 0 when memory is short: then nothing is grouped. */
static int tally_rules(rule_tally *t, const bf_findings *f)
{
    t->cap = 2 * f->count + 1;
    t->rules = calloc(t->cap, sizeof *t->rules);
    t->counts = calloc(t->cap, sizeof *t->counts);
    t->shown = calloc(t->cap, sizeof *t->shown);
    if (!t->rules || !t->counts || !t->shown)
        return 0;
    for (size_t k = 0; k < f->count; k++)
        if (f->items[k].rule) {
            size_t i = tally_slot(t, f->items[k].rule);
            t->rules[i] = f->items[k].rule;
            t->counts[i]++;
        }
    return 1;
}

static void tally_free(rule_tally *t)
{
    free(t->rules);
    free(t->counts);
    free(t->shown);
}

static const char *status_word(int status)
{
    switch (status) {
    case 0: return "valid";
    case EXIT_INVALID: return "invalid";
    case DOC_SKIPPED: return "skipped";
    }
    return "unreadable";
}

/* --json-lines: the whole story of one file on one line. */
static void print_json_line(const char *name, const checked *r)
{
    json j;
    json_init(&j, stdout, 0);
    json_begin_object(&j);
    json_key(&j, "file");
    json_cstring(&j, name);
    json_key(&j, "status");
    json_cstring(&j, status_word(r->status));
    json_key(&j, "format");
    r->format ? json_cstring(&j, r->format) : json_null(&j);
    json_key(&j, "kind");
    r->kind ? json_cstring(&j, r->kind) : json_null(&j);
    json_key(&j, "errors");
    json_uint(&j, r->findings.errors);
    json_key(&j, "warnings");
    json_uint(&j, r->findings.warnings);
    if (r->problem) {
        json_key(&j, "message");
        json_cstring(&j, r->problem);
    }
    json_key(&j, "findings");
    json_begin_array(&j);
    for (size_t k = 0; k < r->findings.count; k++)
        json_finding(&j, NULL, &r->findings.items[k]);
    json_end_array(&j);
    json_end_object(&j);
    fputc('\n', stdout);
}

typedef struct tally {
    size_t valid, invalid, unreadable, skipped;
} tally;

typedef struct printer {
    const options *o;
    json array; /* --json */
    int color_out, color_err;
    tally t;
} printer;

static void print_result(printer *p, const char *path, const checked *r)
{
    const options *o = p->o;
    const char *name = strcmp(path, "-") == 0 ? STDIN_NAME : path;
    switch (r->status) {
    case 0: p->t.valid++; break;
    case EXIT_INVALID: p->t.invalid++; break;
    case DOC_SKIPPED: p->t.skipped++; break;
    default: p->t.unreadable++; break;
    }
    if (o->json_lines) {
        print_json_line(name, r);
        return;
    }
    if (r->status == EXIT_USAGE) {
        print_line(stderr, r->problem, p->color_err);
        return;
    }
    if (r->status == DOC_SKIPPED) {
        if (o->verbose)
            fprintf(stdout, "%s: skipped: no format recognises it\n", name);
        return;
    }
    rule_tally t = {0};
    int grouped = !o->json && tally_rules(&t, &r->findings);
    for (size_t k = 0; k < r->findings.count; k++) {
        const bf_finding *f = &r->findings.items[k];
        if (o->json) {
            json_finding(&p->array, name, f);
        } else if (!o->quiet || f->severity == BF_SEVERITY_ERROR) {
            size_t slot = grouped && f->rule ? tally_slot(&t, f->rule) : 0;
            if (grouped && f->rule && t.shown[slot]++ >= SHOWN_PER_RULE)
                continue;
            char line[BF_PATH_MAX + BF_MESSAGE_MAX + 1024];
            bf_finding_format(f, name, line, sizeof line);
            print_line(stdout, line, p->color_out);
            if (grouped && f->rule && t.shown[slot] == SHOWN_PER_RULE && t.counts[slot] > SHOWN_PER_RULE)
                fprintf(stdout, "%s: note: ... and %zu more like it (%s; --ignore %s silences them, --json lists them)\n",
                        name, t.counts[slot] - SHOWN_PER_RULE, f->rule, f->rule);
        }
    }
    tally_free(&t);
    if (r->findings.dropped && !o->json && !o->quiet)
        fprintf(stdout, "%s: note: %zu more findings not shown\n", name, r->findings.dropped);
    if (o->verbose && !o->json && r->status == 0) {
        char line[2048];
        snprintf(line, sizeof line, "%s: ok (%s %s%s)", name, r->format, r->kind,
                 r->findings.warnings ? ", with warnings" : "");
        print_line(stdout, line, p->color_out);
    }
}

/* ---- the workers ---- */

typedef struct pool {
    const options *o;
    file_set_cache *cache;
    const file_list *files;
    checked **results;
    unsigned char *done;
    size_t next;
    pthread_mutex_t lock;
    pthread_cond_t ready;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->files->count ? p->next++ : p->files->count;
        pthread_mutex_unlock(&p->lock);
        if (i == p->files->count)
            return NULL;
        checked *r = check_one(p->o, p->cache, p->files, i);
        pthread_mutex_lock(&p->lock);
        p->results[i] = r;
        p->done[i] = 1;
        pthread_cond_broadcast(&p->ready);
        pthread_mutex_unlock(&p->lock);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A progress line on a terminal, at most ten times a second. */
static void progress(int shown, size_t done, size_t total, double *last)
{
    double t = now();
    if (!shown || (t - *last < 0.1 && done < total))
        return;
    *last = t;
    fprintf(stderr, "\rbinform check: %zu/%zu files", done, total);
    if (done == total)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static int out_of_memory(void)
{
    fprintf(stderr, "binform check: out of memory\n");
    return EXIT_USAGE;
}

int cmd_check(const options *o, int argc, char **argv)
{
    file_list files;
    int rc = file_list_build(&files, argc, argv, o->recursive);
    if (rc) {
        file_list_free(&files);
        return rc;
    }
    printer p = {.o = o, .color_out = color_wanted(stdout, o->color), .color_err = color_wanted(stderr, o->color)};
    json_init(&p.array, stdout, 0);
    if (o->json)
        json_begin_array(&p.array);
    int show_progress = !o->quiet && isatty(fileno(stderr)) && files.count > 1;
    double start = now(), last = 0;
    /* the libraries many files share are read once for the run (NULL when memory is short:
     * then they are read for every file) */
    file_set_cache *cache = o->no_set ? NULL : file_set_cache_new();
    int jobs = o->jobs > 1 ? o->jobs : 1;
    if ((size_t)jobs > files.count)
        jobs = files.count ? (int)files.count : 1;
    if (jobs == 1) {
        for (size_t i = 0; i < files.count; i++) {
            checked *r = check_one(o, cache, &files, i);
            if (!r) {
                file_set_cache_free(cache);
                file_list_free(&files);
                return out_of_memory();
            }
            print_result(&p, files.paths[i], r);
            checked_free(r);
            progress(show_progress, i + 1, files.count, &last);
            if (stdout_failed()) /* the report cannot be written: main says so, exit 2 */
                break;
        }
    } else {
        pool pl = {.o = o, .cache = cache, .files = &files};
        pl.results = calloc(files.count, sizeof *pl.results);
        pl.done = calloc(files.count, 1);
        pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
        if (!pl.results || !pl.done || !threads) {
            free(pl.results), free(pl.done), free(threads);
            file_set_cache_free(cache);
            file_list_free(&files);
            return out_of_memory();
        }
        pthread_mutex_init(&pl.lock, NULL);
        pthread_cond_init(&pl.ready, NULL);
        int started = 0;
        while (started < jobs && pthread_create(&threads[started], NULL, worker, &pl) == 0)
            started++;
        if (!started)
            worker(&pl); /* no thread to be had: do the work here */
        size_t handed_out = files.count;
        for (size_t i = 0; i < handed_out; i++) {
            pthread_mutex_lock(&pl.lock);
            if (handed_out == files.count && stdout_failed()) {
                /* the report cannot be written: no new files; those started are waited for */
                handed_out = pl.next;
                pl.next = files.count;
            }
            while (i < handed_out && !pl.done[i])
                pthread_cond_wait(&pl.ready, &pl.lock);
            checked *r = pl.results[i];
            pl.results[i] = NULL;
            pthread_mutex_unlock(&pl.lock);
            if (i >= handed_out)
                break;
            if (!r)
                p.t.unreadable++, fprintf(stderr, "%s: error: out of memory\n", files.paths[i]);
            else if (!stdout_failed()) /* else main reports the lost output, exit 2 */
                print_result(&p, files.paths[i], r);
            checked_free(r);
            progress(show_progress, i + 1, files.count, &last);
        }
        for (int t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
        pthread_mutex_destroy(&pl.lock);
        pthread_cond_destroy(&pl.ready);
        free(threads);
        free(pl.results);
        free(pl.done);
    }
    if (o->json) {
        json_end_array(&p.array);
        fputc('\n', stdout);
    }
    size_t checked_count = files.count - p.t.skipped;
    if (!o->quiet && (files.count > 1 || o->recursive) && !stdout_failed()) {
        double seconds = now() - start;
        fprintf(stderr, "binform check: %zu file%s: %zu valid, %zu invalid, %zu unreadable", checked_count,
                checked_count == 1 ? "" : "s", p.t.valid, p.t.invalid, p.t.unreadable);
        if (p.t.skipped)
            fprintf(stderr, ", %zu skipped (no known format)", p.t.skipped);
        if (o->verbose)
            fprintf(stderr, " in %.2f s (%.0f files/s)", seconds, seconds > 0 ? files.count / seconds : 0.0);
        fputc('\n', stderr);
    }
    file_set_cache_free(cache);
    file_list_free(&files);
    fflush(stdout);
    stdout_failed(); /* a failed flush: its reason, for main to report */
    if (p.t.unreadable)
        return EXIT_USAGE;
    return p.t.invalid ? EXIT_INVALID : EXIT_VALID;
}
