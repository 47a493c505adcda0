/* emu/wmem — the memory of a launch's workers (emu/exec.c): each worker's register files, LDS,
 * private memory, wave records and counts in pages of its own, kept for the next launch.
 *
 * Why (issue #31, twenty-first stop, docs/performance.md): the six arrays used to come from malloc,
 * the wave records 16-byte aligned among other allocations. In a process that had run other work
 * first (the whole `lanelab bench`, as `make bench` runs it), gfx950's seed then took 10.3-11.8 CPU-s
 * in twelve of sixteen runs (8.9-9.5 in the others) against 8.4-9.2 in a process of its own. With the
 * arrays in pages of their own (page-aligned blocks from the heap, fresh mappings with and without
 * huge pages, and this file's regions), the same sequence took 8.4-9.2 in nine runs of nine. The
 * functions that took the extra time store to the wave's registers and records (2-3x their samples);
 * a process of its own with the arrays at the slow runs' offsets within a page was not slower, so the
 * property of the shared heap memory that costs the time was not isolated: what is measured is that
 * pages of their own remove it.
 *
 * A region is one anonymous mapping (page-aligned, shared with no other allocation) of at least the
 * bytes asked for, its contents arbitrary: the caller clears what must start cleared (exec.c does as
 * it did with malloc: the wave records and phase 0's counts at the launch, registers, LDS and private
 * memory per wave and workgroup). A region given back waits in a small pool for the next launch, so
 * that a program's thousands of small launches pay no mapping and no page faults each (HIP programs);
 * the pool keeps at most WMEM_POOL regions and WMEM_KEEP bytes, and unmaps what does not fit.
 * Under AddressSanitizer the regions are malloc's, so that its checks still see a run past a worker's
 * arrays. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "emu/internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define WMEM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WMEM_MALLOC 1
#endif
#endif

/* 256 regions: one per worker of a launch on a machine of up to 256 cores (a launch's workers take
 * theirs together); 256 MiB: the seed shape's workers take about 1.5 MiB each */
enum { WMEM_POOL = 256, WMEM_GRAIN = 64 << 10 };
#define WMEM_KEEP ((size_t)256 << 20)

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static emu_wmem pool[WMEM_POOL];
static int npool;
static size_t pooled;

static void pool_lock(void) { pthread_mutex_lock(&pool_mu); }
static void pool_unlock(void) { pthread_mutex_unlock(&pool_mu); }
__attribute__((constructor)) static void wmem_init(void) { pthread_atfork(pool_lock, pool_unlock, pool_unlock); }

emu_wmem emu_wmem_take(size_t n)
{
  if (!n) n = 1;
#ifdef WMEM_MALLOC
  return (emu_wmem){ll_xaligned(n), n};
#else
  pool_lock();
  int best = -1;
  for (int i = 0; i < npool; i++)
    if (pool[i].len >= n && (best < 0 || pool[i].len < pool[best].len)) best = i;
  if (best >= 0) {
    emu_wmem m = pool[best];
    pool[best] = pool[--npool];
    pooled -= m.len;
    pool_unlock();
    return m;
  }
  pool_unlock();
  const size_t len = (n + WMEM_GRAIN - 1) / WMEM_GRAIN * WMEM_GRAIN;
  void *p = len < n ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    fprintf(stderr, "lanelab: out of memory mapping %zu bytes for an emulator worker\n", n);
    abort(); /* as util's allocators do */
  }
  return (emu_wmem){p, len};
#endif
}

void emu_wmem_give(emu_wmem m)
{
  if (!m.p) return;
#ifdef WMEM_MALLOC
  free(m.p);
#else
  pool_lock();
  if (npool < WMEM_POOL && m.len <= WMEM_KEEP - pooled) {
    pool[npool++] = m;
    pooled += m.len;
    m.p = NULL;
  }
  pool_unlock();
  if (m.p) munmap(m.p, m.len);
#endif
}
