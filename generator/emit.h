/* IR -> Lua tables -> the templates in generator/templates/, which produce the files. */
#ifndef BFGEN_EMIT_H
#define BFGEN_EMIT_H

#include "model.h"

/* Runs the templates over all formats and writes what they produce under `out_dir`
 * (only files whose content changed are rewritten). With `check`, writes nothing and
 * reports every file that differs. Returns 0 on success. */
int emit_all(format **formats, size_t count, const char *template_dir, const char *out_dir, int check);

/* Runs templates/report_NAME.lua: a function(formats, args) that prints a report and returns
 * the exit status. */
int emit_report(format **formats, size_t count, const char *template_dir, const char *name, int argc, char **argv);

#endif
