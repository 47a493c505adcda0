/* A stand-in libamdhip64.so for tests/test_runtime.c: lets the hip backend's selection and launch
 * plumbing run on machines without ROCm or a GPU. Built by the test with gcc -shared and loaded
 * through LANELAB_HIP_LIB. Environment: FAKE_HIP_COUNT (devices), FAKE_HIP_ARCH (gcnArchName of
 * every device), FAKE_HIP_LOG (file receiving one line per launch). Memory is host memory; a
 * launch runs nothing, it only records what it was given.
 *
 * The Makefile also builds it as the suite's hermetic HIP runtimes (build/stubs/): with
 * -DFAKE_DEFAULT_COUNT=0 (a runtime installed on a machine without a GPU) and with
 * -DFAKE_DEFAULT_COUNT=1 -DFAKE_DEFAULT_ARCH='"gfx90a:..."' (a GPU of an arch lanelab does not
 * target). mk/run-tests.sh points LANELAB_HIP_LIB at the first, so no test loads the host's
 * libamdhip64. The environment variables above override these defaults. */
#ifndef FAKE_DEFAULT_COUNT
#define FAKE_DEFAULT_COUNT 0
#endif
#ifndef FAKE_DEFAULT_ARCH
#define FAKE_DEFAULT_ARCH "gfx000"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
hipError_t hipInit(unsigned f) { (void)f; return 0; }
hipError_t hipGetDeviceCount(int *n) {
  const char *c = getenv("FAKE_HIP_COUNT");
  *n = c ? atoi(c) : FAKE_DEFAULT_COUNT;
  return 0;
}
/* Marketing name at offset 0 and the arch name at an arbitrary later field offset: the runtime
 * must find gcnArchName without knowing the struct layout. */
hipError_t hipGetDevicePropertiesR0600(void *p, int dev) {
  (void)dev;
  strcpy((char *)p, "AMD Fake Accelerator");
  const char *a = getenv("FAKE_HIP_ARCH");
  strcpy((char *)p + 1160, a ? a : FAKE_DEFAULT_ARCH);
  return 0;
}
hipError_t hipSetDevice(int d) { (void)d; return 0; }
hipError_t hipMalloc(void **p, size_t n) { *p = malloc(n); return *p ? 0 : 2; }
hipError_t hipFree(void *p) { free(p); return 0; }
hipError_t hipMemcpy(void *d, const void *s, size_t n, int kind) { (void)kind; memcpy(d, s, n); return 0; }
hipError_t hipModuleLoadData(void **m, const void *img) { *m = (void *)img; return 0; }
hipError_t hipModuleUnload(void *m) { (void)m; return 0; }
hipError_t hipModuleGetFunction(void **f, void *m, const char *name) { (void)m; *f = (void *)name; return 0; }
hipError_t hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned lds, void *stream, void **params, void **extra) {
  (void)stream;
  if (params || !extra || extra[0] != (void *)0x01 || extra[2] != (void *)0x02 || extra[4] != (void *)0x03)
    return 1; /* hipErrorInvalidValue */
  const uint8_t *buf = extra[1];
  size_t size = *(size_t *)extra[3];
  FILE *log = fopen(getenv("FAKE_HIP_LOG"), "a");
  if (!log) return 1;
  fprintf(log, "%s grid %u %u %u block %u %u %u lds %u size %zu bytes", (char *)f, gx, gy, gz, bx, by, bz, lds, size);
  for (size_t i = 0; i < size; i++) fprintf(log, " %02x", buf[i]);
  fprintf(log, "\n");
  fclose(log);
  return 0;
}
hipError_t hipDeviceSynchronize(void) { return 0; }
const char *hipGetErrorString(hipError_t e) { (void)e; return "fake HIP error"; }
