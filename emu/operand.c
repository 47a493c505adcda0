/* emu/operand — the shared operand helpers every semantics file uses (emu/internal.h "operand
 * helpers"): scalar and vector sources (inline constants, literals, abs/neg, op_sel, SDWA selects,
 * DPP lane selection) and writes under EXEC (SDWA dst_sel, omod, clamp). The inline fast paths
 * (emu_src32, emu_dst32, ...) are in emu/internal.h; these are their out-of-line cases. Calls only
 * the DPP lane selection (emu/dpp.c) and the whole-wave kernels (emu/simd.c). */
#include "emu/internal.h"

/* ---- scalar operands --------------------------------------------------------------------------*/
/* Inline float constants (CDNA3 ISA "Inline Constants": SSRC codes 240..248) */
static const uint32_t fimm_bits32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                        0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint16_t fimm_bits16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                        0xc000, 0x4400, 0xc400, 0x3118};
static const uint64_t fimm_bits64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull,
                                        0x3ff0000000000000ull, 0xbff0000000000000ull,
                                        0x4000000000000000ull, 0xc000000000000000ull,
                                        0x4010000000000000ull, 0xc010000000000000ull,
                                        0x3fc45f306dc9c882ull};

/* value of a non-register operand as `width` bits (16, 32, 64) */
static uint64_t const_val(const emu_wave *w, const emu_opnd *o, int width)
{
  switch (o->kind) {
  case EMU_OPK_IMM: return (uint64_t)o->ival & (width == 64 ? ~0ull : width == 32 ? 0xffffffffull : 0xffffull);
  case EMU_OPK_LIT: return (uint64_t)o->ival & (width == 64 ? ~0ull : width == 32 ? 0xffffffffull : 0xffffull);
  case EMU_OPK_FIMM:
    return width == 64 ? fimm_bits64[o->reg - 240] : width == 32 ? fimm_bits32[o->reg - 240]
                                                                 : fimm_bits16[o->reg - 240];
  case EMU_OPK_SCC: return w->scc;
  case EMU_OPK_EXECZ: return emu_exec(w) == 0;
  case EMU_OPK_VCCZ: return emu_vcc(w) == 0;
  case EMU_OPK_APERT: {
    /* 64-bit aperture bases; the 32-bit operand is the high half (CDNA3 ISA "SSRC"). A 64-bit
     * operand is the whole base: LLVM reads the aperture with `s_mov_b64 s[2:3], src_shared_base`
     * and uses s3 as the high dword of a flat LDS address (clang-22 output for a generic pointer
     * to __shared__). Returning the high half here too put it in s2 and left s3 = 0, so every
     * flat access to LDS faulted "out-of-bounds global access" at the bare LDS offset. */
    uint64_t v = o->reg == 235 ? EMU_LDS_APERTURE
               : o->reg == 236 ? EMU_LDS_APERTURE + 0xffffffffull
               : o->reg == 237 ? EMU_PRIVATE_APERTURE
                               : EMU_PRIVATE_APERTURE + 0xffffffffull;
    return width == 64 ? v : v >> 32;
  }
  default: return 0;
  }
}

uint32_t emu_const32(const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind != EMU_OPK_IMM && o->kind != EMU_OPK_LIT && o->kind != EMU_OPK_FIMM)
    ll_die(LL_EXIT_ENV, "emu_const32: operand %d of '%s' is not a constant", i, in->text ? in->text : in->mnem);
  return (uint32_t)const_val(NULL, o, 32); /* these kinds read no wave state */
}

uint32_t emu_ssrc32_slow(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) return w->s[o->reg];
  if (o->kind == EMU_OPK_VGPR) return w->v[o->reg * EMU_LANES]; /* v_readfirstlane-style misuse */
  return (uint32_t)const_val(w, o, 32);
}

uint64_t emu_ssrc64_slow(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) return o->n >= 2 ? emu_rd64s(w, o->reg) : w->s[o->reg];
  if (o->kind == EMU_OPK_IMM) return (uint64_t)o->ival; /* sign-extended */
  return const_val(w, o, 64);
}

uint64_t emu_srcmask_slow(const emu_wave *w, const emu_insn *in, int i)
{
  return emu_ssrc64(w, in, i);
}

void emu_dstmask(emu_wave *w, const emu_insn *in, int i, uint64_t bits)
{
  /* VOPC/carry-out: bits of lanes with EXEC off are written as 0 (CDNA3 ISA "VOPC") */
  emu_sdst64(w, in, i, bits & emu_exec(w));
}

/* ---- vector operands --------------------------------------------------------------------------*/

static const uint32_t *src_raw(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp, int width)
{
  const emu_opnd *o = &in->o[i];
  const uint32_t *p;
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) p = emu_vreg(w, in, i, 0);
  else if (o->kind == EMU_OPK_SGPR) emu_fill64(tmp, w->s[o->reg]), p = tmp;
  else emu_fill64(tmp, (uint32_t)const_val(w, o, width)), p = tmp;
  if (__builtin_expect(in->enc >= EMU_ENC_SDWA, 0)) {
    if (in->enc == EMU_ENC_DPP && i == in->src0i) {
      emu_dpp_src(w, in, p, tmp);
      p = tmp;
    } else if (in->enc == EMU_ENC_SDWA && (i == in->src0i || i == in->src0i + 1)) {
      int sel = i == in->src0i ? in->src0_sel : in->src1_sel;
      if (sel != EMU_SEL_DWORD || (o->mods & EMU_M_SEXT)) {
        /* SDWA source select (CDNA3 ISA "SDWA"): BYTE_n / WORD_n extracted, zero- or sign-extended
         * (SEXT), DWORD whole. The field worked out once, its bits moved to the top (by up) and
         * back, arithmetically for SEXT: a loop of two uniform shifts, which vectorizes */
        const uint32_t bits = sel <= 3 ? 8 : sel <= 5 ? 16 : 32;
        const uint32_t lo = sel <= 3 ? 8 * (uint32_t)sel : sel <= 5 ? 16 * (uint32_t)(sel - 4) : 0;
        const uint32_t up = 32 - bits - lo, dn = 32 - bits;
        if (o->mods & EMU_M_SEXT)
          for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint32_t)((int32_t)(p[l] << up) >> dn);
        else
          for (int l = 0; l < EMU_LANES; l++) tmp[l] = (p[l] << up) >> dn;
        p = tmp;
      }
    }
  }
  return p;
}

const uint32_t *emu_src32_slow(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp)
{
  return src_raw(w, in, i, tmp, 32);
}

const float *emu_srcf32(emu_wave *w, const emu_insn *in, int i, float *tmp)
{
  uint32_t *t = (uint32_t *)(void *)tmp;
  const uint32_t *p = src_raw(w, in, i, t, 32);
  uint8_t m = in->o[i].mods & (EMU_M_ABS | EMU_M_NEG);
  if (m) {
    /* abs clears, neg flips the sign bit (CDNA3 ISA "VOP3A" input modifiers) */
    uint32_t andm = (m & EMU_M_ABS) ? 0x7fffffffu : ~0u, xorm = (m & EMU_M_NEG) ? 0x80000000u : 0;
    for (int l = 0; l < EMU_LANES; l++) t[l] = (p[l] & andm) ^ xorm;
    p = t;
  } else if (p != t) {
    memcpy(t, p, EMU_LANES * 4);
  }
  return tmp;
}

void emu_src64(emu_wave *w, const emu_insn *in, int i, uint64_t *tmp)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    const uint32_t *lo = emu_vreg(w, in, i, 0), *hi = emu_vreg(w, in, i, 1);
    if (__builtin_expect(in->enc == EMU_ENC_DPP, 0) && i == in->src0i) {
      /* A 64-bit DPP source moves both halves by the same lane selection (CDNA3 ISA "DPP"),
       * e.g. v_mov_b64_dpp ... row_newbcast:n. */
      uint32_t slo[EMU_LANES], shi[EMU_LANES];
      emu_dpp_src(w, in, lo, slo);
      emu_dpp_src(w, in, hi, shi);
      for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint64_t)slo[l] | (uint64_t)shi[l] << 32;
      return;
    }
    emu_addr64(tmp, lo, hi, 0);
  } else {
    uint64_t v = emu_ssrc64(w, in, i);
    for (int l = 0; l < EMU_LANES; l++) tmp[l] = v;
  }
}

void emu_srcf64(emu_wave *w, const emu_insn *in, int i, double *tmp)
{
  uint64_t *t = (uint64_t *)(void *)tmp;
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_LIT && !(o->ival >> 32)) {
    /* a 32-bit literal for a 64-bit float operand supplies the high half (CDNA3 ISA "Literal
     * Constants") */
    uint64_t v = (uint64_t)o->ival << 32;
    for (int l = 0; l < EMU_LANES; l++) t[l] = v;
  } else {
    emu_src64(w, in, i, t);
  }
  uint8_t m = o->mods & (EMU_M_ABS | EMU_M_NEG);
  if (m) {
    uint64_t andm = (m & EMU_M_ABS) ? ~(1ull << 63) : ~0ull, xorm = (m & EMU_M_NEG) ? 1ull << 63 : 0;
    for (int l = 0; l < EMU_LANES; l++) t[l] = (t[l] & andm) ^ xorm;
  }
}

void emu_src16(emu_wave *w, const emu_insn *in, int i, uint16_t *tmp)
{
  uint32_t t32[EMU_LANES];
  const uint32_t *p = src_raw(w, in, i, t32, 16);
  int j = i - in->src0i;
  int sh = (in->enc != EMU_ENC_SDWA && j >= 0 && j < 3 && (in->op_sel >> j & 1)) ? 16 : 0;
  for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint16_t)(p[l] >> sh);
}

void emu_src16m(emu_wave *w, const emu_insn *in, int i, uint16_t *tmp)
{
  emu_src16(w, in, i, tmp);
  uint8_t m = in->o[i].mods;
  uint16_t andm = (m & EMU_M_ABS) ? 0x7fff : 0xffff, xorm = (m & EMU_M_NEG) ? 0x8000 : 0;
  for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint16_t)((tmp[l] & andm) ^ xorm);
}

void emu_srcf16(emu_wave *w, const emu_insn *in, int i, float *tmp)
{
  uint16_t h[EMU_LANES];
  emu_src16m(w, in, i, h);
  emu_f16_to_f32_64(tmp, h);
}

void emu_srcpk(emu_wave *w, const emu_insn *in, int i, int kind, uint16_t *lo, uint16_t *hi)
{
  /* VOP3P (CDNA3 ISA "VOP3P"): op_sel[j] picks the half feeding the low result, op_sel_hi[j] the
   * half feeding the high result; neg_lo/neg_hi negate (float ops) after selection. A constant
   * source is a 32-bit value whose halves op_sel picks, as a register's (LLVM,
   * AMDGPUBaseInfo.cpp getInlineEncodingV216, which calls the ISA guide misleading here and
   * states the hardware's behaviour): an integer inline constant (-16..64) is sign-extended to 32
   * bits, so -1 is -1 in both halves and 1 is 1 in the low half only (clang splats it with
   * op_sel_hi = 0: "v_pk_add_u16 v0, s0, 1 op_sel_hi:[1,0]", and leaves "v_pk_add_u16 v0, s0,
   * -1" as it is); a float inline constant is the f16 (bf16) value in the low half and 0 in the
   * high half for f16 (bf16) instructions, the f32 value for 16-bit integer ones; a literal is
   * its 32-bit value. */
  const bool isfloat = kind != EMU_PK_INT;
  const emu_opnd *o = &in->o[i];
  int j = i - in->src0i;
  bool sl = in->op_sel >> j & 1, sh = in->op_sel_hi >> j & 1;
  uint16_t nl = (isfloat && (in->neg_lo >> j & 1)) ? 0x8000 : 0;
  uint16_t nh = (isfloat && (in->neg_hi >> j & 1)) ? 0x8000 : 0;
  if (o->kind != EMU_OPK_VGPR && o->kind != EMU_OPK_AGPR && o->kind != EMU_OPK_SGPR) {
    /* an integer sign-extended, a literal, a float's f32; for f16 halves a float's f16, for bf16
     * halves the f32's top half (the bf16) */
    const bool f16 = o->kind == EMU_OPK_FIMM && kind == EMU_PK_F16;
    uint32_t c = (uint32_t)const_val(w, o, f16 ? 16 : 32);
    if (o->kind == EMU_OPK_FIMM && kind == EMU_PK_BF16) c >>= 16;
    uint16_t vl = (uint16_t)(sl ? c >> 16 : c), vh = (uint16_t)(sh ? c >> 16 : c);
    for (int l = 0; l < EMU_LANES; l++) lo[l] = vl ^ nl, hi[l] = vh ^ nh;
    return;
  }
  uint32_t t[EMU_LANES];
  const uint32_t *p = src_raw(w, in, i, t, 32);
  int shl = sl ? 16 : 0, shh = sh ? 16 : 0;
  for (int l = 0; l < EMU_LANES; l++) {
    lo[l] = (uint16_t)(p[l] >> shl) ^ nl;
    hi[l] = (uint16_t)(p[l] >> shh) ^ nh;
  }
}

/* ---- vector writes under EXEC ---------------------------------------------------------------*/
/* the lanes a vector write reaches: EXEC, less a DPP form's lanes that write nothing */
static inline uint64_t write_mask(emu_wave *w, const emu_insn *in)
{
  uint64_t e = emu_exec(w);
  if (__builtin_expect(in->enc == EMU_ENC_DPP, 0)) e &= emu_dpp_wmask(w, in);
  return e;
}
static inline void blend(emu_wave *w, const emu_insn *in, uint32_t *dst, const uint32_t *d)
{
  const uint64_t e = write_mask(w, in);
  if (e == ~0ull) {
    memcpy(dst, d, EMU_LANES * 4);
    return;
  }
  emu_blend64(dst, d, e);
}

void emu_dst32_slow(emu_wave *w, const emu_insn *in, int i, const uint32_t *d)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) { /* VOP3 with scalar destination (v_readlane etc. use their own) */
    w->s[o->reg] = d[0];
    return;
  }
  uint32_t *dst = emu_vreg(w, in, i, 0);
  if (__builtin_expect(in->enc == EMU_ENC_SDWA && (in->dst_sel != EMU_SEL_DWORD), 0)) {
    /* SDWA dst_sel/dst_unused (CDNA3 ISA "SDWA"): the selected field gets the low bits of the
     * result; the rest is zero (UNUSED_PAD), sign-extended (UNUSED_SEXT) or kept (PRESERVE). */
    uint32_t t[EMU_LANES];
    int sel = in->dst_sel;
    int sh = sel <= 3 ? 8 * sel : 16 * (sel - 4), bits = sel <= 3 ? 8 : 16;
    uint32_t fm = (bits == 8 ? 0xffu : 0xffffu) << sh;
    for (int l = 0; l < EMU_LANES; l++) {
      uint32_t v = (d[l] << sh) & fm;
      if (in->dst_unused == 2) v |= dst[l] & ~fm;
      else if (in->dst_unused == 1 && (v >> (sh + bits - 1) & 1)) v |= ~0u << (sh + bits) & ~fm;
      t[l] = v;
    }
    blend(w, in, dst, t);
    return;
  }
  blend(w, in, dst, d);
}

/* OMOD then clamp. OMOD is ignored in IEEE mode (LLVM SIFoldOperands: "omod is ignored by
 * hardware if IEEE bit is enabled"); clamp to [0, 1] turns a NaN (quiet or signalling) into 0
 * with DX10_CLAMP set, else lets it through quieted (docs/emulator-choices.md). fminf/fmaxf are
 * not used: C's fmax(sNaN, 0) may return NaN, which then clamped to 1. */
static inline float omod_clamp(int omod, bool clamp, bool dx10, float x)
{
  switch (omod) {
  case 1: x *= 2.0f; break;
  case 2: x *= 4.0f; break;
  case 3: x *= 0.5f; break;
  }
  return clamp ? emu_clampf(dx10, x) : x; /* -0 stays -0: docs/emulator-choices.md */
}
/* the same for a double (f64 results; the f16 fma's value rounded to odd, where the powers of two
 * are exact) */
static inline double omod_clampd(int omod, bool clamp, bool dx10, double x)
{
  switch (omod) {
  case 1: x *= 2.0; break;
  case 2: x *= 4.0; break;
  case 3: x *= 0.5; break;
  }
  return clamp ? emu_clampd(dx10, x) : x;
}
static inline int eff_omod(const emu_wave *w, const emu_insn *in) { return in->omod && !emu_ieee_mode(w) ? in->omod : 0; }

void emu_dstf32(emu_wave *w, const emu_insn *in, int i, float *d)
{
  int om = in->omod ? eff_omod(w, in) : 0;
  if (om || in->clamp) {
    bool dx10 = emu_dx10_clamp(w);
    for (int l = 0; l < EMU_LANES; l++) d[l] = omod_clamp(om, in->clamp, dx10, d[l]);
  }
  emu_dst32(w, in, i, (const uint32_t *)(const void *)d);
}

void emu_dst64(emu_wave *w, const emu_insn *in, int i, const uint64_t *d)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) {
    emu_sdst64(w, in, i, d[0]);
    return;
  }
  uint32_t *vlo = emu_vreg(w, in, i, 0), *vhi = emu_vreg(w, in, i, 1);
  const uint64_t e = write_mask(w, in);
  if (e == ~0ull) { /* straight into the register pair (d is the handler's array, never a register) */
    emu_split64(vlo, vhi, d);
    return;
  }
  uint32_t lo[EMU_LANES] __attribute__((aligned(64))), hi[EMU_LANES] __attribute__((aligned(64)));
  emu_split64(lo, hi, d);
  emu_blend64(vlo, lo, e);
  emu_blend64(vhi, hi, e);
}

void emu_dstf64(emu_wave *w, const emu_insn *in, int i, double *d)
{
  int om = in->omod ? eff_omod(w, in) : 0;
  if (om || in->clamp) {
    bool dx10 = emu_dx10_clamp(w);
    for (int l = 0; l < EMU_LANES; l++) d[l] = omod_clampd(om, in->clamp, dx10, d[l]);
  }
  emu_dst64(w, in, i, (const uint64_t *)(const void *)d);
}

void emu_dst16(emu_wave *w, const emu_insn *in, int i, const uint16_t *d)
{
  /* see internal.h: zero or preserve the other half; SDWA forms go through dst_sel */
  uint32_t *dst = emu_vreg(w, in, i, 0);
  uint32_t t[EMU_LANES];
  if (in->enc == EMU_ENC_SDWA) {
    for (int l = 0; l < EMU_LANES; l++) t[l] = d[l];
    emu_dst32(w, in, i, t);
    return;
  }
  if (in->op_sel & 8)
    for (int l = 0; l < EMU_LANES; l++) t[l] = (dst[l] & 0xffffu) | (uint32_t)d[l] << 16;
  else if (in->flags & EMU_F_D16Z)
    for (int l = 0; l < EMU_LANES; l++) t[l] = d[l];
  else
    for (int l = 0; l < EMU_LANES; l++) t[l] = (dst[l] & 0xffff0000u) | d[l];
  blend(w, in, dst, t);
}

void emu_dstf16_d(emu_wave *w, const emu_insn *in, int i, const double *d)
{
  uint16_t h[EMU_LANES];
  int om = in->omod ? eff_omod(w, in) : 0;
  bool dx10 = emu_dx10_clamp(w);
  for (int l = 0; l < EMU_LANES; l++) h[l] = emu_f64_to_f16(omod_clampd(om, in->clamp, dx10, d[l])); /* -0 kept */
  emu_dst16(w, in, i, h);
}

void emu_dstf16(emu_wave *w, const emu_insn *in, int i, float *d)
{
  uint16_t h[EMU_LANES];
  int om = in->omod ? eff_omod(w, in) : 0;
  bool dx10 = emu_dx10_clamp(w);
  if (om || in->clamp) {
    float t[EMU_LANES];
    for (int l = 0; l < EMU_LANES; l++) t[l] = omod_clamp(om, in->clamp, dx10, d[l]);
    emu_f32_to_f16_64(h, t);
  } else {
    emu_f32_to_f16_64(h, d);
  }
  emu_dst16(w, in, i, h);
}
