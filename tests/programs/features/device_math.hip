// Device math as programs use it: polar coordinates (atan2f, hypotf), a normal distribution's tail
// (erfcf, std::erfc), angle wrapping (fmodf, remainderf), double-precision trigonometry and powers
// (sin, cos, pow, std::atan2, sincos), modff and remquof through their pointers. These are ROCm's
// device math library (ocml) on the device; the host's libm computes the same values, and each
// device result must be within 8 ULP-sized relative steps of it (the OpenCL bounds ocml meets are
// 2-6 ULP for these, 16 for erfc; docs/hip-subset.md).
#include "../common.h"
#include <hip/hip_complex.h>
#include <cmath>
#include <complex>
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

// std::complex on the device: * and / are clang's calls to __mulsc3/__divsc3 (__muldc3/__divdc3),
// which lanelab_hip_complex_builtins.h provides; abs, exp and log are the double math above. The
// last two lanes multiply and divide infinities and NaNs: Annex G's recovered results, which the
// host's libgcc computes with its own implementation of the same rules.
__global__ void math_complex(const double *x, std::complex<float> *fo, std::complex<double> *dout) {
  const int i = threadIdx.x;
  const double a = x[i];
  std::complex<float> z((float)a, 0.5f), w(1.25f, (float)-a);
  std::complex<double> u(a, -1.0), v(0.75, a * 0.5);
  if (i == 62) z = std::complex<float>(INFINITY, NAN), u = std::complex<double>(INFINITY, NAN);
  if (i == 63) w = std::complex<float>(0.0f, 0.0f), v = std::complex<double>(0.0, 0.0);
  fo[4 * i] = z * w, fo[4 * i + 1] = z / w;
  /* the hyperbolic and inverse functions of complex<float> and float (libstdc++'s templates over
   * std::cosh(float) ...: HIP's device functions, not clang's builtins) */
  fo[4 * i + 2] = std::cosh(z * 0.25f) + std::sinh(w * 0.25f);
  fo[4 * i + 3] = std::tanh(z * 0.25f) + std::asinh(w) + std::complex<float>(std::arg(w), std::cosh(0.25f * (float)a));
  dout[3 * i] = u * v, dout[3 * i + 1] = u / v, dout[3 * i + 2] = std::exp(u * 0.25) + std::log(v) + std::abs(u);
}

// HIP's own complex type and functions (hip/hip_complex.h), against std::complex<double> on the host.
__global__ void math_hip_complex(hipFloatComplex *f, hipDoubleComplex *d) {
  const int i = threadIdx.x;
  const hipComplex a = make_hipComplex(i * 0.25f, 1.5f), b = make_hipComplex(2.0f, -i * 0.5f + 0.1f);
  f[4 * i] = hipCmulf(a, b);
  f[4 * i + 1] = hipCdivf(a, b);
  f[4 * i + 2] = hipCfmaf(a, b, hipConjf(a));
  f[4 * i + 3] = make_hipFloatComplex(hipCabsf(a), hipCrealf(hipCsubf(a, b)));
  const hipDoubleComplex c = hipComplexFloatToDouble(a), e = make_hipDoubleComplex(-1.0, i);
  d[2 * i] = hipCdiv(hipCadd(c, e), e);
  d[2 * i + 1] = make_hipDoubleComplex(hipCabs(e), hipCimag(hipCfma(c, e, c)));
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
  std::complex<float> *fo;
  std::complex<double> *co;
  HIP_CHECK(hipMalloc(&fo, 256 * sizeof *fo));
  HIP_CHECK(hipMalloc(&co, 192 * sizeof *co));
  math_complex<<<1, 64>>>(dxd, fo, co);
  HIP_CHECK(hipDeviceSynchronize());
  std::complex<float> hf[256];
  std::complex<double> hc[192];
  HIP_CHECK(hipMemcpy(hf, fo, sizeof hf, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hc, co, sizeof hc, hipMemcpyDeviceToHost));
  auto cnear = [](auto g, auto w, double eps) {
    if (std::isnan(w.real()) || std::isinf(w.real()) || std::isnan(w.imag()) || std::isinf(w.imag()))
      return (std::isnan(g.real()) == std::isnan(w.real()) && std::isinf(g.real()) == std::isinf(w.real()) &&
              std::isnan(g.imag()) == std::isnan(w.imag()) && std::isinf(g.imag()) == std::isinf(w.imag()));
    return std::abs(g - w) <= 8 * eps * std::abs(w) + 1e-300;
  };
  for (int i = 0; i < 64; i++) {
    const double a = dx[i];
    std::complex<float> z((float)a, 0.5f), w(1.25f, (float)-a);
    std::complex<double> u(a, -1.0), v(0.75, a * 0.5);
    if (i == 62) z = std::complex<float>(INFINITY, NAN), u = std::complex<double>(INFINITY, NAN);
    if (i == 63) w = std::complex<float>(0.0f, 0.0f), v = std::complex<double>(0.0, 0.0);
    const std::complex<float> wf[2] = {z * w, z / w};
    /* the same functions in double on the host from the same float inputs (the lanes of infinities
     * and NaNs left out: Annex G's special values are the host's C library's, not libstdc++'s templates') */
    const std::complex<double> zd(z.real(), z.imag()), wdd(w.real(), w.imag());
    const std::complex<double> wh[2] = {std::cosh(zd * 0.25) + std::sinh(wdd * 0.25),
                                        std::tanh(zd * 0.25) + std::asinh(wdd) +
                                            std::complex<double>(std::arg(wdd), std::cosh(0.25 * (double)(float)a))};
    for (int k = 0; k < 2 && i < 62; k++)
      EXPECT(cnear(std::complex<double>(hf[4 * i + 2 + k].real(), hf[4 * i + 2 + k].imag()), wh[k], 8 * fe),
             "complex<float> hyperbolic %d at %d: (%g, %g), want (%g, %g)", k, i, hf[4 * i + 2 + k].real(),
             hf[4 * i + 2 + k].imag(), wh[k].real(), wh[k].imag());
    const std::complex<double> wd[3] = {u * v, u / v, std::exp(u * 0.25) + std::log(v) + std::abs(u)};
    for (int k = 0; k < 2; k++)
      EXPECT(cnear(hf[4 * i + k], wf[k], 2 * fe), "complex<float> %d at %d: (%g, %g), want (%g, %g)", k, i,
             hf[4 * i + k].real(), hf[4 * i + k].imag(), wf[k].real(), wf[k].imag());
    for (int k = 0; k < 3; k++)
      EXPECT(cnear(hc[3 * i + k], wd[k], 2 * de), "complex<double> %d at %d: (%g, %g), want (%g, %g)", k, i,
             hc[3 * i + k].real(), hc[3 * i + k].imag(), wd[k].real(), wd[k].imag());
  }
  hipFloatComplex *hcf, hf2[256];
  hipDoubleComplex *hcd, hd2[128];
  HIP_CHECK(hipMalloc(&hcf, sizeof hf2));
  HIP_CHECK(hipMalloc(&hcd, sizeof hd2));
  math_hip_complex<<<1, 64>>>(hcf, hcd);
  HIP_CHECK(hipMemcpy(hf2, hcf, sizeof hf2, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hd2, hcd, sizeof hd2, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    const std::complex<double> a((double)(i * 0.25f), 1.5), b(2.0, (double)(-i * 0.5f + 0.1f)), e(-1.0, i);
    const std::complex<double> wf[4] = {a * b, a / b, a * b + std::conj(a), {std::abs(a), (a - b).real()}};
    const std::complex<double> wd[2] = {(a + e) / e, {std::abs(e), (a * e + a).imag()}};
    for (int k = 0; k < 4; k++)
      EXPECT(cnear(std::complex<double>(hf2[4 * i + k].x, hf2[4 * i + k].y), wf[k], 4 * fe), "hipComplex %d at %d", k, i);
    for (int k = 0; k < 2; k++)
      EXPECT(cnear(std::complex<double>(hd2[2 * i + k].x, hd2[2 * i + k].y), wd[k], 4 * de), "hipDoubleComplex %d at %d", k, i);
  }
  std::printf("device_math: %d float and %d double results within their bounds; std::complex ok; hipComplex ok\n",
              8 * kMathN, 5 * kMathN);
  return 0;
}
