/* emu/op_mem — vector memory: GLOBAL and FLAT (CDNA3 ISA chapter "Flat Memory Instructions"),
 * BUFFER/MUBUF (chapter "Vector Memory Operations"). Only EXEC lanes access memory. Every global
 * access is checked against the registered buffers (fault "out-of-bounds global access"); atomics
 * must be naturally aligned (fault "misaligned global access"); plain loads/stores may be
 * unaligned (the default alignment mode on gfx9). Cache-policy bits (sc0, sc1, nt) change no
 * result in a single-memory emulator, except that sc0 on an atomic asks for the old value.
 * FLAT addresses in the LDS aperture (src_shared_base) go to LDS; the private aperture (scratch)
 * is not supported and faults. Loads gather every lane before writing registers. */
#include "emu/internal.h"

#define LANES for (int l = 0; l < EMU_LANES; l++) if (e >> l & 1)

enum { SEG_GLOBAL, SEG_FLAT, SEG_BUFFER };
enum { K_PLAIN, K_SBYTE, K_SSHORT, K_D16LO, K_D16HI, K_D16LO_SB, K_D16HI_SB };

typedef struct {
  uint64_t addr[EMU_LANES];
  bool oob[EMU_LANES]; /* buffer range check failed: load 0 / drop store (hardware behaviour) */
  bool sof[EMU_LANES]; /* buffer: passed the check, but soffset takes the access past the records */
} maddr;

/* [addr, addr+n) inside a registered buffer (no fault recorded) */
static bool mapped(const emu_wave *w, uint64_t addr, uint32_t n)
{
  const emu_mem *mm = w->wg->mem;
  size_t lo = 0, hi = mm ? mm->n : 0;
  while (lo < hi) { /* last buffer with base <= addr */
    size_t mid = (lo + hi) / 2;
    if (mm->b[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && addr - mm->b[lo - 1].base < mm->b[lo - 1].size && addr - mm->b[lo - 1].base + n <= mm->b[lo - 1].size;
}

/* Buffer range check and soffset (CDNA3 ISA / CDNA4 ISA "Buffer Resource", range checking: the
 * checked offset is the VGPR offset plus the instruction offset; SOFFSET is not part of it). A lane
 * can therefore pass the check and address memory past num_records; if that memory is outside
 * every registered buffer, what the hardware returns is whatever is mapped there (undocumented):
 * a memory-model warning (emu_memwarn), after which the lane behaves as one that failed the check
 * (a load gives 0, a store is dropped). With strict_memory the access is left to fault "out-of-bounds
 * global access". */
static int soffset_past(emu_wave *w, const emu_insn *in, uint32_t bytes, maddr *m)
{
  uint64_t e = emu_exec(w);
  int first = -1;
  LANES if (m->sof[l] && !mapped(w, m->addr[l], bytes)) {
    if (first < 0) first = l;
    if (!emu_strict_memory(w)) m->oob[l] = true;
  }
  if (first < 0 || emu_strict_memory(w)) return EMU_OK;
  return emu_memwarn(w, in, "buffer access past num_records through soffset", first, m->addr[first],
                     "passes the range check (soffset is not part of it) but lies outside every registered "
                     "buffer; lanelab returns 0 / drops the store");
}

/* Per-lane addresses. vi: index of the vaddr operand. */
static int addresses(emu_wave *w, const emu_insn *in, int seg, int vi, uint32_t bytes, maddr *m)
{
  uint64_t e = emu_exec(w);
  const emu_opnd *va = &in->o[vi];
  if (seg == SEG_BUFFER) {
    /* V# (CDNA3 ISA "Buffer Resource"): base = dw0 | dw1[15:0] << 32, stride = dw1[29:16],
     * num_records = dw2. address = base + soffset + offset + voffset (+ index * stride). */
    const emu_opnd *rs = &in->o[vi + 1];
    uint32_t r0 = w->s[rs->reg], r1 = w->s[rs->reg + 1], r2 = w->s[rs->reg + 2];
    uint64_t base = r0 | (uint64_t)(r1 & 0xffff) << 32;
    uint32_t stride = (r1 >> 16) & 0x3fff, nrec = r2;
    uint32_t soff = emu_ssrc32(w, in, vi + 2);
    const uint32_t *v0 = va->kind == EMU_OPK_VGPR ? emu_vreg(w, in, vi, 0) : NULL;
    const uint32_t *v1 = va->kind == EMU_OPK_VGPR && va->n > 1 ? emu_vreg(w, in, vi, 1) : NULL;
    if ((in->offen || in->idxen) && !v0)
      return emu_raise(w, in, "bad operand", -1, 0, "offen/idxen without a VGPR address");
    LANES {
      uint64_t idx = in->idxen ? v0[l] : 0;
      uint64_t voff = in->offen ? (in->idxen ? (v1 ? v1[l] : 0) : v0[l]) : 0;
      uint64_t off = voff + (uint32_t)in->offset;
      bool oob = stride == 0 ? off + bytes > nrec : idx >= nrec;
      m->oob[l] = oob;
      m->sof[l] = !oob && soff + off + idx * stride + bytes > (stride == 0 ? (uint64_t)nrec : (uint64_t)nrec * stride);
      m->addr[l] = base + soff + off + idx * stride;
    }
    return soffset_past(w, in, bytes, m);
  }
  return emu_raise(w, in, "unimplemented", -1, 0, "internal: non-buffer segment in addresses()");
}

static int addresses_flat(emu_wave *w, const emu_insn *in, int seg, int vi, int si, maddr *m)
{
  uint64_t e = emu_exec(w);
  const emu_opnd *va = &in->o[vi];
  bool saddr = seg == SEG_GLOBAL && si >= 0 && si < in->nop && in->o[si].kind == EMU_OPK_SGPR;
  if (saddr) {
    /* global with SGPR base: address = s[base:base+1] + vaddr.u32 + offset */
    uint64_t base = emu_rd64s(w, in->o[si].reg);
    const uint32_t *v = emu_vreg(w, in, vi, 0);
    LANES m->addr[l] = base + v[l] + (int64_t)in->offset, m->oob[l] = false;
  } else {
    if (va->kind != EMU_OPK_VGPR || va->n < 2)
      return emu_raise(w, in, "bad operand", -1, 0, "64-bit VGPR address expected");
    const uint32_t *lo = emu_vreg(w, in, vi, 0), *hi = emu_vreg(w, in, vi, 1);
    LANES m->addr[l] = ((uint64_t)lo[l] | (uint64_t)hi[l] << 32) + (int64_t)in->offset, m->oob[l] = false;
  }
  return EMU_OK;
}

/* host pointer for lane l's access; LDS for flat addresses in the LDS aperture */
static void *lane_ptr(emu_wave *w, const emu_insn *in, int seg, uint64_t addr, uint32_t bytes,
                      uint32_t align, int l)
{
  if (seg == SEG_FLAT) {
    if ((addr >> 32) == (EMU_LDS_APERTURE >> 32)) return emu_ldsptr(w, in, (uint32_t)addr, bytes, l);
    if ((addr >> 32) == (EMU_PRIVATE_APERTURE >> 32)) {
      emu_raise(w, in, "unimplemented", l, addr, "flat access to private (scratch) memory is not supported");
      return NULL;
    }
  }
  return emu_gptr(w, in, addr, bytes, align, l);
}

static int get_addrs(emu_wave *w, const emu_insn *in, int seg, int vi, int si, uint32_t bytes, maddr *m)
{
  if (seg == SEG_BUFFER) return addresses(w, in, seg, vi, bytes, m);
  return addresses_flat(w, in, seg, vi, si, m);
}

/* Loads whose data goes to LDS instead of VGPRs: `buffer_load_* ... lds` (operands vaddr|off,
 * srsrc, soffset) and `global_load_lds_*` (operands vaddr, saddr|off). Per EXEC lane, the loaded
 * value (bytes and shorts zero-/sign-extended to a dword) is written to LDS at
 *   M0[17:0] + inst_offset + TIDinWave * stride     (buffer, CDNA4 ISA 9.1.9 "Buffer Load to LDS")
 *   M0[17:2] * 4 + inst_offset + TIDinWave * stride (global, CDNA4 ISA 10.3 / 10.4)
 * with stride 4, or 16 for dwordx3/dwordx4 (gfx950); the instruction offset applies to both the
 * memory and the LDS address (LLVM's llvm.amdgcn.*.load.lds intrinsics say the same). A lane whose
 * buffer range check fails writes 0, as a load of it would return. The hardware drops a write past
 * the wave's LDS allocation; lanelab faults "lds out of range" there as for every LDS access (a
 * kernel relying on the drop is not modelled; docs/emulator-choices.md). Counted on vmcnt. */
emu_lds_dest emu_load_lds_dest(const emu_wave *w, const emu_insn *in, bool buffer, uint32_t mem_bytes)
{
  uint32_t m0 = w->s[EMU_S_M0];
  emu_lds_dest d;
  d.base = (buffer ? (m0 & 0x3ffffu) : (m0 & 0x3fffcu)) + (uint32_t)in->offset;
  d.stride = mem_bytes > 4 ? 16 : 4;
  d.bytes = mem_bytes < 4 ? 4 : mem_bytes;
  return d;
}

static int mem_load_lds(emu_wave *w, const emu_insn *in, int seg, uint32_t bytes, int kind)
{
  uint64_t e = emu_exec(w);
  maddr m;
  int rc = seg == SEG_BUFFER ? addresses(w, in, seg, 0, bytes, &m) : addresses_flat(w, in, seg, 0, 1, &m);
  if (rc != EMU_OK) return rc;
  emu_lds_dest ld = emu_load_lds_dest(w, in, seg == SEG_BUFFER, bytes);
  uint32_t v[EMU_LANES][4];
  LANES { /* every lane's memory read first, so a fault leaves LDS untouched */
    memset(v[l], 0, sizeof v[l]);
    if (m.oob[l]) continue;
    const void *p = lane_ptr(w, in, seg, m.addr[l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(v[l], p, bytes);
    if (kind == K_SBYTE) v[l][0] = (uint32_t)(int32_t)(int8_t)v[l][0];
    if (kind == K_SSHORT) v[l][0] = (uint32_t)(int32_t)(int16_t)v[l][0];
  }
  LANES {
    void *q = emu_ldsptr(w, in, (uint64_t)ld.base + (uint64_t)l * ld.stride, ld.bytes, l);
    if (!q) return EMU_FAULT;
    memcpy(q, v[l], ld.bytes);
  }
  emu_pend(w, in, EMU_CNT_VM, -1); /* its LDS bytes: the LDS ordering check (emu/observe.c) */
  return EMU_OK;
}

/* Bytes a dword load moves: from the destination VGPRs, or for the LDS forms (no destination) from
 * the mnemonic. */
static uint32_t dword_bytes(const emu_insn *in)
{
  if (!in->lds && !strstr(in->mnem, "_load_lds_")) return 4u * in->o[0].n;
  const char *x = strstr(in->mnem, "dwordx");
  return x ? 4u * (uint32_t)(x[6] - '0') : 4u;
}

/* Host prefetch of the lines this load instruction will read the next time this wave runs it,
 * assuming the same address step as since its last run (streaming kernels walk K/V tiles with a
 * fixed step). A hint only: nothing is read into registers, nothing can fault. Without it each
 * tile load waited on main memory lane by lane (a head's rows 8 KiB apart use few cache sets). */
static void stride_prefetch(emu_wave *w, const emu_insn *in, const maddr *m, uint64_t e)
{
  if (in < w->insns || in >= w->insns + w->ninsn || !e || !w->last) return;
  int l0 = __builtin_ctzll(e);
  uint64_t *slot = &w->pf_last[(size_t)(in - w->insns) & 63], a0 = m->addr[l0];
  int64_t step = (int64_t)(a0 - *slot);
  *slot = a0;
  if (step == 0 || step > (1 << 24) || step < -(1 << 24)) return;
  const emu_membuf *b = w->last;
  uint64_t prev = ~0ull;
  LANES {
    uint64_t a = m->addr[l] + (uint64_t)step, line = a >> 6;
    if (line != prev && a - b->base < b->size) __builtin_prefetch(b->host + (a - b->base), 0, 3);
    prev = line;
  }
}

static int mem_load(emu_wave *w, const emu_insn *in, int seg, uint32_t bytes, int kind)
{
  if (in->lds) {
    if (kind >= K_D16LO) return emu_raise(w, in, "illegal instruction", -1, 0, "d16 loads have no LDS form");
    return mem_load_lds(w, in, seg, bytes, kind);
  }
  uint64_t e = emu_exec(w);
  maddr m;
  int rc = get_addrs(w, in, seg, 1, 2, bytes, &m);
  if (rc != EMU_OK) return rc;
  uint32_t nw = (bytes + 3) / 4, tmp[4][EMU_LANES];
  if (kind == K_PLAIN && seg == SEG_GLOBAL && (bytes & 3) == 0) {
    /* Hot path (plain global dword loads, e.g. a kernel staging tiles): the buffer the wave last
     * touched is checked inline and whole dwords are copied; anything else (another buffer, out
     * of bounds) goes through lane_ptr, which faults exactly as below. */
    LANES {
      const emu_membuf *b = w->last;
      uint64_t a = m.addr[l];
      const uint8_t *p;
      if (b && a >= b->base && a - b->base + bytes <= b->size) p = b->host + (a - b->base);
      else if (!(p = lane_ptr(w, in, seg, a, bytes, 1, l))) return EMU_FAULT;
      switch (nw) {
      case 1: memcpy(&tmp[0][l], p, 4); break;
      case 2: memcpy(&tmp[0][l], p, 4), memcpy(&tmp[1][l], p + 4, 4); break;
      default: for (uint32_t k = 0; k < nw; k++) memcpy(&tmp[k][l], p + 4 * k, 4);
      }
    }
    for (uint32_t k = 0; k < nw; k++) {
      uint32_t *d = emu_vreg(w, in, 0, (int)k);
      if (e == ~0ull) memcpy(d, tmp[k], sizeof tmp[k]);
      else LANES d[l] = tmp[k][l];
    }
    stride_prefetch(w, in, &m, e);
    emu_pend(w, in, EMU_CNT_VM, 0);
    return EMU_OK;
  }
  LANES {
    uint32_t v[4] = {0, 0, 0, 0};
    if (!m.oob[l]) {
      const void *p = lane_ptr(w, in, seg, m.addr[l], bytes, 1, l);
      if (!p) return EMU_FAULT;
      memcpy(v, p, bytes);
    }
    if (kind == K_SBYTE) v[0] = (uint32_t)(int32_t)(int8_t)v[0];
    if (kind == K_SSHORT) v[0] = (uint32_t)(int32_t)(int16_t)v[0];
    if (kind == K_D16LO_SB || kind == K_D16HI_SB) v[0] = (uint32_t)(int32_t)(int8_t)v[0] & 0xffff;
    for (uint32_t k = 0; k < nw; k++) tmp[k][l] = v[k];
  }
  if (kind >= K_D16LO) {
    uint32_t *d = emu_vreg(w, in, 0, 0);
    bool hi = kind == K_D16HI || kind == K_D16HI_SB;
    LANES d[l] = hi ? (d[l] & 0xffffu) | tmp[0][l] << 16 : (d[l] & 0xffff0000u) | (tmp[0][l] & 0xffff);
  } else {
    for (uint32_t k = 0; k < nw; k++) {
      uint32_t *d = emu_vreg(w, in, 0, (int)k);
      LANES d[l] = tmp[k][l];
    }
  }
  emu_pend(w, in, EMU_CNT_VM, 0);
  return EMU_OK;
}

/* stores: GLOBAL/FLAT: vaddr = operand 0, data = 1, saddr = 2; BUFFER: data = 0, vaddr = 1 */
static int mem_store(emu_wave *w, const emu_insn *in, int seg, uint32_t bytes, bool hi16)
{
  uint64_t e = emu_exec(w);
  maddr m;
  int vi = seg == SEG_BUFFER ? 1 : 0, di = seg == SEG_BUFFER ? 0 : 1;
  int rc = get_addrs(w, in, seg, vi, 2, bytes, &m);
  if (rc != EMU_OK) return rc;
  LANES {
    if (m.oob[l]) continue;
    void *p = lane_ptr(w, in, seg, m.addr[l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    uint32_t v[4];
    for (uint32_t k = 0; k < (bytes + 3) / 4; k++) v[k] = emu_vreg(w, in, di, (int)k)[l];
    if (hi16) v[0] >>= 16;
    memcpy(p, v, bytes);
  }
  emu_pend(w, in, EMU_CNT_VM, -1);
  return EMU_OK;
}

/* atomics (CDNA3 ISA "GLOBAL_ATOMIC_ADD" etc.): per lane in lane order, MEM = f(MEM, DATA), each
 * as one host atomic (emu_atomic_rmw);
 * the old value is returned when sc0 (gfx940+: "return pre-op value") is set.
 * GLOBAL/FLAT operands: [vdst,] vaddr, vdata[, saddr]; BUFFER: vdata (also the return), vaddr,
 * srsrc, soffset. cmpswap data is {src, cmp}. */
static int mem_atomic(emu_wave *w, const emu_insn *in, int seg, uint32_t bytes, emu_atom_fn f, bool cmpswap)
{
  uint64_t e = emu_exec(w);
  bool ret = in->sc0 || in->glc;
  int vi, di, ri;
  if (seg == SEG_BUFFER) vi = 1, di = 0, ri = 0;
  else if (ret) vi = 1, di = 2, ri = 0;
  else vi = 0, di = 1, ri = -1;
  maddr m;
  int rc = get_addrs(w, in, seg, vi, vi + 2, bytes, &m);
  if (rc != EMU_OK) return rc;
  uint64_t old[EMU_LANES];
  uint32_t nw = bytes / 4;
  LANES {
    uint64_t d = emu_vreg(w, in, di, 0)[l], c = 0;
    if (nw == 2) d |= (uint64_t)emu_vreg(w, in, di, 1)[l] << 32;
    if (cmpswap) {
      c = emu_vreg(w, in, di, (int)nw)[l];
      if (nw == 2) c |= (uint64_t)emu_vreg(w, in, di, (int)nw + 1)[l] << 32;
    }
    old[l] = 0;
    if (m.oob[l]) continue;
    uint8_t *p = lane_ptr(w, in, seg, m.addr[l], bytes, bytes, l);
    if (!p) return EMU_FAULT;
    old[l] = emu_atomic_rmw(p, bytes, f, d, c); /* one host atomic: other workgroups run concurrently */
  }
  if (ret && ri >= 0) {
    uint32_t *d0 = emu_vreg(w, in, ri, 0);
    LANES d0[l] = (uint32_t)old[l];
    if (nw == 2) {
      uint32_t *d1 = emu_vreg(w, in, ri, 1);
      LANES d1[l] = (uint32_t)(old[l] >> 32);
    }
    emu_pend(w, in, EMU_CNT_VM, ri);
  } else {
    emu_pend(w, in, EMU_CNT_VM, -1);
  }
  return EMU_OK;
}

static inline float f32(uint64_t x) { return emu_f32((uint32_t)x); }
static inline uint64_t uf(float f) { return emu_u32f(f); }
static inline double f64(uint64_t x) { return emu_f64(x); }
static inline uint64_t ud(double f) { return emu_u64f(f); }
static inline float fminn(float a, float b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline float fmaxn(float a, float b) { return a != a ? b : b != b ? a : a > b ? a : b; }
static inline double dminn(double a, double b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline double dmaxn(double a, double b) { return a != a ? b : b != b ? a : a > b ? a : b; }
static uint64_t pk_add_f16(uint64_t m, uint64_t d)
{
  uint16_t lo = emu_f32_to_f16(emu_f16_to_f32((uint16_t)m) + emu_f16_to_f32((uint16_t)d));
  uint16_t hi = emu_f32_to_f16(emu_f16_to_f32((uint16_t)(m >> 16)) + emu_f16_to_f32((uint16_t)(d >> 16)));
  return lo | (uint32_t)hi << 16;
}
static uint64_t pk_add_bf16(uint64_t m, uint64_t d)
{
  uint16_t lo = emu_f32_to_bf16(emu_bf16_to_f32((uint16_t)m) + emu_bf16_to_f32((uint16_t)d));
  uint16_t hi = emu_f32_to_bf16(emu_bf16_to_f32((uint16_t)(m >> 16)) + emu_bf16_to_f32((uint16_t)(d >> 16)));
  return lo | (uint32_t)hi << 16;
}
#define AFN(name, expr)                                                                            \
  static uint64_t a_##name(uint64_t m, uint64_t d, uint64_t c)                                     \
  {                                                                                                \
    (void)c;                                                                                       \
    return (expr);                                                                                 \
  }
AFN(swap, d)
AFN(cmpswap, m == c ? d : m)
AFN(add, m + d)
AFN(sub, m - d)
AFN(smin32, (int32_t)d < (int32_t)m ? d : m)
AFN(umin32, (uint32_t)d < (uint32_t)m ? d : m)
AFN(smax32, (int32_t)d > (int32_t)m ? d : m)
AFN(umax32, (uint32_t)d > (uint32_t)m ? d : m)
AFN(smin64, (int64_t)d < (int64_t)m ? d : m)
AFN(umin64, d < m ? d : m)
AFN(smax64, (int64_t)d > (int64_t)m ? d : m)
AFN(umax64, d > m ? d : m)
AFN(and, m & d)
AFN(or, m | d)
AFN(xor, m ^ d)
AFN(inc32, (uint32_t)m >= (uint32_t)d ? 0 : m + 1)
AFN(dec32, ((uint32_t)m == 0 || (uint32_t)m > (uint32_t)d) ? d : m - 1)
AFN(inc64, m >= d ? 0 : m + 1)
AFN(dec64, (m == 0 || m > d) ? d : m - 1)
AFN(addf32, uf(f32(m) + f32(d)))
AFN(minf32, uf(fminn(f32(m), f32(d))))
AFN(maxf32, uf(fmaxn(f32(m), f32(d))))
AFN(addf64, ud(f64(m) + f64(d)))
AFN(minf64, ud(dminn(f64(m), f64(d))))
AFN(maxf64, ud(dmaxn(f64(m), f64(d))))
AFN(pkaddf16, pk_add_f16(m, d))
AFN(pkaddbf16, pk_add_bf16(m, d))

/* ---- handler tables: one line per mnemonic family ------------------------------------------ */
#define LOADS(P, SEG)                                                                              \
  int emu_op_##P##_load_dword(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, dword_bytes(in), K_PLAIN); } \
  int emu_op_##P##_load_ubyte(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_PLAIN); } \
  int emu_op_##P##_load_sbyte(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_SBYTE); } \
  int emu_op_##P##_load_ushort(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 2, K_PLAIN); } \
  int emu_op_##P##_load_sshort(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 2, K_SSHORT); } \
  int emu_op_##P##_load_short_d16(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 2, K_D16LO); } \
  int emu_op_##P##_load_short_d16_hi(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 2, K_D16HI); } \
  int emu_op_##P##_load_ubyte_d16(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_D16LO); } \
  int emu_op_##P##_load_ubyte_d16_hi(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_D16HI); } \
  int emu_op_##P##_load_sbyte_d16(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_D16LO_SB); } \
  int emu_op_##P##_load_sbyte_d16_hi(emu_wave *w, const emu_insn *in) { return mem_load(w, in, SEG, 1, K_D16HI_SB); } \
  int emu_op_##P##_store_dword(emu_wave *w, const emu_insn *in) { return mem_store(w, in, SEG, 4u * in->o[SEG == SEG_BUFFER ? 0 : 1].n, false); } \
  int emu_op_##P##_store_byte(emu_wave *w, const emu_insn *in) { return mem_store(w, in, SEG, 1, false); } \
  int emu_op_##P##_store_short(emu_wave *w, const emu_insn *in) { return mem_store(w, in, SEG, 2, false); } \
  int emu_op_##P##_store_byte_d16_hi(emu_wave *w, const emu_insn *in) { return mem_store(w, in, SEG, 1, true); } \
  int emu_op_##P##_store_short_d16_hi(emu_wave *w, const emu_insn *in) { return mem_store(w, in, SEG, 2, true); }
LOADS(global, SEG_GLOBAL)
LOADS(flat, SEG_FLAT)
LOADS(buffer, SEG_BUFFER)

#define ATOMS(P, SEG)                                                                              \
  int emu_op_##P##_atomic_swap(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_swap, false); } \
  int emu_op_##P##_atomic_cmpswap(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_cmpswap, true); } \
  int emu_op_##P##_atomic_add(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_add, false); } \
  int emu_op_##P##_atomic_sub(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_sub, false); } \
  int emu_op_##P##_atomic_smin(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_smin32, false); } \
  int emu_op_##P##_atomic_umin(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_umin32, false); } \
  int emu_op_##P##_atomic_smax(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_smax32, false); } \
  int emu_op_##P##_atomic_umax(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_umax32, false); } \
  int emu_op_##P##_atomic_and(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_and, false); } \
  int emu_op_##P##_atomic_or(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_or, false); } \
  int emu_op_##P##_atomic_xor(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_xor, false); } \
  int emu_op_##P##_atomic_inc(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_inc32, false); } \
  int emu_op_##P##_atomic_dec(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_dec32, false); } \
  int emu_op_##P##_atomic_add_f32(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_addf32, false); } \
  int emu_op_##P##_atomic_pk_add_f16(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_pkaddf16, false); } \
  int emu_op_##P##_atomic_pk_add_bf16(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 4, a_pkaddbf16, false); } \
  int emu_op_##P##_atomic_swap_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_swap, false); } \
  int emu_op_##P##_atomic_cmpswap_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_cmpswap, true); } \
  int emu_op_##P##_atomic_add_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_add, false); } \
  int emu_op_##P##_atomic_sub_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_sub, false); } \
  int emu_op_##P##_atomic_smin_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_smin64, false); } \
  int emu_op_##P##_atomic_umin_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_umin64, false); } \
  int emu_op_##P##_atomic_smax_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_smax64, false); } \
  int emu_op_##P##_atomic_umax_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_umax64, false); } \
  int emu_op_##P##_atomic_and_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_and, false); } \
  int emu_op_##P##_atomic_or_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_or, false); } \
  int emu_op_##P##_atomic_xor_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_xor, false); } \
  int emu_op_##P##_atomic_inc_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_inc64, false); } \
  int emu_op_##P##_atomic_dec_x2(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_dec64, false); } \
  int emu_op_##P##_atomic_add_f64(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_addf64, false); } \
  int emu_op_##P##_atomic_min_f64(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_minf64, false); } \
  int emu_op_##P##_atomic_max_f64(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG, 8, a_maxf64, false); }
ATOMS(global, SEG_GLOBAL)
ATOMS(flat, SEG_FLAT)
ATOMS(buffer, SEG_BUFFER)
/* global_load_lds_* (gfx942: ubyte/sbyte/ushort/sshort/dword; gfx950 adds dwordx3/dwordx4): the
 * global form of the loads to LDS above (no `lds` modifier: the mnemonic says it). */
int emu_op_global_load_lds_dword(emu_wave *w, const emu_insn *in) { return mem_load_lds(w, in, SEG_GLOBAL, dword_bytes(in), K_PLAIN); }
int emu_op_global_load_lds_ubyte(emu_wave *w, const emu_insn *in) { return mem_load_lds(w, in, SEG_GLOBAL, 1, K_PLAIN); }
int emu_op_global_load_lds_sbyte(emu_wave *w, const emu_insn *in) { return mem_load_lds(w, in, SEG_GLOBAL, 1, K_SBYTE); }
int emu_op_global_load_lds_ushort(emu_wave *w, const emu_insn *in) { return mem_load_lds(w, in, SEG_GLOBAL, 2, K_PLAIN); }
int emu_op_global_load_lds_sshort(emu_wave *w, const emu_insn *in) { return mem_load_lds(w, in, SEG_GLOBAL, 2, K_SSHORT); }

/* f32 min/max atomics exist only on some memories; keep them for global */
int emu_op_global_atomic_min_f32(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG_GLOBAL, 4, a_minf32, false); }
int emu_op_global_atomic_max_f32(emu_wave *w, const emu_insn *in) { return mem_atomic(w, in, SEG_GLOBAL, 4, a_maxf32, false); }

/* buffer_wbl2 / buffer_inv / buffer_wbinvl1*: cache maintenance, no caches are modelled */
int emu_op_buffer_cache_nop(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }
