/* emu/op_valu — vector ALU semantics: VOP1, VOP2, VOPC, VOP3 (CDNA3 ISA chapter "Vector ALU
 * Operations" and the instruction listings "VOP2", "VOP1", "VOPC", "VOP3A/VOP3B"; CDNA4 ISA
 * likewise). Each handler is one line of lane arithmetic inside a family macro; the macros do
 * operand reads (inline constants, literals, abs/neg, SDWA, DPP) and writes under EXEC (omod,
 * clamp, SDWA dst_sel) through the shared helpers in exec.c; f16/bf16 conversions are emu/fp.c's.
 *
 * Floating point: f32/f64 arithmetic is IEEE with denormals kept (the HIP default mode), round to
 * nearest even. Transcendentals (v_exp/log/rcp/rsq/sqrt/sin/cos) are computed in double and
 * rounded once to the destination type: at least as accurate as hardware (which documents ~1 ULP),
 * so results may differ from a GPU in the last bit. */
#include <float.h>
#include <stdint.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "emu/internal.h"

#define L64 for (int l = 0; l < EMU_LANES; l++)
#define S0I (in->src0i)

/* ---- family macros --------------------------------------------------------------------------*/
/* Where a lane loop writes its result: straight into the destination register when the result may
 * go there whole (emu_dst32_direct: EXEC all ones, a plain VGPR, no SDWA; here also no clamp or
 * omod, which the write helpers apply) and the register is none of the sources, so the loop reads
 * only lanes it never writes; otherwise the handler's array d, written by the helper afterwards as
 * before (a result over one of its sources, partial EXEC, clamp/omod, SDWA/DPP, SGPR results).
 * Saves the copy pass of the common case. OUT_DONE(d, o, write) runs the helper when o is d. */
static inline uint32_t *dst_out(emu_wave *w, const emu_insn *in, uint32_t *d, const void *a, const void *b, const void *c)
{
  uint32_t *r = (in->clamp | in->omod) ? NULL : emu_dst32_direct(w, in, 0);
  return r && (const void *)r != a && (const void *)r != b && (const void *)r != c ? r : d;
}
#define OUT_DONE(d, o, write)                                                                      \
  do {                                                                                             \
    if ((const void *)(o) == (const void *)(d)) write;                                            \
  } while (0)

/* Integer add/sub with the VOP3 clamp bit: the exact result saturated to the type's range,
 * [0, 2^bits - 1] unsigned or [-2^(bits-1), 2^(bits-1) - 1] signed (CDNA3 ISA VOP3 "CLAMP":
 * integer results saturate; LLVM hasIntClamp on gfx9). Without clamp the result wraps. 16-bit forms
 * write through emu_dst16 (op_sel-capable v_add_i16/v_sub_i16 keep the other half; the VOP2 u16
 * ops zero it, EMU_F_D16Z). */
static inline uint32_t isat(int64_t r, int bits, bool sgn)
{
  int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0, hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  return (uint32_t)(r < lo ? lo : r > hi ? hi : r);
}
#define VOP_SAT(name, bits, sgn, expr)                                                             \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];                                           \
    uint16_t h0[EMU_LANES], h1[EMU_LANES], hd[EMU_LANES];                                          \
    const uint32_t *A = t0, *B = t1;                                                               \
    if (bits == 32) A = emu_src32(w, in, S0I, t0), B = emu_src32(w, in, S0I + 1, t1);               \
    if (bits == 32 && !in->clamp) {                                                                \
      /* wrapping: add/sub modulo 2^32 give the low 32 bits of the exact result, signed or not */  \
      uint32_t *o = dst_out(w, in, d, A, B, NULL);                                                 \
      L64 { uint32_t a = A[l], b = B[l]; o[l] = (expr); }                                          \
      OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                      \
      return EMU_OK;                                                                               \
    }                                                                                              \
    if (bits != 32) {                                                                              \
      emu_src16(w, in, S0I, h0), emu_src16(w, in, S0I + 1, h1);                                    \
      L64 t0[l] = h0[l], t1[l] = h1[l];                                                            \
    }                                                                                              \
    L64 {                                                                                          \
      int64_t a = !(sgn) ? (int64_t)A[l] : bits == 32 ? (int32_t)A[l] : (int16_t)A[l];            \
      int64_t b = !(sgn) ? (int64_t)B[l] : bits == 32 ? (int32_t)B[l] : (int16_t)B[l];            \
      int64_t r = (expr);                                                                          \
      d[l] = in->clamp ? isat(r, bits, sgn) : (uint32_t)r;                                         \
      hd[l] = (uint16_t)d[l];                                                                      \
    }                                                                                              \
    if (bits == 32) emu_dst32(w, in, 0, d);                                                        \
    else emu_dst16(w, in, 0, hd);                                                                  \
    return EMU_OK;                                                                                 \
  }
#define VOP_USAT(name, bits, expr) VOP_SAT(name, bits, false, expr)

static int int_clamp(emu_wave *w, const emu_insn *in)
{
  return emu_raise(w, in, "unimplemented", -1, 0, "clamp on an integer VALU op is not implemented");
}

/* One 32-bit integer source: the lane loop (VOP_U1), or a whole-wave kernel of emu/simd.c writing o
 * from A (VOP_U1K) */
#define VOP_U1K(name, ...)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], d[EMU_LANES];                                                          \
    const uint32_t *A = emu_src32(w, in, S0I, t0);                                                 \
    if (in->clamp) return int_clamp(w, in);                                                        \
    uint32_t *o = dst_out(w, in, d, A, NULL, NULL);                                                \
    __VA_ARGS__;                                                                                   \
    OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                        \
    return EMU_OK;                                                                                 \
  }
#define VOP_U1(name, expr) VOP_U1K(name, L64 { uint32_t a = A[l]; (void)a; o[l] = (expr); })
/* Two 32-bit integer sources: the lane loop (VOP_U2), or a whole-wave kernel of emu/simd.c writing
 * o from A and B (VOP_U2K) */
#define VOP_U2K(name, ...)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];                                           \
    const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1);             \
    if (in->clamp) return int_clamp(w, in);                                                        \
    uint32_t *o = dst_out(w, in, d, A, B, NULL);                                                   \
    __VA_ARGS__;                                                                                   \
    OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                        \
    return EMU_OK;                                                                                 \
  }
#define VOP_U2(name, expr) VOP_U2K(name, L64 { uint32_t a = A[l], b = B[l]; o[l] = (expr); })
/* Shifts: a uniform shift count (constant or SGPR, the common case) is read once, so the lane
 * loop shifts by one scalar amount (vectorizes without per-lane variable shifts). */
#define VOP_SHIFT(name, expr)                                                                      \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];                                           \
    const emu_opnd *oa = &in->o[S0I];                                                              \
    if (in->clamp) return int_clamp(w, in);                                                        \
    if (in->enc < EMU_ENC_SDWA && oa->kind != EMU_OPK_VGPR && oa->kind != EMU_OPK_AGPR) {          \
      const uint32_t a = emu_ssrc32(w, in, S0I), *B = emu_src32(w, in, S0I + 1, t1);               \
      uint32_t *o = dst_out(w, in, d, B, NULL, NULL);                                              \
      L64 { uint32_t b = B[l]; o[l] = (expr); }                                                    \
      OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                      \
    } else {                                                                                       \
      const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1);           \
      uint32_t *o = dst_out(w, in, d, A, B, NULL);                                                 \
      L64 { uint32_t a = A[l], b = B[l]; o[l] = (expr); }                                          \
      OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                      \
    }                                                                                              \
    return EMU_OK;                                                                                 \
  }
#define VOP_U3(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES], d[EMU_LANES];                            \
    const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1),             \
                   *C = emu_src32(w, in, S0I + 2, t2);                                             \
    if (in->clamp) return int_clamp(w, in);                                                        \
    uint32_t *o = dst_out(w, in, d, A, B, C);                                                      \
    L64 { uint32_t a = A[l], b = B[l], c = C[l]; o[l] = (expr); }                                  \
    OUT_DONE(d, o, emu_dst32(w, in, 0, d));                                                        \
    return EMU_OK;                                                                                 \
  }
/* Integer op computed exactly in int64 (expr over int64 a, b, c: sources 0..NS-1, zero- or
 * sign-extended per the op): the low 32 bits, or with clamp the exact value saturated to the 32-bit
 * result type's range (CDNA3 ISA §6.5 "ALU Clamp Bit Usage": an integer result is clamped to the
 * largest and smallest representable value; for a multiply-add saturating the exact result once
 * is lanelab's reading, the int-clamp-exact choice, flagged EMU_F_ICLAMP in ops.def). */
#define VOP_X(name, NS, sgn, ext0, ext1, ext2, expr)                                               \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES], d[EMU_LANES];                            \
    const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1),             \
                   *C = NS > 2 ? emu_src32(w, in, S0I + 2, t2) : t2;                                \
    if (!in->clamp) {                                                                              \
      /* the low 32 bits of a product and a sum depend only on the low 32 bits of the operands: \
       * the same bits in 32-bit arithmetic, which vectorizes (no 64-bit lane multiply in AVX2) */  \
      L64 {                                                                                        \
        uint32_t a = (uint32_t)ext0(A[l]), b = (uint32_t)ext1(B[l]), c = NS > 2 ? (uint32_t)ext2(C[l]) : 0; \
        (void)c;                                                                                   \
        d[l] = (uint32_t)(expr);                                                                   \
      }                                                                                            \
    } else                                                                                         \
      L64 {                                                                                        \
        int64_t a = ext0(A[l]), b = ext1(B[l]), c = NS > 2 ? ext2(C[l]) : 0;                       \
        (void)c;                                                                                   \
        d[l] = isat((expr), 32, sgn);                                                              \
      }                                                                                            \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
#define XU24(x) ((int64_t)((x) & 0xffffff))
#define XI24(x) ((int64_t)((int32_t)((x) << 8) >> 8))
#define XU16(x) ((int64_t)((x) & 0xffff))
#define XI16(x) ((int64_t)(int16_t)(x))
#define XU32(x) ((int64_t)(x))
#define XI32(x) ((int64_t)(int32_t)(x))

#define VOP_F1(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float tA[EMU_LANES], d[EMU_LANES];                                                             \
    const emu_f32a *A = emu_srcf32p(w, in, S0I, tA);                                               \
    emu_f32a *o = (emu_f32a *)(void *)dst_out(w, in, (uint32_t *)(void *)d, A, NULL, NULL);        \
    L64 { float a = A[l]; o[l] = (expr); }                                                         \
    OUT_DONE(d, o, emu_dstf32(w, in, 0, d));                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_F2(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float tA[EMU_LANES], tB[EMU_LANES], d[EMU_LANES];                                              \
    const emu_f32a *A = emu_srcf32p(w, in, S0I, tA), *B = emu_srcf32p(w, in, S0I + 1, tB);        \
    emu_f32a *o = (emu_f32a *)(void *)dst_out(w, in, (uint32_t *)(void *)d, A, B, NULL);           \
    L64 { float a = A[l], b = B[l]; o[l] = (expr); }                                               \
    OUT_DONE(d, o, emu_dstf32(w, in, 0, d));                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_F3(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float tA[EMU_LANES], tB[EMU_LANES], tC[EMU_LANES], d[EMU_LANES];                               \
    const emu_f32a *A = emu_srcf32p(w, in, S0I, tA), *B = emu_srcf32p(w, in, S0I + 1, tB),        \
                   *C = emu_srcf32p(w, in, S0I + 2, tC);                                           \
    emu_f32a *o = (emu_f32a *)(void *)dst_out(w, in, (uint32_t *)(void *)d, A, B, C);              \
    L64 { float a = A[l], b = B[l], c = C[l]; o[l] = (expr); }                                     \
    OUT_DONE(d, o, emu_dstf32(w, in, 0, d));                                                       \
    return EMU_OK;                                                                                 \
  }
/* f32 source(s) -> u32 result */
#define VOP_F1U(name, expr)                                                                        \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES];                                                                            \
    uint32_t d[EMU_LANES];                                                                         \
    emu_srcf32(w, in, S0I, A);                                                                     \
    L64 { float a = A[l]; d[l] = (expr); }                                                         \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
/* ---- f64 add, mul and fma of whole registers on AVX-512 ------------------------------------------
 * The generic handlers read each source into an array of 64 doubles (its two VGPR halves joined),
 * compute lane by lane and split the results back: three passes over memory per source. When the
 * CPU has AVX-512 and the instruction is plain (no DPP or SDWA, no clamp or omod, sources that are
 * VGPR/AGPR pairs or uniform, abs/neg allowed), emu/simd.c emu_f64_arith64 does it 16 lanes at a
 * time with the same bits as the generic handlers on a host with FMA: add and mul take S0 as the
 * first source (the generic build's addpd/mulpd of S1 into S0: of two NaNs, S0's comes out,
 * quieted); fma is vfmadd132pd with S1 in the destination, S2 the second operand and S0 the third,
 * the form and order the generic dfma_loop's FMA clone was compiled to (its NaN order S1, S2, S0).
 * tests/test_emu_cvt.c compares both paths on NaN payloads, infinities, signed zeros, subnormals,
 * modifiers, uniform sources, partial EXEC and a destination over a source. */
static bool f64_src(emu_wave *w, const emu_insn *in, int i, emu_f64src *s)
{
  const emu_opnd *o = &in->o[i];
  if (o->mods & ~(EMU_M_ABS | EMU_M_NEG)) return false;
  s->andm = (o->mods & EMU_M_ABS) ? ~(1ull << 63) : ~0ull;
  s->xorm = (o->mods & EMU_M_NEG) ? 1ull << 63 : 0;
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    if (o->n < 2) return false;
    s->lo = emu_vreg(w, in, i, 0), s->hi = emu_vreg(w, in, i, 1);
    return true;
  }
  if (o->kind == EMU_OPK_NONE || o->kind == EMU_OPK_OFF) return false;
  s->lo = s->hi = NULL; /* uniform: as emu_srcf64 reads it (a 32-bit literal is the high half) */
  s->u = o->kind == EMU_OPK_LIT && !(o->ival >> 32) ? (uint64_t)o->ival << 32 : emu_ssrc64(w, in, i);
  return true;
}
/* true: done (the fast path took it); false: the generic handler runs. fmac: S2 is the
 * destination pair (v_fmac_f64 D = S0 * S1 + D). */
static bool f64_fast(emu_wave *w, const emu_insn *in, int op, bool fmac)
{
  if (!emu_avx512 || in->enc >= EMU_ENC_SDWA || in->clamp || in->omod) return false;
  const emu_opnd *d = &in->o[0];
  if ((d->kind != EMU_OPK_VGPR && d->kind != EMU_OPK_AGPR) || d->n < 2) return false;
  emu_f64src s[3];
  const int ns = op == EMU_F64_FMA && !fmac ? 3 : 2;
  for (int i = 0; i < ns; i++)
    if (!f64_src(w, in, S0I + i, &s[i])) return false;
  if (fmac) s[2] = (emu_f64src){emu_vreg(w, in, 0, 0), emu_vreg(w, in, 0, 1), 0, ~0ull, 0};
  return emu_f64_arith64(op, s, emu_vreg(w, in, 0, 0), emu_vreg(w, in, 0, 1), emu_exec(w));
}
#define F64_TRY(op, fmac)                                                                          \
  if (f64_fast(w, in, op, fmac)) return EMU_OK

#define VOP_D1(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    double A[EMU_LANES], d[EMU_LANES];                                                             \
    emu_srcf64(w, in, S0I, A);                                                                     \
    L64 { double a = A[l]; d[l] = (expr); }                                                        \
    emu_dstf64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
/* VOP_D2 with the AVX-512 path of f64_fast (op) tried first */
#define VOP_D2F(name, expr, op) VOP_D2_(name, expr, F64_TRY(op, false))
#define VOP_D2(name, expr) VOP_D2_(name, expr, (void)0)
#define VOP_D2_(name, expr, first)                                                                 \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    first;                                                                                         \
    double A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];                                               \
    emu_srcf64(w, in, S0I, A);                                                                     \
    emu_srcf64(w, in, S0I + 1, B);                                                                 \
    L64 { double a = A[l], b = B[l]; d[l] = (expr); }                                              \
    emu_dstf64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_D3(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    double A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];                                 \
    emu_srcf64(w, in, S0I, A);                                                                     \
    emu_srcf64(w, in, S0I + 1, B);                                                                 \
    emu_srcf64(w, in, S0I + 2, C);                                                                 \
    L64 { double a = A[l], b = B[l], c = C[l]; d[l] = (expr); }                                    \
    emu_dstf64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_H1(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES], d[EMU_LANES];                                                              \
    emu_srcf16(w, in, S0I, A);                                                                     \
    L64 { float a = A[l]; d[l] = (expr); }                                                         \
    emu_dstf16(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_H2(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];                                                \
    emu_srcf16(w, in, S0I, A);                                                                     \
    emu_srcf16(w, in, S0I + 1, B);                                                                 \
    L64 { float a = A[l], b = B[l]; d[l] = (expr); }                                               \
    emu_dstf16(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_H3(name, expr)                                                                         \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];                                  \
    emu_srcf16(w, in, S0I, A);                                                                     \
    emu_srcf16(w, in, S0I + 1, B);                                                                 \
    emu_srcf16(w, in, S0I + 2, C);                                                                 \
    L64 { float a = A[l], b = B[l], c = C[l]; d[l] = (expr); }                                     \
    emu_dstf16(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define VOP_W2(name, expr) /* 16-bit integer, two sources */                                       \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];                                             \
    emu_src16(w, in, S0I, A);                                                                      \
    emu_src16(w, in, S0I + 1, B);                                                                  \
    if (in->clamp) return int_clamp(w, in);                                                        \
    L64 { uint16_t a = A[l], b = B[l]; d[l] = (uint16_t)(expr); }                                  \
    emu_dst16(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }

/* ---- helpers with IEEE corner cases -------------------------------------------------------- */
/* v_min/v_max (CDNA3 ISA "VOP2"; IEEE-754-2008 minNum/maxNum): a quiet NaN operand yields the
 * other operand; -0 < +0. In IEEE mode (emu_ieee_mode) a signalling NaN operand yields that NaN
 * quieted (CDNA3 ISA "IEEE mode": sNaN inputs are quieted); with IEEE mode off it counts as a
 * quiet NaN. */
static inline bool snan64(double x)
{
  uint64_t u = emu_u64f(x);
  return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0x7ffffffffffffull) && !(u >> 51 & 1);
}
static inline double quiet64(double x) { return emu_f64(emu_u64f(x) | (1ull << 51)); }
static inline double dmin_ieee(bool ieee, double a, double b)
{
  if (ieee && snan64(a)) return quiet64(a);
  if (ieee && snan64(b)) return quiet64(b);
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return emu_u64f(a) >> 63 ? a : b;
  return a < b ? a : b;
}
static inline double dmax_ieee(bool ieee, double a, double b)
{
  if (ieee && snan64(a)) return quiet64(a);
  if (ieee && snan64(b)) return quiet64(b);
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return emu_u64f(a) >> 63 ? b : a;
  return a > b ? a : b;
}
#define IEEE emu_ieee_mode(w)
static inline float fmed3(bool ieee, float a, float b, float c)
{
  if (a != a || b != b || c != c) return emu_fmin_ieee(ieee, emu_fmin_ieee(ieee, a, b), c);
  float mx = emu_fmax_ieee(ieee, emu_fmax_ieee(ieee, a, b), c);
  if (mx == a) return emu_fmax_ieee(ieee, b, c);
  if (mx == b) return emu_fmax_ieee(ieee, a, c);
  return emu_fmax_ieee(ieee, a, b);
}
/* float -> int conversions: truncate, saturate, NaN -> 0 (CDNA3 ISA "V_CVT_I32_F32") */
static inline uint32_t cvt_i32(double x)
{
  if (x != x) return 0;
  if (x >= 2147483647.0) return 0x7fffffff;
  if (x <= -2147483648.0) return 0x80000000u;
  return (uint32_t)(int32_t)x;
}
static inline uint32_t cvt_u32(double x)
{
  if (x != x || x <= 0) return 0;
  if (x >= 4294967295.0) return 0xffffffffu;
  return (uint32_t)x;
}
static inline float rne_f32(float x) { return nearbyintf(x); }
/* v_fract (CDNA3 ISA "V_FRACT_F32"): x - floor(x), at most the largest value below 1 of the
 * type; NaN for inf; a NaN input is returned quieted (the comparison below is false for NaN, so
 * it must be tested first: fract(NaN) once gave 0x3f7fffff). */
static inline float fract_f32(float x)
{
  if (x != x) return emu_quiet32(x);
  if (isinf(x)) return emu_f32(0x7fc00000);
  float r = x - floorf(x);
  return r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f;
}
static inline float fract_f16(float x) /* the f16 bound is 0x3bff = 1 - 2^-11 */
{
  if (x != x) return emu_quiet32(x);
  if (isinf(x)) return emu_f32(0x7fc00000);
  float r = x - floorf(x);
  return r < 0x1.ffcp-1f ? r : 0x1.ffcp-1f;
}
static inline double fract_f64(double x)
{
  if (x != x) return emu_f64(emu_u64f(x) | (1ull << 51));
  if (isinf(x)) return NAN;
  double r = x - floor(x);
  return r < 0x1.fffffffffffffp-1 ? r : 0x1.fffffffffffffp-1;
}
/* transcendentals: double precision, rounded once (see file comment) */
static inline float t_exp(float a) { return (float)exp2((double)a); }
static inline float t_log(float a) { return (float)log2((double)a); }
static inline float t_rcp(float a) { return (float)(1.0 / (double)a); }
static inline float t_rsq(float a) { return (float)(1.0 / sqrt((double)a)); }
static inline float t_sqrt(float a) { return sqrtf(a); } /* correctly rounded */
/* v_sin/v_cos take turns: sin(2*pi*x) (CDNA3 ISA "V_SIN_F32"). The argument is reduced in turns
 * as the hardware does: x = n + q/4 + t with n, q integers and |t| <= 1/8, each step exact in
 * float, then sin/cos(2*pi*t) in double picked by the quadrant q and rounded once. So whole and
 * quarter turns give exact 0 and +-1 for any magnitude (2*pi*x in double lost them: cos of a large
 * whole number of turns came out -0.052). inf and NaN give NaN. */
static inline float t_turns(float a, bool cosine)
{
  if (a != a) return emu_quiet32(a);
  if (isinf(a)) return emu_f32(0x7fc00000);
  float r = a - rintf(a);                 /* exact: |r| <= 1/2 */
  float qf = rintf(r * 4.0f);             /* quadrant -2..2 */
  float t = r - qf * 0.25f;               /* exact: |t| <= 1/8 */
  int q = ((int)qf + (cosine ? 1 : 0)) & 3; /* cos(x) = sin(x + 1/4 turn) */
  double s = sin(2.0 * M_PI * (double)t), c = cos(2.0 * M_PI * (double)t);
  double v = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
  return (float)v + 0.0f;                 /* +0.0f: sin(-0 turns) of an exact zero result is +0 */
}
static inline float t_sin(float a) { return a == 0 ? a : t_turns(a, false); }
static inline float t_cos(float a) { return t_turns(a, true); }
static inline int exp_f32(float x) { return (int)((emu_u32f(x) >> 23) & 0xff); }
static inline int exp_f64(double x) { return (int)((emu_u64f(x) >> 52) & 0x7ff); }
static inline bool denorm_f32(float x) { return x != 0 && exp_f32(x) == 0; }
static inline bool denorm_f64(double x) { return x != 0 && exp_f64(x) == 0; }
static inline uint32_t frexp_exp32(float x)
{
  if (isinf(x) || x != x || x == 0) return 0;
  int e;
  frexpf(x, &e);
  return (uint32_t)e;
}
static inline float frexp_mant32(float x)
{
  if (isinf(x) || x != x) return x;
  int e;
  return frexpf(x, &e);
}
static inline uint32_t bfe_u(uint32_t a, uint32_t off, uint32_t w)
{
  off &= 31, w &= 31;
  if (w == 0) return 0;
  return (a >> off) & ((1u << w) - 1) & (off + w < 32 ? ~0u : ~0u);
}
static inline uint32_t bfe_i(uint32_t a, uint32_t off, uint32_t w)
{
  /* the field's w bits from bit off (fewer where it runs past bit 31), sign-extended from its top
   * bit; 0 for w = 0. Without branches, so that the lane loop vectorizes: the field shifted to
   * the top (by s = 32 - its width, 0..31) and back arithmetically */
  off &= 31, w &= 31;
  uint32_t fw = w < 32 - off ? w : 32 - off, s = (32 - fw) & 31;
  uint32_t r = (uint32_t)((int32_t)((a >> off) << s) >> s);
  return w ? r : 0;
}
static inline uint32_t perm_byte(uint64_t in, uint32_t sel)
{
  /* CDNA ISA "V_PERM_B32" BYTE_PERMUTE: 0-7 byte, 8-11 sign of bytes 1,3,5,7, 12 -> 0, >=13 -> 0xff */
  sel &= 0xff;
  if (sel >= 13) return 0xff;
  if (sel == 12) return 0;
  if (sel >= 8) return (in >> (16 * (sel - 8) + 15) & 1) ? 0xff : 0;
  return (uint32_t)(in >> (8 * sel)) & 0xff;
}
static inline uint32_t v_perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
  uint64_t in = (uint64_t)s0 << 32 | s1;
  return perm_byte(in, sel) | perm_byte(in, sel >> 8) << 8 | perm_byte(in, sel >> 16) << 16 |
         perm_byte(in, sel >> 24) << 24;
}
static inline uint32_t rotr64_32(uint32_t hi, uint32_t lo, uint32_t sh)
{
  return (uint32_t)((((uint64_t)hi << 32) | lo) >> (sh & 31));
}

/* fused multiply-add: clones for FMA-capable hosts so the lane loop vectorizes */
EMU_FMA_CLONES static void fma_loop(const emu_f32a *a, const emu_f32a *b,
                                                                      const emu_f32a *c, float *d)
{
  L64 d[l] = __builtin_fmaf(a[l], b[l], c[l]);
}
EMU_FMA_CLONES static void dfma_loop(const double *a,
                                                                       const double *b,
                                                                       const double *c, double *d)
{
  L64 d[l] = __builtin_fma(a[l], b[l], c[l]);
}

/* ---- VOP1 (CDNA3 ISA "VOP1 Instructions") ---------------------------------------------------*/
VOP_U1(v_mov_b32, a)                    /* D = S0 */
VOP_U1(v_not_b32, ~a)                   /* D = ~S0 */
/* as whole-wave kernels of emu/simd.c (emu_bitscan64), where the per-lane loops did not vectorize */
VOP_U1K(v_bfrev_b32, emu_bitscan64(o, A, 3))
VOP_U1K(v_ffbh_u32, emu_bitscan64(o, A, 0)) /* leading zeros, -1 if 0 */
VOP_U1K(v_ffbl_b32, emu_bitscan64(o, A, 1)) /* trailing zeros, -1 if 0 */
VOP_U1K(v_ffbh_i32, emu_bitscan64(o, A, 2)) /* first bit differing from the sign */
VOP_F1U(v_cvt_i32_f32, cvt_i32(a))
VOP_F1U(v_cvt_u32_f32, cvt_u32(a))
VOP_F1U(v_cvt_flr_i32_f32, cvt_i32(floorf(a)))
VOP_F1U(v_cvt_rpi_i32_f32, cvt_i32(floorf(a + 0.5f)))
VOP_F1U(v_frexp_exp_i32_f32, frexp_exp32(a))
VOP_F1(v_frexp_mant_f32, frexp_mant32(a))
VOP_F1(v_fract_f32, fract_f32(a))
VOP_F1(v_trunc_f32, truncf(a))
VOP_F1(v_ceil_f32, ceilf(a))
VOP_F1(v_rndne_f32, rne_f32(a))
VOP_F1(v_floor_f32, floorf(a))
/* 2^x: t_exp for every lane (emu_exp2_64 computes the same bits faster) */
int EMU_H(emu_op_v_exp_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, S0I, tA);
  emu_exp2_64(d, (const float *)A);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
VOP_F1(v_log_f32, t_log(a))             /* log2(x) */
VOP_F1(v_rcp_f32, t_rcp(a))
VOP_F1(v_rcp_iflag_f32, t_rcp(a))       /* rcp that only differs in exception flags */
VOP_F1(v_rsq_f32, t_rsq(a))
VOP_F1(v_sqrt_f32, t_sqrt(a))
VOP_F1(v_sin_f32, t_sin(a))
VOP_F1(v_cos_f32, t_cos(a))
VOP_F1(v_exp_legacy_f32, t_exp(a))
VOP_F1(v_log_legacy_f32, t_log(a))

/* int/float conversions with an integer source */
#define VOP_CVT_TO_F(name, expr)                                                                   \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES];                                                                        \
    float d[EMU_LANES];                                                                            \
    const uint32_t *A = emu_src32(w, in, S0I, t0);                                                 \
    L64 { uint32_t a = A[l]; d[l] = (expr); }                                                      \
    emu_dstf32(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
VOP_CVT_TO_F(v_cvt_f32_i32, (float)(int32_t)a)
VOP_CVT_TO_F(v_cvt_f32_u32, (float)a)
VOP_CVT_TO_F(v_cvt_f32_ubyte0, (float)(a & 0xff))
VOP_CVT_TO_F(v_cvt_f32_ubyte1, (float)((a >> 8) & 0xff))
VOP_CVT_TO_F(v_cvt_f32_ubyte2, (float)((a >> 16) & 0xff))
VOP_CVT_TO_F(v_cvt_f32_ubyte3, (float)(a >> 24))

/* f16 <-> f32 (CDNA3 ISA "V_CVT_F16_F32", "V_CVT_F32_F16") */
int EMU_H(emu_op_v_cvt_f16_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  emu_dstf16(w, in, 0, A);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_f32_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  emu_dstf32(w, in, 0, A);
  return EMU_OK;
}
/* f64 <-> f32/int (CDNA3 ISA "V_CVT_F64_F32" etc.) */
int EMU_H(emu_op_v_cvt_f64_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  double d[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  L64 d[l] = A[l];
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_f32_f64)(emu_wave *w, const emu_insn *in)
{
  double A[EMU_LANES];
  float d[EMU_LANES];
  emu_srcf64(w, in, S0I, A);
  L64 d[l] = (float)A[l];
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
#define VOP_D1U(name, expr)                                                                        \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    double A[EMU_LANES];                                                                           \
    uint32_t d[EMU_LANES];                                                                         \
    emu_srcf64(w, in, S0I, A);                                                                     \
    L64 { double a = A[l]; d[l] = (expr); }                                                        \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
VOP_D1U(v_cvt_i32_f64, cvt_i32(a))
VOP_D1U(v_cvt_u32_f64, cvt_u32(a))
VOP_D1U(v_frexp_exp_i32_f64, (isinf(a) || a != a || a == 0) ? 0 : (uint32_t)(ilogb(a) + 1))
#define VOP_CVT_TO_D(name, expr)                                                                   \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES];                                                                        \
    double d[EMU_LANES];                                                                           \
    const uint32_t *A = emu_src32(w, in, S0I, t0);                                                 \
    L64 { uint32_t a = A[l]; d[l] = (expr); }                                                      \
    emu_dstf64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
VOP_CVT_TO_D(v_cvt_f64_i32, (double)(int32_t)a)
VOP_CVT_TO_D(v_cvt_f64_u32, (double)a)
VOP_D1(v_rcp_f64, 1.0 / a)
VOP_D1(v_rsq_f64, 1.0 / sqrt(a))
VOP_D1(v_sqrt_f64, sqrt(a))
VOP_D1(v_trunc_f64, trunc(a))
VOP_D1(v_ceil_f64, ceil(a))
VOP_D1(v_floor_f64, floor(a))
VOP_D1(v_rndne_f64, nearbyint(a))
VOP_D1(v_fract_f64, fract_f64(a))
VOP_D1(v_frexp_mant_f64, (isinf(a) || a != a) ? a : frexp(a, &(int){0}))

/* 16-bit float unary ops */
VOP_H1(v_rcp_f16, t_rcp(a))
VOP_H1(v_sqrt_f16, t_sqrt(a))
VOP_H1(v_rsq_f16, t_rsq(a))
VOP_H1(v_log_f16, t_log(a))
VOP_H1(v_exp_f16, t_exp(a))
VOP_H1(v_floor_f16, floorf(a))
VOP_H1(v_ceil_f16, ceilf(a))
VOP_H1(v_trunc_f16, truncf(a))
VOP_H1(v_rndne_f16, rne_f32(a))
VOP_H1(v_fract_f16, fract_f16(a))
VOP_H1(v_sin_f16, t_sin(a))
VOP_H1(v_cos_f16, t_cos(a))
/* 16-bit int <-> f16 */
int EMU_H(emu_op_v_cvt_f16_u16)(emu_wave *w, const emu_insn *in)
{
  uint16_t A[EMU_LANES];
  float d[EMU_LANES];
  emu_src16(w, in, S0I, A);
  L64 d[l] = (float)A[l];
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_f16_i16)(emu_wave *w, const emu_insn *in)
{
  uint16_t A[EMU_LANES];
  float d[EMU_LANES];
  emu_src16(w, in, S0I, A);
  L64 d[l] = (float)(int16_t)A[l];
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_u16_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  uint16_t d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  L64 { uint32_t u = cvt_u32(A[l]); d[l] = (uint16_t)(u > 0xffff ? 0xffff : u); }
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_i16_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  uint16_t d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  L64 {
    int32_t v = (int32_t)cvt_i32(A[l]);
    d[l] = (uint16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
  }
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}
/* bf16 -> f32 (gfx950, CDNA4 ISA "V_CVT_F32_BF16") */
int EMU_H(emu_op_v_cvt_f32_bf16)(emu_wave *w, const emu_insn *in)
{
  uint16_t A[EMU_LANES];
  float d[EMU_LANES];
  emu_src16(w, in, S0I, A);
  L64 d[l] = emu_bf16_to_f32(A[l]);
  if (in->o[S0I].mods & EMU_M_ABS) L64 d[l] = fabsf(d[l]);
  if (in->o[S0I].mods & EMU_M_NEG) L64 d[l] = -d[l];
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
/* v_mov_b64 (gfx940+, CDNA3 ISA "V_MOV_B64") */
int EMU_H(emu_op_v_mov_b64)(emu_wave *w, const emu_insn *in)
{
  uint32_t *D = emu_dst64_direct(w, in, 0), tlo[EMU_LANES], thi[EMU_LANES];
  const uint32_t *alo, *ahi;
  if (D && emu_src64_pair(w, in, S0I, tlo, thi, &alo, &ahi)) {
    /* whole wave: two dword copies, the high one first when it is what the low one overwrites */
    if (D == ahi) memmove(D + EMU_LANES, ahi, sizeof thi), memmove(D, alo, sizeof tlo);
    else memmove(D, alo, sizeof tlo), memmove(D + EMU_LANES, ahi, sizeof thi);
    return EMU_OK;
  }
  uint64_t A[EMU_LANES];
  emu_src64(w, in, S0I, A);
  emu_dst64(w, in, 0, A);
  return EMU_OK;
}
/* v_swap_b32: exchange two VGPRs (CDNA3 ISA "V_SWAP_B32") */
int EMU_H(emu_op_v_swap_b32)(emu_wave *w, const emu_insn *in)
{
  uint32_t a[EMU_LANES], b[EMU_LANES];
  memcpy(a, emu_vreg(w, in, 0, 0), sizeof a);
  memcpy(b, emu_vreg(w, in, 1, 0), sizeof b);
  emu_dst32(w, in, 0, b);
  emu_dst32(w, in, 1, a);
  return EMU_OK;
}
int EMU_H(emu_op_v_nop)(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }

/* ---- VOP2 (CDNA3 ISA "VOP2 Instructions") ---------------------------------------------------*/
/* v_cndmask_b32: D = VCC[lane] ? S1 : S0 (mask is the last operand: vcc or an SGPR pair) */
/* an operand of v_cndmask_b32 without SDWA/DPP as an emu_selsrc: a VGPR/AGPR in place, an SGPR or
 * constant as its one value (read as emu_src32 reads it), abs/neg as the bit modifier */
static inline void cndmask_src(emu_wave *w, const emu_insn *in, int i, emu_selsrc *s)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) s->p = emu_vreg(w, in, i, 0), s->s = 0;
  else s->p = NULL, s->s = emu_ssrc32(w, in, i);
  s->andm = (o->mods & EMU_M_ABS) ? 0x7fffffffu : ~0u; /* as emu_srcf32 (CDNA3 ISA "VOP3A" input modifiers) */
  s->xorm = (o->mods & EMU_M_NEG) ? 0x80000000u : 0;
}

int EMU_H(emu_op_v_cndmask_b32)(emu_wave *w, const emu_insn *in)
{
  if (__builtin_expect(in->enc < EMU_ENC_SDWA, 1)) {
    /* one pass: sources read in place or as one value, modifiers applied in the select */
    emu_selsrc a, b;
    cndmask_src(w, in, S0I, &a), cndmask_src(w, in, S0I + 1, &b);
    uint64_t m = emu_srcmask(w, in, S0I + 2);
    uint32_t *dst = emu_dst32_direct(w, in, 0), d[EMU_LANES], *o = dst ? dst : d;
    /* two registers without modifiers: the plain select, which does no bit operations */
    if (a.p && b.p && (a.andm & b.andm) == ~0u && !(a.xorm | b.xorm)) emu_sel64(o, a.p, b.p, m);
    else emu_sel64x(o, &a, &b, m);
    if (__builtin_expect(dst != NULL, 1)) return EMU_OK;
    emu_dst32(w, in, 0, d);
    return EMU_OK;
  }
  uint32_t At[EMU_LANES], Bt[EMU_LANES], d[EMU_LANES]; /* tmp filled through uint32_t (exec.c) */
  /* abs/neg are bit operations here, valid for any data; plain VGPRs are read in place */
  const uint32_t *A = (const uint32_t *)(const void *)emu_srcf32p(w, in, S0I, (float *)(void *)At);
  const uint32_t *B = (const uint32_t *)(const void *)emu_srcf32p(w, in, S0I + 1, (float *)(void *)Bt);
  uint64_t m = emu_srcmask(w, in, S0I + 2);
  uint32_t *dst = emu_dst32_direct(w, in, 0);
  if (__builtin_expect(dst != NULL, 1)) {
    /* straight into the register (emu_sel64 reads each 16-lane block of A and B before it writes
     * that block of D, so D may be A or B) */
    emu_sel64(dst, A, B, m);
    return EMU_OK;
  }
  emu_sel64(d, A, B, m); /* branch-free: the mask bits are data-dependent (emu/simd.c) */
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
VOP_F2(v_add_f32, a + b)
VOP_F2(v_sub_f32, a - b)
VOP_F2(v_subrev_f32, b - a)
VOP_F2(v_mul_f32, a * b)
VOP_F2(v_mul_legacy_f32, (a == 0 || b == 0) ? 0.0f : a * b) /* 0 * anything = 0 */
VOP_F2(v_min_f32, emu_fmin_ieee(IEEE, a, b))
VOP_F2(v_max_f32, emu_fmax_ieee(IEEE, a, b))
/* CDNA3 ISA V_MUL_I32_I24 / V_MUL_U32_U24: D = S0[23:0] * S1[23:0], the low 32 bits; with clamp
 * the 48-bit product saturated (§6.5) */
VOP_X(v_mul_i32_i24, 2, true, XI24, XI24, XI24, a * b)
VOP_U2(v_mul_hi_i32_i24, (uint32_t)(((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) >> 32))
VOP_X(v_mul_u32_u24, 2, false, XU24, XU24, XU24, a * b)
VOP_U2(v_mul_hi_u32_u24, (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32))
VOP_U2(v_min_i32, (int32_t)a < (int32_t)b ? a : b)
VOP_U2(v_max_i32, (int32_t)a > (int32_t)b ? a : b)
VOP_U2(v_min_u32, a < b ? a : b)
VOP_U2(v_max_u32, a > b ? a : b)
VOP_SHIFT(v_lshrrev_b32, b >> (a & 31))
VOP_SHIFT(v_ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31)))
VOP_SHIFT(v_lshlrev_b32, b << (a & 31))
VOP_U2(v_and_b32, a & b)
VOP_U2(v_or_b32, a | b)
VOP_U2(v_xor_b32, a ^ b)
VOP_U2(v_xnor_b32, ~(a ^ b))
VOP_USAT(v_add_u32, 32, a + b)
VOP_USAT(v_sub_u32, 32, a - b)
VOP_USAT(v_subrev_u32, 32, b - a)
VOP_U2K(v_bcnt_u32_b32, emu_bcnt64(o, A, B)) /* popcount(a) + b */
VOP_U2(v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31))

/* D = S0 * S1 + D (v_mac/v_fmac: the destination is also the addend) */
int EMU_H(emu_op_v_fmac_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tB[EMU_LANES], d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, S0I, tA), *B = emu_srcf32p(w, in, S0I + 1, tB);
  const emu_f32a *C = (const emu_f32a *)(const void *)emu_vreg(w, in, 0, 0);
  fma_loop(A, B, C, d);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_mac_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  emu_srcf32(w, in, S0I + 1, B);
  const float *C = (const float *)(const void *)emu_vreg(w, in, 0, 0);
  L64 d[l] = A[l] * B[l] + C[l]; /* unfused (mad) */
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_fmac_f64)(emu_wave *w, const emu_insn *in)
{
  F64_TRY(EMU_F64_FMA, true);
  double A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf64(w, in, S0I, A);
  emu_srcf64(w, in, S0I + 1, B);
  emu_addr64((uint64_t *)(void *)C, emu_vreg(w, in, 0, 0), emu_vreg(w, in, 0, 1), 0); /* the bits, as emu_srcf64 */
  dfma_loop(A, B, C, d);
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
/* v_fmamk_f32 D = S0 * K + S1; v_fmaak_f32 D = S0 * S1 + K (operands in LLVM's order) */
int EMU_H(emu_op_v_fmamk_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tK[EMU_LANES], tB[EMU_LANES], d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, 1, tA), *K = emu_srcf32p(w, in, 2, tK), *B = emu_srcf32p(w, in, 3, tB);
  fma_loop(A, K, B, d);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_fmaak_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tB[EMU_LANES], tK[EMU_LANES], d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, 1, tA), *B = emu_srcf32p(w, in, 2, tB), *K = emu_srcf32p(w, in, 3, tK);
  fma_loop(A, B, K, d);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_madmk_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], K[EMU_LANES], B[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, 1, A);
  emu_srcf32(w, in, 2, K);
  emu_srcf32(w, in, 3, B);
  L64 d[l] = A[l] * K[l] + B[l];
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_madak_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], K[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, 1, A);
  emu_srcf32(w, in, 2, B);
  emu_srcf32(w, in, 3, K);
  L64 d[l] = A[l] * B[l] + K[l];
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}

/* carry-out ops: operand 1 is the carry/borrow mask (vcc or an SGPR pair), operand 4 the carry-in
 * (CDNA3 ISA "V_ADD_CO_U32", "V_ADDC_CO_U32", "V_SUB_CO_U32", "V_SUBB_CO_U32") */
/* With clamp, an add that carries out gives 0xffffffff and a sub that borrows gives 0 (the carry
 * or borrow is still written): the unsigned saturation above. */
#define VOP_CARRY(name, cin, expr, cout)                                                           \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];                                           \
    const uint32_t *A = emu_src32(w, in, 2, t0), *B = emu_src32(w, in, 3, t1);                     \
    uint64_t ci = (cin) ? emu_srcmask(w, in, 4) : 0, co = 0;                                       \
    bool sub = strstr(#name, "sub") != NULL;                                                       \
    L64 {                                                                                          \
      uint64_t a = A[l], b = B[l], c = ci >> l & 1;                                                \
      (void)c;                                                                                     \
      d[l] = (uint32_t)(expr);                                                                     \
      bool cy = (cout);                                                                            \
      if (in->clamp && cy) d[l] = sub ? 0u : 0xffffffffu;                                          \
      co |= (uint64_t)cy << l;                                                                     \
    }                                                                                              \
    emu_dst32(w, in, 0, d);                                                                        \
    emu_dstmask(w, in, 1, co);                                                                     \
    return EMU_OK;                                                                                 \
  }
VOP_CARRY(v_add_co_u32, 0, a + b, (a + b) >> 32)
VOP_CARRY(v_addc_co_u32, 1, a + b + c, (a + b + c) >> 32)
VOP_CARRY(v_sub_co_u32, 0, a - b, b > a)
VOP_CARRY(v_subrev_co_u32, 0, b - a, a > b)
VOP_CARRY(v_subb_co_u32, 1, a - b - c, b + c > a)
VOP_CARRY(v_subbrev_co_u32, 1, b - a - c, a + c > b)

/* 16-bit VOP2 */
VOP_H2(v_add_f16, a + b)
VOP_H2(v_sub_f16, a - b)
VOP_H2(v_subrev_f16, b - a)
VOP_H2(v_mul_f16, a * b)
VOP_H2(v_max_f16, emu_fmax_ieee(IEEE, a, b))
VOP_H2(v_min_f16, emu_fmin_ieee(IEEE, a, b))
VOP_USAT(v_add_u16, 16, a + b)
VOP_USAT(v_sub_u16, 16, a - b)
VOP_USAT(v_subrev_u16, 16, b - a)
VOP_SAT(v_add_i32, 32, true, a + b) /* VOP3 only on gfx9 */
VOP_SAT(v_sub_i32, 32, true, a - b)
VOP_SAT(v_add_i16, 16, true, a + b)
VOP_SAT(v_sub_i16, 16, true, a - b)
VOP_W2(v_mul_lo_u16, a * b)
VOP_W2(v_lshlrev_b16, b << (a & 15))
VOP_W2(v_lshrrev_b16, b >> (a & 15))
VOP_W2(v_ashrrev_i16, (int16_t)b >> (a & 15))
VOP_W2(v_max_u16, a > b ? a : b)
VOP_W2(v_min_u16, a < b ? a : b)
VOP_W2(v_max_i16, (int16_t)a > (int16_t)b ? a : b)
VOP_W2(v_min_i16, (int16_t)a < (int16_t)b ? a : b)
/* v_ldexp_f16: S0.f16 * 2^S1.i16 */
int EMU_H(emu_op_v_ldexp_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], d[EMU_LANES];
  uint16_t B[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  emu_src16(w, in, S0I + 1, B);
  L64 d[l] = ldexpf(A[l], (int16_t)B[l]);
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}

/* ---- VOP3-only (CDNA3 ISA "VOP3A/VOP3B Instructions") ---------------------------------------*/
int EMU_H(emu_op_v_fma_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tB[EMU_LANES], tC[EMU_LANES], d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, S0I, tA), *B = emu_srcf32p(w, in, S0I + 1, tB),
                 *C = emu_srcf32p(w, in, S0I + 2, tC);
  fma_loop(A, B, C, d);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_fma_f64)(emu_wave *w, const emu_insn *in)
{
  F64_TRY(EMU_F64_FMA, false);
  double A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf64(w, in, S0I, A);
  emu_srcf64(w, in, S0I + 1, B);
  emu_srcf64(w, in, S0I + 2, C);
  dfma_loop(A, B, C, d);
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
VOP_F3(v_mad_f32, a * b + c)                 /* unfused */
VOP_F3(v_mad_legacy_f32, ((a == 0 || b == 0) ? 0.0f : a * b) + c)
/* v_fma_f16: the exact a * b + c rounded once to f16 (emu_fma_ro, then emu_dstf16_d): through an
 * f32 on the way, a product that is an f16 midpoint plus an addend below half an f32 ulp of it
 * rounded to even where the exact sum does not tie (test_emu_pcode, G_F16MID) */
int EMU_H(emu_op_v_fma_f16)(emu_wave *w, const emu_insn *in)
{
  if (!in->omod) { /* the vector kernel (emu/simd.c) when every operand is finite */
    uint16_t h[3][EMU_LANES], r[EMU_LANES];
    for (int j = 0; j < 3; j++) emu_src16m(w, in, S0I + j, h[j]); /* the f16 values emu_srcf16 converts */
    if (emu_fma_f16_n(r, h[0], h[1], h[2], EMU_LANES, in->clamp)) {
      emu_dst16(w, in, 0, r);
      return EMU_OK;
    }
  }
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES];
  double d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  emu_srcf16(w, in, S0I + 1, B);
  emu_srcf16(w, in, S0I + 2, C);
  L64 d[l] = emu_fma_ro(A[l], B[l], C[l]);
  emu_dstf16_d(w, in, 0, d);
  return EMU_OK;
}
VOP_H3(v_mad_f16, a * b + c)
VOP_F3(v_min3_f32, emu_fmin_ieee(IEEE, emu_fmin_ieee(IEEE, a, b), c))
VOP_F3(v_max3_f32, emu_fmax_ieee(IEEE, emu_fmax_ieee(IEEE, a, b), c))
VOP_F3(v_med3_f32, fmed3(IEEE, a, b, c))
VOP_H3(v_min3_f16, emu_fmin_ieee(IEEE, emu_fmin_ieee(IEEE, a, b), c))
VOP_H3(v_max3_f16, emu_fmax_ieee(IEEE, emu_fmax_ieee(IEEE, a, b), c))
VOP_H3(v_med3_f16, fmed3(IEEE, a, b, c))
#define I(x) ((int32_t)(x))
VOP_U3(v_min3_i32, (uint32_t)(I(a) < I(b) ? (I(a) < I(c) ? I(a) : I(c)) : (I(b) < I(c) ? I(b) : I(c))))
VOP_U3(v_max3_i32, (uint32_t)(I(a) > I(b) ? (I(a) > I(c) ? I(a) : I(c)) : (I(b) > I(c) ? I(b) : I(c))))
VOP_U3(v_min3_u32, a < b ? (a < c ? a : c) : (b < c ? b : c))
VOP_U3(v_max3_u32, a > b ? (a > c ? a : c) : (b > c ? b : c))
VOP_U3(v_med3_i32, (uint32_t)(I(a) > I(b) ? (I(b) > I(c) ? I(b) : (I(a) > I(c) ? I(c) : I(a)))
                                          : (I(a) > I(c) ? I(a) : (I(b) > I(c) ? I(c) : I(b)))))
VOP_U3(v_med3_u32, a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b)))
#undef I
/* CDNA3 ISA V_MAD_U32_U24 / I32_I24 / U32_U16 / I32_I16: D = S0 * S1 + S2 on the 24- or 16-bit
 * fields, 32-bit result (clamp: the exact result saturated, int-clamp-exact) */
VOP_X(v_mad_u32_u24, 3, false, XU24, XU24, XU32, a * b + c)
VOP_X(v_mad_i32_i24, 3, true, XI24, XI24, XI32, a * b + c)
VOP_X(v_mad_u32_u16, 3, false, XU16, XU16, XU32, a * b + c)
VOP_X(v_mad_i32_i16, 3, true, XI16, XI16, XI32, a * b + c)
VOP_U3(v_bfe_u32, bfe_u(a, b, c))
VOP_U3(v_bfe_i32, bfe_i(a, b, c))
VOP_U3(v_bfi_b32, (a & b) | (~a & c))        /* bitfield insert */
VOP_U3(v_alignbit_b32, rotr64_32(a, b, c))   /* ({S0,S1} >> S2[4:0])[31:0] */
VOP_U3(v_alignbyte_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
VOP_U3(v_perm_b32, v_perm(a, b, c))
VOP_U3(v_xad_u32, (a ^ b) + c)
VOP_U3(v_lshl_add_u32, (a << (b & 31)) + c)
VOP_U3(v_add_lshl_u32, (a + b) << (c & 31))
VOP_U3(v_add3_u32, a + b + c)
VOP_U3(v_lshl_or_b32, (a << (b & 31)) | c)
VOP_U3(v_and_or_b32, (a & b) | c)
VOP_U3(v_or3_b32, a | b | c)
VOP_U2(v_mul_lo_u32, a * b)
VOP_U2K(v_mul_hi_u32, emu_mulhi64(o, A, B, false)) /* bits 63:32 of the 64-bit product */
VOP_U2K(v_mul_hi_i32, emu_mulhi64(o, A, B, true))
/* v_mbcnt_lo/hi: count set bits of S0 in lanes below this one (lo: lanes 0..31, hi: 32..63) */
VOP_U2(v_mbcnt_lo_u32_b32, (uint32_t)__builtin_popcount(a & (l >= 32 ? ~0u : (1u << l) - 1)) + b)
VOP_U2(v_mbcnt_hi_u32_b32, (uint32_t)__builtin_popcount(a & (l < 32 ? 0u : l == 63 ? 0x7fffffffu : (1u << (l - 32)) - 1)) + b)
/* v_bitop3_b32 / b16 (gfx950, CDNA4 ISA "V_BITOP3_B32"): D[i] = TTBL[{S0[i], S1[i], S2[i]}] */
static inline uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, uint32_t t)
{
  uint32_t r = 0;
  for (int k = 0; k < 8; k++)
    if (t >> k & 1)
      r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
  return r;
}
int EMU_H(emu_op_v_bitop3_b32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES], d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, 1, t0), *B = emu_src32(w, in, 2, t1), *C = emu_src32(w, in, 3, t2);
  L64 d[l] = bitop3(A[l], B[l], C[l], in->bitop3);
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_bitop3_b16)(emu_wave *w, const emu_insn *in)
{
  uint16_t A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_src16(w, in, 1, A);
  emu_src16(w, in, 2, B);
  emu_src16(w, in, 3, C);
  L64 d[l] = (uint16_t)bitop3(A[l], B[l], C[l], in->bitop3);
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}
/* v_ldexp_f32: S0 * 2^S1.i32, the exponent clamped to [-1000, 1000] (beyond it every result is the
 * same: ldexpf's int argument is never near its range) */
static inline int ldexp_n32(uint32_t b) { return (int32_t)b > 1000 ? 1000 : (int32_t)b < -1000 ? -1000 : (int32_t)b; }
int EMU_H(emu_op_v_ldexp_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], d[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  const uint32_t *B = emu_src32(w, in, S0I + 1, t1);
  /* A normal S0 whose exponent stays normal (biased e + n in [1, 254]) is scaled exactly by adding n
   * to its exponent field, as ldexpf does; zeros stay. One vector loop over the 64 lanes; any lane
   * else (a denormal or infinite input or result, a NaN) takes ldexpf lane by lane (issue #31,
   * fourteenth stop: clang's expf / logf sequences scale with it, libm's scalbnf was a quarter of
   * such a kernel) */
  uint32_t *du = (uint32_t *)(void *)d, slow = 0;
  L64 {
    const uint32_t u = emu_u32f(A[l]), e = u >> 23 & 0xff;
    const int32_t n = ldexp_n32(B[l]);
    const uint32_t en = (uint32_t)((int32_t)e + n), zero = (u & 0x7fffffffu) == 0;
    slow |= (zero ^ 1u) & ((e - 1u > 253u) | (en - 1u > 253u));
    du[l] = zero ? u : (u & 0x807fffffu) | (en & 0xff) << 23;
  }
  if (slow) L64 d[l] = ldexpf(A[l], ldexp_n32(B[l]));
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_ldexp_f64)(emu_wave *w, const emu_insn *in)
{
  double A[EMU_LANES], d[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_srcf64(w, in, S0I, A);
  const uint32_t *B = emu_src32(w, in, S0I + 1, t1);
  L64 d[l] = ldexp(A[l], (int32_t)B[l] > 5000 ? 5000 : (int32_t)B[l] < -5000 ? -5000 : (int32_t)B[l]);
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
VOP_D2F(v_add_f64, a + b, EMU_F64_ADD)
VOP_D2F(v_mul_f64, a * b, EMU_F64_MUL)
VOP_D2(v_min_f64, dmin_ieee(IEEE, a, b))
VOP_D2(v_max_f64, dmax_ieee(IEEE, a, b))
/* 64-bit shifts: shift count is S0 (rev forms), value S1 */
/* 64-bit shift of (hi:lo) left by a uniform count s in 0..63, as dwords (the whole-wave path of
 * v_lshlrev_b64 and v_lshl_add_u64: SGPR or constant counts, which vectorize) */
static inline void shl64_uniform(uint32_t *dlo, uint32_t *dhi, const uint32_t *lo, const uint32_t *hi, uint32_t s)
{
  if (s == 0) L64 dlo[l] = lo[l], dhi[l] = hi[l];
  else if (s < 32) L64 dlo[l] = lo[l] << s, dhi[l] = hi[l] << s | lo[l] >> (32 - s);
  else L64 dlo[l] = 0, dhi[l] = lo[l] << (s - 32);
}
#define VOP_SH64(name, expr) VOP_SH64_FN(EMU_H(emu_op_##name), expr)
#define VOP_SH64_FN(fname, expr)                                                                   \
  int fname(emu_wave *w, const emu_insn *in)                                                       \
  {                                                                                                \
    uint32_t t0[EMU_LANES];                                                                        \
    uint64_t B[EMU_LANES], d[EMU_LANES];                                                           \
    const uint32_t *A = emu_src32(w, in, 1, t0);                                                   \
    emu_src64(w, in, 2, B);                                                                        \
    L64 { uint32_t a = A[l] & 63; uint64_t b = B[l]; d[l] = (expr); }                              \
    emu_dst64(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
static VOP_SH64_FN(lshlrev_b64_slow, b << a)
/* whole wave with a uniform count: dword shifts straight into the destination pair */
int EMU_H(emu_op_v_lshlrev_b64)(emu_wave *w, const emu_insn *in)
{
  uint32_t *D = emu_dst64_direct(w, in, 0), s, tlo[EMU_LANES], thi[EMU_LANES], dlo[EMU_LANES], dhi[EMU_LANES];
  const uint32_t *lo, *hi;
  if (!D || !emu_src32_uniform(w, in, 1, &s) || !emu_src64_pair(w, in, 2, tlo, thi, &lo, &hi)) return lshlrev_b64_slow(w, in);
  shl64_uniform(dlo, dhi, lo, hi, s & 63);
  memcpy(D, dlo, sizeof dlo);
  memcpy(D + EMU_LANES, dhi, sizeof dhi);
  return EMU_OK;
}
VOP_SH64(v_lshrrev_b64, b >> a)
VOP_SH64(v_ashrrev_i64, (uint64_t)((int64_t)b >> a))
/* v_lshl_add_u64 (gfx940+): D = (S0.u64 << S1.u32[2:0]) + S2.u64 (CDNA3/CDNA4 ISA pseudocode). The
 * guides' text adds: "the shift count must be between 0 and 4, higher shift counts are
 * unsupported" and, in the Notes, "The design treats unsupported shift counts as a shift of zero":
 * so a count of 5..7 (S1[2:0]) shifts by 0, as the Notes say (the pseudocode alone would shift by
 * it; the Notes are the more specific statement of the design). Not hardware-confirmed. */
#ifdef __AVX2__
/* A 64-bit source of the AVX2 whole-wave paths: 0 with a VGPR/AGPR pair's two dword arrays, 1 with
 * a uniform value as emu_ssrc64 reads it (emu_src64_pair's cases without its 128-dword fill), -1
 * for a DPP source (emu_src64 moves its lanes) */
static inline int src64_x8(emu_wave *w, const emu_insn *in, int i, const uint32_t **lo, const uint32_t **hi, uint64_t *u)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    if (in->enc == EMU_ENC_DPP && i == in->src0i) return -1;
    *lo = emu_vreg(w, in, i, 0), *hi = emu_vreg(w, in, i, 1);
    return 0;
  }
  *u = emu_ssrc64(w, in, i);
  return 1;
}
#define LD8U(uni, p, v) ((uni) ? (v) : _mm256_loadu_si256((const __m256i *)(const void *)((p) + o)))
/* v_lshl_add_u64 with a uniform count s (0..4) in the AVX2 build, 8 lanes a block: the shifted
 * pair's dwords (the high one takes the low's top s bits; a shift by 32 gives 0, so s = 0 needs no
 * case), the low sum's carry by a sign-flipped compare added into the high dword. Each block reads
 * its lanes of both sources before writing them, so the destination may be either. */
static inline void lshl_add_u64_x8(uint32_t *D, int ua, const uint32_t *alo, const uint32_t *ahi, uint64_t av,
                                   int uc, const uint32_t *clo, const uint32_t *chi, uint64_t cv, uint32_t s)
{
  const __m128i sl = _mm_cvtsi32_si128((int)s), sr = _mm_cvtsi32_si128((int)(32 - s));
  const __m256i sgn = _mm256_set1_epi32((int)0x80000000u);
  const __m256i al = _mm256_set1_epi32((int)(uint32_t)av), ah = _mm256_set1_epi32((int)(uint32_t)(av >> 32));
  const __m256i cl = _mm256_set1_epi32((int)(uint32_t)cv), ch = _mm256_set1_epi32((int)(uint32_t)(cv >> 32));
  for (int o = 0; o < EMU_LANES; o += 8) {
    const __m256i a0 = LD8U(ua, alo, al), a1 = LD8U(ua, ahi, ah), c0 = LD8U(uc, clo, cl), c1 = LD8U(uc, chi, ch);
    const __m256i s0 = _mm256_sll_epi32(a0, sl), s1 = _mm256_or_si256(_mm256_sll_epi32(a1, sl), _mm256_srl_epi32(a0, sr));
    const __m256i x = _mm256_add_epi32(s0, c0);
    const __m256i cy = _mm256_cmpgt_epi32(_mm256_xor_si256(s0, sgn), _mm256_xor_si256(x, sgn)); /* x < s0: -1 */
    _mm256_storeu_si256((__m256i *)(void *)(D + o), x);
    _mm256_storeu_si256((__m256i *)(void *)(D + EMU_LANES + o), _mm256_sub_epi32(_mm256_add_epi32(s1, c1), cy));
  }
}
#undef LD8U
#endif
int EMU_H(emu_op_v_lshl_add_u64)(emu_wave *w, const emu_insn *in)
{
  uint32_t *D = emu_dst64_direct(w, in, 0), s;
#ifdef __AVX2__
  if (D && emu_src32_uniform(w, in, 2, &s)) {
    const uint32_t *alo = NULL, *ahi = NULL, *clo = NULL, *chi = NULL;
    uint64_t av = 0, cv = 0;
    int ka = src64_x8(w, in, 1, &alo, &ahi, &av), kc = ka < 0 ? -1 : src64_x8(w, in, 3, &clo, &chi, &cv);
    if (kc >= 0) {
      s &= 7;
      lshl_add_u64_x8(D, ka, alo, ahi, av, kc, clo, chi, cv, s > 4 ? 0 : s);
      return EMU_OK;
    }
  }
#endif
  uint32_t alo_t[EMU_LANES], ahi_t[EMU_LANES], clo_t[EMU_LANES], chi_t[EMU_LANES];
  const uint32_t *alo, *ahi, *clo, *chi;
  if (D && emu_src32_uniform(w, in, 2, &s) && emu_src64_pair(w, in, 1, alo_t, ahi_t, &alo, &ahi) &&
      emu_src64_pair(w, in, 3, clo_t, chi_t, &clo, &chi)) {
    /* whole wave, uniform count (clang's address arithmetic: an SGPR pair plus a VGPR pair, count
     * 0..4): dwords with the carry of the low half */
    uint32_t slo[EMU_LANES], shi[EMU_LANES], dlo[EMU_LANES], dhi[EMU_LANES];
    s &= 7;
    shl64_uniform(slo, shi, alo, ahi, s > 4 ? 0 : s);
    L64 {
      uint32_t x = slo[l] + clo[l];
      dlo[l] = x, dhi[l] = shi[l] + chi[l] + (x < slo[l]);
    }
    memcpy(D, dlo, sizeof dlo);
    memcpy(D + EMU_LANES, dhi, sizeof dhi);
    return EMU_OK;
  }
  uint32_t t1[EMU_LANES];
  uint64_t A[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_src64(w, in, 1, A);
  const uint32_t *B = emu_src32(w, in, 2, t1);
  emu_src64(w, in, 3, C);
  L64 { uint32_t s = B[l] & 7; d[l] = (A[l] << (s > 4 ? 0 : s)) + C[l]; }
  emu_dst64(w, in, 0, d);
  return EMU_OK;
}
/* v_mad_u64_u32 / v_mad_i64_i32: {carry, D.u64} = S0 * S1 + S2.u64 */
int EMU_H(emu_op_v_mad_u64_u32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES];
  uint64_t C[EMU_LANES], d[EMU_LANES], co = 0;
  const uint32_t *A = emu_src32(w, in, 2, t0), *B = emu_src32(w, in, 3, t1);
  /* whole wave (clang's 64-bit address arithmetic, issue #31): the destination pair written straight
   * from dword arrays when EXEC is all ones; the same sum, its carry the wrap of the 64-bit add (the
   * 32 x 32-bit product cannot overflow 64 bits) */
  uint32_t *dd = emu_dst64_direct(w, in, 0), tlo[EMU_LANES], thi[EMU_LANES];
  const uint32_t *clo, *chi;
  if (dd && emu_src64_pair(w, in, 4, tlo, thi, &clo, &chi)) {
    emu_dstmask(w, in, 1, emu_mad_u64_u32_64(dd, dd + EMU_LANES, A, B, clo, chi)); /* emu/simd.c */
    return EMU_OK;
  }
  emu_src64(w, in, 4, C);
  L64 {
    unsigned __int128 r = (unsigned __int128)((uint64_t)A[l] * B[l]) + C[l];
    d[l] = (uint64_t)r;
    co |= (uint64_t)(r >> 64 & 1) << l;
  }
  emu_dst64(w, in, 0, d);
  emu_dstmask(w, in, 1, co);
  return EMU_OK;
}
int EMU_H(emu_op_v_mad_i64_i32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES];
  uint64_t C[EMU_LANES], d[EMU_LANES], co = 0;
  const uint32_t *A = emu_src32(w, in, 2, t0), *B = emu_src32(w, in, 3, t1);
  emu_src64(w, in, 4, C);
  L64 {
    __int128 r = (__int128)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + (int64_t)C[l];
    d[l] = (uint64_t)r;
    co |= (uint64_t)((r >> 64) != 0 && (r >> 64) != -1) << l;
  }
  emu_dst64(w, in, 0, d);
  emu_dstmask(w, in, 1, co);
  return EMU_OK;
}

/* division helpers (CDNA4 ISA "V_DIV_SCALE_F32", "V_DIV_FMAS_F32", "V_DIV_FIXUP_F32"; same on
 * CDNA3). LLVM's correctly rounded division is div_scale (denominator and numerator), rcp, Newton
 * steps, div_fmas, div_fixup. We follow the manual's pseudocode with three readings where its text
 * cannot be literal (each checked end to end by tests/test_emu.c, which compares clang's whole
 * division sequence bit for bit with IEEE division over every exponent range):
 *  - "1/S1 is denormal" means below the f32 (f64: f64) normal range; computed in f64 as the manual
 *    says, that test could never hold for f32 and huge denominators would lose precision;
 *  - when both 1/S1 and S2/S1 are denormal the manual scales the denominator *up* by 2^64, which
 *    overflows it; we scale it down by 2^-64 (numerator unscaled), the scaling that keeps every
 *    Newton term normal, and post-scale by 2^-64;
 *  - div_fmas post-scales by 2^64 when the scaled quotient is large (exponent of S2 > 127) and by
 *    2^-64 otherwise (the manual prints a fixed 2^32, which cannot undo a 2^64 pre-scale);
 *  - div_fixup's UNDERFLOW result (|quotient| below half the smallest subnormal) is signed zero. */
int EMU_H(emu_op_v_div_scale_f32)(emu_wave *w, const emu_insn *in)
{
  float S0[EMU_LANES], S1[EMU_LANES], S2[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, 2, S0);
  emu_srcf32(w, in, 3, S1);
  emu_srcf32(w, in, 4, S2);
  uint64_t vcc = 0;
  /* Every lane in the common case, where none of the tests below holds (r = s0, no VCC bit):
   * s1's biased exponent e1 in [1, 252] (nonzero, not a denormal, |1 / s1| >= 2^-126: s1 < 2^126 is
   * e1 <= 252), s2's e2 in [24, 254] (nonzero, finite, e2 > 23) and e2 - e1 in [-125, 95] (below 96,
   * and |s2 / s1| >= 2^(e2 - e1 - 1) >= 2^-126, no denormal quotient). Decided from the exponents
   * alone: the tests' two divisions a lane cost some 150 ns a record (a /tmp softmax kernel, issue
   * #31 fourteenth stop). All 64 lanes tested, so that the loop is a vector one: an inactive lane
   * outside the common case only sends the record down the tests. */
  uint32_t slow = 0;
  L64 {
    const uint32_t e1 = (uint32_t)exp_f32(S1[l]), e2 = (uint32_t)exp_f32(S2[l]);
    slow |= (e1 - 1u > 251u) | (e2 - 24u > 230u) | ((uint32_t)((int)e2 - (int)e1 + 125) > 220u);
  }
  if (!slow) {
    emu_dstf32(w, in, 0, S0);
    emu_dstmask(w, in, 1, 0);
    return EMU_OK;
  }
  L64 {
    float s0 = S0[l], s1 = S1[l], s2 = S2[l], r = s0;
    bool v = false;
    if (s2 == 0 || s1 == 0) r = NAN;
    else if (exp_f32(s2) - exp_f32(s1) >= 96) { v = true; if (s0 == s1) r = ldexpf(s0, 64); }
    else if (denorm_f32(s1)) r = ldexpf(s0, 64);
    else if (fabs(1.0 / (double)s1) < 0x1p-126 && denorm_f32(s2 / s1)) { v = true; if (s0 == s1) r = ldexpf(s0, -64); }
    else if (fabs(1.0 / (double)s1) < 0x1p-126) r = ldexpf(s0, -64);
    else if (denorm_f32(s2 / s1)) { v = true; if (s0 == s2) r = ldexpf(s0, 64); }
    else if (exp_f32(s2) <= 23) r = ldexpf(s0, 64);
    d[l] = r;
    vcc |= (uint64_t)v << l;
  }
  emu_dstf32(w, in, 0, d);
  emu_dstmask(w, in, 1, vcc);
  return EMU_OK;
}
int EMU_H(emu_op_v_div_scale_f64)(emu_wave *w, const emu_insn *in)
{
  double S0[EMU_LANES], S1[EMU_LANES], S2[EMU_LANES], d[EMU_LANES];
  emu_srcf64(w, in, 2, S0);
  emu_srcf64(w, in, 3, S1);
  emu_srcf64(w, in, 4, S2);
  uint64_t vcc = 0;
  L64 {
    double s0 = S0[l], s1 = S1[l], s2 = S2[l], r = s0;
    bool v = false;
    if (s2 == 0 || s1 == 0) r = NAN;
    else if (exp_f64(s2) - exp_f64(s1) >= 768) { v = true; if (s0 == s1) r = ldexp(s0, 128); }
    else if (denorm_f64(s1)) r = ldexp(s0, 128);
    else if (denorm_f64(1.0 / s1) && denorm_f64(s2 / s1)) { v = true; if (s0 == s1) r = ldexp(s0, -128); }
    else if (denorm_f64(1.0 / s1)) r = ldexp(s0, -128);
    else if (denorm_f64(s2 / s1)) { v = true; if (s0 == s2) r = ldexp(s0, 128); }
    else if (exp_f64(s2) <= 53) r = ldexp(s0, 128);
    d[l] = r;
    vcc |= (uint64_t)v << l;
  }
  emu_dstf64(w, in, 0, d);
  emu_dstmask(w, in, 1, vcc);
  return EMU_OK;
}
/* (a * b + c) * 2^k with one rounding to f32, subnormal results included: a * b is exact in
 * double; the sum is rounded to odd at 53 bits (TwoSum gives its exact error), which makes the
 * final rounding to 24 bits correct (round-to-odd needs 53 >= 24 + 2). */
static float fma_scaled_f32(float a, float b, float c, int k)
{
  double p = (double)a * b, s = p + c;
  if (!isfinite(s)) return (float)ldexp(s, k);
  double bp = s - p, e = (p - (s - bp)) + ((double)c - bp);
  if (e != 0 && !(emu_u64f(s) & 1)) s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
  return (float)ldexp(s, k);
}
int EMU_H(emu_op_v_div_fmas_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, 1, A);
  emu_srcf32(w, in, 2, B);
  emu_srcf32(w, in, 3, C);
  uint64_t vcc = emu_vcc(w);
  /* No VCC bit (what v_div_scale_f32 leaves in its common case) and no infinite or NaN operand in any
   * lane: every lane is fmaf of finite values, which has one IEEE result and no NaN to choose a
   * payload for, so fma_loop (a vector FMA on an FMA host) gives fmaf's bits (issue #31, fourteenth
   * stop: a libm call per lane was a tenth of clang's division sequence) */
  uint32_t special = 0;
  L64 special |= ((~emu_u32f(A[l]) & 0x7f800000u) == 0) | ((~emu_u32f(B[l]) & 0x7f800000u) == 0) |
                 ((~emu_u32f(C[l]) & 0x7f800000u) == 0); /* exponent all ones: infinity or NaN */
  if (!vcc && !special) {
    fma_loop((const emu_f32a *)A, (const emu_f32a *)B, (const emu_f32a *)C, d);
  } else {
    L64 d[l] = (vcc >> l & 1) ? fma_scaled_f32(A[l], B[l], C[l], exp_f32(C[l]) > 127 ? 64 : -64)
                              : fmaf(A[l], B[l], C[l]);
  }
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_div_fmas_f64)(emu_wave *w, const emu_insn *in)
{
  double A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf64(w, in, 1, A);
  emu_srcf64(w, in, 2, B);
  emu_srcf64(w, in, 3, C);
  uint64_t vcc = emu_vcc(w);
  L64 {
    double q = fma(A[l], B[l], C[l]);
    d[l] = (vcc >> l & 1) ? ldexp(q, exp_f64(C[l]) > 1023 ? 128 : -128) : q;
  }
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
static inline float fixup_f32(float q, float den, float num)
{
  bool sign = (emu_u32f(den) ^ emu_u32f(num)) >> 31;
  if (num != num) return emu_f32(emu_u32f(num) | 0x400000);
  if (den != den) return emu_f32(emu_u32f(den) | 0x400000);
  if (den == 0 && num == 0) return emu_f32(0xffc00000);
  if (isinf(den) && isinf(num)) return emu_f32(0xffc00000);
  if (den == 0 || isinf(num)) return sign ? -INFINITY : INFINITY;
  if (isinf(den) || num == 0) return sign ? -0.0f : 0.0f;
  if (exp_f32(num) - exp_f32(den) < -150) return sign ? -0.0f : 0.0f;
  if (exp_f32(den) == 255) return sign ? -FLT_MAX : FLT_MAX;
  if (q != q) return sign ? -INFINITY : INFINITY;
  return sign ? -fabsf(q) : fabsf(q);
}
int EMU_H(emu_op_v_div_fixup_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, 1, A);
  emu_srcf32(w, in, 2, B);
  emu_srcf32(w, in, 3, C);
  /* the common case in every lane: den and num normal (biased exponents in [1, 254]: not NaN,
   * infinite, zero or denormal), exp(num) - exp(den) >= -150, q not a NaN; fixup_f32 then returns
   * |q| with the sign of den ^ num. Decided without its branches, over all 64 lanes (a vector loop;
   * an inactive lane outside the common case only sends the record down fixup_f32; issue #31,
   * fourteenth stop) */
  uint32_t slow = 0;
  L64 {
    const uint32_t q = emu_u32f(A[l]), ed = (uint32_t)exp_f32(B[l]), en = (uint32_t)exp_f32(C[l]);
    slow |= (ed - 1u > 253u) | (en - 1u > 253u) | ((int)en - (int)ed < -150) | ((q & 0x7fffffffu) > 0x7f800000u);
  }
  if (!slow) {
    L64 d[l] = emu_f32((emu_u32f(A[l]) & 0x7fffffffu) | ((emu_u32f(B[l]) ^ emu_u32f(C[l])) & 0x80000000u));
  } else {
    L64 d[l] = fixup_f32(A[l], B[l], C[l]);
  }
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
static inline double fixup_f64(double q, double den, double num)
{
  bool sign = (emu_u64f(den) ^ emu_u64f(num)) >> 63;
  if (num != num) return emu_f64(emu_u64f(num) | (1ull << 51));
  if (den != den) return emu_f64(emu_u64f(den) | (1ull << 51));
  if (den == 0 && num == 0) return emu_f64(0xfff8000000000000ull);
  if (isinf(den) && isinf(num)) return emu_f64(0xfff8000000000000ull);
  if (den == 0 || isinf(num)) return sign ? -INFINITY : INFINITY;
  if (isinf(den) || num == 0) return sign ? -0.0 : 0.0;
  if (exp_f64(num) - exp_f64(den) < -1075) return sign ? -0.0 : 0.0;
  if (q != q) return sign ? -INFINITY : INFINITY;
  return sign ? -fabs(q) : fabs(q);
}
int EMU_H(emu_op_v_div_fixup_f64)(emu_wave *w, const emu_insn *in)
{
  double A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf64(w, in, 1, A);
  emu_srcf64(w, in, 2, B);
  emu_srcf64(w, in, 3, C);
  L64 d[l] = fixup_f64(A[l], B[l], C[l]);
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_div_fixup_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];
  emu_srcf16(w, in, 1, A);
  emu_srcf16(w, in, 2, B);
  emu_srcf16(w, in, 3, C);
  L64 {
    float q = A[l], den = B[l], num = C[l];
    bool sign = (emu_u32f(den) ^ emu_u32f(num)) >> 31;
    float r;
    if (num != num) r = num;
    else if (den != den) r = den;
    else if ((den == 0 && num == 0) || (isinf(den) && isinf(num))) r = emu_f16_to_f32(0xfe00);
    else if (den == 0 || isinf(num)) r = sign ? -INFINITY : INFINITY;
    else if (isinf(den) || num == 0) r = sign ? -0.0f : 0.0f;
    else r = sign ? -fabsf(q) : fabsf(q);
    d[l] = r;
  }
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}

/* v_cvt_pkrtz_f16_f32: two f32 -> packed f16, round toward zero (CDNA3 ISA "V_CVT_PKRTZ_F16_F32") */
static inline uint16_t f32_to_f16_rtz(float f)
{
  uint16_t h = emu_f32_to_f16(f);
  float back = emu_f16_to_f32(h);
  if (f == f && !isinf(f) && fabsf(back) > fabsf(f)) h--; /* rounded away from zero: step back */
  return h;
}
int EMU_H(emu_op_v_cvt_pkrtz_f16_f32)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES];
  uint32_t d[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  emu_srcf32(w, in, S0I + 1, B);
  L64 d[l] = f32_to_f16_rtz(A[l]) | (uint32_t)f32_to_f16_rtz(B[l]) << 16;
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
/* v_cvt_pk_bf16_f32 (gfx950, CDNA4 ISA): two f32 -> packed bf16, round to nearest even (emu_f32_to_bf16,
 * inline and branch-free, so the lane loop vectorises: issue #31, FlashInfer's gfx950 prefill packs its
 * probabilities so) */
int EMU_H(emu_op_v_cvt_pk_bf16_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tB[EMU_LANES];
  uint32_t d[EMU_LANES];
  const emu_f32a *A = emu_srcf32p(w, in, S0I, tA), *B = emu_srcf32p(w, in, S0I + 1, tB);
  L64 d[l] = emu_f32_to_bf16(A[l]) | (uint32_t)emu_f32_to_bf16(B[l]) << 16;
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
/* v_cvt_pk_f16_f32 (gfx950, CDNA4 ISA): two f32 -> packed f16 {S1 high, S0 low}, round to nearest
 * even (the default rounding mode; clang emits it for two adjacent float -> _Float16 conversions).
 * The whole wave by emu/simd.c emu_f32_to_f16_64, emu_f32_to_f16's result for every input (issue
 * #31: a lane at a time through the double conversion it was a tenth of FlashInfer's gfx950 prefill) */
int EMU_H(emu_op_v_cvt_pk_f16_f32)(emu_wave *w, const emu_insn *in)
{
  float tA[EMU_LANES], tB[EMU_LANES];
  uint16_t ha[EMU_LANES], hb[EMU_LANES];
  uint32_t d[EMU_LANES];
  emu_f32_to_f16_64(ha, (const float *)emu_srcf32p(w, in, S0I, tA));
  emu_f32_to_f16_64(hb, (const float *)emu_srcf32p(w, in, S0I + 1, tB));
  L64 d[l] = ha[l] | (uint32_t)hb[l] << 16;
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
/* v_pack_b32_f16: D = {S1.f16, S0.f16} (op_sel picks halves) */
int EMU_H(emu_op_v_pack_b32_f16)(emu_wave *w, const emu_insn *in)
{
  uint16_t A[EMU_LANES], B[EMU_LANES];
  uint32_t d[EMU_LANES];
  emu_src16(w, in, S0I, A);
  emu_src16(w, in, S0I + 1, B);
  uint8_t m0 = in->o[S0I].mods, m1 = in->o[S0I + 1].mods;
  L64 {
    uint16_t a = A[l], b = B[l];
    if (m0 & EMU_M_ABS) a &= 0x7fff;
    if (m0 & EMU_M_NEG) a ^= 0x8000;
    if (m1 & EMU_M_ABS) b &= 0x7fff;
    if (m1 & EMU_M_NEG) b ^= 0x8000;
    d[l] = a | (uint32_t)b << 16;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}

/* ---- lane access (CDNA3 ISA "V_READLANE_B32", "V_WRITELANE_B32", "V_READFIRSTLANE_B32") ------*/
int EMU_H(emu_op_v_readlane_b32)(emu_wave *w, const emu_insn *in)
{
  uint32_t lane = emu_ssrc32(w, in, 2) & 63;
  emu_sdst32(w, in, 0, emu_vreg(w, in, 1, 0)[lane]);
  return EMU_OK;
}
int EMU_H(emu_op_v_readfirstlane_b32)(emu_wave *w, const emu_insn *in)
{
  uint64_t e = emu_exec(w);
  int lane = e ? __builtin_ctzll(e) : 0;
  const emu_opnd *o = &in->o[1];
  uint32_t v = (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) ? emu_vreg(w, in, 1, 0)[lane]
                                                                     : emu_ssrc32(w, in, 1);
  emu_sdst32(w, in, 0, v);
  return EMU_OK;
}
int EMU_H(emu_op_v_writelane_b32)(emu_wave *w, const emu_insn *in)
{
  /* writes one lane regardless of EXEC */
  uint32_t lane = emu_ssrc32(w, in, 2) & 63;
  emu_vreg(w, in, 0, 0)[lane] = emu_ssrc32(w, in, 1);
  return EMU_OK;
}

/* ---- VOPC (CDNA3 ISA "VOPC Instructions") -----------------------------------------------------
 * Operand 0 is the mask destination (vcc or an SGPR pair); the v_cmpx forms also write EXEC.
 * Float compares: the "n" forms are true for unordered operands. */
#define F_F(a, b) 0
#define F_LT(a, b) ((a) < (b))
#define F_EQ(a, b) ((a) == (b))
#define F_LE(a, b) ((a) <= (b))
#define F_GT(a, b) ((a) > (b))
#define F_LG(a, b) ((a) < (b) || (a) > (b))
#define F_GE(a, b) ((a) >= (b))
#define F_O(a, b) ((a) == (a) && (b) == (b))
#define F_U(a, b) ((a) != (a) || (b) != (b))
#define F_NGE(a, b) (!((a) >= (b)))
#define F_NLG(a, b) (!((a) < (b) || (a) > (b)))
#define F_NGT(a, b) (!((a) > (b)))
#define F_NLE(a, b) (!((a) <= (b)))
#define F_NEQ(a, b) (!((a) == (b)))
#define F_NLT(a, b) (!((a) < (b)))
#define F_TRU(a, b) 1
#define F_NE(a, b) ((a) != (b))
#define F_T(a, b) 1
/* the same predicates for the whole-wave compares (emu/simd.c; NONE: no fast path) */
#define P_F_F EMU_CMP_NONE
#define P_F_LT EMU_CMP_LT
#define P_F_EQ EMU_CMP_EQ
#define P_F_LE EMU_CMP_LE
#define P_F_GT EMU_CMP_GT
#define P_F_LG EMU_CMP_LG
#define P_F_GE EMU_CMP_GE
#define P_F_O EMU_CMP_O
#define P_F_U EMU_CMP_U
#define P_F_NGE EMU_CMP_NGE
#define P_F_NLG EMU_CMP_NLG
#define P_F_NGT EMU_CMP_NGT
#define P_F_NLE EMU_CMP_NLE
#define P_F_NEQ EMU_CMP_NEQ
#define P_F_NLT EMU_CMP_NLT
#define P_F_TRU EMU_CMP_NONE
#define P_F_NE EMU_CMP_NE
#define P_F_T EMU_CMP_NONE

static inline int cmp_done(emu_wave *w, const emu_insn *in, uint64_t bits, bool x)
{
  bits &= emu_exec(w);
  emu_sdst64(w, in, 0, bits);
  if (x) emu_wr64s(w, EMU_S_EXEC, bits);
  return EMU_OK;
}
#define CMP_F32(name, x, op)                                                                       \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES], B[EMU_LANES];                                                              \
    uint64_t r = 0;                                                                                \
    emu_srcf32(w, in, 1, A);                                                                       \
    emu_srcf32(w, in, 2, B);                                                                       \
    (void)A, (void)B;                                                                              \
    if (!emu_cmpf32_64(A, B, P_##op, &r)) L64 r |= (uint64_t)(op(A[l], B[l]) ? 1 : 0) << l;        \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMP_F64(name, x, op)                                                                       \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    double A[EMU_LANES], B[EMU_LANES];                                                             \
    uint64_t r = 0;                                                                                \
    emu_srcf64(w, in, 1, A);                                                                       \
    emu_srcf64(w, in, 2, B);                                                                       \
    (void)A, (void)B;                                                                              \
    L64 r |= (uint64_t)(op(A[l], B[l]) ? 1 : 0) << l;                                              \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMP_F16(name, x, op)                                                                       \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    float A[EMU_LANES], B[EMU_LANES];                                                              \
    uint64_t r = 0;                                                                                \
    emu_srcf16(w, in, 1, A);                                                                       \
    emu_srcf16(w, in, 2, B);                                                                       \
    (void)A, (void)B;                                                                              \
    L64 r |= (uint64_t)(op(A[l], B[l]) ? 1 : 0) << l;                                              \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMP_I32(name, x, T, op)                                                                    \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES];                                                         \
    uint64_t r = 0;                                                                                \
    const uint32_t *A = emu_src32(w, in, 1, t0), *B = emu_src32(w, in, 2, t1);                     \
    (void)A, (void)B;                                                                              \
    if (!emu_cmpi32_64(A, B, P_##op, (T)-1 < (T)1, &r))                                            \
      L64 r |= (uint64_t)(op((T)A[l], (T)B[l]) ? 1 : 0) << l;                                      \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMP_I16(name, x, T, op)                                                                    \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t A[EMU_LANES], B[EMU_LANES];                                                           \
    uint64_t r = 0;                                                                                \
    emu_src16(w, in, 1, A);                                                                        \
    emu_src16(w, in, 2, B);                                                                        \
    (void)A, (void)B;                                                                              \
    L64 r |= (uint64_t)(op((T)A[l], (T)B[l]) ? 1 : 0) << l;                                        \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMP_I64(name, x, T, op)                                                                    \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint64_t A[EMU_LANES], B[EMU_LANES], r = 0;                                                    \
    emu_src64(w, in, 1, A);                                                                        \
    emu_src64(w, in, 2, B);                                                                        \
    (void)A, (void)B;                                                                              \
    L64 r |= (uint64_t)(op((T)A[l], (T)B[l]) ? 1 : 0) << l;                                        \
    return cmp_done(w, in, r, x);                                                                  \
  }
#define CMPS_F(T, M)                                                                               \
  M(v_cmp_f_##T, 0, F_F) M(v_cmp_lt_##T, 0, F_LT) M(v_cmp_eq_##T, 0, F_EQ)                         \
  M(v_cmp_le_##T, 0, F_LE) M(v_cmp_gt_##T, 0, F_GT) M(v_cmp_lg_##T, 0, F_LG)                       \
  M(v_cmp_ge_##T, 0, F_GE) M(v_cmp_o_##T, 0, F_O) M(v_cmp_u_##T, 0, F_U)                           \
  M(v_cmp_nge_##T, 0, F_NGE) M(v_cmp_nlg_##T, 0, F_NLG) M(v_cmp_ngt_##T, 0, F_NGT)                 \
  M(v_cmp_nle_##T, 0, F_NLE) M(v_cmp_neq_##T, 0, F_NEQ) M(v_cmp_nlt_##T, 0, F_NLT)                 \
  M(v_cmp_tru_##T, 0, F_TRU)                                                                       \
  M(v_cmpx_f_##T, 1, F_F) M(v_cmpx_lt_##T, 1, F_LT) M(v_cmpx_eq_##T, 1, F_EQ)                      \
  M(v_cmpx_le_##T, 1, F_LE) M(v_cmpx_gt_##T, 1, F_GT) M(v_cmpx_lg_##T, 1, F_LG)                    \
  M(v_cmpx_ge_##T, 1, F_GE) M(v_cmpx_o_##T, 1, F_O) M(v_cmpx_u_##T, 1, F_U)                        \
  M(v_cmpx_nge_##T, 1, F_NGE) M(v_cmpx_nlg_##T, 1, F_NLG) M(v_cmpx_ngt_##T, 1, F_NGT)              \
  M(v_cmpx_nle_##T, 1, F_NLE) M(v_cmpx_neq_##T, 1, F_NEQ) M(v_cmpx_nlt_##T, 1, F_NLT)              \
  M(v_cmpx_tru_##T, 1, F_TRU)
CMPS_F(f32, CMP_F32)
CMPS_F(f64, CMP_F64)
CMPS_F(f16, CMP_F16)
#define CMPS_I(T, TY, M)                                                                           \
  M(v_cmp_f_##T, 0, TY, F_F) M(v_cmp_lt_##T, 0, TY, F_LT) M(v_cmp_eq_##T, 0, TY, F_EQ)             \
  M(v_cmp_le_##T, 0, TY, F_LE) M(v_cmp_gt_##T, 0, TY, F_GT) M(v_cmp_ne_##T, 0, TY, F_NE)           \
  M(v_cmp_ge_##T, 0, TY, F_GE) M(v_cmp_t_##T, 0, TY, F_T)                                          \
  M(v_cmpx_f_##T, 1, TY, F_F) M(v_cmpx_lt_##T, 1, TY, F_LT) M(v_cmpx_eq_##T, 1, TY, F_EQ)          \
  M(v_cmpx_le_##T, 1, TY, F_LE) M(v_cmpx_gt_##T, 1, TY, F_GT) M(v_cmpx_ne_##T, 1, TY, F_NE)        \
  M(v_cmpx_ge_##T, 1, TY, F_GE) M(v_cmpx_t_##T, 1, TY, F_T)
CMPS_I(i32, int32_t, CMP_I32)
CMPS_I(u32, uint32_t, CMP_I32)
CMPS_I(i16, int16_t, CMP_I16)
CMPS_I(u16, uint16_t, CMP_I16)
CMPS_I(i64, int64_t, CMP_I64)
CMPS_I(u64, uint64_t, CMP_I64)

/* v_cmp_class: S1 is a mask of classes (bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0,
 * 6 +0, 7 +denorm, 8 +normal, 9 +inf; CDNA3 ISA "V_CMP_CLASS_F32") */
static inline int fclass(double x, bool denorm, bool snan)
{
  if (x != x) return snan ? 0 : 1;
  bool neg = signbit(x);
  if (isinf(x)) return neg ? 2 : 9;
  if (x == 0) return neg ? 5 : 6;
  if (denorm) return neg ? 4 : 7;
  return neg ? 3 : 8;
}
#define CMP_CLASS(name, x, SRC, T, DEN, SNAN)                                                      \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    T A[EMU_LANES];                                                                                \
    uint32_t t1[EMU_LANES];                                                                        \
    uint64_t r = 0;                                                                                \
    SRC(w, in, 1, A);                                                                              \
    const uint32_t *B = emu_src32(w, in, 2, t1);                                                   \
    L64 { T a = A[l]; r |= (uint64_t)(B[l] >> fclass(a, DEN, SNAN) & 1) << l; }                    \
    return cmp_done(w, in, r, x);                                                                  \
  }
/* the f32 forms: fclass on the bits, no branches (GCC makes the lane loop a vector one). Clang's
 * library sequences (sqrtf, rsqrtf, logf, expf) test their operands' classes: the per-lane branches
 * of the double-based fclass on mixed values cost most of a normalization kernel's v_cmp_class_f32
 * (a /tmp RMS-norm kernel, issue #31 fourteenth stop). The same index as fclass: 0 sNaN, 1 qNaN,
 * 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. */
static inline uint32_t fclass32(uint32_t u)
{
  /* selections as masks (m ? a : b is b ^ ((a ^ b) & m)), in increasing precedence */
  const uint32_t mag = u & 0x7fffffffu, neg = u >> 31;
  const uint32_t zero = -(uint32_t)(mag == 0), den = -(uint32_t)(mag < 0x00800000u) & ~zero;
  const uint32_t inf = -(uint32_t)(mag == 0x7f800000u), nan = -(uint32_t)(mag > 0x7f800000u);
  uint32_t c = 8 - 5 * neg;                /* normal: 8, 3 */
  c ^= ((7 - 3 * neg) ^ c) & den;          /* denormal: 7, 4 */
  c ^= ((6 - neg) ^ c) & zero;             /* zero: 6, 5 */
  c ^= ((9 - 7 * neg) ^ c) & inf;          /* infinity: 9, 2 */
  c ^= ((u >> 22 & 1) ^ c) & nan;          /* sNaN 0, qNaN 1 */
  return c;
}
#define CMP_CLASS32(name, x)                                                                       \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                        \
  {                                                                                                \
    uint32_t tA[EMU_LANES], t1[EMU_LANES];                                                         \
    emu_srcf32(w, in, 1, (float *)(void *)tA);                                                     \
    const uint32_t *B = emu_src32(w, in, 2, t1);                                                   \
    uint32_t bit[EMU_LANES];                                                                       \
    L64 bit[l] = B[l] >> fclass32(tA[l]) & 1; /* a vector loop; the packing below a scalar one */  \
    uint64_t r = 0;                                                                                \
    L64 r |= (uint64_t)bit[l] << l;                                                                \
    return cmp_done(w, in, r, x);                                                                  \
  }
CMP_CLASS32(v_cmp_class_f32, 0)
CMP_CLASS32(v_cmpx_class_f32, 1)
CMP_CLASS(v_cmp_class_f64, 0, emu_srcf64, double, denorm_f64(a), !(emu_u64f(a) & (1ull << 51)))
CMP_CLASS(v_cmpx_class_f64, 1, emu_srcf64, double, denorm_f64(a), !(emu_u64f(a) & (1ull << 51)))
/* f16 class: classify the f16 value itself (denormal in f16 terms) */
static inline bool denorm_h(float a) { return a != 0 && fabsf(a) < 0x1p-14f; }
CMP_CLASS(v_cmp_class_f16, 0, emu_srcf16, float, denorm_h(a), !(emu_u32f(a) & 0x400000))
CMP_CLASS(v_cmpx_class_f16, 1, emu_srcf16, float, denorm_h(a), !(emu_u32f(a) & 0x400000))

/* ---- ops from the CDNA3/CDNA4 ISA pseudocode (issue 28) ------------------------------------------
 * Each handler follows the instruction's pseudocode in AMD's "AMD Instinct MI300 (CDNA3)" and
 * "AMD Instinct CDNA4" ISA reference guides (identical for these ops); where the pseudocode calls a
 * function the guides do not define, the reading is a stated choice (docs/emulator-choices.md) and
 * the op row names it (ops.def). */

/* 16-bit integer VOP3 ops: sources are the halves op_sel picks; the exact result (int64) is
 * wrapped to 16 bits, or with clamp saturated to the type (§6.5; for a multiply-add this is the
 * int-clamp-exact choice, EMU_F_ICLAMP). The half written: op_sel[3] picks the high half; the
 * other half is preserved (V_MAD_U16/I16 notes) or, for the legacy forms, zeroed (V_MAD_LEGACY_*
 * notes: "hi 16 bits are written as 0"), which their rows' EMU_F_D16Z flag asks emu_dst16 for. */
#define VOP_W3(name, sgn, expr)                                                                    \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint16_t A[EMU_LANES], B[EMU_LANES], C[EMU_LANES], d[EMU_LANES];                               \
    emu_src16(w, in, S0I, A);                                                                      \
    emu_src16(w, in, S0I + 1, B);                                                                  \
    emu_src16(w, in, S0I + 2, C);                                                                  \
    L64 {                                                                                          \
      int64_t a = sgn ? (int64_t)(int16_t)A[l] : (int64_t)A[l], b = sgn ? (int64_t)(int16_t)B[l] : (int64_t)B[l]; \
      int64_t c = sgn ? (int64_t)(int16_t)C[l] : (int64_t)C[l];                                   \
      int64_t r = (expr);                                                                          \
      d[l] = (uint16_t)(in->clamp ? isat(r, 16, sgn) : (uint32_t)r);                              \
    }                                                                                              \
    emu_dst16(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
VOP_W3(v_mad_u16, false, a * b + c)           /* D0.u16 = S0.u16 * S1.u16 + S2.u16 */
VOP_W3(v_mad_i16, true, a * b + c)            /* D0.i16 = S0.i16 * S1.i16 + S2.i16 */
/* V_MIN3/MAX3/MED3_I16/U16: v_min/max of the three (med3: the pseudocode's max3 comparison chain) */
static inline int64_t med3_i(int64_t a, int64_t b, int64_t c)
{
  int64_t mx = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if (mx == a) return b > c ? b : c;
  if (mx == b) return a > c ? a : c;
  return a > b ? a : b;
}
VOP_W3(v_min3_i16, true, a < b ? (a < c ? a : c) : (b < c ? b : c))
VOP_W3(v_max3_i16, true, a > b ? (a > c ? a : c) : (b > c ? b : c))
VOP_W3(v_med3_i16, true, med3_i(a, b, c))
VOP_W3(v_min3_u16, false, a < b ? (a < c ? a : c) : (b < c ? b : c))
VOP_W3(v_max3_u16, false, a > b ? (a > c ? a : c) : (b > c ? b : c))
VOP_W3(v_med3_u16, false, med3_i(a, b, c))

/* V_MAC_F16: tmp = S0 * S1 + D0.f16; D0 = {16'0, tmp} (OPSEL[3] = 0): the addend is the low half
 * of the destination, the high half is zeroed (EMU_F_D16Z; the CDNA3/CDNA4 pseudocode, where
 * LLVM's zeroesHigh16BitsOfDest says gfx9 preserves it: AMD's document wins). Arithmetic as
 * v_mad_f16 (mad-f16-precision). */
int EMU_H(emu_op_v_mac_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  emu_srcf16(w, in, S0I + 1, B);
  const uint32_t *D = emu_vreg(w, in, 0, 0);
  L64 d[l] = A[l] * B[l] + emu_f16_to_f32((uint16_t)D[l]);
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}
/* V_MADAK_F16: S0 * S1 + K; V_MADMK_F16: S0 * K + S1 (K the literal's low 16 bits as f16);
 * D0 = {16'0, tmp} */
static int madk_f16(emu_wave *w, const emu_insn *in, bool ak)
{
  float A[EMU_LANES], B[EMU_LANES], d[EMU_LANES];
  int ki = ak ? S0I + 2 : S0I + 1, bi = ak ? S0I + 1 : S0I + 2;
  const emu_opnd *k = &in->o[ki];
  if (k->kind != EMU_OPK_LIT)
    return emu_raise(w, in, "unimplemented", -1, 0, "%s constant operand that is not a literal", in->mnem);
  float K = emu_f16_to_f32((uint16_t)k->ival);
  emu_srcf16(w, in, S0I, A);
  emu_srcf16(w, in, bi, B);
  L64 d[l] = ak ? A[l] * B[l] + K : A[l] * K + B[l];
  emu_dstf16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_madak_f16)(emu_wave *w, const emu_insn *in) { return madk_f16(w, in, true); }
int EMU_H(emu_op_v_madmk_f16)(emu_wave *w, const emu_insn *in) { return madk_f16(w, in, false); }

/* V_FREXP_MANT_F16 / V_FREXP_EXP_I16_F16: inf and NaN give S0 / 0; otherwise C's frexp() (the
 * guides cite it; "S0.f16 = significand * 2 ** exponent", significand in [0.5, 1)). The f16 value
 * is exact in float, and so is its significand in f16. */
int EMU_H(emu_op_v_frexp_mant_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES], d[EMU_LANES];
  uint16_t H[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  emu_src16(w, in, S0I, H);
  bool raw = !in->clamp && !in->omod;
  uint16_t r[EMU_LANES];
  L64 {
    int e;
    d[l] = isinf(A[l]) || A[l] != A[l] ? A[l] : frexpf(A[l], &e);
    /* inf/NaN: D0.f16 = S0.f16, the (modified) bits themselves, an sNaN not quieted */
    uint16_t h = (uint16_t)((H[l] & ((in->o[S0I].mods & EMU_M_ABS) ? 0x7fff : 0xffff)) ^
                            ((in->o[S0I].mods & EMU_M_NEG) ? 0x8000 : 0));
    r[l] = (h & 0x7c00) == 0x7c00 ? h : emu_f32_to_f16(d[l]);
  }
  if (raw) emu_dst16(w, in, 0, r);
  else emu_dstf16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_frexp_exp_i16_f16)(emu_wave *w, const emu_insn *in)
{
  float A[EMU_LANES];
  uint16_t d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  L64 {
    int e = 0;
    if (!isinf(A[l]) && A[l] == A[l] && A[l] != 0) frexpf(A[l], &e);
    d[l] = (uint16_t)(int16_t)e;
  }
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}

/* V_LERP_U8: per byte i, (S0.b[i] + S1.b[i] + S2[8i]) >> 1 (the rounding bit is bit 8i of S2) */
static inline uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t c)
{
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) r |= (((a >> 8 * i & 0xff) + (b >> 8 * i & 0xff) + (c >> 8 * i & 1)) >> 1) << 8 * i;
  return r;
}
VOP_U3(v_lerp_u8, lerp_u8(a, b, c))

/* V_CUBEID/SC/TC/MA_F32: the face-selection pseudocode, literally (comparisons of |x|, |y|, |z|;
 * a NaN compares false, which picks the last branch, as the pseudocode's comparisons do) */
static inline float cube(int which, float x, float y, float z)
{
  bool zmaj = fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y), ymaj = !zmaj && fabsf(y) >= fabsf(x);
  switch (which) {
  case 0: return zmaj ? (z < 0 ? 5.0f : 4.0f) : ymaj ? (y < 0 ? 3.0f : 2.0f) : (x < 0 ? 1.0f : 0.0f);
  case 1: return zmaj ? (z < 0 ? -x : x) : ymaj ? x : (x < 0 ? z : -z);
  case 2: return zmaj ? -y : ymaj ? (y < 0 ? -z : z) : -y;
  default: return zmaj ? z * 2.0f : ymaj ? y * 2.0f : x * 2.0f;
  }
}
VOP_F3(v_cubeid_f32, cube(0, a, b, c))
VOP_F3(v_cubesc_f32, cube(1, a, b, c))
VOP_F3(v_cubetc_f32, cube(2, a, b, c))
VOP_F3(v_cubema_f32, cube(3, a, b, c))

/* V_MAXIMUM3_F32 / V_MINIMUM3_F32 (gfx950): IEEE 754-2019 maximum()/minimum() applied twice: a NaN
 * operand gives a quiet NaN (the first NaN in S0, S1, S2 order, quieted: IEEE leaves the payload
 * open), -0 < +0; the IEEE mode bit is ignored (the guide's note). */
static inline float fmaximum(float a, float b, bool mx)
{
  if (a != a) return emu_quiet32(a);
  if (b != b) return emu_quiet32(b);
  if (a == b) return (emu_u32f(a) >> 31) == (unsigned)mx ? b : a; /* +-0: max prefers +0, min -0 */
  return (a > b) == mx ? a : b;
}
VOP_F3(v_maximum3_f32, fmaximum(fmaximum(a, b, true), c, true))
VOP_F3(v_minimum3_f32, fmaximum(fmaximum(a, b, false), c, false))

/* V_ASHR_PK_I8_I32 / V_ASHR_PK_U8_I32 (gfx950): D[15:0] = {SAT8(S1 >> S2[4:0]), SAT8(S0 >> S2[4:0])},
 * arithmetic shifts, SAT8 to [-128, 127] / [0, 255]. D[31:16] is not written by the pseudocode;
 * lanelab zeroes it (EMU_F_D16Z, the d16-high-half choice). */
static int ashr_pk(emu_wave *w, const emu_insn *in, bool sgn)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES];
  uint16_t d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1), *C = emu_src32(w, in, S0I + 2, t2);
  L64 {
    int32_t x = (int32_t)A[l] >> (C[l] & 31), y = (int32_t)B[l] >> (C[l] & 31);
    int32_t lo = sgn ? -128 : 0, hi = sgn ? 127 : 255;
    x = x < lo ? lo : x > hi ? hi : x;
    y = y < lo ? lo : y > hi ? hi : y;
    d[l] = (uint16_t)((uint32_t)(x & 0xff) | (uint32_t)(y & 0xff) << 8);
  }
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_ashr_pk_i8_i32)(emu_wave *w, const emu_insn *in) { return ashr_pk(w, in, true); }
int EMU_H(emu_op_v_ashr_pk_u8_i32)(emu_wave *w, const emu_insn *in) { return ashr_pk(w, in, false); }

/* V_SAT_PK_U8_I16: D.b16 = {SAT8(S0[31:16].i16), SAT8(S0[15:0].i16)}, SAT8 to [0, 255] (a VOP1
 * 16-bit result: the high half zeroed, EMU_F_D16Z) */
int EMU_H(emu_op_v_sat_pk_u8_i16)(emu_wave *w, const emu_insn *in)
{
  uint32_t t[EMU_LANES];
  uint16_t d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t);
  L64 {
    int32_t x = (int16_t)A[l], y = (int16_t)(A[l] >> 16);
    x = x < 0 ? 0 : x > 255 ? 255 : x;
    y = y < 0 ? 0 : y > 255 ? 255 : y;
    d[l] = (uint16_t)(x | y << 8);
  }
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}

/* V_TRIG_PREOP_F64: a 53-bit segment of 2/pi for argument reduction:
 *   shift = S1[4:0] * 53 (+ exponent(S0) - 1077 when exponent(S0) > 1077; exponent() the biased
 *   field), result = the 53 bits of 2/pi at fraction positions shift+1 .. shift+53 (the
 *   pseudocode's "whole part after the left shift"), D = result * 2^(-53 - shift) (+128 to the
 *   exponent when exponent(S0) >= 1968), rounded toward zero (the guide's text; only a subnormal
 *   result rounds, and its first dropped bit is 2/pi's fraction bit 1075, a 0, so to nearest would
 *   agree).
 * two_over_pi: floor(2/pi * 2^1201) as 19 little-endian 64-bit words (b_1200 .. b_0 of the
 * guide), computed with exact integer arithmetic (Machin's formula); it equals the constant
 * tinygrad's CDNA emulator uses (an independent source). */
static const uint64_t two_over_pi[19] = {
    0xba10ac06608df8f6ull, 0x25d4d7f6bf623f1aull, 0xe2f67a0e73ef14a5ull, 0xd45aea4f758fd7cbull,
    0x136e9e8c7ecd3cbfull, 0xda3eda6cfd9e4f96ull, 0x301fde5e2316b414ull, 0x50763ff12fffbc0bull,
    0x73e93908bf177bf2ull, 0xfc827323ac7306a6ull, 0x8909d338e04d68beull, 0x4e7dd1046bea5d76ull,
    0x2439fc3bd6396253ull, 0xa5c00c925dd413a3ull, 0x8ac36e48dc74849bull, 0x2083fca2c757bd77ull,
    0xbb81b6c52b327887ull, 0x2a53f84eafa3ea69ull, 0x000145f306dc9c88ull};
static inline uint64_t tpi_bits(int lo) /* bits lo .. lo+52 of the 1201-bit integer (0 outside) */
{
  uint64_t r = 0;
  for (int k = 0; k < 53; k++) {
    int b = lo + k;
    if (b >= 0 && b < 1201 && (two_over_pi[b >> 6] >> (b & 63) & 1)) r |= 1ull << k;
  }
  return r;
}
/* m * 2^e, m < 2^53, rounded toward zero (exact unless the result is subnormal) */
static inline double ldexp_rtz(uint64_t m, int e)
{
  if (!m) return 0.0;
  int top = 63 - __builtin_clzll(m); /* value in [2^(top+e), 2^(top+e+1)) */
  if (top + e >= -1022) return ldexp((double)m, e);
  int drop = -1074 - e;              /* subnormal: multiples of 2^-1074 */
  if (drop >= 64) return 0.0;
  return ldexp((double)(m >> drop), -1074);
}
int EMU_H(emu_op_v_trig_preop_f64)(emu_wave *w, const emu_insn *in)
{
  double A[EMU_LANES], d[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_srcf64(w, in, S0I, A);
  const uint32_t *B = emu_src32(w, in, S0I + 1, t1);
  L64 {
    int ex = (int)(emu_u64f(A[l]) >> 52 & 0x7ff);
    int shift = (int)(B[l] & 31) * 53 + (ex > 1077 ? ex - 1077 : 0);
    uint64_t r = tpi_bits(1148 - shift);
    d[l] = ldexp_rtz(r, -53 - shift + (ex >= 1968 ? 128 : 0));
  }
  emu_dstf64(w, in, 0, d);
  return EMU_OK;
}
