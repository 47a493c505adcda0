/* Tests for verify/argcov (issue 30): the gate's case set varies every argument the production
 * kernels take. The check passes on quick + the make-test random sample for every production
 * kernel (and the table lists every argument of the kernels' signatures), and fails naming the
 * argument on sets built here to leave one constant: q_pe's strides dense in every concat case,
 * no sliding window anywhere, causal never together with a custom mask, one num_qo_heads for the
 * ragged kernel, and a signature argument with no rule. Expected names come from the kernel
 * sources' signatures (kernels/prod/<stem>.hip) as written, not from the check. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verify/argcov.h"

#ifndef LANELAB_ROOT
#error "LANELAB_ROOT must be defined by the Makefile"
#endif

static void quick_and_sample(prod_set *q, prod_set *r) {
  ll_err e = {0};
  cr_assert(prod_set_make("quick", 0, q, &e), "%s", e.msg);
  char shapes[32];
  snprintf(shapes, sizeof shapes, "random:%d", PROD_TEST_SAMPLE_N);
  cr_assert(prod_set_make(shapes, PROD_TEST_SAMPLE_SEED, r, &e), "%s", e.msg);
}

static int check(const prod_set *a, const prod_set *b, char *why, size_t n, report_table **t) {
  const prod_set *sets[2] = {a, b};
  return argcov_check(LANELAB_ROOT, sets, b ? 2 : 1, t, why, n);
}

Test(argcov, quick_plus_sample_covers_every_argument) {
  prod_set q, r;
  quick_and_sample(&q, &r);
  char why[512];
  report_table *t = NULL;
  int rc = check(&q, &r, why, sizeof why, &t);
  cr_assert_eq(rc, LL_EXIT_OK, "quick + random:%d --seed %u: %s", PROD_TEST_SAMPLE_N, PROD_TEST_SAMPLE_SEED, why);
  /* one row per argument of the four signatures: 15 + 17 + 20 + 9 (counted from the kernel
   * files' parameter lists) */
  cr_assert_not_null(t);
  cr_expect_eq(t->nrows, 15 + 17 + 20 + 9, "%zu rows", t->nrows);
  report_table_free(t);
  prod_set_free(&q);
  prod_set_free(&r);
}

Test(argcov, signature_names_from_the_kernel_source) {
  size_t n = 0;
  ll_err e = {0};
  char **names = argcov_signature(LANELAB_ROOT "/kernels/prod/concat_mla_q.hip", &n, &e);
  cr_assert(names, "%s", e.msg);
  const char *want[] = {"q_out", "q_nope", "q_pe", "T", "H", "nope_stride_t", "nope_stride_h", "pe_stride_t",
                        "pe_stride_h"};
  cr_assert_eq(n, 9);
  for (size_t i = 0; i < n; i++) {
    cr_expect_str_eq(names[i], want[i]);
    free(names[i]);
  }
  free(names);
  names = argcov_signature(LANELAB_ROOT "/kernels/prod/prefill_paged.hip", &n, &e);
  cr_assert(names, "%s", e.msg);
  cr_assert_eq(n, 20);
  cr_expect_str_eq(names[0], "q");
  cr_expect_str_eq(names[15], "page_size");
  cr_expect_str_eq(names[19], "window_left");
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* A set with a constant argument fails, naming it. */
static void expect_fail(const prod_set *a, const prod_set *b, const char *needle, const char *what) {
  char why[512];
  int rc = check(a, b, why, sizeof why, NULL);
  cr_expect_eq(rc, LL_EXIT_FAIL, "%s: rc %d (%s)", what, rc, why);
  cr_expect(strstr(why, needle) != NULL, "%s: the failure does not name '%s': %s", what, needle, why);
}

/* quick + the sample, each set changed by edit, must fail naming needle */
static void fail_after(void (*edit)(prod_set *), const char *needle, const char *what) {
  prod_set q, r;
  quick_and_sample(&q, &r);
  edit(&q);
  edit(&r);
  expect_fail(&q, &r, needle, what);
  prod_set_free(&q);
  prod_set_free(&r);
}

static void dense_pe(prod_set *st) {
  for (size_t i = 0; i < st->nc; i++) {
    st->concat[i].transposed_pe = false;
    st->concat[i].pe_extra_stride = 0;
    st->concat[i].pe_token_pad = 0;
  }
}
Test(argcov, dense_pe_strides_fail_naming_the_stride) {
  fail_after(dense_pe, "concat_mla_q: argument pe_stride_h takes one value (64)", "q_pe dense everywhere");
}

static void no_window(prod_set *st) {
  for (size_t i = 0; i < st->n; i++) st->cases[i].has_window = false;
}
Test(argcov, no_window_fails_naming_window_left) {
  fail_after(no_window, "argument window_left takes one value (-1)", "no window");
}

static void single_mask_never_causal(prod_set *st) {
  for (size_t i = 0; i < st->n; i++)
    if (st->cases[i].kind == ORACLE_SINGLE && st->cases[i].custom_mask) st->cases[i].causal = false;
}
Test(argcov, causal_never_with_a_custom_mask_fails_naming_the_combination) {
  fail_after(single_mask_never_causal, "prefill_single: flag combination flags = 0x3",
             "single: causal never with a custom mask");
}

static void ragged_hq2(prod_set *st) {
  for (size_t i = 0; i < st->n; i++)
    if (st->cases[i].kind == ORACLE_RAGGED) {
      st->cases[i].hq = 2;
      st->cases[i].hkv = i % 2 ? 2 : 1;
    }
}
Test(argcov, one_head_count_fails_naming_num_qo_heads) {
  fail_after(ragged_hq2, "prefill_ragged: argument num_qo_heads takes one value (2)", "ragged: Hq 2 everywhere");
}

/* A signature argument the check has no rule for fails naming it: a copy of the kernel sources
 * whose single-request kernel takes one more argument. */
Test(argcov, an_argument_without_a_rule_fails_naming_it) {
  char dir[] = "/tmp/lanelab-argcov-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char *cmd = ll_fmt("mkdir -p '%s/kernels/prod' && cp '%s'/kernels/prod/*.hip '%s/kernels/prod/' && "
                     "sed -i 's/float soft_cap, int32_t window_left) {/float soft_cap, int32_t window_left, "
                     "uint32_t stride_x) {/' '%s/kernels/prod/prefill_single.hip' && "
                     "grep -q stride_x '%s/kernels/prod/prefill_single.hip'",
                     dir, LANELAB_ROOT, dir, dir, dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  free(cmd);
  prod_set q;
  ll_err e = {0};
  cr_assert(prod_set_make("quick", 0, &q, &e));
  const prod_set *sets[1] = {&q};
  char why[512];
  int rc = argcov_check(dir, sets, 1, NULL, why, sizeof why);
  cr_expect_eq(rc, LL_EXIT_FAIL, "rc %d: %s", rc, why);
  cr_expect(strstr(why, "prefill_single: the signature has 16 arguments, the host passes 15"), "%s", why);
  prod_set_free(&q);
  cmd = ll_fmt("rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
  free(cmd);
}
