/* Tests for oracle/compare.c (oracle.h, "compare") and the `lanelab compare` command.
 * Expected values come from the test itself: element bit patterns written out by hand (IEEE
 * binary16 0x3c00 = 1.0, bfloat16 0x3f80 = 1.0, ...), multi-indices and lane positions computed
 * here with the row-major and lane-fastest formulas, and tolerance bounds atol + rtol*|ref| chosen
 * to be exact in binary. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/shell.h"
#include "oracle/oracle.h"
#include "util/util.h"

#define LANELAB LANELAB_BUILD "/lanelab"

static int cmp(oracle_etype t, const void *g, size_t gn, const void *r, size_t rn, const char *shape,
               double atol, double rtol, oracle_compare_result *res, ll_err *e) {
  oracle_compare_opts o;
  oracle_compare_opts_init(&o, t);
  o.atol = atol;
  o.rtol = rtol;
  if (shape) cr_assert(oracle_compare_shape_parse(shape, &o, e), "%s", e->msg);
  return oracle_compare_buffers(g, gn, r, rn, &o, NULL, NULL, res, e);
}

/* ---- every dtype: one element differs, its value and bits are reported --------------------------*/
typedef struct {
  oracle_etype t;
  const char *name;
  size_t size;
  uint64_t a, b;   /* bit patterns of two values */
  double va, vb;   /* their values */
} dcase;

Test(compare, every_dtype_finds_the_one_difference) {
  uint64_t d1, d15;
  double one = 1.0, onefive = 1.5;
  memcpy(&d1, &one, 8);
  memcpy(&d15, &onefive, 8);
  const dcase cs[] = {
      {ORACLE_E_F32, "f32", 4, 0x3f800000u, 0x3fc00000u, 1.0, 1.5},
      {ORACLE_E_F16, "f16", 2, 0x3c00u, 0x3e00u, 1.0, 1.5},
      {ORACLE_E_BF16, "bf16", 2, 0x3f80u, 0x3fc0u, 1.0, 1.5},
      {ORACLE_E_F64, "f64", 8, d1, d15, 1.0, 1.5},
      {ORACLE_E_I32, "i32", 4, 0xffffffffu, 0x80000000u, -1, -2147483648.0},
      {ORACLE_E_U32, "u32", 4, 0xffffffffu, 0x80000000u, 4294967295.0, 2147483648.0},
      {ORACLE_E_I16, "i16", 2, 0xffffu, 0x8000u, -1, -32768},
      {ORACLE_E_U16, "u16", 2, 0xffffu, 0x8000u, 65535, 32768},
      {ORACLE_E_I8, "i8", 1, 0xffu, 0x80u, -1, -128},
      {ORACLE_E_U8, "u8", 1, 0xffu, 0x80u, 255, 128},
  };
  for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
    const dcase *d = &cs[c];
    oracle_etype t;
    cr_assert(oracle_etype_parse(d->name, &t) && t == d->t, "%s parses", d->name);
    cr_assert_eq(oracle_etype_size(t), d->size, "%s size", d->name);
    uint8_t g[8 * 6] = {0}, r[8 * 6] = {0};
    for (int i = 0; i < 6; i++)
      for (size_t k = 0; k < d->size; k++) {
        g[i * d->size + k] = (uint8_t)((i == 4 ? d->b : d->a) >> (8 * k)); /* element 4 differs */
        r[i * d->size + k] = (uint8_t)(d->a >> (8 * k));
      }
    oracle_compare_result res;
    ll_err e = {0};
    cr_assert_eq(cmp(t, r, 6 * d->size, r, 6 * d->size, NULL, 0, 0, &res, &e), LL_EXIT_OK, "%s: equal", d->name);
    cr_assert_eq(res.over, 0);
    int rc = cmp(t, g, 6 * d->size, r, 6 * d->size, "2,3", 0, 0, &res, &e);
    cr_assert_eq(rc, LL_EXIT_FAIL, "%s: rc %d %s", d->name, rc, e.msg);
    cr_assert_eq(res.n, 6);
    cr_assert_eq(res.over, 1, "%s over %llu", d->name, (unsigned long long)res.over);
    cr_assert_eq(res.nfirst, 1);
    const oracle_mismatch *m = &res.first[0];
    cr_assert(m->flat == 4 && m->idx[0] == 1 && m->idx[1] == 1, "%s: at [%llu,%llu]", d->name,
              (unsigned long long)m->idx[0], (unsigned long long)m->idx[1]);
    cr_assert(m->got == d->vb && m->ref == d->va, "%s: got %.17g ref %.17g", d->name, m->got, m->ref);
    cr_assert(m->got_bits == d->b && m->ref_bits == d->a, "%s bits", d->name);
    cr_assert_eq(m->kind, ORACLE_MM_VALUE);
    cr_assert(res.max_abs == fabs(d->vb - d->va), "%s: max_abs %.17g", d->name, res.max_abs);
    cr_assert(res.max_abs_at == 4);
    cr_assert(res.max_rel == fabs(d->vb - d->va) / fabs(d->va), "%s: max_rel %.17g", d->name, res.max_rel);
  }
  oracle_etype t;
  cr_assert_not(oracle_etype_parse("f8", &t));
  cr_assert_not(oracle_etype_parse("F32", &t));
}

Test(compare, tolerance_bound_is_inclusive) {
  /* ref 2, atol 0.25, rtol 0.125: bound 0.5 exactly; 2.5 is on it, the next float above is over */
  float ref[2] = {2.0f, -2.0f}, got[2] = {2.5f, -1.5f};
  oracle_compare_result r;
  ll_err e = {0};
  cr_assert_eq(cmp(ORACLE_E_F32, got, 8, ref, 8, NULL, 0.25, 0.125, &r, &e), LL_EXIT_OK, "%s", e.msg);
  cr_assert(r.max_abs == 0.5 && r.max_rel == 0.25);
  got[0] = nextafterf(2.5f, 3.0f);
  cr_assert_eq(cmp(ORACLE_E_F32, got, 8, ref, 8, NULL, 0.25, 0.125, &r, &e), LL_EXIT_FAIL);
  cr_assert(r.over == 1 && r.first[0].flat == 0);
  /* integers default to exact; a tolerance makes them close */
  int32_t gi[2] = {100, 7}, ri[2] = {101, 7};
  cr_assert_eq(cmp(ORACLE_E_I32, gi, 8, ri, 8, NULL, 0, 0, &r, &e), LL_EXIT_FAIL);
  cr_assert_eq(cmp(ORACLE_E_I32, gi, 8, ri, 8, NULL, 1, 0, &r, &e), LL_EXIT_OK);
  double at, rt;
  oracle_compare_default_tol(ORACLE_E_I8, &at, &rt);
  cr_assert(at == 0 && rt == 0);
  oracle_compare_default_tol(ORACLE_E_F16, &at, &rt);
  cr_assert(at == 1e-3 && rt == 1e-3, "f16 default is FlashInfer's 1e-3/1e-3");
  oracle_compare_default_tol(ORACLE_E_F64, &at, &rt);
  cr_assert(at == 1e-7 && rt == 1e-7);
}

/* ---- non-finite values ------------------------------------------------------------------------*/
Test(compare, nan_and_inf_disagreements_are_classified) {
  const float inf = INFINITY, nan = NAN;
  /*                 0    1    2     3     4    5     6     7    8 */
  float got[9] = {nan, 1.0f, nan, inf, -inf, inf, 3.0f, inf, 1e30f};
  float ref[9] = {nan, nan, 2.0f, inf, -inf, -inf, inf, 4.0f, 1e30f};
  oracle_compare_result r;
  ll_err e = {0};
  /* a huge tolerance changes nothing for non-finite disagreements */
  cr_assert_eq(cmp(ORACLE_E_F32, got, sizeof got, ref, sizeof ref, NULL, 1e30, 1e30, &r, &e), LL_EXIT_FAIL);
  cr_assert_eq(r.nan_both, 1, "NaN at 0 on both sides agrees");
  cr_assert_eq(r.nan_ref, 1);
  cr_assert_eq(r.nan_got, 1);
  cr_assert_eq(r.inf_sign, 1);
  cr_assert_eq(r.inf_vs_finite, 2);
  cr_assert_eq(r.nonfinite, 5);
  cr_assert_eq(r.over, 5);
  const size_t at[5] = {1, 2, 5, 6, 7};
  const oracle_mismatch_kind kinds[5] = {ORACLE_MM_NAN_REF, ORACLE_MM_NAN_GOT, ORACLE_MM_INF_SIGN,
                                         ORACLE_MM_INF_REF, ORACLE_MM_INF_GOT};
  cr_assert_eq(r.nfirst, 5);
  for (int i = 0; i < 5; i++)
    cr_assert(r.first[i].flat == at[i] && r.first[i].kind == kinds[i], "mismatch %d at %llu kind %s", i,
              (unsigned long long)r.first[i].flat, oracle_mismatch_kind_name(r.first[i].kind));
  cr_assert(r.max_abs == 0, "max_abs only over pairs both finite");
  /* f16: 0x7c00 +inf, 0xfc00 -inf, 0x7e00 NaN */
  uint16_t hg[3] = {0x7c00, 0x7e00, 0x3c00}, hr[3] = {0xfc00, 0x7e01, 0x3c00};
  cr_assert_eq(cmp(ORACLE_E_F16, hg, 6, hr, 6, NULL, 0, 0, &r, &e), LL_EXIT_FAIL);
  cr_assert(r.inf_sign == 1 && r.nan_both == 1 && r.over == 1);
  /* bf16 0x7f80 +inf on both sides agrees */
  uint16_t bg[1] = {0x7f80};
  cr_assert_eq(cmp(ORACLE_E_BF16, bg, 2, bg, 2, NULL, 0, 0, &r, &e), LL_EXIT_OK);
}

/* ---- the first ten, by multi-index ------------------------------------------------------------*/
Test(compare, first_ten_mismatches_in_flat_order_with_multi_index) {
  enum { D0 = 3, D1 = 5, D2 = 7, N = D0 * D1 * D2 };
  float g[N], r[N];
  for (int i = 0; i < N; i++) g[i] = r[i] = (float)i;
  /* 25 mismatches at i = 4k + 3 for k in 0..24 scattered from the end backwards */
  int want[25];
  for (int k = 0; k < 25; k++) want[k] = 4 * k + 3;
  for (int k = 24; k >= 0; k--) g[want[k]] += 1.0f;
  oracle_compare_result res;
  ll_err e = {0};
  cr_assert_eq(cmp(ORACLE_E_F32, g, sizeof g, r, sizeof r, "3,5,7", 0, 0, &res, &e), LL_EXIT_FAIL);
  cr_assert_eq(res.over, 25);
  cr_assert_eq(res.nfirst, ORACLE_COMPARE_FIRST);
  cr_assert_eq(ORACLE_COMPARE_FIRST, 10);
  for (int k = 0; k < 10; k++) {
    const oracle_mismatch *m = &res.first[k];
    int f = want[k];
    cr_assert_eq(m->flat, (uint64_t)f);
    cr_assert(m->idx[0] == (uint64_t)(f / (D1 * D2)) && m->idx[1] == (uint64_t)(f / D2 % D1) &&
              m->idx[2] == (uint64_t)(f % D2), "mismatch %d at flat %d: [%llu,%llu,%llu]", k, f,
              (unsigned long long)m->idx[0], (unsigned long long)m->idx[1], (unsigned long long)m->idx[2]);
    cr_assert(m->got == f + 1.0 && m->ref == f);
  }
  ll_buf b = {0};
  oracle_compare_text(&res, "g", "r", &b);
  cr_assert(strstr(ll_buf_str(&b), "  [0,0,3] got 4 (0x40800000) ref 3 (0x40400000)"), "%s", b.data);
  cr_assert(strstr(b.data, "[1,0,4] got") && !strstr(b.data, "[1,1,1] got"), "10th is [1,0,4] (flat 39), 11th (43) absent:\n%s", b.data);
  cr_assert(strstr(b.data, "over tolerance: 25 of 105") && strstr(b.data, "\nFAIL\n"), "%s", b.data);
  ll_buf_free(&b);
}

/* ---- sizes ------------------------------------------------------------------------------------*/
Test(compare, size_not_matching_shape_or_dtype_is_usage_naming_the_input) {
  uint8_t g[16] = {0}, r[16] = {0};
  oracle_compare_result res;
  ll_err e = {0};
  oracle_compare_opts o;
  oracle_compare_opts_init(&o, ORACLE_E_F32);
  cr_assert(oracle_compare_shape_parse("2,2", &o, &e));
  cr_assert_eq(oracle_compare_buffers(g, 12, r, 16, &o, "GOT g.bin", "REF r.bin", &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "GOT g.bin has 12 bytes") && strstr(e.msg, "f32 [2,2]") && strstr(e.msg, "16 bytes"), "%s", e.msg);
  cr_assert_eq(oracle_compare_buffers(g, 16, r, 8, &o, "GOT g.bin", "REF r.bin", &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "REF r.bin has 8 bytes"), "%s", e.msg);
  oracle_compare_opts_init(&o, ORACLE_E_F64);
  cr_assert_eq(oracle_compare_buffers(g, 12, r, 12, &o, "GOT", "REF", &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "GOT has 12 bytes, not a whole number of f64"), "%s", e.msg);
  oracle_compare_opts_init(&o, ORACLE_E_U16);
  cr_assert_eq(oracle_compare_buffers(g, 16, r, 14, &o, "GOT", "REF", &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "sizes differ"), "%s", e.msg);
  cr_assert_eq(oracle_compare_buffers(g, 0, r, 0, &o, "GOT", "REF", &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "empty"), "%s", e.msg);
  const char *bad[] = {"", "0", "2,", ",2", "2,,3", "a", "1,2,3,4,5,6,7,8,9", "-1", "4294967296,4294967296"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_err e2 = {0};
    cr_assert_not(oracle_compare_shape_parse(bad[i], &o, &e2), "shape '%s' accepted", bad[i]);
    cr_assert(e2.code == LL_EXIT_USAGE && strstr(e2.msg, "--shape"), "%s", e2.msg);
  }
  oracle_compare_opts_init(&o, ORACLE_E_U8);
  o.atol = -1;
  cr_assert_eq(oracle_compare_buffers(g, 4, r, 4, &o, NULL, NULL, &res, &e), LL_EXIT_USAGE);
}

/* ---- lanes ------------------------------------------------------------------------------------*/
Test(compare, lanes_reports_wave_dword_lane) {
  enum { ROWS = 3, WAVES = 2, N = WAVES * ROWS * 64 };
  uint32_t *g = calloc(N, 4), *r = calloc(N, 4);
  /* wave 1, dword 2, lane 17; wave 0, dword 0, lane 63 */
  g[(1 * ROWS + 2) * 64 + 17] = 5;
  g[(0 * ROWS + 0) * 64 + 63] = 9;
  oracle_compare_opts o;
  oracle_compare_opts_init(&o, ORACLE_E_U32);
  o.lanes = true;
  o.lane_rows = ROWS;
  oracle_compare_result res;
  ll_err e = {0};
  cr_assert_eq(oracle_compare_buffers(g, N * 4, r, N * 4, &o, NULL, NULL, &res, &e), LL_EXIT_FAIL, "%s", e.msg);
  cr_assert_eq(res.nfirst, 2);
  cr_assert(res.first[0].wave == 0 && res.first[0].dword == 0 && res.first[0].lane == 63);
  cr_assert(res.first[1].wave == 1 && res.first[1].dword == 2 && res.first[1].lane == 17);
  cr_assert_eq(res.lane_mask, (1ull << 63) | (1ull << 17));
  cr_assert_eq(res.rows_with_mismatch, 2);
  ll_buf b = {0};
  oracle_compare_text(&res, "g", "r", &b);
  cr_assert(strstr(ll_buf_str(&b), "wave 1 dword 2 lane 17"), "%s", b.data);
  ll_buf_free(&b);
  /* without ROWS: one wave, the row is the dword; f16 elements carry the byte in the dword */
  uint16_t *hg = calloc(N * 2, 2), *hr = calloc(N * 2, 2);
  size_t el = 2 * (64 * 4 + 9) + 1; /* dword 4*64 + 9 (row 4, lane 9), high half (byte 2) */
  hg[el] = 0x3c00;
  o.etype = ORACLE_E_F16;
  o.lane_rows = 0;
  o.atol = o.rtol = 0;
  cr_assert_eq(oracle_compare_buffers(hg, N * 4, hr, N * 4, &o, NULL, NULL, &res, &e), LL_EXIT_FAIL);
  cr_assert(res.first[0].wave == 0 && res.first[0].dword == 4 && res.first[0].lane == 9 && res.first[0].byte == 2,
            "dword %llu lane %llu byte %u", (unsigned long long)res.first[0].dword,
            (unsigned long long)res.first[0].lane, res.first[0].byte);
  /* not whole rows / waves: usage */
  o.etype = ORACLE_E_U32;
  cr_assert_eq(oracle_compare_buffers(g, 4 * 100, r, 4 * 100, &o, NULL, NULL, &res, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "--lanes"), "%s", e.msg);
  o.lane_rows = 4; /* 6 rows are 1.5 waves of 4 */
  cr_assert_eq(oracle_compare_buffers(g, N * 4, r, N * 4, &o, NULL, NULL, &res, &e), LL_EXIT_USAGE);
  free(g); free(r); free(hg); free(hr);
}

/* ---- reader -----------------------------------------------------------------------------------*/
static char *tmpfile_with(const void *p, size_t n) {
  char t[] = "/tmp/lanelab-test-cmp-XXXXXX";
  int fd = mkstemp(t);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, p, n), (ssize_t)n);
  close(fd);
  return ll_xstrdup(t);
}

Test(compare, reader_caps_size_and_refuses_directories) {
  uint8_t buf[100];
  memset(buf, 7, sizeof buf);
  char *f = tmpfile_with(buf, sizeof buf);
  size_t n = 0;
  ll_err e = {0};
  void *p = oracle_compare_read(f, 100, &n, &e);
  cr_assert(p && n == 100 && ((uint8_t *)p)[99] == 7, "%s", e.msg);
  free(p);
  cr_assert_null(oracle_compare_read(f, 99, &n, &e));
  cr_assert(e.code == LL_EXIT_USAGE && strstr(e.msg, "cap"), "%s", e.msg);
  cr_assert_null(oracle_compare_read("/tmp", 0, &n, &e));
  cr_assert(strstr(e.msg, "directory"), "%s", e.msg);
  cr_assert_null(oracle_compare_read("/nonexistent/x", 0, &n, &e));
  /* a non-regular file is read up to the cap, never further */
  p = oracle_compare_read("/dev/zero", 4096, &n, &e);
  cr_assert_null(p, "an endless device stops at the cap");
  cr_assert(strstr(e.msg, "cap"), "%s", e.msg);
  unlink(f);
  free(f);
}

/* ---- the command --------------------------------------------------------------------------------*/
static int cli(const char *args, char **out) {
  if (access(LANELAB, X_OK) != 0) cr_assert_fail(LANELAB " is missing: build it (make build/lanelab)");
  char *cmd = ll_fmt("%s %s 2>&1", LANELAB, args);
  int st = sh_capture(cmd, out);
  free(cmd);
  cr_assert(WIFEXITED(st));
  return WEXITSTATUS(st);
}

Test(compare, command_exit_codes_and_json) {
  float g[6] = {1, 2, 3, 4, 5, 6}, r[6] = {1, 2, 3, 4, 5, 6.5f};
  char *fg = tmpfile_with(g, sizeof g), *fr = tmpfile_with(r, sizeof r), *out;
  char *a = ll_fmt("compare %s %s --dtype f32 --shape 2,3", fg, fg);
  cr_assert_eq(cli(a, &out), 0, "%s", out);
  cr_assert(strstr(out, "PASS"), "%s", out);
  free(a); free(out);
  a = ll_fmt("compare %s %s --dtype f32 --shape 2,3 --format json", fg, fr);
  cr_assert_eq(cli(a, &out), 1, "%s", out);
  ll_err e = {0};
  ll_json *j = ll_json_parse(out, strlen(out), &e);
  cr_assert_not_null(j, "%s\n%s", e.msg, out);
  cr_assert_eq(ll_json_get(j, "over_tolerance")->i, 1);
  cr_assert_str_eq(ll_json_get(j, "verdict")->str, "FAIL");
  const ll_json *m = ll_json_get(j, "first_mismatches");
  cr_assert(m && m->n == 1);
  const ll_json *idx = ll_json_get(m->items[0], "index");
  cr_assert(idx->n == 2 && idx->items[0]->i == 1 && idx->items[1]->i == 2);
  cr_assert(ll_json_get(m->items[0], "got")->num == 6 && ll_json_get(m->items[0], "ref")->num == 6.5);
  cr_assert_str_eq(ll_json_get(m->items[0], "got_bits")->str, "0x40c00000");
  ll_json_free(j);
  free(a); free(out);
  /* the tolerance flags widen the bound: |6 - 6.5| = 0.5 <= 0.5 */
  a = ll_fmt("compare %s %s --dtype f32 --atol 0.5 --rtol 0", fg, fr);
  cr_assert_eq(cli(a, NULL), 0);
  free(a);
  /* exit 2: shape, dtype size, usage */
  const char *bad[] = {"--dtype f32 --shape 4,2", "--dtype f32 --shape 6,1,1,1,1,1,1,1,1", "--dtype f8", "", "--dtype f32 --atol -1",
                       "--dtype f32 --format csv", "--dtype f32 --max-bytes 8", "--dtype f32 --lanes",
                       "--dtype f32 --lanes=0", "--dtype f32 --bogus"};
  const char *say[] = {"needs 8 elements", "--shape", "--dtype 'f8'", "needs GOT, REF and --dtype",
                       "--atol", "--format", "cap", "--lanes", "--lanes=ROWS", "unknown option"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    a = ll_fmt("compare %s %s %s", fg, fr, bad[i]);
    cr_assert_eq(cli(a, &out), 2, "%s: %s", bad[i], out);
    cr_assert(strstr(out, say[i]), "%s: expected '%s' in: %s", bad[i], say[i], out);
    free(a); free(out);
  }
  char *odd = tmpfile_with(g, 10);
  a = ll_fmt("compare %s %s --dtype f32", odd, odd);
  cr_assert_eq(cli(a, &out), 2);
  cr_assert(strstr(out, "has 10 bytes, not a whole number of f32"), "%s", out);
  free(a); free(out);
  unlink(odd);
  free(odd);
  a = ll_fmt("compare /nonexistent %s --dtype u8", fr);
  cr_assert_eq(cli(a, &out), 2);
  cr_assert(strstr(out, "/nonexistent"), "%s", out);
  free(a); free(out);
  unlink(fg); unlink(fr);
  free(fg); free(fr);
}

Test(compare, command_lanes_on_a_register_dump) {
  enum { ROWS = 2, N = ROWS * 64 };
  uint32_t g[N] = {0}, r[N] = {0};
  g[1 * 64 + 33] = 1; /* dword 1, lane 33 */
  char *fg = tmpfile_with(g, sizeof g), *fr = tmpfile_with(r, sizeof r), *out;
  char *a = ll_fmt("compare %s %s --dtype u32 --lanes=2 --format json", fg, fr);
  cr_assert_eq(cli(a, &out), 1, "%s", out);
  ll_err e = {0};
  ll_json *j = ll_json_parse(out, strlen(out), &e);
  cr_assert_not_null(j, "%s", e.msg);
  const ll_json *m = ll_json_get(j, "first_mismatches")->items[0];
  cr_assert(ll_json_get(m, "wave")->i == 0 && ll_json_get(m, "dword")->i == 1 && ll_json_get(m, "lane")->i == 33);
  cr_assert_str_eq(ll_json_get(ll_json_get(j, "lanes"), "lane_mask")->str, "0x0000000200000000");
  ll_json_free(j);
  free(a); free(out);
  unlink(fg); unlink(fr);
  free(fg); free(fr);
}

/* ---- --lanes on two `lanelab run --dump-regs` JSON files ------------------------------------------*/
/* A dump written here in the --dump-regs form (runtime/rt.h): waves of nv VGPR rows and na AGPR
 * rows of 64 lanes; lane l of register row r of wave w holds 1000*w + 100*r + l, except where
 * (w, r, l) == bad, which holds 7. */
static char *dump_json(int waves, int nv, int na, int bw, int br, int bl) {
  ll_buf b = {0};
  ll_buf_puts(&b, "{\"generated_by\": \"test\", \"waves\": [");
  for (int w = 0; w < waves; w++) {
    ll_buf_printf(&b, "%s{\"wg\": [%d,0,0], \"wave\": 0, \"sgprs\": [1,2]", w ? "," : "", w);
    for (int k = 0; k < 2; k++) {
      ll_buf_printf(&b, ", \"%s\": [", k ? "agprs" : "vgprs");
      int n = k ? na : nv;
      for (int r = 0; r < n; r++) {
        int row = k ? nv + r : r;
        ll_buf_printf(&b, "%s[", r ? "," : "");
        for (int l = 0; l < 64; l++)
          ll_buf_printf(&b, "%s%d", l ? "," : "", (w == bw && row == br && l == bl) ? 7 : 1000 * w + 100 * row + l);
        ll_buf_puts(&b, "]");
      }
      ll_buf_puts(&b, "]");
    }
    ll_buf_puts(&b, "}");
  }
  ll_buf_puts(&b, "]}\n");
  return b.data;
}

Test(compare, lanes_on_register_dump_json_names_wave_register_lane) {
  char *dg = dump_json(2, 3, 2, 1, 3, 5), *dr = dump_json(2, 3, 2, -1, 0, 0); /* wave 1, a0 (row 3), lane 5 */
  char *fg = tmpfile_with(dg, strlen(dg)), *fr = tmpfile_with(dr, strlen(dr));
  oracle_compare_opts o;
  oracle_compare_opts_init(&o, ORACLE_E_U32);
  o.lanes = true;
  oracle_compare_result r;
  ll_err e = {0};
  cr_assert_eq(oracle_compare_files(fg, fr, &o, 0, &r, &e), LL_EXIT_FAIL, "%s", e.msg);
  cr_assert(r.from_dump && r.dump_vgprs == 3 && r.n == 2 * 5 * 64);
  cr_assert_eq(r.nfirst, 1);
  cr_assert(r.first[0].wave == 1 && r.first[0].dword == 3 && r.first[0].lane == 5 && r.first[0].got == 7 &&
            r.first[0].ref == 1000 + 300 + 5);
  ll_buf b = {0};
  oracle_compare_text(&r, "g", "r", &b);
  cr_assert(strstr(ll_buf_str(&b), "at wave 1 a0 lane 5"), "%s", b.data);
  ll_buf_free(&b);
  oracle_compare_json(&r, "g", "r", &b);
  cr_assert(strstr(ll_buf_str(&b), "\"register\": \"a0\""), "%s", b.data);
  ll_buf_free(&b);
  cr_assert_eq(oracle_compare_files(fr, fr, &o, 0, &r, &e), LL_EXIT_OK, "%s", e.msg);
  /* refused: a dump against a raw file, other register counts, a 2-byte dtype, --shape */
  uint32_t raw[640] = {0};
  char *fraw = tmpfile_with(raw, sizeof raw), *d3 = dump_json(2, 2, 3, -1, 0, 0), *f3 = tmpfile_with(d3, strlen(d3));
  cr_assert_eq(oracle_compare_files(fg, fraw, &o, 0, &r, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "is a --dump-regs JSON and") && strstr(e.msg, "is not"), "%s", e.msg);
  cr_assert_eq(oracle_compare_files(fg, f3, &o, 0, &r, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "3 VGPRs + 2 AGPRs") && strstr(e.msg, "2 + 3"), "%s", e.msg);
  o.etype = ORACLE_E_F16;
  cr_assert_eq(oracle_compare_files(fg, fr, &o, 0, &r, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "32-bit registers"), "%s", e.msg);
  o.etype = ORACLE_E_F32;
  cr_assert(oracle_compare_shape_parse("640", &o, &e));
  cr_assert_eq(oracle_compare_files(fg, fr, &o, 0, &r, &e), LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "no --shape"), "%s", e.msg);
  /* without --lanes a JSON file is just bytes */
  oracle_compare_opts_init(&o, ORACLE_E_U8);
  cr_assert_eq(oracle_compare_files(fr, fr, &o, 0, &r, &e), LL_EXIT_OK);
  cr_assert_not(r.from_dump);
  unlink(fg); unlink(fr); unlink(fraw); unlink(f3);
  free(fg); free(fr); free(fraw); free(f3); free(dg); free(dr); free(d3);
}

/* fp8 (issue #29): each encoding decodes to the values its definition gives (written here from the
 * OCP FP8 specification 1.0 and LLVM's Float8E4M3FNUZ/Float8E5M2FNUZ: bias, mantissa width, the
 * NaN and infinity codes), and a comparison is of those values, not of the bytes. */
Test(compare, fp8_encodings_decode_to_their_values) {
  const struct { oracle_fp8 k; uint8_t code; double want; } v[] = {
      {ORACLE_FP8_E4M3, 0x7e, 448},        {ORACLE_FP8_E4M3, 0x01, 0x1p-9},  {ORACLE_FP8_E4M3, 0x38, 1.0},
      {ORACLE_FP8_E4M3, 0xb8, -1.0},       {ORACLE_FP8_E4M3, 0x08, 0x1p-6},  {ORACLE_FP8_E5M2, 0x7b, 57344},
      {ORACLE_FP8_E5M2, 0x3c, 1.0},        {ORACLE_FP8_E5M2, 0x01, 0x1p-16}, {ORACLE_FP8_E5M2, 0x7c, INFINITY},
      {ORACLE_FP8_E5M2, 0xfc, -INFINITY},  {ORACLE_FP8_E4M3_FNUZ, 0x7f, 240}, {ORACLE_FP8_E4M3_FNUZ, 0x40, 1.0},
      {ORACLE_FP8_E4M3_FNUZ, 0x01, 0x1p-10}, {ORACLE_FP8_E5M2_FNUZ, 0x7f, 57344}, {ORACLE_FP8_E5M2_FNUZ, 0x40, 1.0},
      {ORACLE_FP8_E5M2_FNUZ, 0x01, 0x1p-17},
  };
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    double got = oracle_fp8_to_f32(v[i].code, v[i].k);
    cr_expect(got == v[i].want, "format %d code 0x%02x: %.9g, want %.9g", v[i].k, v[i].code, got, v[i].want);
    cr_expect_eq(oracle_f32_to_fp8((float)v[i].want, v[i].k), v[i].code, "format %d: %.9g encodes to 0x%02x", v[i].k,
                 v[i].want, oracle_f32_to_fp8((float)v[i].want, v[i].k));
  }
  cr_expect(isnan(oracle_fp8_to_f32(0x7f, ORACLE_FP8_E4M3)) && isnan(oracle_fp8_to_f32(0x80, ORACLE_FP8_E4M3_FNUZ)) &&
            isnan(oracle_fp8_to_f32(0x80, ORACLE_FP8_E5M2_FNUZ)) && isnan(oracle_fp8_to_f32(0x7d, ORACLE_FP8_E5M2)));
  cr_expect_eq(oracle_f32_to_fp8(1000.0f, ORACLE_FP8_E4M3), 0x7e, "saturates at 448");
  cr_expect_eq(oracle_f32_to_fp8(1.0625f, ORACLE_FP8_E4M3), 0x38, "a tie rounds to the even code (1.0)");
  cr_expect_eq(oracle_f32_to_fp8(1.1875f, ORACLE_FP8_E4M3), 0x3a, "a tie rounds to the even code (1.25)");
  /* compared as values: one step apart passes the default tolerance; the bytes differ */
  uint8_t got[3] = {0x38, 0x39, 0x40}, ref[3] = {0x38, 0x38, 0x40}; /* 1.0, 1.125 vs 1.0 */
  oracle_etype t;
  cr_assert(oracle_etype_parse("fp8_e4m3", &t));
  oracle_compare_result res;
  ll_err e = {0};
  double atol, rtol;
  oracle_compare_default_tol(t, &atol, &rtol);
  cr_expect(atol == 0.125 && rtol == 0.125, "the default is one e4m3 step (docs/oracle.md): %g %g", atol, rtol);
  cr_expect_eq(cmp(t, got, 3, ref, 3, NULL, atol, rtol, &res, &e), LL_EXIT_OK, "one e4m3 step is within the default");
  cr_assert(oracle_etype_parse("u8", &t));
  cr_expect_eq(cmp(t, got, 3, ref, 3, NULL, 0, 0, &res, &e), LL_EXIT_FAIL, "the bytes differ");
}

/* i64/u64: exact, bit for bit: two values above 2^53 that one double cannot tell apart differ. */
Test(compare, i64_and_u64_compare_every_bit) {
  int64_t a[2] = {((int64_t)1 << 60) + 1, -5}, b[2] = {((int64_t)1 << 60), -5};
  cr_assert_eq((double)a[0], (double)b[0], "the test needs values a double rounds together");
  oracle_etype t;
  oracle_compare_result res;
  ll_err e = {0};
  cr_assert(oracle_etype_parse("i64", &t));
  cr_expect_eq(oracle_etype_size(t), 8);
  cr_expect_eq(cmp(t, a, 16, b, 16, NULL, 0, 0, &res, &e), LL_EXIT_FAIL);
  cr_expect(res.over == 1 && res.first[0].flat == 0, "%llu over", (unsigned long long)res.over);
  /* the report prints each value from its bits: 2^60 + 1 and 2^60, not one rounded double */
  ll_buf buf = {0};
  oracle_compare_text(&res, "g", "r", &buf);
  cr_expect(strstr(ll_buf_str(&buf), "got 1152921504606846977 ") && strstr(buf.data, "ref 1152921504606846976"), "%s", buf.data);
  ll_buf_free(&buf);
  oracle_compare_json(&res, "g", "r", &buf);
  cr_expect(strstr(ll_buf_str(&buf), "1152921504606846977") && strstr(buf.data, "1152921504606846976"), "%s", buf.data);
  ll_buf_free(&buf);
  /* i64 -5 against -6: negative values sign-extended */
  int64_t n5 = -5, n6 = -6;
  cr_expect_eq(cmp(t, &n5, 8, &n6, 8, NULL, 0, 0, &res, &e), LL_EXIT_FAIL);
  oracle_compare_json(&res, "g", "r", &buf);
  cr_expect(strstr(ll_buf_str(&buf), "-5") && strstr(buf.data, "-6"), "%s", buf.data);
  ll_buf_free(&buf);
  cr_assert(oracle_etype_parse("u64", &t));
  cr_expect_eq(cmp(t, a, 16, a, 16, NULL, 0, 0, &res, &e), LL_EXIT_OK);
  /* u64 past 2^63 (found by fuzz/fuzz_compare: the JSON writer cast the double to int64, undefined
   * there): printed as the unsigned value it is */
  uint64_t big = 0xc0ffee0000000001ull, big2 = 0xc0ffee0000000000ull;
  cr_expect_eq(cmp(t, &big, 8, &big2, 8, NULL, 0, 0, &res, &e), LL_EXIT_FAIL);
  oracle_compare_json(&res, "g", "r", &buf);
  cr_expect(strstr(ll_buf_str(&buf), "13907095858110791681") && strstr(buf.data, "13907095858110791680"), "%s", buf.data);
  ll_buf_free(&buf);
  oracle_compare_text(&res, "g", "r", &buf);
  cr_expect(strstr(ll_buf_str(&buf), "got 13907095858110791681 "), "%s", buf.data);
  ll_buf_free(&buf);
}

/* f32 buffers go by blocks of 64 when every pair of a block is finite and within tolerance
 * (oracle/compare.c f32_block). The same values as f64 go element by element: both must give the
 * same result, and the maxima must sit where the formula of the data puts them. Blocks with a NaN
 * pair, an inf, a mismatch, a zero reference, ties and a tail shorter than a block are all here. */
static uint32_t xs32(uint32_t *s) {
  *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
  return *s;
}
Test(compare, f32_blocks_give_the_element_by_element_result) {
  enum { N = 64 * 40 + 17 };
  static float g[N], r[N];
  static double gd[N], rd[N];
  uint32_t s = 12345;
  for (int i = 0; i < N; i++) {
    uint32_t x = xs32(&s);
    r[i] = (x & 1 ? -1 : 1) * (0.5f + (float)(x >> 8) * 0x1p-25f); /* 0.5 <= |r| < 1 */
    g[i] = r[i] + (float)((int32_t)xs32(&s)) * 0x1p-52f;      /* |d| < 2^-21, relative < 2^-20 */
  }
  /* the largest abs difference three times, twice in block 3 and once in block 30: the first
   * (index 200) is the max */
  r[200] = 0.5f, g[200] = 0.5f + 0x1p-20f;
  r[210] = 0.75f, g[210] = 0.75f - 0x1p-20f;
  r[1930] = -0.5f, g[1930] = -0.5f - 0x1p-20f;
  /* the largest relative one twice in block 10 (ties inside a block): the first, 650 */
  r[650] = 0x1p-10f, g[650] = 0x1p-10f + 0x1p-22f;
  r[660] = 0x1p-10f, g[660] = 0x1p-10f + 0x1p-22f;
  r[700] = 0, g[700] = 0x1p-30f;           /* a zero reference: no relative error, within atol */
  r[1000] = NAN, g[1000] = NAN;            /* agreement, but its block goes element by element */
  r[1100] = 1, g[1100] = INFINITY;         /* a non-finite disagreement */
  r[1500] = 0.25f, g[1500] = 0.75f;        /* over tolerance, abs 0.5: the new abs max */
  r[N - 3] = 0.125f, g[N - 3] = 0.125f;    /* the tail */
  for (int i = 0; i < N; i++) gd[i] = g[i], rd[i] = r[i];
  oracle_compare_result a, b;
  ll_err e = {0};
  cr_assert_eq(cmp(ORACLE_E_F32, g, sizeof g, r, sizeof r, NULL, 1e-5, 1e-5, &a, &e), LL_EXIT_FAIL, "%s", e.msg);
  cr_assert_eq(cmp(ORACLE_E_F64, gd, sizeof gd, rd, sizeof rd, NULL, 1e-5, 1e-5, &b, &e), LL_EXIT_FAIL, "%s", e.msg);
  cr_expect(a.n == N && a.over == 2 && a.nonfinite == 1 && a.inf_vs_finite == 1 && a.nan_both == 1,
            "n %llu over %llu nonfinite %llu nan_both %llu", (unsigned long long)a.n, (unsigned long long)a.over,
            (unsigned long long)a.nonfinite, (unsigned long long)a.nan_both);
  cr_expect(a.max_abs == 0.5 && a.max_abs_at == 1500, "max abs %g at %llu", a.max_abs, (unsigned long long)a.max_abs_at);
  cr_expect(a.first[0].flat == 1100 && a.first[1].flat == 1500);
  cr_expect(a.over == b.over && a.nonfinite == b.nonfinite && a.nan_both == b.nan_both && a.nfirst == b.nfirst);
  cr_expect(a.max_abs == b.max_abs && a.max_abs_at == b.max_abs_at, "%g@%llu vs %g@%llu", a.max_abs,
            (unsigned long long)a.max_abs_at, b.max_abs, (unsigned long long)b.max_abs_at);
  cr_expect(a.max_rel == b.max_rel && a.max_rel_at == b.max_rel_at, "%g@%llu vs %g@%llu", a.max_rel,
            (unsigned long long)a.max_rel_at, b.max_rel, (unsigned long long)b.max_rel_at);
  /* without the two disagreements every block but NaN's is a fast one: the maxima where placed */
  r[1100] = g[1100] = 1, r[1500] = g[1500] = 0.25f;
  for (int i = 0; i < N; i++) gd[i] = g[i], rd[i] = r[i];
  cr_assert_eq(cmp(ORACLE_E_F32, g, sizeof g, r, sizeof r, NULL, 1e-5, 1e-5, &a, &e), LL_EXIT_OK, "%s", e.msg);
  cr_assert_eq(cmp(ORACLE_E_F64, gd, sizeof gd, rd, sizeof rd, NULL, 1e-5, 1e-5, &b, &e), LL_EXIT_OK, "%s", e.msg);
  cr_expect(a.max_abs == 0x1p-20 && a.max_abs_at == 200, "max abs %a at %llu", a.max_abs, (unsigned long long)a.max_abs_at);
  cr_expect(a.max_rel == 0x1p-12 && a.max_rel_at == 650, "max rel %a at %llu", a.max_rel, (unsigned long long)a.max_rel_at);
  cr_expect(a.max_abs == b.max_abs && a.max_abs_at == b.max_abs_at && a.max_rel == b.max_rel &&
            a.max_rel_at == b.max_rel_at && a.nan_both == 1 && b.nan_both == 1);
}
