/* binform: read, check, dump, build and round-trip files of every format bfgen knows.
 * Options follow getopt_long's conventions (--opt=value, --, bundled short options); each
 * command accepts only the options that mean something to it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_runtime.h"
#include "bf_write.h"
#include "commands.h"
#include "document.h"
#include "known_formats.h"
#include "schema_cache.h"

/* what the schema cache's key reads */
const char binform_version[] = BF_RUNTIME_VERSION;

/* Options, as bits of a command's `allowed` set. */
enum {
    OPT_FORMAT = 1 << 0,
    OPT_REVISION = 1 << 1,
    OPT_JSON = 1 << 2,
    OPT_JSON_LINES = 1 << 3,
    OPT_RECURSIVE = 1 << 4,
    OPT_JOBS = 1 << 5,
    OPT_HTML = 1 << 6,
    OPT_OUTPUT = 1 << 7,
    OPT_COMPACT = 1 << 8,
    OPT_KEEP_LAYOUT = 1 << 9,
    OPT_QUIET = 1 << 10,
    OPT_VERBOSE = 1 << 11,
    OPT_COLOR = 1 << 12,
    OPT_NO_SET = 1 << 13,
    OPT_IGNORE = 1 << 14,
    OPT_SCHEMA = 1 << 15,
};
#define OPT_EVERY_COMMAND (OPT_QUIET | OPT_VERBOSE | OPT_COLOR)
#define OPT_READING (OPT_FORMAT | OPT_REVISION | OPT_SCHEMA)

/* getopt_long's values for options without a short form */
enum { LONG_REVISION = 256, LONG_JSON, LONG_JSON_LINES, LONG_HTML, LONG_COMPACT, LONG_KEEP_LAYOUT, LONG_COLOR, LONG_NO_SET,
       LONG_IGNORE, LONG_SCHEMA, LONG_SCHEMA_PATH };

static const struct option long_options[] = {
    {"format", required_argument, NULL, 'f'},
    {"revision", required_argument, NULL, LONG_REVISION},
    {"json", no_argument, NULL, LONG_JSON},
    {"json-lines", no_argument, NULL, LONG_JSON_LINES},
    {"recursive", no_argument, NULL, 'r'},
    {"jobs", required_argument, NULL, 'j'},
    {"html", required_argument, NULL, LONG_HTML},
    {"output", required_argument, NULL, 'o'},
    {"compact", no_argument, NULL, LONG_COMPACT},
    {"keep-layout", no_argument, NULL, LONG_KEEP_LAYOUT},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"no-set", no_argument, NULL, LONG_NO_SET},
    {"ignore", required_argument, NULL, LONG_IGNORE},
    {"schema", required_argument, NULL, LONG_SCHEMA},
    {"schema-path", required_argument, NULL, LONG_SCHEMA_PATH},
    {"color", required_argument, NULL, LONG_COLOR},
    {"colour", required_argument, NULL, LONG_COLOR},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
#define SHORT_OPTIONS ":f:rj:o:qvh"

typedef struct command {
    const char *name;
    int (*run)(const options *o, int argc, char **argv);
    unsigned allowed;
    int min_files, max_files; /* -1: any number */
    const char *synopsis, *summary, *details;
} command;

static const command commands[] = {
    {"check", cmd_check, OPT_READING | OPT_JSON | OPT_JSON_LINES | OPT_RECURSIVE | OPT_JOBS | OPT_NO_SET | OPT_IGNORE | OPT_EVERY_COMMAND, 1,
     -1, "check [OPTIONS] FILE...", "validate files: one line per finding",
     "Reads each file with its format's generated reader and runs its validator. Findings go to\n"
     "standard output, one line each (FILE: error: PATH @0xOFFSET: MESSAGE); nothing is printed\n"
     "for a valid file unless -v. With several files a summary goes to standard error.\n"
     "More than 3 findings of one rule in a file are shown as the first 3 and a note\n"
     "(... and N more like it); --json and --json-lines keep every finding.\n"
     "\n"
     "Every rule has a stable name, FORMAT.Type.NAME: NAME is the rule's schema 'name', else\n"
     "the field its finding points at (p3m.Bone.tail, j3d.Shape.matrix_type), with _2, _3\n"
     "for later rules of a type that would share it; enum and flag checks are FORMAT.Enum.enum\n"
     "and FORMAT.Flags.flags, 'expect' checks FORMAT.Type.field.expect. The grouping note and\n"
     "the JSON output (\"rule\") name it.\n"
     "\n"
     "  -f, --format NAME[.KIND]  read as this format (default: detect by magic, then extension)\n"
     "  --revision NAME           read as this revision of the format\n"
     "  --json                    all findings as one JSON array\n"
     "  --json-lines              one JSON object per file: its status and findings\n"
     "  -r, --recursive           check the files under each directory: a file by its\n"
     "                            extension (any case), or by its magic when it has none;\n"
     "                            the others are skipped\n"
     "  -j, --jobs N              check N files at a time (default 1)\n"
     "  --no-set                  check each file alone, not with the files its schema says\n"
     "                            belong with it (a model's animation streams, its library)\n"
     "  --ignore RULE             drop the findings of RULE, or of every rule whose name\n"
     "                            starts with RULE and a dot (--ignore p3m.Bone); repeatable\n"},
    {"info", cmd_info, OPT_READING | OPT_RECURSIVE | OPT_EVERY_COMMAND, 1, -1, "info [OPTIONS] FILE...",
     "a short summary: format, numbers, counts",
     "  -f, --format NAME[.KIND]  read as this format\n"
     "  --revision NAME           read as this revision of the format\n"
     "  -r, --recursive           the files under each directory\n"},
    {"dump", cmd_dump, OPT_READING | OPT_COMPACT | OPT_EVERY_COMMAND, 1, 1, "dump [OPTIONS] FILE",
     "the parsed file as JSON (lossless: 'binform build' makes it back)",
     "Prints {\"format\", \"kind\", \"revision\", \"root\"}; root holds every field in schema order,\n"
     "and the positions, padding and stray bytes that make the file exact. Enums are\n"
     "{\"name\", \"value\"}, flag sets {\"value\", \"flags\"}, byte fields hex strings, switch fields\n"
     "{\"case\", \"value\", \"raw\"}; integers beyond 2^53 are decimal strings. A structure's named\n"
     "values (schema `values`) are under \"_computed\": shown, not stored (build ignores them).\n"
     "The JSON Schema of each format's dump is installed with the docs\n"
     "(share/binform/docs/FORMAT.schema.json).\n"
     "\n"
     "  -f, --format NAME[.KIND]  read as this format\n"
     "  --revision NAME           read as this revision of the format\n"
     "  --compact                 one line, no indentation\n"},
    {"build", cmd_build, OPT_OUTPUT | OPT_KEEP_LAYOUT | OPT_SCHEMA | OPT_EVERY_COMMAND, 1, 1, "build [OPTIONS] FILE.json -o OUT",
     "a binary file from JSON (as 'binform dump' writes it)",
     "Reads the JSON ('-': standard input) into the format's document and lays the file out\n"
     "with the generated builder: counts, sizes, offsets, string tables, alignment and padding\n"
     "are computed, so an edited dump builds into a consistent file. The file made (this\n"
     "way or with --keep-layout) is read back and validated as 'binform check' does, and the\n"
     "output is replaced only once complete. Refused (exit 1, with the JSON path and line or\n"
     "the file's errors): a key given twice, a number its field cannot hold, bit sub-fields\n"
     "that do not fit or disagree with their number, a file that does not check, a file over\n"
     "8 times the JSON's size (or 1 MiB).\n"
     "\n"
     "  -o, --output OUT   where to write ('-': standard output); required\n"
     "  --keep-layout      write every structure where the JSON says it was (the replay\n"
     "                     writer): an unedited dump gives back the original file byte for byte\n"},
    {"explain", cmd_explain, OPT_READING | OPT_HTML | OPT_EVERY_COMMAND, 1, 1, "explain [OPTIONS] FILE",
     "every byte range with its field, value and doc",
     "  -f, --format NAME[.KIND]  read as this format\n"
     "  --revision NAME           read as this revision of the format\n"
     "  --html OUT                one HTML page instead of text\n"},
    {"roundtrip", cmd_roundtrip, OPT_READING | OPT_RECURSIVE | OPT_EVERY_COMMAND, 1, -1,
     "roundtrip [OPTIONS] FILE...", "read, write back, compare byte for byte",
     "  -f, --format NAME[.KIND]  read as this format\n"
     "  --revision NAME           read as this revision of the format\n"
     "  -r, --recursive           the files under each directory\n"},
    {"textures", cmd_textures, OPT_READING | OPT_OUTPUT | OPT_EVERY_COMMAND, 1, 1, "textures [OPTIONS] FILE -o DIR",
     "every texture of a file as a PNG",
     "Writes each image the format's schema marks (`image:` of a type) as DIR/NAME_N.png,\n"
     "N counting from 0 in the file's order, and prints where each came from. An image whose\n"
     "data is short or whose format is unknown is reported with its field path and offset,\n"
     "and no PNG is written for it (exit 1); the others still are.\n"
     "\n"
     "  -o, --output DIR          the folder for the PNGs (made if missing); required\n"
     "  -f, --format NAME[.KIND]  read as this format\n"
     "  --revision NAME           read as this revision of the format\n"},
    {"formats", cmd_formats, OPT_SCHEMA | OPT_EVERY_COMMAND, 0, 0, "formats", "the formats binform knows", ""},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static const char *const common_help =
    "  --schema FILE.yaml the formats of a schema of your own join the built-in ones for this\n"
    "                     run (one of the same name stands in for the built-in): bfgen and the C\n"
    "                     compiler ($BINFORM_CC, else cc) make them the first time, and they are\n"
    "                     kept in $XDG_CACHE_HOME/binform (else ~/.cache/binform); repeatable\n"
    "  --schema-path DIR  where a schema's imports not found beside it are looked for\n"
    "                     (repeatable; then the folders of $BINFORM_SCHEMA_PATH)\n"
    "  -q, --quiet        print nothing but errors\n"
    "  -v, --verbose      say more (check: an OK line per valid file)\n"
    "  --color WHEN       auto (default: on a terminal, unless NO_COLOR is set), always, never\n"
    "  -h, --help         this text\n";

static const char *const exit_help = "exit status: 0 valid, 1 invalid input, 2 usage or I/O error\n";

static void usage(FILE *out)
{
    fprintf(out, "usage: binform COMMAND [OPTIONS] FILE...\n\ncommands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "  %-10s %s\n", "render", "draw a Tiny3D model with the N64 renderer");
    fprintf(out, "  %-10s %s\n", "help", "help CMD: a command's options");
    fprintf(out,
            "\nA FILE of '-' is standard input. 'binform help CMD' or 'binform CMD --help' lists a\n"
            "command's options; 'binform --version' prints the version.\n\n%s",
            exit_help);
}

static void command_help(const command *c, FILE *out)
{
    fprintf(out, "usage: binform %s\n\n%s.\n\n%s%s%s\n%s", c->synopsis, c->summary, c->details, c->details[0] ? "" : "",
            common_help, exit_help);
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static unsigned option_bit(int val)
{
    switch (val) {
    case 'f': return OPT_FORMAT;
    case LONG_REVISION: return OPT_REVISION;
    case LONG_JSON: return OPT_JSON;
    case LONG_JSON_LINES: return OPT_JSON_LINES;
    case 'r': return OPT_RECURSIVE;
    case 'j': return OPT_JOBS;
    case LONG_HTML: return OPT_HTML;
    case 'o': return OPT_OUTPUT;
    case LONG_COMPACT: return OPT_COMPACT;
    case LONG_KEEP_LAYOUT: return OPT_KEEP_LAYOUT;
    case 'q': return OPT_QUIET;
    case 'v': return OPT_VERBOSE;
    case LONG_COLOR: return OPT_COLOR;
    case LONG_NO_SET: return OPT_NO_SET;
    case LONG_IGNORE: return OPT_IGNORE;
    case LONG_SCHEMA: return OPT_SCHEMA;
    case LONG_SCHEMA_PATH: return OPT_SCHEMA;
    }
    return 0;
}

/* The name an option was given by, for messages: "--format" or "-f". */
static void option_name(int val, char *out, size_t size)
{
    for (const struct option *lo = long_options; lo->name; lo++)
        if (lo->val == val) {
            snprintf(out, size, "--%s", lo->name);
            return;
        }
    snprintf(out, size, "-%c", val);
}

static int usage_error(const command *c, const char *fmt, const char *what)
{
    fprintf(stderr, "binform %s: ", c->name);
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (see 'binform help %s')\n", c->name);
    return EXIT_USAGE;
}

static int parse_jobs(const char *s, int *jobs)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 256)
        return 0;
    *jobs = (int)v;
    return 1;
}

/* The --schema files, in the order given (their formats are loaded once the options are read). */
static const char **schemas, **schema_paths;
static size_t schema_count, schema_path_count;

/* Parses argv (argv[0] is the command) into `o`, and loads the --schema formats; the files
 * are left in argv[*first..argc). */
static int parse_options(const command *c, int argc, char **argv, options *o, int *first)
{
    opterr = 0;
    optind = 1;
    int val;
    while ((val = getopt_long(argc, argv, SHORT_OPTIONS, long_options, NULL)) != -1) {
        char name[32];
        if (val == '?') {
            if (optopt && optopt < 256 && argv[optind - 1][1] != '-')
                snprintf(name, sizeof name, "-%c", optopt);
            else
                snprintf(name, sizeof name, "%s", argv[optind - 1]);
            char *eq = strchr(name, '=');
            if (eq)
                *eq = '\0';
            return usage_error(c, "unknown option '%s'", name);
        }
        if (val == ':') {
            option_name(optopt, name, sizeof name);
            return usage_error(c, "option '%s' needs a value", name);
        }
        if (val == 'h') {
            command_help(c, stdout);
            return -1;
        }
        if (!(c->allowed & option_bit(val))) {
            option_name(val, name, sizeof name);
            return usage_error(c, "option '%s' does not apply to this command", name);
        }
        switch (val) {
        case 'f': o->format = optarg; break;
        case LONG_REVISION: o->revision = optarg; break;
        case LONG_JSON: o->json = 1; break;
        case LONG_JSON_LINES: o->json_lines = 1; break;
        case 'r': o->recursive = 1; break;
        case 'j':
            if (!parse_jobs(optarg, &o->jobs))
                return usage_error(c, "--jobs wants a number from 1 to 256, not '%s'", optarg);
            break;
        case LONG_HTML: o->html = optarg; break;
        case 'o': o->output = optarg; break;
        case LONG_COMPACT: o->compact = 1; break;
        case LONG_KEEP_LAYOUT: o->keep_layout = 1; break;
        case 'q': o->quiet = 1; break;
        case LONG_NO_SET: o->no_set = 1; break;
        case LONG_IGNORE:
            if (o->ignore_count == (int)(sizeof o->ignore / sizeof *o->ignore))
                return usage_error(c, "%s", "more than 32 --ignore options");
            o->ignore[o->ignore_count++] = optarg;
            break;
        case LONG_SCHEMA:
        case LONG_SCHEMA_PATH: {
            size_t *count = val == LONG_SCHEMA ? &schema_count : &schema_path_count;
            const char ***list = val == LONG_SCHEMA ? &schemas : &schema_paths;
            const char **grown = realloc(*list, (*count + 1) * sizeof *grown);
            if (!grown)
                return usage_error(c, "%s", "out of memory");
            *list = grown;
            grown[(*count)++] = optarg;
            break;
        }
        case 'v': o->verbose = 1; break;
        case LONG_COLOR:
            if (strcmp(optarg, "auto") == 0)
                o->color = COLOR_AUTO;
            else if (strcmp(optarg, "always") == 0)
                o->color = COLOR_ALWAYS;
            else if (strcmp(optarg, "never") == 0)
                o->color = COLOR_NEVER;
            else
                return usage_error(c, "--color is auto, always or never, not '%s'", optarg);
            break;
        }
    }
    if (o->quiet && o->verbose)
        return usage_error(c, "%s", "-q and -v together");
    if (o->json && o->json_lines)
        return usage_error(c, "%s", "--json and --json-lines together");
    *first = optind;
    if (schema_path_count && !schema_count)
        return usage_error(c, "%s", "--schema-path without --schema");
    if (schema_count) {
        int status;
        schema_request req = {schemas, schema_count, schema_paths, schema_path_count};
        const bf_format_desc *const *formats = schema_formats(&req, &status);
        if (!formats)
            return status;
        if (!known_formats_add(formats))
            return usage_error(c, "%s", "out of memory");
    }
    return 0;
}

static int help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "render") == 0) {
        char *args[] = {"--help", NULL};
        return cmd_render(1, args);
    }
    const command *c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "binform help: no command '%s'\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
    }
    command_help(c, stdout);
    return 0;
}

static int first_stdout_errno;

int stdout_failed(void)
{
    if (!ferror(stdout))
        return 0;
    if (!first_stdout_errno) /* called right after the writes: their errno */
        first_stdout_errno = errno;
    return 1;
}

int stdout_errno(void) { return first_stdout_errno; }

/* Standard output is buffered: a full disk or a closed file behind it shows only when the
 * buffer is written, maybe at exit. Every command's report is flushed and closed here, and a
 * report that did not all reach its file is an I/O error (exit 2), never a silent success. */
static int finish_output(const char *name, int status)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0) {
        if (!first_stdout_errno) /* what the last write said: the first failure's reason */
            first_stdout_errno = errno;
        failed = 1;
    }
    errno = 0;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        first_stdout_errno = errno;
    }
    if (!failed)
        return status;
    if (first_stdout_errno)
        fprintf(stderr, "binform%s%s: cannot write standard output: %s\n", name ? " " : "", name ? name : "",
                strerror(first_stdout_errno));
    else
        fprintf(stderr, "binform%s%s: cannot write standard output: the report is incomplete\n", name ? " " : "",
                name ? name : "");
    return EXIT_USAGE;
}

/* SIGTERM, SIGINT, SIGHUP (or SIGXFSZ: a file size limit reached) during a save: remove its
 * temporary file, then die of the signal as if never caught (the handler is reset first), so
 * the parent sees the same status. */
static void on_signal(int sig)
{
    bf_save_remove_temporaries();
    raise(sig);
}

/* A large input is mapped, not read (document.c): if the file shrinks while it is read, the
 * missing pages fault. A clear error and exit 2, not a crash. */
static void on_bus_error(int sig)
{
    (void)sig;
    static const char msg[] = "binform: error: an input file shrank while it was read (SIGBUS)\n";
    bf_save_remove_temporaries();
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(EXIT_USAGE);
}

static void catch_signals(void)
{
    struct sigaction bus;
    memset(&bus, 0, sizeof bus);
    bus.sa_handler = on_bus_error;
    sigemptyset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, NULL);
    static const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGXFSZ};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        /* a signal the caller ignores (nohup) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    catch_signals();
    int status = run(argc, argv);
    return finish_output(argc > 1 && argv[1][0] != '-' ? argv[1] : NULL, status);
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0) {
        printf("binform %s\n", BF_RUNTIME_VERSION);
        return 0;
    }
    if (strcmp(name, "help") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(name, "render") == 0)
        return cmd_render(argc - 2, argv + 2);
    if (name[0] == '-') {
        fprintf(stderr, "binform: the command comes first: binform COMMAND [OPTIONS] FILE... ('%s' given)\n", name);
        usage(stderr);
        return EXIT_USAGE;
    }
    const command *c = find_command(name);
    if (!c) {
        fprintf(stderr, "binform: unknown command '%s'\n", name);
        usage(stderr);
        return EXIT_USAGE;
    }
    options o = {0};
    int first = 0;
    int rc = parse_options(c, argc - 1, argv + 1, &o, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    int nfiles = argc - 1 - first;
    char **files = argv + 1 + first;
    if (nfiles < c->min_files)
        return usage_error(c, "%s", "no file given");
    if (c->max_files >= 0 && nfiles > c->max_files) {
        if (c->max_files == 0)
            return usage_error(c, "takes no file ('%s' given)", files[0]);
        return usage_error(c, "takes one file ('%s' is a second)", files[1]);
    }
    return c->run(&o, nfiles, files);
}
