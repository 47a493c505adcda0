// math_ulp: one kernel per math function of lanelab's HIP subset, for tests/test_hip.c's accuracy
// measurement (not part of the corpus of ordinary kernels). ulp_NAME(x, y, z, out): out[i] =
// NAME applied to x[i] (and y[i], z[i] for functions of two or three arguments).
#include <hip/hip_runtime.h>

#define F(name, expr)                                                                              \
  extern "C" __global__ void ulp_##name(const float *xs, const float *ys, const float *zs, float *out) { \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    const float x = xs[i], y = ys[i], z = zs[i];                                                   \
    (void)y, (void)z;                                                                              \
    out[i] = expr;                                                                                 \
  }
#define D(name, expr)                                                                              \
  extern "C" __global__ void ulp_##name(const double *xs, const double *ys, const double *zs, double *out) { \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    const double x = xs[i], y = ys[i], z = zs[i];                                                  \
    (void)y, (void)z;                                                                              \
    out[i] = expr;                                                                                 \
  }

F(expf, expf(x))
F(exp2f, exp2f(x))
F(logf, logf(x))
F(log2f, log2f(x))
F(sqrtf, sqrtf(x))
F(rsqrtf, rsqrtf(x))
F(fabsf, fabsf(x))
F(fmaxf, fmaxf(x, y))
F(fminf, fminf(x, y))
F(fmaf, fmaf(x, y, z))
F(sinf, sinf(x))
F(cosf, cosf(x))
F(tanhf, tanhf(x))
F(erff, erff(x))
F(powf, powf(x, y))
F(__expf, __expf(x))
F(__logf, __logf(x))
F(__fdividef, __fdividef(x, y))
F(fdividef, fdividef(x, y))
F(floorf, floorf(x))
F(ceilf, ceilf(x))
F(truncf, truncf(x))
F(rintf, rintf(x))
F(roundf, roundf(x))
D(exp, exp(x))
D(exp2, exp2(x))
D(log, log(x))
D(log2, log2(x))
D(sqrt, sqrt(x))
D(rsqrt, rsqrt(x))
D(fabs, fabs(x))
D(fmax, fmax(x, y))
D(fmin, fmin(x, y))
D(fma, fma(x, y, z))
D(floor, floor(x))
D(ceil, ceil(x))
D(trunc, trunc(x))
D(rint, rint(x))
D(round, round(x))
F(tanf, tanf(x))
F(log10f, log10f(x))
F(expm1f, expm1f(x))
F(log1pf, log1pf(x))
F(sincosf_sin, ([&] { float s, c; sincosf(x, &s, &c); return s; })())
F(sincosf_cos, ([&] { float s, c; sincosf(x, &s, &c); return c; })())
F(exp10f, exp10f(x))
F(__exp10f, __exp10f(x))
F(__log2f, __log2f(x))
F(__log10f, __log10f(x))
F(__powf, __powf(x, y))
F(__sinf, __sinf(x))
F(__cosf, __cosf(x))
F(__tanf, __tanf(x))
F(__sincosf_sin, ([&] { float s, c; __sincosf(x, &s, &c); return s; })())
F(__frcp_rn, __frcp_rn(x))
F(__frsqrt_rn, __frsqrt_rn(x))
F(__fmul_rn, __fmul_rn(x, y))
F(__fdiv_rn, __fdiv_rn(x, y))
// ROCm's device math library (ocml), linked when Debian's rocm-device-libs is installed
#define FD(name, fn) F(name##f, fn##f(x)) D(name, fn(x))
#define X1(fn) FD(fn, fn)
X1(acos) X1(asin) X1(atan) X1(acosh) X1(asinh) X1(atanh) X1(sinh) X1(cosh) X1(cbrt) X1(rcbrt) X1(erfc) X1(erfcx)
X1(lgamma) X1(tgamma) X1(logb) X1(sinpi) X1(cospi) X1(normcdf) X1(j0) X1(j1) X1(y0) X1(y1)
F(atan2f, atan2f(x, y)) D(atan2, atan2(x, y))
F(hypotf, hypotf(x, y)) D(hypot, hypot(x, y))
F(rhypotf, rhypotf(x, y)) D(rhypot, rhypot(x, y))
F(remainderf, remainderf(x, y)) D(remainder, remainder(x, y))
F(fdimf, fdimf(x, y)) D(fdim, fdim(x, y))
F(nextafterf, nextafterf(x, y)) D(nextafter, nextafter(x, y))
F(fmodf, fmodf(x, y)) D(fmod, fmod(x, y))
F(norm3df, norm3df(x, y, z)) D(norm3d, norm3d(x, y, z))
F(rnorm3df, rnorm3df(x, y, z)) D(rnorm3d, rnorm3d(x, y, z))
F(ilogbf, (float)ilogbf(x)) D(ilogb, (double)ilogb(x))
F(scalbnf, scalbnf(x, (int)y)) D(scalbn, scalbn(x, (int)y))
F(modff_frac, ([&] { float ip; return modff(x, &ip); })()) D(modf_frac, ([&] { double ip; return modf(x, &ip); })())
F(modff_int, ([&] { float ip; modff(x, &ip); return ip; })()) D(modf_int, ([&] { double ip; modf(x, &ip); return ip; })())
F(remquof, ([&] { int q; return remquof(x, y, &q); })()) D(remquo, ([&] { int q; return remquo(x, y, &q); })())
D(sin, sin(x))
D(cos, cos(x))
D(tan, tan(x))
D(tanh, tanh(x))
D(erf, erf(x))
D(pow, pow(x, y))
D(expm1, expm1(x))
D(log10, log10(x))
D(log1p, log1p(x))
D(exp10, exp10(x))
D(sincos_sin, ([&] { double s, c; sincos(x, &s, &c); return s; })())
D(sincos_cos, ([&] { double s, c; sincos(x, &s, &c); return c; })())
