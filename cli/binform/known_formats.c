/* The formats binform knows in this run (known_formats.h). */
#include "known_formats.h"

#include <stdlib.h>
#include <string.h>

#include "formats.h"

static const bf_format_desc **known;

const bf_format_desc *const *known_formats(void) { return known ? (const bf_format_desc *const *)known : bf_formats; }

static int named(const bf_format_desc *const *list, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(list[i]->name, name) == 0)
            return 1;
    return 0;
}

int known_formats_add(const bf_format_desc *const *extra)
{
    const bf_format_desc *const *old = known_formats();
    size_t n_extra = 0, n_old = 0;
    while (extra[n_extra])
        n_extra++;
    while (old[n_old])
        n_old++;
    const bf_format_desc **list = malloc((n_extra + n_old + 1) * sizeof *list);
    if (!list)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < n_extra; i++)
        list[n++] = extra[i];
    for (size_t i = 0; i < n_old; i++)
        if (!named(extra, n_extra, old[i]->name))
            list[n++] = old[i];
    list[n] = NULL;
    free(known);
    known = list;
    return 1;
}
