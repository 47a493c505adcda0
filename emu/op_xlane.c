/* emu/op_xlane — cross-lane semantics (DPP lane selection, used by the shared operand helpers for
 * every *_dpp form, is the core's: emu/dpp.c): ds_bpermute_b32 / ds_permute_b32 / ds_swizzle_b32, v_permlane16/32_swap_b32
 * (gfx950) and the four transposing LDS reads (gfx950).
 *
 * Every handler reads all source lanes into a temporary before writing any destination
 * (internal.h). The DS-encoded ones return their data through LGKM_CNT like any LDS read, so they
 * register it with emu_pend (s_waitcnt validation). Facts are from docs/isa.md unless a comment names another source.
 * (v_readlane/v_writelane/v_readfirstlane belong to the VALU family, emu/op_valu.c.) */
#include <stdio.h>

#include "emu/internal.h"

/* ---- ds_bpermute_b32 / ds_permute_b32 (CDNA3 ISA §11 "LDS": DS_BPERMUTE_B32, DS_PERMUTE_B32):
 * lane index = ((ADDR + OFFSET) / 4) mod 64; no LDS memory is touched. ---------------------------*/
static int op_ds_bpermute_b32(emu_wave *w, const emu_insn *in)
{
  /* gather: dst[l] = data[src lane]; an EXEC-off source lane yields 0; EXEC-on lanes written */
  uint64_t e = emu_exec(w);
  const uint32_t *a = emu_vreg(w, in, 1, 0), *dv = emu_vreg(w, in, 2, 0);
  uint32_t d[EMU_LANES];
  if (e == ~0ull) { /* every source lane active */
    uint32_t *dst = emu_dst32_direct(w, in, 0);
    if (dst) {
      /* straight into a plain VGPR destination (issue #31: gfx942's software transpose runs 400 k
       * of them per seq-256 seed, most in place): emu_bperm64 reads every source lane and address
       * before it writes, so the destination may be either source register */
      emu_bperm64(dst, dv, a, (uint32_t)in->offset);
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    }
    emu_bperm64(d, dv, a, (uint32_t)in->offset);
  } else
    for (int l = 0; l < EMU_LANES; l++) {
      uint32_t s = ((a[l] + (uint32_t)in->offset) >> 2) & 63;
      d[l] = (e >> s & 1) ? dv[s] : 0;
    }
  emu_dst32(w, in, 0, d);
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}

static int op_ds_permute_b32(emu_wave *w, const emu_insn *in)
{
  /* scatter: each EXEC-on lane sends data to lane ((addr+offset)/4)%64; unwritten lanes get 0;
   * lanes are visited in ascending order, so the highest sender wins */
  uint64_t e = emu_exec(w);
  const uint32_t *a = emu_vreg(w, in, 1, 0), *dv = emu_vreg(w, in, 2, 0);
  uint32_t d[EMU_LANES] = {0};
  for (int l = 0; l < EMU_LANES; l++)
    if (e >> l & 1) d[((a[l] + (uint32_t)in->offset) >> 2) & 63] = dv[l];
  emu_dst32(w, in, 0, d);
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}

/* ---- ds_swizzle_b32 (CDNA3 ISA §11 DS_SWIZZLE_B32 pseudocode, as published in AMD's ISA
 * reference; LLVM SIDefines.h Swizzle encodings). All modes work within 32-lane halves:
 *   offset < 0x8000   bitmask: and = [4:0], or = [9:5], xor = [14:10]; j = ((i & and) | or) ^ xor
 *   0x8000..0xbfff    quad permute: lane 4q+i reads 4q + offset[2i+1:2i]
 *   0xc000..0xdfff    rotate: r = [9:5], negated when [10] is set; mask = [4:0];
 *                     j = (i & mask) | ((i + r) & ~mask)   (lane i reads lane i + r)
 *   0xe000..0xffff    FFT: mask = [4:0]; j = reverse_bits(i & 0x1f) >> count_ones(mask) | (i & mask)
 * with i = lane & 31 and j |= lane & 32. Two readings of the pseudocode are ours, each the only one
 * that keeps j inside the lane's 32-lane half as the guide's note requires ("the offset bits apply
 * to each group of 32 within a wavefront"): rotate wraps modulo 32, and reverse_bits reverses the
 * 5-bit value (a 32-bit reverse shifted right by at most 5 would leave every j >= 64).
 * A source lane with EXEC off reads 0; EXEC-on lanes are written. */
static int rev5(int x) { return (x & 1) << 4 | (x & 2) << 2 | (x & 4) | (x & 8) >> 2 | (x & 16) >> 4; }

static int op_ds_swizzle_b32(emu_wave *w, const emu_insn *in)
{
  unsigned off = (unsigned)in->offset & 0xffff;
  uint64_t e = emu_exec(w);
  const uint32_t *dv = emu_vreg(w, in, 1, 0);
  uint32_t d[EMU_LANES];
  for (int l = 0; l < EMU_LANES; l++) {
    int s, i = l & 31;
    if (off < 0x8000) {
      s = (((i & (off & 31)) | (off >> 5 & 31)) ^ (off >> 10 & 31)) | (l & 32);
    } else if (off < 0xc000) {
      s = (l & ~3) | (off >> (2 * (l & 3)) & 3);
    } else if (off < 0xe000) {
      int dist = off >> 5 & 31, keep = off & 31, step = (off >> 10 & 1) ? -dist : dist;
      s = (i & keep) | ((i + step) & ~keep & 31) | (l & 32);
    } else {
      int mask = off & 31;
      s = (rev5(i) >> __builtin_popcount((unsigned)mask)) | (i & mask) | (l & 32);
    }
    d[l] = (e >> s & 1) ? dv[s] : 0;
  }
  emu_dst32(w, in, 0, d);
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}

/* ---- v_permlane16_swap_b32 / v_permlane32_swap_b32 (gfx950; CDNA4 ISA §12 VOP1; LLVM's
 * description of the intrinsics): operand 0 (vdst) and operand 1 (src0) are both read and written.
 *   16: vdst rows 1 and 3 are exchanged with src0 rows 0 and 2 (row = 16 lanes)
 *   32: vdst lanes 32..63 are exchanged with src0 lanes 0..31
 * What a partial EXEC does to a lane pair is not documented publicly: EXEC must be all ones
 * (EXEC = 0 changes nothing, as for any VALU op); anything else faults naming the case.
 * vdst == src0 (AMD's aiter kernels use `v_permlane32_swap_b32 v1, v1` to swap a register's
 * halves): the lanes written through vdst (the partner lanes) and through src0 are disjoint, so
 * the result is well defined: each taking-part lane gets its partner's old value. */
static int permlane_swap(emu_wave *w, const emu_insn *in, int half)
{
  uint64_t e = emu_exec(w);
  if (e == 0) return EMU_OK;
  if (e != ~0ull)
    return emu_raise(w, in, "unimplemented", -1, 0,
                     "v_permlane%d_swap_b32 with partial EXEC 0x%016llx: per-lane behaviour not modelled",
                     half, (unsigned long long)e);
  if (in->o[1].kind != EMU_OPK_VGPR)
    return emu_raise(w, in, "unimplemented", -1, 0, "v_permlane%d_swap_b32 source that is not a VGPR", half);
  uint32_t *vd = emu_vreg(w, in, 0, 0), *vs = emu_vreg(w, in, 1, 0);
  uint32_t nd[EMU_LANES], ns[EMU_LANES];
  memcpy(nd, vd, sizeof nd);
  memcpy(ns, vs, sizeof ns);
  for (int l = 0; l < EMU_LANES; l++) {
    bool src_side = half == 16 ? ((l >> 4) & 1) == 0 : l < 32; /* src0 lanes that take part */
    if (!src_side) continue;
    int p = l + half; /* partner lane in vdst */
    ns[l] = vd[p];
    nd[p] = vs[l];
  }
  if (vd == vs) { /* one register: src0-side lanes from ns, partner lanes from nd */
    for (int l = 0; l < EMU_LANES; l++) {
      bool src_side = half == 16 ? ((l >> 4) & 1) == 0 : l < 32;
      vd[l] = src_side ? ns[l] : nd[l];
    }
    return EMU_OK;
  }
  memcpy(vs, ns, sizeof ns);
  memcpy(vd, nd, sizeof nd);
  return EMU_OK;
}
static int op_v_permlane16_swap_b32(emu_wave *w, const emu_insn *in) { return permlane_swap(w, in, 16); }
static int op_v_permlane32_swap_b32(emu_wave *w, const emu_insn *in) { return permlane_swap(w, in, 32); }

/* ---- transposing LDS reads (gfx950; CDNA4 ISA §11.4; docs/isa.md "Transposing LDS reads") ---------
 * Every lane reads its own 8 bytes (12 for b6) at ADDR+OFFSET; then within each 16-lane group g,
 * with E elements of s bits per lane and R = 16/E:
 *     out(16g+m)[k] = in(16g + R*k + m/E)[m % E]
 * Faults: EXEC not all ones; an address not aligned to 8 bytes (b64 forms) or 16 bytes (b96):
 * docs/isa.md gives 16 per AMD's rocRoller hardware test and 12 per a ROCm doc. 16 is enforced: it is
 * what code run on hardware uses, a literal 12-byte rule is not a power-of-two address mask (and
 * would reject 16-byte-aligned rows), and a stricter check fails loudly with the rule named where a
 * weaker one would let code that breaks on hardware pass silently. LDS out of range faults. */
static __attribute__((noinline)) int tr_read(emu_wave *w, const emu_insn *in, int bytes, int s)
{
  uint64_t e = emu_exec(w);
  if (e != ~0ull)
    return emu_raise(w, in, "transposing read needs full exec", -1, 0, "EXEC is 0x%016llx, must be all ones",
                     (unsigned long long)e);
  int align = bytes == 8 ? 8 : 16, E = bytes * 8 / s, R = 16 / E, nreg = bytes / 4;
  const uint32_t *a = emu_vreg(w, in, 1, 0);
  uint32_t inb[EMU_LANES][3], out[EMU_LANES][3];
  /* every lane aligned and in range (emu_lds_ok64, whole-wave): read without per-lane calls;
   * otherwise the loop below raises the fault for the first bad lane */
  bool ok = emu_lds_ok64(a, (uint32_t)in->offset, (uint32_t)align, (uint32_t)bytes, w->wg->lds_size);
  if (s == 16 && ok) {
    /* ds_read_b64_tr_b16 (the prefill V read), the whole wave at once (emu/simd.c emu_tr16_64): the
     * same rule as the general loop below with E = 4, R = 4: output element k of lane 16g+m is
     * 16-bit element m%4 of lane 16g+4k+m/4 (register r holds elements 2r and 2r+1), that is
     * register r of lane 16g+m takes element m%4 of lanes 16g+8r+m/4 and 16g+8r+4+m/4 */
    emu_tr16_64(emu_vreg(w, in, 0, 0), emu_vreg(w, in, 0, 1), w->wg->lds, a, (uint32_t)in->offset, w->wg->lds_size);
    emu_pend(w, in, EMU_CNT_DS, 0);
    return EMU_OK;
  }
  memset(inb, 0, sizeof inb);
  if (ok) {
    for (int l = 0; l < EMU_LANES; l++) memcpy(inb[l], w->wg->lds + (uint64_t)a[l] + (uint32_t)in->offset, (size_t)bytes);
  } else for (int l = 0; l < EMU_LANES; l++) {
    uint64_t addr = (uint64_t)a[l] + (uint32_t)in->offset;
    if (addr & (align - 1))
      return emu_raise(w, in, "misaligned lds access", l, addr,
                       "%d-byte transposing read needs %d-byte alignment (%s)", bytes, align,
                       bytes == 8 ? "CDNA4 ISA §11.4: aligned to the data size"
                                  : "b96: 16 as in AMD's rocRoller hardware test, not the 12 of a ROCm doc");
    const uint8_t *p = emu_ldsptr(w, in, addr, (uint32_t)bytes, l);
    if (!p) return EMU_FAULT;
    memcpy(inb[l], p, (size_t)bytes);
  }
  uint64_t msk = (1ull << s) - 1;
  for (int l = 0; l < EMU_LANES; l++) {
    int g = l & ~15, m = l & 15;
    memset(out[l], 0, sizeof out[l]);
    for (int k = 0; k < E; k++) {
      int sl = g + R * k + m / E, se = m % E, bit = s * se;
      /* element se of lane sl: bits [bit, bit+s) of its little-endian bytes */
      uint64_t v = ((uint64_t)inb[sl][bit >> 5] | (bit >> 5 < 2 ? (uint64_t)inb[sl][(bit >> 5) + 1] << 32 : 0))
                       >> (bit & 31) & msk;
      int ob = s * k;
      out[l][ob >> 5] |= (uint32_t)(v << (ob & 31));
      if ((ob & 31) + s > 32) out[l][(ob >> 5) + 1] |= (uint32_t)(v >> (32 - (ob & 31)));
    }
  }
  for (int r = 0; r < nreg; r++) {
    uint32_t *d = emu_vreg(w, in, 0, r);
    for (int l = 0; l < EMU_LANES; l++) d[l] = out[l][r];
  }
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}
/* ds_read_b64_tr_b16 with every lane on, aligned and in range first: tr_read's whole-wave path
 * without its frame and temporaries (issue #31); everything else, faults included, takes tr_read */
static int op_ds_read_b64_tr_b16(emu_wave *w, const emu_insn *in)
{
  if (emu_exec(w) == ~0ull) {
    const uint32_t *a = emu_vreg(w, in, 1, 0);
    if (emu_lds_ok64(a, (uint32_t)in->offset, 8, 8, w->wg->lds_size)) {
      emu_tr16_64(emu_vreg(w, in, 0, 0), emu_vreg(w, in, 0, 1), w->wg->lds, a, (uint32_t)in->offset, w->wg->lds_size);
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    }
  }
  return tr_read(w, in, 8, 16);
}
static int op_ds_read_b64_tr_b8(emu_wave *w, const emu_insn *in) { return tr_read(w, in, 8, 8); }
static int op_ds_read_b64_tr_b4(emu_wave *w, const emu_insn *in) { return tr_read(w, in, 8, 4); }
static int op_ds_read_b96_tr_b6(emu_wave *w, const emu_insn *in) { return tr_read(w, in, 12, 6); }

const emu_opdef emu_optab_xlane[] = {
    {"ds_bpermute_b32", op_ds_bpermute_b32, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE},
    {"ds_permute_b32", op_ds_permute_b32, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE},
    {"ds_swizzle_b32", op_ds_swizzle_b32, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE},
    {"v_permlane16_swap_b32", op_v_permlane16_swap_b32, EMU_F_VALU | EMU_F_XLANE | EMU_F_GFX950},
    {"v_permlane32_swap_b32", op_v_permlane32_swap_b32, EMU_F_VALU | EMU_F_XLANE | EMU_F_GFX950},
    {"ds_read_b64_tr_b16", op_ds_read_b64_tr_b16, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE | EMU_F_GFX950},
    {"ds_read_b64_tr_b8", op_ds_read_b64_tr_b8, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE | EMU_F_GFX950},
    {"ds_read_b64_tr_b4", op_ds_read_b64_tr_b4, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE | EMU_F_GFX950},
    {"ds_read_b96_tr_b6", op_ds_read_b96_tr_b6, EMU_F_DS | EMU_F_LOAD | EMU_F_XLANE | EMU_F_GFX950},
    {NULL, NULL, 0},
};
