/* tests/test_hip_programs — HIP programs on lanelab: the corpus (tests/programs/NAME.hip, whole
 * programs with their own main that check their own results, built by `lanelab hipcc` into
 * BUILD/programs/ by the Makefile) run on both emulated arches; what `lanelab exec` makes of
 * programs that go wrong (faults, races, uninitialized reads), with file:line from the DWARF line
 * table; `lanelab hipcc`'s refusals; occupancy against LLVM's own resource report; and
 * docs/hip-runtime.md's API table against the header and the library. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <string.h>
#include <unistd.h>

#include "tests/shell.h"

#define LANELAB LANELAB_BUILD "/lanelab"
#define PROGS LANELAB_BUILD "/programs"
#define SRC LANELAB_ROOT "/tests/programs"
static const char *arches[] = {"gfx942", "gfx950"};

static int run_prog(const char *name, const char *arch, const char *args, char **out) {
  char *cmd = ll_fmt("env LANELAB_ARCH=%s %s/%s %s", arch, PROGS, name, args ? args : "");
  int rc = sh_run(cmd, out);
  free(cmd);
  return rc;
}

static int exec_prog(const char *opts, const char *name, const char *args, char **out) {
  char *cmd = ll_fmt("%s exec %s -- %s/%s %s", LANELAB, opts, PROGS, name, args ? args : "");
  int rc = sh_run(cmd, out);
  free(cmd);
  return rc;
}

static void passes_on_both_arches(const char *name, const char *args, const char *want) {
  for (size_t i = 0; i < 2; i++) {
    char *out;
    int rc = run_prog(name, arches[i], args, &out);
    cr_expect_eq(rc, 0, "%s on %s: exit %d:\n%s", name, arches[i], rc, out);
    cr_expect(strstr(out, want), "%s on %s: no '%s' in its output:\n%s", name, arches[i], want, out);
    free(out);
  }
}

/* "NAME.hip:LINE" of the line of tests/programs/NAME.hip holding marker (an independent source
 * for the line a finding must name: the source text itself). */
static char *marker_line(const char *name, const char *marker) {
  char *path = ll_fmt("%s/%s.hip", SRC, name);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "open %s", path);
  char line[1024];
  int n = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    n++;
    if (strstr(line, marker) && strstr(line, "//") < strstr(line, marker)) {
      found = n;
      break;
    }
  }
  fclose(f);
  free(path);
  cr_assert(found, "no line marked %s in %s.hip", marker, name);
  return ll_fmt("%s.hip:%d", name, found);
}

/* ---- the corpus: each program checks its own results ----------------------------------------*/
Test(programs, vector_add, .timeout = 120) { passes_on_both_arches("vector_add", NULL, "vector_add: 1000 elements ok"); }
Test(programs, dynamic_shared, .timeout = 120) { passes_on_both_arches("dynamic_shared", NULL, "dynamic_shared: ok"); }
Test(programs, constant_memory, .timeout = 120) { passes_on_both_arches("constant_memory", NULL, "constant_memory: ok"); }
Test(programs, reduction_streams, .timeout = 120) { passes_on_both_arches("reduction_streams", NULL, "reduction_streams: sum"); }
Test(programs, async_events, .timeout = 120) { passes_on_both_arches("async_events", NULL, "async_events: ok"); }
Test(programs, template_ggl, .timeout = 120) { passes_on_both_arches("template_ggl", NULL, "template_ggl: ok"); }
Test(programs, gemm_softmax, .timeout = 120) { passes_on_both_arches("gemm_softmax", NULL, "gemm_softmax: 40x72 ok"); }
Test(programs, module_load, .timeout = 120) {
  passes_on_both_arches("module_load", PROGS "/modules " PROGS "/modules/module_kernels.bundle", "module_load: ok");
}

/* The tile follows the LDS the device reports: the largest power of two t with two t*t float
 * tiles in 64 KiB (gfx942) and 160 KiB (gfx950), AMD's published LDS sizes: 64 and 128. */
Test(programs, tile_size_follows_the_device_properties, .timeout = 120) {
  const int lds[2] = {64 << 10, 160 << 10};
  for (size_t i = 0; i < 2; i++) {
    int tile = 1;
    while ((2 * tile) * (2 * tile) * 4 * 2 <= lds[i]) tile *= 2;
    char *want = ll_fmt("%d bytes of shared memory per block: tile %d", lds[i], tile), *out;
    int rc = run_prog("device_props_tile", arches[i], NULL, &out);
    cr_expect_eq(rc, 0, "%s: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, want), "%s: no '%s':\n%s", arches[i], want, out);
    free(want), free(out);
  }
}

/* Device memory faults on the host; host memory faults on the device until registered. */
Test(programs, device_memory_is_not_host_memory, .timeout = 120) {
  for (size_t i = 0; i < 2; i++) {
    char *out;
    int rc = run_prog("host_device_memory", arches[i], NULL, &out);
    cr_expect_eq(rc, 0, "%s: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "host_device_memory: ok"), "%s:\n%s", arches[i], out);
    cr_expect(strstr(out, "outside every registered buffer"), "%s: the kernel's fault names the unregistered address:\n%s",
              arches[i], out);
    free(out);
  }
}

/* Device printf: the text C's printf makes of the same format and values (computed here, on the
 * host), in lane order after the launch; a buffer too small loses records loudly. */
Test(programs, device_printf_prints_what_printf_would, .timeout = 120) {
  for (size_t i = 0; i < 2; i++) {
    char *out;
    int rc = run_prog("device_printf", arches[i], NULL, &out);
    cr_expect_eq(rc, 0, "%s: exit %d:\n%s", arches[i], rc, out);
    ll_buf want = {0};
    for (int t = 0; t < 2; t++)
      ll_buf_printf(&want, "lane %d of %u: %s %c %ld %lld %u %x %.3f %e %5d|%-4d|%% %s\n", t, 64u, t ? "second" : "first",
                    'A' + t, -1234567890123L, (long long)-7, 4000000000u, 0xbeefu, (double)(3.14159f * (t + 1)), 1.5e-3,
                    t * 11, t, "done");
    ll_buf_puts(&want, "device_printf: after the kernel\n");
    cr_expect(strstr(out, ll_buf_str(&want)), "%s: the printed text differs; want\n%s\ngot\n%s", arches[i], want.data, out);
    cr_expect(strstr(out, "did not fit in the 256-byte buffer"), "%s: lost records are reported:\n%s", arches[i], out);
    cr_expect(strstr(out, "records fitted"), "%s:\n%s", arches[i], out);
    ll_buf_free(&want);
    free(out);
  }
}

/* ---- faults, races, uninitialized reads: what the program and lanelab exec see -----------------*/
Test(programs, a_faulting_kernel_gives_hip_error_with_file_line, .timeout = 120) {
  char *at = marker_line("faulting_kernel", "BUG");
  for (size_t i = 0; i < 2; i++) {
    char *out;
    int rc = run_prog("faulting_kernel", arches[i], NULL, &out);
    cr_expect_eq(rc, 0, "%s: the program checks it got hipErrorIllegalAddress: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "sync: hipErrorIllegalAddress"), "%s:\n%s", arches[i], out);
    cr_expect(strstr(out, "out-of-bounds global access") && strstr(out, at) && strstr(out, "off_by_one(int*, int)"),
              "%s: lanelab's report names the fault, the kernel and %s:\n%s", arches[i], at, out);
    free(out);
    char *opt = ll_fmt("--arch %s", arches[i]);
    rc = exec_prog(opt, "faulting_kernel", NULL, &out);
    cr_expect_eq(rc, 1, "%s: exec fails a program whose kernel faulted: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "faults 1"), "%s:\n%s", arches[i], out);
    free(out), free(opt);
  }
  free(at);
}

Test(programs, racecheck_names_the_racing_lines, .timeout = 120) {
  char *w = marker_line("racy_shared", "RACE-WRITE"), *r = marker_line("racy_shared", "RACE-READ");
  for (size_t i = 0; i < 2; i++) {
    char *out, *opt = ll_fmt("--arch %s", arches[i]);
    int rc = exec_prog(opt, "racy_shared", NULL, &out);
    cr_expect_eq(rc, 0, "%s: without --racecheck nothing is found: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "racecheck not run"), "%s:\n%s", arches[i], out);
    free(out), free(opt);
    opt = ll_fmt("--arch %s --racecheck", arches[i]);
    rc = exec_prog(opt, "racy_shared", NULL, &out);
    cr_expect_eq(rc, 1, "%s: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "RAW hazard on LDS"), "%s:\n%s", arches[i], out);
    cr_expect(strstr(out, w) && strstr(out, r), "%s: the hazard names %s and %s:\n%s", arches[i], w, r, out);
    cr_expect(strstr(out, "racy_shared: sums ok"), "%s: the program's output is its own:\n%s", arches[i], out);
    free(out), free(opt);
  }
  free(w), free(r);
}

Test(programs, initcheck_names_the_uninitialized_read, .timeout = 120) {
  char *at = marker_line("uninit_read", "UNINIT-READ");
  for (size_t i = 0; i < 2; i++) {
    char *out, *opt = ll_fmt("--arch %s --initcheck", arches[i]);
    int rc = exec_prog(opt, "uninit_read", NULL, &out);
    cr_expect_eq(rc, 1, "%s: exit %d:\n%s", arches[i], rc, out);
    /* the second half of the 1024-byte output was never written: 512 bytes */
    cr_expect(strstr(out, "UNINIT global") && strstr(out, at) && strstr(out, "(512 bytes)"),
              "%s: initcheck names %s and the 512 unwritten bytes:\n%s", arches[i], at, out);
    free(out), free(opt);
  }
  /* a correct program is clean under every check */
  char *out;
  int rc = exec_prog("--arch gfx942 --racecheck=global --initcheck", "gemm_softmax", NULL, &out);
  cr_expect_eq(rc, 0, "gemm_softmax under every check: exit %d:\n%s", rc, out);
  cr_expect(strstr(out, "racecheck 0; initcheck 0"), "%s", out);
  free(out);
}

/* ---- lanelab exec itself -------------------------------------------------------------------------*/
Test(exec, exit_status_and_bad_usage, .timeout = 120) {
  const struct {
    const char *cmd;
    int rc;
    const char *want;
  } cases[] = {
      {LANELAB " exec -- " PROGS "/vector_add", 0, "racecheck not run"},
      {LANELAB " exec -- " PROGS "/vector_add exit3", 1, "exit 3"},
      {LANELAB " exec --arch gfx90a -- " PROGS "/vector_add", 2, "gfx90a"},
      {LANELAB " exec --schedule sometimes -- " PROGS "/vector_add", 2, "sometimes"},
      {LANELAB " exec --racecheck=lots -- " PROGS "/vector_add", 2, "--racecheck=lots"},
      {LANELAB " exec --trace 'pc=zz' -- " PROGS "/vector_add", 2, "--trace"},
      {LANELAB " exec --bogus -- " PROGS "/vector_add", 2, "--bogus"},
      {LANELAB " exec --initcheck", 2, "no program"},
      {LANELAB " exec -- /nonexistent/prog", 2, "cannot run /nonexistent/prog"},
      {LANELAB " exec -- /bin/true", 2, "never reached lanelab's HIP runtime"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out;
    int rc = sh_run(cases[i].cmd, &out);
    cr_expect_eq(rc, cases[i].rc, "'%s': exit %d, want %d:\n%s", cases[i].cmd, rc, cases[i].rc, out);
    cr_expect(strstr(out, cases[i].want), "'%s': no '%s':\n%s", cases[i].cmd, cases[i].want, out);
    free(out);
  }
}

/* --trace writes one trace per launch into --report DIR, with file:line on each record. */
Test(exec, trace_pages_name_file_line, .timeout = 120) {
  char *dir = sh_tmpdir("hip-exec"), *out;
  char *cmd = ll_fmt("%s exec --arch gfx950 --trace 'global_store*' --report %s/rep -- %s/vector_add", LANELAB, dir, PROGS);
  int rc = sh_run(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d:\n%s", rc, out);
  free(out);
  char *tj = ll_fmt("%s/rep/launch-1/trace.json", dir);
  size_t n;
  ll_err e = {0};
  char *t = ll_read_file(tj, &n, &e);
  cr_assert_not_null(t, "%s", e.msg);
  cr_expect(strstr(t, "\"src\": \"") && strstr(t, "vector_add.hip:"), "trace records name vector_add.hip:LINE");
  char *sj = ll_fmt("%s/rep/exec-summary.json", dir);
  cr_expect(access(sj, F_OK) == 0, "the summary is kept in the report folder");
  free(t), free(tj), free(sj), free(cmd);
  sh_run(ll_fmt("rm -rf %s", dir), NULL);
  free(dir);
}

/* ---- file:line for lanelab run too (not only exec) ----------------------------------------------*/
Test(srcline, run_names_file_line_of_a_fault, .timeout = 120) {
  char *dir = sh_tmpdir("hip-srcline"), *out;
  char *src = ll_fmt("%s/k.hip", dir);
  const char *text = "#include <hip/hip_runtime.h>\n"
                     "extern \"C\" __global__ void k(int *p) {\n"
                     "  p[threadIdx.x + 100000] = 1; // line 3\n"
                     "}\n";
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(src, text, strlen(text), &e), "%s", e.msg);
  for (size_t i = 0; i < 2; i++) {
    char *cmd = ll_fmt("%s -q cc %s --arch %s -o %s/k.co -- -g && %s -q run %s/k.co k --grid 1 --block 64 "
                       "--arg out:256:%s/o.bin --backend emu", LANELAB, src, arches[i], dir, LANELAB, dir, dir);
    int rc = sh_run(cmd, &out);
    cr_expect_eq(rc, 1, "%s: the kernel faults: exit %d:\n%s", arches[i], rc, out);
    cr_expect(strstr(out, "k.hip:3"), "%s: lanelab run names k.hip:3:\n%s", arches[i], out);
    free(out), free(cmd);
  }
  sh_run(ll_fmt("rm -rf %s", dir), NULL);
  free(src), free(dir);
}

/* ---- occupancy: LLVM's own report for the same code is the independent figure ------------------
 * clang's kernel-resource-usage remark gives each kernel's waves per SIMD (its VGPR, AGPR and SGPR
 * allocation against the SIMD's registers and wave slots). Blocks per CU then follow from the
 * block's waves W: floor(4 SIMDs x waves / W), at most 40 one-wave blocks or min(40 / W, 16)
 * (LLVM getMaxWorkGroupsPerCU). */
static int llvm_waves(const char *arch, const char *kernel) {
  char *cmd = ll_fmt("/usr/lib/llvm-22/bin/clang++ -x hip --offload-arch=%s -nogpuinc -nogpulib -mprintf-kind=buffered "
                     "-I%s/hip/include --cuda-device-only -O3 -Rpass-analysis=kernel-resource-usage -c %s/occupancy.hip "
                     "-o /dev/null", arch, LANELAB_ROOT, SRC);
  char *out;
  int rc = sh_run(cmd, &out);
  cr_assert_eq(rc, 0, "%s:\n%s", cmd, out);
  char *fn = strstr(out, kernel);
  cr_assert_not_null(fn, "no remark for %s:\n%s", kernel, out);
  char *occ = strstr(fn, "Occupancy [waves/SIMD]: ");
  cr_assert_not_null(occ, "no occupancy remark for %s", kernel);
  int waves = atoi(occ + strlen("Occupancy [waves/SIMD]: "));
  free(out), free(cmd);
  return waves;
}

Test(programs, occupancy_matches_llvm, .timeout = 180) {
  for (size_t i = 0; i < 2; i++) {
    int waves[2] = {llvm_waves(arches[i], "_Z5lightPf"), llvm_waves(arches[i], "_Z5heavyPKDv4_fPS_i")};
    cr_assert(waves[1] < waves[0], "%s: the heavy kernel must hold fewer waves (%d vs %d) for the test to mean "
              "anything", arches[i], waves[1], waves[0]);
    char *out;
    int rc = run_prog("occupancy", arches[i], NULL, &out);
    cr_assert_eq(rc, 0, "%s: exit %d:\n%s", arches[i], rc, out);
    const char *names[2] = {"light", "heavy"};
    int checked = 0;
    for (char *l = strstr(out, "occupancy "); l; l = strstr(l + 1, "occupancy ")) {
      char name[16];
      int block, got;
      if (sscanf(l, "occupancy %15s %d %d", name, &block, &got) != 3) continue;
      int k = !strcmp(name, "heavy"), w = (block + 63) / 64;
      int want = 4 * waves[k] / w, cap = w == 1 ? 40 : (40 / w < 16 ? 40 / w : 16);
      if (want > cap) want = cap;
      cr_expect_eq(got, want, "%s: %s with blocks of %d: %d per CU, want %d (LLVM: %d waves per SIMD)", arches[i],
                   names[k], block, got, want, waves[k]);
      checked++;
    }
    cr_expect_eq(checked, 8, "%s: 8 occupancy lines:\n%s", arches[i], out);
    free(out);
  }
}

/* ---- lanelab hipcc -----------------------------------------------------------------------------*/
Test(hipcc, bad_input_is_exit_2_naming_it, .timeout = 120) {
  char *dir = sh_tmpdir("hip-hipcc");
  char *bad = ll_fmt("%s/bad.hip", dir);
  const char *text = "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = undeclared_thing; }\nint main() {}\n";
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(bad, text, strlen(text), &e), "%s", e.msg);
  const struct {
    const char *args, *want;
  } cases[] = {
      {"", "no source"},
      {"%s/missing.hip -o x", "missing.hip"},
      {"%s/notes.txt -o x", "unknown kind of input"},
      {"%s/bad.hip --offload-arch=gfx90a -o x", "gfx90a"},
      {"%s/bad.hip -fgpu-rdc -o x", "-fgpu-rdc"},
      {"%s/bad.hip -o %s/x", "undeclared_thing"},
  };
  sh_run(ll_fmt("touch %s/notes.txt", dir), NULL);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *args = ll_fmt(cases[i].args, dir, dir), *cmd = ll_fmt("%s hipcc %s", LANELAB, args), *out;
    int rc = sh_run(cmd, &out);
    cr_expect_eq(rc, 2, "'%s': exit %d:\n%s", cmd, rc, out);
    cr_expect(strstr(out, cases[i].want), "'%s': no '%s':\n%s", cmd, cases[i].want, out);
    free(args), free(cmd), free(out);
  }
  sh_run(ll_fmt("rm -rf %s", dir), NULL);
  free(bad), free(dir);
}

/* What clang's HIP wrapper and HIP's hip_runtime.h provide before and around the program's own
 * includes (hip/lanelab_hip_prelude.h): <algorithm> and <new> before <hip/hip_runtime.h>, and
 * std::fabs, memset, printf reached through <hip/hip_runtime.h> alone, as ROCm programs use them. */
Test(hipcc, programs_compile_as_with_rocm, .timeout = 180) {
  char *dir = sh_tmpdir("hip-prelude"), *out;
  char *src = ll_fmt("%s/p.hip", dir);
  const char *text = "#include <algorithm>\n#include <new>\n#include <vector>\n#include <hip/hip_runtime.h>\n"
                     "__global__ void k(float *p) { p[threadIdx.x] = fabsf(p[threadIdx.x]); }\n"
                     "int main() {\n  float h[64]; memset(h, 0, sizeof h); h[3] = -2.5f;\n"
                     "  float *d; if (hipMalloc(&d, sizeof h) != hipSuccess) return 1;\n"
                     "  hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice); k<<<1, 64>>>(d);\n"
                     "  hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
                     "  printf(\"%g\\n\", std::fabs(h[3] - 2.5)); return h[3] == 2.5f ? 0 : 1;\n}\n";
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(src, text, strlen(text), &e), "%s", e.msg);
  char *cmd = ll_fmt("%s -q hipcc %s -o %s/p && %s/p", LANELAB, src, dir, dir);
  int rc = sh_run(cmd, &out);
  cr_expect_eq(rc, 0, "exit %d:\n%s", rc, out);
  free(out), free(cmd), free(src);
  sh_run(ll_fmt("rm -rf %s", dir), NULL);
  free(dir);
}

/* A program built for one arch, run on the other: hipErrorNoBinaryForGpu, naming what it has. */
Test(hipcc, a_missing_arch_is_named, .timeout = 180) {
  char *dir = sh_tmpdir("hip-onearch"), *out;
  char *cmd = ll_fmt("%s -q hipcc %s/vector_add.hip --offload-arch=gfx942 -o %s/va && env LANELAB_ARCH=gfx950 %s/va",
                     LANELAB, SRC, dir, dir);
  int rc = sh_run(cmd, &out);
  cr_expect_eq(rc, 1, "exit %d:\n%s", rc, out);
  cr_expect(strstr(out, "hipErrorNoBinaryForGpu") && strstr(out, "no code for gfx950") && strstr(out, "built for: gfx942"),
            "the error names the arch asked for and the one present:\n%s", out);
  free(out), free(cmd);
  sh_run(ll_fmt("rm -rf %s", dir), NULL);
  free(dir);
}
