// hip/lanelab_hip_complex_builtins.h — the complex multiply and divide that clang calls for
// _Complex and std::complex arithmetic (__mulsc3, __muldc3, __divsc3, __divdc3), for the device,
// where no runtime library provides them (included by the prelude, as clang's own HIP wrapper
// includes its __clang_cuda_complex_builtins.h). The algorithms are the C standard's, Annex G
// ("IEC 60559-compatible complex arithmetic", G.5.1: the product and quotient that recover
// infinities from NaN results), written here with clang builtins. logb and scalbn by frexp and
// ldexp (exact, and no device library needed).
#ifndef LANELAB_HIP_COMPLEX_BUILTINS_H
#define LANELAB_HIP_COMPLEX_BUILTINS_H
// A system header, as clang's own math wrappers are: its tests for infinities and NaNs are no
// -Wnan-infinity-disabled warnings of a program compiled with -ffast-math (they were 366 a compile).
#pragma clang system_header
#if defined(__HIP__) && defined(__cplusplus)
#define LL_HIP_CPLX(T, S, NAME_MUL, NAME_DIV, FR, LD, INF, CPS, ISINF, ISNAN, ISFIN, FABS, FMAX)        \
  static __device__ inline T __lanelab_logb_##S(T x) {                                                \
    if (ISNAN(x)) return x;                                                                           \
    if (ISINF(x)) return INF;                                                                         \
    if (x == 0) return -INF;                                                                          \
    int e;                                                                                            \
    FR(x, &e);                                                                                        \
    return (T)(e - 1);                                                                                \
  }                                                                                                   \
  extern "C" inline __device__ T _Complex NAME_MUL(T a, T b, T c, T d) {                              \
    T ac = a * c, bd = b * d, ad = a * d, bc = b * c;                                                 \
    T _Complex z;                                                                                     \
    __real__ z = ac - bd;                                                                             \
    __imag__ z = ad + bc;                                                                             \
    if (ISNAN(__real__ z) && ISNAN(__imag__ z)) {                                                     \
      bool recalc = false;                                                                            \
      if (ISINF(a) || ISINF(b)) {                                                                     \
        a = CPS(ISINF(a) ? (T)1 : (T)0, a);                                                           \
        b = CPS(ISINF(b) ? (T)1 : (T)0, b);                                                           \
        if (ISNAN(c)) c = CPS((T)0, c);                                                               \
        if (ISNAN(d)) d = CPS((T)0, d);                                                               \
        recalc = true;                                                                                \
      }                                                                                               \
      if (ISINF(c) || ISINF(d)) {                                                                     \
        c = CPS(ISINF(c) ? (T)1 : (T)0, c);                                                           \
        d = CPS(ISINF(d) ? (T)1 : (T)0, d);                                                           \
        if (ISNAN(a)) a = CPS((T)0, a);                                                               \
        if (ISNAN(b)) b = CPS((T)0, b);                                                               \
        recalc = true;                                                                                \
      }                                                                                               \
      if (!recalc && (ISINF(ac) || ISINF(bd) || ISINF(ad) || ISINF(bc))) {                            \
        if (ISNAN(a)) a = CPS((T)0, a);                                                               \
        if (ISNAN(b)) b = CPS((T)0, b);                                                               \
        if (ISNAN(c)) c = CPS((T)0, c);                                                               \
        if (ISNAN(d)) d = CPS((T)0, d);                                                               \
        recalc = true;                                                                                \
      }                                                                                               \
      if (recalc) {                                                                                   \
        __real__ z = INF * (a * c - b * d);                                                           \
        __imag__ z = INF * (a * d + b * c);                                                           \
      }                                                                                               \
    }                                                                                                 \
    return z;                                                                                         \
  }                                                                                                   \
  extern "C" inline __device__ T _Complex NAME_DIV(T a, T b, T c, T d) {                              \
    int ilogbw = 0;                                                                                   \
    T logbw = __lanelab_logb_##S(FMAX(FABS(c), FABS(d)));                                             \
    if (ISFIN(logbw)) {                                                                               \
      ilogbw = (int)logbw;                                                                            \
      c = LD(c, -ilogbw);                                                                             \
      d = LD(d, -ilogbw);                                                                             \
    }                                                                                                 \
    T denom = c * c + d * d;                                                                          \
    T _Complex z;                                                                                     \
    __real__ z = LD((a * c + b * d) / denom, -ilogbw);                                                \
    __imag__ z = LD((b * c - a * d) / denom, -ilogbw);                                                \
    if (ISNAN(__real__ z) && ISNAN(__imag__ z)) {                                                     \
      if (denom == (T)0 && (!ISNAN(a) || !ISNAN(b))) {                                                \
        __real__ z = CPS(INF, c) * a;                                                                 \
        __imag__ z = CPS(INF, c) * b;                                                                 \
      } else if ((ISINF(a) || ISINF(b)) && ISFIN(c) && ISFIN(d)) {                                    \
        a = CPS(ISINF(a) ? (T)1 : (T)0, a);                                                           \
        b = CPS(ISINF(b) ? (T)1 : (T)0, b);                                                           \
        __real__ z = INF * (a * c + b * d);                                                           \
        __imag__ z = INF * (b * c - a * d);                                                           \
      } else if (ISINF(logbw) && logbw > (T)0 && ISFIN(a) && ISFIN(b)) {                              \
        c = CPS(ISINF(c) ? (T)1 : (T)0, c);                                                           \
        d = CPS(ISINF(d) ? (T)1 : (T)0, d);                                                           \
        __real__ z = (T)0 * (a * c + b * d);                                                          \
        __imag__ z = (T)0 * (b * c - a * d);                                                          \
      }                                                                                               \
    }                                                                                                 \
    return z;                                                                                         \
  }
LL_HIP_CPLX(float, f, __mulsc3, __divsc3, __builtin_frexpf, __builtin_ldexpf, __builtin_inff(), __builtin_copysignf,
            __builtin_isinf, __builtin_isnan, __builtin_isfinite, __builtin_fabsf, __builtin_fmaxf)
LL_HIP_CPLX(double, d, __muldc3, __divdc3, __builtin_frexp, __builtin_ldexp, __builtin_inf(), __builtin_copysign,
            __builtin_isinf, __builtin_isnan, __builtin_isfinite, __builtin_fabs, __builtin_fmax)
#undef LL_HIP_CPLX
#endif
#endif
