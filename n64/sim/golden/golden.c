/* Golden test runner: parses NAME.toml, assembles its program, runs each
 * input set and compares DMEM at 0x800 with NAME.golden. The RSP is not
 * reset between the tests of one program, as on the console that recorded
 * them (which ran them back to back). */
#define _POSIX_C_SOURCE 200809L

#include "golden.h"

#include "../rsp.h"
#include "bass_asm.h"
#include "toml_subset.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef N64_PROJECT_ROOT
#define N64_PROJECT_ROOT "."
#endif

#define OUTPUT_ADDRESS 0x800u
#define CYCLE_BUDGET 100000u
#define MAX_RECORDS 256

typedef struct record {
    const char *name;
    unsigned size;
    unsigned offset;
    bool is_vector;
} record_t;

typedef struct program {
    const char *name;
    record_t outputs[MAX_RECORDS];
    size_t output_count;
    unsigned output_size;
    FILE *report;
    size_t report_budget;
    size_t suppressed;
} program_t;

/* Known differences between a shared NAME.toml and the program that was
 * actually run on the console when NAME.golden was recorded. The recorded
 * binary of lsv_ssv (r64emu's lsv_ssv.rsp) loads the offset from $10, the
 * first word of "prev", while the TOML text was later changed to $20; the
 * golden bytes only make sense for the recorded program (they show loads
 * from, and stores to, far outside the input area). The harness applies the
 * edit and says so on its report stream. */
static const struct erratum {
    const char *program;
    const char *recorded_source;
    const char *toml_source;
} errata[] = {
    {"lsv_ssv.toml", "lw t4,$10(a0)", "lw t4,$20(a0)"},
};

/* Returns a copy of source with the program's errata applied (NULL on a
 * failed allocation); reports each one. */
static char *apply_errata(const char *program, const char *source, FILE *report)
{
    char *text = malloc(strlen(source) + 1);
    if (!text)
        return NULL;
    strcpy(text, source);
    for (size_t i = 0; i < sizeof(errata) / sizeof(errata[0]); i++) {
        /* Same-length edits only, so the copy never needs to grow. */
        char *at = strstr(text, errata[i].toml_source);
        size_t length = strlen(errata[i].recorded_source);
        if (strcmp(errata[i].program, program) != 0 || !at || length != strlen(errata[i].toml_source))
            continue;
        memcpy(at, errata[i].recorded_source, length);
        fprintf(report, "%s: note: running '%s' instead of '%s', as in the recorded binary\n", program,
                errata[i].recorded_source, errata[i].toml_source);
    }
    return text;
}

const char *golden_default_directory(void)
{
    const char *from_environment = getenv("RSP_GOLDEN_DIR");
    return from_environment && *from_environment ? from_environment : N64_PROJECT_ROOT "/../shared/rsp-golden";
}

bool golden_directory_exists(const char *directory)
{
    struct stat info;
    return stat(directory, &info) == 0 && S_ISDIR(info.st_mode);
}

static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    char *data = NULL;
    size_t length = 0, capacity = 0;
    for (;;) {
        if (length + 4096 + 1 > capacity) {
            capacity = (length + 4096 + 1) * 2;
            char *bigger = realloc(data, capacity);
            if (!bigger) {
                free(data);
                fclose(file);
                return NULL;
            }
            data = bigger;
        }
        size_t n = fread(data + length, 1, 4096, file);
        length += n;
        if (n < 4096)
            break;
    }
    fclose(file);
    data[length] = '\0';
    *size = length;
    return data;
}

static void say(program_t *program, const char *fmt, ...)
{
    if (program->report_budget == 0) {
        program->suppressed++;
        return;
    }
    program->report_budget--;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(program->report, fmt, ap);
    va_end(ap);
}

/* Parses "v128:name" / "u32:name" / "u64:name" descriptors. */
static bool parse_records(const toml_value_t *list, record_t *records, size_t *count, unsigned *total, FILE *report,
                          const char *program)
{
    if (!list || list->kind != TOML_ARRAY || list->count > MAX_RECORDS) {
        fprintf(report, "%s: missing or oversized record list\n", program);
        return false;
    }
    *total = 0;
    for (size_t i = 0; i < list->count; i++) {
        const char *text = list->items[i].kind == TOML_STRING ? list->items[i].string : "";
        const char *colon = strchr(text, ':');
        unsigned size = strncmp(text, "v128:", 5) == 0 ? 16 : strncmp(text, "u64:", 4) == 0 ? 8
                                                          : strncmp(text, "u32:", 4) == 0   ? 4
                                                                                            : 0;
        if (!colon || size == 0) {
            fprintf(report, "%s: unsupported record '%s'\n", program, text);
            return false;
        }
        records[i] = (record_t){.name = colon + 1, .size = size, .offset = *total, .is_vector = size == 16};
        *total += size;
    }
    *count = list->count;
    return true;
}

static uint64_t big_endian(const uint8_t *bytes, unsigned size)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < size; i++)
        value = (value << 8) | bytes[i];
    return value;
}

/* Compares one test's outputs; returns true when every byte matches. */
static bool compare_outputs(program_t *program, const char *test, const uint8_t *expected, const uint8_t *actual)
{
    bool match = true;
    for (size_t r = 0; r < program->output_count; r++) {
        const record_t *record = &program->outputs[r];
        const uint8_t *want = expected + record->offset, *got = actual + record->offset;
        if (memcmp(want, got, record->size) == 0)
            continue;
        match = false;
        if (record->is_vector) {
            for (unsigned lane = 0; lane < 8; lane++)
                if (memcmp(want + 2 * lane, got + 2 * lane, 2) != 0)
                    say(program, "%s: test '%s' output '%s' lane %u: expected %04llx, got %04llx\n", program->name,
                        test, record->name, lane, (unsigned long long)big_endian(want + 2 * lane, 2),
                        (unsigned long long)big_endian(got + 2 * lane, 2));
        } else {
            say(program, "%s: test '%s' output '%s': expected %0*llx, got %0*llx\n", program->name, test,
                record->name, (int)record->size * 2, (unsigned long long)big_endian(want, record->size),
                (int)record->size * 2, (unsigned long long)big_endian(got, record->size));
        }
    }
    return match;
}

static bool run_tests(program_t *program, const toml_table_array_t *tests, const uint8_t *code, size_t code_size,
                      const uint8_t *golden, golden_summary_t *summary)
{
    rsp_t *rsp = malloc(sizeof(*rsp));
    if (!rsp)
        return false;
    rsp_init(rsp, NULL, 0);
    rsp_load_imem(rsp, 0, code, code_size);

    for (size_t t = 0; t < tests->count; t++) {
        const toml_value_t *name = toml_get(&tests->tables[t], "name");
        const toml_value_t *input = toml_get(&tests->tables[t], "input");
        const char *test_name = name && name->kind == TOML_STRING ? name->string : "?";
        summary->cases++;
        if (!input || input->kind != TOML_ARRAY) {
            fprintf(program->report, "%s: test '%s' has no input list\n", program->name, test_name);
            continue;
        }
        for (size_t w = 0; w < input->count; w++)
            rsp_dmem_write32(rsp, (uint32_t)(4 * w), (uint32_t)input->items[w].integer);

        rsp_start(rsp, 0);
        if (rsp_run(rsp, CYCLE_BUDGET) != RSP_STOP_BREAK) {
            fprintf(program->report, "%s: test '%s' did not reach break within %u cycles\n", program->name, test_name,
                    CYCLE_BUDGET);
            continue;
        }
        uint8_t actual[RSP_MEM_SIZE];
        for (unsigned i = 0; i < program->output_size; i++)
            actual[i] = rsp_dmem_read8(rsp, OUTPUT_ADDRESS + i);
        if (compare_outputs(program, test_name, golden + t * program->output_size, actual))
            summary->matched++;
    }
    free(rsp);
    return true;
}

bool golden_run_program(const char *toml_path, FILE *report, size_t max_report_lines, golden_summary_t *summary)
{
    bool ok = false;
    size_t text_size = 0, golden_size = 0;
    char error[256];
    char *golden_path = malloc(strlen(toml_path) + 8);
    char *text = read_file(toml_path, &text_size);
    uint8_t *golden = NULL;
    uint8_t code[RSP_MEM_SIZE];
    size_t code_size = 0;
    char *recorded_source = NULL;
    toml_document_t doc;
    program_t program = {.name = toml_path, .report = report, .report_budget = max_report_lines};
    const char *slash = strrchr(toml_path, '/');
    if (slash)
        program.name = slash + 1;

    if (!golden_path || !text) {
        fprintf(report, "%s: cannot read\n", toml_path);
        goto out;
    }
    strcpy(golden_path, toml_path);
    char *dot = strrchr(golden_path, '.');
    strcpy(dot ? dot : golden_path + strlen(golden_path), ".golden");
    golden = (uint8_t *)read_file(golden_path, &golden_size);
    if (!golden) {
        fprintf(report, "%s: cannot read %s\n", program.name, golden_path);
        goto out;
    }
    if (!toml_parse(text, &doc, error, sizeof(error))) {
        fprintf(report, "%s: %s\n", program.name, error);
        goto out;
    }
    const toml_value_t *source = toml_get(&doc.root, "rsp_code");
    const toml_table_array_t *tests = toml_get_table_array(&doc, "test");
    if (!source || source->kind != TOML_STRING || !tests) {
        fprintf(report, "%s: needs rsp_code and [[test]] entries\n", program.name);
    } else if (!parse_records(toml_get(&doc.root, "output_desc"), program.outputs, &program.output_count,
                              &program.output_size, report, program.name)) {
        /* reported by parse_records */
    } else if (program.output_size > RSP_MEM_SIZE - OUTPUT_ADDRESS ||
               golden_size != tests->count * program.output_size) {
        fprintf(report, "%s: %zu golden bytes for %zu tests of %u bytes\n", program.name, golden_size, tests->count,
                program.output_size);
    } else if (!(recorded_source = apply_errata(program.name, source->string, report))) {
        fprintf(report, "%s: out of memory\n", program.name);
    } else if (!bass_assemble(recorded_source, code, sizeof(code), &code_size, error, sizeof(error))) {
        fprintf(report, "%s: rsp_code %s\n", program.name, error);
    } else {
        summary->programs++;
        ok = run_tests(&program, tests, code, code_size, golden, summary);
        if (program.suppressed)
            fprintf(report, "%s: %zu more mismatching values not shown\n", program.name, program.suppressed);
    }
    free(recorded_source);
    toml_free(&doc);
out:
    free(golden);
    free(text);
    free(golden_path);
    return ok;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool golden_run_directory(const char *directory, FILE *report, size_t max_report_lines, golden_summary_t *summary)
{
    DIR *dir = opendir(directory);
    if (!dir) {
        fprintf(report, "cannot open %s\n", directory);
        return false;
    }
    char **names = NULL;
    size_t count = 0;
    bool ok = true;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        size_t length = strlen(entry->d_name);
        if (length < 6 || strcmp(entry->d_name + length - 5, ".toml") != 0)
            continue;
        char **bigger = realloc(names, (count + 1) * sizeof(*names));
        char *path = malloc(strlen(directory) + length + 2);
        if (!bigger || !path) {
            free(bigger ? bigger : names);
            free(path);
            closedir(dir);
            return false;
        }
        names = bigger;
        sprintf(path, "%s/%s", directory, entry->d_name);
        names[count++] = path;
    }
    closedir(dir);
    qsort(names, count, sizeof(*names), compare_names);
    for (size_t i = 0; i < count; i++) {
        ok = golden_run_program(names[i], report, max_report_lines, summary) && ok;
        free(names[i]);
    }
    free(names);
    return ok && count > 0;
}
