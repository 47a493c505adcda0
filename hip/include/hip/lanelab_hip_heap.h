// hip/lanelab_hip_heap.h — device heap allocation: malloc and free in device code (docs/hip-runtime.md
// "Device malloc and free"). Included by hip/hip_runtime.h and by the prelude `lanelab hipcc` puts
// before every HIP translation unit (lanelab_hip_prelude.h), so that clang's <new> wrapper (whose
// device operator new and delete call ::malloc and ::free) finds the declarations whichever comes
// first.
//
// HIP declares device malloc and free with C linkage; so does lanelab. With ROCm's device library
// (LANELAB_HIP_OCML: isa/cc.c links ocml and ockl) they are ockl's heap, as in ROCm's HIP:
// __ockl_dm_alloc and __ockl_dm_dealloc, which keep the heap's state in device memory
// (hidden_heap_v1) and ask the host for slabs and large blocks by hostcall (the emulator's
// runtime/rt_hostcall.c serves them). free(NULL) does nothing, as C's free (ockl's would ask the host
// to free address 0). Without the device library they carry an `error` attribute: a call that
// reaches device code is a compile error naming them and saying why, while a __host__ __device__
// function or an unused inline that names them (clang's <new>, libstdc++'s <memory>) still compiles.
#ifndef LANELAB_HIP_HEAP_H
#define LANELAB_HIP_HEAP_H
#ifdef LANELAB_HIP_OCML
extern "C" __attribute__((device)) __attribute__((address_space(1))) void *__ockl_dm_alloc(__UINT64_TYPE__ size);
extern "C" __attribute__((device)) void __ockl_dm_dealloc(__UINT64_TYPE__ ptr);
extern "C" __attribute__((device)) inline void *malloc(__SIZE_TYPE__ size) { return (void *)__ockl_dm_alloc(size); }
extern "C" __attribute__((device)) inline void free(void *ptr) {
  if (ptr) __ockl_dm_dealloc((__UINT64_TYPE__)ptr);
}
#else
#define LL_HIP_NO_HEAP                                                                              \
  __attribute__((error("not in lanelab's HIP headers: device heap allocation (malloc, free, new, "   \
                       "delete in device code) needs ROCm's device library (rocm-device-libs; "      \
                       "docs/hip-subset.md)")))
extern "C" __attribute__((device)) LL_HIP_NO_HEAP void *malloc(__SIZE_TYPE__ size);
extern "C" __attribute__((device)) LL_HIP_NO_HEAP void free(void *ptr);
#undef LL_HIP_NO_HEAP
#endif
#endif
