/* binform formats: what the generator knows. */
#include <stdio.h>

#include "commands.h"
#include "known_formats.h"

int cmd_formats(const options *o, int argc, char **argv)
{
    (void)o, (void)argc, (void)argv;
    for (size_t i = 0; known_formats()[i]; i++) {
        const bf_format_desc *f = known_formats()[i];
        printf("%-8s %s (%s-endian)\n", f->name, f->title ? f->title : "", f->endian);
        for (size_t e = 0; e < f->entry_count; e++) {
            const bf_entry_desc *en = &f->entries[e];
            printf("         %-8s root %-12s", en->name, en->root->name);
            for (size_t x = 0; en->extensions[x]; x++)
                printf(" .%s", en->extensions[x]);
            if (en->magic)
                printf("  magic \"%.*s\" at %llu", (int)en->magic_len, en->magic, (unsigned long long)en->magic_at);
            printf("\n");
        }
        if (f->revision_count) {
            printf("         revisions:");
            for (size_t r = 0; r < f->revision_count; r++)
                printf(" %s", f->revisions[r]);
            printf("\n");
        }
    }
    return 0;
}
