// hip/lanelab_hip_heap.h — device heap allocation is not provided (docs/hip-subset.md). Included by
// hip/hip_runtime.h and by the prelude `lanelab hipcc` puts before every HIP translation unit
// (lanelab_hip_prelude.h), so that clang's <new> wrapper (whose device operator new calls
// ::malloc) finds the declarations whichever comes first.
//
// HIP declares device malloc and free with C linkage; so does lanelab, with an `error` attribute:
// a call that reaches device code is a compile error naming them and saying why, while a
// __host__ __device__ function or an unused inline that names them (clang's <new>, libstdc++'s
// <memory>) still compiles, as with HIP.
#ifndef LANELAB_HIP_HEAP_H
#define LANELAB_HIP_HEAP_H
#define LL_HIP_NO_HEAP                                                                              \
  __attribute__((error("not in lanelab's HIP headers: device heap allocation (malloc, free, new, "   \
                       "delete in device code) is not provided (docs/hip-subset.md)")))
extern "C" __attribute__((device)) LL_HIP_NO_HEAP void *malloc(__SIZE_TYPE__ size);
extern "C" __attribute__((device)) LL_HIP_NO_HEAP void free(void *ptr);
#undef LL_HIP_NO_HEAP
#endif
