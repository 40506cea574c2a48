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
#include <time.h>
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
    char *dom;     /* the DOM after the scripts ran (--dump-dom) */
    char *console; /* the CONSOLE lines Chromium logged: messages, warnings, uncaught errors */
    int status;
} page;

/* Runs Chromium on `url` with `flags` and the profile in directory `profile`: the DOM it dumps,
 * the CONSOLE lines it logs, its exit status. */
static page launch(const char *profile, const char *flags, const char *url)
{
    page p = {NULL, NULL, -1};
    char out[600], log[600], cmd[8192];
    snprintf(out, sizeof out, "%s/out.html", profile);
    snprintf(log, sizeof log, "%s/log.txt", profile);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && timeout 120 '%s' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
             "--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars "
             "--user-data-dir='%s/profile' --enable-logging=stderr --v=0 %s '%s' > '%s' 2> '%s'",
             profile, chromium(), profile, flags, url, out, log);
    int st = system(cmd);
    p.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
    return p;
}

static void remove_profile(const char *profile)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", profile);
    cr_expect_eq(system(cmd), 0);
}

/* Opens `url` in a fresh profile and dumps the DOM; with `screenshot`, the same launch also
 * saves a picture of the given window size (one cold start of Chromium instead of two). */
static page browse(const char *url, const char *screenshot, const char *size)
{
    char profile[] = "/tmp/bf_chromium_XXXXXX";
    cr_assert_not_null(mkdtemp(profile));
    char mode[1200];
    if (screenshot)
        snprintf(mode, sizeof mode, "--window-size=%s --screenshot='%s' --dump-dom", size, screenshot);
    else
        snprintf(mode, sizeof mode, "--dump-dom");
    page p = launch(profile, mode, url);
    remove_profile(profile);
    return p;
}

#define FRAMES_MAX 16
#define FRAME_DOM "<pre class=\"frame-dom\">"
#define FRAMES_SCROLL "<pre class=\"frames-scroll\">"

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The text of a FRAME_DOM element (encodeURIComponent's output), decoded; NULL if malformed.
 * (Not sscanf per escape: glibc's measures the whole rest of the string each time, quadratic
 * on the megabytes of a large explain page.) */
static char *uri_decode(const char *s, size_t n)
{
    char *out = malloc(n + 1), *o = out;
    for (size_t i = 0; out && i < n; i++) {
        int hi = s[i] == '%' && i + 2 < n ? hex_digit(s[i + 1]) : -1, lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
        if (s[i] != '%') {
            *o++ = s[i];
        } else if (lo >= 0) {
            *o++ = (char)(hi << 4 | lo);
            i += 2;
        } else {
            free(out);
            return NULL;
        }
    }
    if (out)
        *o = '\0';
    return out;
}

/* Loads all of `urls` in one launch of Chromium instead of one each: a cold start costs
 * about a second of CPU, more than a small page, and large explain pages share the launch as
 * well (four of them framed took 5.4 CPU-s, one launch each 8.6). A page of iframes of the
 * window size `size` ("W,H", as --window-size), whose script copies each frame's DOM, after
 * the frames' own scripts ran, into the page Chromium dumps (URI-encoded: the dump then holds
 * it verbatim). The frames' console lines are the launch's; file URLs may read each other's
 * documents only with --allow-file-access-from-files. With `screenshot`, the same launch
 * saves a picture of the window: the first frame, which covers the others. Fills doms[i]
 * (malloc'd) with the DOM of urls[i], NULL where the page did not load. */
static page browse_frames(const char *const *urls, size_t n, const char *size, const char *screenshot, char **doms)
{
    cr_assert(n <= FRAMES_MAX);
    unsigned w, h;
    cr_assert_eq(sscanf(size, "%u,%u", &w, &h), 2);
    char profile[] = "/tmp/bf_chromium_XXXXXX";
    cr_assert_not_null(mkdtemp(profile));
    char frames[600];
    snprintf(frames, sizeof frames, "%s/frames.html", profile);
    FILE *f = fopen(frames, "w");
    cr_assert_not_null(f);
    /* the frames lie on each other, the first on top, in a page that cannot scroll: a frame
     * that scrolls a field into view (a goto, a search) would otherwise scroll this page, and
     * the picture would show the gap between frames */
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><style>html, body { margin: 0; overflow: hidden } "
               "iframe { position: fixed; top: 0; left: 0; border: 0; width: %upx; height: %upx } "
               "pre { display: none }</style></head><body>\n", w, h);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "<iframe style=\"z-index: %zu\" src=\"%s\"></iframe>\n", n - i, urls[i]);
    fprintf(f, "<script>\nwindow.addEventListener('load', function () {\n"
               "  for (const frame of document.querySelectorAll('iframe')) {\n"
               "    const pre = document.createElement('pre');\n"
               "    pre.className = 'frame-dom';\n"
               "    pre.textContent = encodeURIComponent(frame.contentDocument.documentElement.outerHTML);\n"
               "    document.body.appendChild(pre);\n"
               "  }\n"
               "  const at = document.createElement('pre');\n"
               "  at.className = 'frames-scroll';\n"
               "  at.textContent = window.scrollX + ',' + window.scrollY;\n"
               "  document.body.appendChild(at);\n"
               "});\n</script>\n</body></html>\n");
    cr_assert_eq(fclose(f), 0);
    char url[700], mode[1400];
    snprintf(url, sizeof url, "file://%s", frames);
    if (screenshot)
        snprintf(mode, sizeof mode, "--window-size=%u,%u --screenshot='%s' --allow-file-access-from-files --dump-dom",
                 w, h, screenshot);
    else
        snprintf(mode, sizeof mode, "--window-size=%u,%u --allow-file-access-from-files --dump-dom", w, h);
    page p = launch(profile, mode, url);
    remove_profile(profile);
    /* the picture is of the first frame only while this page has not scrolled */
    const char *scroll = p.dom ? strstr(p.dom, FRAMES_SCROLL) : NULL;
    cr_expect(scroll && strncmp(scroll + strlen(FRAMES_SCROLL), "0,0<", 4) == 0,
              "the page of frames scrolled (to %.20s): its picture is not of the first frame",
              scroll ? scroll + strlen(FRAMES_SCROLL) : "(not reported)");
    const char *at = p.dom;
    for (size_t i = 0; i < n; i++) {
        at = at ? strstr(at, FRAME_DOM) : NULL;
        const char *end = at ? strstr(at, "</pre>") : NULL;
        doms[i] = end ? uri_decode(at + strlen(FRAME_DOM), (size_t)(end - at - strlen(FRAME_DOM))) : NULL;
        at = end;
    }
    return p;
}

static void page_free(page *p)
{
    free(p->dom);
    free(p->console);
}

/* The path of screenshot SHOT in `png` (made empty, and the folder made, first); "" without one. */
static void shot_path(const char *shot, char *png, size_t size)
{
    png[0] = 0;
    if (!shot)
        return;
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(SHOTS_DIR, 0777);
    snprintf(png, size, "%s/%s", SHOTS_DIR, shot);
    remove(png);
}

/* Expects a PNG at `png`, a screenshot of `what` that shows something: a blank window
 * compresses to a few kilobytes, a page of text to tens or hundreds. */
static void expect_png(const char *png, const char *what)
{
    char *data = read_text(png);
    cr_expect(data && memcmp(data, "\x89PNG", 4) == 0, "no screenshot of %s in %s", what, png);
    free(data);
    struct stat st;
    memset(&st, 0, sizeof st);
    cr_expect(stat(png, &st) == 0 && st.st_size > 20000, "the screenshot of %s in %s is blank (%lld bytes)", what, png,
              (long long)st.st_size);
}

/* Loads the page, expects it to render with `expect` in its DOM and a silent console; with
 * `shot`, also saves build/screenshots/SHOT of window size `size` and expects a PNG there. */
static char *render_shot(const char *url, const char *const *expect, const char *shot, const char *size)
{
    char png[512];
    shot_path(shot, png, sizeof png);
    page p = browse(url, shot ? png : NULL, size);
    cr_expect_eq(p.status, 0, "chromium failed on %s", url);
    cr_assert(p.dom && strstr(p.dom, "</html>"), "%s did not render", url);
    for (size_t i = 0; expect && expect[i]; i++)
        cr_expect(strstr(p.dom, expect[i]) != NULL, "%s: '%s' not in the rendered page", url, expect[i]);
    cr_expect_str_empty(p.console, "%s logged to the console:\n%s", url, p.console);
    if (shot)
        expect_png(png, url);
    char *dom = p.dom;
    p.dom = NULL;
    page_free(&p);
    return dom;
}

/* render_shot() for several pages at once (browse_frames: one launch of Chromium, each page
 * in a frame of window size `size`): every page renders with expect[i] (a NULL-terminated
 * list; `expect` itself may be NULL) in its DOM, and the console stays silent; with `shot`,
 * build/screenshots/SHOT shows the first page. Fills doms[i] (malloc'd) with the DOM of
 * urls[i]. */
static void render_frames(const char *const *urls, size_t n, const char *const *const *expect, const char *shot,
                          const char *size, char **doms)
{
    char png[512];
    shot_path(shot, png, sizeof png);
    page p = browse_frames(urls, n, size, shot ? png : NULL, doms);
    cr_expect_eq(p.status, 0, "chromium failed on %zu framed pages (%s...)", n, urls[0]);
    for (size_t i = 0; i < n; i++) {
        cr_assert(doms[i] && strstr(doms[i], "</html>"), "%s did not render", urls[i]);
        for (size_t e = 0; expect && expect[i] && expect[i][e]; e++)
            cr_expect(strstr(doms[i], expect[i][e]) != NULL, "%s: '%s' not in the rendered page", urls[i],
                      expect[i][e]);
    }
    cr_expect_str_empty(p.console, "pages logged to the console (%s...):\n%s", urls[0], p.console);
    if (shot)
        expect_png(png, urls[0]);
    page_free(&p);
}

static void free_doms(char **doms, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(doms[i]);
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

/* The classes of byte `b` in the hex view as drawn (malloc'd), or NULL when it is not drawn. */
static char *byte_classes(const char *dom, unsigned long long b)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\" data-b=\"%llu\">", b);
    const char *end = dom ? strstr(dom, needle) : NULL;
    if (!end)
        return NULL;
    const char *start = end;
    while (start > dom && start[-1] != '"')
        start--;
    return strndup(start, (size_t)(end - start));
}

/* The text of the element with this id (up to the next tag), malloc'd, or NULL. */
static char *text_of(const char *dom, const char *id)
{
    char needle[128];
    snprintf(needle, sizeof needle, "id=\"%s\">", id);
    const char *p = dom ? strstr(dom, needle) : NULL;
    if (!p)
        return NULL;
    p += strlen(needle);
    return strndup(p, strcspn(p, "<"));
}

/* Runs `binform explain --html` on `file`; returns its exit status. */
static int explain_to(const char *file, const char *page)
{
    cr_assert(access(BINFORM, X_OK) == 0, "%s is missing (the Makefile builds it for the tests)", BINFORM);
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(EXPLAIN_DIR, 0777);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' explain --html '%s' '%s' > /dev/null 2>&1", BINFORM, page, file);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A P3M model of 30000 vertices (600 KB) built here: no sample is needed for a large file. Vertex
 * i is (i, 2i, 0.5) with UV (0, 0), except vertex 12345, whose X is 1234.5; the string table
 * holds "big" and "needle_in_the_haystack". */
#define BIG_VERTICES 30000
#define BIG_VERTEX0 0x0D /* header 5, part count, visibility, flags, name 2, material, vertex count 2 */
#define BIG_NEEDLE "needle_in_the_haystack"

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void f32le(uint8_t *p, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    le32(p, v);
}

static size_t big_p3m(const char *path, size_t cut)
{
    size_t size = BIG_VERTEX0 + (size_t)BIG_VERTICES * 20 + 3 + 11 + 4 + 4 + sizeof BIG_NEEDLE;
    uint8_t *d = calloc(1, size);
    cr_assert_not_null(d);
    size_t n = 0;
    memcpy(d, "P3M\0\0", 5);
    n = 5;
    d[n++] = 1;    /* part count */
    d[n++] = 1;    /* visibility */
    d[n++] = 0;    /* part flags: no normals */
    n += 2;        /* part name: "big" at 0 */
    d[n++] = 0;    /* material 0 */
    d[n++] = BIG_VERTICES & 0xFF;
    d[n++] = BIG_VERTICES >> 8;
    cr_assert_eq(n, BIG_VERTEX0);
    for (uint32_t i = 0; i < BIG_VERTICES; i++, n += 20) {
        f32le(d + n, i == 12345 ? 1234.5f : (float)i);
        f32le(d + n + 4, 2.0f * (float)i);
        f32le(d + n + 8, 0.5f);
    }
    n += 3;                                        /* index count 0, weight group count 0 */
    d[n++] = 1;                                    /* material count */
    d[n++] = 0;                                    /* render mode */
    d[n++] = 255;                                  /* no texture */
    memcpy(d + n, "\xff\xff\xff\xff\x00\x00\x00\x80", 8); /* RGBA, emission, shading */
    n += 8;
    n += 4;                                        /* texture, bone, animation, action counts 0 */
    memcpy(d + n, "big", 4);
    n += 4;
    memcpy(d + n, BIG_NEEDLE, sizeof BIG_NEEDLE);
    n += sizeof BIG_NEEDLE;
    cr_assert_eq(n, size);
    if (cut && cut < size)
        size = cut;
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(d, 1, size, f), size);
    fclose(f);
    free(d);
    return size;
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
    /* the source documents by their titles, not by the names of the project's copies */
    static const char *const expect[] = {"binform formats", "href=\"t3dm.html\"", "Tiny3D model (T3DM)",
                                         "Luma's Workshop wiki", "PlatinumSrc's file format documentation", NULL};
    char *dom = render_shot("file://" DOCS_DIR "/index.html", expect, "docs_index.png", "1280,700");
    cr_expect(strstr(dom, "518e632a2d8eae98") == NULL && strstr(dom, "_105799ad8377599f") == NULL,
              "the index names documents by their stored file names");
    free(dom);
}

Test(docs_browser, format_pages_render)
{
    REQUIRE_CHROMIUM();
    char names[64][256];
    int n = doc_pages(names, 64);
    /* t3dm.html is loaded once: the common expectations, its own, and the screenshot */
    static const char *const expect[] = {"<h2 id=\"files\">", "<h2 id=\"types\">", NULL};
    static const char *const t3dm[] = {"<h2 id=\"files\">", "<h2 id=\"types\">", "id=\"type-Part\"",
                                       "id=\"enum-ChunkType\"", "<h2 id=\"errata\">", "class=\"layout\"",
                                       "Validation rules of Header", "document: 0x0A", "Not in real files",
                                       "<h3 id=\"members-model\">Files read with model</h3>", NULL};
    /* all in one launch of Chromium, t3dm.html first: the screenshot shows it */
    static char urls[FRAMES_MAX][600];
    const char *pages[FRAMES_MAX];
    const char *const *expects[FRAMES_MAX];
    size_t n_pages = 1;
    int t3dm_seen = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "index.html") == 0)
            continue;
        size_t at = n_pages;
        if (strcmp(names[i], "t3dm.html") == 0) {
            t3dm_seen = 1;
            at = 0;
        } else {
            cr_assert_lt(n_pages, FRAMES_MAX, "more format pages than FRAMES_MAX");
            n_pages++;
        }
        snprintf(urls[at], sizeof urls[at], "file://%s/%s", DOCS_DIR, names[i]);
        pages[at] = urls[at];
        expects[at] = at == 0 ? t3dm : expect;
    }
    cr_assert(t3dm_seen, "no t3dm.html in %s", DOCS_DIR);
    cr_assert_gt(n_pages, 1, "no format page but t3dm.html in %s", DOCS_DIR);
    char *doms[FRAMES_MAX];
    render_frames(pages, n_pages, expects, "docs_t3dm.png", "1280,2400", doms);
    free_doms(doms, n_pages);
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
    /* byte 0x2C is in the chunk table of a model (and in the middle of a small stream); the
     * script selects the field holding it and highlights its bytes. All pages in one launch. */
    static const char *const expect[] = {"id=\"hex\"", "id=\"tree\"", "class=\"n hl\"", NULL};
    char urls[8][700];
    const char *pages[8];
    const char *const *expects[8];
    unsigned long long bytes[8];
    for (int i = 0; i < n; i++) {
        check_links(s[i].page);
        uint8_t *data;
        size_t size;
        cr_assert(load_file(s[i].path, &data, &size));
        free(data);
        bytes[i] = size > 0x2C ? 0x2C : size / 2;
        snprintf(urls[i], sizeof urls[i], "file://%s#byte=%llu", s[i].page, bytes[i]);
        pages[i] = urls[i];
        expects[i] = expect;
    }
    char *doms[8];
    render_frames(pages, (size_t)n, expects, "explain.png", "1400,900", doms);
    for (int i = 0; i < n; i++) {
        cr_expect(selected_holds(doms[i], bytes[i]), "%s: the selected field does not hold byte %llu", s[i].page,
                  bytes[i]);
        char *classes = byte_classes(doms[i], bytes[i]);
        cr_expect(classes && strstr(classes, "hl") && strstr(classes, "cur"), "%s: byte %llu is not highlighted (%s)",
                  s[i].page, bytes[i], classes ? classes : "not drawn");
        free(classes);
    }
    free_doms(doms, (size_t)n);
}

/* Hovering a byte inside an array selects the array's element, the innermost field: never the
 * enclosing region's tail that also covers it (J3D's VTX1 body tail covers all its buffers). */
Test(docs_browser, explain_hover_picks_the_array_element)
{
    REQUIRE_CHROMIUM();
    char file[600], page[600];
    snprintf(file, sizeof file, "%s/big_hover.p3m", EXPLAIN_DIR); /* each test its own files: they run in parallel */
    snprintf(page, sizeof page, "%s/big_hover.p3m.html", EXPLAIN_DIR);
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(EXPLAIN_DIR, 0777);
    big_p3m(file, 0);
    cr_assert_eq(explain_to(file, page), 0, "the big model reads");
    static const struct {
        unsigned long long byte;
        const char *path;
    } hovers[] = {
        {BIG_VERTEX0 + 1000 * 20 + 6, "data.parts[0].vertices[1000]"},     /* past the elements shown one by one */
        {BIG_VERTEX0 + 3 * 20 + 4, "data.parts[0].vertices[3].position[1]"}, /* an element of a number array */
    };
    /* all in one launch: box.bmd first when the samples are there (the screenshot shows it) */
    enum { HOVERS = sizeof hovers / sizeof hovers[0] };
    char urls[HOVERS + 1][700];
    const char *pages[HOVERS + 1];
    size_t n = 0;
    int box = samples_present();
    if (box) {
        /* box.bmd: byte 0x166 is the fourth value of the NORMAL buffer (s16, at 0x160) */
        char box_page[600];
        snprintf(box_page, sizeof box_page, "%s/box.bmd.html", EXPLAIN_DIR);
        cr_assert_eq(explain_to(sample_path("bmd/box.bmd"), box_page), 0);
        snprintf(urls[n], sizeof urls[n], "file://%s#byte=%d", box_page, 0x166);
        pages[n] = urls[n];
        n++;
    }
    for (size_t i = 0; i < HOVERS; i++, n++) {
        snprintf(urls[n], sizeof urls[n], "file://%s#byte=%llu", page, hovers[i].byte);
        pages[n] = urls[n];
    }
    char *doms[HOVERS + 1];
    render_frames(pages, n, NULL, box ? "explain_hover_array.png" : NULL, "1400,900", doms);
    for (size_t i = 0; i < HOVERS; i++) {
        char *path = text_of(doms[box + i], "selpath");
        cr_expect(path && strcmp(path, hovers[i].path) == 0, "byte %llu: '%s', expected '%s'", hovers[i].byte,
                  path ? path : "(nothing selected)", hovers[i].path);
        free(path);
    }
    if (box) {
        char *path = text_of(doms[0], "selpath");
        cr_expect(path && strcmp(path, "sections[1].body.normal.s16_values[3]") == 0, "'%s'", path ? path : "(none)");
        cr_expect(path && !strstr(path, "(tail)"));
        cr_expect(selected_holds(doms[0], 0x166));
        free(path);
    }
    free_doms(doms, n);
}

/* A file cut short: the page shows the tree read so far, the failing field selected and marked,
 * the failing byte outlined. */
Test(docs_browser, explain_shows_the_partial_tree_of_a_truncated_file)
{
    REQUIRE_CHROMIUM();
    char file[600], page[600], urls[2][700];
    snprintf(file, sizeof file, "%s/big_cut.p3m", EXPLAIN_DIR);
    snprintf(page, sizeof page, "%s/big_cut.p3m.html", EXPLAIN_DIR);
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(EXPLAIN_DIR, 0777);
    big_p3m(file, 300000);
    cr_assert_eq(explain_to(file, page), 1, "a file that does not read: exit 1, and the page anyway");
    snprintf(urls[0], sizeof urls[0], "file://%s", page);
    static const char *const expect[] = {"id=\"failure\"", "class=\"n fail hl\"", "read failed here",
                                         "data-path=\"data.parts[0].vertex_count\"", "data-path=\"header.magic\"", NULL};
    /* the tree's labels are made as branches open: the sections before the failure are there,
     * open to their bodies (OPEN_DEPTH), the deeper fields when opened */
    static const char *const box[] = {"data-path=\"sections[5].body\"", "data-path=\"sections[6].size\"",
                                      "class=\"n fail hl\" id=", "@0x4C8", NULL};
    const char *pages[2] = {urls[0], urls[1]};
    const char *const *expects[2] = {expect, box};
    size_t n = 1;
    if (samples_present()) {
        /* box.bmd cut inside its MAT3: the seven sections before it are there (same launch) */
        uint8_t *data;
        size_t size;
        cr_assert(load_file(sample_path("bmd/box.bmd"), &data, &size));
        snprintf(file, sizeof file, "%s/box_cut.bmd", EXPLAIN_DIR);
        FILE *f = fopen(file, "wb");
        cr_assert_not_null(f);
        fwrite(data, 1, 1500, f);
        fclose(f);
        free(data);
        snprintf(page, sizeof page, "%s/box_cut.bmd.html", EXPLAIN_DIR);
        cr_assert_eq(explain_to(file, page), 1);
        snprintf(urls[1], sizeof urls[1], "file://%s", page);
        n = 2;
    }
    char *doms[2];
    render_frames(pages, n, expects, "explain_partial.png", "1400,900", doms);
    char *dom = doms[0];
    char *path = text_of(dom, "selpath");
    cr_expect(path && strcmp(path, "data.parts[0].vertices") == 0, "selected: '%s'", path ? path : "(none)");
    cr_expect(strstr(dom, "data-path=\"data.material_count\"") == NULL, "nothing after the failure");
    /* the failing byte, where the vertices start, is drawn and outlined */
    char *classes = byte_classes(dom, BIG_VERTEX0);
    cr_expect(classes && strstr(classes, " x"), "byte 0x%x: '%s'", BIG_VERTEX0, classes ? classes : "not drawn");
    free(classes);
    free(path);
    free_doms(doms, n);
}

/* The big model and its explain page as build/explain/NAME.p3m(.html): each test its own,
 * since Criterion runs them side by side. Returns the file's size. */
static size_t big_page(const char *name, char *page, size_t page_size)
{
    char file[600];
    snprintf(file, sizeof file, "%s/%s.p3m", EXPLAIN_DIR, name);
    snprintf(page, page_size, "%s/%s.p3m.html", EXPLAIN_DIR, name);
    mkdir(BF_PROJECT_DIR "/build", 0777);
    mkdir(EXPLAIN_DIR, 0777);
    size_t size = big_p3m(file, 0);
    cr_assert_gt(size, 500000);
    cr_assert_eq(explain_to(file, page), 0);
    return size;
}

/* Go to an offset on a file over 500 KB: the rows in view are drawn whatever the offset, and
 * the data inspector reads the cursor. (Searching it is the next test: the two run side by
 * side.) */
Test(docs_browser, explain_goto_in_a_large_file)
{
    REQUIRE_CHROMIUM();
    char page[600], urls[2][800];
    size_t size = big_page("big_goto", page, sizeof page);
    snprintf(urls[0], sizeof urls[0], "file://%s#goto=0x80000", page);
    const char *pages[2] = {urls[0], urls[1]};
    size_t n = 1;
    if (samples_present()) {
        /* a real file of 324 KB: the string table at 0x4EEEC (same launch) */
        snprintf(page, sizeof page, "%s/platformer.t3dm.html", EXPLAIN_DIR);
        cr_assert_eq(explain_to(sample_path("t3dm/17_culling/platformer.t3dm"), page), 0);
        snprintf(urls[1], sizeof urls[1], "file://%s#goto=0x4EEEC", page);
        n = 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *doms[2];
    render_frames(pages, n, NULL, "explain_goto.png", "1400,900", doms);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "docs_browser: %zu-byte file: went to 0x80000 in %.2f s (%zu page(s) in the launch)\n", size,
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, n);
    char *dom = doms[0];
    char *off = text_of(dom, "insp-off");
    cr_expect(off && strcmp(off, "0x80000") == 0, "inspector at '%s'", off ? off : "(none)");
    cr_expect(strstr(dom, "<span class=\"o\">080000</span>") != NULL, "row 0x80000 is drawn");
    char *classes = byte_classes(dom, 0x80000);
    cr_expect(classes && strstr(classes, "cur"), "the cursor is on byte 0x80000: '%s'", classes ? classes : "not drawn");
    /* 0x80000 is in vertex (0x80000 - 0x0D) / 20 = 26213, at +0x0F: U (0.0f) and V (0.0f) follow */
    char *u32 = text_of(dom, "i-u32-le");
    cr_expect(u32 && strcmp(u32, "0") == 0, "u32 at 0x80000: '%s'", u32 ? u32 : "(none)");
    char *path = text_of(dom, "selpath");
    cr_expect(path && strcmp(path, "data.parts[0].vertices[26213]") == 0, "'%s'", path ? path : "(none)");
    free(path);
    free(u32);
    free(classes);
    free(off);
    if (n == 2) {
        path = text_of(doms[1], "selpath");
        cr_expect(path && strcmp(path, "strings") == 0, "'%s'", path ? path : "(none)");
        free(path);
    }
    free_doms(doms, n);
}

/* Search a file over 500 KB: matches are found and shown, by text, number and bytes. The four
 * searches in one launch. */
Test(docs_browser, explain_search_a_large_file)
{
    REQUIRE_CHROMIUM();
    char page[600], urls[4][800];
    size_t size = big_page("big_search", page, sizeof page);
    /* a text: the string table at the end of the file */
    snprintf(urls[0], sizeof urls[0], "file://%s#find=text:%s", page, BIG_NEEDLE);
    /* a number: 1234.5 as a little-endian float is vertex 12345's X, nowhere else */
    snprintf(urls[1], sizeof urls[1], "file://%s#find=f32le:1234.5", page);
    /* hex bytes: 0.5f (00 00 00 3f) is every vertex's Z (and a few straddle two numbers) */
    snprintf(urls[2], sizeof urls[2], "file://%s#find=hex:00 00 00 3f", page);
    /* and a number that is not one */
    snprintf(urls[3], sizeof urls[3], "file://%s#find=u8le:300", page);
    const char *pages[4] = {urls[0], urls[1], urls[2], urls[3]};
    char *doms[4];
    render_frames(pages, 4, NULL, "explain_search.png", "1400,900", doms);

    char want[128];
    snprintf(want, sizeof want, "1 of 1 match \xe2\x80\x94 at 0x%zX", size - sizeof BIG_NEEDLE);
    char *st = text_of(doms[0], "status");
    cr_expect(st && strcmp(st, want) == 0, "status '%s', expected '%s'", st ? st : "(none)", want);
    char *classes = byte_classes(doms[0], size - 2);
    cr_expect(classes && strstr(classes, " m"), "the match is marked: '%s'", classes ? classes : "not drawn");
    char *path = text_of(doms[0], "selpath");
    cr_expect(path && strcmp(path, "data.strings") == 0, "'%s'", path ? path : "(none)");
    free(path);
    free(classes);
    free(st);

    snprintf(want, sizeof want, "1 of 1 match \xe2\x80\x94 at 0x%X", BIG_VERTEX0 + 12345 * 20);
    st = text_of(doms[1], "status");
    cr_expect(st && strcmp(st, want) == 0, "status '%s', expected '%s'", st ? st : "(none)", want);
    free(st);

    st = text_of(doms[2], "status");
    unsigned long found = 0;
    cr_expect(st && sscanf(st, "1 of %lu matches", &found) == 1 && found >= BIG_VERTICES, "status '%s'", st ? st : "(none)");
    snprintf(want, sizeof want, "at 0x%X", BIG_VERTEX0 + 8);
    cr_expect(st && strstr(st, want), "the first is vertex 0's Z: '%s'", st ? st : "(none)");
    free(st);

    st = text_of(doms[3], "status");
    cr_expect(st && strcmp(st, "300 does not fit in u8") == 0, "status '%s'", st ? st : "(none)");
    free(st);
    free_doms(doms, 4);
}
