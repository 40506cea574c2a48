/* bfgen: schemas/<format>.yaml -> generated C readers, writers, validators and docs. */
#define _DEFAULT_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_version.h"
#include "emit.h"
#include "imports.h"
#include "ksy_import.h"
#include "model.h"
#include "yaml_tree.h"

#ifndef BFGEN_TEMPLATE_DIR
#define BFGEN_TEMPLATE_DIR "generator/templates"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: bfgen [OPTIONS] SCHEMA.yaml...\n"
            "       bfgen import FILE.ksy [-I DIR]... -o FILE.yaml   (a Kaitai Struct format)\n"
            "  -o, --out DIR        where generated files go (default: generated)\n"
            "  --emit PARTS         only these, comma-separated: header, reader, writer, validator,\n"
            "                       access, meta, index, docs, view (default: all), or view-same (the\n"
            "                       views' agreement checks with the reader, for tests; never by\n"
            "                       default). What a part needs comes with it: reader brings header\n"
            "                       and access; meta brings reader, writer and validator; index brings\n"
            "                       meta; validator brings the views it reads through\n"
            "  --templates DIR      the Lua templates (default: found beside bfgen, see below)\n"
            "  --check              write nothing; fail if any generated file differs\n"
            "  --syntax-only        check the schemas, generate nothing\n"
            "  --schema-path DIR    where imports not found beside their importer are looked for\n"
            "                       (repeatable; then the folders of $BINFORM_SCHEMA_PATH, colon-separated)\n"
            "  --depfile FILE       write the files imported, one per line\n"
            "  --report NAME        run templates/report_NAME.lua over the schemas; arguments after\n"
            "                       '--' go to the report\n"
            "  --version            bfgen's version and the runtime it generates for\n"
            "  -h, --help           this text\n"
            "\n"
            "Templates are looked for in DIR/../share/binform/templates and DIR/../../generator/templates,\n"
            "DIR being where bfgen is, then in %s.\n"
            "Generating some formats into a folder that holds others keeps the others in the formats\n"
            "table (formats.h, formats.c).\n",
            BFGEN_TEMPLATE_DIR);
}

static int has_main_lua(const char *dir)
{
    size_t n = strlen(dir);
    char *path = malloc(n + sizeof "/main.lua");
    if (!path)
        return 0;
    memcpy(path, dir, n);
    memcpy(path + n, "/main.lua", sizeof "/main.lua");
    int found = access(path, R_OK) == 0;
    free(path);
    return found;
}

/* The templates relative to bfgen itself, so that an installed or moved bfgen works. */
static const char *find_templates(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        static const char *const relative[] = {"/../share/binform/templates", "/../../generator/templates"};
        for (size_t i = 0; i < sizeof relative / sizeof relative[0]; i++) {
            snprintf(buf, size, "%s%s", exe, relative[i]);
            if (has_main_lua(buf))
                return buf;
        }
    }
    return BFGEN_TEMPLATE_DIR;
}

static const struct {
    const char *name;
    unsigned bits; /* the part and what it needs */
} parts[] = {
    {"header", EMIT_HEADER},
    {"reader", EMIT_READER | EMIT_ACCESS | EMIT_HEADER},
    {"writer", EMIT_WRITER | EMIT_ACCESS | EMIT_HEADER},
    {"validator", EMIT_VALIDATOR | EMIT_ACCESS | EMIT_HEADER},
    {"access", EMIT_ACCESS | EMIT_HEADER},
    {"meta", EMIT_META | EMIT_READER | EMIT_WRITER | EMIT_VALIDATOR | EMIT_HEADER},
    {"index", EMIT_INDEX | EMIT_META | EMIT_READER | EMIT_WRITER | EMIT_VALIDATOR | EMIT_HEADER},
    {"docs", EMIT_DOCS},
    {"view", EMIT_VIEW | EMIT_HEADER},
    {"view-same", EMIT_VIEW_SAME}, /* beside the views it checks, generated elsewhere */
};

static int parse_parts(const char *list, unsigned *out)
{
    *out = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        size_t i = 0;
        for (; i < sizeof parts / sizeof parts[0]; i++)
            if (strlen(parts[i].name) == n && strncmp(parts[i].name, p, n) == 0)
                break;
        if (i == sizeof parts / sizeof parts[0]) {
            fprintf(stderr, "bfgen: --emit: no part '%.*s' (header, reader, writer, validator, access, meta, index, docs, view, "
                    "view-same)\n",
                    (int)n, p);
            return 0;
        }
        *out |= parts[i].bits;
        p += n + (p[n] == ',');
    }
    return *out != 0;
}

/* The files the schemas imported, one per line (binform's schema cache checks them). */
static int write_depfile(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bfgen: cannot write %s\n", path);
        return 0;
    }
    const ptr_vec *files = imports_files();
    for (size_t i = 0; i < files->len; i++)
        fprintf(f, "%s\n", (const char *)files->items[i]);
    if (fclose(f) != 0) {
        fprintf(stderr, "bfgen: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

enum { OPT_TEMPLATES = 256, OPT_CHECK, OPT_SYNTAX_ONLY, OPT_REPORT, OPT_EMIT, OPT_VERSION, OPT_SCHEMA_PATH, OPT_DEPFILE };

int main(int argc, char **argv)
{
    /* one write per diagnostic, not one per piece of it: a schema can have many */
    setvbuf(stderr, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "import") == 0)
        return ksy_import_main(argc - 1, argv + 1);
    char found[PATH_MAX + 64];
    const char *out_dir = "generated", *template_dir = NULL;
    int check = 0, syntax_only = 0;
    unsigned emit = EMIT_ALL;
    const char *report = NULL, *depfile = NULL;
    int report_argc = 0;
    char **report_argv = NULL;
    /* what follows '--' belongs to the report, not to getopt */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            report_argc = argc - i - 1;
            report_argv = argv + i + 1;
            argc = i;
            break;
        }
    static const struct option options[] = {
        {"out", required_argument, NULL, 'o'},
        {"templates", required_argument, NULL, OPT_TEMPLATES},
        {"check", no_argument, NULL, OPT_CHECK},
        {"syntax-only", no_argument, NULL, OPT_SYNTAX_ONLY},
        {"report", required_argument, NULL, OPT_REPORT},
        {"emit", required_argument, NULL, OPT_EMIT},
        {"version", no_argument, NULL, OPT_VERSION},
        {"schema-path", required_argument, NULL, OPT_SCHEMA_PATH},
        {"depfile", required_argument, NULL, OPT_DEPFILE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int val;
    while ((val = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (val) {
        case 'o': out_dir = optarg; break;
        case OPT_TEMPLATES: template_dir = optarg; break;
        case OPT_CHECK: check = 1; break;
        case OPT_SYNTAX_ONLY: syntax_only = 1; break;
        case OPT_REPORT: report = optarg; break;
        case OPT_SCHEMA_PATH: imports_add_search_dir(optarg); break;
        case OPT_DEPFILE: depfile = optarg; break;
        case OPT_EMIT:
            if (!parse_parts(optarg, &emit))
                return 2;
            break;
        case OPT_VERSION:
            printf("bfgen %s\n", BF_RUNTIME_VERSION);
            return 0;
        case 'h':
            usage(stdout);
            return 0;
        case ':':
            fprintf(stderr, "bfgen: option '%s' needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "bfgen: unknown option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    const char **schemas = (const char **)argv + optind;
    size_t nschemas = (size_t)(argc - optind);
    if (!nschemas) {
        usage(stderr);
        return 2;
    }
    if (!template_dir)
        template_dir = find_templates(found, sizeof found);
    format **formats = pool_alloc(sizeof *formats * nschemas);
    size_t count = 0;
    for (size_t i = 0; i < nschemas; i++) {
        int before = diag_error_count();
        ynode *doc = yaml_load_file(schemas[i]);
        if (!doc || !imports_resolve(doc, schemas[i]))
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
    if (depfile && !write_depfile(depfile))
        status = 2;
    else if (diag_error_count()) {
        fprintf(stderr, "bfgen: %d error%s\n", diag_error_count(), diag_error_count() == 1 ? "" : "s");
        status = 1;
    } else if (report) {
        status = emit_report(formats, count, template_dir, report, report_argc, report_argv);
    } else if (!syntax_only) {
        status = emit_all(formats, count, template_dir, out_dir, check, emit);
    }
    pool_release_all();
    return status;
}
