// HIP graphs: a stream captured into a graph (copies in and out, two kernels, a set, a host function,
// an event), instantiated and launched three times on new host inputs, each result against the
// host's arithmetic; nothing runs while capturing, and a kernel's arguments are those of the
// capture; a graph built with explicit nodes, changed after instantiation without changing the
// executable one; and what fails, with HIP's error codes: capturing the null stream, capturing
// twice, a synchronizing call during a global capture (which invalidates it), an operation that is
// not recorded, a dependency from another graph, a destroyed executable graph. With `relaxed` the
// relaxed mode's synchronizing call is allowed.
#include "../common.h"
#include <cstring>
#include <vector>

__global__ void gr_scale(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * s;
}
__global__ void gr_axpy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

static int gr_host_calls;
static void gr_host_fn(void *user) { ++*(int *)user; }

#define GR_EXPECT_ERR(expr, want)                                                                  \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    EXPECT(e_ == (want), "%s: %s, want %s", #expr, hipGetErrorName(e_), hipGetErrorName(want));     \
    refusals++;                                                                                    \
  } while (0)

int main(int argc, char **argv) {
  const int n = 1000;
  std::vector<float> hx(n), hy(n, -1.0f);
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  hipEvent_t ev;
  HIP_CHECK(hipEventCreate(&ev));

  // ---- capture
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  hipStreamCaptureStatus st;
  unsigned long long id = 0;
  HIP_CHECK(hipStreamIsCapturing(s, &st));
  EXPECT(st == hipStreamCaptureStatusActive, "capturing: status %d", (int)st);
  HIP_CHECK(hipStreamGetCaptureInfo(s, &st, &id));
  EXPECT(st == hipStreamCaptureStatusActive && id != 0, "capture info %d %llu", (int)st, id);
  float scale = 3.0f, a = 0.5f;
  int nn = n;
  HIP_CHECK(hipMemcpyAsync(dx, hx.data(), n * sizeof(float), hipMemcpyHostToDevice, s));
  gr_scale<<<(n + 255) / 256, 256, 0, s>>>(dx, scale, nn);
  HIP_CHECK(hipMemsetAsync(dy, 0, n * sizeof(float), s));
  void *args[] = {&dx, &dy, &a, &nn};
  HIP_CHECK(hipLaunchKernel((const void *)gr_axpy, dim3((n + 127) / 128), dim3(128), args, 0, s));
  HIP_CHECK(hipLaunchHostFunc(s, gr_host_fn, &gr_host_calls));
  HIP_CHECK(hipEventRecord(ev, s));
  HIP_CHECK(hipMemcpyAsync(hy.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost, s));
  scale = 100.0f, a = 100.0f; // the capture copied the arguments: these do not reach the graph
  hipGraph_t g;
  HIP_CHECK(hipStreamEndCapture(s, &g));
  HIP_CHECK(hipStreamIsCapturing(s, &st));
  EXPECT(st == hipStreamCaptureStatusNone, "after the capture: status %d", (int)st);
  EXPECT(hy[0] == -1.0f && gr_host_calls == 0, "nothing ran while capturing (y[0] %g, host calls %d)", hy[0], gr_host_calls);
  size_t nodes = 0;
  HIP_CHECK(hipGraphGetNodes(g, nullptr, &nodes));
  EXPECT(nodes == 7, "the captured graph has %zu nodes, want 7", nodes);
  hipGraphExec_t ge;
  HIP_CHECK(hipGraphInstantiate(&ge, g, nullptr, nullptr, 0));
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < n; i++) hx[i] = (float)(i + r); // read by the graph's first copy at each launch
    HIP_CHECK(hipGraphLaunch(ge, s));
    HIP_CHECK(hipStreamSynchronize(s));
    for (int i = 0; i < n; i++) {
      float want = 0.5f * ((float)(i + r) * 3.0f); // exact: small integers times 3, halved
      EXPECT(hy[i] == want, "launch %d: y[%d] = %g, want %g", r, i, hy[i], want);
    }
  }
  EXPECT(gr_host_calls == 3, "the host function ran %d times, want 3", gr_host_calls);
  HIP_CHECK(hipEventQuery(ev));
  HIP_CHECK(hipGraphExecDestroy(ge));
  HIP_CHECK(hipGraphDestroy(g));

  // ---- explicit nodes
  hipGraph_t eg;
  HIP_CHECK(hipGraphCreate(&eg, 0));
  hipGraphNode_t in, kn, en, out;
  for (int i = 0; i < n; i++) hx[i] = (float)(2 * i), hy[i] = 0.0f;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&in, eg, nullptr, 0, dx, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float escale = 0.25f;
  void *kargs[] = {&dx, &escale, &nn};
  hipKernelNodeParams kp = {};
  kp.func = (void *)gr_scale, kp.gridDim = dim3((n + 63) / 64), kp.blockDim = dim3(64), kp.kernelParams = kargs;
  HIP_CHECK(hipGraphAddKernelNode(&kn, eg, &in, 1, &kp));
  HIP_CHECK(hipGraphAddEmptyNode(&en, eg, &kn, 1));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&out, eg, &en, 1, hy.data(), dx, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipGraphInstantiateWithFlags(&ge, eg, 0));
  hipGraphNode_t late;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&late, eg, &out, 1, dx, hx.data(), 4, hipMemcpyHostToDevice)); // not in ge
  hipGraphNode_t listed[8];
  size_t nl = 8;
  HIP_CHECK(hipGraphGetNodes(eg, listed, &nl));
  EXPECT(nl == 5 && listed[0] == in && listed[4] == late, "the explicit graph lists %zu nodes", nl);
  HIP_CHECK(hipGraphLaunch(ge, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(hy[i] == 0.5f * (float)i, "explicit: y[%d] = %g, want %g", i, hy[i], 0.5f * (float)i);
  HIP_CHECK(hipGraphExecDestroy(ge));

  // ---- what fails
  int refusals = 0;
  GR_EXPECT_ERR(hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal), hipErrorStreamCaptureUnsupported);
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  GR_EXPECT_ERR(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal), hipErrorIllegalState);
  GR_EXPECT_ERR(hipMemcpy(dx, hx.data(), 4, hipMemcpyHostToDevice), hipErrorStreamCaptureImplicit);
  hipGraph_t bad = (hipGraph_t)&refusals;
  GR_EXPECT_ERR(hipStreamEndCapture(s, &bad), hipErrorStreamCaptureInvalidated);
  EXPECT(bad == nullptr, "an invalidated capture gives no graph");
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
  if (argc > 1 && !strcmp(argv[1], "relaxed")) HIP_CHECK(hipDeviceSynchronize()); // allowed in relaxed mode
  GR_EXPECT_ERR(hipMemcpy2DAsync(dx, 16, hx.data(), 16, 16, 2, hipMemcpyHostToDevice, s), hipErrorStreamCaptureUnsupported);
  GR_EXPECT_ERR(hipStreamSynchronize(s), hipErrorStreamCaptureInvalidated); // until hipStreamEndCapture
  GR_EXPECT_ERR(hipStreamEndCapture(s, &bad), hipErrorStreamCaptureInvalidated);
  GR_EXPECT_ERR(hipStreamEndCapture(s, &bad), hipErrorIllegalState);
  hipGraph_t other;
  HIP_CHECK(hipGraphCreate(&other, 0));
  GR_EXPECT_ERR(hipGraphAddEmptyNode(&en, other, &in, 1), hipErrorInvalidValue); // `in` is eg's
  HIP_CHECK(hipGraphInstantiate(&ge, other, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphExecDestroy(ge));
  GR_EXPECT_ERR(hipGraphLaunch(ge, s), hipErrorInvalidValue);
  HIP_CHECK(hipGraphDestroy(other));
  HIP_CHECK(hipGraphDestroy(eg));
  (void)hipGetLastError();
  HIP_CHECK(hipEventDestroy(ev));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  std::printf("graphs: a captured graph of 7 nodes launched 3 times ok, 4 explicit nodes ok, %d refusals ok\n", refusals);
  return 0;
}
