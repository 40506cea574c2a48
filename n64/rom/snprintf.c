/* snprintf and vsnprintf for the ROM: the conversions the runtime and the
 * ROM use (d i u x X o c s p %, flags - 0 + space, width and precision, also
 * as *, lengths hh h l ll z j t). No floating point: %e %f %g print "?". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct out {
    char *buf;
    size_t cap, len; /* len counts everything, also what did not fit */
} out_t;

static void put(out_t *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static void pad(out_t *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

typedef struct spec {
    int left, zero, plus, space;
    int width, precision; /* precision -1: none */
} spec_t;

static void put_number(out_t *o, const spec_t *s, uint64_t v, int negative, unsigned base, int upper)
{
    char digits[24];
    int n = 0;
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    while (v) {
        digits[n++] = set[v % base];
        v /= base;
    }
    int min_digits = s->precision >= 0 ? s->precision : 1;
    int zeros = min_digits > n ? min_digits - n : 0;
    char sign = negative ? '-' : s->plus ? '+' : s->space ? ' ' : 0;
    int total = n + zeros + (sign != 0);
    if (s->zero && !s->left && s->precision < 0 && s->width > total) {
        zeros += s->width - total;
        total = s->width;
    }
    if (!s->left)
        pad(o, ' ', s->width - total);
    if (sign)
        put(o, sign);
    pad(o, '0', zeros);
    while (n)
        put(o, digits[--n]);
    if (s->left)
        pad(o, ' ', s->width - total);
}

static void put_string(out_t *o, const spec_t *s, const char *str)
{
    if (!str)
        str = "(null)";
    int n = 0;
    while (str[n] && (s->precision < 0 || n < s->precision))
        n++;
    if (!s->left)
        pad(o, ' ', s->width - n);
    for (int i = 0; i < n; i++)
        put(o, str[i]);
    if (s->left)
        pad(o, ' ', s->width - n);
}

int vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
    out_t o = {buf, cap, 0};
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(&o, *fmt);
            continue;
        }
        spec_t s = {0, 0, 0, 0, 0, -1};
        for (;; fmt++) {
            if (fmt[1] == '-')
                s.left = 1;
            else if (fmt[1] == '0')
                s.zero = 1;
            else if (fmt[1] == '+')
                s.plus = 1;
            else if (fmt[1] == ' ')
                s.space = 1;
            else
                break;
        }
        fmt++;
        if (*fmt == '*') {
            s.width = va_arg(ap, int);
            if (s.width < 0) {
                s.left = 1;
                s.width = -s.width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                s.width = s.width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            s.precision = 0;
            if (*fmt == '*') {
                s.precision = va_arg(ap, int);
                if (s.precision < 0)
                    s.precision = -1;
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    s.precision = s.precision * 10 + (*fmt++ - '0');
            }
        }
        int longs = 0; /* 0 int, 1 long, 2 long long, 3 size_t/ptrdiff_t/intmax_t */
        while (*fmt == 'h' || *fmt == 'l' || *fmt == 'z' || *fmt == 'j' || *fmt == 't') {
            if (*fmt == 'l')
                longs++;
            else if (*fmt != 'h')
                longs = *fmt == 'j' ? 2 : 3;
            fmt++;
        }
        switch (*fmt) {
        case 'd':
        case 'i': {
            int64_t v = longs == 2 ? va_arg(ap, long long)
                        : longs == 1 ? va_arg(ap, long)
                        : longs == 3 ? (int64_t)va_arg(ap, ptrdiff_t)
                                     : va_arg(ap, int);
            put_number(&o, &s, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0, 10, 0);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            uint64_t v = longs == 2 ? va_arg(ap, unsigned long long)
                         : longs == 1 ? va_arg(ap, unsigned long)
                         : longs == 3 ? (uint64_t)va_arg(ap, size_t)
                                      : va_arg(ap, unsigned);
            unsigned base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
            put_number(&o, &s, v, 0, base, *fmt == 'X');
            break;
        }
        case 'p':
            s.precision = 8;
            put(&o, '0');
            put(&o, 'x');
            put_number(&o, &s, (uintptr_t)va_arg(ap, void *), 0, 16, 0);
            break;
        case 'c':
            put(&o, (char)va_arg(ap, int));
            break;
        case 's':
            put_string(&o, &s, va_arg(ap, const char *));
            break;
        case 'e':
        case 'f':
        case 'g':
        case 'E':
        case 'F':
        case 'G':
            (void)va_arg(ap, double);
            put(&o, '?');
            break;
        case '%':
            put(&o, '%');
            break;
        default: /* unknown: shown as it was written */
            put(&o, '%');
            if (!*fmt)
                fmt--;
            else
                put(&o, *fmt);
        }
    }
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = 0;
    return (int)o.len;
}

int snprintf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}
