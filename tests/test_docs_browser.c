/* The generated documentation and binform's explain pages in a real browser (headless
 * Chromium): each page renders, its script runs, nothing is logged to the console, every
 * relative link and anchor resolves, and screenshots are kept under build/screenshots/. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "samples.h"

#define DOCS_DIR BF_PROJECT_DIR "/generated/docs"
#define EXPLAIN_DIR BF_PROJECT_DIR "/build/explain"
#define SHOTS_DIR BF_PROJECT_DIR "/build/screenshots"
#define BINFORM BF_PROJECT_DIR "/build/san/bin/binform" /* with the sanitizers, like every test */

/* ---- files ---- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *s = malloc(cap + 1);
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *t = realloc(s, (cap *= 2) + 1);
            if (!t)
                free(s);
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- the browser ---- */

static const char *chromium(void)
{
    static char found[1024];
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", path);
    for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(found, sizeof found, "%s/chromium", d);
        if (access(found, X_OK) == 0)
            return found;
    }
    return NULL;
}

#define REQUIRE_CHROMIUM()                                                                              \
    do {                                                                                                \
        if (!chromium())                                                                                \
            cr_skip_test("chromium is not installed (Debian package 'chromium', in TEST_PKGS: "          \
                         "run 'make test-deps'); skipping the browser checks");                        \
    } while (0)

typedef struct page {
    char *dom;     /* the DOM after the scripts ran (--dump-dom), or NULL for screenshots */
    char *console; /* the CONSOLE lines Chromium logged: messages, warnings, uncaught errors */
    int status;
} page;

/* Opens `url` in a fresh profile; dumps the DOM, or saves a screenshot of the given size. */
static page browse(const char *url, const char *screenshot, const char *size)
{
    page p = {NULL, NULL, -1};
    char profile[] = "/tmp/bf_chromium_XXXXXX";
    cr_assert_not_null(mkdtemp(profile));
    char out[600], log[600], cmd[8192];
    snprintf(out, sizeof out, "%s/out.html", profile);
    snprintf(log, sizeof log, "%s/log.txt", profile);
    char mode[1200];
    if (screenshot)
        snprintf(mode, sizeof mode, "--window-size=%s --screenshot='%s'", size, screenshot);
    else
        snprintf(mode, sizeof mode, "--dump-dom");
    snprintf(cmd, sizeof cmd,
             "cd '%s' && timeout 120 '%s' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
             "--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars "
             "--user-data-dir='%s/profile' --enable-logging=stderr --v=0 %s '%s' > '%s' 2> '%s'",
             profile, chromium(), profile, mode, url, out, log);
    int st = system(cmd);
    p.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (!screenshot)
        p.dom = read_text(out);
    char *all = read_text(log);
    size_t cap = all ? strlen(all) + 1 : 1;
    p.console = calloc(1, cap);
    for (char *save, *line = all ? strtok_r(all, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        if (strstr(line, ":CONSOLE")) {
            strcat(p.console, line);
            strcat(p.console, "\n");
        }
    }
    free(all);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", profile);
    cr_expect_eq(system(cmd), 0);
    return p;
}

static void page_free(page *p)
{
    free(p->dom);
    free(p->console);
}

/* Loads the page, expects it to render with `expect` in its DOM and a silent console. */
static char *render(const char *url, const char *const *expect)
{
    page p = browse(url, NULL, NULL);
    cr_expect_eq(p.status, 0, "chromium failed on %s", url);
    cr_assert(p.dom && strstr(p.dom, "</html>"), "%s did not render", url);
    for (size_t i = 0; expect && expect[i]; i++)
        cr_expect(strstr(p.dom, expect[i]) != NULL, "%s: '%s' not in the rendered page", url, expect[i]);
    cr_expect_str_empty(p.console, "%s logged to the console:\n%s", url, p.console);
    char *dom = p.dom;
    p.dom = NULL;
    page_free(&p);
    return dom;
}

static void screenshot(const char *url, const char *name, const char *size)
{
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(SHOTS_DIR, 0777);
    char png[512];
    snprintf(png, sizeof png, "%s/%s", SHOTS_DIR, name);
    remove(png);
    page p = browse(url, png, size);
    char *data = read_text(png);
    cr_expect(data && memcmp(data, "\x89PNG", 4) == 0, "no screenshot of %s in %s", url, png);
    cr_expect_str_empty(p.console, "%s logged to the console:\n%s", url, p.console);
    free(data);
    page_free(&p);
}

/* ---- links ---- */

/* Whether the page has an element with this id. */
static int has_id(const char *html, const char *id)
{
    char needle[1200];
    snprintf(needle, sizeof needle, " id=\"%s\"", id);
    return strstr(html, needle) != NULL;
}

/* Every href of a page points to an existing file and, after '#', to an existing id; nothing
 * is fetched (no src=, no absolute URLs). Returns the number of links checked. */
static int check_links(const char *page_path)
{
    char *html = read_text(page_path);
    cr_assert_not_null(html, "cannot read %s", page_path);
    cr_expect(strstr(html, " src=") == NULL, "%s loads a resource (src=)", page_path);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", page_path);
    *strrchr(dir, '/') = '\0';
    int links = 0;
    for (const char *p = strstr(html, "href=\""); p; p = strstr(p + 1, "href=\"")) {
        const char *start = p + 6, *end = strchr(start, '"');
        cr_assert_not_null(end);
        char target[1024];
        snprintf(target, sizeof target, "%.*s", (int)(end - start), start);
        links++;
        cr_expect(!strstr(target, "://") && strncmp(target, "//", 2) != 0, "%s links outside: %s", page_path, target);
        char *hash = strchr(target, '#');
        if (hash)
            *hash++ = '\0';
        if (target[0]) {
            char file[2200];
            snprintf(file, sizeof file, "%s/%s", dir, target);
            cr_expect(exists(file), "%s: link to a missing file %s", page_path, target);
            if (hash && exists(file)) {
                char *other = read_text(file);
                cr_expect(other && has_id(other, hash), "%s: no id '%s' in %s", page_path, hash, target);
                free(other);
            }
        } else if (hash) {
            cr_expect(has_id(html, hash), "%s: link to a missing anchor #%s", page_path, hash);
        }
    }
    free(html);
    return links;
}

/* The doc pages: index.html and one page per format. */
static int doc_pages(char names[][256], int max)
{
    DIR *d = opendir(DOCS_DIR);
    cr_assert_not_null(d, "%s is missing (make generate)", DOCS_DIR);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".html") == 0)
            snprintf(names[n++], 256, "%s", e->d_name);
    }
    closedir(d);
    return n;
}

/* ---- explain pages ---- */

typedef struct sample {
    const char *path;
    char page[512];
} sample;

/* Writes build/explain/NAME.html for each file with binform explain --html. */
static int explain_pages(sample *s, int max)
{
    cr_assert(access(BINFORM, X_OK) == 0, "%s is missing (the Makefile builds it for the tests)", BINFORM);
    static const char *const real[] = {"t3dm/08_animation/snake.t3dm", "t3dm/18_particles/scene.t3dm",
                                       "t3dm/08_animation/snake.0.sdata"};
    static const char *const own[] = {BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm",
                                      BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata"};
    int n = 0;
    if (samples_present()) {
        for (size_t i = 0; i < sizeof real / sizeof real[0] && n < max; i++)
            s[n++].path = sample_path(real[i]);
    } else {
        /* a note, not cr_log_warn: Criterion exits non-zero after a warning, which would fail
         * `make test SHARED=/nonexistent` although every test passes */
        fprintf(stderr,
                "docs_browser: shared samples not found at %s: explaining the project's own model (no BVH chunk)\n",
                sample_path(""));
        for (size_t i = 0; i < sizeof own / sizeof own[0] && n < max; i++)
            s[n++].path = own[i];
    }
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(EXPLAIN_DIR, 0777);
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(s[i].path, '/') + 1;
        snprintf(s[i].page, sizeof s[i].page, "%s/%s.html", EXPLAIN_DIR, base);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "'%s' explain --html '%s' '%s'", BINFORM, s[i].page, s[i].path);
        cr_assert_eq(system(cmd), 0, "%s failed", cmd);
    }
    return n;
}

/* Whether the field the script selected (class "n hl") has a byte range that holds `byte`. */
static int selected_holds(const char *dom, unsigned long long byte)
{
    const char *sel = dom ? strstr(dom, "class=\"n hl\"") : NULL;
    const char *range = sel ? strstr(sel, "class=\"g\">") : NULL;
    const char *next = sel ? strstr(sel + 1, "class=\"n") : NULL;
    unsigned long long first, last;
    if (!range || (next && next < range) || sscanf(range, "class=\"g\">0x%llx..0x%llx", &first, &last) != 2)
        return 0;
    return first <= byte && byte <= last;
}

/* ---- the tests ---- */

Test(docs_browser, links_and_anchors_resolve)
{
    char names[64][256];
    int n = doc_pages(names, 64);
    cr_assert_geq(n, 2, "expected index.html and a page per format in %s", DOCS_DIR);
    int links = 0;
    for (int i = 0; i < n; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", DOCS_DIR, names[i]);
        links += check_links(path);
    }
    cr_expect_gt(links, 100, "the pages link their types, fields and enums (%d links)", links);
}

Test(docs_browser, index_renders)
{
    REQUIRE_CHROMIUM();
    static const char *const expect[] = {"binform formats", "href=\"t3dm.html\"", "Tiny3D model (T3DM)", NULL};
    free(render("file://" DOCS_DIR "/index.html", expect));
    screenshot("file://" DOCS_DIR "/index.html", "docs_index.png", "1280,700");
}

Test(docs_browser, format_pages_render)
{
    REQUIRE_CHROMIUM();
    char names[64][256];
    int n = doc_pages(names, 64);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "index.html") == 0)
            continue;
        char url[600];
        snprintf(url, sizeof url, "file://%s/%s", DOCS_DIR, names[i]);
        static const char *const expect[] = {"<h2 id=\"files\">", "<h2 id=\"types\">", NULL};
        free(render(url, expect));
    }
    static const char *const t3dm[] = {"id=\"type-Part\"", "id=\"enum-ChunkType\"", "<h2 id=\"errata\">",
                                       "class=\"layout\"", "Validation rules of Header", "document: 0x0A",
                                       "Not in real files", NULL};
    free(render("file://" DOCS_DIR "/t3dm.html", t3dm));
    screenshot("file://" DOCS_DIR "/t3dm.html", "docs_t3dm.png", "1280,2400");
}

Test(docs_browser, explain_pages_render_and_link_bytes_to_fields)
{
    REQUIRE_CHROMIUM();
    sample s[8];
    int n = explain_pages(s, 8);
    /* every chunk type appears in some page: the structures by their case, raw bytes for I */
    static const char *const cases[] = {"(case O)", "(case A)", "(case V)", "(case M)", "(case S)", "(case I", "(case B)"};
    size_t need = samples_present() ? 7 : 6;
    for (size_t c = 0; c < need; c++) {
        int seen = 0;
        for (int i = 0; i < n; i++) {
            char *html = read_text(s[i].page);
            seen |= html && strstr(html, cases[c]) != NULL;
            free(html);
        }
        cr_expect(seen, "no explain page shows a chunk %s", cases[c]);
    }
    for (int i = 0; i < n; i++) {
        check_links(s[i].page);
        /* byte 0x2C is in the chunk table of a model (and in the middle of a small stream);
         * the script selects the field holding it and highlights its bytes */
        uint8_t *data;
        size_t size;
        cr_assert(load_file(s[i].path, &data, &size));
        free(data);
        unsigned long long byte = size > 0x2C ? 0x2C : size / 2;
        char url[700];
        snprintf(url, sizeof url, "file://%s#byte=%llu", s[i].page, byte);
        static const char *const expect[] = {"id=\"hex\"", "id=\"tree\"", "class=\"n hl\"", "<i class=\"hl\">", NULL};
        char *dom = render(url, expect);
        cr_expect(selected_holds(dom, byte), "%s: the selected field does not hold byte %llu", s[i].page, byte);
        free(dom);
    }
    char url[700];
    snprintf(url, sizeof url, "file://%s#byte=44", s[0].page);
    screenshot(url, "explain.png", "1400,900");
}
