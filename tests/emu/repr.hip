// Representative HIP kernels for the emulator's decoder/coverage tests (tests/test_emu.c compiles
// this at -O1..-O3 for gfx942 and gfx950): integer and float math, f16/bf16, conversions,
// transcendental functions, LDS, atomics, loops, divergence, 64-bit addressing.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
typedef unsigned int u32;
typedef unsigned long long u64;
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef float f4 __attribute__((ext_vector_type(4)));
static __attribute__((device)) inline u32 tid() { return __builtin_amdgcn_workitem_id_x(); }
static __attribute__((device)) inline u32 gid() { return __builtin_amdgcn_workgroup_id_x() * 256 + tid(); }

extern "C" __global__ void r_int(int *out, const int *a, const int *b, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  int x = a[i], y = b[i];
  int r = x * y + (x >> 3) - (y << 2);
  r ^= (x & 0xff0) | (y | 7);
  r += x / (y | 1) + (u32)x % (u32)(y | 3);
  r += __builtin_popcount(x) + __builtin_clz(y | 1) + __builtin_ctz(x | 0x100);
  r += x < y ? x : y;
  r += (x > y ? x : y) * 3;
  r += (int)((long long)x * y >> 32);
  r += (u32)x >> (y & 31);
  r = __builtin_bitreverse32(r) + __builtin_bswap32(x);
  out[i] = r;
}

extern "C" __global__ void r_float(float *out, const float *a, const float *b, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  float x = a[i], y = b[i];
  float r = x * y + x / y - __builtin_fabsf(y);
  r += __builtin_sqrtf(__builtin_fabsf(x)) + __builtin_expf(x * 0.01f) + __builtin_logf(__builtin_fabsf(y) + 1.0f);
  r += __builtin_exp2f(y * 0.1f) + __builtin_log2f(__builtin_fabsf(x) + 2.0f);
  r += __builtin_fminf(x, y) + __builtin_fmaxf(x, y) + __builtin_floorf(x) + __builtin_ceilf(y) + __builtin_truncf(x) + __builtin_rintf(y);
  r += __builtin_fmaf(x, y, 0.5f) + 1.0f / __builtin_sqrtf(__builtin_fabsf(y) + 1.0f);
  r += (float)(int)x + (float)(u32)__builtin_fabsf(y);
  r = __builtin_isnan(r) ? 0.0f : r;
  r += __builtin_copysignf(1.0f, x) + __builtin_amdgcn_rcpf(y) + __builtin_amdgcn_rsqf(x);
  out[i] = r;
}

extern "C" __global__ void r_double(double *out, const double *a, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  double x = a[i];
  out[i] = x * 3.0 + x / (x + 1.5) + __builtin_sqrt(__builtin_fabs(x)) + (double)(int)x + __builtin_fma(x, x, 1.0) + __builtin_floor(x);
}

extern "C" __global__ void r_half(_Float16 *out, const _Float16 *a, const __bf16 *bb, float *fo, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  h2 x = ((const h2 *)a)[i];
  h2 y = x * x + x - (h2){1.0f16, 2.0f16};
  y = __builtin_elementwise_max(y, x);
  ((h2 *)out)[i] = y;
  _Float16 s = a[i] * (_Float16)3.0f + a[n + i] / a[i];
  out[2 * n + i] = s;
  float bf = (float)bb[i] * 2.0f;
  fo[i] = (float)s + bf;
  ((__bf16 *)fo)[2 * n + i] = (__bf16)(bf + 1.0f);
}

extern "C" __global__ void r_lds(float *out, const float *a, int n) {
  __shared__ float t[1024];
  __shared__ double d[256];
  __shared__ f4 q[256];
  u32 x = tid();
  t[x] = a[gid()];
  t[x + 256] = a[gid()] * 2.0f;
  t[x + 512] = a[gid()] + 1.0f;
  t[x + 768] = 3.0f;
  d[x] = a[gid()];
  q[x] = (f4){1.0f, 2.0f, 3.0f, a[gid()]};
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); /* before the barrier: waits for the stores */
  __builtin_amdgcn_s_barrier();
  float s = t[255 - x] + t[(x * 7) & 1023] + t[x + 64] + (float)d[x ^ 1];
  f4 v = q[x ^ 3];
  s += v.x + v.y + v.z + v.w;
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  __builtin_amdgcn_s_barrier();
  __atomic_fetch_add((int *)&t[x & 15], 1, __ATOMIC_RELAXED);
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  __builtin_amdgcn_s_barrier();
  out[gid()] = s + t[x & 15];
}

extern "C" __global__ void r_atomic(int *cnt, float *fsum, u32 *mx, const float *a, int n) {
  u32 i = gid();
  if (i < (u32)n) {
    __atomic_fetch_add(cnt, 1, __ATOMIC_RELAXED);
    __atomic_fetch_max(mx, (u32)i, __ATOMIC_RELAXED);
    __hip_atomic_fetch_add(fsum, a[i], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  }
}

extern "C" __global__ void r_loop(float *out, const float *a, int n, int k) {
  u32 i = gid();
  float s = 0.0f;
  for (int j = 0; j < k; j++) {
    float v = a[(i + j * 17) % (u32)n];
    if (v > 0.0f) s += v * v; else s -= v;
  }
  out[i] = s;
}

extern "C" __global__ void r_u64(u64 *out, const u64 *a, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  u64 x = a[i];
  out[i] = x * 0x9E3779B97F4A7C15ull + (x >> 13) + (x << 7) + x / 7 + __builtin_popcountll(x) + (x < 100 ? 1 : 0);
}

extern "C" __global__ void r_vec(f4 *out, const f4 *a, const int *idx, int n) {
  u32 i = gid();
  if (i >= (u32)n) return;
  f4 v = a[idx[i]];
  __builtin_nontemporal_store(v * 2.0f, &out[i]);
  out[n + i] = __builtin_nontemporal_load(&a[i]);
}

extern "C" __global__ void r_xlane(int *out, const int *a) {
  u32 i = gid();
  int v = a[i];
  v += __builtin_amdgcn_readfirstlane(v);
  v += __builtin_amdgcn_readlane(v, 5);
  v = __builtin_amdgcn_ds_bpermute((int)((tid() ^ 1) * 4), v);
  v += __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  u64 b = __builtin_amdgcn_ballot_w64(v > 0);
  out[i] = v + (int)__builtin_popcountll(b);
}
