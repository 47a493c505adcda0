// hip/hip_ext.h — forwarded: of HIP's extensions lanelab provides hipExtLaunchKernel and
// hipExtMallocWithFlags (declared in hip_runtime_api.h), hipExtModuleLaunchKernel and the
// deprecated hipHccModuleLaunchKernel and hipExtLaunchKernelGGL below; the others are refused by
// name there (docs/hip-runtime.md).
#ifndef LANELAB_HIP_EXT_H
#define LANELAB_HIP_EXT_H
#include "hip/hip_runtime.h"
#if defined(__cplusplus)
// A module's kernel launched by work-items: globalWorkSize is the grid in work-items (HIP's
// convention here), localWorkSize the block; between the two event records (either may be NULL).
// A global size that is not a multiple of the local one is hipErrorInvalidValue (partial
// workgroups are not provided). flags are ignored, as HIP's are by this runtime's other launches.
extern "C" hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                               uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
                                               uint32_t localWorkSizeY, uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                               hipStream_t hStream, void **kernelParams, void **extra,
                                               hipEvent_t startEvent = nullptr, hipEvent_t stopEvent = nullptr,
                                               uint32_t flags = 0);
extern "C" hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                               uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
                                               uint32_t localWorkSizeY, uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                               hipStream_t hStream, void **kernelParams, void **extra,
                                               hipEvent_t startEvent = nullptr, hipEvent_t stopEvent = nullptr);
// hipExtLaunchKernelGGL(kernel, grid, block, shmem, stream, startEvent, stopEvent, flags, args...):
// the launch between the two event records (either may be NULL), as HIP's hip_ext.h defines it;
// the arguments convert to the kernel's parameter types as in <<<>>>. F defaults to the pointer type
// the arguments give, as in HIP's, so a function template's name (HipTest::vectorADD) is accepted.
template <typename... Args, typename F = void (*)(Args...)>
static inline void hipExtLaunchKernelGGL(F kernel, const dim3 &numBlocks, const dim3 &dimBlocks,
                                         unsigned int sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                         hipEvent_t stopEvent, unsigned int flags, Args... args) {
  (void)flags;
  if (startEvent) (void)hipEventRecord(startEvent, stream);
  kernel<<<numBlocks, dimBlocks, sharedMemBytes, stream>>>(args...);
  if (stopEvent) (void)hipEventRecord(stopEvent, stream);
}
#endif
#endif
