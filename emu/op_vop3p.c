/* emu/op_vop3p — packed math (CDNA3 ISA "VOP3P Instructions"): two 16-bit (or, for the *_f32
 * forms of gfx90a+, two 32-bit) halves per lane, each source's halves chosen by op_sel (low
 * result) and op_sel_hi (high result), negated by neg_lo / neg_hi; plus the mixed-precision
 * v_fma_mix* and v_dot2 ops. f16 results are rounded once from the exact-enough float/double
 * computation (f16 fma: double fma then one rounding to f16). */
#include "emu/internal.h"

#define L64 for (int l = 0; l < EMU_LANES; l++)

static inline float h2f(uint16_t h) { return emu_f16_to_f32(h); }
#define f2h(in, f) emu_f32_to_f16((in)->clamp ? emu_clampf(emu_dx10_clamp(w), (f)) : (f))
#define fmin_i(a, b) emu_fmin_ieee(emu_ieee_mode(w), (a), (b))
#define fmax_i(a, b) emu_fmax_ieee(emu_ieee_mode(w), (a), (b))

#define PK_H(name, NS, expr)                                                                       \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];                                                   \
    uint32_t d[EMU_LANES];                                                                         \
    for (int j = 0; j < NS; j++) emu_srcpk(w, in, 1 + j, true, lo[j], hi[j]);                      \
    L64 {                                                                                          \
      float a = h2f(lo[0][l]), b = NS > 1 ? h2f(lo[1][l]) : 0, c = NS > 2 ? h2f(lo[2][l]) : 0;     \
      uint16_t rl = f2h(in, (expr));                                                               \
      a = h2f(hi[0][l]), b = NS > 1 ? h2f(hi[1][l]) : 0, c = NS > 2 ? h2f(hi[2][l]) : 0;           \
      (void)b, (void)c;                                                                            \
      d[l] = rl | (uint32_t)f2h(in, (expr)) << 16;                                                 \
    }                                                                                              \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
PK_H(v_pk_add_f16, 2, a + b)
PK_H(v_pk_mul_f16, 2, a * b)
PK_H(v_pk_fma_f16, 3, (float)fma((double)a, (double)b, (double)c))
PK_H(v_pk_max_f16, 2, fmax_i(a, b))
PK_H(v_pk_min_f16, 2, fmin_i(a, b))

#define PK_W(name, NS, expr)                                                                       \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];                                                   \
    uint32_t d[EMU_LANES];                                                                         \
    if (in->clamp)                                                                                 \
      return emu_raise(w, in, "unimplemented", -1, 0, "clamp on packed integer ops is not implemented"); \
    for (int j = 0; j < NS; j++) emu_srcpk(w, in, 1 + j, false, lo[j], hi[j]);                     \
    L64 {                                                                                          \
      uint16_t a = lo[0][l], b = NS > 1 ? lo[1][l] : 0, c = NS > 2 ? lo[2][l] : 0;                 \
      uint16_t rl = (uint16_t)(expr);                                                              \
      a = hi[0][l], b = NS > 1 ? hi[1][l] : 0, c = NS > 2 ? hi[2][l] : 0;                          \
      (void)b, (void)c;                                                                            \
      d[l] = rl | (uint32_t)(uint16_t)(expr) << 16;                                                \
    }                                                                                              \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
PK_W(v_pk_add_u16, 2, a + b)
PK_W(v_pk_add_i16, 2, a + b)
PK_W(v_pk_sub_u16, 2, a - b)
PK_W(v_pk_sub_i16, 2, a - b)
PK_W(v_pk_mul_lo_u16, 2, a * b)
PK_W(v_pk_lshlrev_b16, 2, b << (a & 15))
PK_W(v_pk_lshrrev_b16, 2, b >> (a & 15))
PK_W(v_pk_ashrrev_i16, 2, (int16_t)b >> (a & 15))
PK_W(v_pk_max_u16, 2, a > b ? a : b)
PK_W(v_pk_min_u16, 2, a < b ? a : b)
PK_W(v_pk_max_i16, 2, (int16_t)a > (int16_t)b ? a : b)
PK_W(v_pk_min_i16, 2, (int16_t)a < (int16_t)b ? a : b)
PK_W(v_pk_mad_u16, 3, a * b + c)
PK_W(v_pk_mad_i16, 3, (int16_t)a * (int16_t)b + (int16_t)c)

/* ---- packed f32 (gfx90a+; CDNA3 ISA "V_PK_FMA_F32", "V_PK_ADD_F32", "V_PK_MUL_F32",
 * "V_PK_MOV_B32"): each source is a 64-bit pair; op_sel[j] / op_sel_hi[j] choose which dword
 * feeds the low / high result. */
/* Pointers to the dwords feeding the low and high results of operand i; copies (into tl/th) only
 * when a negation or a scalar/constant source needs it. */
static void src_pk32(emu_wave *w, const emu_insn *in, int i, const uint32_t **lo, const uint32_t **hi,
                     uint32_t *tl, uint32_t *th, bool isfloat)
{
  const emu_opnd *o = &in->o[i];
  int j = i - 1;
  bool sl = in->op_sel >> j & 1, sh = in->op_sel_hi >> j & 1;
  const uint32_t *d0, *d1;
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    d0 = emu_vreg(w, in, i, 0);
    d1 = emu_vreg(w, in, i, o->n > 1 ? 1 : 0);
  } else {
    /* SGPR pair: two dwords; a constant is the 32-bit value in dword 0 with dword 1 zero (clang
     * splats one with op_sel_hi = 0: "v_pk_fma_f32 v[0:1], v[0:1], 2.0, 1.0 op_sel_hi:[1,0,0]") */
    uint64_t v = o->kind == EMU_OPK_SGPR ? emu_ssrc64(w, in, i) : emu_ssrc32(w, in, i);
    L64 tl[l] = (uint32_t)(sl ? v >> 32 : v), th[l] = (uint32_t)(sh ? v >> 32 : v);
    d0 = d1 = NULL;
  }
  uint32_t nl = (isfloat && (in->neg_lo >> j & 1)) ? 0x80000000u : 0;
  uint32_t nh = (isfloat && (in->neg_hi >> j & 1)) ? 0x80000000u : 0;
  if (d0) {
    *lo = sl ? d1 : d0;
    *hi = sh ? d1 : d0;
    if (nl) { L64 tl[l] = (*lo)[l] ^ nl; *lo = tl; }
    if (nh) { L64 th[l] = (*hi)[l] ^ nh; *hi = th; }
  } else {
    if (nl) L64 tl[l] ^= nl;
    if (nh) L64 th[l] ^= nh;
    *lo = tl, *hi = th;
  }
}
static int pk32_done(emu_wave *w, const emu_insn *in, float *rl, float *rh)
{
  if (in->clamp) L64 rl[l] = emu_clampf(emu_dx10_clamp(w), rl[l]), rh[l] = emu_clampf(emu_dx10_clamp(w), rh[l]);
  const emu_opnd *o = &in->o[0];
  if (o->kind != EMU_OPK_VGPR && o->kind != EMU_OPK_AGPR)
    return emu_raise(w, in, "bad operand", -1, 0, "packed f32 result must be a VGPR pair");
  uint64_t e = emu_exec(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0), *d1 = emu_vreg(w, in, 0, 1);
  if (e == ~0ull) {
    memcpy(d0, rl, sizeof(float) * EMU_LANES);
    memcpy(d1, rh, sizeof(float) * EMU_LANES);
  } else {
    L64 if (e >> l & 1) d0[l] = emu_u32f(rl[l]), d1[l] = emu_u32f(rh[l]);
  }
  return EMU_OK;
}
#define PK_F32(name, NS, expr)                                                                     \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t tl[3][EMU_LANES], th[3][EMU_LANES];                                                   \
    const uint32_t *lo[3] = {0}, *hi[3] = {0};                                                     \
    float rl[EMU_LANES], rh[EMU_LANES];                                                            \
    for (int j = 0; j < NS; j++) src_pk32(w, in, 1 + j, &lo[j], &hi[j], tl[j], th[j], true);       \
    L64 {                                                                                          \
      float a = emu_f32(lo[0][l]), b = emu_f32(lo[1][l]), c = NS > 2 ? emu_f32(lo[2][l]) : 0;      \
      rl[l] = (expr);                                                                              \
      a = emu_f32(hi[0][l]), b = emu_f32(hi[1][l]), c = NS > 2 ? emu_f32(hi[2][l]) : 0;            \
      (void)c;                                                                                     \
      rh[l] = (expr);                                                                              \
    }                                                                                              \
    return pk32_done(w, in, rl, rh);                                                               \
  }
PK_F32(v_pk_add_f32, 2, a + b)
PK_F32(v_pk_mul_f32, 2, a * b)
/* fma: vectorizable clones for FMA-capable hosts (one rounding either way) */
__attribute__((target_clones("fma", "default"))) static void pk_fma_loop(const uint32_t *a, const uint32_t *b,
                                                                       const uint32_t *c, float *d)
{
  L64 d[l] = __builtin_fmaf(emu_f32(a[l]), emu_f32(b[l]), emu_f32(c[l]));
}
int emu_op_v_pk_fma_f32(emu_wave *w, const emu_insn *in)
{
  uint32_t tl[3][EMU_LANES], th[3][EMU_LANES];
  const uint32_t *lo[3], *hi[3];
  float rl[EMU_LANES], rh[EMU_LANES];
  for (int j = 0; j < 3; j++) src_pk32(w, in, 1 + j, &lo[j], &hi[j], tl[j], th[j], true);
  pk_fma_loop(lo[0], lo[1], lo[2], rl);
  pk_fma_loop(hi[0], hi[1], hi[2], rh);
  return pk32_done(w, in, rl, rh);
}
int emu_op_v_pk_mov_b32(emu_wave *w, const emu_insn *in)
{
  /* D[31:0] = op_sel[0] ? S0[63:32] : S0[31:0]; D[63:32] = op_sel[1] ? S1[63:32] : S1[31:0] */
  uint32_t ta[2][EMU_LANES], tb[2][EMU_LANES];
  const uint32_t *a0, *a1, *b0, *b1;
  emu_insn t = *in;
  t.op_sel = 0, t.op_sel_hi = 3, t.neg_lo = t.neg_hi = 0; /* lo = dword 0, hi = dword 1 */
  src_pk32(w, &t, 1, &a0, &a1, ta[0], ta[1], false);
  src_pk32(w, &t, 2, &b0, &b1, tb[0], tb[1], false);
  uint64_t d[EMU_LANES];
  L64 d[l] = (in->op_sel & 1 ? a1[l] : a0[l]) | (uint64_t)(in->op_sel & 2 ? b1[l] : b0[l]) << 32;
  emu_dst64(w, in, 0, d);
  return EMU_OK;
}

/* ---- mixed precision (CDNA3 ISA "V_FMA_MIX_F32", "V_FMA_MIXLO_F16", "V_FMA_MIXHI_F16"):
 * op_sel_hi[j] = 0: source j is f32; = 1: f16 taken from the half op_sel[j] picks. abs/neg apply
 * to the converted value. op_sel_hi defaults to 0 here (LLVM prints it only when nonzero). */
static void src_mix(emu_wave *w, const emu_insn *in, int i, float *out)
{
  int j = i - 1;
  uint32_t t[EMU_LANES];
  const uint32_t *p = emu_src32(w, in, i, t);
  bool f16 = in->has_op_sel_hi && (in->op_sel_hi >> j & 1);
  const emu_opnd *o = &in->o[i];
  if (f16 && o->kind != EMU_OPK_VGPR && o->kind != EMU_OPK_AGPR && o->kind != EMU_OPK_SGPR &&
      o->kind != EMU_OPK_LIT) {
    /* inline constants are f16 values here */
    float c = 0;
    switch (o->kind) {
    case EMU_OPK_FIMM: {
      static const float fv[9] = {0.5f, -0.5f, 1, -1, 2, -2, 4, -4, 0.15915494f};
      c = emu_f16_to_f32(emu_f32_to_f16(fv[o->reg - 240]));
      break;
    }
    default: c = emu_f16_to_f32((uint16_t)o->ival);
    }
    L64 out[l] = c;
  } else if (f16) {
    int sh = (in->op_sel >> j & 1) ? 16 : 0;
    L64 out[l] = emu_f16_to_f32((uint16_t)(p[l] >> sh));
  } else {
    L64 out[l] = emu_f32(p[l]);
  }
  if (o->mods & EMU_M_ABS) L64 out[l] = fabsf(out[l]);
  if (o->mods & EMU_M_NEG) L64 out[l] = -out[l];
}
static void mix_fma(emu_wave *w, const emu_insn *in, float *d)
{
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES];
  src_mix(w, in, 1, A);
  src_mix(w, in, 2, B);
  src_mix(w, in, 3, C);
  L64 {
    float r = fmaf(A[l], B[l], C[l]);
    if (in->clamp) r = emu_clampf(emu_dx10_clamp(w), r);
    d[l] = r;
  }
}
int emu_op_v_fma_mix_f32(emu_wave *w, const emu_insn *in)
{
  float d[EMU_LANES];
  mix_fma(w, in, d);
  emu_dst32(w, in, 0, (const uint32_t *)(const void *)d);
  return EMU_OK;
}
static int mix_f16(emu_wave *w, const emu_insn *in, bool hi)
{
  /* f16 result of the fma computed in double from f32-exact inputs, rounded once to f16 */
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES];
  src_mix(w, in, 1, A);
  src_mix(w, in, 2, B);
  src_mix(w, in, 3, C);
  const uint32_t *old = emu_vreg(w, in, 0, 0);
  uint32_t d[EMU_LANES];
  L64 {
    float r = (float)fma((double)A[l], (double)B[l], (double)C[l]);
    uint16_t h = f2h(in, r);
    d[l] = hi ? (old[l] & 0xffffu) | (uint32_t)h << 16 : (old[l] & 0xffff0000u) | h;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int emu_op_v_fma_mixlo_f16(emu_wave *w, const emu_insn *in) { return mix_f16(w, in, false); }
int emu_op_v_fma_mixhi_f16(emu_wave *w, const emu_insn *in) { return mix_f16(w, in, true); }

/* v_dot2_f32_f16: D = a.lo*b.lo + a.hi*b.hi + c (CDNA3 ISA "V_DOT2_F32_F16") */
int emu_op_v_dot2_f32_f16(emu_wave *w, const emu_insn *in)
{
  uint16_t al[EMU_LANES], ah[EMU_LANES], bl[EMU_LANES], bh[EMU_LANES];
  float C[EMU_LANES], d[EMU_LANES];
  emu_srcpk(w, in, 1, true, al, ah);
  emu_srcpk(w, in, 2, true, bl, bh);
  emu_srcf32(w, in, 3, C);
  L64 {
    double r = (double)h2f(al[l]) * h2f(bl[l]) + (double)h2f(ah[l]) * h2f(bh[l]) + C[l];
    float f = (float)r;
    if (in->clamp) f = emu_clampf(emu_dx10_clamp(w), f);
    d[l] = f;
  }
  emu_dst32(w, in, 0, (const uint32_t *)(const void *)d);
  return EMU_OK;
}
