/* IR -> Lua tables -> the templates in generator/templates/, which produce the files. */
#ifndef BFGEN_EMIT_H
#define BFGEN_EMIT_H

#include "model.h"

/* The parts of the output, for --emit. */
enum {
    EMIT_HEADER = 1 << 0,    /* FORMAT.h */
    EMIT_READER = 1 << 1,    /* FORMAT.c */
    EMIT_WRITER = 1 << 2,    /* FORMAT_write.c */
    EMIT_VALIDATOR = 1 << 3, /* FORMAT_validate.c */
    EMIT_ACCESS = 1 << 4,    /* FORMAT_access.h */
    EMIT_META = 1 << 5,      /* FORMAT_meta.c */
    EMIT_INDEX = 1 << 6,     /* formats.h, formats.c, docs/index.* */
    EMIT_DOCS = 1 << 7,      /* docs/FORMAT.md, .html, .schema.json */
    EMIT_VIEW = 1 << 8,      /* FORMAT_view.h, FORMAT_view.c */
    EMIT_ALL = (1 << 9) - 1, /* what generated/ holds: all of the above */
    /* FORMAT_view_same.h/.c, the views' agreement checks with the reader: for the tests,
     * asked for by name only (not in EMIT_ALL) */
    EMIT_VIEW_SAME = 1 << 9,
};

/* Runs the templates over all formats and writes the `parts` they produce under `out_dir`
 * (only files whose content changed are rewritten). Formats already in `out_dir` (a
 * FORMAT_meta.c there) stay in the formats table. With `check`, writes nothing and reports every file that differs. Returns 0 on
 * success. */
int emit_all(format **formats, size_t count, const char *template_dir, const char *out_dir, int check,
             unsigned parts);

/* Runs templates/report_NAME.lua: a function(formats, args) that prints a report and returns
 * the exit status. */
int emit_report(format **formats, size_t count, const char *template_dir, const char *name, int argc, char **argv);

#endif
