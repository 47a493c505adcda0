// prefill_ragged — batch prefill over ragged (packed) tensors: qo_indptr[B+1] and
// kv_indptr[B+1] are token offsets; q [total_q, Hq, D], k/v [total_kv, Hkv, D] (NHD), 16-bit.
// O float32 [total_q, Hq, D], LSE base 2 float32 [total_q, Hq]. Body: prefill_impl.h; host
// launch description: verify/prod.h. Grid (number of 64-row query tiles over all requests, Hq),
// block 256; tile_req[t] / tile_q0[t] give each tile's request and first query row.
// Kernels: prefill_ragged_{f16,bf16}_d{64,128,256}(q, k, v, o, lse, qo_indptr, kv_indptr,
//   tile_req, tile_q0, mask, mask_off, num_qo_heads, num_kv_heads, flags, sm_scale, soft_cap,
//   window_left).
#include "prefill_impl.h"

#define LLP_RAGGED(DT, D)                                                                          \
  extern "C" __global__ LLP_LAUNCH_BOUNDS void prefill_ragged_##DT##_d##D(                         \
      const uint16_t *q, const uint16_t *k, const uint16_t *v, float *o, float *lse,               \
      const int32_t *qo_indptr, const int32_t *kv_indptr, const int32_t *tile_req,                 \
      const int32_t *tile_q0, const uint8_t *mask, const int32_t *mask_off,                        \
      uint32_t num_qo_heads, uint32_t num_kv_heads, uint32_t flags, float sm_scale,                \
      float soft_cap, int32_t window_left) {                                                       \
    LLP_LDS_DECL(D);                                                                               \
    llp::args a = {};                                                                              \
    a.q = q; a.k = k; a.v = v; a.o = o; a.lse = lse; a.qo_indptr = qo_indptr;                      \
    a.kv_indptr = kv_indptr; a.tile_req = tile_req; a.tile_q0 = tile_q0; a.mask = mask;            \
    a.mask_off = mask_off; a.num_qo_heads = num_qo_heads; a.num_kv_heads = num_kv_heads;           \
    a.flags = flags; a.sm_scale = sm_scale; a.soft_cap = soft_cap; a.window_left = window_left;    \
    llp::prefill_body<llp::kind::ragged, llp::dt::DT, D>(a, llp_k_lds, llp_v_lds);                 \
  }

// LANELAB_PREFILL_D64_ONLY: lanelab mutate's builds instantiate head_dim 64 only, a third of the
// compile time (verify/mutate.h); a normal build never defines it.
LLP_RAGGED(f16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_RAGGED(f16, 128)
LLP_RAGGED(f16, 256)
#endif
LLP_RAGGED(bf16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_RAGGED(bf16, 128)
LLP_RAGGED(bf16, 256)
#endif
