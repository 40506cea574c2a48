/* binform explain: every byte range of a file with the field that reads it, its raw bytes,
 * decoded value and doc; bytes no field reads are marked. Text, or one HTML page. A file that
 * fails to read is explained as far as it was read, the failure marked at its offset. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_write.h"
#include "commands.h"
#include "document.h"
#include "explain.h"
#include "explain_out.h"

/* The largest file explained. Its memory is a few hundred times the file (a node per field
 * read, an owner per byte), its text about five times, its page about twice. */
#define EXPLAIN_MAX (32 << 20)

/* The revision a partial document was read as (the attempt that got furthest), or NULL. */
static const char *partial_revision(const document *d, const void *root)
{
    if (!root || !d->entry->revision_offset)
        return NULL;
    int64_t r;
    memcpy(&r, (const uint8_t *)root + d->entry->revision_offset, sizeof r);
    return r >= 0 && (size_t)r < d->format->revision_count ? d->format->revisions[r] : NULL;
}

int cmd_explain(const options *o, int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: binform explain [--format NAME] [--html OUT] FILE\n");
        return EXIT_USAGE;
    }
    document d;
    int rc = document_open(&d, argv[0], o->format, o->revision);
    if (rc && rc != EXIT_INVALID) {
        document_close(&d);
        return rc;
    }
    if (d.size > EXPLAIN_MAX) {
        /* every byte gets a place in the output and an owner in memory: a bound, not hours */
        fprintf(stderr,
                "%s: error: explain shows every byte, and this file has %zu: more than its limit of %d MiB "
                "(check, info and dump read it)\n",
                d.name, d.size, EXPLAIN_MAX >> 20);
        document_close(&d);
        return EXIT_USAGE;
    }
    if (rc == EXIT_INVALID)
        document_print_error(&d); /* and explained below, as far as it reads */
    int failed = rc == EXIT_INVALID;
    /* read again, recording which bytes the fields read (and, when it fails, keeping the partial
     * document; a format with revisions is read again as the attempt that got furthest, so that
     * the claimed bytes are that attempt's) */
    uint8_t *claimed = calloc(d.size / 8 + 1, 1);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    void *root = NULL, *partial = NULL;
    bf_read_opts opts = {.claimed = claimed, .revision = o->revision, .partial = &partial};
    bf_error err;
    xtree t = {0};
    int built = 0;
    if (!claimed) {
        fprintf(stderr, "%s: out of memory\n", d.path);
        rc = EXIT_USAGE;
    } else if (d.entry->read(d.data, d.size, &arena, &opts, &root, &err)) {
        built = explain_build(&t, d.entry->root, root, d.data, d.size, claimed);
    } else {
        const char *revision = partial_revision(&d, partial);
        if (revision && !o->revision) {
            bf_arena_free(&arena);
            bf_arena_init(&arena, bf_alloc_default(), 0);
            memset(claimed, 0, d.size / 8 + 1);
            partial = NULL;
            opts.revision = revision;
            d.entry->read(d.data, d.size, &arena, &opts, &root, &err);
            err = d.err; /* the message names every revision tried */
        }
        built = explain_build_partial(&t, d.entry->root, partial, d.data, d.size, claimed, &err);
        failed = 1;
    }
    if (claimed && !built && t.too_many) {
        fprintf(stderr, "%s: error: more than %d fields to show: explain stops there (check, info and dump read it)\n",
                d.name, EXPLAIN_NODES_MAX);
        rc = EXIT_USAGE;
    } else if (claimed && !built) {
        fprintf(stderr, "%s: out of memory\n", d.path);
        rc = EXIT_USAGE;
    } else if (claimed) {
        rc = failed ? EXIT_INVALID : 0;
        explain_info info = {d.path, d.format->name, d.entry->name, d.format->title, d.format->endian};
        if (!o->html) {
            explain_write_text(stdout, &t, &info);
        } else {
            /* the page is written as it is made, to a temporary file renamed over OUT only once
             * complete: a failed write or an allocation that fails leaves OUT as it was */
            bf_save save;
            bf_error werr;
            int ok = bf_save_begin(&save, o->html, &werr), fd = ok ? dup(save.fd) : -1;
            FILE *page = fd >= 0 ? fdopen(fd, "wb") : NULL;
            if (ok && !page) {
                if (fd >= 0)
                    close(fd);
                bf_save_abort(&save);
                snprintf(werr.message, sizeof werr.message, "cannot write it: %s", strerror(errno));
                ok = 0;
            } else if (ok) {
                int made = explain_write_html(page, &t, &info);
                int written = !ferror(page);
                errno = 0;
                written &= fclose(page) == 0;
                if (!made || !written) {
                    int e = errno ? errno : made ? EIO : ENOMEM;
                    bf_save_abort(&save);
                    snprintf(werr.message, sizeof werr.message, "cannot write it: %s; %s is unchanged", strerror(e),
                             o->html);
                    ok = 0;
                } else {
                    ok = bf_save_commit(&save, &werr);
                }
            }
            if (!ok) {
                fprintf(stderr, "%s: error: %s\n", o->html, werr.message);
                rc = EXIT_USAGE;
            }
        }
    }
    explain_free(&t);
    bf_arena_free(&arena);
    free(claimed);
    document_close(&d);
    return rc;
}
