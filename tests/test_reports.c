/* Tests for reports/: the verify report generator, from fixture results written here (same shape
 * as verify/run.c writes), and the pages rendered in headless Chromium.
 *
 * Independent expectations: the lane-map cells of lane 0 and 17 come from the microabi seeds as
 * written in lanes.h / docs/changes.md (load_fragment: row L%16, chunk L/16; tr_b16 solved seed: lane 0
 * holds tags {0,16,32,48}); the mismatch cells are exactly the slots this test corrupts in the
 * fixture dump; verdicts, counts and values are the fixture's. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lanes/lanes.h"
#include "reports/report.h"
#include "reports/tile.h"
#include "tests/tmpdir.h"
#include "util/util.h"

/* ---- helpers ---------------------------------------------------------------------------------*/
static char *mktmp(void) {
  return tt_dir("reports");
}

static void put(const char *dir, const char *rel, const char *text) {
  char *p = ll_path_join(dir, rel), *d = ll_dirname(p);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(d, &e), "%s", e.msg);
  cr_assert(ll_write_file_atomic(p, text, strlen(text), &e), "%s", e.msg);
  free(d);
  free(p);
}
/* put() a malloc'd text and free it. */
static void put_free(const char *dir, const char *rel, char *text) {
  put(dir, rel, text);
  free(text);
}

static char *slurp(const char *dir, const char *rel) {
  char *p = ll_path_join(dir, rel);
  size_t n;
  ll_err e = {0};
  char *s = ll_read_file(p, &n, &e);
  cr_assert_not_null(s, "expected file %s: %s", p, e.msg);
  char *z = ll_xcalloc(n + 1, 1);
  memcpy(z, s, n);
  free(s);
  free(p);
  return z;
}

static bool exists(const char *dir, const char *rel) {
  char *p = ll_path_join(dir, rel);
  struct stat st;
  bool ok = stat(p, &st) == 0 && st.st_size > 0;
  free(p);
  return ok;
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

static void rm_rf(const char *dir) {
  char *cmd = ll_fmt("rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
  free(cmd);
}

static void write_dump(const char *dir, const char *rel, const uint32_t *dw, size_t ndw_total, const uint32_t *addr) {
  ll_buf b = {0};
  for (size_t i = 0; i < ndw_total; i++) {
    uint8_t x[4] = {(uint8_t)dw[i], (uint8_t)(dw[i] >> 8), (uint8_t)(dw[i] >> 16), (uint8_t)(dw[i] >> 24)};
    ll_buf_put(&b, x, 4);
  }
  for (int l = 0; l < 64; l++) {
    uint8_t x[4] = {(uint8_t)addr[l], (uint8_t)(addr[l] >> 8), (uint8_t)(addr[l] >> 16), (uint8_t)(addr[l] >> 24)};
    ll_buf_put(&b, x, 4);
  }
  char *p = ll_path_join(dir, rel), *d = ll_dirname(p);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(d, &e) && ll_write_file_atomic(p, b.data, b.len, &e), "%s", e.msg);
  free(d);
  free(p);
  ll_buf_free(&b);
}

/* The slots the fixture corrupts in lane_load_fragment's dump: (lane, slot). */
static const int corrupt[][2] = {{5, 0}, {17, 3}, {63, 1}};
#define NCORRUPT 3
#define SEED_BAD_LANE 40

static char *stage_json(const char *stage, const char *verdict, const char *summary, const char *device,
                              const char *tables) {
  return ll_fmt("{\n  \"generated_by\": \"lanelab verify; do not edit\",\n  \"arch\": \"gfx950\",\n  \"stage\": \"%s\",\n"
                "  \"what\": \"fixture %s\",\n  \"verdict\": \"%s\",\n  \"summary\": \"%s\",\n  \"device\": %s,\n"
                "  \"shapes\": \"quick\",\n  \"seconds\": 0.25,\n  \"tables\": [%s]\n}\n",
                stage, stage, verdict, summary, device, tables);
}

/* A results directory for gfx950: lanes FAILs (3 corrupted slots, 1 wrong seed address in
 * lane_load_fragment), prod did not run, base has no file, mutants has four rows. */
static void fixture(const char *build) {
  /* PNG pictures cost a Chromium run each: only the tests about them render them */
  setenv("LANELAB_PNG", "0", 1);
  char *r = ll_fmt("%s/results/gfx950", build);
  put(r, "summary.json",
      "{\"arch\": \"gfx950\", \"shapes\": \"quick\", \"stages\": ["
      "{\"stage\": \"model\", \"verdict\": \"pass\", \"summary\": \"2 model checks passed\", \"device\": null, \"seconds\": 0.1},"
      "{\"stage\": \"kernels\", \"verdict\": \"pass\", \"summary\": \"k\", \"device\": null, \"seconds\": 0.1},"
      "{\"stage\": \"isa\", \"verdict\": \"pass\", \"summary\": \"i\", \"device\": null, \"seconds\": 0.1},"
      "{\"stage\": \"lanes\", \"verdict\": \"FAIL\", \"summary\": \"l\", \"device\": \"emulator\", \"seconds\": 0.1},"
      "{\"stage\": \"prod\", \"verdict\": \"not run\", \"summary\": \"p\", \"device\": null, \"seconds\": 0},"
      "{\"stage\": \"mutants\", \"verdict\": \"pass\", \"summary\": \"m\", \"device\": \"emulator\", \"seconds\": 0.1}],"
      " \"verdict\": \"FAIL\"}\n");
  put_free(r, "model.json", stage_json("model", "pass", "2 model checks passed", "null",
      "{\"title\": \"lane-map model checks\", \"columns\": [\"check\", \"expected\", \"got\", \"result\"], \"rows\": ["
      "{\"check\": \"a, with comma\", \"expected\": \"{0,16,32,48}\", \"got\": \"{0,16,32,48}\", \"result\": \"pass\"},"
      "{\"check\": \"b | pipe \\\"q\\\"\", \"expected\": \"x\", \"got\": \"x\", \"result\": \"pass\"}]}"));
  put_free(r, "kernels.json", stage_json("kernels", "pass", "11 kernels built", "null", ""));
  put_free(r, "isa.json", stage_json("isa", "pass", "budgets passed", "null",
      "{\"title\": \"census build/gfx950/kernels/lane_tr8.co\", \"columns\": [\"mnemonic\", \"count\"], \"rows\": ["
      "{\"mnemonic\": \"ds_read_b64_tr_b8\", \"count\": 1}, {\"mnemonic\": \"s_endpgm\", \"count\": 1}]},"
      "{\"title\": \"dynamic instruction counts\", \"columns\": [\"kernel\", \"executed\"], \"rows\": ["
      "{\"kernel\": \"lane_tr8\", \"executed\": 37}]}"));
  char *lt = ll_fmt(
      "{\"title\": \"micro-kernel lane dumps against the lane-map model\", \"columns\": [\"kernel\", \"expected from\", "
      "\"lane x slot mismatches\", \"seed mismatches\", \"verdict\", \"detail\"], \"rows\": ["
      "{\"kernel\": \"lane_load_fragment\", \"expected from\": \"lanes model\", \"lane x slot mismatches\": \"%d/256\", "
      "\"seed mismatches\": \"1/64\", \"verdict\": \"FAIL\", \"detail\": \"fixture\"},"
      "{\"kernel\": \"lane_tr16_solved_seed\", \"expected from\": \"lanes model\", \"lane x slot mismatches\": \"0/256\", "
      "\"seed mismatches\": \"0/64\", \"verdict\": \"pass\", \"detail\": \"fixture\"}]}", NCORRUPT);
  put_free(r, "lanes.json", stage_json("lanes", "FAIL", "1 of 2 micro-kernels differ", "\"emulator\"", lt));
  put_free(r, "prod.json", stage_json("prod", "not run", "production kernels vs oracle not built yet (issue #5)", "null", ""));
  put_free(r, "mutants.json", stage_json("mutants", "pass", "3 mutants fail by a margin", "\"emulator\"",
      /* atol_over_noise is a ratio: the plot must leave it out (it once stood on the error axis) */
      "{\"title\": \"A/B mutants\", \"columns\": [\"mutant\", \"max abs err\", \"tolerance\", \"atol_over_noise\", \"verdict\"], \"rows\": ["
      "{\"mutant\": \"correct\", \"max abs err\": 0.002, \"tolerance\": 0.01, \"atol_over_noise\": 5, \"verdict\": \"pass\"},"
      "{\"mutant\": \"cdna4_seed_wrong\", \"max abs err\": 1.41, \"tolerance\": 0.01, \"atol_over_noise\": 5, \"verdict\": \"pass\"},"
      "{\"mutant\": \"cdna4_seed_wrong_paged\", \"max abs err\": 2.29, \"tolerance\": 0.01, \"atol_over_noise\": 5, \"verdict\": \"pass\"},"
      "{\"mutant\": \"no_effect\", \"max abs err\": 0, \"tolerance\": 0.01, \"atol_over_noise\": 5, \"verdict\": \"FAIL\"}]}"));
  /* dumps: lane_load_fragment corrupted, lane_tr16_solved_seed exact, the rest absent */
  uint8_t img[4096];
  size_t n;
  uint32_t want[64 * 4], addr[64];
  int ndw;
  ll_err e = {0};
  cr_assert(lanes_kernel_image("lane_load_fragment", img, sizeof img, &n, &e), "%s", e.msg);
  cr_assert(lanes_expected_dump("lane_load_fragment", LANES_GFX950, img, n, want, addr, &ndw, &e), "%s", e.msg);
  cr_assert_eq(ndw, 2);
  for (int i = 0; i < NCORRUPT; i++) {
    int L = corrupt[i][0], s = corrupt[i][1]; /* 16-bit slot s: dword s/2, half s%2 */
    want[L * 2 + s / 2] ^= 0x5555u << (16 * (s % 2));
  }
  addr[SEED_BAD_LANE] += 8;
  write_dump(r, "dumps/lane_load_fragment.bin", want, 128, addr);
  cr_assert(lanes_kernel_image("lane_tr16_solved_seed", img, sizeof img, &n, &e), "%s", e.msg);
  cr_assert(lanes_expected_dump("lane_tr16_solved_seed", LANES_GFX950, img, n, want, addr, &ndw, &e), "%s", e.msg);
  write_dump(r, "dumps/lane_tr16_solved_seed.bin", want, 128, addr);
  /* MFMA probe: the dump holds f32 values, verify's expectation one differing value at lane 18, VGPR 2 */
  float fv[64 * 4];
  uint32_t got[64 * 4], exp_[64 * 4], a4[64];
  for (int i = 0; i < 64 * 4; i++) fv[i] = (float)(i % 17) - 8.0f;
  memcpy(got, fv, sizeof got);
  memcpy(exp_, fv, sizeof exp_);
  fv[0] = 100.0f;
  memcpy(&exp_[18 * 4 + 2], &fv[0], 4);
  for (int l = 0; l < 64; l++) a4[l] = 16u * (uint32_t)l;
  write_dump(r, "dumps/lane_mfma_16x16x16_f16.bin", got, 256, a4);
  write_dump(r, "dumps/lane_mfma_16x16x16_f16.expected.bin", exp_, 256, a4);
  free(lt);
  free(r);
}

static char *report_dir(const char *build) { return ll_fmt("%s/reports/gfx950", build); }

static void generate(const char *build) {
  ll_err e = {0};
  cr_assert(report_write_arch(build, "gfx950", &e), "report_write_arch: %s", e.msg);
  cr_assert(report_write_index(build, &e), "report_write_index: %s", e.msg);
}

/* ---- verdicts on the index ---------------------------------------------------------------------*/
Test(reports, index_shows_verdicts_and_not_run_as_not_run) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *idx = slurp(rd, "index.html");
  cr_assert(strstr(idx, "data-stage=\"lanes\" data-verdict=\"FAIL\""));
  cr_assert(strstr(idx, "data-stage=\"model\" data-verdict=\"pass\""));
  cr_assert(strstr(idx, "data-stage=\"prod\" data-verdict=\"not run\"><td>prod</td><td class=\"notrun\">NOT RUN</td>"),
            "prod must be shown as NOT RUN");
  /* base was not asked for (no --base): listed as not requested, neither a pass nor "not run" */
  cr_assert(strstr(idx, "data-stage=\"base\" data-verdict=\"not requested\"><td>base</td><td class=\"notrun\">not requested</td>"),
            "%s", idx);
  cr_assert_eq(count(idx, "<tr class=\"stage\""), 7);
  cr_assert(strstr(idx, "id=\"overall\">FAIL<"));
  cr_assert(strstr(idx, "1 stage did not run (prod)"));
  cr_assert(strstr(idx, "emulator"), "device shown");
  cr_assert(strstr(idx, "dynamic instruction counts"));
  cr_assert(strstr(idx, "href=\"lane-lane_load_fragment.html\""));
  cr_assert(strstr(idx, "href=\"mfma.html\""));
  cr_assert_eq(count(idx, "http://") + count(idx, "https://"), 0, "no external assets");
  char *top = slurp(b, "reports/index.html");
  cr_assert(strstr(top, "data-arch=\"gfx950\"><td>gfx950</td><td class=\"fail\">FAIL</td>"));
  cr_assert(strstr(top, "href=\"gfx950/index.html\""));
  cr_assert(strstr(top, "<a href=\"mfma/index.html\">MFMA layouts</a>"), "the shared layout pages are linked");
  char *prod = slurp(rd, "stage-prod.html");
  cr_assert(strstr(prod, ">NOT RUN<"));
  cr_assert_null(strstr(prod, ">pass<"));
  free(prod); free(top); free(idx); free(rd);
  rm_rf(b);
  free(b);
}

Test(reports, nothing_ran_is_not_run_everywhere) {
  char *b = mktmp();
  char *r = ll_fmt("%s/results/gfx942", b);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(r, &e));
  cr_assert(report_write_arch(b, "gfx942", &e), "%s", e.msg);
  char *rd = ll_fmt("%s/reports/gfx942", b);
  char *idx = slurp(rd, "index.html");
  cr_assert_eq(count(idx, "<td class=\"notrun\">NOT RUN</td>"), 7, "all seven stages not run");
  cr_assert(strstr(idx, "NOT RUN (no summary.json"));
  cr_assert_null(strstr(idx, "class=\"pass\""));
  char *lp = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert(strstr(lp, "no dump (stage not run)"));
  cr_assert_eq(count(lp, "<tr class=\"lane"), 64, "the model's expected grid is still shown");
  cr_assert_eq(count(lp, "mismatch\" data-ls"), 0);
  /* tr reads do not exist on gfx942: the page says so */
  char *tr = slurp(rd, "lane-lane_tr8.html");
  cr_assert(strstr(tr, "not applicable on gfx942"));
  free(tr); free(lp); free(idx); free(rd); free(r);
  rm_rf(b);
  free(b);
}

Test(reports, stale_stage_files_are_not_shown_as_results) {
  char *b = mktmp();
  fixture(b);
  /* an earlier verify --base left base.json; the last run (summary.json) did not run base */
  put_free(b, "results/gfx950/base.json", stage_json("base", "pass", "15 code objects byte-identical", "null", ""));
  /* the last run could not write kernels.json: summary.json says error, the file says pass */
  char *sj = slurp(b, "results/gfx950/summary.json");
  char *k = strstr(sj, "\"stage\": \"kernels\", \"verdict\": \"pass\"");
  cr_assert_not_null(k);
  memcpy(strstr(k, "\"pass\""), "\"FAIL\"", 6);
  put(b, "results/gfx950/summary.json", sj);
  generate(b);
  char *rd = report_dir(b);
  char *idx = slurp(rd, "index.html");
  cr_assert(strstr(idx, "data-stage=\"base\" data-verdict=\"not requested\"><td>base</td><td class=\"notrun\">not requested</td>"));
  cr_assert(strstr(idx, "is from an earlier run and is not shown as a result"));
  cr_assert(strstr(idx, "data-stage=\"kernels\" data-verdict=\"error\""));
  cr_assert(strstr(idx, "summary.json says &quot;FAIL&quot;"));
  free(idx); free(rd); free(sj);
  rm_rf(b);
  free(b);
}

/* ---- lane-map page ----------------------------------------------------------------------------*/
Test(reports, lanemap_highlights_exactly_the_corrupted_cells) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *p = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert_eq(count(p, "<tr class=\"lane"), 64);
  cr_assert_eq(count(p, "<td class=\"got mismatch\""), NCORRUPT);
  for (int i = 0; i < NCORRUPT; i++) {
    char *want = ll_fmt("<td class=\"got mismatch\" data-ls=\"%d.%d\"", corrupt[i][0], corrupt[i][1]);
    cr_assert(strstr(p, want), "missing highlighted cell %s", want);
    free(want);
  }
  cr_assert_eq(count(p, "class=\"seed-mismatch\""), 1);
  cr_assert(strstr(p, "data-lane=\"40\""));
  /* lane 0 holds row 0, cols 0..3; lane 17 row 1, cols 4..7 (seed row L%16, chunk L/16) */
  /* a slot whose dump equals the model's is one cell across the exp/got columns */
  cr_assert(strstr(p, "data-lane=\"0\"><td class=\"lanecol\">0</td><td>0</td><td>0</td><td>0,0</td>"
                      "<td colspan=\"2\">0,0</td><td colspan=\"2\">0,1</td>"), "lane 0 row");
  cr_assert(strstr(p, "<td>1,4</td><td colspan=\"2\">1,4</td><td colspan=\"2\">1,5</td><td colspan=\"2\">1,6</td>"
                      "<td class=\"exp\">1,7</td><td class=\"got mismatch\" data-ls=\"17.3\""), "lane 17 row");
  cr_assert_eq(count(p, "<td colspan=\"2\">"), 64 * 4 - NCORRUPT, "every other slot matched");
  cr_assert(strstr(p, "row = L%16, col = 4*(L/16)"), "fitted closed form of the fragment seed");
  cr_assert(strstr(p, "data-mismatches=\"3\""));
  cr_assert(strstr(p, "(agrees with verify)"));
  cr_assert(strstr(p, "tr.lane=64;td.mismatch=3;td.seed-mismatch=1"));
  /* solved seed page: lane 0 holds tags {0,16,32,48} = (0,0),(1,0),(2,0),(3,0); closed form from docs/changes.md */
  char *s = slurp(rd, "lane-lane_tr16_solved_seed.html");
  cr_assert(strstr(s, "<td colspan=\"2\">0,0</td><td colspan=\"2\">1,0</td><td colspan=\"2\">2,0</td>"
                      "<td colspan=\"2\">3,0</td></tr>"));
  cr_assert(strstr(s, "row = 4*(L/16) + (L%16)/4, col = 4*(L%4)"));
  cr_assert_eq(count(s, "mismatch\" data-ls"), 0);
  /* a dump older than the last lanes stage run (left by an earlier verify) is not shown as this run's */
  free(s);
  struct timeval old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
  char *dp = ll_fmt("%s/results/gfx950/dumps/lane_tr16_solved_seed.bin", b);
  cr_assert_eq(utimes(dp, old), 0);
  free(dp);
  generate(b);
  s = slurp(rd, "lane-lane_tr16_solved_seed.html");
  cr_assert(strstr(s, "is older than the last lanes stage run"));
  cr_assert_null(strstr(s, "data-mismatches="), "a stale dump is not compared");
  /* a kernel with no dump says so */
  char *t8 = slurp(rd, "lane-lane_tr8.html");
  cr_assert(strstr(t8, "no dump (stage not run)"));
  /* the grid is exported too; its CSV has a header and 64 lanes */
  char *csv = slurp(rd, "tables/lane-lane_load_fragment.csv");
  cr_assert_eq(count(csv, "\n"), 65);
  free(csv); free(t8); free(s); free(p); free(rd);
  rm_rf(b);
  free(b);
}

Test(reports, mfma_probe_page_names_d_elements_and_uses_verify_expectation) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *p = slurp(rd, "lane-lane_mfma_16x16x16_f16.html");
  cr_assert_eq(count(p, "<tr class=\"lane"), 64);
  cr_assert_eq(count(p, "got mismatch\""), 1);
  /* D(6,2) of 16x16x16 sits in lane j + 16*(i/4) = 18, VGPR i%4 = 2 (ISA 7.1.4) */
  cr_assert(strstr(p, "<td class=\"exp\">6,2=100</td><td class=\"got mismatch\" data-ls=\"18.2\""), "lane 18 VGPR 2");
  cr_assert(strstr(p, "dumps/lane_mfma_16x16x16_f16.expected.bin (saved by verify)"));
  /* without a saved expectation: the D element is named, nothing compared */
  char *x = slurp(rd, "lane-lane_mfma_32x32x8_f16.html");
  cr_assert(strstr(x, "no dump (stage not run)"));
  char *xl = slurp(rd, "lane-lane_xlane.html");
  cr_assert(strstr(xl, "no dump (stage not run)"));
  free(xl); free(x); free(p); free(rd);
  rm_rf(b);
  free(b);
}

/* ---- tile pictures and mismatch patterns ----------------------------------------------------*/
/* The picture element whose hover title is `title` is drawn in `lane`'s colour. */
static bool elem_is(const char *page, const char *title, int lane) {
  char *needle = ll_fmt("><title>%s</title></rect>", title);
  const char *t = strstr(page, needle);
  free(needle);
  if (!t) return false;
  while (t > page && strncmp(t, "<rect ", 6)) t--;
  char *cls = ll_fmt("<rect class=\"e l%d\" ", lane);
  bool ok = !strncmp(t, cls, strlen(cls));
  free(cls);
  return ok;
}

/* The corrupted slots of lane_load_fragment sit, at the fragment seed (lane L reads row L%16 from
 * column 4*(L/16), slot s is column +s), on these tile elements: each gets a red outline in the
 * picture and nothing else does. */
Test(reports, lanemap_picture_outlines_exactly_the_corrupted_elements) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *p = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert(strstr(p, "<svg class=\"tile\" id=\"tile\""), "inline tile picture");
  cr_assert(strstr(p, "data-elements=\"256\""), "the 16 x 16 f16 elements read, cropped from the 16 x 64 region");
  cr_assert_eq(count(p, "<rect class=\"e "), 256);
  cr_assert_eq(count(p, " bad\" data-rc="), NCORRUPT);
  for (int i = 0; i < NCORRUPT; i++) {
    int L = corrupt[i][0], s = corrupt[i][1];
    char *rc = ll_fmt(" bad\" data-rc=\"%d,%d\"><title>row=%d col=%d: held by no lane; expected L%d.%d[%d]", L % 16,
                      4 * (L / 16) + s, L % 16, 4 * (L / 16) + s, L, s / 2, s % 2);
    cr_assert(strstr(p, rc), "red outline with the expected owner on %s", rc);
    free(rc);
  }
  /* lane 17, VGPR 0, upper half: element (1, 5) */
  cr_assert(elem_is(p, "row=1 col=5: L17.0[1]", 17), "element (1,5) is lane 17's");
  cr_assert_eq(count(p, "<rect class=\"sw l"), 64, "legend: one swatch per lane");
  cr_assert(strstr(p, "<g class=\"legend\">"));
  cr_assert(exists(rd, "pictures/lane-lane_load_fragment.svg"), "standalone SVG beside the page");
  char *sv = slurp(rd, "pictures/lane-lane_load_fragment.svg");
  cr_assert(strstr(sv, "xmlns=\"http://www.w3.org/2000/svg\""));
  cr_assert_eq(count(sv, " bad\" data-rc="), NCORRUPT);
  /* heatmap: one red cell per corrupted slot; pattern line names them */
  cr_assert_eq(count(p, "<rect class=\"hm bad\""), NCORRUPT);
  cr_assert(strstr(p, "id=\"pattern\">pattern: 3/256 wrong: lanes "), "scattered mismatches are listed");
  free(sv); free(p); free(rd);
  rm_rf(b);
  free(b);
}

/* verify's console summary of the fixture (lanes FAIL): the corrupted lane 5 slot 0 held tag
 * 16*5 + 0 = 0x50 at the fragment seed, the dump 0x50 ^ 0x5555 */
Test(reports, console_summary_names_stage_kernel_first_mismatch_and_page) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  ll_buf o = {0};
  ll_err e = {0};
  cr_assert(report_failure_summary(b, "gfx950", &o, &e), "%s", e.msg);
  const char *s = ll_buf_str(&o);
  cr_assert_leq(count(s, "\n"), 10, "fits in 10 lines:\n%s", s);
  cr_assert(strstr(s, "lanelab verify: FAIL gfx950: stage lanes\n"), "%s", s);
  cr_assert(strstr(s, "  kernel lane_load_fragment\n"), "%s", s);
  cr_assert(strstr(s, "  first mismatch: lane 5 slot 0: expected 0x50 (5,0), got 0x5505 (?5505)\n"), "%s", s);
  cr_assert(strstr(s, "  pattern: 3/256 wrong: lanes 5,17,63, slots 0\u20131,3\n"), "%s", s);
  char *page = ll_fmt("  open: %s/reports/gfx950/lane-lane_load_fragment.html\n", b);
  cr_assert(strstr(s, page), "%s", s);
  free(page);
  ll_buf_free(&o);
  /* an arch that passed prints nothing */
  put(b, "results/gfx950/summary.json", "{\"arch\": \"gfx950\", \"shapes\": \"quick\", \"stages\": [], \"verdict\": \"pass\"}\n");
  ll_buf p = {0};
  cr_assert(report_failure_summary(b, "gfx950", &p, &e), "%s", e.msg);
  cr_assert_eq(p.len, 0, "%s", ll_buf_str(&p));
  ll_buf_free(&p);
  /* the Details link for dynamic counts points at that table itself */
  char *rd = report_dir(b);
  char *idx = slurp(rd, "index.html");
  cr_assert(strstr(idx, "<a class=\"dyn\" href=\"stage-isa.html#t-isa-dynamic-instruction-counts\">dynamic instruction "
                        "counts: dynamic instruction counts</a>"));
  cr_assert_eq(count(idx, "class=\"dyn\""), 1, "the census table is not labelled as dynamic counts");
  char *st = slurp(rd, "stage-isa.html");
  cr_assert(strstr(st, "id=\"t-isa-dynamic-instruction-counts\""), "the link's target exists");
  free(st); free(idx); free(rd);
  rm_rf(b);
  free(b);
}

Test(reports, tile_picture_counts_owners_and_marks) {
  ll_err e = {0};
  cr_assert_null(report_tile_new("x", 0, 4, "r", "c", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  report_tile *t = report_tile_new("B", 4, 3, "k", "n", &e);
  cr_assert_not_null(t);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++) {
      report_tile_own(t, r, c, 16 * c + r, r / 2, r % 2);
      if (r != 2 || c != 1) report_tile_expect(t, r, c, 16 * c + r, r / 2, r % 2);
    }
  report_tile_expect(t, 2, 1, 5, 0, 0);        /* owner 18 != expected 5 */
  report_tile_expect(t, 2, 1, 18, 1, 0);       /* a second expectation does not replace the first */
  report_tile_mark(t, 3, 2, "want 0x1 got 0x2"); /* value mismatch, same owner */
  cr_assert(!report_tile_own(t, 4, 0, 1, 0, 0), "out of range ignored");
  cr_assert_eq(report_tile_mismatches(t), 2);
  ll_buf b = {0};
  report_tile_svg(t, "pic", &b);
  const char *s = ll_buf_str(&b);
  cr_assert_eq(count(s, "<rect class=\"e "), 12);
  cr_assert_eq(count(s, " bad\""), 2);
  cr_assert(strstr(s, "<rect class=\"e l18 bad\" data-rc=\"2,1\"><title>k=2 n=1: L18.1[0]; expected L5.0[0]</title>"));
  cr_assert(strstr(s, "<rect class=\"e l35 bad\" data-rc=\"3,2\"><title>k=3 n=2: L35.1[1]; want 0x1 got 0x2</title>"));
  cr_assert_eq(count(s, "<rect class=\"sw l"), 64);
  cr_assert(strstr(s, "data-elements=\"12\" data-bad=\"2\""));
  char l[32];
  report_tile_label((report_owner){63, 15, 31}, l, sizeof l);
  cr_assert_str_eq(l, "L63.15[31]");
  /* lane colours: 64 distinct */
  char cols[64][40];
  for (int i = 0; i < 64; i++) {
    report_tile_lane_colour(i, cols[i], sizeof cols[i]);
    for (int j = 0; j < i; j++) cr_assert_str_neq(cols[i], cols[j], "lanes %d and %d share a colour", i, j);
  }
  ll_buf_free(&b);
  report_tile_free(t);
}

/* Fixtures: the fragment seed of the f16 region (lane L slot s holds row L%16, column 4*(L/16)+s,
 * tag 16*row + col), then one deliberate defect per pattern; the expected line is written here. */
/* Every element has hover text: its own <title> on a tile of up to 256 elements, its row's on a
 * bigger one (a mismatching element always its own, naming the expected holder); the labels take
 * no pointer events, so hovering a label shows its cell's title. */
static void hover_check(int rows, int cols, bool per_element) {
  ll_err e = {0};
  report_tile *t = report_tile_new("T", rows, cols, "i", "k", &e);
  cr_assert_not_null(t, "%s", e.msg);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      report_tile_own(t, r, c, (r + c) % 64, c / 8, c % 8);
      report_tile_expect(t, r, c, r == 1 && c == 2 ? 63 : (r + c) % 64, c / 8, c % 8);
    }
  ll_buf b = {0};
  report_tile_svg(t, "h", &b);
  const char *s = ll_buf_str(&b);
  int n = rows * cols;
  cr_assert_eq(count(s, "<rect class=\"e "), n);
  /* element titles: "i=R k=C: holder"; row titles: "i=R (k: the column header; ...)" */
  int row_titles = count(s, " (k: the column header; holder: the cell's label)</title>");
  cr_assert_eq(row_titles, per_element ? 0 : rows, "%dx%d", rows, cols);
  cr_assert_eq(count(s, "<title>i=") - row_titles, per_element ? n : 1, "element titles, %dx%d", rows, cols);
  /* every row title opens its row's group of element rects */
  cr_assert_eq(count(s, "<g transform=\"translate(0,"), 2 * rows + 4, "per row a group of rects and one of labels; 4 legend rows");
  cr_assert_eq(count(s, ")\"><title>i="), row_titles);
  char *bad = ll_fmt("<rect class=\"e l3 bad\" data-rc=\"1,2\"><title>i=1 k=2: L3.0[2]; expected L63.0[2]</title>");
  cr_assert(strstr(s, bad), "the mismatching element names the expected holder");
  cr_assert(strstr(s, "#h text{pointer-events:none}"));
  free(bad);
  ll_buf_free(&b);
  report_tile_free(t);
}

Test(reports, every_element_has_hover_text) {
  hover_check(16, 16, true);   /* 256: a title per element */
  hover_check(16, 128, false); /* 2048 (an f8f6f4 A): a title per row */
}

static void frag_grid(report_grid *g) {
  report_grid_init(g, 4);
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < 4; s++) {
      int r = L % 16, c = 4 * (L / 16) + s;
      g->wr[L][s] = g->gr[L][s] = r;
      g->wc[L][s] = g->gc[L][s] = c;
      g->want[L][s] = g->got[L][s] = (uint32_t)(16 * r + c);
    }
}
static void got_elem(report_grid *g, int L, int s, int r, int c) {
  g->gr[L][s] = r, g->gc[L][s] = c, g->got[L][s] = (uint32_t)(16 * r + c);
}
static void pattern_is(const report_grid *g, const char *want) {
  char buf[300];
  report_pattern(g, buf, sizeof buf);
  cr_assert_str_eq(buf, want);
}

Test(reports, pattern_summary_names_each_pattern) {
  report_grid *g = ll_xcalloc(1, sizeof *g);
  frag_grid(g);
  pattern_is(g, "no mismatches");
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < 4; s++) got_elem(g, L, s, g->wc[L][s], g->wr[L][s]);
  pattern_is(g, "rows and columns swapped (240/256 slots wrong)"); /* the 16 diagonal elements stay put */
  frag_grid(g);
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < 4; s++) got_elem(g, L, s, g->wr[L][s] + 1, g->wc[L][s]);
  pattern_is(g, "off by one row (+1) (256/256 slots wrong)");
  frag_grid(g);
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < 4; s++) got_elem(g, L, s, g->wr[L][s], g->wc[L][s] - 1);
  pattern_is(g, "off by one column (-1) (256/256 slots wrong)");
  frag_grid(g);
  for (int L = 16; L < 64; L++)
    for (int s = 0; s < 4; s++) g->got[L][s] = 0xdead, g->gr[L][s] = g->gc[L][s] = -1;
  pattern_is(g, "lanes 16\u201363 wrong (192/256 slots wrong)");
  for (int L = 0; L < 16; L++)
    for (int s = 0; s < 4; s++) g->got[L][s] = 0xdead, g->gr[L][s] = g->gc[L][s] = -1;
  pattern_is(g, "all wrong (256/256 slots)");
  frag_grid(g);
  for (int L = 0; L < 64; L++) /* rotate inside each quad: lane 4q+i gets lane 4q+(i+1)%4's */
    for (int s = 0; s < 4; s++) {
      int M = (L & ~3) | ((L + 1) & 3);
      got_elem(g, L, s, M % 16, 4 * (M / 16) + s);
    }
  pattern_is(g, "permutation within quads (256/256 slots wrong)");
  frag_grid(g);
  for (int L = 0; L < 64; L++) /* lanes 0..15 <-> 16..31 */
    for (int s = 0; s < 4; s++) {
      int M = L < 32 ? L ^ 16 : L;
      got_elem(g, L, s, M % 16, 4 * (M / 16) + s);
    }
  pattern_is(g, "permutation within halves (128/256 slots wrong)");
  frag_grid(g);
  for (int L = 0; L < 64; L++) /* the two f16 halves of each dword swapped */
    for (int s = 0; s < 4; s++) got_elem(g, L, s, L % 16, 4 * (L / 16) + (s ^ 1));
  /* the halves sit one column apart: a constant shift does not fit (+1 and -1), a slot permutation does */
  pattern_is(g, "slots permuted within each lane (256/256 slots wrong)");
  frag_grid(g);
  g->got[0][1] = 7, g->gr[0][1] = -1;
  g->got[17][3] = 7, g->gr[17][3] = -1;
  g->got[40][3] = 7, g->gr[40][3] = -1;
  pattern_is(g, "3/256 wrong: lanes 0,17,40, slots 1,3");
  free(g);
}

/* ---- exports ---------------------------------------------------------------------------------*/
/* RFC 4180 reader: rows of fields. */
static size_t csv_parse(const char *s, char ***cells, size_t *ncols) {
  size_t nrows = 0, nc = 0, cap = 0, col = 0;
  *cells = NULL;
  *ncols = 0;
  ll_buf f = {0};
  while (*s) {
    f.len = 0;
    if (*s == '"') {
      for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
        if (*s == '"') s++;
        ll_buf_put(&f, s, 1);
      }
      cr_assert_eq(*s, '"', "unterminated quoted CSV field");
      s++;
    } else {
      for (; *s && *s != ',' && *s != '\n'; s++) ll_buf_put(&f, s, 1);
    }
    if (nc + 1 > cap) *cells = ll_xrealloc(*cells, (cap = 2 * cap + 16) * sizeof **cells);
    (*cells)[nc++] = ll_xstrdup(ll_buf_str(&f));
    col++;
    if (*s == ',') { s++; continue; }
    cr_assert_eq(*s, '\n', "CSV row not newline-terminated");
    s++;
    if (nrows == 0) *ncols = col;
    else cr_assert_eq(col, *ncols, "CSV row %zu has %zu fields, header %zu", nrows, col, *ncols);
    nrows++;
    col = 0;
  }
  ll_buf_free(&f);
  return nrows;
}

Test(reports, exports_parse_and_match_the_table) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  /* the stage summary table */
  char *csv = slurp(rd, "tables/stages.csv");
  char **cells;
  size_t nc, nr = csv_parse(csv, &cells, &nc);
  cr_assert_eq(nr, 8);
  cr_assert_eq(nc, 6);
  cr_assert_str_eq(cells[0], "stage");
  cr_assert_str_eq(cells[5 * 6 + 0], "prod");
  cr_assert_str_eq(cells[5 * 6 + 1], "not run");
  cr_assert_str_eq(cells[4 * 6 + 1], "FAIL");
  for (size_t i = 0; i < nr * nc; i++) free(cells[i]);
  free(cells);
  char *js = slurp(rd, "tables/stages.json");
  ll_err e = {0};
  ll_json *j = ll_json_parse(js, strlen(js), &e);
  cr_assert_not_null(j, "%s", e.msg);
  ll_json *rows = ll_json_get(j, "rows");
  cr_assert_eq(rows->n, 7);
  cr_assert_str_eq(ll_json_get(rows->items[4], "verdict")->str, "not run");
  cr_assert_str_eq(ll_json_get(rows->items[6], "stage")->str, "base");
  ll_json_free(j);
  char *md = slurp(rd, "tables/stages.md");
  cr_assert(strstr(md, "| prod | not run |"));
  cr_assert(strstr(md, "| lanes | FAIL |"));
  /* a stage table with awkward cells round-trips through all three */
  char *mcsv = slurp(rd, "tables/model-lane-map-model-checks.csv");
  nr = csv_parse(mcsv, &cells, &nc);
  cr_assert_eq(nr, 3);
  cr_assert_str_eq(cells[4], "a, with comma");
  cr_assert_str_eq(cells[6], "{0,16,32,48}");
  cr_assert_str_eq(cells[8], "b | pipe \"q\"");
  for (size_t i = 0; i < nr * nc; i++) free(cells[i]);
  free(cells);
  char *mmd = slurp(rd, "tables/model-lane-map-model-checks.md");
  cr_assert(strstr(mmd, "| b \\| pipe \"q\" |"));
  char *mj = slurp(rd, "tables/mutants-A-B-mutants.json");
  j = ll_json_parse(mj, strlen(mj), &e);
  cr_assert_not_null(j, "%s", e.msg);
  rows = ll_json_get(j, "rows");
  cr_assert_eq(rows->n, 4);
  ll_json *v = ll_json_get(rows->items[1], "max abs err");
  cr_assert_eq(v->type, LL_JNUM, "numeric column stays a number");
  cr_assert_float_eq(v->num, 1.41, 1e-12);
  cr_assert_str_eq(ll_json_get(rows->items[3], "mutant")->str, "no_effect");
  ll_json_free(j);
  /* census table from the isa stage, and the index summary */
  cr_assert(exists(rd, "tables/isa-census-build-gfx950-kernels-lane_tr8.co.csv") && exists(rd, "tables/isa-dynamic-instruction-counts.md") &&
            exists(rd, "tables/isa-dynamic-instruction-counts.json"), "table files named by their titles");
  char *ts = slurp(b, "reports/tables/index-summary.csv");
  cr_assert(strstr(ts, "gfx950,FAIL,7,1,1,yes,\"model: pass, kernels: pass, isa: pass, lanes: FAIL, prod: not run, "
                       "mutants: pass, base: not requested\"\n"), "%s", ts);
  free(ts); free(mj); free(mmd); free(mcsv); free(md); free(js); free(csv); free(rd);
  rm_rf(b);
  free(b);
}

Test(reports, table_from_json_rejects_bad_shapes) {
  const char *bad[] = {"[]", "{\"rows\": []}", "{\"columns\": [\"a\"]}", "{\"columns\": [\"a\"], \"rows\": [1]}",
                       "{\"columns\": [\"a\"], \"rows\": [{\"b\": 1}]}", "{\"columns\": [\"a\"], \"rows\": [{}]}",
                       "{\"columns\": [\"a\"], \"rows\": [{\"a\": [1]}]}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ll_err e = {0};
    ll_json *j = ll_json_parse(bad[i], strlen(bad[i]), &e);
    cr_assert_not_null(j);
    cr_assert_null(report_table_from_json(j, "fixture", &e), "accepted %s", bad[i]);
    cr_assert_eq(e.code, LL_EXIT_USAGE);
    cr_assert(strstr(e.msg, "fixture"), "%s", e.msg);
    ll_json_free(j);
  }
  const char *ok = "{\"title\": \"t\", \"columns\": [\"n\", \"x\"], \"rows\": [{\"n\": 1, \"x\": \"a\"}, "
                   "{\"n\": \"inf\", \"x\": 2}, {\"n\": \"-\", \"x\": 3}]}";
  ll_err e = {0};
  ll_json *j = ll_json_parse(ok, strlen(ok), &e);
  report_table *t = report_table_from_json(j, "fixture", &e);
  cr_assert_not_null(t, "%s", e.msg);
  cr_assert(t->numeric[0], "numbers, inf and the placeholder '-': numeric");
  cr_assert_eq(t->nrows, 3);
  cr_assert(!t->numeric[1], "a string makes a column text");
  cr_assert_str_eq(report_table_cell(t, 1, 0), "inf");
  report_table_free(t);
  ll_json_free(j);
}

/* ---- plots ---------------------------------------------------------------------------------*/
Test(reports, mutant_plot_svg_made_by_gnuplot_with_data_and_script_beside) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *svg = slurp(rd, "plots/mutants-A-B-mutants.svg");
  cr_assert(strstr(svg, "<svg"), "an SVG");
  cr_assert(strstr(svg, "cdna4_seed_wrong"), "mutant names on the x axis");
  char *gp = slurp(rd, "plots/mutants-A-B-mutants.gp");
  cr_assert(strstr(gp, "set logscale y"));
  cr_assert(strstr(gp, "'mutants-A-B-mutants.dat'"));
  char *dat = slurp(rd, "plots/mutants-A-B-mutants.dat");
  cr_assert(strstr(dat, "\"cdna4_seed_wrong\"\t1.41\t0.01\n"), "%s", dat);
  cr_assert(!strstr(dat, "atol_over_noise"), "a ratio column was plotted as an error:\n%s", dat);
  cr_assert(strstr(dat, "\"no_effect\"\t?\t0.01\n"), "zero cannot be drawn on a log scale");
  char *page = slurp(rd, "stage-mutants.html");
  cr_assert(strstr(page, "src=\"plots/mutants-A-B-mutants.svg\""));
  cr_assert(strstr(page, "no_effect max abs err = 0"), "the page says what was not drawn");
  free(page); free(dat); free(gp); free(svg); free(rd);
  rm_rf(b);
  free(b);
}

/* Issue #29 ("gnuplot"): a mutant caught by a fault has no error value, yet the plot shows it (a
 * bar of its own to the top of the plot, titled as such), and gnuplot says nothing: its messages
 * would land in the plot's .gp.log, which stays empty (a series with nothing to draw and an
 * autoscaled range of one value each made gnuplot warn in CI logs). */
Test(reports, a_mutant_caught_by_a_fault_has_a_bar_and_gnuplot_says_nothing) {
  char *b = mktmp();
  fixture(b);
  char *r = ll_fmt("%s/results/gfx950", b);
  put_free(r, "mutants.json", stage_json("mutants", "pass", "2 of 2 mutants caught", "\"emulator\"",
      "{\"title\": \"manifest mutants\", \"columns\": [\"mutant\", \"check\", \"noise_floor\", \"mutant_max_abs\", "
      "\"verdict\"], \"rows\": ["
      "{\"mutant\": \"wrong_stride\", \"check\": \"outputs\", \"noise_floor\": 0, \"mutant_max_abs\": 3.8, \"verdict\": \"caught\"},"
      "{\"mutant\": \"oob\", \"check\": \"fault\", \"noise_floor\": 0, \"mutant_max_abs\": \"-\", \"verdict\": \"caught\"}]}"));
  free(r);
  generate(b);
  char *rd = report_dir(b);
  char *dat = slurp(rd, "plots/mutants-manifest-mutants.dat"), *gp = slurp(rd, "plots/mutants-manifest-mutants.gp");
  cr_expect(strstr(dat, "\"oob\"\t?\t") && strstr(dat, "caught_by_a_fault"), "no fault bar for oob:\n%s", dat);
  cr_expect_null(strstr(dat, "noise_floor"), "a column with nothing to draw is a series:\n%s", dat);
  cr_expect(strstr(gp, "caught by a fault") && strstr(gp, "set yrange ["), "%s", gp);
  char *log = slurp(rd, "plots/mutants-manifest-mutants.gp.log");
  cr_expect_str_eq(log, "", "gnuplot warned:\n%s", log);
  free(log); free(gp); free(dat); free(rd);
  rm_rf(b);
  free(b);
}

/* ---- atomicity --------------------------------------------------------------------------------*/
static bool no_temp_left(const char *build) {
  char *p = ll_fmt("%s/reports", build);
  DIR *d = opendir(p);
  bool ok = true;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strstr(e->d_name, ".tmp-") || strstr(e->d_name, ".old-")) ok = false;
  if (d) closedir(d);
  free(p);
  return ok;
}

Test(reports, failed_write_leaves_the_previous_report_intact) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b);
  char *before = slurp(rd, "index.html");
  char *lbefore = slurp(rd, "lane-lane_load_fragment.html");
  /* 1: a malformed dump is found after other pages were already written to the temp dir */
  put(b, "results/gfx950/dumps/lane_tr8.bin", "short");
  ll_err e = {0};
  cr_assert(!report_write_arch(b, "gfx950", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "lane_tr8.bin") && strstr(e.msg, "previous one"), "%s", e.msg);
  char *after = slurp(rd, "index.html"), *lafter = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert_str_eq(after, before);
  cr_assert_str_eq(lafter, lbefore);
  cr_assert(no_temp_left(b));
  free(after); free(lafter);
  char *dp = ll_fmt("%s/results/gfx950/dumps/lane_tr8.bin", b);
  unlink(dp);
  free(dp);
  /* 2: the temp directory cannot be created (a file is in the way) */
  char *tmp = ll_fmt("reports/.gfx950.tmp-%ld", (long)getpid());
  put(b, tmp, "in the way");
  e = (ll_err){0};
  cr_assert(!report_write_arch(b, "gfx950", &e));
  cr_assert_eq(e.code, LL_EXIT_FAIL);
  cr_assert(strstr(e.msg, "temporary report directory"), "%s", e.msg);
  after = slurp(rd, "index.html");
  cr_assert_str_eq(after, before);
  free(after);
  char *tp = ll_path_join(b, tmp);
  unlink(tp);
  free(tp);
  free(tmp);
  /* 3: gnuplot missing: exit-3 error naming the package, old report kept */
  char *path = ll_xstrdup(getenv("PATH"));
  setenv("PATH", "/nonexistent", 1);
  e = (ll_err){0};
  bool ok = report_write_arch(b, "gfx950", &e);
  setenv("PATH", path, 1);
  free(path);
  cr_assert(!ok);
  cr_assert_eq(e.code, LL_EXIT_ENV);
  cr_assert(strstr(e.msg, "gnuplot-nox"), "%s", e.msg);
  after = slurp(rd, "index.html");
  cr_assert_str_eq(after, before);
  cr_assert(no_temp_left(b));
  /* 4: a temp dir left by a writer that died (no such pid) is swept; a good run replaces the report */
  put(b, "reports/.gfx950.tmp-2147483646/index.html", "half-written");
  e = (ll_err){0};
  cr_assert(report_write_arch(b, "gfx950", &e), "%s", e.msg);
  cr_assert(no_temp_left(b));
  cr_assert(exists(rd, "index.html"));
  free(after); free(lbefore); free(before); free(rd);
  rm_rf(b);
  free(b);
}

Test(reports, malformed_stage_json_is_bad_input_naming_the_file) {
  char *b = mktmp();
  fixture(b);
  put(b, "results/gfx950/isa.json", "{\"verdict\": \"pass\", \"summary\": \"x\", \"tables\": [{\"columns\": []}]}");
  ll_err e = {0};
  cr_assert(!report_write_arch(b, "gfx950", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "isa.json"), "%s", e.msg);
  put(b, "results/gfx950/isa.json", "{\"verdict\": \"passed\", \"summary\": \"x\"}");
  e = (ll_err){0};
  cr_assert(!report_write_arch(b, "gfx950", &e));
  cr_assert(strstr(e.msg, "\"passed\" is not one of"), "%s", e.msg);
  cr_assert(no_temp_left(b));
  e = (ll_err){0};
  cr_assert(!report_write_arch(b, "gfx999", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  rm_rf(b);
  free(b);
}

/* Bytes of the regular files under dir (recursively), and how many. */
static size_t tree_bytes(const char *dir, size_t *nfiles) {
  size_t sum = 0;
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = ll_path_join(dir, e->d_name);
    struct stat st;
    cr_assert_eq(lstat(p, &st), 0, "%s", p);
    if (S_ISDIR(st.st_mode)) sum += tree_bytes(p, nfiles);
    else if (S_ISREG(st.st_mode)) { sum += (size_t)st.st_size; (*nfiles)++; }
    free(p);
  }
  closedir(d);
  return sum;
}

/* A long (kernel, count, n) census is shown pivoted on the stage page, one row per count and one
 * column per kernel, a blank cell where a kernel has no such row; the exports keep the long form,
 * and the JSON export has one row per line. */
Test(reports, census_shown_pivoted_exports_long) {
  char *b = mktmp();
  fixture(b);
  ll_buf rows = {0};
  size_t nrows = 0;
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 40; i++) {
      if (k == 1 && i == 7) continue; /* kernel b has no op7 */
      ll_buf_printf(&rows, "%s{\"kernel\": \"k%c\", \"count\": \"op%d\", \"n\": %d}", nrows ? ", " : "", 'a' + k, i,
                    100 * k + i);
      nrows++;
    }
  char *tables = ll_fmt("{\"title\": \"census build/gfx950/kernels/x.co\", \"columns\": [\"kernel\", \"count\", \"n\"], "
                        "\"rows\": [%s]}", ll_buf_str(&rows));
  char *r = ll_fmt("%s/results/gfx950", b);
  put_free(r, "isa.json", stage_json("isa", "pass", "budgets passed", "null", tables));
  generate(b);
  char *rd = report_dir(b), *p = slurp(rd, "stage-isa.html");
  cr_assert(strstr(p, "<table class=\"data pivot\" id=\"t-isa-census-build-gfx950-kernels-x.co\" data-expect=\"tbody "
                      "tr=40\"><thead><tr><th>count</th><th>ka</th><th>kb</th></tr></thead>"), "40 counts x 2 kernels");
  cr_assert(strstr(p, "<tr><td>op7</td><td class=\"num\">7</td><td class=\"num\"></td></tr>"), "kb has no op7: blank");
  cr_assert(strstr(p, "<tr><td>op39</td><td class=\"num\">39</td><td class=\"num\">139</td></tr>"));
  cr_assert(strstr(p, "the exports have one row per (kernel, count): 79 rows"));
  char *csv = slurp(rd, "tables/isa-census-build-gfx950-kernels-x.co.csv");
  cr_assert_eq(count(csv, "\n"), 1 + 79, "CSV: header + the 79 long rows");
  cr_assert(strstr(csv, "\nkb,op39,139\n"));
  char *js = slurp(rd, "tables/isa-census-build-gfx950-kernels-x.co.json");
  cr_assert(strstr(js, "\n    {\"kernel\":\"kb\",\"count\":\"op39\",\"n\":139}\n"), "one row per line");
  ll_err e = {0};
  ll_json *j = ll_json_parse(js, strlen(js), &e);
  cr_assert_not_null(j, "the JSON export parses: %s", e.msg);
  cr_assert_eq(ll_json_get(j, "rows")->n, (size_t)79);
  ll_json_free(j);
  free(js); free(csv); free(p); free(rd); free(r); free(tables);
  ll_buf_free(&rows);
  rm_rf(b);
  free(b);
}

/* ---- MFMA layout pages ------------------------------------------------------------------------*/
Test(reports, mfma_pages_for_every_instruction_of_the_arch) {
  char *b = mktmp();
  fixture(b);
  generate(b);
  char *rd = report_dir(b), *md = ll_fmt("%s/reports/mfma", b);
  /* the arch's list names its own instructions, each linked to the layout page both arches share;
   * the shared directory has a page for every instruction of either arch, naming where it exists */
  char *list = slurp(rd, "mfma.html");
  size_t want = 0;
  for (size_t i = 0; i < lanes_mfma_count(); i++) {
    const lanes_mfma *mf = lanes_mfma_at(i);
    bool on942 = mf->arches & LANES_ARCH_BIT(LANES_GFX942), on950 = mf->arches & LANES_ARCH_BIT(LANES_GFX950);
    char *page = ll_fmt("mfma-%s.html", mf->name); /* file name: the instruction with ':' as '_' */
    for (char *q = page; *q; q++)
      if (*q == ':') *q = '_';
    char *link = ll_fmt("<a href=\"../mfma/%s\">layout</a>", page);
    cr_assert_eq(strstr(list, link) != NULL, on950, "%s listed on gfx950 iff it exists there", mf->name);
    want += on950;
    char *pg = slurp(md, page), *on = ll_fmt("<p>On %s%s%s. M=%d N=%d K=%d", on942 ? "gfx942" : "",
                                               on942 && on950 ? ", " : "", on950 ? "gfx950" : "", mf->m, mf->n, mf->k);
    cr_assert(strstr(pg, on), "%s: %s", page, on);
    free(on); free(pg); free(link); free(page);
  }
  cr_assert_eq((size_t)count(list, "\">layout</a>"), want);
  char *all = slurp(md, "index.html");
  cr_assert_eq((size_t)count(all, "\">layout</a>"), lanes_mfma_count());
  free(all);
  /* 16x16x16 f16 (ISA 7.1.4): A(i,k) in lane i + 16*(k/4), VGPR (k%4)/2, bit 16*(k%2);
   * D(i,j) in lane j + 16*(i/4), VGPR i%4; the picture labels L<lane>.<vgpr>[<slot>], slot = bit/16 */
  char *p = slurp(md, "mfma-v_mfma_f32_16x16x16_f16.html");
  cr_assert(elem_is(p, "i=5 k=6: L21.1[0]", 21), "A(5,6)");
  cr_assert(elem_is(p, "k=7 n=3: L19.1[1]", 19), "B(7,3)");
  cr_assert_eq(count(p, "<rect class=\"e "), 2 * 256, "one element per cell of A and B");
  cr_assert_eq(count(p, "<rect class=\"sw l"), 64, "one legend per page");
  /* D (16 x 16 f32) is laid out as 16x16x4 f32's, which comes first: drawn there, linked here */
  cr_assert(strstr(p, "Same layout as <a href=\"mfma-v_mfma_f32_16x16x4_f32.html#op-D\">"));
  cr_assert(strstr(p, "href=\"tables/layout-D-16x16-32bit-"), "D's export under its content name");
  char *f32 = slurp(md, "mfma-v_mfma_f32_16x16x4_f32.html");
  cr_assert(elem_is(f32, "i=6 j=2: L18.2[0]", 18), "D(6,2)");
  free(f32);
  /* bf16 has f16's layouts: drawn once, linked */
  char *bf = slurp(md, "mfma-v_mfma_f32_16x16x16_bf16.html");
  cr_assert_eq(count(bf, "<rect class=\"e "), 0);
  cr_assert(strstr(bf, "Same layout as <a href=\"mfma-v_mfma_f32_16x16x16_f16.html#op-A\">"));
  cr_assert(strstr(bf, "Same layout as <a href=\"mfma-v_mfma_f32_16x16x16_f16.html#op-B\">"));
  cr_assert(strstr(bf, "Same layout as <a href=\"mfma-v_mfma_f32_16x16x4_f32.html#op-D\">"));
  free(bf);
  /* no arch report holds layout pages of its own any more */
  cr_assert(!exists(rd, "mfma-v_mfma_f32_16x16x16_f16.html"));
  /* Size budget of the shared layout pages, the biggest part of a verify report (docs/reports.md):
   * 3.51 MB in 115 files when measured (the 58 MFMA instructions of lanes/ on 2026-12-01); 3.8 MB
   * leaves room for a few new instructions, not for drawing a layout twice or a fatter element. */
  size_t nf = 0, bytes = tree_bytes(md, &nf);
  cr_assert_leq(bytes, (size_t)3800000, "reports/mfma: %zu bytes in %zu files, budget 3800000", bytes, nf);
  free(p); free(list); free(rd); free(md);
  rm_rf(b);
  free(b);
}

/* Without a renderer the report says so once, on the arch index, naming what is missing, and each
 * page with a standalone picture points there: the SVGs are still written. */
Test(reports, png_not_rendered_is_said_once_on_the_index) {
  char *b = mktmp();
  fixture(b);
  unsetenv("LANELAB_PNG");
  /* a PATH with gnuplot (the mutant plot needs it) and no chromium; the fixture has 3 standalone
   * pictures: lane_load_fragment and lane_mfma_16x16x16_f16 mismatch, and the seed diff */
  char *bin = ll_fmt("%s/bin", b), *gp = ll_fmt("%s/gnuplot", bin), *old_path = ll_xstrdup(getenv("PATH"));
  cr_assert(ll_mkdir_p(bin, NULL));
  cr_assert_eq(system("command -v gnuplot >/dev/null"), 0, "gnuplot is needed for the mutant plot");
  char *cmd = ll_fmt("ln -s \"$(command -v gnuplot)\" '%s'", gp);
  cr_assert_eq(system(cmd), 0);
  setenv("PATH", bin, 1);
  ll_err e = {0};
  bool ok = report_write_arch(b, "gfx950", &e);
  setenv("PATH", old_path, 1);
  cr_assert(ok, "report_write_arch: %s", e.msg);
  char *rd = report_dir(b), *ix = slurp(rd, "index.html");
  cr_assert_eq(count(ix, "id=\"png\""), 1);
  cr_assert(strstr(ix, "3 PNG pictures not rendered (0 rendered): chromium not found on PATH"), "index names the cause");
  char *lp = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert(strstr(lp, "<a href=\"pictures/lane-lane_load_fragment.svg\">SVG</a> (PNG not rendered: see the "
                       "<a href=\"index.html#png\">report's index</a>)"));
  cr_assert(exists(rd, "pictures/lane-lane_load_fragment.svg") && !exists(rd, "pictures/lane-lane_load_fragment.png"));
  free(lp); free(ix); free(rd); free(cmd); free(old_path); free(gp); free(bin);
  rm_rf(b);
  free(b);
}

/* ---- in a real browser ------------------------------------------------------------------------*/
/* Negative controls (name starting "negative") keep the script's complaints out of the test log. */
static int browser(const char *page, const char *outdir, const char *name) {
  /* one screenshot, of the lane map (each costs a second Chromium start, about 2 s, and shows only
   * that Chromium draws the page); every page is judged by its DOM and console */
  bool shot = !strcmp(name, "gfx950-lanemap");
  char *cmd = ll_fmt("bash '%s/mk/browser-test.sh' '%s' '%s' '%s'%s%s", LANELAB_ROOT, page, outdir, name,
                     shot ? "" : " --no-screenshot", strncmp(name, "negative", 8) ? "" : " 2>/dev/null");
  int st = system(cmd);
  free(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(reports_browser, pages_render_in_chromium_with_the_counts_shown, .timeout = 600) {
#ifdef __SANITIZE_ADDRESS__
  /* The sanitizer pass (make test SAN=1) checks lanelab's own C code; this test's time is the
   * browser's, and what it checks (the pages as rendered) is the same in the plain pass. */
  cr_skip_test("left to the plain build: the rendering is Chromium's, not sanitized code");
#endif
  if (system("command -v chromium >/dev/null 2>&1") != 0)
    cr_assert_fail("chromium is not installed: the browser test needs Debian's chromium "
                   "(apt-get install -y chromium; make deps installs it when listed)");
  char *b = mktmp();
  fixture(b);
  unsetenv("LANELAB_PNG");
  generate(b);
  char *rd = report_dir(b);
  char *shots = ll_fmt("%s/reports-screens", LANELAB_BUILD);
  /* the standalone pictures (the corrupted lane map's, the seed diff's) have their PNG beside them,
   * at the SVG's own size, and the pages link both */
  static const char *const pics[] = {"pictures/lane-lane_load_fragment", "pictures/seeddiff-ds_read_b64_tr_b16"};
  for (int i = 0; i < 2; i++) {
    char *svg_rel = ll_fmt("%s.svg", pics[i]), *png_rel = ll_fmt("%s.png", pics[i]);
    char *svg = slurp(rd, svg_rel), *png_path = ll_path_join(rd, png_rel);
    unsigned sw = 0, sh = 0;
    cr_assert(sscanf(strstr(svg, " width=\""), " width=\"%u\" height=\"%u\"", &sw, &sh) == 2, "%s size", svg_rel);
    size_t n = 0;
    ll_err e = {0};
    uint8_t *png = ll_read_file(png_path, &n, &e);
    cr_assert_not_null(png, "%s: %s", png_path, e.msg);
    /* PNG: 8-byte signature, then the IHDR chunk: length, "IHDR", width and height big-endian */
    cr_assert(n > 24 && !memcmp(png, "\x89PNG\r\n\x1a\n", 8) && !memcmp(png + 12, "IHDR", 4), "%s is a PNG", png_rel);
    unsigned pw = (unsigned)png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
    unsigned ph = (unsigned)png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
    cr_assert(pw == sw && ph == sh, "%s is %ux%u, the SVG %ux%u", png_rel, pw, ph, sw, sh);
    free(png); free(png_path); free(svg); free(svg_rel); free(png_rel);
  }
  char *lpage = slurp(rd, "lane-lane_load_fragment.html");
  cr_assert(strstr(lpage, "Standalone: <a href=\"pictures/lane-lane_load_fragment.svg\">SVG</a>, "
                          "<a href=\"pictures/lane-lane_load_fragment.png\">PNG</a>."));
  free(lpage);
  char *ix = slurp(rd, "index.html");
  cr_assert_null(strstr(ix, "id=\"png\""), "no 'not rendered' box when every PNG was rendered");
  free(ix);
  char *top = ll_fmt("%s/reports/index.html", b), *idx = ll_fmt("%s/index.html", rd),
       *lane = ll_fmt("%s/lane-lane_load_fragment.html", rd), *mf = ll_fmt("%s/reports/mfma/mfma-v_mfma_f32_32x32x8_f16.html", b);
  cr_assert_eq(browser(top, shots, "top-index"), 0, "top index in chromium (see %s/top-index.log)", shots);
  cr_assert_eq(browser(idx, shots, "gfx950-index"), 0, "arch index in chromium (see %s/gfx950-index.log)", shots);
  cr_assert_eq(browser(lane, shots, "gfx950-lanemap"), 0, "lane map in chromium (see %s/gfx950-lanemap.log)", shots);
  cr_assert_eq(browser(mf, shots, "gfx950-mfma"), 0, "MFMA page in chromium (see %s/gfx950-mfma.log)", shots);
  char *dom = slurp(shots, "gfx950-lanemap.dom");
  cr_assert_eq(count(dom, "<tr class=\"lane"), 64);
  cr_assert_eq(count(dom, "got mismatch\""), NCORRUPT, "mismatch cells = the JSON's count");
  cr_assert(strstr(dom, "data-check=\"ok\""));
  cr_assert(strstr(dom, "page self-check (2 counted elements): ok"), "the page's script ran (grid and picture)");
  /* the picture as the browser built it: 16 x 16 elements, a red outline on exactly the corrupted
   * fixture's elements (fragment seed: lane L slot s = row L%16, col 4*(L/16)+s), the legend */
  cr_assert_eq(count(dom, "<rect class=\"e "), 256);
  cr_assert_eq(count(dom, " bad\" data-rc=\""), NCORRUPT);
  for (int i = 0; i < NCORRUPT; i++) {
    int L = corrupt[i][0], s = corrupt[i][1];
    char *rc = ll_fmt(" bad\" data-rc=\"%d,%d\"><title>row=%d col=%d: held by no lane; expected L%d.%d[%d]", L % 16,
                      4 * (L / 16) + s, L % 16, 4 * (L / 16) + s, L, s / 2, s % 2);
    cr_assert(strstr(dom, rc), "outline in the DOM: %s", rc);
    free(rc);
  }
  cr_assert_eq(count(dom, "<rect class=\"sw l"), 64, "legend: 64 lane swatches");
  cr_assert(strstr(dom, "red outline: holder differs from the expected one (3 elements"));
  cr_assert_eq(count(dom, "<rect class=\"hm bad\""), NCORRUPT, "heatmap");
  cr_assert(strstr(dom, "id=\"pattern\">pattern: 3/256 wrong: lanes 5,17,63, slots 0\u20131,3</p>"));
  /* the seed diff page: lane 0's sets under both seeds (docs/isa.md: {0,64,128,192} vs {0,16,32,48}) */
  char *sdp = ll_fmt("%s/seeddiff-ds_read_b64_tr_b16.html", rd);
  cr_assert_eq(browser(sdp, shots, "gfx950-seeddiff"), 0, "seed diff page in chromium (see %s/gfx950-seeddiff.log)", shots);
  char *sd = slurp(shots, "gfx950-seeddiff.dom");
  cr_assert(strstr(sd, "<td id=\"lane0\">fragment {0,64,128,192} vs solved {0,16,32,48}</td>"));
  cr_assert_eq(count(sd, "<rect class=\"e "), 2 * 256, "both tiles drawn");
  cr_assert(strstr(sd, "<tr data-lane=\"0\"><td class=\"lanecol\">0</td><td>0</td><td>0</td><td class=\"\">0</td>"
                       "<td class=\"\">0</td><td class=\"mismatch\">64</td><td class=\"mismatch\">16</td>"), "lane 0 row");
  char *mdom = slurp(shots, "gfx950-mfma.dom");
  /* 32x32x8 f16: A 32 x 8 and B 8 x 32 drawn; D (32 x 32 f32) has the layout 32x32x2 f32's page drew */
  cr_assert_eq(count(mdom, "<rect class=\"e "), 32 * 8 + 8 * 32);
  cr_assert(strstr(mdom, "Same layout as <a href=\"mfma-v_mfma_f32_32x32x2_f32.html#op-D\">"));
  free(mdom);
  free(sd);
  free(sdp);
  char *di = slurp(shots, "gfx950-index.dom");
  cr_assert_eq(count(di, "<tr class=\"stage\""), 7);
  cr_assert_eq(count(di, ">NOT RUN</td>"), 1);
  cr_assert_eq(count(di, ">not requested</td>"), 1);
  cr_assert(exists(shots, "gfx950-lanemap.png"), "the lane map's screenshot");
  /* the checks can fail: a lane map whose highlighted cells disagree with its stated count ... */
  char *lp = slurp(rd, "lane-lane_load_fragment.html");
  char *hit = strstr(lp, "got mismatch\"");
  cr_assert_not_null(hit);
  memcpy(hit, "got         \"", strlen("got mismatch\""));
  put(rd, "lane-tampered.html", lp);
  free(lp);
  char *tam = ll_fmt("%s/lane-tampered.html", rd);
  cr_assert_eq(browser(tam, shots, "negative-tampered"), 1, "a count mismatch must fail the page self-check");
  char *dt = slurp(shots, "negative-tampered.dom");
  cr_assert(strstr(dt, "data-check=\"fail: lanemap: td.mismatch 2 != 3\""), "self-check names the count");
  free(dt);
  free(tam);
  /* ... and a page with an uncaught error */
  put(b, "bad.html", "<!DOCTYPE html><html><body><table id=\"t\" data-expect=\"tr=2\"><tr><td>x</td></tr></table>"
                     "<script>document.body.setAttribute('data-check','ok');nope();</script></body></html>");
  char *bad = ll_fmt("%s/bad.html", b);
  cr_assert_eq(browser(bad, shots, "negative-control"), 1, "an uncaught error must fail the browser test");
  free(bad); free(di); free(dom); free(top); free(idx); free(lane); free(mf); free(shots); free(rd);
  rm_rf(b);
  free(b);
}
