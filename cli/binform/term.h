/* Colour on a terminal: on when the stream is one, off with NO_COLOR, --color, or a pipe. */
#ifndef BINFORM_TERM_H
#define BINFORM_TERM_H

#include <stdio.h>

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;

/* 1 when output to `f` gets colour under `mode`. */
int color_wanted(FILE *f, color_mode mode);
/* Writes `line` and a newline; with `color`, its first "error:", "warning:" or "ok" word coloured. */
void print_line(FILE *f, const char *line, int color);

#endif
