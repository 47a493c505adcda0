/* oracle/attention — the two attention paths (plain: double, one row at a time; fast: float,
 * blocked, multi-threaded) and the dispatch between them. Semantics: oracle/oracle.h. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "oracle/oracle.h"

#define LOG2E 1.4426950408889634

/* ---- shared description of one problem, in float ------------------------------------------ */
typedef struct prob {
  const oracle_attention_spec *s;
  int Hq, Hk, D, group;
  double scale, cap;
  float *q, *k, *v;              /* inputs converted to float (plain path only) */
  int64_t *mask_off;             /* [batch] bit offset of each request's mask segment */
  float *o, *lse;
} prob;

/* Element index of the D elements of key/value token j (logical position in request b) of kv head
 * h in k or v. */
static int64_t kv_index(const prob *p, int b, int64_t j, int h) {
  const oracle_attention_spec *s = p->s;
  if (s->kind != ORACLE_PAGED) return (((int64_t)s->kv_indptr[b] + j) * p->Hk + h) * p->D;
  int64_t page = s->kv_indices[s->kv_indptr[b] + j / s->page_size], off = j % s->page_size;
  if (s->layout == ORACLE_NHD) return ((page * s->page_size + off) * p->Hk + h) * p->D;
  return ((page * p->Hk + h) * s->page_size + off) * p->D;
}

/* Pointer to the D floats of key/value token j of kv head h in a float copy of k or v. */
static const float *kv_row(const prob *p, const float *base, int b, int64_t j, int h) {
  return base + kv_index(p, b, j, h);
}

/* Is key j visible to query i of request b? (docs/oracle.md: bottom-right causal, window_left,
 * custom mask replacing causal.) */
static bool visible(const prob *p, int b, int64_t i, int64_t j, int64_t qo_len, int64_t kv_len) {
  const oracle_attention_spec *s = p->s;
  int64_t diag = i + (kv_len - qo_len);
  if (s->custom_mask) {
    int64_t bit = p->mask_off[b] + i * kv_len + j;
    if (!((s->custom_mask[bit >> 3] >> (bit & 7)) & 1)) return false;
  } else if (s->causal && j > diag) {
    return false;
  }
  if (s->window_left >= 0 && j < diag - s->window_left) return false;
  return true;
}

static double logit(const prob *p, double dot) {
  double x = dot * p->scale;
  return p->cap > 0 ? p->cap * tanh(x / p->cap) : x;
}

/* ---- plain path ------------------------------------------------------------------------------ */
static void run_plain(prob *p) {
  const oracle_attention_spec *s = p->s;
  int64_t maxkv = 0;
  for (int b = 0; b < s->batch; b++)
    if (oracle_attention_kv_len(s, b) > maxkv) maxkv = oracle_attention_kv_len(s, b);
  double *sc = ll_xmalloc((size_t)(maxkv ? maxkv : 1) * sizeof *sc);
  double *acc = ll_xmalloc((size_t)p->D * sizeof *acc);
  for (int b = 0; b < s->batch; b++) {
    int64_t qo_len = oracle_attention_qo_len(s, b), kv_len = oracle_attention_kv_len(s, b);
    for (int64_t i = 0; i < qo_len; i++) {
      int64_t t = s->qo_indptr[b] + i;
      for (int h = 0; h < p->Hq; h++) {
        int kh = h / p->group;
        const float *q = p->q + (t * p->Hq + h) * p->D;
        float *o = p->o + (t * p->Hq + h) * p->D;
        double m = -INFINITY;
        for (int64_t j = 0; j < kv_len; j++) {
          sc[j] = -INFINITY;
          if (!visible(p, b, i, j, qo_len, kv_len)) continue;
          const float *k = kv_row(p, p->k, b, j, kh);
          double dot = 0;
          for (int d = 0; d < p->D; d++) dot += (double)q[d] * (double)k[d];
          sc[j] = logit(p, dot);
          if (sc[j] > m) m = sc[j];
        }
        if (m == -INFINITY) { /* fully masked (or kv_len 0): defined as O = 0, LSE = -inf */
          memset(o, 0, (size_t)p->D * sizeof *o);
          p->lse[t * p->Hq + h] = -INFINITY;
          continue;
        }
        double sum = 0;
        memset(acc, 0, (size_t)p->D * sizeof *acc);
        for (int64_t j = 0; j < kv_len; j++) {
          if (sc[j] == -INFINITY) continue;
          double w = exp(sc[j] - m);
          const float *v = kv_row(p, p->v, b, j, kh);
          sum += w;
          for (int d = 0; d < p->D; d++) acc[d] += w * v[d];
        }
        for (int d = 0; d < p->D; d++) o[d] = (float)(acc[d] / sum);
        p->lse[t * p->Hq + h] = (float)(m * LOG2E + log2(sum));
      }
    }
  }
  free(sc);
  free(acc);
}

/* ---- fast path ------------------------------------------------------------------------------- */
/* Layout. Key columns and head_dim are padded to PW floats, and the right-hand operand of both
 * products is stored in panels of PW columns, so a kernel's column strip is contiguous memory:
 * K transposed as [ldk/PW][D][PW] (Q K^T reads the D rows of one key panel) and V as
 * [Dp/PW][ldk][PW] (P V reads consecutive keys of one head_dim panel). Padding is zero (not
 * garbage: 0 * NaN would poison a row). Buffers read as vectors are 64-byte aligned with leading
 * dimensions that are multiples of 16 floats; a score row is one cache line longer than its
 * columns so that the rows of a block do not all fall into the same L1 sets. */
#define BM 32   /* query rows per work item (a multiple of 8) */
#define PW 32   /* panel width */
#define KC 128  /* reduction block */
#define CH 256  /* key columns per chunk of a block's scores (a multiple of PW) */
#define HUGE_2M ((size_t)2 << 20)

static size_t rup(size_t x, size_t m) { return (x + m - 1) / m * m; }

static void *xaligned(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n ? rup(n, 64) : 64)) p = NULL;
  if (!p) ll_die(LL_EXIT_ENV, "out of memory allocating %zu bytes", n);
  return p;
}

/* Ask for transparent huge pages on the 2 MiB-aligned part of [p, p+n) (a hint: fewer page
 * faults and TLB misses, the same contents; refused quietly where not offered, or where the
 * range is not an anonymous mapping). */
static void advise_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  uintptr_t a = rup((uintptr_t)p, HUGE_2M), e = ((uintptr_t)p + n) / HUGE_2M * HUGE_2M;
  if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
  (void)p;
  (void)n;
#endif
}

/* A large zeroed buffer (the K/V arena): an anonymous mapping (zero-filled by the kernel, no
 * memset), 2 MiB-aligned and advised as huge pages. */
typedef struct bigbuf {
  void *map;
  size_t len;
} bigbuf;

static float *big_zeroed(bigbuf *b, size_t bytes) {
  b->len = rup(bytes ? bytes : 1, HUGE_2M) + HUGE_2M;
  b->map = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (b->map == MAP_FAILED) ll_die(LL_EXIT_ENV, "out of memory mapping %zu bytes", b->len);
  float *p = (float *)rup((uintptr_t)b->map, HUGE_2M);
  advise_huge(p, rup(bytes ? bytes : 1, HUGE_2M));
  return p;
}

/* The kernels: C[M x N] = A[M x K] * B[K x N], or C += A*B with acc. M is a multiple of 8, N of
 * PW. A is row-major (lda), read as scalars (broadcast); B is in panels: element (k, n) at
 * B[(n / PW) * bps + k * PW + n % PW]; C is row-major (ldc). B and C are read as aligned vectors.
 * Three builds of one loop nest (KC-deep reduction blocks; in each, every PW-column panel of B
 * against every group of rows of A), with the register block each instruction set affords:
 *  - avx512: 16-float vectors, 8 rows x 32 columns = 16 accumulators (of 32 zmm registers);
 *  - avx2:   8-float vectors (AVX2 + FMA), 4 rows x 16 columns = 8 accumulators (of 16 ymm);
 *  - sse:    4-float vectors (the x86-64 baseline), 2 rows x 16 columns = 8 accumulators.
 * avx512 and avx2 carry a target attribute on their own functions only (GCC lowers wide vector
 * code without those instructions to far slower code, hence a build per instruction set) and are
 * chosen at run time (pick_kernel). Each also has its own build of the softmax row passes
 * (oracle/attention_rows.h). */
typedef void (*gemm_fn)(int M, int N, int K, const float *A, size_t lda, const float *B, size_t bps, float *C,
                        size_t ldc, bool acc);

#if defined(__x86_64__)
typedef float v16f __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));

#define ROW512(r)                                                                                  \
  v16f x##r##a = add ? *(v16f *)(c + (r) * ldc) : (v16f){0},                                       \
       x##r##b = add ? *(v16f *)(c + (r) * ldc + 16) : (v16f){0};                                  \
  const float *a##r = a + (r) * lda
#define FMA512(r)                                                                                  \
  s = a##r[k];                                                                                     \
  x##r##a += s * b0;                                                                               \
  x##r##b += s * b1
#define STORE512(r)                                                                                \
  *(v16f *)(c + (r) * ldc) = x##r##a;                                                              \
  *(v16f *)(c + (r) * ldc + 16) = x##r##b

__attribute__((target("avx512f")))
static void gemm_avx512(int M, int N, int K, const float *A, size_t lda, const float *B, size_t bps, float *C,
                        size_t ldc, bool acc) {
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kn = K - k0 < KC ? K - k0 : KC;
    bool add = acc || k0 > 0;
    for (int n0 = 0; n0 < N; n0 += PW) {
      const float *bk = B + (size_t)(n0 / PW) * bps + (size_t)k0 * PW;
      for (int m0 = 0; m0 < M; m0 += 8) {
        const float *a = A + (size_t)m0 * lda + k0;
        float *c = C + (size_t)m0 * ldc + n0;
        ROW512(0); ROW512(1); ROW512(2); ROW512(3); ROW512(4); ROW512(5); ROW512(6); ROW512(7);
        const float *bp = bk;
        for (int k = 0; k < kn; k++, bp += PW) {
          v16f b0 = *(const v16f *)bp, b1 = *(const v16f *)(bp + 16);
          float s;
          FMA512(0); FMA512(1); FMA512(2); FMA512(3); FMA512(4); FMA512(5); FMA512(6); FMA512(7);
        }
        STORE512(0); STORE512(1); STORE512(2); STORE512(3); STORE512(4); STORE512(5); STORE512(6); STORE512(7);
      }
    }
  }
}

__attribute__((target("avx2,fma")))
static void gemm_avx2(int M, int N, int K, const float *A, size_t lda, const float *B, size_t bps, float *C,
                      size_t ldc, bool acc) {
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kn = K - k0 < KC ? K - k0 : KC;
    bool add = acc || k0 > 0;
    for (int n0 = 0; n0 < N; n0 += 16) {
      const float *bk = B + (size_t)(n0 / PW) * bps + (size_t)k0 * PW + n0 % PW;
      for (int m0 = 0; m0 < M; m0 += 4) {
        const float *a0 = A + (size_t)m0 * lda + k0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        float *c0 = C + (size_t)m0 * ldc + n0, *c1 = c0 + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
        v8f x00 = {0}, x01 = {0}, x10 = {0}, x11 = {0}, x20 = {0}, x21 = {0}, x30 = {0}, x31 = {0};
        if (add) {
          x00 = *(v8f *)c0; x01 = *(v8f *)(c0 + 8); x10 = *(v8f *)c1; x11 = *(v8f *)(c1 + 8);
          x20 = *(v8f *)c2; x21 = *(v8f *)(c2 + 8); x30 = *(v8f *)c3; x31 = *(v8f *)(c3 + 8);
        }
        const float *bp = bk;
        for (int k = 0; k < kn; k++, bp += PW) {
          v8f b0 = *(const v8f *)bp, b1 = *(const v8f *)(bp + 8);
          float s0 = a0[k], s1 = a1[k], s2 = a2[k], s3 = a3[k];
          x00 += s0 * b0; x01 += s0 * b1;
          x10 += s1 * b0; x11 += s1 * b1;
          x20 += s2 * b0; x21 += s2 * b1;
          x30 += s3 * b0; x31 += s3 * b1;
        }
        *(v8f *)c0 = x00; *(v8f *)(c0 + 8) = x01; *(v8f *)c1 = x10; *(v8f *)(c1 + 8) = x11;
        *(v8f *)c2 = x20; *(v8f *)(c2 + 8) = x21; *(v8f *)c3 = x30; *(v8f *)(c3 + 8) = x31;
      }
    }
  }
}
#endif

static void gemm_sse(int M, int N, int K, const float *A, size_t lda, const float *B, size_t bps, float *C,
                     size_t ldc, bool acc) {
#if defined(__x86_64__)
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kn = K - k0 < KC ? K - k0 : KC;
    bool add = acc || k0 > 0;
    for (int n0 = 0; n0 < N; n0 += 16) {
      const float *bk = B + (size_t)(n0 / PW) * bps + (size_t)k0 * PW + n0 % PW;
      for (int m0 = 0; m0 < M; m0 += 2) {
        const float *a0 = A + (size_t)m0 * lda + k0, *a1 = a0 + lda;
        float *c0 = C + (size_t)m0 * ldc + n0, *c1 = c0 + ldc;
        v4f x00 = {0}, x01 = {0}, x02 = {0}, x03 = {0}, x10 = {0}, x11 = {0}, x12 = {0}, x13 = {0};
        if (add) {
          x00 = *(v4f *)c0; x01 = *(v4f *)(c0 + 4); x02 = *(v4f *)(c0 + 8); x03 = *(v4f *)(c0 + 12);
          x10 = *(v4f *)c1; x11 = *(v4f *)(c1 + 4); x12 = *(v4f *)(c1 + 8); x13 = *(v4f *)(c1 + 12);
        }
        const float *bp = bk;
        for (int k = 0; k < kn; k++, bp += PW) {
          v4f b0 = *(const v4f *)bp, b1 = *(const v4f *)(bp + 4), b2 = *(const v4f *)(bp + 8), b3 = *(const v4f *)(bp + 12);
          float s0 = a0[k], s1 = a1[k];
          x00 += s0 * b0; x01 += s0 * b1; x02 += s0 * b2; x03 += s0 * b3;
          x10 += s1 * b0; x11 += s1 * b1; x12 += s1 * b2; x13 += s1 * b3;
        }
        *(v4f *)c0 = x00; *(v4f *)(c0 + 4) = x01; *(v4f *)(c0 + 8) = x02; *(v4f *)(c0 + 12) = x03;
        *(v4f *)c1 = x10; *(v4f *)(c1 + 4) = x11; *(v4f *)(c1 + 8) = x12; *(v4f *)(c1 + 12) = x13;
      }
    }
  }
#else /* portable scalar fallback for other architectures */
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      float *c = &C[(size_t)m * ldc + n];
      if (!acc) *c = 0;
      for (int k = 0; k < K; k++) *c += A[(size_t)m * lda + k] * B[(size_t)(n / PW) * bps + (size_t)k * PW + n % PW];
    }
#endif
}

/* The softmax row passes, one build per kernel. */
#if defined(__x86_64__)
#define ROWS_W 16
#define ROWS_SUF avx512
#define ROWS_ATTR __attribute__((target("avx512f")))
#include "oracle/attention_rows.h"
#undef ROWS_W
#undef ROWS_SUF
#undef ROWS_ATTR
#define ROWS_W 8
#define ROWS_SUF avx2
#define ROWS_ATTR __attribute__((target("avx2,fma")))
#include "oracle/attention_rows.h"
#undef ROWS_W
#undef ROWS_SUF
#undef ROWS_ATTR
#endif
#define ROWS_W 4
#define ROWS_SUF base
#define ROWS_ATTR
#include "oracle/attention_rows.h"
#undef ROWS_W
#undef ROWS_SUF
#undef ROWS_ATTR

typedef struct kernel {
  const char *name;
  int lanes;        /* floats per vector of the row passes */
  gemm_fn gemm;
  float (*logits)(float *s, int64_t n, int64_t a, int64_t e, float scale);
  void (*exps)(float *s, int64_t n, float m, float *sum);
  void (*max)(const float *s, int64_t a, int64_t e, float *hi, float *lo);
  void (*scale_exps)(float *s, int64_t n, int64_t a, int64_t e, float scale, float m, float *sum);
} kernel;

/* Best first; the last one is the baseline every CPU of the architecture runs. */
static const kernel kernels[] = {
#if defined(__x86_64__)
    {"avx512", 16, gemm_avx512, row_logits_avx512, row_exp_avx512, row_max_avx512, row_scale_exp_avx512},
    {"avx2", 8, gemm_avx2, row_logits_avx2, row_exp_avx2, row_max_avx2, row_scale_exp_avx2},
    {"sse", 4, gemm_sse, row_logits_base, row_exp_base, row_max_base, row_scale_exp_base},
#else
    {"scalar", 4, gemm_sse, row_logits_base, row_exp_base, row_max_base, row_scale_exp_base},
#endif
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

static bool cpu_runs(const kernel *k) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (k == &kernels[0]) return __builtin_cpu_supports("avx512f");
  if (k == &kernels[1]) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  (void)k;
  return true;
}

/* LANELAB_ORACLE_KERNEL unset, empty or "auto": the first kernel the CPU runs. A kernel's name
 * forces it ("sse" is the baseline, named "scalar" off x86-64); forcing one the CPU lacks the
 * instructions for is an environment error (LL_EXIT_ENV), any other value a usage error. */
static const kernel *pick_kernel(ll_err *err) {
  const char *e = getenv("LANELAB_ORACLE_KERNEL");
  if (!e || !*e || !strcmp(e, "auto")) {
    for (size_t i = 0; i < NKERNELS; i++)
      if (cpu_runs(&kernels[i])) return &kernels[i];
  }
  for (size_t i = 0; i < NKERNELS; i++) {
    const kernel *k = &kernels[i];
    if (strcmp(e, k->name) && !(i == NKERNELS - 1 && !strcmp(e, "sse"))) continue;
    if (cpu_runs(k)) return k;
    ll_seterr(err, LL_EXIT_ENV, "LANELAB_ORACLE_KERNEL=%s: this CPU lacks the instructions of that kernel", e);
    return NULL;
  }
  ll_seterr(err, LL_EXIT_USAGE, "LANELAB_ORACLE_KERNEL=%s: expected auto, avx512, avx2 or sse", e);
  return NULL;
}

/* q/k/v elements -> float in the worker threads. f16 with F16C (vcvtph2ps, 8 at a time) when the
 * CPU has it; a group of 8 holding a NaN goes through oracle_to_f32 instead, so every result is
 * bit for bit the one oracle_to_f32 gives (F16C would set a signalling NaN's quiet bit). */
#if defined(__x86_64__)
__attribute__((target("avx,f16c")))
static void f16_to_f32_f16c(const uint16_t *src, float *dst, size_t n) {
  size_t i = 0;
  const __m128i mag = _mm_set1_epi16(0x7fff), inf = _mm_set1_epi16(0x7c00);
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm_loadu_si128((const __m128i *)(src + i));
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_and_si128(h, mag), inf))) oracle_to_f32(ORACLE_F16, src + i, dst + i, 8);
    else _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  oracle_to_f32(ORACLE_F16, src + i, dst + i, n - i);
}
#endif

static void to_f32(bool f16c, oracle_dtype dt, const void *src, float *dst, size_t n) {
#if defined(__x86_64__)
  if (f16c && dt == ORACLE_F16) {
    f16_to_f32_f16c(src, dst, n);
    return;
  }
#endif
  (void)f16c;
  oracle_to_f32(dt, src, dst, n);
}

/* Per (request, kv head): K and V in panels (see Layout above), in one zeroed arena. */
typedef struct kvblk {
  float *kt, *v;
  int64_t kv_len, ldk;
} kvblk;

typedef struct work {
  int b, h;
  int64_t i0;
} work;

typedef struct fast {
  prob *p;
  int Dp;
  size_t esz;       /* bytes per element of the spec's dtype */
  kvblk *kv;        /* [batch * Hk] */
  work *items;      /* compute: (request, qo head, first query row) */
  int64_t nitems;
  work *gitems;     /* gather: (request, 0, first token) of k/v, (-, 1, first token) of q */
  int64_t ngather;
  atomic_llong next;
  int phase;        /* 0 gather, 1 compute */
  const kernel *kern;
  float *qf;        /* q in float, head-major [Hq][total_q][D], then BM zero rows */
  int64_t total_q;
  bool f16c;        /* the CPU converts f16 with F16C */
} fast;

/* K and V of tokens [j0, j0 + PW) of request b (one panel), every kv head, converted from the
 * spec's dtype into the panels. Token-major, so the reads walk k and v in address order (for
 * NHD, and within each page for paged caches) and the hardware prefetchers keep up. */
static void gather(fast *f, int b, int64_t j0, float *tk, float *tv) {
  prob *p = f->p;
  const oracle_attention_spec *s = p->s;
  int D = p->D;
  int64_t kv_len = f->kv[(size_t)b * p->Hk].kv_len, j1 = j0 + PW < kv_len ? j0 + PW : kv_len;
  for (int64_t j = j0; j < j1; j++)
    for (int kh = 0; kh < p->Hk; kh++) {
      kvblk *g = &f->kv[(size_t)b * p->Hk + kh];
      size_t at = (size_t)kv_index(p, b, j, kh) * f->esz;
      to_f32(f->f16c, s->dtype, (const char *)s->k + at, tk, (size_t)D);
      to_f32(f->f16c, s->dtype, (const char *)s->v + at, tv, (size_t)D);
      float *kp = g->kt + (size_t)(j / PW) * D * PW + j % PW;
      for (int d = 0; d < D; d++) kp[(size_t)d * PW] = tk[d];
      for (int d0 = 0; d0 < D; d0 += PW)
        memcpy(g->v + (size_t)(d0 / PW) * g->ldk * PW + (size_t)j * PW, tv + d0,
               (size_t)(D - d0 < PW ? D - d0 : PW) * sizeof(float));
    }
}

/* Q tokens [t0, t0 + PW), every qo head, into the head-major float copy (reads in address order;
 * a compute item then reads its block's rows contiguously instead of one row per page). */
static void gather_q(fast *f, int64_t t0) {
  prob *p = f->p;
  const oracle_attention_spec *s = p->s;
  int64_t t1 = t0 + PW < f->total_q ? t0 + PW : f->total_q;
  for (int64_t t = t0; t < t1; t++)
    for (int h = 0; h < p->Hq; h++)
      to_f32(f->f16c, s->dtype, (const char *)s->q + (size_t)(t * p->Hq + h) * p->D * f->esz,
             f->qf + ((size_t)h * f->total_q + t) * p->D, (size_t)p->D);
}

/* Visible key range [lo, hi) of query row i (before the custom mask, which may hide more). */
static void row_range(const prob *p, int64_t i, int64_t qo_len, int64_t kv_len, int64_t *lo, int64_t *hi) {
  int64_t diag = i + (kv_len - qo_len);
  *lo = 0;
  *hi = kv_len;
  if (!p->s->custom_mask && p->s->causal && diag + 1 < *hi) *hi = diag + 1;
  if (p->s->window_left >= 0 && diag - p->s->window_left > *lo) *lo = diag - p->s->window_left;
  if (*hi < 0) *hi = 0;
  if (*lo > *hi) *lo = *hi;
}

typedef struct tbuf {
  float *sb, *ob, *tk, *tv;
  float *hi, *lo, *m, *acc; /* per row: [16] lanes of raw score max and min, the max logit, [16]
                               lanes of the exp sum */
  size_t s_cap;
} tbuf;

static void compute(fast *f, const work *w, tbuf *t) {
  prob *p = f->p;
  const oracle_attention_spec *s = p->s;
  const kernel *kern = f->kern;
  int b = w->b, h = w->h, kh = h / p->group, D = p->D, Dp = f->Dp;
  kvblk *g = &f->kv[(size_t)b * p->Hk + kh];
  int64_t qo_len = oracle_attention_qo_len(s, b), kv_len = g->kv_len;
  int64_t rows = qo_len - w->i0 < BM ? qo_len - w->i0 : BM;
  /* key columns [c0, c1) covering every row's visible range, aligned to the panel width */
  int64_t c0 = kv_len, c1 = 0;
  for (int64_t r = 0; r < rows; r++) {
    int64_t lo, hi;
    row_range(p, w->i0 + r, qo_len, kv_len, &lo, &hi);
    if (lo < hi) {
      if (lo < c0) c0 = lo;
      if (hi > c1) c1 = hi;
    }
  }
  int64_t t0 = s->qo_indptr[b] + w->i0;
  if (c0 >= c1) { /* every row fully masked */
    for (int64_t r = 0; r < rows; r++) {
      memset(p->o + ((t0 + r) * p->Hq + h) * D, 0, (size_t)D * sizeof(float));
      p->lse[(t0 + r) * p->Hq + h] = -INFINITY;
    }
    return;
  }
  c0 = c0 / PW * PW;
  c1 = (int64_t)rup((size_t)c1, PW);
  int64_t nc = c1 - c0;
  size_t lds = (size_t)nc + 16;
  if ((size_t)BM * lds > t->s_cap) {
    free(t->sb);
    t->s_cap = (size_t)BM * lds;
    t->sb = xaligned(t->s_cap * sizeof(float));
  }
  /* The Q block, rows t0.. of head h in the head-major copy; the rows up to a multiple of 8 past
   * the block's end are whatever follows there (the next request's rows, the next head's, or the
   * zero slack at the end): their scores are never used. */
  int M = (int)rup((size_t)rows, 8);
  const float *qb = f->qf + ((size_t)h * f->total_q + t0) * D;
  /* Key columns in chunks of CH: each chunk's scores are made and read while they are in L1.
   * Per row: the visible columns [ra, re) relative to c0 (empty: 0, 0). */
  float scale = (float)p->scale, cap = (float)p->cap;
  bool rare = cap > 0 || s->custom_mask;
  int64_t ra[BM], re[BM];
  for (int64_t r = 0; r < rows; r++) {
    int64_t lo, hi;
    row_range(p, w->i0 + r, qo_len, kv_len, &lo, &hi);
    ra[r] = lo < hi ? lo - c0 : 0;
    re[r] = lo < hi ? hi - c0 : 0;
    for (int l = 0; l < 16; l++) {
      t->hi[r * 16 + l] = -INFINITY;
      t->lo[r * 16 + l] = INFINITY;
    }
  }
  const float *kt = g->kt + (size_t)(c0 / PW) * D * PW;
  for (int64_t ch = 0; ch < nc; ch += CH) { /* S = Q K^T, and the rows' raw max and min */
    int64_t n = nc - ch < CH ? nc - ch : CH;
    kern->gemm(M, (int)n, D, qb, (size_t)D, kt + (size_t)(ch / PW) * D * PW, (size_t)D * PW, t->sb + ch, lds, false);
    if (!rare)
      for (int64_t r = 0; r < rows; r++) {
        int64_t a = ra[r] > ch ? ra[r] : ch, e = re[r] < ch + n ? re[r] : ch + n;
        if (a < e) kern->max(t->sb + r * lds, a, e, t->hi + r * 16, t->lo + r * 16);
      }
  }
  /* Each row's maximum logit m (exact: two-pass softmax); -inf: fully masked, O = 0, LSE = -inf */
  for (int64_t r = 0; r < M; r++) {
    memset(t->acc + r * 16, 0, 16 * sizeof(float));
    float m = -INFINITY;
    if (r < rows && rare) { /* the rare cases: logits stored, then one key at a time */
      float *sr = t->sb + r * lds;
      int64_t i = w->i0 + r;
      kern->logits(sr, nc, ra[r], re[r], scale);
      for (int64_t c = ra[r]; c < re[r]; c++) {
        float x = sr[c];
        if (s->custom_mask && !visible(p, b, i, c0 + c, qo_len, kv_len)) x = -INFINITY;
        else if (cap > 0) x = cap * tanhf(x / cap);
        sr[c] = x;
        if (x > m) m = x;
      }
    } else if (r < rows && ra[r] < re[r]) {
      float hi = -INFINITY, lo = INFINITY;
      for (int l = 0; l < kern->lanes; l++) {
        if (t->hi[r * 16 + l] > hi) hi = t->hi[r * 16 + l];
        if (t->lo[r * 16 + l] < lo) lo = t->lo[r * 16 + l];
      }
      m = (scale < 0 ? lo : hi) * scale;
    }
    t->m[r] = m;
  }
  /* P = exp(S - m) chunk by chunk, each followed by O += P V over its keys */
  for (int64_t ch = 0; ch < nc; ch += CH) {
    int64_t n = nc - ch < CH ? nc - ch : CH;
    for (int64_t r = 0; r < M; r++) {
      float *sc = t->sb + r * lds + ch;
      if (t->m[r] == -INFINITY) memset(sc, 0, (size_t)n * sizeof(float));
      else if (rare) kern->exps(sc, n, t->m[r], t->acc + r * 16);
      else kern->scale_exps(sc, n, ra[r] - ch, re[r] - ch, scale, t->m[r], t->acc + r * 16);
    }
    kern->gemm(M, Dp, (int)n, t->sb + ch, lds, g->v + (size_t)(c0 + ch) * PW, (size_t)g->ldk * PW, t->ob,
               (size_t)Dp, ch > 0);
  }
  for (int64_t r = 0; r < rows; r++) {
    float *o = p->o + ((t0 + r) * p->Hq + h) * D;
    if (t->m[r] == -INFINITY) {
      memset(o, 0, (size_t)D * sizeof(float));
      p->lse[(t0 + r) * p->Hq + h] = -INFINITY;
      continue;
    }
    float sum = 0;
    for (int l = 0; l < kern->lanes; l++) sum += t->acc[r * 16 + l];
    float inv = 1.0f / sum;
    p->lse[(t0 + r) * p->Hq + h] = (float)((double)t->m[r] * LOG2E + log2((double)sum));
    for (int d = 0; d < D; d++) o[d] = t->ob[r * Dp + d] * inv;
  }
}

static void *fast_worker(void *arg) {
  fast *f = arg;
  prob *p = f->p;
  tbuf t = {0};
  if (f->phase == 0) {
    t.tk = xaligned((size_t)p->D * sizeof(float));
    t.tv = xaligned((size_t)p->D * sizeof(float));
    for (int64_t it; (it = atomic_fetch_add(&f->next, 1)) < f->ngather;)
      if (f->gitems[it].h) gather_q(f, f->gitems[it].i0);
      else gather(f, f->gitems[it].b, f->gitems[it].i0, t.tk, t.tv);
    free(t.tk);
    free(t.tv);
    return NULL;
  }
  t.ob = xaligned((size_t)BM * f->Dp * sizeof(float));
  t.hi = xaligned(BM * 16 * sizeof(float));
  t.lo = xaligned(BM * 16 * sizeof(float));
  t.m = xaligned(BM * sizeof(float));
  t.acc = xaligned(BM * 16 * sizeof(float));
  for (int64_t it; (it = atomic_fetch_add(&f->next, 1)) < f->nitems;) compute(f, &f->items[it], &t);
  free(t.ob);
  free(t.hi);
  free(t.lo);
  free(t.m);
  free(t.acc);
  free(t.sb);
  return NULL;
}

static void run_phase(fast *f, int phase, int nthreads) {
  f->phase = phase;
  atomic_store(&f->next, 0);
  pthread_t *th = ll_xmalloc((size_t)nthreads * sizeof *th);
  int started = 0;
  /* A thread that cannot be created just leaves its share to the others (the work queue is
   * shared); the calling thread always works, so everything gets done. */
  for (int i = 1; i < nthreads; i++)
    if (pthread_create(&th[started], NULL, fast_worker, f) == 0) started++;
  fast_worker(f);
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
}

static int default_threads(void) {
  const char *e = getenv("LANELAB_THREADS");
  int64_t n;
  if (e && ll_parse_i64(e, &n) && n >= 1 && n <= 1024) return (int)n;
  int c = ll_ncpus();
  return c > 1024 ? 1024 : c;
}

/* Reads q, k, v in the spec's dtype directly (each element converted once, by the threads). */
static bool run_fast(prob *p, int nthreads, const char **kname, ll_err *err) {
  const oracle_attention_spec *s = p->s;
  fast f = {.p = p, .Dp = (int)rup((size_t)p->D, PW), .esz = oracle_dtype_size(s->dtype)};
  f.kern = pick_kernel(err);
  if (!f.kern) return false;
  *kname = f.kern->name;
#if defined(__x86_64__)
  f.f16c = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
#endif
  f.kv = ll_xcalloc((size_t)s->batch * p->Hk, sizeof *f.kv);
  size_t total = 0;
  for (int b = 0; b < s->batch; b++)
    for (int kh = 0; kh < p->Hk; kh++) {
      kvblk *g = &f.kv[(size_t)b * p->Hk + kh];
      g->kv_len = oracle_attention_kv_len(s, b);
      g->ldk = (int64_t)rup((size_t)(g->kv_len ? g->kv_len : 1), PW);
      total += (size_t)g->ldk * ((size_t)p->D + (size_t)f.Dp);
    }
  f.total_q = oracle_attention_total_q(s);
  size_t nq = rup((size_t)p->Hq * f.total_q * p->D + (size_t)BM * p->D, 16); /* K/V after it stay aligned */
  bigbuf arena;
  float *a = big_zeroed(&arena, (total + nq) * sizeof(float));
  f.qf = a;
  a += nq;
  for (size_t i = 0; i < (size_t)s->batch * p->Hk; i++) {
    kvblk *g = &f.kv[i];
    g->kt = a;
    g->v = a + (size_t)g->ldk * p->D;
    a = g->v + (size_t)g->ldk * f.Dp;
  }
  advise_huge(p->o, (size_t)oracle_attention_q_elems(s) * sizeof(float));
  for (int b = 0; b < s->batch; b++) f.nitems += (int64_t)p->Hq * ((oracle_attention_qo_len(s, b) + BM - 1) / BM);
  f.items = ll_xmalloc((size_t)(f.nitems ? f.nitems : 1) * sizeof *f.items);
  int64_t n = 0;
  for (int b = 0; b < s->batch; b++)
    for (int h = 0; h < p->Hq; h++)
      for (int64_t i0 = 0; i0 < oracle_attention_qo_len(s, b); i0 += BM) f.items[n++] = (work){b, h, i0};
  for (int b = 0; b < s->batch; b++) f.ngather += (oracle_attention_kv_len(s, b) + PW - 1) / PW;
  f.ngather += (f.total_q + PW - 1) / PW;
  f.gitems = ll_xmalloc((size_t)(f.ngather ? f.ngather : 1) * sizeof *f.gitems);
  n = 0;
  for (int b = 0; b < s->batch; b++)
    for (int64_t j0 = 0; j0 < oracle_attention_kv_len(s, b); j0 += PW) f.gitems[n++] = (work){b, 0, j0};
  for (int64_t t0 = 0; t0 < f.total_q; t0 += PW) f.gitems[n++] = (work){0, 1, t0};
  run_phase(&f, 0, nthreads);
  run_phase(&f, 1, nthreads);
  munmap(arena.map, arena.len);
  free(f.kv);
  free(f.items);
  free(f.gitems);
  return true;
}

/* ---- dispatch -------------------------------------------------------------------------------- */
bool oracle_attention_run(const oracle_attention_spec *s, float *o, float *lse,
                          oracle_attention_info *info, ll_err *err) {
  if (!s->q || !s->k || !s->v) {
    ll_seterr(err, LL_EXIT_USAGE, "attention spec has no q/k/v data (load files or generate from a seed)");
    return false;
  }
  double t_start = ll_now();
  prob p = {.s = s, .Hq = s->num_qo_heads, .Hk = s->num_kv_heads, .D = s->head_dim,
            .group = s->num_qo_heads / s->num_kv_heads, .scale = oracle_attention_sm_scale(s),
            .cap = s->logits_soft_cap, .o = o, .lse = lse};
  p.mask_off = ll_xcalloc((size_t)s->batch, sizeof *p.mask_off);
  for (int b = 1; b < s->batch; b++) {
    int64_t bits = oracle_attention_qo_len(s, b - 1) * oracle_attention_kv_len(s, b - 1);
    p.mask_off[b] = p.mask_off[b - 1] + (bits + 7) / 8 * 8; /* each request starts on a byte */
  }
  double flops = oracle_attention_flops(s);
  oracle_path path = s->path;
  if (path == ORACLE_PATH_AUTO) path = flops < ORACLE_PLAIN_MAX_FLOP ? ORACLE_PATH_PLAIN : ORACLE_PATH_FAST;
  int threads = 1;
  const char *kernel = "double";
  bool ok = true;
  if (path == ORACLE_PATH_PLAIN) {
    size_t nq = (size_t)oracle_attention_q_elems(s), nkv = (size_t)oracle_attention_kv_elems(s);
    p.q = ll_xmalloc((nq ? nq : 1) * sizeof(float));
    p.k = ll_xmalloc((nkv ? nkv : 1) * sizeof(float));
    p.v = ll_xmalloc((nkv ? nkv : 1) * sizeof(float));
    oracle_to_f32(s->dtype, s->q, p.q, nq);
    oracle_to_f32(s->dtype, s->k, p.k, nkv);
    oracle_to_f32(s->dtype, s->v, p.v, nkv);
    run_plain(&p);
    free(p.q);
    free(p.k);
    free(p.v);
  } else {
    threads = s->threads > 0 ? s->threads : default_threads();
    ok = run_fast(&p, threads, &kernel, err);
  }
  free(p.mask_off);
  if (!ok) return false;
  if (info) {
    info->path = path;
    info->threads = threads;
    info->seconds = ll_now() - t_start;
    info->flops = flops;
    info->kernel = kernel;
  }
  return true;
}
