// hip/amd_detail/hip_cooperative_groups_helper.h
// ROCm's cooperative-groups helpers: in lanelab's HIP headers, <hip/hip_cooperative_groups.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_cooperative_groups.h"
