/* bfgen: schemas/<format>.yaml -> generated C readers, writers, validators and docs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "model.h"
#include "yaml_tree.h"

#ifndef BFGEN_TEMPLATE_DIR
#define BFGEN_TEMPLATE_DIR "generator/templates"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: bfgen [--out DIR] [--templates DIR] [--check] [--syntax-only] SCHEMA.yaml...\n"
            "  --out DIR        where generated files go (default: generated)\n"
            "  --templates DIR  the Lua templates (default: %s)\n"
            "  --check          write nothing; fail if any generated file differs\n"
            "  --syntax-only    check the schemas, generate nothing\n"
            "  --report NAME    run templates/report_NAME.lua over the schemas; arguments after\n"
            "                   '--' go to the report\n",
            BFGEN_TEMPLATE_DIR);
}

int main(int argc, char **argv)
{
    const char *out_dir = "generated", *template_dir = BFGEN_TEMPLATE_DIR;
    int check = 0, syntax_only = 0;
    const char *report = NULL;
    int report_argc = 0;
    char **report_argv = NULL;
    format **formats = pool_alloc(sizeof *formats * (size_t)argc);
    size_t count = 0;
    const char **schemas = pool_alloc(sizeof *schemas * (size_t)argc);
    size_t nschemas = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--out") == 0 || strcmp(a, "--templates") == 0) && i + 1 < argc) {
            *(a[2] == 'o' ? &out_dir : &template_dir) = argv[++i];
        } else if (strcmp(a, "--report") == 0 && i + 1 < argc) {
            report = argv[++i];
        } else if (strcmp(a, "--") == 0) {
            report_argc = argc - i - 1;
            report_argv = argv + i + 1;
            break;
        } else if (strcmp(a, "--check") == 0) {
            check = 1;
        } else if (strcmp(a, "--syntax-only") == 0) {
            syntax_only = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bfgen: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            schemas[nschemas++] = a;
        }
    }
    if (!nschemas) {
        usage(stderr);
        return 2;
    }
    for (size_t i = 0; i < nschemas; i++) {
        int before = diag_error_count();
        ynode *doc = yaml_load_file(schemas[i]);
        if (!doc)
            continue;
        format *f = model_build(doc);
        model_check(f);
        for (size_t j = 0; j < count; j++)
            if (strcmp(formats[j]->name, f->name) == 0)
                diag_error(f->loc, "format '%s' is also defined by %s", f->name, formats[j]->file);
        if (diag_error_count() == before)
            formats[count++] = f;
    }
    int status = 0;
    if (diag_error_count()) {
        fprintf(stderr, "bfgen: %d error%s\n", diag_error_count(), diag_error_count() == 1 ? "" : "s");
        status = 1;
    } else if (report) {
        status = emit_report(formats, count, template_dir, report, report_argc, report_argv);
    } else if (!syntax_only) {
        status = emit_all(formats, count, template_dir, out_dir, check);
    }
    pool_release_all();
    return status;
}
