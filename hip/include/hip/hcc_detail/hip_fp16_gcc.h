// hip/hcc_detail/hip_fp16_gcc.h
// HIP's older name (hcc_detail) for amd_detail/hip_fp16_gcc.h: in lanelab's HIP headers, <hip/amd_detail/hip_fp16_gcc.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/hip_fp16_gcc.h"
