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
 * memmodel.s, memmodel_wg.s: the memory-model patterns of docs/emulator-choices.md ("Memory-model
 * strictness"), run through `lanelab run`: a warning by default (printed once per kernel PC, counted
 * at the end, the run completes with the documented fallback values), a fault with --strict-memory.
 *
 * lds_pipe.s: loads to LDS pipelined across barriers as AMD's kernels do, for the LDS ordering rule
 * (an LDS write lands between its issue and the s_waitcnt that retires it; another wave may touch
 * its bytes only after an s_barrier that follows that wait). Expected findings come from the ISA's
 * rules (vmcnt retires the oldest first) applied to the kernels' instruction order as LLVM's
 * disassembly lists it, expected outputs from formulas written here.
 *
 * scratch.s: private (scratch) memory — every store and load size, the ST/SS/SV/SVS address forms,
 * partial EXEC, a misaligned dword, the flat private aperture, an access past the segment (fault)
 * and vmcnt bookkeeping; expected values from the ISA's addressing rule written as formulas. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "emu/internal.h"
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
  /* file 0: tests/asm/memmodel.s (one wave), 1: memmodel_wg.s (two waves, block 128); mm_store_nobar (no
   * barrier between the write and the other wave's read) failed with the write's slot left out of
   * emu_ldso.hotx */
  static const struct { int file; const char *kernel, *what, *strict_kind; int mul, add; } K[] = {
      {0, "mm_lds_barrier", "LDS result used after s_barrier without s_waitcnt", "missing s_waitcnt", 1, 1},
      {0, "mm_dup_sload", "duplicated s_load in flight", "missing s_waitcnt", 2, 0},
      {1, "mm_store_barrier", "not yet waited for with s_waitcnt lgkmcnt", "unordered LDS access", 1, 1},
      {1, "mm_store2_barrier", "not yet waited for with s_waitcnt lgkmcnt", "unordered LDS access", 1, 1},
      {1, "mm_dma_barrier", "not yet waited for with s_waitcnt vmcnt", "unordered LDS access", 1, 1},
      {1, "mm_store_nobar", "not yet waited for with s_waitcnt lgkmcnt", "unordered LDS access", 1, 1},
      {1, "mm_atomic_read", "not yet waited for with s_waitcnt lgkmcnt", "unordered LDS access", 1, 1},
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

/* A memmodel kernel that must run clean, by default and with --strict-memory, on both arches: x[i] =
 * 100 + 3 i in, 64 words out, each o[i] == mul * x[i] + add and no warning. */
static void clean_mm_case(const char *file, const char *kernel, int block, uint32_t mul, uint32_t add)
{
  for (int a = 0; a < 2; a++) {
    const char *arch = a ? "gfx950" : "gfx942";
    char *co = build(file, arch), *dir = sh_tmpdir("mmclean");
    uint32_t x[64];
    for (int i = 0; i < 64; i++) x[i] = 100u + 3u * (uint32_t)i;
    char *xp = ll_fmt("%s/x.bin", dir), *op = ll_fmt("%s/o.bin", dir);
    ll_err e = {0};
    cr_assert(ll_write_file_atomic(xp, x, sizeof x, &e), "%s", e.msg);
    for (int strict = 0; strict < 2; strict++) {
      char *cmd = ll_fmt("rm -f %s; %s/lanelab run %s %s --grid 4 --block %d --backend emu --arg in:%s "
                         "--arg out:256:%s%s", op, LANELAB_BUILD, co, kernel, block, xp, op, strict ? " --strict-memory" : "");
      char *out = NULL;
      int rc = sh_run(cmd, &out);
      cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
      cr_assert(!strstr(out, "warning") && !strstr(out, "unordered"), "%s %s: %s", arch, kernel, out);
      size_t n = 0;
      uint32_t *o = ll_read_file(op, &n, &e);
      cr_assert(o && n == sizeof x, "%s", e.msg);
      for (int i = 0; i < 64; i++) cr_assert_eq(o[i], mul * x[i] + add, "%s %s o[%d] = %u", arch, kernel, i, o[i]);
      free(o), free(out), free(cmd);
    }
    char *rm = ll_fmt("rm -rf %s", dir);
    if (system(rm)) {}
    free(rm), free(xp), free(op), free(dir), free(co);
  }
}

/* mm_atomic_atomic: two waves' ds_add_u32 on the same LDS words with no wait between them is no
 * "unordered LDS access" (each is one indivisible update; docs/emulator-choices.md, "The LDS
 * ordering rule"), by default and strict, and the words hold both sums: o[i] = 2 x[i] + 1. It was
 * a warning (a shared-memory histogram's atomicAdd from several waves); mm_atomic_read, a plain
 * read of such an update, still is one (memmodel_case). */
Test(emu_asm, two_waves_lds_atomics_on_one_word_are_no_ordering_finding)
{
  clean_mm_case("memmodel_wg.s", "mm_atomic_atomic", 128, 2, 1);
}

/* mm_soffset reads through a V# of 256 records with soffset 256: the range check counts soffset
 * (docs/isa.md "Buffer resource and range checking"), so every lane is out of range and reads 0, by
 * default and strict alike, with no warning: o[i] = x[i] + 0. Before the check counted soffset this
 * was the warning "buffer access past num_records through soffset". */
Test(emu_asm, buffer_read_past_num_records_through_soffset_reads_zero)
{
  clean_mm_case("memmodel.s", "mm_soffset", 64, 1, 0);
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

/* ---- the LDS ordering rule: tests/asm/lds_pipe.s ------------------------------------------------*/
typedef struct { int n; char first[512]; uint64_t pc; } warn_log;
static void log_warn(void *user, const emu_fault *w)
{
  warn_log *l = user;
  if (l->n++ == 0) snprintf(l->first, sizeof l->first, "%s", w->msg), l->pc = w->pc;
}

typedef struct {
  const char *arch;
  char *co_path;
  emu_codeobj *co;
  uint32_t x[1024];
} pipe_fx;

static void pipe_open(pipe_fx *fx, const char *arch)
{
  fx->arch = arch;
  fx->co_path = build("lds_pipe.s", arch);
  ll_err e = {0};
  fx->co = emu_codeobj_load_file(fx->co_path, &e);
  cr_assert_not_null(fx->co, "%s: %s", arch, e.msg);
  for (int i = 0; i < 1024; i++) fx->x[i] = (uint32_t)(7 * i + 3) % 1000u;
}

static void pipe_close(pipe_fx *fx)
{
  emu_codeobj_free(fx->co);
  free(fx->co_path);
}

/* The PC of the n-th instruction (from 0) of `kernel` whose LLVM text starts with `prefix` (and
 * contains `also`, if given): from the disassembly, not from the run. */
static uint64_t nth_pc(pipe_fx *fx, const char *kernel, const char *prefix, const char *also, int n)
{
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(fx->co, kernel, &e);
  cr_assert_not_null(k, "%s", e.msg);
  const emu_program *p = emu_codeobj_program(fx->co, &e);
  cr_assert_not_null(p, "%s", e.msg);
  for (size_t i = 0; i < emu_program_count(p); i++) {
    const emu_insn_info *ii = emu_program_insn(p, i);
    if (ii->pc < k->entry || ii->pc >= k->entry + k->code_size) continue;
    if (strncmp(ii->text, prefix, strlen(prefix)) || (also && !strstr(ii->text, also))) continue;
    if (n-- == 0) return ii->pc;
  }
  cr_assert_fail("%s: %s has no instruction %s... number %d", fx->arch, kernel, prefix, n);
  return 0;
}

/* One workgroup of `block` work-items: x in, o (256 dwords) out, then up to two 32-bit scalars.
 * Warnings are logged; returns emu_launch's status (f filled on a fault). */
static int pipe_run(pipe_fx *fx, const char *kernel, uint32_t block, uint32_t a0, uint32_t a1, bool strict,
                    uint32_t *o, warn_log *wl, emu_fault *f)
{
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(fx->co, kernel, &e);
  cr_assert_not_null(k, "%s", e.msg);
  emu_mem *m = emu_mem_new();
  memset(o, 0xee, 256 * 4);
  struct { uint64_t x, o; uint32_t a0, a1; } ka = {emu_mem_map(m, fx->x, sizeof fx->x, "x"), emu_mem_map(m, o, 256 * 4, "o"), a0, a1};
  emu_dispatch d = {.co = fx->co, .kernel = k, .grid = {1, 1, 1}, .block = {block, 1, 1},
                    .kernarg_addr = emu_mem_map(m, &ka, sizeof ka, "kernarg")};
  memset(wl, 0, sizeof *wl);
  emu_launch_opts opt = {.threads = 1, .strict_memory = strict, .on_warning = log_warn, .warn_user = wl};
  int rc = emu_launch(m, &d, &opt, f, NULL);
  emu_mem_free(m);
  return rc;
}

/* A clean run: completed, no finding. */
static void expect_clean(const warn_log *wl, const emu_fault *f, int rc, const char *ctx)
{
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", ctx, f->msg);
  cr_assert_eq(wl->n, 0, "%s: an unexpected finding: %s", ctx, wl->first);
}

/* A finding is reported at the instruction that touches the bytes (its PC and text) and names the
 * write's instruction by PC and its wave; strict, the same is a fault of kind "unordered LDS access". */
static void expect_finding(const warn_log *wl, const emu_fault *f, int rc, bool strict, uint64_t at, uint64_t writer,
                           const char *wave, const char *why, const char *ctx)
{
  char wpc[32];
  snprintf(wpc, sizeof wpc, "pc 0x%llx '", (unsigned long long)writer);
  const char *msg = strict ? f->msg : wl->first;
  if (strict) {
    cr_assert_eq(rc, LL_EXIT_FAIL, "%s: strict run did not fault", ctx);
    cr_assert_str_eq(f->kind, "unordered LDS access", "%s: %s", ctx, f->msg);
    cr_assert_eq(f->pc, at, "%s: fault at pc 0x%llx, want 0x%llx: %s", ctx, (unsigned long long)f->pc, (unsigned long long)at, f->msg);
  } else {
    cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", ctx, f->msg);
    cr_assert(wl->n >= 1, "%s: no finding", ctx);
    cr_assert_eq(wl->pc, at, "%s: first finding at pc 0x%llx, want 0x%llx: %s", ctx, (unsigned long long)wl->pc,
                 (unsigned long long)at, wl->first);
  }
  cr_assert(strstr(msg, "unordered LDS access") && strstr(msg, wpc) && strstr(msg, wave) && strstr(msg, why),
            "%s: want the write at %s by %s, '%s': %s", ctx, wpc, wave, why, msg);
}

/* pipe_tiles: tile t + 1's loads are in flight at every barrier of iteration t (an s_barrier with
 * LDS writes outstanding), yet each read follows its tile's vmcnt wait and a barrier: no finding,
 * default or strict, and o[w*128 + k*64 + l] = sum_t (t + 1) * x[t*256 + (1 - w)*128 + k*64 + l]. */
static void pipeline_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  for (int strict = 0; strict < 2; strict++) {
    uint32_t o[256];
    warn_log wl;
    emu_fault f;
    int rc = pipe_run(&fx, "pipe_tiles", 128, 0, 0, strict, o, &wl, &f);
    char *ctx = ll_fmt("%s pipe_tiles strict=%d", arch, strict);
    expect_clean(&wl, &f, rc, ctx);
    free(ctx);
    for (int w = 0; w < 2; w++)
      for (int k = 0; k < 2; k++)
        for (int l = 0; l < 64; l++) {
          uint32_t want = 0;
          for (int t = 0; t < 4; t++) want += (uint32_t)(t + 1) * fx.x[t * 256 + (1 - w) * 128 + k * 64 + l];
          cr_assert_eq(o[w * 128 + k * 64 + l], want, "%s o[%d] = %u, want %u", arch, w * 128 + k * 64 + l,
                       o[w * 128 + k * 64 + l], want);
        }
  }
  pipe_close(&fx);
}
Test(emu_asm, lds_pipeline_across_barriers_gfx942) { pipeline_case("gfx942"); }
Test(emu_asm, lds_pipeline_across_barriers_gfx950) { pipeline_case("gfx950"); }

/* pipe_tiles_early: iteration 0 reads tile 1, whose loads wave 1 has not waited for (vmcnt(2) left
 * its two youngest, tile 1's, in flight). The first finding is wave 0's first ds_read, naming tile
 * 1's first load (the kernel's third load to LDS) by wave 1; strict, the run faults there. */
static void early_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  uint64_t rd = nth_pc(&fx, "pipe_tiles_early", "ds_read_b32", NULL, 0);
  uint64_t ld = nth_pc(&fx, "pipe_tiles_early", "buffer_load_dword", " lds", 2);
  for (int strict = 0; strict < 2; strict++) {
    uint32_t o[256];
    warn_log wl;
    emu_fault f;
    int rc = pipe_run(&fx, "pipe_tiles_early", 128, 0, 0, strict, o, &wl, &f);
    char *ctx = ll_fmt("%s pipe_tiles_early strict=%d", arch, strict);
    expect_finding(&wl, &f, rc, strict, rd, ld, "wave 1 lane 0", "not yet waited for with s_waitcnt vmcnt", ctx);
    free(ctx);
  }
  pipe_close(&fx);
}
Test(emu_asm, lds_pipeline_early_read_is_a_finding_gfx942) { early_case("gfx942"); }
Test(emu_asm, lds_pipeline_early_read_is_a_finding_gfx950) { early_case("gfx950"); }

/* retire_order: wave 0's four loads to LDS (regions 0..3, in issue order), s_waitcnt vmcnt(2),
 * s_barrier. vmcnt counts in order (CDNA3 ISA "S_WAITCNT": vector memory loads return in the order
 * they were issued), so regions 0 and 1 are retired and 2 and 3 are not. Wave 1 touching region j
 * after the barrier: j = 0, 1 no finding; j = 2, 3 a finding naming load j. Mode 0 reads at once
 * (load j not yet waited for), mode 1 writes at once, mode 2 reads after wave 0's vmcnt(0) with no
 * barrier since. Where no finding is due, o[l] = x[64 j + l]. */
static void order_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  static const char *why[3] = {"not yet waited for with s_waitcnt vmcnt", "not yet waited for with s_waitcnt vmcnt",
                               "waited for (s_waitcnt vmcnt) but with no s_barrier since"};
  static const char *verb[3] = {"reads LDS byte", "writes LDS byte", "reads LDS byte"};
  uint64_t rd = nth_pc(&fx, "retire_order", "ds_read_b32", NULL, 0);
  uint64_t wr = nth_pc(&fx, "retire_order", "ds_write_b32", NULL, 0);
  for (uint32_t mode = 0; mode < 3; mode++)
    for (uint32_t j = 0; j < 4; j++) {
      uint32_t o[256];
      warn_log wl;
      emu_fault f;
      int rc = pipe_run(&fx, "retire_order", 128, j, mode, false, o, &wl, &f);
      char *ctx = ll_fmt("%s retire_order j=%u mode=%u", arch, j, mode);
      if (j < 2) { /* region j was retired before the barrier */
        expect_clean(&wl, &f, rc, ctx);
        for (int l = 0; l < 64; l++)
          cr_assert_eq(o[l], mode == 1 ? 0x5a5au : fx.x[64 * j + (uint32_t)l], "%s o[%d] = %u", ctx, l, o[l]);
      } else {
        expect_finding(&wl, &f, rc, false, mode == 1 ? wr : rd, nth_pc(&fx, "retire_order", "buffer_load_dword", " lds", (int)j),
                       "wave 0 lane 0", why[mode], ctx);
        cr_assert(strstr(wl.first, verb[mode]), "%s: %s", ctx, wl.first);
      }
      free(ctx);
    }
  pipe_close(&fx);
}
Test(emu_asm, lds_loads_retire_in_vmcnt_order_gfx942) { order_case("gfx942"); }
Test(emu_asm, lds_loads_retire_in_vmcnt_order_gfx950) { order_case("gfx950"); }

/* own_wait: a wave's ds_read of the bytes of its own load to LDS needs the vmcnt wait first (the
 * load's LDS write goes through the vector-memory path, unordered with the wave's DS instructions;
 * LLVM's SIInsertWaitcnts puts vmcnt there). With the wait: no finding, o[l] = x[l]. */
static void own_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  uint64_t rd = nth_pc(&fx, "own_wait", "ds_read_b32", NULL, 0);
  uint64_t ld = nth_pc(&fx, "own_wait", "buffer_load_dword", " lds", 0);
  for (uint32_t wait = 0; wait < 2; wait++) {
    uint32_t o[256];
    warn_log wl;
    emu_fault f;
    int rc = pipe_run(&fx, "own_wait", 64, wait, 0, false, o, &wl, &f);
    char *ctx = ll_fmt("%s own_wait wait=%u", arch, wait);
    if (wait) {
      expect_clean(&wl, &f, rc, ctx);
      for (int l = 0; l < 64; l++) cr_assert_eq(o[l], fx.x[l], "%s o[%d]", ctx, l);
    } else {
      expect_finding(&wl, &f, rc, false, rd, ld, "this wave's load to LDS", "not yet waited for with s_waitcnt vmcnt", ctx);
    }
    free(ctx);
  }
  pipe_close(&fx);
}
Test(emu_asm, lds_own_load_read_before_its_vmcnt_is_a_finding_gfx942) { own_case("gfx942"); }
Test(emu_asm, lds_own_load_read_before_its_vmcnt_is_a_finding_gfx950) { own_case("gfx950"); }

/* Issue 25's regression: a warning at s_barrier (loads to LDS outstanding) took them out of the
 * in-order vmcnt queue, so the s_waitcnt vmcnt(4) after it retired nothing and the correct read of
 * v2, whose load the real count retires, faulted "missing s_waitcnt". keep_queue: five loads in
 * flight at the barrier (v2's the oldest), vmcnt(4), read v2: no finding, no fault, default or
 * strict; o[w*64 + l] = 2 x[l] + 1. */
static void keep_queue_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  for (int strict = 0; strict < 2; strict++) {
    uint32_t o[256];
    warn_log wl;
    emu_fault f;
    int rc = pipe_run(&fx, "keep_queue", 128, 0, 0, strict, o, &wl, &f);
    char *ctx = ll_fmt("%s keep_queue strict=%d", arch, strict);
    expect_clean(&wl, &f, rc, ctx);
    free(ctx);
    for (int i = 0; i < 128; i++) cr_assert_eq(o[i], 2 * fx.x[i % 64] + 1, "%s o[%d] = %u", arch, i, o[i]);
  }
  pipe_close(&fx);
}
Test(emu_asm, warning_at_barrier_no_longer_drops_pending_loads_gfx942) { keep_queue_case("gfx942"); }
Test(emu_asm, warning_at_barrier_no_longer_drops_pending_loads_gfx950) { keep_queue_case("gfx950"); }

/* The same for emu_hazard_check's tolerated patterns: lgkm_keep's use of v3 after s_barrier with no
 * lgkmcnt wait warns once, and the read stays outstanding, so lgkmcnt(1) retires exactly the older
 * read (v9's): its use gives no second warning (had the warning taken v3's read out of the count,
 * lgkmcnt(1) would retire nothing and v9's use would warn too). o[l] = 2 x[l] + 1. */
static void lgkm_keep_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  uint64_t use = nth_pc(&fx, "lgkm_keep", "v_add_u32", NULL, 0);
  uint32_t o[256];
  warn_log wl;
  emu_fault f;
  int rc = pipe_run(&fx, "lgkm_keep", 64, 0, 0, false, o, &wl, &f);
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", arch, f.msg);
  cr_assert_eq(wl.n, 1, "%s: %d warnings, want 1 (first: %s)", arch, wl.n, wl.first);
  cr_assert(wl.pc == use && strstr(wl.first, "LDS result used after s_barrier without s_waitcnt"), "%s: %s", arch, wl.first);
  for (int l = 0; l < 64; l++) cr_assert_eq(o[l], 2 * fx.x[l] + 1, "%s o[%d] = %u", arch, l, o[l]);
  pipe_close(&fx);
}
Test(emu_asm, tolerated_lds_use_warning_keeps_the_lgkmcnt_queue_gfx942) { lgkm_keep_case("gfx942"); }
Test(emu_asm, tolerated_lds_use_warning_keeps_the_lgkmcnt_queue_gfx950) { lgkm_keep_case("gfx950"); }

/* The counters saturate per counter (CDNA3 ISA "S_WAITCNT": VM_CNT 6 bits, LGKM_CNT 4 bits; LLVM
 * docs/AMDGPU/gfx9_waitcnt.rst: 0..63, 0..15). count_sat: one s_load in flight, then 64 vector
 * loads with no wait. The 64th can only issue once vmcnt has a free count, i.e. once the oldest
 * vector load (v1's) has completed: reading v1 is clean and o[l] = x[l]. v2's load is still
 * outstanding (one completion frees one count): reading it faults naming the second load. The
 * s_load is counted on lgkmcnt, not vmcnt: reading s20 faults naming it. (The emulator used to
 * keep one queue of 64 entries for all counters and retire its oldest entry when full: the s_load,
 * so mode 0 faulted on v1 and mode 2 ran on silently.) */
static void count_sat_case(const char *arch)
{
  pipe_fx fx;
  pipe_open(&fx, arch);
  uint64_t ld2 = nth_pc(&fx, "count_sat", "global_load_dword v2,", NULL, 0);
  uint64_t sl = nth_pc(&fx, "count_sat", "s_load_dword s20", NULL, 0);
  uint64_t use2 = nth_pc(&fx, "count_sat", "v_mov_b32", "v2", 0), use20 = nth_pc(&fx, "count_sat", "v_mov_b32", "s20", 0);
  for (uint32_t mode = 0; mode < 3; mode++) {
    uint32_t o[256];
    warn_log wl;
    emu_fault f;
    int rc = pipe_run(&fx, "count_sat", 64, mode, 0, false, o, &wl, &f);
    char *ctx = ll_fmt("%s count_sat mode %u", arch, mode);
    if (mode == 0) {
      expect_clean(&wl, &f, rc, ctx);
      for (int l = 0; l < 64; l++) cr_assert_eq(o[l], fx.x[l], "%s o[%d] = %u", ctx, l, o[l]);
    } else {
      char want[64];
      snprintf(want, sizeof want, "at pc 0x%llx", (unsigned long long)(mode == 1 ? ld2 : sl));
      cr_assert_eq(rc, LL_EXIT_FAIL, "%s: no fault", ctx);
      cr_assert_str_eq(f.kind, "missing s_waitcnt", "%s: %s", ctx, f.msg);
      cr_assert(f.pc == (mode == 1 ? use2 : use20) && strstr(f.msg, want) &&
                    strstr(f.msg, mode == 1 ? "vector memory" : "scalar memory"),
                "%s: want the use at 0x%llx naming the load %s: %s", ctx,
                (unsigned long long)(mode == 1 ? use2 : use20), want, f.msg);
    }
    free(ctx);
  }
  pipe_close(&fx);
}
Test(emu_asm, vmcnt_saturates_per_counter_gfx942) { count_sat_case("gfx942"); }
Test(emu_asm, vmcnt_saturates_per_counter_gfx950) { count_sat_case("gfx950"); }

/* ---- private (scratch) memory: tests/asm/scratch.s ----------------------------------------------*/
typedef struct {
  char *co_path;
  emu_codeobj *co;
  emu_mem *m;
  uint32_t o[2048];
  emu_dispatch d;
} priv_fx;

static int priv_run(priv_fx *fx, const char *arch, const char *kernel, emu_fault *f)
{
  fx->co_path = build("scratch.s", arch);
  ll_err e = {0};
  fx->co = emu_codeobj_load_file(fx->co_path, &e);
  cr_assert_not_null(fx->co, "%s: %s", arch, e.msg);
  const emu_kernel *k = emu_codeobj_kernel(fx->co, kernel, &e);
  cr_assert_not_null(k, "%s", e.msg);
  fx->m = emu_mem_new();
  memset(fx->o, 0xee, sizeof fx->o);
  uint64_t ka = emu_mem_map(fx->m, fx->o, sizeof fx->o, "o");
  fx->d = (emu_dispatch){.co = fx->co, .kernel = k, .grid = {1, 1, 1}, .block = {64, 1, 1},
                         .kernarg_addr = emu_mem_map(fx->m, &ka, sizeof ka, "kernarg")};
  emu_launch_opts o = {.threads = 1};
  return emu_launch(fx->m, &fx->d, &o, f, NULL);
}

static void priv_close(priv_fx *fx)
{
  emu_mem_free(fx->m);
  emu_codeobj_free(fx->co);
  free(fx->co_path);
}

/* The segment priv_rw writes, byte by byte as the ISA's stores place them (little-endian, the
 * lane's private offset = SGPR + VGPR + inst_offset), for lane l. */
static void priv_image(uint32_t l, uint8_t img[80])
{
  uint32_t d[20] = {0};
  d[0] = 3 * l + 1;
  d[1] = l % 2 == 0 ? (0xe000u | l) : (0xaaaa0000u | l);      /* even lanes overwrite under EXEC */
  d[2] = l + 100, d[3] = l ^ 0x55;                            /* SS: 8 + 0 */
  for (uint32_t k = 0; k < 4; k++) d[4 + k] = k == (l & 3) ? (0x1000u | l) : (0xc0de0000u | k << 8 | l);
  for (uint32_t k = 0; k < 3; k++) d[8 + k] = 16 * l + k;      /* SVS: 12 + 16 + 4 = 32 */
  d[11] = (0x80 + l) | ((l + 1) & 0xff) << 8 | (0x7f00u | l) << 16;
  d[12] = (0x8000u | l) | (0xf000u | l) << 16;
  d[13] = 0x5a5a5a00u | l, d[14] = 0x6b6b6b00u | l, d[15] = 0x7c7c7c00u | l;
  d[16] = 5 * l, d[17] = ~l;                                  /* flat store at src_private_base + 64 */
  memcpy(img, d, 80);
  const uint8_t mis[4] = {(uint8_t)l, 0x33, 0x22, 0x11};      /* dword 0x11223300 | l at offset 53 */
  memcpy(img + 53, mis, 4);
}

static void priv_rw_case(const char *arch)
{
  priv_fx fx;
  emu_fault f;
  int rc = priv_run(&fx, arch, "priv_rw", &f);
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", arch, f.msg);
  for (uint32_t l = 0; l < 64; l++) {
    uint8_t img[80];
    priv_image(l, img);
    uint32_t seg[16];
    memcpy(seg, img, 64);
    for (int k = 0; k < 16; k++)
      cr_assert_eq(fx.o[16 * l + k], seg[k], "%s lane %u dword %d: 0x%08x, want 0x%08x", arch, l, k, fx.o[16 * l + k],
                   seg[k]);
    uint8_t b44 = img[44], b45 = img[45];
    uint16_t h48 = (uint16_t)(img[48] | img[49] << 8), h50 = (uint16_t)(img[50] | img[51] << 8);
    uint32_t sb = (uint32_t)(int32_t)(int8_t)b44, sb16 = sb & 0xffff;
    const uint32_t want[12] = {
        sb, b44, (uint32_t)(int32_t)(int16_t)h48, h48,                       /* sbyte ubyte sshort ushort */
        0xcafe0000u | h50, (uint32_t)h50 << 16 | 0xbabe,                     /* short_d16, short_d16_hi */
        sb16 << 16 | b44, (uint32_t)b45 << 16 | sb16,                        /* ubyte_d16 + sbyte_d16_hi, ... */
        5 * l, ~l,                                                           /* what the flat store wrote */
        l % 2 ? 3 * l + 1 : 0xdeadbeefu,                                     /* odd lanes only */
        3 * l + 1,                                                           /* flat load, private offset 0 */
    };
    const uint32_t *got = fx.o + 1024 + 16 * l;
    for (int k = 0; k < 12; k++)
      cr_assert_eq(got[k], want[k], "%s lane %u result %d: 0x%08x, want 0x%08x", arch, l, k, got[k], want[k]);
  }
  priv_close(&fx);
}

Test(emu_asm, private_memory_every_form_and_size_gfx942) { priv_rw_case("gfx942"); }
Test(emu_asm, private_memory_every_form_and_size_gfx950) { priv_rw_case("gfx950"); }

/* priv_oob: lane l stores at private offset 4 l into a 64-byte segment; lanes run in order, so lane
 * 16 (offset 64) is the first outside it. The fault names arch, kernel, PC, instruction, lane and
 * offset, and no lane's store below it is undone (stores before the fault are not a check). */
static void priv_oob_case(const char *arch)
{
  priv_fx fx;
  emu_fault f;
  int rc = priv_run(&fx, arch, "priv_oob", &f);
  cr_assert_eq(rc, LL_EXIT_FAIL, "%s: exit %d", arch, rc);
  cr_assert_str_eq(f.kind, "private out of range", "%s: %s", arch, f.msg);
  cr_assert_eq(f.lane, 16, "%s: %s", arch, f.msg);
  cr_assert_eq(f.addr, 64, "%s: %s", arch, f.msg);
  char *want = ll_fmt("%s kernel priv_oob", arch);
  cr_assert(strstr(f.msg, want) && strstr(f.msg, "pc 0x") && strstr(f.msg, "'scratch_store_dword v1, v0, off'") &&
                strstr(f.msg, " lane 16") && strstr(f.msg, "4-byte private (scratch) access at offset 64") &&
                strstr(f.msg, "64-byte private segment"),
            "%s: %s", arch, f.msg);
  free(want);
  priv_close(&fx);
}
Test(emu_asm, private_memory_out_of_range_faults_gfx942) { priv_oob_case("gfx942"); }
Test(emu_asm, private_memory_out_of_range_faults_gfx950) { priv_oob_case("gfx950"); }

/* priv_nowait: a scratch load counts on vmcnt like any vector memory load (CDNA3 ISA 10.5: "only
 * VM_CNT is used"); its result read before s_waitcnt vmcnt is the emulator's "missing s_waitcnt". */
Test(emu_asm, scratch_load_result_needs_vmcnt_wait)
{
  for (int a = 0; a < 2; a++) {
    const char *arch = a ? "gfx950" : "gfx942";
    priv_fx fx;
    emu_fault f;
    int rc = priv_run(&fx, arch, "priv_nowait", &f);
    cr_assert_eq(rc, LL_EXIT_FAIL, "%s: exit %d", arch, rc);
    cr_assert_str_eq(f.kind, "missing s_waitcnt", "%s: %s", arch, f.msg);
    cr_assert(strstr(f.msg, "v_add_u32") && strstr(f.msg, "uses v1, still being loaded"), "%s: %s", arch, f.msg);
    priv_close(&fx);
  }
}

/* ---- runs of integer lane operations (emu/fuse.c, tests/asm/fuse.s) ------------------------------
 * The executor runs a decoded run of integer lane operations as one step; what a kernel computes,
 * where a fault is reported and what it says must be what the one-instruction-at-a-time path gives.
 * emu_fuse_on is read when a program is decoded, so each run loads the code object afresh. */
/* the code object at co_path and its kernel `kernel`, both asserted found */
static emu_codeobj *load_kernel(const char *co_path, const char *kernel, const emu_kernel **k)
{
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(co_path, &e);
  cr_assert_not_null(co, "%s", e.msg);
  *k = emu_codeobj_kernel(co, kernel, &e);
  cr_assert_not_null(*k, "%s", e.msg);
  return co;
}
static int fuse_launch(const char *co_path, const char *kernel, bool fuse, uint64_t budget, uint32_t *out,
                       emu_fault *f, long *entry_run)
{
  bool had = emu_fuse_on;
  emu_fuse_on = fuse;
  const emu_kernel *k;
  emu_codeobj *co = load_kernel(co_path, kernel, &k);
  ll_err e = {0};
  const emu_program *p = emu_codeobj_program(co, &e);
  cr_assert_not_null(p, "%s", e.msg);
  emu_fuse_on = had;
  long entry = emu_program_index(p, k->start);
  cr_assert_geq(entry, 0);
  if (entry_run) *entry_run = entry;
  emu_mem *m = emu_mem_new();
  memset(out, 0xee, 7 * 64 * 4);
  uint64_t ka = emu_mem_map(m, out, 7 * 64 * 4, "out");
  emu_dispatch d = {.co = co, .kernel = k, .grid = {1, 1, 1}, .block = {64, 1, 1},
                    .kernarg_addr = emu_mem_map(m, &ka, sizeof ka, "kernarg")};
  emu_launch_opts o = {.threads = 1, .insn_budget = budget};
  int rc = emu_launch(m, &d, &o, f, NULL);
  /* the run the test means to exercise is there exactly when runs are on: fuse_ok's nine lane
   * operations from its sixth instruction, fuse_nowait's four from its fifth */
  const emu_insn *r = &p->insns[entry + (strcmp(kernel, "fuse_ok") ? 4 : 5)];
  cr_assert_eq(r->fuse_n, fuse ? (strcmp(kernel, "fuse_ok") ? 4 : 9) : 0, "%s: '%s' starts a run of %u", kernel,
               r->text, (unsigned)r->fuse_n);
  emu_mem_free(m);
  emu_codeobj_free(co);
  return rc;
}

static void fuse_case(const char *arch)
{
  char *co = build("fuse.s", arch);
  uint32_t got[7 * 64], ref[7 * 64];
  emu_fault f, g;
  cr_assert_eq(fuse_launch(co, "fuse_ok", true, 0, got, &f, NULL), LL_EXIT_OK, "%s: %s", arch, f.msg);
  for (uint32_t l = 0; l < 64; l++) {
    uint32_t h = l * 0x9e3779b9u, g1 = h ^ (h >> 7), v3 = (l << 4) + g1;
    uint64_t mask = 0x0f0f0f0f55555555ull;
    uint32_t want[7] = {g1, v3, (v3 & 0xffff) | (h >> 7), (mask >> l & 1) ? v3 : g1,
                        (0x9e3779b9u & g1) | (~0x9e3779b9u & v3), g1 + v3 + 5, l < 16 ? (2 * l) ^ g1 : 0};
    for (int k = 0; k < 7; k++)
      cr_assert_eq(got[k * 64 + l], want[k], "%s: output %d lane %u: 0x%08x, want 0x%08x", arch, k, l, got[k * 64 + l],
                   want[k]);
  }
  cr_assert_eq(fuse_launch(co, "fuse_ok", false, 0, ref, &f, NULL), LL_EXIT_OK, "%s: %s", arch, f.msg);
  cr_assert(!memcmp(got, ref, sizeof got), "%s: runs on and off differ", arch);
  /* an instruction budget ending before, inside and after the run: the fault names the instruction
   * after the last one the budget allows, with and without runs */
  for (uint64_t b = 4; b <= 15; b++) {
    long entry = 0;
    cr_assert_eq(fuse_launch(co, "fuse_ok", true, b, got, &f, &entry), LL_EXIT_FAIL, "%s budget %llu", arch,
                 (unsigned long long)b);
    cr_assert_eq(fuse_launch(co, "fuse_ok", false, b, ref, &g, NULL), LL_EXIT_FAIL);
    cr_assert_str_eq(f.kind, "budget exceeded", "%s: %s", arch, f.msg);
    cr_assert_str_eq(f.msg, g.msg, "%s budget %llu: runs on '%s', off '%s'", arch, (unsigned long long)b, f.msg, g.msg);
    ll_err e = {0};
    emu_codeobj *c = emu_codeobj_load_file(co, &e);
    const emu_program *p = emu_codeobj_program(c, &e);
    cr_assert_eq(f.pc, p->insns[entry + (long)b].pc, "%s budget %llu: %s", arch, (unsigned long long)b, f.msg);
    emu_codeobj_free(c);
  }
  /* a register still being loaded, read by the third instruction of a run */
  cr_assert_eq(fuse_launch(co, "fuse_nowait", true, 0, got, &f, NULL), LL_EXIT_FAIL, "%s", arch);
  cr_assert_eq(fuse_launch(co, "fuse_nowait", false, 0, ref, &g, NULL), LL_EXIT_FAIL, "%s", arch);
  cr_assert_str_eq(f.kind, "missing s_waitcnt", "%s: %s", arch, f.msg);
  cr_assert(strstr(f.msg, "'v_mov_b32_e32 v4, v5'") && strstr(f.msg, "uses v5"), "%s: %s", arch, f.msg);
  cr_assert_str_eq(f.msg, g.msg, "%s: runs on '%s', off '%s'", arch, f.msg, g.msg);
  free(co);
}
Test(emu_asm, fused_runs_compute_and_fault_as_single_steps_gfx942) { fuse_case("gfx942"); }
Test(emu_asm, fused_runs_compute_and_fault_as_single_steps_gfx950) { fuse_case("gfx950"); }

/* ---- traces (emu/jit.c, tests/asm/trace.s) ----------------------------------------------------------
 * A trace runs a loop body's translated runs and its guards at once; what the kernel computes, how
 * many of each instruction ran and where a fault or the budget's end stops it must be what the
 * record-by-record path gives. emu_trace_on is read when a trace is first made (during the launch),
 * and each launch loads the code object afresh. *traced: some record got a trace's code. */
enum { TR_THREADS = 128, TR_OUT = 11 };
static int trace_launch(const char *co_path, const char *kernel, bool on, uint32_t nthreads, uint64_t budget, uint32_t *out,
                        emu_fault *f, emu_launch_stats *st, bool *traced)
{
  const bool had = emu_trace_on;
  emu_trace_on = on;
  const emu_kernel *k;
  emu_codeobj *co = load_kernel(co_path, kernel, &k);
  ll_err e = {0};
  const emu_program *p = emu_codeobj_kernel_program(co, k, &e); /* the launch's */
  cr_assert_not_null(p, "%s", e.msg);
  emu_mem *m = emu_mem_new();
  memset(out, 0xee, TR_OUT * TR_THREADS * 4);
  uint64_t ka = emu_mem_map(m, out, TR_OUT * TR_THREADS * 4, "out");
  emu_dispatch d = {.co = co, .kernel = k, .grid = {1, 1, 1}, .block = {nthreads, 1, 1},
                    .kernarg_addr = emu_mem_map(m, &ka, sizeof ka, "kernarg")};
  emu_launch_opts o = {.threads = 1, .insn_budget = budget};
  const int rc = emu_launch(m, &d, &o, f, st);
  *traced = false;
  for (size_t i = 0; i < p->n; i++) *traced |= (uintptr_t)p->insns[i].tr > (uintptr_t)EMU_JIT_NONE;
  emu_trace_on = had;
  emu_mem_free(m);
  emu_codeobj_free(co);
  return rc;
}

static void trace_case(const char *arch)
{
  char *co = build("trace.s", arch);
  static uint32_t got[TR_OUT * TR_THREADS], ref[TR_OUT * TR_THREADS];
  emu_fault f, g;
  bool traced, traced_off;
  for (uint32_t nt = 64; nt <= TR_THREADS; nt += 64) {
    emu_launch_stats s1 = {0}, s0 = {0};
    cr_assert_eq(trace_launch(co, "trace_guards", true, nt, 0, got, &f, &s1, &traced), LL_EXIT_OK, "%s: %s", arch, f.msg);
    for (uint32_t t = 0; t < nt; t++) {
      /* the loop's values as formulas of the thread's index (tests/asm/trace.s) */
      uint32_t x = 0;
      for (uint32_t i = 0; i < 64; i++) x ^= t * (i + 1);
      const uint32_t i0 = 14 + 16 * (t & 3);
      const uint32_t want[TR_OUT] = {64 * t, x, (t & 63) < 16 ? t * (i0 + 1) : 0, 0u - 2 * t, 3 * 63, 2 * 3 * 63 - 2 * t, ~0u, ~0u, 64,
                                     (t & 63) >= 48 ? 63u : 64u, t};
      for (int k = 0; k < TR_OUT; k++)
        cr_assert_eq(got[k * TR_THREADS + t], want[k], "%s %u threads: output %d thread %u: 0x%08x, want 0x%08x", arch, nt, k, t,
                     got[k * TR_THREADS + t], want[k]);
    }
    cr_assert_eq(trace_launch(co, "trace_guards", false, nt, 0, ref, &f, &s0, &traced_off), LL_EXIT_OK, "%s: %s", arch, f.msg);
    cr_assert(!memcmp(got, ref, sizeof got), "%s: traces on and off differ", arch);
    cr_assert(!traced_off, "%s: a trace was made with traces off", arch);
    if (emu_jit_ready()) cr_assert(traced, "%s %u threads: no trace was made", arch, nt);
    else cr_log_info("no AVX-512 translation on this host (or LANELAB_EMU_NO_JIT): no trace, checked the results alone");
    /* every instruction ran as often, the guards' three records included */
    cr_assert_eq(s1.wave_insns, s0.wave_insns, "%s: %llu wave-instructions against %llu", arch, (unsigned long long)s1.wave_insns,
                 (unsigned long long)s0.wave_insns);
    cr_assert_eq(s1.nmnem, s0.nmnem);
    for (size_t i = 0; i < s1.nmnem; i++) {
      cr_assert_str_eq(s1.mnem[i], s0.mnem[i]);
      cr_assert_eq(s1.count[i], s0.count[i], "%s: %s ran %llu times against %llu", arch, s1.mnem[i], (unsigned long long)s1.count[i],
                   (unsigned long long)s0.count[i]);
    }
    cr_assert_eq(emu_stats_count(&s1, -1, "s_cbranch_execz"), 2 * 64ull * (nt / 64), "%s", arch);
    cr_assert_eq(emu_stats_count(&s1, -1, "s_branch"), 64ull * (nt / 64), "%s", arch);
    emu_launch_stats_free(&s1), emu_launch_stats_free(&s0);
  }
  /* the budget's end inside the loop, after the trace is made: the fault names the same instruction */
  for (uint64_t b = 150; b <= 200; b++) {
    cr_assert_eq(trace_launch(co, "trace_guards", true, 64, b, got, &f, NULL, &traced), LL_EXIT_FAIL, "%s budget %llu", arch,
                 (unsigned long long)b);
    cr_assert_eq(trace_launch(co, "trace_guards", false, 64, b, ref, &g, NULL, &traced_off), LL_EXIT_FAIL);
    cr_assert_str_eq(f.kind, "budget exceeded", "%s: %s", arch, f.msg);
    cr_assert_str_eq(f.msg, g.msg, "%s budget %llu: traces on '%s', off '%s'", arch, (unsigned long long)b, f.msg, g.msg);
  }
  /* a register still being loaded, read by a trace's first record */
  for (uint32_t nt = 64; nt <= TR_THREADS; nt += 64) {
    cr_assert_eq(trace_launch(co, "trace_nowait", true, nt, 0, got, &f, NULL, &traced), LL_EXIT_FAIL, "%s", arch);
    cr_assert_eq(trace_launch(co, "trace_nowait", false, nt, 0, ref, &g, NULL, &traced_off), LL_EXIT_FAIL, "%s", arch);
    cr_assert_str_eq(f.kind, "missing s_waitcnt", "%s: %s", arch, f.msg);
    cr_assert(strstr(f.msg, "'v_add_u32_e32 v1, v1, v20'") && strstr(f.msg, "uses v20"), "%s: %s", arch, f.msg);
    cr_assert_str_eq(f.msg, g.msg, "%s: traces on '%s', off '%s'", arch, f.msg, g.msg);
    if (emu_jit_ready()) cr_assert(traced, "%s %u threads: no trace was made", arch, nt);
  }
  free(co);
}
Test(emu_asm, traces_compute_count_and_fault_as_single_steps_gfx942) { trace_case("gfx942"); }
Test(emu_asm, traces_compute_count_and_fault_as_single_steps_gfx950) { trace_case("gfx950"); }
