// hip/lanelab_hip_math.h — the math functions of lanelab's HIP subset (included by
// hip/hip_runtime.h). With ROCm's device library linked (LANELAB_HIP_OCML, every compile where
// Debian's rocm-device-libs is installed) each function is HIP's definition: the ocml function or
// clang builtin that clang's __clang_hip_math.h calls for it. Without the library, the functions
// HIP takes from ocml are either refused by name or, for the common ones (sinf, powf, exp(double),
// ...), computed here: a clang builtin whose AMDGPU lowering LLVM expands inline or a polynomial
// written here. Measured accuracy (ULP against the correctly rounded value, on lanelab's emulator)
// is in docs/hip-subset.md; tests/test_hip.c measures it and checks the names against ocml's.
//
// Argument rule: as in HIP, a float function is a plain function of float (an integer, a double or
// a __half converts as C++ converts it); the double forms take a double.
#ifndef LANELAB_HIP_MATH_H
#define LANELAB_HIP_MATH_H
// A system header, as clang's own math wrappers are: its tests for infinities and NaNs are no
// -Wnan-infinity-disabled warnings of a program compiled with -ffast-math (they were 366 a compile).
#pragma clang system_header

namespace lanelab_hip {
// ---- double helpers (also used by the float functions that are computed in double) ------------
static constexpr double kLn2Hi = 6.93147180369123816490e-01; // ln 2, top 32 bits (fdlibm's split)
static constexpr double kLn2Lo = 1.90821492927058770002e-10; // ln 2 - kLn2Hi
static constexpr double kInvLn2 = 1.44269504088896338700e+00;
static constexpr double kLn2 = 6.93147180559945286227e-01;
static constexpr double kLn2Tail = 2.3190468138462996e-17;    // ln 2 - kLn2

__device__ __forceinline__ bool dnan(double x) { return x != x; }

// e^r for |r| <= ln2/2 + a little: Taylor series to r^13 (remainder < 5e-18 relative).
__device__ __forceinline__ double exp_poly(double r) {
  double p = 1.0 / 6227020800.0;                   // 1/13!
  p = __builtin_fma(p, r, 1.0 / 479001600.0);      // 1/12!
  p = __builtin_fma(p, r, 1.0 / 39916800.0);
  p = __builtin_fma(p, r, 1.0 / 3628800.0);
  p = __builtin_fma(p, r, 1.0 / 362880.0);
  p = __builtin_fma(p, r, 1.0 / 40320.0);
  p = __builtin_fma(p, r, 1.0 / 5040.0);
  p = __builtin_fma(p, r, 1.0 / 720.0);
  p = __builtin_fma(p, r, 1.0 / 120.0);
  p = __builtin_fma(p, r, 1.0 / 24.0);
  p = __builtin_fma(p, r, 1.0 / 6.0);
  p = __builtin_fma(p, r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  return __builtin_fma(p, r, 1.0);
}

// exp(x): x = n ln2 + r (Cody-Waite with fma), e^r from the series, scaled by 2^n with ldexp
// (which rounds a subnormal result once).
__device__ __forceinline__ double exp_d(double x) {
  if (dnan(x)) return x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -745.1332191019412) return 0.0;
  const double n = __builtin_rint(x * kInvLn2);
  double r = __builtin_fma(-n, kLn2Hi, x);
  r = __builtin_fma(-n, kLn2Lo, r);
  return __builtin_ldexp(exp_poly(r), (int)n);
}

// 2^x: x = n + f exactly (|f| <= 1/2); 2^f = e^t with t = f ln2 carried as t + t_lo.
__device__ __forceinline__ double exp2_d(double x) {
  if (dnan(x)) return x;
  if (x >= 1024.0) return __builtin_inf();
  if (x < -1075.0) return 0.0;
  const double n = __builtin_rint(x);
  const double f = x - n;
  const double t = f * kLn2;
  const double t_lo = __builtin_fma(f, kLn2, -t) + f * kLn2Tail;
  const double p = exp_poly(t);
  return __builtin_ldexp(__builtin_fma(p, t_lo, p), (int)n);
}

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]: with s = f / (2 + f),
// log(1+f) = f - (f^2/2 - s (f^2/2 + R)), R = sum_k 2 s^2k / (2k + 1) (the series of 2 atanh(s);
// the arrangement is fdlibm's e_log.c, the coefficients are the exact series, to k = 10:
// s^2 <= 0.0295, so the remainder is below 1e-18 relative).
// The pieces of that sum: *hfsq = f^2/2 and *sr = s (f^2/2 + R), log(1+f) = f - (hfsq - sr).
__device__ __forceinline__ void log1p_parts(double f, double *hfsq, double *sr) {
  const double s = f / (2.0 + f);
  const double z = s * s;
  double R = 2.0 / 21.0;
  R = __builtin_fma(R, z, 2.0 / 19.0);
  R = __builtin_fma(R, z, 2.0 / 17.0);
  R = __builtin_fma(R, z, 2.0 / 15.0);
  R = __builtin_fma(R, z, 2.0 / 13.0);
  R = __builtin_fma(R, z, 2.0 / 11.0);
  R = __builtin_fma(R, z, 2.0 / 9.0);
  R = __builtin_fma(R, z, 2.0 / 7.0);
  R = __builtin_fma(R, z, 2.0 / 5.0);
  R = __builtin_fma(R, z, 2.0 / 3.0);
  R *= z;
  *hfsq = 0.5 * f * f;
  *sr = s * (*hfsq + R);
}
__device__ __forceinline__ double log1p_red(double f) {
  double hfsq, sr;
  log1p_parts(f, &hfsq, &sr);
  return f - (hfsq - sr);
}

// x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); x finite and > 0.
__device__ __forceinline__ double log_split(double x, int *e) {
  int k;
  double m = __builtin_frexp(x, &k); // [1/2, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    k -= 1;
  }
  *e = k;
  return m - 1.0;
}

// log(1 + f) in *l and e for x = 2^e (1 + f); false with the result in *special when x is NaN,
// +inf, zero or negative.
__device__ __forceinline__ bool log_reduce(double x, int *e, double *l, double *special) {
  if (dnan(x) || x == __builtin_inf()) *special = x;
  else if (x == 0.0) *special = -__builtin_inf();
  else if (x < 0.0) *special = __builtin_nan("");
  else {
    *l = log1p_red(log_split(x, e));
    return true;
  }
  return false;
}

__device__ __forceinline__ double log_d(double x) {
  int e;
  double l, special;
  if (!log_reduce(x, &e, &l, &special)) return special;
  return __builtin_fma((double)e, kLn2Hi, __builtin_fma((double)e, kLn2Lo, l));
}

// log2 needs more than log(1+f) / ln 2: that quotient's error, up to ~0.8 ULP of log(1+f), grows by
// 1/ln 2 = 1.44 (1.12 ULP was measured). So, as fdlibm's e_log2.c arranges it: f - hfsq is split
// into hi (its top 21 significand bits, so hi times the 33-bit head of 1/ln 2 is exact) and lo,
// and the exponent is added with its rounding error carried.
__device__ __forceinline__ double log2_d(double x) {
  if (dnan(x) || x == __builtin_inf()) return x;
  if (x == 0.0) return -__builtin_inf();
  if (x < 0.0) return __builtin_nan("");
  int e;
  const double f = log_split(x, &e);
  double hfsq, sr;
  log1p_parts(f, &hfsq, &sr);
  const double hi = __builtin_bit_cast(double, __builtin_bit_cast(unsigned long long, f - hfsq) & 0xffffffff00000000ull);
  const double lo = (f - hi) - hfsq + sr;
  const double kInvLn2Head = 1.44269504072144627571e+00; // 1/ln 2, top 33 bits
  const double kInvLn2Rest = 1.67517131648865118353e-10; // 1/ln 2 - kInvLn2Head
  const double vhi = hi * kInvLn2Head;
  double vlo = (lo + hi) * kInvLn2Rest + lo * kInvLn2Head;
  const double y = (double)e, w = y + vhi;
  vlo += (y - w) + vhi;
  return vlo + w;
}

// ---- float functions computed in double --------------------------------------------------------
// sin and cos of r, |r| <= pi/4: Taylor series to r^13 / r^12 (remainders < 3e-14 / 4e-13
// relative, far below a float ULP).
__device__ __forceinline__ double sin_poly(double r) {
  const double z = r * r;
  double p = 1.0 / 6227020800.0;
  p = __builtin_fma(p, -z, 1.0 / 39916800.0);
  p = __builtin_fma(p, -z, 1.0 / 362880.0);
  p = __builtin_fma(p, -z, 1.0 / 5040.0);
  p = __builtin_fma(p, -z, 1.0 / 120.0);
  p = __builtin_fma(p, -z, 1.0 / 6.0);
  return __builtin_fma(-z * r, p, r);
}
__device__ __forceinline__ double cos_poly(double r) {
  const double z = r * r;
  double p = 1.0 / 479001600.0;
  p = __builtin_fma(p, -z, 1.0 / 3628800.0);
  p = __builtin_fma(p, -z, 1.0 / 40320.0);
  p = __builtin_fma(p, -z, 1.0 / 720.0);
  p = __builtin_fma(p, -z, 1.0 / 24.0);
  p = __builtin_fma(p, -z, 0.5);
  return __builtin_fma(-z, p, 1.0);
}

// Word i of {0, 0, 2/pi in hexadecimal: 0.A2F9836E 4E441529 ...} (checked with mpmath at 400 bits).
// Selects, not an array: an array would be a constant table in the code object's .rodata, which
// lanelab's emulator does not map.
__device__ __forceinline__ unsigned two_over_pi(int i) {
  return i == 2 ? 0xA2F9836Eu : i == 3 ? 0x4E441529u : i == 4 ? 0xFC2757D1u : i == 5 ? 0xF534DDC0u
       : i == 6 ? 0xDB629599u : i == 7 ? 0x3C439041u : i == 8 ? 0xFE5163ABu : i == 9 ? 0xDEBBC561u : 0u;
}

// Reduction of a finite float x to x = (q + t) pi/2, |t| <= 1/2, returning r = t pi/2 and q mod 4.
// |x| < pi/4: r = x, q = 0. Otherwise exactly as Payne and Hanek: x = m 2^(E-23) with a 24-bit
// integer m; only the bits of 2/pi from weight 2^-(E-24) on matter modulo 4, so m is multiplied by
// the 96-bit window of 2/pi starting there, and bits 95..32 of the 120-bit product are x 2/pi
// modulo 4 with 62 fraction bits. Two zero words precede 2/pi's bits so the window may start
// before 2/pi's first bit.
__device__ __forceinline__ double trig_reduce(float x, int *quadrant) {
  const unsigned ix = __builtin_bit_cast(unsigned, x) & 0x7fffffffu;
  if (ix < 0x3f490fdbu) { // |x| < pi/4
    *quadrant = 0;
    return (double)x;
  }
  const int E = (int)(ix >> 23) - 127;
  const unsigned long long m = (ix & 0x7fffffu) | 0x800000u;
  const int j0 = E - 25 + 64;             // first bit of the window, counted from two_over_pi[0]
  const int q = j0 >> 5, o = j0 & 31;
  unsigned a[3];
  for (int i = 0; i < 3; i++) {
    const unsigned long long w = (unsigned long long)two_over_pi(q + i) << 32 | two_over_pi(q + i + 1);
    a[i] = (unsigned)(w >> (32 - o));
  }
  const unsigned long long p2 = m * a[2], p1 = m * a[1], p0 = m * a[0];
  const unsigned long long lo = p2 + (p1 << 32);
  const unsigned long long hi = p0 + (p1 >> 32) + (lo < p2 ? 1u : 0u);
  const unsigned long long h = hi << 32 | lo >> 32; // bits 95..32: 2 integer bits, 62 fraction bits
  const unsigned long long f = h << 2;
  int quad = (int)(h >> 62) + (int)(f >> 63);       // a fraction >= 1/2 rounds to the next quadrant
  double r = (double)(long long)f * 0x1p-64 * 1.57079632679489661923;
  if (x < 0.0f) {
    r = -r;
    quad = -quad;
  }
  *quadrant = quad & 3;
  return r;
}
} // namespace lanelab_hip

// ---- float functions ------------------------------------------------------------------------------
// Each is a plain function of float, as HIP declares it (clang's __clang_hip_math.h), so its name
// can be passed as a function (aiter's mhc_kernels passes fmaxf to a reduction template); a double
// argument converts as C++ converts it, as in HIP.
#define LL_HIP_F1(fn, ...) LL_HIP_FN float fn(float x) { __VA_ARGS__ }
#define LL_HIP_F2(fn, ...) LL_HIP_FN float fn(float x, float y) { __VA_ARGS__ }

LL_HIP_F1(sqrtf, return __builtin_sqrtf(x);)
LL_HIP_F1(fabsf, return __builtin_fabsf(x);)
LL_HIP_F1(expf, return __builtin_expf(x);)
LL_HIP_F1(exp2f, return __builtin_exp2f(x);)
LL_HIP_F1(logf, return __builtin_logf(x);)
#ifdef __CLANG_GPU_APPROX_TRANSCENDENTALS__ // HIP's __log2f under -ffast-math, one v_log_f32
LL_HIP_F1(log2f, return __builtin_amdgcn_logf(x);)
#else
LL_HIP_F1(log2f, return __builtin_log2f(x);)
#endif
LL_HIP_F1(floorf, return __builtin_floorf(x);)
LL_HIP_F1(ceilf, return __builtin_ceilf(x);)
LL_HIP_F1(truncf, return __builtin_truncf(x);)
LL_HIP_F1(rintf, return __builtin_rintf(x);)
LL_HIP_F1(roundf, return __builtin_roundf(x);)
// Fast forms, as HIP's: one v_exp_f32 / v_log_f32 / v_rcp_f32 (hardware accuracy ~1 ULP of that
// instruction, plus the extra rounding of the scaling multiply; no special handling of denormals).
// Fast forms, as clang's __clang_hip_math.h defines them for HIP: __expf is one v_exp_f32 of
// x log2(e) (hardware accuracy ~1 ULP of that instruction, plus the extra rounding of the
// scaling multiply; no special handling of denormals); __logf is the accurate logf and
// __fdividef the correctly rounded division.
LL_HIP_F1(__expf, return __builtin_amdgcn_exp2f(x * 1.44269504088896341f);)
LL_HIP_F1(__logf, return __builtin_logf(x);)
LL_HIP_F2(__fdividef, return x / y;)
LL_HIP_F2(fmaxf, return __builtin_fmaxf(x, y);)
LL_HIP_F2(fminf, return __builtin_fminf(x, y);)
LL_HIP_F2(fdividef, return x / y;)
LL_HIP_F2(copysignf, return __builtin_copysignf(x, y);)
LL_HIP_FN float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }

#ifndef LANELAB_HIP_OCML // lanelab's own, for a compile without ROCm's device library
LL_HIP_F1(rsqrtf, return 1.0f / __builtin_sqrtf(x);)
LL_HIP_F1(sinf, {
  if (__builtin_isinf(x) || x != x) return x - x;
  int q;
  const double r = lanelab_hip::trig_reduce(x, &q);
  const double v = (q & 1) ? lanelab_hip::cos_poly(r) : lanelab_hip::sin_poly(r);
  return (float)((q & 2) ? -v : v);
})
LL_HIP_F1(cosf, {
  if (__builtin_isinf(x) || x != x) return x - x;
  int q;
  const double r = lanelab_hip::trig_reduce(x, &q);
  const double v = (q & 1) ? lanelab_hip::sin_poly(r) : lanelab_hip::cos_poly(r);
  return (float)((q == 1 || q == 2) ? -v : v);
})
// tanh: |x| < 2^-12: x - x^3/3 (the next term is below 2^-48 relative); otherwise
// (1 - e^-2|x|) / (1 + e^-2|x|) in double, whose cancellation costs at most 2^12 of double's
// 2^-53; |x| >= 10: +-1.
LL_HIP_F1(tanhf, {
  if (x != x) return x;
  const double a = __builtin_fabs((double)x);
  double t;
  if (a < 0x1p-12) t = a - a * a * a / 3.0;
  else if (a >= 10.0) t = 1.0;
  else {
    const double e = lanelab_hip::exp_d(-2.0 * a);
    t = (1.0 - e) / (1.0 + e);
  }
  return (float)(x < 0.0f ? -t : t);
})
// erf: the Maclaurin series 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)) in double for |x| < 4
// (its alternating terms peak near 1e5 at |x| = 4, costing 17 of double's 53 bits; 36 remain);
// |x| >= 4: +-1 (1 - erf(4) = 1.5e-8 is below half a float ULP of 1).
LL_HIP_F1(erff, {
  if (x != x) return x;
  const double a = __builtin_fabs((double)x);
  if (a >= 4.0) return x < 0.0f ? -1.0f : 1.0f;
  const double z = a * a;
  double term = a, sum = a;
  for (int n = 1; n < 80; n++) {
    term *= -z / n;
    const double c = term / (2 * n + 1);
    sum += c;
    if (__builtin_fabs(c) < 1e-17 * __builtin_fabs(sum)) break;
  }
  const double v = sum * 1.12837916709551257390; // 2/sqrt(pi)
  return (float)(x < 0.0f ? -v : v);
})
// powf per C99 Annex F (F.9.4.4) for the special cases; otherwise 2^(y log2|x|) in double: the
// product's absolute error is below 2^-44, a relative error of the result far below a float ULP.
LL_HIP_F2(powf, {
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return x + y;
  const float ay = __builtin_fabsf(y);
  const bool y_int = __builtin_truncf(y) == y;
  const bool y_odd = y_int && ay < 0x1p24f && ((long long)ay & 1);
  const float ax = __builtin_fabsf(x);
  if (__builtin_isinf(y)) {
    if (ax == 1.0f) return 1.0f;
    return (ax < 1.0f) == (y < 0.0f) ? __builtin_inff() : 0.0f;
  }
  const float sign = (x < 0.0f && y_odd) ? -1.0f : 1.0f;
  if (ax == 0.0f) return y < 0.0f ? __builtin_copysignf(__builtin_inff(), sign * x) : __builtin_copysignf(0.0f, sign * x);
  if (__builtin_isinf(ax)) return y < 0.0f ? sign * 0.0f : sign * __builtin_inff();
  if (x < 0.0f && !y_int) return __builtin_nanf("");
  const double t = (double)y * lanelab_hip::log2_d((double)ax);
  return sign * (float)lanelab_hip::exp2_d(t);
})
// tan: sin/cos of the same reduced argument, divided in double (the quotient's relative error is
// a few double ULPs even next to a pole: cos of the float nearest pi/2 is 4e-8, far from 0 in
// double), rounded once.
LL_HIP_F1(tanf, {
  if (__builtin_isinf(x) || x != x) return x - x;
  int q;
  const double r = lanelab_hip::trig_reduce(x, &q);
  const double s = lanelab_hip::sin_poly(r), c = lanelab_hip::cos_poly(r);
  return (float)((q & 1) ? -c / s : s / c);
})
// log10 = log2(x) log10(2) in double (log2_d's exponent part is exact), rounded once.
LL_HIP_F1(log10f, {
  const double l = lanelab_hip::log2_d((double)x);
  if (l != l || __builtin_isinf(l)) return (float)l;
  return (float)(l * 0.301029995663981195214);
})
// expm1: |x| < 1/2: the Taylor series x + x^2/2! + ... to x^20/20! in double (remainder below
// 1e-25 relative); otherwise exp(x) - 1 in double, whose cancellation costs at most 2 bits there.
LL_HIP_F1(expm1f, {
  if (x != x) return x;
  const double d = (double)x;
  if (__builtin_fabs(d) < 0.5) {
    double t = d, s = d;
    for (int n = 2; n <= 20; n++) {
      t *= d / n;
      s += t;
    }
    return (float)s;
  }
  return (float)(lanelab_hip::exp_d(d) - 1.0);
})
// log1p: x in [sqrt(1/2) - 1, sqrt(2) - 1]: log1p_red(x) directly (no 1 + x is formed);
// otherwise log(1 + x) in double, where 1 + x is exact for x in (-1, -0.29] and rounds by at most
// 2^-53 relative above 0.41, which moves log by less than that.
LL_HIP_F1(log1pf, {
  if (x != x) return x;
  const double d = (double)x;
  if (d < -1.0) return __builtin_nanf("");
  if (d == -1.0) return -__builtin_inff();
  if (d >= -0.29289321881345247560 && d <= 0.41421356237309504880) return (float)lanelab_hip::log1p_red(d);
  return (float)lanelab_hip::log_d(1.0 + d);
})
// exp10: 2^(x log2 10) in double (the product's absolute error is below 2^-45 for |x| < 46,
// beyond which the result is 0 or inf), rounded once.
LL_HIP_F1(exp10f, {
  if (x != x) return x;
  return (float)lanelab_hip::exp2_d((double)x * 3.32192809488736234787);
})
// sincosf: sinf and cosf of x (each rounded once), as two calls.
LL_HIP_FN void sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
#else
// With ROCm's device library linked, the functions above that lanelab computes itself without it
// are HIP's: each calls what clang's __clang_hip_math.h (clang 22, the header ROCm's HIP compiles
// with) calls for it, so a program's device code is the instructions a ROCm build runs, to the
// bit. sinf, cosf, logf and log2f take the hardware forms when clang approximates
// transcendentals (-ffast-math, -fgpu-approx-transcendentals), as there.
// fn(float) as ocml's o (its f32 form), and ocml's f64 form of o declared
#define LL_HIP_OF(fn, o)                                                                          \
  extern "C" __device__ __attribute__((const)) float __ocml_##o##_f32(float);                     \
  LL_HIP_FN float fn(float x) { return __ocml_##o##_f32(x); }
#define LL_HIP_OD(o) extern "C" __device__ __attribute__((const)) double __ocml_##o##_f64(double);
extern "C" __device__ __attribute__((const)) float __ocml_pow_f32(float, float);
extern "C" __device__ float __ocml_sincos_f32(float, __attribute__((opencl_private)) float *);
#ifdef __CLANG_GPU_APPROX_TRANSCENDENTALS__
LL_HIP_FN float __sinf(float x);
LL_HIP_FN float __cosf(float x);
LL_HIP_FN float sinf(float x) { return __sinf(x); }
LL_HIP_FN float cosf(float x) { return __cosf(x); }
#else
LL_HIP_OF(sinf, sin) LL_HIP_OF(cosf, cos)
#endif
LL_HIP_OF(tanf, tan) LL_HIP_OF(tanhf, tanh) LL_HIP_OF(erff, erf) LL_HIP_OF(expm1f, expm1) LL_HIP_OF(log1pf, log1p)
LL_HIP_OF(rsqrtf, rsqrt)
LL_HIP_OD(rsqrt) LL_HIP_OD(exp) LL_HIP_OD(exp2) LL_HIP_OD(log) LL_HIP_OD(log2)
#undef LL_HIP_OF
#undef LL_HIP_OD
LL_HIP_FN float powf(float x, float y) { return __ocml_pow_f32(x, y); }
LL_HIP_FN float log10f(float x) { return __builtin_log10f(x); }
LL_HIP_FN float exp10f(float x) { return __builtin_exp10f(x); }
LL_HIP_FN void sincosf(float x, float *s, float *c) {
  float t;
  *s = __ocml_sincos_f32(x, (__attribute__((opencl_private)) float *)&t);
  *c = t;
}
#endif
// frexp and ldexp are exact: clang's builtins (v_frexp_*_f32, v_ldexp_f32 on the device).
LL_HIP_FN float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
LL_HIP_FN float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
LL_HIP_FN double frexp(double x, int *e) { return __builtin_frexp(x, e); }
LL_HIP_FN double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
LL_HIP_FN float frexp(float x, int *e) { return __builtin_frexpf(x, e); }
LL_HIP_FN float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
#undef LL_HIP_F1
#undef LL_HIP_F2


// ---- double functions -----------------------------------------------------------------------------
// Each takes a double (a float or integer argument converts exactly, except integers beyond 2^53);
// the float overloads of the C++ names (exp(float) ...) call the float functions, as in HIP.
#define LL_HIP_D1(fn, ffn, body)                                                                  \
  LL_HIP_FN double fn(double x) { body }                                                          \
  LL_HIP_FN float fn(float x) { return ffn(x); }
#define LL_HIP_D2(fn, ffn, body)                                                                  \
  LL_HIP_FN double fn(double x, double y) { body }                                                \
  LL_HIP_FN float fn(float x, float y) { return ffn(x, y); }
LL_HIP_D1(sqrt, sqrtf, return __builtin_sqrt(x);)
LL_HIP_D1(fabs, fabsf, return __builtin_fabs(x);)
#ifdef LANELAB_HIP_OCML // HIP's: ocml's double functions (declared with the float ones above)
LL_HIP_D1(rsqrt, rsqrtf, return __ocml_rsqrt_f64(x);)
LL_HIP_D1(exp, expf, return __ocml_exp_f64(x);)
LL_HIP_D1(exp2, exp2f, return __ocml_exp2_f64(x);)
LL_HIP_D1(log, logf, return __ocml_log_f64(x);)
LL_HIP_D1(log2, log2f, return __ocml_log2_f64(x);)
#else
LL_HIP_D1(rsqrt, rsqrtf, return 1.0 / __builtin_sqrt(x);)
LL_HIP_D1(exp, expf, return lanelab_hip::exp_d(x);)
LL_HIP_D1(exp2, exp2f, return lanelab_hip::exp2_d(x);)
LL_HIP_D1(log, logf, return lanelab_hip::log_d(x);)
LL_HIP_D1(log2, log2f, return lanelab_hip::log2_d(x);)
#endif
LL_HIP_D1(floor, floorf, return __builtin_floor(x);)
LL_HIP_D1(ceil, ceilf, return __builtin_ceil(x);)
LL_HIP_D1(trunc, truncf, return __builtin_trunc(x);)
LL_HIP_D1(rint, rintf, return __builtin_rint(x);)
LL_HIP_D1(round, roundf, return __builtin_round(x);)
LL_HIP_D2(fmax, fmaxf, return __builtin_fmax(x, y);)
LL_HIP_D2(fmin, fminf, return __builtin_fmin(x, y);)
LL_HIP_D2(copysign, copysignf, return __builtin_copysign(x, y);)
// The double-named float overloads C++ gives <cmath>'s functions whose float form the subset has
// and whose double form it does not (sin(float) is sinf ...); the double forms are refused
// below (docs/hip-subset.md).
LL_HIP_FN float sin(float x) { return sinf(x); }
LL_HIP_FN float cos(float x) { return cosf(x); }
LL_HIP_FN float tan(float x) { return tanf(x); }
LL_HIP_FN float tanh(float x) { return tanhf(x); }
LL_HIP_FN float erf(float x) { return erff(x); }
LL_HIP_FN float pow(float x, float y) { return powf(x, y); }
LL_HIP_FN float expm1(float x) { return expm1f(x); }
LL_HIP_FN float log10(float x) { return log10f(x); }
LL_HIP_FN float log1p(float x) { return log1pf(x); }
LL_HIP_FN float exp10(float x) { return exp10f(x); }
LL_HIP_FN void sincos(float x, float *s, float *c) { sincosf(x, s, c); }
// ---- ROCm's device math library (ocml) ----------------------------------------------------------
// The functions below are ROCm's own: calls into ocml, as HIP's headers make them, linked from
// Debian's rocm-device-libs (ROCm 5.2.3) when it is installed; lanelab's compile then defines
// LANELAB_HIP_OCML (isa/cc.c isa_device_lib_flags). Without the library each is refused where a call
// reaches device code (an `error` attribute naming the function and the package; a __host__
// __device__ function whose call runs on the host still compiles). Before ocml was linked, libstdc++'s
// constexpr overloads of these made calls into a math library the device does not have: the link
// stopped on "undefined hidden symbol: cbrtf", or LLVM on "no libcall available for facos".
#ifdef LANELAB_HIP_OCML
#define LL_HIP_DEVLIB(fn, ocml, type) __ocml_##ocml##_##type
#define LL_HIP_OCML_DECL(fn, ocml, type, ret, ...)                                                 \
  extern "C" __device__ __attribute__((const)) ret LL_HIP_DEVLIB(fn, ocml, type)(__VA_ARGS__);
#define LL_HIP_OCML_PDECL(fn, ocml, type, ret, ...) extern "C" __device__ ret LL_HIP_DEVLIB(fn, ocml, type)(__VA_ARGS__);
#else
#define LL_HIP_DEVLIB(fn, ocml, type) __lanelab_no_device_lib_##fn##_##type
#define LL_HIP_OCML_DECL(fn, ocml, type, ret, ...)                                                 \
  extern "C" __device__ ret LL_HIP_DEVLIB(fn, ocml, type)(__VA_ARGS__) __attribute__((error(         \
      "not in lanelab's HIP headers without ROCm's device math library: the " #ret " " #fn " is "     \
      "ocml's, which lanelab links when Debian's rocm-device-libs is installed "                  \
      "(apt-get install -y rocm-device-libs; docs/hip-subset.md)")));
#define LL_HIP_OCML_PDECL LL_HIP_OCML_DECL
#endif
// fn##f(float), fn(double) and, for the names <cmath> has (std), fn(float), as HIP gives them
#define LL_HIP_M1(fn, ocml)                                                                       \
  LL_HIP_OCML_DECL(fn, ocml, f32, float, float)                                                    \
  LL_HIP_OCML_DECL(fn, ocml, f64, double, double)                                                  \
  LL_HIP_FN float fn##f(float x) { return LL_HIP_DEVLIB(fn, ocml, f32)(x); }                      \
  LL_HIP_FN double fn(double x) { return LL_HIP_DEVLIB(fn, ocml, f64)(x); }
#define LL_HIP_S1(fn, ocml) LL_HIP_M1(fn, ocml) LL_HIP_FN float fn(float x) { return fn##f(x); }
#define LL_HIP_M2(fn, ocml)                                                                       \
  LL_HIP_OCML_DECL(fn, ocml, f32, float, float, float)                                             \
  LL_HIP_OCML_DECL(fn, ocml, f64, double, double, double)                                          \
  LL_HIP_FN float fn##f(float x, float y) { return LL_HIP_DEVLIB(fn, ocml, f32)(x, y); }          \
  LL_HIP_FN double fn(double x, double y) { return LL_HIP_DEVLIB(fn, ocml, f64)(x, y); }
#define LL_HIP_S2(fn, ocml) LL_HIP_M2(fn, ocml) LL_HIP_FN float fn(float x, float y) { return fn##f(x, y); }
LL_HIP_S1(acos, acos) LL_HIP_S1(asin, asin) LL_HIP_S1(atan, atan) LL_HIP_S1(acosh, acosh) LL_HIP_S1(asinh, asinh)
LL_HIP_S1(atanh, atanh) LL_HIP_S1(sinh, sinh) LL_HIP_S1(cosh, cosh) LL_HIP_S1(cbrt, cbrt) LL_HIP_S1(erfc, erfc)
LL_HIP_S1(lgamma, lgamma) LL_HIP_S1(tgamma, tgamma) LL_HIP_S1(logb, logb)
LL_HIP_S2(atan2, atan2) LL_HIP_S2(hypot, hypot) LL_HIP_S2(remainder, remainder) LL_HIP_S2(fdim, fdim)
LL_HIP_S2(nextafter, nextafter) LL_HIP_S2(fmod, fmod)
// HIP's own names (not in std)
LL_HIP_M1(erfinv, erfinv) LL_HIP_M1(erfcinv, erfcinv) LL_HIP_M1(erfcx, erfcx) LL_HIP_M1(sinpi, sinpi)
LL_HIP_M1(cospi, cospi) LL_HIP_M1(rcbrt, rcbrt) LL_HIP_M1(normcdf, ncdf) LL_HIP_M1(normcdfinv, ncdfinv)
LL_HIP_M1(j0, j0) LL_HIP_M1(j1, j1) LL_HIP_M1(y0, y0) LL_HIP_M1(y1, y1) LL_HIP_M2(rhypot, rhypot)
// the double forms of the float functions computed above (sinf ... are lanelab's; sin(double) is ocml's)
LL_HIP_OCML_DECL(sin, sin, f64, double, double)
LL_HIP_OCML_DECL(cos, cos, f64, double, double)
LL_HIP_OCML_DECL(tan, tan, f64, double, double)
LL_HIP_OCML_DECL(tanh, tanh, f64, double, double)
LL_HIP_OCML_DECL(erf, erf, f64, double, double)
LL_HIP_OCML_DECL(pow, pow, f64, double, double, double)
LL_HIP_OCML_DECL(expm1, expm1, f64, double, double)
LL_HIP_OCML_DECL(log10, log10, f64, double, double)
LL_HIP_OCML_DECL(log1p, log1p, f64, double, double)
LL_HIP_OCML_DECL(exp10, exp10, f64, double, double)
LL_HIP_FN double sin(double x) { return LL_HIP_DEVLIB(sin, sin, f64)(x); }
LL_HIP_FN double cos(double x) { return LL_HIP_DEVLIB(cos, cos, f64)(x); }
LL_HIP_FN double tan(double x) { return LL_HIP_DEVLIB(tan, tan, f64)(x); }
LL_HIP_FN double tanh(double x) { return LL_HIP_DEVLIB(tanh, tanh, f64)(x); }
LL_HIP_FN double erf(double x) { return LL_HIP_DEVLIB(erf, erf, f64)(x); }
LL_HIP_FN double pow(double x, double y) { return LL_HIP_DEVLIB(pow, pow, f64)(x, y); }
LL_HIP_FN double expm1(double x) { return LL_HIP_DEVLIB(expm1, expm1, f64)(x); }
LL_HIP_FN double log10(double x) { return LL_HIP_DEVLIB(log10, log10, f64)(x); }
LL_HIP_FN double log1p(double x) { return LL_HIP_DEVLIB(log1p, log1p, f64)(x); }
LL_HIP_FN double exp10(double x) { return LL_HIP_DEVLIB(exp10, exp10, f64)(x); }
// integer and pointer forms; ocml's pointers are private (address space 5), so through a local
#define LL_HIP_PRIV(T) __attribute__((address_space(5))) T *
LL_HIP_OCML_DECL(ilogb, ilogb, f32, int, float)
LL_HIP_OCML_DECL(ilogb, ilogb, f64, int, double)
LL_HIP_FN int ilogbf(float x) { return LL_HIP_DEVLIB(ilogb, ilogb, f32)(x); }
LL_HIP_FN int ilogb(float x) { return LL_HIP_DEVLIB(ilogb, ilogb, f32)(x); }
LL_HIP_FN int ilogb(double x) { return LL_HIP_DEVLIB(ilogb, ilogb, f64)(x); }
LL_HIP_OCML_DECL(scalbn, scalbn, f32, float, float, int)
LL_HIP_OCML_DECL(scalbn, scalbn, f64, double, double, int)
LL_HIP_OCML_DECL(scalbln, scalb, f32, float, float, float)
LL_HIP_OCML_DECL(scalbln, scalb, f64, double, double, double)
LL_HIP_FN float scalbnf(float x, int n) { return LL_HIP_DEVLIB(scalbn, scalbn, f32)(x, n); }
LL_HIP_FN float scalbn(float x, int n) { return scalbnf(x, n); }
LL_HIP_FN double scalbn(double x, int n) { return LL_HIP_DEVLIB(scalbn, scalbn, f64)(x, n); }
// scalbln: HIP's definition (an exponent beyond int's range through ocml's scalb)
LL_HIP_FN float scalblnf(float x, long n) {
  return n < __INT_MAX__ && n > -__INT_MAX__ - 1 ? LL_HIP_DEVLIB(scalbn, scalbn, f32)(x, (int)n)
                                                 : LL_HIP_DEVLIB(scalbln, scalb, f32)(x, (float)n);
}
LL_HIP_FN float scalbln(float x, long n) { return scalblnf(x, n); }
LL_HIP_FN double scalbln(double x, long n) {
  return n < __INT_MAX__ && n > -__INT_MAX__ - 1 ? LL_HIP_DEVLIB(scalbn, scalbn, f64)(x, (int)n)
                                                 : LL_HIP_DEVLIB(scalbln, scalb, f64)(x, (double)n);
}
LL_HIP_OCML_PDECL(modf, modf, f32, float, float, LL_HIP_PRIV(float))
LL_HIP_OCML_PDECL(modf, modf, f64, double, double, LL_HIP_PRIV(double))
LL_HIP_FN float modff(float x, float *ip) {
  float t;
  const float r = LL_HIP_DEVLIB(modf, modf, f32)(x, (LL_HIP_PRIV(float))&t);
  *ip = t;
  return r;
}
LL_HIP_FN float modf(float x, float *ip) { return modff(x, ip); }
LL_HIP_FN double modf(double x, double *ip) {
  double t;
  const double r = LL_HIP_DEVLIB(modf, modf, f64)(x, (LL_HIP_PRIV(double))&t);
  *ip = t;
  return r;
}
LL_HIP_OCML_PDECL(remquo, remquo, f32, float, float, float, LL_HIP_PRIV(int))
LL_HIP_OCML_PDECL(remquo, remquo, f64, double, double, double, LL_HIP_PRIV(int))
LL_HIP_FN float remquof(float x, float y, int *q) {
  int t;
  const float r = LL_HIP_DEVLIB(remquo, remquo, f32)(x, y, (LL_HIP_PRIV(int))&t);
  *q = t;
  return r;
}
LL_HIP_FN float remquo(float x, float y, int *q) { return remquof(x, y, q); }
LL_HIP_FN double remquo(double x, double y, int *q) {
  int t;
  const double r = LL_HIP_DEVLIB(remquo, remquo, f64)(x, y, (LL_HIP_PRIV(int))&t);
  *q = t;
  return r;
}
LL_HIP_OCML_PDECL(sincos, sincos, f64, double, double, LL_HIP_PRIV(double))
LL_HIP_FN void sincos(double x, double *s, double *c) {
  double t;
  *s = LL_HIP_DEVLIB(sincos, sincos, f64)(x, (LL_HIP_PRIV(double))&t);
  *c = t;
}
LL_HIP_OCML_PDECL(sincospi, sincospi, f32, float, float, LL_HIP_PRIV(float))
LL_HIP_OCML_PDECL(sincospi, sincospi, f64, double, double, LL_HIP_PRIV(double))
LL_HIP_FN void sincospif(float x, float *s, float *c) {
  float t;
  *s = LL_HIP_DEVLIB(sincospi, sincospi, f32)(x, (LL_HIP_PRIV(float))&t);
  *c = t;
}
LL_HIP_FN void sincospi(double x, double *s, double *c) {
  double t;
  *s = LL_HIP_DEVLIB(sincospi, sincospi, f64)(x, (LL_HIP_PRIV(double))&t);
  *c = t;
}
// norm3d/norm4d and their reciprocals: ocml's len3/len4/rlen3/rlen4, as HIP calls them
LL_HIP_OCML_DECL(norm3d, len3, f32, float, float, float, float)
LL_HIP_OCML_DECL(norm3d, len3, f64, double, double, double, double)
LL_HIP_OCML_DECL(rnorm3d, rlen3, f32, float, float, float, float)
LL_HIP_OCML_DECL(rnorm3d, rlen3, f64, double, double, double, double)
LL_HIP_OCML_DECL(norm4d, len4, f32, float, float, float, float, float)
LL_HIP_OCML_DECL(norm4d, len4, f64, double, double, double, double, double)
LL_HIP_OCML_DECL(rnorm4d, rlen4, f32, float, float, float, float, float)
LL_HIP_OCML_DECL(rnorm4d, rlen4, f64, double, double, double, double, double)
LL_HIP_FN float norm3df(float a, float b, float c) { return LL_HIP_DEVLIB(norm3d, len3, f32)(a, b, c); }
LL_HIP_FN double norm3d(double a, double b, double c) { return LL_HIP_DEVLIB(norm3d, len3, f64)(a, b, c); }
LL_HIP_FN float rnorm3df(float a, float b, float c) { return LL_HIP_DEVLIB(rnorm3d, rlen3, f32)(a, b, c); }
LL_HIP_FN double rnorm3d(double a, double b, double c) { return LL_HIP_DEVLIB(rnorm3d, rlen3, f64)(a, b, c); }
LL_HIP_FN float norm4df(float a, float b, float c, float d) { return LL_HIP_DEVLIB(norm4d, len4, f32)(a, b, c, d); }
LL_HIP_FN double norm4d(double a, double b, double c, double d) { return LL_HIP_DEVLIB(norm4d, len4, f64)(a, b, c, d); }
LL_HIP_FN float rnorm4df(float a, float b, float c, float d) { return LL_HIP_DEVLIB(rnorm4d, rlen4, f32)(a, b, c, d); }
LL_HIP_FN double rnorm4d(double a, double b, double c, double d) { return LL_HIP_DEVLIB(rnorm4d, rlen4, f64)(a, b, c, d); }
// x to an integer power (ocml's pown) and the modified Bessel functions of the first kind of orders 0
// and 1 (ocml's i0, i1), as HIP calls them
LL_HIP_OCML_DECL(powi, pown, f32, float, float, int)
LL_HIP_OCML_DECL(powi, pown, f64, double, double, int)
LL_HIP_FN float powif(float x, int n) { return LL_HIP_DEVLIB(powi, pown, f32)(x, n); }
LL_HIP_FN double powi(double x, int n) { return LL_HIP_DEVLIB(powi, pown, f64)(x, n); }
// <cmath>'s pow with an int exponent, as clang's HIP cmath wrapper gives it: pown, in the base's
// format (_Float16 too, and fma of three _Float16: the half-precision fma)
LL_HIP_OCML_DECL(pow, pown, f16, _Float16, _Float16, int)
LL_HIP_FN float pow(float x, int n) { return powif(x, n); }
LL_HIP_FN double pow(double x, int n) { return powi(x, n); }
LL_HIP_FN _Float16 pow(_Float16 x, int n) { return LL_HIP_DEVLIB(pow, pown, f16)(x, n); }
LL_HIP_FN _Float16 fma(_Float16 a, _Float16 b, _Float16 c) { return __builtin_fmaf16(a, b, c); }
LL_HIP_M1(cyl_bessel_i0, i0) LL_HIP_M1(cyl_bessel_i1, i1)
// The Euclidean norm of dim elements and its reciprocal, HIP's definitions: the squares summed in
// element order (a negative dim counts down past zero, reading on as HIP's loop does), then the
// square root, or ocml's reciprocal square root
LL_HIP_OCML_DECL(rnorm, rsqrt, f32, float, float)
LL_HIP_OCML_DECL(rnorm, rsqrt, f64, double, double)
namespace lanelab_hip {
template <typename T> __device__ inline T sumsq(int dim, const T *a) {
  T r = 0;
  for (; dim != 0; dim--, a++) r += a[0] * a[0];
  return r;
}
} // namespace lanelab_hip
LL_HIP_FN float normf(int dim, const float *a) { return __builtin_sqrtf(lanelab_hip::sumsq(dim, a)); }
LL_HIP_FN double norm(int dim, const double *a) { return __builtin_sqrt(lanelab_hip::sumsq(dim, a)); }
LL_HIP_FN float rnormf(int dim, const float *a) { return LL_HIP_DEVLIB(rnorm, rsqrt, f32)(lanelab_hip::sumsq(dim, a)); }
LL_HIP_FN double rnorm(int dim, const double *a) { return LL_HIP_DEVLIB(rnorm, rsqrt, f64)(lanelab_hip::sumsq(dim, a)); }
// Bessel functions of integer order n, HIP's definitions: ocml's orders 0 and 1, then the upward
// recurrence F(k + 1) = 2k / x * F(k) - F(k - 1) to order n (n < 0 gives order 1, as HIP's loop)
#define LL_HIP_BESSEL_N(name, T, f0, f1)                                                           \
  LL_HIP_FN T name(int n, T x) {                                                                   \
    if (n == 0) return f0(x);                                                                      \
    T lo = f0(x), hi = f1(x);                                                                      \
    for (int k = 1; k < n; k++) {                                                                  \
      const T next = (2 * k) / x * hi - lo;                                                        \
      lo = hi, hi = next;                                                                          \
    }                                                                                              \
    return hi;                                                                                     \
  }
LL_HIP_BESSEL_N(jnf, float, j0f, j1f) LL_HIP_BESSEL_N(jn, double, j0, j1)
LL_HIP_BESSEL_N(ynf, float, y0f, y1f) LL_HIP_BESSEL_N(yn, double, y0, y1)
#undef LL_HIP_BESSEL_N
#undef LL_HIP_PRIV
#undef LL_HIP_M1
#undef LL_HIP_S1
#undef LL_HIP_M2
#undef LL_HIP_S2
#undef LL_HIP_OCML_DECL
#undef LL_HIP_OCML_PDECL
#undef LL_HIP_DEVLIB

// Rounding to integers, HIP's definitions (clang builtins: no device library needed).
LL_HIP_FN float nearbyintf(float x) { return __builtin_nearbyintf(x); }
LL_HIP_FN float nearbyint(float x) { return __builtin_nearbyintf(x); }
LL_HIP_FN double nearbyint(double x) { return __builtin_nearbyint(x); }
LL_HIP_FN long lrintf(float x) { return (long)__builtin_rintf(x); }
LL_HIP_FN long lrint(float x) { return (long)__builtin_rintf(x); }
LL_HIP_FN long lrint(double x) { return (long)__builtin_rint(x); }
LL_HIP_FN long long llrintf(float x) { return (long long)__builtin_rintf(x); }
LL_HIP_FN long long llrint(float x) { return (long long)__builtin_rintf(x); }
LL_HIP_FN long long llrint(double x) { return (long long)__builtin_rint(x); }
LL_HIP_FN long lroundf(float x) { return (long)__builtin_roundf(x); }
LL_HIP_FN long lround(float x) { return (long)__builtin_roundf(x); }
LL_HIP_FN long lround(double x) { return (long)__builtin_round(x); }
LL_HIP_FN long long llroundf(float x) { return (long long)__builtin_roundf(x); }
LL_HIP_FN long long llround(float x) { return (long long)__builtin_roundf(x); }
LL_HIP_FN long long llround(double x) { return (long long)__builtin_round(x); }
LL_HIP_FN double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
LL_HIP_FN float fma(float a, float b, float c) { return fmaf(a, b, c); }

#undef LL_HIP_D1
#undef LL_HIP_D2

// Classification (macros in C; functions here, for float and double).
LL_HIP_FN bool isnan(float x) { return __builtin_isnan(x); }
LL_HIP_FN bool isnan(double x) { return __builtin_isnan(x); }
LL_HIP_FN bool isinf(float x) { return __builtin_isinf(x); }
LL_HIP_FN bool isinf(double x) { return __builtin_isinf(x); }
LL_HIP_FN bool isfinite(float x) { return __builtin_isfinite(x); }
LL_HIP_FN bool isfinite(double x) { return __builtin_isfinite(x); }
LL_HIP_FN bool signbit(float x) { return __builtin_signbit(x); }
LL_HIP_FN bool signbit(double x) { return __builtin_signbit(x); }
// nanf(tag) and nan(tag), HIP's definitions (clang's __clang_hip_math.h): a quiet NaN, sign 0, whose
// payload below the quiet bit is the tag read as a C integer literal (a leading 0: octal; else
// decimal), 0 when a character is not a digit of its base. HIP reads a "0x" tag from its 'x' on,
// which is no hexadecimal digit, so a hexadecimal tag gives payload 0 there, and so here.
namespace lanelab_hip {
__device__ inline unsigned long long nan_payload(const char *t) {
  unsigned base = 10;
  if (*t == '0') base = t[1] == 'x' || t[1] == 'X' ? 16 : 8, t++;
  unsigned long long r = 0;
  for (; *t; t++) {
    const char c = *t;
    const unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                       : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99u;
    if (d >= base) return 0;
    r = r * base + d;
  }
  return r;
}
} // namespace lanelab_hip
LL_HIP_FN float nanf(const char *tag) {
  return __builtin_bit_cast(float, 0x7fc00000u | (unsigned)(lanelab_hip::nan_payload(tag) & 0x3fffffu));
}
LL_HIP_FN double nan(const char *tag) {
  return __builtin_bit_cast(double, 0x7ff8000000000000ull | (lanelab_hip::nan_payload(tag) & 0x7ffffffffffffull));
}
#ifndef INFINITY /* <math.h> defines them the same way when it came first */
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif

#endif // LANELAB_HIP_MATH_H

// ---- std:: names ------------------------------------------------------------------------------------
// As clang's HIP wrapper (__clang_hip_cmath.h) does for ROCm: the device functions above join
// namespace std, so device code may call std::exp, std::sqrt, std::fmax ... After <cmath>, so that
// libstdc++'s own host overloads are there too (each call picks the one for the side it is on).
#include <cmath>
namespace std {
using ::sqrtf; using ::rsqrtf; using ::fabsf; using ::expf; using ::exp2f; using ::exp10f; using ::logf;
using ::log2f; using ::log10f; using ::floorf; using ::ceilf; using ::truncf; using ::rintf; using ::roundf;
using ::fmaxf; using ::fminf; using ::copysignf; using ::fmaf; using ::sinf; using ::cosf; using ::tanf;
using ::tanhf; using ::erff; using ::powf; using ::expm1f; using ::log1pf; using ::sincosf; using ::frexpf;
using ::ldexpf;
using ::sqrt; using ::rsqrt; using ::fabs; using ::exp; using ::exp2; using ::exp10; using ::log; using ::log2;
using ::log10; using ::floor; using ::ceil; using ::trunc; using ::rint; using ::round; using ::fmax; using ::fmin;
using ::copysign; using ::fma; using ::frexp; using ::ldexp; using ::sin; using ::cos; using ::tan; using ::tanh;
using ::erf; using ::pow; using ::expm1; using ::log1p; using ::sincos; using ::isnan; using ::isinf;
using ::isfinite; using ::signbit; using ::nan; using ::nanf;
// ROCm's device math library (above)
using ::fmod; using ::fmodf; using ::logb; using ::logbf; using ::modf; using ::modff; using ::remquo; using ::remquof;
using ::scalbn; using ::scalbnf; using ::scalbln; using ::scalblnf; using ::nearbyint; using ::nearbyintf;
using ::lrint; using ::lrintf; using ::llrint; using ::llrintf; using ::lround; using ::lroundf; using ::llround;
using ::llroundf;
using ::acos; using ::asin; using ::atan; using ::acosh; using ::asinh; using ::atanh; using ::sinh; using ::cosh;
using ::cbrt; using ::erfc; using ::lgamma; using ::tgamma; using ::atan2; using ::hypot; using ::remainder;
using ::fdim; using ::nextafter; using ::ilogb; using ::acosf; using ::asinf; using ::atanf; using ::acoshf;
using ::asinhf; using ::atanhf; using ::sinhf; using ::coshf; using ::cbrtf; using ::erfcf; using ::lgammaf;
using ::tgammaf; using ::atan2f; using ::hypotf; using ::remainderf; using ::fdimf; using ::nextafterf; using ::ilogbf;
} // namespace std
