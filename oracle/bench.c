/* oracle/bench — throughput of the fast attention path on the seed change's benchmark shape
 * (docs/changes.md, change 000: MHA 32/32 heads, head_dim 128, seq 4096, non-causal) and a 16x smaller one. */
#include <stdlib.h>
#include <time.h>

#include "oracle/oracle.h"

static int bench_one(FILE *out, int seq) {
  int32_t qo[2] = {0, seq}, kv[2] = {0, seq};
  oracle_attention_spec s = {.kind = ORACLE_SINGLE, .dtype = ORACLE_F16, .num_qo_heads = 32, .num_kv_heads = 32,
                             .head_dim = 128, .batch = 1, .qo_indptr = qo, .kv_indptr = kv, .window_left = -1,
                             .path = ORACLE_PATH_FAST};
  ll_err err = {0};
  if (!oracle_attention_validate(&s, &err)) return ll_report(&err);
  oracle_attention_generate(&s, 4);
  size_t no = (size_t)oracle_attention_q_elems(&s), nl = (size_t)oracle_attention_total_q(&s) * 32;
  float *o = malloc(no * sizeof *o), *lse = malloc(nl * sizeof *lse);
  oracle_attention_info info = {0};
  int rc = 0;
  double cpu0 = 0;
  if (!o || !lse) {
    ll_seterr(&err, LL_EXIT_ENV, "out of memory for the bench outputs");
    rc = ll_report(&err);
  } else if ((cpu0 = ll_cpu_now()), !oracle_attention_run(&s, o, lse, &info, &err)) {
    rc = ll_report(&err);
  } else {
    double cpu = ll_cpu_now() - cpu0;
    fprintf(out, "oracle attention fast path: MHA 32/32 heads, head_dim 128, seq %d, non-causal, f16: "
                 "%.1f GFLOP in %.2f s = %.2f GFLOP/s (%.2f CPU-s, %d threads, %s kernel)\n",
            seq, info.flops * 1e-9, info.seconds, info.flops * 1e-9 / info.seconds, cpu, info.threads, info.kernel);
    /* Spot check, so a fast but wrong path cannot report a figure: the plain (double) path on
     * the first 8 query rows (rows are independent without a causal mask) must agree within
     * the fp32-vs-fp64 bound the tests use. */
    int32_t qo8[2] = {0, 8};
    oracle_attention_spec p = s;
    p.qo_indptr = qo8;
    p.path = ORACLE_PATH_PLAIN;
    size_t n8 = (size_t)8 * 32 * 128;
    float *o8 = malloc(n8 * sizeof *o8), *l8 = malloc(8 * 32 * sizeof *l8);
    oracle_cmp co, cl;
    if (!o8 || !l8 || !oracle_attention_run(&p, o8, l8, NULL, &err)) {
      rc = ll_report(&err);
    } else if (!oracle_compare(o, o8, n8, 2e-5, 2e-5, &co) + !oracle_compare(lse, l8, 8 * 32, 2e-5, 2e-5, &cl)) {
      /* both compared (+, not ||): the message gives both counts */
      fprintf(out, "  spot check vs plain path FAILED: O %zu, LSE %zu mismatches (atol = rtol = 2e-5)\n", co.mismatches,
              cl.mismatches);
      rc = LL_EXIT_FAIL;
    } else {
      fprintf(out, "  spot check vs plain path, 8 rows x 32 heads: max abs error O %.2g, LSE %.2g\n", co.max_abs,
              cl.max_abs);
    }
    free(o8);
    free(l8);
    fflush(out);
  }
  free(o);
  free(lse);
  free(s.q);
  free(s.k);
  free(s.v);
  return rc;
}

int oracle_bench(FILE *out) {
  int rc = bench_one(out, 1024);
  if (!rc) rc = bench_one(out, 4096);
  return rc;
}
