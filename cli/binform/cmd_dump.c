/* binform dump: the parsed file as JSON (dump.c describes the shapes). */
#include <stdio.h>

#include "commands.h"
#include "document.h"
#include "dump.h"

int cmd_dump(const options *o, int argc, char **argv)
{
    (void)argc;
    document d;
    open_opts oo = {.format = o->format, .revision = o->revision};
    int rc = document_load(&d, argv[0], &oo);
    if (rc) {
        document_report(&d, stderr, color_wanted(stderr, o->color));
    } else {
        json j;
        json_init(&j, stdout, !o->compact);
        dump_document(&j, d.format, d.entry, document_revision(&d), d.root, d.size);
        if (o->compact)
            fputc('\n', stdout);
        /* a JSON that could not be written whole: main says so, exit 2 */
    }
    document_close(&d);
    return rc;
}
