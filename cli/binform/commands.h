/* The binform commands. Each returns the process exit status. */
#ifndef BINFORM_COMMANDS_H
#define BINFORM_COMMANDS_H

typedef struct options {
    const char *format;   /* --format NAME, or NULL to detect */
    const char *revision; /* --revision NAME, or NULL to detect */
    int json;           /* --json */
    const char *html;   /* --html OUT (explain) */
} options;

int cmd_formats(void);
int cmd_info(const options *o, int argc, char **argv);
int cmd_dump(const options *o, int argc, char **argv);
int cmd_explain(const options *o, int argc, char **argv);
int cmd_check(const options *o, int argc, char **argv);
int cmd_roundtrip(const options *o, int argc, char **argv);
/* binform render: its own options (cmd_render.c). */
int cmd_render(int argc, char **argv);

#endif
