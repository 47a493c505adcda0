// The deprecated context API as driver-API programs use it (ROCm's HIP samples module_api and
// module_api_global start with hipCtxCreate): a context made, current, pushed and popped on a
// per-thread stack, the primary context retained and released, and a kernel launched while a
// made context is current, which runs on the one device; the API and runtime versions are the
// headers' HIP_VERSION; the peer calls answer hipErrorInvalidDevice (one device).
#include "../common.h"

__global__ void ctx_fill(int *p, int v) { p[threadIdx.x] = v + (int)threadIdx.x; }

int main() {
  hipCtx_t cur = nullptr, made = nullptr, popped = nullptr, prim = nullptr;
  HIP_CHECK(hipCtxGetCurrent(&cur));
  EXPECT(cur != nullptr, "a current (primary) context before any is made");
  HIP_CHECK(hipDevicePrimaryCtxRetain(&prim, 0));
  EXPECT(prim == cur, "the primary context is the current one: %p %p", (void *)prim, (void *)cur);
  unsigned flags = 99;
  int active = -1;
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(active == 1 && flags == 0, "primary state: flags %u active %d", flags, active);
  HIP_CHECK(hipCtxCreate(&made, 4, 0));
  HIP_CHECK(hipCtxGetCurrent(&cur));
  EXPECT(cur == made && made != prim, "hipCtxCreate makes its context current");
  HIP_CHECK(hipCtxGetFlags(&flags));
  EXPECT(flags == 4, "the made context's flags %u", flags);
  hipDevice_t dev = -1;
  HIP_CHECK(hipCtxGetDevice(&dev));
  EXPECT(dev == 0, "device %d", dev);
  int api = 0;
  HIP_CHECK(hipCtxGetApiVersion(made, &api));
  EXPECT(api == HIP_VERSION, "api version %d", api);
  int rt = 0, drv = 0; // the runtime's own figures are the headers' (not a host's HIP headers')
  HIP_CHECK(hipRuntimeGetVersion(&rt));
  HIP_CHECK(hipDriverGetVersion(&drv));
  EXPECT(rt == HIP_VERSION && drv == HIP_VERSION, "runtime %d driver %d, headers %d", rt, drv, HIP_VERSION);
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  ctx_fill<<<1, 64>>>(d, 40);
  HIP_CHECK(hipCtxSynchronize());
  int h[64];
  HIP_CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == 40 + i, "h[%d] = %d", i, h[i]);
  HIP_CHECK(hipCtxPushCurrent(prim));
  HIP_CHECK(hipCtxGetCurrent(&cur));
  EXPECT(cur == prim, "pushed the primary context");
  HIP_CHECK(hipCtxPopCurrent(&popped));
  EXPECT(popped == prim, "popped the primary context");
  HIP_CHECK(hipCtxPopCurrent(&popped));
  EXPECT(popped == made, "popped the made context");
  EXPECT(hipCtxPopCurrent(&popped) == hipErrorInvalidContext, "nothing left to pop");
  HIP_CHECK(hipCtxGetCurrent(&cur));
  EXPECT(cur == prim, "with nothing pushed the primary context is current");
  // peers: the one device and itself, or no device (docs/hip-runtime.md "Peers")
  EXPECT(hipDeviceEnablePeerAccess(0, 0) == hipErrorInvalidDevice, "peer access to itself");
  EXPECT(hipDeviceEnablePeerAccess(1, 0) == hipErrorInvalidDevice, "peer access to device 1");
  EXPECT(hipDeviceDisablePeerAccess(0) == hipErrorInvalidDevice, "peer access to itself disabled");
  EXPECT(hipCtxEnablePeerAccess(made, 0) == hipErrorInvalidDevice, "peer access between two contexts of one device");
  int p2p = -1;
  EXPECT(hipDeviceGetP2PAttribute(&p2p, hipDevP2PAttrAccessSupported, 0, 0) == hipErrorInvalidDevice, "P2P attribute");
  int can = -1;
  HIP_CHECK(hipDeviceCanAccessPeer(&can, 0, 0));
  EXPECT(can == 0, "can access peer %d", can);
  EXPECT(hipGetLastError() == hipErrorInvalidDevice, "the last refused peer call's error");
  HIP_CHECK(hipCtxDestroy(made));
  EXPECT(hipCtxDestroy(made) == hipErrorInvalidContext, "a context destroyed twice");
  EXPECT(hipCtxPushCurrent(made) == hipErrorInvalidContext, "a destroyed context pushed");
  HIP_CHECK(hipDevicePrimaryCtxRelease(0));
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(active == 0, "released: active %d", active);
  EXPECT(hipDevicePrimaryCtxRelease(0) == hipErrorInvalidContext, "released twice");
  HIP_CHECK(hipFree(d));
  std::printf("context_api: ok\n");
  return 0;
}
