/* Tests for isa/: census, budgets, diff, llvm-mc probes, base-revision compare, the ELF reader.
 *
 * Expected values come from outside the code under test:
 *   - tests/kernels/isa_census.hip states in its source how many of each guarded instruction it
 *     issues (3 ds_bpermute_b32, ...); the test compiles it with clang itself;
 *   - the .s files `make kernels` wrote are counted here with a separate line scanner (first token
 *     of each tab-indented line), and the census must agree with them mnemonic by mnemonic;
 *   - probe verdicts are the facts in docs/isa.md (dwordx8 does not exist on either arch,
 *     ds_read_b64_tr_b16 only on gfx950) and the encoding LLVM's MC test
 *     llvm/test/MC/AMDGPU/gfx950_asm_read_tr.s gives for `ds_read_b64_tr_b16 v[0:1], v2`;
 *   - budgets: the micro-kernel budgets in isa/budgets.json (numbers from the kernels' sources)
 *     must pass, and deliberately wrong ones must fail. */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/isa.h"
#include "table/table.h"
#include "tests/co_cache.h"
#include "tests/tmpdir.h"
#include "util/util.h"

#define CLANG "/usr/lib/llvm-22/bin/clang"
#define OBJDUMP "/usr/lib/llvm-22/bin/llvm-objdump"
#define TDIR LANELAB_BUILD "/tests/isa"

/* ---- helpers --------------------------------------------------------------------------------*/
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ll_buf b = {0};
  ll_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  int rc = system(ll_buf_str(&b));
  ll_buf_free(&b);
  return rc == -1 ? -1 : WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

/* Compiles tests/kernels/SRC.hip for arch with extra flags into TDIR/OUT.co (+ OUT.s written by
 * llvm-objdump directly, for the independent counts). Returns the .co path (malloc'd). */
static char *build_test_kernel_fresh(const char *src, const char *arch, const char *flags, const char *out) {
  cr_assert_eq(sh("mkdir -p %s", TDIR), 0);
  char *co = ll_fmt("%s/%s.co", TDIR, out);
  int rc = sh("%s -x hip --offload-arch=%s --cuda-device-only --no-gpu-bundle-output -nogpuinc -nogpulib -fuse-ld=lld "
              "--ld-path=/usr/lib/llvm-22/bin/ld.lld -O3 -std=c++17 %s -o %s %s/tests/kernels/%s.hip",
              CLANG, arch, flags, co, LANELAB_ROOT, src);
  cr_assert_eq(rc, 0, "compiling %s for %s failed", src, arch);
  rc = sh("%s -d --no-show-raw-insn --mcpu=%s %s > %s/%s.s", OBJDUMP, arch, co, TDIR, out);
  cr_assert_eq(rc, 0);
  return co;
}

/* The same, compiled once per content (tests/co_cache.h) instead of in each test: the isa_census
 * builds were seven compiles and objdumps of two distinct objects. The object and its .s are kept
 * side by side (the .s put in place first: a .co means both). The diff test's two builds of one
 * source stay build_test_kernel_fresh: that they are identical is what it checks. */
static char *build_test_kernel(const char *src, const char *arch, const char *flags) {
  char *hip = ll_fmt("%s/tests/kernels/%s.hip", LANELAB_ROOT, src);
  char *recipe = ll_fmt("-O3 -std=c++17 %s|objdump -d --no-show-raw-insn", flags);
  uint64_t key = coc_key(hip, NULL, CLANG, arch, recipe);
  char *co = coc_path("isa", src, arch, key, "co"), *s = coc_path("isa", src, arch, key, "s");
  if (access(co, R_OK) != 0 || access(s, R_OK) != 0) {
    char *tmp = ll_fmt("%s-%s.tmp-%ld", src, arch, (long)getpid());
    char *tco = build_test_kernel_fresh(src, arch, flags, tmp);
    char *ts = ll_fmt("%s/%s.s", TDIR, tmp);
    coc_put(ts, s);
    coc_put(tco, co);
    free(tco), free(ts), free(tmp);
  }
  free(hip), free(recipe), free(s);
  return co;
}

/* Independent count over a .s file: tab-indented lines whose first token is mnemonic (NULL: any)
 * and whose text before objdump's "//" comment contains `with` as a whole token (NULL: anything). */
/* grep_count's rule for one line of the .s: a tab-indented line, cut at objdump's "//" comment,
 * whose first token (the mnemonic) goes to tok; false for any other line */
static bool s_line_mnemonic(char *line, char tok[256]) {
  if (line[0] != '\t') return false;
  char *c = strstr(line, "//");
  if (c) *c = 0;
  return sscanf(line, "%255s", tok) == 1;
}

static long grep_count(const char *s_path, const char *mnemonic, const char *with) {
  FILE *f = fopen(s_path, "r");
  cr_assert_not_null(f, "cannot open %s", s_path);
  char line[4096];
  long n = 0;
  while (fgets(line, sizeof line, f)) {
    char tok[256];
    if (!s_line_mnemonic(line, tok)) continue;
    if (mnemonic && strcmp(tok, mnemonic) != 0) continue;
    if (with) {
      bool hit = false;
      char *save = NULL;
      for (char *t = strtok_r(line, " \t,\n", &save); t; t = strtok_r(NULL, " \t,\n", &save)) hit |= strcmp(t, with) == 0;
      if (!hit) continue;
    }
    n++;
  }
  fclose(f);
  return n;
}

static long census_sum(const isa_census *c, const char *expr) {
  long s = 0;
  for (size_t i = 0; i < c->nkernels; i++) s += isa_census_value(&c->kernels[i], expr);
  return s;
}

static const char *find_row(const report_table *t, const char *kernel, const char *arch, const char *rule_prefix) {
  for (size_t r = 0; r < t->nrows; r++)
    if (strcmp(report_table_cell(t, r, 0), kernel) == 0 && strcmp(report_table_cell(t, r, 1), arch) == 0 &&
        strncmp(report_table_cell(t, r, 2), rule_prefix, strlen(rule_prefix)) == 0)
      return report_table_cell(t, r, 4);
  return NULL;
}

/* ---- census ---------------------------------------------------------------------------------*/
Test(isa_census, test_kernel_counts_match_its_source) {
  const char *arches[] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    char *co = build_test_kernel("isa_census", arches[a], "");
    ll_err e = {0};
    isa_census *c = isa_census_file(co, &e);
    cr_assert_not_null(c, "%s", e.msg);
    cr_assert_str_eq(c->arch, arches[a]);
    const isa_kernel_census *k = isa_census_kernel(c, "isa_census"), *p = isa_census_kernel(c, "isa_census_plain");
    cr_assert(k && p, "both kernels found");
    cr_expect_eq(isa_census_value(k, "ds_bpermute_b32"), 3, "%s", arches[a]);
    cr_expect_eq(isa_census_value(k, "ds_swizzle_b32"), 1);
    cr_expect_eq(isa_census_value(k, "dpp"), 2);
    cr_expect_eq(isa_census_value(k, "v_mfma_*"), 1);
    cr_expect_eq(isa_census_value(k, "v_mfma_f32_16x16x16_f16"), 1);
    cr_expect_eq(isa_census_value(k, "global_store_dwordx4:nt"), 1);
    cr_expect_eq(isa_census_value(k, "global_store_*:nt"), 1);
    cr_expect_eq(isa_census_value(k, "ds_read_b64_tr_b16"), a == 1 ? 1 : 0, "%s", arches[a]);
    /* attribution: nothing of the first kernel leaks into the second */
    cr_expect_eq(isa_census_value(p, "ds_bpermute_b32"), 0);
    cr_expect_eq(isa_census_value(p, "dpp"), 0);
    cr_expect_eq(isa_census_value(p, "global_store_dword"), 1);
    cr_expect_eq(isa_census_value(p, "global_store_*:nt"), 0);
    isa_census_free(c);
    free(co);
  }
}

/* Regression: llvm-objdump prints a run of zero bytes as "..." unless given -z, and census then
 * exited 3 ("unknown format"). Zero eight bytes in the middle of a kernel: census must still read
 * the file and count the kernel's instructions. */
Test(isa_census, zero_bytes_inside_text_are_disassembled) {
  char *co = build_test_kernel("isa_census", "gfx942", "");
  size_t n;
  uint8_t *bytes = ll_read_file(co, &n, NULL);
  ll_err e = {0};
  isa_elf *elf = isa_elf_read(bytes, n, co, &e);
  cr_assert_not_null(elf, "%s", e.msg);
  const isa_sym *k = NULL;
  for (size_t i = 0; i < elf->nfuncs; i++)
    if (strcmp(elf->funcs[i].name, "isa_census") == 0) k = &elf->funcs[i];
  cr_assert(k && k->size >= 64);
  /* the kernel's bytes, found in the file by content */
  const uint8_t *code = elf->text + (k->vaddr - elf->text_vaddr);
  uint8_t *at = memmem(bytes, n, code, 32);
  cr_assert_not_null(at, "kernel bytes not found in the file");
  memset(at + 16, 0, 8);
  char *zco = ll_fmt("%s.zeros.co", co);
  cr_assert(ll_write_file_atomic(zco, bytes, n, &e), "%s", e.msg);
  isa_census *c = isa_census_file(zco, &e);
  cr_assert_not_null(c, "census of a .co with zero bytes in .text: %s", e.msg);
  const isa_kernel_census *kc = isa_census_kernel(c, "isa_census");
  cr_assert(kc && isa_census_value(kc, "instructions") > 0);
  isa_census_free(c);
  isa_elf_free(elf);
  free(zco); free(bytes); free(co);
}

Test(isa_census, agrees_with_grep_of_the_objdump_text) {
  char *co = build_test_kernel("isa_census", "gfx950", "");
  char *s = ll_fmt("%.*s.s", (int)strlen(co) - 3, co); /* the .s beside the .co */
  ll_err e = {0};
  isa_census *c = isa_census_file(co, &e);
  cr_assert_not_null(c, "%s", e.msg);
  cr_expect_eq(census_sum(c, "ds_bpermute_b32"), grep_count(s, "ds_bpermute_b32", NULL));
  cr_expect_eq(census_sum(c, "global_store_dwordx4:nt"), grep_count(s, "global_store_dwordx4", "nt"));
  cr_expect_eq(census_sum(c, "instructions") + (long)c->outside, grep_count(s, NULL, NULL));
  cr_expect_eq(census_sum(c, "s_nop") + (long)c->outside, grep_count(s, "s_nop", NULL), "padding is s_nop only");
  isa_census_free(c);
  free(s);
  free(co);
}

/* Every code object make built: for each mnemonic in its .s other than the s_nop padding, the
 * census summed over the file's kernels equals the line count. */
Test(isa_census, agrees_with_grep_on_every_built_kernel) {
  const char *arches[] = {"gfx942", "gfx950"};
  int files = 0;
  for (int a = 0; a < 2; a++) {
    char *dir = ll_fmt("%s/%s/kernels", LANELAB_BUILD, arches[a]);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s missing: run make kernels", dir);
    for (struct dirent *de; (de = readdir(d));) {
      size_t l = strlen(de->d_name);
      if (l < 4 || strcmp(de->d_name + l - 3, ".co") != 0 || de->d_name[0] == '.') continue;
      char *co = ll_fmt("%s/%s", dir, de->d_name), *s = ll_fmt("%s/%.*s.s", dir, (int)(l - 3), de->d_name);
      ll_err e = {0};
      isa_census *c = isa_census_file(co, &e);
      cr_assert_not_null(c, "%s", e.msg);
      /* One pass over the .s: every line's mnemonic by grep_count's rule (s_line_mnemonic), sorted,
       * so each mnemonic's line count is the length of its run. grep_count itself read the whole
       * file again for each of the few hundred mnemonics, which was most of this test's time
       * (twice that under SAN=1), for the same numbers. */
      FILE *f = fopen(s, "r");
      cr_assert_not_null(f, "%s has no .s beside it", co);
      char line[4096], tok[256], **toks = NULL;
      size_t nt = 0, cap = 0;
      while (fgets(line, sizeof line, f)) {
        if (!s_line_mnemonic(line, tok)) continue;
        if (nt == cap) toks = ll_xrealloc(toks, (cap = cap ? 2 * cap : 1024) * sizeof *toks);
        toks[nt++] = ll_xstrdup(tok);
      }
      fclose(f);
      qsort(toks, nt, sizeof *toks, ll_cmp_strp);
      int checked = 0;
      for (size_t i = 0, j; i < nt; i = j) {
        for (j = i; j < nt && !strcmp(toks[j], toks[i]); j++) {}
        if (!strcmp(toks[i], "s_nop")) continue;
        cr_expect_eq(census_sum(c, toks[i]), (long)(j - i), "%s: %s", co, toks[i]);
        checked++;
      }
      cr_assert_gt(checked, 3, "%s: too few mnemonics", s);
      cr_expect_eq(census_sum(c, "instructions") + (long)c->outside, (long)nt, "%s", co);
      for (size_t i = 0; i < nt; i++) free(toks[i]);
      free(toks);
      files++;
      isa_census_free(c);
      free(co);
      free(s);
    }
    closedir(d);
    free(dir);
  }
  cr_assert_gt(files, 0, "no kernels built: run make kernels");
}

/* Parsing rules on hand-written disassembly: DPP controls, cache bits, padding, globs. */
Test(isa_census, classes_from_handwritten_lines) {
  isa_sym f[2] = {{"k0", 0x100, 0x20}, {"k1", 0x200, 0x10}};
  isa_elf e = {.arch = "gfx942", .text_vaddr = 0x100, .text_size = 0x200, .funcs = f, .nfuncs = 2};
  isa_insn v[] = {
      {0x100, "v_add_f32_dpp v0, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"},
      {0x108, "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"},
      {0x110, "global_load_dwordx4 v[0:3], v4, s[0:1] sc0 sc1"},
      {0x118, "global_store_dwordx4 v4, v[0:3], s[0:1] nt"},
      {0x120, "s_nop 0"},                         /* outside k0 (size 0x20): padding */
      {0x200, "ds_swizzle_b32 v2, v2 offset:swizzle(BITMASK_PERM,\"ppppp\")"},
      {0x204, "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]"},
      {0x20c, "v_mfma_f32_32x32x8_f16 v[0:15], v[4:5], v[6:7], v[0:15]"},
  };
  isa_census *c = isa_census_build(&e, v, sizeof v / sizeof v[0], "hand");
  const isa_kernel_census *k0 = isa_census_kernel(c, "k0"), *k1 = isa_census_kernel(c, "k1");
  cr_assert(k0 && k1);
  cr_expect_eq(isa_census_value(k0, "instructions"), 4);
  cr_expect_eq(c->outside, 1);
  cr_expect_eq(isa_census_value(k0, "dpp"), 2);
  cr_expect_eq(isa_census_value(k0, "v_mov_b32_dpp"), 1);
  cr_expect_eq(isa_census_value(k0, "global_load_dwordx4:sc0"), 1);
  cr_expect_eq(isa_census_value(k0, "global_load_dwordx4:sc1"), 1);
  cr_expect_eq(isa_census_value(k0, "global_load_dwordx4:nt"), 0);
  cr_expect_eq(isa_census_value(k0, "global_*:sc?"), 2);
  cr_expect_eq(isa_census_value(k0, "global_store_*:nt"), 1);
  cr_expect_eq(isa_census_value(k0, "global_*"), 2, "plain glob counts instructions, not their bits");
  cr_expect_eq(isa_census_value(k0, "*"), 4, "'*' is every instruction; derived keys excluded");
  cr_expect_eq(isa_census_value(k1, "dpp"), 0, "\"ppppp\" in a swizzle is not DPP");
  cr_expect_eq(isa_census_value(k1, "ds_swizzle_b32"), 1);
  cr_expect_eq(isa_census_value(k1, "v_mfma_*"), 2);
  cr_expect_eq(isa_census_value(k1, "v_mfma_f32_32x32x8_f16"), 1);
  report_table *t = isa_census_table(c);
  size_t canon = 0;
  while (isa_canonical_counts[canon]) canon++;
  cr_expect_geq(t->nrows, 2 * canon, "every canonical class listed for every kernel, zeros included");
  report_table_free(t);
  isa_census_free(c);
}

/* ---- ELF reader -----------------------------------------------------------------------------*/
Test(isa_elf, reads_arch_text_and_symbols_and_rejects_corruption) {
  char *co = build_test_kernel("isa_census", "gfx942", "");
  size_t n;
  uint8_t *d = ll_read_file(co, &n, NULL);
  cr_assert_not_null(d);
  ll_err e = {0};
  isa_elf *el = isa_elf_read(d, n, co, &e);
  cr_assert_not_null(el, "%s", e.msg);
  cr_expect_str_eq(el->arch, "gfx942");
  cr_expect_eq(el->e_flags & 0xff, 0x4c);
  cr_expect_eq(el->nfuncs, 2);
  cr_expect_gt(el->text_size, 0);
  isa_elf_free(el);
  struct { size_t off; uint8_t val; const char *why; } bad[] = {
      {0, 0x00, "not an ELF"}, {4, 1, "ELF32"}, {18, 62, "machine x86-64"}, {48, 0x30, "arch byte not gfx942/950"},
      {40 + 7, 0x7f, "section header offset far past the end"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t *m = ll_xmalloc(n);
    memcpy(m, d, n);
    m[bad[i].off] = bad[i].val;
    ll_err e2 = {0};
    cr_expect_null(isa_elf_read(m, n, "corrupt", &e2), "accepted: %s", bad[i].why);
    cr_expect_eq(e2.code, LL_EXIT_USAGE, "%s", bad[i].why);
    free(m);
  }
  for (size_t cut = 0; cut < n; cut += n / 37 + 1) { /* truncated anywhere: error or a smaller object, never a crash */
    ll_err e3 = {0};
    isa_elf *t = isa_elf_read(d, cut, "truncated", &e3);
    if (!t) cr_expect_eq(e3.code, LL_EXIT_USAGE);
    isa_elf_free(t);
  }
  /* random single-byte corruption over the headers and tables (deterministic LCG): an error or an
   * object, never an out-of-bounds read (run under SAN=1 to have ASan check that). */
  uint32_t x = 12345;
  for (int it = 0; it < 3000; it++) {
    uint8_t *m = ll_xmalloc(n);
    memcpy(m, d, n);
    x = x * 1664525u + 1013904223u;
    size_t off = (x >> 8) % n;
    x = x * 1664525u + 1013904223u;
    m[off] = (uint8_t)(x >> 24);
    ll_err e4 = {0};
    isa_elf *t = isa_elf_read(m, n, "fuzz", &e4);
    if (!t) cr_expect_eq(e4.code, LL_EXIT_USAGE);
    isa_elf_free(t);
    free(m);
  }
  free(d);
  free(co);
}

/* ---- diff -----------------------------------------------------------------------------------*/
Test(isa_diff, identical_and_different_code_objects) {
  char *a = build_test_kernel_fresh("isa_census", "gfx942", "", "diff_a");
  char *a2 = build_test_kernel_fresh("isa_census", "gfx942", "", "diff_a2");
  char *b = build_test_kernel("isa_census", "gfx942", "-DISA_XOR=8");
  isa_diff_result r;
  report_table *t;
  ll_err e = {0};
  cr_assert(isa_diff_files(a, a2, &r, &t, &e), "%s", e.msg);
  cr_expect(r.identical && r.text_identical);
  cr_expect_eq(r.first_offset, -1);
  report_table_free(t);
  cr_assert(isa_diff_files(a, b, &r, &t, &e), "%s", e.msg);
  cr_expect(!r.identical && !r.text_identical);
  cr_expect_geq(r.first_offset, 0);
  cr_expect_eq(r.kernels_different, 1, "only isa_census changed");
  /* the lane mask 1 vs 8 shows up as the xor operand 4 vs 32 ((l ^ m) * 4 folded to l*4 ^ 4m) */
  cr_expect(strstr(r.insn_a, "v_xor_b32") && strstr(r.insn_b, "v_xor_b32"), "A %s | B %s", r.insn_a, r.insn_b);
  cr_expect_str_neq(r.insn_a, r.insn_b);
  bool plain_identical = false;
  for (size_t i = 0; i < t->nrows; i++)
    if (strcmp(report_table_cell(t, i, 0), "isa_census_plain") == 0) plain_identical = strcmp(report_table_cell(t, i, 3), "identical") == 0;
  cr_expect(plain_identical, "the unchanged kernel is reported identical");
  report_table_free(t);
  /* the CLI: exit 0 identical, 1 different */
  cr_expect_eq(sh("%s/lanelab -q isa diff %s %s >/dev/null", LANELAB_BUILD, a, a2), 0);
  cr_expect_eq(sh("%s/lanelab -q isa diff %s %s >/dev/null", LANELAB_BUILD, a, b), 1);
  cr_expect_eq(sh("%s/lanelab -q isa diff %s /nonexistent.co 2>/dev/null", LANELAB_BUILD, a), 2);
  free(a);
  free(a2);
  free(b);
}

/* ---- probe ----------------------------------------------------------------------------------*/
Test(isa_probe, dwordx8_rejected_on_both_tr_b16_only_on_gfx950) {
  isa_probe_result r;
  ll_err e = {0};
  const char *arches[] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    cr_assert(isa_probe(arches[a], "global_load_dwordx8 v[0:7], v[8:9], off", &r, &e), "%s", e.msg);
    cr_expect(!r.accepted, "dwordx8 accepted on %s", arches[a]);
    cr_expect(strstr(r.message, "invalid instruction") != NULL, "%s", r.message);
  }
  cr_assert(isa_probe("gfx942", "ds_read_b64_tr_b16 v[0:1], v2", &r, &e), "%s", e.msg);
  cr_expect(!r.accepted);
  cr_expect(strstr(r.message, "not supported") != NULL, "%s", r.message);
  cr_assert(isa_probe("gfx950", "ds_read_b64_tr_b16 v[0:1], v2", &r, &e), "%s", e.msg);
  cr_expect(r.accepted, "%s", r.message);
  /* LLVM MC test gfx950_asm_read_tr.s: ds_read_b64_tr_b16 v[0:1], v2 -> 0x00,0x00,0xc6,0xd9,0x02,... ;
   * DS opcode 227 (docs/isa.md) in OP[24:17] gives bytes 2..3 = 0xc6,0xd9 with the DS encoding 0b110110. */
  cr_expect_str_eq(r.encoding, "[0x00,0x00,0xc6,0xd9,0x02,0x00,0x00,0x00]");
  cr_expect_eq(((0xd9c6u >> 1) & 0xff), 227);
  /* CLI exit codes: 0 accepted, 1 rejected, 2 bad usage */
  cr_expect_eq(sh("%s/lanelab -q isa probe --arch gfx950 'ds_read_b64_tr_b16 v[0:1], v2' >/dev/null", LANELAB_BUILD), 0);
  cr_expect_eq(sh("%s/lanelab -q isa probe --arch gfx942 'ds_read_b64_tr_b16 v[0:1], v2' >/dev/null", LANELAB_BUILD), 1);
  cr_expect_eq(sh("%s/lanelab -q isa probe --arch gfx950 'global_load_dwordx8 v[0:7], v[8:9], off' >/dev/null", LANELAB_BUILD), 1);
  cr_expect_eq(sh("%s/lanelab -q isa probe --arch gfx90a 's_nop 0' 2>/dev/null", LANELAB_BUILD), 2);
  cr_expect_eq(sh("%s/lanelab -q isa probe 's_nop 0' 2>/dev/null", LANELAB_BUILD), 2);
}

Test(isa_probe, bad_input_is_usage_error) {
  isa_probe_result r;
  ll_err e = {0};
  cr_expect(!isa_probe("gfx1100", "s_nop 0", &r, &e));
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  e = (ll_err){0};
  cr_expect(!isa_probe("gfx950", "s_nop 0\ns_nop 1", &r, &e));
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  e = (ll_err){0};
  cr_expect(!isa_probe("gfx950", "   ", &r, &e));
  cr_expect_eq(e.code, LL_EXIT_USAGE);
}

Test(isa_tools, missing_llvm_is_environment_error) {
  setenv("LANELAB_LLVM_BIN", "/nonexistent-llvm/bin", 1);
  isa_probe_result r;
  ll_err e = {0};
  cr_expect(!isa_probe("gfx950", "s_nop 0", &r, &e));
  cr_expect_eq(e.code, LL_EXIT_ENV);
  cr_expect(strstr(e.msg, "llvm-22") != NULL, "says what to install: %s", e.msg);
  char *co = build_test_kernel("isa_census", "gfx942", ""); /* clang from its fixed path */
  e = (ll_err){0};
  cr_expect_null(isa_census_file(co, &e));
  cr_expect_eq(e.code, LL_EXIT_ENV);
  cr_expect_eq(sh("LANELAB_LLVM_BIN=/nonexistent %s/lanelab -q isa probe --arch gfx950 's_nop 0' 2>/dev/null", LANELAB_BUILD), 3);
  free(co);
  unsetenv("LANELAB_LLVM_BIN");
}

/* ---- budgets --------------------------------------------------------------------------------*/
/* The repository's budgets, evaluated once, by the CLI from the root with its default paths
 * (isa/budgets.json, build/): exit 0, and its JSON table carries the rows checked below. This test
 * also evaluated them in-process (isa_budgets_load + isa_budgets_eval on LANELAB_BUILD) before
 * running the same CLI, the same evaluation twice (~2 CPU-s, a census of every built kernel);
 * the CLI's exit 0 is that evaluation's fails == 0, its rows the same report_table. */
static const char *json_row(const ll_json *rows, const char *kernel, const char *arch, const char *rule_prefix) {
  for (size_t r = 0; r < rows->n; r++) {
    const ll_json *k = ll_json_get(rows->items[r], "kernel"), *a = ll_json_get(rows->items[r], "arch"),
                  *ru = ll_json_get(rows->items[r], "rule"), *v = ll_json_get(rows->items[r], "verdict");
    cr_assert(k && a && ru && v, "a budgets row without kernel, arch, rule and verdict");
    if (!strcmp(k->str, kernel) && !strcmp(a->str, arch) && !strncmp(ru->str, rule_prefix, strlen(rule_prefix)))
      return v->str;
  }
  return NULL;
}

Test(isa_budgets, repository_budgets_pass_on_the_micro_kernels) {
  cr_assert_eq(sh("mkdir -p %s", TDIR), 0);
  char *out = ll_fmt("%s/repo_budgets.json", TDIR);
  cr_expect_eq(sh("cd %s && %s/lanelab -q isa budgets --format json >%s", LANELAB_ROOT, LANELAB_BUILD, out), 0);
  ll_err e = {0};
  ll_json *j = ll_json_parse_file(out, &e);
  cr_assert_not_null(j, "%s", e.msg);
  const ll_json *rows = ll_json_get(j, "rows");
  cr_assert(rows && rows->n > 0, "no rows in %s", out);
  for (size_t r = 0; r < rows->n; r++) {
    const ll_json *v = ll_json_get(rows->items[r], "verdict");
    cr_assert_not_null(v);
    cr_expect(strncmp(v->str, "FAIL", 4) != 0, "%s %s %s: %s", ll_json_get(rows->items[r], "kernel")->str,
              ll_json_get(rows->items[r], "arch")->str, ll_json_get(rows->items[r], "rule")->str, v->str);
  }
  const char *v = json_row(rows, "lane_fragment_transpose", "gfx942", "ds_bpermute_b32 == 6");
  cr_expect(v && strcmp(v, "pass") == 0, "the six-shuffle budget was evaluated on gfx942");
  v = json_row(rows, "lane_tr16_solved_seed", "gfx950", "ds_read_b64_tr_b16 == 1");
  cr_expect(v && strcmp(v, "pass") == 0);
  /* a gfx950-only kernel under a gfx942 rule is reported skipped with its reason, not passed */
  v = json_row(rows, "lane_tr16_solved_seed", "gfx942", "ds_read_b*_tr_b* == 0");
  cr_expect(v && strncmp(v, "skipped: ", 9) == 0, "%s", v ? v : "(no row)");
  ll_json_free(j);
  free(out);
}

/* The build directory violated_budgets_fail evaluates its rules on: links to make's code objects
 * (and .skip files) of just the kernels its rules name, for both arches, in BDIR/gfx9xx/kernels.
 * An evaluation censuses every code object of the directory it is given, and this test makes ten
 * (nine in-process, one by the CLI): over the whole build (the prefill kernels' ~1 MB of
 * disassembly each) that was most of its time, for verdicts on four small kernels. The kernels
 * that must be missing (no_such_kernel, prefill_does_not_exist_*) are missing here as there;
 * prefill_near_miss (a link to lane_load_fragment.co) keeps a kernel named prefill_* beside the
 * glob that must match nothing, as the production kernels were. */
static const char *budget_build(void) {
  static char *bdir;
  if (bdir) return bdir;
  bdir = ll_fmt("%s/budget_build", TDIR);
  cr_assert_eq(sh("rm -rf %s && for a in gfx942 gfx950; do mkdir -p %s/$a/kernels && "
                  "for k in lane_fragment_transpose lane_xlane lane_tr16_solved_seed lane_load_fragment; do "
                  "for x in co skip; do if [ -f %s/$a/kernels/$k.$x ]; then ln -s %s/$a/kernels/$k.$x %s/$a/kernels/; fi; done; done && "
                  "ln -s %s/$a/kernels/lane_load_fragment.co %s/$a/kernels/prefill_near_miss.co && "
                  "test -f %s/$a/kernels/lane_fragment_transpose.co && test -f %s/$a/kernels/lane_xlane.co || exit 1; done && "
                  "test -f %s/gfx950/kernels/lane_tr16_solved_seed.co && test -f %s/gfx942/kernels/lane_tr16_solved_seed.skip",
                  bdir, bdir, LANELAB_BUILD, LANELAB_BUILD, bdir, LANELAB_BUILD, bdir, bdir, bdir, bdir, bdir),
               0, "run make kernels");
  return bdir;
}

static int eval_arches(const char *json, const char *const *arches, size_t na, report_table **t) {
  ll_err e = {0};
  isa_budgets *b = isa_budgets_parse(json, "test", &e);
  cr_assert_not_null(b, "%s", e.msg);
  int f = isa_budgets_eval(b, budget_build(), arches, na, t, &e);
  cr_assert_geq(f, 0, "%s", e.msg);
  isa_budgets_free(b);
  return f;
}
static int eval_text(const char *json, report_table **t) { return eval_arches(json, NULL, 0, t); }

Test(isa_budgets, violated_budgets_fail) {
  report_table *t;
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_fragment_transpose\",\"arch\":\"gfx942\",\"count\":\"ds_bpermute_b32\",\"eq\":5}]}", &t), 1);
  cr_expect(strncmp(find_row(t, "lane_fragment_transpose", "gfx942", "ds_bpermute_b32") ?: "", "FAIL", 4) == 0);
  report_table_free(t);
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_fragment_transpose\",\"count\":\"ds_bpermute_b32\",\"max\":5}]}", &t), 2,
               "fails on both arches");
  report_table_free(t);
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_fragment_transpose\",\"relation\":\"gfx950.ds_bpermute_b32 < gfx942.ds_bpermute_b32\"}]}", &t), 1,
               "6 < 6 is false");
  report_table_free(t);
  /* a per-arch run (verify --arch gfx950) still evaluates the cross-arch relation */
  const char *only950[] = {"gfx950"};
  cr_expect_eq(eval_arches("{\"rules\":[{\"kernel\":\"lane_fragment_transpose\",\"relation\":\"gfx950.ds_bpermute_b32 < gfx942.ds_bpermute_b32\"}]}",
                           only950, 1, &t), 1);
  report_table_free(t);
  /* ...while a count rule for the other arch is left out, and says so */
  cr_expect_eq(eval_arches("{\"rules\":[{\"kernel\":\"lane_fragment_transpose\",\"arch\":\"gfx942\",\"count\":\"ds_bpermute_b32\",\"eq\":5}]}",
                           only950, 1, &t), 0);
  cr_expect_eq(t->nrows, 0);
  cr_expect(t->nnotes >= 2 && strstr(t->notes[1], "not requested"), "the unevaluated rule is noted");
  report_table_free(t);
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_xlane\",\"relation\":\"gfx950.v_permlane*_swap_b32* > gfx942.v_permlane*_swap_b32*\"}]}", &t), 0,
               "2 > 0: the gfx950-only swaps");
  report_table_free(t);
  /* a kernel that does not exist is a failure, not a skip */
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"no_such_kernel\",\"count\":\"ds_read_b64\",\"eq\":1}]}", &t), 1);
  report_table_free(t);
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"prefill_does_not_exist_*\",\"relation\":\"gfx950.ds_bpermute_b32 < gfx942.ds_bpermute_b32\"}]}", &t), 1);
  report_table_free(t);
  /* skipped by design: reported, not passed, not failed */
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_tr16_solved_seed\",\"count\":\"ds_read_b64_tr_b16\",\"eq\":1}]}", &t), 0);
  const char *v = find_row(t, "lane_tr16_solved_seed", "gfx942", "ds_read_b64_tr_b16");
  cr_expect(v && strncmp(v, "skipped: ", 9) == 0 && strstr(v, "gfx950"), "%s", v ? v : "(no row)");
  v = find_row(t, "lane_tr16_solved_seed", "gfx950", "ds_read_b64_tr_b16");
  cr_expect(v && strcmp(v, "pass") == 0);
  report_table_free(t);
  cr_expect_eq(eval_text("{\"rules\":[{\"kernel\":\"lane_tr16_solved_seed\",\"relation\":\"gfx950.ds_read_b64_tr_b16 >= gfx942.ds_read_b64_tr_b16\"}]}", &t), 0);
  cr_expect(strncmp(report_table_cell(t, 0, 4), "skipped: gfx942", 15) == 0, "%s", report_table_cell(t, 0, 4));
  report_table_free(t);
  /* the CLI exits 1 on a failed budget (on the same small build directory, see budget_build) */
  char *p = ll_fmt("%s/budget_violated.json", TDIR);
  const char *j = "{\"rules\":[{\"kernel\":\"lane_load_fragment\",\"count\":\"ds_read_b64\",\"eq\":2}]}";
  cr_assert(ll_write_file_atomic(p, j, strlen(j), NULL));
  cr_expect_eq(sh("%s/lanelab -q isa budgets --budgets %s --build %s >/dev/null", LANELAB_BUILD, p, budget_build()), 1);
  free(p);
}

Test(isa_budgets, bad_budget_files_are_usage_errors) {
  const char *bad[] = {
      "[]",
      "{\"rules\":[{\"kernel\":\"k\",\"count\":\"x\",\"eq\":1,\"mx\":2}]}",             /* unknown key */
      "{\"rules\":[{\"kernel\":\"k\",\"count\":\"x\"}]}",                                 /* no op */
      "{\"rules\":[{\"kernel\":\"k\",\"count\":\"x\",\"eq\":1.5}]}",                      /* not an integer */
      "{\"rules\":[{\"kernel\":\"k\",\"count\":\"x\",\"eq\":1,\"arch\":\"gfx90a\"}]}",    /* bad arch */
      "{\"rules\":[{\"kernel\":\"k\",\"relation\":\"gfx950.x << gfx942.x\"}]}",           /* bad op */
      "{\"rules\":[{\"kernel\":\"k\",\"relation\":\"gfx951.x < gfx942.x\"}]}",            /* bad arch */
      "{\"rules\":[{\"kernel\":\"k\",\"relation\":\"1 < 2\"}]}",                          /* no arch at all */
      "{\"rules\":[{\"kernel\":\"k\",\"count\":\"x\",\"eq\":1,\"relation\":\"gfx950.x < 1\"}]}",
      "{\"rules\":[{\"count\":\"x\",\"eq\":1}]}",                                         /* no kernel */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_err e = {0};
    isa_budgets *b = isa_budgets_parse(bad[i], "test", &e);
    cr_expect_null(b, "accepted: %s", bad[i]);
    cr_expect_eq(e.code, LL_EXIT_USAGE, "%s", bad[i]);
    isa_budgets_free(b);
  }
}

/* ---- base compare ---------------------------------------------------------------------------*/
Test(isa_base, kernel_dir_compare_identical_different_only_skipped) {
  char *x1 = build_test_kernel("isa_census", "gfx942", "");
  char *x2 = build_test_kernel("isa_census", "gfx942", "-DISA_XOR=16");
  char *base = ll_fmt("%s/dirs_base", TDIR), *cur = ll_fmt("%s/dirs_cur", TDIR);
  cr_assert_eq(sh("rm -rf %s %s && mkdir -p %s %s", base, cur, base, cur), 0);
  cr_assert_eq(sh("cp %s %s/x.co && cp %s %s/x.co", x1, base, x2, cur), 0);         /* different */
  cr_assert_eq(sh("cp %s %s/y.co && cp %s %s/y.co", x1, base, x1, cur), 0);         /* identical */
  cr_assert_eq(sh("cp %s %s/w.co", x1, cur), 0);                                   /* only current */
  cr_assert_eq(sh("cp %s %s/v.co", x1, base), 0);                                  /* only base */
  cr_assert_eq(sh("echo 'gfx950 only' > %s/z.skip && echo 'gfx950 only' > %s/z.skip", base, cur), 0);
  isa_base_result r;
  report_table *t;
  ll_err e = {0};
  int n = isa_compare_kernel_dirs(base, cur, &r, &t, &e);
  cr_assert_geq(n, 0, "%s", e.msg);
  cr_expect_eq(n, 3);
  cr_expect_eq(r.identical, 1);
  cr_expect_eq(r.different, 1);
  cr_expect_eq(r.only_base, 1);
  cr_expect_eq(r.only_current, 1);
  cr_expect_eq(r.skipped_both, 1);
  const char *want[][2] = {{"v", "only in base"}, {"w", "only in current"}, {"x", "different"}, {"y", "identical"}, {"z", "skipped in both"}};
  cr_assert_eq(t->nrows, 5);
  for (int i = 0; i < 5; i++) {
    cr_expect_str_eq(report_table_cell(t, i, 0), want[i][0]);
    cr_expect_str_eq(report_table_cell(t, i, 1), want[i][1]);
  }
  cr_expect(strstr(report_table_cell(t, 2, 2), "v_xor_b32") != NULL, "%s", report_table_cell(t, 2, 2));
  report_table_free(t);
  free(x1); free(x2); free(base); free(cur);
}

/* HEAD against the current build: every kernel whose source, headers and build script are the
 * committed ones must come out byte-identical; a kernel source not yet committed is "only in
 * current". The worktree is gone afterwards. */
Test(isa_base, head_matches_current_build, .timeout = 900) {
#ifdef __SANITIZE_ADDRESS__
  /* The sanitizer pass checks lanelab's own C code; this test's time is clang building HEAD's
   * kernels, and the comparison code it reaches is sanitized by the isa_diff tests. */
  cr_skip_test("left to the plain build: its work is clang's builds of HEAD, not sanitized code");
#endif
  /* which kernel inputs differ from HEAD in the working tree? */
  char *cmd = ll_fmt("cd %s && git status --porcelain --untracked-files=all -- kernels mk", LANELAB_ROOT);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  char line[1024], dirty[64][256];
  int ndirty = 0;
  bool shared_dirty = false;
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = 0;
    const char *path = line + 3;
    if (strncmp(path, "kernels/include", 15) == 0 || strncmp(path, "mk/", 3) == 0) shared_dirty = true;
    else if (ndirty < 64) snprintf(dirty[ndirty++], sizeof dirty[0], "%s", path);
  }
  pclose(p);
  free(cmd);
  for (int a = 0; a < 1; a++) {
    const char *arch = "gfx942";
    char *cur = ll_fmt("%s/%s/kernels", LANELAB_BUILD, arch);
    isa_base_result r;
    report_table *t;
    ll_err e = {0};
    int n = isa_base_compare(LANELAB_ROOT, "HEAD", arch, cur, &r, &t, NULL, &e);
    cr_assert_geq(n, 0, "%s", e.msg);
    cr_assert_gt(t->nrows, 0);
    size_t checked = 0;
    for (size_t i = 0; i < t->nrows; i++) {
      const char *k = report_table_cell(t, i, 0), *verdict = report_table_cell(t, i, 1);
      bool src_dirty = shared_dirty;
      for (int d = 0; d < ndirty; d++) {
        const char *b = strrchr(dirty[d], '/');
        b = b ? b + 1 : dirty[d];
        if (strncmp(b, k, strlen(k)) == 0 && strcmp(b + strlen(k), ".hip") == 0) src_dirty = true;
      }
      if (src_dirty) continue;
      cr_expect(strcmp(verdict, "identical") == 0 || strcmp(verdict, "skipped in both") == 0, "%s: %s (%s)", k, verdict,
                report_table_cell(t, i, 2));
      checked++;
    }
    if (!shared_dirty) cr_expect_gt(checked, 0, "no committed kernel was compared");
    /* a note, not cr_log_warn: Criterion 2.4.1 exits 1 when a test logs a warning */
    else fprintf(stderr, "note: kernels/include or mk/ differ from HEAD: identity not asserted\n");
    report_table_free(t);
    free(cur);
  }
  /* no worktree left behind */
  /* this checkout's own build only: other checkouts of the same repository (git worktrees) list
   * their worktrees here too */
  char *wl = ll_fmt("cd %s && git worktree list | grep -c '%s/base-HEAD-' || true", LANELAB_ROOT, LANELAB_BUILD);
  FILE *w = popen(wl, "r");
  int left = -1;
  cr_assert_eq(fscanf(w, "%d", &left), 1);
  pclose(w);
  free(wl);
  cr_expect_eq(left, 0, "worktree removed");
}

Test(isa_base, unknown_revision_is_usage_error) {
  isa_base_result r;
  report_table *t;
  ll_err e = {0};
  int n = isa_base_compare(LANELAB_ROOT, "no-such-rev-xyz", "gfx942", LANELAB_BUILD "/gfx942/kernels", &r, &t, NULL, &e);
  cr_expect_eq(n, -1);
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  cr_expect(strstr(e.msg, "no-such-rev-xyz") != NULL, "%s", e.msg);
}

/* Hand-written kernels (AMD's aiter .s files) carry no .size: st_size 0. Each then extends to the
 * next function symbol or the end of .text, so the census counts what the source says it holds. */
Test(isa_census, symbols_without_size_extend_to_the_next_symbol) {
  static const char src[] =
      ".text\n.global ha\n.p2align 8\n.type ha,@function\nha:\n"
      "  v_mov_b32 v0, 1\n  v_mov_b32 v1, 2\n  v_add_u32 v0, v0, v1\n  s_endpgm\n"
      ".global hb\n.type hb,@function\nhb:\n  v_mov_b32 v0, 3\n  s_endpgm\n";
  char *dir = ll_fmt("%s/handwritten", TDIR);
  ll_mkdir_p(dir, NULL);
  char *sp = ll_fmt("%s/h.s", dir), *op = ll_fmt("%s/h.o", dir), *co = ll_fmt("%s/h.co", dir);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(sp, src, strlen(src), &e), "%s", e.msg);
  char *cmd = ll_fmt("/usr/lib/llvm-22/bin/llvm-mc -triple=amdgcn-amd-amdhsa --mcpu=gfx942 -filetype=obj "
                     "-o %s %s && /usr/lib/llvm-22/bin/ld.lld -shared -o %s %s", op, sp, co, op);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  isa_census *c = isa_census_file(co, &e);
  cr_assert_not_null(c, "%s", e.msg);
  const isa_kernel_census *a = isa_census_kernel(c, "ha"), *b = isa_census_kernel(c, "hb");
  cr_assert(a && b);
  /* 4 + 2 instructions written above; hb directly follows ha's s_endpgm, so no padding between */
  cr_assert_eq(isa_census_value(a, "instructions"), 4);
  cr_assert_eq(isa_census_value(a, "v_mov_b32_e32"), 2); /* LLVM prints the VOP1 encoding suffix */
  cr_assert_eq(isa_census_value(b, "instructions"), 2);
  isa_census_free(c);
  free(cmd), free(sp), free(op), free(co), free(dir);
}

/* ---- lanelab cc --into: the kernel folder make's kernel builds keep ---------------------------
 * The rule is written here from the folder's contract (isa.h isa_cc_build_dir): a source whose
 * `// lanelab-arch:` line leaves the arch out gets NAME.skip holding "skip NAME for ARCH: built only
 * for ... (why)" and no code object; every build names its source in NAME.src; and building the
 * same source twice gives the same bytes (clang's compile-unit id is fixed, not drawn from the
 * driver's temporary path). */
Test(isa_cc, into_keeps_a_kernel_folder_and_rebuilds_byte_identically) {
  char *d = tt_dir("test-ccinto");
  char *src = ll_fmt("%s/only950.hip", d);
  const char *text = "// lanelab-arch: gfx950\n// lanelab-why: the test says so\n"
                     "#include <hip/hip_runtime.h>\n"
                     "__global__ void k(float *p) { p[threadIdx.x] *= 2.0f; }\n";
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(src, text, strlen(text), &e), "%s", e.msg);
  cr_assert_eq(sh("%s/lanelab -q cc %s --arch gfx942 --into %s/a 2>/dev/null", LANELAB_BUILD, src, d), 0);
  char *skip = ll_fmt("%s/a/only950.skip", d), *co = ll_fmt("%s/a/only950.co", d), *sidecar = ll_fmt("%s/a/only950.src", d);
  size_t n = 0;
  char *s = ll_read_file(skip, &n, NULL);
  cr_assert_not_null(s, "no %s", skip);
  cr_expect_str_eq(s, "skip only950 for gfx942: built only for gfx950 (the test says so)\n");
  cr_expect(access(co, F_OK) != 0, "a code object was built for an arch the source leaves out");
  char *named = ll_read_file(sidecar, &n, NULL), *want = ll_fmt("%s\n", src);
  cr_assert_not_null(named, "no %s", sidecar);
  cr_expect_str_eq(named, want);
  free(s); free(named); free(want); free(skip); free(co); free(sidecar);
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(sh("%s/lanelab -q cc %s --arch gfx950 --into %s/b", LANELAB_BUILD, src, d), 0);
    char *sk = ll_fmt("%s/b/only950.skip", d);
    cr_expect(access(sk, F_OK) != 0, "%s left beside a code object", sk);
    free(sk);
    if (i == 0) cr_assert_eq(sh("cp %s/b/only950.co %s/first.co", d, d), 0, "no code object for gfx950");
  }
  cr_expect_eq(sh("cmp -s %s/b/only950.co %s/first.co", d, d), 0, "two builds of one source differ");
  sh("rm -rf %s", d);
  free(src); free(d);
}

/* ---- precompiled headers (isa/pch.c) ----------------------------------------------------------
 * The rules are written from the contract (isa.h isa_pch_find, docs/hip-subset.md): a PCH is made
 * the second time the same flags are seen and used from then on; the compile it serves gives the
 * same bytes as the plain one (a fixed -cuid, since clang's default hashes the command line); it
 * holds hip_runtime.h only when the source includes that first; it is made again when a file it
 * was made from changes; the least recently used go past the cap. LANELAB_PCH_TRACE=1 names the
 * PCH each compile used ("none" when it compiled plainly). */

/* Runs `lanelab ARGS` with the cache in D/cache; the trace line's PCH ("none" or the folder's
 * name) in a static buffer; the exit status in *rc. */
static char pch_why[128]; /* the trace's reason, from the last pch_run */
static const char *pch_run(const char *d, const char *env, const char *args, int *rc) {
  static char used[256];
  char *log = ll_fmt("%s/trace.txt", d);
  *rc = sh("LANELAB_CACHE_DIR=%s/cache LANELAB_PCH_TRACE=1 %s %s/lanelab -q %s 2>%s", d, env ? env : "", LANELAB_BUILD,
           args, log);
  size_t n = 0;
  char *t = ll_read_file(log, &n, NULL);
  cr_assert_not_null(t, "%s", log);
  const char *p = strstr(t, "lanelab: pch: ");
  snprintf(used, sizeof used, "%s", "(no trace)");
  pch_why[0] = 0;
  const char *why = p ? strchr(p, '(') : NULL;
  if (why) snprintf(pch_why, sizeof pch_why, "%.*s", (int)strcspn(why, "\n"), why);
  if (p) {
    p += 14;
    const char *e = strchr(p, ' '), *slash = memrchr(p, '/', e ? (size_t)(e - p) : strlen(p));
    if (slash && e) snprintf(used, sizeof used, "%.*s", (int)(e - slash - 1), slash + 1);
    else if (e) snprintf(used, sizeof used, "%.*s", (int)(e - p), p);
  }
  free(t), free(log);
  return used;
}

static void put_text(const char *dir, const char *name, const char *text) {
  char *p = ll_path_join(dir, name);
  cr_assert(ll_write_file_atomic(p, text, strlen(text), NULL), "%s", p);
  free(p);
}

/* A whole program through lanelab hipcc (host and device): hip_runtime.h reached through a guarded
 * header beside the source, after a comment; the first compile plain, the second makes the PCH,
 * the third uses it; the first and third objects are the same bytes. */
Test(isa_pch, made_the_second_time_and_the_code_object_is_the_same, .timeout = 120) {
  char *d = tt_dir("test-pch");
  put_text(d, "common.h", "// common\n#ifndef COMMON_H\n#define COMMON_H\n#include <hip/hip_runtime.h>\n#endif\n");
  put_text(d, "p.hip", "/* a program */\n#include \"common.h\"\n#include <cstdio>\n"
                       "__global__ void twice(float *p) { p[threadIdx.x] = sqrtf(p[threadIdx.x]) + __shfl_xor(p[0], 1); }\n"
                       "int main() { float *d; hipMalloc(&d, 256); twice<<<1, 64>>>(d); std::printf(\"%%d\\n\", 1); }\n");
  char first[256] = "";
  for (int i = 0; i < 3; i++) {
    int rc;
    char *args = ll_fmt("hipcc -c --offload-arch=gfx950 %s/p.hip -cuid=1234abcd -o %s/p%d.o", d, d, i);
    const char *used = pch_run(d, NULL, args, &rc);
    cr_assert_eq(rc, 0, "hipcc %d failed", i);
    if (i == 1) snprintf(first, sizeof first, "%s", used);
    if (i == 0) cr_expect_str_eq(used, "none", "the first compile");
    else cr_expect(strcmp(used, "none") && strcmp(used, "(no trace)") && !strcmp(used, first), "compile %d used %s", i, used);
    cr_expect_str_eq(pch_why, "(hip_runtime.h first)", "compile %d: common.h's first include was not followed", i);
    free(args);
  }
  cr_expect_eq(sh("cmp -s %s/p0.o %s/p2.o", d, d), 0, "the program object with a PCH differs from the plain one");
  free(d);
}

/* A macro defined before <hip/hip_runtime.h> must reach it: HIP_DISABLE_WARP_SYNC_BUILTINS takes
 * __shfl_sync away, so a call to it fails every time, PCH or not. A -g compile stays plain. */
Test(isa_pch, what_comes_before_hip_runtime_reaches_it, .timeout = 120) {
  char *d = tt_dir("test-pch");
  put_text(d, "k.hip", "#define HIP_DISABLE_WARP_SYNC_BUILTINS 1\n#include <hip/hip_runtime.h>\n"
                       "__global__ void k(int *p) { p[0] = __shfl_sync(~0ull, p[1], 0); }\n");
  put_text(d, "ok.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = __shfl_sync(~0ull, p[1], 0); }\n");
  int rc;
  for (int i = 0; i < 2; i++) { /* the second would make the PCH */
    char *args = ll_fmt("cc %s/k.hip --arch gfx942 -o %s/k.co", d, d);
    const char *used = pch_run(d, NULL, args, &rc);
    cr_expect_eq(rc, 2, "compile %d: exit %d, the macro before the include was lost", i, rc);
    cr_expect_str_eq(used, "none", "compile %d", i);
    free(args);
  }
  char *args = ll_fmt("cc %s/ok.hip --arch gfx942 -o %s/ok.co", d, d);
  pch_run(d, NULL, args, &rc);
  cr_expect_eq(rc, 0, "the same call without the macro: exit %d", rc);
  free(args);
  args = ll_fmt("cc %s/ok.hip --arch gfx942 -o %s/okg.co -- -g", d, d);
  for (int i = 0; i < 2; i++) {
    const char *used = pch_run(d, NULL, args, &rc);
    cr_expect(rc == 0 && !strcmp(used, "none"), "a -g compile %d: exit %d, pch %s", i, rc, used);
  }
  free(args);
  free(d);
}

/* lanelab cc: the code object made with the PCH is the plain one's bytes; a PCH is made again when
 * a header it was made from changes (here lanelab's HIP headers, copied and named by
 * LANELAB_HIP_INCLUDE, gain a function the source calls), and only PCH_KEEP (LANELAB_PCH_KEEP)
 * folders stay. */
Test(isa_pch, a_changed_header_makes_a_new_one_and_old_ones_go, .timeout = 120) {
  char *d = tt_dir("test-pch");
  cr_assert_eq(sh("cp -r %s/hip/include %s/inc", LANELAB_ROOT, d), 0);
  put_text(d, "k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n");
  put_text(d, "k2.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = lanelab_test_added(); }\n");
  char *env = ll_fmt("LANELAB_HIP_INCLUDE=%s/inc LANELAB_PCH_KEEP=1", d);
  char *args = ll_fmt("cc %s/k.hip --arch gfx942 -o %s/k0.co -- -cuid=1234abcd", d, d);
  int rc;
  char made[256];
  pch_run(d, env, args, &rc);
  cr_assert_eq(rc, 0);
  free(args);
  args = ll_fmt("cc %s/k.hip --arch gfx942 -o %s/k1.co -- -cuid=1234abcd", d, d);
  snprintf(made, sizeof made, "%s", pch_run(d, env, args, &rc));
  cr_assert(rc == 0 && strcmp(made, "none"), "no PCH made: %s", made);
  cr_expect_eq(sh("cmp -s %s/k0.co %s/k1.co", d, d), 0, "the code object with a PCH differs from the plain one");
  /* inside the include guard, before the header's last line (its #endif) */
  cr_assert_eq(sh("sed -i '$i __device__ inline int lanelab_test_added() { return 7; }' %s/inc/hip/hip_runtime.h", d), 0);
  char *args2 = ll_fmt("cc %s/k2.hip --arch gfx942 -o %s/k2.co -- -cuid=1234abcd", d, d);
  const char *used = pch_run(d, env, args2, &rc);
  cr_expect_eq(rc, 0, "the changed header was not read: the stale PCH was used (%s)", used);
  cr_expect_str_eq(used, made, "the same flags name the same folder, made again");
  /* another key: -DX=1 twice; with LANELAB_PCH_KEEP=1 the first folder goes */
  char *args3 = ll_fmt("cc %s/k.hip --arch gfx942 -o %s/k3.co -- -cuid=1234abcd -DX=1", d, d);
  pch_run(d, env, args3, &rc);
  used = pch_run(d, env, args3, &rc);
  cr_assert(rc == 0 && strcmp(used, "none") && strcmp(used, made), "no second PCH: %s", used);
  char *gone = ll_fmt("%s/cache/pch/%s", d, made), *kept = ll_fmt("%s/cache/pch/%s", d, used);
  cr_expect_neq(access(gone, F_OK), 0, "%s was kept past LANELAB_PCH_KEEP=1", gone);
  cr_expect_eq(access(kept, F_OK), 0, "%s, the one just made, is gone", kept);
  free(gone), free(kept), free(env), free(args), free(args2), free(args3), free(d);
}
