/* tests/test_emu_asm — lanelab's own corpus of hand-written assembly kernels (tests/asm/, one .s file each), in the
 * style of AMD's aiter kernels, assembled with llvm-mc-22 and linked with ld.lld-22 for both arches,
 * loaded through the loader's leniencies (metadata [1, 0], descriptor kernarg size 0, no .size)
 * and run end to end on the emulator. Outputs are checked against the oracle (oracle/), never
 * against the emulator itself.
 *
 * attn_fwd_d16.s: K/V staged with buffer_load_dword ... lds, S^T = K Q^T and O = P V with
 * v_mfma_f32_16x16x16_f16, softmax reductions with ds_swizzle and v_permlane32_swap_b32 v, v
 * (gfx950; ds_bpermute on gfx942), V read with ds_read_b64_tr_b16 (gfx950; ds_read_u16_d16 on
 * gfx942).
 *
 * memmodel.s: the memory-model patterns of docs/emulator-choices.md ("Memory-model
 * strictness"), run through `lanelab run`: a warning by default (printed once per kernel PC, counted
 * at the end, the run completes with the documented fallback values), a fault with --strict-memory. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "oracle/oracle.h"
#include "tests/llvm_tools.h"
#include "tests/shell.h"
#include "util/util.h"

#define ASM_DIR LANELAB_ROOT "/tests/asm"

static char *build(const char *file, const char *arch)
{
  char *path = ll_fmt("%s/%s", ASM_DIR, file);
  char *co = assemble_co(NULL, path, arch, strcmp(arch, "gfx950") == 0 ? "--defsym GFX950=1" : NULL);
  free(path);
  return co;
}

enum { NQ = 16, NK = 32, D = 16 };

static void attention_case(const char *arch)
{
  char *co_path = build("attn_fwd_d16.s", arch);
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(co_path, &e);
  cr_assert_not_null(co, "%s: %s", arch, e.msg);
  /* the leniencies a hand-written kernel needs, and only those */
  cr_assert(co->notes && strstr(co->notes, "amdhsa.version [1, 0]") && strstr(co->notes, "descriptor kernarg size 0"),
            "%s notes: %s", arch, co->notes ? co->notes : "(none)");
  const emu_kernel *k = emu_codeobj_kernel(co, "attn_fwd_d16", &e);
  cr_assert_not_null(k, "%s", e.msg);
  cr_assert_eq(k->kernarg_size, 32);

  /* the instructions the kernel is written to exercise are really in it (LLVM's disassembly
   * through the emulator's decoder), and each has semantics */
  const emu_program *p = emu_codeobj_program(co, &e);
  cr_assert_not_null(p, "%s", e.msg);
  bool g950 = strcmp(arch, "gfx950") == 0;
  int n_lds = 0, n_mfma = 0, n_tr = 0, n_swap = 0, n_bperm = 0;
  for (size_t i = 0; i < emu_program_count(p); i++) {
    const emu_insn_info *ii = emu_program_insn(p, i);
    if (ii->pc < k->entry || ii->pc >= k->entry + k->code_size) continue;
    cr_assert(ii->implemented || !strncmp(ii->mnem, "s_nop", 5), "%s: '%s' has no semantics", arch, ii->text);
    n_lds += !strcmp(ii->mnem, "buffer_load_dword") && strstr(ii->text, " lds");
    n_mfma += !strcmp(ii->mnem, "v_mfma_f32_16x16x16_f16");
    n_tr += !strcmp(ii->mnem, "ds_read_b64_tr_b16");
    n_swap += !strncmp(ii->mnem, "v_permlane32_swap_b32", 21);
    n_bperm += !strcmp(ii->mnem, "ds_bpermute_b32");
  }
  cr_assert_eq(n_lds, 8, "%s: 8 buffer->LDS loads", arch);
  cr_assert_eq(n_mfma, 4);
  cr_assert_eq(n_tr, g950 ? 2 : 0);
  cr_assert_eq(n_swap, g950 ? 2 : 0);
  cr_assert_eq(n_bperm, g950 ? 0 : 2);

  /* inputs and reference from the oracle: one head, 16 queries, 32 keys, head dim 16, fp16 */
  oracle_attention_spec sp = {0};
  int32_t qo[2] = {0, NQ}, kv[2] = {0, NK};
  sp.kind = ORACLE_SINGLE, sp.dtype = ORACLE_F16, sp.num_qo_heads = sp.num_kv_heads = 1, sp.head_dim = D;
  sp.batch = 1, sp.qo_indptr = qo, sp.kv_indptr = kv, sp.window_left = -1, sp.path = ORACLE_PATH_PLAIN;
  cr_assert(oracle_attention_validate(&sp, &e), "%s", e.msg);
  oracle_attention_generate(&sp, 0x5eed13);
  float ref[NQ * D], lse[NQ], out[NQ * D];
  cr_assert(oracle_attention_run(&sp, ref, lse, NULL, &e), "%s", e.msg);

  emu_mem *m = emu_mem_new();
  memset(out, 0xff, sizeof out);
  uint64_t dq = emu_mem_map(m, sp.q, NQ * D * 2, "q"), dk = emu_mem_map(m, sp.k, NK * D * 2, "k");
  uint64_t dv = emu_mem_map(m, sp.v, NK * D * 2, "v"), dout = emu_mem_map(m, out, sizeof out, "o");
  uint64_t ka[4] = {dq, dk, dv, dout};
  uint64_t dka = emu_mem_map(m, ka, sizeof ka, "kernarg");
  emu_dispatch d = {.co = co, .kernel = k, .grid = {1, 1, 1}, .block = {64, 1, 1}, .kernarg_addr = dka};
  emu_launch_opts o = {.threads = 1};
  emu_fault f;
  int rc = emu_launch(m, &d, &o, &f, NULL);
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", arch, f.msg);
  double atol, rtol;
  oracle_tolerance_default(ORACLE_F16, &atol, &rtol);
  for (int i = 0; i < NQ * D; i++)
    cr_assert(oracle_close(out[i], ref[i], atol, rtol), "%s O[%d][%d] = %.6f, oracle %.6f (atol %g rtol %g)", arch,
              i / D, i % D, out[i], ref[i], atol, rtol);
  emu_mem_free(m);
  free(sp.q), free(sp.k), free(sp.v);
  emu_codeobj_free(co);
  free(co_path);
}

Test(emu_asm, attention_fwd_gfx950) { attention_case("gfx950"); }
Test(emu_asm, attention_fwd_gfx942) { attention_case("gfx942"); }

/* ---- memory-model strictness --------------------------------------------------------------------*/
static size_t count_str(const char *h, const char *n)
{
  size_t c = 0;
  for (const char *p = h; (p = strstr(p, n)); p += strlen(n)) c++;
  return c;
}

static void memmodel_case(const char *arch)
{
  char *cos[2] = {build("memmodel.s", arch), build("memmodel_wg.s", arch)}, *dir = sh_tmpdir("memmodel");
  uint32_t x[64];
  for (int i = 0; i < 64; i++) x[i] = 100u + 3u * (uint32_t)i;
  char *xp = ll_fmt("%s/x.bin", dir), *op = ll_fmt("%s/o.bin", dir);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(xp, x, sizeof x, &e), "%s", e.msg);
  /* file 0: tests/asm/memmodel.s (one wave), 1: memmodel_wg.s (two waves, block 128) */
  static const struct { int file; const char *kernel, *what, *strict_kind; int mul, add; } K[] = {
      {0, "mm_lds_barrier", "LDS result used after s_barrier without s_waitcnt", "missing s_waitcnt", 1, 1},
      {0, "mm_dup_sload", "duplicated s_load in flight", "missing s_waitcnt", 2, 0},
      {1, "mm_store_barrier", "LDS write not waited for before s_barrier: the LDS store", "missing s_waitcnt", 1, 1},
      {1, "mm_dma_barrier", "LDS write not waited for before s_barrier: the load to LDS", "missing s_waitcnt", 1, 1},
  };
  for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
    /* 4 workgroups reach the same PC: one warning line, the summary counts that PC once */
    char *cmd = ll_fmt("rm -f %s; %s/lanelab run %s %s --grid 4 --block %d --backend emu --arg in:%s --arg out:256:%s",
                       op, LANELAB_BUILD, cos[K[k].file], K[k].kernel, K[k].file ? 128 : 64, xp, op);
    char *out = NULL;
    int rc = sh_run(cmd, &out);
    cr_assert_eq(rc, 0, "%s %s: exit %d\n%s", arch, K[k].kernel, rc, out);
    cr_assert_eq(count_str(out, "lanelab: warning: "), 1, "%s %s: one warning line expected:\n%s", arch, K[k].kernel, out);
    char *want = ll_fmt("%s kernel %s", arch, K[k].kernel);
    cr_assert(strstr(out, K[k].what) && strstr(out, want) && strstr(out, " pc 0x"), "%s: %s", K[k].kernel, out);
    cr_assert(strstr(out, "lanelab: 1 memory-model warning "), "%s: no summary:\n%s", K[k].kernel, out);
    size_t n = 0;
    uint32_t *o = ll_read_file(op, &n, &e);
    cr_assert(o && n == sizeof x, "%s", e.msg);
    for (int i = 0; i < 64; i++) /* the documented fallback: the loaded value, 0 past num_records */
      cr_assert_eq(o[i], (uint32_t)K[k].mul * x[i] + (uint32_t)K[k].add, "%s %s o[%d] = %u", arch, K[k].kernel, i, o[i]);
    free(o), free(out), free(want);
    /* strict: the same run faults, naming the pattern, and writes no output */
    char *scmd = ll_fmt("%s --strict-memory", cmd);
    rc = sh_run(scmd, &out);
    cr_assert_eq(rc, 1, "%s %s --strict-memory: exit %d\n%s", arch, K[k].kernel, rc, out);
    cr_assert(strstr(out, K[k].strict_kind) && !strstr(out, "warning"), "%s strict: %s", K[k].kernel, out);
    cr_assert(access(op, F_OK) != 0, "%s strict: output written", K[k].kernel);
    free(out), free(scmd), free(cmd);
  }
  char *rm = ll_fmt("rm -rf %s", dir);
  if (system(rm)) {}
  free(rm), free(xp), free(op), free(dir), free(cos[0]), free(cos[1]);
}

Test(emu_asm, memory_model_warnings_and_strict_gfx942) { memmodel_case("gfx942"); }

/* mm_soffset reads through a V# of 256 records with soffset 256: the range check counts soffset
 * (docs/isa.md "Buffer resource and range checking"), so every lane is out of range and reads 0, by
 * default and strict alike, with no warning: o[i] = x[i] + 0. Before the check counted soffset this
 * was the warning "buffer access past num_records through soffset". */
Test(emu_asm, buffer_read_past_num_records_through_soffset_reads_zero)
{
  for (int a = 0; a < 2; a++) {
    const char *arch = a ? "gfx950" : "gfx942";
    char *co = build("memmodel.s", arch), *dir = sh_tmpdir("mmsoff");
    uint32_t x[64];
    for (int i = 0; i < 64; i++) x[i] = 100u + 3u * (uint32_t)i;
    char *xp = ll_fmt("%s/x.bin", dir), *op = ll_fmt("%s/o.bin", dir);
    ll_err e = {0};
    cr_assert(ll_write_file_atomic(xp, x, sizeof x, &e), "%s", e.msg);
    for (int strict = 0; strict < 2; strict++) {
      char *cmd = ll_fmt("rm -f %s; %s/lanelab run %s mm_soffset --grid 4 --block 64 --backend emu --arg in:%s "
                         "--arg out:256:%s%s", op, LANELAB_BUILD, co, xp, op, strict ? " --strict-memory" : "");
      char *out = NULL;
      int rc = sh_run(cmd, &out);
      cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
      cr_assert(!strstr(out, "warning"), "%s: %s", arch, out);
      size_t n = 0;
      uint32_t *o = ll_read_file(op, &n, &e);
      cr_assert(o && n == sizeof x, "%s", e.msg);
      for (int i = 0; i < 64; i++) cr_assert_eq(o[i], x[i], "%s o[%d]", arch, i);
      free(o), free(out), free(cmd);
    }
    char *rm = ll_fmt("rm -rf %s", dir);
    if (system(rm)) {}
    free(rm), free(xp), free(op), free(dir), free(co);
  }
}
Test(emu_asm, memory_model_warnings_and_strict_gfx950) { memmodel_case("gfx950"); }

/* the API: every occurrence counted in the launch stats, each PC reported once through on_warning */
static void count_warn(void *user, const emu_fault *w)
{
  ++*(int *)user;
  cr_assert(!w->faulted && strstr(w->msg, "pc 0x"), "%s", w->msg);
}
Test(emu_asm, memory_model_warning_counts_in_stats)
{
  char *co_path = build("memmodel.s", "gfx950");
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(co_path, &e);
  cr_assert_not_null(co, "%s", e.msg);
  const emu_kernel *k = emu_codeobj_kernel(co, "mm_dup_sload", &e);
  cr_assert_not_null(k, "%s", e.msg);
  uint32_t x[64] = {0}, o[64];
  emu_mem *m = emu_mem_new();
  uint64_t ka[2] = {emu_mem_map(m, x, sizeof x, "x"), emu_mem_map(m, o, sizeof o, "o")};
  emu_dispatch d = {.co = co, .kernel = k, .grid = {3, 1, 1}, .block = {64, 1, 1},
                    .kernarg_addr = emu_mem_map(m, ka, sizeof ka, "kernarg")};
  int calls = 0;
  emu_launch_opts opt = {.threads = 2, .on_warning = count_warn, .warn_user = &calls};
  emu_launch_stats st;
  emu_fault f;
  cr_assert_eq(emu_launch(m, &d, &opt, &f, &st), LL_EXIT_OK, "%s", f.msg);
  cr_assert_eq(st.mem_warnings, 3, "one per workgroup: %llu", (unsigned long long)st.mem_warnings);
  cr_assert_eq(st.mem_warning_pcs, 1);
  cr_assert_eq(calls, 1);
  emu_launch_stats_free(&st);
  opt.strict_memory = true;
  cr_assert_eq(emu_launch(m, &d, &opt, &f, NULL), LL_EXIT_FAIL);
  cr_assert(strstr(f.msg, "duplicated s_load") && strstr(f.msg, "mm_dup_sload"), "%s", f.msg);
  emu_mem_free(m);
  emu_codeobj_free(co);
  free(co_path);
}
