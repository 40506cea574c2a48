/* binform roundtrip: read, write back, compare; names the first differing offset. */
#include <stdio.h>

#include "bf_write.h"
#include "commands.h"
#include "document.h"

static int roundtrip_one(const options *o, document *d)
{
    int status = EXIT_VALID;
    bf_buffer out = {0};
    bf_error err;
    if (!d->entry->write(d->root, &out, &err)) {
        char line[BF_PATH_MAX + BF_MESSAGE_MAX + 512];
        bf_error_format(&err, d->name, line, sizeof line);
        fprintf(stderr, "%s (writing)\n", line);
        status = EXIT_INVALID;
    } else {
        size_t first = 0;
        size_t common = out.size < d->size ? out.size : d->size;
        while (first < common && out.data[first] == d->data[first])
            first++;
        if (first == common && out.size == d->size) {
            if (!o->quiet)
                printf("%s: identical (%zu bytes)\n", d->name, d->size);
        } else {
            if (first < common)
                printf("%s: differs at 0x%zx: read 0x%02x, wrote 0x%02x (%zu bytes read, %zu written)\n", d->name,
                       first, d->data[first], out.data[first], d->size, out.size);
            else
                printf("%s: differs in length: %zu bytes read, %zu written\n", d->name, d->size, out.size);
            status = EXIT_INVALID;
        }
    }
    bf_buffer_free(&out);
    return status;
}

int cmd_roundtrip(const options *o, int argc, char **argv) { return each_document(o, argc, argv, roundtrip_one); }
