/* emu/bench — emulator throughput (issue #3 §6): runs kernels/bench/bench_valu_ds.hip (VALU +
 * LDS loop) and kernels/bench/bench_mfma.hip (v_mfma_f32_16x16x16_f16 chain) from
 * BUILD/<arch>/kernels on one worker thread and on all cores, and prints executed wave-instructions
 * per second and MFMAs per second. Figures are wall-clock measurements of emu_launch (decode is
 * done once before timing). Every run is checked not to fault; a missing MFMA implementation is
 * reported loudly instead of a figure. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "emu/internal.h"

typedef struct {
  double secs, cpu; /* wall-clock and process CPU seconds */
  uint64_t wave_insns, mfma;
  int rc;
  char msg[600];
} bench_run;

static void run_one(emu_codeobj *co, const emu_kernel *k, uint32_t grid, int iters, int threads,
                    bench_run *r)
{
  memset(r, 0, sizeof *r);
  emu_mem *m = emu_mem_new();
  size_t nout = (size_t)grid * 64;
  float *out = ll_xcalloc(nout, sizeof *out);
  uint32_t kbytes = k->kernarg_size > 16 ? k->kernarg_size : 16;
  uint8_t *ka = ll_xcalloc(1, kbytes);
  uint64_t dout = emu_mem_map(m, out, nout * sizeof *out, "out");
  if (k->nargs < 2 || k->args[0].size != 8 || k->args[1].size != 4) {
    r->rc = LL_EXIT_USAGE;
    snprintf(r->msg, sizeof r->msg, "%s: expected (float *out, int iters) arguments", k->name);
    goto done;
  }
  memcpy(ka + k->args[0].offset, &dout, 8);
  memcpy(ka + k->args[1].offset, &iters, 4);
  emu_dispatch d = {.co = co, .kernel = k, .grid = {grid, 1, 1}, .block = {64, 1, 1}};
  d.kernarg_addr = emu_mem_map(m, ka, kbytes, "kernarg");
  emu_launch_opts o = {.threads = threads, .insn_budget = 1ull << 40};
  emu_fault f;
  emu_launch_stats st;
  struct timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  double t0 = ll_now();
  r->rc = emu_launch(m, &d, &o, &f, &st);
  r->secs = ll_now() - t0;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  r->cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
  if (r->rc != LL_EXIT_OK) {
    snprintf(r->msg, sizeof r->msg, "%s", f.msg);
    goto done;
  }
  r->wave_insns = st.wave_insns;
  for (size_t i = 0; i < st.nmnem; i++)
    if (strncmp(st.mnem[i], "v_mfma_", 7) == 0) r->mfma += st.count[i];
  emu_launch_stats_free(&st);
done:
  free(out);
  free(ka);
  emu_mem_free(m);
}

static emu_codeobj *load(FILE *out, const char *build_dir, const char *arch, const char *name, int *rc)
{
  char *path = ll_fmt("%s/%s/kernels/%s.co", build_dir, arch, name);
  if (access(path, R_OK) != 0) {
    fprintf(out, "bench: %s is missing: build it with 'make kernels'\n", path);
    *rc = LL_EXIT_ENV;
    free(path);
    return NULL;
  }
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(path, &e);
  free(path);
  if (!co) {
    fprintf(out, "bench: %s\n", e.msg);
    *rc = e.code ? e.code : LL_EXIT_USAGE;
    return NULL;
  }
  const emu_program *p = emu_codeobj_program(co, &e); /* decode before timing */
  if (!p) {
    fprintf(out, "bench: %s\n", e.msg);
    *rc = e.code ? e.code : LL_EXIT_USAGE;
    emu_codeobj_free(co);
    return NULL;
  }
  return co;
}

int emu_bench(FILE *out, const char *build_dir)
{
  const char *arch = "gfx950";
  int rc = LL_EXIT_OK;
  long ncores = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncores < 1) ncores = 1;
  char lavg[64] = "unknown";
  FILE *la = fopen("/proc/loadavg", "r");
  if (la) {
    if (!fgets(lavg, sizeof lavg, la)) snprintf(lavg, sizeof lavg, "unknown");
    lavg[strcspn(lavg, "\n")] = 0;
    fclose(la);
  }
  /* the machine's load is printed because other processes sharing the cores lower these figures */
  fprintf(out, "emulator throughput (%s code objects from %s/%s/kernels; %ld cores; load average %s)\n", arch,
          build_dir, arch, ncores, lavg);

  /* VALU + LDS loop */
  emu_codeobj *co = load(out, build_dir, arch, "bench_valu_ds", &rc);
  if (co) {
    ll_err e = {0};
    const emu_kernel *k = emu_codeobj_kernel(co, "bench_valu_ds", &e);
    if (!k) {
      fprintf(out, "bench: %s\n", e.msg);
      rc = LL_EXIT_USAGE;
    } else {
      bench_run one, all;
      run_one(co, k, 8, 60000, 1, &one);
      run_one(co, k, (uint32_t)(8 * ncores), 60000, 0, &all);
      if (one.rc || all.rc) {
        fprintf(out, "bench_valu_ds FAILED: %s\n", one.rc ? one.msg : all.msg);
        rc = LL_EXIT_FAIL;
      } else {
        double r1 = one.wave_insns / one.secs, rn = all.wave_insns / all.secs, rc1 = one.wave_insns / one.cpu;
        fprintf(out, "  VALU/DS loop, 1 core:   %8.2f M wave-instructions/s wall (%llu in %.3f s), %.2f M per CPU-second  target >= 20 M: %s\n",
                r1 / 1e6, (unsigned long long)one.wave_insns, one.secs, rc1 / 1e6, rc1 >= 20e6 ? "met (CPU time)" : "NOT met");
        fprintf(out, "  VALU/DS loop, %ld cores: %8.2f M wave-instructions/s (%llu in %.3f s)\n", ncores, rn / 1e6,
                (unsigned long long)all.wave_insns, all.secs);
      }
    }
    emu_codeobj_free(co);
  }

  /* MFMA loop */
  int op = emu_ops_find("v_mfma_f32_16x16x16_f16");
  if (op < 0 || !emu_ops_get((size_t)op)->fn) {
    fprintf(out, "  MFMA loop: *** MFMA NOT IMPLEMENTED YET: v_mfma_f32_16x16x16_f16 has no semantics, "
                 "no MFMA figure ***\n");
    if (rc == LL_EXIT_OK) rc = LL_EXIT_FAIL;
    return rc;
  }
  int rc2 = LL_EXIT_OK;
  co = load(out, build_dir, arch, "bench_mfma", &rc2);
  if (!co) return rc == LL_EXIT_OK ? rc2 : rc;
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(co, "bench_mfma", &e);
  if (!k) {
    fprintf(out, "bench: %s\n", e.msg);
    emu_codeobj_free(co);
    return LL_EXIT_USAGE;
  }
  bench_run one, all;
  run_one(co, k, 8, 60000, 1, &one);
  run_one(co, k, (uint32_t)(8 * ncores), 60000, 0, &all);
  if (one.rc || all.rc) {
    fprintf(out, "bench_mfma FAILED: %s\n", one.rc ? one.msg : all.msg);
    rc = LL_EXIT_FAIL;
  } else if (one.mfma == 0) {
    fprintf(out, "bench_mfma FAILED: the kernel executed no v_mfma instruction\n");
    rc = LL_EXIT_FAIL;
  } else {
    double r1 = one.mfma / one.secs, rn = all.mfma / all.secs, rc1 = one.mfma / one.cpu;
    fprintf(out, "  MFMA loop, 1 core:      %8.3f M v_mfma_f32_16x16x16_f16/s wall (%llu in %.3f s), %.3f M per CPU-second  target >= 1 M: %s\n",
            r1 / 1e6, (unsigned long long)one.mfma, one.secs, rc1 / 1e6, rc1 >= 1e6 ? "met (CPU time)" : "NOT met");
    fprintf(out, "  MFMA loop, %ld cores:    %8.3f M v_mfma_f32_16x16x16_f16/s (%llu in %.3f s)\n", ncores, rn / 1e6,
            (unsigned long long)all.mfma, all.secs);
  }
  emu_codeobj_free(co);
  return rc;
}
