/* Tests for kernels/: the micro-kernels were built for the right arches (and skipped, with a
 * reason, elsewhere), and their disassembly holds the instructions each kernel exists to probe.
 *
 * These tests read build/<arch>/kernels/ (LANELAB_BUILD); they do not build kernels. `make test`
 * builds them first; run alone, a missing file fails with a message saying to run `make kernels`.
 *
 * Expected facts come from the kernels' specification, not from the build output:
 *  - which kernels exist on which arch: the micro-kernel conventions (gfx950 has
 *    ds_read_*_tr_* and v_mfma_f32_16x16x32_f16, gfx942 has neither: docs/isa.md "gfx942 vs gfx950");
 *  - the software transpose costs one ds_read_b64 and six ds_bpermute_b32 per 16x16 tile (seed
 *    file 000: FlashInfer's load_fragment + transpose_mma_tile);
 *  - lane_xlane's op list (its header comment: 5 bpermutes, 2 permutes, 6 swizzles, 10 DPP
 *    moves, and on gfx950 one v_permlane16_swap and one v_permlane32_swap);
 *  - ELF e_machine 224 (EM_AMDGPU) and e_flags & 0xff = 0x4c (gfx942) / 0x4f (gfx950) from LLVM's
 *    AMDGPUUsage (docs/isa.md "Code objects").
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

#ifndef LANELAB_BUILD
#error "LANELAB_BUILD (the build directory) must be defined by the Makefile"
#endif

enum { GFX942 = 0, GFX950 = 1, NARCH = 2 };
static const char *const arch_name[NARCH] = {"gfx942", "gfx950"};
static const unsigned arch_mach[NARCH] = {0x4c, 0x4f};

/* The micro-kernels and where they apply (the micro-kernel conventions). */
static const struct {
  const char *name;
  bool gfx950_only;
} micro[] = {
    {"lane_load_fragment", false},     {"lane_fragment_transpose", false},
    {"lane_tr16_fragment_seed", true}, {"lane_tr16_solved_seed", true},
    {"lane_tr8", true},                {"lane_tr4", true},
    {"lane_tr6", true},                {"lane_xlane", false},
    {"lane_mfma_16x16x16_f16", false}, {"lane_mfma_32x32x8_f16", false},
    {"lane_mfma_16x16x32_f16", true},
};
#define NMICRO (sizeof micro / sizeof micro[0])

static char *kpath(int arch, const char *name, const char *ext) {
  return ll_fmt("%s/%s/kernels/%s.%s", LANELAB_BUILD, arch_name[arch], name, ext);
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whole file as a NUL-terminated string; fails the test (naming `make kernels`) if absent. */
static char *slurp(const char *path) {
  ll_err e = {0};
  size_t n = 0;
  char *d = ll_read_file(path, &n, &e);
  cr_assert_not_null(d, "%s: run `make kernels` first", e.msg);
  char *s = ll_xmalloc(n + 1);
  memcpy(s, d, n);
  s[n] = 0;
  free(d);
  return s;
}

static char *disasm(int arch, const char *name) {
  char *p = kpath(arch, name, "s");
  char *s = slurp(p);
  free(p);
  return s;
}

/* Instructions in an llvm-objdump listing whose mnemonic is `m`, or `m` with the encoding
 * suffix _e32/_e64 that LLVM prints for some VOP forms. Only the first token of a line counts,
 * so ds_read_b64 does not match ds_read_b64_tr_b16. */
static int count_mnemonic(const char *s, const char *m) {
  int n = 0;
  size_t ml = strlen(m);
  for (const char *line = s; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    const char *t = line;
    while (*t == ' ' || *t == '\t') t++;
    size_t tl = strcspn(t, " \t\n");
    if (tl == ml && !strncmp(t, m, ml)) n++;
    else if (tl == ml + 4 && !strncmp(t, m, ml) && (!strncmp(t + ml, "_e32", 4) || !strncmp(t + ml, "_e64", 4)))
      n++;
  }
  return n;
}

static bool micro_applies(size_t i, int arch) { return !micro[i].gfx950_only || arch == GFX950; }

Test(kernels_build, every_micro_kernel_built_or_skipped_with_reason) {
  for (size_t i = 0; i < NMICRO; i++) {
    for (int a = 0; a < NARCH; a++) {
      char *co = kpath(a, micro[i].name, "co"), *s = kpath(a, micro[i].name, "s");
      char *skip = kpath(a, micro[i].name, "skip");
      if (micro_applies(i, a)) {
        cr_expect(exists(co), "%s missing: run `make kernels`", co);
        cr_expect(exists(s), "%s missing: run `make kernels`", s);
        cr_expect(!exists(skip), "%s exists but %s applies to %s", skip, micro[i].name, arch_name[a]);
      } else {
        cr_expect(!exists(co), "%s exists but %s is gfx950-only", co, micro[i].name);
        if (exists(skip)) {
          char *why = slurp(skip);
          cr_expect(strstr(why, "built only for gfx950") && strstr(why, "exists only on gfx950"),
                    "%s does not give the reason (arch restriction + why): \"%s\"", skip, why);
          free(why);
        } else {
          cr_expect(false, "%s missing: run `make kernels`", skip);
        }
      }
      free(co), free(s), free(skip);
    }
  }
}

/* The source's arch line must agree with the table above (catches drift in either place). */
Test(kernels_build, source_arch_lines_match_the_conventions) {
  for (size_t i = 0; i < NMICRO; i++) {
    char *p = ll_fmt("%s/kernels/micro/%s.hip", LANELAB_ROOT, micro[i].name);
    char *src = slurp(p);
    const char *line = strstr(src, "\n// lanelab-arch:");
    if (micro[i].gfx950_only) {
      cr_expect(line != NULL, "%s: no `// lanelab-arch:` line but the kernel is gfx950-only", p);
      if (line) {
        cr_expect(!strncmp(line, "\n// lanelab-arch: gfx950\n", 25), "%s: arch line is not exactly gfx950", p);
        cr_expect(strstr(src, "\n// lanelab-why: ") != NULL, "%s: no `// lanelab-why:` line", p);
      }
    } else {
      cr_expect(line == NULL, "%s: restricts its arches but must build for both", p);
    }
    free(src), free(p);
  }
}

Test(kernels_build, code_objects_are_amdgpu_elf_for_their_arch) {
  for (size_t i = 0; i < NMICRO; i++) {
    for (int a = 0; a < NARCH; a++) {
      if (!micro_applies(i, a)) continue;
      char *p = kpath(a, micro[i].name, "co");
      ll_err e = {0};
      size_t n = 0;
      unsigned char *d = ll_read_file(p, &n, &e);
      cr_assert_not_null(d, "%s: run `make kernels` first", e.msg);
      cr_assert_geq(n, 64, "%s: shorter than an ELF64 header", p);
      cr_expect(!memcmp(d, "\x7f" "ELF", 4) && d[4] == 2, "%s: not ELF64", p);
      cr_expect_eq(d[7], 64, "%s: OS/ABI %u, want 64 (AMDGPU HSA)", p, d[7]);
      unsigned mach = d[18] | d[19] << 8;
      uint32_t flags = (uint32_t)d[48] | (uint32_t)d[49] << 8 | (uint32_t)d[50] << 16 | (uint32_t)d[51] << 24;
      cr_expect_eq(mach, 224, "%s: e_machine %u, want 224 (EM_AMDGPU)", p, mach);
      cr_expect_eq(flags & 0xff, arch_mach[a], "%s: e_flags arch 0x%x, want 0x%x (%s)", p, flags & 0xff,
                   arch_mach[a], arch_name[a]);
      free(d), free(p);
      char *s = disasm(a, micro[i].name);
      char *label = ll_fmt("<%s>:", micro[i].name);
      cr_expect(strstr(s, label) != NULL, "%s disassembly has no %s", arch_name[a], label);
      free(label), free(s);
    }
  }
}

Test(kernels_isa, tr_b16_in_gfx950_kernels_that_use_it) {
  const char *users[] = {"lane_tr16_fragment_seed", "lane_tr16_solved_seed"};
  for (size_t i = 0; i < 2; i++) {
    char *s = disasm(GFX950, users[i]);
    cr_expect_eq(count_mnemonic(s, "ds_read_b64_tr_b16"), 1, "gfx950 %s: %d ds_read_b64_tr_b16, want 1",
                 users[i], count_mnemonic(s, "ds_read_b64_tr_b16"));
    /* The transposing read replaces the software path: no shuffles, no plain 64-bit read. */
    cr_expect_eq(count_mnemonic(s, "ds_bpermute_b32"), 0, "gfx950 %s has ds_bpermute_b32", users[i]);
    cr_expect_eq(count_mnemonic(s, "ds_read_b64"), 0, "gfx950 %s has a plain ds_read_b64", users[i]);
    free(s);
  }
}

/* Every .s under build/gfx942/kernels, micro or not: gfx942 has no transposing LDS read. */
Test(kernels_isa, no_transposing_read_anywhere_on_gfx942) {
  char *dir = ll_fmt("%s/gfx942/kernels", LANELAB_BUILD);
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "cannot open %s: run `make kernels` first", dir);
  int nfiles = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 3 || strcmp(de->d_name + l - 2, ".s") != 0 || de->d_name[0] == '.') continue;
    char *p = ll_fmt("%s/%s", dir, de->d_name);
    char *s = slurp(p);
    nfiles++;
    const char *tr[] = {"ds_read_b64_tr_b16", "ds_read_b64_tr_b8", "ds_read_b64_tr_b4", "ds_read_b96_tr_b6"};
    for (size_t k = 0; k < 4; k++)
      cr_expect_eq(count_mnemonic(s, tr[k]), 0, "%s contains %s", p, tr[k]);
    cr_expect(strstr(s, "_tr_b") == NULL, "%s mentions a transposing read", p);
    free(s), free(p);
  }
  closedir(d);
  /* gfx942 micro-kernels: NMICRO minus the gfx950-only ones. */
  int want = 0;
  for (size_t i = 0; i < NMICRO; i++) want += micro_applies(i, GFX942);
  cr_expect_geq(nfiles, want, "only %d .s files in %s, want at least %d: run `make kernels`", nfiles, dir, want);
  free(dir);
}

Test(kernels_isa, fragment_transpose_is_one_read_and_six_bpermutes) {
  for (int a = 0; a < NARCH; a++) {
    char *s = disasm(a, "lane_fragment_transpose");
    cr_expect_eq(count_mnemonic(s, "ds_bpermute_b32"), 6, "%s: %d ds_bpermute_b32, want 6", arch_name[a],
                 count_mnemonic(s, "ds_bpermute_b32"));
    cr_expect_eq(count_mnemonic(s, "ds_read_b64"), 1, "%s: %d ds_read_b64, want 1", arch_name[a],
                 count_mnemonic(s, "ds_read_b64"));
    cr_expect_eq(count_mnemonic(s, "ds_read_b64_tr_b16"), 0, "%s: software path uses tr_b16", arch_name[a]);
    cr_expect_eq(count_mnemonic(s, "ds_swizzle_b32") + count_mnemonic(s, "v_mov_b32_dpp"), 0,
                 "%s: the shuffles must stay ds_bpermute_b32", arch_name[a]);
    free(s);
    s = disasm(a, "lane_load_fragment");
    cr_expect_eq(count_mnemonic(s, "ds_read_b64"), 1, "%s lane_load_fragment: want one ds_read_b64", arch_name[a]);
    cr_expect_eq(count_mnemonic(s, "ds_bpermute_b32"), 0, "%s lane_load_fragment: no shuffles", arch_name[a]);
    free(s);
  }
}

Test(kernels_isa, narrow_transposing_reads_on_gfx950) {
  const struct { const char *k, *m; } want[] = {
      {"lane_tr8", "ds_read_b64_tr_b8"}, {"lane_tr4", "ds_read_b64_tr_b4"}, {"lane_tr6", "ds_read_b96_tr_b6"}};
  for (size_t i = 0; i < 3; i++) {
    char *s = disasm(GFX950, want[i].k);
    cr_expect_eq(count_mnemonic(s, want[i].m), 1, "gfx950 %s: %d %s, want 1", want[i].k,
                 count_mnemonic(s, want[i].m), want[i].m);
    free(s);
  }
}

Test(kernels_isa, mfma_probes_issue_their_mfma) {
  const struct { const char *k, *m; bool gfx950_only; } want[] = {
      {"lane_mfma_16x16x16_f16", "v_mfma_f32_16x16x16_f16", false},
      {"lane_mfma_32x32x8_f16", "v_mfma_f32_32x32x8_f16", false},
      {"lane_mfma_16x16x32_f16", "v_mfma_f32_16x16x32_f16", true}};
  for (size_t i = 0; i < 3; i++) {
    for (int a = 0; a < NARCH; a++) {
      if (want[i].gfx950_only && a != GFX950) continue;
      char *s = disasm(a, want[i].k);
      cr_expect_eq(count_mnemonic(s, want[i].m), 1, "%s %s: %d %s, want 1", arch_name[a], want[i].k,
                   count_mnemonic(s, want[i].m), want[i].m);
      free(s);
    }
  }
}

Test(kernels_isa, xlane_probe_has_every_op) {
  for (int a = 0; a < NARCH; a++) {
    char *s = disasm(a, "lane_xlane");
    const struct { const char *m; int n; } want[] = {
        {"ds_bpermute_b32", 5}, {"ds_permute_b32", 2}, {"ds_swizzle_b32", 6}, {"v_mov_b32_dpp", 10},
        {"v_permlane16_swap_b32", a == GFX950}, {"v_permlane32_swap_b32", a == GFX950}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
      cr_expect_eq(count_mnemonic(s, want[k].m), want[k].n, "%s lane_xlane: %d %s, want %d", arch_name[a],
                   count_mnemonic(s, want[k].m), want[k].m, want[k].n);
    /* Ops 21 and 22 run under partial EXEC: the listing must change EXEC around them. */
    cr_expect(strstr(s, "s_and_saveexec_b64") != NULL, "%s lane_xlane: no partial-EXEC region", arch_name[a]);
    free(s);
  }
}

/* The counting helper itself, on text written here. */
Test(kernels_isa, mnemonic_count_matches_whole_tokens_only) {
  const char *s = "\tds_read_b64 v[0:1], v2\n\tds_read_b64_tr_b16 v[2:3], v4\n"
                  "\tv_permlane16_swap_b32_e32 v0, v1\n0000 <ds_read_b64>:\n\tds_read_b64 v[4:5], v6 offset:8\n";
  cr_expect_eq(count_mnemonic(s, "ds_read_b64"), 2);
  cr_expect_eq(count_mnemonic(s, "ds_read_b64_tr_b16"), 1);
  cr_expect_eq(count_mnemonic(s, "v_permlane16_swap_b32"), 1);
  cr_expect_eq(count_mnemonic(s, "ds_read_b128"), 0);
}
