/* emu/mem — global memory as a set of registered host buffers, each at its own device address
 * range with a guard gap after it (so running off one buffer never lands in the next). Lookups
 * are a binary search over ranges sorted by base (they are handed out in increasing order). */
#include <stdlib.h>

#include "emu/internal.h"

/* Device addresses start here, are 64 KiB aligned and separated by at least 1 MiB of unmapped
 * space; far below the LDS/private apertures (internal.h). */
#define MEM_BASE 0x100000000ull
#define MEM_GAP (1ull << 20)

emu_mem *emu_mem_new(void)
{
  emu_mem *m = ll_xcalloc(1, sizeof *m);
  m->next = MEM_BASE;
  return m;
}

void emu_mem_free(emu_mem *m)
{
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) free(m->b[i].name);
  free(m->b);
  free(m);
}

uint64_t emu_mem_map(emu_mem *m, void *host, size_t size, const char *name)
{
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 16;
    m->b = ll_xrealloc(m->b, m->cap * sizeof *m->b);
  }
  emu_membuf *b = &m->b[m->n++];
  b->base = m->next;
  b->size = size;
  b->host = host;
  b->name = ll_xstrdup(name ? name : "");
  m->next = (b->base + size + MEM_GAP + 0xffff) & ~0xffffull;
  return b->base;
}

static const emu_membuf *find(const emu_mem *m, uint64_t addr)
{
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->b[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const emu_membuf *b = &m->b[lo - 1];
  return addr - b->base < b->size ? b : NULL;
}

void *emu_mem_translate(const emu_mem *m, uint64_t addr, size_t n)
{
  const emu_membuf *b = find(m, addr);
  if (!b || addr - b->base + n > b->size) {
    if (n == 0 && b) return b->host + (addr - b->base);
    return NULL;
  }
  return b->host + (addr - b->base);
}

const char *emu_mem_name_of(const emu_mem *m, uint64_t addr)
{
  const emu_membuf *b = find(m, addr);
  return b ? b->name : NULL;
}

uint64_t emu_atomic_rmw(void *p, uint32_t bytes, emu_atom_fn f, uint64_t d, uint64_t c)
{
  if (bytes == 8) {
    uint64_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, f(old, d, c), false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
    return old;
  }
  uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(q, &old, (uint32_t)f(old, d, c), false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
  return old;
}
