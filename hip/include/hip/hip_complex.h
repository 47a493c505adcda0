// hip/hip_complex.h — HIP's complex numbers (hipFloatComplex, hipDoubleComplex, hipComplex): the
// names, types and arithmetic of HIP's amd_hip_complex.h (ROCm 6: functions, no operators). A complex
// is the vector type of two components, .x the real part and .y the imaginary; every function is
// __host__ __device__ and computes what HIP's does, term for term: the product (ac - bd, bc + ad),
// the quotient over |q|^2 with no scaling (an overflow of |q|^2 is the caller's, as in HIP), the
// absolute value sqrt(x^2 + y^2). std::complex is the alternative with C's special-value rules.
#ifndef HIP_INCLUDE_HIP_HIP_COMPLEX_H
#define HIP_INCLUDE_HIP_HIP_COMPLEX_H
#include "hip/hip_runtime.h"

#define LL_HIP_CX static __host__ __device__ inline
typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;

LL_HIP_CX float hipCrealf(hipFloatComplex z) { return z.x; }
LL_HIP_CX float hipCimagf(hipFloatComplex z) { return z.y; }
LL_HIP_CX hipFloatComplex make_hipFloatComplex(float re, float im) {
  hipFloatComplex z;
  z.x = re, z.y = im;
  return z;
}
LL_HIP_CX hipFloatComplex hipConjf(hipFloatComplex z) { return make_hipFloatComplex(z.x, -z.y); }
LL_HIP_CX float hipCsqabsf(hipFloatComplex z) { return z.x * z.x + z.y * z.y; }
LL_HIP_CX hipFloatComplex hipCaddf(hipFloatComplex p, hipFloatComplex q) { return make_hipFloatComplex(p.x + q.x, p.y + q.y); }
LL_HIP_CX hipFloatComplex hipCsubf(hipFloatComplex p, hipFloatComplex q) { return make_hipFloatComplex(p.x - q.x, p.y - q.y); }
LL_HIP_CX hipFloatComplex hipCmulf(hipFloatComplex p, hipFloatComplex q) {
  return make_hipFloatComplex(p.x * q.x - p.y * q.y, p.y * q.x + p.x * q.y);
}
LL_HIP_CX hipFloatComplex hipCdivf(hipFloatComplex p, hipFloatComplex q) {
  const float d = hipCsqabsf(q);
  return make_hipFloatComplex((p.x * q.x + p.y * q.y) / d, (p.y * q.x - p.x * q.y) / d);
}
LL_HIP_CX float hipCabsf(hipFloatComplex z) { return sqrtf(hipCsqabsf(z)); }

LL_HIP_CX double hipCreal(hipDoubleComplex z) { return z.x; }
LL_HIP_CX double hipCimag(hipDoubleComplex z) { return z.y; }
LL_HIP_CX hipDoubleComplex make_hipDoubleComplex(double re, double im) {
  hipDoubleComplex z;
  z.x = re, z.y = im;
  return z;
}
LL_HIP_CX hipDoubleComplex hipConj(hipDoubleComplex z) { return make_hipDoubleComplex(z.x, -z.y); }
LL_HIP_CX double hipCsqabs(hipDoubleComplex z) { return z.x * z.x + z.y * z.y; }
LL_HIP_CX hipDoubleComplex hipCadd(hipDoubleComplex p, hipDoubleComplex q) { return make_hipDoubleComplex(p.x + q.x, p.y + q.y); }
LL_HIP_CX hipDoubleComplex hipCsub(hipDoubleComplex p, hipDoubleComplex q) { return make_hipDoubleComplex(p.x - q.x, p.y - q.y); }
LL_HIP_CX hipDoubleComplex hipCmul(hipDoubleComplex p, hipDoubleComplex q) {
  return make_hipDoubleComplex(p.x * q.x - p.y * q.y, p.y * q.x + p.x * q.y);
}
LL_HIP_CX hipDoubleComplex hipCdiv(hipDoubleComplex p, hipDoubleComplex q) {
  const double d = hipCsqabs(q);
  return make_hipDoubleComplex((p.x * q.x + p.y * q.y) / d, (p.y * q.x - p.x * q.y) / d);
}
LL_HIP_CX double hipCabs(hipDoubleComplex z) { return sqrt(hipCsqabs(z)); }

LL_HIP_CX hipComplex make_hipComplex(float re, float im) { return make_hipFloatComplex(re, im); }
LL_HIP_CX hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) { return make_hipFloatComplex((float)z.x, (float)z.y); }
LL_HIP_CX hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) { return make_hipDoubleComplex(z.x, z.y); }
// p q + r, the terms in HIP's order: real = (p.x q.x + r.x) - p.y q.y, imag = (q.x p.y + r.y) + p.x q.y
LL_HIP_CX hipComplex hipCfmaf(hipComplex p, hipComplex q, hipComplex r) {
  float re = p.x * q.x + r.x, im = q.x * p.y + r.y;
  re = -(p.y * q.y) + re;
  im = p.x * q.y + im;
  return make_hipComplex(re, im);
}
LL_HIP_CX hipDoubleComplex hipCfma(hipDoubleComplex p, hipDoubleComplex q, hipDoubleComplex r) {
  double re = p.x * q.x + r.x, im = q.x * p.y + r.y;
  re = -(p.y * q.y) + re;
  im = p.x * q.y + im;
  return make_hipDoubleComplex(re, im);
}
#undef LL_HIP_CX
#endif
