/* test_hip — ordinary HIP kernels on lanelab: the HIP subset (hip/include, docs/hip-subset.md),
 * `lanelab cc`, and the corpus in tests/hip/. Each corpus kernel is compiled for gfx942 and
 * gfx950 with `lanelab cc`, run on the emulator with `lanelab run`, and its output compared
 * with a CPU reference written here (from the kernel's stated meaning, never from running it).
 *
 * Criterion runs every test in its own process, so a test works inside its own temporary folder
 * (chdir) and names its files relatively. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/isa.h"
#include "oracle/oracle.h"
#include "util/util.h"

#define LANELAB LANELAB_BUILD "/lanelab"
#define HIPDIR LANELAB_ROOT "/tests/hip"
static const char *const arches[2] = {"gfx942", "gfx950"};

/* ---- helpers --------------------------------------------------------------------------------*/
/* Runs a shell command; returns its exit status; *err_out (may be NULL) gets its stderr. */
static int sh(char **err_out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **err_out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ll_buf cmd = {0};
  ll_buf_vprintf(&cmd, fmt, ap);
  va_end(ap);
  char errf[] = "/tmp/lanelab-test-hip-err-XXXXXX";
  int fd = mkstemp(errf);
  cr_assert(fd >= 0);
  close(fd);
  char *full = ll_fmt("%s 2>%s", ll_buf_str(&cmd), errf);
  int st = system(full);
  free(full);
  cr_assert(WIFEXITED(st), "'%s' died (status 0x%x)", ll_buf_str(&cmd), st);
  size_t n;
  char *e = ll_read_file(errf, &n, NULL);
  unlink(errf);
  if (err_out) *err_out = e ? e : ll_xstrdup("");
  else free(e);
  ll_buf_free(&cmd);
  return WEXITSTATUS(st);
}

/* A fresh temporary folder, made the current directory; removed after the test. */
static char test_dir[64];
static void enter_tmpdir(void) {
  snprintf(test_dir, sizeof test_dir, "/tmp/lanelab-test-hip-XXXXXX");
  cr_assert_not_null(mkdtemp(test_dir));
  cr_assert_eq(chdir(test_dir), 0);
}
static void leave_tmpdir(void) {
  if (!test_dir[0]) return;
  if (chdir("/") == 0) {
    char *cmd = ll_fmt("rm -rf '%s'", test_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", test_dir);
    free(cmd);
  }
}
TestSuite(corpus, .fini = leave_tmpdir);
TestSuite(cc, .fini = leave_tmpdir);
TestSuite(subset, .fini = leave_tmpdir);
TestSuite(math, .fini = leave_tmpdir);

static void put(const char *path, const void *data, size_t n) {
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(path, data, n, &e), "%s", e.msg);
}

static void *get(const char *path, size_t want) {
  size_t n = 0;
  ll_err e = {0};
  void *p = ll_read_file(path, &n, &e);
  cr_assert_not_null(p, "%s", e.msg);
  cr_assert_eq(n, want, "%s: %zu bytes, want %zu", path, n, want);
  return p;
}

/* `lanelab cc tests/hip/NAME.hip --arch all -o .` : ./gfx942/NAME.co and ./gfx950/NAME.co. */
static void cc_corpus(const char *name) {
  char *err;
  int rc = sh(&err, LANELAB " -q cc " HIPDIR "/%s.hip --arch all -o .", name);
  cr_assert_eq(rc, 0, "lanelab cc %s.hip: exit %d: %s", name, rc, err);
  free(err);
  for (int a = 0; a < 2; a++) {
    char *co = ll_fmt("%s/%s.co", arches[a], name), *s = ll_fmt("%s/%s.s", arches[a], name);
    cr_assert(access(co, R_OK) == 0 && access(s, R_OK) == 0, "lanelab cc left no %s and %s", co, s);
    free(co);
    free(s);
  }
}

/* A corpus test starts in its own folder with tests/hip/NAME.hip compiled for both arches. */
static void corpus_begin(const char *name) {
  enter_tmpdir();
  cc_corpus(name);
}

/* `lanelab run ARCH/NAME.co NAME --backend emu ARGS` must exit 0: the kernel is found by its C++
 * name (the corpus kernels are not extern "C"). */
static void run_kernel(const char *arch, const char *file, const char *kernel, const char *args) {
  char *co = ll_fmt("%s/%s.co", arch, file);
  char *err;
  int rc = sh(&err, LANELAB " -q run %s '%s' --backend emu %s", co, kernel, args);
  cr_assert_eq(rc, 0, "%s: lanelab run %s '%s' %s: exit %d: %s", arch, co, kernel, args, rc, err);
  free(err);
  free(co);
}
static void run_corpus(const char *arch, const char *name, const char *args) { run_kernel(arch, name, name, args); }

/* `lanelab compare GOT ref.bin --dtype DTYPE --atol A --rtol R` must exit 0, ref.bin holding ref
 * (size bytes): |got - ref| <= atol + rtol |ref| per element, NaN against NaN and the same
 * infinity agreeing. Bit-exact checks compare 32-bit words (dtype u32, tolerance 0), which also
 * covers 64-bit values and tells -0 from +0. */
static void expect_compare(const char *what, const char *arch, const char *got_file, const void *ref, size_t size,
                           const char *dtype, double atol, double rtol) {
  put("ref.bin", ref, size);
  char *out;
  int rc = sh(&out, "(" LANELAB " compare %s ref.bin --dtype %s --atol %g --rtol %g 1>&2)", got_file, dtype, atol, rtol);
  cr_assert_eq(rc, 0, "%s on %s: lanelab compare %s ref.bin --dtype %s --atol %g --rtol %g: exit %d:\n%s", what, arch,
               got_file, dtype, atol, rtol, rc, out);
  free(out);
}
static void expect_file_f32(const char *what, const char *arch, const char *got_file, const float *ref, size_t n,
                            double atol, double rtol) {
  expect_compare(what, arch, got_file, ref, n * sizeof *ref, "f32", atol, rtol);
}
static void expect_file_bytes(const char *what, const char *arch, const char *got_file, const void *ref, size_t size) {
  expect_compare(what, arch, got_file, ref, size, "u32", 0, 0);
}
/* Runs corpus kernel `name` on both arches with args; its output got.bin must match ref. */
static void check_f32(const char *name, const char *args, const float *ref, size_t n, double atol, double rtol) {
  for (int a = 0; a < 2; a++) {
    run_corpus(arches[a], name, args);
    expect_file_f32(name, arches[a], "got.bin", ref, n, atol, rtol);
  }
}
static void check_bytes(const char *name, const char *args, const void *ref, size_t size) {
  for (int a = 0; a < 2; a++) {
    run_corpus(arches[a], name, args);
    expect_file_bytes(name, arches[a], "got.bin", ref, size);
  }
}

/* A deterministic generator (xorshift64*), independent of anything under test. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}
static float urand(float lo, float hi) { return lo + (hi - lo) * (float)((rnd() >> 40) * 0x1p-24); }

#define FOR_ARCH for (int ai = 0; ai < 2; ai++)
#define ARCH arches[ai]

/* ---- the corpus -----------------------------------------------------------------------------*/
Test(corpus, saxpy, .timeout = 300) {
  corpus_begin("saxpy");
  enum { N = 1000 };
  float x[N], y[N], ref[N];
  for (int i = 0; i < N; i++) x[i] = urand(-10, 10), y[i] = urand(-10, 10), ref[i] = (float)(2.5 * x[i] + y[i]);
  put("x.bin", x, sizeof x);
  put("y.bin", y, sizeof y);
  check_f32("saxpy", "--grid 4 --block 256 --arg in:x.bin --arg io:y.bin:got.bin --arg f32:2.5 --arg i32:1000", ref, N, 1e-5, 1e-6);
}

Test(corpus, block_reduce, .timeout = 300) {
  corpus_begin("block_reduce");
  enum { N = 1000, B = 4 };
  float x[N], ref[B] = {0};
  double acc[B] = {0};
  for (int i = 0; i < N; i++) x[i] = urand(-1, 1), acc[i / 256] += x[i];
  for (int b = 0; b < B; b++) ref[b] = (float)acc[b];
  put("x.bin", x, sizeof x);
  check_f32("block_reduce", "--grid 4 --block 256 --arg in:x.bin --arg out:16:got.bin --arg i32:1000", ref, B, 1e-5, 1e-5);
}

/* The regression behind the subset's "no conversion" rule: float partial sums through __shfl_xor
 * once became integers (every row sum wrong). The inputs have fractional parts, so a truncating
 * shuffle cannot match. */
Test(corpus, warp_reduce_float_shfl_xor_keeps_floats, .timeout = 300) {
  corpus_begin("warp_reduce");
  enum { N = 256, W = 4 };
  float x[N], ref[W];
  double acc[W] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.37f * (float)(i % 13) + 0.125f, acc[i / 64] += x[i];
  for (int w = 0; w < W; w++) ref[w] = (float)acc[w];
  put("x.bin", x, sizeof x);
  check_f32("warp_reduce", "--grid 2 --block 128 --arg in:x.bin --arg out:16:got.bin", ref, W, 0, 1e-6);
}

Test(corpus, row_softmax, .timeout = 300) {
  corpus_begin("row_softmax");
  enum { R = 8, C = 128 };
  float x[R * C], ref[R * C];
  for (int i = 0; i < R * C; i++) x[i] = urand(-8, 8);
  for (int r = 0; r < R; r++) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < C; c++) m = fmax(m, x[r * C + c]);
    for (int c = 0; c < C; c++) s += exp(x[r * C + c] - m);
    for (int c = 0; c < C; c++) ref[r * C + c] = (float)(exp(x[r * C + c] - m) / s);
  }
  put("x.bin", x, sizeof x);
  check_f32("row_softmax", "--grid 8 --block 64 --arg in:x.bin --arg out:4096:got.bin --arg i32:128", ref, R * C, 1e-7, 1e-5);
}

Test(corpus, layernorm, .timeout = 300) {
  corpus_begin("layernorm");
  enum { R = 4, C = 512 };
  static float x[R * C], g[C], b[C], ref[R * C];
  for (int i = 0; i < R * C; i++) x[i] = urand(-3, 5);
  for (int c = 0; c < C; c++) g[c] = urand(0.5f, 1.5f), b[c] = urand(-0.5f, 0.5f);
  for (int r = 0; r < R; r++) {
    double m = 0, v = 0;
    for (int c = 0; c < C; c++) m += x[r * C + c];
    m /= C;
    for (int c = 0; c < C; c++) v += (x[r * C + c] - m) * (x[r * C + c] - m);
    v /= C;
    for (int c = 0; c < C; c++) ref[r * C + c] = (float)((x[r * C + c] - m) / sqrt(v + 1e-5) * g[c] + b[c]);
  }
  put("x.bin", x, sizeof x);
  put("g.bin", g, sizeof g);
  put("b.bin", b, sizeof b);
  check_f32("layernorm",
            "--grid 4 --block 256 --arg in:x.bin --arg in:g.bin --arg in:b.bin --arg out:8192:got.bin "
            "--arg i32:512 --arg f32:1e-5",
            ref, R * C, 1e-5, 1e-5);
}

Test(corpus, transpose_lds, .timeout = 300) {
  corpus_begin("transpose_lds");
  enum { R = 40, C = 72 };
  float x[R * C], ref[R * C];
  for (int i = 0; i < R * C; i++) x[i] = (float)i;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) ref[c * R + r] = x[r * C + c];
  put("x.bin", x, sizeof x);
  check_bytes("transpose_lds", "--grid 3,2 --block 32,8 --arg in:x.bin --arg out:11520:got.bin --arg i32:40 --arg i32:72", ref, sizeof ref);
}

/* Data in the code object: the emulator maps the module's image and relocates it, so tables
 * and variables are where the code's PC-relative addresses say (a fault before, issue #10's
 * leftover). Expected values from the kernel's stated meaning. */
Test(corpus, constant_tables_and_device_globals, .timeout = 300) {
  corpus_begin("globals");
  enum { N = 256 };
  int32_t idx[N];
  float ref[N];
  const float coef[8] = {1, 2, 3, 4, 5, 6, 7, 8}, va[4] = {1, 2, 3, 4}, vb[4] = {10, 20, 30, 40};
  uint32_t hits = 0;
  for (int i = 0; i < N; i++) {
    int j = idx[i] = (int32_t)(rnd() % 1000);
    ref[i] = coef[j & 7] + (0.5f + (float)(j & 15)) + ((j >> 2) & 1 ? vb : va)[j & 3];
    hits += j % 3 == 0;
  }
  put("idx.bin", idx, sizeof idx);
  FOR_ARCH {
    run_corpus(ARCH, "globals", "--grid 4 --block 64 --arg in:idx.bin --arg out:1024:got.bin --arg out:4:cnt.bin");
    expect_file_bytes("globals values", ARCH, "got.bin", ref, sizeof ref);
    /* the last block to pass its barrier saw every earlier block's hits, and at least its own:
     * the maximum is all hits (blocks run one after another or interleaved, never lost) */
    expect_file_bytes("globals .bss counter", ARCH, "cnt.bin", &hits, 4);
  }
}

/* HIP's 3-element vectors in arrays of structures: float3 is 12 bytes (the kernel reads element i
 * at 12 i), int3 12, double3 24; operators element-wise. The reference follows the kernel's
 * stated arithmetic in float, in the same order. The double sums are of values with few
 * significant bits (results are multiples of 1/128 below 2^8, so every partial sum is exact in
 * any order). */
Test(corpus, vec3_arrays_of_structures, .timeout = 300) {
  corpus_begin("vec3");
  enum { N = 200 };
  float pos[N * 3], vel[N * 3], ref[N * 3];
  int32_t cref[N * 3];
  double sref[3] = {0, 0, 0};
  const float dt = 0.25f;
  for (int i = 0; i < N * 3; i++) {
    pos[i] = (float)(rnd() % 4096) / 64.0f, vel[i] = (float)((int)(rnd() % 256) - 128) / 16.0f;
    float p = pos[i] + vel[i] * dt;
    p = 0.5f * (p + pos[i]) + p;
    ref[i] = p;
    cref[i] = (int)p / 2;
    sref[i % 3] += (double)p;
  }
  put("pos.bin", pos, sizeof pos);
  put("vel.bin", vel, sizeof vel);
  FOR_ARCH {
    run_corpus(ARCH, "vec3",
               "--grid 4 --block 64 --arg in:pos.bin --arg in:vel.bin --arg out:2400:got.bin --arg out:2400:cell.bin "
               "--arg out:24:sum.bin --arg f32:0.25 --arg i32:200");
    expect_file_bytes("vec3 float3", ARCH, "got.bin", ref, sizeof ref);
    expect_file_bytes("vec3 int3", ARCH, "cell.bin", cref, sizeof cref);
    expect_file_bytes("vec3 double3 sums", ARCH, "sum.bin", sref, sizeof sref);
  }
}

/* Atomics under contention across workgroups that run at the same time: 32 blocks x 64 lanes x 16
 * iterations add to one word each. A lost update (a plain read-modify-write in the emulator, which
 * made double_reduce fail now and then in CI) shows as a short total; the steps are powers of two,
 * so the totals are exact in any order. */
Test(corpus, atomics_lose_no_update_under_contention, .timeout = 300) {
  corpus_begin("atomic_contention");
  const uint32_t n = 32 * 64 * 16, c32 = n;
  const uint64_t c64 = 3ull * n;
  const double cd = 0.5 * n;
  const float cf = 0.25f * (float)n;
  FOR_ARCH {
    for (int rep = 0; rep < 3; rep++) {
      run_corpus(ARCH, "atomic_contention",
                 "--grid 32 --block 64 --arg out:4:c32.bin --arg out:8:c64.bin --arg out:8:cd.bin --arg out:4:cf.bin "
                 "--arg i32:16");
      expect_file_bytes("atomicAdd u32", ARCH, "c32.bin", &c32, 4);
      expect_file_bytes("atomicAdd u64", ARCH, "c64.bin", &c64, 8);
      expect_file_bytes("atomicAdd f64", ARCH, "cd.bin", &cd, 8);
      expect_file_bytes("atomicAdd f32", ARCH, "cf.bin", &cf, 4);
    }
  }
}

Test(corpus, histogram_atomics, .timeout = 300) {
  corpus_begin("histogram");
  enum { N = 5000 };
  uint8_t d[N];
  uint32_t ref[64] = {0};
  for (int i = 0; i < N; i++) d[i] = (uint8_t)(rnd() >> 56), ref[d[i] >> 2]++;
  put("d.bin", d, sizeof d);
  check_bytes("histogram", "--grid 4 --block 256 --arg in:d.bin --arg out:256:got.bin --arg i32:5000", ref, sizeof ref);
}

Test(corpus, scan, .timeout = 300) {
  corpus_begin("scan");
  enum { N = 1024 };
  int32_t x[N], ref[N];
  for (int i = 0; i < N; i++) {
    x[i] = (int32_t)(rnd() % 101) - 50;
    ref[i] = (i % 256 ? ref[i - 1] : 0) + x[i];
  }
  put("x.bin", x, sizeof x);
  check_bytes("scan", "--grid 4 --block 256 --arg in:x.bin --arg out:4096:got.bin", ref, sizeof ref);
}

Test(corpus, topk, .timeout = 300) {
  corpus_begin("topk");
  enum { R = 4, C = 256, K = 8 };
  float x[R * C], rv[R * K];
  int32_t ri[R * K];
  for (int i = 0; i < R * C; i++) x[i] = urand(-100, 100);
  x[3] = x[200] = 150.0f; /* a tie in row 0: the smaller column comes first */
  for (int r = 0; r < R; r++) {
    bool used[C] = {0};
    for (int k = 0; k < K; k++) {
      int best = -1;
      for (int c = 0; c < C; c++)
        if (!used[c] && (best < 0 || x[r * C + c] > x[r * C + best])) best = c;
      used[best] = true;
      rv[r * K + k] = x[r * C + best];
      ri[r * K + k] = best;
    }
  }
  cr_assert_eq(ri[0], 3);
  cr_assert_eq(ri[1], 200);
  put("x.bin", x, sizeof x);
  FOR_ARCH {
    run_corpus(ARCH, "topk", "--grid 4 --block 64 --arg in:x.bin --arg out:128:v.bin --arg out:128:i.bin");
    expect_file_bytes("topk values", ARCH, "v.bin", rv, sizeof rv);
    expect_file_bytes("topk indices", ARCH, "i.bin", ri, sizeof ri);
  }
}

/* MFMA GEMMs with inputs that are multiples of 1/8 in [-2, 2]: every product and partial sum is
 * exact in f32, so the result is exact in any accumulation order. */
static void gemm_case(const char *name, int M, int N, int K, const char *grid) {
  enter_tmpdir();
  cc_corpus(name);
  uint16_t *A = malloc(2 * M * K), *B = malloc(2 * K * N);
  float *ref = calloc((size_t)M * N, 4), *fa = malloc(4 * M * K), *fb = malloc(4 * K * N);
  for (int i = 0; i < M * K; i++) fa[i] = (float)((int)(rnd() % 33) - 16) / 8.0f, A[i] = oracle_f32_to_f16(fa[i]);
  for (int i = 0; i < K * N; i++) fb[i] = (float)((int)(rnd() % 33) - 16) / 8.0f, B[i] = oracle_f32_to_f16(fb[i]);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)fa[m * K + k] * fb[k * N + n];
      ref[m * N + n] = (float)s;
    }
  put("a.bin", A, 2 * M * K);
  put("b.bin", B, 2 * K * N);
  char *args = ll_fmt("--grid %s --block 64 --arg in:a.bin --arg in:b.bin --arg out:%d:got.bin --arg i32:%d --arg i32:%d "
                      "--arg i32:%d",
                      grid, 4 * M * N, M, N, K);
  check_bytes(name, args, ref, 4 * (size_t)M * N);
  free(args);
  free(A), free(B), free(ref), free(fa), free(fb);
}
Test(corpus, gemm_mfma_16x16, .timeout = 300) { gemm_case("gemm_mfma16", 32, 48, 64, "3,2"); }
Test(corpus, gemm_mfma_32x32, .timeout = 300) { gemm_case("gemm_mfma32", 64, 32, 32, "1,2"); }

Test(corpus, half_convert, .timeout = 300) {
  corpus_begin("half_convert");
  enum { N = 256 };
  float x[N], y[N], ref[3 * N];
  for (int i = 0; i < N; i++) x[i] = urand(-100, 100), y[i] = urand(-100, 100);
  x[0] = 65504.0f, y[0] = 65504.0f;  /* the sum overflows to inf */
  x[1] = 1e-6f, y[1] = -3e-7f;      /* subnormal halves */
  x[2] = 70000.0f, y[2] = 0.1f;     /* beyond the largest half: inf */
  x[3] = 2049.0f, y[3] = 1.0f;      /* a tie: 2049 rounds to even (2048) */
#define H(f) oracle_f16_to_f32(oracle_f32_to_f16(f))
  for (int i = 0; i < N; i++) {
    float hx = H(x[i]), hy = H(y[i]);
    ref[3 * i] = hx;
    ref[3 * i + 1] = H(hx + hy); /* the float sum is exact or rounds innocuously (2p+2 <= 24) */
    ref[3 * i + 2] = H(hx * hy) + H(hy * hx);
  }
#undef H
  cr_assert_eq(ref[9], 2048.0f);
  put("x.bin", x, sizeof x);
  put("y.bin", y, sizeof y);
  check_bytes("half_convert", "--grid 4 --block 64 --arg in:x.bin --arg in:y.bin --arg out:3072:got.bin --arg i32:256", ref, sizeof ref);
}

Test(corpus, bf16_convert, .timeout = 300) {
  corpus_begin("bf16_convert");
  enum { N = 256 };
  float x[N], y[N], ref[2 * N];
  for (int i = 0; i < N; i++) x[i] = urand(-1000, 1000), y[i] = urand(-3, 3);
  x[0] = 1.00390625f; /* 1 + 2^-8: a tie, rounds to even (1.0) */
  x[1] = 3e38f, y[1] = 3.0f; /* the product overflows to inf */
#define B(f) oracle_bf16_to_f32(oracle_f32_to_bf16(f))
  for (int i = 0; i < N; i++) {
    float bx = B(x[i]), by = B(y[i]);
    ref[2 * i] = bx;
    ref[2 * i + 1] = B(B(bx * by) + bx);
  }
#undef B
  cr_assert_eq(ref[0], 1.0f);
  put("x.bin", x, sizeof x);
  put("y.bin", y, sizeof y);
  check_bytes("bf16_convert", "--grid 4 --block 64 --arg in:x.bin --arg in:y.bin --arg out:2048:got.bin --arg i32:256", ref, sizeof ref);
}

Test(corpus, dot_atomic, .timeout = 300) {
  corpus_begin("dot_atomic");
  enum { N = 1000 };
  float a[N], b[N];
  double s = 0;
  for (int i = 0; i < N; i++) a[i] = urand(-1, 1), b[i] = urand(-1, 1), s += (double)a[i] * b[i];
  float ref = (float)s;
  put("a.bin", a, sizeof a);
  put("b.bin", b, sizeof b);
  check_f32("dot_atomic", "--grid 4 --block 256 --arg in:a.bin --arg in:b.bin --arg out:4:got.bin --arg i32:1000", &ref,
            1, 1e-4, 1e-5);
}

Test(corpus, gemv, .timeout = 300) {
  corpus_begin("gemv");
  enum { R = 16, C = 200 };
  float A[R * C], x[C], ref[R];
  for (int i = 0; i < R * C; i++) A[i] = urand(-1, 1);
  for (int c = 0; c < C; c++) x[c] = urand(-1, 1);
  for (int r = 0; r < R; r++) {
    double s = 0;
    for (int c = 0; c < C; c++) s += (double)A[r * C + c] * x[c];
    ref[r] = (float)s;
  }
  put("a.bin", A, sizeof A);
  put("x.bin", x, sizeof x);
  check_f32("gemv", "--grid 16 --block 64 --arg in:a.bin --arg in:x.bin --arg out:64:got.bin --arg i32:200", ref, R, 1e-5, 1e-5);
}

Test(corpus, gelu_erf_and_tanh, .timeout = 300) {
  corpus_begin("gelu");
  enum { N = 512 };
  float x[N], ref[2 * N];
  for (int i = 0; i < N; i++) {
    x[i] = urand(-6, 6);
    double v = x[i];
    ref[2 * i] = (float)(0.5 * v * (1 + erf(v / sqrt(2.0))));
    ref[2 * i + 1] = (float)(0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
  }
  put("x.bin", x, sizeof x);
  check_f32("gelu", "--grid 2 --block 256 --arg in:x.bin --arg out:4096:got.bin --arg i32:512", ref, 2 * N, 1e-6, 1e-5);
}

Test(corpus, stencil_dynamic_shared, .timeout = 300) {
  corpus_begin("stencil");
  enum { N = 1000 };
  float x[N], ref[N];
  const float w0 = 0.5f, w1 = 0.25f, w2 = -0.125f;
  for (int i = 0; i < N; i++) x[i] = urand(-4, 4);
#define X(j) ((j) >= 0 && (j) < N ? (double)x[j] : 0.0)
  for (int i = 0; i < N; i++) ref[i] = (float)(w0 * X(i) + w1 * (X(i - 1) + X(i + 1)) + w2 * (X(i - 2) + X(i + 2)));
#undef X
  put("x.bin", x, sizeof x);
  /* (128 + 4) floats of dynamic LDS */
  check_f32("stencil",
            "--grid 8 --block 128 --lds-bytes 528 --arg in:x.bin --arg out:4000:got.bin --arg f32:0.5 "
            "--arg f32:0.25 --arg f32:-0.125 --arg i32:1000",
            ref, N, 1e-5, 1e-6);
}

Test(corpus, compact_ballot_popcll, .timeout = 300) {
  corpus_begin("compact");
  enum { N = 512, W = N / 64 };
  int32_t x[N], ref[N] = {0}, rc[W] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = (int32_t)(rnd() % 11) - 5;
    if (x[i] > 0) ref[(i / 64) * 64 + rc[i / 64]++] = x[i];
  }
  put("x.bin", x, sizeof x);
  FOR_ARCH {
    run_corpus(ARCH, "compact", "--grid 2 --block 256 --arg in:x.bin --arg out:2048:got.bin --arg out:32:cnt.bin");
    expect_file_bytes("compact values", ARCH, "got.bin", ref, sizeof ref);
    expect_file_bytes("compact counts", ARCH, "cnt.bin", rc, sizeof rc);
  }
}

Test(corpus, argmax_atomic_max_min_or, .timeout = 300) {
  corpus_begin("argmax_atomic");
  enum { N = 1000 };
  uint32_t k[N], lo = UINT32_MAX, bits = 0;
  uint64_t best = 0;
  for (int i = 0; i < N; i++) k[i] = (uint32_t)(rnd() >> 40) | 1u << (i % 31);
  k[17] = k[900] = 0xfffffff0u; /* tie on the key: the larger index wins */
  for (int i = 0; i < N; i++) {
    uint64_t p = (uint64_t)k[i] << 32 | (uint32_t)i;
    if (p > best) best = p;
    if (k[i] < lo) lo = k[i];
    bits |= k[i];
  }
  cr_assert_eq(best, 0xfffffff0ull << 32 | 900);
  const uint32_t init = UINT32_MAX;
  put("k.bin", k, sizeof k);
  put("lo0.bin", &init, 4);
  FOR_ARCH {
    run_corpus(ARCH, "argmax_atomic",
               "--grid 4 --block 256 --arg in:k.bin --arg out:8:best.bin --arg io:lo0.bin:lo.bin --arg out:4:bits.bin "
               "--arg i32:1000");
    expect_file_bytes("argmax_atomic atomicMax", ARCH, "best.bin", &best, 8);
    expect_file_bytes("argmax_atomic atomicMin", ARCH, "lo.bin", &lo, 4);
    expect_file_bytes("argmax_atomic atomicOr", ARCH, "bits.bin", &bits, 4);
  }
}

Test(corpus, double_reduce_shfl_and_atomics, .timeout = 300) {
  corpus_begin("double_reduce");
  enum { N = 1000 };
  double x[N], s = 0;
  uint64_t is = 0;
  for (int i = 0; i < N; i++) x[i] = (double)(rnd() % 4096) * 0.25 + 0.5, s += x[i], is += (uint64_t)(x[i] * 1024.0);
  put("x.bin", x, sizeof x);
  FOR_ARCH {
    run_corpus(ARCH, "double_reduce", "--grid 4 --block 256 --arg in:x.bin --arg out:8:s.bin --arg out:8:is.bin --arg i32:1000");
    expect_file_bytes("double_reduce sum (every partial sum is exact)", ARCH, "s.bin", &s, 8);
    expect_file_bytes("double_reduce integer sum", ARCH, "is.bin", &is, 8);
  }
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}
Test(corpus, bitonic_sort, .timeout = 300) {
  corpus_begin("bitonic_sort");
  enum { N = 1024 };
  float x[N], ref[N];
  for (int i = 0; i < N; i++) ref[i] = x[i] = urand(-1000, 1000);
  for (int b = 0; b < N / 256; b++) qsort(ref + 256 * b, 256, 4, cmp_float);
  put("x.bin", x, sizeof x);
  check_bytes("bitonic_sort", "--grid 4 --block 256 --arg io:x.bin:got.bin", ref, sizeof ref);
}

Test(corpus, rmsnorm_half, .timeout = 300) {
  corpus_begin("rmsnorm_half");
  enum { R = 4, C = 256 };
  uint16_t x[R * C], w[C], ref[R * C];
  for (int i = 0; i < R * C; i++) x[i] = oracle_f32_to_f16(urand(-4, 4));
  for (int c = 0; c < C; c++) w[c] = oracle_f32_to_f16(urand(0.5f, 2));
  for (int r = 0; r < R; r++) {
    double ss = 0;
    for (int c = 0; c < C; c++) ss += (double)oracle_f16_to_f32(x[r * C + c]) * oracle_f16_to_f32(x[r * C + c]);
    double k = 1 / sqrt(ss / C + 1e-6);
    for (int c = 0; c < C; c++)
      ref[r * C + c] = oracle_f32_to_f16((float)(oracle_f16_to_f32(x[r * C + c]) * k * oracle_f16_to_f32(w[c])));
  }
  put("x.bin", x, sizeof x);
  put("w.bin", w, sizeof w);
  FOR_ARCH {
    run_corpus(ARCH, "rmsnorm_half", "--grid 4 --block 64 --arg in:x.bin --arg in:w.bin --arg out:2048:got.bin --arg i32:256 --arg f32:1e-6");
    expect_compare("rmsnorm_half", ARCH, "got.bin", ref, sizeof ref, "f16", 1e-3, 1e-3); /* one f16 ULP: 2^-10 relative */
  }
}

/* vLLM-style kernels (tests/hip/vllm_style.hip): a template instantiated twice and found by its
 * C++ signature, __ldg, a half RMS norm with a residual written in place, and HIP's scoped and
 * wrapping atomics, whose final values follow from their definitions (HIP's atomicInc: old >= val
 * ? 0 : old + 1, so n increments from 0 leave n mod (val + 1); atomicDec: old == 0 || old > val ?
 * val : old - 1, so n decrements from 0 leave (-n) mod (val + 1)). */
Test(corpus, vllm_style_templates_ldg_rmsnorm_scoped_atomics, .timeout = 300) {
  corpus_begin("vllm_style");
  enum { T = 3, D = 200, H = 256 };
  float x[T * 2 * D], ref[T * D];
  for (int i = 0; i < T * 2 * D; i++) x[i] = urand(-4, 4);
  for (int t = 0; t < T; t++)
    for (int i = 0; i < D; i++) {
      double a = x[t * 2 * D + i], b = x[t * 2 * D + D + i];
      ref[t * D + i] = (float)(a / (1 + exp(-a)) * b);
    }
  uint16_t in[T * H], res[T * H], w[H], ref_in[T * H], ref_res[T * H];
  for (int i = 0; i < T * H; i++) in[i] = oracle_f32_to_f16(urand(-2, 2)), res[i] = oracle_f32_to_f16(urand(-2, 2));
  for (int i = 0; i < H; i++) w[i] = oracle_f32_to_f16(urand(0.5f, 1.5f));
  for (int t = 0; t < T; t++) {
    double ss = 0;
    for (int i = 0; i < H; i++) {
      const int k = t * H + i;
      ref_res[k] = oracle_f32_to_f16(oracle_f16_to_f32(in[k]) + oracle_f16_to_f32(res[k]));
      ss += (double)oracle_f16_to_f32(ref_res[k]) * oracle_f16_to_f32(ref_res[k]);
    }
    const double k = 1 / sqrt(ss / H + 1e-6);
    for (int i = 0; i < H; i++)
      ref_in[t * H + i] = oracle_f32_to_f16(
          oracle_f16_to_f32(oracle_f32_to_f16((float)(oracle_f16_to_f32(ref_res[t * H + i]) * k))) * oracle_f16_to_f32(w[i]));
  }
  enum { B = 4, N = B * 256 };
  const uint32_t gref[6] = {N % 10, (10 - N % 10) % 10, N, 0 /* any thread's id + 1: checked apart */, 1, N - 1};
  put("x.bin", x, sizeof x);
  put("in.bin", in, sizeof in);
  put("res.bin", res, sizeof res);
  put("w.bin", w, sizeof w);
  FOR_ARCH {
    run_kernel(ARCH, "vllm_style", "act_and_mul_kernel<float>", "--grid 3 --block 64 --arg out:2400:got.bin --arg in:x.bin --arg i32:200");
    expect_file_f32("act_and_mul_kernel<float>", ARCH, "got.bin", ref, T * D, 1e-6, 1e-5);
    run_kernel(ARCH, "vllm_style", "fused_add_rms_norm",
               "--grid 3 --block 128 --arg io:in.bin:in_out.bin --arg io:res.bin:res_out.bin --arg in:w.bin --arg f32:1e-6 --arg i32:256");
    expect_compare("fused_add_rms_norm residual", ARCH, "res_out.bin", ref_res, sizeof ref_res, "u16", 0, 0);
    expect_compare("fused_add_rms_norm output", ARCH, "in_out.bin", ref_in, sizeof ref_in, "f16", 1e-3, 1e-3); /* one f16 ULP */
    run_kernel(ARCH, "vllm_style", "scoped_atomics", "--grid 4 --block 256 --arg out:24:g.bin --arg out:32:blk.bin");
    uint32_t *g = get("g.bin", 24), *blk = get("blk.bin", 32);
    for (int i = 0; i < 6; i++)
      if (i != 3) cr_assert_eq(g[i], gref[i], "%s scoped_atomics g[%d] = %u, want %u", ARCH, i, g[i], gref[i]);
    cr_assert(g[3] >= 1 && g[3] <= N, "%s: atomicCAS_system left %u, want one thread's id + 1", ARCH, g[3]);
    for (int b = 0; b < B; b++) {
      cr_assert_eq(blk[2 * b], 256 % 101, "%s block %d: shared atomicInc(.., 100) x256 left %u", ARCH, b, blk[2 * b]);
      cr_assert_eq(blk[2 * b + 1], 256, "%s block %d: atomicAdd_block left %u", ARCH, b, blk[2 * b + 1]);
    }
    free(g);
    free(blk);
  }
}

/* HIP's width rule, restated from its documentation: lanes form groups of `width`; __shfl reads
 * lane src of the caller's group; __shfl_up/__shfl_down/__shfl_xor whose source leaves the group
 * return the caller's own value. */
Test(corpus, shfl_width_semantics, .timeout = 300) {
  corpus_begin("shfl_width");
  enum { N = 128 };
  float x[N], ref[4 * N];
  for (int i = 0; i < N; i++) x[i] = (float)i + 0.5f;
  for (int i = 0; i < N; i++) {
    int wave = i / 64 * 64, l = i % 64, base = l & ~15;
    ref[4 * i] = x[wave + base + 3];
    ref[4 * i + 1] = x[wave + (l - 2 >= base ? l - 2 : l)];
    ref[4 * i + 2] = x[wave + ((l % 16) + 5 < 16 ? l + 5 : l)];
    ref[4 * i + 3] = x[wave + ((l ^ 9) < base + 16 ? l ^ 9 : l)];
  }
  put("x.bin", x, sizeof x);
  check_bytes("shfl_width", "--grid 2 --block 64 --arg in:x.bin --arg out:2048:got.bin", ref, sizeof ref);
}

Test(corpus, grid_stride_2d_griddim, .timeout = 300) {
  corpus_begin("grid_stride");
  enum { N = 1000 };
  float x[N], ref[N];
  for (int i = 0; i < N; i++) x[i] = urand(-10, 10), ref[i] = x[i] * 2.0f + (float)i;
  put("x.bin", x, sizeof x);
  check_bytes("grid_stride", "--grid 3,2 --block 16,4 --arg in:x.bin --arg out:4000:got.bin --arg i32:1000", ref, sizeof ref);
}

/* Every type __shfl_xor takes moves bit for bit (the float case is the regression: it was once
 * converted to an integer). */
Test(corpus, shfl_types_move_every_bit, .timeout = 300) {
  corpus_begin("shfl_types");
  struct row {
    int32_t i;
    uint32_t u;
    int64_t ll;
    uint64_t ull;
    float f;
    double d;
    uint16_t h, pad;
  } ref[64];
  _Static_assert(sizeof(struct row) == 48, "the kernel's Row is 48 bytes");
  memset(ref, 0, sizeof ref);
  for (int i = 0; i < 64; i++) {
    int l = i ^ 5;
    ref[i].i = -1000 * l - 7;
    ref[i].u = 0x80000001u + (uint32_t)l;
    ref[i].ll = -(1LL << 40) * l - 3;
    ref[i].ull = 0x123456789abcdef0ull + ((uint64_t)l << 36);
    ref[i].f = 0.37f * (float)l + 0.125f;
    ref[i].d = 1.0 / 3.0 + (double)l * 1e-12;
    ref[i].h = oracle_f32_to_f16(0.5f * (float)l + 0.25f);
  }
  FOR_ARCH {
    run_corpus(ARCH, "shfl_types", "--grid 1 --block 64 --arg out:3072:got.bin");
    struct row *got = get("got.bin", sizeof ref);
    for (int i = 0; i < 64; i++) {
      cr_assert_eq(got[i].i, ref[i].i, "%s lane %d int", ARCH, i);
      cr_assert_eq(got[i].u, ref[i].u, "%s lane %d unsigned", ARCH, i);
      cr_assert_eq(got[i].ll, ref[i].ll, "%s lane %d long long", ARCH, i);
      cr_assert_eq(got[i].ull, ref[i].ull, "%s lane %d unsigned long long", ARCH, i);
      cr_assert_eq(memcmp(&got[i].f, &ref[i].f, 4), 0, "%s lane %d float %.9g, want %.9g", ARCH, i, got[i].f, ref[i].f);
      cr_assert_eq(memcmp(&got[i].d, &ref[i].d, 8), 0, "%s lane %d double %.17g, want %.17g", ARCH, i, got[i].d, ref[i].d);
      cr_assert_eq(got[i].h, ref[i].h, "%s lane %d __half %#x, want %#x", ARCH, i, got[i].h, ref[i].h);
    }
    free(got);
  }
}

/* ---- lanelab cc -----------------------------------------------------------------------------*/
static void write_src(const char *path, const char *text) { put(path, text, strlen(text)); }

Test(cc, one_arch_writes_that_arch_code_object_and_extra_flags_reach_clang, .timeout = 120) {
  enter_tmpdir();
  write_src("k.hip", "#include <hip/hip_runtime.h>\n"
                     "#ifndef VALUE\n#error VALUE must come from the flags after --\n#endif\n"
                     "__global__ void k(int *p) { p[threadIdx.x] = VALUE; }\n");
  char *err;
  int rc = sh(&err, LANELAB " cc k.hip --arch gfx950 -o k.co -- -DVALUE=7");
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  free(err);
  ll_err e = {0};
  isa_elf *elf = isa_elf_read_file("k.co", &e);
  cr_assert_not_null(elf, "%s", e.msg);
  cr_assert_str_eq(elf->arch, "gfx950");
  isa_elf_free(elf);
  rc = sh(&err, LANELAB " cc k.hip --arch gfx942 -o k2.co");
  cr_assert_eq(rc, 2, "without -DVALUE: exit %d, want 2", rc);
  cr_assert(strstr(err, "VALUE must come from the flags after --"), "the compiler's message is not passed through: %s", err);
  cr_assert(strstr(err, "compiling k.hip for gfx942 failed"), "%s", err);
  cr_assert_neq(access("k2.co", F_OK), 0, "a failed compile left k2.co");
  free(err);
}

Test(cc, compile_error_is_exit_2_with_the_compiler_message, .timeout = 120) {
  enter_tmpdir();
  write_src("bad.hip", "#include <hip/hip_runtime.h>\n__global__ void k(float *p) { p[0] = 1.0f }\n");
  char *err;
  int rc = sh(&err, LANELAB " cc bad.hip --arch all -o out");
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "bad.hip:2:") && strstr(err, "expected ';'"), "no compiler message: %s", err);
  free(err);
  cr_assert(access("out", F_OK) != 0, "a failed cc left its output folder 'out' behind");
  /* a folder that existed before stays, with what it held */
  cr_assert_eq(mkdir("keep", 0755), 0);
  write_src("keep/old.txt", "x\n");
  rc = sh(&err, LANELAB " cc bad.hip --arch all -o keep");
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
  free(err);
  cr_assert(access("keep/old.txt", F_OK) == 0 && access("keep/gfx942", F_OK) != 0,
            "a failed cc into an existing folder must keep it and leave no arch folder");
}

Test(cc, missing_compiler_or_subset_is_exit_3_naming_it, .timeout = 120) {
  enter_tmpdir();
  write_src("k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n");
  char *err;
  int rc = sh(&err, "ROCM_PATH=/nonexistent LANELAB_LLVM_BIN=/nonexistent " LANELAB " cc k.hip --arch gfx942 -o k.co");
  cr_assert_eq(rc, 3, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "clang-22") && strstr(err, "/nonexistent"), "%s", err);
  free(err);
  rc = sh(&err, "ROCM_PATH=/nonexistent LANELAB_HIP_INCLUDE=/nonexistent/hip " LANELAB " cc k.hip --arch gfx942 -o k.co");
  cr_assert_eq(rc, 3, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "LANELAB_HIP_INCLUDE=/nonexistent/hip") && strstr(err, "hip_runtime.h"), "%s", err);
  free(err);
}

Test(cc, bad_usage_is_exit_2, .timeout = 60) {
  enter_tmpdir();
  write_src("k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n");
  cr_assert_eq(mkdir("adir", 0777), 0);
  const struct {
    const char *args, *want;
  } cases[] = {
      {"cc missing.hip --arch gfx942 -o x.co", "missing.hip"},
      {"cc k.hip --arch gfx90a -o x.co", "gfx90a"},
      {"cc k.hip --arch gfx942", "-o OUT"},
      {"cc k.hip --arch gfx942 -o adir", "not a regular file"},
      {"cc k.hip --arch gfx942 -o nodir/x.co", "nodir"},
      {"cc k.hip --bogus -o x.co", "--bogus"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err;
    int rc = sh(&err, LANELAB " %s", cases[i].args);
    cr_assert_eq(rc, 2, "'lanelab %s': exit %d: %s", cases[i].args, rc, err);
    cr_assert(strstr(err, cases[i].want), "'lanelab %s': the message does not name '%s': %s", cases[i].args, cases[i].want, err);
    free(err);
  }
}

/* ---- what the subset refuses, by name -------------------------------------------------------*/
Test(subset, unsupported_api_is_a_compile_error_naming_it, .timeout = 300) {
  enter_tmpdir();
  write_src("r.hip", "#include <hip/hip_runtime.h>\n"
                     "#if CASE == 1\n#include <hip/hiprtc.h>\n#endif\n"
                     "__global__ void k(float *p, int *q, double d) {\n"
                     "  float f = p[threadIdx.x]; short s = (short)q[0]; __half h = (__half)f;\n"
                     "#if CASE == 0\n  p[0] = f;\n"
                     "#elif CASE == 2\n  q[0] = __shfl_xor(s, 1);\n"              /* a type shuffles do not take */
                     "#elif CASE == 3\n  p[0] = __shfl_xor_sync(~0ull, f, 1);\n"  /* HIP has it; the subset refuses it */
                     "#elif CASE == 4\n  p[0] = sinhf(f);\n"                     /* not in the subset at all */
                     "#elif CASE == 5\n  atomicAdd(q, 1.5f);\n"                   /* float -> int would truncate */
                     "#elif CASE == 6\n  p[0] = expf(d);\n"                       /* double -> float would round */
                     "#elif CASE == 7\n  h = __hadd(h, f);\n"                     /* float -> half would round */
                     "#elif CASE == 8\n  float3 v = make_float3(f, f, f); p[0] = v.w;\n" /* a 3-vector has no .w */
                     "#elif CASE == 9\n  free(p);\n"                              /* no device heap: a link error */
                     "#elif CASE == 10\n  q[0] = __ballot(f);\n"                   /* a float predicate */
                     "#endif\n  p[1] = (float)h;\n}\n");
  const struct {
    int c;
    const char *name, *kind;
  } cases[] = {
      {1, "<hip/hiprtc.h> is not provided by lanelab's HIP headers", "runtime compilation"},
      {2, "__shfl_xor: the lanelab HIP subset shuffles int", "static assertion failed"},
      {3, "__shfl_xor_sync", "not in lanelab's HIP subset"},
      {4, "sinhf", "undeclared identifier"},
      {5, "atomicAdd: the value would change kind", "static assertion failed"},
      {6, "expf: takes a float", "static assertion failed"},
      {7, "__hadd: both arguments must be __half", "static assertion failed"},
      {8, "'w'", "no member named"},
      {9, "free", "undefined"},
      {10, "__ballot: the predicate must be a bool or an integer", "static assertion failed"},
  };
  char *err;
  int rc = sh(&err, LANELAB " cc r.hip --arch gfx942 -o ok.co -- -DCASE=0");
  cr_assert_eq(rc, 0, "the frame itself must compile: exit %d: %s", rc, err);
  free(err);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    rc = sh(&err, LANELAB " cc r.hip --arch gfx942 -o r.co -- -DCASE=%d", cases[i].c);
    cr_assert_eq(rc, 2, "case %d (%s): exit %d, want a compile error: %s", cases[i].c, cases[i].name, rc, err);
    cr_assert(strstr(err, cases[i].name) && strstr(err, cases[i].kind), "case %d: the error does not name '%s' (%s): %s",
              cases[i].c, cases[i].name, cases[i].kind, err);
    free(err);
  }
}

/* ---- header names: lanelab's tree wins every lookup -------------------------------------------
 * Debian's librocprim-dev installs HIP 5.2's headers in /usr/include/hip, on clang's system
 * include path. lanelab's hip/include comes first (-I), so a name it has wins; a name it lacked
 * would silently reach HIP 5.2's copy and mix the two (hip_cooperative_groups.h did). Every
 * header name under /usr/include/hip (symlinked folders such as hcc_detail followed) is included
 * in one translation unit with clang's -H: each must resolve to the file of the same name in
 * lanelab's tree, nothing may open a file under /usr/include/hip at any depth, and the only
 * errors allowed are the #error of a reserved name, which must name that header. */
static char **hdr_names;
static size_t hdr_count;
/* Every regular file under root/rel, symlinks followed (glibc's nftw reports a folder reached
 * twice only once, and hcc_detail is a link to amd_detail); depth-limited against loops. */
static void hdr_walk(const char *root, const char *rel, int depth) {
  cr_assert_lt(depth, 8, "%s/%s: folders nested deeper than 8 (a symlink loop?)", root, rel);
  char *dir = rel[0] ? ll_fmt("%s/%s", root, rel) : ll_xstrdup(root);
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "cannot read %s", dir);
  for (struct dirent *de; (de = readdir(d));) {
    if (de->d_name[0] == '.') continue;
    char *r = rel[0] ? ll_fmt("%s/%s", rel, de->d_name) : ll_xstrdup(de->d_name), *p = ll_fmt("%s/%s", root, r);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      hdr_walk(root, r, depth + 1);
      free(r);
    } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      hdr_names = ll_xrealloc(hdr_names, (hdr_count + 1) * sizeof *hdr_names);
      hdr_names[hdr_count++] = r;
    } else {
      free(r);
    }
    free(p);
  }
  closedir(d);
  free(dir);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "....  /path" -> depth 4, path; 0 when the line is not one of -H's. */
static int h_line(const char *line, const char **path) {
  int d = 0;
  while (line[d] == '.') d++;
  if (!d || line[d] != ' ') return 0;
  *path = line + d + 1;
  return d;
}

Test(subset, every_hip_header_name_resolves_to_lanelabs_tree_never_another_hip, .timeout = 120) {
  const char *sys = "/usr/include/hip";
  struct stat st;
  if (stat(sys, &st) != 0) cr_skip_test("NOT CHECKED: %s is absent (no other HIP installation to shadow)", sys);
  hdr_walk(sys, "", 0);
  cr_assert_gt(hdr_count, 0, "%s holds no header", sys);
  qsort(hdr_names, hdr_count, sizeof *hdr_names, cmp_str);
  ll_err e = {0};
  isa_toolchain *t = isa_toolchain_find("gfx942", &e);
  cr_assert_not_null(t, "%s", e.msg);
  if (!t->subset) cr_skip_test("NOT CHECKED: the compiler found is a ROCm install with its own HIP headers (%s)", t->cc);
  enter_tmpdir();
  ll_buf src = {0};
  for (size_t i = 0; i < hdr_count; i++) ll_buf_printf(&src, "#include <hip/%s>\n", hdr_names[i]);
  put("all.hip", src.data, src.len);
  char **argv = ll_xcalloc(t->nflags + 16, sizeof *argv);
  size_t n = 0;
  argv[n++] = t->cc;
  for (size_t i = 0; i < t->nflags; i++) argv[n++] = t->flags[i];
  const char *tail[] = {"-std=c++17", "-E", "-H", "-fshow-skipped-includes", "-ferror-limit=0", "-o", "/dev/null", "all.hip"};
  for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) argv[n++] = (char *)tail[i];
  ll_buf err = {0};
  int rc = isa_run(argv, NULL, NULL, NULL, &err, &e);
  cr_assert_geq(rc, 0, "%s", e.msg);
  char *tree = realpath(t->hip_include, NULL), *sysreal = realpath(sys, NULL);
  cr_assert_not_null(tree);
  cr_assert_not_null(sysreal);
  size_t next = 0, stub_errors = 0, bad = 0;
  ll_buf why = {0};
  char *text = ll_xstrdup(ll_buf_str(&err));
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    const char *path;
    int depth = h_line(line, &path);
    if (depth) {
      char *real = realpath(path, NULL);
      cr_assert_not_null(real, "clang -H names %s, which does not exist", path);
      if (!strncmp(real, sysreal, strlen(sysreal)) && real[strlen(sysreal)] == '/')
        bad++, ll_buf_printf(&why, "  %s opened (depth %d)\n", real, depth);
      if (depth == 1) {
        cr_assert_lt(next, hdr_count, "more top-level includes than headers: %s", path);
        char *want = ll_fmt("%s/hip/%s", tree, hdr_names[next]);
        if (strcmp(real, want)) bad++, ll_buf_printf(&why, "  <hip/%s> resolved to %s, not %s\n", hdr_names[next], real, want);
        free(want);
        next++;
      }
      free(real);
      continue;
    }
    const char *er = strstr(line, ": error: ");
    if (!er) continue;
    /* TREE/hip/REL:L:C: error: "<hip/REL> is not provided by lanelab's HIP headers: WHY" */
    char *prefix = ll_fmt("%s/hip/", tree);
    bool ok = false;
    if (!strncmp(line, prefix, strlen(prefix))) {
      const char *rel = line + strlen(prefix), *colon = strchr(rel, ':');
      char *name = ll_fmt("\"<hip/%.*s> is not provided by lanelab's HIP headers: ", (int)(colon - rel), rel);
      ok = colon && !strncmp(er + 9, name, strlen(name)) && strlen(er + 9) > strlen(name) + 10;
      free(name);
    }
    free(prefix);
    if (ok) stub_errors++;
    else bad++, ll_buf_printf(&why, "  an error that is not a reserved name's own #error: %s\n", line);
  }
  cr_assert_eq(next, hdr_count, "clang -H showed %zu top-level includes of %zu headers", next, hdr_count);
  cr_assert_eq(bad, 0, "%zu header lookups are wrong:\n%s", bad, ll_buf_str(&why));
  cr_assert_gt(stub_errors, 0, "no reserved name's #error was seen: the parsing of clang's messages is broken");
  cr_assert_neq(rc, 0, "clang accepted every header, yet reserved names were seen");
  fprintf(stderr, "%zu HIP header names of %s resolve to lanelab's tree (%zu of them reserved with an #error)\n",
          hdr_count, sys, stub_errors);
  free(tree), free(sysreal), free(argv), free(text);
  ll_buf_free(&src), ll_buf_free(&err), ll_buf_free(&why);
  isa_toolchain_free(t);
}

/* ---- math accuracy ---------------------------------------------------------------------------
 * Each function of the subset runs on the emulator over a fixed set of inputs (special values,
 * then pseudo-random ones: uniform over the function's interesting range and uniform over bit
 * patterns, which spreads them over magnitudes). The error of each result is measured in ULPs of
 * the result's format against the exact value, taken from glibc's long double functions (64-bit
 * significand: their own error is below 2^-11 of a double ULP and 2^-40 of a float ULP). A result
 * counts as correctly rounded when it equals the long double value rounded to the format.
 * `bound` is the accuracy docs/hip-subset.md and README.md state; the test fails if a measurement
 * exceeds it. The table is printed and written to BUILD/test-results/hip-math-ulp-<arch>.md. */
#include "runtime/rt.h"

typedef long double (*ref1)(long double);
typedef enum { DOM_ALL, DOM_POS, DOM_RANGE, DOM_RANGE_POS } domain;
typedef struct {
  const char *name;     /* kernel ulp_NAME */
  bool dbl;             /* double form */
  int nargs;
  long double (*f)(long double, long double, long double);
  domain dom;
  double lo, hi;        /* DOM_RANGE*: inputs in [lo, hi] */
  double lo2, hi2;      /* second argument's range (powf, __fdividef) */
  bool specials;        /* also the special values (inf, nan, 0, extremes) */
  double bound;         /* the stated accuracy: max ULP error */
} math_case;

#define W1(fn) static long double r_##fn(long double x, long double y, long double z) { (void)y, (void)z; return fn(x); }
W1(expl) W1(exp2l) W1(logl) W1(log2l) W1(sqrtl) W1(fabsl) W1(sinl) W1(cosl) W1(tanhl) W1(erfl) W1(floorl) W1(ceill)
W1(truncl) W1(rintl) W1(roundl) W1(tanl) W1(log10l) W1(expm1l) W1(log1pl)
static long double r_rsqrt(long double x, long double y, long double z) { (void)y, (void)z; return 1.0L / sqrtl(x); }
static long double r_fmax(long double x, long double y, long double z) { (void)z; return fmaxl(x, y); }
static long double r_fmin(long double x, long double y, long double z) { (void)z; return fminl(x, y); }
static long double r_fma(long double x, long double y, long double z) { return x * y + z; } /* x*y exact in 64 bits */
static long double r_pow(long double x, long double y, long double z) { (void)z; return powl(x, y); }
static long double r_div(long double x, long double y, long double z) { (void)z; return x / y; }

static const math_case math_cases[] = {
    /* float */
    {"expf", 0, 1, r_expl, DOM_RANGE, -110, 90, 0, 0, 1, 1.0},
    {"exp2f", 0, 1, r_exp2l, DOM_RANGE, -155, 130, 0, 0, 1, 1.0},
    {"logf", 0, 1, r_logl, DOM_POS, 0, 0, 0, 0, 1, 1.25},
    {"log2f", 0, 1, r_log2l, DOM_POS, 0, 0, 0, 0, 1, 1.0},
    {"sqrtf", 0, 1, r_sqrtl, DOM_POS, 0, 0, 0, 0, 1, 0.5},
    {"rsqrtf", 0, 1, r_rsqrt, DOM_POS, 0, 0, 0, 0, 1, 1.5},
    {"fabsf", 0, 1, r_fabsl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fmaxf", 0, 2, r_fmax, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fminf", 0, 2, r_fmin, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fmaf", 0, 3, r_fma, DOM_RANGE, -1e6, 1e6, 0, 0, 1, 0.5},
    {"sinf", 0, 1, r_sinl, DOM_ALL, 0, 0, 0, 0, 1, 0.51},
    {"cosf", 0, 1, r_cosl, DOM_ALL, 0, 0, 0, 0, 1, 0.51},
    {"tanhf", 0, 1, r_tanhl, DOM_RANGE, -12, 12, 0, 0, 1, 0.51},
    {"erff", 0, 1, r_erfl, DOM_RANGE, -5, 5, 0, 0, 1, 0.51},
    {"powf", 0, 2, r_pow, DOM_RANGE_POS, 1e-6, 1e6, -12, 12, 1, 0.51},
    {"__expf", 0, 1, r_expl, DOM_RANGE, -80, 80, 0, 0, 0, 64.0},
    {"__logf", 0, 1, r_logl, DOM_RANGE_POS, 1e-30, 1e30, 0, 0, 0, 2.0},
    {"__fdividef", 0, 2, r_div, DOM_RANGE, -1e30, 1e30, 1e-30, 1e30, 0, 2.0},
    {"fdividef", 0, 2, r_div, DOM_ALL, 0, 0, 0, 0, 1, 0.5},
    {"floorf", 0, 1, r_floorl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"ceilf", 0, 1, r_ceill, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"truncf", 0, 1, r_truncl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"rintf", 0, 1, r_rintl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"roundf", 0, 1, r_roundl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"tanf", 0, 1, r_tanl, DOM_ALL, 0, 0, 0, 0, 1, 0.51},
    {"log10f", 0, 1, r_log10l, DOM_POS, 0, 0, 0, 0, 1, 0.51},
    {"expm1f", 0, 1, r_expm1l, DOM_RANGE, -110, 90, 0, 0, 1, 0.51},
    {"log1pf", 0, 1, r_log1pl, DOM_RANGE, -1, 3.4e38, 0, 0, 1, 0.51},
    {"sincosf_sin", 0, 1, r_sinl, DOM_ALL, 0, 0, 0, 0, 1, 0.51},
    {"sincosf_cos", 0, 1, r_cosl, DOM_ALL, 0, 0, 0, 0, 1, 0.51},
    /* double */
    {"exp", 1, 1, r_expl, DOM_RANGE, -750, 712, 0, 0, 1, 1.0},
    {"exp2", 1, 1, r_exp2l, DOM_RANGE, -1080, 1030, 0, 0, 1, 1.0},
    {"log", 1, 1, r_logl, DOM_POS, 0, 0, 0, 0, 1, 1.0},
    {"log2", 1, 1, r_log2l, DOM_POS, 0, 0, 0, 0, 1, 1.0},
    {"sqrt", 1, 1, r_sqrtl, DOM_POS, 0, 0, 0, 0, 1, 0.5},
    {"rsqrt", 1, 1, r_rsqrt, DOM_POS, 0, 0, 0, 0, 1, 1.0},
    {"fabs", 1, 1, r_fabsl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fmax", 1, 2, r_fmax, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fmin", 1, 2, r_fmin, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"fma", 1, 3, r_fma, DOM_RANGE, -1e6, 1e6, 0, 0, 1, 0.5},
    {"floor", 1, 1, r_floorl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"ceil", 1, 1, r_ceill, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"trunc", 1, 1, r_truncl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"rint", 1, 1, r_rintl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
    {"round", 1, 1, r_roundl, DOM_ALL, 0, 0, 0, 0, 1, 0.0},
};

enum { MATH_N = 1 << 14 };

/* A random value of the case's domain for argument a (0, 1, 2); half uniform, half over bits. */
static double math_input(const math_case *c, int a, size_t i) {
  double lo = a == 1 && c->hi2 > c->lo2 ? c->lo2 : c->lo, hi = a == 1 && c->hi2 > c->lo2 ? c->hi2 : c->hi;
  bool ranged = c->dom == DOM_RANGE || c->dom == DOM_RANGE_POS || (a == 1 && c->hi2 > c->lo2);
  for (;;) {
    double v;
    uint64_t r = rnd();
    if (ranged && (i & 1)) {
      v = lo + (hi - lo) * ((r >> 11) * 0x1p-53);
    } else if (c->dbl) {
      uint64_t b = r & 0x7fffffffffffffffull;
      memcpy(&v, &b, 8);
      if (!(r >> 63 & 1) || c->dom == DOM_POS || c->dom == DOM_RANGE_POS) v = fabs(v);
      else v = -v;
    } else {
      uint32_t b = (uint32_t)(r >> 32) & 0x7fffffffu;
      float f;
      memcpy(&f, &b, 4);
      v = (r & 1) && c->dom != DOM_POS && c->dom != DOM_RANGE_POS ? -f : f;
    }
    if (!isfinite(v)) continue;
    if (ranged && (v < lo || v > hi)) continue;
    if (c->dom == DOM_POS && v < 0) continue;
    if (!c->dbl && fabs(v) > 3.4028234663852886e38) continue;
    return v;
  }
}

/* Error of got in ULPs of its format (p significand bits, emin the smallest normal exponent)
 * against the exact value ref; infinite when a NaN, an infinity or a sign is wrong. */
static double ulp_error(long double got, long double ref, int p, int emin, long double maxv) {
  if (isnan(ref)) return isnan(got) ? 0 : INFINITY;
  if (isnan(got)) return INFINITY;
  /* beyond the largest finite value by half an ULP or more, the rounded result is infinite */
  long double half_top = ldexpl(1.0L, (emin < -1000 ? 1024 : 128) - p - 1);
  if (isinf(ref) || fabsl(ref) >= maxv + half_top) {
    if (isinf(got) && signbit(got) == signbit(ref)) return 0;
    if (isinf(ref)) return INFINITY;
  }
  if (isinf(got)) return INFINITY;
  int e = 0;
  if (ref != 0) frexpl(ref, &e); /* |ref| in [2^(e-1), 2^e) */
  int ue = e - p;
  if (ue < emin - p + 1) ue = emin - p + 1;
  return (double)(fabsl(got - ref) / ldexpl(1.0L, ue));
}

typedef struct {
  double max_ulp;
  size_t n, correct;
  double worst_x, worst_y;
} math_result;

static math_result math_measure(rt_device *d, rt_module *m, const math_case *c) {
  const float fspecial[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, 2.0f, 1e-45f, -1e-45f,
                            1.17549435e-38f, 3.40282347e38f, -3.40282347e38f, 3.14159265f, 100.0f};
  const double dspecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, 2.0, 4.9406564584124654e-324,
                             -4.9406564584124654e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                             -1.7976931348623157e308, 3.141592653589793, 100.0};
  const size_t nspec = c->specials ? 16 : 0, n = MATH_N, es = c->dbl ? 8 : 4;
  uint8_t *in[3], *out = calloc(n, es);
  double *vals[3];
  for (int a = 0; a < 3; a++) {
    in[a] = calloc(n, es);
    vals[a] = calloc(n, sizeof(double));
    for (size_t i = 0; i < n; i++) {
      double v = i < nspec ? (c->dbl ? dspecial[(i + 5 * a) % nspec] : fspecial[(i + 5 * a) % nspec]) : math_input(c, a, i);
      if (!c->dbl) {
        float f = (float)v;
        memcpy(in[a] + 4 * i, &f, 4);
        v = f;
      } else {
        memcpy(in[a] + 8 * i, &v, 8);
      }
      vals[a][i] = v;
    }
  }
  ll_err e = {0};
  uint64_t ptr[4];
  rt_arg args[4];
  for (int a = 0; a < 4; a++) {
    ptr[a] = rt_alloc(d, n * es, "math", &e);
    cr_assert_neq(ptr[a], 0, "%s", e.msg);
    if (a < 3) cr_assert(rt_copy_to_device(d, ptr[a], in[a], n * es, &e), "%s", e.msg);
    args[a] = (rt_arg){.kind = RT_ARG_PTR, .ptr = ptr[a]};
  }
  char *kname = ll_fmt("ulp_%s", c->name);
  const uint32_t grid[3] = {(uint32_t)(n / 256), 1, 1}, block[3] = {256, 1, 1};
  int rc = rt_launch(d, m, kname, grid, block, args, 4, 0, NULL, &e);
  cr_assert_eq(rc, 0, "%s: %s", kname, e.msg);
  cr_assert(rt_copy_from_device(d, out, ptr[3], n * es, &e), "%s", e.msg);
  for (int a = 0; a < 4; a++) rt_free(d, ptr[a]);
  math_result r = {0};
  for (size_t i = 0; i < n; i++) {
    long double ref = c->f(vals[0][i], vals[1][i], vals[2][i]);
    long double got;
    double err;
    bool exact;
    if (c->dbl) {
      double g;
      memcpy(&g, out + 8 * i, 8);
      got = g;
      err = ulp_error(got, ref, 53, -1022, 1.7976931348623157e308L);
      double rr = (double)ref;
      exact = (isnan(rr) && isnan(g)) || memcmp(&rr, &g, 8) == 0 || (rr == g && rr != 0);
    } else {
      float g;
      memcpy(&g, out + 4 * i, 4);
      got = g;
      err = ulp_error(got, ref, 24, -126, 3.40282347e38L);
      float rr = (float)ref;
      exact = (isnan(rr) && isnan(g)) || memcmp(&rr, &g, 4) == 0 || (rr == g && rr != 0);
    }
    r.n++;
    r.correct += exact;
    if (err > r.max_ulp || isnan(err)) r.max_ulp = err, r.worst_x = vals[0][i], r.worst_y = vals[1][i];
  }
  free(kname);
  free(out);
  for (int a = 0; a < 3; a++) free(in[a]), free(vals[a]);
  return r;
}

Test(math, every_function_within_its_stated_ulp_on_the_emulator, .timeout = 600) {
  enter_tmpdir();
  for (int ai = 0; ai < 2; ai++) {
    ll_err e = {0};
    ll_buf diag = {0};
    char *co = NULL;
    cr_assert(isa_cc_compile_into(HIPDIR "/math_ulp.hip", ARCH, ARCH, NULL, &diag, &co, &e), "%s\n%s", e.msg,
              ll_buf_str(&diag));
    ll_buf_free(&diag);
    rt_device *d = rt_open(RT_EMU, ai == 0 ? EMU_GFX942 : EMU_GFX950, &e);
    cr_assert_not_null(d, "%s", e.msg);
    rt_module *m = rt_load_file(d, co, &e);
    cr_assert_not_null(m, "%s", e.msg);
    ll_buf table = {0};
    ll_buf_printf(&table, "| function (%s) | inputs | max ULP error | correctly rounded | stated bound |\n|---|---|---|---|---|\n", ARCH);
    int failed = 0;
    for (size_t i = 0; i < sizeof math_cases / sizeof math_cases[0]; i++) {
      const math_case *c = &math_cases[i];
      math_result r = math_measure(d, m, c);
      bool ok = r.max_ulp <= c->bound;
      ll_buf_printf(&table, "| `%s` | %zu | %.3f | %.2f%% | %g%s |\n", c->name, r.n, r.max_ulp, 100.0 * r.correct / r.n,
                    c->bound, ok ? "" : " **EXCEEDED**");
      if (!ok) {
        failed++;
        fprintf(stderr, "%s %s: %.3f ULP at x = %.17g, y = %.17g (bound %g)\n", ARCH, c->name, r.max_ulp, r.worst_x,
                r.worst_y, c->bound);
      }
    }
    fputs(ll_buf_str(&table), stderr);
    char *path = ll_fmt(LANELAB_BUILD "/test-results/hip-math-ulp-%s.md", ARCH);
    if (ll_mkdir_p(LANELAB_BUILD "/test-results", NULL)) ll_write_file_atomic(path, table.data, table.len, NULL);
    free(path);
    ll_buf_free(&table);
    rt_unload(m);
    rt_close(d);
    free(co);
    cr_assert_eq(failed, 0, "%s: %d functions exceed their stated accuracy (above)", ARCH, failed);
  }
}

/* lanelab's own kernel header (kernels/include/lanelab_device.h) works after the subset (it then
 * uses the subset's HIP names); before it, the subset refuses with a message saying so. The old
 * header's own __shfl_xor now refuses a float instead of converting it (the regression). */
Test(subset, lanelab_device_h_with_hip_runtime_h_and_its_own_shfl_refuses_float, .timeout = 120) {
  enter_tmpdir();
  const char *body = "__global__ void k(float *p) { p[ll_lane_id()] = __shfl_xor(p[threadIdx.x] * 0.5f, 1); }\n";
  const struct {
    const char *pre;
    int rc;
    const char *want;
  } cases[] = {
      {"#include <hip/hip_runtime.h>\n#include \"lanelab_device.h\"\n", 0, ""},
      {"#include \"lanelab_device.h\"\n#include <hip/hip_runtime.h>\n", 2, "include <hip/hip_runtime.h> before lanelab_device.h"},
      {"#include \"lanelab_device.h\"\n", 2, "lanelab_device.h's __shfl_xor moves 32-bit integers only"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *src = ll_fmt("%s%s", cases[i].pre, body);
    write_src("both.hip", src);
    free(src);
    char *err;
    int rc = sh(&err, LANELAB " cc both.hip --arch gfx942 -o both.co -- -I" LANELAB_ROOT "/kernels/include");
    cr_assert_eq(rc, cases[i].rc, "case %zu: exit %d: %s", i, rc, err);
    cr_assert(strstr(err, cases[i].want), "case %zu: no '%s' in: %s", i, cases[i].want, err);
    free(err);
  }
}

/* Regression: Debian 12's libstdc++ cannot demangle C++23's DF16_ (_Float16 = __half) and DF16b
 * (__bf16), so a kernel taking __half pointers was not found by its name. */
Test(subset, kernels_taking_half_and_bf16_are_found_by_name) {
  char *d = emu_demangle("_Z11gemm_mfma16PKDF16_S0_Pfiii");
  cr_assert_not_null(d);
  cr_assert(strncmp(d, "gemm_mfma16(", 12) == 0, "%s", d);
  free(d);
  d = emu_demangle("_Z4bf16PKDF16bPf");
  cr_assert_not_null(d);
  cr_assert(strncmp(d, "bf16(", 5) == 0, "%s", d);
  free(d);
}

/* README's "Your first kernel" block, run as it stands (with build/ on PATH) in an empty folder:
 * it must succeed and the compare must pass. */
Test(cc, readme_first_kernel_runs_as_written, .timeout = 300) {
  size_t n;
  char *readme = ll_read_file(LANELAB_ROOT "/README.md", &n, NULL);
  cr_assert_not_null(readme);
  char *sec = strstr(readme, "### Your first kernel");
  cr_assert_not_null(sec, "README has no 'Your first kernel' section");
  char *start = strstr(sec, "```sh\n");
  cr_assert_not_null(start);
  start += 6;
  char *end = strstr(start, "\n```\n");
  cr_assert_not_null(end);
  int commands = 0;
  for (char *l = start; l && l < end; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (!strncmp(l, "cat ", 4) || !strncmp(l, "python3 ", 8) || !strncmp(l, "lanelab ", 8)) commands++;
  cr_assert_eq(commands, 5, "the section has %d commands, the README promises five", commands);
  enter_tmpdir();
  put("first.sh", start, (size_t)(end - start) + 1);
  char *err;
  int rc = sh(&err, "(PATH=" LANELAB_BUILD ":$PATH bash -e first.sh 1>&2)");
  cr_assert_eq(rc, 0, "README's first-kernel commands: exit %d:\n%s", rc, err);
  cr_assert(strstr(err, "PASS"), "lanelab compare did not pass:\n%s", err);
  free(err);
  free(readme);
}
