/* emu/op_mfma — matrix instructions (v_mfma_*) and the AGPR moves (v_accvgpr_*).
 *
 * Layouts (CDNA3 ISA §7.1 "Matrix Fused Multiply Add", CDNA4 ISA §7.1.4; docs/isa.md):
 * an M x N x K instruction with B blocks holds K_L = K*M*B/64 consecutive k values per lane:
 *   A[b][i][k] = item k%K_L of lane i + M*(b + B*(k/K_L))        (B[b][k][j]: same with i -> j, M -> N)
 * items packed little-endian into the operand registers (item t of s bits at bits [s*t, s*t+s)).
 * C/D with H rows per lane group (H = 4, H = 1 for f64), B_I = ceil(64 / (M*N/H)), M_I = 64/B_I/N,
 * G = M/(H*M_I):
 *   D[b][i][j] = register i%H + H*(i/(H*M_I) + G*(b/B_I)) of lane j + N*((i/H)%M_I + M_I*(b%B_I)).
 * This is the general rule the ISA's layout tables follow (16x16: lane j+16*(i/4), VGPR i%4; 32x32:
 * lane j+32*((i/4)%2), VGPR 4*(i/8)+i%4; f64 16x16: lane j+16*(i%4), pair i/4).
 * Exception: the gfx950 f8f6f4 instructions with an fp8/bf8 operand hold that operand's 32 bytes
 * per lane as two 16-byte halves, half h covering k = h*K/2 + 16*(lane/M) + 0..15 (AMD's CDNA4
 * matrix-core article, Salykova et al. 2025, 32x32x64 fp8 example; docs/isa.md notes the fp8 layout
 * differs from the general rule). The 16x16x128 form is taken to follow the same split by
 * analogy — UNCONFIRMED on hardware. fp6/bf6/fp4 operands follow the general rule.
 *
 * Arithmetic (what this emulator does; the hardware's internal order is not documented, so compare
 * MFMA results with a tolerance): MFMA ignores EXEC and writes all 64 lanes. For each output
 * element, acc = C, then k = 0..K-1 ascending: acc = acc + a*b rounded to f32 (round to nearest
 * even, denormals kept). Products of f16/fp8/bf8/fp6/bf6/fp4 values are exact in f32 (bf16 ones too
 * unless they leave f32's exponent range), so this is a sequential f32 sum of exact products; four
 * output rows are computed side by side, each in that order; f32 inputs use a fused multiply-add per step
 * (fmaf); f64 uses fma in double; i8 accumulates exactly in int32 (wrapping). Blocks are
 * independent. NaN/Inf inputs propagate through IEEE arithmetic.
 *
 * Element formats: fp8/bf8 on gfx942 are the FNUZ encodings (E4M3 bias 8, E5M2 bias 16, 0x80 = NaN,
 * no infinities, no -0); on gfx950 the OCP encodings (E4M3FN bias 7: S.1111.111 = NaN, no inf;
 * E5M2 bias 15 with inf/NaN) (CDNA3 ISA §7.1 / CDNA4 ISA "FP8 formats"; LLVM's AMDGPU fp8 notes).
 * fp6 = E2M3 (bias 1), bf6 = E3M2 (bias 3), fp4 = E2M1 (bias 1), none with inf/NaN (OCP MX spec).
 * f8f6f4: cbsz selects A's format, blgp B's: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4 (CDNA4 ISA §7.x,
 * LLVM's mai-gfx950 syntax).
 *
 * cbsz/abid (A-block broadcast) and blgp (B lane-group pattern) on the other instructions move the
 * lanes A and B are read from (broadcast below); the f64 forms take BLGP as negation (neg:[a,b,c]);
 * combinations the ISA leaves undefined (and reserved f8f6f4 format codes) fault EMU_FAULT_UNDEFINED
 * naming them: a finding about the kernel, not a gap in lanelab. The block-scaled (v_mfma_scale_*) and
 * sparse (v_smfmac_*) forms reuse this machinery (apply_scale, sparse_expand below); the xf32 forms
 * have no row here, so they fault "unimplemented" if executed. */
#include <stdatomic.h>
#include <stdio.h>

#include "emu/internal.h"

/* ---- element decoding tables ---------------------------------------------------------------*/
enum { T_F32, T_F16, T_BF16, T_I8, T_F64, T_FP8, T_BF8, T_FP6, T_BF6, T_FP4, T_F8F6F4 };
static const uint8_t type_bits[] = {32, 16, 16, 8, 64, 8, 8, 6, 6, 4, 0};
static const char *const f8f6f4_names[] = {"fp8", "bf8", "fp6", "bf6", "fp4"};

static float tab_fp8[2][256], tab_bf8[2][256]; /* [0] gfx942 FNUZ, [1] gfx950 OCP */
static float tab_fp6[64], tab_bf6[64], tab_fp4[16];
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;
/* set (release) once build_tables has run: a handler tests it with one plain load (acquire) and
 * calls pthread_once only before that; pthread_once on every MFMA was a call through the PLT
 * (issue #31: 0.3% of the seed run's samples) */
static _Atomic bool tab_ready;
static void build_tables(void);
static inline void tables(void)
{
  if (__builtin_expect(!atomic_load_explicit(&tab_ready, memory_order_acquire), 0)) pthread_once(&tab_once, build_tables);
}
static bool fast_cpu; /* the fast path's instructions exist on this CPU (fast_probe) */
static void fast_probe(void);

/* value of a sign/exponent/mantissa code with the given widths and bias; subnormals when e == 0 */
static float minifloat(uint32_t code, int ebits, int mbits, int bias)
{
  uint32_t s = code >> (ebits + mbits) & 1, e = code >> mbits & ((1u << ebits) - 1),
           m = code & ((1u << mbits) - 1);
  float v = e ? ldexpf(1.0f + (float)m / (float)(1u << mbits), (int)e - bias)
              : ldexpf((float)m / (float)(1u << mbits), 1 - bias);
  return s ? -v : v;
}

static void build_tables(void)
{
  for (uint32_t c = 0; c < 256; c++) {
    /* FNUZ (gfx942): 0x80 is the only NaN, no infinities */
    tab_fp8[0][c] = c == 0x80 ? NAN : minifloat(c, 4, 3, 8);
    tab_bf8[0][c] = c == 0x80 ? NAN : minifloat(c, 5, 2, 16);
    /* OCP (gfx950): E4M3FN NaN = S.1111.111, no inf; E5M2 IEEE-like */
    tab_fp8[1][c] = (c & 0x7f) == 0x7f ? NAN : minifloat(c, 4, 3, 7);
    tab_bf8[1][c] = (c >> 2 & 31) == 31 ? ((c & 3) ? NAN : (c >> 7 ? -INFINITY : INFINITY))
                                         : minifloat(c, 5, 2, 15);
  }
  for (uint32_t c = 0; c < 64; c++) tab_fp6[c] = minifloat(c, 2, 3, 1), tab_bf6[c] = minifloat(c, 3, 2, 3);
  for (uint32_t c = 0; c < 16; c++) tab_fp4[c] = minifloat(c, 2, 1, 1);
  fast_probe();
  atomic_store_explicit(&tab_ready, true, memory_order_release);
}

/* IEEE binary16 -> f32, exact and branch-free (so the gather loops vectorize): a normal value is
 * its exponent/fraction bits moved to f32 positions with the bias raised from 15 to 127; a
 * subnormal is its fraction times 2^-24 (integer -> float is exact); exponent field 31 (inf/NaN)
 * maps to 255. No f32 denormal is formed on the way (those are slow on x86). */
static inline float f16f(uint32_t h)
{
  uint32_t em = h & 0x7fff;
  uint32_t norm = (em << 13) + (112u << 23), sub = emu_u32f((float)em * 0x1p-24f);
  uint32_t issub = -(uint32_t)(em < 0x400), isspecial = -(uint32_t)(em >= 0x7c00);
  uint32_t u = ((norm & ~issub) | (sub & issub)) | (isspecial & 0x7f800000u);
  return emu_f32(u | (h & 0x8000u) << 16);
}

#define CLONES __attribute__((target_clones("avx2", "default")))
/* f16f on both halves of one register in all 64 lanes, 8 lanes at a time (GCC vector extensions,
 * so it is SIMD whatever the optimisation level) */
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));
static inline __attribute__((always_inline)) void f16f_v8(v8u h, v8f *out)
{
  v8u em = h & 0x7fff;
  v8u norm = (em << 13) + (112u << 23);
  v8f subf = __builtin_convertvector((v8i)em, v8f) * 0x1p-24f;
  v8u sub = (v8u)subf;
  v8u issub = (v8u)(em < 0x400), isspecial = (v8u)(em >= 0x7c00);
  v8u u = ((norm & ~issub) | (sub & issub)) | (isspecial & 0x7f800000u);
  *out = (v8f)(u | (h & 0x8000u) << 16);
}
CLONES static void cvt_f16x2(const uint32_t *v, float *lo, float *hi)
{
  for (int l = 0; l < 64; l += 8) {
    v8u x;
    memcpy(&x, v + l, sizeof x);
    v8f a, b;
    f16f_v8(x & 0xffff, &a);
    f16f_v8(x >> 16, &b);
    memcpy(lo + l, &a, sizeof a);
    memcpy(hi + l, &b, sizeof b);
  }
}

/* bf16 halves of one register, all 64 lanes: the bits are the top half of an f32 */
CLONES static void cvt_bf16x2(const uint32_t *v, float *lo, float *hi)
{
  for (int l = 0; l < 64; l += 8) {
    v8u x;
    memcpy(&x, v + l, sizeof x);
    v8u a = x << 16, b = x & 0xffff0000u;
    memcpy(lo + l, &a, sizeof a);
    memcpy(hi + l, &b, sizeof b);
  }
}

/* ---- instruction descriptors ---------------------------------------------------------------*/
enum { MK_DENSE = 0, MK_SCALE, MK_SPARSE };
typedef struct mdesc {
  uint8_t M, N, K, B;
  uint8_t ta, tb; /* element types of A and B (T_F8F6F4: chosen by cbsz/blgp) */
  uint8_t kind;   /* MK_*: plain, block-scaled (v_mfma_scale_*), 2:4 sparse A (v_smfmac_*) */
} mdesc;

/* Operands are converted in the lanes' own order: cv[t*64 + l] = item t of lane l (float, or int32
 * for i8, double for f64), one vectorizable pass per register. The matrix element is then found by
 * the layout rule without moving data: A[b][i][k] = cv[kt(k)*64 + i + M*(b + B*kg(k))] and the row
 * B[b][k][0..N) is the contiguous run cv[kt(k)*64 + N*(b + B*kg(k)) + 0..N), where
 * (kt, kg) = (k % K_L, k / K_L), or the f8f6f4 fp8/bf8 split (item 16h + r%16, group r/16 with
 * h = k / (K/2), r = k % (K/2)). At most 32 items per lane. */
#define MAXITEM 32

static inline uint32_t item_bits(const uint32_t *const *r, int l, int t, int s)
{
  int bit = s * t, wd = bit >> 5, sh = bit & 31;
  uint64_t v = r[wd][l] >> sh;
  if (sh + s > 32) v |= (uint64_t)r[wd + 1][l] << (32 - sh);
  return (uint32_t)v & (uint32_t)((1ull << s) - 1);
}

/* Converts operand `opi` (KL items per lane of `type`) into cv. Returns false after a fault. */
static bool convert(emu_wave *w, const emu_insn *in, int opi, int type, int KL, void *cv)
{
  const emu_opnd *o = &in->o[opi];
  const char *nm = opi == 1 ? "A" : "B";
  int s = type_bits[type], nreg = (KL * s + 31) / 32;
  if (o->kind != EMU_OPK_VGPR && o->kind != EMU_OPK_AGPR)
    return emu_raise(w, in, "unimplemented", -1, 0, "MFMA %s operand that is not a VGPR/AGPR", nm), false;
  if (o->n < nreg)
    return emu_raise(w, in, "unimplemented", -1, 0, "MFMA %s operand has %d registers, %d needed", nm, o->n, nreg),
           false;
  const uint32_t *r[24];
  for (int k = 0; k < nreg; k++) r[k] = emu_vreg(w, in, opi, k);
  float *f = cv;
  int32_t *iv = cv;
  double *dv = cv;
  int arch = w->wg->arch == EMU_GFX950;
  const float *tab = type == T_FP8 ? tab_fp8[arch] : type == T_BF8 ? tab_bf8[arch] : type == T_FP6 ? tab_fp6
                     : type == T_BF6 ? tab_bf6 : tab_fp4;
  switch (type) {
  case T_F16:
    for (int k = 0; k < nreg; k++) cvt_f16x2(r[k], f + (2 * k) * 64, f + (2 * k + 1) * 64);
    break;
  case T_BF16:
    for (int k = 0; k < nreg; k++) cvt_bf16x2(r[k], f + (2 * k) * 64, f + (2 * k + 1) * 64);
    break;
  case T_F32:
    for (int t = 0; t < KL; t++) memcpy(f + t * 64, r[t], 64 * 4);
    break;
  case T_F64:
    for (int t = 0; t < KL; t++)
      for (int l = 0; l < 64; l++) dv[t * 64 + l] = emu_f64((uint64_t)r[2 * t][l] | (uint64_t)r[2 * t + 1][l] << 32);
    break;
  case T_I8:
    for (int t = 0; t < KL; t++)
      for (int l = 0; l < 64; l++) iv[t * 64 + l] = (int8_t)(r[t >> 2][l] >> (8 * (t & 3)));
    break;
  default: /* fp8/bf8/fp6/bf6/fp4 codes through their value tables */
    for (int t = 0; t < KL; t++)
      for (int l = 0; l < 64; l++) f[t * 64 + l] = tab[item_bits(r, l, t, s)];
  }
  return true;
}

/* ---- block scales (v_mfma_scale_*_f8f6f4, gfx950) -----------------------------------------------
 * Operands 4 and 5 (scale A, scale B; LLVM prints them after C) hold one E8M0 scale per lane; the
 * byte used is op_sel[i] | op_sel_hi[i] << 1 for source i = 0 (A) / 1 (B) (LLVM's printer maps the
 * intrinsic's 0..3 byte index to those two bits). E8M0 (OCP MX spec): code e is 2^(e-127), 0xff is
 * NaN. Every element a lane supplies is multiplied by that lane's scale: with the layout above a
 * lane of an fp4/fp6 operand holds the 32 consecutive k of one MX block (row L%M, block L/M), so
 * this is the MX rule "one scale per 32 k"; for fp8/bf8 operands, whose lane holds two 16-k halves,
 * the lane's one scale covers both halves (UNCONFIRMED on hardware; docs/emulator-choices.md).
 * The scaled value is formed in f32 (a product outside f32's range overflows or underflows as f32
 * arithmetic does; the hardware's internal width is not documented). */
static float e8m0(uint32_t c) { return c == 0xff ? NAN : ldexpf(1.0f, (int)c - 127); }

static void apply_scale(emu_wave *w, const emu_insn *in, int opi, int KL, float *cv)
{
  int src = opi - 4; /* 0: A, 1: B */
  int sel = (in->op_sel >> src & 1) | (in->has_op_sel_hi ? (in->op_sel_hi >> src & 1) << 1 : 0);
  uint32_t t[64];
  const uint32_t *s = emu_src32(w, in, opi, t);
  float f[64];
  for (int l = 0; l < 64; l++) f[l] = e8m0(s[l] >> (8 * sel) & 0xff);
  for (int k = 0; k < KL; k++)
    for (int l = 0; l < 64; l++) cv[k * 64 + l] *= f[l];
}

/* ---- 2:4 structured-sparse A (v_smfmac_*) -----------------------------------------------------
 * CDNA3 ISA §7.1 "Sparse matrix" / CDNA4 ISA likewise, LLVM's smfmac intrinsics and MLIR's
 * amdgpu.sparse_mfma description: A is held compressed. The dense layout is the general rule (lane
 * i + M*(k/K_L) holds k = K_L*(k/K_L) + 0..K_L-1 of row i); each lane stores only K_L/2 values,
 * two for every group of 4 consecutive k. Operand 3 (a VGPR) holds the positions: stored value s
 * (s = 0..K_L/2-1, in group s/2) sits at k offset 4*(s/2) + idx_s within the lane's range, idx_s
 * being the 2-bit field at bit abid*K_L + 2*s. One index set is K_L bits: 8 bits (abid 0..3) for
 * the gfx942 16-bit forms, 16 bits (abid 0..1) for the 8-bit forms and the gfx950 16-bit
 * doubled-K forms, 32 bits (abid 0) for the gfx950 8-bit doubled-K forms (MLIR's corrected gfx950
 * verifier, citing the CDNA4 ISA layout tables). The expanded A holds 0 at the positions not named
 * (so an infinite or NaN B element there gives NaN, as a dense product would; UNCONFIRMED), and two
 * stored values naming the same position are added before the multiply. C is read from vdst
 * (operand 0), which is written. CBSZ/ABID only pick the index set (sparse_set). */
/* The index set used: ABID, or the first when CBSZ[1:0] != 0 or the VGPR holds one set (CDNA4
 * ISA §7.4: "CBSZ[1:0], ABID[1:0] fields ignored. One single defined set") */
static int sparse_set(const emu_insn *in, int KL)
{
  return (in->cbsz & 3) || KL >= 32 ? 0 : in->abid;
}
static bool sparse_expand(emu_wave *w, const emu_insn *in, int type, int KL, void *cv)
{
  static _Thread_local union { float f[MAXITEM * 64 / 2]; int32_t i[MAXITEM * 64 / 2]; } S;
  if (!convert(w, in, 1, type, KL / 2, &S)) return false;
  uint32_t t[64];
  const uint32_t *ix = emu_src32(w, in, 3, t);
  memset(cv, 0, (size_t)KL * 64 * 4);
  float *f = cv;
  int32_t *iv = cv;
  for (int s = 0; s < KL / 2; s++) {
    int sh = sparse_set(in, KL) * KL + 2 * s;
    for (int l = 0; l < 64; l++) {
      int pos = 4 * (s / 2) + (int)(ix[l] >> sh & 3);
      if (type == T_I8) iv[pos * 64 + l] = (int32_t)((uint32_t)iv[pos * 64 + l] + (uint32_t)S.i[s * 64 + l]);
      else f[pos * 64 + l] += S.f[s * 64 + l];
    }
  }
  return true;
}

/* ---- the multiply kernels --------------------------------------------------------------------
 * One output row: acc[0..N) (= the C row) += A[i][k] * B[k][0..N) for k = 0..K-1 ascending, with
 * a[aoff[k]] = A[i][k] and b + boff[k] = the B row k. N is a compile-time constant so the j loop
 * vectorizes; target_clones adds an AVX2 build (no FMA in it, so no contraction: the products are
 * exact for the narrow types, and f32 inputs use fmaf explicitly). */
#define ROWKERN(NN)                                                                              \
  CLONES static void rows4_f_##NN(float (*acc)[32], const float *a, const int *aoff, const float *b, \
                                  const int *boff, int K)                                        \
  {                                                                                              \
    float t0[NN], t1[NN], t2[NN], t3[NN];                                                        \
    for (int j = 0; j < NN; j++) t0[j] = acc[0][j], t1[j] = acc[1][j], t2[j] = acc[2][j], t3[j] = acc[3][j]; \
    for (int k = 0; k < K; k++) {                                                                \
      const float *ak = a + aoff[k], *bk = b + boff[k];                                          \
      float x0 = ak[0], x1 = ak[1], x2 = ak[2], x3 = ak[3];                                      \
      for (int j = 0; j < NN; j++) {                                                             \
        t0[j] += x0 * bk[j];                                                                     \
        t1[j] += x1 * bk[j];                                                                     \
        t2[j] += x2 * bk[j];                                                                     \
        t3[j] += x3 * bk[j];                                                                     \
      }                                                                                          \
    }                                                                                            \
    for (int j = 0; j < NN; j++) acc[0][j] = t0[j], acc[1][j] = t1[j], acc[2][j] = t2[j], acc[3][j] = t3[j]; \
  }
ROWKERN(4)
ROWKERN(16)
ROWKERN(32)

/* N dwords (N = 4, 16 or 32): constant-size copies, which compile to plain moves (a variable-size
 * memcpy becomes `rep movs`, slow at this size) */
static inline void cpn(void *d, const void *s, int N)
{
  if (N == 16) memcpy(d, s, 64);
  else if (N == 32) memcpy(d, s, 128);
  else memcpy(d, s, 16);
}

/* ---- the fast path (x86-64 with AVX-512F/BW, F16C and FMA, checked at run time) ---------------
 * Dense (not block-scaled, not sparse) single-block (B = 1) f16, bf16, fp8/bf8 (also as f8f6f4 formats), f32 and i8 instructions with
 * 16 or 32 columns: the same arithmetic as the generic kernels below, in the same order, with 16
 * output columns per 512-bit register and up to 16 rows' independent chains in flight. Per output
 * element acc = C, then k = 0..K-1 ascending: f16 and fp8/bf8 use a fused multiply-add, which gives
 * the bits of `acc + a*b` because their products are exact in f32; bf16 multiplies then adds (its
 * products can leave f32's range); f32 is fmaf; i8 wrapping int32. Element positions (the layout
 * rule in the header) are computed once per instruction form and kept per thread. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FAST_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,f16c,fma")))
#define FAST_INLINE FAST_TARGET static inline __attribute__((always_inline))
enum { FM_FMA, FM_MULADD, FM_I32 };

typedef struct fshape {
  const mdesc *d;
  int ta, tb, K, KL, nra, nrb, nout, mode;
  int aoff[128], boff[128]; /* A[i][k] = ca[aoff[k] + i]; B row k = cb[boff[k] + 0..N) */
  int dreg[32], dlane[32];  /* C/D row i: register dreg[i], lanes dlane[i] .. + N */
} fshape;

static void fast_probe(void) /* from build_tables, once */
{
  __builtin_cpu_init();
  fast_cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma");
}

static bool fast_type(int t) { return t == T_F16 || t == T_BF16 || t == T_FP8 || t == T_BF8 || t == T_F32 || t == T_I8; }

/* the shape of d with element types ta/tb (B = 1, H = 4: D row i is register i%4 + 4*(i/(4*MI))
 * at lanes N*((i/4)%MI), MI = 64/N) */
static void fshape_make(fshape *s, const mdesc *d, int ta, int tb)
{
  s->d = d, s->ta = ta, s->tb = tb, s->K = d->K;
  s->KL = d->K * d->M / 64;
  s->nra = (s->KL * type_bits[ta] + 31) / 32, s->nrb = (s->KL * type_bits[tb] + 31) / 32;
  s->nout = d->M * d->N / 64;
  s->mode = ta == T_I8 ? FM_I32 : ta == T_BF16 ? FM_MULADD : FM_FMA;
  bool split = d->ta == T_F8F6F4; /* only fp8/bf8 formats reach here */
  for (int k = 0; k < d->K; k++) {
    int item = k % s->KL, grp = k / s->KL;
    if (split) {
      int h = k / (d->K / 2), r = k % (d->K / 2);
      item = 16 * h + r % 16, grp = r / 16;
    }
    s->aoff[k] = item * 64 + d->M * grp;
    s->boff[k] = item * 64 + d->N * grp;
  }
  int MI = 64 / d->N;
  for (int i = 0; i < d->M; i++) s->dreg[i] = i % 4 + 4 * (i / (4 * MI)), s->dlane[i] = d->N * ((i / 4) % MI);
}

/* operand registers R (register r lane l at r*64 + l) -> items in the lanes' order cv[t*64 + l] */
FAST_INLINE void fast_convert(int type, const uint32_t *R, int nreg, float *cv, const float *tab)
{
  for (int r = 0; r < nreg; r++)
    for (int l = 0; l < 64; l += 16) {
      __m512i x = _mm512_loadu_si512(R + r * 64 + l);
      switch (type) {
      case T_F16: /* F16C is exact for every f16 (subnormals included) */
        _mm512_store_ps(cv + (2 * r) * 64 + l, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(x)));
        _mm512_store_ps(cv + (2 * r + 1) * 64 + l, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(x, 16))));
        break;
      case T_BF16:
        _mm512_store_si512(cv + (2 * r) * 64 + l, _mm512_slli_epi32(x, 16));
        _mm512_store_si512(cv + (2 * r + 1) * 64 + l, _mm512_and_si512(x, _mm512_set1_epi32((int)0xffff0000u)));
        break;
      case T_FP8:
      case T_BF8:
        for (int b = 0; b < 4; b++)
          _mm512_store_ps(cv + (4 * r + b) * 64 + l,
                          _mm512_i32gather_ps(_mm512_and_si512(_mm512_srli_epi32(x, 8 * b), _mm512_set1_epi32(255)), tab, 4));
        break;
      case T_I8:
        for (int b = 0; b < 4; b++)
          _mm512_store_si512(cv + (4 * r + b) * 64 + l, _mm512_srai_epi32(_mm512_slli_epi32(x, 24 - 8 * b), 24));
        break;
      default: /* T_F32 */
        _mm512_store_si512(cv + r * 64 + l, x);
      }
    }
}

/* rows i0 .. i0+RB of NV 16-column vectors each, over all k; C from registers (c) or one value */
FAST_INLINE void fast_rows(const fshape *s, const float *ca, const float *cb, const uint32_t *c, uint32_t cval,
                           uint32_t *dst, int i0, const int RB, const int NV, const int mode)
{
  __m512 acc[16][2];
#pragma GCC unroll 16
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++)
      acc[r][v] = c ? _mm512_loadu_ps((const float *)(c + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 16 * v))
                    : _mm512_castsi512_ps(_mm512_set1_epi32((int)cval));
  for (int k = 0; k < s->K; k++) {
    const float *ak = ca + s->aoff[k] + i0, *bk = cb + s->boff[k];
    __m512 b[2];
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++) b[v] = _mm512_loadu_ps(bk + 16 * v);
#pragma GCC unroll 16
    for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
      for (int v = 0; v < NV; v++) {
        if (mode == FM_I32) {
          __m512i p = _mm512_mullo_epi32(_mm512_set1_epi32(((const int32_t *)(const void *)ak)[r]), _mm512_castps_si512(b[v]));
          acc[r][v] = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(acc[r][v]), p));
        } else if (mode == FM_MULADD) {
          /* the product rounded on its own: GCC's intrinsics are vector operators, which
           * -ffp-contract=fast (GNU C's default) would fuse into one FMA with this target; the
           * empty asm keeps the product a value of its own */
          __m512 p = _mm512_mul_ps(_mm512_set1_ps(ak[r]), b[v]);
          __asm__("" : "+v"(p));
          acc[r][v] = _mm512_add_ps(acc[r][v], p);
        } else {
          acc[r][v] = _mm512_fmadd_ps(_mm512_set1_ps(ak[r]), b[v], acc[r][v]);
        }
      }
  }
#pragma GCC unroll 16
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++)
      _mm512_storeu_ps((float *)(dst + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 16 * v), acc[r][v]);
}

#define FAST_KERNEL(MODE)                                                                        \
  FAST_TARGET static void fast_##MODE(const fshape *s, const float *ca, const float *cb, const uint32_t *c, \
                                      uint32_t cval, uint32_t *dst)                              \
  {                                                                                              \
    if (s->d->N == 16) fast_rows(s, ca, cb, c, cval, dst, 0, 16, 1, MODE);                       \
    else for (int i0 = 0; i0 < 32; i0 += 8) fast_rows(s, ca, cb, c, cval, dst, i0, 8, 2, MODE); \
  }
FAST_KERNEL(FM_FMA)
FAST_KERNEL(FM_MULADD)
FAST_KERNEL(FM_I32)

FAST_TARGET static void fast_convert_op(int type, const uint32_t *R, int nreg, float *cv, const float *tab)
{
  fast_convert(type, R, nreg, cv, tab);
}

/* ---- the same fast path with AVX2, FMA and F16C (CPUs without AVX-512; emu_avx2) ----------------
 * 8 output columns per 256-bit register; RB rows at a time so that the RB x NV accumulators, the NV
 * B vectors and the broadcast A element fit the 16 registers (N = 16: 4 rows x 2; N = 32: 2 x 4).
 * Same operations in the same order per output element as the AVX-512 kernels, so the same bits. */
#define FAST2_TARGET __attribute__((target("avx2,fma,f16c")))
#define FAST2_INLINE FAST2_TARGET static inline __attribute__((always_inline))

FAST2_INLINE __m128i pack_lo16_256(__m256i x) /* the low halves of 8 dwords as 8 words */
{
  __m256i t = _mm256_and_si256(x, _mm256_set1_epi32(0xffff));
  return _mm_packus_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
}

/* One loop per type, the type's switch outside it (inside, it cost as much as the conversion: seed
 * seq 256 gfx942, callgrind). f16: each 128-bit half's low words to its low 8 bytes and high words to
 * its high 8 bytes (one byte shuffle), the two halves' low words together (one qword permute), then
 * F16C on 8 words at a time: the same conversion of the same words as two pack-and-convert passes. */
FAST2_TARGET static void fast_convert_256(int type, const uint32_t *R, int nreg, float *cv, const float *tab)
{
  switch (type) {
  case T_F16: { /* F16C is exact for every f16 (subnormals included) */
    const __m256i split = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
                                           0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    for (int r = 0; r < nreg; r++)
#pragma GCC unroll 8
      for (int l = 0; l < 64; l += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(R + r * 64 + l));
        __m256i z = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(x, split), 0xd8); /* lo words | hi words */
        _mm256_store_ps(cv + (2 * r) * 64 + l, _mm256_cvtph_ps(_mm256_castsi256_si128(z)));
        _mm256_store_ps(cv + (2 * r + 1) * 64 + l, _mm256_cvtph_ps(_mm256_extracti128_si256(z, 1)));
      }
    break;
  }
  case T_BF16:
    for (int r = 0; r < nreg; r++)
      for (int l = 0; l < 64; l += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(R + r * 64 + l));
        _mm256_store_si256((__m256i *)(void *)(cv + (2 * r) * 64 + l), _mm256_slli_epi32(x, 16));
        _mm256_store_si256((__m256i *)(void *)(cv + (2 * r + 1) * 64 + l),
                           _mm256_and_si256(x, _mm256_set1_epi32((int)0xffff0000u)));
      }
    break;
  case T_FP8:
  case T_BF8:
    for (int r = 0; r < nreg; r++)
      for (int l = 0; l < 64; l += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(R + r * 64 + l));
        for (int b = 0; b < 4; b++)
          _mm256_store_ps(cv + (4 * r + b) * 64 + l,
                          _mm256_i32gather_ps(tab, _mm256_and_si256(_mm256_srli_epi32(x, 8 * b), _mm256_set1_epi32(255)), 4));
      }
    break;
  case T_I8:
    for (int r = 0; r < nreg; r++)
      for (int l = 0; l < 64; l += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(R + r * 64 + l));
        for (int b = 0; b < 4; b++)
          _mm256_store_si256((__m256i *)(void *)(cv + (4 * r + b) * 64 + l), _mm256_srai_epi32(_mm256_slli_epi32(x, 24 - 8 * b), 24));
      }
    break;
  default: /* T_F32 */
    for (int r = 0; r < nreg; r++)
      for (int l = 0; l < 64; l += 8)
        _mm256_store_si256((__m256i *)(void *)(cv + r * 64 + l),
                           _mm256_loadu_si256((const __m256i *)(const void *)(R + r * 64 + l)));
  }
}

FAST2_INLINE void fast_rows_256(const fshape *s, const float *ca, const float *cb, const uint32_t *c, uint32_t cval,
                                uint32_t *dst, int i0, const int RB, const int NV, const int mode)
{
  __m256 acc[4][4];
#pragma GCC unroll 4
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++)
      acc[r][v] = c ? _mm256_loadu_ps((const float *)(c + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 8 * v))
                    : _mm256_castsi256_ps(_mm256_set1_epi32((int)cval));
  /* unrolled by 4 (a remainder loop for K = 2): the same operations in the same order, fewer loop
   * steps (seed seq 256, callgrind: gfx942 1440.8 M -> 1426.8 M, gfx950 1202.5 M -> 1188.4 M) */
#pragma GCC unroll 4
  for (int k = 0; k < s->K; k++) {
    const float *ak = ca + s->aoff[k] + i0, *bk = cb + s->boff[k];
    __m256 b[4];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) b[v] = _mm256_loadu_ps(bk + 8 * v);
#pragma GCC unroll 4
    for (int r = 0; r < RB; r++)
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++) {
        if (mode == FM_I32) {
          __m256i p = _mm256_mullo_epi32(_mm256_set1_epi32(((const int32_t *)(const void *)ak)[r]), _mm256_castps_si256(b[v]));
          acc[r][v] = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(acc[r][v]), p));
        } else if (mode == FM_MULADD) {
          __m256 p = _mm256_mul_ps(_mm256_set1_ps(ak[r]), b[v]); /* not fused: see fast_rows */
          __asm__("" : "+x"(p));
          acc[r][v] = _mm256_add_ps(acc[r][v], p);
        } else {
          acc[r][v] = _mm256_fmadd_ps(_mm256_set1_ps(ak[r]), b[v], acc[r][v]);
        }
      }
  }
#pragma GCC unroll 4
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++)
      _mm256_storeu_ps((float *)(dst + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 8 * v), acc[r][v]);
}

#define FAST2_KERNEL(MODE)                                                                       \
  FAST2_TARGET static void fast2_##MODE(const fshape *s, const float *ca, const float *cb, const uint32_t *c, \
                                        uint32_t cval, uint32_t *dst)                            \
  {                                                                                              \
    if (s->d->N == 16) for (int i0 = 0; i0 < 16; i0 += 4) fast_rows_256(s, ca, cb, c, cval, dst, i0, 4, 2, MODE); \
    else for (int i0 = 0; i0 < 32; i0 += 2) fast_rows_256(s, ca, cb, c, cval, dst, i0, 2, 4, MODE); \
  }
FAST2_KERNEL(FM_FMA)
FAST2_KERNEL(FM_MULADD)
FAST2_KERNEL(FM_I32)

/* The 16 x 16 forms with K = 16 or 32 and fused multiply-add (f16; fp8/bf8 as separate A and B
 * types, not the f8f6f4 layout), as fast_rows_256 with N = 16 computes them: the same operations in
 * the same order per output element, with the shape's offsets as constants (for M = N = 16: A[i][k]
 * = ca[(k % KL) * 64 + 16 * (k / KL) + i], B row k at the same offset in cb, KL = K / 4; D row i is
 * register i % 4, lanes 16 * (i / 4) ..) instead of read from the fshape per k, and the k loop
 * unrolled whole. */
FAST2_INLINE void fma16_rows(const float *ca, const float *cb, const uint32_t *c, uint32_t cval, uint32_t *dst,
                             const int i0, const int RB, const int K, const bool ilv)
{
  /* rows i0 .. i0 + RB - 1; row i of C and D: register i % 4, lanes 16 * (i / 4) .. + 15 */
#define FMA16_ROW(i) ((i) % 4 * 64 + 16 * ((i) / 4))
  const int KL = K / 4;
  __m256 acc[6][2];
#pragma GCC unroll 6
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++)
      acc[r][v] = c ? _mm256_loadu_ps((const float *)(c + FMA16_ROW(i0 + r) + 8 * v)) : _mm256_castsi256_ps(_mm256_set1_epi32((int)cval));
#pragma GCC unroll 32
  for (int k = 0; k < K; k++) {
    const int off = (k % KL) * 64 + 16 * (k / KL);
    const __m256 b0 = _mm256_loadu_ps(cb + off), b1 = _mm256_loadu_ps(cb + off + 8);
#pragma GCC unroll 6
    for (int r = 0; r < RB; r++) {
      /* ilv: A as fa16_interleaved left it, item t of lane l at (t / 2) * 128 + 2 * l + t % 2 */
      const int t = k % KL, l = 16 * (k / KL) + i0 + r;
      const __m256 a = _mm256_broadcast_ss(ilv ? ca + (t / 2) * 128 + 2 * l + t % 2 : ca + off + i0 + r);
      acc[r][0] = _mm256_fmadd_ps(a, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(a, b1, acc[r][1]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) _mm256_storeu_ps((float *)(dst + FMA16_ROW(i0 + r) + 8 * v), acc[r][v]);
#undef FMA16_ROW
}

/* Rows in blocks of 6, 5 and 5: 12 or 10 independent accumulator chains in flight (each output
 * element's K multiply-adds stay one chain in k order), enough to cover the FMA latency at two
 * FMAs a cycle, with the two B vectors and the broadcast A in the remaining registers (blocks of
 * 4 left the kernel latency-bound). */
#define FMA16_BLOCKS(ca, ilv, K)                                  \
  fma16_rows(ca, cb, c, cval, dst, 0, 6, K, ilv);                 \
  fma16_rows(ca, cb, c, cval, dst, 6, 5, K, ilv);                 \
  fma16_rows(ca, cb, c, cval, dst, 11, 5, K, ilv)

FAST2_TARGET static void fast2_fma16_k16(const float *ca, const float *cb, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  FMA16_BLOCKS(ca, false, 16);
}

FAST2_TARGET static void fast2_fma16_k32(const float *ca, const float *cb, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  FMA16_BLOCKS(ca, false, 32);
}

/* The same two kernels with A interleaved (mfma16_f16): F16C converts each register's 128 words
 * in the order they lie (low and high half of a lane next to each other), without the shuffle and
 * permute fast_convert_256 needs to give every item its own 64-float run; the kernel reads A only
 * by broadcasting single floats, so it takes them at their interleaved offsets instead. The same
 * conversion of the same words and the same arithmetic: the same bits. */
FAST2_TARGET static void fa16_interleaved(const uint32_t *R, int nreg, float *ia)
{
  for (int r = 0; r < nreg; r++)
#pragma GCC unroll 16
    for (int l = 0; l < 64; l += 4)
      _mm256_store_ps(ia + r * 128 + 2 * l, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(R + r * 64 + l))));
}
FAST2_TARGET static void fast2_fma16i_k16(const float *ia, const float *cb, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  FMA16_BLOCKS(ia, true, 16);
}
FAST2_TARGET static void fast2_fma16i_k32(const float *ia, const float *cb, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  FMA16_BLOCKS(ia, true, 32);
}

/* ---- converted B operands, kept per worker and found again by content ---------------------------
 * A kernel reuses one B operand over several MFMAs (the seed kernel's PV loop: P for all D/16 output
 * blocks; QK: the Q fragments for every key block), and the conversion of f16/fp8 operands is a
 * large part of a 16x16x16 MFMA. An entry holds the raw register bits it was converted from; it is
 * used only when the type, the fp8/bf8 table (arch), the register count and every one of those bits
 * are equal to the operand's now. The conversion is a function of exactly these, so a hit gives the
 * same floats as converting again, whatever wrote the registers in between (VALU, loads, DS, another
 * wave: nothing has to invalidate an entry). The operand's address only picks the slot. */
enum { BC_LOG2 = 6, BC_SLOTS = 1 << BC_LOG2, BC_MAXREG = 4, BC_MAXITEM = 8 };
typedef struct __attribute__((aligned(64))) {
  float cv[BC_MAXITEM * 64];
  uint32_t raw[BC_MAXREG * 64];
  const float *tab;
  int type, nreg;
} bcache_ent;

/* R[0 .. n) == raw[0 .. n), n a multiple of 64 (whole registers) */
FAST2_TARGET static bool bc_same(const uint32_t *raw, const uint32_t *R, int n)
{
  __m256i acc = _mm256_setzero_si256();
  for (int i = 0; i < n; i += 64)
#pragma GCC unroll 8
    for (int j = i; j < i + 64; j += 8)
      acc = _mm256_or_si256(acc, _mm256_xor_si256(_mm256_load_si256((const __m256i *)(const void *)(raw + j)),
                                                   _mm256_loadu_si256((const __m256i *)(const void *)(R + j))));
  return _mm256_testz_si256(acc, acc);
}

/* The worker's MFMA state (emu_wg.mfma): 64 x 3 KiB, so that the B operands of a workgroup's waves
 * (the seed kernel's: 8 Q fragments and P per wave) rarely share a slot (seq 256 with 32 slots:
 * gfx942 1566.4 M instructions, gfx950 1349.2 M; with 64: 1561.7 M, 1325.5 M). Allocated on the
 * worker's first MFMA, not thread-local: thread-local storage would be paid by every thread of every
 * process that links the emulator (HIP programs through liblanelab_hip.so included). */
struct emu_mfma_ctx {
  bcache_ent bc[BC_SLOTS];
};

static struct emu_mfma_ctx *mfma_ctx_make(struct emu_mfma_ctx **p)
{
  {
    /* zeroed: nreg 0 matches no operand, so every slot starts empty */
    void *m = NULL;
    if (posix_memalign(&m, 64, sizeof **p) != 0) ll_die(LL_EXIT_ENV, "out of memory (%zu bytes for the MFMA operand cache)", sizeof **p);
    *p = memset(m, 0, sizeof **p);
  }
  return *p;
}
static inline struct emu_mfma_ctx *mfma_ctx(emu_wave *w)
{
  struct emu_mfma_ctx **p = w->wg->mfma;
  return !p ? NULL : *p ? *p : mfma_ctx_make(p);
}

/* inlined so that mfma16_f16 gets it with its type, size and conversion as constants */
static inline __attribute__((always_inline)) const float *bc_convert(struct emu_mfma_ctx *ctx, void (*conv)(int, const uint32_t *, int, float *, const float *),
                               int type, const uint32_t *R, int nreg, const float *tab, float *scratch)
{
  if (!ctx || nreg > BC_MAXREG || nreg * (32 / type_bits[type]) > BC_MAXITEM) {
    conv(type, R, nreg, scratch, tab);
    return scratch;
  }
  bcache_ent *e = &ctx->bc[(uint32_t)(((uintptr_t)R >> 8) * 0x9e3779b1u) >> (32 - BC_LOG2)]; /* a register is 256 bytes */
  if (e->type == type && e->tab == tab && e->nreg == nreg && bc_same(e->raw, R, nreg * 64)) return e->cv;
  memcpy(e->raw, R, (size_t)nreg * 64 * 4);
  e->type = type, e->tab = tab, e->nreg = nreg;
  conv(type, e->raw, nreg, e->cv, tab);
  return e->cv;
}

/* Runs the instruction if the fast path covers it (returns true, *rc set); false: use the generic
 * path. Operand checks are the generic path's (convert): anything unusual goes there. */
static bool mfma_fast(emu_wave *w, const emu_insn *in, const mdesc *d, int ta, int tb, int *rc)
{
  /* AVX-512 when present and not capped (emu/simd.c: LANELAB_EMU_SIMD, LANELAB_EMU_NO_AVX512), else AVX2 */
  const bool w512 = fast_cpu && emu_avx512;
  if ((!w512 && !emu_avx2) || d->kind != MK_DENSE || d->B != 1 || (d->N != 16 && d->N != 32) || d->M != d->N || !fast_type(ta) || !fast_type(tb))
    return false;
  static _Thread_local fshape sh; /* the last form run on this thread */
  if (sh.d != d || sh.ta != ta || sh.tb != tb) fshape_make(&sh, d, ta, tb);
  const fshape *s = &sh;
  const emu_opnd *oa = &in->o[1], *ob = &in->o[2], *od = &in->o[0], *oc = &in->o[3];
  bool creg = oc->kind == EMU_OPK_VGPR || oc->kind == EMU_OPK_AGPR;
  if ((oa->kind != EMU_OPK_VGPR && oa->kind != EMU_OPK_AGPR) || (ob->kind != EMU_OPK_VGPR && ob->kind != EMU_OPK_AGPR) ||
      oa->n < s->nra || ob->n < s->nrb || od->n < s->nout || (creg && oc->n < s->nout))
    return false;
  int arch = w->wg->arch == EMU_GFX950;
  static _Thread_local float ca[32 * 64] __attribute__((aligned(64))), cb[32 * 64] __attribute__((aligned(64)));
  void (*conv)(int, const uint32_t *, int, float *, const float *) = w512 ? fast_convert_op : fast_convert_256;
  conv(ta, emu_vreg(w, in, 1, 0), s->nra, ca, ta == T_FP8 ? tab_fp8[arch] : tab_bf8[arch]);
  const float *cbv = bc_convert(mfma_ctx(w), conv, tb, emu_vreg(w, in, 2, 0), s->nrb, tb == T_FP8 ? tab_fp8[arch] : tab_bf8[arch], cb);
  uint32_t cval = 0;
  if (!creg) {
    uint32_t t[64]; /* the operand's 32-bit value (inline float constants as f32 bits) */
    cval = emu_src32(w, in, 3, t)[0];
  }
  const uint32_t *c = creg ? emu_vreg(w, in, 3, 0) : NULL;
  uint32_t *dreg = emu_vreg(w, in, 0, 0);
  /* D straight into the registers unless a row block could overwrite C rows a later block still
   * reads (C and D overlapping but not the same registers; AVX-512 does 16 columns in one block) */
  static _Thread_local uint32_t tmp[16 * 64] __attribute__((aligned(64)));
  bool direct = (w512 && d->N == 16) || !c || c == dreg || c + s->nout * 64 <= dreg || dreg + s->nout * 64 <= c;
  uint32_t *dst = direct ? dreg : tmp;
  if (!w512) {
    if (s->mode == FM_I32) fast2_FM_I32(s, ca, cbv, c, cval, dst);
    else if (s->mode == FM_MULADD) fast2_FM_MULADD(s, ca, cbv, c, cval, dst);
    else if (s->d->M == 16 && s->d->N == 16 && s->d->ta != T_F8F6F4 && s->K == 16) fast2_fma16_k16(ca, cbv, c, cval, dst);
    else if (s->d->M == 16 && s->d->N == 16 && s->d->ta != T_F8F6F4 && s->K == 32) fast2_fma16_k32(ca, cbv, c, cval, dst);
    else fast2_FM_FMA(s, ca, cbv, c, cval, dst);
  } else if (s->mode == FM_I32) fast_FM_I32(s, ca, cbv, c, cval, dst);
  else if (s->mode == FM_MULADD) fast_FM_MULADD(s, ca, cbv, c, cval, dst);
  else fast_FM_FMA(s, ca, cbv, c, cval, dst);
  if (!direct) memcpy(dreg, tmp, (size_t)s->nout * 64 * 4);
  *rc = EMU_OK;
  return true;
}

/* v_mfma_f32_16x16x16_f16 and 16x16x32_f16 on the AVX-512 path (issue #31, twelfth stop; the first
 * host with AVX-512 since the AVX2 twin below was written): the same operations in the same order per
 * output element as fast_FM_FMA's fast_rows gives these forms (acc = C, then k = 0..K-1 ascending,
 * acc = fma(A[i][k], B[k][j], acc) with A broadcast), with the shape's offsets as constants and the k
 * loop unrolled whole, all 16 rows' accumulators in registers (C read whole before D is written, so
 * C may overlap D in any way), A converted interleaved as fa16_interleaved does (item t of lane l at
 * (t / 2) * 128 + 2 * l + t % 2). Entered from mfma16_f16 (below) under the same conditions as the
 * AVX2 twin, less the overlap one.
 * B is converted as it is used (issue #31, sixteenth stop): step k's 16 floats are item t = k % (K/4)
 * of lanes 16 (k / (K/4)) .. +15, that lane block of register t / 2's low (t even) or high half, by
 * vpmovdw and vcvtph2ps, the conversion fast_convert gives the operand cache (F16C, exact for every
 * f16). It replaced reading B from the operand cache: the cache's check of B's 512 bytes and its
 * converted copy (2 KiB a B, mostly outside L1) cost more than 16 conversions among 256 FMAs (seed
 * seq 2048, process CPU-s: gfx950 3.46 -> 3.36, gfx942 4.31 -> 4.21; the 16x16x16 handler 9.5 ->
 * 10.6 M/s). Steps k and k + 1 (t even and odd) read the same register's two halves: one load, one
 * vpermw putting the 16 low halves before the 16 high ones, two conversions (forty-fourth stop: the
 * shift and the two-µop vpmovdw of every step took the FMA ports; the handler 13.7 -> 14.8 M/s on
 * this Xeon, `lanelab bench emu`). D is written after every read. */
FAST_INLINE void fma16r(const float *ia, const uint32_t *R, const uint32_t *c, uint32_t cval, uint32_t *dst, const int K)
{
#define FMA16Z_ROW(i) ((i) % 4 * 64 + 16 * ((i) / 4))
  const int KL = K / 4;
  __m512 acc[16];
#pragma GCC unroll 16
  for (int r = 0; r < 16; r++)
    acc[r] = c ? _mm512_loadu_ps((const float *)(c + FMA16Z_ROW(r))) : _mm512_castsi512_ps(_mm512_set1_epi32((int)cval));
  /* words 0, 2, .., 30 then 1, 3, .., 31: a register's 16 lanes' low halves, then their high halves */
  const __m512i eo = _mm512_set_epi16(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1, 30, 28, 26, 24, 22, 20, 18, 16, 14,
                                      12, 10, 8, 6, 4, 2, 0);
  __m512 b = _mm512_setzero_ps(), bn = b;
#pragma GCC unroll 32
  for (int k = 0; k < K; k++) {
    const int t = k % KL;
    if (!(t & 1)) { /* steps k and k + 1 from one load: the low and the high halves of register t / 2 */
      const __m512i y = _mm512_permutexvar_epi16(eo, _mm512_loadu_si512((const void *)(R + (t / 2) * 64 + 16 * (k / KL))));
      b = _mm512_cvtph_ps(_mm512_castsi512_si256(y));
      bn = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(y, 1));
    } else {
      b = bn;
    }
#pragma GCC unroll 16
    for (int r = 0; r < 16; r++)
      acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(ia[(t / 2) * 128 + 2 * (16 * (k / KL) + r) + t % 2]), b, acc[r]);
  }
#pragma GCC unroll 16
  for (int r = 0; r < 16; r++) _mm512_storeu_ps((float *)(dst + FMA16Z_ROW(r)), acc[r]);
#undef FMA16Z_ROW
}
FAST_TARGET static void fast_fma16r_k16(const float *ia, const uint32_t *R, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  fma16r(ia, R, c, cval, dst, 16);
}
FAST_TARGET static void fast_fma16r_k32(const float *ia, const uint32_t *R, const uint32_t *c, uint32_t cval, uint32_t *dst)
{
  fma16r(ia, R, c, cval, dst, 32);
}
/* F16C on 8 words (4 lanes' two halves) at a time, in the order they lie: fa16_interleaved's layout.
 * 32-byte stores (forty-fourth stop): the kernel broadcasts single floats from them right after, and
 * the handler ran 14.1 against 14.8 M/s with 64-byte ones (4 pairs, `lanelab bench emu`); with the
 * conversion inlined into the kernel's function (no call between the stores and the broadcasts)
 * 8.9 against 14.5 */
FAST_TARGET static void fa16_interleaved_512(const uint32_t *R, int nreg, float *ia)
{
  for (int r = 0; r < nreg; r++)
#pragma GCC unroll 8
    for (int l = 0; l < 64; l += 8)
    {
      _mm256_store_ps(ia + r * 128 + 2 * l, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(R + r * 64 + l))));
      _mm256_store_ps(ia + r * 128 + 2 * l + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(R + r * 64 + l + 4))));
    }
}
/* v_mfma_f32_16x16x16_f16 and 16x16x32_f16 on the AVX2 path, the attention kernels' instructions
 * (every MFMA of the seed shape): the same conversions, operand cache and kernel as mfma_fast's
 * AVX2 branch gives them, entered without mfma()'s and mfma_fast's general checks and shape
 * lookups (seed seq 256, callgrind: mfma() itself cost some 236 host instructions per MFMA). Only
 * what those checks would let through the fast path comes here: no cbsz/abid/blgp, A and B whole
 * registers, C one value or registers that D either is or is clear of (on the AVX2 path); anything
 * else returns false and mfma() runs as before. On an AVX-512 host the same entry takes the AVX-512
 * conversion and kernel above. */
FAST2_TARGET static bool mfma16_f16(emu_wave *w, const emu_insn *in, int K)
{
  const bool w512 = fast_cpu && emu_avx512; /* the AVX-512 twin above */
  if ((!w512 && !emu_avx2) || in->cbsz | in->blgp | in->abid | in->neg) return false;
  const emu_opnd *o = in->o;
  const int nr = K / 8; /* A and B: K/4 f16 items per lane, two per register */
  const bool creg = o[3].kind == EMU_OPK_VGPR || o[3].kind == EMU_OPK_AGPR;
  if ((o[1].kind != EMU_OPK_VGPR && o[1].kind != EMU_OPK_AGPR) || (o[2].kind != EMU_OPK_VGPR && o[2].kind != EMU_OPK_AGPR) ||
      o[1].n < nr || o[2].n < nr || o[0].n < 4 || (creg && o[3].n < 4))
    return false;
  const uint32_t *c = creg ? emu_vreg(w, in, 3, 0) : NULL;
  uint32_t *dreg = emu_vreg(w, in, 0, 0);
  /* the AVX2 kernel writes D by row blocks; the AVX-512 one reads all of C before it writes */
  if (!w512 && c && !(c == dreg || c + 4 * 64 <= dreg || dreg + 4 * 64 <= c)) return false;
  uint32_t cval = 0;
  if (!creg) {
    uint32_t t[64]; /* C one value: the operand's 32 bits (inline float constants as f32 bits) */
    cval = emu_src32(w, in, 3, t)[0];
  }
  static _Thread_local float ca[32 * 64] __attribute__((aligned(64))), cb[32 * 64] __attribute__((aligned(64)));
  const float *tab = tab_bf8[w->wg->arch == EMU_GFX950]; /* unused for f16; the cache key mfma_fast uses */
  if (w512) {
    fa16_interleaved_512(emu_vreg(w, in, 1, 0), nr, ca);
    if (K == 16) fast_fma16r_k16(ca, emu_vreg(w, in, 2, 0), c, cval, dreg);
    else fast_fma16r_k32(ca, emu_vreg(w, in, 2, 0), c, cval, dreg);
    return true;
  }
  fa16_interleaved(emu_vreg(w, in, 1, 0), nr, ca);
  const float *cbv = bc_convert(mfma_ctx(w), fast_convert_256, T_F16, emu_vreg(w, in, 2, 0), nr, tab, cb);
  if (K == 16) fast2_fma16i_k16(ca, cbv, c, cval, dreg);
  else fast2_fma16i_k32(ca, cbv, c, cval, dreg);
  return true;
}
#else
static void fast_probe(void) {}
static bool mfma_fast(emu_wave *w, const emu_insn *in, const mdesc *d, int ta, int tb, int *rc)
{
  (void)w, (void)in, (void)d, (void)ta, (void)tb, (void)rc;
  return false;
}
static bool mfma16_f16(emu_wave *w, const emu_insn *in, int K)
{
  (void)w, (void)in, (void)K;
  return false;
}
#endif

/* emu_wg.mfma's state ends with its worker (emu/exec.c); NULL: never made */
void emu_mfma_ctx_free(struct emu_mfma_ctx *c)
{
  free(c);
}

/* ---- broadcasts (CDNA3 ISA §7.1.5, CDNA4 ISA §7.1.6) -------------------------------------------
 * After the lane holding an element is found by the layout rule, CBSZ/ABID move A's lane and BLGP
 * B's: A lane l reads lane (l % S) + S * ABID with S = 64 >> CBSZ; B lane l reads
 *   BLGP 0: l, 1: l % 32, 2: l % 32 + 32, 3: (l + 16) % 64, 4..7: l % 16 + 16 * (BLGP - 4).
 * cv holds item t of lane l at [t * 64 + l] (convert), so moving lanes moves each item's 64-run. */
static void permute_lanes(void *cv, int items, int esize, const int *src)
{
  uint8_t tmp[64 * 8];
  for (int t = 0; t < items; t++) {
    uint8_t *run = (uint8_t *)cv + (size_t)t * 64 * esize;
    memcpy(tmp, run, (size_t)64 * esize);
    for (int l = 0; l < 64; l++) memcpy(run + (size_t)l * esize, tmp + (size_t)src[l] * esize, esize);
  }
}
static void broadcast(const emu_insn *in, int KLA, int KLB, void *A, void *B, int esize)
{
  int pa[64], pb[64];
  int S = 64 >> in->cbsz;
  for (int l = 0; l < 64; l++) {
    pa[l] = l % S + S * in->abid;
    int g = in->blgp;
    pb[l] = g == 0 ? l : g == 1 ? l % 32 : g == 2 ? l % 32 + 32 : g == 3 ? (l + 16) % 64 : l % 16 + 16 * (g - 4);
  }
  if (in->cbsz) permute_lanes(A, KLA, esize, pa);
  if (in->blgp) permute_lanes(B, KLB, esize, pb);
}

/* ---- the handler ---------------------------------------------------------------------------*/
static int mfma(emu_wave *w, const emu_insn *in, const mdesc *d)
{
  tables();
  int ta = d->ta, tb = d->tb;
  if (ta == T_F8F6F4) {
    /* CDNA4 ISA: cbsz = A format, blgp = B format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4) */
    if (in->cbsz > 4 || in->blgp > 4)
      return emu_raise(w, in, EMU_FAULT_UNDEFINED, -1, 0, "f8f6f4 format code cbsz:%d blgp:%d is reserved (valid 0..4: %s %s %s %s %s)",
                       in->cbsz, in->blgp, f8f6f4_names[0], f8f6f4_names[1], f8f6f4_names[2], f8f6f4_names[3], f8f6f4_names[4]);
    static const uint8_t fmt[] = {T_FP8, T_BF8, T_FP6, T_BF6, T_FP4};
    ta = fmt[in->cbsz], tb = fmt[in->blgp];
  } else if (d->kind == MK_SPARSE) {
    /* CDNA3 ISA §7.4 / CDNA4 ISA §7.4: CBSZ and ABID only pick the index set; CBSZ[1:0] != 0 picks
     * the first set; a form with one set ignores both (sparse_set). BLGP has no sparse meaning. */
    int sets = 32 / (d->K * d->M / 64); /* index sets in the index VGPR (see sparse_expand) */
    if (in->blgp || (sets > 1 && !(in->cbsz & 3) && in->abid >= sets))
      return emu_raise(w, in, "unimplemented", -1, 0,
                       "sparse MFMA with blgp:%d abid:%d is not modelled (blgp must be 0, abid < %d)",
                       in->blgp, in->abid, sets);
  } else if (ta == T_F64) {
    /* CDNA3 ISA §7.1.5.3: f64 MFMAs ignore CBSZ and ABID; BLGP is the negation of A, B, C, which
     * LLVM prints as neg:[a,b,c] (in->neg; applied below) */
  } else if (in->cbsz || in->abid) {
    /* CDNA3 ISA §7.1.5.1: undefined when 1 << CBSZ exceeds the blocks, not legal when ABID does
     * not name a block of the broadcast group */
    if ((1 << in->cbsz) > d->B || in->abid >= (1 << in->cbsz))
      return emu_raise(w, in, EMU_FAULT_UNDEFINED, -1, 0,
                       "MFMA broadcast cbsz:%d abid:%d is undefined for a %d-block instruction (CDNA3 ISA §7.1.5.1: "
                       "1 << cbsz <= blocks, abid < 1 << cbsz)", in->cbsz, in->abid, d->B);
  }
  bool bcast = d->ta != T_F8F6F4 && d->kind == MK_DENSE && ta != T_F64 && (in->cbsz || in->blgp);
  int frc;
  if (!bcast && !in->neg && mfma_fast(w, in, d, ta, tb, &frc)) return frc;
  const int M = d->M, N = d->N, K = d->K, B = d->B;
  const bool f64 = ta == T_F64, i8 = ta == T_I8;
  const int H = f64 ? 1 : 4, BI = (64 + M * N / H - 1) / (M * N / H), MI = 64 / BI / N, G = M / (H * MI);
  const int dw = f64 ? 2 : 1, nout = M * N * B / 64 * dw; /* output registers */
  const int KLA = K * M * B / 64, KLB = K * N * B / 64;
  const int ci = d->kind == MK_SPARSE ? 0 : 3; /* operand holding C (sparse forms: vdst) */
  const emu_opnd *od = &in->o[0], *oc = &in->o[ci];
  if (od->n < nout || ((oc->kind == EMU_OPK_VGPR || oc->kind == EMU_OPK_AGPR) && oc->n < nout))
    return emu_raise(w, in, "unimplemented", -1, 0, "MFMA C/D needs %d registers", nout);

  /* all operands are read into temporaries before anything is written (D may alias A, B or C) */
  static _Thread_local union { float f[MAXITEM * 64]; int32_t i[MAXITEM * 64]; double d[MAXITEM * 64]; } A, Bm;
  uint32_t out[64 * 32];
  if (d->kind == MK_SPARSE ? !sparse_expand(w, in, ta, KLA, &A) : !convert(w, in, 1, ta, KLA, &A)) return EMU_FAULT;
  if (!convert(w, in, 2, tb, KLB, &Bm)) return EMU_FAULT;
  if (d->kind == MK_SCALE) apply_scale(w, in, 4, KLA, A.f), apply_scale(w, in, 5, KLB, Bm.f);
  if (bcast) broadcast(in, KLA, KLB, &A, &Bm, f64 ? 8 : 4);
  if (in->neg) { /* f64: BLGP[0] negates A, [1] B (C below) */
    for (int t = 0; t < KLA * 64 && (in->neg & 1); t++) A.d[t] = -A.d[t];
    for (int t = 0; t < KLB * 64 && (in->neg & 2); t++) Bm.d[t] = -Bm.d[t];
  }
  /* where k lives (see "Operands are converted" above), per operand */
  int akt[128], akg[128], bkt[128], bkg[128];
  const bool sa = d->ta == T_F8F6F4 && type_bits[ta] == 8, sb = d->ta == T_F8F6F4 && type_bits[tb] == 8;
  /* powers of two: shifts and masks (the split only occurs with K = 64 or 128) */
  const int lK2 = K > 1 ? __builtin_ctz(K) - 1 : 0, lKLA = __builtin_ctz(KLA), lKLB = __builtin_ctz(KLB);
  for (int k = 0; k < K; k++) {
    int h = K > 1 ? k >> lK2 : 0, r = K > 1 ? k & ((K >> 1) - 1) : 0;
    akt[k] = sa ? 16 * h + (r & 15) : k & (KLA - 1), akg[k] = sa ? r >> 4 : k >> lKLA;
    bkt[k] = sb ? 16 * h + (r & 15) : k & (KLB - 1), bkg[k] = sb ? r >> 4 : k >> lKLB;
  }
  /* C: registers, or one constant for every element (inline constant / literal) */
  bool cconst = oc->kind != EMU_OPK_VGPR && oc->kind != EMU_OPK_AGPR;
  uint64_t cval = 0;
  if (cconst) {
    if (f64) {
      double t[64];
      emu_srcf64(w, in, ci, t);
      cval = emu_u64f(t[0]);
    } else {
      uint32_t t[64]; /* the operand's 32-bit value (inline float constants as f32 bits) */
      cval = emu_src32(w, in, ci, t)[0];
    }
  }
  /* powers of two: the C/D layout formula with shifts and masks */
  const int lH = __builtin_ctz(H), lHMI = __builtin_ctz(H * MI), lBI = __builtin_ctz(BI);
  for (int b = 0; b < B; b++) {
    int aoff[128], boff[128];
    for (int k = 0; k < K; k++)
      aoff[k] = akt[k] * 64 + M * (b + B * akg[k]), boff[k] = bkt[k] * 64 + N * (b + B * bkg[k]);
    /* rows i..i+3 together (independent accumulation chains; each row still sums k ascending) */
    for (int i0 = 0; i0 < M; i0 += 4) {
      uint32_t *dst[4];
      const uint32_t *c0[4], *c1[4];
      for (int q = 0; q < 4; q++) {
        int i = i0 + q;
        int item = ((i & (H - 1)) + H * ((i >> lHMI) + G * (b >> lBI))) * dw;
        int lb = N * (((i >> lH) & (MI - 1)) + MI * (b & (BI - 1)));
        dst[q] = &out[item * 64 + lb];
        c0[q] = cconst ? NULL : emu_vreg(w, in, ci, item) + lb;
        c1[q] = (cconst || !f64) ? NULL : emu_vreg(w, in, ci, item + 1) + lb;
      }
      if (f64) {
        for (int q = 0; q < 4; q++)
          for (int j = 0; j < N; j++) {
            double acc = cconst ? emu_f64(cval) : emu_f64((uint64_t)c0[q][j] | (uint64_t)c1[q][j] << 32);
            if (in->neg & 4) acc = -acc; /* BLGP[2]: C negated */
            for (int k = 0; k < K; k++) acc = fma(A.d[aoff[k] + i0 + q], Bm.d[boff[k] + j], acc);
            uint64_t u = emu_u64f(acc);
            dst[q][j] = (uint32_t)u;
            dst[q][64 + j] = (uint32_t)(u >> 32);
          }
      } else if (i8) {
        for (int q = 0; q < 4; q++) {
          uint32_t acc[32];
          for (int j = 0; j < N; j++) acc[j] = cconst ? (uint32_t)cval : c0[q][j];
          for (int k = 0; k < K; k++) {
            int32_t x = A.i[aoff[k] + i0 + q];
            const int32_t *bk = &Bm.i[boff[k]];
            for (int j = 0; j < N; j++) acc[j] += (uint32_t)(x * bk[j]);
          }
          cpn(dst[q], acc, N);
        }
      } else {
        float acc[4][32];
        for (int q = 0; q < 4; q++) {
          if (cconst) for (int j = 0; j < N; j++) acc[q][j] = emu_f32((uint32_t)cval);
          else cpn(acc[q], c0[q], N);
        }
        if (ta == T_F32) {
          for (int q = 0; q < 4; q++)
            for (int k = 0; k < K; k++) {
              float x = A.f[aoff[k] + i0 + q];
              const float *bk = &Bm.f[boff[k]];
              for (int j = 0; j < N; j++) acc[q][j] = fmaf(x, bk[j], acc[q][j]);
            }
        } else if (N == 16) {
          rows4_f_16(acc, A.f + i0, aoff, Bm.f, boff, K);
        } else if (N == 32) {
          rows4_f_32(acc, A.f + i0, aoff, Bm.f, boff, K);
        } else {
          rows4_f_4(acc, A.f + i0, aoff, Bm.f, boff, K);
        }
        for (int q = 0; q < 4; q++) cpn(dst[q], acc[q], N);
      }
    }
  }
  /* MFMA ignores EXEC: every lane of every D register is written */
  for (int r = 0; r < nout; r++) memcpy(emu_vreg(w, in, 0, r), &out[r * 64], 64 * 4);
  return EMU_OK;
}

#define MF(name, m, n, k, b, ta, tb)                                                             \
  static int op_##name(emu_wave *w, const emu_insn *in)                                          \
  {                                                                                              \
    static const mdesc d = {m, n, k, b, ta, tb, MK_DENSE};                                       \
    return mfma(w, in, &d);                                                                      \
  }
/* the 16 x 16 f16 forms: mfma16_f16 first (tables built: it reads fast_cpu) */
#define MF16(name, k)                                                                            \
  static int op_##name(emu_wave *w, const emu_insn *in)                                          \
  {                                                                                              \
    static const mdesc d = {16, 16, k, 1, T_F16, T_F16, MK_DENSE};                               \
    tables();                                                                                    \
    return mfma16_f16(w, in, k) ? EMU_OK : mfma(w, in, &d);                                      \
  }
/* CDNA3 ISA §7.1 / Table "MFMA opcodes" (gfx942 and gfx950) */
MF(v_mfma_f32_32x32x1_2b_f32, 32, 32, 1, 2, T_F32, T_F32)
MF(v_mfma_f32_16x16x1_4b_f32, 16, 16, 1, 4, T_F32, T_F32)
MF(v_mfma_f32_4x4x1_16b_f32, 4, 4, 1, 16, T_F32, T_F32)
MF(v_mfma_f32_32x32x2_f32, 32, 32, 2, 1, T_F32, T_F32)
MF(v_mfma_f32_16x16x4_f32, 16, 16, 4, 1, T_F32, T_F32)
MF(v_mfma_f32_32x32x4_2b_f16, 32, 32, 4, 2, T_F16, T_F16)
MF(v_mfma_f32_16x16x4_4b_f16, 16, 16, 4, 4, T_F16, T_F16)
MF(v_mfma_f32_4x4x4_16b_f16, 4, 4, 4, 16, T_F16, T_F16)
MF(v_mfma_f32_32x32x8_f16, 32, 32, 8, 1, T_F16, T_F16)
MF16(v_mfma_f32_16x16x16_f16, 16)
/* bf16: the gfx90a "_1k" forms, named without the suffix on gfx940+ */
MF(v_mfma_f32_32x32x4_2b_bf16, 32, 32, 4, 2, T_BF16, T_BF16)
MF(v_mfma_f32_16x16x4_4b_bf16, 16, 16, 4, 4, T_BF16, T_BF16)
MF(v_mfma_f32_4x4x4_16b_bf16, 4, 4, 4, 16, T_BF16, T_BF16)
MF(v_mfma_f32_32x32x8_bf16, 32, 32, 8, 1, T_BF16, T_BF16)
MF(v_mfma_f32_16x16x16_bf16, 16, 16, 16, 1, T_BF16, T_BF16)
MF(v_mfma_i32_32x32x4_2b_i8, 32, 32, 4, 2, T_I8, T_I8)
MF(v_mfma_i32_16x16x4_4b_i8, 16, 16, 4, 4, T_I8, T_I8)
MF(v_mfma_i32_4x4x4_16b_i8, 4, 4, 4, 16, T_I8, T_I8)
MF(v_mfma_i32_32x32x16_i8, 32, 32, 16, 1, T_I8, T_I8)
MF(v_mfma_i32_16x16x32_i8, 16, 16, 32, 1, T_I8, T_I8)
MF(v_mfma_f64_16x16x4_f64, 16, 16, 4, 1, T_F64, T_F64)
MF(v_mfma_f64_4x4x4_4b_f64, 4, 4, 4, 4, T_F64, T_F64)
MF(v_mfma_f32_16x16x32_fp8_fp8, 16, 16, 32, 1, T_FP8, T_FP8)
MF(v_mfma_f32_16x16x32_fp8_bf8, 16, 16, 32, 1, T_FP8, T_BF8)
MF(v_mfma_f32_16x16x32_bf8_fp8, 16, 16, 32, 1, T_BF8, T_FP8)
MF(v_mfma_f32_16x16x32_bf8_bf8, 16, 16, 32, 1, T_BF8, T_BF8)
MF(v_mfma_f32_32x32x16_fp8_fp8, 32, 32, 16, 1, T_FP8, T_FP8)
MF(v_mfma_f32_32x32x16_fp8_bf8, 32, 32, 16, 1, T_FP8, T_BF8)
MF(v_mfma_f32_32x32x16_bf8_fp8, 32, 32, 16, 1, T_BF8, T_FP8)
MF(v_mfma_f32_32x32x16_bf8_bf8, 32, 32, 16, 1, T_BF8, T_BF8)
/* gfx950 only (CDNA4 ISA §7.1) */
MF16(v_mfma_f32_16x16x32_f16, 32)
MF(v_mfma_f32_32x32x16_f16, 32, 32, 16, 1, T_F16, T_F16)
MF(v_mfma_f32_16x16x32_bf16, 16, 16, 32, 1, T_BF16, T_BF16)
MF(v_mfma_f32_32x32x16_bf16, 32, 32, 16, 1, T_BF16, T_BF16)
MF(v_mfma_i32_16x16x64_i8, 16, 16, 64, 1, T_I8, T_I8)
MF(v_mfma_i32_32x32x32_i8, 32, 32, 32, 1, T_I8, T_I8)
MF(v_mfma_f32_16x16x128_f8f6f4, 16, 16, 128, 1, T_F8F6F4, T_F8F6F4)
MF(v_mfma_f32_32x32x64_f8f6f4, 32, 32, 64, 1, T_F8F6F4, T_F8F6F4)

#define MFK(name, m, n, k, ta, tb, kind)                                                         \
  static int op_##name(emu_wave *w, const emu_insn *in)                                          \
  {                                                                                              \
    static const mdesc d = {m, n, k, 1, ta, tb, kind};                                           \
    return mfma(w, in, &d);                                                                      \
  }
/* block-scaled f8f6f4 (gfx950, CDNA4 ISA §7.x; LLVM mai-gfx950.s): see apply_scale */
MFK(v_mfma_scale_f32_16x16x128_f8f6f4, 16, 16, 128, T_F8F6F4, T_F8F6F4, MK_SCALE)
MFK(v_mfma_scale_f32_32x32x64_f8f6f4, 32, 32, 64, T_F8F6F4, T_F8F6F4, MK_SCALE)
/* sparse A (CDNA3 ISA §7.1; gfx950 adds the doubled-K forms): see sparse_expand. K is the dense K. */
#define SMF(name, m, n, k, ta, tb) MFK(name, m, n, k, ta, tb, MK_SPARSE)
SMF(v_smfmac_f32_16x16x32_f16, 16, 16, 32, T_F16, T_F16)
SMF(v_smfmac_f32_32x32x16_f16, 32, 32, 16, T_F16, T_F16)
SMF(v_smfmac_f32_16x16x32_bf16, 16, 16, 32, T_BF16, T_BF16)
SMF(v_smfmac_f32_32x32x16_bf16, 32, 32, 16, T_BF16, T_BF16)
SMF(v_smfmac_i32_16x16x64_i8, 16, 16, 64, T_I8, T_I8)
SMF(v_smfmac_i32_32x32x32_i8, 32, 32, 32, T_I8, T_I8)
SMF(v_smfmac_f32_16x16x64_fp8_fp8, 16, 16, 64, T_FP8, T_FP8)
SMF(v_smfmac_f32_16x16x64_fp8_bf8, 16, 16, 64, T_FP8, T_BF8)
SMF(v_smfmac_f32_16x16x64_bf8_fp8, 16, 16, 64, T_BF8, T_FP8)
SMF(v_smfmac_f32_16x16x64_bf8_bf8, 16, 16, 64, T_BF8, T_BF8)
SMF(v_smfmac_f32_32x32x32_fp8_fp8, 32, 32, 32, T_FP8, T_FP8)
SMF(v_smfmac_f32_32x32x32_fp8_bf8, 32, 32, 32, T_FP8, T_BF8)
SMF(v_smfmac_f32_32x32x32_bf8_fp8, 32, 32, 32, T_BF8, T_FP8)
SMF(v_smfmac_f32_32x32x32_bf8_bf8, 32, 32, 32, T_BF8, T_BF8)
SMF(v_smfmac_f32_16x16x64_f16, 16, 16, 64, T_F16, T_F16)
SMF(v_smfmac_f32_32x32x32_f16, 32, 32, 32, T_F16, T_F16)
SMF(v_smfmac_f32_16x16x64_bf16, 16, 16, 64, T_BF16, T_BF16)
SMF(v_smfmac_f32_32x32x32_bf16, 32, 32, 32, T_BF16, T_BF16)
SMF(v_smfmac_i32_16x16x128_i8, 16, 16, 128, T_I8, T_I8)
SMF(v_smfmac_i32_32x32x64_i8, 32, 32, 64, T_I8, T_I8)
SMF(v_smfmac_f32_16x16x128_fp8_fp8, 16, 16, 128, T_FP8, T_FP8)
SMF(v_smfmac_f32_16x16x128_fp8_bf8, 16, 16, 128, T_FP8, T_BF8)
SMF(v_smfmac_f32_16x16x128_bf8_fp8, 16, 16, 128, T_BF8, T_FP8)
SMF(v_smfmac_f32_16x16x128_bf8_bf8, 16, 16, 128, T_BF8, T_BF8)
SMF(v_smfmac_f32_32x32x64_fp8_fp8, 32, 32, 64, T_FP8, T_FP8)
SMF(v_smfmac_f32_32x32x64_fp8_bf8, 32, 32, 64, T_FP8, T_BF8)
SMF(v_smfmac_f32_32x32x64_bf8_fp8, 32, 32, 64, T_BF8, T_FP8)
SMF(v_smfmac_f32_32x32x64_bf8_bf8, 32, 32, 64, T_BF8, T_BF8)

/* ---- AGPR moves (CDNA3 ISA §12.x VOP3P "V_ACCVGPR_READ/WRITE", VOP1 "V_ACCVGPR_MOV"): ordinary
 * VALU moves between the VGPR and AGPR halves of the unified file, under EXEC. */
static int op_v_accvgpr_mov(emu_wave *w, const emu_insn *in)
{
  uint32_t t[64];
  emu_dst32(w, in, 0, emu_src32(w, in, 1, t));
  return EMU_OK;
}

/* every MFMA rests on the accumulation order and width lanelab chose (EMU_CH_MFMA_ORDER, see the
 * "Arithmetic" note at the top); the scaled and sparse forms on their own choices too */
#define ROW(name, flags) {#name, op_##name, EMU_F_MFMA | EMU_F_C(EMU_CH_MFMA_ORDER) | (flags)},
const emu_opdef emu_optab_mfma[] = {
    ROW(v_mfma_f32_32x32x1_2b_f32, 0) ROW(v_mfma_f32_16x16x1_4b_f32, 0)
    ROW(v_mfma_f32_4x4x1_16b_f32, 0) ROW(v_mfma_f32_32x32x2_f32, 0) ROW(v_mfma_f32_16x16x4_f32, 0)
    ROW(v_mfma_f32_32x32x4_2b_f16, 0) ROW(v_mfma_f32_16x16x4_4b_f16, 0)
    ROW(v_mfma_f32_4x4x4_16b_f16, 0) ROW(v_mfma_f32_32x32x8_f16, 0) ROW(v_mfma_f32_16x16x16_f16, 0)
    ROW(v_mfma_f32_32x32x4_2b_bf16, 0) ROW(v_mfma_f32_16x16x4_4b_bf16, 0)
    ROW(v_mfma_f32_4x4x4_16b_bf16, 0) ROW(v_mfma_f32_32x32x8_bf16, 0)
    ROW(v_mfma_f32_16x16x16_bf16, 0) ROW(v_mfma_i32_32x32x4_2b_i8, 0)
    ROW(v_mfma_i32_16x16x4_4b_i8, 0) ROW(v_mfma_i32_4x4x4_16b_i8, 0) ROW(v_mfma_i32_32x32x16_i8, 0)
    ROW(v_mfma_i32_16x16x32_i8, 0) ROW(v_mfma_f64_16x16x4_f64, 0) ROW(v_mfma_f64_4x4x4_4b_f64, 0)
    ROW(v_mfma_f32_16x16x32_fp8_fp8, 0) ROW(v_mfma_f32_16x16x32_fp8_bf8, 0)
    ROW(v_mfma_f32_16x16x32_bf8_fp8, 0) ROW(v_mfma_f32_16x16x32_bf8_bf8, 0)
    ROW(v_mfma_f32_32x32x16_fp8_fp8, 0) ROW(v_mfma_f32_32x32x16_fp8_bf8, 0)
    ROW(v_mfma_f32_32x32x16_bf8_fp8, 0) ROW(v_mfma_f32_32x32x16_bf8_bf8, 0)
    ROW(v_mfma_f32_16x16x32_f16, EMU_F_GFX950) ROW(v_mfma_f32_32x32x16_f16, EMU_F_GFX950)
    ROW(v_mfma_f32_16x16x32_bf16, EMU_F_GFX950) ROW(v_mfma_f32_32x32x16_bf16, EMU_F_GFX950)
    ROW(v_mfma_i32_16x16x64_i8, EMU_F_GFX950) ROW(v_mfma_i32_32x32x32_i8, EMU_F_GFX950)
    ROW(v_mfma_f32_16x16x128_f8f6f4, EMU_F_GFX950) ROW(v_mfma_f32_32x32x64_f8f6f4, EMU_F_GFX950)
    ROW(v_mfma_scale_f32_16x16x128_f8f6f4, EMU_F_GFX950 | EMU_F_C(EMU_CH_MFMA_SCALE)) ROW(v_mfma_scale_f32_32x32x64_f8f6f4, EMU_F_GFX950 | EMU_F_C(EMU_CH_MFMA_SCALE))
    ROW(v_smfmac_f32_16x16x32_f16, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x16_f16, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x32_bf16, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x16_bf16, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_i32_16x16x64_i8, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_i32_32x32x32_i8, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x64_fp8_fp8, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_16x16x64_fp8_bf8, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x64_bf8_fp8, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_16x16x64_bf8_bf8, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_32x32x32_fp8_fp8, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x32_fp8_bf8, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_32x32x32_bf8_fp8, 0 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x32_bf8_bf8, 0 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x64_f16, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x32_f16, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x64_bf16, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x32_bf16, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_i32_16x16x128_i8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_i32_32x32x64_i8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x128_fp8_fp8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_16x16x128_fp8_bf8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_16x16x128_bf8_fp8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_16x16x128_bf8_bf8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_32x32x64_fp8_fp8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x64_fp8_bf8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    ROW(v_smfmac_f32_32x32x64_bf8_fp8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC)) ROW(v_smfmac_f32_32x32x64_bf8_bf8, EMU_F_GFX950 | EMU_F_C(EMU_CH_SMFMAC))
    {"v_accvgpr_read_b32", op_v_accvgpr_mov, EMU_F_VALU},
    {"v_accvgpr_write_b32", op_v_accvgpr_mov, EMU_F_VALU},
    {"v_accvgpr_mov_b32", op_v_accvgpr_mov, EMU_F_VALU},
    {NULL, NULL, 0},
};
