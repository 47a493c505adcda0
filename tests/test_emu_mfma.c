/* Tests for the emulator's MFMA family (emu/op_mfma.c) on gfx942 and gfx950.
 *
 * Each case assembles one MFMA with llvm-mc-22, decodes it with the emulator's decoder and runs it
 * on a hand-built wave (tests/emu_snippets/snippet.h). Inputs are pseudo-random element codes;
 * they are placed into registers, and the expected D computed, from rules written here
 * independently of the emulator:
 *   - element values from the format definitions (integer significand times a power of two);
 *   - operand layout: the single-block rule of docs/isa.md (A[i][k]: item k%K_L of lane
 *     i + M*(k/K_L)), extended to blocks as lane i + M*(b + B*(k/K_L)) (AMD matrix calculator), and
 *     for gfx950 f8f6f4 fp8/bf8 operands the two-16-byte-halves load pattern of AMD's CDNA4 article
 *     (lane L: A[L%M][16*(L/M) + h*K/2 + j] at byte 16h + j);
 *   - C/D layout: the docs/isa.md table for 16x16 / 32x32 / f64 16x16, and per-shape rules for the
 *     multi-block shapes;
 *   - D = C + sum_k A*B in double, compared within K*2^-23 (f32 accumulate) or K*2^-52 (f64) of the
 *     sum of |terms|; exactly for i8.
 * No expected value comes from running the emulator. */
#include <time.h>

#include "tests/emu_snippets/snippet.h"

enum { TF32, TF16, TBF16, TI8, TF64, TFP8, TBF8, TFP6, TBF6, TFP4 };
static const int tbits[] = {32, 16, 16, 8, 64, 8, 8, 6, 6, 4};

typedef struct mcase {
  const char *name;
  int M, N, K, B, ta, tb;
  int cbsz, blgp; /* f8f6f4 format codes */
} mcase;

/* ---- element values from the format definitions ---------------------------------------------*/
static double pw2(int e) { return ldexp(1.0, e); }
static double val(int t, uint64_t c, emu_arch arch)
{
  bool ocp = arch == EMU_GFX950;
  double sgn;
  unsigned e, m;
  switch (t) {
  case TF32: { float f; uint32_t u = (uint32_t)c; memcpy(&f, &u, 4); return f; }
  case TF64: { double d; memcpy(&d, &c, 8); return d; }
  case TBF16: { float f; uint32_t u = (uint32_t)c << 16; memcpy(&f, &u, 4); return f; }
  case TI8: return (int8_t)c;
  case TF16: /* binary16: bias 15, 10 fraction bits */
    sgn = c >> 15 ? -1 : 1, e = c >> 10 & 31, m = c & 1023;
    return sgn * (e ? (1024 + m) * pw2((int)e - 25) : m * pw2(-24));
  case TFP8: /* E4M3: bias 8 (FNUZ, gfx942) or 7 (OCP, gfx950) */
    sgn = c >> 7 ? -1 : 1, e = c >> 3 & 15, m = c & 7;
    return sgn * (e ? (8 + m) * pw2((int)e - (ocp ? 7 : 8) - 3) : m * pw2(1 - (ocp ? 7 : 8) - 3));
  case TBF8: /* E5M2: bias 16 (FNUZ) or 15 (OCP) */
    sgn = c >> 7 ? -1 : 1, e = c >> 2 & 31, m = c & 3;
    return sgn * (e ? (4 + m) * pw2((int)e - (ocp ? 15 : 16) - 2) : m * pw2(1 - (ocp ? 15 : 16) - 2));
  case TFP6: /* E2M3 bias 1 */
    sgn = c >> 5 ? -1 : 1, e = c >> 3 & 3, m = c & 7;
    return sgn * (e ? (8 + m) * pw2((int)e - 1 - 3) : m * pw2(-3));
  case TBF6: /* E3M2 bias 3 */
    sgn = c >> 5 ? -1 : 1, e = c >> 2 & 7, m = c & 3;
    return sgn * (e ? (4 + m) * pw2((int)e - 3 - 2) : m * pw2(1 - 3 - 2));
  case TFP4: /* E2M1 bias 1 */
    sgn = c >> 3 ? -1 : 1, e = c >> 1 & 3, m = c & 1;
    return sgn * (e ? (2 + m) * pw2((int)e - 1 - 1) : m * pw2(-1));
  }
  return NAN;
}

/* a random finite code; f16 includes subnormals (exponent field 0) */
static uint64_t rnd_code(int t, uint32_t *st, emu_arch arch)
{
  uint32_t r = sn_rand(st);
  bool ocp = arch == EMU_GFX950;
  switch (t) {
  case TF32: return (uint32_t)(r & 0x807fffff) | (uint32_t)(120 + r % 14) << 23;
  case TF64: return (uint64_t)(r & 0x80000000) << 32 | (uint64_t)(1016 + r % 14) << 52 | (uint64_t)sn_rand(st) << 20;
  case TBF16: return (r & 0x807f) | (118 + (r >> 8) % 18) << 7;
  case TF16: { uint32_t e = (r >> 16) % 20; e = e < 2 ? 0 : e; return (r & 0x83ff) | e << 10; }
  case TI8: return r & 0xff;
  case TFP8: for (;; r = sn_rand(st)) { uint32_t c = r & 0xff; if (ocp ? (c & 0x7f) != 0x7f : c != 0x80) return c; }
  case TBF8: for (;; r = sn_rand(st)) { uint32_t c = r & 0xff; if (ocp ? (c >> 2 & 31) != 31 : c != 0x80) return c; }
  case TFP6: case TBF6: return r & 63;
  case TFP4: return r & 15;
  }
  return 0;
}

/* ---- layouts (see the header comment) -------------------------------------------------------*/
static bool split_fp8(const mcase *c, int t) { return c->ta < 0 && tbits[t] == 8; }

/* lane and item holding A[b][i][k] (isA) or B[b][k][j] (row = j) */
static void in_pos(const mcase *c, int t, bool isA, int b, int row, int k, int *lane, int *item)
{
  int MN = isA ? c->M : c->N, KL = c->K * MN * c->B / 64;
  if (split_fp8(c, t)) { /* lane L holds row L%MN, k = 16*(L/MN) + h*K/2 + j at item 16h + j */
    int h = k / (c->K / 2), r = k % (c->K / 2);
    *lane = row + MN * (r / 16);
    *item = 16 * h + r % 16;
    return;
  }
  *lane = row + MN * (b + c->B * (k / KL));
  *item = k % KL;
}

/* register (dword index) and lane holding D[b][i][j] */
static void out_pos(const mcase *c, bool f64, int b, int i, int j, int *reg, int *lane)
{
  int M = c->M;
  if (f64 && M == 16) { *lane = j + 16 * (i % 4); *reg = 2 * (i / 4); return; }        /* docs/isa.md */
  if (f64 && M == 4) { *lane = j + 4 * i + 16 * b; *reg = 0; return; }                  /* 4 blocks */
  if (M == 16) { *lane = j + 16 * (i / 4); *reg = i % 4 + 4 * b; return; }             /* docs/isa.md */
  if (M == 32) { *lane = j + 32 * ((i / 4) % 2); *reg = 4 * (i / 8) + i % 4 + 16 * b; return; } /* docs/isa.md */
  *lane = j + 4 * b; /* 4x4, 16 blocks: each block's 4x4 in 4 lanes x 4 registers */
  *reg = i;
}

static void put_item(snip *s, int base, int lane, int item, int bits, uint64_t code)
{
  int bit = item * bits;
  for (int q = 0; q < bits; q++, bit++) {
    uint32_t *r = sn_v(s, base + bit / 32) + lane;
    *r = (*r & ~(1u << (bit % 32))) | (uint32_t)(code >> q & 1) << (bit % 32);
  }
}

/* ---- one case ----------------------------------------------------------------------------------*/
static int nregs_in(const mcase *c, int t, bool isA)
{
  int MN = isA ? c->M : c->N;
  return (c->K * MN * c->B / 64 * tbits[t] + 31) / 32;
}

/* Scaled and sparse forms (gfx950 v_mfma_scale_*, v_smfmac_* on both arches):
 *   - scale: operands 4/5 are v64/v65 with a random E8M0 byte per lane in every byte; the byte
 *     sel = op_sel[i] | op_sel_hi[i] << 1 scales, as 2^(e-127), every element the lane holds (for
 *     fp4/fp6 that is the MX block of 32 k of one row; CDNA4 ISA, LLVM's op_sel printing);
 *   - sparse: A (M x K, dense K) is 2:4 sparse; lane i + M*g (g = k / K_L, K_L = K*M/64 dense k
 *     per lane) stores K_L/2 values, value s at dense k = K_L*g + 4*(s/2) + idx_s where idx_s is
 *     the 2-bit field at bit abid*K_L + 2*s of the index VGPR v66 (operand 3); C is vdst. */
typedef struct mextra {
  int kind; /* 0 dense, 1 scale, 2 sparse */
  int sela, selb, abid;
} mextra;

static double e8m0(unsigned e) { return ldexp(1.0, (int)e - 127); }

/* The tests that sweep many instruction texts run through sn_with_prefill
 * (tests/emu_snippets/snippet.h): one llvm-mc run for all their texts, not one per text. */
static void run_case_x(const mcase *c, emu_arch arch, bool agpr_dst, bool c_zero_const, uint32_t seed,
                       const mextra *x)
{
  int ta = c->ta, tb = c->tb;
  static const int f8[] = {TFP8, TBF8, TFP6, TBF6, TFP4};
  if (ta < 0) ta = f8[c->cbsz], tb = f8[c->blgp];
  bool f64 = ta == TF64, i8 = ta == TI8;
  int kind = x ? x->kind : 0;
  int M = c->M, N = c->N, K = c->K, B = c->B;
  int na = nregs_in(c, ta, true), nb = nregs_in(c, tb, false), nout = M * N * B / 64 * (f64 ? 2 : 1);
  if (kind == 2) na = (na + 1) / 2;
  char dst[32], src[32], mods[80] = "";
  if (agpr_dst) snprintf(dst, sizeof dst, "a[0:%d]", nout - 1);
  else snprintf(dst, sizeof dst, "v[32:%d]", 32 + nout - 1);
  snprintf(src, sizeof src, "%s", c_zero_const ? "0" : dst);
  if (kind == 1)
    snprintf(mods, sizeof mods, ", v64, v65 op_sel:[%d,%d,0] op_sel_hi:[%d,%d,0] cbsz:%d blgp:%d", x->sela & 1,
             x->selb & 1, x->sela >> 1, x->selb >> 1, c->cbsz, c->blgp);
  else if (c->ta < 0 && (c->cbsz || c->blgp)) snprintf(mods, sizeof mods, " cbsz:%d blgp:%d", c->cbsz, c->blgp);
  char *text = kind == 2 ? ll_fmt("%s %s, v[0:%d], v[16:%d], v66 abid:%d\ns_endpgm", c->name, dst, na - 1, 16 + nb - 1, x->abid)
                         : ll_fmt("%s %s, v[0:%d], v[16:%d], %s%s\ns_endpgm", c->name, dst, na - 1, 16 + nb - 1, src, mods);
  if (sn_collecting) { sn_note(arch, text); free(text); return; }
  snip *s = sn_new(arch, text);
  cr_assert_eq(s->p->insns[0].implemented, true, "%s: %s", text, s->p->insns[0].why);

  uint32_t st = seed;
  size_t nA = (size_t)B * M * K, nB = (size_t)B * K * N, nC = (size_t)B * M * N;
  double *A = ll_xcalloc(nA, sizeof *A), *Bv = ll_xcalloc(nB, sizeof *Bv), *C = ll_xcalloc(nC, sizeof *C);
  if (kind == 1) /* random scale bytes 127-6 .. 127+6 in every byte of every lane */
    for (int l = 0; l < 64; l++)
      for (int r = 64; r <= 65; r++) {
        uint32_t v = 0;
        for (int q = 0; q < 4; q++) v |= (121u + sn_rand(&st) % 13) << (8 * q);
        sn_v(s, r)[l] = v;
      }
  if (kind == 2) { /* sparse A: two of every four dense k per lane, random positions */
    int KL = K * M / 64;
    for (int l = 0; l < 64; l++) sn_v(s, 66)[l] = sn_rand(&st); /* the other index sets: noise */
    for (int i = 0; i < M; i++)
      for (int g = 0; g < K / KL; g++) {
        int lane = i + M * g;
        uint32_t *ix = &sn_v(s, 66)[lane];
        for (int q = 0; q < KL / 4; q++) {
          int p0 = (int)(sn_rand(&st) % 4), p1 = (p0 + 1 + (int)(sn_rand(&st) % 3)) % 4, p[2] = {p0, p1};
          for (int r = 0; r < 2; r++) {
            int sidx = 2 * q + r, bit = x->abid * KL + 2 * sidx;
            uint64_t code = rnd_code(ta, &st, arch);
            put_item(s, 0, lane, sidx, tbits[ta], code);
            *ix = (*ix & ~(3u << bit)) | (uint32_t)p[r] << bit;
            A[(size_t)i * K + KL * g + 4 * q + p[r]] = val(ta, code, arch);
          }
        }
      }
  }
  for (int b = 0; b < B && kind != 2; b++)
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        uint64_t code = rnd_code(ta, &st, arch);
        int lane, item;
        in_pos(c, ta, true, b, i, k, &lane, &item);
        put_item(s, 0, lane, item, tbits[ta], code);
        A[((size_t)b * M + i) * K + k] = val(ta, code, arch) * (kind == 1 ? e8m0(sn_v(s, 64)[lane] >> (8 * x->sela) & 0xff) : 1);
      }
  for (int b = 0; b < B; b++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++) {
        uint64_t code = rnd_code(tb, &st, arch);
        int lane, item;
        in_pos(c, tb, false, b, j, k, &lane, &item);
        put_item(s, 16, lane, item, tbits[tb], code);
        Bv[((size_t)b * K + k) * N + j] = val(tb, code, arch) * (kind == 1 ? e8m0(sn_v(s, 65)[lane] >> (8 * x->selb) & 0xff) : 1);
      }
  for (int b = 0; b < B; b++)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        int reg, lane;
        out_pos(c, f64, b, i, j, &reg, &lane);
        uint32_t *base = agpr_dst ? sn_a(s, 0) : sn_v(s, 32);
        double cv = 0;
        if (!c_zero_const) {
          if (f64) {
            uint64_t code = rnd_code(TF64, &st, arch);
            base[reg * 64 + lane] = (uint32_t)code, base[(reg + 1) * 64 + lane] = (uint32_t)(code >> 32);
            cv = val(TF64, code, arch);
          } else if (i8) {
            int32_t x = (int32_t)(sn_rand(&st) % 20001) - 10000;
            base[reg * 64 + lane] = (uint32_t)x, cv = x;
          } else {
            uint32_t code = (uint32_t)rnd_code(TF32, &st, arch);
            base[reg * 64 + lane] = code, cv = val(TF32, code, arch);
          }
        }
        C[((size_t)b * M + i) * N + j] = cv;
      }
  sn_exec(s, 0x5); /* MFMA ignores EXEC: every lane must still be written */
  cr_assert_eq(sn_run(s), EMU_OK, "%s: %s", text, s->f.msg);

  int bad = 0;
  for (int b = 0; b < B; b++)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double e = C[((size_t)b * M + i) * N + j], mag = fabs(e);
        for (int k = 0; k < K; k++) {
          double p = A[((size_t)b * M + i) * K + k] * Bv[((size_t)b * K + k) * N + j];
          e += p, mag += fabs(p);
        }
        int reg, lane;
        out_pos(c, f64, b, i, j, &reg, &lane);
        const uint32_t *base = agpr_dst ? sn_a(s, 0) : sn_v(s, 32);
        double got;
        if (f64) got = val(TF64, (uint64_t)base[reg * 64 + lane] | (uint64_t)base[(reg + 1) * 64 + lane] << 32, arch);
        else if (i8) got = (int32_t)base[reg * 64 + lane];
        else got = val(TF32, base[reg * 64 + lane], arch);
        double tol = i8 ? 0 : K * (f64 ? 0x1p-52 : 0x1p-23) * mag + (f64 ? 0 : 0x1p-140);
        if (!(fabs(got - e) <= tol) && bad++ < 5)
          cr_log_error("%s %s D[%d][%d][%d] (reg %d lane %d) = %.9g, expected %.9g (tol %.3g)", emu_arch_name(arch),
                       c->name, b, i, j, reg, lane, got, e, tol);
      }
  cr_expect_eq(bad, 0, "%s on %s%s: %d of %zu elements wrong", text, emu_arch_name(arch),
               agpr_dst ? " (AGPR C/D)" : "", bad, nC);
  free(A), free(Bv), free(C), free(text);
  sn_free(s);
}

static void run_case(const mcase *c, emu_arch arch, bool agpr_dst, bool c_zero_const, uint32_t seed)
{
  run_case_x(c, arch, agpr_dst, c_zero_const, seed, NULL);
}

/* ---- the instruction list ---------------------------------------------------------------------*/
static const mcase both[] = {
    {"v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, TF32, TF32, 0, 0},
    {"v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, TF32, TF32, 0, 0},
    {"v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, TF32, TF32, 0, 0},
    {"v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, TF32, TF32, 0, 0},
    {"v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, TF32, TF32, 0, 0},
    {"v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, TF16, TF16, 0, 0},
    {"v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, TF16, TF16, 0, 0},
    {"v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, TF16, TF16, 0, 0},
    {"v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, TF16, TF16, 0, 0},
    {"v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, TF16, TF16, 0, 0},
    {"v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, TBF16, TBF16, 0, 0},
    {"v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, TBF16, TBF16, 0, 0},
    {"v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, TBF16, TBF16, 0, 0},
    {"v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, TBF16, TBF16, 0, 0},
    {"v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, TBF16, TBF16, 0, 0},
    {"v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, TI8, TI8, 0, 0},
    {"v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, TI8, TI8, 0, 0},
    {"v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, TI8, TI8, 0, 0},
    {"v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, TI8, TI8, 0, 0},
    {"v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, TI8, TI8, 0, 0},
    {"v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, TF64, TF64, 0, 0},
    {"v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, TF64, TF64, 0, 0},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 1, TFP8, TFP8, 0, 0},
    {"v_mfma_f32_16x16x32_fp8_bf8", 16, 16, 32, 1, TFP8, TBF8, 0, 0},
    {"v_mfma_f32_16x16x32_bf8_fp8", 16, 16, 32, 1, TBF8, TFP8, 0, 0},
    {"v_mfma_f32_16x16x32_bf8_bf8", 16, 16, 32, 1, TBF8, TBF8, 0, 0},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 1, TFP8, TFP8, 0, 0},
    {"v_mfma_f32_32x32x16_fp8_bf8", 32, 32, 16, 1, TFP8, TBF8, 0, 0},
    {"v_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16, 1, TBF8, TFP8, 0, 0},
    {"v_mfma_f32_32x32x16_bf8_bf8", 32, 32, 16, 1, TBF8, TBF8, 0, 0},
};
static const mcase only950[] = {
    {"v_mfma_f32_16x16x32_f16", 16, 16, 32, 1, TF16, TF16, 0, 0},
    {"v_mfma_f32_32x32x16_f16", 32, 32, 16, 1, TF16, TF16, 0, 0},
    {"v_mfma_f32_16x16x32_bf16", 16, 16, 32, 1, TBF16, TBF16, 0, 0},
    {"v_mfma_f32_32x32x16_bf16", 32, 32, 16, 1, TBF16, TBF16, 0, 0},
    {"v_mfma_i32_16x16x64_i8", 16, 16, 64, 1, TI8, TI8, 0, 0},
    {"v_mfma_i32_32x32x32_i8", 32, 32, 32, 1, TI8, TI8, 0, 0},
};

static void run_list(const mcase *l, size_t n, emu_arch arch)
{
  for (size_t i = 0; i < n; i++) {
    run_case(&l[i], arch, true, false, 0x1234567u + (uint32_t)i);
    run_case(&l[i], arch, false, false, 0x7654321u + (uint32_t)i);
  }
}

static void dense_942(const void *u) { run_list(both, sizeof both / sizeof both[0], EMU_GFX942); }
static void dense_950(const void *u) { run_list(both, sizeof both / sizeof both[0], EMU_GFX950); }
Test(emu_mfma, dense_gfx942) { sn_with_prefill(dense_942, NULL); }
Test(emu_mfma, dense_gfx950) { sn_with_prefill(dense_950, NULL); }
Test(emu_mfma, gfx950_only_shapes) { run_list(only950, sizeof only950 / sizeof only950[0], EMU_GFX950); }

/* C given as the inline constant 0, as clang emits for a zero accumulator */
Test(emu_mfma, c_inline_zero)
{
  run_case(&both[9], EMU_GFX942, false, true, 99);
  run_case(&both[8], EMU_GFX950, true, true, 98);
  run_case(&both[19], EMU_GFX942, true, true, 97);
}

/* gfx950 f8f6f4: every A/B format pair (cbsz = A format, blgp = B format: fp8 bf8 fp6 bf6 fp4) */
static void f8f6f4_body(const void *u)
{
  for (int ca = 0; ca < 5; ca++)
    for (int cb = 0; cb < 5; cb++) {
      mcase c16 = {"v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, 1, -1, -1, ca, cb};
      mcase c32 = {"v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64, 1, -1, -1, ca, cb};
      run_case(&c16, EMU_GFX950, (ca + cb) & 1, false, 1000u + 5u * ca + cb);
      run_case(&c32, EMU_GFX950, !((ca + cb) & 1), false, 2000u + 5u * ca + cb);
    }
}
Test(emu_mfma, f8f6f4_formats) { sn_with_prefill(f8f6f4_body, NULL); }

/* the element decoders: a few hand-checked codes (independent of the random tests) */
Test(emu_mfma, element_formats_by_hand)
{
  cr_assert_eq(val(TF16, 0x3c00, EMU_GFX942), 1.0);
  cr_assert_eq(val(TF16, 0x0001, EMU_GFX942), 0x1p-24);
  cr_assert_eq(val(TFP8, 0x40, EMU_GFX942), 1.0);  /* FNUZ E4M3: e=8, bias 8 */
  cr_assert_eq(val(TFP8, 0x38, EMU_GFX950), 1.0);  /* OCP E4M3: e=7, bias 7 */
  cr_assert_eq(val(TFP8, 0x7e, EMU_GFX950), 448.0); /* OCP E4M3 max */
  cr_assert_eq(val(TBF8, 0x3c, EMU_GFX950), 1.0);  /* E5M2 bias 15 */
  cr_assert_eq(val(TBF8, 0x40, EMU_GFX942), 1.0);  /* E5M2 FNUZ bias 16 */
  cr_assert_eq(val(TFP4, 0x7, EMU_GFX950), 6.0);
  cr_assert_eq(val(TFP6, 0x1f, EMU_GFX950), 7.5);  /* E2M3 max */
  cr_assert_eq(val(TBF6, 0x1f, EMU_GFX950), 28.0); /* E3M2 max */
}

/* a hand-computed instance: A = all 1.0 (f16 0x3c00), B[k][j] = k (exact), C = 0.5 everywhere:
 * D[i][j] = 0.5 + sum_{k<16} k = 120.5 */
Test(emu_mfma, hand_computed_16x16x16)
{
  snip *s = sn_new(EMU_GFX942, "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]");
  for (int l = 0; l < 64; l++) {
    sn_v(s, 0)[l] = sn_v(s, 1)[l] = 0x3c003c00;
    /* lane l holds B[4*(l/16)+t][l%16] = 4*(l/16)+t as f16 (integers 0..15 are exact) */
    uint16_t h[4];
    for (int t = 0; t < 4; t++) {
      int k = 4 * (l / 16) + t;
      h[t] = k == 0 ? 0 : (uint16_t)((15 + ilogb(k)) << 10 | ((k << 10 >> ilogb(k)) & 1023));
    }
    sn_v(s, 2)[l] = h[0] | (uint32_t)h[1] << 16, sn_v(s, 3)[l] = h[2] | (uint32_t)h[3] << 16;
    for (int r = 0; r < 4; r++) sn_a(s, r)[l] = 0x3f000000; /* 0.5f */
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int r = 0; r < 4; r++)
    for (int l = 0; l < 64; l++) cr_assert_eq(sn_a(s, r)[l], 0x42f10000u, "a%d lane %d = 0x%08x", r, l, sn_a(s, r)[l]);
  sn_free(s);
}

/* Regression guard for the fast path's per-thread cache of converted B operands (emu/op_mfma.c):
 * B registers rewritten between MFMAs that read them, and the same bits read as f16 then as bf16,
 * must give each MFMA the operand as it is now. A = 1.0 everywhere, so D[i][j] = sum_k B[k][j];
 * lane l holds items t = 0..3 (k = 4*(l/16) + t): t = 0, 1 in v2, t = 2, 3 in v3. */
static uint16_t f16_of_int(int v);
static double f16_val(uint32_t h) /* IEEE binary16, normal or zero (the values below) */
{
  return (h & 0x7fff) ? ldexp(1.0 + (h & 1023) / 1024.0, (int)(h >> 10 & 31) - 15) : 0.0;
}
static double bf16_val(uint32_t h) { return ldexp(1.0 + (h & 127) / 128.0, (int)(h >> 7 & 255) - 127); }

Test(emu_mfma, b_operand_rewritten_between_mfmas_is_read_again)
{
  snip *s = sn_new(EMU_GFX942, "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], 0\n"
                               "v_mov_b32 v2, 0x3c003c00\ns_nop 4\n"
                               "v_mfma_f32_16x16x16_f16 a[4:7], v[0:1], v[2:3], 0\n"
                               "v_mov_b32 v3, 0x3f803f80\ns_nop 4\n"
                               "v_mfma_f32_16x16x16_f16 a[8:11], v[0:1], v[2:3], 0\n"
                               "v_mfma_f32_16x16x16_bf16 a[12:15], v[0:1], v[2:3], 0\ns_nop 15");
  for (int l = 0; l < 64; l++) {
    sn_v(s, 0)[l] = sn_v(s, 1)[l] = 0x3c003c00; /* f16 1.0 (as bf16: 2^-7) */
    uint16_t h[4];
    for (int t = 0; t < 4; t++) h[t] = f16_of_int(4 * (l / 16) + t);
    sn_v(s, 2)[l] = h[0] | (uint32_t)h[1] << 16, sn_v(s, 3)[l] = h[2] | (uint32_t)h[3] << 16;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  double want[4] = {0, 0, 8 * 1.0 + 8 * f16_val(0x3f80), 8 * bf16_val(0x3c00) * bf16_val(0x3c00) + 8 * bf16_val(0x3c00) * bf16_val(0x3f80)};
  for (int k = 0; k < 16; k++) want[0] += k, want[1] += k % 4 < 2 ? 1.0 : k;
  for (int m = 0; m < 4; m++)
    for (int r = 0; r < 4; r++)
      for (int l = 0; l < 64; l++) {
        float got;
        memcpy(&got, &sn_a(s, 4 * m + r)[l], 4);
        cr_assert_eq(got, (float)want[m], "MFMA %d: a%d lane %d = %g, expected %g", m, 4 * m + r, l, got, want[m]);
      }
  sn_free(s);
}

/* Broadcasts (CDNA3 ISA §7.1.5): with CBSZ/ABID lane l reads A from lane (l % S) + S * ABID,
 * S = 64 >> CBSZ; with BLGP B from lane l (0), l % 32 (1), l % 32 + 32 (2), (l + 16) % 64 (3),
 * l % 16 + 16 * (BLGP - 4) (4..7). So the instruction with the modifiers must give exactly what the
 * plain instruction gives on inputs whose lanes are moved that way (the plain forms are checked
 * against the double-precision reference above). */
static int bc_a(int l, int cbsz, int abid) { int S = 64 >> cbsz; return l % S + S * abid; }
static int bc_b(int l, int g)
{
  return g == 0 ? l : g == 1 ? l % 32 : g == 2 ? l % 32 + 32 : g == 3 ? (l + 16) % 64 : l % 16 + 16 * (g - 4);
}
static void broadcast_case(emu_arch arch, const char *name, int na, int nb, int nout, int cbsz, int abid, int blgp)
{
  char *mods = ll_fmt(" cbsz:%d abid:%d blgp:%d", cbsz, abid, blgp);
  char *t1 = ll_fmt("%s v[32:%d], v[0:%d], v[16:%d], v[32:%d]%s", name, 32 + nout - 1, na - 1, 16 + nb - 1, 32 + nout - 1, mods);
  char *t0 = ll_fmt("%s v[32:%d], v[0:%d], v[16:%d], v[32:%d]", name, 32 + nout - 1, na - 1, 16 + nb - 1, 32 + nout - 1);
  snip *s1 = sn_new(arch, t1), *s0 = sn_new(arch, t0);
  uint32_t st = 77;
  for (int l = 0; l < 64; l++) {
    for (int r = 0; r < na; r++) sn_v(s1, r)[l] = sn_rand(&st) & 0x3bff3bffu; /* f16/i8/f32 finite, moderate */
    for (int r = 0; r < nb; r++) sn_v(s1, 16 + r)[l] = sn_rand(&st) & 0x3bff3bffu;
    for (int r = 0; r < nout; r++) sn_v(s1, 32 + r)[l] = sn_v(s0, 32 + r)[l] = sn_rand(&st) & 0x3f7fffffu;
  }
  for (int l = 0; l < 64; l++) {
    for (int r = 0; r < na; r++) sn_v(s0, r)[l] = sn_v(s1, r)[bc_a(l, cbsz, abid)];
    for (int r = 0; r < nb; r++) sn_v(s0, 16 + r)[l] = sn_v(s1, 16 + r)[bc_b(l, blgp)];
  }
  cr_assert_eq(sn_run(s1), EMU_OK, "%s: %s", t1, s1->f.msg);
  cr_assert_eq(sn_run(s0), EMU_OK, "%s: %s", t0, s0->f.msg);
  for (int r = 0; r < nout; r++)
    for (int l = 0; l < 64; l++)
      cr_assert_eq(sn_v(s1, 32 + r)[l], sn_v(s0, 32 + r)[l], "%s %s: D reg %d lane %d", emu_arch_name(arch), t1, r, l);
  sn_free(s1), sn_free(s0);
  free(t1), free(t0), free(mods);
}
Test(emu_mfma, broadcast_cbsz_abid_blgp_move_lanes)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    emu_arch arch = (emu_arch)a;
    broadcast_case(arch, "v_mfma_f32_4x4x4_16b_f16", 2, 2, 4, 4, 15, 7);
    broadcast_case(arch, "v_mfma_f32_4x4x4_16b_f16", 2, 2, 4, 3, 5, 4);
    broadcast_case(arch, "v_mfma_f32_16x16x4_4b_f16", 2, 2, 16, 2, 1, 5);
    broadcast_case(arch, "v_mfma_f32_32x32x1_2b_f32", 1, 1, 32, 1, 1, 2);
    broadcast_case(arch, "v_mfma_f32_32x32x8_f16", 2, 2, 16, 0, 0, 3);
    broadcast_case(arch, "v_mfma_f32_16x16x16_bf16", 2, 2, 4, 0, 0, 6);
    broadcast_case(arch, "v_mfma_i32_16x16x4_4b_i8", 1, 1, 16, 1, 0, 1);
  }
}
/* CBSZ beyond the blocks (undefined) or ABID naming no block (not legal): a fault naming them */
Test(emu_mfma, broadcast_undefined_faults)
{
  const char *src[] = {"v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3] cbsz:1 abid:1 blgp:2",
                       "v_mfma_f32_16x16x4_4b_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:3",
                       "v_mfma_f32_16x16x4_4b_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1 abid:2"};
  for (int i = 0; i < 3; i++) {
    snip *s = sn_new(EMU_GFX942, src[i]);
    cr_assert_eq(sn_run(s), EMU_FAULT, "%s", src[i]);
    cr_assert_str_eq(s->f.kind, "undefined by the ISA");
    cr_assert(strstr(s->f.msg, "cbsz:") && strstr(s->f.msg, "undefined") && strstr(s->f.msg, "gfx942") &&
                  strstr(s->f.msg, "pc 0x0") && strstr(s->f.msg, "v_mfma_f32_16x16x"),
              "fault message lacks arch/pc/text/cause: %s", s->f.msg);
    sn_free(s);
  }
  /* gfx950 f8f6f4: format codes 5..7 are reserved (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4) */
  snip *s = sn_new(EMU_GFX950, "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] cbsz:5 blgp:1");
  cr_assert_eq(sn_run(s), EMU_FAULT);
  cr_assert_str_eq(s->f.kind, "undefined by the ISA");
  cr_assert(strstr(s->f.msg, "cbsz:5") && strstr(s->f.msg, "reserved") && strstr(s->f.msg, "gfx950"), "%s", s->f.msg);
  sn_free(s);
}
/* f64 (CDNA3 ISA §7.1.5.3): BLGP[0..2] negate A, B, C, printed by LLVM as neg:[a,b,c]; the same as
 * the plain instruction on negated inputs */
Test(emu_mfma, f64_blgp_is_negation)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    snip *s1 = sn_new((emu_arch)a, "v_mfma_f64_16x16x4_f64 v[32:39], v[0:1], v[16:17], v[32:39] neg:[1,0,1]");
    snip *s2 = sn_new((emu_arch)a, "v_mfma_f64_16x16x4_f64 v[32:39], v[0:1], v[16:17], v[32:39] neg:[0,1,0]");
    snip *s0 = sn_new((emu_arch)a, "v_mfma_f64_16x16x4_f64 v[32:39], v[0:1], v[16:17], v[32:39]");
    snip *s0b = sn_new((emu_arch)a, "v_mfma_f64_16x16x4_f64 v[32:39], v[0:1], v[16:17], v[32:39]");
    uint32_t st = 5;
    for (int l = 0; l < 64; l++) {
      for (int r = 0; r < 2; r++) {
        uint32_t x = sn_rand(&st), y = sn_rand(&st);
        if (r) x = (x & 0x800fffffu) | 0x3fe00000u, y = (y & 0x800fffffu) | 0x3fe00000u; /* high dwords: moderate */
        sn_v(s1, r)[l] = sn_v(s2, r)[l] = sn_v(s0b, r)[l] = x, sn_v(s0, r)[l] = x ^ (r ? 0x80000000u : 0);
        sn_v(s1, 16 + r)[l] = sn_v(s2, 16 + r)[l] = sn_v(s0, 16 + r)[l] = y, sn_v(s0b, 16 + r)[l] = y ^ (r ? 0x80000000u : 0);
      }
      for (int r = 0; r < 8; r++) {
        uint32_t c = (r & 1) ? (sn_rand(&st) & 0x800fffffu) | 0x3ff00000u : sn_rand(&st);
        sn_v(s1, 32 + r)[l] = sn_v(s2, 32 + r)[l] = sn_v(s0b, 32 + r)[l] = c, sn_v(s0, 32 + r)[l] = c ^ ((r & 1) ? 0x80000000u : 0);
      }
    }
    cr_assert_eq(sn_run(s1), EMU_OK, "%s", s1->f.msg);
    cr_assert_eq(sn_run(s2), EMU_OK, "%s", s2->f.msg);
    cr_assert_eq(sn_run(s0), EMU_OK, "%s", s0->f.msg);
    cr_assert_eq(sn_run(s0b), EMU_OK, "%s", s0b->f.msg);
    for (int r = 0; r < 8; r++)
      for (int l = 0; l < 64; l++) {
        cr_assert_eq(sn_v(s1, 32 + r)[l], sn_v(s0, 32 + r)[l], "neg:[1,0,1] reg %d lane %d", r, l);
        cr_assert_eq(sn_v(s2, 32 + r)[l], sn_v(s0b, 32 + r)[l], "neg:[0,1,0] reg %d lane %d", r, l);
      }
    sn_free(s1), sn_free(s2), sn_free(s0), sn_free(s0b);
  }
}

/* v_accvgpr_read/write/mov are ordinary VALU moves under EXEC */
Test(emu_mfma, accvgpr_moves_under_exec)
{
  snip *s = sn_new(EMU_GFX950, "v_accvgpr_write_b32 a3, v1\nv_accvgpr_read_b32 v2, a3\nv_accvgpr_mov_b32 a4, a3\n"
                               "v_accvgpr_write_b32 a5, -2");
  uint64_t e = 0xf0f0f0f00f0f0f0full;
  sn_exec(s, e);
  for (int l = 0; l < 64; l++) {
    sn_v(s, 1)[l] = 1000 + l, sn_v(s, 2)[l] = 7, sn_a(s, 3)[l] = 9, sn_a(s, 4)[l] = 11, sn_a(s, 5)[l] = 13;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    bool on = e >> l & 1;
    cr_assert_eq(sn_a(s, 3)[l], on ? 1000u + l : 9u);
    cr_assert_eq(sn_v(s, 2)[l], on ? 1000u + l : 7u);
    cr_assert_eq(sn_a(s, 4)[l], on ? 1000u + l : 11u);
    cr_assert_eq(sn_a(s, 5)[l], on ? 0xfffffffeu : 13u);
  }
  sn_free(s);
}

/* ---- integration: the compiled MFMA probe kernels (make kernels) on the full emulator ----------
 * Image = A (M x K f16, row-major) then B (K x N); small integers, so every f32 sum is exact.
 * D[i][j] is read back where the docs/isa.md table puts it (the kernels' header comments agree). */
static uint16_t f16_of_int(int v)
{
  if (v == 0) return 0;
  int a = abs(v), e = ilogb(a);
  return (uint16_t)((v < 0 ? 0x8000 : 0) | (15 + e) << 10 | ((a << 10 >> e) & 1023));
}

static void micro_mfma(emu_arch arch, const char *name, int M, int N, int K)
{
  uint16_t img[2048] = {0};
  int A[32][32], Bm[32][32];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) A[i][k] = (i * 3 + k * 5) % 7 - 3, img[K * i + k] = f16_of_int(A[i][k]);
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++) Bm[k][j] = (k * 2 + j * 3) % 5 - 2, img[M * K + N * k + j] = f16_of_int(Bm[k][j]);
  int ndw = M * N / 64;
  static uint32_t out[64 * 16 + 64];
  memset(out, 0, sizeof out);
  emu_fault f;
  cr_assert_eq(sn_micro(arch, name, img, (size_t)2 * (M * K + K * N), out, (size_t)(64 * ndw + 64), &f), LL_EXIT_OK,
               "%s %s: %s", emu_arch_name(arch), name, f.msg);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int want = 0;
      for (int k = 0; k < K; k++) want += A[i][k] * Bm[k][j];
      int lane = M == 16 ? j + 16 * (i / 4) : j + 32 * ((i / 4) % 2);
      int dw = M == 16 ? i % 4 : 4 * (i / 8) + i % 4;
      float got;
      memcpy(&got, &out[ndw * lane + dw], 4);
      cr_assert_eq(got, (float)want, "%s %s D[%d][%d] (lane %d dword %d) = %g, expected %d", emu_arch_name(arch), name,
                   i, j, lane, dw, got, want);
    }
  for (int L = 0; L < 64; L++) /* the A address each lane dumped: 2*(K*(L%M) + K_L*(L/M)) */
    cr_assert_eq(out[64 * ndw + L], 2u * (K * (L % M) + (K * M / 64) * (L / M)), "%s lane %d address", name, L);
}

Test(emu_mfma, micro_kernels)
{
  micro_mfma(EMU_GFX942, "lane_mfma_16x16x16_f16", 16, 16, 16);
  micro_mfma(EMU_GFX950, "lane_mfma_16x16x16_f16", 16, 16, 16);
  micro_mfma(EMU_GFX942, "lane_mfma_32x32x8_f16", 32, 32, 8);
  micro_mfma(EMU_GFX950, "lane_mfma_32x32x8_f16", 32, 32, 8);
  micro_mfma(EMU_GFX950, "lane_mfma_16x16x32_f16", 16, 16, 32);
}

/* ---- block-scaled f8f6f4 (gfx950) -------------------------------------------------------------*/
static void scale_body(const void *u)
{
  int n = 0;
  for (int ca = 0; ca < 5; ca++)
    for (int cb = 0; cb < 5; cb++, n++) {
      mcase c16 = {"v_mfma_scale_f32_16x16x128_f8f6f4", 16, 16, 128, 1, -1, -1, ca, cb};
      mcase c32 = {"v_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64, 1, -1, -1, ca, cb};
      mextra x = {1, n % 4, (n / 4) % 4, 0};
      run_case_x(&c16, EMU_GFX950, n & 1, false, 3000u + (uint32_t)n, &x);
      x.sela = 3 - x.sela;
      run_case_x(&c32, EMU_GFX950, !(n & 1), false, 4000u + (uint32_t)n, &x);
    }
}
Test(emu_mfma, scale_f8f6f4_formats_and_byte_selects) { sn_with_prefill(scale_body, NULL); }

/* E8M0 0xff is NaN (OCP MX spec): a NaN scale byte makes every output NaN; 127 is 1.0 */
Test(emu_mfma, scale_nan_and_unit)
{
  snip *s = sn_new(EMU_GFX950, "v_mfma_scale_f32_16x16x128_f8f6f4 v[32:35], v[0:7], v[16:23], v[32:35], v64, v65 "
                               "op_sel:[1,0,0] op_sel_hi:[0,0,0]");
  for (int l = 0; l < 64; l++) {
    for (int r = 0; r < 8; r++) sn_v(s, r)[l] = sn_v(s, 16 + r)[l] = 0x38383838u; /* OCP fp8 1.0 */
    for (int r = 0; r < 4; r++) sn_v(s, 32 + r)[l] = 0;
    sn_v(s, 64)[l] = 0x00007f00u | (l == 5 ? 0xffu << 8 : 0); /* byte 1: 127, lane 5: 0xff */
    sn_v(s, 65)[l] = 0x0000007fu;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  /* lane 5 supplies row 5, k 0..15 and 64..79: D row 5 is NaN, the others 128 (= K, all ones) */
  for (int j = 0; j < 16; j++)
    for (int i = 0; i < 16; i++) {
      float got;
      memcpy(&got, &sn_v(s, 32 + i % 4)[j + 16 * (i / 4)], 4);
      if (i == 5) cr_assert(isnan(got), "row 5 col %d = %g, want NaN", j, got);
      else cr_assert_eq(got, 128.0f, "D[%d][%d] = %g", i, j, got);
    }
  sn_free(s);
}

/* ---- sparse (v_smfmac_*) --------------------------------------------------------------------*/
static const mcase sparse_both[] = {
    {"v_smfmac_f32_16x16x32_f16", 16, 16, 32, 1, TF16, TF16, 0, 0},
    {"v_smfmac_f32_32x32x16_f16", 32, 32, 16, 1, TF16, TF16, 0, 0},
    {"v_smfmac_f32_16x16x32_bf16", 16, 16, 32, 1, TBF16, TBF16, 0, 0},
    {"v_smfmac_f32_32x32x16_bf16", 32, 32, 16, 1, TBF16, TBF16, 0, 0},
    {"v_smfmac_i32_16x16x64_i8", 16, 16, 64, 1, TI8, TI8, 0, 0},
    {"v_smfmac_i32_32x32x32_i8", 32, 32, 32, 1, TI8, TI8, 0, 0},
    {"v_smfmac_f32_16x16x64_fp8_fp8", 16, 16, 64, 1, TFP8, TFP8, 0, 0},
    {"v_smfmac_f32_16x16x64_fp8_bf8", 16, 16, 64, 1, TFP8, TBF8, 0, 0},
    {"v_smfmac_f32_16x16x64_bf8_fp8", 16, 16, 64, 1, TBF8, TFP8, 0, 0},
    {"v_smfmac_f32_16x16x64_bf8_bf8", 16, 16, 64, 1, TBF8, TBF8, 0, 0},
    {"v_smfmac_f32_32x32x32_fp8_fp8", 32, 32, 32, 1, TFP8, TFP8, 0, 0},
    {"v_smfmac_f32_32x32x32_fp8_bf8", 32, 32, 32, 1, TFP8, TBF8, 0, 0},
    {"v_smfmac_f32_32x32x32_bf8_fp8", 32, 32, 32, 1, TBF8, TFP8, 0, 0},
    {"v_smfmac_f32_32x32x32_bf8_bf8", 32, 32, 32, 1, TBF8, TBF8, 0, 0},
};
static const mcase sparse_950[] = {
    {"v_smfmac_f32_16x16x64_f16", 16, 16, 64, 1, TF16, TF16, 0, 0},
    {"v_smfmac_f32_32x32x32_f16", 32, 32, 32, 1, TF16, TF16, 0, 0},
    {"v_smfmac_f32_16x16x64_bf16", 16, 16, 64, 1, TBF16, TBF16, 0, 0},
    {"v_smfmac_f32_32x32x32_bf16", 32, 32, 32, 1, TBF16, TBF16, 0, 0},
    {"v_smfmac_i32_16x16x128_i8", 16, 16, 128, 1, TI8, TI8, 0, 0},
    {"v_smfmac_i32_32x32x64_i8", 32, 32, 64, 1, TI8, TI8, 0, 0},
    {"v_smfmac_f32_16x16x128_fp8_fp8", 16, 16, 128, 1, TFP8, TFP8, 0, 0},
    {"v_smfmac_f32_16x16x128_fp8_bf8", 16, 16, 128, 1, TFP8, TBF8, 0, 0},
    {"v_smfmac_f32_16x16x128_bf8_fp8", 16, 16, 128, 1, TBF8, TFP8, 0, 0},
    {"v_smfmac_f32_16x16x128_bf8_bf8", 16, 16, 128, 1, TBF8, TBF8, 0, 0},
    {"v_smfmac_f32_32x32x64_fp8_fp8", 32, 32, 64, 1, TFP8, TFP8, 0, 0},
    {"v_smfmac_f32_32x32x64_fp8_bf8", 32, 32, 64, 1, TFP8, TBF8, 0, 0},
    {"v_smfmac_f32_32x32x64_bf8_fp8", 32, 32, 64, 1, TBF8, TFP8, 0, 0},
    {"v_smfmac_f32_32x32x64_bf8_bf8", 32, 32, 64, 1, TBF8, TBF8, 0, 0},
};

static void run_sparse(const mcase *l, size_t n, emu_arch arch)
{
  for (size_t i = 0; i < n; i++) {
    int KL = l[i].K * l[i].M / 64;
    mextra x = {2, 0, 0, (int)(i % (size_t)(32 / KL))}; /* every abid the set width allows, in turn */
    run_case_x(&l[i], arch, i & 1, false, 5000u + (uint32_t)i, &x);
  }
}

Test(emu_mfma, sparse_gfx942) { run_sparse(sparse_both, sizeof sparse_both / sizeof sparse_both[0], EMU_GFX942); }
Test(emu_mfma, sparse_gfx950)
{
  run_sparse(sparse_both, sizeof sparse_both / sizeof sparse_both[0], EMU_GFX950);
  run_sparse(sparse_950, sizeof sparse_950 / sizeof sparse_950[0], EMU_GFX950);
}

/* sparse (CDNA4 ISA §7.4): CBSZ and ABID only pick the index set, and CBSZ[1:0] != 0 picks the
 * first: cbsz:1 abid:1 reads the same index bits as abid:0; an abid beyond the sets faults naming it */
Test(emu_mfma, sparse_cbsz_picks_the_first_index_set)
{
  snip *s1 = sn_new(EMU_GFX950, "v_smfmac_f32_16x16x64_f16 v[0:3], v[4:7], v[8:15], v16 cbsz:1 abid:1");
  snip *s0 = sn_new(EMU_GFX950, "v_smfmac_f32_16x16x64_f16 v[0:3], v[4:7], v[8:15], v16");
  snip *sa = sn_new(EMU_GFX950, "v_smfmac_f32_16x16x64_f16 v[0:3], v[4:7], v[8:15], v16 abid:1");
  uint32_t st = 3;
  for (int l = 0; l < 64; l++) {
    for (int r = 0; r < 16; r++) {
      uint32_t x = sn_rand(&st) & 0x3bff3bffu;
      sn_v(s1, r)[l] = sn_v(s0, r)[l] = sn_v(sa, r)[l] = x;
    }
    uint32_t ix = sn_rand(&st);
    sn_v(s1, 16)[l] = sn_v(s0, 16)[l] = sn_v(sa, 16)[l] = ix;
  }
  cr_assert_eq(sn_run(s1), EMU_OK, "%s", s1->f.msg);
  cr_assert_eq(sn_run(s0), EMU_OK, "%s", s0->f.msg);
  cr_assert_eq(sn_run(sa), EMU_OK, "%s", sa->f.msg);
  int differ = 0;
  for (int r = 0; r < 4; r++)
    for (int l = 0; l < 64; l++) {
      cr_assert_eq(sn_v(s1, r)[l], sn_v(s0, r)[l], "cbsz:1 abid:1 vs set 0: reg %d lane %d", r, l);
      differ += sn_v(sa, r)[l] != sn_v(s0, r)[l];
    }
  cr_assert_gt(differ, 0, "abid:1 alone must read another index set");
  sn_free(s1), sn_free(s0), sn_free(sa);
  snip *s = sn_new(EMU_GFX942, "v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10 abid:3");
  cr_assert_eq(sn_run(s), EMU_OK, "abid:3 is the fourth 8-bit set of a gfx942 16-bit form: %s", s->f.msg);
  sn_free(s);
}

/* the gfx950-only forms do not exist on gfx942: their gfx950 encoding does not decode to them there */
Test(emu_mfma, gfx950_only_forms_refused_on_gfx942)
{
  const char *src[] = {"v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21",
                       "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[32:47], v48, v49",
                       "v_smfmac_f32_16x16x64_f16 v[0:3], v[4:7], v[8:15], v16",
                       "v_smfmac_i32_16x16x128_i8 v[0:3], v[4:7], v[8:15], v16",
                       "v_smfmac_f32_32x32x64_bf8_fp8 v[0:15], v[16:19], v[20:27], v28"};
  for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
    snip *s = sn_new(EMU_GFX950, src[i]);
    ll_err e = {0};
    emu_program *p = emu_program_decode(EMU_GFX942, s->code, s->ncode, 0, &e);
    cr_assert_not_null(p, "%s", e.msg);
    const char *mn = s->p->insns[0].mnem;
    cr_assert(strstr(s->p->insns[0].text, mn) && s->p->insns[0].implemented, "gfx950 decode of %s", src[i]);
    cr_assert(!(p->insns[0].implemented && !strcmp(p->insns[0].mnem, mn)), "gfx942 decoded %s as %s", src[i],
              p->insns[0].text);
    emu_program_free(p);
    sn_free(s);
  }
}

/* The fast paths (AVX-512, AVX2: whichever this CPU has) against the generic kernel (both switched
 * off through emu_avx512 / emu_avx2), bit for bit, on every form the fast paths take: random finite
 * elements (subnormals included), C in other registers, C = D, C partly overlapping D (the row
 * blocks must not read a C row an earlier block wrote) and C the inline constant 0. The generic
 * kernel is the reference here: what this checks is that the paths agree, the generic kernel's
 * semantics being checked against the definitions above. */
static uint32_t finite_word(int t, uint32_t *st)
{
  uint32_t v = sn_rand(st) ^ sn_rand(st) << 16;
  if (t == TF16) v &= ~0x40004000u; /* exponent below 31 in both halves: finite */
  if (t == TBF16) { /* finite; half of the halves tiny (2^-126..2^-77), so products underflow and
                      multiply-then-add differs from a fused multiply-add */
    v &= ~0x40004000u;
    for (int h = 0; h < 2; h++)
      if (sn_rand(st) & 1) v = (v & ~(0x7f80u << (16 * h))) | ((1u + sn_rand(st) % 50) << (7 + 16 * h));
  }
  if (t == TF32) v &= ~0x40000000u;
  if (t == TFP8 || t == TBF8) v &= 0xbfbfbfbfu; /* top exponent bit clear: finite in FNUZ and OCP */
  return v;
}

static void fast_vs_generic_body(const void *arg)
{
  const char *only = arg;
  static const struct { const char *name; int t, na, nb, nout; } forms[] = {
      {"v_mfma_f32_16x16x16_f16", TF16, 2, 2, 4},      {"v_mfma_f32_32x32x8_f16", TF16, 2, 2, 16},
      {"v_mfma_f32_16x16x16_bf16", TBF16, 2, 2, 4},    {"v_mfma_f32_32x32x8_bf16", TBF16, 2, 2, 16},
      {"v_mfma_i32_16x16x32_i8", TI8, 2, 2, 4},        {"v_mfma_i32_32x32x16_i8", TI8, 2, 2, 16},
      {"v_mfma_f32_16x16x4_f32", TF32, 1, 1, 4},       {"v_mfma_f32_32x32x2_f32", TF32, 1, 1, 16},
      {"v_mfma_f32_16x16x32_fp8_bf8", TFP8, 2, 2, 4},  {"v_mfma_f32_32x32x16_bf8_fp8", TFP8, 2, 2, 16},
      {"v_mfma_f32_16x16x32_f16", TF16, 4, 4, 4}, /* gfx950 only (the seed kernel's) */
  };
  bool had = emu_avx512, had2 = emu_avx2;
  int levels = 1 + had + had2, checked = 0;
  int want = 0;
  for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
    for (int a = 0; a < EMU_NARCH; a++)
      for (int cm = 0; cm < 4; cm++) { /* C: other registers, = D, overlapping D, constant 0 */
        int n = forms[f].nout;
        if (only && !strstr(forms[f].name, only)) continue;
        if (a == EMU_GFX942 && !strcmp(forms[f].name, "v_mfma_f32_16x16x32_f16")) continue;
        want++;
        if (cm == 2 && n != 4) { checked++; continue; } /* llvm-mc refuses a partial overlap for 32x32 */
        const char *c = cm == 0 ? ll_fmt("v[64:%d]", 64 + n - 1) : cm == 1 ? ll_fmt("v[32:%d]", 32 + n - 1)
                      : cm == 2 ? ll_fmt("v[34:%d]", 34 + n - 1) : ll_fmt("0");
        char *text = ll_fmt("%s v[32:%d], v[0:%d], v[16:%d], %s\ns_endpgm", forms[f].name, 32 + n - 1, forms[f].na - 1,
                            16 + forms[f].nb - 1, c);
        if (sn_collecting) { sn_note((emu_arch)a, text); checked++; free(text); free((void *)c); continue; }
        uint32_t got[3][16 * 64];
        for (int lv = 0; lv < levels; lv++) {
          emu_avx512 = had && lv == 0;
          emu_avx2 = had2 && lv == (had ? 1 : 0);
          snip *s = sn_new((emu_arch)a, text);
          uint32_t st = 0x9e3779b9u * (uint32_t)(f * 8 + a * 4 + cm + 1);
          for (int l = 0; l < 64; l++) {
            for (int r = 0; r < forms[f].na; r++) sn_v(s, r)[l] = finite_word(forms[f].t, &st);
            for (int r = 0; r < forms[f].nb; r++) sn_v(s, 16 + r)[l] = finite_word(forms[f].t, &st);
            for (int r = 32; r < 64 + n; r++) sn_v(s, r)[l] = finite_word(TF32, &st) & 0x8fffffffu;
          }
          int rc = sn_run(s);
          emu_avx512 = had, emu_avx2 = had2;
          cr_assert_eq(rc, EMU_OK, "%s: %s", text, s->f.msg);
          memcpy(got[lv], sn_v(s, 32), (size_t)n * 64 * 4);
          sn_free(s);
          if (lv > 0)
            for (int i = 0; i < n * 64; i++)
              cr_assert_eq(got[lv][i], got[0][i], "%s on %s: path %d of %d differs from the fastest at register %d lane %d (0x%08x vs 0x%08x)",
                           text, emu_arch_name((emu_arch)a), lv, levels, 32 + i / 64, i % 64, got[lv][i], got[0][i]);
        }
        checked++;
        free(text);
        free((void *)c);
      }
  cr_assert_eq(checked, want);
  cr_assert_gt(checked, 0);
  if (!sn_collecting) cr_log_info("MFMA fast paths: %d path(s) besides the generic one on this CPU", levels - 1);
}
static void fast_vs_generic(const char *only) { sn_with_prefill(fast_vs_generic_body, only); }

Test(emu_mfma, fast_paths_match_the_generic_kernel_bit_for_bit) { fast_vs_generic(NULL); }

/* Regression: the AVX-512 bf16 kernel's multiply and add (`_mm512_add_ps(acc, _mm512_mul_ps(..))`)
 * were fused into one FMA by GCC (-ffp-contract=fast, GNU C's default, with FMA in the target), so
 * a bf16 product that underflows f32 differed from the generic kernel's separately rounded product. */
Test(emu_mfma, bf16_fast_path_rounds_the_product_before_the_add) { fast_vs_generic("bf16"); }
