/* Tests for verify/mutate: the mutator's sites on hand-written snippets (expected mutants
 * written out here from the operator list in verify/mutate.h), what it must never touch, the
 * application of a mutant, and `lanelab mutate --list` on the real kernels. The build-and-gate
 * part runs in `make mutate`; here only one mutant of the headers' lanes gate (it compiles kernels). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/shell.h"
#include "verify/mutate.h"

static mutate_site *scan_text(const char *text, size_t *n) {
  mutate_site *s = NULL;
  *n = 0;
  mutate_scan("snippet.h", text, strlen(text), &s, n);
  return s;
}

/* Removes a test's temporary directory (and frees its name). */
static void rm_tmpdir(char *dir) {
  char *cmd = ll_fmt("rm -rf '%s'", dir);
  cr_expect_eq(sh_run(cmd, NULL), 0, "%s", cmd);
  free(cmd);
  free(dir);
}

static size_t count(const mutate_site *s, size_t n, const char *desc) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += strcmp(s[i].desc, desc) == 0;
  return c;
}

Test(mutate_scan, operators_constants_terms_and_args_of_one_function) {
  const char *t = "LL_INLINE uint32_t f(uint32_t a, uint32_t b) {\n"
                  "  if (a < b && b >= 2) return g(a, b);\n"
                  "  return a + b * 4;\n"
                  "}\n";
  size_t n;
  mutate_site *s = scan_text(t, &n);
  const char *want[] = {"'<' -> '<='", "'&&' -> '||'", "'>=' -> '>'", "2 -> 1", "2 -> 3",
                        "swapped arguments 1 and 2 of g ('a', 'b')", "'+' -> '-'", "'*' -> '/'", "4 -> 3", "4 -> 5",
                        "dropped '+ b * 4'", "dropped 'a +'"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    cr_expect_eq(count(s, n, want[i]), 1, "want exactly one '%s', found %zu", want[i], count(s, n, want[i]));
  cr_expect_eq(n, sizeof want / sizeof *want, "%zu mutants, want %zu", n, sizeof want / sizeof *want);
  for (size_t i = 0; i < n; i++) cr_expect_str_eq(s[i].func, "f", "%s in %s", s[i].desc, s[i].func);
  /* the declaration f(uint32_t a, uint32_t b) is not a call: no swap of its parameters */
  cr_expect_eq(count(s, n, "swapped arguments 1 and 2 of f ('uint32_t a', 'uint32_t b')"), 0);
  mutate_sites_free(s, n);
}

Test(mutate_scan, comments_strings_preprocessor_templates_and_unary_are_left_alone) {
  const char *t = "#define K (1 + 2)\n"
                  "// a + b < 3\n"
                  "/* x * 4 */\n"
                  "template <int N> LL_INLINE int h(const int *p) {\n"
                  "  static_assert(N > 0, \"N + 1\");\n"
                  "  return -p[0] + sizeof(int);\n"
                  "}\n";
  size_t n;
  mutate_site *s = scan_text(t, &n);
  /* only: '+' -> '-', the two dropped terms, 0 -> 1 of p[0] */
  cr_expect_eq(count(s, n, "'+' -> '-'"), 1);
  cr_expect_eq(count(s, n, "0 -> 1"), 1);
  cr_expect_eq(count(s, n, "dropped '+ sizeof(int)'"), 1);
  cr_expect_eq(count(s, n, "dropped '-p[0] +'"), 1);
  cr_expect_eq(n, 4, "%zu mutants (the first: %s)", n, n ? s[0].desc : "-");
  mutate_sites_free(s, n);
}

Test(mutate_scan, barrier_removal_minmax_and_not) {
  const char *t = "LL_INLINE void k(float *o, bool c) {\n"
                  "  ll_syncthreads();\n"
                  "  __builtin_amdgcn_sched_barrier(0);\n"
                  "  o[0] = fmax_(o[1], o[2]);\n"
                  "  if (!c) o[3] = 0;\n"
                  "}\n";
  size_t n;
  mutate_site *s = scan_text(t, &n);
  cr_expect_eq(count(s, n, "deleted 'll_syncthreads();'"), 1);
  cr_expect_eq(count(s, n, "deleted '__builtin_amdgcn_sched_barrier(0);'"), 0, "a scheduling barrier is no memory barrier");
  cr_expect_eq(count(s, n, "fmax_ -> __builtin_fminf"), 1);
  cr_expect_eq(count(s, n, "removed '!'"), 1);
  cr_expect_eq(count(s, n, "swapped arguments 1 and 2 of fmax_ ('o[1]', 'o[2]')"), 1);
  mutate_sites_free(s, n);
}

Test(mutate_apply, replaces_exactly_the_site) {
  const char *t = "LL_INLINE int f(int a) {\n  return a + 0x7fffu;\n}\n";
  size_t n;
  mutate_site *s = scan_text(t, &n);
  size_t k = n;
  for (size_t i = 0; i < n; i++)
    if (strcmp(s[i].desc, "0x7fffu -> 0x8000u") == 0) k = i;
  cr_assert_lt(k, n, "no hex +1 mutant");
  cr_expect_eq(s[k].line, 2);
  cr_expect_eq(s[k].col, 14);
  cr_expect_str_eq(s[k].src_line, "return a + 0x7fffu;");
  size_t len;
  char *m = mutate_apply(t, strlen(t), &s[k], &len);
  cr_expect_str_eq(m, "LL_INLINE int f(int a) {\n  return a + 0x8000u;\n}\n");
  cr_expect_eq(len, strlen(m));
  free(m);
  mutate_sites_free(s, n);
}

/* The real kernels: every operator class occurs, the barrier between the LDS tile stores and
 * their reads is a mutant, and the listing is stable (same output twice). */
Test(mutate_cli, list_covers_every_operator_on_the_production_kernels) {
  char *cmd = ll_fmt("cd %s && %s/lanelab mutate --list 2>/dev/null", LANELAB_ROOT, LANELAB_BUILD);
  char *buf, *buf2;
  cr_assert_eq(sh_capture(cmd, &buf), 0, "%s failed", cmd);
  const char *ops[] = {"\tarith\t", "\tcmp\t", "\tlogic\t", "\tbit\t", "\tshift\t", "\tconst\t", "\tbarrier\t",
                       "\tminmax\t", "\tswap\t", "\tdrop\t"};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) cr_expect(strstr(buf, ops[i]), "no %s mutant", ops[i]);
  cr_expect(strstr(buf, "kernels/prod/prefill_impl.h") && strstr(buf, "kernels/prod/concat_mla_q.hip") &&
            strstr(buf, "kernels/include/lanelab_fragments.h") && strstr(buf, "kernels/include/lanelab_device.h"));
  cr_expect(strstr(buf, "prefill_body\tbarrier\tdeleted 'll_syncthreads();'"), "the tile barriers are not mutated");
  cr_expect_null(strstr(buf, "lanelab_micro.h"), "micro-kernel header mutated");
  cr_assert_eq(sh_capture(cmd, &buf2), 0, "%s failed", cmd);
  cr_expect_str_eq(buf, buf2, "two listings differ");
  free(buf);
  free(buf2);
  free(cmd);
}

Test(mutate_cli, bad_usage_is_exit_2) {
  const char *bad[] = {"mutate --arch gfx900", "mutate --max 0", "mutate --shard 2/2", "mutate --file nope.h --list",
                       "mutate extra", "mutate --only x --list", "mutate --only 5-2 --list", "mutate --only 3,,4 --list",
                       "mutate --only 999999 --list", "mutate --file kernels/prod/prefill_single.hip --only 500 --list"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *cmd = ll_fmt("cd %s && %s/lanelab -q %s >/dev/null 2>&1", LANELAB_ROOT, LANELAB_BUILD, bad[i]);
    int rc = system(cmd);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "'lanelab %s' exited %d, want 2", bad[i], WEXITSTATUS(rc));
    free(cmd);
  }
}

/* A report from an empty cache has nothing scored: every file, function and arch shows "-", never
 * 100.0, and the run is not a pass (exit 1). */
Test(mutate_cli, nothing_scored_is_no_score_not_100) {
  char *dir = sh_tmpdir("mutate");
  char *cmd = ll_fmt("cd %s && %s/lanelab -q mutate --report --build %s", LANELAB_ROOT, LANELAB_BUILD, dir);
  int rc = sh_run(cmd, NULL);
  cr_expect_eq(rc, 1, "exit %d, want 1 (nothing scored is not a pass)", rc);
  char *rp = ll_fmt("%s/mutate/report.md", dir);
  size_t n = 0;
  char *md = ll_read_file(rp, &n, NULL);
  cr_assert_not_null(md, "no %s", rp);
  cr_expect(strstr(md, "**gfx942**: score - (nothing scored)") && strstr(md, "**gfx950**: score - (nothing scored)"), "%s", md);
  cr_expect(strstr(md, "| gfx950 | kernels/prod/concat_mla_q.hip | 0 | 0 | 0 | 0 | 0 | 0 |"), "no concat row: %s", md);
  cr_expect_null(strstr(md, "100.0"), "a row with nothing scored shows 100.0:\n%s", md);
  free(md);
  free(rp);
  free(cmd);
  rm_tmpdir(dir);
}

/* Index of the nth (from 0) listed mutant of FILE (a path under the root, as --list prints it)
 * with this function and change whose source line contains `text` (found by site rather than
 * hard-coded), or -1. */
static long listed_mutant(const char *list, const char *file, const char *func_change, const char *text, int nth) {
  char *hdr = ll_fmt("%s/%s", LANELAB_ROOT, file), *tag = ll_fmt("%s:", file);
  size_t hn = 0;
  char *ht = ll_read_file(hdr, &hn, NULL);
  cr_assert_not_null(ht, "%s", hdr);
  long idx = -1;
  for (const char *l = list; *l && idx < 0;) {
    const char *nl = strchr(l, '\n'), *at = strstr(l, tag), *fc = strstr(l, func_change);
    if (at && fc && (!nl || (at < nl && fc < nl))) {
      int line = atoi(at + strlen(tag));
      const char *p = ht;
      for (int ln = 1; p && ln < line; ln++) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
      const char *e = p ? strchr(p, '\n') : NULL, *k = p ? strstr(p, text) : NULL;
      if (k && (!e || k < e) && nth-- == 0) idx = atol(l);
    }
    l = nl ? nl + 1 : l + strlen(l);
  }
  free(tag);
  free(ht);
  free(hdr);
  return idx;
}

/* The headers' lanes gate, end to end on two mutants (gfx950, the quick gate without random
 * cases), in a fresh build directory (an empty results cache) that borrows the real build's
 * gfx950 code objects and toolchain:
 * - `S == k128B` -> `S != k128B` in ll_swz_offset sends the k128B swizzle to the 16-row XOR. The
 *   production kernel stores and loads K/V through the same function, so its output is unchanged
 *   and its gate passes; the micro-kernels' seed addresses against the lanes model expose it.
 * - `0x0000ffffu` -> `0xfffeu` in ll_merge16 drops bit 0 of the kept low half in the software
 *   transpose. Every even column's readable tag (16r + c) has bit 0 clear, so only the lanes
 *   stage's second, scrambled image shows it. */
Test(mutate_gate, header_mutants_are_killed_by_the_lane_map, .timeout = 900) {
#ifdef __SANITIZE_ADDRESS__
  /* The sanitizer pass checks lanelab's own C code: mutate's build, judge, cache and report run
   * sanitized in undefined_mfma_broadcast_is_killed_and_only_reads_the_cache; this test's time is
   * the lanes gate's micro-kernel builds and runs, sanitized in test_verify's lanes stage. */
  cr_skip_test("left to the plain build: its sanitized code runs in the other mutate_gate test");
#endif
  char *dir = sh_tmpdir("mutate-lanes");
  char *cmd = ll_fmt("ln -s \"$(cd %s && pwd)/gfx950\" %s/gfx950", LANELAB_BUILD, dir);
  cr_assert_eq(sh_run(cmd, NULL), 0, "%s", cmd);
  free(cmd);
  char *list = NULL;
  cmd = ll_fmt("cd %s && %s/lanelab mutate --list --file kernels/include/lanelab_fragments.h 2>/dev/null", LANELAB_ROOT,
               LANELAB_BUILD);
  cr_assert_eq(sh_capture(cmd, &list), 0, "%s", cmd);
  free(cmd);
  const char *frag = "kernels/include/lanelab_fragments.h";
  long swz = listed_mutant(list, frag, "\tll_swz_offset\tcmp\t'==' -> '!='", "(S == ll_swizzle::k128B)", 0);
  long bit0 = listed_mutant(list, frag, "\tll_merge16\tconst\t0x0000ffffu -> 0xfffeu", "keep & (self_is_low ? 0x0000ffffu", 0);
  free(list);
  cr_assert(swz >= 0 && bit0 >= 0, "mutants not in the listing: swizzle %ld, bit 0 %ld", swz, bit0);
  char *out = NULL;
  cmd = ll_fmt("cd %s && %s/lanelab mutate --arch gfx950 --random 0 --file kernels/include/lanelab_fragments.h "
               "--only %ld,%ld --build %s 2>&1",
               LANELAB_ROOT, LANELAB_BUILD, swz, bit0, dir);
  sh_capture(cmd, &out);
  cr_assert_not_null(out);
  cr_expect(strstr(out, "'==' -> '!=': gfx950 killed"), "the swizzle mutant was not killed:\n%s", out);
  cr_expect(strstr(out, "0x0000ffffu -> 0xfffeu: gfx950 killed"), "the bit-0 mutant was not killed:\n%s", out);
  free(cmd);
  char *res = NULL;
  cmd = ll_fmt("cat %s/mutate/results/*.txt", dir);
  cr_assert_eq(sh_capture(cmd, &res), 0, "%s", cmd);
  const char *k = "gfx950 killed lane map (lanes stage on the micro-kernels)", *k2 = strstr(res, k);
  cr_expect(k2 && strstr(k2 + 1, k), "not both killed by the lane map: %s", res);
  free(res);
  free(out);
  free(cmd);
  rm_tmpdir(dir);
}

/* An MFMA whose cbsz or abid (clang's 4th and 5th builtin arguments) becomes 1 on the 1-block
 * v_mfma_f32_16x16x16 forms is undefined by the ISA (CDNA3 ISA §7.1.5.1: 1 << cbsz must not exceed
 * the blocks, abid must name a block of the group). The emulator stops such a kernel with the fault
 * kind "undefined by the ISA", a finding about the kernel, so the gate kills the mutant instead of
 * calling it "not run" (the kind "unimplemented" is a gap in lanelab). Then --only with one of the
 * two reports the other from the cache, not as "not run". */
Test(mutate_gate, undefined_mfma_broadcast_is_killed_and_only_reads_the_cache, .timeout = 600) {
  char *dir = sh_tmpdir("mutate-mfma");
  char *cmd = ll_fmt("ln -s \"$(cd %s && pwd)/gfx942\" %s/gfx942", LANELAB_BUILD, dir);
  cr_assert_eq(sh_run(cmd, NULL), 0, "%s", cmd);
  free(cmd);
  char *list = NULL;
  cmd = ll_fmt("cd %s && %s/lanelab mutate --list --file kernels/prod/prefill_impl.h 2>/dev/null", LANELAB_ROOT, LANELAB_BUILD);
  cr_assert_eq(sh_capture(cmd, &list), 0, "%s", cmd);
  free(cmd);
  /* the f16 MFMA's call line ends "c, 0, 0, 0)": its first 0 -> 1 is cbsz, the second abid */
  const char *impl = "kernels/prod/prefill_impl.h";
  long idx[2] = {listed_mutant(list, impl, "\tmfma\tconst\t0 -> 1", "ll_halfx4, b), c, 0, 0, 0)", 0),
                 listed_mutant(list, impl, "\tmfma\tconst\t0 -> 1", "ll_halfx4, b), c, 0, 0, 0)", 1)};
  free(list);
  cr_assert(idx[0] >= 0 && idx[1] >= 0, "the f16 MFMA's cbsz/abid mutants are not in the listing: %ld %ld", idx[0], idx[1]);
  char *out = NULL;
  cmd = ll_fmt("cd %s && %s/lanelab mutate --arch gfx942 --random 0 --file kernels/prod/prefill_impl.h --only %ld,%ld "
               "--build %s 2>&1", LANELAB_ROOT, LANELAB_BUILD, idx[0], idx[1], dir);
  sh_capture(cmd, &out);
  cr_assert_not_null(out);
  cr_expect(strstr(out, "0 -> 1: gfx942 killed") && strstr(strstr(out, "0 -> 1: gfx942 killed") + 1, "0 -> 1: gfx942 killed"),
            "both undefined-broadcast mutants should be killed:\n%s", out);
  cr_expect(strstr(out, "mutate gfx942: score 100.0% (2 killed / 2 non-equivalent"), "%s", out);
  free(out);
  free(cmd);
  char *res = NULL;
  cmd = ll_fmt("cat %s/mutate/results/*.txt", dir);
  cr_assert_eq(sh_capture(cmd, &res), 0, "%s", cmd);
  cr_expect(strstr(res, "undefined by the ISA") && strstr(res, "v_mfma_f32_16x16x1"), "not killed by the undefined-broadcast fault: %s", res);
  free(res);
  free(cmd);
  /* --only the first: the second comes from the cache, so both count as killed */
  cmd = ll_fmt("cd %s && %s/lanelab mutate --arch gfx942 --random 0 --file kernels/prod/prefill_impl.h --only %ld "
               "--build %s 2>&1", LANELAB_ROOT, LANELAB_BUILD, idx[0], dir);
  sh_capture(cmd, &out);
  cr_assert_not_null(out);
  cr_expect(strstr(out, "mutate gfx942: score 100.0% (2 killed / 2 non-equivalent"), "the cached mutant was not reported:\n%s", out);
  free(out);
  free(cmd);
  rm_tmpdir(dir);
}
