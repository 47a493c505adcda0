/* Tests of racecheck and initcheck (emu/observe.c, docs/trace.md) on ordinary HIP kernels:
 *
 * - tests/hip/transpose_nosync.hip, a tile transpose that forgot its __syncthreads(), compiled
 *   with `lanelab cc` and run with `lanelab run --racecheck` under every schedule lanelab has:
 *   exit 1 and the RAW hazard between the tile's write and read each time; built with -DFIXED=1
 *   (the barrier back) it is clean under every schedule;
 * - the HIP corpus (every .hip file of tests/hip/, with the grids and argument shapes
 *   tests/test_hip.c runs them with) under racecheck=global and initcheck on both arches: zero
 *   reports (no false positives: the corpus's atomics on global memory are no race, its out
 *   buffers are written before they are read);
 * - lanelab's hand-written assembly corpus (every .s file of tests/asm/, assembled with llvm-mc-22 as
 *   tests/test_emu_asm.c does) the same way: the aiter-style attention kernel stages K and V with
 *   buffer_load_dword ... lds and reads them with ds_read, so its LDS reads are initialized only
 *   because the observer counts those loads' LDS writes (before it did, initcheck reported four
 *   uninitialized reads there).
 *
 * The corpus kernels run in-process (rt_launch with an observer), one compile per file per test,
 * so the suite stays cheap. Inputs are generated here; whether a kernel races does not depend on
 * the values except through addresses, which the shapes fix. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "isa/isa.h"
#include "oracle/oracle.h"
#include "runtime/rt.h"
#include "tests/llvm_tools.h"
#include "tests/shell.h"
#include "util/util.h"

#define LANELAB LANELAB_BUILD "/lanelab"
#define HIPDIR LANELAB_ROOT "/tests/hip"
static const char *const arch_names[2] = {"gfx942", "gfx950"};
static const emu_arch arch_ids[2] = {EMU_GFX942, EMU_GFX950};

/* ---- the missing __syncthreads(), through the CLI ------------------------------------------- */
/* Every value `lanelab help run` lists for --schedule: roundrobin, adversarial, random:SEED
 * (three seeds). */
static const char *const schedules[] = {"roundrobin", "adversarial", "random:1", "random:7", "random:12345"};

static int run_cli(const char *args, char **out) {
  cr_assert_eq(access(LANELAB, X_OK), 0, LANELAB " is missing: build it (make build/lanelab)");
  char *cmd = ll_fmt("env LANELAB_HIP_LIB=" LANELAB_BUILD "/stubs/nodev/libamdhip64.so " LANELAB " %s", args);
  int rc = sh_run(cmd, out);
  free(cmd);
  return rc;
}

Test(observe_hip, missing_syncthreads_is_a_raw_hazard_under_every_schedule_and_the_fix_is_clean, .timeout = 300) {
  char *d = sh_tmpdir("observe-hip"), *out;
  /* 40 x 72 floats: a grid of 3 x 2 tiles, the last ones partial */
  enum { R = 40, C = 72 };
  static float x[R * C];
  for (int i = 0; i < R * C; i++) x[i] = (float)i;
  char *in = ll_fmt("%s/x.bin", d);
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  /* the racy build is make's (Makefile hipcorpus: `lanelab cc tests/hip/transpose_nosync.hip
   * --arch all -o BUILD/hip`, the command this test ran for it); the fixed one is compiled here */
  char *racy = ll_fmt("%s/hip", LANELAB_BUILD);
  for (int a = 0; a < 2; a++) {
    char *co = ll_fmt("%s/%s/transpose_nosync.co", racy, arch_names[a]);
    cr_assert_eq(access(co, R_OK), 0, "%s is missing (make check-tests builds it)", co);
    free(co);
  }
  char *fx = ll_fmt("%s/fixed", d);
  char *cc = ll_fmt("-q cc " HIPDIR "/transpose_nosync.hip --arch all -o %s -- -DFIXED=1", fx);
  int crc = run_cli(cc, &out);
  cr_assert_eq(crc, 0, "lanelab %s: exit %d: %s", cc, crc, out);
  free(out), free(cc);
  for (int a = 0; a < 2; a++)
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++)
      for (int fixed = 0; fixed < 2; fixed++) {
        char *args = ll_fmt("run %s/%s/transpose_nosync.co transpose_nosync --backend emu --grid 3,2 --block 32,8 "
                            "--arg in:%s --arg out:%zu:%s/got.bin --arg i32:%d --arg i32:%d --racecheck --schedule %s",
                            fixed ? fx : racy, arch_names[a], in, sizeof x, d, R, C, schedules[s]);
        int rc = run_cli(args, &out);
        const char *what = fixed ? "with the barrier" : "without the barrier";
        if (fixed) {
          cr_assert_eq(rc, 0, "%s %s %s: expected a clean run: exit %d: %s", arch_names[a], schedules[s], what, rc, out);
          cr_assert(strstr(out, "racecheck: 0 hazards"), "%s %s: %s", arch_names[a], schedules[s], out);
        } else {
          cr_assert_eq(rc, 1, "%s %s %s: expected exit 1 (a hazard): exit %d: %s", arch_names[a], schedules[s], what, rc,
                       out);
          /* the tile's write (a ds_write of the staging loop) then its read (a ds_read of the
           * output loop) by another wave of the workgroup, with both PCs and lanes */
          const char *h = strstr(out, "racecheck: RAW hazard on LDS byte 0x");
          cr_assert_not_null(h, "%s %s: no RAW hazard on LDS: %s", arch_names[a], schedules[s], out);
          const char *w = strstr(h, "written by pc 0x"), *r = w ? strstr(w, "then read by pc 0x") : NULL;
          const char *wi = w ? strchr(w, '\'') : NULL, *ri = r ? strchr(r, '\'') : NULL;
          cr_assert(wi && ri && !strncmp(wi, "'ds_write", 9) && !strncmp(ri, "'ds_read", 8) &&
                        strstr(r, "with no s_barrier between"),
                    "%s %s: a ds_write then a ds_read, no barrier between: %s", arch_names[a], schedules[s], out);
        }
        free(out), free(args);
      }
  free(in), free(d), free(racy), free(fx);
}

/* ---- the corpus under racecheck=global and initcheck ----------------------------------------- */
/* Argument specs, space separated:
 *   in:T:N / io:T:N   a buffer of N elements of kind T: f (f32 in [-1, 1)), d (f64), h (f16),
 *                     i (i32 in [-5, 5]), u (u32), b (bytes); io buffers hold values (not checked
 *                     for reads before writes), in buffers are read-only by contract
 *   out:BYTES         a zeroed buffer, uninitialized for initcheck (like `lanelab run`'s out:)
 *   i32:V f32:V       by value */
typedef struct {
  const char *file, *kernel;   /* tests/hip/FILE.hip; the kernel (NULL: every kernel of the file) */
  uint32_t grid[3], block[3], lds;
  const char *args;
  /* a real cross-workgroup race the kernel has: the one report racecheck=global must give (the
   * instructions in it, in order), else NULL */
  const char *race[2];
} corpus_case;

/* Corpus kernels that race inside their workgroup on purpose, and the start of the one report
 * racecheck must give for each: a true positive, checked as one (tests/asm/memmodel_wg.s). */
static const struct {
  const char *kernel, *report;
} racy_kernels[] = {{"mm_store_nobar", "RAW hazard on LDS"}, {"mm_atomic_read", "RAW hazard on LDS"}};

static const corpus_case corpus[] = {
    {"saxpy", "saxpy", {4, 1, 1}, {256, 1, 1}, 0, "in:f:1000 io:f:1000 f32:2.5 i32:1000", {0}},
    {"block_reduce", "block_reduce", {4, 1, 1}, {256, 1, 1}, 0, "in:f:1000 out:16 i32:1000", {0}},
    {"warp_reduce", "warp_reduce", {2, 1, 1}, {128, 1, 1}, 0, "in:f:256 out:16", {0}},
    {"row_softmax", "row_softmax", {8, 1, 1}, {64, 1, 1}, 0, "in:f:1024 out:4096 i32:128", {0}},
    {"layernorm", "layernorm", {4, 1, 1}, {256, 1, 1}, 0, "in:f:2048 in:f:512 in:f:512 out:8192 i32:512 f32:1e-5", {0}},
    {"transpose_lds", "transpose_lds", {3, 2, 1}, {32, 8, 1}, 0, "in:f:2880 out:11520 i32:40 i32:72", {0}},
    {"histogram", "histogram", {4, 1, 1}, {256, 1, 1}, 0, "in:b:5000 out:256 i32:5000", {0}},
    {"atomic_contention", "atomic_contention", {8, 1, 1}, {64, 1, 1}, 0, "out:4 out:8 out:8 out:4 i32:4", {0}},
    {"scan", "scan", {4, 1, 1}, {256, 1, 1}, 0, "in:i:1024 out:4096", {0}},
    {"topk", "topk", {4, 1, 1}, {64, 1, 1}, 0, "in:f:1024 out:128 out:128", {0}},
    {"gemm_mfma16", "gemm_mfma16", {3, 2, 1}, {64, 1, 1}, 0, "in:h:2048 in:h:3072 out:6144 i32:32 i32:48 i32:64", {0}},
    {"gemm_mfma32", "gemm_mfma32", {1, 2, 1}, {64, 1, 1}, 0, "in:h:2048 in:h:1024 out:8192 i32:64 i32:32 i32:32", {0}},
    {"half_convert", "half_convert", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 in:f:256 out:3072 i32:256", {0}},
    {"bf16_convert", "bf16_convert", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 in:f:256 out:2048 i32:256", {0}},
    {"dot_atomic", "dot_atomic", {4, 1, 1}, {256, 1, 1}, 0, "in:f:1000 in:f:1000 out:4 i32:1000", {0}},
    {"gemv", "gemv", {16, 1, 1}, {64, 1, 1}, 0, "in:f:3200 in:f:200 out:64 i32:200", {0}},
    {"gelu", "gelu", {2, 1, 1}, {256, 1, 1}, 0, "in:f:512 out:4096 i32:512", {0}},
    {"stencil", "stencil", {8, 1, 1}, {128, 1, 1}, 528, "in:f:1000 out:4000 f32:0.5 f32:0.25 f32:-0.125 i32:1000", {0}},
    {"compact", "compact", {2, 1, 1}, {256, 1, 1}, 0, "in:i:512 out:2048 out:32", {0}},
    {"argmax_atomic", "argmax_atomic", {4, 1, 1}, {256, 1, 1}, 0, "in:u:1000 out:8 io:u:1 out:4 i32:1000", {0}},
    {"double_reduce", "double_reduce", {4, 1, 1}, {256, 1, 1}, 0, "in:d:1000 out:8 out:8 i32:1000", {0}},
    {"bitonic_sort", "bitonic_sort", {4, 1, 1}, {256, 1, 1}, 0, "io:f:1024", {0}},
    {"rmsnorm_half", "rmsnorm_half", {4, 1, 1}, {64, 1, 1}, 0, "in:h:1024 in:h:256 out:2048 i32:256 f32:1e-6", {0}},
    {"shfl_width", "shfl_width", {2, 1, 1}, {64, 1, 1}, 0, "in:f:128 out:2048", {0}},
    {"grid_stride", "grid_stride", {3, 2, 1}, {16, 4, 1}, 0, "in:f:1000 out:4000 i32:1000", {0}},
    {"vec3", "vec3", {4, 1, 1}, {64, 1, 1}, 0, "in:f:600 in:f:600 out:2400 out:2400 out:24 f32:0.25 i32:200", {0}},
    /* globals reads the __device__ counter `hits` with a plain load after its own block's
     * __syncthreads() while other blocks may still atomicAdd to it: nothing orders blocks, so
     * that is a race (the value read depends on which blocks ran before; the kernel's comment
     * assumes they run in order). racecheck=global reports exactly it, nothing else: a WAR, since
     * in the observed run (one thread, grid order) block 0 reads before block 1 adds. */
    {"globals", "globals", {4, 1, 1}, {64, 1, 1}, 0, "in:i:256 out:1024 out:4", {"'global_load_dword", "'global_atomic_add"}},
    {"shfl_types", "shfl_types", {1, 1, 1}, {64, 1, 1}, 0, "out:3072", {0}},
    {"vllm_style", "_Z18act_and_mul_kernelIfEvPT_PKS0_i", {3, 1, 1}, {64, 1, 1}, 0, "out:2400 in:f:1200 i32:200", {0}},
    {"vllm_style", "_Z18act_and_mul_kernelI6__halfEvPT_PKS1_i", {3, 1, 1}, {64, 1, 1}, 0, "out:1200 in:h:1200 i32:200", {0}},
    {"vllm_style", "_Z18fused_add_rms_normP6__halfS0_PKS_fi", {3, 1, 1}, {128, 1, 1}, 0,
     "io:h:768 io:h:768 in:h:256 f32:1e-6 i32:256", {0}},
    {"vllm_style", "_Z14scoped_atomicsPjS_", {4, 1, 1}, {256, 1, 1}, 0, "out:24 out:32", {0}},
    /* the vocabulary kernels (issue 27); vocab_sync_bad and vocab_assert trap on purpose and are
     * left out */
    {"vocab_half", "vocab_half", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 in:f:256 out:16384 out:16384 i32:256", {0}},
    {"vocab_bf16", "vocab_bf16", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 in:f:256 in:d:256 out:12288 out:8192 i32:256", {0}},
    {"vocab_intrin", "vocab_intrin", {2, 1, 1}, {64, 1, 1}, 0, "in:f:128 in:u:256 in:d:128 out:19456 i32:128", {0}},
    {"vocab_sync", "vocab_sync", {2, 1, 1}, {128, 1, 1}, 0, "in:i:256 out:8192 out:8192 out:1024", {0}},
    /* the last-block reduction: ordered across workgroups by its fences and the counter's atomic */
    {"vocab_sync", "vocab_fence", {6, 1, 1}, {256, 1, 1}, 0, "in:i:1536 out:24 out:4 out:4 out:768", {0}},
    /* a chain of releases and acquires through one flag per block */
    {"vocab_sync", "flag_chain", {100, 1, 1}, {64, 1, 1}, 0, "out:400 out:400 out:400", {0}},
    /* two waves writing the same values into the same LDS words before a barrier */
    {"vocab_sync", "lds_dup", {1, 1, 1}, {128, 1, 1}, 0, "out:512 i32:0", {0}},
    {"vocab_cg", "vocab_cg", {2, 1, 1}, {128, 1, 1}, 0, "in:f:256 out:8192 out:2048", {0}},
    {"vocab_fp8", "vocab_fp8", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 out:2048 out:2048", {0}},
    {"vocab_libstd", "vocab_libstd", {2, 1, 1}, {64, 1, 1}, 0, "in:f:128 in:u:128 out:8192", {0}},
    /* math_ulp (test_hip's accuracy kernels): ulp_NAME(x, y, z, out), one workgroup of 256 lanes;
     * 2048-byte buffers fit both the f32 and the f64 ones */
    {"math_ulp", NULL, {1, 1, 1}, {256, 1, 1}, 0, "in:b:2048 in:b:2048 in:b:2048 out:2048", {0}},
    /* test_hip's HIP names against the device library: 42 words per float input, 89 halves per
     * 16-bit pattern (the pattern is the global index) */
    {"math_hip_defs", "math_defs_f", {4, 1, 1}, {64, 1, 1}, 0, "in:f:256 out:43008", {0}},
    {"math_hip_defs", "math_defs_h", {4, 1, 1}, {64, 1, 1}, 0, "out:45568", {0}},
    /* per-thread arrays in private memory (never observed: no finding can come from them) */
    {"private_array", "private_array", {4, 1, 1}, {64, 1, 1}, 0, "in:f:40 in:u:1024 out:1024 i32:256", {0}},
};
#define NCORPUS (sizeof corpus / sizeof corpus[0])

/* A deterministic generator (xorshift64*), independent of anything under test. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}

static uint8_t *gen(char kind, size_t n, size_t *bytes) {
  size_t es = kind == 'd' ? 8 : kind == 'h' ? 2 : kind == 'b' ? 1 : 4;
  uint8_t *p = ll_xmalloc(n * es);
  for (size_t i = 0; i < n; i++) {
    float f = (float)((double)(rnd() >> 11) * 0x1p-53 * 2 - 1);
    double dv = f;
    int32_t iv = (int32_t)(rnd() % 11) - 5;
    uint32_t uv = (uint32_t)(rnd() >> 32);
    uint16_t hv = oracle_f32_to_f16(f);
    uint8_t bv = (uint8_t)(rnd() >> 56);
    const void *src = kind == 'f' ? (const void *)&f : kind == 'd' ? (const void *)&dv : kind == 'h' ? (const void *)&hv
                    : kind == 'i' ? (const void *)&iv : kind == 'u' ? (const void *)&uv : (const void *)&bv;
    memcpy(p + i * es, src, es);
  }
  *bytes = n * es;
  return p;
}

/* Runs kernel `name` of m on fresh buffers made from the case's args, under racecheck=global and
 * initcheck; asserts a clean launch with zero reports. */
static void run_checked(rt_device *dev, rt_module *m, const char *arch, const corpus_case *c, const char *name) {
  ll_err e = {0};
  rt_arg args[16];
  uint64_t ptr[16] = {0};
  size_t n = 0;
  emu_observer *obs = emu_observer_new();
  emu_observer_racecheck(obs, true);
  emu_observer_initcheck(obs);
  char *spec = ll_xstrdup(c->args), *save = NULL;
  for (char *tok = strtok_r(spec, " ", &save); tok; tok = strtok_r(NULL, " ", &save), n++) {
    cr_assert_lt(n, 16);
    if (!strncmp(tok, "i32:", 4)) {
      args[n] = (rt_arg){.kind = RT_ARG_I32, .i32 = atoi(tok + 4)};
    } else if (!strncmp(tok, "f32:", 4)) {
      args[n] = (rt_arg){.kind = RT_ARG_F32, .f32 = strtof(tok + 4, NULL)};
    } else {
      size_t bytes = 0;
      uint8_t *init = NULL;
      if (!strncmp(tok, "out:", 4)) {
        bytes = strtoull(tok + 4, NULL, 10);
        init = ll_xcalloc(bytes, 1);
      } else {
        cr_assert(!strncmp(tok, "in:", 3) || !strncmp(tok, "io:", 3), "bad spec %s", tok);
        init = gen(tok[3], strtoull(tok + 5, NULL, 10), &bytes);
      }
      ptr[n] = rt_alloc(dev, bytes, tok, &e);
      cr_assert_neq(ptr[n], 0, "%s", e.msg);
      cr_assert(rt_copy_to_device(dev, ptr[n], init, bytes, &e), "%s", e.msg);
      free(init);
      if (!strncmp(tok, "out:", 4)) emu_observer_uninit(obs, ptr[n], bytes);
      args[n] = (rt_arg){.kind = RT_ARG_PTR, .ptr = ptr[n]};
    }
  }
  emu_fault f = {0};
  rt_launch_opts o = {.threads = 1, .fault = &f, .observe = obs};
  int rc = rt_launch(dev, m, name, c->grid, c->block, args, n, c->lds, &o, &e);
  cr_assert_eq(rc, LL_EXIT_OK, "%s %s: launch failed: %s", arch, name, e.msg);
  size_t nh = emu_observer_nhazards(obs);
  char line[1024] = "";
  for (size_t i = 0; i < nh; i++) {
    emu_hazard_format(emu_observer_hazard(obs, i), line, sizeof line);
    fprintf(stderr, "%s %s: %s\n", arch, name, line);
  }
  const char *racy = NULL;
  for (size_t i = 0; i < sizeof racy_kernels / sizeof racy_kernels[0]; i++)
    if (!strcmp(name, racy_kernels[i].kernel)) racy = racy_kernels[i].report;
  if (racy) {
    cr_assert(nh == 1 && !strncmp(line, racy, strlen(racy)) && strstr(line, "with no s_barrier between"),
              "%s %s: expected its one race inside the workgroup (%s ..., no s_barrier between): %zu reports, last: %s",
              arch, name, racy, nh, line);
  } else if (c->race[0]) {
    const char *a = strstr(line, c->race[0]), *b = a ? strstr(a + 1, c->race[1]) : NULL;
    cr_assert(nh == 1 && !strncmp(line, "WAR hazard on global", 20) && strstr(line, "in different workgroups") && b,
              "%s %s: expected its one cross-workgroup race (%s then %s): %zu reports, last: %s", arch, name,
              c->race[0], c->race[1], nh, line);
  } else {
    cr_assert_eq(nh, 0, "%s %s (tests/hip/%s.hip): %zu racecheck=global/initcheck reports (on stderr); a false positive",
                 arch, name, c->file, nh);
  }
  for (size_t i = 0; i < n; i++)
    if (ptr[i]) rt_free(dev, ptr[i]);
  emu_observer_free(obs);
  free(spec);
}

/* Runs case c's kernel (or, without one, every kernel of the code object) on arch a with both
 * checks; see run_checked. */
static void check_code_object(int a, const corpus_case *c, const char *co) {
  ll_err e = {0};
  rt_device *dev = rt_open(RT_EMU, arch_ids[a], &e);
  cr_assert_not_null(dev, "%s", e.msg);
  rt_module *m = rt_load_file(dev, co, &e);
  cr_assert_not_null(m, "%s: %s", co, e.msg);
  if (c->kernel) {
    run_checked(dev, m, arch_names[a], c, c->kernel);
  } else {
    const emu_codeobj *cobj = rt_module_codeobj(m);
    cr_assert_gt(cobj->nkernels, 1, "%s: expected its kernels", co);
    for (size_t k = 0; k < cobj->nkernels; k++) run_checked(dev, m, arch_names[a], c, cobj->kernels[k].name);
  }
  rt_unload(m);
  rt_close(dev);
}

ParameterizedTestParameters(observe_hip, corpus_has_no_false_positives) {
  static size_t idx[NCORPUS];
  for (size_t i = 0; i < NCORPUS; i++) idx[i] = i;
  return cr_make_param_array(size_t, idx, NCORPUS);
}

ParameterizedTest(size_t *ip, observe_hip, corpus_has_no_false_positives, .timeout = 300) {
  const corpus_case *c = &corpus[*ip];
  for (int a = 0; a < 2; a++) {
    /* tests/hip/FILE.hip as make built it (hipcorpus: lanelab cc ... --arch all -o BUILD/hip) */
    char *co = ll_fmt("%s/hip/%s/%s.co", LANELAB_BUILD, arch_names[a], c->file);
    cr_assert(access(co, R_OK) == 0, "%s is missing (make check-tests builds it)", co);
    check_code_object(a, c, co);
    free(co);
  }
}

/* ---- the assembly corpus (tests/asm/), the same check ------------------------------------------ */
static const corpus_case asm_corpus[] = {
    /* q, k, v (16x16, 32x16, 32x16 fp16), o (16x16 f32); one wave (tests/asm/attn_fwd_d16.s) */
    {"attn_fwd_d16", "attn_fwd_d16", {1, 1, 1}, {64, 1, 1}, 0, "in:h:256 in:h:512 in:h:512 out:1024", {0}},
    /* three one-wave kernels of x (64 dwords) and o; with one workgroup nothing can race (more
     * workgroups all store the same o: a real race) */
    {"memmodel", NULL, {1, 1, 1}, {64, 1, 1}, 0, "in:u:64 out:256", {0}},
    /* two two-wave kernels of x and o (one workgroup: wave 0 alone stores o) */
    {"memmodel_wg", NULL, {1, 1, 1}, {128, 1, 1}, 0, "in:u:64 out:256", {0}}, /* mm_store_nobar, mm_atomic_read: racy_kernels */
    /* loads to LDS across barriers (x 1024 dwords, o 256 dwords), the correct kernels in their
     * clean configurations (pipe_tiles_early is the LDS ordering rule's finding, not a race) */
    {"lds_pipe", "pipe_tiles", {1, 1, 1}, {128, 1, 1}, 0, "in:u:1024 out:1024", {0}},
    {"lds_pipe", "keep_queue", {1, 1, 1}, {128, 1, 1}, 0, "in:u:1024 out:1024", {0}},
    {"lds_pipe", "retire_order", {1, 1, 1}, {128, 1, 1}, 0, "in:u:1024 out:1024 i32:0 i32:0", {0}},
    {"lds_pipe", "own_wait", {1, 1, 1}, {64, 1, 1}, 0, "in:u:1024 out:1024 i32:1", {0}},
    {"lds_pipe", "lgkm_keep", {1, 1, 1}, {64, 1, 1}, 0, "in:u:1024 out:1024", {0}},
    /* private memory (o: 2048 dwords); priv_oob and priv_nowait fault on purpose and are left out */
    {"scratch", "priv_rw", {1, 1, 1}, {64, 1, 1}, 0, "out:8192", {0}},
    /* runs of integer lane operations (out: 7 x 64 dwords); fuse_nowait faults on purpose and is left out */
    {"fuse", "fuse_ok", {1, 1, 1}, {64, 1, 1}, 0, "out:1792", {0}},
    /* traces across guards (out: 11 x 128 dwords), two waves; trace_nowait faults on purpose and is left out */
    {"trace", "trace_guards", {1, 1, 1}, {128, 1, 1}, 0, "out:5632", {0}},
};
#define NASM (sizeof asm_corpus / sizeof asm_corpus[0])

ParameterizedTestParameters(observe_hip, asm_corpus_has_no_false_positives) {
  static size_t idx[NASM];
  for (size_t i = 0; i < NASM; i++) idx[i] = i;
  return cr_make_param_array(size_t, idx, NASM);
}

ParameterizedTest(size_t *ip, observe_hip, asm_corpus_has_no_false_positives, .timeout = 300) {
  const corpus_case *c = &asm_corpus[*ip];
  char *src = ll_fmt(LANELAB_ROOT "/tests/asm/%s.s", c->file);
  for (int a = 0; a < 2; a++) {
    char *co = assemble_co(NULL, src, arch_names[a], a ? "--defsym GFX950=1" : NULL);
    check_code_object(a, c, co);
    free(co);
  }
  free(src);
}

Test(observe_hip, every_asm_corpus_file_is_checked) {
  char *out;
  cr_assert_eq(sh_run("ls " LANELAB_ROOT "/tests/asm", &out), 0);
  size_t files = 0;
  char *save = NULL;
  for (char *f = strtok_r(out, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
    size_t len = strlen(f);
    if (len < 3 || strcmp(f + len - 2, ".s")) continue;
    f[len - 2] = 0;
    bool found = false;
    for (size_t i = 0; i < NASM; i++) found |= !strcmp(asm_corpus[i].file, f);
    cr_assert(found, "tests/asm/%s.s is not in test_observe_hip.c's asm_corpus table", f);
    files++;
  }
  size_t table_files = 0; /* distinct files: a file whose kernels take different arguments has a row per kernel */
  for (size_t i = 0; i < NASM; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(asm_corpus[i].file, asm_corpus[j].file);
    table_files += !seen;
  }
  cr_assert_eq(files, table_files, "%zu asm corpus files, %zu files in the table", files, table_files);
  free(out);
}

/* Every file of the corpus is in the table above (a new corpus kernel cannot skip the check);
 * transpose_nosync is the deliberate race, checked by the test above instead. */
Test(observe_hip, every_corpus_file_is_checked) {
  char *out;
  cr_assert_eq(sh_run("ls " HIPDIR, &out), 0);
  size_t files = 0;
  char *save = NULL;
  for (char *f = strtok_r(out, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
    size_t len = strlen(f);
    if (len < 5 || strcmp(f + len - 4, ".hip") || !strcmp(f, "transpose_nosync.hip")) continue;
    f[len - 4] = 0;
    bool found = false;
    for (size_t i = 0; i < NCORPUS; i++) found |= !strcmp(corpus[i].file, f);
    cr_assert(found, "tests/hip/%s.hip is not in test_observe_hip.c's corpus table", f);
    files++;
  }
  size_t table_files = 0; /* distinct files: a file whose kernels take different arguments has a row per kernel */
  for (size_t i = 0; i < NCORPUS; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(corpus[i].file, corpus[j].file);
    table_files += !seen;
  }
  cr_assert_eq(files, table_files, "%zu corpus files, %zu files in the table", files, table_files);
  free(out);
}
