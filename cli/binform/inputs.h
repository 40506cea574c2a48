/* The files a command works on: its arguments, with directories walked under -r. */
#ifndef BINFORM_INPUTS_H
#define BINFORM_INPUTS_H

#include <stddef.h>

typedef struct file_list {
    char **paths;
    unsigned char *walked; /* 1: found by walking a directory (files of no format are skipped) */
    char **problems;       /* the walk could not read this path (a dangling link, a loop, a
                            * name too long, a folder it may not open): why, "PATH: error: ...";
                            * NULL for a file to read */
    size_t count, cap;
} file_list;

/* Fills `l` from the arguments; a directory is walked (sorted, depth first) when
 * `recursive`, else passed on to be refused. A path found by the walk that cannot be read is
 * listed with its problem, for the command to report and count. Returns 0, or EXIT_USAGE
 * with the reason on stderr. No limit on the number of files. */
int file_list_build(file_list *l, int argc, char **argv, int recursive);
void file_list_free(file_list *l);

#endif
