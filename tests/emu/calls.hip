// Kernels for tests/test_emu.c kernel/a_launch_runs_its_kernels_own_code (emu/decode.c
// emu_codeobj_kernel_program): one calls a function kept out of line (s_swappc_b64 into code
// outside the kernel's symbol), two do not (one with a loop: branches inside its code).
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
typedef unsigned int u32;
static __device__ inline u32 gid() { return __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x(); }

extern "C" __device__ __attribute__((noinline)) int mix(int x, int y) { return x * 3 + (y ^ 5); }

extern "C" __global__ void k_call(int *out, const int *a, int n) {
  u32 i = gid();
  if (i < (u32)n) out[i] = mix(a[i], (int)i);
}

extern "C" __global__ void k_plain(int *out, const int *a, int n) {
  u32 i = gid();
  if (i < (u32)n) out[i] = a[i] * 7 - (int)i;
}

extern "C" __global__ void k_loop(int *out, const int *a, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  int s = 0;
  for (int j = 0; j <= (a[i] & 15); j++) s += j * (int)i + a[i];
  out[i] = s;
}
