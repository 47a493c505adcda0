// lanelab_device.h — the small device vocabulary lanelab's kernels use, built from clang builtins
// only, so a kernel compiles with `-x hip -nogpuinc -nogpulib` (Debian clang-22 here, hipcc or
// ROCm clang on a ROCm machine) without any HIP header.
//
// Contract:
//   __global__ __device__ __shared__ __host__   attribute macros (defined only when absent)
//   uint8_t … uint64_t, int8_t … int64_t        fixed-width integers (clang's __INTn_TYPE__)
//   ll_half, ll_bf16 and their x2/x4/x8 vectors; ll_u32x2/x3/x4/x16, ll_i16x4, ll_i32x2/x3, ll_f32x4/x16
//   ll_lds_byte / ll_lds_u32 …                  types in the LDS address space (address_space(3))
//   threadIdx.x|y|z, blockIdx.x|y|z, blockDim.x|y|z   HIP-style accessors (when HIP's are absent)
//   ll_thread_id_x() ll_block_id_x() ll_block_dim_x() (and _y, _z)   the same as functions
//   ll_lane_id()                                lane 0..63 within the wave (v_mbcnt_lo/hi)
//   __syncthreads()                             workgroup release fence, s_barrier, acquire fence
//   ll_shfl_xor(v, mask) / __shfl_xor(v, mask)  ds_bpermute_b32 with address (lane ^ mask) * 4; v a
//                                               32-bit integer (HIP's typed forms: hip/hip_runtime.h)
//   ll_lds_addr(p)                              the 32-bit LDS byte address of an LDS pointer
//   LL_PHASE(id), ll_phase::{none,stage,qk,softmax,pv,epilogue}   phase marker (see below)
//
// Hidden kernel arguments: only blockDim uses one. clang-22 lowers
// __builtin_amdgcn_workgroup_size_{x,y,z} under code object v5 (its default) to a 16-bit load of
// hidden_group_size_{x,y,z} from the implicit kernarg block (LLVM AMDGPUUsage, "Code Object V5
// Metadata": hidden_group_size_x is at offset 12 of the hidden arguments; checked here on clang-22
// output: `s_load_dword s3, s[0:1], 0x1c` + `s_and_b32 0xffff` for a kernel with two pointer
// arguments, i.e. 16 + 12). A kernel that never reads blockDim uses no hidden argument; the
// micro-kernels never do. gridDim is deliberately not provided (no kernel needs it yet).
#ifndef LANELAB_DEVICE_H
#define LANELAB_DEVICE_H

#if !defined(__HIP__) && !defined(__CUDA__)
#error "lanelab_device.h is device code: compile with -x hip (clang) or hipcc"
#endif

// HIP's own headers (hip_runtime.h — ROCm's or lanelab's subset, hip/include — or clang's
// __clang_hip_runtime_wrapper.h that clang includes unless -nogpuinc) define the same names; when
// one is included first we use theirs and only add the ll_ names (lanelab's subset refuses to
// come second).
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) || defined(__CLANG_HIP_RUNTIME_WRAPPER_H__)
#define LANELAB_HAVE_HIP_HEADERS 1
#else
#define LANELAB_HAVE_HIP_HEADERS 0
#endif

// ---- attributes --------------------------------------------------------------------------------
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#define LL_INLINE __device__ inline __attribute__((always_inline))

// ---- fixed-width integers ----------------------------------------------------------------------
// The same underlying types <stdint.h> picks on this target, so a later <stdint.h> redeclares
// them compatibly.
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;

// ---- vectors -----------------------------------------------------------------------------------
typedef _Float16 ll_half;
typedef __bf16 ll_bf16;
typedef ll_half ll_halfx2 __attribute__((ext_vector_type(2)));
typedef ll_half ll_halfx4 __attribute__((ext_vector_type(4)));
typedef ll_half ll_halfx8 __attribute__((ext_vector_type(8)));
typedef ll_bf16 ll_bf16x2 __attribute__((ext_vector_type(2)));
typedef ll_bf16 ll_bf16x4 __attribute__((ext_vector_type(4)));
typedef ll_bf16 ll_bf16x8 __attribute__((ext_vector_type(8)));
typedef int16_t ll_i16x4 __attribute__((ext_vector_type(4)));
typedef int32_t ll_i32x2 __attribute__((ext_vector_type(2)));
typedef int32_t ll_i32x3 __attribute__((ext_vector_type(3)));
typedef uint32_t ll_u32x2 __attribute__((ext_vector_type(2)));
typedef uint32_t ll_u32x3 __attribute__((ext_vector_type(3)));
typedef uint32_t ll_u32x4 __attribute__((ext_vector_type(4)));
typedef float ll_f32x4 __attribute__((ext_vector_type(4)));
typedef float ll_f32x16 __attribute__((ext_vector_type(16)));
typedef uint32_t ll_u32x16 __attribute__((ext_vector_type(16)));

// ---- LDS address space -------------------------------------------------------------------------
// A __shared__ variable lives in LDS (AMDGPU address space 3), but C++ sees its address as a
// generic pointer; accesses through an address_space(3) pointer compile to ds_* instructions
// without relying on address-space inference. Derive LDS pointers from the __shared__ object
// itself (a pointer made from an integer would let the optimizer drop stores to an object that
// is never read through its own name).
typedef __attribute__((address_space(3))) uint8_t ll_lds_byte;
typedef __attribute__((address_space(3))) uint32_t ll_lds_u32;
typedef __attribute__((address_space(3))) ll_u32x2 ll_lds_u32x2;
typedef __attribute__((address_space(3))) ll_u32x3 ll_lds_u32x3;
typedef __attribute__((address_space(3))) ll_i16x4 ll_lds_i16x4;
typedef __attribute__((address_space(3))) ll_i32x2 ll_lds_i32x2;
typedef __attribute__((address_space(3))) ll_i32x3 ll_lds_i32x3;
typedef __attribute__((address_space(3))) uint16_t ll_lds_u16;

// The LDS byte address an ll_lds_* pointer holds (LDS pointers are 32-bit).
LL_INLINE uint32_t ll_lds_addr(const volatile ll_lds_byte *p) {
  return (uint32_t)(__SIZE_TYPE__)p;
}

// ---- ids ---------------------------------------------------------------------------------------
LL_INLINE uint32_t ll_thread_id_x() { return __builtin_amdgcn_workitem_id_x(); }
LL_INLINE uint32_t ll_thread_id_y() { return __builtin_amdgcn_workitem_id_y(); }
LL_INLINE uint32_t ll_thread_id_z() { return __builtin_amdgcn_workitem_id_z(); }
LL_INLINE uint32_t ll_block_id_x() { return __builtin_amdgcn_workgroup_id_x(); }
LL_INLINE uint32_t ll_block_id_y() { return __builtin_amdgcn_workgroup_id_y(); }
LL_INLINE uint32_t ll_block_id_z() { return __builtin_amdgcn_workgroup_id_z(); }
// Hidden argument hidden_group_size_{x,y,z}: see the file comment.
LL_INLINE uint32_t ll_block_dim_x() { return __builtin_amdgcn_workgroup_size_x(); }
LL_INLINE uint32_t ll_block_dim_y() { return __builtin_amdgcn_workgroup_size_y(); }
LL_INLINE uint32_t ll_block_dim_z() { return __builtin_amdgcn_workgroup_size_z(); }

// Lane within the wave64: v_mbcnt_lo/hi count the set bits of ~0 below this lane
// (CDNA3 ISA §12 VOP3 V_MBCNT_LO_U32_B32 / V_MBCNT_HI_U32_B32). Unlike threadIdx.x % 64 it does
// not depend on the block shape.
LL_INLINE uint32_t ll_lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

#if !LANELAB_HAVE_HIP_HEADERS
// threadIdx.x etc. as properties, the technique clang's own CUDA/HIP builtin-variable headers
// use (__declspec(property) is accepted in HIP mode), so `threadIdx.y` emits only the y id.
struct ll_thread_idx_t {
  __declspec(property(get = get_x)) uint32_t x;
  __declspec(property(get = get_y)) uint32_t y;
  __declspec(property(get = get_z)) uint32_t z;
  static LL_INLINE uint32_t get_x() { return ll_thread_id_x(); }
  static LL_INLINE uint32_t get_y() { return ll_thread_id_y(); }
  static LL_INLINE uint32_t get_z() { return ll_thread_id_z(); }
};
struct ll_block_idx_t {
  __declspec(property(get = get_x)) uint32_t x;
  __declspec(property(get = get_y)) uint32_t y;
  __declspec(property(get = get_z)) uint32_t z;
  static LL_INLINE uint32_t get_x() { return ll_block_id_x(); }
  static LL_INLINE uint32_t get_y() { return ll_block_id_y(); }
  static LL_INLINE uint32_t get_z() { return ll_block_id_z(); }
};
struct ll_block_dim_t {
  __declspec(property(get = get_x)) uint32_t x;
  __declspec(property(get = get_y)) uint32_t y;
  __declspec(property(get = get_z)) uint32_t z;
  static LL_INLINE uint32_t get_x() { return ll_block_dim_x(); }
  static LL_INLINE uint32_t get_y() { return ll_block_dim_y(); }
  static LL_INLINE uint32_t get_z() { return ll_block_dim_z(); }
};
extern const __device__ ll_thread_idx_t threadIdx;
extern const __device__ ll_block_idx_t blockIdx;
extern const __device__ ll_block_dim_t blockDim;
#endif

// ---- barrier -----------------------------------------------------------------------------------
// A workgroup barrier that also orders LDS/global memory between the waves of the group: release
// fence, s_barrier, acquire fence (the fences emit the s_waitcnt the barrier needs; this is how
// HIP's __syncthreads is built, hip/amd_detail/amd_device_functions.h __work_group_barrier).
LL_INLINE void ll_syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// ---- cross-lane --------------------------------------------------------------------------------
// ds_bpermute_b32: lane L receives the value of lane ((addr)/4) mod 64 (CDNA3 ISA §11, DS
// instructions, DS_BPERMUTE_B32). HIP's __shfl_xor(var, mask) with the default width 64 lowers to
// this with addr = (lane ^ mask) * 4. One ds_bpermute_b32 per call.
LL_INLINE uint32_t ll_shfl_xor(uint32_t v, uint32_t mask) {
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)((ll_lane_id() ^ mask) << 2), (int)v);
}
// Gather from an explicit source lane (0..63).
LL_INLINE uint32_t ll_shfl(uint32_t v, uint32_t src_lane) {
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)(src_lane << 2), (int)v);
}

// ---- phase markers -----------------------------------------------------------------------------
// LL_PHASE(id) marks that the wave enters phase `id` (until the next marker), so lanelab's
// emulator can count executed instructions per phase (emu/emu.h, emu_launch_stats.phase_count):
// e.g. ds_bpermute_b32 per MFMA in prefill's QK and PV phases on each arch.
//
// Choice: __builtin_amdgcn_s_ttracedata(v), which clang-22 accepts for gfx942 and gfx950 and
// lowers to `s_mov_b32 m0, v` + `s_ttracedata` (checked on this toolchain). S_TTRACEDATA "sends
// M0 as user data to the thread trace" (CDNA3 ISA, "SOPP Instructions"); with thread trace off —
// every ordinary run — it does nothing, and M0 carries nothing else in these kernels (gfx9 LDS
// instructions do not read M0 since gfx9; the compiler re-materialises M0 where an instruction
// needs it). Alternatives rejected: s_nop/s_sleep/s_setprio have a timing effect; s_setreg to a
// scratch HW register is not a no-op; an inline-asm comment is invisible to the code object;
// __builtin_amdgcn_s_ttracedata_imm needs gfx10-insts (clang-22 rejects it for gfx942/gfx950).
// Cost on hardware: two SALU instructions per marker. The value carries a tag in its high half
// ("LL", 0x4c4c) so trace data a user kernel sends for its own purposes does not look like a
// phase to the emulator; emu recognises M0 = LL_PHASE_TAG | id for id < 8 (EMU_PHASE_TAG,
// EMU_MAX_PHASES) and leaves the phase unchanged for any other value. Markers are side-effecting
// instructions, so the compiler keeps them in program order among other side effects and memory
// operations; arithmetic may still be scheduled across one, which is why the emulator's phase
// counts are "what executed between two markers", and verify checks the ones it relies on.
// -DLANELAB_NO_PHASES=1 compiles the markers out (for a byte-identity check against a revision
// without them).
#define LL_PHASE_TAG 0x4c4c0000u
enum class ll_phase : uint32_t { none = 0, stage = 1, qk = 2, softmax = 3, pv = 4, epilogue = 5 };
#if defined(LANELAB_NO_PHASES) && LANELAB_NO_PHASES
#define LL_PHASE(id) ((void)0)
#else
#define LL_PHASE(id)                                                                               \
  do {                                                                                             \
    __builtin_amdgcn_sched_barrier(0);                                                             \
    __builtin_amdgcn_s_ttracedata((int)(LL_PHASE_TAG | (uint32_t)(id)));                           \
    __builtin_amdgcn_sched_barrier(0);                                                             \
  } while (0)
#endif

#if !LANELAB_HAVE_HIP_HEADERS
#define __syncthreads() ll_syncthreads()
// 32-bit integers only: this header once took uint32_t, so a float argument was converted to an
// integer without a word (a GEMM's row sums came out wrong). HIP's typed shuffles are in
// <hip/hip_runtime.h> (lanelab's HIP subset, hip/include).
template <class T> LL_INLINE T __shfl_xor(T v, uint32_t mask) {
  static_assert(__is_integral(T) && sizeof(T) == 4,
                "lanelab_device.h's __shfl_xor moves 32-bit integers only; include <hip/hip_runtime.h> "
                "(before this header) for HIP's shuffles of float, double, 64-bit and __half values");
  return (T)ll_shfl_xor((uint32_t)v, mask);
}
#endif

#endif // LANELAB_DEVICE_H
