/* emu/addr — a lane's global or LDS address to a host pointer (emu_gptr, emu_ldsptr), or a fault
 * naming the buffer it ran off. Used by the memory semantics files (op_mem.c, op_ds.c, op_salu.c,
 * op_xlane.c); calls only emu/fault.c. */
#include "emu/internal.h"

/* ---- memory helpers ---------------------------------------------------------------------------*/
/* The fault of an access far from every buffer names the buffer freed there (a use after free: no
 * address is handed out twice), else the nearest one and the distance (a user reading "out of
 * bounds" wants to know which index ran off which buffer); lo is the first buffer whose base is
 * above addr. A message only: nothing of the machine changes, the fault's kind is the same. */
static void oob_nearest(emu_wave *w, const emu_insn *in, int lane, uint64_t addr, uint32_t n, size_t lo) {
  const emu_mem *m = w->wg->mem;
  const emu_membuf *gone = emu_mem_freed_at(m, addr);
  if (gone) {
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access to freed memory: offset %llu of '%s' "
              "(%llu bytes at 0x%llx), which was freed before this launch (a use after free)", n,
              (unsigned long long)(addr - gone->base), gone->name, (unsigned long long)gone->size,
              (unsigned long long)gone->base);
    return;
  }
  const emu_membuf *below = lo > 0 ? &m->b[lo - 1] : NULL, *above = lo < m->n ? &m->b[lo] : NULL;
  uint64_t past = below ? addr - (below->base + below->size) : UINT64_MAX, before = above ? above->base - addr : UINT64_MAX;
  if (below && past <= before)
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access outside every registered buffer; the "
              "nearest is '%s' (%llu bytes at 0x%llx): %llu bytes past its end", n, below->name,
              (unsigned long long)below->size, (unsigned long long)below->base, (unsigned long long)past);
  else if (above)
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access outside every registered buffer; the "
              "nearest is '%s' (%llu bytes at 0x%llx): %llu bytes before its start", n, above->name,
              (unsigned long long)above->size, (unsigned long long)above->base, (unsigned long long)before);
  else
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access, and no buffer is registered", n);
}

void *emu_gptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, uint32_t align, int lane)
{
  if (align > 1 && (addr & (align - 1))) {
    emu_raise(w, in, "misaligned global access", lane, addr, "%u-byte access needs %u-byte alignment", n, align);
    return NULL;
  }
  const emu_membuf *b = w->last;
  if (b && addr >= b->base && addr - b->base + n <= b->size) return b->host + (addr - b->base);
  const emu_mem *m = w->wg->mem;
  size_t lo = 0, hi = m->n;
  while (lo < hi) { /* last buffer with base <= addr */
    size_t mid = (lo + hi) / 2;
    if (m->b[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) {
    b = &m->b[lo - 1];
    if (addr - b->base < b->size && addr - b->base + n <= b->size) {
      w->last = b;
      return b->host + (addr - b->base);
    }
    if (addr - b->base < b->size + 4096)
      emu_raise(w, in, "out-of-bounds global access", lane, addr,
                "%u-byte access at offset %llu of buffer '%s' (%llu bytes)", n,
                (unsigned long long)(addr - b->base), b->name, (unsigned long long)b->size);
    else
      oob_nearest(w, in, lane, addr, n, lo);
  } else {
    oob_nearest(w, in, lane, addr, n, lo);
  }
  return NULL;
}

void *emu_ldsptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, int lane)
{
  if (addr + n > w->wg->lds_size || addr + n < addr) {
    emu_raise(w, in, "lds out of range", lane, addr,
              "%u-byte LDS access at 0x%llx beyond the workgroup's %u-byte allocation", n,
              (unsigned long long)addr, w->wg->lds_size);
    return NULL;
  }
  return w->wg->lds + addr;
}
