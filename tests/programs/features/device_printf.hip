// Device printf: integers of every width, floats, characters, strings (a literal, one from a
// runtime choice and a null pointer), the %% escape and * widths, from a few lanes, printed in order after the
// launch. printf's return value (0 when the record was written, as clang's buffered printf
// returns) is stored and checked here; tests/test_hip_programs.c checks the printed text.
#include "../common.h"

__global__ void say(int *rc, const char *names) {
  int t = threadIdx.x;
  if (t < 2) {
    const char *who = t == 0 ? "first" : "second";
    rc[t] = printf("lane %d of %u: %s %c %ld %lld %u %x %.3f %e %5d|%-4d|%% %s\n", t, blockDim.x, who, 'A' + t,
                   -1234567890123L, (long long)-7, 4000000000u, 0xbeefu, 3.14159f * (t + 1), 1.5e-3, t * 11, t,
                   "done");
  }
  if (t == 1) printf("lane 1, a null string: [%s] [%8s]\n", names, names); // names is nullptr: empty, as ROCm prints it
}

__global__ void flood(int *rc) { rc[threadIdx.x] = printf("lane %d says a line long enough to matter\n", (int)threadIdx.x); }
__global__ void flood_short(int *rc) {
  rc[threadIdx.x] = printf("lane %d: short %d %d %d\n", (int)threadIdx.x, 1, 2, 3); // 44-byte records where flood's are 20
}

int main() {
  int *rc;
  HIP_CHECK(hipMalloc(&rc, 2 * sizeof(int)));
  HIP_CHECK(hipMemset(rc, 0xff, 2 * sizeof(int)));
  say<<<1, 64>>>(rc, nullptr);
  HIP_CHECK(hipDeviceSynchronize());
  int h[2];
  HIP_CHECK(hipMemcpy(h, rc, sizeof h, hipMemcpyDeviceToHost));
  EXPECT(h[0] == 0 && h[1] == 0, "printf returned %d and %d", h[0], h[1]);
  std::printf("device_printf: after the kernel\n");
  std::fflush(stdout);
  // a printf buffer too small for every record: some printf calls return -1, the runtime says
  // how much was lost, and what fitted is printed whole
  HIP_CHECK(hipDeviceSetLimit(hipLimitPrintfFifoSize, 256));
  size_t lim = 0;
  HIP_CHECK(hipDeviceGetLimit(&lim, hipLimitPrintfFifoSize));
  EXPECT(lim == 256, "limit %zu", lim);
  int *rc64;
  HIP_CHECK(hipMalloc(&rc64, 64 * sizeof(int)));
  flood<<<1, 64>>>(rc64);
  HIP_CHECK(hipDeviceSynchronize());
  int r64[64], ok = 0, lost = 0;
  HIP_CHECK(hipMemcpy(r64, rc64, sizeof r64, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) ok += r64[i] == 0, lost += r64[i] == -1;
  EXPECT(ok > 0 && lost > 0 && ok + lost == 64, "%d written, %d lost", ok, lost);
  std::printf("device_printf: %d of 64 records fitted\n", ok);
  std::fflush(stdout);
  // the next launch's buffer is the last one's (runtime/rt.c keeps it): records of another size that
  // also overflow it end where flood's did not, so a record left from before would be read there
  flood_short<<<1, 64>>>(rc64);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(r64, rc64, sizeof r64, hipMemcpyDeviceToHost));
  ok = 0, lost = 0;
  for (int i = 0; i < 64; i++) ok += r64[i] == 0, lost += r64[i] == -1;
  EXPECT(ok > 0 && lost > 0 && ok + lost == 64, "short: %d written, %d lost", ok, lost);
  std::printf("device_printf: %d of 64 short records fitted\n", ok);
  return 0;
}
