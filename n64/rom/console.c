/* IS-Viewer text output (see console.h). */
#include "console.h"

#include "rcp.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static char line[CONSOLE_LINE_MAX + 4];
static size_t line_len;

/* The buffer is written a big-endian word at a time, then its length. */
static void send_line(void)
{
    line[line_len++] = '\n';
    for (size_t i = 0; i < line_len; i += 4) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4; k++)
            w = w << 8 | (i + k < line_len ? (uint8_t)line[i + k] : 0u);
        REG32(IS_VIEWER_BUFFER + i) = w;
    }
    IS_VIEWER_LENGTH = (uint32_t)line_len;
    line_len = 0;
}

void console_write(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            send_line();
            continue;
        }
        line[line_len++] = text[i];
        if (line_len == CONSOLE_LINE_MAX)
            send_line();
    }
}

void console_printf(const char *fmt, ...)
{
    char buf[CONSOLE_LINE_MAX * 2];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        console_write(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}
