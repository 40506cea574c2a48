/* The binform commands. Each returns the process exit status. */
#ifndef BINFORM_COMMANDS_H
#define BINFORM_COMMANDS_H

#include "term.h"

typedef struct options {
    const char *format;   /* --format NAME, or NULL to detect */
    const char *revision; /* --revision NAME, or NULL to detect */
    int json;             /* --json (check) */
    const char *html;     /* --html OUT (explain) */
    const char *output;   /* -o OUT (build) */
    int json_lines;       /* --json-lines (check) */
    int recursive;        /* -r: walk directories */
    int jobs;             /* --jobs N (check); 0: one */
    int no_set;           /* --no-set (check): the file alone, without its set's members */
    const char *ignore[32]; /* --ignore RULE (check), repeatable: findings of these rules are dropped */
    int ignore_count;
    int quiet, verbose;   /* -q, -v */
    int compact;          /* --compact (dump) */
    int keep_layout;      /* --keep-layout (build) */
    color_mode color;     /* --color WHEN */
} options;

struct document;
/* Loads each file the arguments name (directories walked under -r, files of no format found
 * there skipped), reports those that cannot be read on stderr, and hands the others to `use`,
 * which returns an exit status. Returns the worst status. */
int each_document(const options *o, int argc, char **argv, int (*use)(const options *o, struct document *d));

/* 1 once a write to standard output has failed (a full disk, a closed file); remembers the
 * first failure's errno for the message main prints at exit. A long report stops there. */
int stdout_failed(void);
/* The errno stdout_failed saw, 0 when none. */
int stdout_errno(void);

int cmd_formats(const options *o, int argc, char **argv);
int cmd_info(const options *o, int argc, char **argv);
int cmd_dump(const options *o, int argc, char **argv);
int cmd_build(const options *o, int argc, char **argv);
int cmd_explain(const options *o, int argc, char **argv);
int cmd_check(const options *o, int argc, char **argv);
int cmd_roundtrip(const options *o, int argc, char **argv);
int cmd_textures(const options *o, int argc, char **argv);
/* binform render: its own options (cmd_render.c). */
int cmd_render(int argc, char **argv);

#endif
