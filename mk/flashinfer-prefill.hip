// mk/flashinfer-prefill.hip — a host driver for ROCm/flashinfer's own single-request prefill
// kernel (include/flashinfer/attention/generic/prefill.cuh, from the checkout the caller names
// with -I; nothing of FlashInfer is in lanelab): it instantiates SinglePrefillWithKVCacheDispatched
// for f16 or bf16, head_dim 64 or 128, causal or not (FlashInfer's DefaultAttention, no RoPE,
// NHD layout), runs it through lanelab's HIP runtime on the emulated GPU, and compares O and LSE
// with lanelab's oracle (`lanelab oracle attention`, docs/oracle.md: LSE in base 2, causal
// bottom-right aligned). Built and run by mk/flashinfer-prefill.sh; local only, not in CI.
//
//   flashinfer-prefill DIR DTYPE HEAD_DIM CAUSAL QO_LEN KV_LEN HQ HKV
//     DIR is the oracle's output folder for a seeded spec: q.bin, k.bin, v.bin (DTYPE, NHD) and
//     o.bin, lse.bin (f32)
//
// Prints one line: the shape, max |error| of O and of LSE, the elements outside FlashInfer's own
// tolerance (f16: 1e-3 + 1e-3|ref|, bf16: 1e-2 + 1e-2|ref|), and the first such element with
// its token, head and column. Exit 0 when none is outside, 1 when some are, 2 on bad usage or
// input, 3 when a HIP call fails.
#include <hip/hip_runtime.h>
#include <flashinfer/attention/generic/prefill.cuh>
#include <flashinfer/attention/generic/variants.cuh>
#include <flashinfer/attention/generic/default_prefill_params.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool read_file(const std::string &path, std::vector<unsigned char> &out, size_t want) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  out.resize(want + 1);
  const size_t n = std::fread(out.data(), 1, want + 1, f);
  std::fclose(f);
  out.resize(n);
  return n == want;
}

float to_f32(const unsigned char *p, bool bf16) {
  unsigned short h;
  std::memcpy(&h, p, 2);
  if (bf16) {
    const unsigned u = (unsigned)h << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  // binary16 -> float
  const unsigned s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? std::ldexp((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp((float)(m | 1024), (int)e - 25);
  return s ? -v : v;
}

#define CHECK_HIP(expr)                                                                            \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      std::fprintf(stderr, "flashinfer-prefill: %s failed: %s\n", #expr, hipGetErrorString(e_));   \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

template <class T, uint32_t D, flashinfer::MaskMode M>
int run(const char *dir, bool bf16, uint32_t qo, uint32_t kv, uint32_t hq, uint32_t hkv) {
  using namespace flashinfer;
  using Params = SinglePrefillParams<T, T, T>;
  using Variant = DefaultAttention</*custom_mask=*/false, /*sliding_window=*/false, /*soft_cap=*/false, /*alibi=*/false>;
  const size_t nq = (size_t)qo * hq * D, nkv = (size_t)kv * hkv * D;
  std::vector<unsigned char> q, k, v, o_ref, lse_ref;
  const std::string d = dir;
  if (!read_file(d + "/q.bin", q, nq * 2) || !read_file(d + "/k.bin", k, nkv * 2) || !read_file(d + "/v.bin", v, nkv * 2) ||
      !read_file(d + "/o.bin", o_ref, nq * 4) || !read_file(d + "/lse.bin", lse_ref, (size_t)qo * hq * 4)) {
    std::fprintf(stderr, "flashinfer-prefill: %s lacks q.bin/k.bin/v.bin/o.bin/lse.bin of the stated shape\n", dir);
    return 2;
  }
  T *dq, *dk, *dv, *d_o;
  float *dlse;
  CHECK_HIP(hipMalloc((void **)&dq, nq * 2));
  CHECK_HIP(hipMalloc((void **)&dk, nkv * 2));
  CHECK_HIP(hipMalloc((void **)&dv, nkv * 2));
  CHECK_HIP(hipMalloc((void **)&d_o, nq * 2));
  CHECK_HIP(hipMalloc((void **)&dlse, (size_t)qo * hq * 4));
  CHECK_HIP(hipMemcpy(dq, q.data(), nq * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dk, k.data(), nkv * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dv, v.data(), nkv * 2, hipMemcpyHostToDevice));
  // NHD: q [qo, hq, D], k/v [kv, hkv, D]; default scale 1/sqrt(D), no RoPE (scale and theta unused)
  Params p(dq, dk, dv, /*custom_mask=*/nullptr, d_o, dlse, /*alibi=*/nullptr, hq, hkv, qo, kv, hq * D, D, hkv * D, D, D,
           /*window_left=*/-1, /*soft_cap=*/0.0f, 1.0f / std::sqrt((float)D), /*rope_scale=*/1.0f, /*rope_theta=*/1e4f);
  CHECK_HIP((SinglePrefillWithKVCacheDispatched<D, D, PosEncodingMode::kNone, /*fp16_qk_reduction=*/false, M, Variant>(
      p, /*tmp=*/nullptr, /*stream=*/nullptr)));
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<unsigned char> o(nq * 2);
  std::vector<float> lse((size_t)qo * hq);
  CHECK_HIP(hipMemcpy(o.data(), d_o, nq * 2, hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(lse.data(), dlse, lse.size() * 4, hipMemcpyDeviceToHost));
  const double atol = bf16 ? 1e-2 : 1e-3, rtol = atol;
  double max_o = 0, max_lse = 0;
  size_t bad = 0, first = (size_t)-1;
  bool first_is_lse = false;
  for (size_t i = 0; i < nq; i++) {
    float ref;
    std::memcpy(&ref, &o_ref[4 * i], 4);
    const float got = to_f32(&o[2 * i], bf16);
    const double err = std::fabs((double)got - ref);
    if (err > max_o || std::isnan(err)) max_o = std::isnan(err) ? INFINITY : err;
    if (!(err <= atol + rtol * std::fabs(ref))) {
      if (!bad) first = i;
      bad++;
    }
  }
  for (size_t i = 0; i < lse.size(); i++) {
    float ref;
    std::memcpy(&ref, &lse_ref[4 * i], 4);
    const bool both_neg_inf = std::isinf(ref) && ref < 0 && std::isinf(lse[i]) && lse[i] < 0;
    const double err = both_neg_inf ? 0.0 : std::fabs((double)lse[i] - ref);
    if (err > max_lse || std::isnan(err)) max_lse = std::isnan(err) ? INFINITY : err;
    if (!(err <= atol + rtol * std::fabs(ref))) {
      if (!bad) first = i, first_is_lse = true;
      bad++;
    }
  }
  std::printf("%s head_dim=%u %s qo=%u kv=%u heads=%u/%u: max|dO| %.3g max|dLSE| %.3g, %zu outside tolerance", bf16 ? "bf16" : "f16", D,
              M == MaskMode::kCausal ? "causal" : "non-causal", qo, kv, hq, hkv, max_o, max_lse, bad);
  if (bad) {
    if (first_is_lse)
      std::printf("; first: LSE token %zu head %zu: got %.9g, want %.9g", first / hq, first % hq, lse[first],
                  ((float *)lse_ref.data())[first]);
    else
      std::printf("; first: O token %zu head %zu column %zu: got %.9g, want %.9g", first / (hq * D), (first / D) % hq, first % D,
                  to_f32(&o[2 * first], bf16), ((float *)o_ref.data())[first]);
  }
  std::printf("\n");
  hipFree(dq), hipFree(dk), hipFree(dv), hipFree(d_o), hipFree(dlse);
  return bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  using flashinfer::MaskMode;
  if (argc != 9) {
    std::fprintf(stderr, "usage: flashinfer-prefill DIR f16|bf16 64|128 causal|none QO_LEN KV_LEN HQ HKV\n");
    return 2;
  }
  const std::string dt = argv[2], mask = argv[4];
  const int dim = std::atoi(argv[3]);
  const long qo = std::atol(argv[5]), kv = std::atol(argv[6]), hq = std::atol(argv[7]), hkv = std::atol(argv[8]);
  if ((dt != "f16" && dt != "bf16") || (dim != 64 && dim != 128) || (mask != "causal" && mask != "none") || qo < 1 || kv < 1 ||
      hq < 1 || hkv < 1 || hq % hkv) {
    std::fprintf(stderr, "flashinfer-prefill: bad arguments (dtype f16|bf16, head_dim 64|128, causal|none, positive lengths, "
                         "HQ a multiple of HKV)\n");
    return 2;
  }
  const bool bf = dt == "bf16", causal = mask == "causal";
#define LL_CASE(T, D, M) return run<T, D, M>(argv[1], bf, (uint32_t)qo, (uint32_t)kv, (uint32_t)hq, (uint32_t)hkv)
  if (!bf && dim == 64 && causal) LL_CASE(half, 64, MaskMode::kCausal);
  if (!bf && dim == 64) LL_CASE(half, 64, MaskMode::kNone);
  if (!bf && dim == 128 && causal) LL_CASE(half, 128, MaskMode::kCausal);
  if (!bf && dim == 128) LL_CASE(half, 128, MaskMode::kNone);
  if (dim == 64 && causal) LL_CASE(__hip_bfloat16, 64, MaskMode::kCausal);
  if (dim == 64) LL_CASE(__hip_bfloat16, 64, MaskMode::kNone);
  if (causal) LL_CASE(__hip_bfloat16, 128, MaskMode::kCausal);
  LL_CASE(__hip_bfloat16, 128, MaskMode::kNone);
#undef LL_CASE
}
