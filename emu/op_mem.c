/* emu/op_mem — vector memory: GLOBAL, FLAT and SCRATCH (CDNA3 ISA chapter "Flat Memory Instructions"),
 * BUFFER/MUBUF (chapter "Vector Memory Operations"). Only EXEC lanes access memory. A buffer access
 * first goes through its V#'s range check (emu_buffer_access: out of range, a load gives 0 and a
 * store or atomic is dropped, as the hardware does). Every global access that remains is checked
 * against the registered buffers (fault "out-of-bounds global access"); atomics
 * must be naturally aligned (fault "misaligned global access"); plain loads/stores may be
 * unaligned (the default alignment mode on gfx9). Cache-policy bits (sc0, sc1, nt) change no
 * result in a single-memory emulator, except that sc0 on an atomic asks for the old value.
 * FLAT addresses in the LDS aperture (src_shared_base) go to LDS, those in the private aperture
 * (src_private_base) to the lane's private memory, as SCRATCH instructions do (docs/isa.md
 * "Private memory (scratch)"; an access past the lane's private segment faults "private out of
 * range"). Loads gather every lane before writing registers. */
#include "emu/internal.h"

#define LANES for (int l = 0; l < EMU_LANES; l++) if (e >> l & 1)

enum { SEG_GLOBAL, SEG_FLAT, SEG_BUFFER, SEG_SCRATCH };
enum { K_PLAIN, K_SBYTE, K_SSHORT, K_D16LO, K_D16HI, K_D16LO_SB, K_D16HI_SB };

typedef struct {
  uint64_t addr[EMU_LANES];
} maddr;

/* The buffer registered at or below addr (NULL if none): for a message that names it. */
static const emu_membuf *buffer_below(const emu_wave *w, uint64_t addr)
{
  const emu_mem *mm = w->wg->mem;
  size_t lo = 0, hi = mm ? mm->n : 0;
  while (lo < hi) { /* last buffer with base <= addr */
    size_t mid = (lo + hi) / 2;
    if (mm->b[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  return lo ? &mm->b[lo - 1] : NULL;
}

/* Buffer resource (V#) and range check, CDNA3/CDNA4 family (GFX9): docs/isa.md "Buffer resource and
 * range checking" gives each field and rule with its source, docs/emulator-choices.md "Buffer range
 * check" the points the sources leave open.
 *   V#: base dw0 | dw1[15:0] << 32; stride dw1[29:16]; swizzle_enable dw1[31]; num_records dw2;
 *       element_size dw3[20:19] (2 << n bytes), index_stride dw3[22:21] (8 << n), add_tid_enable
 *       dw3[23], which also makes dw3[18:15] (data_format) stride bits 17:14.
 *   index = (idxen ? VGPR index : 0) + (add_tid_enable ? lane : 0);
 *   offset = (offen ? VGPR offset : 0) + instruction offset (+ 4k for dword k of a dwordxN);
 *   buffer offset = offset + index * stride, or swizzled:
 *     (index / index_stride * stride + offset / element_size * element_size) * index_stride
 *       + index % index_stride * element_size + offset % element_size;
 *   address = base + soffset + buffer offset.
 *   structured (stride != 0 and idxen or add_tid_enable; num_records counts records): out of range
 *     if index >= num_records or the access starts past the record (offset >= stride; the dwords
 *     of a dwordxN are not checked against the stride one by one: aiter's fmha bwd stores dwordx4
 *     through records of 4 bytes);
 *   raw (otherwise; num_records counts bytes): out of range if soffset + buffer offset + size >
 *     num_records. */
bool emu_buffer_access(emu_wave *w, const emu_insn *in, int vi, uint32_t bytes, bool whole, uint64_t e,
                       emu_bufacc *b, char *why, size_t whyn)
{
  if (vi + 2 >= in->nop || in->o[vi + 1].kind != EMU_OPK_SGPR) {
    snprintf(why, whyn, "no buffer resource operand");
    return false;
  }
  const emu_opnd *va = &in->o[vi], *rs = &in->o[vi + 1];
  if (rs->reg + 4 > EMU_NSFILE) {
    snprintf(why, whyn, "buffer resource s[%u:%u] outside the SGPR file", (unsigned)rs->reg, (unsigned)rs->reg + 3);
    return false;
  }
  uint32_t r0 = w->s[rs->reg], r1 = w->s[rs->reg + 1], r2 = w->s[rs->reg + 2], r3 = w->s[rs->reg + 3];
  bool add_tid = r3 >> 23 & 1;
  b->base = r0 | (uint64_t)(r1 & 0xffff) << 32;
  b->stride = (r1 >> 16 & 0x3fff) | (add_tid ? (r3 >> 15 & 0xf) << 14 : 0);
  b->nrec = r2;
  b->swizzled = r1 >> 31 & 1;
  b->structured = b->stride != 0 && (in->idxen || add_tid);
  b->soff = emu_ssrc32(w, in, vi + 2);
  uint32_t es = 2u << (r3 >> 19 & 3), is = 8u << (r3 >> 21 & 3);
  b->ncomp = whole || bytes <= 4 ? 1 : (uint8_t)(bytes / 4);
  b->csize = b->ncomp == 1 ? (uint8_t)bytes : 4;
  const uint32_t *v0 = va->kind == EMU_OPK_VGPR ? emu_vreg(w, in, vi, 0) : NULL;
  const uint32_t *v1 = va->kind == EMU_OPK_VGPR && va->n > 1 ? emu_vreg(w, in, vi, 1) : NULL;
  if ((in->offen || in->idxen) && !v0) {
    snprintf(why, whyn, "offen/idxen without a VGPR address");
    return false;
  }
  if (in->offen && in->idxen && !v1) {
    snprintf(why, whyn, "idxen and offen need a VGPR pair (index, offset)");
    return false;
  }
  LANES {
    uint64_t idx = (in->idxen ? v0[l] : 0) + (add_tid ? (uint64_t)l : 0);
    uint64_t off0 = (in->offen ? (in->idxen ? v1[l] : v0[l]) : 0) + (uint32_t)in->offset;
    uint8_t ok = 0;
    for (int k = 0; k < b->ncomp; k++) {
      uint64_t off = off0 + 4u * (uint32_t)k, bo;
      if (b->swizzled)
        bo = ((idx / is) * b->stride + off / es * es) * is + (idx % is) * es + off % es;
      else
        bo = off + idx * b->stride;
      bool pass = b->structured ? idx < b->nrec && off0 < b->stride
                                : (uint64_t)b->soff + bo + b->csize <= b->nrec;
      ok |= (uint8_t)pass << k;
      b->addr[k][l] = b->base + b->soff + bo;
    }
    b->in[l] = ok;
  }
  return true;
}

/* Host pointer for an access the V# range check let through. Memory outside the registered
 * buffers is the kernel's bug, not a defined result: fault, naming the V# and the buffer. */
static void *buffer_ptr(emu_wave *w, const emu_insn *in, const emu_bufacc *b, uint64_t addr, uint32_t n, uint32_t align,
                        int l)
{
  const emu_membuf *m = buffer_below(w, addr);
  if ((align <= 1 || !(addr & (align - 1))) && m && addr - m->base < m->size && addr - m->base + n <= m->size)
    return emu_gptr(w, in, addr, n, align, l);
  if (align > 1 && (addr & (align - 1))) return emu_gptr(w, in, addr, n, align, l); /* misaligned: its fault */
  char where[200];
  if (m && addr - m->base < m->size)
    snprintf(where, sizeof where, "runs %llu bytes past the end of buffer '%s' (%llu bytes) from its offset %llu",
             (unsigned long long)(addr - m->base + n - m->size), m->name, (unsigned long long)m->size,
             (unsigned long long)(addr - m->base));
  else if (m)
    snprintf(where, sizeof where, "lies %llu bytes past the end of buffer '%s' (%llu bytes, at 0x%llx) and in no other",
             (unsigned long long)(addr - m->base - m->size), m->name, (unsigned long long)m->size,
             (unsigned long long)m->base);
  else
    snprintf(where, sizeof where, "lies below every registered buffer");
  emu_raise(w, in, "out-of-bounds global access", l, addr,
            "%u-byte access inside the buffer resource's range (V# base 0x%llx, num_records %u, stride %u%s) %s",
            n, (unsigned long long)b->base, b->nrec, b->stride, b->structured ? ", structured" : "", where);
  return NULL;
}

/* Private memory (docs/isa.md "Private memory (scratch)"). A launch gives each lane
 * emu_private_size bytes: the descriptor's PRIVATE_SEGMENT_FIXED_SIZE, raised to the stack size
 * (stack_bytes, 0: HIP's default of 1024 bytes) when the kernel uses a dynamic stack (ROCm/clr sizes
 * the dispatch so), rounded up to a dword as the CP rounds the dispatch's size. */
uint32_t emu_private_size(const emu_kernel *k, uint32_t stack_bytes)
{
  uint64_t n = k->private_segment_size, stack = stack_bytes ? stack_bytes : 1024;
  if ((k->code_properties >> 11 & 1) && n < stack) n = stack; /* USES_DYNAMIC_STACK (kd+56 bit 11) */
  n = (n + 3) & ~3ull;
  return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Lane l's private bytes [off, off + n): CDNA3 ISA 10.5 "Scratch" swizzles the offset with the
 * lane id, so what a lane sees is its own linear segment; off is the exact (not 32-bit wrapped)
 * sum of the address terms. Past the segment (or below it) is a fault naming the lane and the
 * offset: the hardware does not range-check scratch and would reach another lane's or wave's
 * memory (docs/emulator-choices.md "Private memory"). */
static void *priv_ptr(emu_wave *w, const emu_insn *in, int64_t off, uint32_t n, int l, uint64_t flat)
{
  if (off >= 0 && (uint64_t)off + n <= w->priv_size) return w->priv + (size_t)l * w->priv_size + (uint64_t)off;
  const emu_kernel *k = w->wg->d ? w->wg->d->kernel : NULL;
  emu_raise(w, in, "private out of range", l, flat ? flat : (uint64_t)off,
            "%u-byte private (scratch) access at offset %lld%s outside the lane's %u-byte private segment "
            "(descriptor private segment size %u%s)", n, (long long)off, flat ? " (flat address)" : "",
            w->priv_size, k ? k->private_segment_size : 0,
            k && (k->code_properties >> 11 & 1) ? ", dynamic stack" : "");
  return NULL;
}

/* SCRATCH addressing (CDNA3 ISA 10.1 table "SVE Bit", 10.5): per lane, the private offset is
 *   (SADDR ? SGPR[saddr] : 0) + (SVE ? VGPR[vaddr] : 0) + inst_offset (13-bit signed);
 * LLVM prints an absent SADDR or VADDR as "off" (ST mode: both off). */
static int addresses_scratch(emu_wave *w, const emu_insn *in, int vi, int si, maddr *m)
{
  /* every lane's, EXEC or not (a loop without branches: only EXEC lanes' are used) */
  int64_t s = si >= 0 && si < in->nop && in->o[si].kind == EMU_OPK_SGPR ? (int64_t)w->s[in->o[si].reg] : 0;
  if (in->o[vi].kind == EMU_OPK_VGPR) {
    const uint32_t *v = emu_vreg(w, in, vi, 0);
    for (int l = 0; l < EMU_LANES; l++) m->addr[l] = (uint64_t)(s + (int64_t)v[l] + in->offset);
  } else if (in->o[vi].kind == EMU_OPK_OFF) {
    for (int l = 0; l < EMU_LANES; l++) m->addr[l] = (uint64_t)(s + in->offset);
  } else {
    return emu_raise(w, in, "bad operand", -1, 0, "scratch address: a VGPR or off expected");
  }
  return EMU_OK;
}

static int addresses_flat(emu_wave *w, const emu_insn *in, int seg, int vi, int si, maddr *m)
{
  if (seg == SEG_SCRATCH) return addresses_scratch(w, in, vi, si, m);
  uint64_t e = emu_exec(w);
  const emu_opnd *va = &in->o[vi];
  bool saddr = seg == SEG_GLOBAL && si >= 0 && si < in->nop && in->o[si].kind == EMU_OPK_SGPR;
  /* every lane's address, EXEC or not (a loop without branches: only EXEC lanes' are used) */
  if (saddr) {
    /* global with SGPR base: address = s[base:base+1] + vaddr.u32 + offset */
    uint64_t base = emu_rd64s(w, in->o[si].reg) + (uint64_t)(int64_t)in->offset;
    const uint32_t *v = emu_vreg(w, in, vi, 0);
    for (int l = 0; l < EMU_LANES; l++) m->addr[l] = base + v[l];
  } else {
    if (va->kind != EMU_OPK_VGPR || va->n < 2)
      return emu_raise(w, in, "bad operand", -1, 0, "64-bit VGPR address expected");
    const uint32_t *lo = emu_vreg(w, in, vi, 0), *hi = emu_vreg(w, in, vi, 1);
    emu_addr64(m->addr, lo, hi, (uint64_t)(int64_t)in->offset);
  }
  (void)e;
  return EMU_OK;
}

/* host pointer for lane l's access; LDS for flat addresses in the LDS aperture, the lane's private
 * memory for scratch and for flat addresses in the private aperture (offset = address - base) */
static void *lane_ptr(emu_wave *w, const emu_insn *in, int seg, uint64_t addr, uint32_t bytes,
                      uint32_t align, int l)
{
  if (seg == SEG_SCRATCH) return priv_ptr(w, in, (int64_t)addr, bytes, l, 0);
  if (seg == SEG_FLAT) {
    if ((addr >> 32) == (EMU_LDS_APERTURE >> 32)) return emu_ldsptr(w, in, (uint32_t)addr, bytes, l);
    if ((addr >> 32) == (EMU_PRIVATE_APERTURE >> 32)) {
      if (in->flags & EMU_F_ATOMIC) { /* CDNA3 ISA Table 54: scratch has no atomics */
        emu_raise(w, in, "unimplemented", l, addr, "flat atomic on a private (scratch) address is not modelled");
        return NULL;
      }
      return priv_ptr(w, in, (int64_t)(addr - EMU_PRIVATE_APERTURE), bytes, l, addr);
    }
  }
  return emu_gptr(w, in, addr, bytes, align, l);
}

/* One instruction's addresses: GLOBAL/FLAT lanes, or a buffer access through its V#. */
typedef struct {
  int seg;
  maddr m;
  emu_bufacc b;
} access;

static int acc_addrs(emu_wave *w, const emu_insn *in, int seg, int vi, int si, uint32_t bytes, bool whole, access *a)
{
  a->seg = seg;
  if (seg != SEG_BUFFER) return addresses_flat(w, in, seg, vi, si, &a->m);
  char why[120];
  if (!emu_buffer_access(w, in, vi, bytes, whole, emu_exec(w), &a->b, why, sizeof why))
    return emu_raise(w, in, "bad operand", -1, 0, "%s", why);
  return EMU_OK;
}

/* Lane l's `bytes` into v; a buffer component that failed the range check reads 0. */
static int acc_read(emu_wave *w, const emu_insn *in, const access *a, int l, uint32_t bytes, uint32_t v[4])
{
  memset(v, 0, 16);
  if (a->seg != SEG_BUFFER) {
    const void *p = lane_ptr(w, in, a->seg, a->m.addr[l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(v, p, bytes);
    return EMU_OK;
  }
  const emu_bufacc *b = &a->b;
  if (b->in[l] == (1u << b->ncomp) - 1 && !b->swizzled) { /* every component, contiguous */
    const void *p = buffer_ptr(w, in, b, b->addr[0][l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(v, p, bytes);
    return EMU_OK;
  }
  for (int k = 0; k < b->ncomp; k++) {
    if (!(b->in[l] >> k & 1)) continue;
    const void *p = buffer_ptr(w, in, b, b->addr[k][l], b->csize, 1, l);
    if (!p) return EMU_FAULT;
    memcpy((uint8_t *)v + 4 * k, p, b->csize);
  }
  return EMU_OK;
}

/* Lane l's `bytes` from v to memory; a buffer component that failed the range check is dropped. */
static int acc_write(emu_wave *w, const emu_insn *in, const access *a, int l, uint32_t bytes, const uint32_t v[4])
{
  if (a->seg != SEG_BUFFER) {
    void *p = lane_ptr(w, in, a->seg, a->m.addr[l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(p, v, bytes);
    return EMU_OK;
  }
  const emu_bufacc *b = &a->b;
  if (b->in[l] == (1u << b->ncomp) - 1 && !b->swizzled) {
    void *p = buffer_ptr(w, in, b, b->addr[0][l], bytes, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(p, v, bytes);
    return EMU_OK;
  }
  for (int k = 0; k < b->ncomp; k++) {
    if (!(b->in[l] >> k & 1)) continue;
    void *p = buffer_ptr(w, in, b, b->addr[k][l], b->csize, 1, l);
    if (!p) return EMU_FAULT;
    memcpy(p, (const uint8_t *)v + 4 * k, b->csize);
  }
  return EMU_OK;
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
  access a;
  int rc = acc_addrs(w, in, seg, 0, 1, bytes, false, &a);
  if (rc != EMU_OK) return rc;
  emu_lds_dest ld = emu_load_lds_dest(w, in, seg == SEG_BUFFER, bytes);
  uint32_t v[EMU_LANES][4];
  LANES { /* every lane's memory read first, so a fault leaves LDS untouched */
    if (acc_read(w, in, &a, l, bytes, v[l]) != EMU_OK) return EMU_FAULT;
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
int emu_op_global_load_lds_dword(emu_wave *w, const emu_insn *in);
static uint32_t dword_bytes(const emu_insn *in)
{
  /* (a pointer compare, not the mnemonic: this runs at every execution of a dword load) */
  if (!in->lds && in->fn != emu_op_global_load_lds_dword) return 4u * in->o[0].n;
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
  /* a prefetch never faults, so the lines are not checked against the buffer (integer arithmetic
   * for the host address: no pointer outside an object is formed) */
  uintptr_t h = (uintptr_t)w->last->host - (uintptr_t)w->last->base + (uintptr_t)step;
  if (e == ~0ull) { /* every lane: the line changes found as one vector pass (emu/simd.c), the same prefetches */
    for (uint64_t nl = emu_newline64(m->addr, (uint64_t)step); nl; nl &= nl - 1)
      __builtin_prefetch((const void *)(h + m->addr[__builtin_ctzll(nl)]), 0, 3);
    return;
  }
  uint64_t prev = ~0ull;
  LANES {
    uint64_t line = (m->addr[l] + (uint64_t)step) >> 6;
    if (line != prev) __builtin_prefetch((const void *)(h + m->addr[l]), 0, 3);
    prev = line;
  }
}

/* Plain global accesses (the hot path): the buffer that holds every EXEC lane's [addr, addr + bytes),
 * if it is the one the wave touched last or the first EXEC lane's (looked up as the lane loop would
 * look it up first: a fault there is the loop's first fault, *rc = EMU_FAULT); NULL otherwise, and
 * the lane loop decides lane by lane (another buffer, out of bounds). Reads registers and w->last,
 * the translation cache, only. */
static const emu_membuf *wave_buffer(emu_wave *w, const emu_insn *in, const maddr *m, uint64_t e, uint32_t bytes, int *rc)
{
  *rc = EMU_OK;
  if (!e) return NULL;
  int l0 = __builtin_ctzll(e);
  const emu_membuf *b = w->last;
  if (!b || b->size < bytes || m->addr[l0] - b->base > b->size - bytes) {
    if (!emu_gptr(w, in, m->addr[l0], bytes, 1, l0)) {
      *rc = EMU_FAULT;
      return NULL;
    }
    b = w->last;
  }
  /* unsigned: an address below the base wraps past lim */
  return (emu_outside64(m->addr, b->base, b->size - bytes) & e) ? NULL : b;
}

/* The hottest loads (issue #31): global_load_dword / dwordx2 with every lane on and a 64-bit VGPR
 * address (no SGPR base), every lane inside the buffer this instruction slot read last time (or, with
 * none known, the one the wave touched last): the addresses and the buffer check in one pass
 * (emu_addr_outside64), no lookup, then what mem_load's hotter path does (the gathers, the stride
 * prefetch, the counter entry). -1 when that does not hold, with nothing changed: mem_load's general
 * path then decides, and faults, as before. Every lane inside one buffer is what the hotter path
 * needs too, and buffers do not overlap, so it would have read the same bytes and set w->last to the
 * same buffer. Only the rows of emu_op_global_load_dword come here (the global_load_lds_* rows have
 * their own handler), so the destination's width is the access's. */
static int gload_wave(emu_wave *w, const emu_insn *in)
{
  const emu_opnd *va = &in->o[1];
  uint32_t nw = in->o[0].n, bytes = 4 * nw;
  if (in->lds || (nw != 1 && nw != 2) || emu_exec(w) != ~0ull || va->kind != EMU_OPK_VGPR || va->n < 2 ||
      (in->nop > 2 && in->o[2].kind == EMU_OPK_SGPR) || in < w->insns || in >= w->insns + w->ninsn)
    return -1;
  const emu_mem *mm = w->wg->mem;
  size_t slot = (size_t)(in - w->insns) & 63;
  uint32_t bi = w->gl_buf[slot];
  const emu_membuf *b = mm && bi && bi <= mm->n ? &mm->b[bi - 1] : w->last;
  if (!b || b->size < bytes) return -1;
  /* stride_prefetch's step (lane 0's address against the slot's last), known before the pass */
  const uint32_t *lo = emu_vreg(w, in, 1, 0), *hi = emu_vreg(w, in, 1, 1);
  uint64_t off = (uint64_t)(int64_t)in->offset, a0 = ((uint64_t)lo[0] | (uint64_t)hi[0] << 32) + off, nl = 0;
  int64_t step = (int64_t)(a0 - w->pf_last[slot]);
  bool pf = step != 0 && step <= (1 << 24) && step >= -(1 << 24);
  maddr m;
  if (pf ? emu_addr_outside_nl64(m.addr, lo, hi, off, b->base, b->size - bytes, (uint64_t)step, &nl)
         : emu_addr_outside64(m.addr, lo, hi, off, b->base, b->size - bytes))
    return -1;
  w->last = b;
  emu_gload64(emu_vreg(w, in, 0, 0), nw == 2 ? emu_vreg(w, in, 0, 1) : NULL, (uintptr_t)b->host - (uintptr_t)b->base,
              m.addr);
  /* stride_prefetch with every lane on: the same lines in the same order */
  w->pf_last[slot] = a0;
  uintptr_t h = (uintptr_t)b->host - (uintptr_t)b->base + (uintptr_t)step;
  for (; nl; nl &= nl - 1) __builtin_prefetch((const void *)(h + m.addr[__builtin_ctzll(nl)]), 0, 3);
  emu_pend(w, in, EMU_CNT_VM, 0);
  return EMU_OK;
}

/* every EXEC lane's private (scratch) access [off, off + bytes) inside its segment (an offset
 * below 0 is a huge unsigned one: outside) */
static inline bool scratch_inside(const emu_wave *w, const maddr *m, uint64_t e, uint32_t bytes)
{
  if (!w->priv || w->priv_size < bytes) return false;
  return (emu_outside64(m->addr, 0, w->priv_size - bytes) & e) == 0; /* emu/simd.c, as global accesses' */
}
/* lane l's private offsets as offsets from w->priv (its segment's start plus its offset): what the
 * global accesses' whole-wave paths take as addresses from a base */
static inline void scratch_flat(const emu_wave *w, const maddr *m, uint64_t pa[EMU_LANES])
{
  for (int l = 0; l < EMU_LANES; l++) pa[l] = (uint64_t)l * w->priv_size + m->addr[l];
}

static int mem_load(emu_wave *w, const emu_insn *in, int seg, uint32_t bytes, int kind)
{
  if (in->lds) {
    if (kind >= K_D16LO) return emu_raise(w, in, "illegal instruction", -1, 0, "d16 loads have no LDS form");
    return mem_load_lds(w, in, seg, bytes, kind);
  }
  uint64_t e = emu_exec(w);
  access a;
  int rc = acc_addrs(w, in, seg, 1, 2, bytes, false, &a);
  if (rc != EMU_OK) return rc;
  const maddr *mp = &a.m;
  uint32_t nw = (bytes + 3) / 4, tmp[4][EMU_LANES];
  if (kind == K_PLAIN && seg == SEG_SCRATCH && (bytes & 3) == 0 && scratch_inside(w, mp, e, bytes)) {
    /* whole dwords of private memory, every EXEC lane inside its own segment (else the lane loop
     * below faults at the first lane outside, as before): each lane's own bytes, so no lane's
     * load can see another's, straight into the registers (the addresses are already taken) */
    const size_t ps = w->priv_size;
    if (e == ~0ull) { /* every lane: the gathers of global loads (emu/simd.c), from lane l's segment */
      uint64_t pa[EMU_LANES];
      scratch_flat(w, mp, pa);
      for (uint32_t k = 0; k < nw; k += 2)
        emu_gload64(emu_vreg(w, in, 0, (int)k), k + 1 < nw ? emu_vreg(w, in, 0, (int)k + 1) : NULL,
                    (uintptr_t)w->priv + 4 * k, pa);
    } else {
      for (uint32_t k = 0; k < nw; k++) {
        uint32_t *d = emu_vreg(w, in, 0, (int)k);
        LANES memcpy(&d[l], w->priv + (size_t)l * ps + mp->addr[l] + 4 * k, 4);
      }
    }
    emu_pend(w, in, EMU_CNT_VM, 0);
    return EMU_OK;
  }
  if (kind == K_PLAIN && seg == SEG_GLOBAL && (bytes & 3) == 0 && nw <= 2) {
    /* Hotter path: every EXEC lane in one buffer, straight into the registers (memory is not the
     * register file, so nothing read can have been written first) */
    const emu_membuf *b = wave_buffer(w, in, mp, e, bytes, &rc);
    if (rc != EMU_OK) return rc;
    if (b) {
      uintptr_t h = (uintptr_t)b->host - (uintptr_t)b->base; /* + address: the host byte */
      uint32_t *d0 = emu_vreg(w, in, 0, 0), *d1 = nw == 2 ? emu_vreg(w, in, 0, 1) : NULL;
      if (e == ~0ull) emu_gload64(d0, d1, h, mp->addr); /* every lane (emu/simd.c: AVX2 gathers) */
      else if (nw == 1) {
        LANES memcpy(&d0[l], (const void *)(h + mp->addr[l]), 4);
      } else {
        uint64_t x;
        LANES memcpy(&x, (const void *)(h + mp->addr[l]), 8), d0[l] = (uint32_t)x, d1[l] = (uint32_t)(x >> 32);
      }
      stride_prefetch(w, in, mp, e);
      emu_pend(w, in, EMU_CNT_VM, 0);
      if (in >= w->insns && in < w->insns + w->ninsn && w->wg->mem) /* gload_wave's first guess next time */
        w->gl_buf[(size_t)(in - w->insns) & 63] = (uint32_t)(b - w->wg->mem->b) + 1;
      return EMU_OK;
    }
  }
  if (kind == K_PLAIN && seg == SEG_GLOBAL && (bytes & 3) == 0) {
    /* Hot path (plain global dword loads, e.g. a kernel staging tiles): the buffer the wave last
     * touched is checked inline and whole dwords are copied; anything else (another buffer, out
     * of bounds) goes through lane_ptr, which faults exactly as below. */
    LANES {
      const emu_membuf *b = w->last;
      uint64_t ad = mp->addr[l];
      const uint8_t *p;
      if (b && ad >= b->base && ad - b->base + bytes <= b->size) p = b->host + (ad - b->base);
      else if (!(p = lane_ptr(w, in, seg, ad, bytes, 1, l))) return EMU_FAULT;
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
    stride_prefetch(w, in, mp, e);
    emu_pend(w, in, EMU_CNT_VM, 0);
    return EMU_OK;
  }
  LANES {
    uint32_t v[4];
    if (acc_read(w, in, &a, l, bytes, v) != EMU_OK) return EMU_FAULT;
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
  access a;
  int vi = seg == SEG_BUFFER ? 1 : 0, di = seg == SEG_BUFFER ? 0 : 1;
  int rc = acc_addrs(w, in, seg, vi, 2, bytes, false, &a);
  if (rc != EMU_OK) return rc;
  if (seg == SEG_GLOBAL && !hi16 && (bytes & 3) == 0) {
    /* every EXEC lane in one buffer: lane by lane in lane order, as below, without the lookups */
    const emu_membuf *b = wave_buffer(w, in, &a.m, e, bytes, &rc);
    if (rc != EMU_OK) return rc;
    if (b) {
      uintptr_t h = (uintptr_t)b->host - (uintptr_t)b->base; /* + address: the host byte (integers: no pointer outside an object) */
      uint32_t nw = bytes / 4;
      const uint32_t *s[4];
      for (uint32_t k = 0; k < nw; k++) s[k] = emu_vreg(w, in, di, (int)k);
      if (e == ~0ull) {
        emu_gstore64(h, a.m.addr, s, nw); /* every lane (emu/simd.c: a coalesced store whole, AVX2 transposes) */
      } else if (nw == 1) {
        LANES memcpy((void *)(h + a.m.addr[l]), &s[0][l], 4);
      } else {
        LANES for (uint32_t k = 0; k < nw; k++) memcpy((void *)(h + a.m.addr[l] + 4 * k), &s[k][l], 4);
      }
      emu_pend(w, in, EMU_CNT_VM, -1);
      return EMU_OK;
    }
  }
  if (seg == SEG_SCRATCH && !hi16 && (bytes & 3) == 0 && scratch_inside(w, &a.m, e, bytes)) {
    /* every EXEC lane inside its own private segment: no lane's bytes are another's, no fault */
    const size_t ps = w->priv_size;
    if (e == ~0ull) { /* every lane: global stores' path (emu/simd.c) into lane l's segment */
      uint64_t pa[EMU_LANES];
      const uint32_t *src[4];
      scratch_flat(w, &a.m, pa);
      for (uint32_t k = 0; k < bytes / 4; k++) src[k] = emu_vreg(w, in, di, (int)k);
      emu_gstore64((uintptr_t)w->priv, pa, src, bytes / 4);
    } else {
      for (uint32_t k = 0; k < bytes / 4; k++) {
        const uint32_t *d = emu_vreg(w, in, di, (int)k);
        LANES memcpy(w->priv + (size_t)l * ps + a.m.addr[l] + 4 * k, &d[l], 4);
      }
    }
    emu_pend(w, in, EMU_CNT_VM, -1);
    return EMU_OK;
  }
  LANES {
    uint32_t v[4];
    for (uint32_t k = 0; k < (bytes + 3) / 4; k++) v[k] = emu_vreg(w, in, di, (int)k)[l];
    if (hi16) v[0] >>= 16;
    if (acc_write(w, in, &a, l, bytes, v) != EMU_OK) return EMU_FAULT;
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
  access a;
  int rc = acc_addrs(w, in, seg, vi, vi + 2, bytes, true, &a); /* "atomics are range-checked all or nothing" */
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
    uint8_t *p;
    if (seg == SEG_BUFFER) {
      if (!a.b.in[l]) continue; /* dropped; returns 0 */
      p = buffer_ptr(w, in, &a.b, a.b.addr[0][l], bytes, bytes, l);
    } else {
      p = lane_ptr(w, in, seg, a.m.addr[l], bytes, bytes, l);
    }
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
AFN(minf32, uf(emu_minnum_f32(f32(m), f32(d))))
AFN(maxf32, uf(emu_maxnum_f32(f32(m), f32(d))))
AFN(addf64, ud(f64(m) + f64(d)))
AFN(minf64, ud(emu_minnum_f64(f64(m), f64(d))))
AFN(maxf64, ud(emu_maxnum_f64(f64(m), f64(d))))
AFN(pkaddf16, pk_add_f16(m, d))
AFN(pkaddbf16, pk_add_bf16(m, d))

/* ---- handler tables: one line per mnemonic family ------------------------------------------ */
#define LOADS(P, SEG)                                                                              \
  int emu_op_##P##_load_dword(emu_wave *w, const emu_insn *in) \
  { \
    int r = SEG == SEG_GLOBAL ? gload_wave(w, in) : -1; \
    return r >= 0 ? r : mem_load(w, in, SEG, dword_bytes(in), K_PLAIN); \
  } \
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
LOADS(scratch, SEG_SCRATCH)

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
