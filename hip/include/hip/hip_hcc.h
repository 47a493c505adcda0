// hip/hip_hcc.h — forwarded to hip_ext.h with a deprecation warning, as HIP's own hip_hcc.h did
// while HIP shipped it (ROCm/HIP include/hip/hip_hcc.h: "#warning hip/hip_hcc.h is deprecated, please
// use hip/hip_ext.h" and #include "hip/hip_ext.h"); HIP 7 no longer ships the name. Programs written
// for it (HIP's samples/0_Intro/module_api runKernel) call hipHccModuleLaunchKernel, which
// hip_ext.h declares (docs/hip-runtime.md).
#ifndef LANELAB_HIP_HCC_H
#define LANELAB_HIP_HCC_H
#warning "hip/hip_hcc.h is deprecated, please use hip/hip_ext.h"
#include "hip/hip_ext.h"
#endif
