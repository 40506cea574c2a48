/* Two-pass assembler for the bass RSP subset described in bass_asm.h. Pass 1
 * sizes every statement to place labels; pass 2 encodes. */
#include "bass_asm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPERANDS 4
#define MAX_LABELS 256
#define MAX_NAME 64

typedef struct label {
    char name[MAX_NAME];
    uint32_t address;
} label_t;

typedef struct assembler {
    label_t labels[MAX_LABELS];
    size_t label_count;
    bool encoding; /* false in pass 1: labels may still be unknown */
    int line;
    char *error;
    size_t error_size;
    bool failed;
} assembler_t;

typedef struct statement {
    char mnemonic[MAX_NAME];
    char operands[MAX_OPERANDS][MAX_NAME];
    int count;
} statement_t;

static bool fail(assembler_t *as, const char *fmt, ...)
{
    if (!as->failed) {
        int n = snprintf(as->error, as->error_size, "line %d: ", as->line);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < as->error_size)
            vsnprintf(as->error + n, as->error_size - (size_t)n, fmt, ap);
        va_end(ap);
        as->failed = true;
    }
    return false;
}

/* ---- operands ---- */

static int gpr_number(const char *name)
{
    static const char *const names[32] = {"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2",
                                          "t3",   "t4", "t5", "t6", "t7", "s0", "s1", "s2", "s3", "s4", "s5",
                                          "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "s8", "ra"};
    for (int i = 0; i < 32; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    if (strcmp(name, "fp") == 0)
        return 30;
    if (name[0] == 'r' && isdigit((unsigned char)name[1])) {
        char *end;
        long n = strtol(name + 1, &end, 10);
        if (*end == '\0' && n >= 0 && n < 32)
            return (int)n;
    }
    return -1;
}

static bool parse_number(const char *text, int64_t *value)
{
    bool negative = false;
    if (*text == '-' || *text == '+')
        negative = *text++ == '-';
    int base = 10;
    if (*text == '$') {
        base = 16;
        text++;
    } else if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
    }
    if (!isxdigit((unsigned char)*text))
        return false;
    char *end;
    long long magnitude = strtoll(text, &end, base);
    if (*end != '\0')
        return false;
    *value = negative ? -magnitude : magnitude;
    return true;
}

static bool gpr_operand(assembler_t *as, const char *text, unsigned *reg)
{
    int n = gpr_number(text);
    if (n < 0)
        return fail(as, "expected a scalar register, got '%s'", text);
    *reg = (unsigned)n;
    return true;
}

static bool number_operand(assembler_t *as, const char *text, int64_t *value)
{
    if (!parse_number(text, value))
        return fail(as, "expected a number, got '%s'", text);
    return true;
}

/* "vN" or "vN[eM]"; element defaults to 0. */
static bool vector_operand(assembler_t *as, const char *text, unsigned *reg, unsigned *element, bool *has_element)
{
    char *end;
    if (text[0] != 'v' || !isdigit((unsigned char)text[1]))
        return fail(as, "expected a vector register, got '%s'", text);
    long n = strtol(text + 1, &end, 10);
    *element = 0;
    *has_element = false;
    if (*end == '[') {
        if (end[1] != 'e')
            return fail(as, "expected an element selector eN in '%s'", text);
        long e = strtol(end + 2, &end, 10);
        if (*end != ']' || e < 0 || e > 15)
            return fail(as, "bad element selector in '%s'", text);
        end++;
        *element = (unsigned)e;
        *has_element = true;
    }
    if (*end != '\0' || n < 0 || n > 31)
        return fail(as, "bad vector register '%s'", text);
    *reg = (unsigned)n;
    return true;
}

/* "offset(base)" with an optional offset. */
static bool memory_operand(assembler_t *as, const char *text, int64_t *offset, unsigned *base)
{
    const char *open = strchr(text, '(');
    size_t length = strlen(text);
    if (!open || length < 2 || text[length - 1] != ')')
        return fail(as, "expected offset(base), got '%s'", text);
    char number[MAX_NAME], reg[MAX_NAME];
    size_t number_length = (size_t)(open - text);
    memcpy(number, text, number_length);
    number[number_length] = '\0';
    size_t reg_length = length - number_length - 2;
    memcpy(reg, open + 1, reg_length);
    reg[reg_length] = '\0';
    *offset = 0;
    if (number_length && !number_operand(as, number, offset))
        return false;
    return gpr_operand(as, reg, base);
}

static bool target_operand(assembler_t *as, const char *text, uint32_t *address)
{
    int64_t value;
    if (parse_number(text, &value)) {
        *address = (uint32_t)value;
        return true;
    }
    for (size_t i = 0; i < as->label_count; i++)
        if (strcmp(as->labels[i].name, text) == 0) {
            *address = as->labels[i].address;
            return true;
        }
    *address = 0;
    return as->encoding ? fail(as, "unknown label '%s'", text) : true;
}

/* ---- encodings ---- */

static uint32_t r_type(unsigned rs, unsigned rt, unsigned rd, unsigned sa, unsigned funct)
{
    return (rs << 21) | (rt << 16) | (rd << 11) | (sa << 6) | funct;
}

static uint32_t i_type(unsigned opcode, unsigned rs, unsigned rt, int64_t imm)
{
    return (opcode << 26) | (rs << 21) | (rt << 16) | ((uint32_t)imm & 0xFFFFu);
}

typedef struct alu_op {
    const char *name;
    int funct;      /* register form, -1 if none */
    int imm_opcode; /* immediate form, -1 if none */
    bool negate;    /* immediate forms of sub/subi add the negated value */
} alu_op_t;

static const alu_op_t alu_ops[] = {
    {"add", 0x20, 0x08, false},  {"addu", 0x21, 0x09, false},  {"sub", 0x22, 0x08, true},   {"subu", 0x23, 0x09, true},
    {"and", 0x24, 0x0C, false},  {"or", 0x25, 0x0D, false},    {"xor", 0x26, 0x0E, false},  {"nor", 0x27, -1, false},
    {"slt", 0x2A, 0x0A, false},  {"sltu", 0x2B, 0x0B, false},  {"addi", -1, 0x08, false},   {"addiu", -1, 0x09, false},
    {"subi", -1, 0x08, true},    {"subiu", -1, 0x09, true},    {"andi", -1, 0x0C, false},   {"ori", -1, 0x0D, false},
    {"xori", -1, 0x0E, false},   {"slti", -1, 0x0A, false},    {"sltiu", -1, 0x0B, false},
};

static const struct {
    const char *name;
    unsigned funct;
    bool variable;
} shift_ops[] = {
    {"sll", 0x00, false}, {"srl", 0x02, false}, {"sra", 0x03, false},
    {"sllv", 0x04, true}, {"srlv", 0x06, true}, {"srav", 0x07, true},
};

static const struct {
    const char *name;
    unsigned opcode;
} memory_ops[] = {
    {"lb", 0x20}, {"lh", 0x21}, {"lw", 0x23}, {"lbu", 0x24}, {"lhu", 0x25}, {"sb", 0x28}, {"sh", 0x29}, {"sw", 0x2B},
};

/* Vector computational instructions, indexed by their function code. */
static const char *const vector_ops[64] = {
    "vmulf", "vmulu", "vrndp", "vmulq", "vmudl", "vmudm", "vmudn", "vmudh", "vmacf", "vmacu", "vrndn",
    "vmacq", "vmadl", "vmadm", "vmadn", "vmadh", "vadd",  "vsub",  "vsut",  "vabs",  "vaddc", "vsubc",
    "vaddb", "vsubb", "vaccb", "vsucb", "vsad",  "vsac",  "vsum",  "vsar",  "vacc",  "vsuc",  "vlt",
    "veq",   "vne",   "vge",   "vcl",   "vch",   "vcr",   "vmrg",  "vand",  "vnand", "vor",   "vnor",
    "vxor",  "vnxor", NULL,    NULL,    "vrcp",  "vrcpl", "vrcph", "vmov",  "vrsq",  "vrsql", "vrsqh",
    "vnop",  NULL,    NULL,    NULL,    NULL,    NULL,    NULL,    NULL,    "vnull",
};

/* Vector loads/stores: the rd field code and log2 of the offset unit. */
static const struct {
    const char *load, *store;
    unsigned shift;
} vector_memory_ops[12] = {
    {"lbv", "sbv", 0}, {"lsv", "ssv", 1}, {"llv", "slv", 2}, {"ldv", "sdv", 3}, {"lqv", "sqv", 4}, {"lrv", "srv", 4},
    {"lpv", "spv", 3}, {"luv", "suv", 3}, {"lhv", "shv", 4}, {"lfv", "sfv", 4}, {"lwv", "swv", 4}, {"ltv", "stv", 4},
};

static bool expect_operands(assembler_t *as, const statement_t *st, int low, int high)
{
    if (st->count < low || st->count > high)
        return fail(as, "'%s' takes %d..%d operands, got %d", st->mnemonic, low, high, st->count);
    return true;
}

static bool encode_alu(assembler_t *as, const statement_t *st, const alu_op_t *op, uint32_t *word)
{
    if (!expect_operands(as, st, 2, 3))
        return false;
    unsigned rd = 0, rs = 0, rt = 0; /* set by the operand parsers */
    int64_t imm;
    const char *last = st->operands[st->count - 1];
    if (!gpr_operand(as, st->operands[0], &rd))
        return false;
    rs = rd;
    if (st->count == 3 && !gpr_operand(as, st->operands[1], &rs))
        return false;
    if (gpr_number(last) >= 0 && op->funct >= 0) {
        rt = (unsigned)gpr_number(last);
        *word = r_type(rs, rt, rd, 0, (unsigned)op->funct);
        return true;
    }
    if (op->imm_opcode < 0 || !number_operand(as, last, &imm))
        return fail(as, "bad operands for '%s'", st->mnemonic);
    *word = i_type((unsigned)op->imm_opcode, rs, rd, op->negate ? -imm : imm);
    return true;
}

static bool encode_shift(assembler_t *as, const statement_t *st, unsigned funct, bool variable, uint32_t *word)
{
    if (!expect_operands(as, st, 2, 3))
        return false;
    unsigned rd = 0, rt = 0, rs = 0; /* set by the operand parsers */
    if (!gpr_operand(as, st->operands[0], &rd))
        return false;
    rt = rd;
    if (st->count == 3 && !gpr_operand(as, st->operands[1], &rt))
        return false;
    const char *amount = st->operands[st->count - 1];
    if (variable) {
        if (!gpr_operand(as, amount, &rs))
            return false;
        *word = r_type(rs, rt, rd, 0, funct);
    } else {
        int64_t sa;
        if (!number_operand(as, amount, &sa))
            return false;
        *word = r_type(0, rt, rd, (unsigned)sa & 31u, funct);
    }
    return true;
}

static uint32_t branch_offset(uint32_t pc, uint32_t target) { return ((target - (pc + 4)) >> 2) & 0xFFFFu; }

static bool encode_branch(assembler_t *as, const statement_t *st, uint32_t pc, uint32_t *word)
{
    const char *m = st->mnemonic;
    unsigned rs = 0, rt = 0, opcode = 0x04;
    uint32_t target;
    if (strcmp(m, "beq") == 0 || strcmp(m, "bne") == 0) {
        if (!expect_operands(as, st, 3, 3) || !gpr_operand(as, st->operands[0], &rs) ||
            !gpr_operand(as, st->operands[1], &rt))
            return false;
        opcode = m[1] == 'e' ? 0x04 : 0x05;
    } else if (strcmp(m, "b") == 0) {
        if (!expect_operands(as, st, 1, 1))
            return false;
    } else {
        static const struct {
            const char *name;
            unsigned opcode, rt;
        } forms[] = {
            {"beqz", 0x04, 0}, {"bnez", 0x05, 0},   {"blez", 0x06, 0},     {"bgtz", 0x07, 0},
            {"bltz", 0x01, 0}, {"bgez", 0x01, 1}, {"bltzal", 0x01, 0x10}, {"bgezal", 0x01, 0x11},
        };
        size_t i = 0;
        while (strcmp(forms[i].name, m) != 0)
            i++;
        if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rs))
            return false;
        opcode = forms[i].opcode;
        rt = forms[i].rt;
    }
    if (!target_operand(as, st->operands[st->count - 1], &target))
        return false;
    *word = (opcode << 26) | (rs << 21) | (rt << 16) | branch_offset(pc, target);
    return true;
}

static bool is_branch(const char *m)
{
    static const char *const names[] = {"beq", "bne", "b", "beqz", "bnez", "blez", "bgtz", "bltz", "bgez", "bltzal", "bgezal"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(m, names[i]) == 0)
            return true;
    return false;
}

static bool encode_vector(assembler_t *as, const statement_t *st, unsigned funct, uint32_t *word)
{
    unsigned vd, vs, vt, e = 0, de = 0;
    bool has_e;
    uint32_t base = (0x12u << 26) | (1u << 25);
    if (funct == 0x37 || funct == 0x3F) { /* vnop, vnull */
        if (!expect_operands(as, st, 0, 0))
            return false;
        *word = base | funct;
        return true;
    }
    if (funct >= 0x30) { /* single lane: vd[de], vt[e] */
        if (!expect_operands(as, st, 2, 2) || !vector_operand(as, st->operands[0], &vd, &de, &has_e) ||
            !vector_operand(as, st->operands[1], &vt, &e, &has_e))
            return false;
        *word = base | (e << 21) | (vt << 16) | (de << 11) | (vd << 6) | funct;
        return true;
    }
    /* vd,vs,vt[e] or the short form vd,vt[e] meaning vd,vd,vt[e]. */
    if (!expect_operands(as, st, 2, 3) || !vector_operand(as, st->operands[0], &vd, &de, &has_e))
        return false;
    vs = vd;
    if (st->count == 3 && !vector_operand(as, st->operands[1], &vs, &de, &has_e))
        return false;
    if (!vector_operand(as, st->operands[st->count - 1], &vt, &e, &has_e))
        return false;
    *word = base | (e << 21) | (vt << 16) | (vs << 11) | (vd << 6) | funct;
    return true;
}

static bool encode_vector_memory(assembler_t *as, const statement_t *st, bool store, unsigned code, unsigned shift,
                                 uint32_t *word)
{
    unsigned vt, e, base;
    bool has_e;
    int64_t offset;
    if (!expect_operands(as, st, 2, 2) || !vector_operand(as, st->operands[0], &vt, &e, &has_e) ||
        !memory_operand(as, st->operands[1], &offset, &base))
        return false;
    /* bass takes byte offsets and keeps offset >> shift (rounding down) in the
     * 7-bit field. */
    int64_t scaled = offset >= 0 ? offset >> shift : -((-offset - 1) >> shift) - 1;
    uint32_t field = (uint32_t)scaled & 0x7Fu;
    *word = ((store ? 0x3Au : 0x32u) << 26) | (base << 21) | (vt << 16) | (code << 11) | (e << 7) | field;
    return true;
}

static bool encode_cop2_move(assembler_t *as, const statement_t *st, uint32_t *word)
{
    const char *m = st->mnemonic;
    unsigned rt = 0, vs = 0, e = 0;
    bool has_e;
    if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rt))
        return false;
    unsigned rs_field = m[0] == 'm' ? (m[1] == 'f' ? 0x00 : 0x04) : (m[0] == 'c' && m[1] == 'f' ? 0x02 : 0x06);
    if (m[0] == 'm') {
        if (!vector_operand(as, st->operands[1], &vs, &e, &has_e))
            return false;
    } else {
        static const char *const controls[] = {"vco", "vcc", "vce"};
        int64_t n = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(st->operands[1], controls[i]) == 0)
                n = i;
        if (n < 0 && !number_operand(as, st->operands[1], &n))
            return false;
        vs = (unsigned)n & 31u;
    }
    *word = (0x12u << 26) | (rs_field << 21) | (rt << 16) | (vs << 11) | (e << 7);
    return true;
}

/* li: always lui + ori, as bass emits it, so that code addresses match the
 * programs that were recorded on hardware. */
static size_t encode_li(assembler_t *as, const statement_t *st, uint32_t words[2])
{
    unsigned rt = 0; /* set by the operand parsers; zero keeps -O2 from guessing */
    int64_t value;
    if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rt) ||
        !number_operand(as, st->operands[1], &value))
        return 0;
    uint32_t v = (uint32_t)value;
    words[0] = i_type(0x0F, 0, rt, v >> 16);
    words[1] = i_type(0x0D, rt, rt, v & 0xFFFFu);
    return 2;
}

/* Encodes one statement at pc; returns the number of words (0 on error). */
static size_t encode(assembler_t *as, const statement_t *st, uint32_t pc, uint32_t words[2])
{
    const char *m = st->mnemonic;
    unsigned rs = 0, rt = 0, rd = 0; /* set by the operand parsers */
    uint32_t target;

    if (strcmp(m, "li") == 0)
        return encode_li(as, st, words);
    if (strcmp(m, "nop") == 0)
        return expect_operands(as, st, 0, 0) ? (words[0] = 0, 1) : 0;
    if (strcmp(m, "break") == 0)
        return expect_operands(as, st, 0, 0) ? (words[0] = 0x0D, 1) : 0;
    if (strcmp(m, "move") == 0) {
        if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rd) ||
            !gpr_operand(as, st->operands[1], &rs))
            return 0;
        words[0] = r_type(rs, 0, rd, 0, 0x21);
        return 1;
    }
    if (strcmp(m, "lui") == 0) {
        int64_t imm;
        if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rt) ||
            !number_operand(as, st->operands[1], &imm))
            return 0;
        words[0] = i_type(0x0F, 0, rt, imm);
        return 1;
    }
    if (strcmp(m, "j") == 0 || strcmp(m, "jal") == 0) {
        if (!expect_operands(as, st, 1, 1) || !target_operand(as, st->operands[0], &target))
            return 0;
        words[0] = ((m[1] == 'a' ? 0x03u : 0x02u) << 26) | ((target >> 2) & 0x03FFFFFFu);
        return 1;
    }
    if (strcmp(m, "jr") == 0) {
        if (!expect_operands(as, st, 1, 1) || !gpr_operand(as, st->operands[0], &rs))
            return 0;
        words[0] = r_type(rs, 0, 0, 0, 0x08);
        return 1;
    }
    if (strcmp(m, "jalr") == 0) {
        rd = 31;
        if (!expect_operands(as, st, 1, 2) || (st->count == 2 && !gpr_operand(as, st->operands[0], &rd)) ||
            !gpr_operand(as, st->operands[st->count - 1], &rs))
            return 0;
        words[0] = r_type(rs, 0, rd, 0, 0x09);
        return 1;
    }
    if (strcmp(m, "mfc0") == 0 || strcmp(m, "mtc0") == 0) {
        int64_t reg;
        if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rt) ||
            !number_operand(as, st->operands[1], &reg))
            return 0;
        words[0] = (0x10u << 26) | ((m[1] == 'f' ? 0x00u : 0x04u) << 21) | (rt << 16) | (((unsigned)reg & 31u) << 11);
        return 1;
    }
    if (strcmp(m, "mfc2") == 0 || strcmp(m, "mtc2") == 0 || strcmp(m, "cfc2") == 0 || strcmp(m, "ctc2") == 0)
        return encode_cop2_move(as, st, &words[0]) ? 1 : 0;
    if (is_branch(m))
        return encode_branch(as, st, pc, &words[0]) ? 1 : 0;
    for (size_t i = 0; i < sizeof(alu_ops) / sizeof(alu_ops[0]); i++)
        if (strcmp(m, alu_ops[i].name) == 0)
            return encode_alu(as, st, &alu_ops[i], &words[0]) ? 1 : 0;
    for (size_t i = 0; i < sizeof(shift_ops) / sizeof(shift_ops[0]); i++)
        if (strcmp(m, shift_ops[i].name) == 0)
            return encode_shift(as, st, shift_ops[i].funct, shift_ops[i].variable, &words[0]) ? 1 : 0;
    for (size_t i = 0; i < sizeof(memory_ops) / sizeof(memory_ops[0]); i++) {
        if (strcmp(m, memory_ops[i].name) == 0) {
            int64_t offset;
            if (!expect_operands(as, st, 2, 2) || !gpr_operand(as, st->operands[0], &rt) ||
                !memory_operand(as, st->operands[1], &offset, &rs))
                return 0;
            words[0] = i_type(memory_ops[i].opcode, rs, rt, offset);
            return 1;
        }
    }
    for (unsigned code = 0; code < 12; code++) {
        bool load = strcmp(m, vector_memory_ops[code].load) == 0, store = strcmp(m, vector_memory_ops[code].store) == 0;
        if (load || store)
            return encode_vector_memory(as, st, store, code, vector_memory_ops[code].shift, &words[0]) ? 1 : 0;
    }
    for (unsigned funct = 0; funct < 64; funct++)
        if (vector_ops[funct] && strcmp(m, vector_ops[funct]) == 0)
            return encode_vector(as, st, funct, &words[0]) ? 1 : 0;
    fail(as, "unsupported instruction '%s'", m);
    return 0;
}

/* ---- source lines ---- */

static void trim(char *text)
{
    size_t length = strlen(text);
    while (length && isspace((unsigned char)text[length - 1]))
        text[--length] = '\0';
    size_t start = 0;
    while (isspace((unsigned char)text[start]))
        start++;
    memmove(text, text + start, length - start + 1);
}

static bool copy_field(assembler_t *as, char *dest, const char *text, size_t length)
{
    if (length >= MAX_NAME)
        return fail(as, "token too long");
    memcpy(dest, text, length);
    dest[length] = '\0';
    trim(dest);
    return true;
}

/* Splits one line into an optional label and an optional statement. */
static bool parse_line(assembler_t *as, const char *line, char *label, statement_t *st)
{
    char text[256];
    const char *comment = strstr(line, "//");
    size_t length = comment ? (size_t)(comment - line) : strlen(line);
    if (length >= sizeof(text))
        return fail(as, "line too long");
    memcpy(text, line, length);
    text[length] = '\0';
    trim(text);

    label[0] = '\0';
    st->mnemonic[0] = '\0';
    st->count = 0;
    char *rest = text;
    size_t ident = 0;
    while (isalnum((unsigned char)rest[ident]) || rest[ident] == '_')
        ident++;
    if (ident && rest[ident] == ':') {
        if (!copy_field(as, label, rest, ident))
            return false;
        rest += ident + 1;
        trim(rest);
    }
    if (!*rest)
        return true;

    size_t word = 0;
    while (rest[word] && !isspace((unsigned char)rest[word]))
        word++;
    if (!copy_field(as, st->mnemonic, rest, word))
        return false;
    for (char *c = st->mnemonic; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    const char *operand = rest + word;
    while (isspace((unsigned char)*operand))
        operand++;
    while (*operand) {
        if (st->count == MAX_OPERANDS)
            return fail(as, "too many operands");
        const char *comma = strchr(operand, ',');
        size_t n = comma ? (size_t)(comma - operand) : strlen(operand);
        if (!copy_field(as, st->operands[st->count++], operand, n))
            return false;
        operand += n + (comma ? 1 : 0);
    }
    return true;
}

static bool run_pass(assembler_t *as, const char *source, uint8_t *code, size_t capacity, size_t *size)
{
    uint32_t pc = 0;
    const char *line = source;
    as->line = 0;
    while (*line) {
        const char *newline = strchr(line, '\n');
        size_t length = newline ? (size_t)(newline - line) : strlen(line);
        char buffer[256], label[MAX_NAME];
        statement_t st;
        as->line++;
        if (length >= sizeof(buffer))
            return fail(as, "line too long");
        memcpy(buffer, line, length);
        buffer[length] = '\0';
        line += length + (newline ? 1 : 0);

        if (!parse_line(as, buffer, label, &st))
            return false;
        if (label[0] && !as->encoding) {
            if (as->label_count == MAX_LABELS)
                return fail(as, "too many labels");
            for (size_t i = 0; i < as->label_count; i++)
                if (strcmp(as->labels[i].name, label) == 0)
                    return fail(as, "duplicate label '%s'", label);
            strcpy(as->labels[as->label_count].name, label);
            as->labels[as->label_count++].address = pc;
        }
        if (!st.mnemonic[0])
            continue;
        uint32_t words[2];
        size_t count = encode(as, &st, pc, words);
        if (count == 0)
            return false;
        for (size_t i = 0; i < count; i++, pc += 4) {
            if (pc + 4 > capacity)
                return fail(as, "program does not fit in %zu bytes", capacity);
            if (as->encoding)
                for (unsigned b = 0; b < 4; b++)
                    code[pc + b] = (uint8_t)(words[i] >> (24 - 8 * b));
        }
    }
    *size = pc;
    return true;
}

bool bass_assemble(const char *source, uint8_t *code, size_t capacity, size_t *size, char *error, size_t error_size)
{
    assembler_t *as = calloc(1, sizeof(*as));
    if (!as) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    as->error = error;
    as->error_size = error_size;
    bool ok = run_pass(as, source, code, capacity, size);
    as->encoding = true;
    ok = ok && run_pass(as, source, code, capacity, size);
    free(as);
    return ok;
}
