/* The console's <stdio.h>: only the formatting of n64/rom/snprintf.c; output goes through
 * n64/rom/console.c (IS-Viewer), not streams. */
#ifndef ROM_STDIO_H
#define ROM_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int snprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
