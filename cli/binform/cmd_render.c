/* binform render: draws a T3DM model with the project's RSP microcode (on the
 * interpreter) and software RDP, and saves the picture as a PNG. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_runtime.h"
#include "commands.h"
#include "document.h"
#include "file_set.h"
#include "render_files.h"
#include "png_write.h"
#include "render_model.h"

static void render_usage(FILE *out)
{
    fprintf(out,
            "usage: binform render MODEL.t3dm [OPTIONS]\n"
            "\n"
            "Draws the model as the N64 would: its vertex and index data as stored, run through the\n"
            "project's RSP microcode on an RSP interpreter and a software RDP; saves a PNG.\n"
            "Textures are read from the .sprite files the materials name (rom:/ is the model's\n"
            "folder; subfolders are fine, \"..\" is not); a sprite not built yet is made from the PNG\n"
            "of the same name as mksprite would; a texture that cannot be had draws a checkerboard\n"
            "and a warning says why. --anim reads NAME's keyframes from the NAME.N.sdata file beside\n"
            "the model.\n"
            "\n"
            "options:\n"
            "  -o, --output OUT.png   where to save (default: the model's name with .png, here)\n"
            "  --size WxH             picture size (default 320x240)\n"
            "  --yaw DEG              camera turned around the model's vertical axis (default 30)\n"
            "  --pitch DEG            camera looking down from DEG above (default 20)\n"
            "  --distance F           1 fits the model in the picture, 2 is twice as far (default 1)\n"
            "  --anim NAME            pose the skeleton by this animation ...\n"
            "  --time SECONDS         ... at this time (default 0)\n"
            "  --shading MODE         materials (default): the model's combiners, colours, textures;\n"
            "                         vertex: lit vertex colours only\n"
            "  --color16              draw into a 16-bit (RGBA5551) colour image, as most games do\n"
            "  --background RRGGBB    the clear colour (default 303848)\n"
            "  --fog START:END        tiny3d's fog for materials whose fog mode is active, in the\n"
            "                         background colour, from START to END of the depth the camera\n"
            "                         frames around the model (0 nearest, 1 farthest): e.g. 0.3:1\n"
            "  --stats                print RSP cycles and triangle counts\n"
            "\n"
            "exit status: 0 drawn, 1 the model cannot be drawn (the reason is printed), 2 usage or I/O error\n");
}

/* What render drew must be what check accepts: the model's file set is checked as check does
 * (each member's own validator and the schema's cross-file rules, such as a keyframe's channel
 * below its animation's channel count), and an error in a file render read (its "[FILE]"
 * findings) refuses the picture. Errors about files it did not read are not its business.
 * Returns 1 (and prints the first such error) when the picture must not be saved. */
static int drew_invalid_files(const char *model, const render_files_t *b)
{
    if (!b->count)
        return 0;
    document d;
    open_opts oo = {.format = "t3dm"};
    int refused = 0;
    if (document_load(&d, model, &oo) == 0) {
        bf_findings found = {0};
        file_set_check(&d, NULL, &found);
        for (size_t i = 0; i < found.count && !refused; i++) {
            const bf_finding *f = &found.items[i];
            const char *end = f->path[0] == '[' ? strchr(f->path, ']') : NULL;
            if (f->severity != BF_SEVERITY_ERROR || !end)
                continue;
            for (int k = 0; k < b->count && !refused; k++)
                if (strlen(b->name[k]) == (size_t)(end - f->path - 1) &&
                    strncmp(f->path + 1, b->name[k], (size_t)(end - f->path - 1)) == 0) {
                    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 1024];
                    bf_finding_format(f, model, line, sizeof line);
                    fprintf(stderr, "%s\n%s: nothing drawn: %s does not check (binform check lists every finding)\n",
                            line, model, b->name[k]);
                    refused = 1;
                }
        }
        bf_findings_free(&found);
    }
    document_close(&d);
    return refused;
}

static bool parse_float(const char *s, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v != v || v > 1e9 || v < -1e9)
        return false;
    *out = (float)v;
    return true;
}

static bool parse_size(const char *s, uint16_t *w, uint16_t *h)
{
    unsigned a, b;
    char tail;
    if (sscanf(s, "%ux%u%c", &a, &b, &tail) != 2 || a == 0 || b == 0 || a > 1024 || b > 1024)
        return false;
    *w = (uint16_t)a;
    *h = (uint16_t)b;
    return true;
}

static bool parse_color(const char *s, uint32_t *rgba)
{
    char *end;
    if (strlen(s) != 6)
        return false;
    unsigned long v = strtoul(s, &end, 16);
    if (*end)
        return false;
    *rgba = (uint32_t)v << 8 | 0xFFu;
    return true;
}

/* START:END, 0 <= START < END <= 4 */
static bool parse_fog(const char *s, float *start, float *end)
{
    const char *colon = strchr(s, ':');
    char first[64];
    if (!colon || (size_t)(colon - s) >= sizeof first)
        return false;
    snprintf(first, sizeof first, "%.*s", (int)(colon - s), s);
    return parse_float(first, start) && parse_float(colon + 1, end) && *start >= 0 && *end > *start && *end <= 4;
}

/* The picture's default name: the model's file name with .png, in the current folder. */
static void default_output(const char *model, char *out, size_t size)
{
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(out, size, "%.*s.png", (int)len, base);
}

enum { RENDER_SIZE = 256, RENDER_YAW, RENDER_PITCH, RENDER_DISTANCE, RENDER_ANIM, RENDER_TIME, RENDER_SHADING,
       RENDER_BACKGROUND, RENDER_COLOR16, RENDER_STATS, RENDER_FOG };

/* Options as getopt_long reads them (--opt=value, --), like every binform command's. */
static const struct option render_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"size", required_argument, NULL, RENDER_SIZE},
    {"yaw", required_argument, NULL, RENDER_YAW},
    {"pitch", required_argument, NULL, RENDER_PITCH},
    {"distance", required_argument, NULL, RENDER_DISTANCE},
    {"anim", required_argument, NULL, RENDER_ANIM},
    {"time", required_argument, NULL, RENDER_TIME},
    {"shading", required_argument, NULL, RENDER_SHADING},
    {"background", required_argument, NULL, RENDER_BACKGROUND},
    {"fog", required_argument, NULL, RENDER_FOG},
    {"color16", no_argument, NULL, RENDER_COLOR16},
    {"stats", no_argument, NULL, RENDER_STATS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *render_option_name(int val)
{
    for (const struct option *o = render_options; o->name; o++)
        if (o->val == val)
            return o->name;
    return "?";
}

int cmd_render(int argc, char **argv)
{
    render_options_t o = render_default_options();
    const char *model = NULL, *output = NULL;
    bool stats = false;
    /* getopt wants the program name first */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return EXIT_USAGE;
    args[0] = "binform render";
    memcpy(args + 1, argv, (size_t)argc * sizeof *args);
    opterr = 0;
    optind = 1;
    int val;
    while ((val = getopt_long(argc + 1, args, ":o:h", render_options, NULL)) != -1) {
        const char *v = optarg;
        bool ok = true;
        switch (val) {
        case 'h': render_usage(stdout); free(args); return 0;
        case 'o': output = v; break;
        case RENDER_SIZE: ok = parse_size(v, &o.width, &o.height); break;
        case RENDER_YAW: ok = parse_float(v, &o.yaw_deg); break;
        case RENDER_PITCH: ok = parse_float(v, &o.pitch_deg); break;
        case RENDER_DISTANCE: ok = parse_float(v, &o.distance) && o.distance > 0; break;
        case RENDER_ANIM: o.animation = v; break;
        case RENDER_TIME: ok = parse_float(v, &o.time) && o.time >= 0; break;
        case RENDER_SHADING:
            ok = strcmp(v, "materials") == 0 || strcmp(v, "vertex") == 0;
            o.shading = strcmp(v, "vertex") == 0 ? DRAW_VERTEX : DRAW_MATERIALS;
            break;
        case RENDER_BACKGROUND: ok = parse_color(v, &o.background); break;
        case RENDER_FOG: ok = parse_fog(v, &o.fog_start, &o.fog_end); break;
        case RENDER_COLOR16: o.color16 = true; break;
        case RENDER_STATS: stats = true; break;
        case ':':
            fprintf(stderr, "binform render: option '--%s' needs a value\n",
                    optopt == 'o' ? "output" : render_option_name(optopt));
            free(args);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "binform render: unknown option '%s' (see 'binform help render')\n", args[optind - 1]);
            free(args);
            return EXIT_USAGE;
        }
        if (!ok) {
            fprintf(stderr, "binform render: bad value '%s' for --%s\n", v, render_option_name(val));
            free(args);
            return EXIT_USAGE;
        }
    }
    int given = argc + 1 - optind;
    model = given > 0 ? args[optind] : NULL;
    if (given > 1) {
        fprintf(stderr, "binform render: one model at a time ('%s' is a second)\n", args[optind + 1]);
        free(args);
        return EXIT_USAGE;
    }
    free(args);
    if (!model) {
        render_usage(stderr);
        return EXIT_USAGE;
    }
    char default_name[1024];
    if (!output) {
        default_output(model, default_name, sizeof default_name);
        output = default_name;
    }

    render_files_t files;
    render_files_init(&files, model, stderr);
    uint8_t *data;
    size_t size;
    int how;
    char problem[2400];
    if (!input_load(model, &data, &size, &how, problem, sizeof problem)) {
        fprintf(stderr, "%s\n", problem);
        return EXIT_USAGE;
    }
    render_result_t r;
    char error[1024];
    int status = EXIT_VALID;
    if (!render_model(data, size, &o, render_files_load, &files, &r, error, sizeof error)) {
        fprintf(stderr, "%s: %s\n", model, error);
        status = EXIT_INVALID;
    } else if (drew_invalid_files(model, &files)) {
        status = EXIT_INVALID;
        render_result_free(&r);
    } else {
        char saved[1200];
        if (png_save(output, r.rgba, r.width, r.height, saved, sizeof saved) != 0) {
            fprintf(stderr, "%s\n", saved);
            status = EXIT_USAGE;
        } else {
            printf("%s: %ux%u picture saved to %s\n", model, r.width, r.height, output);
            if (r.textures_missing) {
                printf("%s: %u texture%s drawn with a checkerboard\n", model, r.textures_missing,
                       r.textures_missing == 1 ? "" : "s");
                /* why, a line per texture: "FILE (FIELD): REASON" */
                for (const char *line = r.texture_notes; *line;) {
                    size_t len = strcspn(line, "\n");
                    fprintf(stderr, "%s: warning: texture %.*s\n", model, (int)len, line);
                    line += len + (line[len] == '\n');
                }
            }
            if (stats)
                printf("%s: %u triangles drawn, %u culled or off screen, %u clipped; %llu RSP cycles (%.1f per "
                       "triangle of the model); %llu bytes of RDP commands\n",
                       model, r.emu.drawn, r.emu.rejected, r.emu.clipped, (unsigned long long)r.emu.rsp_cycles,
                       r.triangles ? (double)r.emu.rsp_cycles / r.triangles : 0.0,
                       (unsigned long long)r.emu.rdp_command_bytes);
        }
        render_result_free(&r);
    }
    input_unload(data, size, how);
    render_files_free(&files);
    return status;
}
