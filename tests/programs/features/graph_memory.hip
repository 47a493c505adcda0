// Graph memory nodes (docs/hip-runtime.md "Graphs and stream capture"): hipGraphAddMemAllocNode
// gives the address when the node is added; a kernel node fills the memory, a copy node reads it
// out, a free node ends it; the device's graph memory figures follow ROCm's graph memory pool: in
// use from the allocation node's run to its free (or the program's hipFree), then idle until a
// synchronizing call or hipDeviceGraphMemTrim; the high-water marks reset only to 0; a graph with
// memory nodes is instantiated once (ROCm); hipGraphInstantiateFlagAutoFreeOnLaunch. Every figure
// is worked by hand from the sizes below; the kernel's values are the host's arithmetic.
#include "../common.h"

__global__ void gm_fill(float *p, float k) { p[blockIdx.x * blockDim.x + threadIdx.x] = k * (float)(blockIdx.x * blockDim.x + threadIdx.x); }

static uint64_t gm_attr(hipGraphMemAttributeType a) {
  uint64_t v = ~0ull;
  HIP_CHECK(hipDeviceGetGraphMemAttribute(0, a, &v));
  return v;
}
#define GM_EXPECT(used, reserved, used_high, reserved_high)                                                         \
  EXPECT(gm_attr(hipGraphMemAttrUsedMemCurrent) == (used) && gm_attr(hipGraphMemAttrReservedMemCurrent) == (reserved) && \
             gm_attr(hipGraphMemAttrUsedMemHigh) == (used_high) && gm_attr(hipGraphMemAttrReservedMemHigh) == (reserved_high), \
         "graph memory: used %llu reserved %llu, highs %llu %llu", (unsigned long long)gm_attr(hipGraphMemAttrUsedMemCurrent), \
         (unsigned long long)gm_attr(hipGraphMemAttrReservedMemCurrent), (unsigned long long)gm_attr(hipGraphMemAttrUsedMemHigh), \
         (unsigned long long)gm_attr(hipGraphMemAttrReservedMemHigh))

int main() {
  const int N = 4096;
  const size_t S = N * sizeof(float);
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  float *out, h[4096];
  HIP_CHECK(hipMalloc(&out, S));
  GM_EXPECT(0, 0, 0, 0);

  // allocate, fill, copy out, free: one graph
  hipGraph_t g;
  HIP_CHECK(hipGraphCreate(&g, 0));
  hipMemAllocNodeParams ap{};
  ap.poolProps.allocType = hipMemAllocationTypePinned;
  ap.poolProps.location.type = hipMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = S;
  hipGraphNode_t na, nk, nc, nf;
  HIP_CHECK(hipGraphAddMemAllocNode(&na, g, nullptr, 0, &ap));
  float *p = (float *)ap.dptr;
  EXPECT(p != nullptr, "the address is given when the node is added");
  float k = 2.5f;
  void *args[] = {&p, &k};
  hipKernelNodeParams kp{};
  kp.func = (void *)gm_fill;
  kp.gridDim = dim3(N / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  HIP_CHECK(hipGraphAddKernelNode(&nk, g, &na, 1, &kp));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&nc, g, &nk, 1, out, p, S, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipGraphAddMemFreeNode(&nf, g, &nc, 1, p));
  hipGraphNode_t again;
  EXPECT(hipGraphAddMemFreeNode(&again, g, &nc, 1, p) == hipErrorInvalidValue, "a second free node for the same memory");
  EXPECT(hipGraphAddMemFreeNode(&again, g, &nc, 1, out) == hipErrorInvalidValue, "a free node for memory no allocation node made");
  hipMemAllocNodeParams bad = ap;
  bad.bytesize = 0;
  EXPECT(hipGraphAddMemAllocNode(&again, g, nullptr, 0, &bad) == hipErrorInvalidValue && bad.dptr == nullptr, "0 bytes");
  (void)hipGetLastError();
  hipMemAllocNodeParams got{};
  HIP_CHECK(hipGraphMemAllocNodeGetParams(na, &got));
  EXPECT(got.bytesize == S && got.dptr == p && got.poolProps.allocType == hipMemAllocationTypePinned, "the allocation node's parameters");
  void *fp = nullptr;
  HIP_CHECK(hipGraphMemFreeNodeGetParams(nf, &fp));
  EXPECT(fp == p, "the free node's pointer");

  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  hipGraphExec_t x1b;
  EXPECT(hipGraphInstantiate(&x1b, g, nullptr, nullptr, 0) == hipErrorNotSupported, "a graph with memory nodes, instantiated again");
  (void)hipGetLastError();
  HIP_CHECK(hipGraphLaunch(x, s));
  GM_EXPECT(0, S, S, S); // allocated and freed in the run: idle until a sync
  HIP_CHECK(hipStreamSynchronize(s));
  GM_EXPECT(0, 0, S, S);
  HIP_CHECK(hipMemcpy(h, out, S, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == 2.5f * (float)i, "element %d: %g", i, h[i]);

  // the high-water marks reset to 0 only
  uint64_t zero = 0, one = 1;
  HIP_CHECK(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &zero));
  HIP_CHECK(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrReservedMemHigh, &zero));
  EXPECT(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrReservedMemHigh, &one) == hipErrorInvalidValue, "reset to 1");
  EXPECT(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, (void *)-1) == hipErrorInvalidValue, "read-only (the value not read)");
  EXPECT(hipDeviceGetGraphMemAttribute(1, hipGraphMemAttrUsedMemCurrent, &one) == hipErrorInvalidDevice, "device 1");
  EXPECT(hipDeviceGraphMemTrim(1) == hipErrorInvalidDevice, "device 1");
  (void)hipGetLastError();
  GM_EXPECT(0, 0, 0, 0);

  // an allocation the graph does not free stays allocated after the run, until the program frees
  // it; the memory is the graph's again at its next run
  hipGraph_t g2;
  HIP_CHECK(hipGraphCreate(&g2, 0));
  hipMemAllocNodeParams ap2 = ap;
  ap2.bytesize = 2 * S;
  hipGraphNode_t na2, nk2;
  HIP_CHECK(hipGraphAddMemAllocNode(&na2, g2, nullptr, 0, &ap2));
  float *q = (float *)ap2.dptr;
  void *args2[] = {&q, &k};
  kp.kernelParams = args2;
  kp.gridDim = dim3(2 * N / 256);
  HIP_CHECK(hipGraphAddKernelNode(&nk2, g2, &na2, 1, &kp));
  hipGraphExec_t x2;
  HIP_CHECK(hipGraphInstantiate(&x2, g2, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphDestroy(g2));
  HIP_CHECK(hipGraphLaunch(x2, s));
  HIP_CHECK(hipStreamSynchronize(s));
  GM_EXPECT(2 * S, 2 * S, 2 * S, 2 * S);
  HIP_CHECK(hipMemcpy(h, q + N, S, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == 2.5f * (float)(N + i), "second half, element %d: %g", i, h[i]);
  HIP_CHECK(hipFree(q));
  GM_EXPECT(0, 2 * S, 2 * S, 2 * S); // freed: idle, not yet given back
  HIP_CHECK(hipGraphLaunch(x2, s));   // the next run takes the idle bytes: nothing more reserved
  GM_EXPECT(2 * S, 2 * S, 2 * S, 2 * S);
  HIP_CHECK(hipFree(q));
  HIP_CHECK(hipDeviceGraphMemTrim(0));
  GM_EXPECT(0, 0, 2 * S, 2 * S);
  HIP_CHECK(hipGraphLaunch(x2, s)); // allocates it again at the same address
  HIP_CHECK(hipStreamSynchronize(s));
  GM_EXPECT(2 * S, 2 * S, 2 * S, 2 * S);
  HIP_CHECK(hipGraphExecDestroy(x2)); // the graph is gone: the memory stays the program's
  HIP_CHECK(hipMemcpy(h, q, S, hipMemcpyDeviceToHost));
  EXPECT(h[7] == 2.5f * 7.0f, "after the executable graph is destroyed: %g", h[7]);
  HIP_CHECK(hipFree(q));
  HIP_CHECK(hipDeviceSynchronize());
  GM_EXPECT(0, 0, 2 * S, 2 * S);

  // hipGraphInstantiateFlagAutoFreeOnLaunch: a run frees what the last one left allocated, then
  // allocates it again (the figures do not grow)
  HIP_CHECK(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &zero));
  HIP_CHECK(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrReservedMemHigh, &zero));
  hipGraph_t g3;
  HIP_CHECK(hipGraphCreate(&g3, 0));
  hipGraphNode_t na3;
  HIP_CHECK(hipGraphAddMemAllocNode(&na3, g3, nullptr, 0, &ap));
  hipGraphExec_t x3;
  HIP_CHECK(hipGraphInstantiateWithFlags(&x3, g3, hipGraphInstantiateFlagAutoFreeOnLaunch));
  HIP_CHECK(hipGraphLaunch(x3, s));
  HIP_CHECK(hipGraphLaunch(x3, s));
  GM_EXPECT(S, S, S, S);
  HIP_CHECK(hipGraphExecDestroy(x3));
  HIP_CHECK(hipGraphDestroy(g3));
  HIP_CHECK(hipFree(ap.dptr));
  HIP_CHECK(hipDeviceSynchronize());
  GM_EXPECT(0, 0, S, S);

  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipFree(out));
  HIP_CHECK(hipStreamDestroy(s));
  std::printf("graph_memory: ok\n");
  return 0;
}
