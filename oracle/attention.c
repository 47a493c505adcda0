/* oracle/attention — the two attention paths (plain: double, one row at a time; fast: float,
 * blocked, multi-threaded) and the dispatch between them. Semantics: oracle/oracle.h. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/oracle.h"

#define LOG2E 1.4426950408889634

/* ---- shared description of one problem, in float ------------------------------------------ */
typedef struct prob {
  const oracle_attention_spec *s;
  int Hq, Hk, D, group;
  double scale, cap;
  float *q, *k, *v;              /* inputs converted to float */
  int64_t *mask_off;             /* [batch] bit offset of each request's mask segment */
  float *o, *lse;
} prob;

/* Pointer to the D floats of key/value token j (logical position in request b) of kv head h. */
static const float *kv_row(const prob *p, const float *base, int b, int64_t j, int h) {
  const oracle_attention_spec *s = p->s;
  if (s->kind != ORACLE_PAGED)
    return base + (((int64_t)s->kv_indptr[b] + j) * p->Hk + h) * p->D;
  int64_t page = s->kv_indices[s->kv_indptr[b] + j / s->page_size], off = j % s->page_size;
  if (s->layout == ORACLE_NHD) return base + ((page * s->page_size + off) * p->Hk + h) * p->D;
  return base + ((page * p->Hk + h) * s->page_size + off) * p->D;
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
/* GCC vector extensions: 8 floats. Buffers the kernels load as v8f are 64-byte aligned with
 * leading dimensions that are multiples of 16 floats. */
typedef float v8f __attribute__((vector_size(32)));
#define BM 32   /* query rows per work item */
#define NR 16   /* columns per micro-kernel strip */
#define KC 256  /* reduction block */

static size_t rup(size_t x, size_t m) { return (x + m - 1) / m * m; }

static void *xaligned(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n ? rup(n, 64) : 64)) p = NULL;
  if (!p) ll_die(LL_EXIT_ENV, "out of memory allocating %zu bytes", n);
  return p;
}

/* C[M x N] += A[M x K] * B[K x N]; M multiple of 4, N multiple of 16; A read as scalars
 * (broadcast), B and C as aligned vectors. Two builds of the same loop nest:
 *  - avx2: 8-float vectors, 4 rows x 16 columns = 8 accumulators, for CPUs with AVX2 and FMA
 *    (target attribute on this one function; chosen at run time with __builtin_cpu_supports);
 *  - sse: 4-float vectors (the x86-64 baseline), 2 rows x 16 columns = 8 accumulators.
 * (GCC lowers 8-float vector code without AVX to far slower code, hence two kernels.) */
#if defined(__x86_64__)
typedef float v4f __attribute__((vector_size(16)));

__attribute__((target("avx2,fma")))
static void gemm_avx2(int M, int N, int K, const float *A, size_t lda, const float *B, size_t ldb, float *C,
                      size_t ldc) {
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kn = K - k0 < KC ? K - k0 : KC;
    for (int n0 = 0; n0 < N; n0 += NR) {
      for (int m0 = 0; m0 < M; m0 += 4) {
        const float *a0 = A + (size_t)m0 * lda + k0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        const float *bp = B + (size_t)k0 * ldb + n0;
        float *c0 = C + (size_t)m0 * ldc + n0, *c1 = c0 + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
        v8f x00 = *(v8f *)c0, x01 = *(v8f *)(c0 + 8), x10 = *(v8f *)c1, x11 = *(v8f *)(c1 + 8);
        v8f x20 = *(v8f *)c2, x21 = *(v8f *)(c2 + 8), x30 = *(v8f *)c3, x31 = *(v8f *)(c3 + 8);
        for (int k = 0; k < kn; k++, bp += ldb) {
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

static void gemm_sse(int M, int N, int K, const float *A, size_t lda, const float *B, size_t ldb, float *C,
                     size_t ldc) {
#if defined(__x86_64__)
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kn = K - k0 < KC ? K - k0 : KC;
    for (int n0 = 0; n0 < N; n0 += NR) {
      for (int m0 = 0; m0 < M; m0 += 2) {
        const float *a0 = A + (size_t)m0 * lda + k0, *a1 = a0 + lda;
        const float *bp = B + (size_t)k0 * ldb + n0;
        float *c0 = C + (size_t)m0 * ldc + n0, *c1 = c0 + ldc;
        v4f x00 = *(v4f *)c0, x01 = *(v4f *)(c0 + 4), x02 = *(v4f *)(c0 + 8), x03 = *(v4f *)(c0 + 12);
        v4f x10 = *(v4f *)c1, x11 = *(v4f *)(c1 + 4), x12 = *(v4f *)(c1 + 8), x13 = *(v4f *)(c1 + 12);
        for (int k = 0; k < kn; k++, bp += ldb) {
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
    for (int k = 0; k < K; k++)
      for (int n = 0; n < N; n++) C[(size_t)m * ldc + n] += A[(size_t)m * lda + k] * B[(size_t)k * ldb + n];
#endif
}

typedef void (*gemm_fn)(int, int, int, const float *, size_t, const float *, size_t, float *, size_t);

/* The kernel for this run: avx2 when the CPU has AVX2 and FMA, else sse; LANELAB_ORACLE_KERNEL=sse
 * forces the baseline one (the tests use it so both kernels are checked on an AVX2 machine). */
static gemm_fn pick_gemm(const char **name) {
  const char *e = getenv("LANELAB_ORACLE_KERNEL");
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (!(e && strcmp(e, "sse") == 0) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    *name = "avx2";
    return gemm_avx2;
  }
  *name = "sse";
#else
  (void)e;
  *name = "scalar";
#endif
  return gemm_sse;
}

/* Per (request, kv head): K transposed [D][ldk] and V [ldk][Dp], zero-padded (padding keys
 * must be 0, not garbage: 0 * NaN would poison the row). */
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
  kvblk *kv;        /* [batch * Hk] */
  work *items;
  int64_t nitems;
  atomic_llong next;
  int phase;        /* 0 gather, 1 compute */
  gemm_fn gemm;
} fast;

static void gather(fast *f, int b, int kh) {
  prob *p = f->p;
  kvblk *g = &f->kv[(size_t)b * p->Hk + kh];
  int64_t n = g->kv_len, ld = g->ldk;
  for (int64_t j = 0; j < n; j++) {
    const float *k = kv_row(p, p->k, b, j, kh), *v = kv_row(p, p->v, b, j, kh);
    for (int d = 0; d < p->D; d++) g->kt[(size_t)d * ld + j] = k[d];
    memcpy(g->v + (size_t)j * f->Dp, v, (size_t)p->D * sizeof(float));
  }
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
  float *qb, *sb, *ob, *inv;
  size_t s_cap;
} tbuf;

static void compute(fast *f, const work *w, tbuf *t) {
  prob *p = f->p;
  const oracle_attention_spec *s = p->s;
  int b = w->b, h = w->h, kh = h / p->group, D = p->D, Dp = f->Dp;
  kvblk *g = &f->kv[(size_t)b * p->Hk + kh];
  int64_t qo_len = oracle_attention_qo_len(s, b), kv_len = g->kv_len;
  int64_t rows = qo_len - w->i0 < BM ? qo_len - w->i0 : BM;
  /* key columns [c0, c1) covering every row's visible range, aligned to the strip width */
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
  c0 = c0 / NR * NR;
  c1 = (int64_t)rup((size_t)c1, NR);
  int64_t nc = c1 - c0;
  size_t lds = (size_t)nc;
  if ((size_t)BM * lds > t->s_cap) {
    free(t->sb);
    t->s_cap = (size_t)BM * lds;
    t->sb = xaligned(t->s_cap * sizeof(float));
  }
  /* Q block, rows padded to BM with zeros */
  memset(t->qb, 0, (size_t)BM * D * sizeof(float));
  for (int64_t r = 0; r < rows; r++) memcpy(t->qb + r * D, p->q + ((t0 + r) * p->Hq + h) * D, (size_t)D * sizeof(float));
  memset(t->sb, 0, (size_t)BM * lds * sizeof(float));
  int M = (int)rup((size_t)rows, 4);
  f->gemm(M, (int)nc, D, t->qb, (size_t)D, g->kt + c0, (size_t)g->ldk, t->sb, lds);
  /* softmax, two passes per row: exact max first, then exp and sum */
  float scale = (float)p->scale, cap = (float)p->cap;
  for (int64_t r = 0; r < M; r++) {
    float *sr = t->sb + r * lds;
    if (r >= rows) { memset(sr, 0, lds * sizeof(float)); continue; }
    int64_t i = w->i0 + r, lo, hi;
    row_range(p, i, qo_len, kv_len, &lo, &hi);
    float m = -INFINITY;
    for (int64_t c = 0; c < nc; c++) {
      int64_t j = c0 + c;
      float x;
      if (j < lo || j >= hi || (s->custom_mask && !visible(p, b, i, j, qo_len, kv_len))) x = -INFINITY;
      else {
        x = sr[c] * scale;
        if (cap > 0) x = cap * tanhf(x / cap);
      }
      sr[c] = x;
      if (x > m) m = x;
    }
    if (m == -INFINITY) {
      memset(sr, 0, lds * sizeof(float));
      t->inv[r] = 0; /* O row stays 0 */
      p->lse[(t0 + r) * p->Hq + h] = -INFINITY;
      continue;
    }
    float sum = 0;
    for (int64_t c = 0; c < nc; c++) {
      float e = sr[c] == -INFINITY ? 0.0f : expf(sr[c] - m);
      sr[c] = e;
      sum += e;
    }
    t->inv[r] = 1.0f / sum;
    p->lse[(t0 + r) * p->Hq + h] = (float)((double)m * LOG2E + log2((double)sum));
  }
  memset(t->ob, 0, (size_t)BM * Dp * sizeof(float));
  f->gemm(M, Dp, (int)nc, t->sb, lds, g->v + (size_t)c0 * Dp, (size_t)Dp, t->ob, (size_t)Dp);
  for (int64_t r = 0; r < rows; r++) {
    float *o = p->o + ((t0 + r) * p->Hq + h) * D;
    for (int d = 0; d < D; d++) o[d] = t->ob[r * Dp + d] * t->inv[r];
  }
}

static void *fast_worker(void *arg) {
  fast *f = arg;
  prob *p = f->p;
  if (f->phase == 0) {
    int64_t n = (int64_t)p->s->batch * p->Hk;
    for (int64_t it; (it = atomic_fetch_add(&f->next, 1)) < n;) gather(f, (int)(it / p->Hk), (int)(it % p->Hk));
    return NULL;
  }
  tbuf t = {0};
  t.qb = xaligned((size_t)BM * p->D * sizeof(float));
  t.ob = xaligned((size_t)BM * f->Dp * sizeof(float));
  t.inv = xaligned(BM * sizeof(float));
  for (int64_t it; (it = atomic_fetch_add(&f->next, 1)) < f->nitems;) compute(f, &f->items[it], &t);
  free(t.qb);
  free(t.ob);
  free(t.inv);
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
  long c = sysconf(_SC_NPROCESSORS_ONLN);
  return c >= 1 ? (int)(c > 1024 ? 1024 : c) : 1;
}

static void run_fast(prob *p, int nthreads, const char **kernel) {
  const oracle_attention_spec *s = p->s;
  fast f = {.p = p, .Dp = (int)rup((size_t)p->D, NR)};
  f.gemm = pick_gemm(kernel);
  f.kv = ll_xcalloc((size_t)s->batch * p->Hk, sizeof *f.kv);
  for (int b = 0; b < s->batch; b++)
    for (int kh = 0; kh < p->Hk; kh++) {
      kvblk *g = &f.kv[(size_t)b * p->Hk + kh];
      g->kv_len = oracle_attention_kv_len(s, b);
      g->ldk = (int64_t)rup((size_t)(g->kv_len ? g->kv_len : 1), NR);
      size_t nk = (size_t)p->D * g->ldk, nv = (size_t)g->ldk * f.Dp;
      g->kt = xaligned(nk * sizeof(float));
      g->v = xaligned(nv * sizeof(float));
      memset(g->kt, 0, nk * sizeof(float));
      memset(g->v, 0, nv * sizeof(float));
    }
  for (int b = 0; b < s->batch; b++) f.nitems += (int64_t)p->Hq * ((oracle_attention_qo_len(s, b) + BM - 1) / BM);
  f.items = ll_xmalloc((size_t)(f.nitems ? f.nitems : 1) * sizeof *f.items);
  int64_t n = 0;
  for (int b = 0; b < s->batch; b++)
    for (int h = 0; h < p->Hq; h++)
      for (int64_t i0 = 0; i0 < oracle_attention_qo_len(s, b); i0 += BM) f.items[n++] = (work){b, h, i0};
  run_phase(&f, 0, nthreads);
  run_phase(&f, 1, nthreads);
  for (size_t i = 0; i < (size_t)s->batch * p->Hk; i++) {
    free(f.kv[i].kt);
    free(f.kv[i].v);
  }
  free(f.kv);
  free(f.items);
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
  size_t nq = (size_t)oracle_attention_q_elems(s), nkv = (size_t)oracle_attention_kv_elems(s);
  p.q = ll_xmalloc((nq ? nq : 1) * sizeof(float));
  p.k = ll_xmalloc((nkv ? nkv : 1) * sizeof(float));
  p.v = ll_xmalloc((nkv ? nkv : 1) * sizeof(float));
  oracle_to_f32(s->dtype, s->q, p.q, nq);
  oracle_to_f32(s->dtype, s->k, p.k, nkv);
  oracle_to_f32(s->dtype, s->v, p.v, nkv);
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
  if (path == ORACLE_PATH_PLAIN) run_plain(&p);
  else {
    threads = s->threads > 0 ? s->threads : default_threads();
    run_fast(&p, threads, &kernel);
  }
  free(p.q);
  free(p.k);
  free(p.v);
  free(p.mask_off);
  if (info) {
    info->path = path;
    info->threads = threads;
    info->seconds = ll_now() - t_start;
    info->flops = flops;
    info->kernel = kernel;
  }
  return true;
}
