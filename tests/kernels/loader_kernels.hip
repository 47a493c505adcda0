// Test inputs for tests/test_emu_loader.c (compiled by the test at run time for gfx942 and gfx950).
// Plain HIP with clang builtins only (-nogpuinc -nogpulib): the attributes below are what HIP's
// __global__ and __shared__ expand to.
#define KERNEL extern "C" __attribute__((global))
#define SHARED __attribute__((shared))

// Reads blockDim.x through the implicit kernarg (code object v5 hidden_group_size_x), so the
// metadata lists the hidden arguments.
KERNEL void scale(const float *in, float *out, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}

// By-value arguments of sizes 8, 8, 1 around a pointer: offsets with padding.
KERNEL void mixed(double x, int *out, long long y, char c) {
  out[__builtin_amdgcn_workitem_id_x()] = (int)(x + (double)y + c);
}

// Static LDS (1 KiB), 3-D work-item ids, the dispatch pointer, and AGPRs (an inline-asm write to
// a7 makes the compiler allocate AGPRs and set accum_offset).
KERNEL void lds3d(unsigned *out) {
  SHARED unsigned tile[256];
  unsigned t = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workitem_id_y() * 8 +
               __builtin_amdgcn_workitem_id_z() * 64;
  const unsigned short *dp = (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  tile[t & 255] = t + dp[2];
  __builtin_amdgcn_s_barrier();
  unsigned v = tile[(t + 1) & 255];
  asm volatile("v_accvgpr_write_b32 a7, %0" ::"v"(v) : "a7");
  out[t] = v;
}
