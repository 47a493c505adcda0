// Test inputs for tests/test_runtime.c (compiled by the test at run time). Plain HIP with clang
// builtins only (-nogpuinc -nogpulib): the attributes are what HIP's __global__/__shared__ mean.
#define KERNEL extern "C" __attribute__((global))
#define SHARED __attribute__((shared))

// out[i] = in[i] * 2 + 1 for i < n; blockDim.x comes from the hidden group-size argument.
KERNEL void affine(const float *in, float *out, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}

// By-value arguments of sizes 8, 8, 1 around a pointer, and one of 2 bytes.
KERNEL void mixed(double x, int *out, long long y, char c, short s) {
  out[__builtin_amdgcn_workitem_id_x()] = (int)(x + (double)y + c + s);
}

// Dynamic LDS (extern shared): its size reaches the kernel as hidden_dynamic_lds_size.
// For a power-of-two block size B: out[wg * B + t] = 3 * ((t + 1) % B).
KERNEL void dynlds(unsigned *out) {
  extern SHARED unsigned buf[];
  unsigned t = __builtin_amdgcn_workitem_id_x(), b = __builtin_amdgcn_workgroup_size_x();
  buf[t] = t * 3;
  __builtin_amdgcn_s_barrier();
  out[__builtin_amdgcn_workgroup_id_x() * b + t] = buf[(t + 1) & (b - 1)];
}

// Reads the HSA kernel dispatch packet (the dispatch pointer user SGPRs): lane t < 4 of
// workgroup 0 stores one field, so the runtime's packet can be checked from the host.
KERNEL void packet(unsigned *out) {
  const unsigned short *p16 = (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  const unsigned *p32 = (const unsigned *)p16;
  unsigned t = __builtin_amdgcn_workitem_id_x();
  if (__builtin_amdgcn_workgroup_id_x() == 0 && t < 4)
    out[t] = t == 0 ? p16[1] : t == 1 ? p16[2] : t == 2 ? p32[3] : p32[7];
}

// A scalar load that runs past the end of the kernarg segment, as the AMDGPU backend's widened
// kernarg loads do (clang-22: `s_load_dwordx8 s[36:43], s[0:1], 0x68` in a 132-byte segment).
// off = segment size - 4, so the 64-byte load reads 60 bytes beyond the segment; out[0] gets the
// last of them.
KERNEL void kernarg_overread(unsigned *out, unsigned off) {
  const char *ka = (const char *)__builtin_amdgcn_kernarg_segment_ptr() + off;
  unsigned last;
  __asm__ volatile("s_load_dwordx16 s[16:31], %1, 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 %0, s31"
                   : "=s"(last)
                   : "s"(ka)
                   : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26",
                     "s27", "s28", "s29", "s30", "s31", "memory");
  if (__builtin_amdgcn_workitem_id_x() == 0) out[0] = last;
}
