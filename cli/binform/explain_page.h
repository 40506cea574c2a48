/* The explain page's style and behaviour, kept as explain_page.css and explain_page.js and
 * built into binform by embed_files.sh (the Makefile): explain_html.c writes them into every
 * page, around the data it writes for them. */
#ifndef BINFORM_EXPLAIN_PAGE_H
#define BINFORM_EXPLAIN_PAGE_H

extern const char explain_page_css[];
extern const char explain_page_js[];

#endif
