// hip/amd_detail/amd_hip_complex.h — forwards to hip/hip_complex.h, which holds the same content.
#include "hip/hip_complex.h"
