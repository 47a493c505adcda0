/* emu/bench — emulator throughput (issues #3 §6 and #16):
 *   - MFMA per type: the handler on a register file against the CPU's limit for the same
 *     semantics (a C kernel of this file), with the ratio; the two results must be bit-identical;
 *   - kernels/bench/bench_valu_ds.hip (VALU + LDS loop) and kernels/bench/bench_mfma.hip
 *     (v_mfma_f32_16x16x16_f16 chain) from BUILD/<arch>/kernels, the same grid (4 workgroups per
 *     core) on one worker thread and on all cores: wave-instructions/s per core and the scaling.
 * Launch figures are wall-clock measurements of emu_launch (decode is done once before timing)
 * beside the process CPU time. Every run is checked not to fault; a missing MFMA implementation is
 * reported loudly instead of a figure. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "emu/internal.h"

typedef struct {
  double secs, cpu; /* wall-clock and process CPU seconds */
  uint64_t wave_insns, mfma;
  int rc;
  char msg[600];
} bench_run;

static void run_one_out(emu_codeobj *co, const emu_kernel *k, uint32_t grid, int iters, int threads,
                        bench_run *r, float *copy_out)
{
  memset(r, 0, sizeof *r);
  emu_mem *m = emu_mem_new();
  size_t nout = (size_t)grid * 64;
  float *out = ll_xcalloc(nout, sizeof *out);
  memset(out, 0, nout * sizeof *out); /* its pages touched before the clock starts, as the native loops' are */
  uint32_t kbytes = k->kernarg_size > 16 ? k->kernarg_size : 16;
  uint8_t *ka = ll_xcalloc(1, kbytes);
  uint64_t dout = emu_mem_map(m, out, nout * sizeof *out, "out");
  if (k->nargs < 2 || k->args[0].size != 8 || k->args[1].size != 4) {
    r->rc = LL_EXIT_USAGE;
    snprintf(r->msg, sizeof r->msg, "%s: expected (float *out, int iters) arguments", k->name);
    goto done;
  }
  memcpy(ka + k->args[0].offset, &dout, 8);
  memcpy(ka + k->args[1].offset, &iters, 4);
  emu_dispatch d = {.co = co, .kernel = k, .grid = {grid, 1, 1}, .block = {64, 1, 1}};
  d.kernarg_addr = emu_mem_map(m, ka, kbytes, "kernarg");
  emu_launch_opts o = {.threads = threads, .insn_budget = 1ull << 40};
  emu_fault f;
  emu_launch_stats st;
  const double c0 = ll_cpu_now(), t0 = ll_now();
  r->rc = emu_launch(m, &d, &o, &f, &st);
  r->secs = ll_now() - t0;
  r->cpu = ll_cpu_now() - c0;
  if (r->rc != LL_EXIT_OK) {
    snprintf(r->msg, sizeof r->msg, "%s", f.msg);
    goto done;
  }
  r->wave_insns = st.wave_insns;
  if (copy_out) memcpy(copy_out, out, nout * sizeof *out);
  for (size_t i = 0; i < st.nmnem; i++)
    if (strncmp(st.mnem[i], "v_mfma_", 7) == 0) r->mfma += st.count[i];
  emu_launch_stats_free(&st);
done:
  free(out);
  free(ka);
  emu_mem_free(m);
}

static void run_one(emu_codeobj *co, const emu_kernel *k, uint32_t grid, int iters, int threads, bench_run *r)
{
  run_one_out(co, k, grid, iters, threads, r, NULL);
}

static emu_codeobj *load(FILE *out, const char *build_dir, const char *arch, const char *name, int *rc)
{
  char *path = ll_fmt("%s/%s/kernels/%s.co", build_dir, arch, name);
  if (access(path, R_OK) != 0) {
    fprintf(out, "bench: %s is missing: build it with 'make kernels'\n", path);
    *rc = LL_EXIT_ENV;
    free(path);
    return NULL;
  }
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(path, &e);
  free(path);
  if (!co) {
    fprintf(out, "bench: %s\n", e.msg);
    *rc = e.code ? e.code : LL_EXIT_USAGE;
    return NULL;
  }
  const emu_program *p = emu_codeobj_program(co, &e); /* decode before timing */
  if (!p) {
    fprintf(out, "bench: %s\n", e.msg);
    *rc = e.code ? e.code : LL_EXIT_USAGE;
    emu_codeobj_free(co);
    return NULL;
  }
  return co;
}

/* load() and the kernel `name` in it; NULL (the code object freed, *rc set) if either is missing */
static emu_codeobj *load_kernel(FILE *out, const char *build_dir, const char *arch, const char *name, int *rc,
                                const emu_kernel **k)
{
  emu_codeobj *co = load(out, build_dir, arch, name, rc);
  if (!co) return NULL;
  ll_err e = {0};
  *k = emu_codeobj_kernel(co, name, &e);
  if (!*k) {
    fprintf(out, "bench: %s\n", e.msg);
    emu_codeobj_free(co);
    *rc = LL_EXIT_USAGE;
    return NULL;
  }
  return co;
}

/* ---- MFMA: the emulator's handler against the CPU's limit for the same semantics ---------------
 * The limit is a small kernel of this file written for one purpose: the same instruction's
 * semantics (emu/op_mfma.c header: operands in the lanes' register layout, elements converted to
 * f32 — f16 with F16C, bf16 by a shift, fp8 through a value table, i8 sign-extended, f32 as is —
 * then every output element acc = C, k = 0..K-1 ascending, acc += A[i][k] * B[k][j] rounded to
 * f32 at each step; i8 in wrapping int32) done as fast as AVX-512 allows: 16 output columns per
 * zmm, up to 16 rows' independent chains in flight, element positions precomputed per shape. A
 * fused multiply-add is used where the product is exact in f32 (f16, fp8: it then rounds exactly
 * once like the add), f32 fmaf as the emulator, bf16 a multiply then an add like the emulator.
 * Both run on the same registers; their D must be bit-identical, else the bench fails. Figures are
 * thread CPU time (other processes sharing the cores do not count against either side). */
enum { LT_F16, LT_BF16, LT_FP8, LT_I8, LT_F32 };
typedef struct mcase {
  const char *text;  /* the instruction, operands included */
  const char *label; /* the type the row stands for */
  emu_arch arch;
  int M, N, K, ty, kla; /* shape, element type, items per lane */
  bool split;        /* gfx950 f8f6f4 fp8 layout: two 16-byte halves */
} mcase;
static const mcase mcases[] = {
    {"v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[32:33], a[0:3]", "f16", EMU_GFX950, 16, 16, 16, LT_F16, 4, false},
    {"v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[32:33], a[0:15]", "f16", EMU_GFX950, 32, 32, 8, LT_F16, 4, false},
    {"v_mfma_f32_16x16x16_bf16 a[0:3], v[0:1], v[32:33], a[0:3]", "bf16", EMU_GFX950, 16, 16, 16, LT_BF16, 4, false},
    {"v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[0:1], v[32:33], a[0:3]", "fp8 (OCP)", EMU_GFX950, 16, 16, 32, LT_FP8, 8, false},
    {"v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[0:1], v[32:33], a[0:3]", "fp8 (FNUZ)", EMU_GFX942, 16, 16, 32, LT_FP8, 8, false},
    {"v_mfma_i32_16x16x32_i8 a[0:3], v[0:1], v[32:33], a[0:3]", "i8", EMU_GFX950, 16, 16, 32, LT_I8, 8, false},
    {"v_mfma_f32_16x16x4_f32 a[0:3], v0, v32, a[0:3]", "f32", EMU_GFX950, 16, 16, 4, LT_F32, 1, false},
    {"v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[0:7], v[32:39], a[0:3]", "f8f6f4 (fp8)", EMU_GFX950, 16, 16, 128, LT_FP8, 32, true},
    {"v_mfma_f32_32x32x64_f8f6f4 a[0:15], v[0:7], v[32:39], a[0:15]", "f8f6f4 (fp8)", EMU_GFX950, 32, 32, 64, LT_FP8, 32, true},
};

typedef struct lshape {
  int M, N, K, ty, nra, nout;
  int aoff[128], boff[128]; /* A[i][k] = ca[aoff[k] + i], B[k][0..N) = cb[boff[k] + 0..N) */
  int dreg[32], dlane[32];  /* C/D row i: register dreg[i], lanes dlane[i] .. + N */
  float tab[256];           /* fp8 code -> value */
} lshape;

/* the layout rules of emu/op_mfma.c's header, for B = 1 (H = 4) */
static void lshape_make(const mcase *c, lshape *s)
{
  memset(s, 0, sizeof *s);
  s->M = c->M, s->N = c->N, s->K = c->K, s->ty = c->ty;
  int bits = c->ty == LT_F16 || c->ty == LT_BF16 ? 16 : c->ty == LT_F32 ? 32 : 8;
  s->nra = c->kla * bits / 32;
  s->nout = c->M * c->N / 64;
  for (int k = 0; k < c->K; k++) {
    int item = k % c->kla, grp = k / c->kla;
    if (c->split) {
      int h = k / (c->K / 2), r = k % (c->K / 2);
      item = 16 * h + r % 16, grp = r / 16;
    }
    s->aoff[k] = item * 64 + c->M * grp;
    s->boff[k] = item * 64 + c->N * grp;
  }
  int MI = 64 / c->N, G = c->M / (4 * MI);
  (void)G;
  for (int i = 0; i < c->M; i++) {
    s->dreg[i] = i % 4 + 4 * (i / (4 * MI));
    s->dlane[i] = c->N * ((i / 4) % MI);
  }
  for (int v = 0; v < 256; v++) {
    /* value of an fp8 E4M3 code: OCP (gfx950, bias 7, S.1111.111 NaN) or FNUZ (gfx942, bias 8, 0x80 NaN) */
    int e = v >> 3 & 15, m = v & 7, bias = c->arch == EMU_GFX950 ? 7 : 8;
    float x = e ? ldexpf(1.0f + (float)m / 8.0f, e - bias) : ldexpf((float)m / 8.0f, 1 - bias);
    s->tab[v] = v >> 7 ? -x : x;
    if (c->arch == EMU_GFX950 ? (v & 0x7f) == 0x7f : v == 0x80) s->tab[v] = NAN;
  }
}

#if defined(__x86_64__)
#include <immintrin.h>
#define LIMIT_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,f16c,fma")))
static bool limit_supported(void)
{
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("f16c") &&
         __builtin_cpu_supports("fma");
}

/* operand registers (reg r, lane l at r*64 + l) -> converted planes (item t of lane l at t*64 + l) */
LIMIT_TARGET static inline __attribute__((always_inline)) void lim_convert(const lshape *s, const uint32_t *R,
                                                                         float *cv)
{
  for (int r = 0; r < s->nra; r++)
    for (int l = 0; l < 64; l += 16) {
      __m512i x = _mm512_loadu_si512(R + r * 64 + l);
      switch (s->ty) {
      case LT_F16:
        _mm512_store_ps(cv + (2 * r) * 64 + l, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(x)));
        _mm512_store_ps(cv + (2 * r + 1) * 64 + l, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(x, 16))));
        break;
      case LT_BF16:
        _mm512_store_si512(cv + (2 * r) * 64 + l, _mm512_slli_epi32(x, 16));
        _mm512_store_si512(cv + (2 * r + 1) * 64 + l, _mm512_and_si512(x, _mm512_set1_epi32((int)0xffff0000u)));
        break;
      case LT_FP8:
        for (int b = 0; b < 4; b++)
          _mm512_store_ps(cv + (4 * r + b) * 64 + l,
                          _mm512_i32gather_ps(_mm512_and_si512(_mm512_srli_epi32(x, 8 * b), _mm512_set1_epi32(255)),
                                              s->tab, 4));
        break;
      case LT_I8:
        for (int b = 0; b < 4; b++)
          _mm512_store_si512(cv + (4 * r + b) * 64 + l, _mm512_srai_epi32(_mm512_slli_epi32(x, 24 - 8 * b), 24));
        break;
      default:
        _mm512_store_si512(cv + r * 64 + l, x);
      }
    }
}

/* RB rows of NV zmm columns each, from row i0, all k */
LIMIT_TARGET static inline __attribute__((always_inline)) void lim_rows(const lshape *s, const float *ca,
                                                                      const float *cb, const uint32_t *C,
                                                                      uint32_t *D, int i0, const int RB,
                                                                      const int NV, const int ty)
{
  __m512 acc[16][2];
#pragma GCC unroll 16
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++)
      acc[r][v] = _mm512_loadu_ps((const float *)(C + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 16 * v));
  for (int k = 0; k < s->K; k++) {
    const float *ak = ca + s->aoff[k] + i0, *bk = cb + s->boff[k];
    __m512 b[2];
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++) b[v] = _mm512_loadu_ps(bk + 16 * v);
#pragma GCC unroll 16
    for (int r = 0; r < RB; r++) {
#pragma GCC unroll 2
      for (int v = 0; v < NV; v++) {
        if (ty == LT_I8) {
          __m512i p = _mm512_mullo_epi32(_mm512_set1_epi32(((const int32_t *)(const void *)ak)[r]), _mm512_castps_si512(b[v]));
          acc[r][v] = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(acc[r][v]), p));
        } else if (ty == LT_BF16) {
          __m512 p = _mm512_mul_ps(_mm512_set1_ps(ak[r]), b[v]);
          __asm__("" : "+v"(p)); /* rounded on its own, never fused (-ffp-contract=fast is GNU C's default) */
          acc[r][v] = _mm512_add_ps(acc[r][v], p);
        } else {
          acc[r][v] = _mm512_fmadd_ps(_mm512_set1_ps(ak[r]), b[v], acc[r][v]);
        }
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < RB; r++)
#pragma GCC unroll 2
    for (int v = 0; v < NV; v++)
      _mm512_storeu_ps((float *)(D + s->dreg[i0 + r] * 64 + s->dlane[i0 + r] + 16 * v), acc[r][v]);
}

#define LIM_KERNEL(TY)                                                                            \
  LIMIT_TARGET static void lim_##TY(const lshape *s, const uint32_t *A, const uint32_t *B, const uint32_t *C, \
                                    uint32_t *D)                                                  \
  {                                                                                               \
    float ca[32 * 64] __attribute__((aligned(64))), cb[32 * 64] __attribute__((aligned(64)));    \
    lim_convert(s, A, ca);                                                                        \
    lim_convert(s, B, cb);                                                                        \
    if (s->N == 16) lim_rows(s, ca, cb, C, D, 0, 16, 1, TY);                                      \
    else for (int i0 = 0; i0 < 32; i0 += 8) lim_rows(s, ca, cb, C, D, i0, 8, 2, TY);             \
  }
/* f16 with 16 columns: B converted as it is used (step k: item k % kla of lanes 16 (k / kla) ..
 * +15, register item / 2's low or high half, vpmovdw and vcvtph2ps), which beats converting B
 * into planes first (issue #31, sixteenth stop: emu/op_mfma.c's handler does the same); A as above */
LIMIT_TARGET static void lim_f16_n16(const lshape *s, const uint32_t *A, const uint32_t *B, const uint32_t *C,
                                     uint32_t *D)
{
  float ca[32 * 64] __attribute__((aligned(64)));
  lim_convert(s, A, ca);
  const int kla = s->nra * 2;
  __m512 acc[16];
#pragma GCC unroll 16
  for (int r = 0; r < 16; r++) acc[r] = _mm512_loadu_ps((const float *)(C + s->dreg[r] * 64 + s->dlane[r]));
  for (int k = 0; k < s->K; k++) {
    const int item = k % kla;
    __m512i x = _mm512_loadu_si512(B + (item / 2) * 64 + 16 * (k / kla));
    if (item & 1) x = _mm512_srli_epi32(x, 16);
    const __m512 b = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(x));
    const float *ak = ca + s->aoff[k];
#pragma GCC unroll 16
    for (int r = 0; r < 16; r++) acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(ak[r]), b, acc[r]);
  }
#pragma GCC unroll 16
  for (int r = 0; r < 16; r++) _mm512_storeu_ps((float *)(D + s->dreg[r] * 64 + s->dlane[r]), acc[r]);
}
LIM_KERNEL(LT_F16)
LIMIT_TARGET static void lim_f16(const lshape *s, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  if (s->N == 16) lim_f16_n16(s, A, B, C, D);
  else lim_LT_F16(s, A, B, C, D);
}
LIM_KERNEL(LT_BF16)
LIM_KERNEL(LT_FP8)
LIM_KERNEL(LT_I8)
LIM_KERNEL(LT_F32)
typedef void (*lim_fn)(const lshape *, const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
static const lim_fn lim_fns[] = {lim_f16, lim_LT_BF16, lim_LT_FP8, lim_LT_I8, lim_LT_F32};
#else
static bool limit_supported(void) { return false; }
typedef void (*lim_fn)(const lshape *, const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
static const lim_fn lim_fns[] = {NULL, NULL, NULL, NULL, NULL};
#endif

static double thread_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* random element codes of moderate magnitude (no NaN, no f32 denormal on the way) */
static uint32_t rnd(uint64_t *st)
{
  *st ^= *st << 13, *st ^= *st >> 7, *st ^= *st << 17;
  return (uint32_t)(*st >> 11);
}
static uint32_t rnd_word(const mcase *c, uint64_t *st)
{
  uint32_t u = rnd(st), w = 0;
  switch (c->ty) {
  case LT_F16:
    for (int h = 0; h < 2; h++) w |= (((u >> (16 * h)) & 0x83ffu) | (13u + rnd(st) % 5) << 10) << (16 * h);
    return w;
  case LT_BF16:
    for (int h = 0; h < 2; h++) w |= (((u >> (16 * h)) & 0x807fu) | (125u + rnd(st) % 5) << 7) << (16 * h);
    return w;
  case LT_FP8:
    for (int b = 0; b < 4; b++) {
      uint32_t x = u >> (8 * b) & 0xff;
      if ((x & 0x7f) == 0x7f || x == 0x80) x ^= 1;
      w |= x << (8 * b);
    }
    return w;
  case LT_F32:
    return (u & 0x807fffffu) | (126u + rnd(st) % 3) << 23;
  default:
    return u;
  }
}

typedef struct { emu_wave w; emu_wg g; emu_fault f; } fake_wave;

/* one row of the MFMA table; returns false (message printed) when something is wrong */
static bool mfma_case(FILE *out, const mcase *c, bool have_limit)
{
  emu_insn in;
  if (!emu_insn_prepare(c->text, &in)) {
    fprintf(out, "  %-34s *** NOT IMPLEMENTED: %s ***\n", c->text, in.why ? in.why : "?");
    return false;
  }
  fake_wave *x = ll_xcalloc(1, sizeof *x);
  uint32_t *file = memset(ll_xaligned((size_t)EMU_NVGPR * EMU_LANES * 4), 0, (size_t)EMU_NVGPR * EMU_LANES * 4); /* as emu_launch's */
  x->w.v = file;
  x->w.a = file + 256 * EMU_LANES;
  x->w.nv = 256, x->w.na = 256;
  x->g.arch = c->arch;
  x->w.wg = &x->g; /* no emu_wg.mfma: every step converts B, as the limit kernel does */
  x->w.fault = &x->f;
  x->w.nlanes = 64;
  emu_wr64s(&x->w, EMU_S_EXEC, ~0ull);
  lshape *s = ll_xcalloc(1, sizeof *s);
  lshape_make(c, s);
  uint64_t st = 0x9e3779b97f4a7c15ull ^ (uint64_t)c->K * 977;
  for (int r = 0; r < s->nra; r++)
    for (int l = 0; l < 64; l++) file[r * 64 + l] = rnd_word(c, &st), file[(32 + r) * 64 + l] = rnd_word(c, &st);
  uint32_t *acc = x->w.a; /* a[0..nout) */
  for (int r = 0; r < s->nout; r++)
    for (int l = 0; l < 64; l++) acc[r * 64 + l] = c->ty == LT_I8 ? rnd(&st) : emu_u32f((float)(int)(rnd(&st) % 64) - 32.0f);
  uint32_t *c0 = ll_xmalloc((size_t)s->nout * 64 * 4), *dl = ll_xmalloc((size_t)s->nout * 64 * 4);
  memcpy(c0, acc, (size_t)s->nout * 64 * 4);
  bool ok = true;
  /* one step each from the same state: the limit kernel must give the emulator's bits */
  if (in.fn(&x->w, &in) != EMU_OK) {
    fprintf(out, "  %-34s FAULT: %s\n", c->text, x->f.msg);
    ok = false;
    goto done;
  }
  lim_fn lf = have_limit ? lim_fns[c->ty] : NULL;
  if (lf) {
    lf(s, file, file + 32 * 64, c0, dl);
    if (memcmp(dl, acc, (size_t)s->nout * 64 * 4) != 0) {
      int bad = 0;
      while (dl[bad] == acc[bad]) bad++;
      fprintf(out, "  %-34s MISMATCH: the limit kernel's D differs from the emulator's at register %d lane %d "
                   "(0x%08x vs 0x%08x): not the same semantics, no ratio\n",
              c->text, bad / 64, bad % 64, dl[bad], acc[bad]);
      ok = false;
      goto done;
    }
  }
  /* timing: each side for about 0.25 s of thread CPU time, in place (D = C) */
  double te = 0, tl = 0;
  long ne = 0, nl = 0;
  for (long n = 64; te < 0.25; n *= 2) {
    double t0 = thread_cpu();
    for (long i = 0; i < n; i++) in.fn(&x->w, &in);
    te += thread_cpu() - t0, ne += n;
  }
  if (lf)
    for (long n = 256; tl < 0.25; n *= 2) {
      double t0 = thread_cpu();
      for (long i = 0; i < n; i++) lf(s, file, file + 32 * 64, dl, dl);
      tl += thread_cpu() - t0, nl += n;
    }
  double re = ne / te, rl = lf ? nl / tl : 0;
  char mn[48];
  snprintf(mn, sizeof mn, "%.*s", (int)strcspn(c->text, " "), c->text);
  if (lf)
    fprintf(out, "  %-30s %-12s %-6s %7.3f M/s  limit %7.3f M/s  ratio %5.1f%%  (D bit-identical)  target >= 50%%: %s\n", mn,
            c->label, emu_arch_name(c->arch), re / 1e6, rl / 1e6, 100 * re / rl, re >= 0.5 * rl ? "met" : "NOT met");
  else
    fprintf(out, "  %-30s %-12s %-6s %7.3f M/s  limit not measured (no AVX-512/F16C on this CPU)\n", mn, c->label,
            emu_arch_name(c->arch), re / 1e6);
done:
  free(c0);
  free(dl);
  free(s);
  free(file);
  free(x);
  return ok;
}

static int mfma_table(FILE *out)
{
  bool lim = limit_supported();
  fprintf(out, "MFMA, one core (thread CPU time): emulator handler vs the CPU's limit for the same semantics "
               "(a C kernel in emu/bench.c: F16C/AVX-512, documented order)\n");
  int rc = LL_EXIT_OK;
  for (size_t i = 0; i < sizeof mcases / sizeof mcases[0]; i++)
    if (!mfma_case(out, &mcases[i], lim)) rc = LL_EXIT_FAIL;
  return rc;
}

#define BENCH_REPEATS 3
#define BENCH_LOOP_ITERS 200000 /* about 0.6 s of VALU/DS loop on one core here: thread start-up and
                                 * the launch's set-up are well under 1% of it */

/* the run of median wall time of BENCH_REPEATS, with the fastest and slowest wall times */
static bench_run *median_run(bench_run *r, double *lo, double *hi)
{
  int idx[BENCH_REPEATS];
  for (int i = 0; i < BENCH_REPEATS; i++) idx[i] = i;
  for (int i = 1; i < BENCH_REPEATS; i++)
    for (int j = i; j > 0 && r[idx[j]].secs < r[idx[j - 1]].secs; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  *lo = r[idx[0]].secs;
  *hi = r[idx[BENCH_REPEATS - 1]].secs;
  return &r[idx[BENCH_REPEATS / 2]];
}

/* one kernel's loop on `grid` workgroups, one worker thread then all cores */
static int loop_pair(FILE *out, const char *build_dir, const char *arch, const char *name, uint32_t grid, int iters,
                     long ncores, bool mfma)
{
  int rc = LL_EXIT_OK;
  const emu_kernel *k = NULL;
  emu_codeobj *co = load_kernel(out, build_dir, arch, name, &rc, &k);
  if (!co) return rc;
  /* BENCH_REPEATS runs of each configuration, interleaved (1 core, all cores, 1 core, ...) so a
   * burst of load elsewhere hits both; each figure is the run of median wall time */
  bench_run one[BENCH_REPEATS], all[BENCH_REPEATS];
  for (int i = 0; i < BENCH_REPEATS; i++) {
    run_one(co, k, grid, iters, 1, &one[i]);
    run_one(co, k, grid, iters, (int)ncores, &all[i]);
    if (one[i].rc || all[i].rc) {
      fprintf(out, "%s FAILED: %s\n", name, one[i].rc ? one[i].msg : all[i].msg);
      emu_codeobj_free(co);
      return LL_EXIT_FAIL;
    }
  }
  emu_codeobj_free(co);
  double lo1, hi1, lon, hin;
  bench_run *o1 = median_run(one, &lo1, &hi1), *on = median_run(all, &lon, &hin);
  if (mfma && o1->mfma == 0) {
    fprintf(out, "%s FAILED: the kernel executed no v_mfma instruction\n", name);
    return LL_EXIT_FAIL;
  }
  const char *unit = mfma ? "M v_mfma_f32_16x16x16_f16/s" : "M wave-instructions/s";
  double n1 = (double)(mfma ? o1->mfma : o1->wave_insns), nn = (double)(mfma ? on->mfma : on->wave_insns);
  double r1 = n1 / o1->secs, rn = nn / on->secs, rc1 = n1 / o1->cpu, rcn = nn / on->cpu;
  const char *what = mfma ? "MFMA loop" : "VALU/DS loop";
  fprintf(out, "  %-12s %u workgroups, 1 core:   %8.3f %s wall (%.3f s; %.3f-%.3f over %d runs), %8.3f per CPU-second",
          what, grid, r1 / 1e6, unit, o1->secs, lo1, hi1, BENCH_REPEATS, rc1 / 1e6);
  if (!mfma) fprintf(out, "  target >= 40 M per core: %s", rc1 >= 40e6 ? "met (CPU time)" : "NOT met");
  fprintf(out, "\n");
  double sc = rn / r1;
  fprintf(out, "  %-12s %u workgroups, %ld cores: %8.3f %s wall (%.3f s; %.3f-%.3f over %d runs), %8.3f per CPU-second; "
               "scaling %.2fx wall of the medians (CPU time per instruction %.2fx the 1-thread run's)  target >= 1.8x: %s\n",
          what, grid, ncores, rn / 1e6, unit, on->secs, lon, hin, BENCH_REPEATS, rcn / 1e6, sc, rc1 / rcn,
          ncores < 2 ? "n/a (one core)" : sc >= 1.8 ? "met" : "NOT met");
  return LL_EXIT_OK;
}


/* ---- the loops' arithmetic written natively (issue #31) -------------------------------------------
 * The same per-lane arithmetic as the kernels' machine code (read from the gfx950 code objects:
 * fused multiply-adds where clang emitted v_fmac/v_pk_fma, the hash's shifts and xor, the LDS
 * exchange as a rotation by one lane), 64 lanes per workgroup, with AVX2+FMA where the CPU has it
 * (else plain C with fmaf). Its output must be bit-identical to the emulator's before a ratio is
 * printed. */
#if defined(__x86_64__) && defined(__GNUC__)
#define NAT_TARGET __attribute__((target("avx2,fma")))
NAT_TARGET static void native_valu_ds_avx2(float *out, uint32_t grid, int iters)
{
  for (uint32_t wg = 0; wg < grid; wg++) {
    __m256 a[8], b[8], c[8];
    __m256i u[8];
    float lds[72];
    for (int v = 0; v < 8; v++) {
      __m256i t = _mm256_add_epi32(_mm256_set1_epi32(8 * v), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
      a[v] = _mm256_mul_ps(_mm256_set1_ps(0.5f), _mm256_cvtepi32_ps(t));
      b[v] = _mm256_set1_ps(1.0f), c[v] = _mm256_setzero_ps();
      u[v] = _mm256_mullo_epi32(t, _mm256_set1_epi32((int)2654435761u));
    }
    for (int i = 0; i < iters; i++) {
      for (int v = 0; v < 8; v++) {
        __m256 h = _mm256_mul_ps(_mm256_set1_ps(0.5f), c[v]);
        __asm__("" : "+x"(h)); /* v_mul_f32 then v_pk_fma_f32: not one fused operation */
        a[v] = _mm256_fmadd_ps(a[v], _mm256_set1_ps(1.0001f), b[v]);
        b[v] = _mm256_fmsub_ps(b[v], _mm256_set1_ps(0.999f), h);
        u[v] = _mm256_add_epi32(_mm256_xor_si256(_mm256_slli_epi32(u[v], 3), u[v]), _mm256_set1_epi32((int)0x9e3779b9u));
        u[v] = _mm256_xor_si256(u[v], _mm256_srli_epi32(u[v], 7));
        __m256 f = _mm256_cvtepi32_ps(_mm256_and_si256(u[v], _mm256_set1_epi32(255)));
        _mm256_storeu_ps(lds + 8 * v, _mm256_add_ps(a[v], f));
      }
      lds[64] = lds[0];
      for (int v = 0; v < 8; v++) c[v] = _mm256_add_ps(c[v], _mm256_loadu_ps(lds + 1 + 8 * v));
    }
    for (int v = 0; v < 8; v++) {
      __m256 f = _mm256_cvtepi32_ps(_mm256_and_si256(u[v], _mm256_set1_epi32(1023)));
      _mm256_storeu_ps(out + wg * 64 + 8 * v, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a[v], b[v]), c[v]), f));
    }
  }
}

NAT_TARGET static void native_valu_avx2(float *out, uint32_t grid, int iters)
{
  for (uint32_t wg = 0; wg < grid; wg++) {
    __m256 x[8], y[8];
    for (int v = 0; v < 8; v++) {
      __m256i t = _mm256_add_epi32(_mm256_set1_epi32(8 * v), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
      x[v] = _mm256_mul_ps(_mm256_set1_ps(0.25f), _mm256_cvtepi32_ps(t)), y[v] = _mm256_set1_ps(1.0f);
    }
    for (int i = 0; i < iters; i++)
      for (int v = 0; v < 8; v++) {
        x[v] = _mm256_fmadd_ps(x[v], _mm256_set1_ps(0.999f), _mm256_set1_ps(0.5f));
        y[v] = _mm256_fmadd_ps(y[v], _mm256_set1_ps(0.9999f), _mm256_set1_ps(-0.25f));
      }
    for (int v = 0; v < 8; v++) _mm256_storeu_ps(out + wg * 64 + 8 * v, _mm256_add_ps(x[v], y[v]));
  }
}
static bool native_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#else
static void native_valu_ds_avx2(float *out, uint32_t grid, int iters) { (void)out, (void)grid, (void)iters; }
static void native_valu_avx2(float *out, uint32_t grid, int iters) { (void)out, (void)grid, (void)iters; }
static bool native_avx2(void) { return false; }
#endif

static void native_valu_ds_c(float *out, uint32_t grid, int iters)
{
  for (uint32_t wg = 0; wg < grid; wg++) {
    float a[64], b[64], c[64], lds[64];
    uint32_t u[64];
    for (uint32_t t = 0; t < 64; t++) a[t] = 0.5f * (float)t, b[t] = 1.0f, c[t] = 0.0f, u[t] = t * 2654435761u;
    for (int i = 0; i < iters; i++) {
      for (int t = 0; t < 64; t++) {
        float h = 0.5f * c[t];
        a[t] = fmaf(a[t], 1.0001f, b[t]);
        b[t] = fmaf(b[t], 0.999f, -h);
        u[t] = ((u[t] << 3) ^ u[t]) + 0x9e3779b9u;
        u[t] ^= u[t] >> 7;
        lds[t] = a[t] + (float)(u[t] & 255);
      }
      for (int t = 0; t < 64; t++) c[t] += lds[(t + 1) & 63];
    }
    for (int t = 0; t < 64; t++) out[wg * 64 + t] = a[t] + b[t] + c[t] + (float)(u[t] & 1023);
  }
}

static void native_valu_c(float *out, uint32_t grid, int iters)
{
  for (uint32_t wg = 0; wg < grid; wg++)
    for (int t = 0; t < 64; t++) {
      float x = 0.25f * (float)t, y = 1.0f;
      for (int i = 0; i < iters; i++) x = fmaf(x, 0.999f, 0.5f), y = fmaf(y, 0.9999f, -0.25f);
      out[wg * 64 + t] = x + y;
    }
}

#define NATIVE_REPEATS 5
/* One loop kernel on one worker thread against its native version: the same workgroups and
 * iterations, each timed in thread CPU time (the median of NATIVE_REPEATS), outputs compared bit for
 * bit first. The ratio is native time / emulator time: the emulator's speed as a fraction of the
 * CPU's for the same arithmetic. */
static int native_ratio(FILE *out, const char *build_dir, const char *arch, const char *name, uint32_t grid, int iters,
                        void (*nat)(float *, uint32_t, int), const char *natname)
{
  int rc = LL_EXIT_OK;
  const emu_kernel *k = NULL;
  emu_codeobj *co = load_kernel(out, build_dir, arch, name, &rc, &k);
  if (!co) return rc;
  float *emu_out = ll_xcalloc((size_t)grid * 64, sizeof(float)), *nat_out = ll_xcalloc((size_t)grid * 64, sizeof(float));
  double te[NATIVE_REPEATS], tn[NATIVE_REPEATS];
  uint64_t insns = 0;
  for (int r = 0; r < NATIVE_REPEATS; r++) {
    bench_run br;
    run_one_out(co, k, grid, iters, 1, &br, emu_out);
    if (br.rc) {
      fprintf(out, "  %s FAILED: %s\n", name, br.msg);
      rc = LL_EXIT_FAIL;
      goto done;
    }
    te[r] = br.cpu, insns = br.wave_insns;
    double t0 = thread_cpu();
    nat(nat_out, grid, iters);
    tn[r] = thread_cpu() - t0;
  }
  size_t nonfinite = 0;
  for (size_t i = 0; i < (size_t)grid * 64; i++) nonfinite += !isfinite(emu_out[i]);
  if (nonfinite) {
    fprintf(out, "  %-14s %zu of %u outputs are not finite: no bit-for-bit check possible, no ratio\n", name, nonfinite, grid * 64);
    rc = LL_EXIT_FAIL;
    goto done;
  }
  if (memcmp(emu_out, nat_out, (size_t)grid * 64 * sizeof(float)) != 0) {
    int bad = 0;
    while (emu_out[bad] == nat_out[bad]) bad++;
    fprintf(out, "  %-14s MISMATCH: the native loop's output differs from the emulator's at workgroup %d lane %d "
                 "(%a vs %a): not the same arithmetic, no ratio\n", name, bad / 64, bad % 64, nat_out[bad], emu_out[bad]);
    rc = LL_EXIT_FAIL;
    goto done;
  }
  for (int i = 1; i < NATIVE_REPEATS; i++) /* medians */
    for (int j = i; j > 0 && te[j] < te[j - 1]; j--) { double t = te[j]; te[j] = te[j - 1]; te[j - 1] = t; }
  for (int i = 1; i < NATIVE_REPEATS; i++)
    for (int j = i; j > 0 && tn[j] < tn[j - 1]; j--) { double t = tn[j]; tn[j] = tn[j - 1]; tn[j - 1] = t; }
  double e1 = te[NATIVE_REPEATS / 2], n1 = tn[NATIVE_REPEATS / 2];
  fprintf(out, "  %-14s %u workgroups x %d iterations, 1 thread: emulator %.3f CPU-s (%.1f M wave-instructions/CPU-s), "
               "native (%s) %.4f s; output bit-identical; ratio native/emulator %.3f  target >= 0.25: %s\n",
          name, grid, iters, e1, (double)insns / e1 / 1e6, natname, n1, n1 / e1, n1 / e1 >= 0.25 ? "met" : "NOT met");
done:
  free(emu_out);
  free(nat_out);
  emu_codeobj_free(co);
  return rc;
}

/* Decoding a code object's whole text (what a launch decodes when its kernel's code can leave it, and
 * what a HIP program's start decoded for every kernel it was built with until issue #31's thirty-eighth
 * stop; emu_codeobj_kernel_program). The attention kernels' texts one after another, as one code object
 * with three kernels has them, decoded on one thread and in spans on every core (emu/decode.c
 * emu_program_decode_n), best of 5; the two decodes' record counts compared (test_emu compares the records) */
static int decode_figure(FILE *out, const char *build_dir, const char *arch, long ncores)
{
  static const char *const names[] = {"prefill_single", "prefill_ragged", "prefill_paged"};
  uint8_t *text = NULL;
  size_t n = 0;
  int rc = 0;
  emu_arch a = EMU_GFX950;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    emu_codeobj *co = load(out, build_dir, arch, names[i], &rc);
    if (!co) {
      free(text);
      return rc;
    }
    a = co->arch;
    text = ll_xrealloc(text, n + co->text_size);
    memcpy(text + n, co->image + co->text_vaddr, co->text_size);
    n += co->text_size;
    emu_codeobj_free(co);
  }
  double best[2] = {1e30, 1e30};
  size_t ninsn = 0;
  for (int rep = 0; rep < 5; rep++)
    for (int k = 0; k < 2; k++) {
      ll_err e = {0};
      const double t0 = ll_now();
      emu_program *p = emu_program_decode_n(a, text, n, 0, k ? (int)(ncores > 1 ? ncores : 2) : 1, &e);
      const double t = ll_now() - t0;
      if (!p) {
        fprintf(out, "bench: decode: %s\n", e.msg);
        free(text);
        return e.code ? e.code : LL_EXIT_USAGE;
      }
      if (k == 0) ninsn = p->n;
      else if (p->n != ninsn) {
        fprintf(out, "  decode MISMATCH: %zu records in spans, %zu on one thread\n", p->n, ninsn);
        rc = LL_EXIT_FAIL;
      }
      if (t < best[k]) best[k] = t;
      emu_program_free(p);
    }
  fprintf(out, "  decode (a whole code object's text): %zu instructions (%zu KiB of text) in %.1f ms on 1 thread (%.2f us each), "
               "%.1f ms in %ld spans (%.2fx)\n",
          ninsn, n / 1024, 1e3 * best[0], 1e6 * best[0] / (double)(ninsn ? ninsn : 1), 1e3 * best[1],
          ncores > 1 ? ncores : 2, best[0] / best[1]);
  free(text);
  return rc;
}

int emu_bench(FILE *out, const char *build_dir)
{
  const char *arch = "gfx950";
  long ncores = ll_ncpus();
  char lavg[64] = "unknown";
  FILE *la = fopen("/proc/loadavg", "r");
  if (la) {
    if (!fgets(lavg, sizeof lavg, la)) snprintf(lavg, sizeof lavg, "unknown");
    lavg[strcspn(lavg, "\n")] = 0;
    fclose(la);
  }
  /* the machine's load is printed because other processes sharing the cores lower these figures */
  fprintf(out, "emulator throughput (%ld cores; load average %s)\n", ncores, lavg);
  int rc = mfma_table(out);

  uint32_t grid = (uint32_t)(4 * ncores); /* >= 2 workgroups per core on every run */
  fprintf(out, "loops (%s code objects from %s/%s/kernels), the same grid on 1 worker thread and on %ld:\n", arch,
          build_dir, arch, ncores);
  int r = loop_pair(out, build_dir, arch, "bench_valu_ds", grid, BENCH_LOOP_ITERS, ncores, false);
  if (r > rc) rc = r;
  int op = emu_ops_find("v_mfma_f32_16x16x16_f16");
  if (op < 0 || !emu_ops_get((size_t)op)->fn) {
    fprintf(out, "  MFMA loop: *** MFMA NOT IMPLEMENTED YET: v_mfma_f32_16x16x16_f16 has no semantics, "
                 "no MFMA figure ***\n");
    return rc > LL_EXIT_FAIL ? rc : LL_EXIT_FAIL;
  }
  r = loop_pair(out, build_dir, arch, "bench_mfma", grid, BENCH_LOOP_ITERS, ncores, true);
  if (r > rc) rc = r;
  bool nav = native_avx2();
  fprintf(out, "loops against the same arithmetic written natively (emu/bench.c, %s), one thread:\n",
          nav ? "AVX2+FMA" : "plain C with fmaf");
  /* bench_valu_ds's values overflow to infinities and NaNs within some 150 iterations (NaN payloads
   * are not what this compares): many workgroups of 100 iterations, every output finite; 4096 of
   * them, about 25 ms of emulator a run (512, 4 ms a run, moved by more than a change from run to
   * run: docs/performance.md, eighteenth stop) */
  r = native_ratio(out, build_dir, arch, "bench_valu_ds", 4096, 100, nav ? native_valu_ds_avx2 : native_valu_ds_c,
                   nav ? "AVX2+FMA" : "C");
  if (r > rc) rc = r;
  r = native_ratio(out, build_dir, arch, "bench_valu", 8, BENCH_LOOP_ITERS, nav ? native_valu_avx2 : native_valu_c,
                   nav ? "AVX2+FMA" : "C");
  if (r > rc) rc = r;
  r = decode_figure(out, build_dir, arch, ncores);
  return r > rc ? r : rc;
}
