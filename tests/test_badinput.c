/* Bad input everywhere (issue #7): every subcommand, given truncated or corrupt code objects, a
 * code object of another arch, missing kernels, wrong --arg lists, malformed or oversized specs,
 * unwritable outputs, missing and empty files, and option values that are missing, huge,
 * negative or not numbers, must exit 2 (bad usage or input) with a message naming the problem,
 * and never die of a signal. Expected outcomes are the CLI contract (docs/architecture.md: 2 = bad input,
 * 1 = a check failed, 3 = the environment lacks something) and the names in the input itself
 * (the file, the option, the value). Regression tests for what the audit found carry the name of
 * what broke.
 *
 * Kernels: tests/kernels/fault_mem.hip (for code objects to corrupt and argument lists) and
 * tests/kernels/rt_kernels.hip (by-value arguments of sizes 1, 2 and 8), compiled at run time. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/rt.h"
#include "util/util.h"
#include "tests/llvm_tools.h"
#include "tests/co_cache.h"

#define LANELAB LANELAB_BUILD "/lanelab"
/* the suite's HIP runtime that sees no GPU (Makefile HIPSTUBS): tests never load the host's */
#define HIP_NODEV LANELAB_BUILD "/stubs/nodev/libamdhip64.so"
#define KDIR LANELAB_ROOT "/tests/kernels/"
#define INC "-I" LANELAB_ROOT "/kernels/include"

/* Runs lanelab with `args` in `cwd` (NULL: the repository root); returns the exit status and
 * stderr in *err_out. A signal (crash, abort) fails the test. */
/* Sanitizer builds (make test SAN=1): AddressSanitizer's allocator aborts on a request beyond its
 * maximum instead of returning NULL as glibc does; the huge-buffer regression tests are about the
 * NULL path, so both this process and the lanelab it runs get glibc's behaviour. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static int cli_in(const char *cwd, const char *args, char **err_out) {
  if (access(LANELAB, X_OK) != 0) cr_assert_fail(LANELAB " is missing: build it (make build/lanelab)");
  char errf[] = "/tmp/lanelab-test-badinput-XXXXXX";
  int fd = mkstemp(errf);
  cr_assert_geq(fd, 0);
  close(fd);
  char *cmd = ll_fmt("cd %s && env LANELAB_HIP_LIB=" HIP_NODEV " ASAN_OPTIONS=allocator_may_return_null=1 %s %s >/dev/null 2>%s",
                     cwd ? cwd : LANELAB_ROOT, LANELAB, args, errf);
  int st = system(cmd);
  free(cmd);
  size_t n;
  char *e = ll_read_file(errf, &n, NULL);
  unlink(errf);
  cr_assert_not_null(e);
  cr_assert(WIFEXITED(st), "'lanelab %s' died (status 0x%x, signal %d): %s", args, st,
            WIFSIGNALED(st) ? WTERMSIG(st) : 0, e);
  if (err_out) *err_out = e; else free(e);
  return WEXITSTATUS(st);
}
static int cli(const char *args, char **err_out) { return cli_in(NULL, args, err_out); }

/* exit 2 and every one of the NULL-terminated strings in stderr */
static void vexpect_usage(const char *args, va_list ap) {
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 2, "'lanelab %s': exit %d, want 2: %s", args, rc, err);
  for (const char *w; (w = va_arg(ap, const char *));)
    cr_assert(strstr(err, w), "'lanelab %s': the message does not name \"%s\": %s", args, w, err);
  free(err);
}
static void expect_usage(const char *args, ...) {
  va_list ap;
  va_start(ap, args);
  vexpect_usage(args, ap);
  va_end(ap);
}
/* the same for a malloc'd args string, which it frees */
static void expect_usage_f(char *args, ...) {
  va_list ap;
  va_start(ap, args);
  vexpect_usage(args, ap);
  va_end(ap);
  free(args);
}

/* fault_mem.hip's code object for arch, compiled once per content (tests/co_cache.h) rather than
 * in each of the 15 tests that use it. No test writes to this file: corrupt copies go to each
 * test's own directory. */
static char *mem_co(const char *arch) {
  return coc_compile_src("badinput-co", KDIR "fault_mem.hip", arch, INC, LANELAB_ROOT "/kernels/include");
}

static void put(const char *path, const void *d, size_t n) { cr_assert(ll_write_file_atomic(path, d, n, NULL), "%s", path); }

static uint8_t *slurp(const char *path, size_t *n) {
  uint8_t *d = ll_read_file(path, n, NULL);
  cr_assert_not_null(d, "%s", path);
  return d;
}

/* `lanelab run` of fault_write_oob (out, u32) with a good argument list; writes nothing when the
 * code object is bad. */
static char *run_args(const char *co, const char *dir) {
  return ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s/o.bin --arg u32:0 --backend emu --budget 100000",
                co, dir);
}

/* ---- truncated and corrupt code objects --------------------------------------------------------*/
Test(badinput_codeobj, truncated_everywhere_is_exit_2_naming_the_file, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *good = ll_fmt("%s/good.co", dir), *cut = ll_fmt("%s/cut.co", dir);
  size_t n;
  uint8_t *d = slurp(co, &n);
  put(good, d, n);
  /* empty, inside the ELF header, just past it, and every eighth of the file */
  size_t sizes[16] = {0, 1, 63, 64, 65};
  int ns = 5;
  for (int k = 1; k < 8; k++) sizes[ns++] = n * (size_t)k / 8;
  sizes[ns++] = n - 1;
  for (int i = 0; i < ns; i++) {
    FILE *f = fopen(cut, "wb");
    cr_assert_not_null(f);
    if (sizes[i]) cr_assert_eq(fwrite(d, 1, sizes[i], f), sizes[i]);
    fclose(f);
    char *a[3] = {run_args(cut, dir), ll_fmt("isa census %s", cut), ll_fmt("isa diff %s %s", good, cut)};
    for (int j = 0; j < 3; j++) {
      char *err;
      int rc = cli(a[j], &err);
      cr_assert_eq(rc, 2, "%zu of %zu bytes: 'lanelab %s': exit %d: %s", sizes[i], n, a[j], rc, err);
      cr_assert(strstr(err, "cut.co"), "%zu bytes: the message does not name the file: %s", sizes[i], err);
      free(err);
      free(a[j]);
    }
    char *o = ll_fmt("%s/o.bin", dir);
    cr_assert_neq(access(o, F_OK), 0);
    free(o);
  }
  free(d); free(good); free(cut); free(dir); free(co);
}

/* Header fields corrupted one at a time (ELF-64 layout, System V gABI: e_ident[EI_MAG3] at 3,
 * EI_CLASS at 4, e_machine u16 at 18, e_shoff u64 at 40, e_flags u32 at 48; EF_AMDGPU_MACH is
 * e_flags & 0xff, LLVM AMDGPUUsage "ELF Header"). One loader reads code objects for the emulator
 * and for the census and the diff (issue #29), so all three give the same reason. */
Test(badinput_codeobj, corrupt_headers_are_exit_2_with_the_reason, .timeout = 120) {
  char *co = mem_co("gfx942"), *dir = tmpdir(), *bad = ll_fmt("%s/bad.co", dir);
  size_t n;
  uint8_t *d = slurp(co, &n);
  struct { int off, width; uint64_t val; const char *says; } cases[] = {
      {3, 1, 'G', "not an ELF"},
      {4, 1, 1, "ELFCLASS64"},
      {18, 2, 62, "224"},                    /* EM_X86_64 instead of EM_AMDGPU */
      {48, 1, 0x3f, "0x3f"},                 /* gfx90a: not an arch lanelab runs */
      {48, 1, 0xff, "0xff"},
      {40, 8, (uint64_t)n + 100, "past the end"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint8_t *b = ll_xmalloc(n);
    memcpy(b, d, n);
    for (int k = 0; k < cases[i].width; k++) b[cases[i].off + k] = (uint8_t)(cases[i].val >> 8 * k);
    put(bad, b, n);
    free(b);
    char *a = run_args(bad, dir), *c = ll_fmt("isa census %s", bad), *df = ll_fmt("isa diff %s %s", co, bad);
    expect_usage(a, "bad.co", cases[i].says, NULL);
    expect_usage(c, "bad.co", cases[i].says, NULL);
    expect_usage(df, "bad.co", cases[i].says, NULL);
    free(a); free(c); free(df);
  }
  free(d); free(bad); free(dir); free(co);
}

/* Single bytes changed across the whole file: whatever a byte breaks, lanelab exits 0, 1 or 2 with
 * a "lanelab:" message when not 0 — never a signal, never "environment" (3) for a bad file. */
Test(badinput_codeobj, byte_corruption_sweep_never_crashes, .timeout = 300) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *bad = ll_fmt("%s/sweep.co", dir);
  size_t n;
  uint8_t *d = slurp(co, &n);
  int runs = 0, rejected = 0;
  /* every 97th byte (a prime stride, so the positions fall on every field offset mod 8), set to
   * 0xff or its top bit flipped by turns (both if 0xff is what is there already) */
  for (size_t pos = 0, k = 0; pos < n; pos += 97, k++) {
    uint8_t vals[2] = {(uint8_t)(d[pos] ^ 0x80), 0xff};
    for (int v = 0; v < 2; v++) {
      if (vals[v] == d[pos] || (v != (int)(k & 1) && d[pos] != 0xff)) continue;
      uint8_t old = d[pos];
      d[pos] = vals[v];
      put(bad, d, n);
      d[pos] = old;
      char *a[2] = {run_args(bad, dir), ll_fmt("isa census %s", bad)};
      for (int j = 0; j < 2; j++) {
        char *err;
        int rc = cli(a[j], &err);
        runs++;
        cr_assert(rc == 0 || rc == 1 || rc == 2, "byte %zu = 0x%02x: 'lanelab %s': exit %d: %s", pos, vals[v], a[j], rc, err);
        if (rc) cr_assert(strstr(err, "lanelab"), "byte %zu: exit %d without a message", pos, rc);
        rejected += rc == 2;
        free(err);
        free(a[j]);
      }
    }
  }
  cr_assert_gt(rejected, 0, "%d corrupt runs and not one refused: the sweep is not reaching the headers", runs);
  free(d); free(bad); free(dir); free(co);
}

/* ---- a code object of another arch than requested ----------------------------------------------*/
/* The runtime API: a gfx950 emulator device refuses a gfx942 code object, naming both. */
Test(badinput_arch, emu_device_refuses_a_code_object_of_another_arch, .timeout = 120) {
  char *co = mem_co("gfx942");
  ll_err e = {0};
  rt_device *d = rt_open(RT_EMU, EMU_GFX950, &e);
  cr_assert_not_null(d, "%s", e.msg);
  cr_assert_null(rt_load_file(d, co, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "gfx942 code object") && strstr(e.msg, "gfx950") && strstr(e.msg, co), "%s", e.msg);
  rt_close(d);
  free(co);
}

/* `lanelab run --backend hip` on a gfx942 code object where the only GPU is a gfx950: the
 * environment lacks a device of that arch (exit 3 by the runtime's contract, rt.h), named. The
 * GPU is tests/support/fake_amdhip64.c, since this machine has none. */
Test(badinput_arch, hip_backend_without_a_device_of_the_code_objects_arch, .timeout = 120) {
  char *co = mem_co("gfx942"), *dir = tmpdir(), *so = ll_fmt("%s/libamdhip64.so", dir);
  char *cmd = ll_fmt("gcc -shared -fPIC -O1 -o %s " LANELAB_ROOT "/tests/support/fake_amdhip64.c", so);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  char *args = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s/o.bin --arg u32:0 --backend hip", co, dir);
  char *full = ll_fmt("env LANELAB_HIP_LIB=%s FAKE_HIP_COUNT=1 FAKE_HIP_ARCH=gfx950:sramecc+:xnack- %s %s 2>%s/err",
                      so, LANELAB, args, dir);
  int st = system(full);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status 0x%x", st);
  char *ef = ll_fmt("%s/err", dir);
  size_t n;
  char *err = ll_read_file(ef, &n, NULL);
  cr_assert(err && strstr(err, "gfx942") && strstr(err, "gfx950"), "want both arches named: %s", err);
  char *o = ll_fmt("%s/o.bin", dir);
  cr_assert_neq(access(o, F_OK), 0);
  free(o); free(err); free(ef); free(full); free(args); free(cmd); free(so); free(dir); free(co);
}

/* `lanelab verify --arch gfx950` with a gfx942 code object swapped into the build's gfx950 kernels:
 * the lanes stage fails that kernel naming both arches and the file (exit 1: a check failed),
 * and every other micro-kernel still passes. */
Test(badinput_arch, verify_gfx950_with_a_gfx942_code_object_swapped_in, .timeout = 120) {
  char *dir = tmpdir(), *kd = ll_fmt("%s/gfx950/kernels", dir);
  char *cmd = ll_fmt("mkdir -p %s && cp " LANELAB_BUILD "/gfx950/kernels/lane_*.co %s/ && cp " LANELAB_BUILD
                     "/gfx942/kernels/lane_load_fragment.co %s/lane_load_fragment.co", kd, kd, kd);
  cr_assert_eq(system(cmd), 0, "%s (build the kernels first: make kernels)", cmd);
  char *args = ll_fmt("-q verify --arch gfx950 --backend emu --build %s", dir);
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
  char *p = ll_fmt("%s/results/gfx950/lanes.json", dir);
  ll_err e = {0};
  ll_json *j = ll_json_parse_file(p, &e);
  cr_assert_not_null(j, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(j, "verdict")->str, "FAIL");
  ll_json *rows = ll_json_get(ll_json_get(j, "tables")->items[0], "rows");
  int fails = 0, seen = 0;
  for (size_t i = 0; i < rows->n; i++) {
    const char *k = ll_json_get(rows->items[i], "kernel")->str, *v = ll_json_get(rows->items[i], "verdict")->str;
    fails += !strcmp(v, "FAIL");
    if (strcmp(k, "lane_load_fragment")) continue;
    seen++;
    const char *detail = ll_json_get(rows->items[i], "detail")->str;
    cr_assert(strstr(detail, "lane_load_fragment.co is a gfx942 code object") && strstr(detail, "runs gfx950"),
              "%s", detail);
  }
  cr_assert_eq(seen, 1);
  cr_assert_eq(fails, 1, "only the swapped kernel may fail");
  ll_json_free(j);
  free(p); free(err); free(args); free(cmd); free(kd); free(dir);
}

/* ---- kernels and arguments -----------------------------------------------------------------------*/
Test(badinput_args, missing_kernel_and_wrong_arguments, .timeout = 120) {
  char *co = mem_co("gfx950"), *rt = compile_src(KDIR "rt_kernels.hip", "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  uint32_t z[64] = {0};
  put(in, z, sizeof z);
  struct { char *args; const char *w1, *w2; } c[] = {
      /* kernel names: absent, empty, a prefix of a real one; the message lists those that exist */
      {ll_fmt("run %s nosuch --grid 1 --block 64", co), "nosuch", "fault_write_oob"},
      {ll_fmt("run %s '' --grid 1 --block 64", co), "fault_read_oob", NULL},
      {ll_fmt("run %s fault_write --grid 1 --block 64", co), "fault_write", "fault_lds_beyond"},
      /* number: too few, too many */
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s", co, o), "takes 2 arguments", "1 given"},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u32:0 --arg u32:1", co, o),
       "takes 2 arguments", "3 given"},
      /* type: a scalar for a pointer, a buffer for a scalar, f32/u64 for a 4-byte unsigned */
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg u64:4096 --arg u32:0", co), "pointer", "u64"},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg in:%s", co, o, in), "by-value",
       "argument 1"},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u64:1", co, o), "u64", "4 bytes"},
      /* size: mixed(double x, int *out, long long y, char c, short s) */
      {ll_fmt("run %s mixed --grid 1 --block 64 --arg f32:1 --arg out:256:%s --arg u64:1 --arg i32:1 --arg i32:1", rt, o),
       "f32", "8 bytes"},
      {ll_fmt("run %s mixed --grid 1 --block 64 --arg u64:1 --arg out:256:%s --arg u64:1 --arg u32:256 --arg i32:1", rt, o),
       "256", "1 bytes"},
      {ll_fmt("run %s mixed --grid 1 --block 64 --arg u64:1 --arg out:256:%s --arg u64:1 --arg i32:-129 --arg i32:1", rt, o),
       "-129", "1 bytes"},
      {ll_fmt("run %s mixed --grid 1 --block 64 --arg u64:1 --arg out:256:%s --arg u64:1 --arg i32:1 --arg i32:40000", rt, o),
       "40000", "2 bytes"},
      /* malformed specs and values */
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:-4:%s --arg u32:0", co, o), "out:-4", "positive"},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u32:4294967296", co, o), "4294967296", "32-bit"},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u32:ten", co, o), "'ten'", NULL},
      {ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg ptr:%s --arg u32:0", co, in), "ptr:", "in:FILE"},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    char *err;
    int rc = cli(c[i].args, &err);
    cr_assert_eq(rc, 2, "'%s': exit %d: %s", c[i].args, rc, err);
    cr_assert(strstr(err, c[i].w1) && (!c[i].w2 || strstr(err, c[i].w2)), "'%s': want \"%s\" and \"%s\": %s",
              c[i].args, c[i].w1, c[i].w2 ? c[i].w2 : "", err);
    cr_assert_neq(access(o, F_OK), 0, "'%s' wrote an output", c[i].args);
    free(err);
    free(c[i].args);
  }
  free(in); free(o); free(dir); free(rt); free(co);
}

/* ---- missing and empty files ---------------------------------------------------------------------*/
Test(badinput_files, nonexistent_empty_and_directory_inputs, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *empty = ll_fmt("%s/empty.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  put(empty, "", 0);
  expect_usage_f(ll_fmt("run %s/none.co k --grid 1 --block 64", dir), "none.co", "No such file", NULL);
  expect_usage_f(ll_fmt("run %s k --grid 1 --block 64", empty), "empty.bin", "0 bytes", NULL);
  expect_usage_f(ll_fmt("run %s k --grid 1 --block 64", dir), dir, NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s/none.bin --arg out:4:%s --arg u32:0", co, dir, o),
               "none.bin", NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:4:%s --arg u32:0", co, empty, o),
               "empty.bin is empty", NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:4:%s --arg u32:0", co, dir, o),
               dir, NULL);
  expect_usage_f(ll_fmt("isa census %s/none.co", dir), "none.co", NULL);
  expect_usage_f(ll_fmt("isa census %s", empty), "empty.bin", NULL);
  expect_usage_f(ll_fmt("isa diff %s %s/none.co", co, dir), "none.co", NULL);
  expect_usage_f(ll_fmt("isa budgets --budgets %s/none.json", dir), "none.json", NULL);
  expect_usage_f(ll_fmt("isa budgets --budgets %s", empty), "empty.bin", NULL);
  expect_usage_f(ll_fmt("oracle attention --spec %s/none.json --out %s/out", dir, dir), "none.json", NULL);
  expect_usage_f(ll_fmt("oracle attention --spec %s --out %s/out", empty, dir), "empty.bin", "JSON", NULL);
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out %s/out", empty, dir), "empty.bin", NULL);
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out %s/out", dir, dir), dir, NULL);
  cr_assert_neq(access(o, F_OK), 0);
  free(o); free(empty); free(dir); free(co);
}

/* ---- unwritable outputs --------------------------------------------------------------------------
 * The tests run as root, for whom permission bits do not stop a write: the unwritable places
 * used are /proc (no new files can be made there), a path under a regular file, and a directory
 * given where a file is wanted. */
Test(badinput_outputs, unwritable_output_directories, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *file = ll_fmt("%s/plain", dir);
  put(file, "x", 1);
  char *spec = ll_fmt("%s/c.json", dir);
  const char *js = "{\"T\": 2, \"H\": 2, \"dtype\": \"f16\", \"seed\": 1}";
  put(spec, js, strlen(js));
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out /proc/lanelab-x", spec), "/proc/lanelab-x", NULL);
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out %s", spec, file), "plain", "not a directory", NULL);
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out %s/sub", spec, file), "plain", NULL);
  expect_usage_f(ll_fmt("-q verify --arch gfx950 --build /proc/lanelab-ro"), "/proc/lanelab-ro", NULL);
  expect_usage_f(ll_fmt("-q verify --arch gfx942 --build %s", file), "plain", NULL);
  free(spec); free(file); free(dir); free(co);
}

/* Regression: an unwritable out:/io:/--dump-regs path was found only after the run — with several
 * outputs, the ones before it were already written. It is now refused before the run (no
 * "backend" line: no device was opened) and nothing is written. */
Test(badinput_outputs, run_unwritable_output_fails_before_the_run_writing_nothing, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *in = ll_fmt("%s/in.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  uint32_t z[64] = {0};
  put(in, z, sizeof z);
  const char *bad[] = {"/nonexistent/dir/f", "/proc/lanelab-x/f", "/tmp"};
  const char *why[] = {"No such file", "No such file", "is a directory"};
  for (int i = 0; i < 3; i++) {
    /* fault_read_oob(in, out, skew): the first output is fine, the io: one is not */
    char *a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg io:%s:%s --arg out:256:%s --arg u32:0", co, in, bad[i], o);
    char *err;
    int rc = cli(a, &err);
    cr_assert_eq(rc, 2, "'%s': exit %d: %s", a, rc, err);
    cr_assert(strstr(err, bad[i]) && strstr(err, why[i]), "'%s': %s", a, err);
    cr_assert_null(strstr(err, "backend"), "the device was opened before the output was checked: %s", err);
    cr_assert_neq(access(o, F_OK), 0, "'%s' wrote the other output", a);
    free(err);
    free(a);
    a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0 --dump-regs %s",
               co, in, o, bad[i]);
    rc = cli(a, &err);
    cr_assert_eq(rc, 2, "'%s': exit %d: %s", a, rc, err);
    cr_assert(strstr(err, "--dump-regs") && strstr(err, bad[i]), "%s", err);
    cr_assert_neq(access(o, F_OK), 0, "'%s' wrote out: before failing on --dump-regs", a);
    free(err);
    free(a);
  }
  /* and with good paths the same run writes both (the check does not refuse writable places) */
  char *io = ll_fmt("%s/io.bin", dir);
  char *a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg io:%s:%s --arg out:256:%s --arg u32:0", co, in, io, o);
  cr_assert_eq(cli(a, NULL), 0, "%s", a);
  cr_assert(access(o, F_OK) == 0 && access(io, F_OK) == 0);
  free(a); free(io); free(o); free(in); free(dir); free(co);
}

/* ---- oracle specs: what the existing suites did not cover -----------------------------------*/
/* Regression: a seeded attention spec within the element limit but far beyond this machine's
 * memory (4096 heads x head_dim 65536 x 100 queries = 2^34.6 elements) died of SIGABRT in an
 * allocation; it is now refused up front naming the sizes. */
Test(badinput_oracle, attention_beyond_host_memory_is_exit_2_not_sigabrt, .timeout = 120) {
  char *dir = tmpdir(), *spec = ll_fmt("%s/s.json", dir);
  const char *js = "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 4096, \"num_kv_heads\": 4096, "
                   "\"head_dim\": 65536, \"qo_indptr\": [0, 100], \"kv_indptr\": [0, 1], \"seed\": 1}";
  put(spec, js, strlen(js));
  expect_usage_f(ll_fmt("oracle attention --spec %s --out %s/out", spec, dir), "q/k/v", "GiB", NULL);
  free(spec); free(dir);
}

/* Regression: a seeded concat spec within the element limit but beyond the machine's memory
 * aborted (SIGABRT) in the allocation; now exit 2 naming the memory it needs. */
Test(badinput_oracle, concat_beyond_host_memory_is_exit_2_not_sigabrt, .timeout = 60) {
  char *dir = tmpdir(), *spec = ll_fmt("%s/s.json", dir);
  const char *js = "{\"T\": 29000000, \"H\": 1, \"dtype\": \"f16\", \"seed\": 1}";
  put(spec, js, strlen(js));
  expect_usage_f(ll_fmt("oracle concat-mla-q --spec %s --out %s/out", spec, dir), "T = 29000000", "GiB", NULL);
  free(spec); free(dir);
}

Test(badinput_oracle, malformed_specs_not_covered_elsewhere, .timeout = 60) {
  char *dir = tmpdir(), *spec = ll_fmt("%s/s.json", dir);
  struct { const char *what, *json, *w; } c[] = {
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [0, 1], \"kv_indptr\": [0, 1], \"seed\": -1}", "seed"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [0, 1], \"kv_indptr\": [0, 1], \"seed\": 1, \"threads\": -3}", "threads"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [0, 1], \"kv_indptr\": [0, 1], \"seed\": 1, \"head_dim\": 8}", "head_dim"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, "
                    "\"head_dim\": 99999999999999999999, \"qo_indptr\": [0, 1], \"kv_indptr\": [0, 1], \"seed\": 1}", "head_dim"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [], \"kv_indptr\": [0, 1], \"seed\": 1}", "qo_indptr"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [0, 1.5], \"kv_indptr\": [0, 1], \"seed\": 1}", "qo_indptr"},
      {"attention", "{\"kind\": \"single\", \"dtype\": \"f16\", \"num_qo_heads\": 1, \"num_kv_heads\": 1, \"head_dim\": 4, "
                    "\"qo_indptr\": [0, 1], \"kv_indptr\": [0, 1], \"seed\": 1, \"sm_scale\": \"big\"}", "sm_scale"},
      {"attention", "{\"kind\": \"single\"} trailing", "JSON"},
      {"attention", "\"just a string\"", "object"},
      {"concat-mla-q", "{\"T\": 2, \"H\": 0, \"dtype\": \"f16\", \"seed\": 1}", "H"},
      {"concat-mla-q", "{\"T\": 2, \"H\": 2, \"dtype\": \"f16\"}", "q_nope"},
      {"concat-mla-q", "{\"T\": 2, \"H\": 2, \"dtype\": \"f16\", \"seed\": 1, \"q_nope_strides\": [-512, 512]}", "q_nope_strides"},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    put(spec, c[i].json, strlen(c[i].json));
    char *a = ll_fmt("oracle %s --spec %s --out %s/out", c[i].what, spec, dir);
    char *err;
    int rc = cli(a, &err);
    cr_assert_eq(rc, 2, "case %zu (%s): exit %d: %s", i, c[i].json, rc, err);
    cr_assert(strstr(err, c[i].w), "case %zu: the message does not name '%s': %s", i, c[i].w, err);
    free(err);
    free(a);
  }
  free(spec); free(dir);
}

/* ---- the argument-parsing audit: every option of every subcommand --------------------------------*/
/* An option given as the last word, without its value, is exit 2 naming the option. */
Test(badinput_audit, every_option_without_its_value_is_exit_2, .timeout = 120) {
  const char *c[][2] = {
      {"mfma v_mfma_f32_16x16x16_f16 --arch", "--arch"},   {"mfma v_mfma_f32_16x16x16_f16 --operand", "--operand"},
      {"mfma v_mfma_f32_16x16x16_f16 --format", "--format"}, {"lanes ds_read_b64 --arch", "--arch"},
      {"lanes ds_read_b64 --seed", "--seed"},               {"lanes ds_read_b64 --format", "--format"},
      {"seed --via ds_read_b64 --target", "--target"},      {"seed --target mfma16x16x16_a --via", "--via"},
      {"seed --target mfma16x16x16_a --via ds_read_b64 --swizzle", "--swizzle"},
      {"run a.co k --grid", "--grid"},                      {"run a.co k --grid 1 --block", "--block"},
      {"run a.co k --grid 1 --block 64 --arg", "--arg"},    {"run a.co k --grid 1 --block 64 --backend", "--backend"},
      {"run a.co k --grid 1 --block 64 --dump-regs", "--dump-regs"},
      {"run a.co k --grid 1 --block 64 --lds-bytes", "--lds-bytes"}, {"run a.co k --grid 1 --block 64 --budget", "--budget"},
      {"oracle attention --out d --spec", "--spec"},        {"oracle attention --spec s --out", "--out"},
      {"isa census a.co --format", "--format"},             {"isa probe --arch", "--arch"},
      {"isa budgets --budgets", "--budgets"},               {"isa budgets --build", "--build"},
      {"verify --arch", "--arch"},                          {"verify --arch gfx950 --shard", "--shard"},
      {"verify --arch gfx950 --shapes", "--shapes"},        {"verify --arch gfx950 --base", "--base"},
      {"verify --arch gfx950 --backend", "--backend"},      {"verify --arch gfx950 --build", "--build"},
      {"bench --build", "--build"},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) expect_usage(c[i][0], c[i][1], NULL);
}

/* Numbers: huge, negative, not numbers, zero where a count must be positive. */
Test(badinput_audit, numeric_option_values_huge_negative_and_not_numbers, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir();
  const char *grid[] = {"-1", "0", "x", "4294967296", "99999999999999999999", "1,,1", "1,2,3,4", "", " "};
  for (size_t i = 0; i < sizeof grid / sizeof *grid; i++) {
    char *a = ll_fmt("run %s fault_write_oob --grid '%s' --block 64", co, grid[i]);
    expect_usage(a, "--grid", NULL);
    free(a);
    a = ll_fmt("run %s fault_write_oob --grid 1 --block '%s'", co, grid[i]);
    expect_usage(a, "--block", NULL);
    free(a);
  }
  const char *lds[] = {"-5", "x", "4294967296", "1e3"};
  for (size_t i = 0; i < sizeof lds / sizeof *lds; i++) {
    char *a = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --lds-bytes '%s'", co, lds[i]);
    expect_usage(a, "--lds-bytes", lds[i], NULL);
    free(a);
  }
  /* in range for the parser but beyond the hardware: the runtime names the limit */
  char *a = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s/o --arg u32:0 --lds-bytes 4294967295", co, dir);
  expect_usage(a, "LDS", NULL);
  free(a);
  a = ll_fmt("run %s fault_write_oob --grid 4294967295 --block 64 --arg out:256:%s/o --arg u32:0", co, dir);
  expect_usage(a, "4294967295", NULL);
  free(a);
  a = ll_fmt("run %s fault_write_oob --grid 1 --block 65536 --arg out:256:%s/o --arg u32:0", co, dir);
  expect_usage(a, "max_flat_workgroup_size", NULL);
  free(a);
  const char *shards[] = {"1/99999999999", "1/4294967296", "0/0", "2/2", "-1/2", "a/b", "1/", "/2", "1/2/3", "1"};
  for (size_t i = 0; i < sizeof shards / sizeof *shards; i++) {
    a = ll_fmt("-q verify --arch gfx950 --shard '%s'", shards[i]);
    expect_usage(a, "--shard", shards[i], NULL);
    free(a);
  }
  free(dir); free(co);
}

/* Regression: `--arg out:N:FILE` with an N the host cannot allocate died of SIGABRT (ll_xcalloc's
 * out-of-memory abort, in cmd_run and again in the emulator's rt_emu_alloc). Sizes past 4 GiB
 * (LL_CAP_DATA, the most a kernel buffer may have) are now refused before any allocation. */
Test(badinput_audit, run_out_size_beyond_host_memory_is_exit_2_not_sigabrt, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir();
  const char *sizes[] = {"99999999999999999", "1099511627776", "18446744073709551615"};
  for (size_t i = 0; i < 3; i++) {
    char *a = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:%s:%s/o --arg u32:0", co, sizes[i], dir);
    expect_usage(a, sizes[i], "more than the 4294967296 a kernel buffer may have", NULL);
    free(a);
  }
  /* the runtime's own allocation, directly: an error naming the buffer, not an abort */
  ll_err e = {0};
  rt_device *d = rt_open(RT_EMU, EMU_GFX950, &e);
  cr_assert_not_null(d);
  cr_assert_eq(rt_alloc(d, (size_t)1 << 50, "huge", &e), 0);
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "huge"), "%s", e.msg);
  rt_close(d);
  free(dir); free(co);
}

/* Regression: a budget of 0 would silently mean the emulator's default; it is refused, as are
 * non-numbers, and a budget with the hip backend (the budget is the emulator's). */
Test(badinput_audit, run_budget_values, .timeout = 120) {
  char *co = mem_co("gfx950");
  const char *bad[] = {"0", "-1", "x", "", "18446744073709551616"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *a = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --budget '%s'", co, bad[i]);
    expect_usage(a, "--budget", NULL);
    free(a);
  }
  char *a = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:4:/tmp/x --arg u32:0 --budget 5 --backend hip", co);
  expect_usage(a, "--budget", "emulator", NULL);
  free(a);
  free(co);
}

/* Unknown options, commands and subcommands everywhere. */
Test(badinput_audit, unknown_words_are_exit_2_naming_them, .timeout = 60) {
  const char *c[][2] = {
      {"--frobnicate", "--frobnicate"}, {"frobnicate", "frobnicate"}, {"mfma v_mfma_f32_16x16x16_f16 --frob", "--frob"},
      {"lanes ds_read_b64 --frob", "--frob"}, {"seed --frob x", "--frob"}, {"run a.co k --frob", "--frob"},
      {"oracle attention --frob x", "--frob"}, {"oracle softmax --spec a --out b", "softmax"},
      {"isa frob", "frob"}, {"isa census a.co --frob x", "--frob"}, {"verify --arch gfx950 --frob", "--frob"},
      {"verify --arch gfx999", "gfx999"}, {"bench frob", "frob"}, {"mfma v_mfma_f32_16x16x16_f16 --arch gfx999", "gfx999"},
      {"bench seed --arch gfx9", "gfx9"},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) expect_usage(c[i][0], c[i][1], NULL);
}

/* Regression: a trailing --spec or --out was reported as "unexpected argument '--spec'", which
 * reads as if the option did not exist. */
Test(badinput_audit, oracle_trailing_spec_or_out_says_it_needs_a_value, .timeout = 60) {
  expect_usage("oracle attention --out d --spec", "--spec needs a value", NULL);
  expect_usage("oracle concat-mla-q --spec s.json --out", "--out needs a value", NULL);
}

/* Regression: verify reported a missing option value as "unknown or incomplete option". */
Test(badinput_audit, verify_missing_value_says_it_needs_a_value, .timeout = 60) {
  const char *opts[] = {"--arch", "--base", "--shapes", "--shard", "--backend", "--build"};
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
    char *a = ll_fmt("verify %s%s", i ? "--arch gfx950 " : "", opts[i]);
    char *w = ll_fmt("%s needs a value", opts[i]);
    expect_usage(a, w, NULL);
    free(w);
    free(a);
  }
}

/* ---- issue #12: inputs that never end, outputs that are not ours ------------------------------
 * `--arg in:/dev/zero` read until the process was killed for memory, and `out:N:/dev/null` as
 * root replaced /dev/null with a regular file. fault_read_oob(in, out, skew=0) copies 64 dwords
 * in -> out, so the output's bytes are the input's first 256 bytes. Device nodes are private ones
 * (mknod: we are root), never the system's. */
#include <fcntl.h>
#include <sys/sysmacros.h>

static void rm_rf(const char *d) {
  char *c = ll_fmt("rm -rf %s", d);
  cr_assert_eq(system(c), 0);
  free(c);
}

Test(badinput_issue12, unbounded_inputs_are_refused_unless_their_size_is_stated, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *o = ll_fmt("%s/o.bin", dir), *fifo = ll_fmt("%s/fifo", dir),
       *zero = ll_fmt("%s/zero", dir), *big = ll_fmt("%s/big", dir);
  cr_assert_eq(mknod(zero, S_IFCHR | 0666, makedev(1, 5)), 0); /* 1,5 = /dev/zero (admin-guide/devices.txt) */
  cr_assert_eq(mkfifo(fifo, 0666), 0);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0", co, zero, o),
                 "not a regular file", "in:", ":BYTES", NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0", co, fifo, o),
                 "not a regular file", NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg io:%s:%s --arg out:256:%s --arg u32:0", co, zero,
                        o, o), "not a regular file", NULL);
  /* a regular file larger than a kernel buffer may be: refused from its size (sparse: no disk) */
  int fd = open(big, O_CREAT | O_WRONLY, 0644);
  cr_assert(fd >= 0 && ftruncate(fd, ((off_t)4 << 30) + 1) == 0);
  close(fd);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0", co, big, o),
                 "big", "4294967297 bytes, more than", NULL);
  expect_usage_f(ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s:0 --arg out:256:%s --arg u32:0", co, zero, o),
                 "BYTES must be a positive", NULL);
  cr_assert_neq(access(o, F_OK), 0, "a refused run wrote its output");
  /* stated: exactly 256 bytes of the zero device */
  char *a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s:256 --arg out:256:%s --arg u32:0", co, zero, o);
  char *err;
  cr_assert_eq(cli(a, &err), 0, "'%s': %s", a, err);
  size_t n;
  uint8_t *got = slurp(o, &n);
  cr_assert_eq(n, 256);
  for (int i = 0; i < 256; i++) cr_assert_eq(got[i], 0, "byte %d", i);
  free(got); free(a); free(err);
  /* stated, from a FIFO whose writer sends 300 bytes: the first 256 arrive in order */
  char *w = ll_fmt("(for i in $(seq 0 299); do printf \"\\\\$(printf %%03o $((i %% 256)))\"; done > %s) &", fifo);
  cr_assert_eq(system(w), 0);
  a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s:256 --arg out:256:%s --arg u32:0", co, fifo, o);
  cr_assert_eq(cli(a, &err), 0, "'%s': %s", a, err);
  got = slurp(o, &n);
  cr_assert_eq(n, 256);
  for (int i = 0; i < 256; i++) cr_assert_eq(got[i], i, "byte %d is %d", i, got[i]);
  free(got); free(a); free(err); free(w);
  rm_rf(dir);
  free(o); free(fifo); free(zero); free(big); free(dir); free(co);
}

Test(badinput_issue12, outputs_that_are_not_regular_files_are_refused_before_the_run, .timeout = 120) {
  char *co = mem_co("gfx950"), *dir = tmpdir(), *in = ll_fmt("%s/in.bin", dir), *null = ll_fmt("%s/null", dir),
       *fifo = ll_fmt("%s/fifo", dir), *ro = ll_fmt("%s/ro.bin", dir), *o = ll_fmt("%s/o.bin", dir);
  uint32_t pat[64];
  for (int i = 0; i < 64; i++) pat[i] = 0x1000u + (uint32_t)i;
  put(in, pat, sizeof pat);
  cr_assert_eq(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
  cr_assert_eq(mkfifo(fifo, 0666), 0);
  put(ro, "OLD", 3);
  chmod(ro, 0444);
  const char *targets[] = {null, fifo, ro};
  const char *why[] = {"a character device", "a FIFO", "read-only"};
  for (int i = 0; i < 3; i++) {
    char *a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0", co, in, targets[i]);
    char *err;
    int rc = cli(a, &err);
    cr_expect_eq(rc, 2, "'%s': exit %d: %s", a, rc, err);
    cr_expect(strstr(err, why[i]) && strstr(err, targets[i]), "'%s': %s", a, err);
    cr_expect_null(strstr(err, "backend"), "the device was opened before the output was refused: %s", err);
    free(err); free(a);
    a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0 --dump-regs %s", co, in,
               o, targets[i]);
    rc = cli(a, &err);
    cr_expect_eq(rc, 2, "'%s': exit %d: %s", a, rc, err);
    cr_expect_neq(access(o, F_OK), 0, "'%s' wrote out: before refusing --dump-regs", a);
    free(err); free(a);
  }
  struct stat st;
  cr_expect(lstat(null, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3), "the device node was replaced");
  cr_expect(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
  size_t n;
  uint8_t *old = slurp(ro, &n);
  cr_expect(n == 3 && memcmp(old, "OLD", 3) == 0, "the read-only file changed");
  free(old);
  /* a symlink in the same directory is written through: the link stays, the target gets the data */
  char *ln = ll_fmt("%s/link.bin", dir), *tgt = ll_fmt("%s/target.bin", dir);
  cr_assert_eq(symlink("target.bin", ln), 0);
  char *a = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:0", co, in, ln);
  char *err;
  cr_assert_eq(cli(a, &err), 0, "'%s': %s", a, err);
  cr_expect(lstat(ln, &st) == 0 && S_ISLNK(st.st_mode), "the symlink was replaced");
  uint8_t *got = slurp(tgt, &n);
  cr_assert_eq(n, sizeof pat);
  cr_expect(memcmp(got, pat, sizeof pat) == 0);
  free(got); free(a); free(err);
  rm_rf(dir);
  free(ln); free(tgt); free(co); free(dir); free(in); free(null); free(fifo); free(ro); free(o);
}

/* The report swap replaces BUILD/reports/<arch> whole; something else found there (a FIFO, or a
 * symlink to another directory) is refused and left alone rather than moved aside and deleted. */
#include "reports/report.h"
Test(badinput_issue12, report_swap_never_replaces_what_is_not_a_report_directory, .timeout = 60) {
  char *b = tmpdir(), *res = ll_fmt("%s/results/gfx950", b), *rep = ll_fmt("%s/reports", b);
  cr_assert(ll_mkdir_p(res, NULL) && ll_mkdir_p(rep, NULL));
  char *fin = ll_fmt("%s/gfx950", rep), *elsewhere = tmpdir(), *keep = ll_fmt("%s/keep.txt", elsewhere);
  put(keep, "KEEP", 4);
  cr_assert_eq(mkfifo(fin, 0666), 0);
  ll_err e = {0};
  cr_expect(!report_write_arch(b, "gfx950", &e), "a FIFO in place of the report was replaced");
  cr_expect_eq(e.code, LL_EXIT_USAGE, "%s", e.msg);
  struct stat st;
  cr_expect(lstat(fin, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was moved or removed");
  unlink(fin);
  cr_assert_eq(symlink(elsewhere, fin), 0);
  cr_expect(!report_write_arch(b, "gfx950", &e), "a symlink in place of the report was replaced");
  cr_expect(lstat(fin, &st) == 0 && S_ISLNK(st.st_mode), "the symlink was moved or removed");
  cr_expect_eq(access(keep, F_OK), 0, "the symlinked directory's content was deleted");
  rm_rf(b);
  rm_rf(elsewhere);
  free(keep); free(elsewhere); free(fin); free(rep); free(res); free(b);
}
