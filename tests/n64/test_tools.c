/* The golden harness's own tools: the TOML-subset reader and the bass-subset
 * assembler (encodings worked out from the instruction formats). */
#include "bass_asm.h"
#include "toml_subset.h"

#include <criterion/criterion.h>
#include <string.h>

static uint32_t assemble_one(const char *source)
{
    uint8_t code[16] = {0};
    size_t size = 0;
    char error[128] = "";
    cr_assert(bass_assemble(source, code, sizeof(code), &size, error, sizeof(error)), "%s", error);
    return ((uint32_t)code[0] << 24) | ((uint32_t)code[1] << 16) | ((uint32_t)code[2] << 8) | code[3];
}

Test(golden_tools, toml_reads_the_golden_subset)
{
    const char *text = "input_desc = [\n  \"v128:v0\", # comment\n  \"u32:x\",\n]\n"
                       "rsp_code = \"\"\"\n  li a0,$0\n\"\"\"\n"
                       "[[test]]\nname = \"first\"\ninput = [ 0x1122_3344, -5, 10, ]\n"
                       "[[test]]\nname = \"second\"\ninput = []\n";
    toml_document_t doc;
    char error[128];
    cr_assert(toml_parse(text, &doc, error, sizeof(error)), "%s", error);
    const toml_value_t *desc = toml_get(&doc.root, "input_desc");
    cr_assert(desc && desc->kind == TOML_ARRAY && desc->count == 2);
    cr_expect_str_eq(desc->items[1].string, "u32:x");
    cr_expect_str_eq(toml_get(&doc.root, "rsp_code")->string, "  li a0,$0\n");
    const toml_table_array_t *tests = toml_get_table_array(&doc, "test");
    cr_assert(tests && tests->count == 2);
    const toml_value_t *input = toml_get(&tests->tables[0], "input");
    cr_assert_eq(input->count, 3);
    cr_expect_eq(input->items[0].integer, 0x11223344);
    cr_expect_eq(input->items[1].integer, -5);
    cr_expect_str_eq(toml_get(&tests->tables[1], "name")->string, "second");
    toml_free(&doc);
}

Test(golden_tools, toml_reports_errors_with_line_numbers)
{
    toml_document_t doc;
    char error[128];
    cr_expect_not(toml_parse("a = 1\nb = [1, 2\n", &doc, error, sizeof(error)));
    cr_expect_not(toml_parse("a = 1\na = 2\n", &doc, error, sizeof(error)));
    cr_expect(strstr(error, "line 2") != NULL, "%s", error);
    cr_expect_not(toml_parse("[table]\n", &doc, error, sizeof(error)));
}

Test(golden_tools, assembler_encodes_scalar_instructions)
{
    cr_expect_eq(assemble_one("addi a1,$80"), 0x20A50080u);         /* addi a1,a1,0x80 */
    cr_expect_eq(assemble_one("subi s0,1"), 0x2210FFFFu);           /* addi s0,s0,-1 */
    cr_expect_eq(assemble_one("add a0,t4"), 0x008C2020u);           /* add a0,a0,t4 */
    cr_expect_eq(assemble_one("lw t4,$20(a0)"), 0x8C8C0020u);
    cr_expect_eq(assemble_one("li a1,$800"), 0x3C050000u);          /* lui first */
    cr_expect_eq(assemble_one("Loop:\n bnez s0,Loop"), 0x1600FFFFu);
    cr_expect_eq(assemble_one("break"), 0x0000000Du);
}

Test(golden_tools, assembler_encodes_vector_instructions)
{
    cr_expect_eq(assemble_one("lqv v1[e0],$10(a0)"), 0xC8812001u);
    cr_expect_eq(assemble_one("sqv v0[e15],$1F0(a1)"), 0xE8A0279Fu);
    cr_expect_eq(assemble_one("ldv v0[e0],-$4(s0)"), 0xCA00187Fu); /* -4 >> 3 rounds down to -1 */
    cr_expect_eq(assemble_one("vmacf v0,v1[e0]"), 0x4A010008u);    /* vd = vs = v0 */
    cr_expect_eq(assemble_one("vmudh v2,v0,v1[e8]"), 0x4B010087u);
    cr_expect_eq(assemble_one("vrcp v1[e2],v0[e5]"), 0x4AA01070u);
    cr_expect_eq(assemble_one("mfc2 t0,v3[e4]"), 0x48081A00u);
    cr_expect_eq(assemble_one("cfc2 t0,vcc"), 0x48480800u);
}

Test(golden_tools, assembler_rejects_what_it_does_not_know)
{
    uint8_t code[16];
    size_t size;
    char error[128];
    cr_expect_not(bass_assemble("frobnicate t0\n", code, sizeof(code), &size, error, sizeof(error)));
    cr_expect(strstr(error, "line 1") != NULL, "%s", error);
    cr_expect_not(bass_assemble("nop\n j Missing\n", code, sizeof(code), &size, error, sizeof(error)));
    cr_expect_not(bass_assemble("vadd v32,v0,v1\n", code, sizeof(code), &size, error, sizeof(error)));
    cr_expect_not(bass_assemble("nop\nnop\nnop\nnop\nnop\n", code, sizeof(code), &size, error, sizeof(error)),
                  "does not fit in 16 bytes");
}
