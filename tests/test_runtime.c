/* Tests for runtime/ (rt.h) and `lanelab run` (cli/cmd_run.c).
 *
 * Kernels: tests/kernels/rt_kernels.hip, compiled at run time with clang-22. Kernarg offsets and
 * sizes expected here come from llvm-readelf-22 --notes, parsed independently of lanelab's
 * loader; the hidden-argument values from the rule in AMDGPUUsage "Code Object V5 Metadata"
 * written out in the test; end-to-end results from a host computation. The hip backend is
 * exercised with tests/support/fake_amdhip64.c (built here with gcc -shared), because this
 * machine has neither ROCm nor a GPU. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/rt.h"
#include "util/util.h"
#include "tests/llvm_tools.h"
#include "tests/co_cache.h"

#define KSRC LANELAB_ROOT "/tests/kernels/rt_kernels.hip"
/* the suite's kernels, compiled once per content (tests/co_cache.h): its tests read and run them,
 * never change them, and write what they make in their own folders */
#define rt_co(src, arch, extra) coc_compile_src("runtime-co", src, arch, extra, NULL)
#define FAKE_HIP_SRC LANELAB_ROOT "/tests/support/fake_amdhip64.c"
#define LANELAB LANELAB_BUILD "/lanelab"

static emu_codeobj *load(const char *path) {
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(path, &e);
  cr_assert_not_null(co, "%s", e.msg);
  return co;
}

/* Runs lanelab with `args` (already shell-quoted) under `env` (may be ""); returns its exit
 * status and its stderr in *err_out (malloc'd). */
static int cli(const char *env, const char *args, char **err_out) {
  if (access(LANELAB, X_OK) != 0) cr_assert_fail(LANELAB " is missing: build it (make build/lanelab)");
  char errf[] = "/tmp/lanelab-test-rt-err-XXXXXX";
  int fd = mkstemp(errf);
  cr_assert_geq(fd, 0);
  close(fd);
  char *cmd = ll_fmt("%s %s %s 2>%s", env ? env : "", LANELAB, args, errf);
  int st = system(cmd);
  free(cmd);
  size_t n;
  char *e = ll_read_file(errf, &n, NULL);
  unlink(errf);
  cr_assert_not_null(e);
  e = ll_xrealloc(e, n + 1);
  e[n] = 0;
  if (err_out) *err_out = e; else free(e);
  cr_assert(WIFEXITED(st), "lanelab %s did not exit normally (status 0x%x)", args, st);
  return WEXITSTATUS(st);
}

/* ---- --arg specs -------------------------------------------------------------------------------*/
Test(rt_argspec, parses_every_form) {
  rt_argspec s;
  ll_err e = {0};
  cr_assert(rt_argspec_parse("in:a.bin", &s, &e), "%s", e.msg);
  cr_assert(s.kind == RT_SPEC_IN && !strcmp(s.file, "a.bin") && !s.outfile && s.value.kind == RT_ARG_PTR);
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("out:4096:dir/o.bin", &s, &e), "%s", e.msg);
  cr_assert(s.kind == RT_SPEC_OUT && s.size == 4096 && !strcmp(s.outfile, "dir/o.bin") && !s.file);
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("io:x.bin:y.bin", &s, &e), "%s", e.msg);
  cr_assert(s.kind == RT_SPEC_IO && !strcmp(s.file, "x.bin") && !strcmp(s.outfile, "y.bin"));
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("u32:0xffffffff", &s, &e) && s.value.kind == RT_ARG_U32 && s.value.u32 == 0xffffffffu);
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("i32:-2147483648", &s, &e) && s.value.kind == RT_ARG_I32 && s.value.i32 == INT32_MIN);
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("u64:18446744073709551615", &s, &e) && s.value.u64 == UINT64_MAX);
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse("f32:-1.5", &s, &e) && s.value.kind == RT_ARG_F32 && s.value.f32 == -1.5f);
  rt_argspec_free(&s);
}

Test(rt_argspec, rejects_malformed_and_out_of_range) {
  const char *bad[] = {"u32:-1", "u32:4294967296", "i32:2147483648", "u64:-1", "f32:1e39", "f32:abc",
                       "out:0:f", "out:x:f", "out:16", "out:16:", "in:", "io:a", "io::b", "io:a:",
                       "bogus:1", "u32", "", "u32:"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    rt_argspec s;
    ll_err e = {0};
    cr_assert(!rt_argspec_parse(bad[i], &s, &e), "accepted '%s'", bad[i]);
    cr_assert_eq(e.code, LL_EXIT_USAGE);
    char *q = ll_fmt("'%s'", bad[i]);
    cr_assert(strstr(e.msg, q), "message for '%s' does not quote it: %s", bad[i], e.msg);
    free(q);
  }
}

/* ---- kernarg filling against llvm-readelf --------------------------------------------------------*/
typedef struct { const char *kind; uint64_t value; } expect_hidden;

/* Builds the expected buffer from readelf's offsets: explicit values given in order, hidden values
 * by kind (anything not listed must be 0), then compares with rt_fill_kernargs byte for byte. */
static void check_fill(const char *co_path, const char *kname, const rt_arg *args, size_t nargs,
                       const uint64_t *explicit_bits, const expect_hidden *hid, size_t nhid,
                       const uint32_t grid[3], const uint32_t block[3], uint32_t dyn) {
  rkern *rk = ll_xcalloc(8, sizeof *rk);
  long vmaj, vmin;
  int nk = readelf_kernels(co_path, rk, 8, &vmaj, &vmin);
  rkern *r = NULL;
  for (int i = 0; i < nk; i++)
    if (!strcmp(rk[i].name, kname)) r = &rk[i];
  cr_assert_not_null(r, "readelf lists no kernel %s", kname);
  uint8_t *want = ll_xcalloc(r->kseg, 1);
  size_t ei = 0;
  int hidden_seen = 0;
  for (int j = 0; j < r->nargs; j++) {
    rarg *a = &r->args[j];
    cr_assert_leq(a->offset + a->size, r->kseg);
    uint64_t v = 0;
    if (strncmp(a->kind, "hidden_", 7) != 0) {
      cr_assert_lt(ei, nargs, "readelf has more explicit args than the test gives");
      v = explicit_bits[ei++];
    } else {
      for (size_t h = 0; h < nhid; h++)
        if (!strcmp(hid[h].kind, a->kind)) { v = hid[h].value; hidden_seen++; }
    }
    for (long b = 0; b < a->size && b < 8; b++) want[a->offset + b] = (uint8_t)(v >> 8 * b);
  }
  cr_assert_eq(ei, nargs);
  cr_assert_eq(hidden_seen, (int)nhid, "%s: %d of the %zu expected hidden kinds are in its metadata",
               kname, hidden_seen, nhid);
  emu_codeobj *co = load(co_path);
  const emu_kernel *k = emu_codeobj_kernel(co, kname, NULL);
  cr_assert_not_null(k);
  cr_assert_eq(rt_kernarg_bytes(k), (size_t)r->kseg);
  uint8_t *got = ll_xmalloc(r->kseg);
  memset(got, 0xcc, r->kseg);
  ll_err e = {0};
  cr_assert(rt_fill_kernargs(k, args, nargs, grid, block, dyn, got, r->kseg, &e), "%s", e.msg);
  for (long i = 0; i < r->kseg; i++)
    cr_assert_eq(got[i], want[i], "%s kernarg byte %ld: got 0x%02x, want 0x%02x", kname, i, got[i], want[i]);
  free(got);
  free(want);
  free(rk);
  emu_codeobj_free(co);
}

Test(rt_kernargs, explicit_and_hidden_at_readelf_offsets) {
  char *p = rt_co(KSRC, "gfx950", NULL);
  /* affine: two pointers and n; grid 3x2x1 workgroups of 64x2x1 -> 2-D dispatch */
  rt_arg a1[] = {{.kind = RT_ARG_PTR, .ptr = 0x100000000ull}, {.kind = RT_ARG_PTR, .ptr = 0x200000040ull},
                 {.kind = RT_ARG_U32, .u32 = 100}};
  uint64_t b1[] = {0x100000000ull, 0x200000040ull, 100};
  uint32_t g1[3] = {3, 2, 1}, k1[3] = {64, 2, 1};
  expect_hidden h1[] = {{"hidden_block_count_x", 3}, {"hidden_block_count_y", 2}, {"hidden_block_count_z", 1},
                        {"hidden_group_size_x", 64}, {"hidden_group_size_y", 2}, {"hidden_group_size_z", 1},
                        {"hidden_grid_dims", 2}};
  check_fill(p, "affine", a1, 3, b1, h1, sizeof h1 / sizeof h1[0], g1, k1, 0);
  /* dynlds: 1-D, 256 bytes of dynamic LDS */
  rt_arg a2[] = {{.kind = RT_ARG_PTR, .ptr = 0xabc000ull}};
  uint64_t b2[] = {0xabc000ull};
  uint32_t g2[3] = {5, 1, 1}, k2[3] = {64, 1, 1};
  expect_hidden h2[] = {{"hidden_block_count_x", 5}, {"hidden_block_count_y", 1}, {"hidden_block_count_z", 1},
                        {"hidden_group_size_x", 64}, {"hidden_group_size_y", 1}, {"hidden_group_size_z", 1},
                        {"hidden_grid_dims", 1}, {"hidden_dynamic_lds_size", 256}};
  check_fill(p, "dynlds", a2, 1, b2, h2, sizeof h2 / sizeof h2[0], g2, k2, 256);
  /* a z extent makes it 3-D */
  uint32_t g3[3] = {1, 1, 2};
  expect_hidden h3[] = {{"hidden_block_count_z", 2}, {"hidden_grid_dims", 3}, {"hidden_block_count_x", 1},
                        {"hidden_block_count_y", 1}, {"hidden_group_size_x", 64}, {"hidden_group_size_y", 1},
                        {"hidden_group_size_z", 1}};
  check_fill(p, "dynlds", a2, 1, b2, h3, sizeof h3 / sizeof h3[0], g3, k2, 0);
  free(p);
}

Test(rt_kernargs, narrow_and_wide_by_value) {
  char *p = rt_co(KSRC, "gfx942", NULL);
  /* mixed(double x, int *out, long long y, char c, short s): the double as its u64 bit pattern,
   * c = -3 as i32 (one byte 0xfd), s = 1000 as u32 (two bytes e8 03) */
  double x = 2.5;
  uint64_t xb;
  memcpy(&xb, &x, 8);
  rt_arg a[] = {{.kind = RT_ARG_U64, .u64 = xb}, {.kind = RT_ARG_PTR, .ptr = 0x5000},
                {.kind = RT_ARG_U64, .u64 = (uint64_t)-7}, {.kind = RT_ARG_I32, .i32 = -3},
                {.kind = RT_ARG_U32, .u32 = 1000}};
  uint64_t bits[] = {xb, 0x5000, (uint64_t)-7, 0xfd, 1000};
  uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  check_fill(p, "mixed", a, 5, bits, NULL, 0, g, b, 0);
  free(p);
}

static void expect_mismatch(const emu_kernel *k, const rt_arg *a, size_t n, const char *w1, const char *w2) {
  uint8_t buf[4096];
  uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  ll_err e = {0};
  cr_assert(!rt_fill_kernargs(k, a, n, g, b, 0, buf, sizeof buf, &e), "accepted (%s)", w1);
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, w1) && strstr(e.msg, w2), "message '%s' lacks '%s' / '%s'", e.msg, w1, w2);
}

Test(rt_kernargs, mismatches_name_the_argument) {
  char *p = rt_co(KSRC, "gfx950", NULL);
  emu_codeobj *co = load(p);
  const emu_kernel *af = emu_codeobj_kernel(co, "affine", NULL), *mx = emu_codeobj_kernel(co, "mixed", NULL);
  cr_assert(af && mx);
  cr_assert_eq(rt_explicit_arg_count(af), 3);
  cr_assert_eq(rt_explicit_arg_count(mx), 5);
  rt_arg P = {.kind = RT_ARG_PTR, .ptr = 0x1000}, U = {.kind = RT_ARG_U32, .u32 = 1},
         U64 = {.kind = RT_ARG_U64, .u64 = 1}, F = {.kind = RT_ARG_F32, .f32 = 1}, I = {.kind = RT_ARG_I32, .i32 = 1};
  rt_arg two[] = {P, P};
  expect_mismatch(af, two, 2, "takes 3 arguments", "2 given");
  rt_arg ptr_for_value[] = {P, P, P};
  expect_mismatch(af, ptr_for_value, 3, "argument 2", "by-value");
  rt_arg value_for_ptr[] = {P, U64, U};
  expect_mismatch(af, value_for_ptr, 3, "argument 1", "pointer");
  rt_arg u32_for_8[] = {U, P, U64, I, U};
  expect_mismatch(mx, u32_for_8, 5, "argument 0", "8 bytes");
  rt_arg f32_for_1[] = {U64, P, U64, F, U};
  expect_mismatch(mx, f32_for_1, 5, "argument 3", "1 bytes");
  rt_arg too_big[] = {U64, P, U64, {.kind = RT_ARG_U32, .u32 = 300}, U};
  expect_mismatch(mx, too_big, 5, "argument 3", "300");
  rt_arg too_neg[] = {U64, P, U64, I, {.kind = RT_ARG_I32, .i32 = -40000}};
  expect_mismatch(mx, too_neg, 5, "argument 4", "-40000");
  emu_codeobj_free(co);
  free(p);
}

/* ---- backend selection ---------------------------------------------------------------------------*/
static char *fake_hip(void) {
  char *dir = tmpdir();
  char *so = ll_fmt("%s/libamdhip64.so", dir);
  char *cmd = ll_fmt("gcc -shared -fPIC -O1 -o %s %s", so, FAKE_HIP_SRC);
  cr_assert_eq(system(cmd), 0, "building the fake HIP runtime failed: %s", cmd);
  free(cmd);
  free(dir);
  return so;
}

/* The fake runtime's launch log (one line: "KERNEL grid X Y Z block X Y Z lds N size S bytes B0 B1
 * ..."): checks the line starts with head (up to "size "), returns S and the first max bytes. */
static unsigned launch_log(const char *log, const char *head, unsigned *bytes, unsigned max) {
  size_t n;
  char *l = ll_read_file(log, &n, NULL);
  cr_assert_not_null(l, "the fake runtime saw no launch");
  l = ll_xrealloc(l, n + 1);
  l[n] = 0;
  cr_assert(!strncmp(l, head, strlen(head)), "%s", l);
  unsigned size = 0;
  int used = 0;
  cr_assert_eq(sscanf(l + strlen(head), "%u bytes%n", &size, &used), 1, "%s", l);
  const char *q = l + strlen(head) + used;
  for (unsigned i = 0; i < size && i < max; i++) {
    int u;
    cr_assert_eq(sscanf(q, "%x%n", &bytes[i], &u), 1);
    q += u;
  }
  free(l);
  return size;
}

/* Hermetic: the three situations a host can be in are made here, whatever this host has — no
 * HIP runtime (a library path that does not exist), a runtime that sees no GPU and one that sees
 * only a GPU of another arch (the suite's stubs, Makefile HIPSTUBS). In each, --backend hip is
 * exit 3 saying why, and auto falls back to the emulator saying why on one line. */
#define HIP_NODEV LANELAB_BUILD "/stubs/nodev/libamdhip64.so"
#define HIP_OTHERARCH LANELAB_BUILD "/stubs/otherarch/libamdhip64.so"
Test(rt_backend, no_runtime_no_gpu_or_another_arch_is_exit_3_and_auto_falls_back) {
  const char *libs[] = {"/nonexistent/libamdhip64.so", HIP_NODEV, HIP_OTHERARCH};
  const char *why[] = {"cannot load /nonexistent/libamdhip64.so", "no HIP device (device count: 0)",
                       "no HIP device of arch gfx950"};
  unsetenv("FAKE_HIP_COUNT");
  unsetenv("FAKE_HIP_ARCH");
  for (int i = 0; i < 3; i++) {
    if (i) cr_assert_eq(access(libs[i], R_OK), 0, "%s is missing: build it (make check-tests)", libs[i]);
    setenv("LANELAB_HIP_LIB", libs[i], 1);
    ll_err e = {0};
    rt_device *d = rt_open(RT_HIP, EMU_GFX950, &e);
    cr_assert_null(d, "%s: --backend hip opened a device", libs[i]);
    cr_assert_eq(e.code, LL_EXIT_ENV, "%s: %s", libs[i], e.msg);
    cr_assert(strstr(e.msg, why[i]), "%s: %s", libs[i], e.msg);
    cr_assert(strstr(e.msg, "--backend emu"), "%s: the message does not say what to do: %s", libs[i], e.msg);
    d = rt_open(RT_AUTO, EMU_GFX950, &e);
    cr_assert_not_null(d);
    cr_assert_eq(rt_device_backend(d), RT_EMU);
    const char *note = rt_device_note(d);
    cr_assert(!strncmp(note, "backend emu (auto: no HIP GPU of arch gfx950: ", 46) && strstr(note, why[i]), "%s", note);
    cr_assert_null(strchr(note, '\n'), "the note must be one line");
    /* regression (issue #29, "quieter runs"): the fallback says why, but suggests nothing: a run
     * without -q must not tell the user to install ROCm every time */
    cr_assert(!strstr(note, "install") && !strstr(note, "--backend"), "the auto note suggests a remedy: %s", note);
    rt_close(d);
  }
}

Test(rt_backend, selection_with_a_fake_hip_runtime) {
  char *so = fake_hip();
  setenv("LANELAB_HIP_LIB", so, 1);
  ll_err e = {0};
  setenv("FAKE_HIP_COUNT", "0", 1);
  cr_assert_null(rt_open(RT_HIP, EMU_GFX950, &e));
  cr_assert(e.code == LL_EXIT_ENV && strstr(e.msg, "no HIP device"), "%s", e.msg);
  setenv("FAKE_HIP_COUNT", "2", 1);
  setenv("FAKE_HIP_ARCH", "gfx90a:sramecc+:xnack-", 1);
  cr_assert_null(rt_open(RT_HIP, EMU_GFX950, &e));
  cr_assert(e.code == LL_EXIT_ENV && strstr(e.msg, "no HIP device of arch gfx950") &&
            strstr(e.msg, "1: gfx90a:sramecc+:xnack-"), "%s", e.msg);
  rt_device *d = rt_open(RT_AUTO, EMU_GFX950, &e);
  cr_assert(d && rt_device_backend(d) == RT_EMU && strstr(rt_device_note(d), "gfx90a"), "%s", d ? rt_device_note(d) : e.msg);
  rt_close(d);
  setenv("FAKE_HIP_ARCH", "gfx9500", 1); /* prefix is not a match */
  cr_assert_null(rt_open(RT_HIP, EMU_GFX950, &e));
  setenv("FAKE_HIP_ARCH", "gfx950:sramecc+:xnack-", 1);
  d = rt_open(RT_AUTO, EMU_GFX950, &e);
  cr_assert(d && rt_device_backend(d) == RT_HIP, "%s", d ? rt_device_note(d) : e.msg);
  cr_assert(strstr(rt_device_note(d), "backend hip: HIP device 0 (gfx950:sramecc+:xnack-)"), "%s", rt_device_note(d));
  rt_close(d);
  free(so);
}

/* The hip launch path: the kernarg buffer handed to hipModuleLaunchKernel through `extra`. */
Test(rt_backend, hip_launch_passes_the_kernarg_buffer) {
  char *so = fake_hip(), *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  char *log = ll_fmt("%s/launches.log", dir), *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir);
  float data[256] = {0};
  cr_assert(ll_write_file_atomic(in, data, sizeof data, NULL));
  char *env = ll_fmt("LANELAB_HIP_LIB=%s FAKE_HIP_COUNT=1 FAKE_HIP_ARCH=gfx950 FAKE_HIP_LOG=%s", so, log);
  char *args = ll_fmt("run %s affine --grid 4 --block 64 --arg in:%s --arg out:1024:%s --arg u32:0x1234 --backend hip",
                      co, in, out);
  char *err;
  int rc = cli(env, args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "backend hip: HIP device 0 (gfx950)"), "%s", err);
  /* affine's kernarg segment is 280 bytes (readelf); n sits at offset 16: 34 12 00 00 */
  unsigned bytes[280];
  cr_assert_eq(launch_log(log, "affine grid 4 1 1 block 64 1 1 lds 0 size ", bytes, 280), 280);
  cr_assert(bytes[16] == 0x34 && bytes[17] == 0x12 && bytes[18] == 0 && bytes[19] == 0);
  cr_assert(bytes[24] == 4 && bytes[36] == 64, "hidden block count x / group size x");
  free(err);
  /* register dumps need the emulator */
  char *args2 = ll_fmt("%s --dump-regs %s/r.json", args, dir);
  rc = cli(env, args2, &err);
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "--dump-regs needs the emulator"), "%s", err);
  free(err);
  free(args2); free(args); free(env); free(log); free(in); free(out); free(dir); free(co); free(so);
}

Test(rt_cli, backend_hip_without_runtime_is_exit_3) {
  char *co = rt_co(KSRC, "gfx942", NULL), *dir = tmpdir();
  char *args = ll_fmt("run %s dynlds --grid 1 --block 64 --arg out:256:%s/o.bin --lds-bytes 256 --backend hip", co, dir);
  char *err;
  int rc = cli("env LANELAB_HIP_LIB=/nonexistent/libamdhip64.so", args, &err);
  cr_assert_eq(rc, 3, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "--backend hip: no HIP runtime") && strstr(err, "libamdhip64"), "%s", err);
  char *o = ll_fmt("%s/o.bin", dir);
  cr_assert_neq(access(o, F_OK), 0, "output written although nothing ran");
  free(o); free(err); free(args); free(dir); free(co);
}

/* ---- `lanelab run` usage errors ------------------------------------------------------------------*/
Test(rt_cli, bad_usage_is_exit_2_naming_the_problem) {
  char *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir);
  float data[64] = {0};
  cr_assert(ll_write_file_atomic(in, data, sizeof data, NULL));
  struct { char *args; const char *want; } cases[] = {
      {ll_fmt("run %s affine --block 64", co), "--grid"},
      {ll_fmt("run %s affine --grid 0 --block 64", co), "--grid '0'"},
      {ll_fmt("run %s affine --grid 1,2,3,4 --block 64", co), "--grid '1,2,3,4'"},
      {ll_fmt("run %s affine --grid 1 --block 64,", co), "--block '64,'"},
      {ll_fmt("run %s nosuch --grid 1 --block 64", co), "affine, mixed, dynlds, packet"},
      {ll_fmt("run %s affine --grid 1 --block 64 --arg in:%s", co, in), "takes 3 arguments"},
      {ll_fmt("run %s affine --grid 1 --block 64 --arg u32:5 --arg out:4:%s/o --arg u32:1", co, dir), "--arg 'u32:5'"},
      {ll_fmt("run %s affine --grid 1 --block 64 --arg in:%s --arg out:4:%s/o --arg u64:1", co, in, dir), "argument 2"},
      {ll_fmt("run %s affine --grid 1 --block 64 --arg in:%s/missing --arg out:4:%s/o --arg u32:1", co, dir, dir), "missing"},
      {ll_fmt("run %s affine --grid 1 --block 2048 --arg in:%s --arg out:4:%s/o --arg u32:1", co, in, dir), "max_flat_workgroup_size"},
      {ll_fmt("run %s dynlds --grid 1 --block 64 --arg out:4:%s/o --lds-bytes 1000000", co, dir), "LDS"},
      {ll_fmt("run %s affine --grid 1 --block 64 --backend cuda", co), "--backend 'cuda'"},
      {ll_fmt("run %s affine --grid 1 --block 64 --frobnicate", co), "--frobnicate"},
      {ll_fmt("run %s affine --grid 1 --block 64", in), "not an ELF file"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err;
    int rc = cli("", cases[i].args, &err);
    cr_assert_eq(rc, 2, "'%s': exit %d: %s", cases[i].args, rc, err);
    cr_assert(strstr(err, cases[i].want), "'%s': stderr lacks '%s': %s", cases[i].args, cases[i].want, err);
    char *o = ll_fmt("%s/o", dir);
    cr_assert_neq(access(o, F_OK), 0, "'%s' wrote an output", cases[i].args);
    free(o);
    free(err);
    free(cases[i].args);
  }
  free(in); free(dir); free(co);
}

/* `lanelab run --backend auto` under a runtime that sees only a gfx90a: it runs on the emulator,
 * says so and why on one stderr line, and -q silences that line. The kernel result is checked
 * against the host formula (affine: out[i] = 2*in[i] + 1 for i < n). */
Test(rt_cli, auto_says_which_backend_and_why_and_q_silences_it) {
  char *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir);
  float x[256];
  for (int i = 0; i < 256; i++) x[i] = (float)i;
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s affine --grid 4 --block 64 --arg in:%s --arg out:1024:%s --arg u32:256", co, in, out);
  char *err;
  int rc = cli("env -u FAKE_HIP_COUNT -u FAKE_HIP_ARCH LANELAB_HIP_LIB=" HIP_OTHERARCH, args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "lanelab: backend emu (auto: no HIP GPU of arch gfx950: no HIP device of arch gfx950") &&
            strstr(err, "gfx90a"), "the backend line does not say what was picked and why: %s", err);
  size_t n;
  float *y = ll_read_file(out, &n, NULL);
  cr_assert(y && n == 1024);
  for (int i = 0; i < 256; i++) cr_assert_eq(y[i], 2.0f * (float)i + 1.0f, "out[%d] = %g", i, y[i]);
  free(y);
  free(err);
  char *qargs = ll_fmt("-q %s", args);
  rc = cli("env -u FAKE_HIP_COUNT -u FAKE_HIP_ARCH LANELAB_HIP_LIB=" HIP_OTHERARCH, qargs, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  cr_assert_null(strstr(err, "backend"), "-q printed the backend line: %s", err);
  free(err); free(qargs); free(args); free(in); free(out); free(dir); free(co);
}

/* ---- end to end on the emulator ------------------------------------------------------------------*/
static void affine_end_to_end(const char *arch) {
  char *co = rt_co(KSRC, arch, NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir), *regs = ll_fmt("%s/regs.json", dir);
  float x[256];
  for (int i = 0; i < 256; i++) x[i] = 0.25f * (float)i - 3.0f; /* *2+1 is exact for these */
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s affine --grid 4 --block 64 --arg in:%s --arg out:1024:%s --arg u32:250 "
                      "--backend auto --dump-regs %s", co, in, out, regs);
  char *err;
  int rc = cli("env LANELAB_HIP_LIB=" HIP_NODEV, args, &err);
  cr_assert(strstr(err, "lanelab: backend emu (auto: --dump-regs needs the emulator)") ||
            strstr(err, "lanelab: backend emu (auto: no HIP GPU of arch"), "no backend line: %s", err);
  cr_assert_eq(rc, 0, "lanelab run on the emulator (%s): exit %d: %s", arch, rc, err);
  size_t n;
  float *y = ll_read_file(out, &n, NULL);
  cr_assert_not_null(y);
  cr_assert_eq(n, 1024);
  for (int i = 0; i < 256; i++) {
    float want = i < 250 ? x[i] * 2.0f + 1.0f : 0.0f; /* beyond n the zeroed buffer is untouched */
    cr_assert(memcmp(&y[i], &want, 4) == 0, "%s out[%d] = %a, want %a", arch, i, y[i], want);
  }
  ll_err e = {0};
  ll_json *j = ll_json_parse_file(regs, &e);
  cr_assert_not_null(j, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(j, "arch")->str, arch);
  cr_assert_str_eq(ll_json_get(j, "kernel")->str, "affine");
  ll_json *w = ll_json_get(j, "waves");
  cr_assert(w && w->type == LL_JARR && w->n == 4, "want one wave per 64-lane workgroup, 4 in all");
  for (size_t i = 0; i < 4; i++) {
    ll_json *v = w->items[i], *wg = ll_json_get(v, "wg"), *vg = ll_json_get(v, "vgprs");
    cr_assert(wg->items[0]->i == (int64_t)i && wg->items[1]->i == 0 && wg->items[2]->i == 0, "waves sorted by wg");
    cr_assert_eq(ll_json_get(v, "wave")->i, 0);
    cr_assert(vg->type == LL_JARR && vg->n >= 1);
    for (size_t r = 0; r < vg->n; r++) cr_assert_eq(vg->items[r]->n, 64, "v%zu has %zu lanes", r, vg->items[r]->n);
    cr_assert_eq(strlen(ll_json_get(v, "exec")->str), 18);
    cr_assert(ll_json_get(v, "sgprs")->n >= 1 && ll_json_get(v, "agprs")->type == LL_JARR);
  }
  ll_json_free(j);
  free(err); free(args); free(y); free(in); free(out); free(regs); free(dir); free(co);
}

Test(rt_e2e, affine_matches_host_gfx942) { affine_end_to_end("gfx942"); }
Test(rt_e2e, affine_matches_host_gfx950) { affine_end_to_end("gfx950"); }

Test(rt_e2e, dynamic_lds_and_barrier) {
  char *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  char *out = ll_fmt("%s/o.bin", dir);
  char *args = ll_fmt("run %s dynlds --grid 2 --block 64 --arg out:512:%s --lds-bytes 256 --backend emu", co, out);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  size_t n;
  uint32_t *y = ll_read_file(out, &n, NULL);
  cr_assert(y && n == 512);
  for (int i = 0; i < 128; i++) cr_assert_eq(y[i], 3u * (uint32_t)(((i % 64) + 1) % 64), "out[%d] = %u", i, y[i]);
  free(y);
  free(err);
  /* without --lds-bytes the kernel has no LDS at all: its first ds_write is out of range */
  char *out2 = ll_fmt("%s/o2.bin", dir);
  char *args2 = ll_fmt("run %s dynlds --grid 2 --block 64 --arg out:512:%s --backend emu", co, out2);
  rc = cli("", args2, &err);
  cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "lds out of range") && strstr(err, "ds_write"), "%s", err);
  cr_assert_neq(access(out2, F_OK), 0, "output written after a fault");
  free(err); free(args2); free(out2); free(args); free(out); free(dir); free(co);
}

/* Writing past an output buffer faults: exit 1 with the fault line, and no output file. */
Test(rt_e2e, fault_is_exit_1_and_writes_nothing) {
  char *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir);
  float x[256] = {0};
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s affine --grid 4 --block 64 --arg in:%s --arg out:512:%s --arg u32:256 --backend emu",
                      co, in, out);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "out-of-bounds") && strstr(err, "gfx950") && strstr(err, "affine"),
            "want an out-of-bounds fault naming arch and kernel: %s", err);
  cr_assert_neq(access(out, F_OK), 0, "output written after a fault");
  free(err); free(args); free(in); free(out); free(dir); free(co);
}

/* The dispatch packet the emu backend builds, read back by the kernel. Field offsets from the HSA
 * Platform System Architecture Specification ("Kernel Dispatch Packet"): setup (dimensions) u16 at
 * byte 2, workgroup_size_x u16 at 4, grid_size_x u32 at 12 in work-items, group_segment_size u32
 * at 28 (static + dynamic LDS). */
Test(rt_e2e, dispatch_packet_fields) {
  char *co = rt_co(KSRC, "gfx942", NULL), *dir = tmpdir();
  char *out = ll_fmt("%s/o.bin", dir);
  char *args = ll_fmt("run %s packet --grid 3,2 --block 128 --arg out:16:%s --lds-bytes 512 --backend emu", co, out);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  size_t n;
  uint32_t *y = ll_read_file(out, &n, NULL);
  cr_assert(y && n == 16);
  cr_assert_eq(y[0], 2, "setup dimensions %u, want 2 (grid has a y extent)", y[0]);
  cr_assert_eq(y[1], 128, "workgroup_size_x %u", y[1]);
  cr_assert_eq(y[2], 3 * 128, "grid_size_x %u, want 384 work-items", y[2]);
  cr_assert_eq(y[3], 512, "group_segment_size %u, want 0 static + 512 dynamic", y[3]);
  free(y); free(err); free(args); free(out); free(dir); free(co);
}

/* Regression: the gfx950 paged prefill faulted with "out-of-bounds global access ... 32-byte
 * access at offset 104 of buffer 'kernarg' (132 bytes)": clang widens scalar kernarg loads past
 * the segment's end, which hardware tolerates. The emu backend gives the segment 64 zeroed bytes
 * of slack (the widest scalar load); a 64-byte load from the last dword must run and read 0. */
Test(rt_e2e, kernarg_overread_by_a_widened_scalar_load) {
  char *co = rt_co(KSRC, "gfx950", NULL), *dir = tmpdir();
  ll_err e = {0};
  emu_codeobj *c = emu_codeobj_load_file(co, &e);
  cr_assert_not_null(c, "%s", e.msg);
  const emu_kernel *k = emu_codeobj_kernel(c, "kernarg_overread", &e);
  cr_assert_not_null(k, "%s", e.msg);
  uint32_t off = k->kernarg_size - 4;
  emu_codeobj_free(c);
  char *out = ll_fmt("%s/o.bin", dir);
  char *args = ll_fmt("run %s kernarg_overread --grid 1 --block 64 --arg out:4:%s --arg u32:%u --backend emu", co,
                      out, off);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "a scalar load past the kernarg segment must not fault: exit %d: %s", rc, err);
  size_t n;
  uint32_t *y = ll_read_file(out, &n, NULL);
  cr_assert(y && n == 4);
  cr_assert_eq(y[0], 0u, "the slack past the kernarg segment reads %#x, want 0", y[0]);
  free(y); free(err); free(args); free(out); free(dir); free(co);
}

/* ---- user kernels: C++ names (emu/kname.c) ------------------------------------------------------
 * tests/kernels/rt_user_kernels.hip. The symbols expected here are the Itanium C++ ABI manglings
 * of its declarations, written out by hand (e.g. row_softmax(const float*, float*, float*, int) is
 * _Z11row_softmaxPKfPfS1_i: 11-character name, P pointer, K const, S1_ the second substitution). */
#define USRC LANELAB_ROOT "/tests/kernels/rt_user_kernels.hip"

Test(rt_user, cxx_names_find_kernels_and_ambiguity_lists_signatures) {
  char *p = rt_co(USRC, "gfx942", NULL);
  emu_codeobj *co = load(p);
  const struct { const char *name, *sym; } ok[] = {
      {"row_softmax", "_Z11row_softmaxPKfPfS1_i"},
      {"_Z11row_softmaxPKfPfS1_i", "_Z11row_softmaxPKfPfS1_i"},
      {"row_softmax(float const*, float*, float*, int)", "_Z11row_softmaxPKfPfS1_i"},
      {"scale(double*, double)", "_Z5scalePdd"},
      {"scale(float *, float)", "_Z5scalePff"}, /* spaces ignored */
      {"ns::fill<128>", "_ZN2ns4fillILi128EEEvPj"},
      {"fill<64>", "_ZN2ns4fillILi64EEEvPj"},
      {"axpy", "_Z4axpyfPKfPfj"},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    ll_err e = {0};
    const emu_kernel *k = emu_codeobj_kernel(co, ok[i].name, &e);
    cr_assert_not_null(k, "'%s': %s", ok[i].name, e.msg);
    cr_assert_str_eq(k->name, ok[i].sym, "'%s'", ok[i].name);
  }
  const struct { const char *name, *c1, *c2; } amb[] = {
      {"scale", "_Z5scalePff (scale(float*, float))", "_Z5scalePdd (scale(double*, double))"},
      {"fill", "_ZN2ns4fillILi64EEEvPj (void ns::fill<64>(unsigned int*))",
       "_ZN2ns4fillILi128EEEvPj (void ns::fill<128>(unsigned int*))"},
      {"ns::fill", "ns::fill<64>", "ns::fill<128>"},
  };
  for (size_t i = 0; i < sizeof amb / sizeof amb[0]; i++) {
    ll_err e = {0};
    cr_assert_null(emu_codeobj_kernel(co, amb[i].name, &e), "'%s' is ambiguous", amb[i].name);
    cr_assert_eq(e.code, LL_EXIT_USAGE);
    cr_assert(strstr(e.msg, "ambiguous") && strstr(e.msg, amb[i].c1) && strstr(e.msg, amb[i].c2), "%s", e.msg);
  }
  ll_err e = {0};
  cr_assert_null(emu_codeobj_kernel(co, "softmax", &e), "a part of a name is no match");
  cr_assert(strstr(e.msg, "no kernel named 'softmax'") && strstr(e.msg, "axpy(float, float const*, float*, unsigned int)"),
            "%s", e.msg);
  cr_assert_null(emu_codeobj_kernel(co, "", &e));
  char *d = emu_demangle("_Z5scalePff");
  cr_assert(d && !strcmp(d, "scale(float*, float)"), "%s", d);
  free(d);
  cr_assert_null(emu_demangle("affine"));
  cr_assert_null(emu_demangle("_Z5sca"));
  emu_codeobj_free(co);
  free(p);
}

Test(rt_user, run_finds_a_kernel_by_cxx_name) {
  char *co = rt_co(USRC, "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir), *regs = ll_fmt("%s/r.json", dir);
  float x[64];
  for (int i = 0; i < 64; i++) x[i] = (float)i * 0.5f;
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s row_softmax --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg out:4:%s/t.bin "
                      "--arg i32:7 --backend emu --dump-regs %s", co, in, out, dir, regs);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  size_t n;
  float *y = ll_read_file(out, &n, NULL);
  cr_assert(y && n == 256);
  for (int i = 0; i < 64; i++) cr_assert(y[i] == (float)i * 0.5f + 7.0f, "out[%d] = %g", i, y[i]);
  char *j = ll_read_file(regs, &n, NULL);
  cr_assert(j && strstr(j, "\"kernel\": \"_Z11row_softmaxPKfPfS1_i\""), "the dump names the symbol");
  free(j); free(y); free(err); free(args);
  args = ll_fmt("run %s scale --grid 1 --block 64 --arg out:256:%s --arg f32:2", co, out);
  rc = cli("", args, &err);
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "ambiguous") && strstr(err, "scale(float*, float)") && strstr(err, "scale(double*, double)"),
            "%s", err);
  free(err); free(args);
  free(in); free(out); free(regs); free(dir); free(co);
}

/* ---- user kernels: arguments by name (rt_kernarg.c) --------------------------------------------
 * axpy(float a, const float *x, float *y, unsigned n): y[i] = a*x[i] + y[i] for i < n. With small
 * integers and a = 2 every result is exact, so the expectation is the formula. */
static void write_f32(const char *path, const float *v, size_t n) {
  cr_assert(ll_write_file_atomic(path, v, n * 4, NULL), "writing %s", path);
}

static void check_axpy(const char *out, unsigned n) {
  size_t sz;
  float *y = ll_read_file(out, &sz, NULL);
  cr_assert(y && sz == 64 * 4, "%s", out);
  for (unsigned i = 0; i < 64; i++) {
    float want = i < n ? 2.0f * (float)i + (float)(100 + i) : (float)(100 + i);
    cr_assert(y[i] == want, "y[%u] = %g, want %g", i, y[i], want);
  }
  free(y);
}

Test(rt_user, named_args_in_any_order_and_mixed) {
  char *co = rt_co(USRC, "gfx942", "-fhip-kernel-arg-name"), *dir = tmpdir();
  char *x = ll_fmt("%s/x.bin", dir), *y = ll_fmt("%s/y.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  float xv[64], yv[64];
  for (int i = 0; i < 64; i++) xv[i] = (float)i, yv[i] = (float)(100 + i);
  write_f32(x, xv, 64);
  write_f32(y, yv, 64);
  char *err;
  char *args = ll_fmt("run %s axpy --grid 1 --block 64 --arg n=u32:50 --arg y=io:%s:%s --arg a=f32:2 --arg x=in:%s",
                      co, y, o, x);
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  check_axpy(o, 50);
  free(args); free(err);
  unlink(o);
  /* mixed: positional a, x (arguments 0 and 1), then n and y by name */
  args = ll_fmt("run %s axpy --grid 1 --block 64 --arg f32:2 --arg n=u32:33 --arg in:%s --arg y=io:%s:%s", co, x, y, o);
  rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  check_axpy(o, 33);
  free(args); free(err);
  /* errors: exit 2 naming the argument */
  const struct { const char *args, *say; } bad[] = {
      {"--arg a=f32:2 --arg x=in:X --arg y=io:X:O --arg z=u32:1", "no argument named 'z'; its arguments: a, x, y, n"},
      {"--arg f32:2 --arg a=f32:3 --arg x=in:X --arg y=io:X:O", "argument 0 ('a') is already given by --arg 'f32:2'"},
      {"--arg a=f32:2 --arg x=in:X --arg y=io:X:O", "3 given; missing: 3 'n' (by_value, 4 bytes)"},
      {"--arg a=f32:2 --arg x=u32:1 --arg y=io:X:O --arg n=u32:1", "'x': global_buffer"},
      {"--arg f32:2 --arg in:X --arg io:X:O --arg u32:1 --arg u32:2", "takes 4 arguments (a, x, y, n); 5 given"},
      {"--arg n=bogus:1", "--arg 'n=bogus:1'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_buf b = {0};
    for (const char *p = bad[i].args; *p; p++) /* X, O -> the files */
      if (*p == 'X' && (p[1] == ' ' || p[1] == ':' || !p[1]) && p[-1] == ':') ll_buf_puts(&b, x);
      else if (*p == 'O' && (p[1] == ' ' || !p[1]) && p[-1] == ':') ll_buf_puts(&b, o);
      else ll_buf_put(&b, p, 1);
    args = ll_fmt("run %s axpy --grid 1 --block 64 %s", co, ll_buf_str(&b));
    rc = cli("", args, &err);
    cr_assert_eq(rc, 2, "%s: exit %d: %s", bad[i].args, rc, err);
    cr_assert(strstr(err, bad[i].say), "%s: expected '%s' in: %s", bad[i].args, bad[i].say, err);
    free(args); free(err);
    ll_buf_free(&b);
  }
  free(co);
  /* without -fhip-kernel-arg-name the metadata names nothing */
  co = rt_co(USRC, "gfx942", NULL);
  args = ll_fmt("run %s axpy --grid 1 --block 64 --arg a=f32:2", co);
  rc = cli("", args, &err);
  cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "names no arguments") && strstr(err, "-fhip-kernel-arg-name"), "%s", err);
  free(args); free(err);
  free(x); free(y); free(o); free(dir); free(co);
}

Test(rt_argspec, name_prefix_forms) {
  rt_argspec s;
  ll_err e = {0};
  cr_assert(rt_argspec_parse_any("n=u32:5", &s, &e), "%s", e.msg);
  cr_assert(s.name && !strcmp(s.name, "n") && s.kind == RT_SPEC_U32 && s.value.u32 == 5 && !strcmp(s.text, "n=u32:5"));
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse_any("in:a=b.bin", &s, &e), "%s", e.msg); /* '=' after the kind: a file name */
  cr_assert(!s.name && s.kind == RT_SPEC_IN && !strcmp(s.file, "a=b.bin"));
  rt_argspec_free(&s);
  cr_assert(rt_argspec_parse_any("p.in=in:f", &s, &e) && !strcmp(s.name, "p.in") && !strcmp(s.file, "f"));
  rt_argspec_free(&s);
  const char *bad[] = {"=u32:1", "n=", "n=u32", "1n=u32:1", "n=u32:-1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_err e2 = {0};
    cr_assert_not(rt_argspec_parse_any(bad[i], &s, &e2), "'%s' accepted", bad[i]);
    cr_assert(e2.code == LL_EXIT_USAGE && strstr(e2.msg, bad[i]), "%s: %s", bad[i], e2.msg);
  }
}

/* ---- user kernels: raw kernel-argument bytes (--kernarg, --buf) --------------------------------*/
/* P320 { const float *in; float *out; unsigned n; float scale; float bias[74]; }: C's layout rules
 * put in at 0, out at 8, n at 16, scale at 20, bias at 24..320. */
static void p320_bytes(uint8_t b[320], unsigned n, float scale) {
  memset(b, 0xee, 16); /* whatever is at the pointers is replaced by --buf */
  memcpy(b + 16, &n, 4);
  memcpy(b + 20, &scale, 4);
  for (int i = 0; i < 74; i++) {
    float v = (float)(i - 37);
    memcpy(b + 24 + 4 * i, &v, 4);
  }
}

Test(rt_user, kernarg_runs_a_320_byte_struct_kernel) {
  char *co = rt_co(USRC, "gfx950", NULL), *dir = tmpdir();
  /* the metadata: one by_value argument of 320 bytes at offset 0, hidden ones from 320 (readelf) */
  rkern ks[16];
  long vmaj = 0, vmin = 0;
  int nk = readelf_kernels(co, ks, 16, &vmaj, &vmin), which = -1;
  for (int i = 0; i < nk; i++) if (!strcmp(ks[i].name, "_Z9packed3204P320")) which = i;
  cr_assert_geq(which, 0);
  cr_assert(!strcmp(ks[which].args[0].kind, "by_value") && ks[which].args[0].size == 320 && ks[which].args[0].offset == 0);
  cr_assert(!strcmp(ks[which].args[1].kind, "hidden_block_count_x") && ks[which].args[1].offset == 320);
  char *k = ll_fmt("%s/p.bin", dir), *x = ll_fmt("%s/x.bin", dir), *y = ll_fmt("%s/y.bin", dir);
  char *ref = ll_fmt("%s/ref.bin", dir);
  uint8_t p[320];
  p320_bytes(p, 100, 0.5f);
  cr_assert(ll_write_file_atomic(k, p, sizeof p, NULL));
  float xv[128], want[128] = {0};
  for (int i = 0; i < 128; i++) xv[i] = (float)(3 * i);
  for (int i = 0; i < 100; i++) want[i] = xv[i] * 0.5f + (float)(i % 74 - 37); /* exact in f32 */
  write_f32(x, xv, 128);
  write_f32(ref, want, 128);
  char *args = ll_fmt("run %s packed320 --grid 2 --block 64 --kernarg %s --buf in@0:in:%s --buf out@8:out:512:%s",
                      co, k, x, y);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  free(args); free(err);
  /* checked through `lanelab compare`, bit-exact */
  args = ll_fmt("compare %s %s --dtype f32 --atol 0 --rtol 0 >/dev/null", y, ref);
  rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "compare: exit %d: %s", rc, err);
  free(args); free(err);
  size_t n;
  float *got = ll_read_file(y, &n, NULL);
  cr_assert(n == 512 && got[99] == want[99] && got[100] == 0 && want[99] == 297 * 0.5f + (float)(99 % 74 - 37));
  free(got);
  free(k); free(x); free(y); free(ref); free(dir); free(co);
}

Test(rt_user, kernarg_12_and_656_byte_structs) {
  char *co = rt_co(USRC, "gfx942", NULL), *dir = tmpdir();
  char *k = ll_fmt("%s/k.bin", dir), *o = ll_fmt("%s/o.bin", dir), *s = ll_fmt("%s/s.bin", dir);
  /* packed12(unsigned *out, S12 s): out at 0, S12 {float a, b; unsigned c} at 8..20 */
  uint8_t b12[20] = {0};
  float a = 1.25f, bb = -3.0f;
  uint32_t c = 0xdeadbeef;
  memcpy(b12 + 8, &a, 4); memcpy(b12 + 12, &bb, 4); memcpy(b12 + 16, &c, 4);
  cr_assert(ll_write_file_atomic(k, b12, sizeof b12, NULL));
  char *args = ll_fmt("run %s packed12 --grid 1 --block 64 --kernarg %s --buf out@0:out:12:%s", co, k, o);
  char *err;
  int rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  free(args); free(err);
  size_t n;
  uint32_t *r = ll_read_file(o, &n, NULL);
  cr_assert(n == 12 && r[0] == 0x3fa00000u && r[1] == 0xc0400000u && r[2] == 0xdeadbeefu, "%x %x %x", r[0], r[1], r[2]);
  free(r);
  /* packed656(P656 {const unsigned *src; unsigned *dst; int idx[160];}): dst[i] = src[idx[i]] */
  uint8_t b656[656] = {0};
  int idx[160];
  uint32_t src[160];
  for (int i = 0; i < 160; i++) idx[i] = (i * 7 + 3) % 160, src[i] = 1000u + (uint32_t)i;
  memcpy(b656 + 16, idx, sizeof idx);
  cr_assert(ll_write_file_atomic(k, b656, sizeof b656, NULL));
  cr_assert(ll_write_file_atomic(s, src, sizeof src, NULL));
  args = ll_fmt("run %s packed656 --grid 3 --block 64 --kernarg %s --buf dst@8:out:640:%s --buf src@0:in:%s", co, k, o, s);
  rc = cli("", args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  free(args); free(err);
  r = ll_read_file(o, &n, NULL);
  cr_assert(n == 640);
  for (int i = 0; i < 160; i++) cr_assert_eq(r[i], 1000u + (uint32_t)((i * 7 + 3) % 160), "dst[%d]", i);
  free(r);
  free(k); free(o); free(s); free(dir); free(co);
}

Test(rt_user, kernarg_fill_puts_hidden_arguments_after_the_raw_bytes) {
  char *co = rt_co(USRC, "gfx942", NULL);
  emu_codeobj *c = load(co);
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(c, "packed320", &e);
  cr_assert_not_null(k, "%s", e.msg);
  rkern ks[16];
  long vmaj = 0, vmin = 0;
  int nk = readelf_kernels(co, ks, 16, &vmaj, &vmin), w = -1;
  for (int i = 0; i < nk; i++) if (!strcmp(ks[i].name, k->name)) w = i;
  cr_assert_geq(w, 0);
  long bcx = -1, gsx = -1;
  for (int i = 0; i < ks[w].nargs; i++) {
    if (!strcmp(ks[w].args[i].kind, "hidden_block_count_x")) bcx = ks[w].args[i].offset;
    if (!strcmp(ks[w].args[i].kind, "hidden_group_size_x")) gsx = ks[w].args[i].offset;
  }
  cr_assert(bcx >= 320 && gsx >= 320);
  uint8_t raw[320];
  for (int i = 0; i < 320; i++) raw[i] = (uint8_t)(i * 13 + 1);
  size_t size = rt_kernarg_bytes(k);
  cr_assert_eq((long)size, ks[w].kseg);
  uint8_t *buf = ll_xcalloc(size, 1);
  uint32_t grid[3] = {5, 1, 1}, block[3] = {64, 1, 1};
  cr_assert(rt_fill_kernargs_raw(k, raw, 320, grid, block, 0, buf, size, &e), "%s", e.msg);
  cr_assert(memcmp(buf, raw, 320) == 0, "the raw bytes at 0..320");
  cr_assert(buf[bcx] == 5 && buf[bcx + 1] == 0 && buf[gsx] == 64 && buf[gsx + 1] == 0, "hidden block count / group size");
  /* bounds: the explicit arguments end at 320, the first hidden one starts there */
  cr_assert_not(rt_fill_kernargs_raw(k, raw, 319, grid, block, 0, buf, size, &e));
  cr_assert(strstr(e.msg, "end at byte 320"), "%s", e.msg);
  uint8_t big[330] = {0};
  cr_assert_not(rt_fill_kernargs_raw(k, big, 330, grid, block, 0, buf, size, &e));
  cr_assert(strstr(e.msg, "hidden_block_count_x at byte 320"), "%s", e.msg);
  free(buf);
  emu_codeobj_free(c);
  free(co);
}

Test(rt_user, kernarg_and_buf_errors_are_exit_2) {
  char *co = rt_co(USRC, "gfx942", NULL), *dir = tmpdir();
  char *k = ll_fmt("%s/p.bin", dir), *x = ll_fmt("%s/x.bin", dir), *big = ll_fmt("%s/big.bin", dir);
  uint8_t p[320];
  p320_bytes(p, 4, 1.0f);
  cr_assert(ll_write_file_atomic(k, p, sizeof p, NULL));
  uint8_t z[4096] = {0};
  cr_assert(ll_write_file_atomic(x, z, 64, NULL));
  cr_assert(ll_write_file_atomic(big, z, sizeof z, NULL));
  const struct { const char *opts, *say; } bad[] = {
      {"--kernarg K --buf in@0:in:X --buf out@316:out:16:O", "offset 316: an 8-byte address there ends past the 320"},
      {"--kernarg K --buf in@0:in:X --buf out@4:out:16:O", "overlaps the address of 'in' at offset 0"},
      {"--kernarg K --buf in@0:in:X --buf in@8:out:16:O", "buffer name 'in' is used twice"},
      {"--kernarg K --buf in@0,8:in:X --buf out@12:out:16:O", "overlaps the address of 'in' at offset 8"},
      {"--kernarg BIG --buf in@0:in:X", "kernarg segment of kernel '_Z9packed3204P320'"},
      {"--kernarg X --buf in@0:in:X", "64 bytes, but the explicit arguments of kernel '_Z9packed3204P320' end at byte 320"},
      {"--kernarg K --arg in:X", "with --kernarg"},
      {"--buf in@0:in:X", "needs --kernarg"},
      {"--kernarg K --buf in:X", "expected NAME@OFFSET"},
      {"--kernarg K --buf in@:in:X", "expected NAME@OFFSET"},
      {"--kernarg K --buf in@0,,8:in:X", "offsets must be byte offsets"},
      {"--kernarg K --buf in@0:u32:5", "by-value data belongs in the --kernarg bytes"},
      {"--kernarg /nonexistent/k.bin --buf in@0:in:X", "--kernarg: cannot read /nonexistent/k.bin"},
      {"--kernarg K --buf in@0:in:/nonexistent/x", "--buf 'in@0:in:/nonexistent/x'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_buf b = {0};
    for (const char *q = bad[i].opts; *q; q++) {
      bool word = q > bad[i].opts && (q[-1] == ' ' || q[-1] == ':');
      if (word && !strncmp(q, "BIG", 3)) ll_buf_puts(&b, big), q += 2;
      else if (word && *q == 'K' && (q[1] == ' ' || !q[1])) ll_buf_puts(&b, k);
      else if (word && *q == 'X' && (q[1] == ' ' || !q[1])) ll_buf_puts(&b, x);
      else if (word && *q == 'O' && (q[1] == ' ' || !q[1])) ll_buf_printf(&b, "%s/o.bin", dir);
      else ll_buf_put(&b, q, 1);
    }
    char *args = ll_fmt("run %s packed320 --grid 1 --block 64 %s", co, ll_buf_str(&b)), *err;
    int rc = cli("", args, &err);
    cr_assert_eq(rc, 2, "%s: exit %d: %s", bad[i].opts, rc, err);
    cr_assert(strstr(err, bad[i].say), "%s: expected '%s' in: %s", bad[i].opts, bad[i].say, err);
    char *o = ll_fmt("%s/o.bin", dir);
    cr_assert_neq(access(o, F_OK), 0, "%s: output written although nothing ran", bad[i].opts);
    free(o); free(args); free(err);
    ll_buf_free(&b);
  }
  free(k); free(x); free(big); free(dir); free(co);
}

/* The hip backend gets the same raw bytes: the fake runtime logs the kernarg buffer it was given. */
Test(rt_user, kernarg_bytes_reach_the_hip_backend) {
  char *so = fake_hip(), *co = rt_co(USRC, "gfx950", NULL), *dir = tmpdir();
  char *log = ll_fmt("%s/launches.log", dir), *k = ll_fmt("%s/k.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  uint8_t b12[20];
  for (int i = 0; i < 20; i++) b12[i] = (uint8_t)(0xa0 + i);
  cr_assert(ll_write_file_atomic(k, b12, sizeof b12, NULL));
  char *env = ll_fmt("LANELAB_HIP_LIB=%s FAKE_HIP_COUNT=1 FAKE_HIP_ARCH=gfx950 FAKE_HIP_LOG=%s", so, log);
  char *args = ll_fmt("run %s packed12 --grid 3 --block 64 --kernarg %s --buf out@0:out:12:%s --backend hip", co, k, o);
  char *err;
  int rc = cli(env, args, &err);
  cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
  unsigned bytes[512];
  unsigned size = launch_log(log, "_Z8packed12Pj3S12 grid 3 1 1 block 64 1 1 lds 0 size ", bytes, 512);
  cr_assert(size >= 24 && size <= 512, "kernarg size %u", size);
  unsigned any = 0;
  for (int i = 0; i < 8; i++) any |= bytes[i];
  cr_assert_neq(any, 0, "the buffer address was written at offset 0");
  for (int i = 8; i < 20; i++) cr_assert_eq(bytes[i], 0xa0u + i, "struct byte %d", i);
  /* hidden_block_count_x follows at the offset readelf gives */
  rkern ks[16];
  long vmaj = 0, vmin = 0;
  int nk = readelf_kernels(co, ks, 16, &vmaj, &vmin);
  long bcx = -1;
  for (int i = 0; i < nk; i++)
    if (!strcmp(ks[i].name, "_Z8packed12Pj3S12"))
      for (int a = 0; a < ks[i].nargs; a++)
        if (!strcmp(ks[i].args[a].kind, "hidden_block_count_x")) bcx = ks[i].args[a].offset;
  cr_assert(bcx >= 20 && bcx < (long)size && bytes[bcx] == 3, "hidden_block_count_x at %ld", bcx);
  free(err); free(args); free(env); free(log); free(k); free(o); free(dir); free(co); free(so);
}

/* Emulator buffers of 2 MiB and more are 2 MiB-aligned mappings advised for huge pages (rt_emu.c
 * host_alloc, issue #16): they must still behave as calloc'd memory of exactly the size asked for,
 * with the same bounds, at both ends of the size threshold. */
Test(rt_emu_mem, large_buffers_are_zeroed_aligned_and_bounded_like_small_ones) {
  ll_err err = {0};
  rt_device *d = rt_open(RT_EMU, EMU_GFX950, &err);
  cr_assert(d, "%s", err.msg);
  const size_t sizes[] = {(2u << 20) - 1, 2u << 20, (3u << 20) + 5};
  for (int k = 0; k < 3; k++) {
    size_t n = sizes[k];
    uint64_t a = rt_alloc(d, n, "big", &err);
    cr_assert(a, "%zu bytes: %s", n, err.msg);
    uint8_t *h = emu_mem_translate(rt_device_emu_mem(d), a, n);
    cr_assert(h, "%zu bytes: no host memory behind the whole buffer", n);
    if (n >= (2u << 20)) cr_assert_eq((uintptr_t)h & ((2u << 20) - 1), 0, "%zu bytes: host %p not 2 MiB aligned", n, (void *)h);
    for (size_t i = 0; i < n; i += 4093) cr_assert_eq(h[i], 0, "%zu bytes: byte %zu not zero", n, i);
    cr_assert_eq(h[n - 1], 0);
    /* the last byte is the buffer's; one past it is not */
    uint8_t one = 0xa5, back = 0;
    cr_assert(rt_copy_to_device(d, a + n - 1, &one, 1, &err), "%s", err.msg);
    cr_assert(rt_copy_from_device(d, &back, a + n - 1, 1, &err), "%s", err.msg);
    cr_assert_eq(back, 0xa5);
    cr_assert_not(rt_copy_to_device(d, a + n - 1, "xy", 2, &err), "%zu bytes: a copy past the end was accepted", n);
    cr_assert_eq(err.code, LL_EXIT_USAGE);
    err = (ll_err){0};
    cr_assert_null(emu_mem_translate(rt_device_emu_mem(d), a + n, 1));
  }
  rt_close(d);
}
