/* binform dump: the parsed file as JSON. */
#include <stdio.h>

#include "commands.h"
#include "document.h"
#include "dump.h"

int cmd_dump(const options *o, int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: binform dump [--format NAME] FILE\n");
        return EXIT_USAGE;
    }
    document d;
    int rc = document_open(&d, argv[0], o->format, o->revision);
    if (rc == EXIT_INVALID)
        document_print_error(&d);
    if (rc == 0) {
        json j;
        json_init(&j, stdout, 1);
        json_begin_object(&j);
        json_key(&j, "file");
        json_cstring(&j, d.path);
        json_key(&j, "format");
        json_cstring(&j, d.format->name);
        json_key(&j, "kind");
        json_cstring(&j, d.entry->name);
        json_key(&j, "size");
        json_uint(&j, d.size);
        if (document_revision(&d)) {
            json_key(&j, "revision");
            json_cstring(&j, document_revision(&d));
        }
        json_key(&j, d.entry->root->name);
        dump_object(&j, d.entry->root, d.root);
        json_end_object(&j);
    }
    document_close(&d);
    return rc;
}
