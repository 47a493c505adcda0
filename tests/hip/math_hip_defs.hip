// math_hip_defs: each math function that HIP defines as a call into ROCm's device library (ocml),
// computed twice on the same input: through lanelab's HIP name (sinf, hlog, ...) and by calling the
// library function that HIP's headers call for it (clang 22's __clang_hip_math.h for float and
// double, ROCm/clr's amd_hip_fp16.h and amd_hip_bf16.h for __half and __hip_bfloat16), declared
// here on its own. tests/test_hip.c wants each pair bit-identical: the instructions of a ROCm build.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

extern "C" __device__ float __ocml_sin_f32(float);
extern "C" __device__ float __ocml_cos_f32(float);
extern "C" __device__ float __ocml_tan_f32(float);
extern "C" __device__ float __ocml_tanh_f32(float);
extern "C" __device__ float __ocml_erf_f32(float);
extern "C" __device__ float __ocml_pow_f32(float, float);
extern "C" __device__ float __ocml_expm1_f32(float);
extern "C" __device__ float __ocml_log1p_f32(float);
extern "C" __device__ float __ocml_rsqrt_f32(float);
extern "C" __device__ float __ocml_sincos_f32(float, __attribute__((opencl_private)) float *);
extern "C" __device__ double __ocml_exp_f64(double);
extern "C" __device__ double __ocml_exp2_f64(double);
extern "C" __device__ double __ocml_log_f64(double);
extern "C" __device__ double __ocml_log2_f64(double);
extern "C" __device__ double __ocml_rsqrt_f64(double);

// float: NF pairs of 32-bit words per input, then the double ones as two words each
enum { NF = 11, ND = 5, NWF = 2 * NF + 4 * ND };
extern "C" __global__ void math_defs_f(const float *xs, unsigned *o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = xs[i], a = fabsf(x);
  unsigned *r = o + (size_t)i * NWF;
  float s, c, t;
  sincosf(x, &s, &c);
  const float os = __ocml_sincos_f32(x, (__attribute__((opencl_private)) float *)&t);
  const float f[NF][2] = {{sinf(x), __ocml_sin_f32(x)},       {cosf(x), __ocml_cos_f32(x)},
                          {tanf(x), __ocml_tan_f32(x)},       {tanhf(x), __ocml_tanh_f32(x)},
                          {erff(x), __ocml_erf_f32(x)},       {powf(a, 0.75f), __ocml_pow_f32(a, 0.75f)},
                          {expm1f(x), __ocml_expm1_f32(x)},   {log1pf(a), __ocml_log1p_f32(a)},
                          {rsqrtf(a), __ocml_rsqrt_f32(a)},   {s, os},
                          {c, t}};
  for (int k = 0; k < NF; k++) r[2 * k] = __float_as_uint(f[k][0]), r[2 * k + 1] = __float_as_uint(f[k][1]);
  const double d = (double)x * 1.7, da = fabs(d);
  const double g[ND][2] = {{exp(d), __ocml_exp_f64(d)}, {exp2(d), __ocml_exp2_f64(d)}, {log(da), __ocml_log_f64(da)},
                           {log2(da), __ocml_log2_f64(da)}, {rsqrt(da), __ocml_rsqrt_f64(da)}};
  for (int k = 0; k < ND; k++) {
    const unsigned long long u = __double_as_longlong(g[k][0]), v = __double_as_longlong(g[k][1]);
    r[2 * NF + 4 * k] = (unsigned)u, r[2 * NF + 4 * k + 1] = (unsigned)(u >> 32);
    r[2 * NF + 4 * k + 2] = (unsigned)v, r[2 * NF + 4 * k + 3] = (unsigned)(v >> 32);
  }
}

// __half over every 16-bit pattern h (the global index) and the pair (h, h ^ 0x8001) for the
// two-lane forms; __hip_bfloat16 over every pattern too: NH pairs of 16-bit values per index. Not
// hsin: lanelab keeps its own, as Debian's __ocml_sin_f16 is NaN for finite inputs
// (lanelab_hip_fp16.h; tests/test_hip.c checks hsin against the sine itself).
#define H1(sfx) extern "C" __device__ _Float16 __ocml_##sfx##_f16(_Float16);
#define H2(sfx) extern "C" __device__ __2f16 __ocml_##sfx##_2f16(__2f16);
typedef _Float16 __2f16 __attribute__((ext_vector_type(2)));
H1(sqrt) H1(rsqrt) H1(exp) H1(exp2) H1(exp10) H1(log) H1(log2) H1(log10) H1(cos) H1(ceil) H1(floor) H1(trunc) H1(rint)
H2(sqrt) H2(rsqrt) H2(exp) H2(exp2) H2(exp10) H2(log) H2(log2) H2(log10) H2(cos) H2(ceil) H2(floor) H2(trunc) H2(rint)
enum { NH = 14 + 2 * 14 + 2 };
static __device__ unsigned short hb(__half h) { return __half_as_ushort(h); }
static __device__ unsigned short fb(_Float16 f) { return __builtin_bit_cast(unsigned short, f); }
extern "C" __global__ void math_defs_h(unsigned short *o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half h = __ushort_as_half((unsigned short)i), h1 = __ushort_as_half((unsigned short)(i ^ 0x8001));
  const _Float16 f = __builtin_bit_cast(_Float16, (unsigned short)i);
  const __half2 p(h, h1);
  const __2f16 q = {f, __builtin_bit_cast(_Float16, (unsigned short)(i ^ 0x8001))};
  unsigned short *r = o + (size_t)i * (2 * NH + 1);
  int k = 0;
#define P1(sfx)                                                                                    \
  r[k++] = hb(h##sfx(h)), r[k++] = fb(__ocml_##sfx##_f16(f));
#define P2(sfx)                                                                                    \
  {                                                                                                \
    const __half2 w = h2##sfx(p);                                                                  \
    const __2f16 z = __ocml_##sfx##_2f16(q);                                                       \
    r[k++] = hb(w.x), r[k++] = fb(z.x), r[k++] = hb(w.y), r[k++] = fb(z.y);                          \
  }
  P1(sqrt) P1(rsqrt) P1(exp) P1(exp2) P1(exp10) P1(log) P1(log2) P1(log10) P1(cos) P1(ceil) P1(floor)
  P1(trunc) P1(rint)
  r[k++] = hb(hrcp(h)), r[k++] = fb((_Float16)1.0f / f);
  P2(sqrt) P2(rsqrt) P2(exp) P2(exp2) P2(exp10) P2(log) P2(log2) P2(log10) P2(cos) P2(ceil) P2(floor)
  P2(trunc) P2(rint)
  {
    const __half2 w = h2rcp(p);
    const __2f16 z = __2f16{(_Float16)1.0f, (_Float16)1.0f} / q;
    r[k++] = hb(w.x), r[k++] = fb(z.x), r[k++] = hb(w.y), r[k++] = fb(z.y);
  }
  // bfloat16: ROCm's hrsqrt and hrcp round ocml's rsqrt and float's 1.0f / x once
  const __hip_bfloat16 b = __ushort_as_bfloat16((unsigned short)i);
  const float bf = __bfloat162float(b);
  r[k++] = __bfloat16_as_ushort(hrsqrt(b)), r[k++] = __bfloat16_as_ushort(__float2bfloat16(__ocml_rsqrt_f32(bf)));
  r[k++] = __bfloat16_as_ushort(hrcp(b)), r[k++] = __bfloat16_as_ushort(__float2bfloat16(1.0f / bf));
  r[k++] = hb(hsin(h)); // lanelab's own, checked against the sine
}
