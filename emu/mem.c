/* emu/mem — global memory as a set of registered host buffers, each at its own device address
 * range with a guard gap after it (so running off one buffer never lands in the next). Lookups
 * are a binary search over ranges sorted by base. emu_mem_map hands out addresses in
 * [EMU_MEM_BASE, EMU_MEM_LIMIT), never reusing one (a stale address stays unmapped after
 * emu_mem_unmap); emu_mem_map_at registers host memory at its own address (HIP's host-pinned and
 * managed memory, which host and device reach through the same pointer). */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

/* Device addresses start here, are 64 KiB aligned and separated by at least 1 MiB of unmapped
 * space; far below the LDS/private apertures (internal.h). */
#define MEM_GAP (1ull << 20)

emu_mem *emu_mem_new(void)
{
  emu_mem *m = ll_xcalloc(1, sizeof *m);
  m->next = EMU_MEM_BASE;
  return m;
}

void emu_mem_free(emu_mem *m)
{
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) free(m->b[i].name);
  for (size_t i = 0; i < m->nfreed; i++) free(m->freed[(m->freed0 + i) % EMU_MEM_FREED].name);
  free(m->b);
  free(m->freed);
  free(m);
}

/* Index at which a buffer based at `base` keeps m->b sorted by base. */
static size_t insert_at(const emu_mem *m, uint64_t base)
{
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->b[mid].base < base) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void add(emu_mem *m, uint64_t base, void *host, size_t size, const char *name)
{
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 16;
    m->b = ll_xrealloc(m->b, m->cap * sizeof *m->b);
  }
  size_t i = insert_at(m, base);
  memmove(&m->b[i + 1], &m->b[i], (m->n - i) * sizeof *m->b);
  m->n++;
  m->b[i] = (emu_membuf){.base = base, .size = size, .host = host, .name = ll_xstrdup(name ? name : "")};
}

uint64_t emu_mem_map(emu_mem *m, void *host, size_t size, const char *name)
{
  uint64_t base = m->next;
  if (size > EMU_MEM_LIMIT - base) return 0; /* the range is used up */
  add(m, base, host, size, name);
  m->next = (base + size + MEM_GAP + 0xffff) & ~0xffffull;
  return base;
}

uint64_t emu_mem_map_unshadowed(emu_mem *m, void *host, size_t size, const char *name)
{
  uint64_t base = emu_mem_map(m, host, size, name);
  if (base) m->b[insert_at(m, base)].unshadowed = true;
  return base;
}

bool emu_mem_map_at(emu_mem *m, void *host, size_t size, const char *name)
{
  uint64_t base = (uint64_t)(uintptr_t)host;
  if (!size || !base || size > UINT64_MAX - base) return false;
  if (base < EMU_MEM_LIMIT && base + size > EMU_MEM_BASE) return false; /* inside emu_mem_map's range */
  size_t i = insert_at(m, base);
  if (i > 0 && m->b[i - 1].base + m->b[i - 1].size > base) return false;
  if (i < m->n && m->b[i].base < base + size) return false;
  add(m, base, host, size, name);
  return true;
}

bool emu_mem_unmap(emu_mem *m, uint64_t base)
{
  size_t i = insert_at(m, base);
  if (i >= m->n || m->b[i].base != base) return false;
  /* a buffer of emu_mem_map's range is kept (its name moves along) for the message of a later
   * access to it; host memory registered at its own address is not: its range is the host's,
   * still the program's memory or reused by it */
  if (m->b[i].base < EMU_MEM_BASE || m->b[i].base >= EMU_MEM_LIMIT) {
    free(m->b[i].name);
  } else {
    if (!m->freed) m->freed = ll_xcalloc(EMU_MEM_FREED, sizeof *m->freed);
    if (m->nfreed == EMU_MEM_FREED) { /* the oldest makes room: O(1) however many were freed */
      free(m->freed[m->freed0].name);
      m->freed0 = (m->freed0 + 1) % EMU_MEM_FREED;
      m->nfreed--;
    }
    m->freed[(m->freed0 + m->nfreed++) % EMU_MEM_FREED] =
        (emu_membuf){.base = m->b[i].base, .size = m->b[i].size, .name = m->b[i].name};
  }
  memmove(&m->b[i], &m->b[i + 1], (m->n - i - 1) * sizeof *m->b);
  m->n--;
  return true;
}

const emu_membuf *emu_mem_freed_at(const emu_mem *m, uint64_t addr)
{
  for (size_t k = m->nfreed; k-- > 0;) { /* newest first */
    const emu_membuf *f = &m->freed[(m->freed0 + k) % EMU_MEM_FREED];
    if (addr - f->base < f->size) return f;
  }
  return NULL;
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
