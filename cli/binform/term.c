#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int color_wanted(FILE *f, color_mode mode)
{
    if (mode != COLOR_AUTO)
        return mode == COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR"); /* no-color.org: set and not empty */
    if (no_color && *no_color)
        return 0;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fileno(f));
}

void print_line(FILE *f, const char *line, int color)
{
    static const struct {
        const char *word, *sgr;
    } marks[] = {{": error:", "1;31"}, {": warning:", "1;33"}, {": note:", "1;36"}, {": ok", "32"}};
    const char *at = NULL;
    size_t which = 0;
    for (size_t i = 0; color && i < sizeof marks / sizeof marks[0]; i++) {
        const char *p = strstr(line, marks[i].word);
        if (p && (!at || p < at))
            at = p, which = i;
    }
    if (!at) {
        fprintf(f, "%s\n", line);
        return;
    }
    /* "FILE: error: ..." -> "FILE: " + colour("error:") + " ..." */
    size_t word = strlen(marks[which].word) - 2;
    fprintf(f, "%.*s: \033[%sm%.*s\033[0m%s\n", (int)(at - line), line, marks[which].sgr, (int)word, at + 2,
            at + 2 + word);
}
