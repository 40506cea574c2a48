/* The files a command works on: its arguments, with directories walked under -r. */
#ifndef BINFORM_INPUTS_H
#define BINFORM_INPUTS_H

#include <stddef.h>

typedef struct file_list {
    char **paths;
    unsigned char *walked; /* 1: found by walking a directory (files of no format are skipped) */
    size_t count, cap;
} file_list;

/* Fills `l` from the arguments; a directory is walked (sorted, depth first) when
 * `recursive`, else passed on to be refused. Returns 0, or EXIT_USAGE with the reason
 * on stderr. No limit on the number of files. */
int file_list_build(file_list *l, int argc, char **argv, int recursive);
void file_list_free(file_list *l);

#endif
