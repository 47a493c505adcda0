// Device math as programs use it: polar coordinates (atan2f, hypotf), a normal distribution's tail
// (erfcf, std::erfc), angle wrapping (fmodf, remainderf), double-precision trigonometry and powers
// (sin, cos, pow, std::atan2, sincos), modff and remquof through their pointers. These are ROCm's
// device math library (ocml) on the device; the host's libm computes the same values, and each
// device result must be within 8 ULP-sized relative steps of it (the OpenCL bounds ocml meets are
// 2-6 ULP for these, 16 for erfc; docs/hip-subset.md).
#include "../common.h"
#include <cmath>
#include <cstring>

constexpr int kMathN = 256;

__global__ void polar_and_tails(const float *x, const float *y, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = x[i], b = y[i];
  out[0 * kMathN + i] = atan2f(b, a);
  out[1 * kMathN + i] = hypotf(a, b);
  out[2 * kMathN + i] = 0.5f * erfcf(-a / sqrtf(2.0f));
  out[3 * kMathN + i] = fmodf(a * 10.0f, 3.14159265f);
  out[4 * kMathN + i] = remainderf(b * 7.0f, 2.0f);
  float ip;
  out[5 * kMathN + i] = modff(a * 3.0f, &ip) + 100.0f * ip;
  int q;
  out[6 * kMathN + i] = remquof(a * 9.0f, 1.5f, &q) + 1000.0f * (float)(q & 7);
  out[7 * kMathN + i] = std::cbrt(b) * std::acos(a * 0.25f);
}

__global__ void math_doubles(const double *x, double *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double a = x[i];
  double s, c;
  sincos(a, &s, &c);
  out[0 * kMathN + i] = sin(a) * cos(2.0 * a);
  out[1 * kMathN + i] = pow(1.0 + a * a, 0.75);
  out[2 * kMathN + i] = std::atan2(a, 1.5) + tanh(a);
  out[3 * kMathN + i] = s * s + c * c - 1.0;
  out[4 * kMathN + i] = log1p(a * a) + expm1(a * 0.5);
}

static bool math_near(double got, double want, double eps) {
  if (std::isnan(want)) return std::isnan(got);
  return std::fabs(got - want) <= 8 * eps * std::fmax(std::fabs(want), 1e-30) || got == want;
}

int main() {
  float hx[kMathN], hy[kMathN], hout[8 * kMathN];
  double dx[kMathN], dout[5 * kMathN];
  for (int i = 0; i < kMathN; i++) {
    hx[i] = (float)((i * 37) % 101 - 50) / 13.0f;
    hy[i] = (float)((i * 53) % 89 - 44) / 11.0f;
    dx[i] = (double)((i * 41) % 97 - 48) / 9.0;
  }
  float *x, *y, *out;
  double *dxd, *doutd;
  HIP_CHECK(hipMalloc(&x, sizeof hx));
  HIP_CHECK(hipMalloc(&y, sizeof hy));
  HIP_CHECK(hipMalloc(&out, sizeof hout));
  HIP_CHECK(hipMalloc(&dxd, sizeof dx));
  HIP_CHECK(hipMalloc(&doutd, sizeof dout));
  HIP_CHECK(hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(y, hy, sizeof hy, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dxd, dx, sizeof dx, hipMemcpyHostToDevice));
  polar_and_tails<<<kMathN / 64, 64>>>(x, y, out);
  math_doubles<<<kMathN / 64, 64>>>(dxd, doutd);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hout, out, sizeof hout, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(dout, doutd, sizeof dout, hipMemcpyDeviceToHost));
  const double fe = 0x1p-24, de = 0x1p-53;
  for (int i = 0; i < kMathN; i++) {
    const float a = hx[i], b = hy[i];
    float ip;
    const float frac = std::modf(a * 3.0f, &ip);
    int q;
    const float rem = std::remquo(a * 9.0f, 1.5f, &q);
    const double want[8] = {std::atan2(b, a), std::hypot(a, b), 0.5 * std::erfc(-(double)a / std::sqrt(2.0)),
                            std::fmod(a * 10.0f, 3.14159265f), std::remainder(b * 7.0f, 2.0f),
                            frac + 100.0f * ip, rem + 1000.0f * (float)(q & 7),
                            std::cbrt((double)b) * std::acos((double)(a * 0.25f))};
    // erfc's bound is 16 ULP, the others' at most 6; fmod, remainder, modf and remquo are exact
    const double tol[8] = {fe, fe, 2 * fe, 0, 0, 0, 0, fe};
    for (int k = 0; k < 8; k++)
      EXPECT(math_near(hout[k * kMathN + i], want[k], tol[k]), "float function %d at %d (x %g, y %g): %.9g, want %.9g", k, i,
             a, b, hout[k * kMathN + i], want[k]);
    const double d = dx[i];
    const double wantd[5] = {std::sin(d) * std::cos(2.0 * d), std::pow(1.0 + d * d, 0.75), std::atan2(d, 1.5) + std::tanh(d),
                             0.0, std::log1p(d * d) + std::expm1(d * 0.5)};
    for (int k = 0; k < 5; k++)
      EXPECT(k == 3 ? std::fabs(dout[k * kMathN + i]) <= 4 * de : math_near(dout[k * kMathN + i], wantd[k], de),
             "double function %d at %d (x %g): %.17g, want %.17g", k, i, d, dout[k * kMathN + i], wantd[k]);
  }
  std::printf("device_math: %d float and %d double results within their bounds\n", 8 * kMathN, 5 * kMathN);
  return 0;
}
