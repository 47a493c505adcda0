// prefill_paged — batch prefill with a paged KV cache: kv_indptr[B+1] counts pages,
// kv_indices[] are physical page ids (any order), kv_last_page_len[B] in 1..page_size, so
// kv_len = page_size*(pages-1) + last_page_len. Caches NHD [pages, page_size, Hkv, D] or HND
// [pages, Hkv, page_size, D] (flags bit 2), separate K and V; any page_size >= 1. q ragged by
// qo_indptr. O float32 [total_q, Hq, D], LSE base 2 float32 [total_q, Hq]. Body:
// prefill_impl.h; host launch description: verify/prod.h. Grid (query tiles, Hq), block 256.
// Kernels: prefill_paged_{f16,bf16}_d{64,128,256}(q, k_cache, v_cache, o, lse, qo_indptr,
//   kv_indptr, kv_indices, kv_last_page_len, tile_req, tile_q0, mask, mask_off, num_qo_heads,
//   num_kv_heads, page_size, flags, sm_scale, soft_cap, window_left).
#include "prefill_impl.h"

#define LLP_PAGED(DT, D)                                                                           \
  extern "C" __global__ LLP_LAUNCH_BOUNDS void prefill_paged_##DT##_d##D(                          \
      const uint16_t *q, const uint16_t *k, const uint16_t *v, float *o, float *lse,               \
      const int32_t *qo_indptr, const int32_t *kv_indptr, const int32_t *kv_indices,               \
      const int32_t *kv_last_page_len, const int32_t *tile_req, const int32_t *tile_q0,            \
      const uint8_t *mask, const int32_t *mask_off, uint32_t num_qo_heads,                         \
      uint32_t num_kv_heads, uint32_t page_size, uint32_t flags, float sm_scale,                   \
      float soft_cap, int32_t window_left) {                                                       \
    LLP_LDS_DECL(D);                                                                               \
    llp::args a = {};                                                                              \
    a.q = q; a.k = k; a.v = v; a.o = o; a.lse = lse; a.qo_indptr = qo_indptr;                      \
    a.kv_indptr = kv_indptr; a.kv_indices = kv_indices; a.kv_last_page_len = kv_last_page_len;     \
    a.tile_req = tile_req; a.tile_q0 = tile_q0; a.mask = mask; a.mask_off = mask_off;              \
    a.num_qo_heads = num_qo_heads; a.num_kv_heads = num_kv_heads; a.page_size = page_size;         \
    a.flags = flags; a.sm_scale = sm_scale; a.soft_cap = soft_cap; a.window_left = window_left;    \
    llp::prefill_body<llp::kind::paged, llp::dt::DT, D>(a, llp_k_lds, llp_v_lds);                  \
  }

// LANELAB_PREFILL_D64_ONLY: lanelab mutate's builds instantiate head_dim 64 only, a third of the
// compile time (verify/mutate.h); a normal build never defines it.
LLP_PAGED(f16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_PAGED(f16, 128)
LLP_PAGED(f16, 256)
#endif
LLP_PAGED(bf16, 64)
#ifndef LANELAB_PREFILL_D64_ONLY
LLP_PAGED(bf16, 128)
LLP_PAGED(bf16, 256)
#endif
