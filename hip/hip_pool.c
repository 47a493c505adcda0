/* hip/hip_pool — stream-ordered memory pools (docs/hip-runtime.md "Memory pools").
 *
 * A pool keeps the blocks its allocations give back (hipFreeAsync, hipFree) and hands one out again
 * to a later hipMallocAsync / hipMallocFromPoolAsync, under the reuse rules of ROCm's runtime
 * (ROCm/clr f9f995c, hipamd/src/hip_mempool.cpp and hip_mempool_impl.cpp, read for each answer):
 * a freed block of at least the size asked is reused, the smallest first, when the stream asking
 * is one of the block's safe streams (the one it was allocated on, the one it was freed on, and
 * with hipMemPoolReuseFollowEventDependencies any stream that waited on an event of a safe one), or
 * when the block was freed without a stream (hipFree), or, with hipMemPoolReuseAllowOpportunistic,
 * when the work before its free has completed and the block is at most 9/8 of the size asked.
 * Work here is complete when it is issued, so that last test is always met where ROCm's depends on
 * the device's progress. Freed blocks stay reserved (mapped in the emulator, counted in
 * hipMemPoolAttrReservedMemCurrent) until a synchronizing call (hipStreamSynchronize,
 * hipDeviceSynchronize, hipEventSynchronize) trims every pool to its release threshold,
 * hipMemPoolTrimTo trims one, or a free finds more bytes idle than in use in its pool (ROCm's rule
 * on Linux, where its direct dispatch is on): then they return to the device, and a kernel that
 * uses one faults as with any freed buffer.
 *
 * A busy block is an allocation of the runtime's table (hip_memory.c) of the size asked, so copies,
 * pointer queries, initcheck (a reused block's bytes are unwritten again) and leakcheck treat it as
 * device memory; a block waiting in its pool is in no allocation. */
#include <stdlib.h>
#include <string.h>

#include "hip/internal.h"

typedef struct pool_blk {
  uint64_t addr;
  size_t size;       /* the block's bytes (a reused block may be larger than the allocation in it) */
  hipStream_t *safe; /* streams that may reuse it without waiting (ROCm's MemoryTimestamp) */
  size_t nsafe;
  bool marker;       /* freed on a stream: ROCm records an event behind the free */
} pool_blk;

struct ihipMemPoolHandle_t {
  hipMemPoolProps props;
  int32_t ev_dep, opp, internal;  /* hipMemPoolReuse*: 1 when created */
  uint64_t threshold;             /* hipMemPoolAttrReleaseThreshold */
  uint64_t reserved_high;         /* hipMemPoolAttrReservedMemHigh (ROCm's max_total_size_) */
  uint64_t used, used_high, idle; /* bytes of busy blocks, their high-water mark, bytes of free blocks */
  pool_blk *busy, *freel;         /* freel sorted by size, then address (ROCm's map order) */
  size_t nbusy, nfree;
  unsigned refs;                  /* the program's until hipMemPoolDestroy, and one per busy block */
  bool destroyed;
};
typedef struct ihipMemPoolHandle_t pool;

static pool **pools; /* live pools, destroyed ones with busy blocks included */
static size_t npools;
static pool *def_pool, *cur_pool;

/* ---- pools -----------------------------------------------------------------------------------*/
static pool *pool_new(const hipMemPoolProps *props) {
  pool *p = ll_xcalloc(1, sizeof *p);
  p->props = *props;
  p->ev_dep = p->opp = p->internal = 1;
  p->refs = 1;
  pools = ll_xrealloc(pools, (npools + 1) * sizeof *pools);
  pools[npools++] = p;
  return p;
}

static pool *default_pool(void) {
  if (!def_pool) {
    hipMemPoolProps d = {.allocType = hipMemAllocationTypePinned, .location = {hipMemLocationTypeDevice, 0}};
    cur_pool = def_pool = pool_new(&d);
  }
  return def_pool;
}

/* a pool the program may name: created by it (or the device's default) and not destroyed */
static pool *pool_of(hipMemPool_t h) {
  for (size_t i = 0; h && i < npools; i++)
    if (pools[i] == h) return pools[i]->destroyed ? NULL : pools[i];
  return NULL;
}

static hipStream_t key(hipStream_t s) { return s == hipStreamLegacy ? NULL : s; }

static bool safe_has(const pool_blk *b, hipStream_t s) {
  for (size_t i = 0; i < b->nsafe; i++)
    if (b->safe[i] == s) return true;
  return false;
}

static void safe_add(pool_blk *b, hipStream_t s) {
  if (safe_has(b, s)) return;
  b->safe = ll_xrealloc(b->safe, (b->nsafe + 1) * sizeof *b->safe);
  b->safe[b->nsafe++] = s;
}

static void free_insert(pool *p, pool_blk b) {
  size_t i = 0;
  while (i < p->nfree && (p->freel[i].size < b.size || (p->freel[i].size == b.size && p->freel[i].addr < b.addr))) i++;
  p->freel = ll_xrealloc(p->freel, (p->nfree + 1) * sizeof *p->freel);
  memmove(&p->freel[i + 1], &p->freel[i], (p->nfree - i) * sizeof *p->freel);
  p->freel[i] = b;
  p->nfree++;
  p->idle += b.size;
}

static pool_blk take(pool_blk *v, size_t *n, size_t i) {
  pool_blk b = v[i];
  memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof *v);
  (*n)--;
  return b;
}

/* free blocks go back to the device, smallest first, while more than hold bytes are idle
 * (ROCm's Heap::ReleaseAllMemory; every block's work is complete here) */
static void pool_trim(pool *p, uint64_t hold) {
  while (p->nfree && p->idle > hold) {
    pool_blk b = take(p->freel, &p->nfree, 0);
    p->idle -= b.size;
    if (hip_g.dev) rt_free(hip_g.dev, b.addr);
    free(b.safe);
  }
}

static void pool_delete(pool *p) {
  pool_trim(p, 0);
  for (size_t i = 0; i < npools; i++)
    if (pools[i] == p) pools[i] = pools[--npools];
  free(p->busy), free(p->freel);
  free(p);
}

static void pool_unref(pool *p) {
  if (--p->refs == 0) pool_delete(p);
}

/* ---- allocation and free --------------------------------------------------------------------*/
static hipError_t pool_alloc(pool *p, void **ptr, size_t size, hipStream_t s, const char *fn) {
  s = key(s);
  size_t i = 0;
  for (; i < p->nfree; i++) { /* ROCm's Heap::FindMemory */
    pool_blk *b = &p->freel[i];
    if (b->size < size) continue;
    bool opp = p->opp && !((double)b->size > (double)size / 8.0 * 9);
    if (safe_has(b, s) || !b->marker || opp) break;
  }
  pool_blk b;
  if (i < p->nfree) {
    b = take(p->freel, &p->nfree, i);
    p->idle -= b.size;
    b.nsafe = 0; /* the busy block's safe stream is the one it is allocated on */
  } else {
    if (p->props.maxSize && p->reserved_high + size > p->props.maxSize)
      return hip_complain(fn, hipErrorOutOfMemory, "%zu bytes would pass the pool's maxSize of %zu bytes", size, p->props.maxSize);
    static unsigned seq;
    char name[64];
    snprintf(name, sizeof name, "memory pool block #%u (%zu bytes)", ++seq, size);
    ll_err e = {0};
    uint64_t a = rt_alloc(hip_g.dev, size, name, &e);
    if (!a) return hip_complain(fn, hipErrorOutOfMemory, "%zu bytes: %s", size, e.msg);
    b = (pool_blk){.addr = a, .size = size};
  }
  safe_add(&b, s);
  p->busy = ll_xrealloc(p->busy, (p->nbusy + 1) * sizeof *p->busy);
  p->busy[p->nbusy++] = b;
  p->used += b.size;
  if (p->used > p->used_high) p->used_high = p->used;
  if (p->used + p->idle > p->reserved_high) p->reserved_high = p->used + p->idle;
  p->refs++;
  static unsigned aseq;
  char name[48];
  snprintf(name, sizeof name, "%s #%u (%zu bytes)", fn, ++aseq, size);
  hip_alloc_adopt(b.addr, size, name, p);
  *ptr = (void *)(uintptr_t)b.addr;
  return hipSuccess;
}

void hip_pool_free(hip_alloc *a, hipStream_t s, bool on_stream) {
  pool *p = a->pool;
  uint64_t addr = a->addr;
  hip_alloc_forget(a);
  size_t i = 0;
  while (i < p->nbusy && p->busy[i].addr != addr) i++;
  if (i == p->nbusy) return; /* cannot happen: every pool allocation has its block */
  /* ROCm's MemoryPool::FreeMemory with direct dispatch: more idle than busy bytes gives the idle back */
  if (p->idle > p->used) pool_trim(p, 0);
  pool_blk b = take(p->busy, &p->nbusy, i);
  p->used -= b.size;
  if (on_stream) safe_add(&b, key(s));
  b.marker = on_stream;
  free_insert(p, b);
  pool_unref(p);
}

void hip_pool_release_freed(void) {
  for (size_t i = 0; i < npools; i++) pool_trim(pools[i], pools[i]->threshold);
  hip_graph_mem_trim(); /* ROCm's graph memory pool is one of the device's pools (threshold 0) */
}

void hip_pool_wait(hipStream_t event_stream, hipStream_t wait_stream) {
  event_stream = key(event_stream), wait_stream = key(wait_stream);
  for (size_t i = 0; i < npools; i++)
    if (pools[i]->ev_dep)
      for (size_t j = 0; j < pools[i]->nfree; j++)
        if (safe_has(&pools[i]->freel[j], event_stream)) safe_add(&pools[i]->freel[j], wait_stream);
}

static void forget_in(pool_blk *v, size_t n, hipStream_t s) {
  for (size_t j = 0; j < n; j++)
    for (size_t k = 0; k < v[j].nsafe; k++)
      if (v[j].safe[k] == s) v[j].safe[k--] = v[j].safe[--v[j].nsafe];
}

void hip_pool_forget_stream(hipStream_t s) {
  for (size_t i = 0; i < npools; i++) forget_in(pools[i]->busy, pools[i]->nbusy, s), forget_in(pools[i]->freel, pools[i]->nfree, s);
}

/* hipDeviceReset: the device's memory goes with it (rt_close), so nothing is given back here */
void hip_pool_reset(void) {
  for (size_t i = 0; i < npools; i++) {
    pool *p = pools[i];
    for (size_t j = 0; j < p->nbusy; j++) free(p->busy[j].safe);
    for (size_t j = 0; j < p->nfree; j++) free(p->freel[j].safe);
    free(p->busy), free(p->freel), free(p);
  }
  free(pools);
  pools = NULL, npools = 0, def_pool = cur_pool = NULL;
}

/* ---- the API ---------------------------------------------------------------------------------*/
#define POOL_ARG(h, p)                                                                             \
  pool *p = pool_of(h);                                                                            \
  if (!p)                                                                                          \
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not a memory pool (hipMemPoolCreate's, or "    \
                                 "the device's default) that is not destroyed", (void *)(h)))

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device) {
  HIP_BEGIN();
  if (!mem_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool is NULL"));
  hipError_t e = hip_device_arg(__func__, device, hipErrorInvalidDevice);
  if (e == hipSuccess) *mem_pool = default_pool();
  return hip_done(e);
}

hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device) {
  HIP_BEGIN();
  if (!mem_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool is NULL"));
  hipError_t e = hip_device_arg(__func__, device, hipErrorInvalidValue); /* ROCm: InvalidValue here */
  if (e == hipSuccess) default_pool(), *mem_pool = cur_pool;
  return hip_done(e);
}

hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
  HIP_BEGIN();
  if (!mem_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool is NULL"));
  hipError_t e = hip_device_arg(__func__, device, hipErrorInvalidValue); /* ROCm: InvalidValue here */
  if (e != hipSuccess) return hip_done(e);
  POOL_ARG(mem_pool, p);
  cur_pool = p;
  return hip_done(hipSuccess);
}

hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *props) {
  HIP_BEGIN();
  if (!mem_pool || !props) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool or pool_props is NULL"));
  if (props->allocType != hipMemAllocationTypePinned)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "allocType %d: pools allocate hipMemAllocationTypePinned", (int)props->allocType));
  if (props->location.type != hipMemLocationTypeDevice || props->location.id != 0)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "location (type %d, id %d): the pool must be on device 0",
                                 (int)props->location.type, props->location.id));
  default_pool();
  *mem_pool = pool_new(props);
  return hip_done(hipSuccess);
}

hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
  HIP_BEGIN();
  if (!mem_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool is NULL"));
  POOL_ARG(mem_pool, p);
  if (p == def_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the device's default pool cannot be destroyed"));
  pool_trim(p, p->threshold);
  if (cur_pool == p) cur_pool = def_pool;
  p->destroyed = true; /* its busy blocks stay usable, and return to it when freed (ROCm) */
  pool_unref(p);
  return hip_done(hipSuccess);
}

hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold) {
  HIP_BEGIN();
  POOL_ARG(mem_pool, p);
  pool_trim(p, min_bytes_to_hold);
  return hip_done(hipSuccess);
}

/* the attributes a pool keeps as they are set: the reuse flags (4 bytes), the release threshold (8) */
static void *attr_field(pool *p, hipMemPoolAttr a, size_t *n) {
  switch (a) {
  case hipMemPoolReuseFollowEventDependencies: return *n = 4, (void *)&p->ev_dep;
  case hipMemPoolReuseAllowOpportunistic: return *n = 4, (void *)&p->opp;
  case hipMemPoolReuseAllowInternalDependencies: return *n = 4, (void *)&p->internal;
  case hipMemPoolAttrReleaseThreshold: return *n = 8, (void *)&p->threshold;
  default: return NULL;
  }
}

hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value) {
  HIP_BEGIN();
  POOL_ARG(mem_pool, p);
  if (!value) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "value is NULL"));
  size_t n;
  void *f = attr_field(p, attr, &n);
  if (f) return memcpy(f, value, n), hip_done(hipSuccess);
  if (attr == hipMemPoolAttrReservedMemCurrent || attr == hipMemPoolAttrUsedMemCurrent)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d is read-only", (int)attr));
  if (attr != hipMemPoolAttrReservedMemHigh && attr != hipMemPoolAttrUsedMemHigh)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d is not a pool attribute", (int)attr));
  uint64_t v64;
  memcpy(&v64, value, 8);
  if (v64) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d can only be reset to 0, not %llu", (int)attr, (unsigned long long)v64));
  *(attr == hipMemPoolAttrReservedMemHigh ? &p->reserved_high : &p->used_high) = 0;
  return hip_done(hipSuccess);
}

hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value) {
  HIP_BEGIN();
  POOL_ARG(mem_pool, p);
  if (!value) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "value is NULL"));
  size_t n;
  void *f = attr_field(p, attr, &n);
  if (f) return memcpy(value, f, n), hip_done(hipSuccess);
  uint64_t v;
  switch (attr) {
  case hipMemPoolAttrReservedMemCurrent: v = p->used + p->idle; break;
  case hipMemPoolAttrReservedMemHigh: v = p->reserved_high; break;
  case hipMemPoolAttrUsedMemCurrent: v = p->used; break;
  case hipMemPoolAttrUsedMemHigh: v = p->used_high; break;
  default: return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d is not a pool attribute", (int)attr));
  }
  memcpy(value, &v, 8);
  return hip_done(hipSuccess);
}

/* One device: the pool's own, whose access is always read-write (ROCm's SetAccess leaves it as it
 * is; ProtNone for a device is hipErrorInvalidDevice there) */
hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list, size_t count) {
  HIP_BEGIN();
  if (!mem_pool || !desc_list) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool or desc_list is NULL"));
  POOL_ARG(mem_pool, p);
  if (count > 1) return hip_done(hip_complain(__func__, hipErrorInvalidDevice, "%zu descriptors for 1 device", count));
  for (size_t i = 0; i < count; i++) {
    const hipMemAccessDesc *d = &desc_list[i];
    if (d->location.type != hipMemLocationTypeDevice)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "descriptor %zu: location type %d is not a device", i, (int)d->location.type));
    if (d->location.id != 0) return hip_done(hip_complain(__func__, hipErrorInvalidDevice, "descriptor %zu: device %d: the emulated device is 0", i, d->location.id));
    if (d->flags == hipMemAccessFlagsProtNone)
      return hip_done(hip_complain(__func__, hipErrorInvalidDevice, "descriptor %zu: hipMemAccessFlagsProtNone for the pool's own device", i));
    if ((unsigned)d->flags > hipMemAccessFlagsProtReadWrite)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "descriptor %zu: flags %d", i, (int)d->flags));
  }
  (void)p;
  return hip_done(hipSuccess);
}

hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool, hipMemLocation *location) {
  HIP_BEGIN();
  if (!flags || !mem_pool || !location) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags, mem_pool or location is NULL"));
  POOL_ARG(mem_pool, p);
  (void)p;
  if (location->type != hipMemLocationTypeDevice || location->id != 0)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "location (type %d, id %d) is not device 0", (int)location->type, location->id));
  *flags = hipMemAccessFlagsProtReadWrite;
  return hip_done(hipSuccess);
}

/* hipMallocAsync and hipMallocFromPoolAsync, ROCm's order of checks */
static hipError_t alloc_async(void **ptr, size_t size, hipMemPool_t h, hipStream_t stream, const char *fn) {
  if (!ptr) return hip_complain(fn, hipErrorInvalidValue, "dev_ptr is NULL");
  if (!hip_stream_valid(stream)) return hip_complain(fn, hipErrorInvalidHandle, "%p is not a stream", (void *)stream);
  if (size == 0) return *ptr = NULL, hipSuccess;
  if (hip_capturing(stream)) return hip_capture_alloc(stream, ptr, size); /* the graph's memory, not the pool's */
  hipError_t c = hip_capture_refuse(stream, fn);
  if (c != hipSuccess) return c;
  default_pool();
  pool *p = h ? pool_of(h) : cur_pool;
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "%p is not a memory pool that is not destroyed", (void *)h);
  return pool_alloc(p, ptr, size, stream, fn);
}

hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream) {
  HIP_BEGIN();
  return hip_done(alloc_async(ptr, size, NULL, stream, __func__));
}

hipError_t hipMallocFromPoolAsync(void **ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream) {
  HIP_BEGIN();
  if (!mem_pool) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mem_pool is NULL"));
  return hip_done(alloc_async(ptr, size, mem_pool, stream, __func__));
}

/* A pool's block goes back to it; any other device or managed memory is freed at once (ROCm's
 * hipFreeAsync falls back to its hipFree): hip_memory.c's free does both */
hipError_t hipFreeAsync(void *ptr, hipStream_t stream) {
  HIP_BEGIN();
  if (!ptr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "dev_ptr is NULL"));
  if (!hip_stream_valid(stream)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)stream));
  if (hip_capturing(stream)) return hip_done(hip_capture_free(stream, ptr, __func__));
  hipError_t c = hip_capture_refuse(stream, __func__);
  if (c != hipSuccess) return hip_done(c);
  return hip_done(hip_dev_free(ptr, stream, __func__));
}
