/* tests/test_emu_fidelity — the fidelity report (docs/fidelity.md): which stated choices a decoded
 * instruction rests on (emu/fidelity.c and the op rows' tags), `lanelab isa coverage`, the
 * fidelity line of `lanelab run` and `--strict-fidelity`. The choice ids are checked against the
 * anchors of docs/emulator-choices.md; the expected tags come from that document's index; the
 * expected counts from the test kernel's own instruction stream (tests/fidelity/fid.s). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/internal.h"
#include "tests/llvm_tools.h"
#include "tests/shell.h"
#include "util/util.h"

static int choice_index(const char *id)
{
  for (size_t c = 1; c < emu_choice_count(); c++)
    if (!strcmp(emu_choice_get(c)->id, id)) return (int)c;
  return -1;
}

/* every choice has a row in docs/emulator-choices.md's index (its anchor), and every anchor of the
 * index is a choice the emulator knows */
Test(emu_fidelity, every_choice_has_its_documented_anchor)
{
  size_t n = 0;
  ll_err e = {0};
  char *doc = ll_read_file(LANELAB_ROOT "/docs/emulator-choices.md", &n, &e);
  cr_assert_not_null(doc, "%s", e.msg);
  cr_assert_gt(emu_choice_count(), 10);
  for (size_t c = 1; c < emu_choice_count(); c++) {
    const emu_choice *ch = emu_choice_get(c);
    char *a = ll_fmt("<a id=\"%s\"></a>`%s`", ch->id, ch->id);
    cr_assert(strstr(doc, a), "choice %s has no row with anchor in docs/emulator-choices.md", ch->id);
    cr_assert(ch->title && strlen(ch->title) > 10, "choice %s has no title", ch->id);
    free(a);
  }
  int anchors = 0;
  for (const char *p = doc; (p = strstr(p, "<a id=\"")); p += 7) {
    char id[64];
    const char *q = strchr(p + 7, '"');
    cr_assert(q && q - p - 7 < 64);
    snprintf(id, sizeof id, "%.*s", (int)(q - p - 7), p + 7);
    cr_assert_geq(choice_index(id), 1, "docs/emulator-choices.md anchor '%s' is no choice of emu/fidelity.c", id);
    anchors++;
  }
  cr_assert_eq(anchors, (int)emu_choice_count() - 1, "one anchor per choice");
  free(doc);
}

/* the choices an instruction rests on, by its row and its modifiers (the index's last column) */
Test(emu_fidelity, instructions_carry_the_choices_they_rest_on)
{
  static const struct { const char *text, *ids; } T[] = {
      {"v_add_u32_e32 v0, v1, v2", ""},
      {"v_add_u32_e64 v0, v1, v2 clamp", ""}, /* one operation: CDNA3 ISA §6.5 */
      {"v_dot2_f32_f16 v0, v1, v2, v3", ""},  /* the pseudocode */
      {"v_lshl_add_u64 v[0:1], v[2:3], 5, v[4:5]", ""},
      {"v_exp_f32_e32 v1, v2", "transcendental-rounding"},
      {"v_mad_u16 v0, v1, v2, v3", ""},
      {"v_mad_u16 v0, v1, v2, v3 clamp", "int-clamp-exact"},
      {"v_dot4_i32_i8 v0, v1, v2, v3 clamp", "int-clamp-exact"},
      {"v_mad_legacy_u16 v0, v1, v2, v3", ""}, /* the pseudocode zeroes the high half */
      {"v_mac_f16_e32 v0, v1, v2", "mad-f16-precision"},
      {"v_frexp_mant_f16_e32 v0, v1", "d16-high-half"},
      {"v_add_f16_e32 v0, v1, v2", "d16-high-half"},
      {"v_min3_i16 v0, v1, v2, v3", "d16-high-half"},
      {"v_add_f32_e64 v0, v1, v2 mul:2", "omod-ieee"},
      {"v_add_f32_e64 v0, v1, v2 clamp", "float-clamp-zero-sign"},
      {"v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "dpp-inactive-lane"},
      {"v_permlane32_swap_b32_e32 v1, v1", "permlane-swap-same-register"},
      {"v_permlane16_swap_b32_e64 v1, v2 fi:1", "permlane-swap-fi-bound-ctrl"},
      {"v_permlane16_swap_b32_e32 v1, v2", ""},
      {"buffer_load_dword v1, v2, s[4:7], 0 offen lds", "lds-dma-at-issue"},
      {"buffer_load_dword v1, v2, s[4:7], 0 offen", ""},
      {"v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]", "mfma-accumulation"},
      {"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] cbsz:2 blgp:4", "mfma-accumulation"},
      {"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] cbsz:4 blgp:1", "mfma-accumulation mfma-f8f6f4-fp8-layout"},
      {"v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10", "mfma-accumulation smfmac-index-order"},
      {"v_cvt_pknorm_i16_f32 v0, v1, v2", "cvt-norm"},
      {"v_cvt_pk_i16_i32 v0, v1, v2", "cvt-pk-int-saturate"},
      {"v_cvt_pkaccum_u8_f32 v0, v1, v2", "cvt-u8"},
      {"v_cvt_f32_fp8_e64 v1, v2", "cvt-f8-vop3-op-sel"},
      {"v_cvt_f32_fp8_e32 v1, v2", ""},
      {"v_cvt_scalef32_pk32_f32_fp6 v[0:31], v[32:37], v38", "scale-e8m0-mantissa fp6-block-order"},
      {"v_cvt_sr_fp8_f32 v0, v1, v2", "stochastic-rounding"},
      {"s_memtime s[0:1]", "clock-counter"},
      {"s_memrealtime s[2:3]", "clock-counter"},
      {"ds_min_rtn_f64 v[0:1], v2, v[4:5]", "atomic-float-min-max"},
      {"ds_max_f32 v2, v3", "atomic-float-min-max"},
      {"global_atomic_min_f64 v[0:1], v2, v[4:5], s[0:1] sc0", "atomic-float-min-max"},
      {"ds_min_rtn_u64 v[0:1], v2, v[4:5]", ""},
      {"global_atomic_add_f32 v2, v3, s[0:1]", ""},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
    emu_insn in;
    cr_assert(emu_insn_prepare(T[i].text, &in), "'%s' not implemented: %s", T[i].text, in.why ? in.why : "?");
    uint64_t want = 0;
    char *ids = ll_xstrdup(T[i].ids), *save = NULL;
    for (char *t = strtok_r(ids, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      int c = choice_index(t);
      cr_assert_geq(c, 1, "unknown choice %s", t);
      want |= 1ull << c;
    }
    free(ids);
    cr_assert_eq(in.choices, want, "'%s': choices 0x%llx, want 0x%llx (%s)", T[i].text, (unsigned long long)in.choices,
                 (unsigned long long)want, T[i].ids);
  }
}

/* ---- the code object: coverage, the run line, --strict-fidelity ---------------------------------*/
static char *build_fid(const char *arch, bool choice)
{
  return assemble_co(NULL, LANELAB_ROOT "/tests/fidelity/fid.s", arch, choice ? "--defsym CHOICE=1" : NULL);
}
/* instructions from the kernel's entry to its s_endpgm, from the loader (the kernel is straight-line) */
static int body_len(const char *co_path)
{
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(co_path, &e);
  cr_assert_not_null(co, "%s", e.msg);
  const emu_kernel *k = emu_codeobj_kernel(co, "fid", &e);
  const emu_program *p = emu_codeobj_program(co, &e);
  cr_assert(k && p, "%s", e.msg);
  int n = 0;
  for (size_t i = 0; i < emu_program_count(p); i++) {
    const emu_insn_info *ii = emu_program_insn(p, i);
    if (ii->pc < k->entry) continue;
    n++;
    if (!strncmp(ii->mnem, "s_endpgm", 8)) break;
  }
  emu_codeobj_free(co);
  return n;
}
/* the value of the row (class, item) of `isa coverage --format csv` output; -1 if absent */
static long cov(const char *csv, const char *klass, const char *item)
{
  char *key = ll_fmt(",%s,%s,", klass, item);
  const char *p = strstr(csv, key);
  long v = p ? strtol(p + strlen(key), NULL, 10) : -1;
  free(key);
  return v;
}

static void fid_case(const char *arch)
{
  char *plain = build_fid(arch, false), *choice = build_fid(arch, true), *dir = sh_tmpdir("fidelity");
  char *out = NULL;
  /* coverage: the classes add up; the plain object has no choice, the other names its two */
  char *cmd = ll_fmt("%s/lanelab isa coverage %s %s --format csv", LANELAB_BUILD, plain, choice);
  cr_assert_eq(sh_run(cmd, &out), 0, "%s\n%s", cmd, out);
  char *rest = strstr(out, choice); /* the choice object's rows come after the plain one's */
  cr_assert_not_null(rest, "%s", out);
  size_t cut = (size_t)(rest - out);
  char *first = strndup(out, cut);
  long tot = cov(first, "total", "-"), sem = cov(first, "semantics", "-"), cho = cov(first, "choices", "-"), ref = cov(first, "refused", "-");
  cr_assert(tot > 0 && sem == tot && cho == 0 && ref == 0, "plain: total %ld semantics %ld choices %ld refused %ld\n%s", tot, sem, cho, ref, out);
  tot = cov(rest, "total", "-"), sem = cov(rest, "semantics", "-"), cho = cov(rest, "choices", "-"), ref = cov(rest, "refused", "-");
  cr_assert(cho == 2 && ref == 0 && sem + cho + ref == tot, "choice object: %ld = %ld + %ld + %ld\n%s", tot, sem, cho, ref, out);
  cr_assert(cov(rest, "choice", "transcendental-rounding") == 1 && cov(rest, "choice", "cvt-pk-int-saturate") == 1 &&
                strstr(rest, "docs/emulator-choices.md#transcendental-rounding"),
            "%s", out);
  free(first), free(out), free(cmd);

  /* run: the line counts 4 waves x the body; with choices, 4 x 2 of them */
  uint32_t x[64];
  for (int i = 0; i < 64; i++) x[i] = (uint32_t)(i * 2500);
  char *xp = ll_fmt("%s/x.bin", dir), *op = ll_fmt("%s/o.bin", dir);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(xp, x, sizeof x, &e), "%s", e.msg);
  for (int c = 0; c < 2; c++) {
    const char *co = c ? choice : plain;
    int n = body_len(co);
    char *run = ll_fmt("rm -f %s; %s/lanelab run %s fid --grid 4 --block 64 --backend emu --arg in:%s --arg out:512:%s",
                       op, LANELAB_BUILD, co, xp, op);
    cr_assert_eq(sh_run(run, &out), 0, "%s\n%s", run, out);
    char *want = c ? ll_fmt("lanelab: fidelity: %d instructions executed, 8 (%.1f%%) rest on stated choices: "
                            "transcendental-rounding 4, cvt-pk-int-saturate 4 (docs/emulator-choices.md)",
                            4 * n, 800.0 / (4 * n))
                   : ll_fmt("lanelab: fidelity: %d instructions executed, none rests on a stated choice", 4 * n);
    cr_assert(strstr(out, want), "%s %s: want '%s' in:\n%s", arch, c ? "choice" : "plain", want, out);
    size_t nb = 0;
    uint32_t *o = ll_read_file(op, &nb, &e);
    cr_assert(o && nb == 512, "%s", e.msg);
    for (int i = 0; i < 64; i++) {
      uint32_t two = 2 * x[i];
      uint32_t w0 = c ? 0 : x[i] + 1, w1 = c ? (x[i] > 65535 ? 65535 : x[i]) | (two > 65535 ? 65535u : two) << 16 : two;
      if (!c) cr_assert_eq(o[i], w0, "%s o[%d]", arch, i);
      cr_assert_eq(o[64 + i], w1, "%s %s o[%d]", arch, c ? "choice" : "plain", 64 + i);
    }
    free(o), free(out), free(want);
    /* --strict-fidelity: the plain run passes; the other fails naming both choices and their first
     * instruction, and writes no output */
    char *strict = ll_fmt("%s --strict-fidelity", run);
    int rc = sh_run(strict, &out);
    if (!c) {
      cr_assert_eq(rc, 0, "%s\n%s", strict, out);
      cr_assert_eq(access(op, F_OK), 0, "plain strict run wrote no output");
    } else {
      cr_assert_eq(rc, 1, "%s: exit %d\n%s", strict, rc, out);
      cr_assert(strstr(out, "--strict-fidelity: 8 executed instructions rested on stated choices") &&
                    strstr(out, "transcendental-rounding (") && strstr(out, "cvt-pk-int-saturate (") &&
                    strstr(out, "first fid 0x") && strstr(out, "v_exp_f32") && strstr(out, "v_cvt_pk_u16_u32"),
                "%s strict:\n%s", arch, out);
      cr_assert(access(op, F_OK) != 0, "strict failure wrote the output");
    }
    free(out), free(strict), free(run);
  }
  char *rm = ll_fmt("rm -rf %s", dir);
  if (system(rm)) {}
  free(rm), free(xp), free(op), free(dir), free(plain), free(choice);
}
Test(emu_fidelity, coverage_run_line_and_strict_gfx942) { fid_case("gfx942"); }
Test(emu_fidelity, coverage_run_line_and_strict_gfx950) { fid_case("gfx950"); }
