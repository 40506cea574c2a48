/* binform: read, check, dump and round-trip files of every format bfgen knows. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "document.h"

#define BINFORM_VERSION "0.1.0"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: binform COMMAND [OPTIONS] FILE...\n"
            "\n"
            "commands:\n"
            "  check [--format NAME] [--json] FILE...\n"
            "                                 validate: one line per finding (JSON with --json)\n"
            "  info [--format NAME] FILE...   a short summary: format, numbers, counts\n"
            "  dump [--format NAME] FILE      the parsed file as JSON\n"
            "  explain [--html OUT] FILE      every byte range with its field, value and doc\n"
            "  roundtrip [--format NAME] FILE...\n"
            "                                 read, write back, compare byte for byte\n"
            "  formats                        the formats binform knows\n"
            "  render MODEL.t3dm [-o OUT.png] [--size WxH] [--yaw DEG] [--pitch DEG] [--distance F]\n"
            "         [--anim NAME --time SECONDS]\n"
            "                                 draw a Tiny3D model with the N64 renderer (render --help)\n"
            "\n"
            "options:\n"
            "  --format NAME   read as this format, or NAME.KIND for one kind of its files\n"
            "                  (default: detect by magic, then by extension)\n"
            "  --revision NAME for formats with several layouts: read as this one (default:\n"
            "                  detect; info and dump say which one matched)\n"
            "  --json          check: findings as a JSON array\n"
            "  --help          this text\n"
            "  --version       the version\n"
            "\n"
            "exit status: 0 valid, 1 invalid input, 2 usage or I/O error\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "render") == 0)
        return cmd_render(argc - 2, argv + 2);
    options o = {0};
    char *files[4096];
    int nfiles = 0;
    const char *command = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            printf("binform %s\n", BINFORM_VERSION);
            return 0;
        }
        if (strcmp(a, "--format") == 0 && i + 1 < argc) {
            o.format = argv[++i];
        } else if (strcmp(a, "--revision") == 0 && i + 1 < argc) {
            o.revision = argv[++i];
        } else if (strcmp(a, "--html") == 0 && i + 1 < argc) {
            o.html = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            o.json = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "binform: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!command) {
            command = a;
        } else if (nfiles < (int)(sizeof files / sizeof files[0])) {
            files[nfiles++] = argv[i];
        }
    }
    if (!command) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(command, "formats") == 0)
        return cmd_formats();
    if (nfiles == 0) {
        fprintf(stderr, "binform %s: no file given\n", command);
        return EXIT_USAGE;
    }
    if (strcmp(command, "info") == 0)
        return cmd_info(&o, nfiles, files);
    if (strcmp(command, "dump") == 0)
        return cmd_dump(&o, nfiles, files);
    if (strcmp(command, "explain") == 0)
        return cmd_explain(&o, nfiles, files);
    if (strcmp(command, "check") == 0)
        return cmd_check(&o, nfiles, files);
    if (strcmp(command, "roundtrip") == 0)
        return cmd_roundtrip(&o, nfiles, files);
    fprintf(stderr, "binform: unknown command '%s'\n", command);
    usage(stderr);
    return EXIT_USAGE;
}
