// lanelab_fragments.h — device fragments shared by the micro-kernels and the production prefill
// kernel: swizzled LDS offsets, load_fragment, the six-shuffle software transpose
// (transpose_mma_tile), and the V-fragment seed + load pair gated by one constant.
//
// Public facts this follows (code written here from them):
//  - Swizzle modes and load_fragment: FlashInfer's ROCm port (permuted_smem / mma_hip), as
//    summarised in docs/isa.md, "The software transpose being replaced".
//  - ds_read_b64_tr_b16 lane rule: CDNA4 ISA §11.4; rule table in docs/isa.md.
//  - The solved seed row 4*(L/16) + (L%16)/4, chunk L%4: seed file 000 (FlashInfer CDNA4 change).
//
// Vocabulary (all offsets are in 8-byte units = 4 f16 "chunks"; a tile row has STRIDE units):
//   ll_swizzle::{kLinear, k64B, k128B, k128B_16Row}
//   ll_swz_offset<S, STRIDE>(row, chunk)        -> unit offset of logical (row, chunk)
//   ll_seed {row, chunk};  ll_fragment_seed(L), ll_v_fragment_seed(L)
//   ll_load_fragment<S, STRIDE>(base, row0, chunk0, &addr)   one ds_read_b64 (A layout)
//   ll_transpose_mma_tile(frag)                 six ds_bpermute_b32: A layout -> B layout
//   kHasTransposingLdsRead                      true only when compiling for gfx950
//   ll_ds_read_tr16_b64(p)                      ds_read_b64_tr_b16 (gfx950 only)
//   ll_load_v_fragment<S, STRIDE>(base, row0, chunk0, &addr)
//       B-layout V fragment: tr_b16 at ll_v_fragment_seed on gfx950, load_fragment +
//       transpose_mma_tile on gfx942 — the seed and the load it feeds come from one place.
//
// A "fragment" is the 16x16 f16 tile T at rows row0..row0+15, chunks chunk0..chunk0+3 of a
// swizzled region. A layout (what load_fragment gives): lane 16c+r holds T[r][4c..4c+3].
// B layout (MFMA 16x16x16 B operand with T stored k-major): lane 16c+r holds T[4c..4c+3][r].
// Element e of a fragment is bits [16e+15:16e] of the 64-bit value {x = dword 0, y = dword 1}.
//
// Mutants. The preprocessor cannot compare strings, so each mutant is its own macro: the build
// (Makefile, kernels/mutants.txt) passes -DLANELAB_MUTANT_<NAME>=1 with NAME upper-cased, next
// to -DLANELAB_MUTANT=<name>, which this header does not interpret (other kernels may define
// mutants of their own). Mutants implemented here:
//   V_SEED_FRAGMENT          ll_v_fragment_seed returns the load_fragment seed (row L%16,
//                            chunk L/16) even on gfx950: the tr_b16 read is then fed the
//                            "obvious" seed. Wrong on gfx950; on gfx942 the V path already
//                            uses that seed, so the mutant builds byte-identical there and is
//                            expected to pass (that asymmetry is the point of seed file 000).
//   TRANSPOSE_NO_QUAD_STEP   ll_transpose_mma_tile skips the 4x4 transpose inside each quad
//                            (the first four shuffles): 2 ds_bpermute_b32 instead of 6.
//   TRANSPOSE_NO_SWAP        ll_transpose_mma_tile skips the swap between quads (the last two
//                            shuffles): 4 ds_bpermute_b32 instead of 6.
// The two transpose mutants change every caller of the software path (gfx942's V path, both
// arches' lane_fragment_transpose).
#ifndef LANELAB_FRAGMENTS_H
#define LANELAB_FRAGMENTS_H

#include "lanelab_device.h"

// ---- mutant selection (see the file comment) ---------------------------------------------------
#ifndef LANELAB_MUTANT_V_SEED_FRAGMENT
#define LANELAB_MUTANT_V_SEED_FRAGMENT 0
#endif
#ifndef LANELAB_MUTANT_TRANSPOSE_NO_QUAD_STEP
#define LANELAB_MUTANT_TRANSPOSE_NO_QUAD_STEP 0
#endif
#ifndef LANELAB_MUTANT_TRANSPOSE_NO_SWAP
#define LANELAB_MUTANT_TRANSPOSE_NO_SWAP 0
#endif

// ---- feature constant --------------------------------------------------------------------------
// ds_read_b64_tr_b16 exists only on gfx950 (CDNA4 ISA §11.4; docs/isa.md "gfx942 vs gfx950").
#if defined(__gfx950__)
constexpr bool kHasTransposingLdsRead = true;
#else
constexpr bool kHasTransposingLdsRead = false;
#endif

// ---- swizzled offsets --------------------------------------------------------------------------
enum class ll_swizzle { kLinear, k64B, k128B, k128B_16Row };

// Unit (8-byte) offset of logical row `row`, chunk `chunk` of a region with STRIDE units per row.
// The XOR keeps every chunk inside its own row and permutes chunks between rows so the 16 lanes
// reading one column of chunks hit different LDS banks.
template <ll_swizzle S, uint32_t STRIDE>
LL_INLINE uint32_t ll_swz_offset(uint32_t row, uint32_t chunk) {
  if constexpr (S == ll_swizzle::kLinear) {
    return row * STRIDE + chunk;
  } else if constexpr (S == ll_swizzle::k64B) {
    static_assert(STRIDE >= 4, "k64B XORs the low 2 chunk bits: a row needs >= 4 units");
    return row * STRIDE + (chunk ^ ((row / 2) % 4));
  } else if constexpr (S == ll_swizzle::k128B) {
    static_assert(STRIDE >= 8, "k128B XORs the low 3 chunk bits: a row needs >= 8 units");
    return row * STRIDE + (chunk ^ (row % 8));
  } else {
    static_assert(STRIDE >= 16, "k128B_16Row XORs the low 4 chunk bits: a row needs >= 16 units");
    return row * STRIDE + (chunk ^ (row % 16));
  }
}

// ---- seeds -------------------------------------------------------------------------------------
struct ll_seed {
  uint32_t row;   // tile row 0..15
  uint32_t chunk; // 4-element chunk 0..3 within the tile
};

// load_fragment: lane L reads row L%16, chunk L/16 (gives the A layout).
LL_INLINE ll_seed ll_fragment_seed(uint32_t lane) { return ll_seed{lane % 16, lane / 16}; }

// The seed the V-fragment load uses. With the transposing read, lane L must address
// row 4*(L/16) + (L%16)/4, chunk L%4: by the tr_b16 rule out(16g+4a+b)[j] = in(16g+4j+a)[b],
// lane 16g+4j+a then reads T[4g+j][4a..4a+3] and lane 16g+n ends up with T[4g+j][n], j=0..3 —
// the B layout. Without it, the software path starts from the load_fragment seed.
LL_INLINE ll_seed ll_v_fragment_seed(uint32_t lane) {
  if constexpr (kHasTransposingLdsRead && !LANELAB_MUTANT_V_SEED_FRAGMENT)
    return ll_seed{4 * (lane / 16) + (lane % 16) / 4, lane % 4};
  else
    return ll_fragment_seed(lane);
}

// ---- loads -------------------------------------------------------------------------------------
// LDS byte address of tile element chunk (row0 + s.row, chunk0 + s.chunk) in a region at `base`.
template <ll_swizzle S, uint32_t STRIDE>
LL_INLINE const ll_lds_byte *ll_seed_ptr(const ll_lds_byte *base, uint32_t row0, uint32_t chunk0,
                                         ll_seed s) {
  return base + 8u * ll_swz_offset<S, STRIDE>(row0 + s.row, chunk0 + s.chunk);
}

// One ds_read_b64 at the load_fragment seed: returns the A layout. *addr = LDS byte address used.
template <ll_swizzle S, uint32_t STRIDE>
LL_INLINE ll_u32x2 ll_load_fragment(const ll_lds_byte *base, uint32_t row0, uint32_t chunk0,
                                    uint32_t *addr) {
  const ll_lds_byte *p = ll_seed_ptr<S, STRIDE>(base, row0, chunk0, ll_fragment_seed(ll_lane_id()));
  *addr = ll_lds_addr(p);
  return *(const ll_lds_u32x2 *)p;
}

// ---- the software transpose --------------------------------------------------------------------
// The 16-bit merge of a 2x2 transpose between two lanes holding one dword each:
// the even lane (self_is_low) gets {lo: keep.lo, hi: from.lo}, the odd one {lo: from.hi, hi: keep.hi}.
LL_INLINE uint32_t ll_merge16(uint32_t keep, uint32_t from, bool self_is_low) {
  // Selects, not branches: the lanes of a pair take different sides in the same instruction.
  const uint32_t kept = keep & (self_is_low ? 0x0000ffffu : 0xffff0000u);
  const uint32_t moved = self_is_low ? (from << 16) : (from >> 16);
  return kept | moved;
}

// A layout -> B layout over the whole wave (see the file comment for both layouts).
// Write lane L = 16c + 4q + p (p = position in its quad, q = quad in the 16-lane row group).
// Input: lane (c,q,p) holds M[p][b] = T[4q+p][4c+b], b = 0..3 (x = b 0,1; y = b 2,3).
//  Step 1, 4x4 transpose of M inside each quad (4 shuffles, xor masks 1, 2, 1):
//   1a (xor 1, 1 shuffle): lanes p=0,1 transpose the 2x2 block held in x, lanes p=2,3 the one in
//      y (the two diagonal 2x2 blocks of M), by trading one 16-bit half with the partner.
//   1b (xor 2, 2 shuffles): the off-diagonal 2x2 blocks change places: p<2 take the partner's x
//      as their y, p>=2 take the partner's y as their x. Both dwords cross (two shuffles) and
//      each lane keeps the one it needs — the structure FlashInfer's ROCm port has, whose cost
//      (six ds_bpermute_b32 per tile, seed file 000) the lab must reproduce; a single shuffle of
//      a lane-selected dword would also do.
//   1c (xor 1, 1 shuffle): the moved blocks (now y for p<2, x for p>=2) get the 1a treatment.
//   Now lane (c,q,p) holds M[j][p] = T[4q+j][4c+p], j = 0..3.
//  Step 2, swap between quads (2 shuffles, one per dword): lane (c,q,p) takes the registers of
//   lane (q,c,p) = 16*((L%16)/4) + 4*(L/16) + L%4, and so holds T[4c+j][4q+p] = the B layout.
LL_INLINE ll_u32x2 ll_transpose_mma_tile(ll_u32x2 f) {
  const uint32_t lane = ll_lane_id();
  uint32_t x = f.x, y = f.y;
#if !LANELAB_MUTANT_TRANSPOSE_NO_QUAD_STEP
  {
    const uint32_t p = lane % 4;
    const bool low = (p % 2) == 0; // even lane of its pair keeps the low half
    // 1a
    const bool diag_in_x = p < 2;
    uint32_t mine = diag_in_x ? x : y;
    uint32_t got = ll_shfl_xor(mine, 1);
    mine = ll_merge16(mine, got, low);
    if (diag_in_x) x = mine; else y = mine;
    // 1b
    const uint32_t gx = ll_shfl_xor(x, 2);
    const uint32_t gy = ll_shfl_xor(y, 2);
    if (diag_in_x) y = gx; else x = gy;
    // 1c
    mine = diag_in_x ? y : x;
    got = ll_shfl_xor(mine, 1);
    mine = ll_merge16(mine, got, low);
    if (diag_in_x) y = mine; else x = mine;
  }
#endif
#if !LANELAB_MUTANT_TRANSPOSE_NO_SWAP
  {
    const uint32_t partner = 16 * ((lane % 16) / 4) + 4 * (lane / 16) + lane % 4;
    x = ll_shfl(x, partner);
    y = ll_shfl(y, partner);
  }
#endif
  return ll_u32x2{x, y};
}

// ---- the transposing read (gfx950) -------------------------------------------------------------
#if defined(__gfx950__)
// ds_read_b64_tr_b16 at p (must be 8-byte aligned, EXEC all ones: CDNA4 ISA §11.4).
LL_INLINE ll_u32x2 ll_ds_read_tr16_b64(const ll_lds_byte *p) {
  ll_i16x4 v = __builtin_amdgcn_ds_read_tr16_b64_v4i16((ll_lds_i16x4 *)p);
  return __builtin_bit_cast(ll_u32x2, v);
}
#endif

// The V fragment in the B layout. On gfx950: one ds_read_b64_tr_b16 at ll_v_fragment_seed.
// Elsewhere: load_fragment (one ds_read_b64) + transpose_mma_tile (six ds_bpermute_b32).
// *addr = the LDS byte address this lane used.
template <ll_swizzle S, uint32_t STRIDE>
LL_INLINE ll_u32x2 ll_load_v_fragment(const ll_lds_byte *base, uint32_t row0, uint32_t chunk0,
                                      uint32_t *addr) {
  // The address comes from ll_v_fragment_seed on both paths, so the seed and the read it feeds
  // are chosen together.
  const ll_lds_byte *p = ll_seed_ptr<S, STRIDE>(base, row0, chunk0, ll_v_fragment_seed(ll_lane_id()));
  *addr = ll_lds_addr(p);
#if defined(__gfx950__)
  return ll_ds_read_tr16_b64(p);
#else
  return ll_transpose_mma_tile(*(const ll_lds_u32x2 *)p);
#endif
}

#endif // LANELAB_FRAGMENTS_H
