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
// Each malloc and each free of a non-NULL pointer carries a heap marker (emu/emu.h EMU_HEAP_TAG:
// s_ttracedata with M0 = 0x4c480001 after malloc, v[0:1] the block and v[2:3] the size asked for;
// M0 = 0x4c480002 before free, v[0:1] the pointer). On hardware s_ttracedata does nothing with
// thread trace off (the phase markers' choice, kernels/include/lanelab_device.h); the emulator's
// runtime keeps a table of the blocks from them: `lanelab exec --leakcheck` names each block not
// freed at exit with its malloc's kernel and line, and a free of an address no malloc returned (or
// freed twice) faults at the free's line before ockl sees it.
extern "C" __attribute__((device)) inline void *malloc(__SIZE_TYPE__ size) {
  void *p = (void *)__ockl_dm_alloc(size);
  __asm__ volatile("s_ttracedata ; lanelab device heap: malloc" ::"{m0}"(0x4c480001u), "{v[0:1]}"(p),
                   "{v[2:3]}"((__UINT64_TYPE__)size));
  return p;
}
extern "C" __attribute__((device)) inline void free(void *ptr) {
  if (!ptr) return;
  __asm__ volatile("s_ttracedata ; lanelab device heap: free" ::"{m0}"(0x4c480002u), "{v[0:1]}"(ptr));
  __ockl_dm_dealloc((__UINT64_TYPE__)ptr);
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
