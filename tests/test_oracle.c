/* Tests for oracle/: attention (hand cases, invariances, fast vs plain), concat_mla_q, fp16/bf16
 * conversion, the comparison rule, and the `lanelab oracle` command's exit codes.
 * Expected values come from hand computations and closed forms written here, from invariances
 * (two different encodings of the same problem must agree), or from reference formulas written
 * differently from oracle/numbers.c (ldexp decoding, nearest-neighbour search over the table of
 * all representable values). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle/oracle.h"
#include "table/table.h"
#include "tests/tmpdir.h"
#include "util/util.h"

/* ---- helpers ---------------------------------------------------------------------------------- */
static uint64_t rng_state = 12345;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }
static float runif(float a, float b) { return a + (b - a) * (float)((rnd() >> 40) * 0x1p-24); }

/* A single/ragged f32 spec with the given lengths; q, k, v zeroed and owned. */
static oracle_attention_spec *mk(int B, const int *qo, const int *kv, int Hq, int Hk, int D) {
  oracle_attention_spec *s = ll_xcalloc(1, sizeof *s);
  s->owns = true;
  s->kind = B == 1 ? ORACLE_SINGLE : ORACLE_RAGGED;
  s->dtype = ORACLE_F32;
  s->num_qo_heads = Hq;
  s->num_kv_heads = Hk;
  s->head_dim = D;
  s->batch = B;
  s->window_left = -1;
  s->qo_indptr = ll_xcalloc((size_t)B + 1, 4);
  s->kv_indptr = ll_xcalloc((size_t)B + 1, 4);
  for (int b = 0; b < B; b++) {
    s->qo_indptr[b + 1] = s->qo_indptr[b] + qo[b];
    s->kv_indptr[b + 1] = s->kv_indptr[b] + kv[b];
  }
  s->q = ll_xcalloc((size_t)oracle_attention_q_elems(s) + 1, 4);
  s->k = ll_xcalloc((size_t)oracle_attention_kv_elems(s) + 1, 4);
  s->v = ll_xcalloc((size_t)oracle_attention_kv_elems(s) + 1, 4);
  return s;
}
#define QF(s) ((float *)(s)->q)
#define KF(s) ((float *)(s)->k)
#define VF(s) ((float *)(s)->v)

typedef struct out { float *o, *lse; size_t no, nl; oracle_attention_info info; } out;

static out run(const oracle_attention_spec *s, oracle_path path) {
  ll_err e = {0};
  cr_assert(oracle_attention_validate(s, &e), "spec invalid: %s", e.msg);
  oracle_attention_spec c = *s;
  c.path = path;
  out r = {0};
  r.nl = (size_t)oracle_attention_total_q(s) * s->num_qo_heads;
  r.no = r.nl * s->head_dim;
  r.o = ll_xmalloc((r.no + 1) * 4);
  r.lse = ll_xmalloc((r.nl + 1) * 4);
  for (size_t i = 0; i < r.no; i++) r.o[i] = NAN; /* every output must be written */
  for (size_t i = 0; i < r.nl; i++) r.lse[i] = NAN;
  cr_assert(oracle_attention_run(&c, r.o, r.lse, &r.info, &e), "run failed: %s", e.msg);
  cr_assert_eq(r.info.path, path);
  return r;
}
static void out_free(out *r) { free(r->o); free(r->lse); }

static const oracle_path both[2] = {ORACLE_PATH_PLAIN, ORACLE_PATH_FAST};
static const char *pname(oracle_path p) { return p == ORACLE_PATH_PLAIN ? "plain" : "fast"; }

static void near(double got, double want, double tol, const char *what, oracle_path p) {
  cr_assert(fabs(got - want) <= tol, "%s (%s path): got %.9g, want %.9g", what, pname(p), got, want);
}

/* Bitwise-equal outputs (same arithmetic on the same data in the same order). */
static void same(const out *a, const out *b, const char *what) {
  cr_assert_eq(a->no, b->no);
  for (size_t i = 0; i < a->no; i++)
    cr_assert(memcmp(&a->o[i], &b->o[i], 4) == 0, "%s: o[%zu] %.9g vs %.9g", what, i, a->o[i], b->o[i]);
  for (size_t i = 0; i < a->nl; i++)
    cr_assert(memcmp(&a->lse[i], &b->lse[i], 4) == 0, "%s: lse[%zu] %.9g vs %.9g", what, i, a->lse[i], b->lse[i]);
}

static void fill_random(oracle_attention_spec *s, float amp) {
  for (int64_t i = 0; i < oracle_attention_q_elems(s); i++) QF(s)[i] = runif(-amp, amp);
  for (int64_t i = 0; i < oracle_attention_kv_elems(s); i++) {
    KF(s)[i] = runif(-1, 1);
    VF(s)[i] = runif(-1, 1);
  }
}

/* The paged encoding of a ragged f32 spec: each request's tokens are scattered over pages with
 * shuffled physical ids (plus two unused pages); every slot no token maps to (unused pages, the
 * tail of each partial last page) holds NaN, so reading one poisons the result. The layout
 * formulas are docs/oracle.md's definitions of NHD and HND. */
static oracle_attention_spec *to_paged(const oracle_attention_spec *r, int P, oracle_kv_layout layout) {
  oracle_attention_spec *s = ll_xcalloc(1, sizeof *s);
  *s = *r;
  s->owns = true;
  s->kind = ORACLE_PAGED;
  s->page_size = P;
  s->layout = layout;
  int B = r->batch, Hk = r->num_kv_heads, D = r->head_dim;
  s->qo_indptr = ll_xmalloc(((size_t)B + 1) * 4);
  memcpy(s->qo_indptr, r->qo_indptr, ((size_t)B + 1) * 4);
  s->kv_indptr = ll_xcalloc((size_t)B + 1, 4);
  s->kv_last_page_len = ll_xcalloc((size_t)B, 4);
  for (int b = 0; b < B; b++) {
    int64_t n = oracle_attention_kv_len(r, b);
    cr_assert(n >= 1, "to_paged needs kv_len >= 1");
    int pages = (int)((n + P - 1) / P);
    s->kv_indptr[b + 1] = s->kv_indptr[b] + pages;
    s->kv_last_page_len[b] = (int)(n - (int64_t)(pages - 1) * P);
  }
  int used = s->kv_indptr[B];
  s->num_pages = used + 2;
  int *perm = ll_xmalloc((size_t)s->num_pages * sizeof *perm);
  for (int i = 0; i < s->num_pages; i++) perm[i] = i;
  for (int i = (int)s->num_pages - 1; i > 0; i--) {
    int j = rint_(0, i), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  s->kv_indices = ll_xmalloc((size_t)used * 4);
  for (int i = 0; i < used; i++) s->kv_indices[i] = perm[i];
  free(perm);
  size_t n = (size_t)s->num_pages * P * Hk * D;
  s->k = ll_xmalloc(n * 4);
  s->v = ll_xmalloc(n * 4);
  for (size_t i = 0; i < n; i++) KF(s)[i] = VF(s)[i] = NAN;
  s->q = ll_xmalloc((size_t)oracle_attention_q_elems(r) * 4 + 4);
  memcpy(s->q, r->q, (size_t)oracle_attention_q_elems(r) * 4);
  s->custom_mask = NULL;
  if (r->custom_mask) {
    s->custom_mask = ll_xmalloc(r->custom_mask_bytes + 1);
    memcpy(s->custom_mask, r->custom_mask, r->custom_mask_bytes);
  }
  s->q_file = s->k_file = s->v_file = s->mask_file = NULL;
  for (int b = 0; b < B; b++)
    for (int64_t j = 0; j < oracle_attention_kv_len(r, b); j++)
      for (int h = 0; h < Hk; h++) {
        int64_t page = s->kv_indices[s->kv_indptr[b] + j / P], off = j % P;
        int64_t dst = layout == ORACLE_NHD ? ((page * P + off) * Hk + h) * D : ((page * Hk + h) * P + off) * D;
        int64_t src = (((int64_t)r->kv_indptr[b] + j) * Hk + h) * D;
        memcpy(KF(s) + dst, KF(r) + src, (size_t)D * 4);
        memcpy(VF(s) + dst, VF(r) + src, (size_t)D * 4);
      }
  return s;
}

/* ---- hand-computed cases ---------------------------------------------------------------------- */
Test(oracle_attention, two_keys_hand_computed_with_default_scale) {
  /* head_dim 4 -> sm_scale 1/2; q.k0 = 2 -> s0 = 1, q.k1 = 0 -> s1 = 0.
   * p = (e, 1)/(e + 1); O = p0*v0 + p1*v1; LSE = log2(e + 1). */
  int qo = 1, kv = 2;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 4);
  for (int d = 0; d < 4; d++) { QF(s)[d] = 1; KF(s)[d] = 0.5f; }
  float v0[4] = {1, 2, -4, 0.5f}, v1[4] = {3, -1, 8, 0};
  memcpy(VF(s), v0, 16);
  memcpy(VF(s) + 4, v1, 16);
  double e = exp(1.0), p0 = e / (e + 1), p1 = 1 / (e + 1);
  for (int k = 0; k < 2; k++) {
    out r = run(s, both[k]);
    for (int d = 0; d < 4; d++) near(r.o[d], p0 * v0[d] + p1 * v1[d], 1e-6, "O", both[k]);
    near(r.lse[0], log2(e + 1), 1e-6, "LSE", both[k]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, one_valid_key_gives_its_value_exactly) {
  /* causal + window_left 0: each query sees only its diagonal key (bottom-right: row i sees key
   * i + kv_len - qo_len = i + 1). O is that key's value, LSE = s*log2(e). */
  int qo = 2, kv = 3;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 2);
  s->causal = true;
  s->window_left = 0;
  s->has_sm_scale = true;
  s->sm_scale = 1;
  float q[4] = {1, 2, -1, 0.5f}, k[6] = {9, 9, 1, 1, 2, -2}, v[6] = {100, 100, 7, -3, 0.25f, 5};
  memcpy(s->q, q, 16); memcpy(s->k, k, 24); memcpy(s->v, v, 24);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    cr_assert(r.o[0] == 7 && r.o[1] == -3 && r.o[2] == 0.25f && r.o[3] == 5, "%s: O = %g %g %g %g", pname(both[p]),
              r.o[0], r.o[1], r.o[2], r.o[3]);
    near(r.lse[0], 3 * M_LOG2E, 1e-6, "LSE row 0 (s = 1*1 + 2*1)", both[p]);
    near(r.lse[1], -3 * M_LOG2E, 1e-6, "LSE row 1 (s = -1*2 + 0.5*-2)", both[p]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, causal_qo_longer_than_kv_masks_first_rows) {
  /* qo_len 5 > kv_len 2, causal bottom-right: row i sees j <= i - 3. Rows 0..2 fully masked
   * (O = 0, LSE = -inf, no NaN); row 3 sees key 0 only; row 4 sees both. q = 0 makes every score
   * 0, so row 4 is the mean of v0 and v1 and its LSE is log2(2) = 1. */
  int qo = 5, kv = 2;
  oracle_attention_spec *s = mk(1, &qo, &kv, 2, 1, 3);
  s->causal = true;
  float v[6] = {1, 2, 3, -5, 0, 1};
  memcpy(s->v, v, 24);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    for (int i = 0; i < 5; i++)
      for (int h = 0; h < 2; h++) {
        float *o = r.o + (i * 2 + h) * 3, l = r.lse[i * 2 + h];
        if (i < 3) {
          cr_assert(isinf(l) && l < 0, "%s row %d: LSE %g, want -inf", pname(both[p]), i, l);
          for (int d = 0; d < 3; d++) cr_assert(o[d] == 0 && !signbit(o[d]) == !signbit(0.0f), "%s row %d: O %g", pname(both[p]), i, o[d]);
        } else if (i == 3) {
          cr_assert(l == 0 && o[0] == 1 && o[1] == 2 && o[2] == 3, "%s row 3: %g | %g %g %g", pname(both[p]), l, o[0], o[1], o[2]);
        } else {
          near(l, 1, 1e-7, "LSE row 4", both[p]);
          near(o[0], -2, 1e-7, "O row 4", both[p]);
          near(o[1], 1, 1e-7, "O row 4", both[p]);
          near(o[2], 2, 1e-7, "O row 4", both[p]);
        }
      }
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, causal_is_bottom_right_not_top_left) {
  /* qo 2, kv 4, q = 0: bottom-right row 0 sees keys 0..2 (mean of 3, LSE log2 3); top-left would
   * see key 0 only. */
  int qo = 2, kv = 4;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  s->causal = true;
  float v[4] = {3, 6, 9, 30};
  memcpy(s->v, v, 16);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    near(r.o[0], 6, 1e-6, "O row 0", both[p]);
    near(r.lse[0], log2(3), 1e-6, "LSE row 0", both[p]);
    near(r.o[1], 12, 1e-6, "O row 1", both[p]);
    near(r.lse[1], 2, 1e-6, "LSE row 1", both[p]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, custom_mask_all_zero_row_is_zero_and_minus_inf) {
  int qo = 3, kv = 3;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  float v[3] = {2, 4, 8};
  memcpy(s->v, v, 12);
  /* rows: 101, 000, 010 -> bits LSB-first: row0 j0,j2; row1 none; row2 j1 */
  s->custom_mask = ll_xcalloc(2, 1);
  s->custom_mask_bytes = 2; /* ceil(9/8) */
  s->custom_mask[0] = (uint8_t)(1u << 0 | 1u << 2 | 1u << 7);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    near(r.o[0], 5, 1e-6, "O row 0 (mean of 2 and 8)", both[p]);
    cr_assert(r.o[1] == 0 && isinf(r.lse[1]) && r.lse[1] < 0, "%s: masked row O %g LSE %g", pname(both[p]), r.o[1], r.lse[1]);
    cr_assert(r.o[2] == 4 && r.lse[2] == 0, "%s: row 2 O %g LSE %g", pname(both[p]), r.o[2], r.lse[2]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

/* causal together with a custom mask: the kernels' header (kernels/prod/prefill_impl.h) says the
 * mask replaces causal, so the pair is accepted and computes what the mask alone computes. qo 2,
 * kv 3 (delta 1): causal alone would hide key 2 from row 0; the mask keeps all three keys in row
 * 0 (O = mean of 2, 4, 8 = 14/3) and only key 2 in row 1 (O = 8), which causal would also allow. */
Test(oracle_attention, causal_with_custom_mask_is_the_mask_alone) {
  int qo = 2, kv = 3;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  float v[3] = {2, 4, 8};
  memcpy(s->v, v, 12);
  s->causal = true;
  s->custom_mask = ll_xcalloc(1, 1);
  s->custom_mask_bytes = 1; /* ceil(6/8) */
  s->custom_mask[0] = (uint8_t)(0x07 | 1u << 5); /* row 0: j0 j1 j2; row 1: j2 */
  ll_err e = {0};
  cr_assert(oracle_attention_validate(s, &e), "causal + custom mask refused: %s", e.msg);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    near(r.o[0], 14.0 / 3.0, 1e-6, "O row 0 (mean of 2, 4, 8: the mask, not causal)", both[p]);
    cr_assert(r.o[1] == 8, "%s: row 1 O %g (want 8)", pname(both[p]), r.o[1]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, lse_of_3_1_minus2_is_4_5197_base_2) {
  /* docs/oracle.md: log2(e^3 + e^1 + e^-2) = 4.5197 (FlashInfer's fp64 helper gives 3.19). */
  int qo = 1, kv = 3;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  s->has_sm_scale = true;
  s->sm_scale = 1;
  QF(s)[0] = 1;
  KF(s)[0] = 3; KF(s)[1] = 1; KF(s)[2] = -2;
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    near(r.lse[0], 4.5197, 5e-5, "LSE", both[p]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, extreme_negative_logits_give_nonzero_output) {
  /* Row 0: logits -1e4, -5e4, -1e5, -2.45e5 -> O = v0 (the others underflow), LSE = -1e4 log2 e.
   * Row 1: logits all below FlashInfer's old -5e4 sentinel: -2.45e5 twice and -3e5 -> O = mean of
   * v0 and v1, LSE = -2.45e5 log2 e + 1. A finite sentinel would give zeros (issue #4267). */
  int qo = 2, kv = 4;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  s->has_sm_scale = true;
  s->sm_scale = 1;
  s->custom_mask = ll_xcalloc(1, 1);
  s->custom_mask_bytes = 1;
  s->custom_mask[0] = 0x0f | 0x70; /* row 0 all four; row 1 keys 0..2 */
  QF(s)[0] = 1; QF(s)[1] = 1;
  float k[4] = {-1e4f, -5e4f, -1e5f, -2.45e5f}, v[4] = {1, 3, 5, 7};
  memcpy(s->k, k, 16); memcpy(s->v, v, 16);
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    cr_assert(r.o[0] == 1, "%s: row 0 O %g", pname(both[p]), r.o[0]);
    near(r.lse[0], -1e4 * M_LOG2E, 2e-3, "LSE row 0", both[p]);
    out_free(&r);
  }
  /* row 1 with its own keys: reuse the spec, rewriting k */
  float k2[4] = {-2.45e5f, -2.45e5f, -3e5f, 0};
  memcpy(s->k, k2, 16);
  s->custom_mask[0] = 0x07 | 0x70;
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    cr_assert(r.o[1] == 2, "%s: row 1 O %g (want 2, non-zero)", pname(both[p]), r.o[1]);
    near(r.lse[1], -2.45e5 * M_LOG2E + 1, 0.05, "LSE row 1", both[p]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, soft_cap_closed_form) {
  /* s = c tanh(x / c), x = q.k * scale; c = 5, x = 20 and -3. */
  int qo = 1, kv = 2;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 1);
  s->has_sm_scale = true;
  s->sm_scale = 2;
  s->logits_soft_cap = 5;
  QF(s)[0] = 2; KF(s)[0] = 5; KF(s)[1] = -0.75f; VF(s)[0] = 1; VF(s)[1] = -1;
  double s0 = 5 * tanh(20.0 / 5), s1 = 5 * tanh(-3.0 / 5);
  double p0 = 1 / (1 + exp(s1 - s0));
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    near(r.o[0], p0 - (1 - p0), 1e-6, "O", both[p]);
    near(r.lse[0], log2(exp(s0) + exp(s1)), 1e-5, "LSE", both[p]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

Test(oracle_attention, gqa_head_maps_by_division_not_modulo) {
  /* Hq 4, Hk 2: qo heads 0,1 use kv head 0 (v = 1), heads 2,3 kv head 1 (v = 2). q = 0. */
  int qo = 1, kv = 3;
  oracle_attention_spec *s = mk(1, &qo, &kv, 4, 2, 1);
  for (int j = 0; j < 3; j++) { VF(s)[j * 2] = 1; VF(s)[j * 2 + 1] = 2; }
  for (int p = 0; p < 2; p++) {
    out r = run(s, both[p]);
    cr_assert(r.o[0] == 1 && r.o[1] == 1 && r.o[2] == 2 && r.o[3] == 2, "%s: %g %g %g %g", pname(both[p]), r.o[0],
              r.o[1], r.o[2], r.o[3]);
    out_free(&r);
  }
  oracle_attention_spec_free(s);
}

/* ---- invariances ------------------------------------------------------------------------------ */
Test(oracle_attention, paged_equals_ragged_nhd_hnd_partial_last_page) {
  rng_state = 77;
  int qo[3] = {5, 9, 3}, kv[3] = {13, 9, 30};
  oracle_attention_spec *r = mk(3, qo, kv, 4, 2, 24);
  r->causal = true;
  fill_random(r, 1);
  for (int p = 0; p < 2; p++) {
    out a = run(r, both[p]);
    for (int lay = 0; lay < 2; lay++) {
      oracle_attention_spec *g = to_paged(r, 4, lay ? ORACLE_HND : ORACLE_NHD);
      cr_assert(g->kv_last_page_len[0] == 1 && g->kv_last_page_len[2] == 2, "test setup: partial last pages");
      out b = run(g, both[p]);
      same(&a, &b, lay ? "paged HND vs ragged" : "paged NHD vs ragged");
      out_free(&b);
      oracle_attention_spec_free(g);
    }
    out_free(&a);
  }
  oracle_attention_spec_free(r);
}

Test(oracle_attention, shuffling_pages_with_kv_indices_changes_nothing) {
  rng_state = 78;
  int qo[2] = {7, 4}, kv[2] = {21, 16};
  oracle_attention_spec *r = mk(2, qo, kv, 2, 2, 16);
  fill_random(r, 1);
  for (int lay = 0; lay < 2; lay++) {
    oracle_attention_spec *g = to_paged(r, 8, lay ? ORACLE_HND : ORACLE_NHD);
    /* move physical page p to pi(p) and renumber kv_indices to match */
    int np = (int)g->num_pages, *pi = ll_xmalloc((size_t)np * sizeof *pi);
    for (int i = 0; i < np; i++) pi[i] = np - 1 - i;
    size_t page = (size_t)8 * 2 * 16;
    float *k2 = ll_xmalloc(np * page * 4), *v2 = ll_xmalloc(np * page * 4);
    for (int i = 0; i < np; i++) {
      memcpy(k2 + pi[i] * page, KF(g) + i * page, page * 4);
      memcpy(v2 + pi[i] * page, VF(g) + i * page, page * 4);
    }
    oracle_attention_spec *h = to_paged(r, 8, lay ? ORACLE_HND : ORACLE_NHD); /* same shape */
    memcpy(h->kv_indices, g->kv_indices, (size_t)g->kv_indptr[2] * 4);
    for (int i = 0; i < g->kv_indptr[2]; i++) h->kv_indices[i] = pi[g->kv_indices[i]];
    free(h->k); free(h->v);
    h->k = k2; h->v = v2;
    cr_assert(memcmp(h->kv_indices, g->kv_indices, (size_t)g->kv_indptr[2] * 4) != 0, "test setup: indices moved");
    for (int p = 0; p < 2; p++) {
      out a = run(g, both[p]), b = run(h, both[p]);
      same(&a, &b, "shuffled pages");
      out_free(&a); out_free(&b);
    }
    free(pi);
    oracle_attention_spec_free(g);
    oracle_attention_spec_free(h);
  }
  oracle_attention_spec_free(r);
}

Test(oracle_attention, gqa_equals_mha_with_repeated_kv_heads) {
  rng_state = 79;
  int qo[2] = {6, 11}, kv[2] = {6, 17};
  oracle_attention_spec *g = mk(2, qo, kv, 6, 2, 8), *m = mk(2, qo, kv, 6, 6, 8);
  g->causal = m->causal = true;
  fill_random(g, 1);
  memcpy(m->q, g->q, (size_t)oracle_attention_q_elems(g) * 4);
  for (int t = 0; t < 23; t++)
    for (int h = 0; h < 6; h++) {
      memcpy(KF(m) + (t * 6 + h) * 8, KF(g) + (t * 2 + h / 3) * 8, 32);
      memcpy(VF(m) + (t * 6 + h) * 8, VF(g) + (t * 2 + h / 3) * 8, 32);
    }
  for (int p = 0; p < 2; p++) {
    out a = run(g, both[p]), b = run(m, both[p]);
    same(&a, &b, "GQA vs MHA");
    out_free(&a); out_free(&b);
  }
  oracle_attention_spec_free(g);
  oracle_attention_spec_free(m);
}

/* Pack a causal band (optionally with a window) for every request, byte-aligned per request. */
static void band_mask(oracle_attention_spec *s, int w) {
  size_t bytes = 0;
  for (int b = 0; b < s->batch; b++) bytes += (size_t)(oracle_attention_qo_len(s, b) * oracle_attention_kv_len(s, b) + 7) / 8;
  s->custom_mask = ll_xcalloc(bytes + 1, 1);
  s->custom_mask_bytes = bytes;
  size_t base = 0;
  for (int b = 0; b < s->batch; b++) {
    int64_t qo = oracle_attention_qo_len(s, b), kv = oracle_attention_kv_len(s, b);
    for (int64_t i = 0; i < qo; i++)
      for (int64_t j = 0; j < kv; j++) {
        bool keep = j <= i + kv - qo && (w < 0 || j >= i + kv - qo - w);
        size_t bit = base * 8 + (size_t)(i * kv + j);
        if (keep) s->custom_mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
      }
    base += (size_t)(qo * kv + 7) / 8;
  }
}

static void causal_vs_band(const int *qo, const int *kv, int wl) {
  for (int w = -1; w <= wl; w += wl + 1) {
    oracle_attention_spec *c = mk(3, qo, kv, 2, 1, 8), *m = mk(3, qo, kv, 2, 1, 8);
    fill_random(c, 2);
    memcpy(m->q, c->q, (size_t)oracle_attention_q_elems(c) * 4);
    memcpy(m->k, c->k, (size_t)oracle_attention_kv_elems(c) * 4);
    memcpy(m->v, c->v, (size_t)oracle_attention_kv_elems(c) * 4);
    c->causal = true;
    c->window_left = w;
    band_mask(m, -1);      /* the band only; the window applies on top of a custom mask */
    m->window_left = w;
    for (int p = 0; p < 2; p++) {
      out a = run(c, both[p]), b = run(m, both[p]);
      same(&a, &b, w < 0 ? "causal vs band mask" : "causal+window vs band mask+window");
      out_free(&a); out_free(&b);
    }
    oracle_attention_spec_free(c);
    oracle_attention_spec_free(m);
  }
}

Test(oracle_attention, custom_mask_of_causal_band_equals_causal) {
  rng_state = 80;
  int qo[3] = {3, 7, 5}, kv[3] = {5, 7, 9}; /* 15, 49, 45 bits: segments not byte multiples */
  causal_vs_band(qo, kv, 2);
  /* rows over several of the fast path's 256-key chunks, and a window ending inside one */
  int qo2[3] = {40, 3, 70}, kv2[3] = {700, 300, 530};
  causal_vs_band(qo2, kv2, 300);
}

Test(oracle_attention, window_at_least_kv_len_equals_no_window) {
  rng_state = 81;
  int qo[2] = {4, 9}, kv[2] = {10, 9};
  oracle_attention_spec *s = mk(2, qo, kv, 1, 1, 5);
  fill_random(s, 1);
  for (int causal = 0; causal < 2; causal++)
    for (int p = 0; p < 2; p++) {
      s->causal = causal;
      s->window_left = -1;
      out a = run(s, both[p]);
      s->window_left = 10;
      out b = run(s, both[p]);
      same(&a, &b, "window >= kv_len vs none");
      s->window_left = 2; /* and a real window does change the result */
      out c = run(s, both[p]);
      cr_assert(memcmp(a.o, c.o, a.no * 4) != 0, "a window of 2 changed nothing");
      out_free(&a); out_free(&b); out_free(&c);
    }
  oracle_attention_spec_free(s);
}

/* ---- fast path vs plain ----------------------------------------------------------------------- */
static void fast_vs_plain(oracle_attention_spec *s, const char *what) {
  out a = run(s, ORACLE_PATH_PLAIN), b = run(s, ORACLE_PATH_FAST);
  oracle_cmp co, cl;
  bool ok_o = oracle_compare(b.o, a.o, a.no, 2e-5, 2e-5, &co);
  bool ok_l = oracle_compare(b.lse, a.lse, a.nl, 2e-5, 2e-5, &cl);
  cr_assert(ok_o, "%s: O fast vs plain: %zu mismatches, worst [%zu] %.9g vs %.9g", what, co.mismatches, co.worst,
            co.worst_got, co.worst_ref);
  cr_assert(ok_l, "%s: LSE fast vs plain: %zu mismatches, worst [%zu] %.9g vs %.9g", what, cl.mismatches, cl.worst,
            cl.worst_got, cl.worst_ref);
  out_free(&a); out_free(&b);
}

static void random_shapes(void) {
  rng_state = 2024;
  static const int dims[] = {1, 3, 8, 16, 33, 64, 80, 128, 256};
  for (int c = 0; c < 48; c++) {
    int B = rint_(1, 3), Hk = rint_(1, 3), group = 1 << rint_(0, 2), D = dims[rint_(0, 8)];
    int qo[3], kv[3];
    int maxlen = D >= 128 ? 24 : 70;
    for (int b = 0; b < B; b++) {
      kv[b] = rint_(1, maxlen);
      qo[b] = rnd() % 4 == 0 ? rint_(kv[b], kv[b] + 10) : rint_(0, kv[b]);
    }
    oracle_attention_spec *r = mk(B, qo, kv, Hk * group, Hk, D);
    fill_random(r, rnd() % 3 == 0 ? 6 : 1);
    r->causal = rnd() % 2;
    if (rnd() % 4 == 0) r->window_left = rint_(0, maxlen);
    if (rnd() % 5 == 0) r->logits_soft_cap = runif(1, 30);
    if (rnd() % 5 == 0) { r->has_sm_scale = true; r->sm_scale = runif(-0.5f, 2); }
    if (rnd() % 5 == 0) {
      r->causal = false;
      size_t bytes = 0;
      for (int b = 0; b < B; b++) bytes += ((size_t)qo[b] * kv[b] + 7) / 8;
      r->custom_mask = ll_xmalloc(bytes + 1);
      r->custom_mask_bytes = bytes;
      for (size_t i = 0; i < bytes; i++) r->custom_mask[i] = (uint8_t)(rnd() & rnd()); /* sparse-ish: some rows empty */
    }
    r->threads = rint_(0, 3);
    oracle_attention_spec *s = r;
    if (rnd() % 2) s = to_paged(r, rint_(1, 17), rnd() % 2 ? ORACLE_HND : ORACLE_NHD);
    char what[128];
    snprintf(what, sizeof what, "case %d: B %d Hq %d Hk %d D %d kind %d causal %d w %d cap %g mask %d", c, B, Hk * group,
             Hk, D, (int)s->kind, s->causal, s->window_left, s->logits_soft_cap, s->custom_mask != NULL);
    fast_vs_plain(s, what);
    if (s != r) oracle_attention_spec_free(s);
    oracle_attention_spec_free(r);
  }
}

static void long_rows(void) {
  /* kv beyond the 256-key reduction block, qo over several 32-row blocks, causal + window,
   * fp16/bf16 inputs through the conversion path. */
  rng_state = 99;
  int qo[2] = {70, 33}, kv[2] = {600, 290};
  for (int dt = 0; dt < 2; dt++) {
    oracle_attention_spec *s = mk(2, qo, kv, 4, 2, 40);
    fill_random(s, 2);
    size_t nq = (size_t)oracle_attention_q_elems(s), nk = (size_t)oracle_attention_kv_elems(s);
    oracle_dtype d = dt ? ORACLE_BF16 : ORACLE_F16;
    uint16_t *q = ll_xmalloc(nq * 2), *k = ll_xmalloc(nk * 2), *v = ll_xmalloc(nk * 2);
    oracle_from_f32(d, s->q, q, nq); oracle_from_f32(d, s->k, k, nk); oracle_from_f32(d, s->v, v, nk);
    free(s->q); free(s->k); free(s->v);
    s->q = q; s->k = k; s->v = v;
    s->dtype = d;
    s->causal = true;
    s->window_left = 200;
    fast_vs_plain(s, dt ? "long rows bf16" : "long rows f16");
    s->causal = false;
    s->window_left = -1;
    s->logits_soft_cap = 3;
    fast_vs_plain(s, "long rows, soft cap, no mask");
    s->logits_soft_cap = 0;
    size_t bytes = ((size_t)qo[0] * kv[0] + 7) / 8 + ((size_t)qo[1] * kv[1] + 7) / 8;
    s->custom_mask = ll_xmalloc(bytes);
    s->custom_mask_bytes = bytes;
    for (size_t i = 0; i < bytes; i++) s->custom_mask[i] = (uint8_t)(rnd() | rnd());
    fast_vs_plain(s, "long rows, custom mask");
    oracle_attention_spec_free(s);
  }
}

Test(oracle_attention, fast_matches_plain_on_random_shapes) { random_shapes(); }
Test(oracle_attention, fast_matches_plain_on_long_rows_and_many_blocks) { long_rows(); }

/* Each kernel of the fast path (LANELAB_ORACLE_KERNEL forces one; without it the best the CPU
 * runs is chosen) against the plain path on the same random shapes and long rows. A kernel the
 * CPU lacks the instructions for is skipped, saying so. */
static void kernel_matches_plain(const char *name, bool cpu_has_it, const char *feature) {
  if (!cpu_has_it) cr_skip_test("this CPU lacks %s: the %s kernel cannot run here", feature, name);
  cr_assert_eq(setenv("LANELAB_ORACLE_KERNEL", name, 1), 0);
  int qo = 40, kv = 50;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 16);
  out r = run(s, ORACLE_PATH_FAST);
  bool named = strcmp(r.info.kernel, name) == 0 || (!strcmp(name, "sse") && !strcmp(r.info.kernel, "scalar"));
  cr_assert(named, "forced %s, ran %s", name, r.info.kernel);
  out_free(&r);
  oracle_attention_spec_free(s);
  random_shapes();
  long_rows();
}

#if defined(__x86_64__)
#define CPU_HAS(f) (__builtin_cpu_init(), __builtin_cpu_supports(f))
#else
#define CPU_HAS(f) false
#endif

Test(oracle_attention, fast_avx512_kernel_matches_plain) {
  kernel_matches_plain("avx512", CPU_HAS("avx512f"), "AVX-512F");
}
Test(oracle_attention, fast_avx2_kernel_matches_plain) {
  kernel_matches_plain("avx2", CPU_HAS("avx2") && CPU_HAS("fma"), "AVX2 and FMA");
}
/* The baseline (SSE; the portable scalar loop off x86-64) is what runs on a CPU without the
 * others. */
Test(oracle_attention, fast_sse_kernel_matches_plain) { kernel_matches_plain("sse", true, "nothing"); }

/* Without LANELAB_ORACLE_KERNEL the best kernel the CPU runs is used; a bad value is a usage
 * error of the run (exit 2), not a silent fallback. */
Test(oracle_attention, kernel_choice_default_and_bad_value) {
  cr_assert_eq(unsetenv("LANELAB_ORACLE_KERNEL"), 0);
  int qo = 8, kv = 8;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 16);
  out r = run(s, ORACLE_PATH_FAST);
  const char *want = CPU_HAS("avx512f") ? "avx512" : CPU_HAS("avx2") && CPU_HAS("fma") ? "avx2" : "sse";
#if !defined(__x86_64__)
  want = "scalar";
#endif
  cr_assert_str_eq(r.info.kernel, want);
  cr_assert_eq(setenv("LANELAB_ORACLE_KERNEL", "avx1024", 1), 0);
  ll_err e = {0};
  oracle_attention_info info;
  s->path = ORACLE_PATH_FAST;
  cr_assert(!oracle_attention_run(s, r.o, r.lse, &info, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "LANELAB_ORACLE_KERNEL=avx1024"), "%s", e.msg);
  cr_assert_eq(setenv("LANELAB_ORACLE_KERNEL", "auto", 1), 0);
  cr_assert(oracle_attention_run(s, r.o, r.lse, &info, &e), "%s", e.msg);
  cr_assert_str_eq(info.kernel, want);
  out_free(&r);
  oracle_attention_spec_free(s);
}

Test(oracle_attention, auto_path_picks_plain_small_fast_large) {
  int qo = 2, kv = 2;
  oracle_attention_spec *s = mk(1, &qo, &kv, 1, 1, 4);
  out a = run(s, ORACLE_PATH_PLAIN);
  oracle_attention_info info;
  ll_err e = {0};
  s->path = ORACLE_PATH_AUTO;
  cr_assert(oracle_attention_run(s, a.o, a.lse, &info, &e));
  cr_assert_eq(info.path, ORACLE_PATH_PLAIN);
  cr_assert(info.flops == 4.0 * 4 * 1 * 2 * 2, "flops %g", info.flops);
  out_free(&a);
  oracle_attention_spec_free(s);
}

/* ---- concat_mla_q ----------------------------------------------------------------------------- */
/* Element patterns that say where they came from; some positions carry raw NaN/inf/-0 bits. */
static uint16_t tag(int which, int64_t t, int64_t h, int64_t d) {
  static const uint16_t special[] = {0x7c01, 0xfe00, 0x7fff, 0xffff, 0x8000, 0x7c00, 0x0001, 0x7f81, 0xff80};
  uint64_t x = (uint64_t)which * 1000003 + (uint64_t)t * 7919 + (uint64_t)h * 104729 + (uint64_t)d * 31;
  if (x % 17 == 0) return special[x % 9];
  return (uint16_t)(x * 2654435761u >> 7);
}

static void concat_case(int64_t T, int64_t H, bool transposed, oracle_dtype dt) {
  oracle_concat_spec s = {.dtype = dt, .T = T, .H = H};
  s.nope_stride_h = transposed ? T * ORACLE_MLA_NOPE : ORACLE_MLA_NOPE; /* physical [H, T, 512] */
  s.nope_stride_t = transposed ? ORACLE_MLA_NOPE : H * ORACLE_MLA_NOPE;
  s.pe_stride_t = H * ORACLE_MLA_PE + 8; /* padded rows */
  s.pe_stride_h = ORACLE_MLA_PE;
  s.q_nope_elems = (size_t)(T * H * ORACLE_MLA_NOPE);
  s.q_pe_elems = (size_t)(T * s.pe_stride_t);
  s.q_nope = ll_xcalloc(s.q_nope_elems + 1, 2);
  s.q_pe = ll_xcalloc(s.q_pe_elems + 1, 2);
  for (int64_t t = 0; t < T; t++)
    for (int64_t h = 0; h < H; h++) {
      for (int d = 0; d < ORACLE_MLA_NOPE; d++) s.q_nope[t * s.nope_stride_t + h * s.nope_stride_h + d] = tag(0, t, h, d);
      for (int d = 0; d < ORACLE_MLA_PE; d++) s.q_pe[t * s.pe_stride_t + h * s.pe_stride_h + d] = tag(1, t, h, d);
    }
  size_t n = (size_t)(T * H * ORACLE_MLA_OUT);
  uint16_t *o = ll_xmalloc((n + 1) * 2);
  o[n] = 0xabcd;
  ll_err e = {0};
  cr_assert(oracle_concat_mla_q(&s, o, &e), "%s", e.msg);
  size_t bad = 0, first = 0;
  uint16_t fg = 0, fw = 0;
  for (int64_t t = 0; t < T; t++)
    for (int64_t h = 0; h < H; h++)
      for (int d = 0; d < ORACLE_MLA_OUT; d++) {
        uint16_t want = d < ORACLE_MLA_NOPE ? tag(0, t, h, d) : tag(1, t, h, d - ORACLE_MLA_NOPE);
        size_t i = (size_t)((t * H + h) * ORACLE_MLA_OUT + d);
        if (o[i] != want && !bad++) { first = i; fg = o[i]; fw = want; }
      }
  cr_assert_eq(bad, 0, "T %lld H %lld: %zu of %zu elements differ, first at %zu: 0x%04x, want 0x%04x", (long long)T,
               (long long)H, bad, n, first, fg, fw);
  cr_assert_eq(o[n], 0xabcd, "wrote past the end");
  free(o); free(s.q_nope); free(s.q_pe);
}

Test(oracle_concat, bit_exact_vllm_shapes_contiguous_and_transposed) {
  static const int Ts[] = {1, 4, 16, 64, 128};
  for (int i = 0; i < 5; i++) {
    concat_case(Ts[i], 128, false, ORACLE_F16);
    concat_case(Ts[i], 128, true, ORACLE_BF16);
  }
}

Test(oracle_concat, t_zero_touches_nothing) {
  oracle_concat_spec s = {.dtype = ORACLE_F16, .T = 0, .H = 128, .nope_stride_t = 128 * 512, .nope_stride_h = 512,
                          .pe_stride_t = 128 * 64, .pe_stride_h = 64};
  uint16_t sentinel = 0x1234;
  ll_err e = {0};
  cr_assert(oracle_concat_mla_q(&s, &sentinel, &e), "%s", e.msg);
  cr_assert_eq(sentinel, 0x1234);
}

Test(oracle_concat, too_small_buffer_is_refused) {
  uint16_t buf[600] = {0}, o[576 * 2];
  oracle_concat_spec s = {.dtype = ORACLE_F16, .T = 1, .H = 2, .nope_stride_t = 1024, .nope_stride_h = 512,
                          .pe_stride_t = 128, .pe_stride_h = 64, .q_nope = buf, .q_nope_elems = 600, .q_pe = buf,
                          .q_pe_elems = 600};
  ll_err e = {0};
  cr_assert_not(oracle_concat_mla_q(&s, o, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "q_nope") != NULL, "%s", e.msg);
}

/* ---- numbers ---------------------------------------------------------------------------------- */
/* Independent decoders: value = significand * 2^exponent via ldexp. */
static double ref_f16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
static double ref_bf16(uint16_t h) {
  int e = (h >> 7) & 255, m = h & 127;
  double v = e == 0 ? ldexp(m, -133) : e == 255 ? (m ? NAN : INFINITY) : ldexp(128 + m, e - 134);
  return (h & 0x8000) ? -v : v;
}

Test(oracle_numbers, decode_all_65536_patterns) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    double rf = ref_f16(h), rb = ref_bf16(h);
    float gf = oracle_f16_to_f32(h), gb = oracle_bf16_to_f32(h);
    if (isnan(rf)) cr_assert(isnan(gf) && !!signbit(gf) == !!(h & 0x8000), "f16 0x%04x: %g", h, gf);
    else cr_assert((double)gf == rf && !!signbit(gf) == !!signbit(rf), "f16 0x%04x: %.9g, want %.9g", h, gf, rf);
    if (isnan(rb)) cr_assert(isnan(gb) && !!signbit(gb) == !!(h & 0x8000), "bf16 0x%04x: %g", h, gb);
    else cr_assert((double)gb == rb && !!signbit(gb) == !!signbit(rb), "bf16 0x%04x: %.9g, want %.9g", h, gb, rb);
  }
}

/* Reference rounding: the nearest entry of the sorted table of every non-negative finite value
 * (indexed by bit pattern), ties to the even pattern; the entry after the largest finite value
 * stands for the next power of two, whose pattern is +inf (IEEE 754 overflow under RNE). */
typedef struct rtab { double *v; int n; } rtab; /* v[0..n-1] finite, v[n] = overflow threshold */
static rtab mk_tab(bool half) {
  rtab t;
  t.n = half ? 0x7c00 : 0x7f80;
  t.v = ll_xmalloc(((size_t)t.n + 1) * sizeof *t.v);
  for (int i = 0; i < t.n; i++) t.v[i] = half ? ref_f16((uint16_t)i) : ref_bf16((uint16_t)i);
  t.v[t.n] = half ? 65536.0 : ldexp(1, 128);
  return t;
}
static uint16_t ref_round(const rtab *t, float x) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs((double)x);
  if (a >= t->v[t->n]) return sign | (uint16_t)t->n;
  int lo = 0, hi = t->n; /* v[lo] <= a < v[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (t->v[mid] <= a) lo = mid; else hi = mid;
  }
  double dl = a - t->v[lo], dh = t->v[lo + 1] - a;
  int pick = dl < dh ? lo : dh < dl ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
  return sign | (uint16_t)pick;
}

static void check_encode(bool half, const rtab *t, float x) {
  uint16_t got = half ? oracle_f32_to_f16(x) : oracle_f32_to_bf16(x);
  if (isnan(x)) {
    bool nan = half ? ((got & 0x7c00) == 0x7c00 && (got & 0x3ff)) : ((got & 0x7f80) == 0x7f80 && (got & 0x7f));
    cr_assert(nan && !!(got & 0x8000) == !!signbit(x), "%s(NaN) = 0x%04x", half ? "f16" : "bf16", got);
    return;
  }
  uint16_t want = ref_round(t, x);
  cr_assert_eq(got, want, "%s(%a) = 0x%04x, want 0x%04x", half ? "f16" : "bf16", (double)x, got, want);
}

static void encode_sweep(bool half) {
  rtab t = mk_tab(half);
  for (int i = 0; i < t.n; i++) {
    float vals[5];
    vals[0] = (float)t.v[i];
    vals[1] = (float)((t.v[i] + t.v[i + 1]) / 2); /* the halfway point, exact in float */
    vals[2] = nextafterf(vals[1], INFINITY);
    vals[3] = nextafterf(vals[1], -INFINITY);
    vals[4] = nextafterf(vals[0], INFINITY);
    for (int k = 0; k < 5; k++) {
      check_encode(half, &t, vals[k]);
      check_encode(half, &t, -vals[k]);
    }
  }
  rng_state = half ? 5 : 6;
  for (int i = 0; i < 1000000; i++) {
    uint32_t u = (uint32_t)rnd();
    if (i % 4 == 0) u &= 0x807fffffu; /* float subnormals */
    float x;
    memcpy(&x, &u, 4);
    check_encode(half, &t, x);
  }
  const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -FLT_MAX, FLT_MIN, 65504, 65519.99f, 65520,
                      0x1p-25f, 0x1.000002p-25f, 0x1p-24f, 0x1.8p-24f};
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) check_encode(half, &t, sp[i]);
  free(t.v);
}

Test(oracle_numbers, f32_to_f16_rounds_to_nearest_even) { encode_sweep(true); }
Test(oracle_numbers, f32_to_bf16_rounds_to_nearest_even) { encode_sweep(false); }

Test(oracle_numbers, known_values) {
  /* IEEE 754 binary16 facts: 0x3c00 = 1, 0x7bff = 65504, 0x0001 = 2^-24, 0xc000 = -2; bf16 0x3f80 = 1. */
  cr_assert_eq(oracle_f32_to_f16(1.0f), 0x3c00);
  cr_assert_eq(oracle_f32_to_f16(65504.0f), 0x7bff);
  cr_assert_eq(oracle_f32_to_f16(65520.0f), 0x7c00);
  cr_assert_eq(oracle_f32_to_f16(0x1p-24f), 0x0001);
  cr_assert_eq(oracle_f32_to_f16(-2.0f), 0xc000);
  cr_assert_eq(oracle_f32_to_bf16(1.0f), 0x3f80);
  cr_assert_eq(oracle_f32_to_bf16(-0.0f), 0x8000);
}

Test(oracle_numbers, comparison_rule) {
  cr_assert(oracle_close(1.5, 1.0, 0.25, 0.25));           /* 0.5 <= 0.25 + 0.25 */
  cr_assert_not(oracle_close(1.5000001, 1.0, 0.25, 0.25));
  cr_assert(oracle_close(-INFINITY, -INFINITY, 0, 0));
  cr_assert(oracle_close(INFINITY, INFINITY, 0, 0));
  cr_assert_not(oracle_close(INFINITY, -INFINITY, 1, 1));
  cr_assert_not(oracle_close(NAN, NAN, 1, 1));              /* our choice: NaN never matches */
  cr_assert_not(oracle_close(1e30, INFINITY, 1, 1));
  cr_assert_not(oracle_close(NAN, 0, 1e9, 1e9));
  float ref[5] = {1, 2, -INFINITY, 0, 4}, got[5] = {1.001f, 2, -INFINITY, 0.5f, NAN};
  oracle_cmp c;
  cr_assert_not(oracle_compare(got, ref, 5, 1e-2, 1e-2, &c));
  cr_assert_eq(c.mismatches, 2);             /* 0.5 vs 0 and NaN vs 4 */
  cr_assert_eq(c.nonfinite_mismatches, 1);
  cr_assert_eq(c.worst, 4);                  /* a non-finite mismatch is the worst */
  cr_assert(fabs(c.max_abs - 0.5) < 1e-7, "max_abs %g", c.max_abs);
  cr_assert(fabs(c.max_rel - 0.001) < 1e-6, "max_rel %g", c.max_rel); /* ref 0 has no relative error */
  report_table *t = report_table_new("oracle vs ref", oracle_cmp_columns);
  char *cells = oracle_cmp_cells("case-a", &c);
  report_table_row(t, "%s", cells);
  free(cells);
  cr_assert(oracle_compare(ref, ref, 5, 0, 0, &c));
  cells = oracle_cmp_cells("case-b", &c);
  report_table_row(t, "%s", cells);
  free(cells);
  cr_assert_str_eq(report_table_cell(t, 0, 2), "2");
  cr_assert_str_eq(report_table_cell(t, 0, 11), "FAIL");
  cr_assert_str_eq(report_table_cell(t, 1, 11), "pass");
  ll_buf b = {0};
  report_table_render(t, REPORT_JSON, &b);
  cr_assert(strstr(ll_buf_str(&b), "\"case-a\"") != NULL, "%s", b.data);
  ll_buf_free(&b);
  report_table_free(t);
}

Test(oracle_numbers, tolerance_table_matches_attention_md) {
  double a, r;
  oracle_tolerance_default(ORACLE_F16, &a, &r);
  cr_assert(a == 1e-3 && r == 1e-3);
  oracle_tolerance_default(ORACLE_BF16, &a, &r);
  cr_assert(a == 1e-2 && r == 1e-2);
  bool aiter = false;
  for (size_t i = 0; i < oracle_num_tolerances; i++)
    if (strcmp(oracle_tolerances[i].source, "AITER") == 0 && oracle_tolerances[i].dtype == ORACLE_BF16)
      aiter = oracle_tolerances[i].rtol == 2e-2 && oracle_tolerances[i].atol == 1e-2;
  cr_assert(aiter, "AITER bf16 row: rtol 2e-2, atol 1e-2");
}

/* ---- the command line ------------------------------------------------------------------------- */
static const char *lanelab_bin(void) {
  const char *e = getenv("LANELAB_BIN"); /* to test a binary built elsewhere */
  return e ? e : LANELAB_BUILD "/lanelab";
}

static char *tmpdir(void) {
  return tt_dir("oracle");
}

static void put(const char *dir, const char *name, const void *d, size_t n) {
  char *p = ll_path_join(dir, name);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(p, d, n, &e), "%s", e.msg);
  free(p);
}

/* Run `lanelab oracle WHAT --spec DIR/spec.json --out DIR/out`; stderr into *msg. */
static int cli(const char *dir, const char *what, char **msg) {
  char *cmd = ll_fmt("%s oracle %s --spec %s/spec.json --out %s/out 2>%s/err.txt", lanelab_bin(), what, dir, dir, dir);
  int st = system(cmd);
  free(cmd);
  char *ep = ll_fmt("%s/err.txt", dir);
  *msg = ll_read_file(ep, NULL, NULL);
  free(ep);
  if (!*msg) *msg = ll_xstrdup("");
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cleanup(char *dir) {
  char *cmd = ll_fmt("rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
  free(cmd);
  free(dir);
}

Test(oracle_cli, end_to_end_lse_from_files) {
  /* The [3, 1, -2] case through files: f32 q = [1], k = [3, 1, -2], v = [1, 2, 3]. */
  char *d = tmpdir();
  float q = 1, k[3] = {3, 1, -2}, v[3] = {1, 2, 3};
  put(d, "q.bin", &q, 4);
  put(d, "k.bin", k, 12);
  put(d, "v.bin", v, 12);
  const char *spec = "{\"kind\": \"single\", \"dtype\": \"f32\", \"num_qo_heads\": 1, \"num_kv_heads\": 1,"
                     " \"head_dim\": 1, \"qo_indptr\": [0, 1], \"kv_indptr\": [0, 3], \"sm_scale\": 1,"
                     " \"q\": \"q.bin\", \"k\": \"k.bin\", \"v\": \"v.bin\"}";
  put(d, "spec.json", spec, strlen(spec));
  char *msg;
  int rc = cli(d, "attention", &msg);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, msg);
  char *p = ll_fmt("%s/out/lse.bin", d), *po = ll_fmt("%s/out/o.bin", d), *pm = ll_fmt("%s/out/meta.json", d);
  size_t n, no;
  float *lse = ll_read_file(p, &n, NULL), *o = ll_read_file(po, &no, NULL);
  cr_assert(lse && n == 4 && o && no == 4);
  cr_assert(fabs(lse[0] - 4.5197) < 5e-5, "lse %g", lse[0]);
  double e3 = exp(3), e1 = exp(1), em2 = exp(-2);
  cr_assert(fabs(o[0] - (e3 + 2 * e1 + 3 * em2) / (e3 + e1 + em2)) < 1e-6, "o %g", o[0]);
  ll_err e = {0};
  ll_json *m = ll_json_parse_file(pm, &e);
  cr_assert_not_null(m, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(m, "path")->str, "plain");
  cr_assert_eq(ll_json_get(m, "lse_base")->i, 2);
  ll_json_free(m);
  free(lse); free(o); free(p); free(po); free(pm); free(msg);
  cleanup(d);
}

Test(oracle_cli, seeded_paged_and_concat_write_inputs_and_outputs) {
  char *d = tmpdir();
  const char *spec = "{\"kind\": \"paged\", \"dtype\": \"bf16\", \"num_qo_heads\": 4, \"num_kv_heads\": 2,"
                     " \"head_dim\": 8, \"qo_indptr\": [0, 3, 5], \"kv_indptr\": [0, 2, 3], \"kv_indices\": [2, 0, 1],"
                     " \"kv_last_page_len\": [1, 4], \"page_size\": 4, \"layout\": \"HND\", \"causal\": true,"
                     " \"seed\": 3, \"round_output\": true}";
  put(d, "spec.json", spec, strlen(spec));
  char *msg;
  int rc = cli(d, "attention", &msg);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, msg);
  free(msg);
  static const struct { const char *f; size_t n; } want[] = {
      {"o.bin", 5 * 4 * 8 * 4}, {"lse.bin", 5 * 4 * 4}, {"o_bf16.bin", 5 * 4 * 8 * 2},
      {"q.bin", 5 * 4 * 8 * 2}, {"k.bin", 3 * 4 * 2 * 8 * 2}, {"v.bin", 3 * 4 * 2 * 8 * 2}};
  for (int i = 0; i < 6; i++) {
    char *p = ll_fmt("%s/out/%s", d, want[i].f);
    size_t n = 0;
    void *x = ll_read_file(p, &n, NULL);
    cr_assert(x && n == want[i].n, "%s: %zu bytes, want %zu", want[i].f, n, want[i].n);
    free(x); free(p);
  }
  const char *cs = "{\"T\": 3, \"H\": 2, \"dtype\": \"f16\", \"q_nope_strides\": [512, 1536], \"seed\": 9}";
  put(d, "spec.json", cs, strlen(cs));
  rc = cli(d, "concat-mla-q", &msg);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, msg);
  free(msg);
  char *pn = ll_fmt("%s/out/q_nope.bin", d), *pp = ll_fmt("%s/out/q_pe.bin", d), *po = ll_fmt("%s/out/q_out.bin", d);
  size_t nn, np, no;
  uint16_t *qn = ll_read_file(pn, &nn, NULL), *qp = ll_read_file(pp, &np, NULL), *qo = ll_read_file(po, &no, NULL);
  cr_assert(qn && qp && qo && nn == 3 * 2 * 512 * 2 && np == 3 * 2 * 64 * 2 && no == 3 * 2 * 576 * 2);
  for (int t = 0; t < 3; t++)
    for (int h = 0; h < 2; h++)
      for (int x = 0; x < 576; x++) {
        uint16_t want = x < 512 ? qn[t * 512 + h * 1536 + x] : qp[(t * 2 + h) * 64 + x - 512];
        cr_assert_eq(qo[(t * 2 + h) * 576 + x], want, "t %d h %d x %d", t, h, x);
      }
  free(qn); free(qp); free(qo); free(pn); free(pp); free(po);
  cleanup(d);
}

static void put_f16(const char *dir, const char *name, const float *x, size_t n) {
  uint16_t *h = ll_xmalloc(n * 2 + 2);
  oracle_from_f32(ORACLE_F16, x, h, n);
  put(dir, name, h, n * 2);
  free(h);
}

static void *get(const char *dir, const char *name, size_t *n) {
  char *p = ll_path_join(dir, name);
  void *d = ll_read_file(p, n, NULL);
  free(p);
  cr_assert_not_null(d, "cannot read %s/%s", dir, name);
  return d;
}

Test(oracle_cli, paged_files_equal_ragged_files) {
  /* The same f16 data as a ragged spec and as an HND paged spec (shuffled pages, partial last
   * pages, NaN in unused slots, num_pages taken from the file size): o.bin and lse.bin must be
   * byte-identical. */
  rng_state = 4242;
  int qo[2] = {3, 6}, kv[2] = {7, 10};
  oracle_attention_spec *r = mk(2, qo, kv, 4, 2, 8);
  fill_random(r, 1);
  oracle_attention_spec *g = to_paged(r, 4, ORACLE_HND);
  char *d = tmpdir();
  put_f16(d, "q.bin", r->q, (size_t)oracle_attention_q_elems(r));
  put_f16(d, "k.bin", r->k, (size_t)oracle_attention_kv_elems(r));
  put_f16(d, "v.bin", r->v, (size_t)oracle_attention_kv_elems(r));
  put_f16(d, "kc.bin", g->k, (size_t)oracle_attention_kv_elems(g));
  put_f16(d, "vc.bin", g->v, (size_t)oracle_attention_kv_elems(g));
  const char *rs = "{\"kind\": \"ragged\", \"dtype\": \"f16\", \"num_qo_heads\": 4, \"num_kv_heads\": 2, \"head_dim\": 8,"
                   " \"qo_indptr\": [0, 3, 9], \"kv_indptr\": [0, 7, 17], \"causal\": true,"
                   " \"q\": \"q.bin\", \"k\": \"k.bin\", \"v\": \"v.bin\"}";
  put(d, "spec.json", rs, strlen(rs));
  char *msg;
  int rc = cli(d, "attention", &msg);
  cr_assert_eq(rc, 0, "ragged: exit %d: %s", rc, msg);
  free(msg);
  size_t n1, n2, l1, l2;
  void *o1 = get(d, "out/o.bin", &n1), *s1 = get(d, "out/lse.bin", &l1);
  char *ps = ll_fmt("{\"kind\": \"paged\", \"dtype\": \"f16\", \"num_qo_heads\": 4, \"num_kv_heads\": 2, \"head_dim\": 8,"
                    " \"qo_indptr\": [0, 3, 9], \"kv_indptr\": [0, %d, %d], \"kv_indices\": [%d, %d, %d, %d, %d],"
                    " \"kv_last_page_len\": [%d, %d], \"page_size\": 4, \"layout\": \"HND\", \"causal\": true,"
                    " \"q\": \"q.bin\", \"k\": \"kc.bin\", \"v\": \"vc.bin\"}",
                    g->kv_indptr[1], g->kv_indptr[2], g->kv_indices[0], g->kv_indices[1], g->kv_indices[2],
                    g->kv_indices[3], g->kv_indices[4], g->kv_last_page_len[0], g->kv_last_page_len[1]);
  cr_assert_eq(g->kv_indptr[2], 5, "test setup: 2 + 3 pages");
  put(d, "spec.json", ps, strlen(ps));
  rc = cli(d, "attention", &msg);
  cr_assert_eq(rc, 0, "paged: exit %d: %s", rc, msg);
  free(msg);
  void *o2 = get(d, "out/o.bin", &n2), *s2 = get(d, "out/lse.bin", &l2);
  cr_assert(n1 == 9 * 4 * 8 * 4 && n1 == n2 && memcmp(o1, o2, n1) == 0, "o.bin differs");
  cr_assert(l1 == 9 * 4 * 4 && l1 == l2 && memcmp(s1, s2, l1) == 0, "lse.bin differs");
  free(o1); free(o2); free(s1); free(s2); free(ps);
  oracle_attention_spec_free(g);
  oracle_attention_spec_free(r);
  cleanup(d);
}

typedef struct bad { const char *spec, *field; } bad;

static void expect_bad(const char *what, const bad *cases, size_t n, bool with_files) {
  for (size_t i = 0; i < n; i++) {
    char *d = tmpdir();
    if (with_files) {
      char z[4096] = {0};
      put(d, "q.bin", z, 2 * 1 * 2 * 4 * 2); /* f16 q for total_q 2, Hq 2, D 4 */
      put(d, "k.bin", z, 3 * 1 * 4 * 2);
      put(d, "v.bin", z, 3 * 1 * 4 * 2);
      put(d, "short.bin", z, 10);
      put(d, "mask.bin", z, 2);
    }
    put(d, "spec.json", cases[i].spec, strlen(cases[i].spec));
    char *msg;
    int rc = cli(d, what, &msg);
    cr_assert_eq(rc, 2, "case %zu (%s): exit %d, want 2; stderr: %s", i, cases[i].field, rc, msg);
    cr_assert(strstr(msg, cases[i].field) != NULL, "case %zu: message does not name '%s': %s", i, cases[i].field, msg);
    free(msg);
    cleanup(d);
  }
}

#define BASE "\"dtype\": \"f16\", \"head_dim\": 4, \"q\": \"q.bin\", \"k\": \"k.bin\", \"v\": \"v.bin\""
Test(oracle_cli, bad_attention_specs_exit_2_naming_the_field) {
  static const bad cases[] = {
      {"{\"kind\": \"ragged\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2, 1], \"kv_indptr\": [0, 1, 3]}", "qo_indptr"},
      {"{\"kind\": \"ragged\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 1, 2], \"kv_indptr\": [0, 3]}", "kv_indptr"},
      {"{\"kind\": \"ragged\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [1, 2], \"kv_indptr\": [0, 3]}", "qo_indptr"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 3, \"num_kv_heads\": 2, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3]}", "num_qo_heads"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 4]}", "k:"},
      {"{\"kind\": \"single\", \"dtype\": \"f16\", \"head_dim\": 4, \"q\": \"short.bin\", \"k\": \"k.bin\", \"v\": \"v.bin\", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3]}", "q:"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3], \"colour\": 1}", "colour"},
      {"{\"kind\": \"single\", \"dtype\": \"f16\", \"head_dim\": \"4\", \"q\": \"q.bin\", \"k\": \"k.bin\", \"v\": \"v.bin\", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3]}", "head_dim"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3], \"causal\": 1}", "causal"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3], \"custom_mask\": \"mask.bin\"}", "custom_mask"},
      {"{\"kind\": \"single\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3], \"window_left\": -2}", "window_left"},
      {"{\"kind\": \"ragged\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3], \"page_size\": 4}", "page_size"},
      {"{\"kind\": \"triangle\", " BASE ", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3]}", "kind"},
      {"{\"kind\": \"single\", \"dtype\": \"f16\", \"head_dim\": 4, \"q\": \"q.bin\", \"k\": \"k.bin\", \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 3]}", "v: missing"},
      {"[1, 2]", "JSON object"},
      {"{\"kind\": ", "JSON line"},
  };
  expect_bad("attention", cases, sizeof cases / sizeof cases[0], true);
}

#define PBASE "\"kind\": \"paged\", \"dtype\": \"f16\", \"head_dim\": 4, \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"seed\": 1, \"layout\": \"NHD\", \"page_size\": 4"
Test(oracle_cli, bad_paged_specs_exit_2_naming_the_field) {
  static const bad cases[] = {
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, 5], \"kv_last_page_len\": [2], \"num_pages\": 4}", "kv_indices[1]"},
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, -1], \"kv_last_page_len\": [2]}", "kv_indices[1]"},
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, 1], \"kv_last_page_len\": [0]}", "kv_last_page_len[0]"},
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, 1], \"kv_last_page_len\": [5]}", "kv_last_page_len[0]"},
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, 1, 2], \"kv_last_page_len\": [1]}", "kv_indices"},
      {"{" PBASE ", \"qo_indptr\": [0, 2, 3], \"kv_indptr\": [0, 2, 1], \"kv_indices\": [0], \"kv_last_page_len\": [1, 1]}", "kv_indptr"},
      {"{" PBASE ", \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 2], \"kv_indices\": [0, 1], \"kv_last_page_len\": [1, 1]}", "kv_last_page_len"},
      {"{\"kind\": \"paged\", \"dtype\": \"f16\", \"head_dim\": 4, \"num_qo_heads\": 2, \"num_kv_heads\": 1, \"seed\": 1, \"layout\": \"NDH\", \"page_size\": 4, \"qo_indptr\": [0, 2], \"kv_indptr\": [0, 1], \"kv_indices\": [0], \"kv_last_page_len\": [1]}", "layout"},
  };
  expect_bad("attention", cases, sizeof cases / sizeof cases[0], false);
}

Test(oracle_cli, bad_concat_specs_exit_2_naming_the_field) {
  static const bad cases[] = {
      {"{\"T\": 2, \"H\": 2, \"dtype\": \"f32\", \"seed\": 1}", "dtype"},
      {"{\"T\": -1, \"H\": 2, \"dtype\": \"f16\", \"seed\": 1}", "T (line"},
      {"{\"T\": 2, \"H\": 2, \"dtype\": \"f16\", \"seed\": 1, \"q_pe_strides\": [64]}", "q_pe_strides"},
      {"{\"T\": 2, \"H\": 2, \"dtype\": \"f16\", \"q_nope\": \"short.bin\", \"q_pe\": \"short.bin\"}", "q_nope"},
      {"{\"T\": 2, \"H\": 2, \"dtype\": \"f16\", \"seed\": 1, \"extra\": true}", "extra"},
  };
  expect_bad("concat-mla-q", cases, sizeof cases / sizeof cases[0], true);
}

Test(oracle_cli, usage_errors_exit_2) {
  char *cmd = ll_fmt("%s oracle attention --spec /nonexistent/spec.json --out /tmp/x 2>/dev/null", lanelab_bin());
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "missing spec file: status %d", st);
  free(cmd);
  cmd = ll_fmt("%s oracle softmax --spec a --out b 2>/dev/null", lanelab_bin());
  st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "unknown reference: status %d", st);
  free(cmd);
}

/* Regression (found by fuzz/fuzz_spec, input fuzz/corpus/spec/crash_concat_extent_overflow.json):
 * oracle_concat_extent multiplied T - 1 by the stride in int64 with no check; within the spec's
 * limits (T <= 2^31, strides <= 2^40) the product reaches 2^71. Wrapped, T = 2^24 + 1 with
 * stride_t = 2^40 gives (2^24)(2^40) = 2^64 = 0, an extent of 512, and validate then accepted a
 * 512-element q_nope for a view reaching 2^64 elements. Extents beyond int64 now saturate at
 * INT64_MAX and such a spec is refused naming q_nope. */
Test(oracle_concat, extent_overflow_saturates_and_is_refused) {
  const int64_t T = (1LL << 24) + 1, S = 1LL << 40;
  cr_assert_eq(oracle_concat_extent(T, 1, S, 512, 512), INT64_MAX);
  cr_assert_eq(oracle_concat_extent(1LL << 31, 65536, S, S, 512), INT64_MAX);
  /* in range: still the exact formula (T-1)*st + (H-1)*sh + inner */
  cr_assert_eq(oracle_concat_extent(3, 2, 1536, 512, 512), 2 * 1536 + 512 + 512);
  cr_assert_eq(oracle_concat_extent(1LL << 22, 1, 1LL << 40, 1, 64), ((1LL << 22) - 1) * (1LL << 40) + 64);
  uint16_t buf[576];
  oracle_concat_spec s = {.dtype = ORACLE_F16, .T = T, .H = 1, .nope_stride_t = S, .nope_stride_h = 512,
                          .pe_stride_t = 64, .pe_stride_h = 64, .q_nope = buf, .q_pe = buf,
                          .q_nope_elems = 512, .q_pe_elems = 1LL << 31};
  ll_err e = {0};
  cr_assert(!oracle_concat_validate(&s, &e), "a 512-element q_nope accepted for stride_t 2^40, T 2^24+1");
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "q_nope") != NULL, "%s", e.msg);
}
