/* Tests for verify/: the stages `lanelab verify` runs, on both arches, against the kernels that
 * `make kernels` built (LANELAB_BUILD). The lane-dump stage runs every micro-kernel on the
 * emulator and diffs it bit for bit against the lane-map model; these tests check that it passes
 * on correct kernels, that it fails on a wrong one (a real kernel whose seed is wrong), and that
 * results are written. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/verify.h"

static verify_ctx ctx(const char *arch, const char *build, const char *results) {
  verify_ctx c = {.build = build, .results = results, .shapes = "quick", .backend = "emu", .shard_n = 1};
  cr_assert(emu_arch_parse(arch, &c.arch));
  c.arch_name = emu_arch_name(c.arch);
  c.t0 = ll_now();
  verify_quiet = true;
  return c;
}

static char *tmpdir(void) {
  char *d = ll_xstrdup("/tmp/lanelab-verify-XXXXXX");
  cr_assert_not_null(mkdtemp(d));
  return d;
}

static void free_result(stage_result *r) {
  for (size_t i = 0; i < r->ntables; i++) report_table_free(r->tables[i]);
  free(r->tables);
  free(r->device);
}

/* Column index by name, failing the test if absent. */
static size_t col(const report_table *t, const char *name) {
  for (size_t c = 0; c < t->ncols; c++)
    if (strcmp(t->cols[c], name) == 0) return c;
  cr_assert_fail("table '%s' has no column '%s'", t->title, name);
  return 0;
}

static const char *row_of(const report_table *t, const char *kernel, const char *colname) {
  size_t k = col(t, "kernel"), c = col(t, colname);
  for (size_t r = 0; r < t->nrows; r++)
    if (strcmp(report_table_cell(t, r, k), kernel) == 0) return report_table_cell(t, r, c);
  cr_assert_fail("no row for %s", kernel);
  return NULL;
}

static void lanes_pass(const char *arch, size_t want_run) {
  char *res = tmpdir();
  verify_ctx c = ctx(arch, LANELAB_BUILD, res);
  stage_result r = {.v = VERDICT_NOT_RUN};
  verify_stage_lanes(&c, &r);
  cr_assert_eq(r.ntables, 1);
  const report_table *t = r.tables[0];
  size_t ran = 0;
  for (size_t i = 0; i < t->nrows; i++) {
    const char *v = report_table_cell(t, i, col(t, "verdict"));
    cr_expect(strcmp(v, "pass") == 0 || strcmp(v, "not applicable") == 0, "%s %s: %s (%s)", arch,
              report_table_cell(t, i, 0), v, report_table_cell(t, i, col(t, "detail")));
    if (strcmp(v, "pass") == 0) {
      ran++;
      /* a pass is "0/N" with N > 0: something was compared */
      const char *mm = report_table_cell(t, i, col(t, "lane x slot mismatches"));
      cr_expect(strncmp(mm, "0/", 2) == 0 && atoi(mm + 2) > 0, "%s: %s", report_table_cell(t, i, 0), mm);
    }
  }
  cr_assert_eq(r.v, VERDICT_PASS, "%s lanes stage: %s", arch, r.summary);
  cr_assert_eq(ran, want_run, "%s: %zu micro-kernels ran and passed, want %zu", arch, ran, want_run);
  cr_assert(r.device && strcmp(r.device, "emulator") == 0, "device: %s", r.device ? r.device : "(none)");
  /* The seed change's figure, as the lanes stage reports it. */
  if (strcmp(arch, "gfx950") == 0) cr_assert_str_eq(row_of(t, "lane_tr16_solved_seed", "lane x slot mismatches"), "0/256");
  /* Every dump is kept for the report pages. */
  char *dump = ll_fmt("%s/dumps/lane_load_fragment.bin", res);
  struct stat st;
  cr_assert(stat(dump, &st) == 0 && st.st_size == (64 * 2 + 64) * 4, "dump %s", dump);
  free(dump);
  free_result(&r);
  free(res);
}

Test(verify_lanes, every_micro_kernel_matches_the_model_gfx942) { lanes_pass("gfx942", 5); }
Test(verify_lanes, every_micro_kernel_matches_the_model_gfx950) { lanes_pass("gfx950", 11); }

/* The stage must be able to fail: give it a build directory in which one micro-kernel is the real
 * source built as a mutant (kernels/mutants.txt, `make mutants`). The model's expectation is
 * unchanged, so that kernel must fail and only that one. */
static const report_table *run_with_mutant(const char *arch, const char *mutant, const char *kernel,
                                           stage_result *r, char **tmp) {
  char *mut = ll_fmt("%s/%s/mutants/%s/%s.co", LANELAB_BUILD, arch, mutant, kernel);
  size_t n;
  void *co = ll_read_file(mut, &n, NULL);
  cr_assert_not_null(co, "%s is missing: run make mutants", mut);
  char *b = tmpdir(), *kd = ll_fmt("%s/%s/kernels", b, arch), *res = ll_fmt("%s/results", b);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(kd, &e) && ll_mkdir_p(res, &e), "%s", e.msg);
  char *cmd = ll_fmt("cp %s/%s/kernels/*.co %s/", LANELAB_BUILD, arch, kd);
  cr_assert_eq(system(cmd), 0);
  char *dst = ll_fmt("%s/%s.co", kd, kernel);
  cr_assert(ll_write_file_atomic(dst, co, n, &e), "%s", e.msg);
  verify_ctx c = ctx(arch, b, res);
  verify_stage_lanes(&c, r);
  cr_assert_eq(r->v, VERDICT_FAIL, "the lanes stage passed %s built as mutant %s: %s", kernel, mutant, r->summary);
  cr_assert_str_eq(row_of(r->tables[0], kernel, "verdict"), "FAIL");
  free(dst); free(cmd); free(res); free(kd); free(co); free(mut);
  *tmp = b;
  return r->tables[0];
}

/* The CDNA4 V seed left at the load_fragment seed: 240 of 256 slots differ (the figure the model
 * gives for the fragment seed) and the seed addresses differ too. */
Test(verify_lanes, a_wrong_seed_fails_with_the_published_mismatch_count) {
  stage_result r = {.v = VERDICT_NOT_RUN};
  char *b;
  const report_table *t = run_with_mutant("gfx950", "v_seed_fragment", "lane_tr16_solved_seed", &r, &b);
  cr_assert_str_eq(row_of(t, "lane_tr16_solved_seed", "lane x slot mismatches"), "240/256");
  cr_assert_str_neq(row_of(t, "lane_tr16_solved_seed", "seed mismatches"), "0/64");
  cr_assert_str_eq(row_of(t, "lane_tr8", "verdict"), "pass"); /* pinned to the wrong kernel */
  free_result(&r);
  free(b);
}

/* The software transpose with the inter-quad swap (or an intra-quad step) dropped, on gfx942. */
static void broken_transpose(const char *mutant) {
  stage_result r = {.v = VERDICT_NOT_RUN};
  char *b;
  const report_table *t = run_with_mutant("gfx942", mutant, "lane_fragment_transpose", &r, &b);
  const char *mm = row_of(t, "lane_fragment_transpose", "lane x slot mismatches");
  cr_assert(atoi(mm) > 0 && strstr(mm, "/256"), "%s: %s", mutant, mm);
  cr_assert_str_eq(row_of(t, "lane_fragment_transpose", "seed mismatches"), "0/64"); /* same seed, wrong shuffles */
  cr_assert_str_eq(row_of(t, "lane_load_fragment", "verdict"), "pass");
  free_result(&r);
  free(b);
}
Test(verify_lanes, transpose_without_the_swap_fails) { broken_transpose("transpose_no_swap"); }
Test(verify_lanes, transpose_without_a_quad_step_fails) { broken_transpose("transpose_no_quad_step"); }

Test(verify_model, seed_facts_hold_on_both_arches) {
  for (int a = 0; a < EMU_NARCH; a++) {
    char *res = tmpdir();
    verify_ctx c = ctx(emu_arch_name((emu_arch)a), LANELAB_BUILD, res);
    for (size_t i = 0; i < verify_nstages; i++) {
      if (strcmp(verify_stages[i].name, "model")) continue;
      stage_result r = {.v = VERDICT_NOT_RUN};
      verify_stages[i].run(&c, &r);
      cr_assert_eq(r.v, VERDICT_PASS, "%s: %s", c.arch_name, r.summary);
      cr_assert(r.ntables == 1 && r.tables[0]->nrows >= 4, "%s: too few model checks", c.arch_name);
      free_result(&r);
    }
    free(res);
  }
}

/* verify_arch writes one JSON per stage and a summary, and the summary names the worst verdict. */
Test(verify_run, writes_stage_results_and_summary) {
  char *b = tmpdir();
  /* no kernels in this build dir: the kernels stage must fail (missing), never pass */
  verify_ctx c = ctx("gfx942", b, NULL);
  report_table *sum = report_table_new("t", "arch,stage,verdict,seconds#,summary");
  int v = verify_arch(&c, sum);
  cr_assert_eq(v, VERDICT_FAIL, "verify of an empty build passed (verdict %d)", v);
  char *sp = ll_fmt("%s/results/gfx942/summary.json", b);
  ll_err e = {0};
  ll_json *j = ll_json_parse_file(sp, &e);
  cr_assert_not_null(j, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(j, "verdict")->str, "FAIL");
  ll_json *st = ll_json_get(j, "stages");
  cr_assert(st && st->n >= 6);
  for (size_t i = 0; i < st->n; i++) {
    const char *name = ll_json_get(st->items[i], "stage")->str;
    char *p = ll_fmt("%s/results/gfx942/%s.json", b, name);
    ll_json *s = ll_json_parse_file(p, &e);
    cr_assert_not_null(s, "%s: %s", p, e.msg);
    cr_assert_str_eq(ll_json_get(s, "verdict")->str, ll_json_get(st->items[i], "verdict")->str);
    ll_json_free(s);
    free(p);
  }
  ll_json_free(j);
  report_table_free(sum);
  free(sp);
  free(b);
}

/* CLI contract: bad usage is exit 2 naming the problem. */
Test(verify_cli, bad_usage_is_exit_2) {
  const char *bad[] = {"verify", "verify --arch gfx900", "verify --arch all --shapes huge",
                       "verify --arch all --shard 3/3", "verify --arch all --backend cuda", "verify --arch all extra"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *cmd = ll_fmt("%s/lanelab -q %s >/dev/null 2>&1", LANELAB_BUILD, bad[i]);
    int rc = system(cmd);
    cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "'lanelab %s' exited %d, want 2", bad[i], WEXITSTATUS(rc));
    free(cmd);
  }
}

/* ---- --shard I/N ---------------------------------------------------------------------------
 * Every case-level loop honours verify_in_shard: running shards 0/N .. N-1/N of a stage must run
 * every case of the unsharded run exactly once. Case names are read from the stage's tables
 * (column 0 of the tables whose title starts with `prefix`); the full list comes from the
 * matrix itself (prod) or from the unsharded run (lanes, mutants). */
#include "verify/prod.h"

typedef void (*stage_fn)(const verify_ctx *, stage_result *);

/* names in column 0 of the tables titled prefix*, appended to *names */
static void collect(const stage_result *r, const char *const *prefixes, size_t np, char ***names, size_t *n) {
  for (size_t i = 0; i < r->ntables; i++) {
    bool want = false;
    for (size_t k = 0; k < np; k++) want = want || strncmp(r->tables[i]->title, prefixes[k], strlen(prefixes[k])) == 0;
    if (!want) continue;
    for (size_t j = 0; j < r->tables[i]->nrows; j++) {
      *names = ll_xrealloc(*names, (*n + 1) * sizeof **names);
      (*names)[(*n)++] = ll_xstrdup(report_table_cell(r->tables[i], j, 0));
    }
  }
}

static size_t count_of(char **names, size_t n, const char *s) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += strcmp(names[i], s) == 0;
  return c;
}

/* Runs stage `fn` on arch as shards 0..N-1 of N and checks the union against `want` (nwant
 * names, each exactly once); every shard must run at least one case. */
static void shards_cover(const char *arch, stage_fn fn, const char *const *prefixes, size_t np, uint32_t N,
                         char **want, size_t nwant) {
  char **got = NULL;
  size_t ngot = 0;
  for (uint32_t i = 0; i < N; i++) {
    char *res = tmpdir();
    verify_ctx c = ctx(arch, LANELAB_BUILD, res);
    c.shard_i = i;
    c.shard_n = N;
    stage_result r = {.v = VERDICT_NOT_RUN};
    fn(&c, &r);
    cr_assert_eq(r.v, VERDICT_PASS, "%s shard %u/%u: %s", arch, i, N, r.summary);
    size_t before = ngot;
    collect(&r, prefixes, np, &got, &ngot);
    cr_assert_gt(ngot, before, "%s shard %u/%u ran no case", arch, i, N);
    free_result(&r);
    free(res);
  }
  cr_assert_eq(ngot, nwant, "%s: %zu cases over %u shards, want %zu", arch, ngot, N, nwant);
  for (size_t i = 0; i < nwant; i++)
    cr_assert_eq(count_of(got, ngot, want[i]), 1, "%s: case %s ran %zu times over %u shards", arch, want[i],
                 count_of(got, ngot, want[i]), N);
  for (size_t i = 0; i < ngot; i++) free(got[i]);
  free(got);
}

static const char *const prod_tables[] = {"prefill attention vs oracle", "concat_mla_q vs oracle"};

static void prod_shards(const char *arch) {
  size_t n = 0, nc = 0;
  const prod_case *pc = prod_matrix("quick", &n);
  const prod_concat_case *cc = prod_concat_matrix("quick", &nc);
  cr_assert(pc && cc && n > 3 && nc > 0);
  char **want = ll_xcalloc(n + nc, sizeof *want);
  for (size_t i = 0; i < n; i++) want[i] = (char *)pc[i].name;
  for (size_t i = 0; i < nc; i++) want[n + i] = (char *)cc[i].name;
  shards_cover(arch, verify_stage_prod, prod_tables, 2, 2, want, n + nc);
  shards_cover(arch, verify_stage_prod, prod_tables, 2, 3, want, n + nc);
  free(want);
}
Test(verify_shard, prod_quick_matrix_split_2_and_3_gfx942) { prod_shards("gfx942"); }
Test(verify_shard, prod_quick_matrix_split_2_and_3_gfx950) { prod_shards("gfx950"); }

/* The lanes and mutants stages: the unsharded run gives the case list. */
static void stage_shards(const char *arch, const char *stage, const char *prefix) {
  stage_fn fn = NULL;
  for (size_t i = 0; i < verify_nstages; i++)
    if (strcmp(verify_stages[i].name, stage) == 0) fn = verify_stages[i].run;
  cr_assert_not_null(fn, "no stage %s", stage);
  char *res = tmpdir();
  verify_ctx c = ctx(arch, LANELAB_BUILD, res);
  stage_result r = {.v = VERDICT_NOT_RUN};
  fn(&c, &r);
  cr_assert_eq(r.v, VERDICT_PASS, "%s %s: %s", arch, stage, r.summary);
  char **want = NULL;
  size_t nwant = 0;
  collect(&r, &prefix, 1, &want, &nwant);
  cr_assert_geq(nwant, 3, "%s %s: %zu cases", arch, stage, nwant);
  free_result(&r);
  free(res);
  shards_cover(arch, fn, &prefix, 1, 2, want, nwant);
  shards_cover(arch, fn, &prefix, 1, 3, want, nwant);
  for (size_t i = 0; i < nwant; i++) free(want[i]);
  free(want);
}
Test(verify_shard, lanes_and_mutants_split_2_and_3_gfx950) {
  stage_shards("gfx950", "lanes", "micro-kernel lane dumps");
  stage_shards("gfx950", "mutants", "deliberate-mismatch mutants");
}
