/* binform explain: every byte range of a file with the field that reads it, its raw bytes,
 * decoded value and doc; bytes no field reads are marked. Text, or one HTML page. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "bf_write.h"
#include "commands.h"
#include "document.h"
#include "explain.h"
#include "explain_out.h"

int cmd_explain(const options *o, int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: binform explain [--format NAME] [--html OUT] FILE\n");
        return EXIT_USAGE;
    }
    document d;
    int rc = document_open(&d, argv[0], o->format, o->revision);
    if (rc == EXIT_INVALID)
        document_print_error(&d);
    if (rc) {
        document_close(&d);
        return rc;
    }
    /* read again, recording which bytes the fields read */
    uint8_t *claimed = calloc(d.size / 8 + 1, 1);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_read_opts opts = {.claimed = claimed, .revision = o->revision}; /* as the first read */
    void *root = NULL;
    xtree t = {0};
    rc = EXIT_USAGE;
    if (!claimed) {
        fprintf(stderr, "%s: out of memory\n", d.path);
    } else if (!d.entry->read(d.data, d.size, &arena, &opts, &root, &d.err)) {
        document_print_error(&d);
        rc = EXIT_INVALID;
    } else if (!explain_build(&t, d.entry->root, root, d.data, d.size, claimed)) {
        fprintf(stderr, "%s: out of memory\n", d.path);
    } else {
        explain_info info = {d.path, d.format->name, d.entry->name, d.format->title};
        if (!o->html) {
            explain_write_text(stdout, &t, &info);
            rc = 0;
        } else {
            /* the page is built in memory, then saved atomically like every output */
            char *page = NULL;
            size_t page_size = 0;
            FILE *mem = open_memstream(&page, &page_size);
            bf_error err;
            if (!mem) {
                fprintf(stderr, "%s: out of memory\n", d.path);
            } else {
                explain_write_html(mem, &t, &info);
                fclose(mem);
                if (bf_save_atomic(o->html, (const uint8_t *)page, page_size, &err))
                    rc = 0;
                else
                    fprintf(stderr, "%s: error: %s\n", o->html, err.message);
            }
            free(page);
        }
    }
    explain_free(&t);
    bf_arena_free(&arena);
    free(claimed);
    document_close(&d);
    return rc;
}
