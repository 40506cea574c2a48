/* binform check: read and validate; one line (or one JSON object) per finding.
 * Exit 0 when every file is valid, 1 when any has an error, 2 on usage or I/O errors. */
#include <stdio.h>

#include "bf_validate.h"
#include "commands.h"
#include "document.h"
#include "json.h"

static void print_json_finding(json *j, const char *file, const bf_finding *f)
{
    json_begin_object(j);
    json_key(j, "file");
    json_cstring(j, file);
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
    json_end_object(j);
}

int cmd_check(const options *o, int argc, char **argv)
{
    int status = EXIT_VALID;
    json j;
    json_init(&j, stdout, 0);
    if (o->json)
        json_begin_array(&j);
    for (int i = 0; i < argc; i++) {
        document d;
        bf_findings findings = {0};
        int rc = document_open(&d, argv[i], o->format, o->revision);
        if (rc == EXIT_INVALID) /* the reader's error is the first (and only) finding */
            bf_findings_add(&findings, BF_SEVERITY_ERROR, d.err.offset, d.err.path, d.err.message, NULL);
        else if (rc == 0)
            d.entry->validate(d.root, d.data, d.size, &findings);
        if (rc != EXIT_USAGE) {
            for (size_t k = 0; k < findings.count; k++) {
                if (o->json) {
                    print_json_finding(&j, d.path, &findings.items[k]);
                } else {
                    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 1024];
                    bf_finding_format(&findings.items[k], d.path, line, sizeof line);
                    printf("%s\n", line);
                }
            }
            if (findings.dropped && !o->json)
                printf("%s: note: %zu more findings not shown\n", d.path, findings.dropped);
            if (findings.errors && status == EXIT_VALID)
                status = EXIT_INVALID;
        } else {
            status = EXIT_USAGE;
        }
        bf_findings_free(&findings);
        document_close(&d);
    }
    if (o->json) {
        json_end_array(&j);
        fputc('\n', stdout);
    }
    return status;
}
