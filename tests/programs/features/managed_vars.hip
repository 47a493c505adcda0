// __managed__ variables (docs/hip-runtime.md "Managed variables"): one copy that host and device
// code both read and write. The host changes a variable before any HIP call, a kernel adds to it
// atomically from every thread and fills a managed array, the host reads both after the sync; the
// symbol calls name the variable (hipMemcpyFromSymbol, hipGetSymbolAddress giving the address host
// code sees as &var, hipGetSymbolSize); the storage is the runtime's own (hipFree of it refused,
// no leak at exit). Every expected value is the host's arithmetic.
#include "../common.h"

__managed__ int mv_counter = 5;
__managed__ float mv_table[64];

__global__ void mv_bump(int n) {
  atomicAdd(&mv_counter, n);
  mv_table[threadIdx.x] = (float)threadIdx.x * 0.5f;
}

int main() {
  mv_counter += 1; // before any HIP call: 6
  mv_table[0] = -1.0f;
  mv_bump<<<1, 64>>>(3);
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(mv_counter == 6 + 64 * 3, "the counter after the kernel: %d, want %d", mv_counter, 6 + 64 * 3);
  for (int i = 0; i < 64; i++) EXPECT(mv_table[i] == (float)i * 0.5f, "table[%d] = %g", i, mv_table[i]);
  mv_counter = 100; // the host's write reaches the device
  mv_bump<<<1, 32>>>(-1);
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(mv_counter == 100 - 32, "the counter after the second kernel: %d", mv_counter);
  int v = 0;
  HIP_CHECK(hipMemcpyFromSymbol(&v, HIP_SYMBOL(mv_counter), sizeof v));
  EXPECT(v == 68, "hipMemcpyFromSymbol: %d", v);
  void *p = nullptr;
  size_t sz = 0;
  HIP_CHECK(hipGetSymbolAddress(&p, HIP_SYMBOL(mv_table)));
  HIP_CHECK(hipGetSymbolSize(&sz, HIP_SYMBOL(mv_table)));
  EXPECT(p == (void *)mv_table && sz == sizeof mv_table, "the table's symbol: %p (host %p), %zu bytes", p, (void *)mv_table, sz);
  hipPointerAttribute_t at;
  HIP_CHECK(hipPointerGetAttributes(&at, p));
  EXPECT(at.isManaged == 1, "the storage is managed memory: %d", at.isManaged);
  EXPECT(hipFree(p) == hipErrorInvalidValue, "the runtime's storage is not the program's to free");
  (void)hipGetLastError();
  std::printf("managed_vars: counter %d, table ok\n", mv_counter);
  return 0;
}
