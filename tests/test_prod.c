/* Tests for the production kernels (kernels/prod/) through verify/prod.h: the host launch
 * description against the kernels' own metadata, single/ragged/paged prefill against the
 * oracle on both arches, concat_mla_q bit-exact (strided, transposed, T = 0), the 256-bit
 * concat path refused at compile time, and mutants caught (v_seed_fragment on gfx950, a
 * transpose mutant on gfx942) or proven absent (v_seed_fragment on gfx942: identical .text).
 *
 * Expected values come from oracle/ (an independent CPU reference) or from hand computation
 * written here as formulas (tile counts, page counts, LDS bytes); never from a kernel run.
 * These tests read build/<arch>/kernels and build/<arch>/mutants (`make test` builds them);
 * a missing file fails naming the make target. A kernel the emulator cannot run yet fails with
 * the emulator's fault message plus every mnemonic of the kernel it lacks semantics for. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "verify/argcov.h"
#include "verify/prod.h"

#ifndef LANELAB_BUILD
#error "LANELAB_BUILD (the build directory) must be defined by the Makefile"
#endif
#ifndef LANELAB_ROOT
#error "LANELAB_ROOT must be defined by the Makefile"
#endif

static rt_device *open_emu(emu_arch a) {
  ll_err err = {0};
  rt_device *d = rt_open(RT_EMU, a, &err);
  cr_assert(d, "rt_open(emu, %s): %s", emu_arch_name(a), err.msg);
  return d;
}

/* ---- launch description (host only) ---------------------------------------------------------- */
Test(prod_plan, ragged_tiles_grid_lds_and_kernel_name) {
  prod_case c = {.name = "plan", .kind = ORACLE_RAGGED, .dtype = ORACLE_BF16, .hq = 8, .hkv = 2, .head_dim = 128,
                 .batch = 3, .qo_len = {17, 64, 65}, .kv_len = {5, 64, 300}, .seed = 1};
  oracle_attention_spec s;
  prod_attn_plan p;
  ll_err err = {0};
  cr_assert(prod_case_spec(&c, &s, &err), "%s", err.msg);
  cr_assert(prod_attn_plan_make(&s, &p, &err), "%s", err.msg);
  /* ceil(17/64) + ceil(64/64) + ceil(65/64) = 1 + 1 + 2 tiles */
  cr_expect_eq(p.ntiles, 4);
  cr_expect_eq(p.grid[0], 4);
  cr_expect_eq(p.grid[1], 8);
  cr_expect_eq(p.block[0], 256);
  int32_t req[4] = {0, 1, 2, 2}, q0[4] = {0, 0, 0, 64};
  for (int i = 0; i < 4; i++) {
    cr_expect_eq(p.tile_req[i], req[i], "tile %d request", i);
    cr_expect_eq(p.tile_q0[i], q0[i], "tile %d first row", i);
  }
  cr_expect_eq(p.lds_bytes, 2 * 32 * 128 * 2, "K and V tiles of 32 keys x 128 bf16");
  cr_expect_str_eq(p.kernel, "prefill_ragged_bf16_d128");
  cr_expect_str_eq(p.source, "prefill_ragged");
  /* sm_scale defaults to 1/sqrt(head_dim) (docs/oracle.md) */
  cr_expect_float_eq(p.sm_scale, 1.0f / 11.3137085f, 1e-6);
  prod_attn_plan_free(&p);
  prod_spec_free(&s);
}

Test(prod_plan, paged_spec_partial_last_page_and_shuffled_ids) {
  prod_case c = {.name = "pages", .kind = ORACLE_PAGED, .dtype = ORACLE_F16, .hq = 2, .hkv = 1, .head_dim = 64,
                 .batch = 2, .qo_len = {3, 4}, .kv_len = {37, 16}, .page_size = 16, .layout = ORACLE_HND,
                 .shuffle_pages = true, .seed = 7};
  oracle_attention_spec s;
  ll_err err = {0};
  cr_assert(prod_case_spec(&c, &s, &err), "%s", err.msg);
  /* 37 = 16*2 + 5: 3 pages, last holds 5; 16: 1 page, last holds 16 */
  cr_expect_eq(s.kv_indptr[1], 3);
  cr_expect_eq(s.kv_indptr[2], 4);
  cr_expect_eq(s.kv_last_page_len[0], 5);
  cr_expect_eq(s.kv_last_page_len[1], 16);
  cr_expect_eq(oracle_attention_kv_len(&s, 0), 37);
  /* shuffled: 4 used + 3 spare physical pages, ids distinct and in range, not all in order */
  cr_expect_eq(s.num_pages, 7);
  bool seen[7] = {0}, sorted = true;
  for (int i = 0; i < 4; i++) {
    cr_assert(s.kv_indices[i] >= 0 && s.kv_indices[i] < 7);
    cr_expect(!seen[s.kv_indices[i]], "page id %d used twice", s.kv_indices[i]);
    seen[s.kv_indices[i]] = true;
    if (s.kv_indices[i] != i) sorted = false;
  }
  cr_expect(!sorted, "the page ids of a shuffled case are the identity");
  prod_spec_free(&s);
}

/* The launch description's argument list matches each kernel's metadata (count, kinds, sizes),
 * for every prefill kernel on both arches. */
Test(prod_plan, args_match_kernel_metadata) {
  static const oracle_attention_kind kinds[] = {ORACLE_SINGLE, ORACLE_RAGGED, ORACLE_PAGED};
  static const int dims[] = {64, 128, 256};
  for (int a = 0; a < EMU_NARCH; a++)
    for (int k = 0; k < 3; k++)
      for (int dt = 0; dt < 2; dt++)
        for (int di = 0; di < 3; di++) {
          prod_case c = {.name = "args", .kind = kinds[k], .dtype = dt ? ORACLE_BF16 : ORACLE_F16, .hq = 2, .hkv = 1,
                         .head_dim = dims[di], .batch = 1, .qo_len = {5}, .kv_len = {9}, .page_size = 4, .seed = 3};
          oracle_attention_spec s;
          prod_attn_plan p;
          ll_err err = {0};
          cr_assert(prod_case_spec(&c, &s, &err), "%s", err.msg);
          cr_assert(prod_attn_plan_make(&s, &p, &err), "%s", err.msg);
          char *co = prod_co_path(LANELAB_BUILD, (emu_arch)a, p.source);
          emu_codeobj *obj = emu_codeobj_load_file(co, &err);
          cr_assert(obj, "%s (run make kernels): %s", co, err.msg);
          const emu_kernel *kern = emu_codeobj_kernel(obj, p.kernel, &err);
          cr_assert(kern, "%s: %s", co, err.msg);
          prod_attn_dev dv = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
          rt_arg args[PROD_MAX_ARGS];
          size_t n = prod_attn_args(&p, &s, &dv, args);
          rt_arg_kind ks[PROD_MAX_ARGS];
          for (size_t i = 0; i < n; i++) ks[i] = args[i].kind;
          cr_expect_eq(rt_explicit_arg_count(kern), n, "%s %s: %zu explicit args, the plan gives %zu",
                       emu_arch_name((emu_arch)a), p.kernel, rt_explicit_arg_count(kern), n);
          cr_expect(rt_check_arg_kinds(kern, ks, n, &err), "%s %s: %s", emu_arch_name((emu_arch)a), p.kernel, err.msg);
          cr_expect_eq(kern->group_segment_size, p.lds_bytes, "%s: static LDS %u, plan says %u", p.kernel,
                       kern->group_segment_size, p.lds_bytes);
          emu_codeobj_free(obj);
          free(co);
          prod_attn_plan_free(&p);
          prod_spec_free(&s);
        }
}

/* ---- prefill vs oracle on the device --------------------------------------------------------- */
static void run_case(emu_arch a, const prod_case *c) {
  rt_device *d = open_emu(a);
  prod_result r;
  ll_err err = {0};
  prod_run_opts o = {0};
  int rc = prod_case_run(d, LANELAB_BUILD, c, &o, &r, &err);
  rt_close(d);
  cr_assert_eq(rc, LL_EXIT_OK, "%s on %s could not run: %s", c->name, emu_arch_name(a), err.msg);
  cr_expect(r.pass, "%s on %s: O %zu/%zu mismatches (max abs %.3g, worst got %.9g ref %.9g), LSE %zu/%zu",
            c->name, emu_arch_name(a), r.o.mismatches, r.o.n, r.o.max_abs, r.o.worst_got, r.o.worst_ref,
            r.lse.mismatches, r.lse.n);
}

static const prod_case t_single = {.name = "t_single_f16_d64_causal", .kind = ORACLE_SINGLE, .dtype = ORACLE_F16,
                                   .hq = 2, .hkv = 1, .head_dim = 64, .batch = 1, .qo_len = {21}, .kv_len = {45},
                                   .causal = true, .seed = 11};
static const prod_case t_ragged = {.name = "t_ragged_bf16_d128_gqa2", .kind = ORACLE_RAGGED, .dtype = ORACLE_BF16,
                                   .hq = 2, .hkv = 1, .head_dim = 128, .batch = 2, .qo_len = {9, 33},
                                   .kv_len = {40, 20}, .causal = true, .seed = 12};
static const prod_case t_paged = {.name = "t_paged_hnd_f16_d64_ps16", .kind = ORACLE_PAGED, .dtype = ORACLE_F16,
                                  .hq = 2, .hkv = 2, .head_dim = 64, .batch = 2, .qo_len = {10, 5}, .kv_len = {37, 3},
                                  .page_size = 16, .layout = ORACLE_HND, .shuffle_pages = true, .seed = 13};
static const prod_case t_paged1 = {.name = "t_paged_nhd_bf16_d256_ps1", .kind = ORACLE_PAGED, .dtype = ORACLE_BF16,
                                   .hq = 1, .hkv = 1, .head_dim = 256, .batch = 1, .qo_len = {6}, .kv_len = {11},
                                   .page_size = 1, .layout = ORACLE_NHD, .shuffle_pages = true, .seed = 14};

Test(prod_gfx942, single) { run_case(EMU_GFX942, &t_single); }
Test(prod_gfx942, ragged) { run_case(EMU_GFX942, &t_ragged); }
Test(prod_gfx942, paged) { run_case(EMU_GFX942, &t_paged); }
Test(prod_gfx942, paged_page_size_1) { run_case(EMU_GFX942, &t_paged1); }
Test(prod_gfx950, single) { run_case(EMU_GFX950, &t_single); }
Test(prod_gfx950, ragged) { run_case(EMU_GFX950, &t_ragged); }
Test(prod_gfx950, paged) { run_case(EMU_GFX950, &t_paged); }
Test(prod_gfx950, paged_page_size_1) { run_case(EMU_GFX950, &t_paged1); }

/* ---- the launch contract (prefill_impl.h contract_ok, concat_mla_q.hip): an argument outside
 * it is refused with s_trap (a fault naming kernel, PC and lane), never run with a guessed
 * meaning. The accepted combinations (every subset of PROD_FLAGS_ACCEPTED, causal + custom mask
 * included) run against the oracle in the quick matrix. Each refusal below is checked against a
 * control launch of the same case that passes. */
static void run_concat(emu_arch a, const prod_concat_case *c);
static void contract_refusals(emu_arch a) {
  /* the controls: each refusal's case in contract runs and matches */
  size_t n = 0;
  const prod_refusal *rf = prod_refusals(&n);
  bool control[4] = {false};
  for (size_t i = 0; i < n; i++) {
    if (control[rf[i].stem]) continue;
    control[rf[i].stem] = true;
    if (rf[i].stem < 3) run_case(a, &rf[i].c);
    else run_concat(a, &rf[i].cc);
  }
  cr_assert(control[0] && control[1] && control[2] && control[3], "a kernel has no refusal case");
  /* the replaced argument is the one named, by the kernel source's signature */
  static const char *const srcs[] = {"prefill_single", "prefill_ragged", "prefill_paged", "concat_mla_q"};
  for (size_t i = 0; i < n; i++) {
    char *src = ll_fmt("%s/kernels/prod/%s.hip", LANELAB_ROOT, srcs[rf[i].stem]);
    size_t nn = 0;
    ll_err err = {0};
    char **names = argcov_signature(src, &nn, &err);
    cr_assert(names, "%s", err.msg);
    cr_assert_lt(rf[i].index, nn);
    const char *nm = names[rf[i].index];
    const char *after = strchr(rf[i].what, ':') + 2;
    bool named = !strncmp(after, nm, strlen(nm)) || (!strcmp(nm, "flags") && strstr(after, "flag"));
    cr_expect(named, "%s replaces argument %zu, which the signature calls %s", rf[i].what, rf[i].index, nm);
    for (size_t k = 0; k < nn; k++) free(names[k]);
    free(names);
    free(src);
  }
  /* every refusal */
  rt_device *d = open_emu(a);
  for (size_t i = 0; i < n; i++) {
    char why[700];
    int rc = prod_refusal_run(d, LANELAB_BUILD, &rf[i], NULL, why, sizeof why);
    cr_expect_eq(rc, LL_EXIT_OK, "%s %s: %s", emu_arch_name(a), rf[i].what, why);
  }
  rt_close(d);
}
Test(prod_contract, out_of_contract_launches_are_refused_gfx942) { contract_refusals(EMU_GFX942); }
Test(prod_contract, out_of_contract_launches_are_refused_gfx950) { contract_refusals(EMU_GFX950); }

/* ---- concat_mla_q ----------------------------------------------------------------------------- */
static void run_concat(emu_arch a, const prod_concat_case *c) {
  rt_device *d = open_emu(a);
  prod_concat_result r;
  ll_err err = {0};
  int rc = prod_concat_run(d, LANELAB_BUILD, c, NULL, &r, &err);
  rt_close(d);
  cr_assert_eq(rc, LL_EXIT_OK, "%s on %s could not run: %s", c->name, emu_arch_name(a), err.msg);
  if (c->T == 0) {
    cr_expect(r.t0_untouched, "%s on %s: T = 0 must return at once, but the output changed", c->name, emu_arch_name(a));
  } else {
    cr_expect_eq(r.n, (size_t)(c->T * c->H * 576));
    cr_expect_eq(r.mismatches, 0, "%s on %s: %zu of %zu elements differ from the concatenation", c->name,
                 emu_arch_name(a), r.mismatches, r.n);
  }
}
static const prod_concat_case tc_strided = {.name = "t_concat_bf16_padded", .dtype = ORACLE_BF16, .T = 3, .H = 5,
                                            .extra_stride = 24, .seed = 21};
static const prod_concat_case tc_transposed = {.name = "t_concat_f16_transposed", .dtype = ORACLE_F16, .T = 4,
                                               .H = 3, .transposed_nope = true, .seed = 22};
static const prod_concat_case tc_t0 = {.name = "t_concat_f16_T0", .dtype = ORACLE_F16, .T = 0, .H = 128, .seed = 23};
Test(concat_gfx942, strided) { run_concat(EMU_GFX942, &tc_strided); }
Test(concat_gfx942, transposed) { run_concat(EMU_GFX942, &tc_transposed); }
Test(concat_gfx942, t0_returns_at_once) { run_concat(EMU_GFX942, &tc_t0); }
Test(concat_gfx950, strided) { run_concat(EMU_GFX950, &tc_strided); }
Test(concat_gfx950, transposed) { run_concat(EMU_GFX950, &tc_transposed); }
Test(concat_gfx950, t0_returns_at_once) { run_concat(EMU_GFX950, &tc_t0); }

/* Forcing the 256-bit path is a compile-time error that says why (docs/changes.md, change 002). */
Test(concat_isa, forced_256bit_path_is_a_compile_error) {
  for (int a = 0; a < EMU_NARCH; a++) {
    char *cmd = ll_fmt("cd '%s' && /usr/lib/llvm-22/bin/clang -x hip --offload-arch=%s --cuda-device-only "
                       "--no-gpu-bundle-output -nogpuinc -nogpulib -O3 -std=c++17 -Ikernels/include "
                       "-DLANELAB_CONCAT_256BIT=1 -fsyntax-only kernels/prod/concat_mla_q.hip 2>&1",
                       LANELAB_ROOT, emu_arch_name((emu_arch)a));
    FILE *f = popen(cmd, "r");
    cr_assert(f, "could not run clang");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    int st = pclose(f);
    cr_expect_neq(st, 0, "%s: -DLANELAB_CONCAT_256BIT compiled", emu_arch_name((emu_arch)a));
    cr_expect(strstr(buf, "global_store_dwordx8") != NULL, "%s: the error does not say why: %s",
              emu_arch_name((emu_arch)a), buf);
    free(cmd);
  }
}

/* ---- mutants ---------------------------------------------------------------------------------- */
static void ab_sched(emu_arch a, const char *mutant, const char *stem, const prod_case *c, emu_sched sched,
                     bool racecheck) {
  char *mco = ll_fmt("%s/%s/mutants/%s/%s.co", LANELAB_BUILD, emu_arch_name(a), mutant, stem);
  rt_device *d = open_emu(a);
  prod_result good, bad;
  ll_err err = {0};
  prod_run_opts og = {.sched = sched}, om = {.co_path = mco, .sched = sched, .racecheck = racecheck};
  int rc = prod_case_run(d, LANELAB_BUILD, c, &og, &good, &err);
  cr_assert_eq(rc, LL_EXIT_OK, "correct kernel could not run: %s", err.msg);
  cr_assert(good.pass, "the correct kernel fails %s (max abs %.3g)", c->name, good.max_abs);
  rc = prod_case_run(d, LANELAB_BUILD, c, &om, &bad, &err);
  rt_close(d);
  cr_assert_eq(rc, LL_EXIT_OK, "mutant %s could not run (make mutants?): %s", mutant, err.msg);
  cr_expect(!bad.pass, "mutant %s passes the oracle on %s (max abs %.3g vs correct %.3g)", mutant, emu_arch_name(a),
            bad.max_abs, good.max_abs);
  free(mco);
}
static void ab(emu_arch a, const char *mutant, const char *stem, const prod_case *c) {
  ab_sched(a, mutant, stem, c, EMU_SCHED_ROUND_ROBIN, false);
}

static const prod_case t_mut = {.name = "t_mut_ragged_f16_d64", .kind = ORACLE_RAGGED, .dtype = ORACLE_F16, .hq = 2,
                                 .hkv = 2, .head_dim = 64, .batch = 1, .qo_len = {20}, .kv_len = {33}, .seed = 31};
static const prod_case t_mut_single = {.name = "t_mut_single_f16_d64", .kind = ORACLE_SINGLE, .dtype = ORACLE_F16,
                                       .hq = 1, .hkv = 1, .head_dim = 64, .batch = 1, .qo_len = {20}, .kv_len = {33},
                                       .seed = 32};

Test(mutants, v_seed_fragment_caught_on_gfx950) { ab(EMU_GFX950, "v_seed_fragment", "prefill_ragged", &t_mut); }
Test(mutants, transpose_no_quad_step_caught_on_gfx942) {
  ab(EMU_GFX942, "transpose_no_quad_step", "prefill_single", &t_mut_single);
}

/* Without the barrier between the K/V tile stores and their reads, a wave run ahead of the others
 * (the emulator's adversarial schedule) reads tile rows the other waves have not stored yet; the
 * correct kernel must pass under the same schedule. 64 query rows = all four waves busy. The
 * mutant runs with racecheck, which reports a read in the stores' own barrier interval itself (the
 * LDS ordering rule then leaves it alone), so the run completes and its output shows the race;
 * without racecheck the same read is an LDS ordering finding, a fault in the prod stage's strict
 * runs, naming the store. */
static const prod_case t_mut_barrier = {.name = "t_mut_single_f16_d64_q64", .kind = ORACLE_SINGLE,
                                        .dtype = ORACLE_F16, .hq = 1, .hkv = 1, .head_dim = 64, .batch = 1,
                                        .qo_len = {64}, .kv_len = {40}, .seed = 33};
static void missing_barrier_case(emu_arch a) {
  ab_sched(a, "missing_barrier", "prefill_single", &t_mut_barrier, EMU_SCHED_ADVERSARIAL, true);
  char *mco = ll_fmt("%s/%s/mutants/missing_barrier/prefill_single.co", LANELAB_BUILD, emu_arch_name(a));
  rt_device *d = open_emu(a);
  prod_result r;
  ll_err err = {0};
  prod_run_opts o = {.co_path = mco, .sched = EMU_SCHED_ADVERSARIAL};
  int rc = prod_case_run(d, LANELAB_BUILD, &t_mut_barrier, &o, &r, &err);
  rt_close(d);
  cr_assert_eq(rc, LL_EXIT_FAIL, "%s: the mutant ran without racecheck and no fault", emu_arch_name(a));
  cr_assert(strstr(err.msg, "unordered LDS access") && strstr(err.msg, "ds_read") && strstr(err.msg, "'ds_write"),
            "%s: %s", emu_arch_name(a), err.msg);
  free(mco);
}
Test(mutants, missing_barrier_caught_under_adversarial_schedule_gfx942) { missing_barrier_case(EMU_GFX942); }
Test(mutants, missing_barrier_caught_under_adversarial_schedule_gfx950) { missing_barrier_case(EMU_GFX950); }

/* On gfx942 the V path already starts from the load_fragment seed, so the mutant is the same
 * code: proven by identical .text, which is why verify reports it "not applicable" there. */
Test(mutants, v_seed_fragment_is_identical_text_on_gfx942) {
  char *mco = ll_fmt("%s/gfx942/mutants/v_seed_fragment/prefill_ragged.co", LANELAB_BUILD);
  char *cco = ll_fmt("%s/gfx942/kernels/prefill_ragged.co", LANELAB_BUILD);
  isa_diff_result r;
  ll_err err = {0};
  cr_assert(isa_diff_files(mco, cco, &r, NULL, &err), "%s (run make kernels mutants)", err.msg);
  cr_expect(r.text_identical, "gfx942 v_seed_fragment differs at .text offset %lld: %s vs %s",
            (long long)r.first_offset, r.insn_a, r.insn_b);
  free(mco);
  free(cco);
  /* and on gfx950 it is a different program */
  mco = ll_fmt("%s/gfx950/mutants/v_seed_fragment/prefill_ragged.co", LANELAB_BUILD);
  cco = ll_fmt("%s/gfx950/kernels/prefill_ragged.co", LANELAB_BUILD);
  cr_assert(isa_diff_files(mco, cco, &r, NULL, &err), "%s", err.msg);
  cr_expect(!r.text_identical, "gfx950 v_seed_fragment compiled to the correct kernel's .text");
  free(mco);
  free(cco);
}

/* ---- dynamic census per phase (issue #5 §5) ----------------------------------------------------
 * The prefill kernel marks its phases (LL_PHASE, lanelab_device.h). Expected counts by hand from
 * prefill_impl.h for single, qo 100, kv 70, Hq = Hkv = 2, D = 128, non-causal:
 *   workgroups = ceil(100/64) query tiles x 2 heads = 4, each 4 waves (every wave runs the loop,
 *   rows past qo_len only masked); kv steps per workgroup = ceil(70/32) = 3;
 *   QK MFMAs = PV MFMAs = 16 waves x 3 steps x 2 sub-tiles x 128/16 = 768;
 *   softmax shuffles: 2 per wave per step (row max xor 16, 32) = 96; epilogue: 2 per wave = 32;
 *   PV on gfx942: per V fragment one ds_read_b64 + six ds_bpermute_b32 (transpose_mma_tile,
 *   docs/changes.md, change 000) = 768 and 4608; on gfx950 one ds_read_b64_tr_b16 per fragment = 768, no bpermute. */
static const prod_case t_phase = {.name = "t_phase_single_f16_d128", .kind = ORACLE_SINGLE, .dtype = ORACLE_F16,
                                  .hq = 2, .hkv = 2, .head_dim = 128, .batch = 1, .qo_len = {100}, .kv_len = {70},
                                  .seed = 41};

static void phase_census(emu_arch a) {
  rt_device *d = open_emu(a);
  prod_result r;
  ll_err err = {0};
  prod_run_opts o = {0};
  int rc = prod_case_run(d, LANELAB_BUILD, &t_phase, &o, &r, &err);
  rt_close(d);
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", emu_arch_name(a), err.msg);
  cr_assert(r.pass, "%s: the kernel fails the oracle (max abs %.3g)", emu_arch_name(a), r.max_abs);
  cr_assert(r.have_stats);
  const prod_census *qk = &r.phase[PROD_PHASE_QK], *pv = &r.phase[PROD_PHASE_PV];
  const prod_census *sm = &r.phase[PROD_PHASE_SOFTMAX], *ep = &r.phase[PROD_PHASE_EPILOGUE];
  const uint64_t waves = 4 * 4, steps = 3, mfma = waves * steps * 2 * (128 / 16);
  cr_expect_eq(qk->mfmas, mfma, "QK MFMAs %llu", (unsigned long long)qk->mfmas);
  cr_expect_eq(pv->mfmas, mfma, "PV MFMAs %llu", (unsigned long long)pv->mfmas);
  cr_expect_eq(r.mfmas, 2 * mfma, "no MFMA outside QK and PV");
  cr_expect_eq(qk->bpermutes, 0, "QK bpermutes %llu", (unsigned long long)qk->bpermutes);
  cr_expect_eq(qk->tr_b16, 0);
  cr_expect_eq(sm->bpermutes, waves * steps * 2, "softmax bpermutes %llu", (unsigned long long)sm->bpermutes);
  cr_expect_eq(ep->bpermutes, waves * 2, "epilogue bpermutes %llu", (unsigned long long)ep->bpermutes);
  if (a == EMU_GFX950) {
    cr_expect_eq(pv->tr_b16, mfma, "gfx950 PV ds_read_b64_tr_b16 %llu", (unsigned long long)pv->tr_b16);
    cr_expect_eq(pv->bpermutes, 0, "gfx950 PV bpermutes %llu (the V transpose must be gone)",
                 (unsigned long long)pv->bpermutes);
    cr_expect_eq(pv->ds_read_b64 + pv->ds_read2_b64, 0);
  } else {
    cr_expect_eq(pv->tr_b16, 0);
    cr_expect_eq(pv->bpermutes, 6 * mfma, "gfx942 PV bpermutes %llu", (unsigned long long)pv->bpermutes);
    cr_expect_eq(pv->ds_read_b64, mfma, "gfx942 PV ds_read_b64 %llu", (unsigned long long)pv->ds_read_b64);
  }
  cr_expect_eq(r.bpermutes, qk->bpermutes + pv->bpermutes + sm->bpermutes + ep->bpermutes,
               "bpermutes in the stage/prologue phases");
  cr_expect_eq(r.unmarked_phase_insns, 0);
  char why[400];
  cr_expect(prod_phase_check(a, &r, why, sizeof why), "%s: %s", emu_arch_name(a), why);
}
Test(prod_phases, census_per_phase_gfx942) { phase_census(EMU_GFX942); }
Test(prod_phases, census_per_phase_gfx950) { phase_census(EMU_GFX950); }

/* prod_phase_check must be able to fail: a gfx950 census with one bpermute in PV, a gfx942 one
 * with five per MFMA, and QK with a bpermute are each rejected. */
Test(prod_phases, phase_check_rejects_wrong_censuses) {
  prod_result r;
  memset(&r, 0, sizeof r);
  r.have_stats = true;
  r.mfmas = 16;
  r.phase[PROD_PHASE_QK].mfmas = r.phase[PROD_PHASE_PV].mfmas = 8;
  r.phase[PROD_PHASE_PV].tr_b16 = 8;
  r.phase[PROD_PHASE_STAGE].ds_writes = 4;
  char why[400];
  cr_assert(prod_phase_check(EMU_GFX950, &r, why, sizeof why), "%s", why);
  /* LDS stores outside the stage phase (a renumbered stage marker), or none in it */
  r.phase[PROD_PHASE_QK].ds_writes = 4;
  cr_assert_not(prod_phase_check(EMU_GFX950, &r, why, sizeof why));
  cr_assert(strstr(why, "qk phase"), "%s", why);
  r.phase[PROD_PHASE_QK].ds_writes = 0;
  r.phase[PROD_PHASE_STAGE].ds_writes = 0;
  r.phase[PROD_PHASE_PROLOGUE].ds_writes = 4;
  cr_assert_not(prod_phase_check(EMU_GFX950, &r, why, sizeof why));
  r.phase[PROD_PHASE_PROLOGUE].ds_writes = 0;
  cr_assert_not(prod_phase_check(EMU_GFX950, &r, why, sizeof why));
  cr_assert(strstr(why, "stage phase stored nothing"), "%s", why);
  r.phase[PROD_PHASE_STAGE].ds_writes = 4;
  cr_assert(prod_phase_check(EMU_GFX950, &r, why, sizeof why), "%s", why);
  r.phase[PROD_PHASE_PV].bpermutes = 1;
  cr_assert_not(prod_phase_check(EMU_GFX950, &r, why, sizeof why));
  cr_assert(strstr(why, "gfx950 PV"), "%s", why);
  memset(&r.phase[PROD_PHASE_PV], 0, sizeof r.phase[PROD_PHASE_PV]);
  r.phase[PROD_PHASE_PV].mfmas = 8;
  r.phase[PROD_PHASE_PV].ds_read_b64 = 8;
  r.phase[PROD_PHASE_PV].bpermutes = 48;
  cr_assert(prod_phase_check(EMU_GFX942, &r, why, sizeof why), "%s", why);
  r.phase[PROD_PHASE_PV].bpermutes = 40;
  cr_assert_not(prod_phase_check(EMU_GFX942, &r, why, sizeof why));
  r.phase[PROD_PHASE_PV].bpermutes = 48;
  r.phase[PROD_PHASE_QK].bpermutes = 1;
  cr_assert_not(prod_phase_check(EMU_GFX942, &r, why, sizeof why));
  cr_assert(strstr(why, "QK"), "%s", why);
}
