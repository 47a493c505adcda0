/* tests/test_emu_asm — lanelab's own corpus of hand-written assembly kernels (tests/asm/, one .s file each), in the
 * style of AMD's aiter kernels, assembled with llvm-mc-22 and linked with ld.lld-22 for both arches,
 * loaded through the loader's leniencies (metadata [1, 0], descriptor kernarg size 0, no .size)
 * and run end to end on the emulator. Outputs are checked against the oracle (oracle/), never
 * against the emulator itself.
 *
 * attn_fwd_d16.s: K/V staged with buffer_load_dword ... lds, S^T = K Q^T and O = P V with
 * v_mfma_f32_16x16x16_f16, softmax reductions with ds_swizzle and v_permlane32_swap_b32 v, v
 * (gfx950; ds_bpermute on gfx942), V read with ds_read_b64_tr_b16 (gfx950; ds_read_u16_d16 on
 * gfx942). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "oracle/oracle.h"
#include "tests/llvm_tools.h"
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
