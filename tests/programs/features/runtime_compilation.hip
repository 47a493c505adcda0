// Runtime compilation (hiprtc) as HIP programs use it: a source string with two headers given by
// name compiled for the device's arch (--gpu-architecture= from hipGetDeviceProperties), its log
// and code, hipModuleLoadData, hipModuleLaunchKernel, the results against the host's arithmetic; a
// template kernel and a __device__ variable found through name expressions (hiprtcGetLoweredName)
// and hipModuleGetGlobal; a compile that names no arch (the device's); and what fails: a compile
// error (its log names the program's file and line), options that would not make one code object,
// an arch lanelab does not emulate, header names outside the compile's folder, and calls made out
// of order, each with HIP's result code.
#include "../common.h"
#include <hip/hiprtc.h>
#include <cstring>
#include <string>
#include <vector>

#define RTC_CHECK(expr)                                                                            \
  do {                                                                                             \
    hiprtcResult r_ = (expr);                                                                      \
    EXPECT(r_ == HIPRTC_SUCCESS, "%s: %s", #expr, hiprtcGetErrorString(r_));                       \
  } while (0)

static const char *rtc_axpy_src = "#include \"rtc_types.h\"\n"
                                  "#include \"detail/rtc_ptr.h\"\n"
                                  "extern \"C\" __global__ void rtc_axpy(const real a, const realptr x, realptr y,\n"
                                  "                                     unsigned n) {\n"
                                  "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "  if (i < n) y[i] = a * x[i] + y[i];\n"
                                  "}\n";

static const char *rtc_tmpl_src = "template <typename T> __global__ void rtc_scale(T *p, T s, int n) {\n"
                                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "  if (i < n) p[i] = p[i] * s + rtc_bias;\n"
                                  "}\n";

static std::string rtc_log(hiprtcProgram p) {
  size_t n = 0;
  RTC_CHECK(hiprtcGetProgramLogSize(p, &n));
  std::string s(n, '\0');
  RTC_CHECK(hiprtcGetProgramLog(p, &s[0]));
  EXPECT(n >= 1 && s[n - 1] == '\0', "the log's size counts its NUL");
  s.resize(n - 1);
  return s;
}

static std::vector<char> rtc_code(hiprtcProgram p) {
  size_t n = 0;
  RTC_CHECK(hiprtcGetCodeSize(p, &n));
  std::vector<char> c(n);
  RTC_CHECK(hiprtcGetCode(p, c.data()));
  EXPECT(n > 64 && !std::memcmp(c.data(), "\177ELF", 4), "the code is an ELF code object (%zu bytes)", n);
  return c;
}

// saxpy through a module compiled at run time; opts may name the arch or not
static void rtc_run_axpy(const char *const *opts, int nopts) {
  const char *hdr[] = {"typedef float real;\n", "#pragma once\ntypedef float *realptr;\n"};
  const char *names[] = {"rtc_types.h", "detail/rtc_ptr.h"};
  hiprtcProgram p;
  RTC_CHECK(hiprtcCreateProgram(&p, rtc_axpy_src, "rtc_axpy.cu", 2, hdr, names));
  hiprtcResult r = hiprtcCompileProgram(p, nopts, opts);
  std::string log = rtc_log(p);
  EXPECT(r == HIPRTC_SUCCESS, "compiling rtc_axpy: %s\n%s", hiprtcGetErrorString(r), log.c_str());
  std::vector<char> code = rtc_code(p);
  RTC_CHECK(hiprtcDestroyProgram(&p));
  EXPECT(p == nullptr, "hiprtcDestroyProgram clears the handle");
  hipModule_t m;
  HIP_CHECK(hipModuleLoadData(&m, code.data()));
  hipFunction_t f;
  HIP_CHECK(hipModuleGetFunction(&f, m, "rtc_axpy"));
  const unsigned n = 4096;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; i++) x[i] = (float)i, y[i] = 2.0f * (float)i;
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 0.75f; // the products and sums exact: the same whether or not the compiler fuses them
  unsigned nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  HIP_CHECK(hipModuleLaunchKernel(f, n / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  std::vector<float> got(n);
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) {
    float want = a * x[i] + y[i];
    EXPECT(got[i] == want, "rtc_axpy y[%u] = %.9g, want %.9g", i, got[i], want);
  }
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  HIP_CHECK(hipModuleUnload(m));
}

// a template kernel and a variable by name expression
static void rtc_run_templates(const std::string &arch_opt) {
  std::string src = std::string("__device__ float rtc_bias_f;\n__device__ int rtc_bias_i;\n") +
                    "template <typename T> struct rtc_bias_of;\n"
                    "template <> struct rtc_bias_of<float> { __device__ static float get() { return rtc_bias_f; } };\n"
                    "template <> struct rtc_bias_of<int> { __device__ static int get() { return rtc_bias_i; } };\n"
                    "#define rtc_bias rtc_bias_of<T>::get()\n" +
                    rtc_tmpl_src;
  hiprtcProgram p;
  RTC_CHECK(hiprtcCreateProgram(&p, src.c_str(), "rtc_tmpl.hip", 0, nullptr, nullptr));
  const char *low = nullptr;
  EXPECT(hiprtcGetLoweredName(p, "rtc_scale<float>", &low) == HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION,
         "a lowered name before the compile");
  EXPECT(hiprtcGetCodeSize(p, nullptr) == HIPRTC_ERROR_INVALID_INPUT, "a NULL size");
  size_t sz = 0;
  EXPECT(hiprtcGetCodeSize(p, &sz) == HIPRTC_ERROR_INVALID_PROGRAM, "code before the compile");
  RTC_CHECK(hiprtcAddNameExpression(p, "rtc_scale<float>"));
  RTC_CHECK(hiprtcAddNameExpression(p, "&rtc_scale<int>"));
  RTC_CHECK(hiprtcAddNameExpression(p, "&rtc_bias_f"));
  RTC_CHECK(hiprtcAddNameExpression(p, "rtc_bias_i"));
  const char *opts[] = {arch_opt.c_str(), "-O2", "-DRTC_UNUSED=1"};
  hiprtcResult r = hiprtcCompileProgram(p, 3, opts);
  EXPECT(r == HIPRTC_SUCCESS, "compiling rtc_tmpl: %s\n%s", hiprtcGetErrorString(r), rtc_log(p).c_str());
  EXPECT(hiprtcAddNameExpression(p, "rtc_scale<double>") == HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION,
         "a name expression after the compile");
  const char *lf = nullptr, *li = nullptr, *lbf = nullptr, *lbi = nullptr;
  RTC_CHECK(hiprtcGetLoweredName(p, "rtc_scale<float>", &lf));
  RTC_CHECK(hiprtcGetLoweredName(p, "rtc_scale<int>", &li)); // added as "&rtc_scale<int>": the same name
  RTC_CHECK(hiprtcGetLoweredName(p, "rtc_bias_f", &lbf));
  RTC_CHECK(hiprtcGetLoweredName(p, "&rtc_bias_i", &lbi));
  EXPECT(hiprtcGetLoweredName(p, "rtc_scale<char>", &low) == HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID,
         "a name expression never added");
  // the Itanium C++ ABI's names of these declarations, written out by hand
  EXPECT(!std::strcmp(lf, "_Z9rtc_scaleIfEvPT_S0_i"), "rtc_scale<float> lowered to %s", lf);
  EXPECT(!std::strcmp(li, "_Z9rtc_scaleIiEvPT_S0_i"), "rtc_scale<int> lowered to %s", li);
  EXPECT(!std::strcmp(lbf, "rtc_bias_f") && !std::strcmp(lbi, "rtc_bias_i"), "variables lowered to %s, %s", lbf, lbi);
  std::vector<char> code = rtc_code(p); // the lowered names live until hiprtcDestroyProgram (below)
  hipModule_t m;
  HIP_CHECK(hipModuleLoadData(&m, code.data()));
  hipFunction_t ff, fi;
  HIP_CHECK(hipModuleGetFunction(&ff, m, lf));
  HIP_CHECK(hipModuleGetFunction(&fi, m, li));
  hipDeviceptr_t bf, bi;
  size_t nbf = 0, nbi = 0;
  HIP_CHECK(hipModuleGetGlobal(&bf, &nbf, m, lbf));
  HIP_CHECK(hipModuleGetGlobal(&bi, &nbi, m, lbi));
  EXPECT(nbf == 4 && nbi == 4, "the variables are %zu and %zu bytes", nbf, nbi);
  float vbf = 0.5f;
  int vbi = -3;
  HIP_CHECK(hipMemcpyHtoD(bf, &vbf, 4));
  HIP_CHECK(hipMemcpyHtoD(bi, &vbi, 4));
  const int n = 300;
  std::vector<float> hf(n);
  std::vector<int> hi(n);
  for (int i = 0; i < n; i++) hf[i] = 0.25f * (float)i, hi[i] = i - 100;
  float *df;
  int *di;
  HIP_CHECK(hipMalloc(&df, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&di, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(df, hf.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(di, hi.data(), n * sizeof(int), hipMemcpyHostToDevice));
  float sf = 3.0f;
  int si = 7, nn = n;
  void *af[] = {&df, &sf, &nn}, *ai[] = {&di, &si, &nn};
  HIP_CHECK(hipModuleLaunchKernel(ff, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, af, nullptr));
  HIP_CHECK(hipModuleLaunchKernel(fi, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, ai, nullptr));
  std::vector<float> gf(n);
  std::vector<int> gi(n);
  HIP_CHECK(hipMemcpy(gf.data(), df, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(gi.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float wf = hf[i] * sf + vbf; // exact in float for these values
    EXPECT(gf[i] == wf, "rtc_scale<float> p[%d] = %.9g, want %.9g", i, gf[i], wf);
    EXPECT(gi[i] == hi[i] * si + vbi, "rtc_scale<int> p[%d] = %d, want %d", i, gi[i], hi[i] * si + vbi);
  }
  HIP_CHECK(hipFree(df));
  HIP_CHECK(hipFree(di));
  HIP_CHECK(hipModuleUnload(m));
  RTC_CHECK(hiprtcDestroyProgram(&p));
}

// what fails, and with which result
static int rtc_refusals(const std::string &arch_opt) {
  int checked = 0;
  hiprtcProgram p;
  // a compile error: HIPRTC_ERROR_COMPILATION, the log names the program's file and line
  const char *broken = "extern \"C\" __global__ void rtc_broken(int *p) {\n"
                       "  p[threadIdx.x] = 1;\n"
                       "  p[0] = undeclared_rtc_name;\n"
                       "}\n";
  RTC_CHECK(hiprtcCreateProgram(&p, broken, "rtc_broken.hip", 0, nullptr, nullptr));
  const char *o1[] = {arch_opt.c_str()};
  EXPECT(hiprtcCompileProgram(p, 1, o1) == HIPRTC_ERROR_COMPILATION, "a compile error");
  std::string log = rtc_log(p);
  EXPECT(log.find("rtc_broken.hip:3:") != std::string::npos && log.find("undeclared_rtc_name") != std::string::npos &&
             log.find("/tmp/lanelab-rtc-") == std::string::npos,
         "the log names the program's line:\n%s", log.c_str());
  size_t sz = 0;
  EXPECT(hiprtcGetCodeSize(p, &sz) == HIPRTC_ERROR_INVALID_PROGRAM, "no code after a failed compile");
  checked++;
  // options that would not make one code object, and an arch lanelab does not emulate
  const char *bad[][2] = {{"-fgpu-rdc", "-fgpu-rdc"}, {"-c", "-c"}, {"--gpu-architecture=gfx90a", "gfx90a"}, {"O2", "O2"}};
  for (auto &b : bad) {
    const char *o[] = {b[0]};
    EXPECT(hiprtcCompileProgram(p, 1, o) == HIPRTC_ERROR_INVALID_OPTION, "option %s", b[0]);
    log = rtc_log(p);
    EXPECT(log.find(b[1]) != std::string::npos, "the log names %s:\n%s", b[1], log.c_str());
    checked++;
  }
  EXPECT(hiprtcCompileProgram(p, 1, nullptr) == HIPRTC_ERROR_INVALID_INPUT, "options NULL with a count");
  RTC_CHECK(hiprtcDestroyProgram(&p));
  EXPECT(hiprtcDestroyProgram(&p) == HIPRTC_ERROR_INVALID_PROGRAM, "a destroyed program");
  checked++;
  // header names outside the compile's folder, and missing arguments
  const char *h[] = {"int x;\n"};
  const char *up[] = {"../rtc_up.h"}, *abs_[] = {"/tmp/rtc_abs.h"};
  EXPECT(hiprtcCreateProgram(&p, "", "x", 1, h, up) == HIPRTC_ERROR_INVALID_INPUT, "a header name with ..");
  EXPECT(hiprtcCreateProgram(&p, "", "x", 1, h, abs_) == HIPRTC_ERROR_INVALID_INPUT, "an absolute header name");
  EXPECT(hiprtcCreateProgram(&p, nullptr, "x", 0, nullptr, nullptr) == HIPRTC_ERROR_INVALID_INPUT, "no source");
  EXPECT(hiprtcCompileProgram(nullptr, 0, nullptr) == HIPRTC_ERROR_INVALID_PROGRAM, "no program");
  checked++;
  EXPECT(!std::strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") &&
             HIPRTC_ERROR_LINKING == 100 && HIPRTC_ERROR_INTERNAL_ERROR == 11,
         "HIP's result codes");
  int major = 0, minor = -1;
  RTC_CHECK(hiprtcVersion(&major, &minor));
  EXPECT(major == HIP_VERSION_MAJOR && minor == HIP_VERSION_MINOR, "hiprtcVersion %d.%d", major, minor);
  return checked;
}

int main() {
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  std::string arch_opt = std::string("--gpu-architecture=") + props.gcnArchName;
  const char *opts[] = {arch_opt.c_str()};
  rtc_run_axpy(opts, 1);
  rtc_run_axpy(nullptr, 0); // no arch named: the device's
  rtc_run_templates(arch_opt);
  int refused = rtc_refusals(arch_opt);
  std::printf("runtime_compilation: rtc_axpy 4096 ok twice, rtc_scale<float>/<int> by lowered names ok, %d refusals ok\n",
              refused);
  return 0;
}
