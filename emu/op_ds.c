/* emu/op_ds — LDS access (CDNA3 ISA chapter "Data Share Operations" and the listing "DS
 * Instructions"). Address = VGPR (per lane, 32-bit) + offset; only EXEC lanes access LDS; every
 * access is checked against the workgroup's allocation (fault "lds out of range"). Unaligned
 * addresses are accepted (gfx9 LDS supports unaligned access in the default alignment mode).
 * Reads gather every lane before any destination register is written. Cross-lane DS ops
 * (bpermute/permute/swizzle) and the transposing reads live in op_xlane.c. */
#include "emu/internal.h"

#define LANES for (int l = 0; l < EMU_LANES; l++) if (e >> l & 1)

static inline uint32_t *vr(emu_wave *w, const emu_insn *in, int i, int k) { return emu_vreg(w, in, i, k); }

/* First EXEC lane whose access [addr, addr+bytes) leaves the allocation, or -1. The loop has no
 * branches so it vectorizes; a fault is then raised for that lane by emu_ldsptr. */
static inline int lds_bad_lane(const emu_wave *w, uint64_t e, const uint32_t *a, uint32_t off, uint32_t bytes)
{
  uint64_t lim = w->wg->lds_size, bad = 0;
  /* quick test over every lane in 32-bit arithmetic (emu/simd.c): nothing out of range at all */
  if (lim >= bytes && emu_lds_in64(a, off, (uint32_t)(lim - bytes))) return -1;
  for (int l = 0; l < EMU_LANES; l++) {
    uint64_t ad = (uint32_t)(a[l] + off); /* 32-bit LDS address arithmetic */
    bad |= (uint64_t)(ad + bytes > lim) << l;
  }
  bad &= e;
  return bad ? __builtin_ctzll(bad) : -1;
}

/* read bytes per lane at vaddr (operand 1) + offset into operand 0 */
static __attribute__((noinline)) int ds_read_gen(emu_wave *w, const emu_insn *in, uint32_t bytes, int kind)
{
  uint64_t e = emu_exec(w);
  const uint32_t *a = vr(w, in, 1, 0);
  uint32_t off = (uint32_t)in->offset;
  int bl = lds_bad_lane(w, e, a, off, bytes);
  if (bl >= 0) return emu_ldsptr(w, in, (uint32_t)(a[bl] + off), bytes, bl) ? EMU_FAULT : EMU_FAULT;
  const uint8_t *lds = w->wg->lds;
  uint32_t tmp[4][EMU_LANES];
  uint32_t nw = (bytes + 3) / 4;
  if (kind == 0 && (bytes & 3) == 0 && e == ~0ull) {
    /* every lane, whole dwords (the common case): straight into the destination registers, which
     * are written only after every lane has been read (tmp when a destination is the address) */
    const emu_opnd *od = &in->o[0], *oa = &in->o[1];
    bool alias = od->kind == oa->kind && oa->reg >= od->reg && oa->reg < od->reg + nw;
    if (nw == 2) { /* one 8-byte read per lane (emu/simd.c: AVX2 gathers when present) */
      uint32_t *d0 = alias ? tmp[0] : vr(w, in, 0, 0), *d1 = alias ? tmp[1] : vr(w, in, 0, 1);
      emu_lds_read8_64(d0, d1, lds, a, off);
    } else if (nw == 1) { /* one 4-byte read per lane (emu/simd.c: AVX2 gathers when present) */
      emu_lds_read4_64(vr(w, in, 0, 0), lds, a, off); /* lane chunk by chunk: the address may be the destination */
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    } else {
      for (uint32_t k = 0; k < nw; k++) {
        uint32_t *d = alias ? tmp[k] : vr(w, in, 0, (int)k);
        for (int l = 0; l < EMU_LANES; l++) memcpy(&d[l], lds + (uint32_t)(a[l] + off) + 4 * k, 4);
      }
    }
    if (alias)
      for (uint32_t k = 0; k < nw; k++) memcpy(vr(w, in, 0, (int)k), tmp[k], sizeof tmp[k]);
    emu_pend(w, in, EMU_CNT_DS, 0);
    return EMU_OK;
  }
  if (bytes == 4 && kind == 0) {
    LANES memcpy(&tmp[0][l], lds + (uint32_t)(a[l] + off), 4);
  } else {
    LANES {
      uint32_t v[4] = {0, 0, 0, 0};
      memcpy(v, lds + (uint32_t)(a[l] + off), bytes);
      switch (kind) {
      case 1: v[0] = (uint32_t)(int32_t)(int8_t)v[0]; break;   /* i8 */
      case 2: v[0] = (uint32_t)(int32_t)(int16_t)v[0]; break;  /* i16 */
      }
      for (uint32_t k = 0; k < nw; k++) tmp[k][l] = v[k];
    }
  }
  if (kind >= 3) { /* d16: low (3) or high (4) half of the destination, other half kept */
    uint32_t *d = vr(w, in, 0, 0);
    LANES {
      uint32_t v = tmp[0][l];
      if (kind == 5 || kind == 6) v = (uint32_t)(int32_t)(int8_t)v & 0xffff; /* signed byte d16 */
      d[l] = (kind == 4 || kind == 6) ? (d[l] & 0xffff) | v << 16 : (d[l] & 0xffff0000u) | (v & 0xffff);
    }
  } else {
    for (uint32_t k = 0; k < nw; k++) {
      uint32_t *d = vr(w, in, 0, (int)k);
      if (e == ~0ull) memcpy(d, tmp[k], sizeof tmp[k]);
      else LANES d[l] = tmp[k][l];
    }
  }
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}
/* ds_read_b32 and ds_read_b64 with every lane on and in range (the b64 form with the address not
 * among the destinations) first, without the general body's frame and temporaries (issue #31): the
 * same checks and reads as ds_read_gen's whole-wave path, which takes everything else */
static inline __attribute__((always_inline)) int ds_read(emu_wave *w, const emu_insn *in, uint32_t bytes, int kind)
{
  uint64_t lim = w->wg->lds_size;
  if (kind == 0 && (bytes == 4 || bytes == 8) && emu_exec(w) == ~0ull && lim >= bytes) {
    const emu_opnd *od = &in->o[0], *oa = &in->o[1];
    const uint32_t *a = vr(w, in, 1, 0);
    uint32_t off = (uint32_t)in->offset;
    if ((bytes == 4 || !(od->kind == oa->kind && oa->reg >= od->reg && oa->reg < od->reg + 2)) &&
        emu_lds_in64(a, off, (uint32_t)(lim - bytes))) {
      if (bytes == 4) emu_lds_read4_64(vr(w, in, 0, 0), w->wg->lds, a, off); /* the address may be the destination */
      else emu_lds_read8_64(vr(w, in, 0, 0), vr(w, in, 0, 1), w->wg->lds, a, off);
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    }
  }
  return ds_read_gen(w, in, bytes, kind);
}
int EMU_H(emu_op_ds_read_b32)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 4, 0); }
int EMU_H(emu_op_ds_read_b64)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 8, 0); }
int EMU_H(emu_op_ds_read_b96)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 12, 0); }
int EMU_H(emu_op_ds_read_b128)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 16, 0); }
int EMU_H(emu_op_ds_read_u8)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 0); }
int EMU_H(emu_op_ds_read_i8)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 1); }
int EMU_H(emu_op_ds_read_u16)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 2, 0); }
int EMU_H(emu_op_ds_read_i16)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 2, 2); }
int EMU_H(emu_op_ds_read_u8_d16)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 3); }
int EMU_H(emu_op_ds_read_u8_d16_hi)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 4); }
int EMU_H(emu_op_ds_read_i8_d16)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 5); }
int EMU_H(emu_op_ds_read_i8_d16_hi)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 1, 6); }
int EMU_H(emu_op_ds_read_u16_d16)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 2, 3); }
int EMU_H(emu_op_ds_read_u16_d16_hi)(emu_wave *w, const emu_insn *in) { return ds_read(w, in, 2, 4); }

/* ds_read2*: two elements at addr + offset0 * size and addr + offset1 * size (st64: * 64) */
static __attribute__((noinline)) int ds_read2_gen(emu_wave *w, const emu_insn *in, uint32_t size, uint32_t stride)
{
  uint64_t e = emu_exec(w);
  const uint32_t *a = vr(w, in, 1, 0);
  uint32_t words = size / 4, tmp[4][EMU_LANES];
  uint32_t off0 = (uint32_t)in->offset0 * size * stride, off1 = (uint32_t)in->offset1 * size * stride;
  if (lds_bad_lane(w, e, a, off0, size) < 0 && lds_bad_lane(w, e, a, off1, size) < 0) {
    /* every access in range (checked as emu_ldsptr does): no per-lane checks */
    const uint8_t *lds = w->wg->lds;
    const emu_opnd *od = &in->o[0], *oa = &in->o[1];
    if (words == 2 && e == ~0ull && !(od->kind == oa->kind && oa->reg >= od->reg && oa->reg < od->reg + 4)) {
      /* every lane, the address not among the destinations (as ds_read): straight into them */
      emu_lds_read8_64(vr(w, in, 0, 0), vr(w, in, 0, 1), lds, a, off0);
      emu_lds_read8_64(vr(w, in, 0, 2), vr(w, in, 0, 3), lds, a, off1);
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    }
    if (words == 2) {
      LANES { /* one 8-byte read per half */
        uint64_t v0, v1;
        memcpy(&v0, lds + (uint32_t)(a[l] + off0), 8), memcpy(&v1, lds + (uint32_t)(a[l] + off1), 8);
        tmp[0][l] = (uint32_t)v0, tmp[1][l] = (uint32_t)(v0 >> 32), tmp[2][l] = (uint32_t)v1, tmp[3][l] = (uint32_t)(v1 >> 32);
      }
    } else LANES {
      const uint8_t *p0 = lds + (uint32_t)(a[l] + off0), *p1 = lds + (uint32_t)(a[l] + off1);
      for (uint32_t k = 0; k < words; k++) memcpy(&tmp[k][l], p0 + 4 * k, 4), memcpy(&tmp[words + k][l], p1 + 4 * k, 4);
    }
  } else LANES {
    for (int h = 0; h < 2; h++) {
      uint64_t addr = (uint32_t)(a[l] + (uint32_t)(h ? in->offset1 : in->offset0) * size * stride);
      const uint8_t *p = emu_ldsptr(w, in, addr, size, l);
      if (!p) return EMU_FAULT;
      for (uint32_t k = 0; k < words; k++) memcpy(&tmp[h * words + k][l], p + 4 * k, 4);
    }
  }
  for (uint32_t k = 0; k < 2 * words; k++) {
    uint32_t *d = vr(w, in, 0, (int)k);
    if (e == ~0ull) memcpy(d, tmp[k], sizeof tmp[k]);
    else LANES d[l] = tmp[k][l];
  }
  emu_pend(w, in, EMU_CNT_DS, 0);
  return EMU_OK;
}
/* The 64-bit forms' common case first, without the general body's frame and its temporaries (issue
 * #31): every lane on, both accesses in range, the address not among the destinations; the same
 * checks and reads as ds_read2_gen's whole-wave path, which takes everything else. */
static inline __attribute__((always_inline)) int ds_read2(emu_wave *w, const emu_insn *in, uint32_t size, uint32_t stride)
{
  const emu_opnd *od = &in->o[0], *oa = &in->o[1];
  uint64_t lim = w->wg->lds_size;
  if (size == 8 && emu_exec(w) == ~0ull && lim >= 8) {
    const uint32_t *a = vr(w, in, 1, 0);
    uint32_t off0 = (uint32_t)in->offset0 * size * stride, off1 = (uint32_t)in->offset1 * size * stride;
    if (emu_lds_in64(a, off0, (uint32_t)(lim - 8)) && emu_lds_in64(a, off1, (uint32_t)(lim - 8))) {
      const uint8_t *lds = w->wg->lds;
      if (!(od->kind == oa->kind && oa->reg >= od->reg && oa->reg < od->reg + 4)) {
        emu_lds_read8_64(vr(w, in, 0, 0), vr(w, in, 0, 1), lds, a, off0);
        emu_lds_read8_64(vr(w, in, 0, 2), vr(w, in, 0, 3), lds, a, off1);
      } else { /* the address among the destinations (clang's `ds_read2_b64 v[8:11], v8`, issue #31):
                * every lane read into temporaries before any destination is written */
        uint32_t t[4][EMU_LANES];
        emu_lds_read8_64(t[0], t[1], lds, a, off0);
        emu_lds_read8_64(t[2], t[3], lds, a, off1);
        for (int k = 0; k < 4; k++) memcpy(vr(w, in, 0, k), t[k], sizeof t[k]);
      }
      emu_pend(w, in, EMU_CNT_DS, 0);
      return EMU_OK;
    }
  }
  return ds_read2_gen(w, in, size, stride);
}
int EMU_H(emu_op_ds_read2_b32)(emu_wave *w, const emu_insn *in) { return ds_read2(w, in, 4, 1); }
int EMU_H(emu_op_ds_read2_b64)(emu_wave *w, const emu_insn *in) { return ds_read2(w, in, 8, 1); }
int EMU_H(emu_op_ds_read2st64_b32)(emu_wave *w, const emu_insn *in) { return ds_read2(w, in, 4, 64); }
int EMU_H(emu_op_ds_read2st64_b64)(emu_wave *w, const emu_insn *in) { return ds_read2(w, in, 8, 64); }

/* writes: ds_write_bN vaddr, vdata [offset]; hi = store the high 16 bits (d16_hi forms).
 * Lanes store in lane order (the highest lane wins when addresses collide). */
static __attribute__((noinline)) int ds_write_gen(emu_wave *w, const emu_insn *in, uint32_t bytes, bool hi)
{
  uint64_t e = emu_exec(w);
  const uint32_t *a = vr(w, in, 0, 0);
  uint32_t off = (uint32_t)in->offset;
  int bl = lds_bad_lane(w, e, a, off, bytes);
  if (bl >= 0) return emu_ldsptr(w, in, (uint32_t)(a[bl] + off), bytes, bl) ? EMU_FAULT : EMU_FAULT;
  uint8_t *lds = w->wg->lds;
  const uint32_t *dv[4];
  uint32_t nw = (bytes + 3) / 4;
  for (uint32_t k = 0; k < nw; k++) dv[k] = vr(w, in, 1, (int)k);
  if (bytes == 4 && !hi && e == ~0ull) {
    emu_lds_write4_64(lds, a, off, dv[0]); /* emu/simd.c: rows of eight lanes as one store on AVX2 */
  } else if (bytes == 4 && !hi) {
    LANES memcpy(lds + (uint32_t)(a[l] + off), &dv[0][l], 4);
  } else if (bytes == 8) { /* each size its own loop, so that every lane's store is one move of that size
                             * where a library memcpy of a run-time size was called per lane (issue #31:
                             * FlashInfer's prefill stores its K/V tiles by ds_write_b64) */
    LANES {
      const uint64_t v = dv[0][l] | (uint64_t)dv[1][l] << 32;
      memcpy(lds + (uint32_t)(a[l] + off), &v, 8);
    }
  } else if (bytes == 16) {
    LANES {
      const uint32_t v[4] = {dv[0][l], dv[1][l], dv[2][l], dv[3][l]};
      memcpy(lds + (uint32_t)(a[l] + off), v, 16);
    }
  } else if (bytes == 2) {
    LANES {
      const uint16_t v = (uint16_t)(hi ? dv[0][l] >> 16 : dv[0][l]);
      memcpy(lds + (uint32_t)(a[l] + off), &v, 2);
    }
  } else {
    LANES {
      uint32_t v[4];
      for (uint32_t k = 0; k < nw; k++) v[k] = dv[k][l];
      if (hi) v[0] >>= 16;
      memcpy(lds + (uint32_t)(a[l] + off), v, bytes);
    }
  }
  emu_pend(w, in, EMU_CNT_DS, -1);
  return EMU_OK;
}
/* ds_write_b32 with every lane on and in range first, as ds_read (ds_write_gen's whole-wave path) */
static inline __attribute__((always_inline)) int ds_write(emu_wave *w, const emu_insn *in, uint32_t bytes, bool hi)
{
  uint64_t lim = w->wg->lds_size;
  if (bytes == 4 && !hi && emu_exec(w) == ~0ull && lim >= 4) {
    const uint32_t *a = vr(w, in, 0, 0);
    uint32_t off = (uint32_t)in->offset;
    if (emu_lds_in64(a, off, (uint32_t)(lim - 4))) {
      emu_lds_write4_64(w->wg->lds, a, off, vr(w, in, 1, 0));
      emu_pend(w, in, EMU_CNT_DS, -1);
      return EMU_OK;
    }
  }
  return ds_write_gen(w, in, bytes, hi);
}
int EMU_H(emu_op_ds_write_b8)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 1, false); }
int EMU_H(emu_op_ds_write_b16)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 2, false); }
int EMU_H(emu_op_ds_write_b32)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 4, false); }
int EMU_H(emu_op_ds_write_b64)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 8, false); }
int EMU_H(emu_op_ds_write_b96)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 12, false); }
int EMU_H(emu_op_ds_write_b128)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 16, false); }
int EMU_H(emu_op_ds_write_b8_d16_hi)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 1, true); }
int EMU_H(emu_op_ds_write_b16_d16_hi)(emu_wave *w, const emu_insn *in) { return ds_write(w, in, 2, true); }

static __attribute__((noinline)) int ds_write2_gen(emu_wave *w, const emu_insn *in, uint32_t size, uint32_t stride)
{
  uint64_t e = emu_exec(w);
  const uint32_t *a = vr(w, in, 0, 0);
  uint32_t words = size / 4;
  uint32_t off0 = (uint32_t)in->offset0 * size * stride, off1 = (uint32_t)in->offset1 * size * stride;
  if (lds_bad_lane(w, e, a, off0, size) < 0 && lds_bad_lane(w, e, a, off1, size) < 0) {
    /* every access in range: the same stores in the same order (lane, then half) without checks */
    uint8_t *lds = w->wg->lds;
    const uint32_t *d0[2], *d1[2];
    for (uint32_t k = 0; k < words; k++) d0[k] = vr(w, in, 1, (int)k), d1[k] = vr(w, in, 2, (int)k);
    if (words == 2 && e == ~0ull) { /* every lane: one 8-byte store per half, lane then half */
      emu_lds_write2_8_64(lds, a, off0, off1, d0[0], d0[1], d1[0], d1[1]);
      emu_pend(w, in, EMU_CNT_DS, -1);
      return EMU_OK;
    }
    LANES {
      uint8_t *p0 = lds + (uint32_t)(a[l] + off0), *p1 = lds + (uint32_t)(a[l] + off1);
      for (uint32_t k = 0; k < words; k++) memcpy(p0 + 4 * k, &d0[k][l], 4);
      for (uint32_t k = 0; k < words; k++) memcpy(p1 + 4 * k, &d1[k][l], 4);
    }
    emu_pend(w, in, EMU_CNT_DS, -1);
    return EMU_OK;
  }
  LANES {
    for (int h = 0; h < 2; h++) {
      uint64_t addr = (uint32_t)(a[l] + (uint32_t)(h ? in->offset1 : in->offset0) * size * stride);
      uint8_t *p = emu_ldsptr(w, in, addr, size, l);
      if (!p) return EMU_FAULT;
      for (uint32_t k = 0; k < words; k++) memcpy(p + 4 * k, &vr(w, in, 1 + h, (int)k)[l], 4);
    }
  }
  emu_pend(w, in, EMU_CNT_DS, -1);
  return EMU_OK;
}
/* the 64-bit forms with every lane on and both accesses in range first, as ds_read2 (the same checks
 * and stores as ds_write2_gen's whole-wave path) */
static inline __attribute__((always_inline)) int ds_write2(emu_wave *w, const emu_insn *in, uint32_t size, uint32_t stride)
{
  uint64_t lim = w->wg->lds_size;
  if (size == 8 && emu_exec(w) == ~0ull && lim >= 8) {
    const uint32_t *a = vr(w, in, 0, 0);
    uint32_t off0 = (uint32_t)in->offset0 * size * stride, off1 = (uint32_t)in->offset1 * size * stride;
    if (emu_lds_in64(a, off0, (uint32_t)(lim - 8)) && emu_lds_in64(a, off1, (uint32_t)(lim - 8))) {
      emu_lds_write2_8_64(w->wg->lds, a, off0, off1, vr(w, in, 1, 0), vr(w, in, 1, 1), vr(w, in, 2, 0), vr(w, in, 2, 1));
      emu_pend(w, in, EMU_CNT_DS, -1);
      return EMU_OK;
    }
  }
  return ds_write2_gen(w, in, size, stride);
}
int EMU_H(emu_op_ds_write2_b32)(emu_wave *w, const emu_insn *in) { return ds_write2(w, in, 4, 1); }
int EMU_H(emu_op_ds_write2_b64)(emu_wave *w, const emu_insn *in) { return ds_write2(w, in, 8, 1); }
int EMU_H(emu_op_ds_write2st64_b32)(emu_wave *w, const emu_insn *in) { return ds_write2(w, in, 4, 64); }
int EMU_H(emu_op_ds_write2st64_b64)(emu_wave *w, const emu_insn *in) { return ds_write2(w, in, 8, 64); }

/* atomics (CDNA3 ISA "DS_ADD_U32" etc.): per lane, in lane order, MEM = f(MEM, DATA[, DATA2]);
 * the _rtn forms return the old value. Operands: [vdst,] vaddr, vdata[, vdata2]. */
#define DS_ATOM32(name, rtn, expr)                                                                 \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                            \
  {                                                                                                \
    uint64_t e = emu_exec(w);                                                                      \
    int ai = rtn ? 1 : 0;                                                                          \
    const uint32_t *a = vr(w, in, ai, 0);                                                          \
    uint32_t old[EMU_LANES];                                                                       \
    LANES {                                                                                        \
      uint32_t *p = emu_ldsptr(w, in, (uint32_t)(a[l] + (uint32_t)in->offset), 4, l);                \
      if (!p) return EMU_FAULT;                                                                    \
      uint32_t m, d = vr(w, in, ai + 1, 0)[l], d2 = in->nop > ai + 2 ? vr(w, in, ai + 2, 0)[l] : 0;\
      (void)d2;                                                                                    \
      memcpy(&m, p, 4);                                                                            \
      old[l] = m;                                                                                  \
      uint32_t r = (expr);                                                                         \
      memcpy(p, &r, 4);                                                                            \
    }                                                                                              \
    if (rtn) {                                                                                     \
      uint32_t *dst = vr(w, in, 0, 0);                                                             \
      LANES dst[l] = old[l];                                                                       \
      emu_pend(w, in, EMU_CNT_DS, 0);                                                              \
    } else {                                                                                       \
      emu_pend(w, in, EMU_CNT_DS, -1);                                                             \
    }                                                                                              \
    return EMU_OK;                                                                                 \
  }
#define F(x) emu_f32(x)
#define U(x) emu_u32f(x)
/* each operation's two forms, ds_OP_T and ds_OP_rtn_T (the old value returned), from one formula */
#define DS_ATOM32_2(op, t, expr) DS_ATOM32(ds_##op##_##t, 0, expr) DS_ATOM32(ds_##op##_rtn_##t, 1, expr)
DS_ATOM32_2(add, u32, m + d)
DS_ATOM32_2(sub, u32, m - d)
DS_ATOM32_2(rsub, u32, d - m)
DS_ATOM32_2(inc, u32, m >= d ? 0 : m + 1)
DS_ATOM32_2(dec, u32, (m == 0 || m > d) ? d : m - 1)
DS_ATOM32_2(min, i32, (int32_t)d < (int32_t)m ? d : m)
DS_ATOM32_2(max, i32, (int32_t)d > (int32_t)m ? d : m)
DS_ATOM32_2(min, u32, d < m ? d : m)
DS_ATOM32_2(max, u32, d > m ? d : m)
DS_ATOM32_2(and, b32, m & d)
DS_ATOM32_2(or, b32, m | d)
DS_ATOM32_2(xor, b32, m ^ d)
DS_ATOM32_2(mskor, b32, (m & ~d) | d2)
DS_ATOM32(ds_wrxchg_rtn_b32, 1, d)
DS_ATOM32_2(cmpst, b32, m == d ? d2 : m)
DS_ATOM32_2(add, f32, U(F(m) + F(d)))
DS_ATOM32_2(min, f32, U(emu_minnum_f32(F(d), F(m))))
DS_ATOM32_2(max, f32, U(emu_maxnum_f32(F(d), F(m))))
#undef DS_ATOM32_2
#undef F
#undef U

/* 64-bit atomics: same shape with dword pairs */
#define DS_ATOM64(name, rtn, expr)                                                                 \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                            \
  {                                                                                                \
    uint64_t e = emu_exec(w);                                                                      \
    int ai = rtn ? 1 : 0;                                                                          \
    const uint32_t *a = vr(w, in, ai, 0);                                                          \
    uint64_t old[EMU_LANES];                                                                       \
    LANES {                                                                                        \
      uint8_t *p = emu_ldsptr(w, in, (uint32_t)(a[l] + (uint32_t)in->offset), 8, l);                 \
      if (!p) return EMU_FAULT;                                                                    \
      uint64_t m, d = vr(w, in, ai + 1, 0)[l] | (uint64_t)vr(w, in, ai + 1, 1)[l] << 32;          \
      uint64_t d2 = in->nop > ai + 2 ? (vr(w, in, ai + 2, 0)[l] | (uint64_t)vr(w, in, ai + 2, 1)[l] << 32) : 0; \
      (void)d2;                                                                                    \
      memcpy(&m, p, 8);                                                                            \
      old[l] = m;                                                                                  \
      uint64_t r = (expr);                                                                         \
      memcpy(p, &r, 8);                                                                            \
    }                                                                                              \
    if (rtn) {                                                                                     \
      uint32_t *d0 = vr(w, in, 0, 0), *d1 = vr(w, in, 0, 1);                                       \
      LANES d0[l] = (uint32_t)old[l], d1[l] = (uint32_t)(old[l] >> 32);                            \
      emu_pend(w, in, EMU_CNT_DS, 0);                                                              \
    } else {                                                                                       \
      emu_pend(w, in, EMU_CNT_DS, -1);                                                             \
    }                                                                                              \
    return EMU_OK;                                                                                 \
  }
/* as DS_ATOM32_2; the 64-bit forms AMD's hip-tests met as unimplemented (atomics on unsigned long
 * long and double in LDS: and/or/xor, min/max of u64, i64 and f64 with the old value returned) came
 * with the rest of the 32-bit family's forms (issue #31's thirty-first stop) */
#define DS_ATOM64_2(op, t, expr) DS_ATOM64(ds_##op##_##t, 0, expr) DS_ATOM64(ds_##op##_rtn_##t, 1, expr)
DS_ATOM64_2(add, u64, m + d)
DS_ATOM64_2(sub, u64, m - d)
DS_ATOM64_2(rsub, u64, d - m)
DS_ATOM64_2(inc, u64, m >= d ? 0 : m + 1)
DS_ATOM64_2(dec, u64, (m == 0 || m > d) ? d : m - 1)
DS_ATOM64_2(min, u64, d < m ? d : m)
DS_ATOM64_2(max, u64, d > m ? d : m)
DS_ATOM64_2(min, i64, (int64_t)d < (int64_t)m ? d : m)
DS_ATOM64_2(max, i64, (int64_t)d > (int64_t)m ? d : m)
DS_ATOM64_2(and, b64, m & d)
DS_ATOM64_2(or, b64, m | d)
DS_ATOM64_2(xor, b64, m ^ d)
DS_ATOM64_2(mskor, b64, (m & ~d) | d2)
DS_ATOM64(ds_wrxchg_rtn_b64, 1, d)
DS_ATOM64_2(cmpst, b64, m == d ? d2 : m)
DS_ATOM64_2(add, f64, emu_u64f(emu_f64(m) + emu_f64(d)))
DS_ATOM64_2(min, f64, emu_u64f(emu_minnum_f64(emu_f64(d), emu_f64(m))))
DS_ATOM64_2(max, f64, emu_u64f(emu_maxnum_f64(emu_f64(d), emu_f64(m))))
#undef DS_ATOM64_2

int EMU_H(emu_op_ds_nop)(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }
