// hipModuleLoad of a code object built separately (argv[1]: the folder `lanelab cc --arch all`
// wrote, holding <arch>/module_kernels.co; the arch comes from hipGetDeviceProperties), then
// hipModuleGetFunction, hipModuleLaunchKernel with kernelParams (and the function as a graph's
// kernel node) and with the
// HIP_LAUNCH_PARAM_BUFFER_POINTER extra, hip_ext.h's hipExtModuleLaunchKernel (work-items, events;
// a global size not a multiple of the block's refused), hipModuleGetGlobal, hipFuncGetAttribute,
// hipModuleLoadData from bytes in memory, hipModuleUnload; with a second argument, that file (an
// offload bundle of both arches from `lanelab hipcc --genco`) loaded the same way.
#include "../common.h"
#include <hip/hip_ext.h>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  EXPECT(argc == 2 || argc == 3, "usage: module_load DIR [BUNDLE]");
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  std::string arch(p.gcnArchName);
  arch = arch.substr(0, arch.find(':'));
  std::string path = std::string(argv[1]) + "/" + arch + "/module_kernels.co";
  hipModule_t m;
  HIP_CHECK(hipModuleLoad(&m, path.c_str()));
  hipFunction_t scale, add;
  HIP_CHECK(hipModuleGetFunction(&scale, m, "scale_bias"));
  HIP_CHECK(hipModuleGetFunction(&add, m, "add_pair"));
  EXPECT(hipModuleGetFunction(&add, m, "no_such_kernel") == hipErrorNotFound, "an unknown kernel");
  // the __device__ variable, set through its module address
  hipDeviceptr_t bias;
  size_t bytes = 0;
  HIP_CHECK(hipModuleGetGlobal(&bias, &bytes, m, "bias"));
  EXPECT(bytes == sizeof(float), "bias is %zu bytes", bytes);
  float b = 0.25f;
  HIP_CHECK(hipMemcpyHtoD(bias, &b, sizeof b));
  const int n = 100;
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float s = 2.0f;
  int nn = n;
  void *params[] = {&d, &s, &nn};
  HIP_CHECK(hipModuleLaunchKernel(scale, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipMemcpy(r.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r[i] == 2.0f * i + 0.25f, "scale_bias[%d] = %g", i, r[i]);
  // the module's function as a graph's kernel node (ROCm takes a hipFunction_t there)
  hipGraph_t g;
  hipGraphNode_t kn;
  HIP_CHECK(hipGraphCreate(&g, 0));
  hipKernelNodeParams kp = {};
  kp.func = (void *)scale, kp.gridDim = dim3(2), kp.blockDim = dim3(64), kp.kernelParams = params;
  HIP_CHECK(hipGraphAddKernelNode(&kn, g, nullptr, 0, &kp));
  hipGraphExec_t gx;
  HIP_CHECK(hipGraphInstantiate(&gx, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(gx, nullptr));
  std::vector<float> r2(n);
  HIP_CHECK(hipMemcpy(r2.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r2[i] == 2.0f * (2.0f * i + 0.25f) + 0.25f, "scale_bias twice[%d] = %g", i, r2[i]);
  HIP_CHECK(hipGraphExecDestroy(gx));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipMemcpy(d, r.data(), n * sizeof(float), hipMemcpyHostToDevice)); // back to one scale_bias
  // a struct argument through the packed-buffer extra
  int *out;
  HIP_CHECK(hipMalloc(&out, 64 * sizeof(int)));
  struct { int *out; int a, b; } pk = {out, 5, 3};
  size_t size = sizeof pk;
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &pk, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  int o[64];
  HIP_CHECK(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(o[i] == 5 + 3 * i, "add_pair[%d] = %d", i, o[i]);
  // by work-items, between two events
  hipEvent_t e0, e1;
  HIP_CHECK(hipEventCreate(&e0));
  HIP_CHECK(hipEventCreate(&e1));
  pk.a = 9, pk.b = 1;
  HIP_CHECK(hipExtModuleLaunchKernel(add, 64, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra, e0, e1, 0));
  HIP_CHECK(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(o[i] == 9 + i, "hipExtModuleLaunchKernel add_pair[%d] = %d", i, o[i]);
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, e0, e1));
  EXPECT(ms >= 0, "elapsed %g ms", ms);
  EXPECT(hipExtModuleLaunchKernel(add, 100, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra) == hipErrorInvalidValue,
         "100 work-items in blocks of 64");
  EXPECT(hipGetLastError() == hipErrorInvalidValue, "the refused launch's error");
  HIP_CHECK(hipEventDestroy(e0));
  HIP_CHECK(hipEventDestroy(e1));
  pk.a = 5, pk.b = 3;
  int maxt = 0;
  HIP_CHECK(hipFuncGetAttribute(&maxt, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, scale));
  EXPECT(maxt == 1024, "max threads per block %d", maxt);
  HIP_CHECK(hipModuleUnload(m));
  // the same code object from memory
  FILE *f = std::fopen(path.c_str(), "rb");
  EXPECT(f, "open %s", path.c_str());
  std::vector<char> img(1 << 20);
  size_t got = std::fread(img.data(), 1, img.size(), f);
  std::fclose(f);
  EXPECT(got > 0 && got < img.size(), "read %zu bytes", got);
  HIP_CHECK(hipModuleLoadData(&m, img.data()));
  HIP_CHECK(hipModuleGetFunction(&scale, m, "scale_bias"));
  HIP_CHECK(hipModuleLaunchKernel(scale, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipMemcpy(r.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  // a fresh load has bias's initial value, 0.5
  for (int i = 0; i < n; i++) EXPECT(r[i] == 2.0f * (2.0f * i + 0.25f) + 0.5f, "from memory [%d] = %g", i, r[i]);
  HIP_CHECK(hipModuleUnload(m));
  EXPECT(hipModuleLoad(&m, "/nonexistent/x.co") == hipErrorFileNotFound, "a missing file");
  if (argc == 3) {
    HIP_CHECK(hipModuleLoad(&m, argv[2]));
    HIP_CHECK(hipModuleGetFunction(&add, m, "add_pair"));
    pk.a = 7;
    HIP_CHECK(hipModuleLaunchKernel(add, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
    HIP_CHECK(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) EXPECT(o[i] == 7 + 3 * i, "bundle add_pair[%d] = %d", i, o[i]);
    HIP_CHECK(hipModuleUnload(m));
  }
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipFree(out));
  std::printf("module_load: ok (%s)\n", arch.c_str());
  return 0;
}
