// hip/hip_fp16.h — included for source compatibility; lanelab's HIP subset declares these types in
// hip/hip_runtime.h (see lanelab_hip_fp16.h).
#include "hip/hip_runtime.h"
