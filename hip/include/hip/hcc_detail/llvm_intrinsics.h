// hip/hcc_detail/llvm_intrinsics.h
// HIP's older name (hcc_detail) for amd_detail/llvm_intrinsics.h: in lanelab's HIP headers, <hip/amd_detail/llvm_intrinsics.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/llvm_intrinsics.h"
