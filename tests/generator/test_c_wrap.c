/* generator/c_wrap.c, the line breaking of generated C, tested on its rules directly: the
 * generated files only show the cases the schemas happen to produce. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_wrap.h"

#define LIMIT 160

/* c_wrap of a C string, as a C string (the caller frees it). */
static char *wrap(const char *src)
{
    size_t out_len;
    char *out = c_wrap(src, strlen(src), &out_len);
    char *text = malloc(out_len + 1);
    cr_assert_not_null(text);
    memcpy(text, out, out_len);
    text[out_len] = '\0';
    free(out);
    return text;
}

/* printf into a new string. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    cr_assert_not_null(s);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* `count` pieces "prefix0 sep prefix1 sep ...", as one string. */
static char *join(const char *prefix, int count, const char *sep)
{
    char *s = calloc(1, 1);
    for (int i = 0; i < count; i++) {
        char *next = format("%s%s%s%d", s, i ? sep : "", prefix, i);
        free(s);
        s = next;
    }
    return s;
}

static void expect_lines_fit(const char *text)
{
    int line = 1;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        cr_expect_leq(n, LIMIT, "line %d has %zu columns:\n%s", line, n, text);
        cr_expect(n == 0 || p[n - 1] != ' ', "line %d ends in a space:\n%s", line, text);
        p += n + (nl ? 1 : 0);
        line++;
    }
}

/* The text without its white space: what a wrapped line keeps of the line. */
static char *squeeze(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++)
        if (*s != ' ' && *s != '\n')
            *o++ = *s;
    *o = '\0';
    return out;
}

/* A string literal split in adjacent ones: "ab" "cd" becomes "abcd" again. */
static char *join_literals(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (const char *p = s; *p; p++) {
        if (*p == '"' && o > out && p[1] != ';' && p[1] != ')') {
            const char *q = p + 1;
            while (*q == ' ' || *q == '\n')
                q++;
            if (*q == '"') {
                p = q;
                continue;
            }
        }
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

static void expect_same_wrapped(const char *src)
{
    char *once = wrap(src), *twice = wrap(once);
    cr_expect_str_eq(twice, once, "wrapping wrapped text changed it");
    free(once);
    free(twice);
}

Test(c_wrap, short_lines_are_left_as_they_are)
{
    char *exact = format("    int x = %0*d;\n", LIMIT - 13, 0); /* 160 columns */
    cr_assert_eq(strlen(exact), LIMIT + 1);
    const char *texts[] = {"", "\n", "int x;\n", "  a  =  b ;   \n", "no newline at the end", exact,
                           "/* a comment\n   going on */ int y;\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *out = wrap(texts[i]);
        cr_expect_str_eq(out, texts[i]);
        free(out);
    }
    free(exact);
}

Test(c_wrap, a_long_call_breaks_after_commas_aligned_after_its_bracket)
{
    char *args = join("argument_", 20, ", ");
    char *src = format("    call_with_many_arguments(%s);\n", args);
    char *out = wrap(src);
    const char *want = "    call_with_many_arguments(argument_0, argument_1, argument_2, argument_3, argument_4, argument_5, "
                       "argument_6, argument_7, argument_8, argument_9,\n"
                       "                             argument_10, argument_11, argument_12, argument_13, argument_14, argument_15, "
                       "argument_16, argument_17, argument_18, argument_19);\n";
    cr_expect_str_eq(out, want);
    expect_lines_fit(out);
    expect_same_wrapped(src);
    free(args);
    free(src);
    free(out);
}

Test(c_wrap, conditions_break_before_the_logical_operator)
{
    char *conds = join("condition_", 16, "(value) && ");
    char *src = format("    if (%s(value)) {\n", conds);
    char *out = wrap(src);
    cr_expect_leq(strchr(out, '\n') - out, LIMIT);
    /* the second line starts with the operator, 8 in from the line's indent */
    const char *second = strchr(out, '\n') + 1;
    cr_expect(strncmp(second, "        && condition_", 21) == 0, "got:\n%s", out);
    expect_lines_fit(out);
    char *a = squeeze(src), *b = squeeze(out);
    cr_expect_str_eq(b, a, "only white space may change");
    expect_same_wrapped(src);
    free(conds);
    free(src);
    free(out);
    free(a);
    free(b);
}

Test(c_wrap, nested_calls_keep_their_tokens_and_fit)
{
    char *args = join("argument_number_", 12, ", ");
    char *src = format("    result = some_function_name(%s) + other_function(%s);\n", args, args);
    char *out = wrap(src);
    expect_lines_fit(out);
    char *a = squeeze(src), *b = squeeze(out);
    cr_expect_str_eq(b, a, "only white space may change");
    /* no name or operator is split: every token of the line is on one output line */
    for (int i = 0; i < 11; i++) {
        char *name = format("argument_number_%d,", i);
        cr_expect_not_null(strstr(out, name), "%s split in:\n%s", name, out);
        free(name);
    }
    expect_same_wrapped(src);
    free(args);
    free(src);
    free(out);
    free(a);
    free(b);
}

Test(c_wrap, long_string_literals_become_adjacent_literals)
{
    char *words = join("word", 40, " ");
    char *src = format("    puts(\"%s\");\n", words);
    char *out = wrap(src);
    const char *want = "    puts(\"word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 "
                       "word14 word15 word16 word17 word18 word19 word20 word21 \"\n"
                       "         \"word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 "
                       "word34 word35 word36 word37 word38 word39\");\n";
    cr_expect_str_eq(out, want);
    char *joined = join_literals(out);
    cr_expect_str_eq(joined, src, "the string's bytes must not change");
    expect_same_wrapped(src);
    free(words);
    free(src);
    free(out);
    free(joined);
}

Test(c_wrap, escapes_in_a_split_literal_stay_whole)
{
    /* \x41 and \n every few bytes: a break may fall only between escapes */
    char *body = join("ab\\x41\\n", 40, "");
    char *src = format("    s = \"%s\";\n", body);
    char *out = wrap(src);
    expect_lines_fit(out);
    char *joined = join_literals(out);
    char *a = squeeze(src), *b = squeeze(joined);
    cr_expect_str_eq(b, a);
    /* each piece ends after a \n escape when one is in its second half */
    for (const char *p = strstr(out, "\"\n"); p; p = strstr(p + 1, "\"\n"))
        cr_expect(p[-2] == '\\' && p[-1] == 'n', "a piece ends in the middle:\n%s", out);
    expect_same_wrapped(src);
    free(body);
    free(src);
    free(out);
    free(joined);
    free(a);
    free(b);
}

Test(c_wrap, a_long_comment_goes_on_under_its_text)
{
    char *words = join("comment", 30, " ");
    char *src = format("    x = 1; /* %s */\n", words);
    char *out = wrap(src);
    /* broken after the `;` first; the comment's own lines start 3 in from its slash */
    const char *want = "    x = 1;\n"
                       "            /* comment0 comment1 comment2 comment3 comment4 comment5 comment6 comment7 comment8 "
                       "comment9 comment10 comment11 comment12 comment13 comment14\n"
                       "               comment15 comment16 comment17 comment18 comment19 comment20 comment21 comment22 "
                       "comment23 comment24 comment25 comment26 comment27 comment28\n"
                       "               comment29 */\n";
    cr_expect_str_eq(out, want);
    expect_same_wrapped(src);
    free(words);
    free(src);
    free(out);
}

Test(c_wrap, a_comments_middle_line_goes_on_after_its_star)
{
    char *words = join("comment", 30, " ");
    char *src = format("/*\n * %s\n */\nint after;\n", words);
    char *out = wrap(src);
    const char *want = "/*\n"
                       " * comment0 comment1 comment2 comment3 comment4 comment5 comment6 comment7 comment8 comment9 "
                       "comment10 comment11 comment12 comment13 comment14 comment15\n"
                       " * comment16 comment17 comment18 comment19 comment20 comment21 comment22 comment23 comment24 "
                       "comment25 comment26 comment27 comment28 comment29\n"
                       " */\nint after;\n";
    cr_expect_str_eq(out, want);
    expect_same_wrapped(src);
    free(words);
    free(src);
    free(out);
}

Test(c_wrap, text_that_cannot_break_is_left_whole)
{
    /* one long name; a preprocessor line's code (breaking it would need backslashes) */
    char *name = format("    %0*d;\n", 200, 7);
    char *terms = join("(a", 40, ") + ");
    char *macro = format("#define LONG_MACRO(a, b) %s)\n", terms);
    cr_assert_gt(strlen(macro), LIMIT);
    const char *texts[] = {name, macro};
    for (size_t i = 0; i < 2; i++) {
        char *out = wrap(texts[i]);
        cr_expect_str_eq(out, texts[i]);
        free(out);
    }
    free(name);
    free(terms);
    free(macro);
}

Test(c_wrap, only_the_long_lines_change_and_a_missing_last_newline_stays_missing)
{
    char *args = join("argument_", 30, ", ");
    char *src = format("int a;\n    f(%s);\nint b;\n    g(%s);", args, args);
    char *out = wrap(src);
    cr_expect(strncmp(out, "int a;\n    f(argument_0, ", 25) == 0, "got:\n%s", out);
    cr_expect_not_null(strstr(out, ");\nint b;\n    g(argument_0, "));
    cr_expect_neq(out[strlen(out) - 1], '\n', "no newline was added at the end");
    cr_expect_eq(out[strlen(out) - 1], ';');
    expect_lines_fit(out);
    char *a = squeeze(src), *b = squeeze(out);
    cr_expect_str_eq(b, a);
    expect_same_wrapped(src);
    free(args);
    free(src);
    free(out);
    free(a);
    free(b);
}

Test(c_wrap, code_inside_strings_and_comments_is_not_taken_for_code)
{
    /* a long line in a comment that opened lines before: its "(" and "," are words */
    char *args = join("not_code(", 25, ", ");
    char *src = format("/* starts here\n   %s\n*/\n", args);
    char *out = wrap(src);
    expect_lines_fit(out);
    cr_expect_eq(strncmp(out, "/* starts here\n   not_code(0, ", 30), 0, "got:\n%s", out);
    /* a comment opener inside a string literal opens no comment: the long line after it is code */
    char *call_args = join("x", 40, ", ");
    char *src2 = format("    s = \"/*\";\n    f(%s);\n", call_args);
    char *out2 = wrap(src2);
    cr_expect_not_null(strstr(out2, "\n      x"), "the call should be broken and aligned:\n%s", out2);
    expect_same_wrapped(src);
    expect_same_wrapped(src2);
    free(args);
    free(src);
    free(out);
    free(call_args);
    free(src2);
    free(out2);
}
