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
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];                                                   \
    uint32_t d[EMU_LANES];                                                                         \
    for (int j = 0; j < NS; j++) emu_srcpk(w, in, 1 + j, EMU_PK_F16, lo[j], hi[j]);                \
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
/* the exact a * b + c rounded once to f16 (emu_fma_ro), clamped first with clamp as f2h clamps the
 * float: v_pk_fma_f16's halves and v_fma_mix*_f16 off the vector kernel */
static inline uint16_t fma_h(double a, double b, double c, bool clamp, bool dx10)
{
  double v = emu_fma_ro(a, b, c);
  return emu_f64_to_f16(clamp ? emu_clampd(dx10, v) : v);
}
/* v_pk_fma_f16: each half's exact a * b + c rounded once to f16 (fma_h) */
int EMU_H(emu_op_v_pk_fma_f16)(emu_wave *w, const emu_insn *in)
{
  uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];
  uint32_t d[EMU_LANES];
  for (int j = 0; j < 3; j++) emu_srcpk(w, in, 1 + j, EMU_PK_F16, lo[j], hi[j]);
  uint16_t rl[EMU_LANES], rh[EMU_LANES];
  if (emu_fma_f16_n(rl, lo[0], lo[1], lo[2], EMU_LANES, in->clamp) && emu_fma_f16_n(rh, hi[0], hi[1], hi[2], EMU_LANES, in->clamp)) {
    L64 d[l] = rl[l] | (uint32_t)rh[l] << 16; /* every operand finite: the vector kernel (emu/simd.c) */
    emu_dst32(w, in, 0, d);
    return EMU_OK;
  }
  const bool dx10 = emu_dx10_clamp(w);
  L64 {
    uint32_t r = 0;
    for (int h = 0; h < 2; h++) {
      const uint16_t(*x)[EMU_LANES] = h ? hi : lo;
      r |= (uint32_t)fma_h(h2f(x[0][l]), h2f(x[1][l]), h2f(x[2][l]), in->clamp, dx10) << 16 * h;
    }
    d[l] = r;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
PK_H(v_pk_max_f16, 2, fmax_i(a, b))
PK_H(v_pk_min_f16, 2, fmin_i(a, b))

/* Packed 16-bit integer ops: each half's exact result (int64 from the halves, sign-extended for the
 * signed ops) wrapped to 16 bits, or with clamp saturated to the half's type (CDNA3 ISA §6.5: an
 * integer result is clamped to the largest and smallest representable value; for v_pk_mad_* the
 * exact multiply-add saturated once is the int-clamp-exact choice, EMU_F_ICLAMP in ops.def). */
#define PK_W(name, NS, sgn, expr)                                                                  \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];                                                   \
    uint32_t d[EMU_LANES];                                                                         \
    for (int j = 0; j < NS; j++) emu_srcpk(w, in, 1 + j, EMU_PK_INT, lo[j], hi[j]);                \
    L64 {                                                                                          \
      uint32_t r2[2];                                                                              \
      for (int h = 0; h < 2; h++) {                                                                \
        const uint16_t(*x)[EMU_LANES] = h ? hi : lo;                                               \
        int64_t a = sgn ? (int64_t)(int16_t)x[0][l] : (int64_t)x[0][l];                            \
        int64_t b = NS > 1 ? (sgn ? (int64_t)(int16_t)x[1][l] : (int64_t)x[1][l]) : 0;            \
        int64_t c = NS > 2 ? (sgn ? (int64_t)(int16_t)x[2][l] : (int64_t)x[2][l]) : 0;            \
        (void)b, (void)c;                                                                          \
        int64_t r = (expr);                                                                        \
        if (in->clamp) r = sgn ? (r < -32768 ? -32768 : r > 32767 ? 32767 : r) : (r < 0 ? 0 : r > 65535 ? 65535 : r); \
        r2[h] = (uint32_t)r & 0xffff;                                                              \
      }                                                                                            \
      d[l] = r2[0] | r2[1] << 16;                                                                  \
    }                                                                                              \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
PK_W(v_pk_add_u16, 2, false, a + b)
PK_W(v_pk_add_i16, 2, true, a + b)
PK_W(v_pk_sub_u16, 2, false, a - b)
PK_W(v_pk_sub_i16, 2, true, a - b)
PK_W(v_pk_mul_lo_u16, 2, false, a * b)
PK_W(v_pk_lshlrev_b16, 2, false, b << (a & 15))
PK_W(v_pk_lshrrev_b16, 2, false, b >> (a & 15))
PK_W(v_pk_ashrrev_i16, 2, true, b >> (a & 15))
PK_W(v_pk_max_u16, 2, false, a > b ? a : b)
PK_W(v_pk_min_u16, 2, false, a < b ? a : b)
PK_W(v_pk_max_i16, 2, true, a > b ? a : b)
PK_W(v_pk_min_i16, 2, true, a < b ? a : b)
PK_W(v_pk_mad_u16, 3, false, a * b + c)
PK_W(v_pk_mad_i16, 3, true, a * b + c)

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
    emu_fill2_64(tl, (uint32_t)(sl ? v >> 32 : v), th, (uint32_t)(sh ? v >> 32 : v)); /* AVX2 stores where present */
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
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
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
EMU_FMA_CLONES static void pk_fma_loop(const uint32_t *a, const uint32_t *b,
                                                                       const uint32_t *c, float *d)
{
  L64 d[l] = __builtin_fmaf(emu_f32(a[l]), emu_f32(b[l]), emu_f32(c[l]));
}
int EMU_H(emu_op_v_pk_fma_f32)(emu_wave *w, const emu_insn *in)
{
  uint32_t tl[3][EMU_LANES], th[3][EMU_LANES];
  const uint32_t *lo[3], *hi[3];
  float rl[EMU_LANES], rh[EMU_LANES];
  for (int j = 0; j < 3; j++) src_pk32(w, in, 1 + j, &lo[j], &hi[j], tl[j], th[j], true);
  /* In place (issue #31): with EXEC all ones, no clamp and a register pair as destination, the
   * two loops write the destination's dwords directly, the half whose destination the other
   * half does not read first; when each half reads the other's destination, the temporaries.
   * A destination equal to one of the same half's sources is fine: each lane reads its sources
   * before it writes. The same loop function either way, so the same bits. */
  const emu_opnd *od = &in->o[0];
  if (!in->clamp && (od->kind == EMU_OPK_VGPR || od->kind == EMU_OPK_AGPR) && emu_exec(w) == ~0ull) {
    uint32_t *d0 = emu_vreg(w, in, 0, 0), *d1 = emu_vreg(w, in, 0, 1);
    if (d0 != hi[0] && d0 != hi[1] && d0 != hi[2]) {
      pk_fma_loop(lo[0], lo[1], lo[2], (float *)d0);
      pk_fma_loop(hi[0], hi[1], hi[2], (float *)d1);
      return EMU_OK;
    }
    if (d1 != lo[0] && d1 != lo[1] && d1 != lo[2]) {
      pk_fma_loop(hi[0], hi[1], hi[2], (float *)d1);
      pk_fma_loop(lo[0], lo[1], lo[2], (float *)d0);
      return EMU_OK;
    }
  }
  pk_fma_loop(lo[0], lo[1], lo[2], rl);
  pk_fma_loop(hi[0], hi[1], hi[2], rh);
  return pk32_done(w, in, rl, rh);
}
/* v_pk_fma_f32 specialised at decode (emu_vop3p_specialise): no clamp, a VGPR pair as
 * destination, each source a VGPR (its two dwords' register numbers precomputed, op_sel and
 * op_sel_hi applied) or an SGPR or constant (read as src_pk32 reads it), and the order of the two
 * halves fixed so that neither writes a register the other still reads. With EXEC all ones the
 * loops read the register file and write the destination in place; otherwise the general handler.
 * The same arithmetic as the general handler, so the same bits: its own loop function, or where the
 * host has FMA (emu_avx2, so pk_fma_loop runs its FMA clone) pk_fma_half below, which issues the
 * instruction that clone's loop issues. */
static inline __attribute__((always_inline)) void sp_src(emu_wave *w, const emu_insn *in, int j, const uint32_t **lo,
                                                         const uint32_t **hi)
{
  if (in->sp_uni >> j & 1) {
    /* an SGPR or constant, read as src_pk32 reads it; its lanes filled once per value (a loop's
     * constant operand is filled at its first iteration only) */
    uint32_t vl, vh;
    if (in->sp_sgpr >> j & 1) { /* an SGPR pair: its dwords' numbers fixed at decode */
      vl = w->s[in->sp_reg[1 + j][0]], vh = w->s[in->sp_reg[1 + j][1]];
    } else {
      const emu_opnd *o = &in->o[1 + j];
      uint64_t v = o->kind == EMU_OPK_SGPR ? emu_ssrc64(w, in, 1 + j) : emu_ssrc32(w, in, 1 + j);
      vl = (uint32_t)(in->op_sel >> j & 1 ? v >> 32 : v), vh = (uint32_t)(in->op_sel_hi >> j & 1 ? v >> 32 : v);
    }
    uint64_t key = (uint64_t)vh << 32 | vl;
    if (__builtin_expect(!(w->pk_ok >> j & 1) || w->pk_key[j] != key, 0)) {
      emu_fill2_64(w->pk_fill[j][0], vl, w->pk_fill[j][1], vh);
      w->pk_key[j] = key;
      w->pk_ok |= (uint8_t)(1u << j);
    }
    *lo = w->pk_fill[j][0], *hi = w->pk_fill[j][1];
  } else {
    *lo = w->v + (size_t)in->sp_reg[1 + j][0] * EMU_LANES;
    *hi = w->v + (size_t)in->sp_reg[1 + j][1] * EMU_LANES;
  }
}

/* Not in the sanitizer build (-O1 and instrumented): the blocks below issue the instruction and
 * operand order that the -O2 build's FMA clone of pk_fma_loop issues, which decides the payload when
 * two operands are NaNs; GCC compiles that loop differently at -O1, so there the specialised
 * handlers take the loops the general handler runs (test_emu_cvt compares the two in each build). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
/* One half of the specialised v_pk_fma_f32 on an FMA host, 64 lanes in 8-lane blocks: d = a * b + c
 * by the instruction pk_fma_loop's FMA clone issues (a and c loaded, `vfmadd132ps` with b as its
 * memory operand: with two or three NaN operands, which payload comes out is that instruction's
 * operand order, so it is written out here rather than left to the compiler's choice of form).
 * Each block's sources are read before its destination is written, and a destination block is
 * no other block of a source (registers are whole 64-lane arrays), so d may be any source. nm: the
 * sources' sign masks (neg_lo / neg_hi), applied to the loaded values as src_pk32's copies are;
 * NULL when none. vzeroupper is pk_fma_done's. A block: the two loads of a and c (PKF_LD), or with
 * their sign masks applied (PKF_NLD); then the FMA with bop as its first source (b's memory operand
 * or a register) and the store of d (PKF_FMA). */
#define PKF_LD(o, x, y)                                                                            \
  "vmovups " #o "(%[a]), %%ymm" #x "\n\t"                                                          \
  "vmovups " #o "(%[c]), %%ymm" #y "\n\t"
#define PKF_NLD(o, x, y)                                                                           \
  "vxorps " #o "(%[a]), %%ymm13, %%ymm" #x "\n\t"                                                  \
  "vxorps " #o "(%[c]), %%ymm15, %%ymm" #y "\n\t"
#define PKF_FMA(o, x, y, bop)                                                                      \
  "vfmadd132ps " bop ", %%ymm" #y ", %%ymm" #x "\n\t"                                              \
  "vmovups %%ymm" #x ", " #o "(%[d])\n\t"
#define PKF_BLK(o, x, y) PKF_LD(o, x, y) PKF_FMA(o, x, y, #o "(%[b])")
#define PKF_NBLK(o, x, y, z)                                                                       \
  PKF_NLD(o, x, y) "vxorps " #o "(%[b]), %%ymm14, %%ymm" #z "\n\t" PKF_FMA(o, x, y, "%%ymm" #z)
/* b uniform (an SGPR or constant: every lane of its fill the same dword): its value broadcast once
 * into ymm12 (xored with its sign mask into ymm14) and used from there, the same instruction with
 * the same operand order, one 32-byte load a block fewer (docs/performance.md, tenth stop) */
#define PKF_BLKB(o, x, y) PKF_LD(o, x, y) PKF_FMA(o, x, y, "%%ymm12")
#define PKF_NBLKB(o, x, y) PKF_NLD(o, x, y) PKF_FMA(o, x, y, "%%ymm14")
#define PKF_CLOB "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm12", "xmm13", "xmm14", "xmm15", "memory"
static inline __attribute__((always_inline)) void pk_fma_half(const uint32_t *a, const uint32_t *b, const uint32_t *c,
                                                              uint32_t *d, const uint32_t *nm, bool bu)
{
  if (bu && !nm) {
    __asm__ volatile("vbroadcastss (%[b]), %%ymm12\n\t"
                     PKF_BLKB(0, 0, 1) PKF_BLKB(32, 2, 3) PKF_BLKB(64, 4, 5) PKF_BLKB(96, 0, 1)
                     PKF_BLKB(128, 2, 3) PKF_BLKB(160, 4, 5) PKF_BLKB(192, 0, 1) PKF_BLKB(224, 2, 3)
                     : : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d) : PKF_CLOB);
  } else if (bu) {
    __asm__ volatile("vbroadcastss 0(%[m]), %%ymm13\n\t"
                     "vbroadcastss 4(%[m]), %%ymm14\n\t"
                     "vbroadcastss 8(%[m]), %%ymm15\n\t"
                     "vbroadcastss (%[b]), %%ymm12\n\t"
                     "vxorps %%ymm12, %%ymm14, %%ymm14\n\t"
                     PKF_NBLKB(0, 0, 1) PKF_NBLKB(32, 2, 3) PKF_NBLKB(64, 4, 5) PKF_NBLKB(96, 0, 1)
                     PKF_NBLKB(128, 2, 3) PKF_NBLKB(160, 4, 5) PKF_NBLKB(192, 0, 1) PKF_NBLKB(224, 2, 3)
                     : : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d), [m] "r"(nm) : PKF_CLOB);
  } else if (!nm) {
    __asm__ volatile(PKF_BLK(0, 0, 1) PKF_BLK(32, 2, 3) PKF_BLK(64, 0, 1) PKF_BLK(96, 2, 3)
                     PKF_BLK(128, 0, 1) PKF_BLK(160, 2, 3) PKF_BLK(192, 0, 1) PKF_BLK(224, 2, 3)
                     : : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d) : PKF_CLOB);
  } else {
    __asm__ volatile("vbroadcastss 0(%[m]), %%ymm13\n\t"
                     "vbroadcastss 4(%[m]), %%ymm14\n\t"
                     "vbroadcastss 8(%[m]), %%ymm15\n\t"
                     PKF_NBLK(0, 0, 1, 2) PKF_NBLK(32, 3, 4, 5) PKF_NBLK(64, 0, 1, 2) PKF_NBLK(96, 3, 4, 5)
                     PKF_NBLK(128, 0, 1, 2) PKF_NBLK(160, 3, 4, 5) PKF_NBLK(192, 0, 1, 2) PKF_NBLK(224, 3, 4, 5)
                     : : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d), [m] "r"(nm) : PKF_CLOB);
  }
}
/* One half of the specialised v_pk_mul_f32 on an FMA host: d = a * b in 8-lane blocks by `vmulps`
 * with x as its first source (from a register) and y as the memory operand. With two NaN operands
 * the payload is the first source's, and the general handler's build (its SSE `mulps`, the
 * compiler's choice) has src1 first in the low half and src0 first in the high half: sp_kernel_
 * passes the sources in that order (test_emu_cvt checks it against that build). */
#define PKM_BLK(o, r)                                                                              \
  "vmovups " #o "(%[x]), %%ymm" #r "\n\t"                                                          \
  "vmulps " #o "(%[y]), %%ymm" #r ", %%ymm" #r "\n\t"                                              \
  "vmovups %%ymm" #r ", " #o "(%[d])\n\t"
static inline __attribute__((always_inline)) void pk_mul_half(const uint32_t *x, const uint32_t *y, uint32_t *d)
{
  __asm__ volatile(PKM_BLK(0, 0) PKM_BLK(32, 1) PKM_BLK(64, 2) PKM_BLK(96, 3) PKM_BLK(128, 0) PKM_BLK(160, 1)
                   PKM_BLK(192, 2) PKM_BLK(224, 3)
                   : : [x] "r"(x), [y] "r"(y), [d] "r"(d) : "xmm0", "xmm1", "xmm2", "xmm3", "memory");
}
static inline __attribute__((always_inline)) void pk_fma_done(void)
{
  __asm__ volatile("vzeroupper" : : : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                   "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}
#define PK_FMA_ASM 1
#endif

#ifdef PK_FMA_ASM
/* The FMA host's form: uniform sources (an SGPR pair, or a constant whose dwords sp_kv holds)
 * spread over w->pk_fill when their values changed, as sp_src does, then each half's operands
 * from the byte offsets fixed at decode. */
static inline __attribute__((always_inline)) uint64_t sp_key(const emu_wave *w, const emu_insn *in, int j)
{
  return in->sp_sgpr >> j & 1 ? (uint64_t)w->s[in->sp_reg[1 + j][1]] << 32 | w->s[in->sp_reg[1 + j][0]] : in->sp_kv[j];
}
/* uniform source j's fill is not for its current value (j a uniform source) */
static inline __attribute__((always_inline)) bool sp_stale_u(const emu_wave *w, const emu_insn *in, int j)
{
  return !(w->pk_ok >> j & 1) || w->pk_key[j] != sp_key(w, in, j);
}
static inline __attribute__((always_inline)) bool sp_stale(const emu_wave *w, const emu_insn *in, int j)
{
  return (in->sp_uni >> j & 1) && sp_stale_u(w, in, j);
}
static inline __attribute__((always_inline)) void sp_kernel_(emu_wave *w, const emu_insn *in, unsigned u, bool neg,
                                                             bool mul)
{
  const char *vb = (const char *)w->v, *ub = (const char *)w->pk_fill;
  const char *b0 = u & 1 ? ub : vb, *b1 = u & 2 ? ub : vb, *b2 = u & 4 ? ub : vb;
  const uint32_t(*off)[4] = in->sp_off;
  if (mul) { /* v_pk_mul_f32: sources 0 and 1, src1 first in the low half, src0 in the high one */
    const uint32_t *s00 = (const uint32_t *)(const void *)(b0 + off[0][0]), *s01 = (const uint32_t *)(const void *)(b1 + off[0][1]);
    const uint32_t *s10 = (const uint32_t *)(const void *)(b0 + off[1][0]), *s11 = (const uint32_t *)(const void *)(b1 + off[1][1]);
    uint32_t *d0 = (uint32_t *)(void *)(vb + off[0][3]), *d1 = (uint32_t *)(void *)(vb + off[1][3]);
    if (neg) { /* here: the high half runs first */
      pk_mul_half(s00, s01, d0);
      pk_mul_half(s11, s10, d1);
    } else {
      pk_mul_half(s01, s00, d0);
      pk_mul_half(s10, s11, d1);
    }
    pk_fma_done();
    return;
  }
  const uint32_t *nm0 = NULL, *nm1 = NULL;
  if (neg) nm0 = in->sp_nm[0], nm1 = in->sp_nm[1];
  pk_fma_half((const uint32_t *)(const void *)(b0 + off[0][0]), (const uint32_t *)(const void *)(b1 + off[0][1]),
              (const uint32_t *)(const void *)(b2 + off[0][2]), (uint32_t *)(void *)(vb + off[0][3]), nm0, u & 2);
  pk_fma_half((const uint32_t *)(const void *)(b0 + off[1][0]), (const uint32_t *)(const void *)(b1 + off[1][1]),
              (const uint32_t *)(const void *)(b2 + off[1][2]), (uint32_t *)(void *)(vb + off[1][3]), nm1, u & 2);
  pk_fma_done();
}
static inline __attribute__((always_inline)) void sp_kernel(emu_wave *w, const emu_insn *in)
{
  if (in->sp_mul) sp_kernel_(w, in, in->sp_uni, in->sp_hi_first, true);
  else sp_kernel_(w, in, in->sp_uni, in->sp_neg, false);
}
/* a uniform source's value changed: fill, then run (apart from the handler, so that its common path
 * makes no call and saves no registers) */
static __attribute__((noinline)) int sp_refill_run(emu_wave *w, const emu_insn *in)
{
  for (int j = 0; j < 3; j++) {
    if (!sp_stale(w, in, j)) continue;
    uint64_t key = sp_key(w, in, j);
    emu_fill2_64(w->pk_fill[j][0], (uint32_t)key, w->pk_fill[j][1], (uint32_t)(key >> 32));
    w->pk_key[j] = key;
    w->pk_ok |= (uint8_t)(1u << j);
  }
  sp_kernel(w, in);
  return EMU_OK;
}
#endif

/* everything but the FMA host's whole-EXEC form: the C loops, or the general handler */
static __attribute__((noinline)) int sp_slow(emu_wave *w, const emu_insn *in)
{
  if (emu_exec(w) != ~0ull || in->sp_neg) return EMU_H(emu_op_v_pk_fma_f32)(w, in);
  const uint32_t *lo0, *hi0, *lo1, *hi1, *lo2, *hi2;
  sp_src(w, in, 0, &lo0, &hi0);
  sp_src(w, in, 1, &lo1, &hi1);
  sp_src(w, in, 2, &lo2, &hi2);
  float *d0 = (float *)(w->v + (size_t)in->sp_reg[0][0] * EMU_LANES), *d1 = d0 + EMU_LANES;
  if (in->sp_hi_first) {
    pk_fma_loop(hi0, hi1, hi2, d1);
    pk_fma_loop(lo0, lo1, lo2, d0);
  } else {
    pk_fma_loop(lo0, lo1, lo2, d0);
    pk_fma_loop(hi0, hi1, hi2, d1);
  }
  return EMU_OK;
}

#ifdef PK_FMA_ASM
/* one form per set of uniform sources (u) and negations: the tests and offsets as constants */
static inline __attribute__((always_inline)) int sp_run(emu_wave *w, const emu_insn *in, unsigned u, bool neg)
{
  if (__builtin_expect(((u & 1) && sp_stale_u(w, in, 0)) || ((u & 2) && sp_stale_u(w, in, 1)) || ((u & 4) && sp_stale_u(w, in, 2)), 0))
    return sp_refill_run(w, in);
  sp_kernel_(w, in, u, neg, false);
  return EMU_OK;
}
/* hf: the high half runs first (passed to sp_kernel_ as its neg) */
static inline __attribute__((always_inline)) int spm_run(emu_wave *w, const emu_insn *in, unsigned u, bool hf)
{
  if (__builtin_expect(((u & 1) && sp_stale_u(w, in, 0)) || ((u & 2) && sp_stale_u(w, in, 1)), 0))
    return sp_refill_run(w, in);
  sp_kernel_(w, in, u, hf, true);
  return EMU_OK;
}
#endif

int EMU_H(emu_op_v_pk_fma_f32_sp)(emu_wave *w, const emu_insn *in)
{
#ifdef PK_FMA_ASM
  /* the FMA host's form: with EXEC all ones, its uniform sources (an SGPR pair, or a constant whose
   * dwords sp_kv holds) spread over w->pk_fill when their values changed, as sp_src does, then
   * each half from the byte offsets fixed at decode */
  if (__builtin_expect((emu_exec(w) != ~0ull) | !emu_avx2, 0)) return sp_slow(w, in);
  switch (in->sp_var) {
#define SP_CASE(u) \
  case u: return sp_run(w, in, u, false); \
  case 8 + u: return sp_run(w, in, u, true);
  SP_CASE(0) SP_CASE(1) SP_CASE(2) SP_CASE(3) SP_CASE(4) SP_CASE(5) SP_CASE(6) SP_CASE(7)
#undef SP_CASE
  default: return sp_slow(w, in);
  }
#else
  return sp_slow(w, in);
#endif
}

/* v_pk_mul_f32 specialised at decode as v_pk_fma_f32 is (emu_vop3p_specialise: no clamp, no neg,
 * the same operand forms and half order), on an FMA host with EXEC all ones only: pk_mul_half on
 * the register file. Anything else takes the general handler. */
int EMU_H(emu_op_v_pk_mul_f32_sp)(emu_wave *w, const emu_insn *in)
{
#ifdef PK_FMA_ASM
  if (__builtin_expect((emu_exec(w) != ~0ull) | !emu_avx2, 0)) return EMU_H(emu_op_v_pk_mul_f32)(w, in);
  switch (in->sp_var) { /* 8 * the high half first + the uniform sources */
  case 0: return spm_run(w, in, 0, false);
  case 1: return spm_run(w, in, 1, false);
  case 2: return spm_run(w, in, 2, false);
  case 3: return spm_run(w, in, 3, false);
  case 8: return spm_run(w, in, 0, true);
  case 9: return spm_run(w, in, 1, true);
  case 10: return spm_run(w, in, 2, true);
  case 11: return spm_run(w, in, 3, true);
  default: return EMU_H(emu_op_v_pk_mul_f32)(w, in);
  }
#else
  return EMU_H(emu_op_v_pk_mul_f32)(w, in);
#endif
}

void EMU_H(emu_vop3p_specialise)(emu_insn *in)
{
  bool mul = in->fn == emu_op_v_pk_mul_f32;
  int ns = mul ? 2 : 3; /* sources */
  if ((in->fn != emu_op_v_pk_fma_f32 && !mul) || in->clamp || in->enc >= EMU_ENC_SDWA || in->nop != 1 + ns ||
      in->o[0].kind != EMU_OPK_VGPR || in->o[0].n != 2 || (mul && (in->neg_lo | in->neg_hi)))
    return;
  in->sp_mul = mul;
  in->sp_uni = in->sp_sgpr = 0;
  in->sp_reg[0][0] = in->o[0].reg, in->sp_reg[0][1] = (uint16_t)(in->o[0].reg + 1);
  for (int j = 0; j < ns; j++) {
    const emu_opnd *o = &in->o[1 + j];
    if (o->mods) return;
    if (o->kind == EMU_OPK_VGPR) {
      uint16_t r0 = o->reg, r1 = (uint16_t)(o->reg + (o->n > 1 ? 1 : 0)); /* as src_pk32 */
      in->sp_reg[1 + j][0] = in->op_sel >> j & 1 ? r1 : r0;
      in->sp_reg[1 + j][1] = in->op_sel_hi >> j & 1 ? r1 : r0;
    } else if (o->kind == EMU_OPK_SGPR || o->kind == EMU_OPK_IMM || o->kind == EMU_OPK_FIMM ||
               o->kind == EMU_OPK_LIT) {
      in->sp_uni |= (uint8_t)(1u << j);
      if (o->kind == EMU_OPK_SGPR && o->n == 2 && o->reg + 1 < EMU_NSFILE) { /* as emu_ssrc64 reads a pair */
        in->sp_sgpr |= (uint8_t)(1u << j);
        in->sp_reg[1 + j][0] = (uint16_t)(o->reg + (in->op_sel >> j & 1));
        in->sp_reg[1 + j][1] = (uint16_t)(o->reg + (in->op_sel_hi >> j & 1));
      }
    } else {
      return; /* AGPRs: their place in the file is the kernel's (accum_offset) */
    }
  }
  /* the low destination read by the high half, the high destination by the low half */
  bool lo_hit = false, hi_hit = false;
  for (int j = 0; j < ns; j++) {
    if (in->sp_uni >> j & 1) continue;
    lo_hit |= in->sp_reg[1 + j][1] == in->sp_reg[0][0];
    hi_hit |= in->sp_reg[1 + j][0] == in->sp_reg[0][1];
  }
  if (lo_hit && hi_hit) return; /* each half reads the other's destination: the temporaries */
  in->sp_hi_first = lo_hit;
  /* sign masks as src_pk32 applies them (bit j of neg_lo / neg_hi: source j), first half first;
   * word 3 unused */
  memset(in->sp_nm, 0, sizeof in->sp_nm);
  for (int j = 0; j < 3; j++) {
    uint32_t nl = (in->neg_lo >> j & 1) ? 0x80000000u : 0, nh = (in->neg_hi >> j & 1) ? 0x80000000u : 0;
    in->sp_nm[lo_hit ? 1 : 0][j] = nl;
    in->sp_nm[lo_hit ? 0 : 1][j] = nh;
  }
  in->sp_neg = (in->neg_lo | in->neg_hi) & 7 ? 1 : 0;
  /* byte offsets for sp_fast, the first half's in row 0; a uniform source's from w->pk_fill
   * (pk_fill[j][h]), an integer constant's dwords as sp_src reads them (emu_ssrc32) */
  in->sp_kvb = 0;
  for (int h = 0; h < 2; h++) {
    int hh = lo_hit ? 1 - h : h; /* the half run h-th */
    for (int j = 0; j < 3; j++)
      in->sp_off[h][j] = j >= ns ? 0
                         : in->sp_uni >> j & 1 ? (uint32_t)((2 * j + hh) * EMU_LANES * 4)
                                                : (uint32_t)in->sp_reg[1 + j][hh] * EMU_LANES * 4;
    in->sp_off[h][3] = (uint32_t)in->sp_reg[0][hh] * EMU_LANES * 4;
  }
  /* a constant's dwords: what sp_src reads through emu_ssrc32 for it (emu_const32). Inline float
   * constants included: clang splats one with op_sel_hi = 0 ("v_pk_fma_f32 v[2:3], v[2:3], s[4:5],
   * 0.5 op_sel_hi:[1,0,0]"), and without them such a record took sp_slow's C loops at some 18 ns
   * (issue #31, fourteenth stop) */
  for (int j = 0; j < 3; j++) {
    const emu_opnd *o = &in->o[1 + j];
    in->sp_kv[j] = 0;
    if (j >= ns || !(in->sp_uni >> j & 1) || (o->kind != EMU_OPK_IMM && o->kind != EMU_OPK_LIT && o->kind != EMU_OPK_FIMM))
      continue;
    uint64_t v = emu_const32(in, 1 + j);
    uint32_t vl = (uint32_t)(in->op_sel >> j & 1 ? v >> 32 : v), vh = (uint32_t)(in->op_sel_hi >> j & 1 ? v >> 32 : v);
    in->sp_kv[j] = (uint64_t)vh << 32 | vl;
    in->sp_kvb |= (uint8_t)(1u << j);
  }
  /* emu_op_v_pk_fma_f32_sp's form: 8 * neg + the uniform sources, 16 when a uniform source is
   * neither an SGPR pair nor in sp_kv (sp_slow); v_pk_mul_f32's: 8 * the high half first + the
   * uniform sources */
  in->sp_var = (uint8_t)((in->sp_uni & ~(in->sp_sgpr | in->sp_kvb)) ? 16 : 8 * (mul ? in->sp_hi_first : in->sp_neg) + in->sp_uni);
  in->fn = mul ? EMU_H(emu_op_v_pk_mul_f32_sp) : EMU_H(emu_op_v_pk_fma_f32_sp);
}

int EMU_H(emu_op_v_pk_mov_b32)(emu_wave *w, const emu_insn *in)
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
    /* the halves through the whole-wave conversion (emu/simd.c, the same bits as emu_f16_to_f32:
     * f16 to f32 is exact; issue #31, fourteenth stop) */
    int sh = (in->op_sel >> j & 1) ? 16 : 0;
    uint16_t h[EMU_LANES];
    L64 h[l] = (uint16_t)(p[l] >> sh);
    emu_f16_to_f32_64(out, h);
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
int EMU_H(emu_op_v_fma_mix_f32)(emu_wave *w, const emu_insn *in)
{
  float d[EMU_LANES];
  mix_fma(w, in, d);
  emu_dst32(w, in, 0, (const uint32_t *)(const void *)d);
  return EMU_OK;
}
static int mix_f16(emu_wave *w, const emu_insn *in, bool hi)
{
  /* f16 result: the exact fma of the f32-exact inputs rounded once to f16 (emu_fma_ro: through
   * an f32 on the way a tie could be decided that the exact sum does not have; test_emu_pcode) */
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES];
  src_mix(w, in, 1, A);
  src_mix(w, in, 2, B);
  src_mix(w, in, 3, C);
  const uint32_t *old = emu_vreg(w, in, 0, 0);
  uint32_t d[EMU_LANES];
  uint16_t h[EMU_LANES];
  const bool dx10 = emu_dx10_clamp(w);
  if (!in->clamp) emu_fma_f16_64(h, A, B, C); /* emu/simd.c: the same bits, 64 lanes at once */
  else L64 h[l] = fma_h(A[l], B[l], C[l], true, dx10);
  L64 d[l] = hi ? (old[l] & 0xffffu) | (uint32_t)h[l] << 16 : (old[l] & 0xffff0000u) | h[l];
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_fma_mixlo_f16)(emu_wave *w, const emu_insn *in) { return mix_f16(w, in, false); }
int EMU_H(emu_op_v_fma_mixhi_f16)(emu_wave *w, const emu_insn *in) { return mix_f16(w, in, true); }

/* ---- dot products (CDNA3/CDNA4 ISA "V_DOT*" pseudocode) ----------------------------------------
 * f32 forms: the pseudocode's tmp is an f32, accumulated one step at a time, each step rounded to f32
 * (round to nearest even); each product of two f16 or bf16 values is exact in f32 (11x11 or 8x8
 * significand bits; a bf16 product can leave f32's range, and then rounds as an f32 multiply does):
 *   V_DOT2_F32_F16:   tmp = S2; tmp += a.lo*b.lo; tmp += a.hi*b.hi
 *   V_DOT2_F32_BF16:  tmp = a.lo*b.lo; tmp += a.hi*b.hi; tmp += S2   (S2 last, a different order)
 *   V_DOT2C_F32_F16 / _BF16: as V_DOT2_F32_F16 with tmp = D0 (the destination accumulates)
 * Not hardware-confirmed (docs/emulator-choices.md "Dot products"). The sources' halves are chosen
 * and negated by op_sel/op_sel_hi/neg_lo/neg_hi (VOP3P). NEG and ABS do not affect S2 of
 * V_DOT2_F32_BF16 and V_DOT2C_F32_BF16 (CDNA4 ISA notes), so neg_lo[2]/neg_hi[2] are not applied
 * there; for V_DOT2C_F32_BF16's VOP3 form, "ABS[1:0] are used as NEG_HI[1:0]": |src| negates the
 * high half, -src the low half. Results through emu_dstf32 (clamp, omod). The products and sums
 * are separate float statements: the build has no FMA contraction (no -mfma), so nothing fuses. */
static inline float mulf(float a, float b) { return a * b; }
static void dot_srcs(emu_wave *w, const emu_insn *in, bool bf, float *al, float *ah, float *bl, float *bh)
{
  uint16_t xl[EMU_LANES], xh[EMU_LANES], yl[EMU_LANES], yh[EMU_LANES];
  emu_srcpk(w, in, in->src0i, bf ? EMU_PK_BF16 : EMU_PK_F16, xl, xh);
  emu_srcpk(w, in, in->src0i + 1, bf ? EMU_PK_BF16 : EMU_PK_F16, yl, yh);
  if (in->flags & EMU_F_VOP3P ? false : in->enc == EMU_ENC_E64) {
    /* VOP3 form of a VOP2 dot (dot2c_f32_bf16): -src negates the low half, |src| the high half */
    for (int j = 0; j < 2; j++) {
      uint8_t m = in->o[in->src0i + j].mods;
      uint16_t *lo = j ? yl : xl, *hi = j ? yh : xh;
      if (m & EMU_M_NEG) L64 lo[l] ^= 0x8000;
      if (m & EMU_M_ABS) L64 hi[l] ^= 0x8000;
    }
  }
  L64 {
    al[l] = bf ? emu_bf16_to_f32(xl[l]) : h2f(xl[l]), ah[l] = bf ? emu_bf16_to_f32(xh[l]) : h2f(xh[l]);
    bl[l] = bf ? emu_bf16_to_f32(yl[l]) : h2f(yl[l]), bh[l] = bf ? emu_bf16_to_f32(yh[l]) : h2f(yh[l]);
  }
}
int EMU_H(emu_op_v_dot2_f32_f16)(emu_wave *w, const emu_insn *in)
{
  float al[EMU_LANES], ah[EMU_LANES], bl[EMU_LANES], bh[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  dot_srcs(w, in, false, al, ah, bl, bh);
  emu_srcf32(w, in, 3, C);
  L64 {
    float t = C[l];
    t = t + mulf(al[l], bl[l]);
    t = t + mulf(ah[l], bh[l]);
    d[l] = t;
  }
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_dot2_f32_bf16)(emu_wave *w, const emu_insn *in)
{
  float al[EMU_LANES], ah[EMU_LANES], bl[EMU_LANES], bh[EMU_LANES], d[EMU_LANES];
  uint32_t tc[EMU_LANES];
  dot_srcs(w, in, true, al, ah, bl, bh);
  const uint32_t *C = emu_src32(w, in, 3, tc); /* S2 without modifiers (CDNA4 ISA note) */
  L64 {
    float t = mulf(al[l], bl[l]);
    t = t + mulf(ah[l], bh[l]);
    t = t + emu_f32(C[l]);
    d[l] = t;
  }
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
static int dot2c_f32(emu_wave *w, const emu_insn *in, bool bf)
{
  float al[EMU_LANES], ah[EMU_LANES], bl[EMU_LANES], bh[EMU_LANES], d[EMU_LANES];
  dot_srcs(w, in, bf, al, ah, bl, bh);
  const uint32_t *D = emu_vreg(w, in, 0, 0);
  L64 {
    float t = emu_f32(D[l]);
    t = t + mulf(al[l], bl[l]);
    t = t + mulf(ah[l], bh[l]);
    d[l] = t;
  }
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_dot2c_f32_f16)(emu_wave *w, const emu_insn *in) { return dot2c_f32(w, in, false); }
int EMU_H(emu_op_v_dot2c_f32_bf16)(emu_wave *w, const emu_insn *in) { return dot2c_f32(w, in, true); }

/* Integer dot products: tmp = S2 (or D0 for the *c forms) plus the products of the N-bit fields of
 * S0 and S1 (sign- or zero-extended), in the pseudocode's 32-bit tmp: the sum wraps modulo 2^32;
 * with clamp the exact sum (int64) is saturated to the 32-bit type once (int-clamp-exact). The
 * packed sources are read whole (a VOP3P op_sel would select 16-bit halves; LLVM accepts none on
 * these, and the decoder refuses neg_lo/neg_hi on integer VOP3P ops). */
/* element i of `bits` bits of v, sign- (sgn) or zero-extended to 32 bits */
static inline __attribute__((always_inline)) uint32_t dot_elem(uint32_t v, int i, int bits, bool sgn)
{
  return sgn ? (uint32_t)((int32_t)(v << (32 - bits * (i + 1))) >> (32 - bits)) : v >> (bits * i) & ((1u << bits) - 1);
}
static inline __attribute__((always_inline)) int dot_int(emu_wave *w, const emu_insn *in, const int bits,
                                                          const bool sgn, const bool acc_in_dst)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES], d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, in->src0i, t0), *B = emu_src32(w, in, in->src0i + 1, t1);
  const uint32_t *C = acc_in_dst ? emu_vreg(w, in, 0, 0) : emu_src32(w, in, in->src0i + 2, t2);
  const int n = 32 / bits;
  if (!in->clamp) {
    /* the exact sum's low 32 bits: products and sums modulo 2^32, each element sign- or
     * zero-extended; with bits and sgn constants here (inlined per form) the loop vectorizes */
    L64 {
      uint32_t sum = C[l];
      for (int i = 0; i < n; i++) sum += dot_elem(A[l], i, bits, sgn) * dot_elem(B[l], i, bits, sgn);
      d[l] = sum;
    }
    emu_dst32(w, in, 0, d);
    return EMU_OK;
  }
  L64 {
    int64_t sum = sgn ? (int64_t)(int32_t)C[l] : (int64_t)C[l];
    for (int i = 0; i < n; i++) {
      const uint32_t x = dot_elem(A[l], i, bits, sgn), y = dot_elem(B[l], i, bits, sgn);
      sum += sgn ? (int64_t)(int32_t)x * (int32_t)y : (int64_t)x * y;
    }
    /* clamp: the exact sum saturated to the 32-bit type once */
    const int64_t lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : (int64_t)UINT32_MAX;
    d[l] = (uint32_t)(sum < lo ? lo : sum > hi ? hi : sum);
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_dot2_i32_i16)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 16, true, false); }
int EMU_H(emu_op_v_dot2_u32_u16)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 16, false, false); }
int EMU_H(emu_op_v_dot4_i32_i8)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 8, true, false); }
int EMU_H(emu_op_v_dot4_u32_u8)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 8, false, false); }
int EMU_H(emu_op_v_dot8_i32_i4)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 4, true, false); }
int EMU_H(emu_op_v_dot8_u32_u4)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 4, false, false); }
int EMU_H(emu_op_v_dot2c_i32_i16)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 16, true, true); }
int EMU_H(emu_op_v_dot4c_i32_i8)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 8, true, true); }
int EMU_H(emu_op_v_dot8c_i32_i4)(emu_wave *w, const emu_insn *in) { return dot_int(w, in, 4, true, true); }

/* V_PK_MAXIMUM3_F16 / V_PK_MINIMUM3_F16 (gfx950): per half, IEEE 754-2019 maximum()/minimum() of the
 * three (a NaN gives the first NaN operand quieted; -0 < +0); the result is one of the operands'
 * f16 values, so it is selected bit for bit; clamp as for any f16 result (IEEE mode ignored). */
static inline uint16_t hmaximum(uint16_t a, uint16_t b, bool mx)
{
  if ((a & 0x7c00) == 0x7c00 && (a & 0x3ff)) return a | 0x200;
  if ((b & 0x7c00) == 0x7c00 && (b & 0x3ff)) return b | 0x200;
  float x = h2f(a), y = h2f(b);
  if (x == y) return (uint16_t)((a >> 15) == (unsigned)mx ? b : a);
  return (x > y) == mx ? a : b;
}
static int pk_maximum3(emu_wave *w, const emu_insn *in, bool mx)
{
  uint16_t lo[3][EMU_LANES], hi[3][EMU_LANES];
  uint32_t d[EMU_LANES];
  for (int j = 0; j < 3; j++) emu_srcpk(w, in, 1 + j, EMU_PK_F16, lo[j], hi[j]);
  bool dx10 = emu_dx10_clamp(w);
  L64 {
    uint16_t rl = hmaximum(hmaximum(lo[0][l], lo[1][l], mx), lo[2][l], mx);
    uint16_t rh = hmaximum(hmaximum(hi[0][l], hi[1][l], mx), hi[2][l], mx);
    if (in->clamp) rl = emu_f32_to_f16(emu_clampf(dx10, h2f(rl))), rh = emu_f32_to_f16(emu_clampf(dx10, h2f(rh)));
    d[l] = rl | (uint32_t)rh << 16;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_pk_maximum3_f16)(emu_wave *w, const emu_insn *in) { return pk_maximum3(w, in, true); }
int EMU_H(emu_op_v_pk_minimum3_f16)(emu_wave *w, const emu_insn *in) { return pk_maximum3(w, in, false); }
