/* lanes/transpose — FlashInfer ROCm's software path, load_fragment + transpose_mma_tile, written
 * with the model's primitives shuffle by shuffle so that its cost is counted, not asserted.
 *
 * load_fragment (docs/isa.md): ds_read_b64 per lane; at the fragment seed lane 16c+r holds
 * T[r][4c..4c+3] (the A layout). transpose_mma_tile turns that into the B layout (lane 16c+r
 * holds T[4c..4c+3][r]) with __shfl_xor shuffles, each lowered to ds_bpermute_b32 with address
 * (partner*4) (docs/isa.md: "HIP's __shfl_xor lowers to ds_bpermute_b32 with address (lane^mask)*4"):
 *  - a 4x4 transpose of 16-bit items inside each quad of lanes. Lane q of a quad holds row q of a
 *    4x4 block: dword 0 = (col 0, col 1), dword 1 = (col 2, col 3). Writing the lane index as
 *    bits (q1 q0) and the item index as (dword, half), the transpose swaps q0 <-> half and
 *    q1 <-> dword:
 *      round 1, xor 1: lanes with q1 = 0 exchange dword 0, lanes with q1 = 1 dword 1, and merge
 *               16-bit halves (even lane keeps its low half and takes the partner's low half as
 *               its high half; odd lane takes the partner's high half as its low half): 1 shuffle;
 *      round 2, xor 2: both dwords are shuffled; lanes with q1 = 0 take the partner's dword 0 as
 *               their dword 1, lanes with q1 = 1 the partner's dword 1 as their dword 0: 2 shuffles;
 *      round 3, xor 1: the half-merge again on the dword round 1 did not touch: 1 shuffle.
 *  - a swap between quads: lane L takes both dwords of lane 16*((L%16)/4) + 4*(L/16) + L%4
 *    (docs/isa.md): 2 shuffles.
 * Total per 16x16 tile: 1 ds_read_b64 + 6 ds_bpermute_b32 — counted in ops as issued. */
#include <string.h>

#include "lanes/lanes.h"

static void shfl(const uint32_t v[LANES_WAVE], const int partner[LANES_WAVE], uint32_t out[LANES_WAVE],
                 lanes_opcount *ops) {
  uint32_t addr[LANES_WAVE];
  for (int L = 0; L < LANES_WAVE; L++) addr[L] = (uint32_t)partner[L] * 4u;
  memcpy(out, v, LANES_WAVE * sizeof *out);
  lanes_ds_bpermute(v, addr, LANES_EXEC_ALL, out);
  if (ops) ops->ds_bpermute_b32++;
}

/* Exchange with lane L^1 on a 32-bit value and merge 16-bit halves (swap lane bit 0 with the
 * half index). */
static uint32_t half_merge(int L, uint32_t own, uint32_t got) {
  return (L & 1) ? (got >> 16) | (own & 0xffff0000u) : (own & 0xffffu) | (got << 16);
}

bool lanes_fragment_transpose(lanes_arch arch, const uint8_t *lds, size_t n, const uint32_t addr[LANES_WAVE],
                              uint32_t out[LANES_WAVE][2], lanes_opcount *ops, lanes_lds_result *rd, ll_err *err) {
  lanes_lds_result r;
  if (!lanes_ds_read(arch, LANES_DS_READ_B64, lds, n, addr, LANES_EXEC_ALL, &r, err)) return false;
  if (ops) ops->ds_read_b64++;
  if (rd) *rd = r;
  uint32_t d0[LANES_WAVE], d1[LANES_WAVE], sel[LANES_WAVE], got[LANES_WAVE], got1[LANES_WAVE];
  int px1[LANES_WAVE], px2[LANES_WAVE], pq[LANES_WAVE];
  for (int L = 0; L < LANES_WAVE; L++) {
    d0[L] = r.v[L][0];
    d1[L] = r.v[L][1];
    px1[L] = L ^ 1;
    px2[L] = L ^ 2;
    pq[L] = 16 * ((L % 16) / 4) + 4 * (L / 16) + L % 4;
  }
  /* round 1: xor 1 on dword (q1) */
  for (int L = 0; L < LANES_WAVE; L++) sel[L] = (L & 2) ? d1[L] : d0[L];
  shfl(sel, px1, got, ops);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (L & 2) d1[L] = half_merge(L, d1[L], got[L]);
    else d0[L] = half_merge(L, d0[L], got[L]);
  }
  /* round 2: xor 2, both dwords */
  shfl(d0, px2, got, ops);
  shfl(d1, px2, got1, ops);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (L & 2) d0[L] = got1[L];
    else d1[L] = got[L];
  }
  /* round 3: xor 1 on the other dword */
  for (int L = 0; L < LANES_WAVE; L++) sel[L] = (L & 2) ? d0[L] : d1[L];
  shfl(sel, px1, got, ops);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (L & 2) d0[L] = half_merge(L, d0[L], got[L]);
    else d1[L] = half_merge(L, d1[L], got[L]);
  }
  /* inter-quad swap */
  shfl(d0, pq, got, ops);
  shfl(d1, pq, got1, ops);
  for (int L = 0; L < LANES_WAVE; L++) {
    out[L][0] = got[L];
    out[L][1] = got1[L];
  }
  return true;
}
