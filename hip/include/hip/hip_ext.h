// hip/hip_ext.h — forwarded: of HIP's extensions lanelab provides hipExtLaunchKernel and
// hipExtMallocWithFlags (declared in hip_runtime_api.h) and hipExtLaunchKernelGGL below; the
// others are refused by name there (docs/hip-runtime.md).
#ifndef LANELAB_HIP_EXT_H
#define LANELAB_HIP_EXT_H
#include "hip/hip_runtime.h"
#if defined(__cplusplus)
// hipExtLaunchKernelGGL(kernel, grid, block, shmem, stream, startEvent, stopEvent, flags, args...):
// the launch between the two event records (either may be NULL), as HIP's hip_ext.h defines it;
// the arguments convert to the kernel's parameter types as in <<<>>>.
template <typename F, typename... Args>
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
