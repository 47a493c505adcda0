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
#include "tests/shell.h"
#include "verify/manifest.h"

#define EXAMPLE LANELAB_ROOT "/examples/ci-project"
#define LANELAB LANELAB_BUILD "/lanelab"

static char *tmpd(void) { return sh_tmpdir("manifest"); }
static int sh(const char *cmd, char **out) { return sh_run(cmd, out); }

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
  bad(j, "kernels[0].args[0].out.dtype:", "unknown buffer dtype 'f17'");
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
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}], "
             "\"checks\": [\"initcheck\", \"racecheck=lds\"]}]}", kernel_ok);
  bad(j, "kernels[0].checks[1]:", "'racecheck=lds' is not a check");
  free(j);
  j = ll_fmt("{\"kernels\": [{%s, \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4]}}], "
             "\"checks\": [\"racecheck\", \"racecheck=global\"]}]}", kernel_ok);
  bad(j, "kernels[0].checks[1]:", "already listed");
  free(j);
  bad("{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [1], \"block\": [64], \"args\": [], "
      "\"not_checked\": \"x\", \"checks\": [\"racecheck\"]}]}", "kernels[0].checks:", "needs a reference");
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

/* ref.h's fp8 decoders agree with the oracle's on all 256 codes of every encoding (the oracle's are
 * checked against the formats' definitions in test_compare). */
Test(manifest, ref_h_fp8_decoders) {
  for (unsigned c = 0; c < 256; c++) {
    float r[4] = {lanelab_fp8_e4m3_to_float((uint8_t)c), lanelab_fp8_e5m2_to_float((uint8_t)c),
                  lanelab_fp8_e4m3_fnuz_to_float((uint8_t)c), lanelab_fp8_e5m2_fnuz_to_float((uint8_t)c)};
    oracle_fp8 k[4] = {ORACLE_FP8_E4M3, ORACLE_FP8_E5M2, ORACLE_FP8_E4M3_FNUZ, ORACLE_FP8_E5M2_FNUZ};
    for (int i = 0; i < 4; i++) {
      float o = oracle_fp8_to_f32((uint8_t)c, k[i]);
      cr_assert(r[i] == o || (r[i] != r[i] && o != o), "format %d code 0x%02x: ref.h %a, oracle %a", i, c, r[i], o);
    }
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

/* --strict-fidelity (docs/fidelity.md) counts every emulator launch of the verify, mutants
 * included. The example's mutant indexes x with (i * 2) % n: an unsigned 32-bit remainder, which
 * LLVM's AMDGPU backend expands through v_rcp_iflag_f32 (a transcendental, on the
 * transcendental-rounding choice), so the example fails strict and names saxpy. Without the
 * mutant, saxpy (a multiply-add) and block_sum (integer adds) rest on no choice and strict passes. */
Test(manifest, strict_fidelity_fails_a_verify_that_rests_on_a_choice, .timeout = 120) {
  char *d = example_copy(), *out;
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950 --strict-fidelity", d);
  int rc = sh(cmd, &out);
  cr_expect_eq(rc, 1, "exit %d:\n%s", rc, out);
  cr_expect(strstr(out, "--strict-fidelity: ") && strstr(out, "transcendental-rounding") && strstr(out, "first saxpy 0x") &&
                strstr(out, "v_rcp_iflag_f32") && strstr(out, "verdict: FAIL"),
            "%s", out);
  free(out);
  char *mpath = ll_fmt("%s/manifest.json", d);
  size_t n;
  char *m = ll_read_file(mpath, &n, NULL);
  cr_assert_not_null(m);
  const char *mut = ",\n      \"mutants\": [{\"name\": \"wrong_stride\", \"defines\": [\"-DBUG_STRIDE=1\"]}]";
  char *at = strstr(m, mut);
  cr_assert_not_null(at, "the example's mutant line changed:\n%s", m);
  memmove(at, at + strlen(mut), strlen(at + strlen(mut)) + 1);
  put(d, "manifest.json", m);
  rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d:\n%s", rc, out);
  cr_expect(strstr(out, "none rests on a stated choice") && strstr(out, "verdict: pass"), "%s", out);
  free(out), free(m), free(mpath), free(cmd), free(d);
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

/* An escaped mutant: its code differs from the correct kernel's (one more s_nop), but every output
 * is the same, so nothing catches it. (A mutant whose code is byte-identical to the correct kernel
 * is not applicable, not escaped: manifest/identical_mutant_is_not_applicable_with_the_proof.) */
Test(manifest, escaped_mutant_fails_and_bad_manifest_is_exit_2, .timeout = 120) {
  char *d = example_copy(), *out;
  char *cmd = ll_fmt("sed -i 's/-DBUG_STRIDE=1/-DHARMLESS=1/' %s/manifest.json && "
                     "sed -i 's/^  uint32_t xi = i;/  uint32_t xi = i;\\n#if HARMLESS\\n  asm volatile(\"s_nop 0\");\\n#endif/' "
                     "%s/kernels/saxpy.hip && grep -q 's_nop 0' %s/kernels/saxpy.hip", d, d, d);
  cr_assert_eq(sh(cmd, NULL), 0, "%s", cmd);
  free(cmd);
  cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "an escaped mutant fails verify; exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "mutant wrong_stride of saxpy on gfx950 was not caught"), "%s", out);
  free(out);
  put(d, "k.hip", "// the manifest's source exists: the bad field is the grid\n");
  put(d, "manifest.json", "{\"kernels\": [{\"name\": \"k\", \"source\": \"k.hip\", \"grid\": [0], \"block\": [1], \"args\": []}]}");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 2, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "kernels[0].grid[0]: expected an integer in [1,"), "%s", out);
  free(cmd); free(out); free(d);
}

/* ---- "checks": racecheck and initcheck on manifest kernels ------------------------------------ */
/* block_sum (the example's reference) with a switch that drops the barrier inside the tree loop:
 * wave 1 writes part[64..127] in the s=128 step and wave 0 reads them in the s=64 step with no
 * barrier between (a RAW hazard on LDS). Under the round-robin schedule the waves run in lockstep,
 * so the write still lands first and the sums are right: only racecheck sees the bug. INIT_BUG
 * reads the poisoned output before writing it (an initcheck finding whose result is still right:
 * adding 0 when it reads the poison 0xffffffff). */
static const char racy_sum_src[] =
    "#include \"lanelab_device.h\"\n"
    "extern \"C\" __global__ void racy_sum(const uint32_t *in, uint32_t *sums) {\n"
    "  __shared__ uint32_t part[256];\n"
    "  uint32_t t = threadIdx.x;\n"
    "  part[t] = in[blockIdx.x * 256 + t];\n"
    "  __syncthreads();\n"
    "  for (uint32_t s = 128; s > 0; s >>= 1) {\n"
    "    if (t < s) part[t] += part[t + s];\n"
    "#if !RACY\n"
    "    __syncthreads();\n"
    "#endif\n"
    "  }\n"
    "#if INIT_BUG\n"
    "  if (t == 0) sums[blockIdx.x] = part[0] + (sums[blockIdx.x] == 0xffffffffu ? 0u : 1u);\n"
    "#else\n"
    "  if (t == 0) sums[blockIdx.x] = part[0];\n"
    "#endif\n"
    "}\n";

static void racy_manifest(const char *d, const char *defines, const char *checks) {
  char *j = ll_fmt("{\"kernels\": [{\"name\": \"racy_sum\", \"source\": \"kernels/racy_sum.hip\", \"arch\": \"gfx950\","
                   " \"grid\": [64], \"block\": [256], \"defines\": [%s],"
                   " \"args\": [{\"name\": \"in\", \"in\": {\"dtype\": \"u32\", \"shape\": [64, 256], \"init\": \"uniform(0,1000)\"}},"
                   " {\"name\": \"sums\", \"out\": {\"dtype\": \"u32\", \"shape\": [64]}}],"
                   " \"reference\": {\"c\": \"ref/ref.c\", \"function\": \"block_sum_ref\"}%s%s%s}]}",
                   defines, checks ? ", \"checks\": [" : "", checks ? checks : "", checks ? "]" : "");
  put(d, "m.json", j);
  free(j);
}

Test(manifest, checks_racecheck_and_initcheck_fail_a_kernel_whose_outputs_match, .timeout = 240) {
  char *d = example_copy(), *out;
  put(d, "kernels/racy_sum.hip", racy_sum_src);
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/m.json", d);
  /* the missing barrier, checks off: the round-robin outputs match, so verify passes */
  racy_manifest(d, "\"-DRACY=1\"", NULL);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "checks off: exit %d:\n%s", rc, out);
  free(out);
  /* racecheck on: the same kernel fails, the console line naming kernel, kind, both PCs, lanes,
   * the LDS address */
  racy_manifest(d, "\"-DRACY=1\"", "\"racecheck\"");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "racecheck: exit %d:\n%s", rc, out);
  const char *line = strstr(out, "lanelab: FAIL racy_sum on gfx950 (roundrobin schedule): racecheck: ");
  cr_assert_not_null(line, "%s", out);
  const char *hz = strstr(line, "first: RAW hazard on LDS byte 0x");
  cr_assert_not_null(hz, "a RAW hazard on LDS:\n%s", out);
  const char *w = strstr(hz, "written by pc 0x"), *rd = w ? strstr(w, "then read by pc 0x") : NULL;
  cr_assert(w && rd && strstr(w, "wave 1 lane") && strstr(rd, "wave 0 lane") && strstr(rd, "with no s_barrier between"),
            "writer wave 1 and reader wave 0, each with its pc and lane:\n%s", out);
  cr_assert(strstr(out, "report ") && strstr(out, "stage-outputs.html"), "%s", out);
  free(out);
  /* initcheck on the poisoned output read before its write (barriers intact) */
  racy_manifest(d, "\"-DINIT_BUG=1\"", "\"initcheck\", \"racecheck=global\"");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "initcheck: exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "FAIL racy_sum on gfx950 (roundrobin schedule): racecheck=global+initcheck: 1 report; first: "
                        "UNINIT global 0x"), "%s", out);
  /* sums[blockIdx.x] is uniform: clang reads it with s_load_dword, one scalar access per workgroup
   * (64 workgroups x 4 bytes) */
  cr_assert(strstr(out, "(buffer 'sums') read before any write: pc 0x") && strstr(out, "'s_load_dword ") &&
            strstr(out, "wave 0 scalar (256 bytes)"), "%s", out);
  free(out);
  /* the correct kernel is clean under every check, and the kernels table names them */
  racy_manifest(d, "", "\"racecheck=global\", \"initcheck\"");
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "clean kernel: exit %d:\n%s", rc, out);
  free(out);
  char *res = ll_fmt("%s/build/lanelab/results/gfx950/outputs.json", d);
  char *txt = ll_read_file(res, NULL, NULL);
  cr_assert_not_null(txt, "%s", res);
  cr_assert(strstr(txt, "racecheck=global+initcheck: clean"), "the case says the checks ran:\n%.2000s", txt);
  free(txt); free(res); free(cmd); free(d);
}

/* ---- lanelab merge -------------------------------------------------------------------------- */
static ll_json *stage_json(const char *build, const char *stage) {
  char *p = ll_fmt("%s/results/gfx950/%s.json", build, stage);
  ll_err e = {0};
  ll_json *j = ll_json_parse_file(p, &e);
  cr_assert_not_null(j, "%s: %s", p, e.msg);
  free(p);
  return j;
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "c1|c2|...\n" for each row of the table titled `title`, columns cols (sorted lines). */
static char *rows_of(const ll_json *st, const char *title, const char *const *cols, size_t ncols, size_t *nrows) {
  const ll_json *tabs = ll_json_get(st, "tables");
  for (size_t t = 0; t < tabs->n; t++) {
    if (strcmp(ll_json_get(tabs->items[t], "title")->str, title)) continue;
    const ll_json *rows = ll_json_get(tabs->items[t], "rows");
    char **lines = ll_xcalloc(rows->n + 1, sizeof *lines);
    for (size_t r = 0; r < rows->n; r++) {
      ll_buf b = {0};
      for (size_t c = 0; c < ncols; c++) {
        const ll_json *v = ll_json_get(rows->items[r], cols[c]);
        cr_assert_not_null(v, "row %zu of '%s' has no %s", r, title, cols[c]);
        if (v->type == LL_JSTR) ll_buf_printf(&b, "%s|", v->str);
        else ll_buf_printf(&b, "%g|", v->num);
      }
      lines[r] = ll_xstrdup(ll_buf_str(&b));
      ll_buf_free(&b);
    }
    qsort(lines, rows->n, sizeof *lines, cmp_line);
    ll_buf all = {0};
    for (size_t r = 0; r < rows->n; r++) { ll_buf_printf(&all, "%s\n", lines[r]); free(lines[r]); }
    free(lines);
    *nrows = rows->n;
    ll_buf_str(&all);
    return all.data;
  }
  cr_assert_fail("no table '%s'", title);
  return NULL;
}

Test(manifest, shard_three_then_merge_gives_the_unsharded_verdicts_and_cases, .timeout = 240) {
  char *d = example_copy(), *out;
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950 --build %s/full", d, d);
  cr_assert_eq(sh(cmd, &out), 0, "%s", out);
  free(cmd); free(out);
  for (int i = 0; i < 3; i++) {
    cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950 --shard %d/3 --build %s/s%d", d, i, d, i);
    cr_assert_eq(sh(cmd, &out), 0, "%s", out);
    free(cmd); free(out);
  }
  /* a missing shard is bad input naming it */
  cmd = ll_fmt(LANELAB " -q merge --out %s/merged %s/s2 %s/s0", d, d, d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 2, "exit %d: %s", rc, out);
  cr_assert(strstr(out, "shard 1/3 missing"), "%s", out);
  free(cmd); free(out);
  cmd = ll_fmt(LANELAB " -q merge --out %s/merged %s/s2 %s/s0 %s/s1", d, d, d, d);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
  free(cmd); free(out);
  char *full = ll_fmt("%s/full", d), *merged = ll_fmt("%s/merged", d);
  static const char *const stages[] = {"kernels", "isa", "outputs", "mutants"};
  for (size_t s = 0; s < 4; s++) {
    ll_json *a = stage_json(full, stages[s]), *b = stage_json(merged, stages[s]);
    cr_assert_str_eq(ll_json_get(a, "verdict")->str, ll_json_get(b, "verdict")->str, "stage %s", stages[s]);
    ll_json_free(a); ll_json_free(b);
  }
  /* the same cases with the same verdicts; each case ran in exactly one shard */
  ll_json *a = stage_json(full, "outputs"), *b = stage_json(merged, "outputs");
  static const char *const cc[] = {"case", "verdict"};
  size_t na, nb, ns;
  char *ra = rows_of(a, "cases", cc, 2, &na), *rb = rows_of(b, "cases", cc, 2, &nb);
  cr_assert_eq(na, 3, "saxpy/roundrobin, block_sum/roundrobin, block_sum/adversarial:\n%s", ra);
  cr_assert_str_eq(ra, rb);
  static const char *const cs[] = {"shard"};
  char *shards = rows_of(b, "cases", cs, 1, &ns);
  /* case k of gfx950 is 1, 4, 5 (saxpy rr; block_sum rr, adversarial; docs/manifest.md numbering) */
  cr_assert_str_eq(shards, "1/3|\n1/3|\n2/3|\n");
  free(ra); free(rb); free(shards);
  ll_json_free(a); ll_json_free(b);
  a = stage_json(full, "mutants"); b = stage_json(merged, "mutants");
  static const char *const mc[] = {"mutant", "case", "verdict", "mutant_mismatches"};
  ra = rows_of(a, "manifest mutants (each must fail against the reference)", mc, 4, &na);
  rb = rows_of(b, "manifest mutants (each must fail against the reference)", mc, 4, &nb);
  cr_assert_eq(na, 1);
  cr_assert_str_eq(ra, rb);
  free(ra); free(rb);
  ll_json_free(a); ll_json_free(b);
  char *idx = ll_fmt("%s/reports/gfx950/index.html", merged);
  struct stat st;
  cr_assert_eq(stat(idx, &st), 0, "merged report %s", idx);
  /* the merged JUnit file: one testcase per stage (4) and per case (3 outputs + 1 mutant), none failing */
  char *jp = ll_fmt("%s/junit.xml", merged);
  char *junit = ll_read_file(jp, NULL, NULL);
  cr_assert_not_null(junit, "%s", jp);
  cr_assert(strstr(junit, "tests=\"8\" failures=\"0\" errors=\"0\" skipped=\"0\""), "%s", junit);
  cr_assert(strstr(junit, "classname=\"lanelab.gfx950.outputs\" name=\"block_sum/adversarial\""), "%s", junit);
  free(junit); free(jp);
  free(idx); free(full); free(merged); free(d);
}

/* ---- the other references: expected files, the attention oracle --------------------------------- */
Test(manifest, expected_files_and_oracle_references, .timeout = 180) {
  char *d = example_copy(), *out;
  /* block_sum over in[b][i] = b*256 + i (iota): sums[b] = 256*256*b + 255*256/2 (a formula) */
  uint32_t in[2 * 256], sums[2];
  for (uint32_t i = 0; i < 2 * 256; i++) in[i] = i;
  for (uint32_t b = 0; b < 2; b++) sums[b] = 256 * 256 * b + 255 * 256 / 2;
  char *p = ll_fmt("%s/in.bin", d), *q = ll_fmt("%s/sums.bin", d);
  cr_assert(ll_write_file_atomic(p, in, sizeof in, NULL));
  cr_assert(ll_write_file_atomic(q, sums, sizeof sums, NULL));
  free(p); free(q);
  /* the oracle on a small single-request f32 problem; the copy kernel returns what it is given,
   * so the reference must be exactly the oracle's O (read here with the oracle itself) */
  put(d, "attn.json", "{\"kind\": \"single\", \"dtype\": \"f32\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, "
                      "\"head_dim\": 16, \"qo_indptr\": [0, 4], \"kv_indptr\": [0, 5], \"seed\": 7}");
  char *spec = ll_fmt("%s/attn.json", d);
  ll_err e = {0};
  oracle_attention_spec *s = oracle_attention_spec_load(spec, &e);
  cr_assert_not_null(s, "%s", e.msg);
  float o[64], lse[4];
  cr_assert(oracle_attention_run(s, o, lse, NULL, &e), "%s", e.msg);
  oracle_attention_spec_free(s);
  p = ll_fmt("%s/o_expected.bin", d);
  cr_assert(ll_write_file_atomic(p, o, sizeof o, NULL));
  free(p); free(spec);
  put(d, "kernels/copy.hip",
      "#include \"lanelab_device.h\"\n"
      "extern \"C\" __global__ void copy(const float *q, const float *src, float *dst, uint32_t n) {\n"
      "  uint32_t i = threadIdx.x;\n"
      "#if ZERO\n  if (i < n) dst[i] = 0.0f;\n#else\n  if (i < n) dst[i] = src[i] + (q[i] - q[i]);\n#endif\n}\n");
  put(d, "m.json",
      "{\"kernels\": ["
      "{\"name\": \"block_sum\", \"source\": \"kernels/block_sum.hip\", \"arch\": \"gfx950\", \"grid\": [2], \"block\": [256],"
      " \"args\": [{\"name\": \"in\", \"in\": {\"file\": \"in.bin\", \"dtype\": \"u32\"}},"
      " {\"name\": \"sums\", \"out\": {\"dtype\": \"u32\", \"shape\": [2]}}],"
      " \"reference\": {\"files\": {\"sums\": \"sums.bin\"}}},"
      "{\"name\": \"copy\", \"source\": \"kernels/copy.hip\", \"arch\": \"gfx950\", \"grid\": [1], \"block\": [64],"
      " \"args\": [{\"name\": \"q\", \"in\": {\"oracle\": \"q\"}}, {\"name\": \"src\", \"in\": {\"file\": \"o_expected.bin\", \"dtype\": \"f32\"}},"
      " {\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [4, 1, 16]}}, {\"name\": \"n\", \"u32\": 64}],"
      " \"reference\": {\"oracle\": \"attention\", \"spec\": \"attn.json\", \"outputs\": {\"o\": \"o\"}},"
      " \"compare\": {\"o\": {\"atol\": 0, \"rtol\": 0}},"
      " \"mutants\": [{\"name\": \"zero\", \"defines\": [\"-DZERO=1\"]}]}]}");
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/m.json", d);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "2 cases matched their references"), "%s", out);
  cr_assert(strstr(out, "1 of 1 mutants caught"), "%s", out);
  free(out);
  /* a wrong expected file is a failure naming the element */
  sums[1]++;
  p = ll_fmt("%s/sums.bin", d);
  cr_assert(ll_write_file_atomic(p, sums, sizeof sums, NULL));
  free(p);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 1, "exit %d:\n%s", rc, out);
  char *want = ll_fmt("first mismatch sums[1]: got %u, expected %u", sums[1] - 1, sums[1]);
  cr_assert(strstr(out, want), "'%s' in:\n%s", want, out);
  free(want); free(cmd); free(out); free(d);
}

/* ---- lanelab's own kernels/: a file no stage checks fails the kernels stage ------------------- */
#include "verify/verify.h"

static stage_result kernels_stage(const char *build) {
  void (*fn)(const verify_ctx *, stage_result *) = NULL;
  for (size_t i = 0; i < verify_nstages; i++)
    if (!strcmp(verify_stages[i].name, "kernels")) fn = verify_stages[i].run;
  cr_assert_not_null(fn);
  verify_ctx c = {.build = build, .shapes = "quick", .backend = "emu", .shard_n = 1, .arch = EMU_GFX950,
                  .arch_name = "gfx950"};
  verify_quiet = true;
  stage_result r = {.v = VERDICT_NOT_RUN};
  fn(&c, &r);
  return r;
}

Test(manifest, lab_kernel_no_stage_checks_is_not_checked_and_fails) {
  /* a tree of its own: one bench kernel, built, and a lab manifest that does not cover it */
  char *d = tmpd();
  cr_assert_eq(chdir(d), 0);
  cr_assert(ll_mkdir_p("kernels/bench", NULL) && ll_mkdir_p("build/gfx950/kernels", NULL) && ll_mkdir_p("src", NULL));
  put(d, "kernels/bench/extra.hip", "// a kernel nobody checks\n");
  put(d, "src/other.hip", "// the manifest's kernel, outside kernels/ (its files must exist)\n");
  put(d, "kernels/r.c", "/* its reference */\n");
  put(d, "build/gfx950/kernels/extra.co", "not a code object: the kernels stage only looks at its presence");
  put(d, "kernels/manifest.json",
      "{\"kernels\": [{\"name\": \"other\", \"source\": \"../src/other.hip\", \"grid\": [1], \"block\": [64],"
      " \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [1]}}],"
      " \"reference\": {\"c\": \"r.c\", \"function\": \"f\"}}]}");
  stage_result r = kernels_stage("build");
  cr_assert_eq(r.v, VERDICT_FAIL, "%s", r.summary);
  cr_assert(strstr(r.summary, "1 of 1 kernels NOT CHECKED") && strstr(r.summary, "kernels/bench/extra.hip"), "%s", r.summary);
  cr_assert(strstr(report_table_cell(r.tables[0], 0, 3), "NOT CHECKED"), "%s", report_table_cell(r.tables[0], 0, 3));
  /* once the lab manifest checks it (a reference), the file is checked by the manifest stage */
  put(d, "kernels/manifest.json",
      "{\"kernels\": [{\"name\": \"extra\", \"source\": \"bench/extra.hip\", \"grid\": [1], \"block\": [64],"
      " \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [1]}}],"
      " \"reference\": {\"c\": \"r.c\", \"function\": \"f\"}}]}");
  stage_result r2 = kernels_stage("build");
  cr_assert_eq(r2.v, VERDICT_PASS, "%s", r2.summary);
  cr_assert(strstr(report_table_cell(r2.tables[0], 0, 3), "manifest (kernels/manifest.json: extra)"), "%s",
            report_table_cell(r2.tables[0], 0, 3));
  free(d);
}

/* ---- what a new user missed (issue #29, item 4) ------------------------------------------------
 * Kernels written here the way a user writes them (ordinary HIP), each with a C reference written
 * from the kernel's own definition, run end to end through `lanelab verify --manifest`. */

/* i64 buffers: vLLM's positions and slot mappings are int64. A gather through an int64 index
 * array (slot_mapping) with indices above 2^32 / 4 bytes apart would truncate if the buffer were
 * read as 32-bit; the reference indexes with the same int64 values. */
static const char gather_src[] =
    "#include <hip/hip_runtime.h>\n"
    "extern \"C\" __global__ void gather_rows(const float *src, const int64_t *slot, float *dst, int64_t n) {\n"
    "  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) dst[i] = src[slot[i] % 4096] + (float)(slot[i] >> 32);\n"
    "}\n";
static const char gather_ref[] =
    "#include <lanelab/ref.h>\n"
    "void gather_rows_ref(const float *src, const int64_t *slot, float *dst, int64_t n) {\n"
    "  for (int64_t i = 0; i < n; i++) dst[i] = src[slot[i] % 4096] + (float)(slot[i] >> 32);\n"
    "}\n";

/* fp8: a quantize kernel writing OCP e4m3 bytes by the kernel's own rounding (a truncating one: its
 * output is within one e4m3 step of the round-to-nearest reference, so the fp8 comparison, as
 * values of that encoding at the default one-step tolerance, passes; a kernel that wrote the f32's
 * low byte would not). */
static const char quant_src[] =
    "#include <hip/hip_runtime.h>\n"
    "__device__ static unsigned char to_e4m3(float x) {\n"
    "  unsigned s = x < 0 ? 0x80u : 0u; float a = x < 0 ? -x : x;\n"
    "  if (a > 448.0f) a = 448.0f;\n"
    "  if (a < 0.015625f) return s | (unsigned char)(a * 512.0f);\n"            /* subnormal: m * 2^-9 */
    "  int e = 0; while (a >= 2.0f) { a *= 0.5f; e++; } while (a < 1.0f) { a *= 2.0f; e--; }\n"
    "  unsigned m = (unsigned)((a - 1.0f) * 8.0f);\n"                           /* truncate the mantissa */
    "  return s | (unsigned char)((e + 7) << 3) | (unsigned char)m;\n"
    "}\n"
    "extern \"C\" __global__ void quantize(const float *x, unsigned char *q, float scale, uint32_t n) {\n"
    "  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) q[i] = to_e4m3(x[i] * scale);\n"
    "}\n";
static const char quant_ref[] =
    "#include <lanelab/ref.h>\n"
    "#include <math.h>\n"
    /* round to nearest even over the non-negative e4m3 values (OCP FP8: bias 7, 3 mantissa bits,
     * max 448, no infinity), written here from the format's definition */
    "static double e4m3(unsigned c) { unsigned e = (c >> 3) & 15, m = c & 7;\n"
    "  return e ? ldexp(1.0 + m / 8.0, (int)e - 7) : ldexp((double)m, -9); }\n"
    "static uint8_t to_e4m3(float x) { double a = fabs((double)x); unsigned best = 0; double bd = 1e300;\n"
    "  for (unsigned c = 0; c < 127; c++) { double d = fabs(e4m3(c) - a); if (d < bd || (d == bd && !(c & 1))) { bd = d; best = c; } }\n"
    "  return (uint8_t)(best | (x < 0 && best ? 0x80u : 0u)); }\n"
    "void quantize_ref(const float *x, uint8_t *q, float scale, uint32_t n) {\n"
    "  for (uint32_t i = 0; i < n; i++) q[i] = to_e4m3(x[i] * scale);\n"
    "}\n";

Test(manifest, i64_buffers_and_fp8_outputs_compare_as_their_values, .timeout = 180) {
  char *d = tmpd(), *out;
  put(d, "gather.hip", gather_src);
  put(d, "gather_ref.c", gather_ref);
  put(d, "quant.hip", quant_src);
  put(d, "quant_ref.c", quant_ref);
  put(d, "manifest.json",
      "{\"kernels\": [\n"
      " {\"name\": \"gather_rows\", \"source\": \"gather.hip\", \"arch\": \"gfx950\", \"grid\": [4], \"block\": [256],\n"
      "  \"args\": [{\"name\": \"src\", \"in\": {\"dtype\": \"f32\", \"shape\": [4096]}},\n"
      "            {\"name\": \"slot\", \"in\": {\"dtype\": \"i64\", \"shape\": [1000], \"init\": \"iota(4294967296000, 4294967299)\"}},\n"
      "            {\"name\": \"dst\", \"out\": {\"dtype\": \"f32\", \"shape\": [1000]}},\n"
      "            {\"name\": \"n\", \"i64\": 1000}],\n"
      "  \"reference\": {\"c\": \"gather_ref.c\", \"function\": \"gather_rows_ref\"}},\n"
      " {\"name\": \"quantize\", \"source\": \"quant.hip\", \"arch\": \"gfx950\", \"grid\": [2], \"block\": [256],\n"
      "  \"args\": [{\"name\": \"x\", \"in\": {\"dtype\": \"f32\", \"shape\": [500], \"init\": \"normal(0,40)\"}},\n"
      "            {\"name\": \"q\", \"out\": {\"dtype\": \"fp8_e4m3\", \"shape\": [500]}},\n"
      "            {\"name\": \"scale\", \"f32\": 1.5}, {\"name\": \"n\", \"u32\": 500}],\n"
      "  \"reference\": {\"c\": \"quant_ref.c\", \"function\": \"quantize_ref\", \"cflags\": [\"-lm\"]}}]}\n");
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950", d);
  int rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d:\n%s", rc, out);
  free(out);
  /* the comparison is as fp8 values: the truncating kernel is one step from the reference, and an
   * exact byte comparison (u8) would see that */
  char *res = ll_fmt("%s/build/lanelab/results/gfx950/outputs.json", d), *text = NULL;
  size_t n = 0;
  cr_assert_not_null(text = ll_read_file(res, &n, NULL), "%s", res);
  cr_expect(strstr(text, "\"dtype\":\"fp8_e4m3\""), "%s", text);
  free(text);
  char *u8 = ll_fmt("sed -i 's/\"fp8_e4m3\"/\"u8\"/' %s/manifest.json && " LANELAB " -q verify --manifest %s/manifest.json "
                    "--arch gfx950", d, d);
  rc = sh(u8, &out);
  cr_expect_eq(rc, 1, "the same bytes compared as u8 should differ by the rounding: exit %d\n%s", rc, out);
  free(out); free(u8); free(res); free(cmd); free(d);
}

/* A scalar's manifest type is checked: against the C reference's prototype ("f32" for an int n is
 * a compile error naming the prototype lanelab calls) and against the kernel's argument size
 * ("f64" for a 4-byte parameter is refused before any case runs). Both exit 2. */
Test(manifest, scalar_types_are_checked_against_the_reference_and_the_kernel, .timeout = 180) {
  char *d = tmpd(), *out;
  put(d, "k.hip", "#include <hip/hip_runtime.h>\n"
                  "extern \"C\" __global__ void scale(float *x, int n) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }\n");
  put(d, "r.c", "#include <lanelab/ref.h>\nvoid scale_ref(float *x, int n) { for (int i = 0; i < n; i++) x[i] *= 2.0f; }\n");
  const char *tmpl = "{\"kernels\": [{\"name\": \"scale\", \"source\": \"k.hip\", \"arch\": \"gfx950\", \"grid\": [4], "
                     "\"block\": [256], \"args\": [{\"name\": \"x\", \"inout\": {\"dtype\": \"f32\", \"shape\": [1000]}}, "
                     "{\"name\": \"n\", \"%s\": 1000}], \"reference\": {\"c\": \"r.c\", \"function\": \"scale_ref\"}}]}";
  const struct { const char *type, *says; } cases[] = {
      {"f32", "prototype disagrees with the kernel's arguments"}, /* same size: only the prototype sees it */
      {"f64", "kernels[0].args[1] 'n': the manifest gives f64 (8 bytes); the kernel's argument 1 is 4 bytes"},
  };
  for (size_t i = 0; i < 2; i++) {
    char *j = ll_fmt(tmpl, cases[i].type);
    put(d, "manifest.json", j);
    char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950 2>&1", d);
    int rc = sh(cmd, &out);
    cr_expect_eq(rc, 2, "\"%s\" for an int: exit %d\n%s", cases[i].type, rc, out);
    cr_expect(strstr(out, cases[i].says), "\"%s\": '%s' not in:\n%s", cases[i].type, cases[i].says, out);
    if (i == 0) cr_expect(strstr(out, "void scale_ref(float *x, float n)"), "the prototype lanelab calls:\n%s", out);
    free(out); free(cmd); free(j);
  }
  char *j = ll_fmt(tmpl, "i32");
  put(d, "manifest.json", j);
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json --arch gfx950", d);
  int rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "the right type passes: exit %d\n%s", rc, out);
  free(out); free(cmd); free(j); free(d);
}

/* A missing source is exit 2 naming the file, first; no error line carries a stray ": :". */
Test(manifest, missing_source_is_exit_2_naming_it_first) {
  char *d = tmpd(), *out;
  put(d, "manifest.json", "{\"kernels\": [{\"name\": \"k\", \"source\": \"kernels/nothere.hip\", \"grid\": [1], "
                          "\"block\": [64], \"args\": [{\"name\": \"o\", \"out\": {\"dtype\": \"f32\", \"shape\": [64]}}], "
                          "\"not_checked\": \"a test\"}]}");
  char *cmd = ll_fmt(LANELAB " verify --manifest %s/manifest.json 2>&1", d);
  int rc = sh(cmd, &out);
  cr_expect_eq(rc, 2, "exit %d\n%s", rc, out);
  char *want = ll_fmt("lanelab: manifest %s/manifest.json: kernels[0].source: kernels/nothere.hip does not exist", d);
  cr_expect(!strncmp(out, want, strlen(want)), "the first line is not the cause:\n%s\nwant: %s", out, want);
  cr_expect_null(strstr(out, ": :"), "a stray ': :' in:\n%s", out);
  cr_expect_null(strstr(out, ".co"), "a later symptom instead of the cause:\n%s", out);
  free(want); free(out); free(cmd); free(d);
}

/* Per-arch mutants: a mutant may name its arches; one whose code is byte-identical to the correct
 * build on an arch is "not applicable" there, with the identity as proof, never "not caught". The
 * kernel has a gfx950-only path (__gfx950__); the mutant changes only that path. */
static const char perarch_src[] =
    "#include <hip/hip_runtime.h>\n"
    "extern \"C\" __global__ void twice(const float *x, float *y, uint32_t n) {\n"
    "  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "#if defined(__gfx950__) && BUG_950\n"
    "  y[i] = x[i] * 3.0f;\n"
    "#else\n"
    "  y[i] = x[i] * 2.0f;\n"
    "#endif\n"
    "}\n";

Test(manifest, per_arch_mutant_is_not_applicable_where_its_code_is_identical, .timeout = 180) {
  char *d = tmpd(), *out;
  put(d, "k.hip", perarch_src);
  put(d, "r.c", "#include <lanelab/ref.h>\nvoid twice_ref(const float *x, float *y, uint32_t n) {\n"
                "  for (uint32_t i = 0; i < n; i++) y[i] = x[i] * 2.0f; }\n");
  const char *tmpl = "{\"kernels\": [{\"name\": \"twice\", \"source\": \"k.hip\", \"grid\": [4], \"block\": [256], "
                     "\"args\": [{\"name\": \"x\", \"in\": {\"dtype\": \"f32\", \"shape\": [1000]}}, "
                     "{\"name\": \"y\", \"out\": {\"dtype\": \"f32\", \"shape\": [1000]}}, {\"name\": \"n\", \"u32\": 1000}], "
                     "\"reference\": {\"c\": \"r.c\", \"function\": \"twice_ref\"}, "
                     "\"mutants\": [{\"name\": \"bug950\", \"defines\": [\"-DBUG_950=1\"]%s}]}]}";
  put(d, "manifest.json", ll_fmt(tmpl, ""));
  char *cmd = ll_fmt(LANELAB " -q verify --manifest %s/manifest.json", d);
  int rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d\n%s", rc, out);
  char *mj = ll_fmt("%s/build/lanelab/results/gfx942/mutants.json", d), *t = NULL;
  size_t n;
  cr_assert_not_null(t = ll_read_file(mj, &n, NULL), "%s", mj);
  cr_expect(strstr(t, "not applicable on gfx942: .text byte-identical to the correct twice.co (isa diff)"), "%s", t);
  cr_expect_null(strstr(t, "escaped"), "%s", t);
  free(t);
  free(mj);
  mj = ll_fmt("%s/build/lanelab/results/gfx950/mutants.json", d);
  cr_assert_not_null(t = ll_read_file(mj, &n, NULL), "%s", mj);
  cr_expect(strstr(t, "\"verdict\":\"caught\""), "%s", t);
  free(t); free(mj); free(out);
  /* naming its arch: gfx942 does not build or run it at all */
  put(d, "manifest.json", ll_fmt(tmpl, ", \"arch\": \"gfx950\""));
  rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d\n%s", rc, out);
  mj = ll_fmt("%s/build/lanelab/results/gfx942/mutants.json", d);
  cr_assert_not_null(t = ll_read_file(mj, &n, NULL), "%s", mj);
  cr_expect(strstr(t, "not applicable on gfx942: the manifest lists this mutant for other arches only"), "%s", t);
  free(t); free(mj); free(out);
  /* an arch the kernel does not have is refused by name */
  put(d, "manifest.json", ll_fmt("{\"kernels\": [{\"name\": \"twice\", \"source\": \"k.hip\", \"arch\": \"gfx942\", "
                                 "\"grid\": [4], \"block\": [256], \"args\": [{\"name\": \"y\", \"out\": {\"dtype\": "
                                 "\"f32\", \"shape\": [4]}}], \"reference\": {\"c\": \"r.c\", \"function\": \"twice_ref\"}, "
                                 "\"mutants\": [{\"name\": \"m\", \"defines\": [\"-DX=1\"], \"arch\": \"gfx950\"}]}]}"));
  rc = sh(cmd, &out);
  cr_expect(rc == 2 && strstr(out, "kernels[0].mutants[0].arch: gfx950 is not an arch of the kernel"), "exit %d\n%s", rc, out);
  free(out); free(cmd); free(d);
}
