// hip/driver_types.h — forwarded: the types HIP's driver_types.h holds (hipMemcpyKind,
// hipDeviceptr_t, hipFunction_attribute, ...) that lanelab provides are in hip_runtime_api.h; the
// array, texture and surface types are not provided (docs/hip-runtime.md).
#include "hip/hip_runtime_api.h"
