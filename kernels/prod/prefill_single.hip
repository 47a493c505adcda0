// prefill_single — single-request prefill attention (one query sequence, one KV sequence):
// q [qo_len, Hq, D], k/v [kv_len, Hkv, D], 16-bit (f16 or bf16); O float32 [qo_len, Hq, D],
// LSE base 2 float32 [qo_len, Hq]. Body and semantics: prefill_impl.h. Host launch description:
// verify/prod.h (prod_prefill_launch). Grid (ceil(qo_len/64), Hq), block 256.
// Kernels: prefill_single_{f16,bf16}_d{64,128,256}(q, k, v, o, lse, mask, mask_off, qo_len,
//   kv_len, num_qo_heads, num_kv_heads, flags, sm_scale, soft_cap, window_left).
#include "prefill_impl.h"

#define LLP_SINGLE(DT, D)                                                                          \
  extern "C" __global__ LLP_LAUNCH_BOUNDS void prefill_single_##DT##_d##D(                         \
      const uint16_t *q, const uint16_t *k, const uint16_t *v, float *o, float *lse,               \
      const uint8_t *mask, const int32_t *mask_off, uint32_t qo_len, uint32_t kv_len,              \
      uint32_t num_qo_heads, uint32_t num_kv_heads, uint32_t flags, float sm_scale,                \
      float soft_cap, int32_t window_left) {                                                       \
    LLP_LDS_DECL(D);                                                                               \
    llp::args a = {};                                                                              \
    a.q = q; a.k = k; a.v = v; a.o = o; a.lse = lse; a.mask = mask; a.mask_off = mask_off;         \
    a.qo_len = qo_len; a.kv_len = kv_len; a.num_qo_heads = num_qo_heads;                           \
    a.num_kv_heads = num_kv_heads; a.flags = flags; a.sm_scale = sm_scale;                         \
    a.soft_cap = soft_cap; a.window_left = window_left;                                            \
    llp::prefill_body<llp::kind::single, llp::dt::DT, D>(a, llp_k_lds, llp_v_lds);                 \
  }

// LANELAB_PREFILL_D64_ONLY: lanelab mutate's builds instantiate head_dim 64 only, a third of the
// compile time (verify/mutate.h); a normal build never defines it.
LLP_SINGLE(f16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_SINGLE(f16, 128)
LLP_SINGLE(f16, 256)
#endif
LLP_SINGLE(bf16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_SINGLE(bf16, 128)
LLP_SINGLE(bf16, 256)
#endif
