/* mk/aiter-e2e.c — end-to-end runs of AMD's aiter kernels on lanelab's emulator against references
 * written here (issue 28). Built and driven by mk/aiter-e2e.sh; nothing of aiter is copied: the
 * code objects are run where they are, and each launch is rebuilt from the argument layout aiter's
 * host code uses (cited per case as a fact: the struct's field order and padding). Every run goes
 * through `lanelab run` with `--kernarg` (the packed argument struct) and `--buf` (the device
 * buffers), as a user would launch a hand-written kernel.
 *
 * usage: aiter-e2e LANELAB AITER_DIR WORKDIR CASE...   CASE: topksoftmax | gemm | pa | bwd | all
 * Prints one line per run (arch, kernel, shape, max error, verdict); exit 0 when every run matched,
 * 1 when one did not, 2 bad usage, 3 a code object or tool is missing. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *lanelab, *aiter, *work;
static int failures, runs;

static void die(int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "aiter-e2e: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(code);
}

static char *fmt(const char *f, ...)
{
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0) die(2, "out of memory");
  va_end(ap);
  return s;
}

static void write_file(const char *path, const void *p, size_t n)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) die(2, "cannot write %s: %s", path, strerror(errno));
}

static void *read_file(const char *path, size_t n)
{
  FILE *f = fopen(path, "rb");
  if (!f) die(1, "cannot read %s: %s", path, strerror(errno));
  void *p = calloc(1, n ? n : 1);
  size_t got = fread(p, 1, n, f);
  fclose(f);
  if (got != n) die(1, "%s: %zu bytes, expected %zu", path, got, n);
  return p;
}

static int exists(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0;
}

/* ---- numbers ----------------------------------------------------------------------------------*/
static uint32_t rng_state = 0x2545f491u;
static uint32_t rnd(void)
{
  uint32_t x = rng_state;
  x ^= x << 13, x ^= x >> 17, x ^= x << 5;
  return rng_state = x;
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f; }

static uint16_t f2bf(float f) /* round to nearest even */
{
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(u >> 16 | 0x40);
  u += 0x7fffu + (u >> 16 & 1);
  return (uint16_t)(u >> 16);
}
static float bf2f(uint16_t h)
{
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ---- launching ---------------------------------------------------------------------------------*/
typedef struct {
  const char *name;
  uint32_t off;     /* byte offset of the pointer in the argument struct */
  const char *in;   /* input file (NULL: zeroed buffer of `bytes`) */
  size_t bytes;
  const char *out;  /* written after the run (NULL: not read back) */
} buf;

/* Runs `lanelab run`; returns its exit status, the output in *log (caller frees). */
static int launch(const char *co, const char *kernel, const uint32_t grid[3], const uint32_t block[3],
                  const void *args, size_t nargs, const buf *b, int nb, const char *extra, char **log)
{
  char *kf = fmt("%s/kernarg.bin", work);
  write_file(kf, args, nargs);
  size_t cap = 4096 + (size_t)nb * 512;
  char *cmd = malloc(cap);
  int n = snprintf(cmd, cap, "%s -q run '%s' '%s' --backend emu --grid %u,%u,%u --block %u,%u,%u --kernarg %s %s",
                   lanelab, co, kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2], kf,
                   extra ? extra : "");
  for (int i = 0; i < nb; i++) {
    const char *in = b[i].in;
    char *zf = NULL;
    if (!in) {
      zf = fmt("%s/zero_%s.bin", work, b[i].name);
      void *z = calloc(1, b[i].bytes ? b[i].bytes : 1);
      write_file(zf, z, b[i].bytes);
      free(z);
      in = zf;
    }
    if (b[i].out)
      n += snprintf(cmd + n, cap - n, " --buf %s@%u:io:%s:%s", b[i].name, b[i].off, in, b[i].out);
    else
      n += snprintf(cmd + n, cap - n, " --buf %s@%u:in:%s", b[i].name, b[i].off, in);
    free(zf);
  }
  snprintf(cmd + n, cap - n, " 2>&1");
  FILE *p = popen(cmd, "r");
  if (!p) die(3, "cannot run %s", lanelab);
  size_t len = 0, lcap = 4096;
  char *out = malloc(lcap);
  size_t k;
  while ((k = fread(out + len, 1, lcap - len - 1, p)) > 0) {
    len += k;
    if (lcap - len < 2) out = realloc(out, lcap *= 2);
  }
  out[len] = 0;
  int st = pclose(p);
  free(cmd), free(kf);
  *log = out;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

static void report(const char *arch, const char *kernel, const char *shape, double maxerr, double tol, int ok,
                   const char *note)
{
  runs++;
  if (!ok) failures++;
  printf("%-7s %-44s %-36s max error %-10.3g (tol %.3g) %s%s%s\n", arch, kernel, shape, maxerr, tol,
         ok ? "MATCH" : "MISMATCH", note ? ": " : "", note ? note : "");
  fflush(stdout);
}

static void run_failed(const char *arch, const char *kernel, const char *shape, int rc, const char *log)
{
  runs++, failures++;
  const char *l = strstr(log, "lanelab: ");
  /* the fault, not the warnings, the warning count or the fidelity line before it */
  while (l && (!strncmp(l, "lanelab: warning", 16) || strstr(l, "memory-model warning") == l + 11 ||
               !strncmp(l + 9, "1 memory-model", 14) || (l[9] >= '0' && l[9] <= '9') ||
               !strncmp(l, "lanelab: fidelity:", 18)))
    l = strstr(l + 1, "\nlanelab: "), l = l ? l + 1 : NULL;
  if (!l) l = strstr(log, "lanelab: ");
  char first[400];
  snprintf(first, sizeof first, "%s", l ? l : log);
  char *nl = strchr(first, '\n');
  if (nl) *nl = 0;
  printf("%-7s %-44s %-36s RUN FAILED (exit %d): %s\n", arch, kernel, shape, rc, first);
  fflush(stdout);
}

/* ---- topksoftmax ----------------------------------------------------------------------------------
 * aiter csrc/py_itfs_cu/asm_topksoftmax.cu, struct KernelArgs (packed): ptr_T (topk indices, int32),
 * ptr_W (topk weights, f32), ptr_A (gating output [tokens][experts], f32 or bf16), each pointer
 * padded to 16 bytes; then batch (tokens), expert, topk, renormalize, out_stride (bytes between
 * output rows), each a u32 padded to 16 bytes: 128 bytes. Grid x = ceil(tokens / subm), block 256.
 * Reference: softmax over the experts in double, the topk largest in descending order, divided by
 * their sum when renormalize is set. The kernel's rows per block (subm) is in the kernel's name. */
static void topksoftmax_case(const char *arch, int subm, int experts, int topk, int bf16, uint32_t tokens, int renorm)
{
  char *base = fmt("topksoftmax_%dx%dx%d%s", subm, experts, topk, bf16 ? "_bf16" : "");
  char *kernel = fmt("_ZN5aiter%zu%sE", strlen(base), base); /* the symbol: aiter::<name> */
  free(base);
  char *co = fmt("%s/hsa/%s/topksoftmax/topksoftmax_%dx%dx%d%s.co", aiter, arch, subm, experts, topk, bf16 ? "_bf16" : "");
  char *shape = fmt("tokens %u experts %d topk %d %s%s", tokens, experts, topk, bf16 ? "bf16" : "f32",
                    renorm ? " renorm" : "");
  if (!exists(co)) die(3, "%s is missing", co);
  size_t n = (size_t)tokens * experts, esz = bf16 ? 2 : 4;
  void *gate = malloc(n * esz);
  float *g = malloc(n * sizeof *g);
  for (size_t i = 0; i < n; i++) {
    float v = frand(-4.0f, 4.0f);
    if (bf16) {
      uint16_t h = f2bf(v);
      ((uint16_t *)gate)[i] = h;
      v = bf2f(h);
    } else {
      ((float *)gate)[i] = v;
    }
    g[i] = v;
  }
  char *gf = fmt("%s/gate.bin", work), *wf = fmt("%s/w.bin", work), *tf = fmt("%s/t.bin", work);
  write_file(gf, gate, n * esz);
  uint8_t args[128] = {0};
  uint32_t v[5] = {tokens, (uint32_t)experts, (uint32_t)topk, (uint32_t)renorm, (uint32_t)topk * 4};
  for (int i = 0; i < 5; i++) memcpy(args + 48 + 16 * i, &v[i], 4);
  size_t ob = (size_t)tokens * topk * 4;
  buf b[3] = {{"T", 0, NULL, ob, tf}, {"W", 16, NULL, ob, wf}, {"A", 32, gf, n * esz, NULL}};
  uint32_t grid[3] = {(tokens + subm - 1) / subm, 1, 1}, block[3] = {256, 1, 1};
  char *log;
  int rc = launch(co, kernel, grid, block, args, sizeof args, b, 3, NULL, &log);
  if (rc != 0) {
    run_failed(arch, kernel, shape, rc, log);
  } else {
    int32_t *ti = read_file(tf, ob);
    float *tw = read_file(wf, ob);
    double maxerr = 0;
    int bad_idx = 0;
    for (uint32_t t = 0; t < tokens; t++) {
      const float *row = g + (size_t)t * experts;
      double mx = -INFINITY, sum = 0, p[1024];
      for (int e = 0; e < experts; e++) mx = fmax(mx, row[e]);
      for (int e = 0; e < experts; e++) sum += p[e] = exp((double)row[e] - mx);
      int used[1024] = {0}, sel[16];
      double tsum = 0;
      for (int k = 0; k < topk; k++) {
        int best = -1;
        for (int e = 0; e < experts; e++)
          if (!used[e] && (best < 0 || p[e] > p[best])) best = e;
        used[best] = 1, sel[k] = best, tsum += p[best] / sum;
      }
      for (int k = 0; k < topk; k++) {
        double want = p[sel[k]] / sum / (renorm ? tsum : 1.0);
        if (ti[t * topk + k] != sel[k]) bad_idx++;
        maxerr = fmax(maxerr, fabs(tw[t * topk + k] - want));
      }
    }
    double tol = 1e-5;
    char *note = bad_idx ? fmt("%d indices differ", bad_idx) : NULL;
    report(arch, kernel, shape, maxerr, tol, !bad_idx && maxerr <= tol, note);
    free(note), free(ti), free(tw);
  }
  free(log), free(gate), free(g), free(gf), free(wf), free(tf), free(kernel), free(co), free(shape);
}

static void topksoftmax(void)
{
  static const char *arches[2] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    /* token counts that are not multiples of the rows per block (4 or 12), and one that is */
    static const uint32_t t4[] = {1, 5, 7, 8}, t12[] = {5, 13, 24};
    for (size_t i = 0; i < sizeof t4 / sizeof *t4; i++) {
      topksoftmax_case(arches[a], 4, 128, 8, 0, t4[i], 1);
      topksoftmax_case(arches[a], 4, 256, 6, 1, t4[i], 0);
    }
    for (size_t i = 0; i < sizeof t12 / sizeof *t12; i++) topksoftmax_case(arches[a], 12, 128, 4, 0, t12[i], 1);
  }
}

/* ---- GEMMs -------------------------------------------------------------------------------------*/
static const char *ARCHES[2] = {"gfx942", "gfx950"};

/* fp8 e4m3 as each arch has it: gfx942 FNUZ (bias 8, 0x80 NaN, no infinity), gfx950 OCP (bias 7,
 * 0x7f/0xff NaN) (docs/isa.md "gfx942 vs gfx950": fp8/bf8 encodings). */
static double fp8_value(uint8_t b, int ocp)
{
  int s = b >> 7, e = b >> 3 & 15, m = b & 7, bias = ocp ? 7 : 8;
  double v = e ? ldexp(1.0 + m / 8.0, e - bias) : ldexp(m / 8.0, 1 - bias);
  return s ? -v : v;
}
/* a random finite fp8 of moderate magnitude: exponent field 5..10 */
static uint8_t fp8_rand(void) { return (uint8_t)((rnd() & 0x80) | (5 + rnd() % 6) << 3 | (rnd() & 7)); }

typedef struct {
  double maxerr, maxref;
  int bad;
} cmp_t;

/* |got - ref| <= rtol * |ref| + atol */
static void cmp_one(cmp_t *c, double got, double ref, double atol, double rtol)
{
  double e = fabs(got - ref);
  if (!(e <= atol + rtol * fabs(ref))) c->bad++;
  if (e > c->maxerr || e != e) c->maxerr = e;
  if (fabs(ref) > c->maxref) c->maxref = fabs(ref);
}

/* bf16 GEMM: aiter csrc/py_itfs_cu/asm_gemm_a16w16.cu, struct KernelArgs (packed; pointers padded to
 * 16 bytes, scalars to 16): ptr_D 0, ptr_C 16, ptr_A 32, ptr_B 48, alpha 64, beta 80, stride_D0 96,
 * stride_D1 112, stride_C0 128, stride_C1 144, stride_A0 160, stride_A1 176, stride_B0 192,
 * stride_B1 208, M 224, N 240, K 256, splitk 272, is_out_b16 288, ptr_Bias 304, add_bias 320,
 * ptr_semaphore 336: 352 bytes. D[M][N] = A[M][K] (row-major) x B[N][K]^T ("tn"), strides in bytes
 * (A, B: K * 2; D: N * element size); grid (ceil(N / tileN), ceil(M / tileM), splitk), block 256.
 * Here: a kernel without B preshuffle, splitk 1, f32 output, no bias. Reference: the products of the
 * bf16 inputs summed in double. */
static void gemm_bf16_case(const char *arch, const char *name, int tm, int tn, uint32_t M, uint32_t N, uint32_t K)
{
  char *kernel = fmt("_ZN5aiter%zu%sE", strlen(name), name);
  char *co = fmt("%s/hsa/%s/bf16gemm/%s.co", aiter, arch, name);
  char *shape = fmt("M %u N %u K %u bf16 -> f32", M, N, K);
  if (!exists(co)) die(3, "%s is missing", co);
  uint16_t *A = malloc((size_t)M * K * 2), *B = malloc((size_t)N * K * 2);
  for (size_t i = 0; i < (size_t)M * K; i++) A[i] = f2bf(frand(-1, 1));
  for (size_t i = 0; i < (size_t)N * K; i++) B[i] = f2bf(frand(-1, 1));
  char *af = fmt("%s/a.bin", work), *bf = fmt("%s/b.bin", work), *df = fmt("%s/d.bin", work);
  write_file(af, A, (size_t)M * K * 2);
  write_file(bf, B, (size_t)N * K * 2);
  uint8_t args[352] = {0};
  float alpha = 1.0f, beta = 0.0f;
  uint32_t u[] = {N * 4, 0, N * 4, 0, K * 2, 0, K * 2, 0, M, N, K, 1, 0};
  memcpy(args + 64, &alpha, 4), memcpy(args + 80, &beta, 4);
  for (int i = 0; i < 13; i++) memcpy(args + 96 + 16 * i, &u[i], 4);
  buf b[3] = {{"D", 0, NULL, (size_t)M * N * 4, df}, {"A", 32, af, (size_t)M * K * 2, NULL},
              {"B", 48, bf, (size_t)N * K * 2, NULL}};
  uint32_t grid[3] = {(N + tn - 1) / tn, (M + tm - 1) / tm, 1}, block[3] = {256, 1, 1};
  char *log;
  /* the code objects' kernarg segment (metadata) ends at 336, before ptr_semaphore, which the host
   * leaves null unless splitk > 1 */
  int rc = launch(co, kernel, grid, block, args, 336, b, 3, NULL, &log);
  if (rc != 0) {
    run_failed(arch, kernel, shape, rc, log);
  } else {
    float *D = read_file(df, (size_t)M * N * 4);
    cmp_t c = {0};
    for (uint32_t m = 0; m < M; m++)
      for (uint32_t n = 0; n < N; n++) {
        double r = 0;
        for (uint32_t k = 0; k < K; k++) r += (double)bf2f(A[(size_t)m * K + k]) * bf2f(B[(size_t)n * K + k]);
        cmp_one(&c, D[(size_t)m * N + n], r, 1e-4, 1e-4); /* f32 accumulation of K products */
      }
    char *note = c.bad ? fmt("%d of %u elements outside 1e-4 + 1e-4|ref|", c.bad, M * N) : fmt("max |ref| %.3g", c.maxref);
    report(arch, kernel, shape, c.maxerr, 1e-4, !c.bad, note);
    free(note), free(D);
  }
  free(log), free(A), free(B), free(af), free(bf), free(df), free(kernel), free(co), free(shape);
}

/* fp8 GEMM with 128x128 block scales: aiter csrc/py_itfs_cu/asm_a8w8_blockscale_bpreshuffle.cu,
 * struct KernelArgs (packed, 16 bytes a field): ptr_C 0, ptr_A 16, ptr_B 32, ptr_a_scale 48,
 * ptr_b_scale 64, ptr_bias 80, m 96, n 112, k 128, lda 144, ldb 160 (elements), ldc 176 (bytes),
 * ks 192, scale_m 208, scale_n 224, scale_k 240: 256 bytes. Grid (n / tile_n * ks, ceil(m /
 * tile_m), 1), block 256. C[m][n] (bf16) = sum_k A[m][k] a_scale[k/128][m] B[n][k]
 * b_scale[n/128][k/128]: the activation scales are passed transposed ([scale_k][m], as aiter's
 * op_tests/test_gemm_a8w8_blockscale.py passes them to the asm kernel) and B preshuffled with
 * aiter's shuffle_weight(layout=(16, 16)): for 1-byte elements, B viewed as [N/16][16][K/32][2][16]
 * and stored in the order [N/16][K/32][2][16][16]. bias: a zero buffer (the host passes zeros when
 * there is none). */
static void gemm_fp8_case(const char *arch, const char *name, int tm, int tn, uint32_t M, uint32_t N, uint32_t K)
{
  int ocp = !strcmp(arch, "gfx950");
  char *kernel = fmt("_ZN5aiter%zu%sE", strlen(name), name);
  char *co = fmt("%s/hsa/%s/fp8gemm_blockscale/%s.co", aiter, arch, name);
  char *shape = fmt("M %u N %u K %u fp8%s -> bf16", M, N, K, ocp ? "(ocp)" : "(fnuz)");
  if (!exists(co)) die(3, "%s is missing", co);
  uint32_t sn = (N + 127) / 128, sk = (K + 127) / 128;
  uint8_t *A = malloc((size_t)M * K), *B = malloc((size_t)N * K), *Bs = malloc((size_t)N * K);
  float *xs = malloc((size_t)sk * M * 4), *ws = malloc((size_t)sn * sk * 4);
  for (size_t i = 0; i < (size_t)M * K; i++) A[i] = fp8_rand();
  for (size_t i = 0; i < (size_t)N * K; i++) B[i] = fp8_rand();
  for (size_t i = 0; i < (size_t)sk * M; i++) xs[i] = frand(0.25f, 1.0f);
  for (size_t i = 0; i < (size_t)sn * sk; i++) ws[i] = frand(0.25f, 1.0f);
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t k = 0; k < K; k++) {
      uint32_t n0 = n / 16, nn = n % 16, k0 = k / 32, kk = k / 16 % 2, kp = k % 16;
      Bs[(((size_t)n0 * (K / 32) + k0) * 2 + kk) * 256 + nn * 16 + kp] = B[(size_t)n * K + k];
    }
  char *af = fmt("%s/a.bin", work), *bf = fmt("%s/b.bin", work), *cf = fmt("%s/c.bin", work);
  char *xf = fmt("%s/xs.bin", work), *wf = fmt("%s/ws.bin", work);
  write_file(af, A, (size_t)M * K), write_file(bf, Bs, (size_t)N * K);
  write_file(xf, xs, (size_t)sk * M * 4), write_file(wf, ws, (size_t)sn * sk * 4);
  uint8_t args[256] = {0};
  uint32_t u[] = {M, N, K, K, K, N * 2, 1, M, sn, sk};
  for (int i = 0; i < 10; i++) memcpy(args + 96 + 16 * i, &u[i], 4);
  buf b[6] = {{"C", 0, NULL, (size_t)M * N * 2, cf},   {"A", 16, af, (size_t)M * K, NULL},
              {"B", 32, bf, (size_t)N * K, NULL},      {"xs", 48, xf, (size_t)sk * M * 4, NULL},
              {"ws", 64, wf, (size_t)sn * sk * 4, NULL}, {"bias", 80, NULL, (size_t)N * 4, NULL}};
  uint32_t grid[3] = {N / tn, (M + tm - 1) / tm, 1}, block[3] = {256, 1, 1};
  char *log;
  int rc = launch(co, kernel, grid, block, args, sizeof args, b, 6, NULL, &log);
  if (rc != 0) {
    run_failed(arch, kernel, shape, rc, log);
  } else {
    uint16_t *C = read_file(cf, (size_t)M * N * 2);
    cmp_t c = {0};
    for (uint32_t m = 0; m < M; m++)
      for (uint32_t n = 0; n < N; n++) {
        double r = 0;
        for (uint32_t k = 0; k < K; k++)
          r += fp8_value(A[(size_t)m * K + k], ocp) * xs[(size_t)(k / 128) * M + m] * fp8_value(B[(size_t)n * K + k], ocp) *
               ws[(size_t)(n / 128) * sk + k / 128];
        cmp_one(&c, bf2f(C[(size_t)m * N + n]), r, 1e-2, 1.0 / 128); /* bf16 output: 8 bits */
      }
    char *note = c.bad ? fmt("%d of %u elements outside 1e-2 + |ref|/128", c.bad, M * N) : fmt("max |ref| %.3g", c.maxref);
    report(arch, kernel, shape, c.maxerr, 1.0 / 128, !c.bad, note);
    free(note), free(C);
  }
  free(log), free(A), free(B), free(Bs), free(xs), free(ws), free(af), free(bf), free(cf), free(xf), free(wf);
  free(kernel), free(co), free(shape);
}

static void gemm(void)
{
  for (int a = 0; a < 2; a++) {
    /* M not a multiple of the tile's rows */
    gemm_bf16_case(ARCHES[a], "bf16gemm_fp32bf16_tn_32x64_pf3_splitk", 32, 64, 40, 128, 256);
    gemm_fp8_case(ARCHES[a], "fp8gemm_bf16_blockscale_BpreShuffle_32x128", 32, 128, 40, 256, 512);
  }
}

/* ---- paged attention (pa) ------------------------------------------------------------------------
 * aiter csrc/py_itfs_cu/asm_pa.cu pa_fwd, struct KernelArgs (packed, 16 bytes a field): ptr_O 0,
 * ptr_Q 16, ptr_K 32, ptr_V 48, ptr_BT 64 (block tables, int32), ptr_CL 80 (context lengths,
 * int32), ptr_KQ 96, ptr_VQ 112 (scales; null without quantization), sclg2e 128 (log2(e) /
 * sqrt(head_size)), mblk 144 (block-table row stride, elements), kv_nheads 160, Qs 176 (query row
 * stride, bytes), Bs 192 (cache block stride, bytes), KVs 208 (cache head stride, bytes), mtp 224
 * (max_qlen - 1), GQA 240, ptr_QTP 256: 272 bytes. Grid (kv heads, sequences), block 256. Layouts
 * (aiter op_tests/test_pa.py): Q [seqs][heads][128]; K cache [blocks][kv heads][128/x][block][x]
 * and V cache, shuffled by its asm_V_shuffle, [blocks][kv heads][block/x][128][x], x = 16 bytes of
 * elements (8 for bf16); O as Q. Reference: `lanelab oracle attention` (ragged, one query per
 * sequence, K and V gathered from the cache in token order), scale 1/sqrt(128); tolerance the
 * oracle's bf16 default (1e-2 + 1e-2 |ref|). */
static void pa_case(const char *arch, int gqa, int kvh, int nseq, const int *ctx)
{
  const int D = 128, BLK = 16, X = 8, H = gqa * kvh;
  char *name = fmt("pa_bf16_noquant_gqa%d_1tg_4w", gqa);
  char *kernel = fmt("_ZN5aiter%zu%sE", strlen(name), name);
  char *co = fmt("%s/hsa/%s/pa/%s.co", aiter, arch, name);
  char *shape = fmt("seqs %d heads %d/%d ctx", nseq, H, kvh);
  for (int i = 0; i < nseq; i++) {
    char *t = fmt("%s%s%d", shape, i ? "," : " ", ctx[i]);
    free(shape), shape = t;
  }
  if (!exists(co)) die(3, "%s is missing", co);
  int maxb = 0, nblk = 0, tot = 0;
  for (int i = 0; i < nseq; i++) {
    int b = (ctx[i] + BLK - 1) / BLK;
    if (b > maxb) maxb = b;
    nblk += b, tot += ctx[i];
  }
  nblk += 3; /* spare blocks no table names */
  uint16_t *Q = malloc((size_t)nseq * H * D * 2), *Kc = calloc((size_t)nblk * kvh * D * BLK, 2);
  uint16_t *Vc = calloc((size_t)nblk * kvh * D * BLK, 2), *Kt = malloc((size_t)tot * kvh * D * 2);
  uint16_t *Vt = malloc((size_t)tot * kvh * D * 2);
  int32_t *bt = calloc((size_t)nseq * maxb, 4), *cl = malloc((size_t)nseq * 4), *perm = malloc((size_t)nblk * 4);
  for (size_t i = 0; i < (size_t)nseq * H * D; i++) Q[i] = f2bf(frand(-1, 1));
  for (int i = 0; i < nblk; i++) perm[i] = i;
  for (int i = nblk - 1; i > 0; i--) { /* physical blocks in shuffled order */
    int j = (int)(rnd() % (uint32_t)(i + 1)), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  int next = 0, tok = 0;
  for (int sq = 0; sq < nseq; sq++) {
    cl[sq] = ctx[sq];
    for (int t = 0; t < ctx[sq]; t++, tok++) {
      if (t % BLK == 0) bt[sq * maxb + t / BLK] = perm[next++];
      int blk = bt[sq * maxb + t / BLK], tt = t % BLK;
      for (int h = 0; h < kvh; h++)
        for (int d = 0; d < D; d++) {
          uint16_t kv = f2bf(frand(-1, 1)), vv = f2bf(frand(-1, 1));
          Kc[(((size_t)blk * kvh + h) * (D / X) + d / X) * BLK * X + tt * X + d % X] = kv;
          Vc[(((size_t)blk * kvh + h) * (BLK / X) + tt / X) * D * X + d * X + tt % X] = vv;
          Kt[((size_t)tok * kvh + h) * D + d] = kv, Vt[((size_t)tok * kvh + h) * D + d] = vv;
        }
    }
  }
  char *qf = fmt("%s/q.bin", work), *kf = fmt("%s/k.bin", work), *vf = fmt("%s/v.bin", work);
  char *btf = fmt("%s/bt.bin", work), *clf = fmt("%s/cl.bin", work), *of = fmt("%s/o.bin", work);
  char *ktf = fmt("%s/kt.bin", work), *vtf = fmt("%s/vt.bin", work);
  write_file(qf, Q, (size_t)nseq * H * D * 2), write_file(kf, Kc, (size_t)nblk * kvh * D * BLK * 2);
  write_file(vf, Vc, (size_t)nblk * kvh * D * BLK * 2), write_file(btf, bt, (size_t)nseq * maxb * 4);
  write_file(clf, cl, (size_t)nseq * 4);
  write_file(ktf, Kt, (size_t)tot * kvh * D * 2), write_file(vtf, Vt, (size_t)tot * kvh * D * 2);
  uint8_t args[272] = {0};
  float sc = (float)(log2(exp(1.0)) / sqrt((double)D));
  memcpy(args + 128, &sc, 4);
  uint32_t u[] = {(uint32_t)maxb, (uint32_t)kvh, (uint32_t)(H * D * 2), (uint32_t)(kvh * D * BLK * 2),
                  (uint32_t)(D * BLK * 2), 0, (uint32_t)gqa};
  for (int i = 0; i < 7; i++) memcpy(args + 144 + 16 * i, &u[i], 4);
  buf b[6] = {{"O", 0, NULL, (size_t)nseq * H * D * 2, of},    {"Q", 16, qf, (size_t)nseq * H * D * 2, NULL},
              {"K", 32, kf, (size_t)nblk * kvh * D * BLK * 2, NULL}, {"V", 48, vf, (size_t)nblk * kvh * D * BLK * 2, NULL},
              {"BT", 64, btf, (size_t)nseq * maxb * 4, NULL}, {"CL", 80, clf, (size_t)nseq * 4, NULL}};
  uint32_t grid[3] = {(uint32_t)kvh, (uint32_t)nseq, 1}, block[3] = {256, 1, 1};
  char *log;
  int rc = launch(co, kernel, grid, block, args, sizeof args, b, 6, NULL, &log);
  if (rc != 0) {
    run_failed(arch, kernel, shape, rc, log);
  } else {
    /* the oracle: ragged, q [seqs][H][D], k/v [tokens][kvh][D] */
    char *spec = fmt("%s/pa_spec.json", work), *odir = fmt("%s/pa_oracle", work);
    FILE *f = fopen(spec, "w");
    if (!f) die(2, "cannot write %s", spec);
    fprintf(f, "{\"kind\": \"ragged\", \"dtype\": \"bf16\", \"num_qo_heads\": %d, \"num_kv_heads\": %d, \"head_dim\": %d,\n"
               " \"qo_indptr\": [0", H, kvh, D);
    for (int i = 1; i <= nseq; i++) fprintf(f, ", %d", i);
    fprintf(f, "], \"kv_indptr\": [0");
    for (int i = 0, acc = 0; i < nseq; i++) fprintf(f, ", %d", acc += ctx[i]);
    fprintf(f, "], \"q\": \"q.bin\", \"k\": \"kt.bin\", \"v\": \"vt.bin\", \"path\": \"plain\"}\n");
    fclose(f);
    char *cmd = fmt("%s -q oracle attention --spec %s --out %s 2>&1", lanelab, spec, odir);
    int orc = system(cmd);
    if (orc != 0) die(1, "the oracle failed: %s", cmd);
    char *rf = fmt("%s/o.bin", odir);
    float *ref = read_file(rf, (size_t)nseq * H * D * 4);
    uint16_t *O = read_file(of, (size_t)nseq * H * D * 2);
    cmp_t c = {0};
    for (size_t i = 0; i < (size_t)nseq * H * D; i++) cmp_one(&c, bf2f(O[i]), ref[i], 1e-2, 1e-2);
    char *note = c.bad ? fmt("%d elements outside 1e-2 + 1e-2|ref|", c.bad) : fmt("max |ref| %.3g", c.maxref);
    report(arch, kernel, shape, c.maxerr, 1e-2, !c.bad, note);
    free(note), free(ref), free(O), free(rf), free(cmd), free(spec), free(odir);
  }
  free(log), free(Q), free(Kc), free(Vc), free(Kt), free(Vt), free(bt), free(cl), free(perm);
  free(qf), free(kf), free(vf), free(btf), free(clf), free(of), free(ktf), free(vtf);
  free(name), free(kernel), free(co), free(shape);
}

static void pa(void)
{
  /* contexts that end mid-block; the second set needs more than 15 blocks of 16 tokens */
  static const int ctx[] = {1, 17, 100, 240}, longer[] = {241, 520};
  for (int a = 0; a < 2; a++) pa_case(ARCHES[a], 8, 2, 4, ctx), pa_case(ARCHES[a], 8, 2, 2, longer);
}

/* ---- fmha v3 backward ----------------------------------------------------------------------------
 * aiter csrc/cpp_itfs/mha_bwd.cu fmha_v3_bwd and csrc/include/mha_bwd.h: three launches, each block
 * 256, the kernels chosen from the csv tables in hsa/<arch>/fmha_v3_bwd for bf16, head dim 128, no mask, batch
 * mode, dq accumulated in bf16 ("a16"):
 *  1. odo (ts 128): D[b][h][i] = sum_d dO * O, f32. Arguments (16 bytes a field): ptr_o, ptr_do,
 *     ptr_d, Hs_o, BAs_o, Seqs_o, Hs_do, BAs_do, Seqs_do, Hs_d, BAs_d, Seqs_d (4), seqlen_q,
 *     head_dim, ptr_qseq, ptr_qseq_padded: 256 bytes; strides in bytes; grid (ceil(sq / 128),
 *     heads, batch).
 *  2. dqdkdv, struct fmha_bwd_dqdkdv_args (offsets in its comments, 0x2c0 = 704 bytes): dq (or the
 *     dq accumulator), dk, dv, q, k, v, do, lse (natural log, f32 [b][h][sq]), d, scalar
 *     (softmax scale), log2e, seqlen_q, Ts (ts_kv * K row stride in bytes), head, batch and row
 *     strides in bytes, ratio (q heads per kv head), seqlen_k, head dims, nhead_q,
 *     max_seqlen_dq (a16: seqlen_q rounded up to 16); grid (ceil(sk / ts_kv), q heads, batch).
 *  3. gfx950 only (head dim != 64): dq_shuffle (ts 64), struct fmha_bwd_post_kernel_args (192
 *     bytes): the bf16 accumulator [b][h][ceil16(sq)][128] to dq.
 * Inputs bf16 in [b][h][s][d]; O and LSE of the forward pass from `lanelab oracle attention` (O
 * rounded to bf16, LSE converted from base 2 to natural). Reference gradients in double from the
 * definitions: P = softmax(scale Q K^T), dV = P^T dO, dP = dO V^T, dS = P (dP - D) with D the
 * row sums of dO O, dQ = scale dS K, dK = scale dS^T Q. Tolerance: the oracle's bf16 default
 * (1e-2 + 1e-2 |ref|). */
static void bwd_case(const char *arch, int S, int H)
{
  const int D = 128, B = 1;
  int g950 = !strcmp(arch, "gfx950");
  const char *dqname = g950 ? "fmha_bwd_hd128_bf16_a16_psskddv" : "fmha_bwd_hd128_bf16_a16_rtne";
  const char *dqco = g950 ? "bwd_hd128_bf16_a16_psskddv" : "bwd_hd128_bf16_a16_rtne";
  int ts_kv = g950 ? 256 : 192;
  char *k_odo = fmt("_ZN5aiter23fmha_bwd_hd128_odo_bf16E"), *k_dq = fmt("_ZN5aiter%zu%sE", strlen(dqname), dqname);
  char *k_post = fmt("_ZN5aiter25fmha_bwd_hd128_dq_shuffleE");
  char *co_odo = fmt("%s/hsa/%s/fmha_v3_bwd/bwd_hd128_odo_bf16.co", aiter, arch);
  char *co_dq = fmt("%s/hsa/%s/fmha_v3_bwd/%s.co", aiter, arch, dqco);
  char *co_post = fmt("%s/hsa/%s/fmha_v3_bwd/bwd_hd128_dq_shuffle.co", aiter, arch);
  char *shape = fmt("b %d h %d s %d d %d bf16", B, H, S, D);
  if (!exists(co_odo) || !exists(co_dq) || (g950 && !exists(co_post))) die(3, "fmha v3 bwd objects missing for %s", arch);
  size_t n = (size_t)B * H * S * D, nb = n * 2;
  uint16_t *q = malloc(nb), *k = malloc(nb), *v = malloc(nb), *dO = malloc(nb), *O = malloc(nb);
  for (size_t i = 0; i < n; i++) q[i] = f2bf(frand(-1, 1)), k[i] = f2bf(frand(-1, 1)), v[i] = f2bf(frand(-1, 1));
  for (size_t i = 0; i < n; i++) dO[i] = f2bf(frand(-1, 1));
  char *qf = fmt("%s/q.bin", work), *kf = fmt("%s/k.bin", work), *vf = fmt("%s/v.bin", work);
  char *dof = fmt("%s/do.bin", work), *of = fmt("%s/o.bin", work), *lf = fmt("%s/lse.bin", work);
  char *df = fmt("%s/d.bin", work), *dqf = fmt("%s/dq.bin", work), *dkf = fmt("%s/dk.bin", work);
  char *dvf = fmt("%s/dv.bin", work), *accf = fmt("%s/dqacc.bin", work);
  /* the forward pass from the oracle: q, k, v in [s][h][d] order (NHD) for it */
  uint16_t *t = malloc(nb);
  for (int w = 0; w < 3; w++) {
    const uint16_t *src = w == 0 ? q : w == 1 ? k : v;
    for (int h = 0; h < H; h++)
      for (int i = 0; i < S; i++) memcpy(t + ((size_t)i * H + h) * D, src + ((size_t)h * S + i) * D, D * 2);
    char *f = fmt("%s/nhd%d.bin", work, w);
    write_file(f, t, nb);
    free(f);
  }
  char *spec = fmt("%s/bwd_spec.json", work), *odir = fmt("%s/bwd_oracle", work);
  FILE *sf = fopen(spec, "w");
  if (!sf) die(2, "cannot write %s", spec);
  fprintf(sf, "{\"kind\": \"single\", \"dtype\": \"bf16\", \"num_qo_heads\": %d, \"num_kv_heads\": %d, \"head_dim\": %d,"
              " \"qo_indptr\": [0, %d], \"kv_indptr\": [0, %d], \"q\": \"nhd0.bin\", \"k\": \"nhd1.bin\", \"v\": \"nhd2.bin\","
              " \"path\": \"plain\"}\n", H, H, D, S, S);
  fclose(sf);
  char *cmd = fmt("%s -q oracle attention --spec %s --out %s 2>&1", lanelab, spec, odir);
  if (system(cmd) != 0) die(1, "the oracle failed: %s", cmd);
  char *o_f = fmt("%s/o.bin", odir), *l_f = fmt("%s/lse.bin", odir);
  float *of32 = read_file(o_f, n * 4), *l2 = read_file(l_f, (size_t)S * H * 4);
  float *lse = malloc((size_t)H * S * 4);
  for (int h = 0; h < H; h++)
    for (int i = 0; i < S; i++) {
      for (int d = 0; d < D; d++) O[((size_t)h * S + i) * D + d] = f2bf(of32[((size_t)i * H + h) * D + d]);
      lse[(size_t)h * S + i] = (float)(l2[(size_t)i * H + h] * M_LN2); /* base 2 -> natural */
    }
  write_file(qf, q, nb), write_file(kf, k, nb), write_file(vf, v, nb), write_file(dof, dO, nb);
  write_file(of, O, nb), write_file(lf, lse, (size_t)H * S * 4);
  uint32_t blk[3] = {256, 1, 1};
  char *log = NULL;
  int rc;
  /* 1. odo */
  {
    uint8_t a[256] = {0};
    uint32_t u[] = {S * D * 2, H * S * D * 2, D * 2, S * D * 2, H * S * D * 2, D * 2, S * 4, H * S * 4, 4, (uint32_t)S, D};
    for (int i = 0; i < 11; i++) memcpy(a + 48 + 16 * i, &u[i], 4);
    buf b[3] = {{"O", 0, of, nb, NULL}, {"dO", 16, dof, nb, NULL}, {"D", 32, NULL, (size_t)H * S * 4, df}};
    uint32_t grid[3] = {(uint32_t)(S + 127) / 128, (uint32_t)H, B};
    rc = launch(co_odo, k_odo, grid, blk, a, sizeof a, b, 3, NULL, &log);
    if (rc != 0) {
      run_failed(arch, k_odo, shape, rc, log);
      goto out;
    }
    free(log), log = NULL;
  }
  /* 2. dqdkdv */
  int pad = (S + 15) / 16 * 16;
  size_t accb = (size_t)B * H * pad * 128 * 2;
  {
    uint8_t a[704] = {0};
    float scale = (float)(1.0 / sqrt((double)D)), l2e = (float)M_LOG2E;
    memcpy(a + 0x90, &scale, 4), memcpy(a + 0xa0, &l2e, 4);
    uint32_t hs = S * D * 2, bas = H * S * D * 2, ss = D * 2;
    struct { uint32_t off, v; } f[] = {
        {0xb0, (uint32_t)S}, {0xc0, (uint32_t)ts_kv * ss}, {0xd0, hs}, {0xe0, bas}, {0xf0, ss}, {0x100, 1},
        {0x110, hs}, {0x120, bas}, {0x130, ss}, {0x140, ss}, {0x150, (uint32_t)S}, {0x160, D}, {0x170, D},
        {0x180, (uint32_t)H}, {0x190, hs}, {0x1a0, bas}, {0x1b0, ss}, {0x1c0, hs}, {0x1d0, bas}, {0x1e0, ss},
        {0x1f0, hs}, {0x200, bas}, {0x210, hs}, {0x220, bas}, {0x230, ss}, {0x240, S * 4}, {0x290, (uint32_t)pad}};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) memcpy(a + f[i].off, &f[i].v, 4);
    buf b[9] = {{"dQ", 0x00, NULL, g950 ? accb : nb, g950 ? accf : dqf}, {"dK", 0x10, NULL, nb, dkf},
                {"dV", 0x20, NULL, nb, dvf}, {"Q", 0x30, qf, nb, NULL}, {"K", 0x40, kf, nb, NULL},
                {"V", 0x50, vf, nb, NULL}, {"dO", 0x60, dof, nb, NULL}, {"Lse", 0x70, lf, (size_t)H * S * 4, NULL},
                {"D", 0x80, df, (size_t)H * S * 4, NULL}};
    uint32_t grid[3] = {(uint32_t)(S + ts_kv - 1) / ts_kv, (uint32_t)H, B};
    rc = launch(co_dq, k_dq, grid, blk, a, sizeof a, b, 9, NULL, &log);
    if (rc != 0) {
      run_failed(arch, k_dq, shape, rc, log);
      goto out;
    }
    free(log), log = NULL;
  }
  /* 3. dq_shuffle (gfx950) */
  if (g950) {
    uint8_t a[192] = {0};
    uint32_t u[] = {(uint32_t)pad * 128 * 2, 0, 128 * 2, S * D * 2, H * S * D * 2, D * 2, (uint32_t)S, D};
    for (int i = 0; i < 8; i++) memcpy(a + 32 + 16 * i, &u[i], 4);
    buf b[2] = {{"dQ_acc", 0, accf, accb, NULL}, {"dQ", 16, NULL, nb, dqf}};
    uint32_t grid[3] = {(uint32_t)(S + 63) / 64, (uint32_t)H, B};
    rc = launch(co_post, k_post, grid, blk, a, sizeof a, b, 2, NULL, &log);
    if (rc != 0) {
      run_failed(arch, k_post, shape, rc, log);
      goto out;
    }
    free(log), log = NULL;
  }
  {
    uint16_t *gq = read_file(dqf, nb), *gk = read_file(dkf, nb), *gv = read_file(dvf, nb);
    double sc = 1.0 / sqrt((double)D);
    cmp_t c[3];
    memset(c, 0, sizeof c);
    double *P = malloc((size_t)S * S * 8), *dS = malloc((size_t)S * S * 8);
    for (int h = 0; h < H; h++) {
      const size_t o = (size_t)h * S * D;
      for (int i = 0; i < S; i++) {
        double mx = -INFINITY, sum = 0, Di = 0;
        for (int j = 0; j < S; j++) {
          double x = 0;
          for (int d = 0; d < D; d++) x += (double)bf2f(q[o + (size_t)i * D + d]) * bf2f(k[o + (size_t)j * D + d]);
          P[(size_t)i * S + j] = x * sc, mx = fmax(mx, x * sc);
        }
        for (int j = 0; j < S; j++) sum += P[(size_t)i * S + j] = exp(P[(size_t)i * S + j] - mx);
        for (int j = 0; j < S; j++) P[(size_t)i * S + j] /= sum;
        for (int d = 0; d < D; d++) Di += (double)bf2f(dO[o + (size_t)i * D + d]) * bf2f(O[o + (size_t)i * D + d]);
        for (int j = 0; j < S; j++) {
          double dp = 0;
          for (int d = 0; d < D; d++) dp += (double)bf2f(dO[o + (size_t)i * D + d]) * bf2f(v[o + (size_t)j * D + d]);
          dS[(size_t)i * S + j] = P[(size_t)i * S + j] * (dp - Di);
        }
      }
      for (int i = 0; i < S; i++)
        for (int d = 0; d < D; d++) {
          double rq = 0, rk = 0, rv = 0;
          for (int j = 0; j < S; j++) {
            rq += dS[(size_t)i * S + j] * bf2f(k[o + (size_t)j * D + d]);
            rk += dS[(size_t)j * S + i] * bf2f(q[o + (size_t)j * D + d]);
            rv += P[(size_t)j * S + i] * bf2f(dO[o + (size_t)j * D + d]);
          }
          size_t at = o + (size_t)i * D + d;
          cmp_one(&c[0], bf2f(gq[at]), rq * sc, 1e-2, 1e-2);
          cmp_one(&c[1], bf2f(gk[at]), rk * sc, 1e-2, 1e-2);
          cmp_one(&c[2], bf2f(gv[at]), rv, 1e-2, 1e-2);
        }
    }
    static const char *nm[3] = {"dq", "dk", "dv"};
    for (int w = 0; w < 3; w++) {
      char *sh = fmt("%s %s", shape, nm[w]);
      char *note = c[w].bad ? fmt("%d elements outside 1e-2 + 1e-2|ref| (max |ref| %.3g)", c[w].bad, c[w].maxref)
                            : fmt("max |ref| %.3g", c[w].maxref);
      report(arch, k_dq, sh, c[w].maxerr, 1e-2, !c[w].bad, note);
      free(sh), free(note);
    }
    free(P), free(dS), free(gq), free(gk), free(gv);
  }
out:
  free(log), free(q), free(k), free(v), free(dO), free(O), free(t), free(of32), free(l2), free(lse);
  free(qf), free(kf), free(vf), free(dof), free(of), free(lf), free(df), free(dqf), free(dkf), free(dvf), free(accf);
  free(spec), free(odir), free(cmd), free(o_f), free(l_f), free(k_odo), free(k_dq), free(k_post);
  free(co_odo), free(co_dq), free(co_post), free(shape);
}

static void bwd(void)
{
  for (int a = 0; a < 2; a++) bwd_case(ARCHES[a], 128, 2);
}

int main(int argc, char **argv)
{
  if (argc < 5) die(2, "usage: aiter-e2e LANELAB AITER_DIR WORKDIR CASE... (CASE: topksoftmax | gemm | pa | bwd | all)");
  lanelab = argv[1], aiter = argv[2], work = argv[3];
  for (int i = 4; i < argc; i++) {
    int all = !strcmp(argv[i], "all"), known = all;
    if (all || !strcmp(argv[i], "topksoftmax")) topksoftmax(), known = 1;
    if (all || !strcmp(argv[i], "gemm")) gemm(), known = 1;
    if (all || !strcmp(argv[i], "pa")) pa(), known = 1;
    if (all || !strcmp(argv[i], "bwd")) bwd(), known = 1;
    if (!known) die(2, "unknown case '%s' (topksoftmax | gemm | pa | bwd | all)", argv[i]);
  }
  printf("aiter-e2e: %d runs, %d mismatched or failed\n", runs, failures);
  return failures ? 1 : 0;
}
