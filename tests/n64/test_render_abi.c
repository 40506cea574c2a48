/* render_abi.inc (for the assembler) and render_abi.h (for C) say the same:
 * every .set of the .inc has a C macro of the same name and value. */
#include "../../n64/rsp/render_abi.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef N64_PROJECT_ROOT
#define N64_PROJECT_ROOT "."
#endif

static const struct {
    const char *name;
    long value;
} c_values[] = {
    {"CMD_END", CMD_END},
    {"CMD_NOP", CMD_NOP},
    {"CMD_FRAME", CMD_FRAME},
    {"CMD_LIGHTS", CMD_LIGHTS},
    {"CMD_VIEW", CMD_VIEW},
    {"CMD_MODEL", CMD_MODEL},
    {"CMD_VTX", CMD_VTX},
    {"CMD_TRIS", CMD_TRIS},
    {"CMD_STRIP", CMD_STRIP},
    {"CMD_SEQ", CMD_SEQ},
    {"CMD_RDP", CMD_RDP},
    {"CMD_TRIMODE", CMD_TRIMODE},
    {"CMD_COUNT", CMD_COUNT},
    {"DM_VIEW", DM_VIEW},
    {"DM_MVP", DM_MVP},
    {"DM_FRAME", DM_FRAME},
    {"FR_VSCALE", FR_VSCALE},
    {"FR_VOFF_I", FR_VOFF_I},
    {"FR_VOFF_F", FR_VOFF_F},
    {"FR_WNORM", FR_WNORM},
    {"FR_WSCALE", FR_WSCALE},
    {"FR_GUARD_SHIFT", FR_GUARD_SHIFT},
    {"FR_OUT_START", FR_OUT_START},
    {"FR_OUT_END", FR_OUT_END},
    {"DM_LIGHTS", DM_LIGHTS},
    {"LI_AMBIENT", LI_AMBIENT},
    {"LI_COLORS", LI_COLORS},
    {"DM_LDIR", DM_LDIR},
    {"LD_X", LD_X},
    {"LD_Y", LD_Y},
    {"LD_Z", LD_Z},
    {"DM_STATE", DM_STATE},
    {"ST_TRICMD", ST_TRICMD},
    {"ST_CULL", ST_CULL},
    {"ST_TILE", ST_TILE},
    {"ST_TRISIZE", ST_TRISIZE},
    {"ST_CMDLIST", ST_CMDLIST},
    {"DM_CONST", DM_CONST},
    {"CV_NSHIFT", CV_NSHIFT},
    {"CV_NMASK", CV_NMASK},
    {"CV_K", CV_K},
    {"CV_GUARD", CV_GUARD},
    {"CV_T", CV_T},
    {"ST_ERROR", ST_ERROR},
    {"ST_STATS", ST_STATS},
    {"DM_CMDBUF", DM_CMDBUF},
    {"CMDBUF_SIZE", CMDBUF_SIZE},
    {"DM_IDXBUF", DM_IDXBUF},
    {"IDXBUF_SIZE", IDXBUF_SIZE},
    {"OV_RDRAM", OV_RDRAM},
    {"OV_CURRENT", OV_CURRENT},
    {"OV_COLD", OV_COLD},
    {"OV_CLIP", OV_CLIP},
    {"DM_OUTBUF", DM_OUTBUF},
    {"OUTBUF_SIZE", OUTBUF_SIZE},
    {"DM_CLIP", DM_CLIP},
    {"CP_SIZE", CP_SIZE},
    {"CP_BUF0", CP_BUF0},
    {"CP_BUF1", CP_BUF1},
    {"CE_0", CE_0},
    {"CE_1", CE_1},
    {"CE_2", CE_2},
    {"CL_RA", CL_RA},
    {"CL_POLY", CL_POLY},
    {"CL_COUNT", CL_COUNT},
    {"CL_INDEX", CL_INDEX},
    {"DM_VCACHE", DM_VCACHE},
    {"VCACHE_SLOTS", VCACHE_SLOTS},
    {"VTX_SIZE", VTX_SIZE},
    {"DM_VCACHE_END", DM_VCACHE_END},
    {"DM_COMMANDS", DM_COMMANDS},
    {"DM_SCRATCH", DM_SCRATCH},
    {"VX_S", VX_S},
    {"VX_T", VX_T},
    {"VX_W", VX_W},
    {"VX_Z", VX_Z},
    {"VX_RGBA", VX_RGBA},
    {"VX_X", VX_X},
    {"VX_Y", VX_Y},
    {"VX_CLIPPOS_I", VX_CLIPPOS_I},
    {"VX_CLIPPOS_F", VX_CLIPPOS_F},
    {"VX_CLIP", VX_CLIP},
    {"VX_REJECT", VX_REJECT},
};

static bool c_value(const char *name, long *value)
{
    for (size_t i = 0; i < sizeof c_values / sizeof c_values[0]; i++)
        if (strcmp(c_values[i].name, name) == 0) {
            *value = c_values[i].value;
            return true;
        }
    return false;
}

Test(render_abi, the_assembler_and_c_agree)
{
    FILE *f = fopen(N64_PROJECT_ROOT "/n64/rsp/render_abi.inc", "r");
    cr_assert_not_null(f, "n64/rsp/render_abi.inc");
    char line[256];
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64], value[64];
        if (sscanf(line, ".set %63[A-Z0-9_], %63s", name, value) != 2)
            continue;
        long c;
        cr_expect(c_value(name, &c), "%s is in render_abi.inc but not in render_abi.h (and this table)", name);
        if (c_value(name, &c))
            cr_expect_eq(strtol(value, NULL, 0), c, "%s: %s in render_abi.inc, %ld in render_abi.h", name, value, c);
        seen++;
    }
    fclose(f);
    cr_expect_eq(seen, (int)(sizeof c_values / sizeof c_values[0]), "names listed here that the .inc lost");
}
