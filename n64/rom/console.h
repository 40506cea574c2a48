/* Text out of the console over the IS-Viewer 64 (cen64 -is-viewer prints it on
 * its standard output). Lines are sent whole: cen64 prints only complete
 * lines, and keeps less than 512 bytes of an unfinished one, so a line longer
 * than CONSOLE_LINE_MAX is cut there with a newline. */
#ifndef N64_ROM_CONSOLE_H
#define N64_ROM_CONSOLE_H

#include <stddef.h>

#define CONSOLE_LINE_MAX 400

void console_write(const char *text, size_t len);
void console_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
