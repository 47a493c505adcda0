// hip/hcc_detail/device_library_decls.h
// HIP's older name (hcc_detail) for amd_detail/device_library_decls.h: in lanelab's HIP headers, <hip/amd_detail/device_library_decls.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/device_library_decls.h"
