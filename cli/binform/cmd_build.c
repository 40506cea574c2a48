/* binform build: a binary file from JSON, through the reflection tables and the generated
 * builder (or, with --keep-layout, the replay writer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "commands.h"
#include "document.h"
#include "json_parse.h"
#include "undump.h"

static int save(const char *output, const bf_buffer *out)
{
    bf_error err;
    if (strcmp(output, "-") == 0) {
        if (isatty(fileno(stdout))) {
            fprintf(stderr, "binform build: not writing binary data to a terminal (-o FILE, or a pipe)\n");
            return EXIT_USAGE;
        }
        if (fwrite(out->data, 1, out->size, stdout) != out->size || fflush(stdout) != 0) {
            perror("binform build: standard output");
            return EXIT_USAGE;
        }
        return 0;
    }
    if (!bf_save_atomic(output, out->data, out->size, &err)) {
        fprintf(stderr, "%s: error: %s\n", output, err.message);
        return EXIT_USAGE;
    }
    return 0;
}

/* The output read back and validated (as `check` does) before it is saved, whichever way it
 * was made: a file that does not check is refused with every error found, never written.
 * `how` says how it was made. */
static int built_file_checks(const bf_entry_desc *entry, const bf_buffer *out, const char *name, const char *output,
                             const char *how)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    void *doc;
    bf_error err;
    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 512];
    int ok = 0;
    if (!entry->read(out->data, out->size, &arena, NULL, &doc, &err)) {
        bf_error_format(&err, name, line, sizeof line);
        fprintf(stderr, "%s (%s)\nbinform build: the file made does not read back; nothing written to %s\n", line, how,
                output);
    } else {
        bf_findings findings = {0};
        ok = entry->validate(doc, out->data, out->size, &findings);
        size_t errors = 0;
        for (size_t i = 0; !ok && i < findings.count; i++) {
            if (findings.items[i].severity != BF_SEVERITY_ERROR)
                continue;
            bf_finding_format(&findings.items[i], name, line, sizeof line);
            fprintf(stderr, "%s (%s)\n", line, how);
            errors++;
        }
        if (!ok)
            fprintf(stderr, "binform build: the file made does not check (%zu error%s); nothing written to %s\n", errors,
                    errors == 1 ? "" : "s", output);
        bf_findings_free(&findings);
    }
    bf_arena_free(&arena);
    return ok;
}

/* Where the builder cannot lay a file out, the dump's own positions still can: an edit that
 * keeps every size (a value, a colour, a name of the same length) writes back that way. */
static void keep_layout_hint(void)
{
    fputs("binform build: hint: --keep-layout writes every structure where the JSON says (an unedited\n"
          "dump gives back its file byte for byte)\n",
          stderr);
}

/* The largest file a JSON text may make. A dump is larger than its file (by twice or more for
 * every sample, compact or not), so 8 bytes of file a byte of JSON, or 1 MiB, is room for any
 * edit; past it, positions (`_offset`, `*_at`) or sizes point far beyond the data the JSON
 * holds, and the file would be zeros that cost their size in memory. */
#define BYTES_PER_JSON_BYTE 8
#define SMALLEST_LIMIT ((size_t)1 << 20)
static size_t output_limit(size_t json_size)
{
    size_t limit = json_size > SIZE_MAX / BYTES_PER_JSON_BYTE ? SIZE_MAX : json_size * BYTES_PER_JSON_BYTE;
    return limit < SMALLEST_LIMIT ? SMALLEST_LIMIT : limit;
}

int cmd_build(const options *o, int argc, char **argv)
{
    (void)argc;
    const char *name = strcmp(argv[0], "-") == 0 ? STDIN_NAME : argv[0];
    if (!o->output) {
        fprintf(stderr, "binform build: where to? -o OUT is required (see 'binform help build')\n");
        return EXIT_USAGE;
    }
    uint8_t *data;
    size_t size;
    int streamed;
    char problem[1200];
    if (!input_load(argv[0], &data, &size, &streamed, problem, sizeof problem)) {
        fprintf(stderr, "%s\n", problem);
        return EXIT_USAGE;
    }
    const char *text = (const char *)data;
    char why[256];
    jv *v = jv_parse_n(text, size, why, sizeof why);
    if (!v) {
        fprintf(stderr, "%s: error: not JSON: %s\n", name, why);
        input_unload(data, size, streamed);
        return EXIT_INVALID;
    }
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    undump_result doc;
    int rc = EXIT_INVALID;
    bf_buffer out = {.limit = output_limit(size)};
    bf_error err;
    if (!undump_document(v, text, &arena, &doc)) {
        fprintf(stderr, "%s: error: %s\n", name, doc.error);
    } else if (!(o->keep_layout ? doc.entry->write(doc.root, &out, &err)
                                : doc.entry->build(doc.root, &arena, &out, &err))) {
        char line[BF_PATH_MAX + BF_MESSAGE_MAX + 512];
        bf_error_format(&err, name, line, sizeof line);
        fprintf(stderr, "%s (%s)\n", line, o->keep_layout ? "writing where the JSON says" : "building");
        if (strstr(err.message, "past the output limit"))
            fprintf(stderr,
                    "binform build: %zu bytes of JSON make a file of at most %zu bytes (%d a byte of JSON, or 1 MiB);\n"
                    "a position or size there points past the data the JSON holds\n",
                    size, out.limit, BYTES_PER_JSON_BYTE);
        if (!o->keep_layout)
            keep_layout_hint();
    } else if (!built_file_checks(doc.entry, &out, name, o->output,
                                  o->keep_layout ? "writing where the JSON says" : "building")) {
        if (!o->keep_layout)
            keep_layout_hint();
        rc = EXIT_INVALID;
    } else {
        rc = save(o->output, &out);
        if (rc == 0 && o->verbose)
            fprintf(stderr, "%s: %s %s, %zu bytes written to %s\n", name, doc.format->name, doc.entry->name, out.size,
                    o->output);
    }
    bf_buffer_free(&out);
    bf_arena_free(&arena);
    jv_free(v);
    input_unload(data, size, streamed);
    return rc;
}
