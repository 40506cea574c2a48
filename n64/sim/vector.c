/* Vector unit computational instructions (COP2 with bit 25 set): multiplies
 * with the 48-bit accumulator, adds, logic, selects/clip tests, and the
 * single-lane reciprocal/move group. */
#include "rsp_internal.h"

enum {
    VMULF = 0x00, VMULU = 0x01, VRNDP = 0x02, VMULQ = 0x03, VMUDL = 0x04, VMUDM = 0x05, VMUDN = 0x06,
    VMUDH = 0x07, VMACF = 0x08, VMACU = 0x09, VRNDN = 0x0A, VMACQ = 0x0B, VMADL = 0x0C, VMADM = 0x0D,
    VMADN = 0x0E, VMADH = 0x0F, VADD = 0x10, VSUB = 0x11, VABS = 0x13, VADDC = 0x14, VSUBC = 0x15,
    VSAR = 0x1D, VLT = 0x20, VEQ = 0x21, VNE = 0x22, VGE = 0x23, VCL = 0x24, VCH = 0x25, VCR = 0x26,
    VMRG = 0x27, VAND = 0x28, VNAND = 0x29, VOR = 0x2A, VNOR = 0x2B, VXOR = 0x2C, VNXOR = 0x2D,
    VRCP = 0x30, VRCPL = 0x31, VRCPH = 0x32, VMOV = 0x33, VRSQ = 0x34, VRSQL = 0x35, VRSQH = 0x36,
    VNOP = 0x37, VNULL = 0x3F,
};

#define ACC_MIN32 (-(INT64_C(1) << 31))
#define ACC_MAX32 ((INT64_C(1) << 31) - 1)

typedef struct operands {
    uint16_t vs[8];
    uint16_t vt[8]; /* after the element selector */
    uint16_t result[8];
} operands_t;

static int64_t acc_get(const rsp_t *rsp, unsigned lane)
{
    uint64_t raw = ((uint64_t)rsp->acc_hi[lane] << 32) | ((uint64_t)rsp->acc_md[lane] << 16) | rsp->acc_lo[lane];
    return (int64_t)(raw & UINT64_C(0x7FFFFFFFFFFF)) - (int64_t)(raw & UINT64_C(0x800000000000));
}

/* Keeps the low 48 bits: the accumulator wraps silently. */
static void acc_set(rsp_t *rsp, unsigned lane, int64_t value)
{
    uint64_t raw = (uint64_t)value;
    rsp->acc_hi[lane] = (uint16_t)(raw >> 32);
    rsp->acc_md[lane] = (uint16_t)(raw >> 16);
    rsp->acc_lo[lane] = (uint16_t)raw;
}

static void acc_add(rsp_t *rsp, unsigned lane, int64_t value) { acc_set(rsp, lane, acc_get(rsp, lane) + value); }

/* Accumulator bits 47..16 clamped to a signed 16-bit value. */
static uint16_t clamp_signed_mid(const rsp_t *rsp, unsigned lane)
{
    int64_t acc = acc_get(rsp, lane);
    if (acc < ACC_MIN32)
        return 0x8000u;
    if (acc > ACC_MAX32)
        return 0x7FFFu;
    return rsp->acc_md[lane];
}

/* Accumulator bits 47..16 clamped for VMULU/VMACU: negatives give 0, values
 * that do not fit 15 bits give 0xFFFF. */
static uint16_t clamp_unsigned_mid(const rsp_t *rsp, unsigned lane)
{
    int64_t acc = acc_get(rsp, lane);
    if (acc < 0)
        return 0;
    if (acc > ACC_MAX32)
        return 0xFFFFu;
    return rsp->acc_md[lane];
}

/* Accumulator bits 15..0 when bits 47..16 are a valid signed 16-bit number,
 * otherwise 0 (negative) or 0xFFFF (positive). */
static uint16_t clamp_low(const rsp_t *rsp, unsigned lane)
{
    int64_t acc = acc_get(rsp, lane);
    if (acc < ACC_MIN32)
        return 0;
    if (acc > ACC_MAX32)
        return 0xFFFFu;
    return rsp->acc_lo[lane];
}

static uint16_t clamp16(int32_t v)
{
    if (v < -32768)
        v = -32768;
    if (v > 32767)
        v = 32767;
    return (uint16_t)(v & 0xFFFF);
}

static bool lane_bit(uint8_t mask, unsigned lane) { return (mask >> lane) & 1u; }

static void set_lane_bit(uint8_t *mask, unsigned lane, bool value)
{
    *mask = (uint8_t)(value ? (*mask | (1u << lane)) : (*mask & ~(1u << lane)));
}

static void multiply(rsp_t *rsp, unsigned funct, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int64_t ss = rsp_s16(op->vs[n]), tt = rsp_s16(op->vt[n]);
        int64_t us = op->vs[n], ut = op->vt[n];
        switch (funct) {
        case VMULF:
        case VMULU:
            acc_set(rsp, n, ss * tt * 2 + 0x8000);
            op->result[n] = funct == VMULF ? clamp_signed_mid(rsp, n) : clamp_unsigned_mid(rsp, n);
            break;
        case VMACF:
        case VMACU:
            acc_add(rsp, n, ss * tt * 2);
            op->result[n] = funct == VMACF ? clamp_signed_mid(rsp, n) : clamp_unsigned_mid(rsp, n);
            break;
        case VMUDL:
        case VMADL:
            if (funct == VMUDL)
                acc_set(rsp, n, 0);
            acc_add(rsp, n, (us * ut) >> 16);
            op->result[n] = clamp_low(rsp, n);
            break;
        case VMUDM:
        case VMADM:
            if (funct == VMUDM)
                acc_set(rsp, n, 0);
            acc_add(rsp, n, ss * ut);
            op->result[n] = clamp_signed_mid(rsp, n);
            break;
        case VMUDN:
        case VMADN:
            if (funct == VMUDN)
                acc_set(rsp, n, 0);
            acc_add(rsp, n, us * tt);
            op->result[n] = clamp_low(rsp, n);
            break;
        case VMUDH:
        case VMADH:
            if (funct == VMUDH)
                acc_set(rsp, n, 0);
            acc_add(rsp, n, ss * tt * 65536);
            op->result[n] = clamp_signed_mid(rsp, n);
            break;
        default: break;
        }
    }
}

/* MPEG helpers: VMULQ/VMACQ produce (value >> 1) clamped, with the low 4
 * bits cleared. */
static uint16_t mpeg_result(int64_t value)
{
    int64_t half = rsp_asr64(value, 1);
    if (half < -32768)
        half = -32768;
    if (half > 32767)
        half = 32767;
    return (uint16_t)((uint64_t)half & 0xFFF0u);
}

static void mpeg_quantize(rsp_t *rsp, unsigned funct, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int64_t value;
        if (funct == VMULQ) {
            /* Negative products are rounded toward zero before the shift. */
            value = (int64_t)rsp_s16(op->vs[n]) * rsp_s16(op->vt[n]);
            if (value < 0)
                value += 31;
        } else {
            /* Oddification of accumulator bits 47..16. */
            value = rsp_asr64(acc_get(rsp, n), 16);
            if ((value & 32) == 0)
                value += value < 0 ? 32 : -32;
        }
        acc_set(rsp, n, value * 65536);
        op->result[n] = mpeg_result(value);
    }
}

/* VRNDP adds to non-negative accumulators, VRNDN to negative ones; the vs
 * field (not the register) selects whether vt is shifted up by 16. */
static void dct_round(rsp_t *rsp, unsigned funct, unsigned vs_field, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int64_t addend = rsp_s16(op->vt[n]);
        if (vs_field & 1u)
            addend *= 65536;
        int64_t acc = acc_get(rsp, n);
        if ((funct == VRNDP) == (acc >= 0))
            acc_set(rsp, n, acc + addend);
        op->result[n] = clamp_signed_mid(rsp, n);
    }
}

static void add_subtract(rsp_t *rsp, unsigned funct, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int32_t s = rsp_s16(op->vs[n]), t = rsp_s16(op->vt[n]);
        int32_t carry = lane_bit(rsp->vco_lo, n);
        uint32_t us = op->vs[n], ut = op->vt[n];
        switch (funct) {
        case VADD:
        case VSUB: {
            int32_t sum = funct == VADD ? s + t + carry : s - t - carry;
            rsp->acc_lo[n] = (uint16_t)((uint32_t)sum & 0xFFFFu);
            op->result[n] = clamp16(sum);
            break;
        }
        case VADDC: {
            uint32_t sum = us + ut;
            rsp->acc_lo[n] = (uint16_t)sum;
            op->result[n] = (uint16_t)sum;
            set_lane_bit(&rsp->vco_lo, n, sum > 0xFFFFu);
            break;
        }
        case VSUBC: {
            uint32_t difference = us - ut;
            rsp->acc_lo[n] = (uint16_t)difference;
            op->result[n] = (uint16_t)difference;
            set_lane_bit(&rsp->vco_lo, n, us < ut);
            set_lane_bit(&rsp->vco_hi, n, us != ut);
            break;
        }
        case VABS: {
            /* vt with the sign of vs applied; -(-32768) saturates to 32767 in
             * vd but wraps in the accumulator. */
            int32_t value = s < 0 ? -t : s > 0 ? t : 0;
            rsp->acc_lo[n] = (uint16_t)((uint32_t)value & 0xFFFFu);
            op->result[n] = clamp16(value);
            break;
        }
        default: break;
        }
    }
    if (funct == VADD || funct == VSUB || funct == VADDC) {
        rsp->vco_hi = 0;
        if (funct != VADDC)
            rsp->vco_lo = 0;
    }
}

static void logical(rsp_t *rsp, unsigned funct, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        uint16_t s = op->vs[n], t = op->vt[n], r;
        switch (funct) {
        case VAND: r = s & t; break;
        case VNAND: r = (uint16_t)~(s & t); break;
        case VOR: r = s | t; break;
        case VNOR: r = (uint16_t)~(s | t); break;
        case VXOR: r = s ^ t; break;
        default: r = (uint16_t)~(s ^ t); break;
        }
        rsp->acc_lo[n] = r;
        op->result[n] = r;
    }
}

/* VLT/VEQ/VNE/VGE: VCC_LO gets the comparison, VCO_HI ("not equal" from a
 * previous VCH/VSUBC) and VCO_LO refine the equal case. */
static void compare(rsp_t *rsp, unsigned funct, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int32_t s = rsp_s16(op->vs[n]), t = rsp_s16(op->vt[n]);
        bool carry = lane_bit(rsp->vco_lo, n), not_equal = lane_bit(rsp->vco_hi, n);
        bool condition;
        switch (funct) {
        case VLT: condition = s < t || (s == t && carry && not_equal); break;
        case VEQ: condition = s == t && !not_equal; break;
        case VNE: condition = s != t || not_equal; break;
        default: condition = s > t || (s == t && !(carry && not_equal)); break;
        }
        set_lane_bit(&rsp->vcc_lo, n, condition);
        rsp->acc_lo[n] = condition ? op->vs[n] : op->vt[n];
        op->result[n] = rsp->acc_lo[n];
    }
    rsp->vcc_hi = 0;
    rsp->vco_lo = 0;
    rsp->vco_hi = 0;
}

/* VCH: clip test of the high halves (or single precision values). */
static void clip_high(rsp_t *rsp, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int32_t s = rsp_s16(op->vs[n]), t = rsp_s16(op->vt[n]);
        bool opposite = (s < 0) != (t < 0);
        uint16_t vt_abs = opposite ? (uint16_t)((0u - op->vt[n]) & 0xFFFFu) : op->vt[n];
        /* Operands of opposite sign cannot overflow when summed, nor equal
         * signs when subtracted. */
        int32_t difference = opposite ? s + t : s - t;
        bool le, ge, extension = false;
        if (opposite) {
            le = difference <= 0;
            ge = t < 0;
            extension = difference == -1;
        } else {
            le = t < 0;
            ge = difference >= 0;
        }
        set_lane_bit(&rsp->vcc_lo, n, le);
        set_lane_bit(&rsp->vcc_hi, n, ge);
        set_lane_bit(&rsp->vco_lo, n, opposite);
        set_lane_bit(&rsp->vco_hi, n, difference != 0 && !extension);
        set_lane_bit(&rsp->vce, n, extension);
        rsp->acc_lo[n] = (opposite ? le : ge) ? vt_abs : op->vs[n];
        op->result[n] = rsp->acc_lo[n];
    }
}

/* VCR: like VCH for ones' complement values; leaves VCO and VCE clear. */
static void clip_ones_complement(rsp_t *rsp, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        int32_t s = rsp_s16(op->vs[n]), t = rsp_s16(op->vt[n]);
        bool opposite = (s < 0) != (t < 0);
        uint16_t vt_abs = opposite ? (uint16_t)~op->vt[n] : op->vt[n];
        bool le, ge;
        if (opposite) {
            le = s + t < 0;
            ge = t < 0;
        } else {
            le = t < 0;
            ge = s >= t;
        }
        set_lane_bit(&rsp->vcc_lo, n, le);
        set_lane_bit(&rsp->vcc_hi, n, ge);
        rsp->acc_lo[n] = (opposite ? le : ge) ? vt_abs : op->vs[n];
        op->result[n] = rsp->acc_lo[n];
    }
    rsp->vco_lo = 0;
    rsp->vco_hi = 0;
    rsp->vce = 0;
}

/* VCL: clip test of the low halves, refining what a previous VCH left in
 * VCO/VCC/VCE. Comparisons are unsigned. */
static void clip_low(rsp_t *rsp, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        uint32_t s = op->vs[n], t = op->vt[n];
        bool opposite = lane_bit(rsp->vco_lo, n), not_equal = lane_bit(rsp->vco_hi, n);
        bool extension = lane_bit(rsp->vce, n);
        uint16_t vt_abs = opposite ? (uint16_t)((0u - t) & 0xFFFFu) : (uint16_t)t;
        uint32_t sum = s + t;
        bool le = lane_bit(rsp->vcc_lo, n), ge = lane_bit(rsp->vcc_hi, n);
        if (opposite && !not_equal)
            le = extension ? sum <= 0x10000u : sum == 0;
        if (!opposite && !not_equal)
            ge = s >= t;
        set_lane_bit(&rsp->vcc_lo, n, le);
        set_lane_bit(&rsp->vcc_hi, n, ge);
        rsp->acc_lo[n] = (opposite ? le : ge) ? vt_abs : (uint16_t)s;
        op->result[n] = rsp->acc_lo[n];
    }
    rsp->vco_lo = 0;
    rsp->vco_hi = 0;
    rsp->vce = 0;
}

static void merge(rsp_t *rsp, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        rsp->acc_lo[n] = lane_bit(rsp->vcc_lo, n) ? op->vs[n] : op->vt[n];
        op->result[n] = rsp->acc_lo[n];
    }
    rsp->vco_lo = 0;
    rsp->vco_hi = 0;
}

/* Reserved encodings: the adder still runs (the accumulator gets vs + vt)
 * but vd is written with zero. */
static void reserved(rsp_t *rsp, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        rsp->acc_lo[n] = (uint16_t)(op->vs[n] + op->vt[n]);
        op->result[n] = 0;
    }
}

static void read_accumulator(const rsp_t *rsp, unsigned e, operands_t *op)
{
    for (unsigned n = 0; n < 8; n++) {
        switch (e) {
        case 8: op->result[n] = rsp->acc_hi[n]; break;
        case 9: op->result[n] = rsp->acc_md[n]; break;
        case 10: op->result[n] = rsp->acc_lo[n]; break;
        default: op->result[n] = 0; break;
        }
    }
}

/* 32-bit reciprocal (or inverse square root) of a signed input, in the
 * RSP's fixed-point format: 1/x scaled by 2^31, 1/sqrt(x) by 2^31 / 2^(k/2). */
static uint32_t reciprocal(const rsp_t *rsp, int32_t input, bool square_root)
{
    if (input == 0)
        return 0x7FFFFFFFu;
    if (input == -32768)
        return 0xFFFF0000u;
    uint32_t mask = input < 0 ? 0xFFFFFFFFu : 0;
    /* Inputs below -32768 (only reachable in double precision) use the ones'
     * complement instead of the absolute value. */
    uint32_t data = (uint32_t)input ^ mask;
    if (input > -32768)
        data -= mask;
    unsigned shift = 0;
    while (!(data & (0x80000000u >> shift)))
        shift++;
    unsigned index = (unsigned)(((uint64_t)data << shift) & 0x7FC00000u) >> 22;
    uint32_t result;
    if (square_root) {
        result = (0x10000u | rsp->rsq_rom[(index & 0x1FEu) | (shift & 1u)]) << 14;
        result >>= (31 - shift) >> 1;
    } else {
        result = (0x10000u | rsp->rcp_rom[index]) << 14;
        result >>= 31 - shift;
    }
    return result ^ mask;
}

/* VRCP/VRSQ/VMOV group: reads lane e & 7 of vt, writes lane de of vd (the
 * vs field holds de). Like other ops, it leaves vt(e) in the accumulator. */
static void single_lane(rsp_t *rsp, unsigned funct, unsigned vd, unsigned de, uint16_t source, const operands_t *op)
{
    uint16_t *dest = &rsp->vr[vd][de];
    for (unsigned n = 0; n < 8; n++)
        rsp->acc_lo[n] = op->vt[n];

    switch (funct) {
    case VMOV: *dest = source; break;
    case VRCPH:
    case VRSQH:
        *dest = rsp->div_out;
        rsp->div_in = source;
        rsp->div_in_loaded = true;
        break;
    default: {
        bool double_precision = (funct == VRCPL || funct == VRSQL) && rsp->div_in_loaded;
        int32_t input = double_precision ? (int32_t)rsp_s32(((uint32_t)rsp->div_in << 16) | source) : rsp_s16(source);
        uint32_t result = reciprocal(rsp, input, funct == VRSQ || funct == VRSQL);
        rsp->div_in_loaded = false;
        rsp->div_out = (uint16_t)(result >> 16);
        *dest = (uint16_t)result;
        break;
    }
    }
}

void rsp_vector_execute(rsp_t *rsp, uint32_t instr)
{
    unsigned funct = RSP_FUNCT(instr), e = (instr >> 21) & 15u;
    unsigned vt = RSP_RT(instr), vs = RSP_RD(instr), vd = RSP_SA(instr);
    operands_t op;
    for (unsigned n = 0; n < 8; n++) {
        op.vs[n] = rsp->vr[vs][n];
        op.vt[n] = rsp->vr[vt][rsp_element_lane(e, n)];
    }

    switch (funct) {
    case VMULF:
    case VMULU:
    case VMUDL:
    case VMUDM:
    case VMUDN:
    case VMUDH:
    case VMACF:
    case VMACU:
    case VMADL:
    case VMADM:
    case VMADN:
    case VMADH: multiply(rsp, funct, &op); break;
    case VMULQ:
    case VMACQ: mpeg_quantize(rsp, funct, &op); break;
    case VRNDP:
    case VRNDN: dct_round(rsp, funct, vs, &op); break;
    case VADD:
    case VSUB:
    case VABS:
    case VADDC:
    case VSUBC: add_subtract(rsp, funct, &op); break;
    case VSAR: read_accumulator(rsp, e, &op); break;
    case VLT:
    case VEQ:
    case VNE:
    case VGE: compare(rsp, funct, &op); break;
    case VCL: clip_low(rsp, &op); break;
    case VCH: clip_high(rsp, &op); break;
    case VCR: clip_ones_complement(rsp, &op); break;
    case VMRG: merge(rsp, &op); break;
    case VAND:
    case VNAND:
    case VOR:
    case VNOR:
    case VXOR:
    case VNXOR: logical(rsp, funct, &op); break;
    case VRCP:
    case VRCPL:
    case VRCPH:
    case VMOV:
    case VRSQ:
    case VRSQL:
    case VRSQH: single_lane(rsp, funct, vd, vs & 7u, rsp->vr[vt][e & 7u], &op); return;
    case VNOP:
    case VNULL: return;
    default: reserved(rsp, &op); break;
    }
    for (unsigned n = 0; n < 8; n++)
        rsp->vr[vd][n] = op.result[n];
}
