/* hip/hip_bench — the HIP runtime's own cost (`lanelab bench hip`, part of `make bench`): what a
 * program pays per launch and per copy on top of the emulation itself, measured in this process
 * through the same entry points a program calls.
 *   launch  hipModuleLaunchKernel of a 64-work-item kernel (scale_bias of the corpus's
 *           module_kernels.co: about twenty instructions; and scale_bias_printf, the same with a printf
 *           it does not reach, whose launches get a device printf buffer) against rt_launch of the same kernel
 *           with the same arguments (the runtime layer and the emulation alone): the difference is
 *           the HIP layer's cost per launch.
 *   copy    hipMemcpy host->device and device->host at 4 KiB, 1 MiB and 64 MiB: microseconds per
 *           call and GB/s.
 * Wall-clock medians of repeated batches, on whatever else the machine is doing (the load average
 * is printed); these are measurements, not targets. */
#include <stdlib.h>
#include <string.h>

#include "hip/internal.h"

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[n / 2];
}

int hip_bench(FILE *out, const char *build) {
  const char *arch = "gfx942";
  char *co = ll_fmt("%s/programs/modules/%s/module_kernels.co", build, arch);
  FILE *probe = fopen(co, "rb");
  if (!probe) {
    fprintf(out, "bench hip: %s is not built (make programs)\n", co);
    free(co);
    return LL_EXIT_ENV;
  }
  fclose(probe);
  setenv("LANELAB_ARCH", arch, 1);
  char lavg[64] = "unknown";
  FILE *la = fopen("/proc/loadavg", "r");
  if (la) {
    if (fgets(lavg, sizeof lavg, la)) lavg[strcspn(lavg, "\n")] = 0;
    fclose(la);
  }
  fprintf(out, "HIP runtime cost (%s, load average %s)\n", arch, lavg);
  int rc = LL_EXIT_OK;
  hipModule_t m;
  hipFunction_t f, fp;
  float *d = NULL;
  if (hipModuleLoad(&m, co) != hipSuccess || hipModuleGetFunction(&f, m, "scale_bias") != hipSuccess ||
      hipModuleGetFunction(&fp, m, "scale_bias_printf") != hipSuccess ||
      hipMalloc((void **)&d, 64 * sizeof(float)) != hipSuccess) {
    fprintf(out, "bench hip: cannot set up (see the message above)\n");
    free(co);
    return LL_EXIT_FAIL;
  }
  enum { BATCH = 200, REPS = 7 };
  float s = 1.0f;
  int n = 64;
  void *params[] = {&d, &s, &n};
  double hip_us[REPS], rt_us[REPS], pf_us[REPS];
  /* the same launch through rt_launch: kernarg bytes as hip_launch lays them out */
  uint8_t raw[16];
  memcpy(raw, &d, 8), memcpy(raw + 8, &s, 4), memcpy(raw + 12, &n, 4);
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  for (int r = 0; r < REPS && rc == LL_EXIT_OK; r++) {
    double t0 = ll_now();
    for (int i = 0; i < BATCH; i++)
      if (hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL) != hipSuccess) rc = LL_EXIT_FAIL;
    hip_us[r] = (ll_now() - t0) / BATCH * 1e6;
    rt_launch_opts o = {.kernarg = raw, .kernarg_size = sizeof raw};
    ll_err e = {0};
    t0 = ll_now();
    for (int i = 0; i < BATCH; i++)
      if (rt_launch(hip_g.dev, m->rt, "scale_bias", grid, block, NULL, 0, 0, &o, &e) != LL_EXIT_OK) rc = LL_EXIT_FAIL;
    rt_us[r] = (ll_now() - t0) / BATCH * 1e6;
    t0 = ll_now();
    for (int i = 0; i < BATCH; i++)
      if (hipModuleLaunchKernel(fp, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL) != hipSuccess) rc = LL_EXIT_FAIL;
    pf_us[r] = (ll_now() - t0) / BATCH * 1e6;
  }
  if (rc != LL_EXIT_OK || hipDeviceSynchronize() != hipSuccess) {
    fprintf(out, "bench hip: a launch failed\n");
    free(co);
    return LL_EXIT_FAIL;
  }
  double h = median(hip_us, REPS), rr = median(rt_us, REPS);
  fprintf(out, "  launch (1 block of 64, ~20 instructions): hipModuleLaunchKernel %.1f us, rt_launch %.1f us (the "
          "runtime layer and the emulation): the HIP layer adds %.1f us per launch%s\n", h, rr, h - rr,
          h < rr ? " (a negative difference of medians: below this host's noise)" : "");
  fprintf(out, "  launch of the same kernel with a device printf it does not reach (a printf buffer a launch): "
          "hipModuleLaunchKernel %.1f us\n", median(pf_us, REPS));
  const size_t sizes[] = {4096, 1u << 20, 64u << 20};
  for (size_t k = 0; k < 3; k++) {
    size_t bytes = sizes[k];
    void *hbuf = calloc(bytes, 1), *dbuf = NULL;
    if (!hbuf || hipMalloc(&dbuf, bytes) != hipSuccess) {
      fprintf(out, "bench hip: cannot allocate %zu bytes\n", bytes);
      free(hbuf);
      rc = LL_EXIT_FAIL;
      break;
    }
    int reps = bytes >= (64u << 20) ? 5 : bytes >= (1u << 20) ? 50 : 2000;
    double t[2][REPS];
    for (int r = 0; r < REPS; r++)
      for (int dir = 0; dir < 2; dir++) {
        double t0 = ll_now();
        for (int i = 0; i < reps; i++)
          if ((dir ? hipMemcpy(hbuf, dbuf, bytes, hipMemcpyDeviceToHost) : hipMemcpy(dbuf, hbuf, bytes, hipMemcpyHostToDevice)) !=
              hipSuccess)
            rc = LL_EXIT_FAIL;
        t[dir][r] = (ll_now() - t0) / reps;
      }
    double up = median(t[0], REPS), down = median(t[1], REPS);
    fprintf(out, "  hipMemcpy %8zu bytes: host->device %.2f us (%.2f GB/s), device->host %.2f us (%.2f GB/s)\n", bytes,
            up * 1e6, bytes / up / 1e9, down * 1e6, bytes / down / 1e9);
    hipFree(dbuf);
    free(hbuf);
  }
  hipFree(d);
  hipModuleUnload(m);
  free(co);
  return rc;
}
