/* Tests for verify/manifest (the reader and `lanelab verify --manifest`), include/lanelab/ref.h,
 * and `lanelab merge`. The end-to-end cases run the built lanelab on examples/ci-project (two
 * kernels, a C reference, one mutant) from a directory other than the manifest's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "include/lanelab/ref.h"
#include "oracle/oracle.h"
#include "verify/manifest.h"

#define EXAMPLE LANELAB_ROOT "/examples/ci-project"
#define LANELAB LANELAB_BUILD "/lanelab"

static char *tmpd(void) {
  char t[] = "/tmp/lanelab-test-manifest-XXXXXX";
  cr_assert_not_null(mkdtemp(t));
  return ll_xstrdup(t);
}

/* Runs cmd (through sh) in /tmp, returns its exit status; *out gets stdout+stderr. */
static int sh(const char *cmd, char **out) {
  char *full = ll_fmt("cd /tmp && { %s ; } 2>&1", cmd);
  FILE *f = popen(full, "r");
  cr_assert_not_null(f);
  ll_buf b = {0};
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) ll_buf_put(&b, tmp, k);
  int st = pclose(f);
  free(full);
  ll_buf_str(&b);
  if (out) *out = b.data; else ll_buf_free(&b);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void put(const char *dir, const char *name, const char *text) {
  char *p = ll_fmt("%s/%s", dir, name);
  cr_assert(ll_write_file_atomic(p, text, strlen(text), NULL), "writing %s", p);
  free(p);
}

/* ---- the reader: every error names the JSON path of the bad field ----------------------------- */
static const char *kernel_ok =
    "\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [64], "
    "\"reference\": {\"c\": \"r.c\", \"function\": \"f\"}";

static void bad(const char *json, const char *want_prefix, const char *want_text) {
  ll_err err = {0};
  manifest *m = manifest_parse(json, strlen(json), "/p", &err);
  cr_assert_null(m, "accepted: %s", json);
  cr_assert_eq(err.code, LL_EXIT_USAGE);
  cr_assert(strncmp(err.msg, want_prefix, strlen(want_prefix)) == 0, "message '%s' does not start with '%s'", err.msg,
            want_prefix);
  cr_assert(strstr(err.msg, want_text), "message '%s' lacks '%s'", err.msg, want_text);
}

Test(manifest, bad_fields_name_their_json_path) {
  char *j;
  bad("[]", "(top level)", "expected object");
  bad("{\"kernels\": []}", "kernels", "no kernels");
  bad("{\"kernel\": []}", "kernel:", "unknown field");
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"x\", \"in\": {\"dtype\": \"f32\", \"shape\": [4, -1]}},"
             " {\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}]}]}", kernel_ok);
  bad(j, "kernels[0].args[0].in.shape[1]:", "expected an integer");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f17\", \"shape\": [4]}}]}]}", kernel_ok);
  bad(j, "kernels[0].args[0].out.dtype:", "unknown dtype 'f17'");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}, "
             "{\"name\": \"n\", \"u32\": -1}]}]}", kernel_ok);
  bad(j, "kernels[0].args[1].u32:", "does not fit u32");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}], "
             "\"compare\": {\"nope\": {\"atol\": 1, \"rtol\": 1}}}]}", kernel_ok);
  bad(j, "kernels[0].compare.nope:", "no argument named 'nope'");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}], "
             "\"mutants\": [{\"name\": \"m\", \"defines\": [\"-o /etc/passwd\"]}]}]}", kernel_ok);
  bad(j, "kernels[0].mutants[0].defines[0]:", "is not a define");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"x\", \"in\": {\"dtype\": \"f32\", \"shape\": [4], "
             "\"init\": \"uniform(1,-1)\"}}, {\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}]}]}", kernel_ok);
  bad(j, "kernels[0].args[0].in.init:", "uniform(lo,hi) with lo<hi");
  free(j);
  bad("{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [2000], \"args\": []}]}",
      "kernels[0].block[0]:", "[1, 1024]");
  bad("{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"code_object\": {\"gfx950\": \"k.co\"}, \"grid\": [1], "
      "\"block\": [64], \"args\": []}]}", "kernels[0]:", "exactly one of source");
  bad("{\"kernels\": [{\"name\": \"k\", \"code_object\": {\"gfx951\": \"k.co\"}, \"grid\": [1], \"block\": [64], "
      "\"args\": []}]}", "kernels[0].code_object.gfx951:", "unknown arch");
  bad("{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [64], \"args\": [], "
      "\"schedule\": \"random\"}]}", "kernels[0].schedule:", "not a schedule");
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}]}, {%s, "
             "\"args\": []}]}", kernel_ok, kernel_ok);
  bad(j, "kernels[1]:", "a reference needs at least one out");
  free(j);
  bad("{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [64], \"args\": "
      "[{\"name\": \"x\", \"in\": {\"dtype\": \"f32\", \"shape\": [4]}, \"out\": {}}]}]}",
      "kernels[0].args[0]:", "exactly one of in, out");
  bad("{\"kernels\": [{\"name\": \"../k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [64], \"args\": []}]}",
      "kernels[0].name:", "is not a name");
}

Test(manifest, good_manifest_resolves_paths_against_its_directory) {
  const char *j =
      "{\"kernels\": [{\"name\": \"k\", \"source\": \"src/k.hip\", \"arch\": \"gfx950\", \"grid\": [2, 3], \"block\": 64,"
      " \"args\": [{\"name\": \"x\", \"in\": {\"file\": \"x.bin\"}}, {\"name\": \"o\", \"out\": {\"dtype\": \"bf16\","
      " \"shape\": [2, 3]}}, {\"name\": \"s\", \"f32\": 0.5}], \"reference\": {\"files\": {\"o\": \"/abs/o.bin\"}},"
      " \"mutants\": [{\"name\": \"m\", \"defines\": [\"-DBUG=1\"]}], \"schedule\": [\"roundrobin\", \"adversarial\"]}]}";
  ll_err err = {0};
  manifest *m = manifest_parse(j, strlen(j), "/proj", &err);
  cr_assert_not_null(m, "%s", err.msg);
  const mf_kernel *k = &m->kernels[0];
  cr_assert_str_eq(k->source, "/proj/src/k.hip");
  cr_assert_str_eq(k->symbol, "k");
  cr_assert(!k->arch[EMU_GFX942] && k->arch[EMU_GFX950]);
  cr_assert_eq(k->grid[0], 2); cr_assert_eq(k->grid[1], 3); cr_assert_eq(k->grid[2], 1);
  cr_assert_eq(k->block[0], 64); cr_assert_eq(k->block[1], 1);
  cr_assert_str_eq(k->args[0].file, "/proj/x.bin");
  cr_assert_eq(k->args[1].count, 6);
  cr_assert_eq(k->args[1].bytes, 12);
  cr_assert_eq(k->args[1].init, MF_INIT_POISON, "outputs start as poison unless told otherwise");
  cr_assert_str_eq(k->ref_files[1], "/abs/o.bin");
  double at, rt;
  manifest_tolerance(k, &k->args[1], &at, &rt);
  cr_assert(at == 1e-2 && rt == 1e-2, "bf16 default tolerance");
  cr_assert_eq(k->nsched, 2);
  /* cases: 2 arches x 2 schedules, then 1 mutant x 2 arches */
  cr_assert_eq(manifest_ncases(m), 6);
  cr_assert_eq(manifest_case_run(m, 0, EMU_GFX950, 1), 3);
  cr_assert_eq(manifest_case_mutant(m, 0, 0, EMU_GFX950), 5);
  manifest_free(m);
}

/* ---- ref.h: its f16/bf16 conversions agree with the oracle's (an independent implementation) -- */
Test(manifest, ref_h_half_and_bf16_conversions) {
  for (uint32_t h = 0; h < 65536; h++) {
    float a = lanelab_half_to_float((uint16_t)h), b = oracle_f16_to_f32((uint16_t)h);
    cr_assert(memcmp(&a, &b, 4) == 0 || (a != a && b != b), "f16 %04x: %a vs %a", h, a, b);
    a = lanelab_bf16_to_float((uint16_t)h), b = oracle_bf16_to_f32((uint16_t)h);
    cr_assert(memcmp(&a, &b, 4) == 0 || (a != a && b != b), "bf16 %04x", h);
  }
  /* float -> 16 bits over a stride of bit patterns (covers subnormals, ties, overflow) */
  for (uint64_t u = 0; u < 0x100000000ull; u += 0x1237) {
    uint32_t v = (uint32_t)u;
    float f;
    memcpy(&f, &v, 4);
    if (f != f) continue;
    cr_assert_eq(lanelab_float_to_half(f), oracle_f32_to_f16(f), "f32 %08x -> f16", v);
    cr_assert_eq(lanelab_float_to_bf16(f), oracle_f32_to_bf16(f), "f32 %08x -> bf16", v);
  }
}

/* ---- end to end --------------------------------------------------------------------------------- */
/* A copy of the example project in a fresh directory, so runs do not share build outputs. */
static char *example_copy(void) {
  char *d = tmpd();
  char *cmd = ll_fmt("cp -r " EXAMPLE "/kernels " EXAMPLE "/ref " EXAMPLE "/manifest.json " EXAMPLE "/budgets.json %s/", d);
  cr_assert_eq(sh(cmd, NULL), 0, "%s", cmd);
  free(cmd);
  return d;
}

Test(manifest, example_passes_from_another_directory_and_its_mutant_is_caught, .timeout = 120) {
  char *d = example_copy(), *out;
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "1 of 1 mutants caught"), "%s", out);
  char *res = ll_fmt("%s/build/lanelab/results/gfx950/outputs.json", d);
  struct stat st;
  cr_assert_eq(stat(res, &st), 0, "results beside the manifest: %s", res);
  char *rep = ll_fmt("%s/build/lanelab/reports/gfx950/stage-outputs.html", d);
  cr_assert_eq(stat(rep, &st), 0, "report beside the manifest: %s", rep);
  free(cmd); free(out); free(res); free(rep); free(d);
}

Test(manifest, wrong_output_prints_kernel_argument_first_mismatch_and_report, .timeout = 120) {
  char *d = example_copy(), *out;
  /* the example's saxpy built with its bug switched on is a kernel with a wrong output */
  char *cmd = ll_fmt("sed -i 's/\"kernels\\/saxpy.hip\",/\"kernels\\/saxpy.hip\", \"defines\": [\"-DBUG_STRIDE=1\"],/' "
                     "%s/manifest.json && grep -q BUG_STRIDE=1\\\"], %s/manifest.json", d, d);
  cr_assert_eq(sh(cmd, &out), 0, "%s", out);
  free(cmd); free(out);
  cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx942", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "FAIL saxpy on gfx942"), "kernel named:\n%s", out);
  cr_assert(strstr(out, "argument out:"), "argument named:\n%s", out);
  /* element 1 reads x[2] instead of x[1]: the first mismatch is out[1] (out[0] reads x[0] either way) */
  cr_assert(strstr(out, "first mismatch out[1]:"), "first mismatch:\n%s", out);
  char *rep = ll_fmt("report %s/build/lanelab/reports/gfx942/stage-outputs.html", d);
  cr_assert(strstr(out, rep), "report path '%s':\n%s", rep, out);
  free(cmd); free(out); free(rep); free(d);
}

Test(manifest, unchecked_kernel_fails_unless_a_reason_is_given, .timeout = 120) {
  char *d = example_copy(), *out;
  put(d, "m.json",
      "{\"kernels\": [{\"name\": \"block_sum\", \"source\": \"kernels/block_sum.hip\", \"arch\": \"gfx950\", \"grid\": [1],"
      " \"block\": [256], \"args\": [{\"name\": \"in\", \"in\": {\"dtype\": \"u32\", \"shape\": [256]}},"
      " {\"name\": \"sums\", \"out\": {\"dtype\": \"u32\", \"shape\": [1]}}]}]}");
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/m.json", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "NOT CHECKED"), "%s", out);
  free(out);
  put(d, "m.json",
      "{\"kernels\": [{\"name\": \"block_sum\", \"source\": \"kernels/block_sum.hip\", \"arch\": \"gfx950\", \"grid\": [1],"
      " \"block\": [256], \"args\": [{\"name\": \"in\", \"in\": {\"dtype\": \"u32\", \"shape\": [256]}},"
      " {\"name\": \"sums\", \"out\": {\"dtype\": \"u32\", \"shape\": [1]}}], \"not_checked\": \"timing only\"}]}");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "1 NOT CHECKED with a stated reason"), "%s", out);
  free(cmd); free(out); free(d);
}

Test(manifest, escaped_mutant_fails_and_bad_manifest_is_exit_2, .timeout = 120) {
  char *d = example_copy(), *out;
  char *cmd = ll_fmt("sed -i 's/-DBUG_STRIDE=1/-DNOT_A_BUG=1/' %s/manifest.json", d);
  cr_assert_eq(sh(cmd, NULL), 0);
  free(cmd);
  cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "an escaped mutant fails verify; exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "mutant wrong_stride of saxpy on gfx950 was not caught"), "%s", out);
  free(out);
  put(d, "manifest.json", "{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [0], \"block\": [1], \"args\": []}]}");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 2, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "kernels[0].grid[0]: expected an integer in [1,"), "%s", out);
  free(cmd); free(out); free(d);
}
