// vocab_libstd: what libraries take for granted from hip_runtime.h with ROCm: libstdc++ headers
// after it (<memory>, <algorithm>, <limits>; <type_traits> without including it), a __noinline__
// device function (kept a call, not inlined), the double-named float overloads (erf(float),
// sin(float), pow(float, float) ...), HIP's min/max (a template and int/float/double
// overloads, so min(int, unsigned) is min(int, int)), ROCm's device-library functions aiter calls
// directly (__ocml_exp_f32, __ocml_fma_f32, __ocml_native_recip_f32), the fast intrinsics
// (__expf, __sinf ...), `dim3 t = threadIdx`, and device assert. vocab_assert traps in lanes whose value is negative.
#include <hip/hip_runtime.h>
#include <memory>
#include <algorithm>
#include <limits>
#include <cassert>

template <class T> struct is_float32 {
  static constexpr bool value = std::is_same<T, float>::value; // <type_traits> came with hip_runtime.h
};

__device__ __noinline__ float kept_call(float x) { return x * 3.0f + 1.0f; }

// A math function passed by name to a template, as aiter's reductions take fmaxf.
template <class F> __device__ float apply2(float a, float b, F op) { return op(a, b); }

__global__ void vocab_libstd(const float *x, const unsigned *u, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float f = x[i];
  float *o = out + i * 16;
  static_assert(is_float32<float>::value && !is_float32<double>::value, "std::is_same");
  o[0] = kept_call(f);
  o[1] = erf(f) - erff(f) + (apply2(f, -f, fmaxf) - fabsf(f)); // the same functions: 0
  o[2] = sin(f) - sinf(f) + (std::exp(f * 0.01f) - expf(f * 0.01f)) + (std::fmax(f, 1.0f) - fmaxf(f, 1.0f)) + (std::expf(f * 0.01f) - expf(f * 0.01f)); // std:: too
  // the same functions (0), and signbit and std::signbit as the sign bit (0 when they agree with it)
  o[3] = pow(fabsf(f), 0.5f) - powf(fabsf(f), 0.5f) + (float)(signbit(f) != (f < 0.0f)) +
         (float)(std::signbit(-(double)f) != (f > 0.0f));
  o[4] = (float)min((int)u[i], u[i] >> 1); // min(int, unsigned) is min(int, int)
  o[5] = max(f, -f);                       // fmaxf
  o[6] = std::numeric_limits<float>::max();
  const dim3 t = threadIdx, b = blockIdx, n = blockDim; // the builtins convert to dim3, as HIP's
  o[7] = (float)std::min((int)(b.x * n.x + t.x), 5);
  o[8] = __ocml_exp_f32(f * 0.01f) - expf(f * 0.01f);
  o[9] = __ocml_fma_f32(f, 2.0f, 1.0f);
  o[10] = __expf(f * 0.01f);
  o[11] = __sinf(f * 0.01f);
  o[12] = __powf(fabsf(f), 1.5f) - powf(fabsf(f), 1.5f);
  o[13] = frexpf(f, (int *)&o[14]);
  o[15] = ldexpf(f, 3);
}

__global__ void vocab_assert(const float *x, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(x[i] >= 0.0f);
  out[i] = x[i];
}
