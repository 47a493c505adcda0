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
