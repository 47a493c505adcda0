// prefill_impl.h — lanelab's FlashAttention-2-style prefill kernel body, shared by the three
// entry files (prefill_single.hip, prefill_ragged.hip, prefill_paged.hip). Semantics follow
// docs/oracle.md (FlashInfer conventions), exactly what oracle/oracle.h computes:
//   s = (q.k)*sm_scale; soft cap c > 0: s = c*tanh(s/c); mask with -inf (causal bottom-right:
//   keep j <= i + kv_len - qo_len; window w >= 0: keep j >= i + kv_len - qo_len - w; a custom
//   mask replaces causal); online softmax in the log2 domain (s*log2(e), exp2);
//   O float32 [total_q, Hq, D]; LSE base 2 float32 [total_q, Hq]; fully masked row: O = 0,
//   LSE = -inf; kv_head = qo_head / (Hq / Hkv).
//
// Launch contract (verify/prod.h PROD_FLAGS_*; checked on entry, uniform scalars only): `flags`
// holds only kFlagCausal and kFlagCustomMask, plus kFlagHnd for the paged kernels; every
// combination of those bits is accepted, and causal + custom mask computes what the custom mask
// alone computes (the mask replaces causal; the window still applies). window_left >= -1 (-1 =
// none); soft_cap finite and >= 0 (0 = none); sm_scale finite; num_qo_heads >= 1, num_kv_heads >= 1
// dividing it; page_size >= 1 (paged). A launch outside the contract is refused with s_trap (a
// fault the runtime reports with kernel, PC and lane), never run with a guessed meaning:
// tests/test_prod.c launches each refusal.
//
// Work split. One workgroup = 4 waves = 64 query rows (16 per wave) of one (request, qo head)
// tile; grid = (number of query tiles, Hq). The host lists the tiles (tile_req[], tile_q0[]),
// as FlashInfer's request_indices / qo_tile_indices do. Per step the workgroup stages 32 keys
// and 32 values of its kv head into LDS (k128B-swizzled rows of D/4 8-byte units, built by
// ll_swz_offset), then each wave does, per 16-key sub-tile:
//   QK: S^T (16 keys x 16 rows) = sum over D/16 chunks of MFMA 16x16x16 with A = the K fragment
//       (ll_load_fragment, one ds_read_b64) and B = the Q fragment (registers, loaded once).
//       Computing S^T instead of S puts row i of P in lanes 16c+i (4 keys each, MFMA D layout
//       lane j+16(i/4), docs/isa.md) — exactly the B layout the PV MFMA needs, so no S-fragment
//       transpose exists in this kernel (FlashInfer's ROCm kernel keeps one; see the verify
//       matrix notes in verify/prod.c) and the row max needs only 2 shuffles (xor 16, 32).
//   PV: O^T (16 dims x 16 rows) += MFMA with A = the V fragment in the B layout of the V tile
//       (ll_load_v_fragment: ds_read_b64_tr_b16 at the solved seed on gfx950, load_fragment +
//       transpose_mma_tile on gfx942 — kHasTransposingLdsRead and ll_v_fragment_seed chosen
//       together in lanelab_fragments.h) and B = P (16-bit). O^T keeps each row's outputs in
//       the lanes that own its max and sum, so the rescale needs no shuffle.
// All three entry kinds reach the V load through prefill_pv() below: one call site, three
// instantiations (single, ragged, paged).
//
// Phases (LL_PHASE, lanelab_device.h): per kv step stage (barriers + global->LDS tiles), qk
// (K fragments + QK MFMAs), softmax (scale/mask, row max shuffles, exp2, rescale), pv (V
// fragments + PV MFMAs); then epilogue (row sum shuffles, stores). Before the loop: phase 0
// (Q fragments). The emulator counts executed instructions per phase, and verify's prod stage
// reports bpermutes per MFMA in QK and PV on each arch.
//
// Mutants (kernels/mutants.txt; -DLANELAB_MUTANT_<NAME>=1), besides the fragment ones that
// lanelab_fragments.h implements (V_SEED_FRAGMENT, TRANSPOSE_NO_QUAD_STEP, TRANSPOSE_NO_SWAP):
//   CAUSAL_TOP_LEFT             causal offset 0 instead of kv_len - qo_len
//   SM_SCALE_DROPPED            logits not multiplied by sm_scale (log2(e) kept)
//   FINITE_MASK_SENTINEL        masked logits set to -5e4 instead of -inf (flashinfer #4267)
//   GQA_MODULO                  kv_head = qo_head % Hkv
//   PAGED_IGNORE_LAST_PAGE_LEN  kv_len = pages * page_size
//   MISSING_BARRIER             no barrier between the LDS tile stores and the reads of them
// The human-style set (issue 30; kernels/mutants.txt lines tagged `human`, scored by
// mk/score-human-mutants.sh against quick and the make-test sample, not built by make mutants):
//   H_TANH_EXP_OVERFLOW         tanh as (e - 1)/(e + 1) with e = exp(2|x|): NaN once e overflows
//   H_PAGED_HND_HEADS_AS_PAGE   HND offset multiplies the page id by page_size, not num_kv_heads
//   H_TILE_Q0_FROM_BLOCK        ragged/paged: q0 = tile * 64, ignoring tile_q0
//   H_LAST_PAGE_LEN_REQ0        kv_last_page_len[0] for every request
//   H_GQA_DIV_BY_KV_HEADS       kv_head = qo_head / num_kv_heads (the group size confused)
//   H_CAUSAL_WITH_CUSTOM        causal intersected with the custom mask instead of replaced by it
//   H_M_INIT_ZERO               running max starts at 0 instead of -inf
//   H_NO_EMPTY_MAX_GUARD        (-inf) - (-inf) left in when a whole visited block is masked
//   H_SOFTCAP_BEFORE_SCALE      soft cap applied to the raw logit, then the scale
//   H_WINDOW_NO_DELTA           window bound top-left (qi - w), without kv_len - qo_len
//   H_MASK_OFF_IGNORED          custom-mask bits read from the mask base, mask_off ignored
//   H_MASK_BIT_TRANSPOSED       custom-mask bit j * qo_len + qi (column-major) instead of row-major
#ifndef LANELAB_PREFILL_IMPL_H
#define LANELAB_PREFILL_IMPL_H

#include "lanelab_fragments.h"

#ifndef LANELAB_MUTANT_CAUSAL_TOP_LEFT
#define LANELAB_MUTANT_CAUSAL_TOP_LEFT 0
#endif
#ifndef LANELAB_MUTANT_SM_SCALE_DROPPED
#define LANELAB_MUTANT_SM_SCALE_DROPPED 0
#endif
#ifndef LANELAB_MUTANT_FINITE_MASK_SENTINEL
#define LANELAB_MUTANT_FINITE_MASK_SENTINEL 0
#endif
#ifndef LANELAB_MUTANT_GQA_MODULO
#define LANELAB_MUTANT_GQA_MODULO 0
#endif
#ifndef LANELAB_MUTANT_PAGED_IGNORE_LAST_PAGE_LEN
#define LANELAB_MUTANT_PAGED_IGNORE_LAST_PAGE_LEN 0
#endif
#ifndef LANELAB_MUTANT_MISSING_BARRIER
#define LANELAB_MUTANT_MISSING_BARRIER 0
#endif

namespace llp {

constexpr uint32_t kWaves = 4;
constexpr uint32_t kThreads = 64 * kWaves;
constexpr uint32_t kQTile = 16 * kWaves; // query rows per workgroup
constexpr uint32_t kKvBlk = 32;          // keys per LDS step (two 16-key sub-tiles)
constexpr float kLog2e = 1.4426950408889634f;

// Flag bits of the `flags` kernel argument (verify/prod.h PROD_FLAG_*).
constexpr uint32_t kFlagCausal = 1, kFlagCustomMask = 2, kFlagHnd = 4;

enum class kind { single, ragged, paged };
enum class dt { f16, bf16 };

// Everything the body needs, assembled by each entry point from its kernel arguments.
struct args {
  const uint16_t *q, *k, *v;
  float *o, *lse;
  const int32_t *qo_indptr, *kv_indptr, *tile_req, *tile_q0;
  const int32_t *kv_indices, *kv_last_page_len;
  const uint8_t *mask;
  const int32_t *mask_off;
  uint32_t qo_len, kv_len; // single only
  uint32_t num_qo_heads, num_kv_heads, page_size, flags;
  float sm_scale, soft_cap;
  int32_t window_left;
};

// MFMA 16x16x16 with f32 accumulation (CDNA3/CDNA4 ISA §7.1: v_mfma_f32_16x16x16_f16 and
// v_mfma_f32_16x16x16_bf16, the latter is clang's _bf16_1k builtin on gfx90a+).
template <dt T>
LL_INLINE ll_f32x4 mfma(ll_u32x2 a, ll_u32x2 b, ll_f32x4 c) {
  if constexpr (T == dt::f16)
    return __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(ll_halfx4, a),
                                                 __builtin_bit_cast(ll_halfx4, b), c, 0, 0, 0);
  else
    return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(ll_i16x4, a),
                                                     __builtin_bit_cast(ll_i16x4, b), c, 0, 0, 0);
}

// f32 -> 16-bit, round to nearest even. p is a softmax weight in [0, 1] (never NaN).
template <dt T>
LL_INLINE uint32_t to16(float p) {
  if constexpr (T == dt::f16) {
    return __builtin_bit_cast(uint16_t, (ll_half)p);
  } else {
    // bf16 is the top half of the f32; RNE on the dropped 16 bits.
    const uint32_t u = __builtin_bit_cast(uint32_t, p);
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  }
}
template <dt T>
LL_INLINE float from16(uint32_t h) {
  if constexpr (T == dt::f16)
    return (float)__builtin_bit_cast(ll_half, (uint16_t)h);
  else
    return __builtin_bit_cast(float, h << 16);
}

LL_INLINE float fmax_(float a, float b) { return a > b ? a : b; }
LL_INLINE float shfl_xor_f(float v, uint32_t m) {
  return __builtin_bit_cast(float, ll_shfl_xor(__builtin_bit_cast(uint32_t, v), m));
}
// tanh from v_exp_f32 (exp2): tanh|x| = (1 - e)/(1 + e), e = exp(-2|x|); no libm on the device.
LL_INLINE float tanh_(float x) {
  const float ax = x < 0 ? -x : x;
#ifdef LANELAB_MUTANT_H_TANH_EXP_OVERFLOW
  const float e = __builtin_amdgcn_exp2f(2.0f * kLog2e * ax);
  const float t = (e - 1.0f) / (e + 1.0f);
#else
  const float e = __builtin_amdgcn_exp2f(-2.0f * kLog2e * ax);
  const float t = (1.0f - e) / (1.0f + e);
#endif
  return x < 0 ? -t : t;
}

// Element offset of key/value `pos` (0 <= pos < kv_len) of request `req`, kv head `kvh`.
template <kind K, uint32_t D>
LL_INLINE uint64_t kv_offset(const args &a, uint32_t req, uint32_t kv_start, uint32_t pos,
                             uint32_t kvh) {
  if constexpr (K == kind::paged) {
    const uint32_t page = (uint32_t)a.kv_indices[kv_start + pos / a.page_size];
    const uint32_t off = pos % a.page_size;
    if (a.flags & kFlagHnd) // [pages, Hkv, page_size, D]
#ifdef LANELAB_MUTANT_H_PAGED_HND_HEADS_AS_PAGE
      return (((uint64_t)page * a.page_size + kvh) * a.page_size + off) * D;
#else
      return (((uint64_t)page * a.num_kv_heads + kvh) * a.page_size + off) * D;
#endif
    return (((uint64_t)page * a.page_size + off) * a.num_kv_heads + kvh) * D; // NHD
  } else {
    return ((uint64_t)(kv_start + pos) * a.num_kv_heads + kvh) * D;
  }
}

// Stage keys/values kb..kb+kKvBlk-1 into the swizzled LDS tiles (zeros past kv_len).
template <kind K, uint32_t D>
LL_INLINE void stage_kv(const args &a, ll_lds_byte *k_lds, ll_lds_byte *v_lds, uint32_t req,
                        uint32_t kv_start, uint32_t kv_len, uint32_t kb, uint32_t kvh) {
  constexpr uint32_t kUnits = D / 4; // 8-byte units per row
  const uint32_t tid = ll_thread_id_x();
#pragma unroll
  for (uint32_t n = 0; n < kKvBlk * kUnits / kThreads; n++) {
    const uint32_t idx = tid + n * kThreads;
    const uint32_t row = idx / kUnits, unit = idx % kUnits;
    const uint32_t pos = kb + row;
    ll_u32x2 kx = {0, 0}, vx = {0, 0};
    if (pos < kv_len) {
      const uint64_t off = kv_offset<K, D>(a, req, kv_start, pos, kvh) + 4 * unit;
      kx = *(const ll_u32x2 *)(a.k + off);
      vx = *(const ll_u32x2 *)(a.v + off);
    }
    const uint32_t lds = 8u * ll_swz_offset<ll_swizzle::k128B, kUnits>(row, unit);
    *(ll_lds_u32x2 *)(k_lds + lds) = kx;
    *(ll_lds_u32x2 *)(v_lds + lds) = vx;
  }
}

// PV for one 16-key sub-tile: acc[f] (O^T for dims 16f..16f+15) += V^T P^T. The V fragment is
// the only V read of the kernel; ll_load_v_fragment picks tr_b16 or load_fragment+transpose.
template <dt T, uint32_t D>
LL_INLINE void prefill_pv(const ll_lds_byte *v_lds, uint32_t sub, ll_u32x2 p, ll_f32x4 (&acc)[D / 16]) {
#pragma unroll
  for (uint32_t f = 0; f < D / 16; f++) {
    uint32_t addr;
    const ll_u32x2 vf = ll_load_v_fragment<ll_swizzle::k128B, D / 4>(v_lds, 16 * sub, 4 * f, &addr);
    acc[f] = mfma<T>(vf, p, acc[f]);
  }
}

// The launch contract above: true when every scalar argument is inside it.
template <kind K>
LL_INLINE bool contract_ok(const args &a) {
  const uint32_t known = K == kind::paged ? kFlagCausal | kFlagCustomMask | kFlagHnd : kFlagCausal | kFlagCustomMask;
  if ((a.flags & ~known) != 0) return false;
  if (a.window_left < -1) return false;
  if (!(a.soft_cap >= 0.0f) || !__builtin_isfinite(a.soft_cap) || !__builtin_isfinite(a.sm_scale)) return false;
  if (a.num_qo_heads == 0 || a.num_kv_heads == 0 || a.num_qo_heads % a.num_kv_heads != 0) return false;
  return K != kind::paged || a.page_size != 0;
}

template <kind K, dt T, uint32_t D>
LL_INLINE void prefill_body(const args &a, ll_lds_byte *k_lds, ll_lds_byte *v_lds) {
  static_assert(D % 32 == 0 && (kKvBlk * (D / 4)) % kThreads == 0, "head_dim 64, 128, 256");
  if (!contract_ok<K>(a)) __builtin_trap(); // refused: outside the launch contract
  const uint32_t tile = ll_block_id_x(), h = ll_block_id_y();
  const uint32_t lane = ll_lane_id(), wave = ll_thread_id_x() / 64;
  const uint32_t c = lane / 16, i = lane % 16;

  // ---- the tile's request and lengths (uniform) ----
  uint32_t req = 0, q0, qo_start = 0, qo_len, kv_start = 0, kv_len;
  if constexpr (K == kind::single) {
    q0 = tile * kQTile;
    qo_len = a.qo_len;
    kv_len = a.kv_len;
  } else {
    req = (uint32_t)a.tile_req[tile];
#ifdef LANELAB_MUTANT_H_TILE_Q0_FROM_BLOCK
    q0 = tile * kQTile;
#else
    q0 = (uint32_t)a.tile_q0[tile];
#endif
    qo_start = (uint32_t)a.qo_indptr[req];
    qo_len = (uint32_t)a.qo_indptr[req + 1] - qo_start;
    kv_start = (uint32_t)a.kv_indptr[req];
    if constexpr (K == kind::paged) {
      const uint32_t pages = (uint32_t)a.kv_indptr[req + 1] - kv_start;
#if LANELAB_MUTANT_PAGED_IGNORE_LAST_PAGE_LEN
      kv_len = pages * a.page_size;
#else
#ifdef LANELAB_MUTANT_H_LAST_PAGE_LEN_REQ0
      kv_len = pages == 0 ? 0 : (pages - 1) * a.page_size + (uint32_t)a.kv_last_page_len[0];
#else
      kv_len = pages == 0 ? 0 : (pages - 1) * a.page_size + (uint32_t)a.kv_last_page_len[req];
#endif
#endif
    } else {
      kv_len = (uint32_t)a.kv_indptr[req + 1] - kv_start;
    }
  }
  const uint32_t group = a.num_qo_heads / a.num_kv_heads;
#if LANELAB_MUTANT_GQA_MODULO
  const uint32_t kvh = h % a.num_kv_heads;
#elif defined(LANELAB_MUTANT_H_GQA_DIV_BY_KV_HEADS)
  const uint32_t kvh = h / a.num_kv_heads;
#else
  const uint32_t kvh = h / group;
#endif
  (void)group;
#if LANELAB_MUTANT_CAUSAL_TOP_LEFT
  const int32_t delta = 0;
#else
  const int32_t delta = (int32_t)kv_len - (int32_t)qo_len;
#endif
  const bool custom = (a.flags & kFlagCustomMask) != 0;
#ifdef LANELAB_MUTANT_H_CAUSAL_WITH_CUSTOM
  const bool causal = (a.flags & kFlagCausal) != 0;
#else
  const bool causal = !custom && (a.flags & kFlagCausal) != 0;
#endif
#if LANELAB_MUTANT_SM_SCALE_DROPPED
  const float scale = 1.0f;
#else
  const float scale = a.sm_scale;
#endif
#if LANELAB_MUTANT_FINITE_MASK_SENTINEL
  const float kMasked = -5e4f;
#else
  const float kMasked = -__builtin_inff();
#endif

  // ---- kv range the workgroup can see (uniform) ----
  int32_t q_last = (int32_t)q0 + (int32_t)kQTile - 1;
  if (q_last > (int32_t)qo_len - 1) q_last = (int32_t)qo_len - 1;
  int32_t kv_hi = (int32_t)kv_len, kv_lo = 0;
  if (causal && q_last + delta + 1 < kv_hi) kv_hi = q_last + delta + 1;
  if (a.window_left >= 0) {
    const int32_t lo = (int32_t)q0 + delta - a.window_left;
    if (lo > 0) kv_lo = lo - lo % (int32_t)kKvBlk;
  }

  // ---- this lane's query row and its Q fragments (MFMA B operand: lane i+16c holds
  //      Q[i][16f+4c..16f+4c+3], the load_fragment seed applied to global memory) ----
  const uint32_t qi = q0 + 16 * wave + i;
  const bool row_ok = qi < qo_len;
  ll_u32x2 qf[D / 16];
  {
    const uint16_t *qrow = a.q + ((uint64_t)(qo_start + qi) * a.num_qo_heads + h) * D;
#pragma unroll
    for (uint32_t f = 0; f < D / 16; f++)
      qf[f] = row_ok ? *(const ll_u32x2 *)(qrow + 16 * f + 4 * c) : ll_u32x2{0, 0};
  }

#ifdef LANELAB_MUTANT_H_M_INIT_ZERO
  float m = 0.0f, l = 0.0f;
#else
  float m = -__builtin_inff(), l = 0.0f;
#endif
  ll_f32x4 acc[D / 16];
#pragma unroll
  for (uint32_t f = 0; f < D / 16; f++) acc[f] = ll_f32x4{0, 0, 0, 0};

  for (int32_t kb = kv_lo; kb < kv_hi; kb += (int32_t)kKvBlk) {
    LL_PHASE(ll_phase::stage);
    ll_syncthreads(); // every wave is done reading the previous tiles before they are overwritten
    stage_kv<K, D>(a, k_lds, v_lds, req, kv_start, kv_len, (uint32_t)kb, kvh);
#if !LANELAB_MUTANT_MISSING_BARRIER
    ll_syncthreads(); // the tiles are complete before any wave reads them
#endif
    // QK: S^T for the two 16-key sub-tiles; lane 16c+i gets S[i][kb + 16 sub + 4c + t].
    LL_PHASE(ll_phase::qk);
    float s[2][4];
#pragma unroll
    for (uint32_t sub = 0; sub < 2; sub++) {
      ll_f32x4 st = {0, 0, 0, 0};
#pragma unroll
      for (uint32_t f = 0; f < D / 16; f++) {
        uint32_t addr;
        const ll_u32x2 kf = ll_load_fragment<ll_swizzle::k128B, D / 4>(k_lds, 16 * sub, 4 * f, &addr);
        st = mfma<T>(kf, qf[f], st);
      }
#pragma unroll
      for (uint32_t t = 0; t < 4; t++) s[sub][t] = st[t];
    }
    // scale, cap, mask (log2 domain); local row max over the lane's 8 keys
    LL_PHASE(ll_phase::softmax);
    float mx = -__builtin_inff();
#pragma unroll
    for (uint32_t sub = 0; sub < 2; sub++) {
#pragma unroll
      for (uint32_t t = 0; t < 4; t++) {
        const int32_t j = kb + (int32_t)(16 * sub + 4 * c + t);
#ifdef LANELAB_MUTANT_H_SOFTCAP_BEFORE_SCALE
        float x = s[sub][t];
        if (a.soft_cap > 0.0f) x = a.soft_cap * tanh_(x / a.soft_cap);
        x *= scale;
#else
        float x = s[sub][t] * scale;
        if (a.soft_cap > 0.0f) x = a.soft_cap * tanh_(x / a.soft_cap);
#endif
        x *= kLog2e;
        bool keep = j < (int32_t)kv_len;
        if (causal) keep = keep && j <= (int32_t)qi + delta;
#ifdef LANELAB_MUTANT_H_WINDOW_NO_DELTA
        if (a.window_left >= 0) keep = keep && j >= (int32_t)qi - a.window_left;
#else
        if (a.window_left >= 0) keep = keep && j >= (int32_t)qi + delta - a.window_left;
#endif
        if (custom && keep && row_ok) {
#ifdef LANELAB_MUTANT_H_MASK_BIT_TRANSPOSED
          const uint64_t bit = (uint64_t)j * qo_len + qi;
#else
          const uint64_t bit = (uint64_t)qi * kv_len + (uint32_t)j;
#endif
#ifdef LANELAB_MUTANT_H_MASK_OFF_IGNORED
          keep = (a.mask[bit / 8] >> (bit % 8)) & 1;
#else
          keep = (a.mask[(uint64_t)a.mask_off[req] + bit / 8] >> (bit % 8)) & 1;
#endif
        }
        s[sub][t] = keep ? x : kMasked;
        mx = fmax_(mx, s[sub][t]);
      }
    }
    mx = fmax_(mx, shfl_xor_f(mx, 16));
    mx = fmax_(mx, shfl_xor_f(mx, 32));
    const float m_new = fmax_(m, mx);
#ifdef LANELAB_MUTANT_H_NO_EMPTY_MAX_GUARD
    const float m_use = m_new;
#else
    const float m_use = m_new == -__builtin_inff() ? 0.0f : m_new; // no (-inf) - (-inf)
#endif
    const float alpha = __builtin_amdgcn_exp2f(m - m_use);
    float psum = 0.0f;
    ll_u32x2 p[2];
#pragma unroll
    for (uint32_t sub = 0; sub < 2; sub++) {
      uint32_t h16[4];
#pragma unroll
      for (uint32_t t = 0; t < 4; t++) {
        h16[t] = to16<T>(__builtin_amdgcn_exp2f(s[sub][t] - m_use));
        psum += from16<T>(h16[t]); // the sum of the weights the PV MFMA actually uses
      }
      p[sub] = ll_u32x2{h16[0] | (h16[1] << 16), h16[2] | (h16[3] << 16)};
    }
    l = l * alpha + psum;
#pragma unroll
    for (uint32_t f = 0; f < D / 16; f++) acc[f] *= alpha;
    m = m_new;
    // PV
    LL_PHASE(ll_phase::pv);
    prefill_pv<T, D>(v_lds, 0, p[0], acc);
    prefill_pv<T, D>(v_lds, 1, p[1], acc);
  }

  // ---- epilogue: the row sum over its 4 lanes, normalise, store ----
  LL_PHASE(ll_phase::epilogue);
  l += shfl_xor_f(l, 16);
  l += shfl_xor_f(l, 32);
  if (row_ok) {
    const uint64_t row = (uint64_t)(qo_start + qi) * a.num_qo_heads + h;
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    float *orow = a.o + row * D;
#pragma unroll
    for (uint32_t f = 0; f < D / 16; f++)
      *(ll_f32x4 *)(orow + 16 * f + 4 * c) = acc[f] * inv;
    if (c == 0) a.lse[row] = l > 0.0f ? m + __builtin_amdgcn_logf(l) : -__builtin_inff();
  }
}

} // namespace llp

// LDS for one workgroup: the K and V tiles (kKvBlk rows x D 16-bit elements each).
#define LLP_LDS_DECL(D)                                                                            \
  __shared__ uint64_t llp_smem[2 * llp::kKvBlk * (D) * 2 / 8];                                     \
  ll_lds_byte *llp_k_lds = (ll_lds_byte *)llp_smem;                                                \
  ll_lds_byte *llp_v_lds = llp_k_lds + llp::kKvBlk * (D) * 2

#define LLP_LAUNCH_BOUNDS __attribute__((amdgpu_flat_work_group_size(256, 256)))

#endif // LANELAB_PREFILL_IMPL_H
