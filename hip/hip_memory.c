/* hip/hip_memory — HIP's memory on the emulator (docs/hip-runtime.md "Memory").
 *
 * Device memory (hipMalloc) is an emulator buffer: its device address lies in the emulator's
 * range [EMU_MEM_BASE, EMU_MEM_LIMIT), which this process reserves with PROT_NONE at start, so a
 * host dereference of a device pointer faults as on a discrete GPU; the bytes live in a separate
 * host allocation that only the runtime and the emulator touch. A freed buffer's addresses are
 * never handed out again, so a kernel that uses a stale pointer faults naming the address.
 * Host-pinned (hipHostMalloc), managed (hipMallocManaged) and registered (hipHostRegister) memory
 * is host memory registered with the emulator at its own address: host and device use the same
 * pointer. Any other host memory is unknown to the device: a kernel that touches it faults.
 *
 * Copies and memsets run when they are called (streams are in order, and every launch runs to
 * completion), so the Async forms differ only in not being synchronizing calls (hip_state.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hip/internal.h"

/* ---- the device address range --------------------------------------------------------------*/
/* True when /proc/self/maps shows [lo, hi) covered by inaccessible mappings only (a sanitizer's
 * shadow gap is one): a host dereference there faults already. */
static bool range_inaccessible(uint64_t lo, uint64_t hi) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[512];
  uint64_t at = lo;
  bool ok = true;
  while (ok && at < hi && fgets(line, sizeof line, f)) {
    unsigned long long a, b;
    char perm[8];
    if (sscanf(line, "%llx-%llx %7s", &a, &b, perm) != 3 || b <= at) continue;
    if (a > at) ok = false;                        /* a hole: nothing there */
    else if (strncmp(perm, "---", 3)) ok = false;  /* something accessible */
    else at = b;
  }
  fclose(f);
  return ok && at >= hi;
}

void hip_reserve_device_range(void) {
  size_t len = (size_t)(EMU_MEM_LIMIT - EMU_MEM_BASE);
  void *want = (void *)(uintptr_t)EMU_MEM_BASE;
  void *p = mmap(want, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == want) return;
  if (p == MAP_FAILED && errno == EEXIST && range_inaccessible(EMU_MEM_BASE, EMU_MEM_LIMIT)) return;
  if (p != MAP_FAILED) munmap(p, len); /* a kernel without MAP_FIXED_NOREPLACE put it elsewhere */
  fprintf(stderr, "lanelab: hip: warning: cannot reserve the device address range [0x%llx, 0x%llx) in this process "
          "(%s): a host dereference of a device pointer may not fault\n",
          (unsigned long long)EMU_MEM_BASE, (unsigned long long)EMU_MEM_LIMIT, p == MAP_FAILED ? strerror(errno) : "taken");
}

/* ---- the allocation table (sorted by address) --------------------------------------------------*/
static size_t alloc_index(uint64_t addr) {
  size_t lo = 0, hi = hip_g.nallocs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (hip_g.allocs[mid].addr <= addr) lo = mid + 1;
    else hi = mid;
  }
  return lo; /* allocs[lo-1] is the last one starting at or below addr */
}

hip_alloc *hip_alloc_find(uint64_t p, size_t n) {
  size_t i = alloc_index(p);
  if (!i) return NULL;
  hip_alloc *a = &hip_g.allocs[i - 1];
  return p - a->addr < a->size && n <= a->size - (p - a->addr) ? a : NULL;
}

static hip_alloc *alloc_add(hip_alloc a) {
  static unsigned ids;
  a.id = ++ids;
  size_t i = alloc_index(a.addr);
  hip_g.allocs = ll_xrealloc(hip_g.allocs, (hip_g.nallocs + 1) * sizeof *hip_g.allocs);
  memmove(&hip_g.allocs[i + 1], &hip_g.allocs[i], (hip_g.nallocs - i) * sizeof *hip_g.allocs);
  hip_g.allocs[i] = a;
  hip_g.nallocs++;
  return &hip_g.allocs[i];
}

static void alloc_remove(hip_alloc *a) {
  size_t i = (size_t)(a - hip_g.allocs);
  free(a->init), free(a->adv);
  memmove(&hip_g.allocs[i], &hip_g.allocs[i + 1], (hip_g.nallocs - i - 1) * sizeof *hip_g.allocs);
  hip_g.nallocs--;
}

static hip_alloc *alloc_at(uint64_t addr) {
  size_t i = alloc_index(addr);
  return i && hip_g.allocs[i - 1].addr == addr ? &hip_g.allocs[i - 1] : NULL;
}

void *hip_host_view(uint64_t addr, size_t n) {
  emu_mem *m = rt_device_emu_mem(hip_g.dev);
  return m ? emu_mem_translate(m, addr, n) : NULL;
}

void hip_mark_written(uint64_t addr, size_t n) {
  hip_alloc *a = hip_alloc_find(addr, n);
  if (!a || !a->init) return;
  uint64_t o = addr - a->addr, e = o + n;
  for (; o < e && o % 8; o++) a->init[o / 8] |= (uint8_t)(1u << (o % 8)); /* up to a whole byte of bits */
  if (e - o >= 8) memset(a->init + o / 8, 0xff, (e - o) / 8), o += (e - o) / 8 * 8;
  for (; o < e; o++) a->init[o / 8] |= (uint8_t)(1u << (o % 8));
}

void hip_mark_unwritten(uint64_t addr, size_t n) {
  hip_alloc *a = hip_alloc_find(addr, n);
  if (!a || !a->init) return;
  for (uint64_t o = addr - a->addr, e = o + n; o < e; o++) a->init[o / 8] &= (uint8_t)~(1u << (o % 8));
}

static const char *kind_name(hip_mem_kind k) {
  return k == HIP_MEM_DEVICE ? "device memory (hipMalloc)" : k == HIP_MEM_HOST ? "host-pinned memory (hipHostMalloc)"
         : k == HIP_MEM_MANAGED ? "managed memory (hipMallocManaged)" : "registered host memory (hipHostRegister)";
}

/* ---- device memory ----------------------------------------------------------------------------*/
static hipError_t dev_alloc(void **ptr, size_t size, const char *fn) {
  if (!ptr) return hip_complain(fn, hipErrorInvalidValue, "ptr is NULL");
  *ptr = NULL;
  if (size == 0) return hipSuccess; /* HIP: a zero-byte allocation succeeds and returns NULL */
  static unsigned seq;
  char name[64];
  snprintf(name, sizeof name, "%s #%u (%zu bytes)", fn, ++seq, size);
  ll_err e = {0};
  uint64_t a = rt_alloc(hip_g.dev, size, name, &e);
  if (!a) return hip_complain(fn, hipErrorOutOfMemory, "%zu bytes: %s", size, e.msg);
  hip_alloc r = {.addr = a, .size = size, .kind = HIP_MEM_DEVICE};
  snprintf(r.name, sizeof r.name, "%s", name);
  if (hip_g.initcheck) r.init = ll_xcalloc((size + 7) / 8, 1);
  alloc_add(r);
  *ptr = (void *)(uintptr_t)a;
  return hipSuccess;
}

/* an allocation's memory given back and its record removed (device, managed or host-pinned) */
static void release(hip_alloc *a) {
  if (!a->map) { /* the emulator's buffer (device memory but signal memory) */
    rt_free(hip_g.dev, a->addr);
  } else {
    rt_unmap_host(hip_g.dev, (void *)(uintptr_t)a->addr);
    munmap(a->map, a->map_len);
  }
  alloc_remove(a);
}

/* the allocation starting at ptr, or NULL after saying why there is none (what returns it: HIP's
 * allocation call named in the message) */
static hip_alloc *alloc_start(void *ptr, const char *fn, const char *by, hipError_t *e) {
  uint64_t p = (uint64_t)(uintptr_t)ptr;
  hip_alloc *a = alloc_at(p), *in = a ? NULL : hip_alloc_find(p, 1);
  if (in)
    *e = hip_complain(fn, hipErrorInvalidValue, "%p is %zu bytes into an allocation at 0x%llx, not its start", ptr,
                      (size_t)(p - in->addr), (unsigned long long)in->addr);
  else if (!a)
    *e = hip_complain(fn, hipErrorInvalidValue, "%p was not returned by %s (or was freed already)", ptr, by);
  return a;
}

/* The frees that are not a release: a memory pool's block goes back to its pool (freed on stream s
 * when on_stream, else by hipFree), and a graph's memory stays its graph's while a graph holds it
 * (hip_graph.c): true, done; false for any other allocation, which the caller releases. */
static bool owner_free(hip_alloc *a, hipStream_t s, bool on_stream) {
  if (a->pool) return hip_pool_free(a, s, on_stream), true;
  return hip_graph_mem_free((void *)(uintptr_t)a->addr);
}

/* hipFreeAsync on stream s and a graph's free: device and managed memory */
static hipError_t dev_free(void *ptr, hipStream_t s, const char *fn) {
  if (!ptr) return hipSuccess;
  hipError_t e = hipSuccess;
  hip_alloc *a = alloc_start(ptr, fn, "hipMalloc", &e);
  if (!a) return e;
  if (a->kind == HIP_MEM_HOST || a->kind == HIP_MEM_REGISTERED)
    return hip_complain(fn, hipErrorInvalidValue, "%p is %s: free it with %s", ptr, kind_name(a->kind),
                        a->kind == HIP_MEM_HOST ? "hipHostFree" : "hipHostUnregister");
  if (!owner_free(a, s, true)) release(a);
  return hipSuccess;
}

/* hipFree and hipHostFree (host: the latter). ROCm frees any HIP allocation through either (ROCm/clr
 * hipamd/src/hip_memory.cpp, ihipFree; hipHostFree refuses only memory without an SVM address),
 * though HIP's header documents each for its own kind (hipFree: hipErrorInvalidDevicePointer for
 * host-pinned memory) and CUDA's cudaFree refuses pinned memory. lanelab frees as ROCm does, so that
 * programs written against ROCm run as they do there (AMD's HIP-Examples free hipHostMalloc memory
 * with hipFree), and says so on stderr: a note, not an error. Registered memory is the program's
 * own: refused, for hipHostUnregister (a stated choice; docs/hip-runtime.md "Memory"). */
static hipError_t either_free(void *ptr, const char *fn, bool host) {
  if (!ptr) return hipSuccess;
  hipError_t e = hipSuccess;
  hip_alloc *a = alloc_start(ptr, fn, host ? "hipHostMalloc" : "hipMalloc or hipMallocManaged", &e);
  if (!a) return e;
  if (a->kind == HIP_MEM_REGISTERED)
    return hip_complain(fn, hipErrorInvalidValue, "%p is %s: unregister it with hipHostUnregister", ptr, kind_name(a->kind));
  if (a->owned) return hip_complain(fn, hipErrorInvalidValue, "%p is the storage of %s, which the runtime owns", ptr, a->name);
  if (owner_free(a, NULL, false)) return hipSuccess; /* a pool's block, a graph's memory (ROCm) */
  if (host != (a->kind == HIP_MEM_HOST))
    fprintf(stderr, "lanelab: hip: note: %s: %p is %s, which HIP documents freeing with %s; freed, as ROCm's runtime "
                    "frees any HIP allocation through either call (CUDA's %s refuses it)\n",
            fn, ptr, kind_name(a->kind), host ? "hipFree" : "hipHostFree", host ? "cudaFreeHost" : "cudaFree");
  release(a);
  return hipSuccess;
}

/* the allocation calls ROCm prohibits during a capture (hip_capture_unsafe; ROCm/clr hip_memory.cpp,
 * f9f995c: these, not hipMallocHost, hipFreeHost or hipExtMallocWithFlags) */
#define CAPTURE_UNSAFE()                                                                           \
  do {                                                                                             \
    hipError_t u_ = hip_capture_unsafe(__func__);                                                  \
    if (u_ != hipSuccess) return hip_done(u_);                                                     \
  } while (0)

hipError_t hipMalloc(void **ptr, size_t size) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  return hip_done(dev_alloc(ptr, size, __func__));
}

static hipError_t host_alloc(void **ptr, size_t size, hip_mem_kind kind, unsigned flags, const char *fn);

hipError_t hipExtMallocWithFlags(void **ptr, size_t size, unsigned int flags) {
  HIP_BEGIN();
  if (flags > hipDeviceMallocContiguous)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "unknown flags %u", flags));
  /* ROCm/clr f9f995c: signal memory is one 8-byte word */
  if (flags == hipMallocSignalMemory && size != 8)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "hipMallocSignalMemory allocates 8 bytes, not %zu", size));
  /* signal memory is an HSA signal's value, which ROCm keeps where the host reads and writes it
   * (fine-grained system memory; AMD's hip-tests set it with a host store): host memory the device
   * sees at the same address, device memory to HIP's queries */
  if (flags == hipMallocSignalMemory) return hip_done(host_alloc(ptr, size, HIP_MEM_DEVICE, flags, __func__));
  return hip_done(dev_alloc(ptr, size, __func__)); /* fine/coarse grain: one coherent memory here */
}

/* depth slices of height rows of width bytes, each row starting 256-byte aligned (lanelab's choice;
 * HIP leaves the pitch to the runtime): hipMallocPitch, hipMemAllocPitch and hipMalloc3D */
static hipError_t pitched_alloc(void **ptr, size_t *pitch, size_t width, size_t height, size_t depth, const char *fn) {
  size_t p = (width + 255) & ~(size_t)255;
  if (height && depth && p > SIZE_MAX / height / depth) return hip_complain(fn, hipErrorInvalidValue, "size overflows");
  hipError_t e = dev_alloc(ptr, p * height * depth, fn);
  if (e == hipSuccess) *pitch = p;
  return e;
}

hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (!pitch) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pitch is NULL"));
  return hip_done(pitched_alloc(ptr, pitch, width, height, 1, __func__));
}

hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes, size_t height,
                            unsigned int elementSizeBytes) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (!pitch || (elementSizeBytes != 4 && elementSizeBytes != 8 && elementSizeBytes != 16))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pitch is NULL or elementSizeBytes is not 4, 8 or 16"));
  return hip_done(pitched_alloc(dptr, pitch, widthInBytes, height, 1, __func__));
}

hipError_t hipFree(void *ptr) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  hipError_t s = hip_sync_point(); /* hipFree waits for the device, as HIP's does */
  if (s != hipSuccess) return hip_done(s);
  return hip_done(either_free(ptr, __func__, false));
}

hipError_t hip_dev_alloc(void **ptr, size_t size, const char *fn) { return dev_alloc(ptr, size, fn); }
hipError_t hip_dev_free(void *ptr, hipStream_t s, const char *fn) { return dev_free(ptr, s, fn); }

void hip_alloc_adopt(uint64_t addr, size_t size, const char *name, struct ihipMemPoolHandle_t *pool) {
  hip_alloc r = {.addr = addr, .size = size, .kind = HIP_MEM_DEVICE, .pool = pool};
  snprintf(r.name, sizeof r.name, "%s", name);
  if (hip_g.initcheck) r.init = ll_xcalloc((size + 7) / 8, 1);
  alloc_add(r);
}

void hip_alloc_forget(hip_alloc *a) { alloc_remove(a); }

/* ---- host-pinned, managed and registered memory -----------------------------------------------*/
static hipError_t host_alloc(void **ptr, size_t size, hip_mem_kind kind, unsigned flags, const char *fn) {
  if (!ptr) return hip_complain(fn, hipErrorInvalidValue, "ptr is NULL");
  *ptr = NULL;
  if (size == 0) return hipSuccess;
  size_t len = (size + 4095) & ~(size_t)4095;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return hip_complain(fn, hipErrorOutOfMemory, "%zu bytes: %s", size, strerror(errno));
  static unsigned seq;
  char name[64];
  snprintf(name, sizeof name, "%s #%u (%zu bytes)", fn, ++seq, size);
  ll_err e = {0};
  if (!rt_map_host(hip_g.dev, p, size, name, &e)) {
    munmap(p, len);
    return hip_complain(fn, hipErrorOutOfMemory, "%s", e.msg);
  }
  hip_alloc *r = alloc_add((hip_alloc){.addr = (uint64_t)(uintptr_t)p, .size = size, .kind = kind, .flags = flags, .map = p,
                                       .map_len = len});
  snprintf(r->name, sizeof r->name, "%s", name);
  *ptr = p;
  return hipSuccess;
}

static const unsigned host_flags = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                                   hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;

/* ROCm/clr f9f995c ihipHostMalloc: coherent and non-coherent at once is refused (after a 0-byte
 * request, which is NULL and success) */
static hipError_t host_flags_ok(void **ptr, size_t size, unsigned flags, const char *fn) {
  if (flags & ~host_flags) return hip_complain(fn, hipErrorInvalidValue, "unknown flags 0x%x", flags);
  if (ptr && size && (flags & (hipHostMallocCoherent | hipHostMallocNonCoherent)) == (hipHostMallocCoherent | hipHostMallocNonCoherent))
    return hip_complain(fn, hipErrorInvalidValue, "hipHostMallocCoherent and hipHostMallocNonCoherent at once");
  return hipSuccess;
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  hipError_t fe = host_flags_ok(ptr, size, flags, __func__);
  if (fe != hipSuccess) return hip_done(fe);
  return hip_done(host_alloc(ptr, size, HIP_MEM_HOST, flags, __func__));
}

hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  hipError_t fe = host_flags_ok(ptr, size, flags, __func__);
  if (fe != hipSuccess) return hip_done(fe);
  return hip_done(host_alloc(ptr, size, HIP_MEM_HOST, flags, __func__));
}

hipError_t hipMallocHost(void **ptr, size_t size) {
  HIP_BEGIN();
  return hip_done(host_alloc(ptr, size, HIP_MEM_HOST, 0, __func__));
}

hipError_t hipMemAllocHost(void **ptr, size_t size) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  return hip_done(host_alloc(ptr, size, HIP_MEM_HOST, 0, __func__));
}

hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be hipMemAttachGlobal or hipMemAttachHost, got 0x%x", flags));
  if (!size) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "size is 0 (ROCm refuses it for managed memory)"));
  return hip_done(host_alloc(ptr, size, HIP_MEM_MANAGED, flags, __func__));
}

hipError_t hipHostFree(void *ptr) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  hipError_t s = hip_sync_point();
  if (s != hipSuccess) return hip_done(s);
  return hip_done(either_free(ptr, __func__, true));
}

hipError_t hipFreeHost(void *ptr) {
  HIP_BEGIN();
  hipError_t s = hip_sync_point();
  if (s != hipSuccess) return hip_done(s);
  return hip_done(either_free(ptr, __func__, true));
}

/* [p, p + size) lies in mappings the process may read (and write), by /proc/self/maps (its lines in
 * address order; at most 1 << 20 of them read). Reserved ranges (PROT_NONE, as the emulator's device
 * range and a sanitizer's shadow) and unmapped holes are not. */
static bool host_range_rw(uintptr_t p, size_t size, bool write) {
  if (size > UINTPTR_MAX - p) return false;
  uintptr_t at = p, end = p + size;
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[512];
  for (unsigned n = 0; at < end && n < (1u << 20) && fgets(line, sizeof line, f); n++) {
    unsigned long lo, hi;
    char perm[8] = "";
    if (!strchr(line, '\n')) { /* a longer line (a long path): skip its rest */
      int c;
      while ((c = fgetc(f)) != EOF && c != '\n') {
      }
    }
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3) continue;
    if (hi <= at) continue;
    if (lo > at || perm[0] != 'r' || (write && perm[1] != 'w')) break; /* a hole, or not readable (writable) */
    at = hi;
  }
  fclose(f);
  return at >= end;
}

hipError_t hipHostRegister(void *p, size_t size, unsigned int flags) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (!p || !size) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "hostPtr is NULL or sizeBytes is 0"));
  if (flags & ~(unsigned)(hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory | hipHostRegisterReadOnly))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "unknown flags 0x%x", flags));
  uint64_t a = (uint64_t)(uintptr_t)p;
  for (size_t i = 0; i < hip_g.nallocs; i++) {
    hip_alloc *x = &hip_g.allocs[i];
    /* the same range again: ROCm registers it again without a check and keeps one entry for the
     * address (ROCm/clr hip_memory.cpp ihipHostRegister, f9f995c); one hipHostUnregister ends it */
    if (x->kind == HIP_MEM_REGISTERED && x->addr == a && x->size == size) return hip_done(hipSuccess);
    if (a < x->addr + x->size && x->addr < a + size)
      return hip_done(hip_complain(__func__, hipErrorHostMemoryAlreadyRegistered, "[%p, +%zu) overlaps %s at 0x%llx", p,
                                   size, kind_name(x->kind), (unsigned long long)x->addr));
  }
  /* the range must be the program's readable and writable memory (ROCm fails to pin anything else) */
  /* hipHostRegisterReadOnly: read-only memory may be registered */
  if (!host_range_rw((uintptr_t)p, size, !(flags & hipHostRegisterReadOnly)))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "[%p, +%zu) is not all %s memory of the program "
                                 "(/proc/self/maps)", p, size, flags & hipHostRegisterReadOnly ? "readable" : "readable and writable"));
  ll_err e = {0};
  char name[64];
  snprintf(name, sizeof name, "hipHostRegister %p (%zu bytes)", p, size);
  if (!rt_map_host(hip_g.dev, p, size, name, &e))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%s", e.msg));
  alloc_add((hip_alloc){.addr = a, .size = size, .kind = HIP_MEM_REGISTERED, .flags = flags});
  return hip_done(hipSuccess);
}

hipError_t hipHostUnregister(void *p) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "hostPtr is NULL")); /* ROCm/clr f9f995c */
  hip_alloc *a = alloc_at((uint64_t)(uintptr_t)p);
  if (!a || a->kind != HIP_MEM_REGISTERED)
    return hip_done(hip_complain(__func__, hipErrorHostMemoryNotRegistered, "%p was not registered with hipHostRegister", p));
  rt_unmap_host(hip_g.dev, p);
  alloc_remove(a);
  return hip_done(hipSuccess);
}

hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
  HIP_BEGIN();
  if (!devPtr || flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "devPtr is NULL or flags is not 0"));
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)hstPtr, 1);
  if (!a || a->kind == HIP_MEM_DEVICE)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not host memory registered for the device", hstPtr));
  *devPtr = hstPtr; /* one address for host and device */
  return hip_done(hipSuccess);
}

hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr) {
  HIP_BEGIN();
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)hostPtr, 1);
  if (!flagsPtr || !a || a->kind != HIP_MEM_HOST)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not memory from hipHostMalloc", hostPtr));
  *flagsPtr = a->flags;
  return hip_done(hipSuccess);
}

/* ---- queries -----------------------------------------------------------------------------------*/
hipError_t hipMemGetInfo(size_t *free_b, size_t *total) {
  HIP_BEGIN();
  size_t used = 0, tot = hip_total_mem();
  for (size_t i = 0; i < hip_g.nallocs; i++)
    if (hip_g.allocs[i].kind == HIP_MEM_DEVICE) used += hip_g.allocs[i].size;
  if (total) *total = tot;
  if (free_b) *free_b = used < tot ? tot - used : 0;
  return hip_done(hipSuccess);
}

hipError_t hipMemPtrGetInfo(void *ptr, size_t *size) {
  HIP_BEGIN();
  hip_alloc *a = alloc_at((uint64_t)(uintptr_t)ptr);
  if (!a || !size) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not the start of an allocation", ptr));
  *size = a->size;
  return hip_done(hipSuccess);
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr) {
  HIP_BEGIN();
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)dptr, 1);
  if (!a) return hip_done(hip_complain(__func__, hipErrorNotFound, "%p is in no allocation", dptr));
  if (pbase) *pbase = (void *)(uintptr_t)a->addr;
  if (psize) *psize = a->size;
  return hip_done(hipSuccess);
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *ptr) {
  HIP_BEGIN();
  if (!attr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attributes is NULL"));
  if (!ptr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "ptr is NULL")); /* ROCm/clr f9f995c */
  memset(attr, 0, sizeof *attr);
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)ptr, 1);
  if (!a) {
    attr->type = hipMemoryTypeUnregistered; /* HIP 6: plain host memory is not an error */
    attr->device = -2;
    return hip_done(hipSuccess);
  }
  attr->device = 0;
  attr->allocationFlags = a->flags;
  attr->isManaged = a->kind == HIP_MEM_MANAGED;
  attr->type = a->kind == HIP_MEM_DEVICE ? hipMemoryTypeDevice : a->kind == HIP_MEM_MANAGED ? hipMemoryTypeManaged
                                                                                             : hipMemoryTypeHost;
  attr->devicePointer = (void *)ptr;
  attr->hostPointer = a->kind == HIP_MEM_DEVICE ? NULL : (void *)ptr;
  return hip_done(hipSuccess);
}

/* One attribute of the allocation holding ptr, as ROCm answers it (ROCm/clr hip_memory.cpp
 * ihipPointerGetAttributes, f9f995c): the output's type is the attribute's (int, unsigned, bool or a
 * pointer); memory no HIP allocation holds gets the attribute's "none" value and
 * hipErrorInvalidValue (hipSuccess for ACCESS_FLAGS); the attributes ROCm does not support are
 * hipErrorNotSupported. Managed memory is "host" memory to MEMORY_TYPE, as in ROCm (its managed
 * buffers are host-allocated fine-grain SVM). */
static hipError_t ptr_attribute(void *data, hipPointer_attribute attr, const void *ptr) {
  const hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)ptr, 1);
  const hipError_t none = a ? hipSuccess : hipErrorInvalidValue;
  switch ((int)attr) {
  case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
    *(unsigned *)data = !a ? 0u : a->kind == HIP_MEM_DEVICE ? (unsigned)hipMemoryTypeDevice : (unsigned)hipMemoryTypeHost;
    return none;
  case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
    *(void **)data = a ? (void *)ptr : NULL;
    return none;
  case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
    *(void **)data = a && a->kind != HIP_MEM_DEVICE ? (void *)ptr : NULL;
    return a && a->kind != HIP_MEM_DEVICE ? hipSuccess : hipErrorInvalidValue;
  case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(bool *)data = false; return none;
  case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned *)data = a ? a->id : 0; return none;
  case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *(bool *)data = a && a->kind == HIP_MEM_MANAGED; return none;
  case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = a ? 0 : -2; return none;
  case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(void **)data = a ? (void *)(uintptr_t)a->addr : NULL; return none;
  case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *(unsigned *)data = a ? (unsigned)a->size : 0; return none;
  case HIP_POINTER_ATTRIBUTE_MAPPED: *(bool *)data = a != NULL; return none;
  case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = a ? a->flags : 0; return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_CONTEXT:
  case HIP_POINTER_ATTRIBUTE_P2P_TOKENS:
  case HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE:
  case HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
  case HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
  case HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: return hipErrorNotSupported;
  default: return hipErrorInvalidValue;
  }
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr) {
  HIP_BEGIN();
  if (!data || !ptr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "data or ptr is NULL"));
  hipError_t e = ptr_attribute(data, attribute, ptr);
  if (e == hipErrorNotSupported) return hip_done(hip_complain(__func__, e, "attribute %d: ROCm does not support it either", (int)attribute));
  if (e != hipSuccess) return hip_done(hip_complain(__func__, e, "attribute %d of %p: no HIP allocation holds it, or no such attribute", (int)attribute, ptr));
  return hip_done(hipSuccess);
}

/* several attributes; as ROCm, each one's status is ignored (unsupported or outside any allocation:
 * its "none" value) and the call succeeds */
hipError_t hipDrvPointerGetAttributes(unsigned int n, hipPointer_attribute *attributes, void **data, hipDeviceptr_t ptr) {
  HIP_BEGIN();
  if (!n || !attributes || !data || !ptr)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "numAttributes is 0, or attributes, data or ptr is NULL"));
  for (unsigned i = 0; i < n; i++)
    if (data[i]) (void)ptr_attribute(data[i], attributes[i], ptr);
  return hip_done(hipSuccess);
}

/* ---- inter-process handles ---------------------------------------------------------------------
 * HIP's handle is 64 opaque bytes that another process opens (ROCm/clr hipamd/src/hip_memory.cpp,
 * hip_event_ipc.cpp, f9f995c 2024-10-22). lanelab's emulated device memory and events belong to one
 * process, so: a handle is made as HIP makes it (device allocations only; events created with
 * hipEventInterprocess), and opening one in the process that made it fails with
 * hipErrorInvalidContext, as ROCm's runtime checks the owner's process id; a handle from another
 * process (after fork) is refused with hipErrorNotSupported, naming it: not modelled. */
typedef struct {
  char tag[8];
  uint64_t pid, a, b, c;
} ipc_payload;
_Static_assert(sizeof(ipc_payload) <= HIP_IPC_HANDLE_SIZE, "the payload fits HIP's handle");

void hip_ipc_fill(char reserved[HIP_IPC_HANDLE_SIZE], const char tag[8], uint64_t a, uint64_t b, uint64_t c) {
  ipc_payload p = {.pid = (uint64_t)getpid(), .a = a, .b = b, .c = c};
  memcpy(p.tag, tag, sizeof p.tag);
  memset(reserved, 0, HIP_IPC_HANDLE_SIZE);
  memcpy(reserved, &p, sizeof p);
}

hipError_t hip_ipc_open(const char *fn, const char reserved[HIP_IPC_HANDLE_SIZE], const char tag[8]) {
  ipc_payload p;
  memcpy(&p, reserved, sizeof p);
  if (memcmp(p.tag, tag, sizeof p.tag))
    return hip_complain(fn, hipErrorInvalidValue, "the handle was not made by %s", memcmp(tag, "llipcmem", 8) ? "hipIpcGetEventHandle" : "hipIpcGetMemHandle");
  if (p.pid == (uint64_t)getpid())
    return hip_complain(fn, hipErrorInvalidContext, "the handle was made by this process: HIP opens a handle in another process only");
  return hip_complain(fn, hipErrorNotSupported, "the handle comes from process %llu: opening another process's memory or event "
                      "is not modelled (lanelab's emulated device belongs to one process)", (unsigned long long)p.pid);
}

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr) {
  HIP_BEGIN();
  if (!handle || !devPtr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "handle or devPtr is NULL"));
  uint64_t p = (uint64_t)(uintptr_t)devPtr;
  hip_alloc *a = hip_alloc_find(p, 1);
  if (!a || a->kind != HIP_MEM_DEVICE)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is in no device allocation: only hipMalloc memory has a handle", devPtr));
  hip_ipc_fill(handle->reserved, "llipcmem", a->addr, a->size, p - a->addr);
  return hip_done(hipSuccess);
}

hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle, unsigned int flags) {
  HIP_BEGIN();
  if (!devPtr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "devPtr is NULL"));
  if (flags != hipIpcMemLazyEnablePeerAccess)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%x: HIP takes hipIpcMemLazyEnablePeerAccess only", flags));
  return hip_done(hip_ipc_open(__func__, handle.reserved, "llipcmem"));
}

hipError_t hipIpcCloseMemHandle(void *devPtr) {
  HIP_BEGIN();
  if (!devPtr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "devPtr is NULL"));
  return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p was not returned by hipIpcOpenMemHandle (which opens "
                               "no handle in one process)", devPtr));
}

/* Hints about where managed memory should live: there is one copy here, so there is nothing to
 * move; the arguments are checked as HIP checks them. *out (when given): the managed allocation. */
static hipError_t managed_hint(const void *p, size_t n, int device, hip_alloc **out, const char *fn) {
  if (!p || !n) return hip_complain(fn, hipErrorInvalidValue, "devPtr is NULL or count is 0");
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)p, n);
  if (!a || a->kind != HIP_MEM_MANAGED)
    return hip_complain(fn, hipErrorInvalidValue, "[%p, +%zu) is not inside one hipMallocManaged allocation", p, n);
  if (device != 0 && device != hipCpuDeviceId) return hip_complain(fn, hipErrorInvalidDevice, "device %d", device);
  if (out) *out = a;
  return hipSuccess;
}

/* ---- managed-memory advice, by 4 KiB page ------------------------------------------------------
 * Nothing moves (there is one copy), but what a program advised and prefetched is kept per page of
 * the allocation and answered by hipMemRangeGetAttribute(s) as HIP documents it: a range's value is
 * the one all its pages share, else the attribute's "mixed" answer (0, hipInvalidDeviceId, or the
 * indeterminate coherency mode). */
#define ADV_SHIFT 12 /* 4 KiB pages */
static size_t adv_first(const hip_alloc *a, uint64_t p) { return (size_t)((p >> ADV_SHIFT) - (a->addr >> ADV_SHIFT)); }
static hip_adv *adv_of(hip_alloc *a) {
  if (!a->adv) {
    size_t np = adv_first(a, a->addr + a->size - 1) + 1;
    a->adv = ll_xcalloc(np, sizeof *a->adv);
    for (size_t i = 0; i < np; i++) a->adv[i].pref = a->adv[i].last = (int8_t)hipInvalidDeviceId;
  }
  return a->adv;
}
/* the pages of [p, p + n) in a (n > 0): [*lo, *hi) */
static void adv_span(const hip_alloc *a, const void *p, size_t n, size_t *lo, size_t *hi) {
  *lo = adv_first(a, (uint64_t)(uintptr_t)p);
  *hi = adv_first(a, (uint64_t)(uintptr_t)p + n - 1) + 1;
}
/* managed_hint's checks, then the advice records of [p, p + n)'s pages, [*lo, *hi), made if none */
static hipError_t adv_pages(const void *p, size_t n, int device, hip_adv **v, size_t *lo, size_t *hi, const char *fn) {
  hip_alloc *a = NULL;
  hipError_t c = managed_hint(p, n, device, &a, fn);
  if (c != hipSuccess) return c;
  adv_span(a, p, n, lo, hi);
  *v = adv_of(a);
  return hipSuccess;
}

hipError_t hipMemPrefetchAsync(const void *p, size_t n, int device, hipStream_t stream) {
  HIP_BEGIN();
  if (!hip_stream_valid(stream)) return hip_done(hip_stream_gone(__func__, stream)); /* ROCm: hipErrorContextIsDestroyed */
  hipError_t c = hip_capture_refuse(stream, __func__);
  if (c != hipSuccess) return hip_done(c);
  hip_adv *v;
  size_t lo, hi;
  c = adv_pages(p, n, device, &v, &lo, &hi, __func__);
  if (c != hipSuccess) return hip_done(c);
  for (size_t i = lo; i < hi; i++) v[i].last = (int8_t)device;
  return hip_done(hipSuccess);
}

hipError_t hipMemAdvise(const void *p, size_t n, hipMemoryAdvise advice, int device) {
  HIP_BEGIN();
  if ((advice < hipMemAdviseSetReadMostly || advice > hipMemAdviseUnsetAccessedBy) && advice != hipMemAdviseSetCoarseGrain &&
      advice != hipMemAdviseUnsetCoarseGrain)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "advice %d", (int)advice));
  hip_adv *v;
  size_t lo, hi;
  hipError_t c = adv_pages(p, n, device, &v, &lo, &hi, __func__);
  if (c != hipSuccess) return hip_done(c);
  uint8_t bit = device == hipCpuDeviceId ? 2 : 1;
  for (size_t i = lo; i < hi; i++) switch (advice) {
    case hipMemAdviseSetReadMostly: v[i].rm = 1; break;
    case hipMemAdviseUnsetReadMostly: v[i].rm = 0; break;
    case hipMemAdviseSetPreferredLocation: v[i].pref = (int8_t)device; break;
    case hipMemAdviseUnsetPreferredLocation: v[i].pref = (int8_t)hipInvalidDeviceId; break;
    case hipMemAdviseSetAccessedBy: v[i].acc |= bit; break;
    case hipMemAdviseUnsetAccessedBy: v[i].acc &= (uint8_t)~bit; break;
    case hipMemAdviseSetCoarseGrain: v[i].cg = 1; break;
    default: v[i].cg = 0; break; /* hipMemAdviseUnsetCoarseGrain */
    }
  return hip_done(hipSuccess);
}

/* one attribute of [p, p + n), one of the runtime's allocations (unadvised pages: none of the
 * advice, fine-grained, never prefetched) */
static hipError_t range_attr(void *data, size_t size, hipMemRangeAttribute attr, const void *p, size_t n, const char *fn) {
  if (!data || !size || !p || !n) return hip_complain(fn, hipErrorInvalidValue, "data, dataSize, devPtr or count is NULL or 0");
  bool list = attr == hipMemRangeAttributeAccessedBy;
  if (attr != hipMemRangeAttributeReadMostly && attr != hipMemRangeAttributePreferredLocation && !list &&
      attr != hipMemRangeAttributeLastPrefetchLocation && attr != hipMemRangeAttributeCoherencyMode)
    return hip_complain(fn, hipErrorInvalidValue, "attribute %d", (int)attr);
  if (list ? size % 4 != 0 : size != 4)
    return hip_complain(fn, hipErrorInvalidValue, "dataSize %zu: %s", size, list ? "a non-zero multiple of 4" : "4");
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)p, n);
  /* the coherency mode of any allocation: device memory coarse-grained, host-pinned and registered
   * memory fine-grained (AMD's hip-tests ask it of each, as ROCm answers it); the advice, of managed
   * memory only */
  if (a && a->kind != HIP_MEM_MANAGED && attr == hipMemRangeAttributeCoherencyMode) {
    *(int32_t *)data = a->kind == HIP_MEM_DEVICE ? hipMemRangeCoherencyModeCoarseGrain : hipMemRangeCoherencyModeFineGrain;
    return hipSuccess;
  }
  if (!a || a->kind != HIP_MEM_MANAGED)
    return hip_complain(fn, hipErrorInvalidValue, "[%p, +%zu) is not inside one hipMallocManaged allocation", p, n);
  size_t lo, hi;
  adv_span(a, p, n, &lo, &hi);
  const hip_adv none = {.pref = (int8_t)hipInvalidDeviceId, .last = (int8_t)hipInvalidDeviceId};
  int32_t *out = data;
  int rm = 1, pref = 0, last = 0, cg = 0, acc = 3;
  for (size_t i = lo; i < hi; i++) {
    const hip_adv *v = a->adv ? &a->adv[i] : &none;
    rm &= v->rm, acc &= v->acc;
    if (i == lo) pref = v->pref, last = v->last, cg = v->cg;
    if (v->pref != pref) pref = hipInvalidDeviceId;
    if (v->last != last) last = hipInvalidDeviceId;
    if (v->cg != cg) cg = -1;
  }
  switch (attr) {
  case hipMemRangeAttributeReadMostly: *out = rm; break;
  case hipMemRangeAttributePreferredLocation: *out = pref; break;
  case hipMemRangeAttributeLastPrefetchLocation: *out = last; break;
  case hipMemRangeAttributeCoherencyMode:
    *out = cg < 0 ? hipMemRangeCoherencyModeIndeterminate : cg ? hipMemRangeCoherencyModeCoarseGrain : hipMemRangeCoherencyModeFineGrain;
    break;
  default: { /* the devices advised for the whole range, the device first, then hipInvalidDeviceId */
    size_t k = 0, cap = size / 4;
    if ((acc & 1) && k < cap) out[k++] = 0;
    if ((acc & 2) && k < cap) out[k++] = hipCpuDeviceId;
    while (k < cap) out[k++] = hipInvalidDeviceId;
  }
  }
  return hipSuccess;
}
hipError_t hipMemRangeGetAttribute(void *data, size_t dataSize, hipMemRangeAttribute attribute, const void *devPtr,
                                   size_t count) {
  HIP_BEGIN();
  return hip_done(range_attr(data, dataSize, attribute, devPtr, count, __func__));
}
hipError_t hipMemRangeGetAttributes(void **data, size_t *dataSizes, hipMemRangeAttribute *attributes, size_t numAttributes,
                                    const void *devPtr, size_t count) {
  HIP_BEGIN();
  if (!data || !dataSizes || !attributes || !numAttributes)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "data, dataSizes or attributes NULL, or numAttributes 0"));
  hipError_t e = hipSuccess;
  for (size_t i = 0; i < numAttributes && e == hipSuccess; i++)
    e = range_attr(data[i], dataSizes[i], attributes[i], devPtr, count, __func__);
  return hip_done(e);
}

/* ROCm/clr f9f995c hip_hmm.cpp: a NULL pointer, then a handle that is not a stream
 * (hipErrorContextIsDestroyed), the flags, hipMemAttachSingle on the null stream; a managed
 * allocation is attached whole (length 0 or its size) */
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *p, size_t length, unsigned int flags) {
  HIP_BEGIN();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "dev_ptr is NULL"));
  if (!hip_stream_valid(stream)) return hip_done(hip_stream_gone(__func__, stream));
  hipError_t c = hip_capture_refuse(stream, __func__);
  if (c != hipSuccess) return hip_done(c);
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost && flags != hipMemAttachSingle)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%x", flags));
  if (flags == hipMemAttachSingle && !stream)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "hipMemAttachSingle needs a stream, not the null stream"));
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)p, 1);
  if (a && a->kind == HIP_MEM_MANAGED && length && length != a->size)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "length %zu: 0 or the allocation's whole %zu bytes", length, a->size));
  return hip_done(managed_hint(p, length ? length : 1, 0, NULL, __func__)); /* length 0: the whole allocation */
}

/* ---- copies ---------------------------------------------------------------------------------
 * Each side of a copy is either device-visible memory (inside one emulator buffer: device,
 * pinned, managed or registered memory, or a module's variables) or plain host memory. The kind
 * must agree with what the pointers are (hipMemcpyDefault infers it); a range that starts in a
 * buffer and runs past its end is refused, naming the buffer. */
typedef struct side {
  uint8_t *p;     /* where the bytes are read or written in this process */
  bool dev;       /* device-visible */
  bool dev_only;  /* device memory the host cannot dereference */
} side;

static hipError_t classify(const void *ptr, size_t n, side *s, const char *what, const char *fn) {
  uint64_t a = (uint64_t)(uintptr_t)ptr;
  s->p = hip_host_view(a, n);
  s->dev = s->p != NULL;
  s->dev_only = s->dev && s->p != (const uint8_t *)ptr;
  if (s->dev) return hipSuccess;
  if (hip_host_view(a, 1)) {
    emu_mem *m = rt_device_emu_mem(hip_g.dev);
    const char *nm = m ? emu_mem_name_of(m, a) : NULL;
    return hip_complain(fn, hipErrorInvalidValue, "%s range [%p, +%zu) runs past the end of its buffer (%s)", what, ptr,
                        n, nm ? nm : "?");
  }
  if (a >= EMU_MEM_BASE && a < EMU_MEM_LIMIT)
    return hip_complain(fn, hipErrorInvalidValue, "%s %p is a device address that is not (or no longer) allocated", what, ptr);
  s->p = (uint8_t *)ptr;
  return hipSuccess;
}

static hipError_t do_copy(void *dst, const void *src, size_t n, hipMemcpyKind kind, const char *fn) {
  if (n == 0) return hipSuccess;
  if (!dst || !src) return hip_complain(fn, hipErrorInvalidValue, "%s is NULL", dst ? "src" : "dst");
  side d, s;
  hipError_t e = classify(dst, n, &d, "dst", fn);
  if (e == hipSuccess) e = classify(src, n, &s, "src", fn);
  if (e != hipSuccess) return e;
  const char *kn = kind == hipMemcpyHostToHost ? "hipMemcpyHostToHost" : kind == hipMemcpyHostToDevice ? "hipMemcpyHostToDevice"
                   : kind == hipMemcpyDeviceToHost ? "hipMemcpyDeviceToHost" : "hipMemcpyDeviceToDevice";
  switch ((int)kind) {
  case hipMemcpyDefault: break;
  case hipMemcpyHostToHost:
    if (d.dev_only || s.dev_only)
      return hip_complain(fn, hipErrorInvalidValue, "%s with %s %p in device memory", kn, d.dev_only ? "dst" : "src",
                          d.dev_only ? dst : src);
    break;
  case hipMemcpyHostToDevice:
  case hipMemcpyDeviceToHost:
  case hipMemcpyDeviceToDevice:
  case hipMemcpyDeviceToDeviceNoCU: {
    /* dd / sd: dst / src must be device-visible; the host side must not be device-only memory */
    bool dd = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
    bool sd = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
    if (dd && !d.dev) return hip_complain(fn, hipErrorInvalidValue, "%s: dst %p is not device memory", kn, dst);
    if (sd && !s.dev) return hip_complain(fn, hipErrorInvalidValue, "%s: src %p is not device memory", kn, src);
    if (!dd && d.dev_only) return hip_complain(fn, hipErrorInvalidValue, "%s: dst %p is device memory", kn, dst);
    if (!sd && s.dev_only) return hip_complain(fn, hipErrorInvalidValue, "%s: src %p is device memory", kn, src);
    break;
  }
  default: return hip_complain(fn, hipErrorInvalidMemcpyDirection, "kind %d", (int)kind);
  }
  memmove(d.p, s.p, n);
  if (d.dev) hip_mark_written((uint64_t)(uintptr_t)dst, n);
  return hipSuccess;
}

/* Async operations after a fault that no synchronizing call has seen yet are not performed: on a
 * GPU the queue that faulted runs nothing more; the next synchronizing call returns the fault. */
#define ASYNC_CHECK(stream)                                                                        \
  do {                                                                                             \
    if (!hip_stream_valid(stream)) return hip_done(hip_stream_gone(__func__, stream)); /* ROCm's copies */ \
    hipError_t c_ = hip_capture_refuse(stream, __func__); /* not recorded into a graph */          \
    if (c_ != hipSuccess) return hip_done(c_);                                                     \
    if (hip_g.pending != hipSuccess) return hip_done(hipSuccess);                                 \
  } while (0)
/* the copies and sets a capturing stream records into its graph (hip_graph.c) */
#define CAPTURE_COPY(stream, dst, src, n, kind)                                                    \
  do {                                                                                             \
    if (hip_stream_valid(stream) && hip_capturing(stream))                                         \
      return hip_done(hip_capture_copy(stream, (void *)(dst), (const void *)(src), n, kind));      \
  } while (0)
#define CAPTURE_SET(stream, dst, pattern, esize, count)                                            \
  do {                                                                                             \
    if (hip_stream_valid(stream) && hip_capturing(stream))                                         \
      return hip_done(hip_capture_set(stream, (void *)(dst), pattern, esize, count));              \
  } while (0)
#define SYNC_CHECK()                                                                               \
  do {                                                                                             \
    hipError_t s_ = hip_capture_sync(__func__, hipErrorStreamCaptureImplicit);                     \
    if (s_ == hipSuccess) s_ = hip_sync_point();                                                   \
    if (s_ != hipSuccess) return hip_done(s_);                                                     \
  } while (0)

hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, kind, __func__));
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  HIP_BEGIN();
  CAPTURE_COPY(stream, dst, src, n, kind);
  ASYNC_CHECK(stream);
  return hip_done(do_copy(dst, src, n, kind, __func__));
}

hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  HIP_BEGIN();
  if (!hip_stream_valid(stream)) return hip_done(hip_stream_gone(__func__, stream)); /* ROCm/clr f9f995c */
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, kind, __func__));
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t n) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, hipMemcpyHostToDevice, __func__));
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t n, hipStream_t stream) {
  HIP_BEGIN();
  CAPTURE_COPY(stream, dst, src, n, hipMemcpyHostToDevice);
  ASYNC_CHECK(stream);
  return hip_done(do_copy(dst, src, n, hipMemcpyHostToDevice, __func__));
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t n) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToHost, __func__));
}
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t n, hipStream_t stream) {
  HIP_BEGIN();
  CAPTURE_COPY(stream, dst, src, n, hipMemcpyDeviceToHost);
  ASYNC_CHECK(stream);
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToHost, __func__));
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToDevice, __func__));
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t stream) {
  HIP_BEGIN();
  CAPTURE_COPY(stream, dst, src, n, hipMemcpyDeviceToDevice);
  ASYNC_CHECK(stream);
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToDevice, __func__));
}
hipError_t hipMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t n) {
  HIP_BEGIN();
  if (dstDevice != 0 || srcDevice != 0)
    return hip_done(hip_complain(__func__, hipErrorInvalidDevice, "devices %d and %d: the system has device 0 only", dstDevice, srcDevice));
  SYNC_CHECK();
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToDevice, __func__));
}
hipError_t hipMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t n, hipStream_t stream) {
  HIP_BEGIN();
  if (dstDevice != 0 || srcDevice != 0)
    return hip_done(hip_complain(__func__, hipErrorInvalidDevice, "devices %d and %d: the system has device 0 only", dstDevice, srcDevice));
  ASYNC_CHECK(stream);
  return hip_done(do_copy(dst, src, n, hipMemcpyDeviceToDevice, __func__));
}

static hipError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                          hipMemcpyKind kind, const char *fn) {
  if (width > dpitch || width > spitch)
    return hip_complain(fn, hipErrorInvalidPitchValue, "width %zu exceeds dpitch %zu or spitch %zu", width, dpitch, spitch);
  if (!height || !width) return hipSuccess;
  /* the whole extent of each side first, so nothing is written when a later row would fail */
  side d, s;
  hipError_t e = classify(dst, dpitch * (height - 1) + width, &d, "dst", fn);
  if (e == hipSuccess) e = classify(src, spitch * (height - 1) + width, &s, "src", fn);
  for (size_t r = 0; e == hipSuccess && r < height; r++)
    e = do_copy((uint8_t *)dst + r * dpitch, (const uint8_t *)src + r * spitch, width, kind, fn);
  return e;
}

hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(copy_2d(dst, dpitch, src, spitch, width, height, kind, __func__));
}

/* a capturing stream's 2D copy: a 3-D copy node of one slice */
static hipError_t capture_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                             hipMemcpyKind kind, hipStream_t stream, const char *fn) {
  if (width > dpitch || width > spitch)
    return hip_complain(fn, hipErrorInvalidPitchValue, "width %zu exceeds dpitch %zu or spitch %zu", width, dpitch, spitch);
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr((void *)src, spitch, width, height);
  p.dstPtr = make_hipPitchedPtr(dst, dpitch, width, height);
  p.extent = make_hipExtent(width, height, 1);
  p.kind = kind;
  return hip_capture_copy3d(stream, &p);
}

hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream))
    return hip_done(capture_2d(dst, dpitch, src, spitch, width, height, kind, stream, __func__));
  ASYNC_CHECK(stream);
  return hip_done(copy_2d(dst, dpitch, src, spitch, width, height, kind, __func__));
}

/* The driver API's 2D copy block (hip_Memcpy2D, HIP's fields): each side's start is its host or
 * device pointer by its memory type, plus Y rows of its pitch and XInBytes; then hipMemcpy2D's
 * copy with the kind taken from the pointers. Arrays cannot exist here (hipArrayCreate is refused). */
static hipError_t param2d_side(const char *fn, const char *which, hipMemoryType t, const void *host, hipDeviceptr_t dev,
                               const struct hipArray *arr, size_t x, size_t y, size_t pitch, const void **out) {
  const uint8_t *b;
  switch (t) {
  case hipMemoryTypeHost: b = host; break;
  case hipMemoryTypeDevice:
  case hipMemoryTypeUnified:
  case hipMemoryTypeManaged: b = (const uint8_t *)dev; break;
  case hipMemoryTypeArray:
    return hip_complain(fn, hipErrorInvalidValue, "%s array %p: no array can exist here (hipArrayCreate is not provided)",
                        which, (const void *)arr);
  default: return hip_complain(fn, hipErrorInvalidValue, "%s memory type %d is none of HIP's", which, (int)t);
  }
  if (!b) return hip_complain(fn, hipErrorInvalidValue, "%s pointer is NULL", which);
  *out = b + y * pitch + x;
  return hipSuccess;
}
static hipError_t param2d(const hip_Memcpy2D *p, const void **src, void **dst, const char *fn) {
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "pCopy is NULL");
  const void *d = NULL;
  hipError_t e = param2d_side(fn, "src", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
                              p->srcPitch, src);
  if (e == hipSuccess)
    e = param2d_side(fn, "dst", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY,
                     p->dstPitch, &d);
  if (e == hipSuccess) *dst = (void *)d;
  return e;
}
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy) {
  HIP_BEGIN();
  SYNC_CHECK();
  const void *s = NULL;
  void *d = NULL;
  hipError_t e = param2d(pCopy, &s, &d, __func__);
  if (e == hipSuccess)
    e = copy_2d(d, pCopy->dstPitch, s, pCopy->srcPitch, pCopy->WidthInBytes, pCopy->Height, hipMemcpyDefault, __func__);
  return hip_done(e);
}
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream) {
  HIP_BEGIN();
  const void *s = NULL;
  void *d = NULL;
  hipError_t e = param2d(pCopy, &s, &d, __func__);
  if (e != hipSuccess) return hip_done(e);
  if (hip_stream_valid(stream) && hip_capturing(stream))
    return hip_done(capture_2d(d, pCopy->dstPitch, s, pCopy->srcPitch, pCopy->WidthInBytes, pCopy->Height, hipMemcpyDefault,
                               stream, __func__));
  ASYNC_CHECK(stream);
  return hip_done(copy_2d(d, pCopy->dstPitch, s, pCopy->srcPitch, pCopy->WidthInBytes, pCopy->Height, hipMemcpyDefault,
                          __func__));
}

/* ---- memset -------------------------------------------------------------------------------------*/
static hipError_t do_set(void *dst, const void *pattern, size_t esize, size_t count, const char *fn) {
  if (count == 0) return hipSuccess;
  if (!dst) return hip_complain(fn, hipErrorInvalidValue, "dst is NULL");
  if ((uintptr_t)dst % esize) return hip_complain(fn, hipErrorInvalidValue, "dst %p is not %zu-byte aligned", dst, esize);
  if (count > SIZE_MAX / esize) return hip_complain(fn, hipErrorInvalidValue, "count overflows");
  size_t n = count * esize;
  side d;
  hipError_t e = classify(dst, n, &d, "dst", fn);
  if (e != hipSuccess) return e;
  if (!d.dev) return hip_complain(fn, hipErrorInvalidValue, "dst %p is not device memory", dst);
  if (esize == 1) memset(d.p, *(const uint8_t *)pattern, n);
  else
    for (size_t i = 0; i < count; i++) memcpy(d.p + i * esize, pattern, esize);
  hip_mark_written((uint64_t)(uintptr_t)dst, n);
  return hipSuccess;
}

hipError_t hip_copy(void *dst, const void *src, size_t n, hipMemcpyKind kind, const char *fn) {
  return do_copy(dst, src, n, kind, fn);
}
hipError_t hip_set(void *dst, const void *pattern, size_t esize, size_t count, const char *fn) {
  return do_set(dst, pattern, esize, count, fn);
}

hipError_t hipMemset(void *dst, int value, size_t n) {
  HIP_BEGIN();
  SYNC_CHECK();
  uint8_t v = (uint8_t)value;
  return hip_done(do_set(dst, &v, 1, n, __func__));
}
hipError_t hipMemsetAsync(void *dst, int value, size_t n, hipStream_t stream) {
  HIP_BEGIN();
  uint8_t v = (uint8_t)value;
  CAPTURE_SET(stream, dst, &v, 1, n);
  ASYNC_CHECK(stream);
  return hip_done(do_set(dst, &v, 1, n, __func__));
}
/* hipMemsetD8/D16/D32 and their Async forms: count elements of the value's width */
#define LL_MEMSET_D(name, T, esize)                                                                \
  hipError_t name(hipDeviceptr_t dst, T value, size_t count) {                                     \
    HIP_BEGIN();                                                                                   \
    SYNC_CHECK();                                                                                  \
    return hip_done(do_set(dst, &value, esize, count, __func__));                                  \
  }                                                                                                \
  hipError_t name##Async(hipDeviceptr_t dst, T value, size_t count, hipStream_t stream) {          \
    HIP_BEGIN();                                                                                   \
    CAPTURE_SET(stream, dst, &value, esize, count);                                                \
    ASYNC_CHECK(stream);                                                                           \
    return hip_done(do_set(dst, &value, esize, count, __func__));                                  \
  }
LL_MEMSET_D(hipMemsetD8, unsigned char, 1)
LL_MEMSET_D(hipMemsetD16, unsigned short, 2)
LL_MEMSET_D(hipMemsetD32, int, 4)
#undef LL_MEMSET_D

static hipError_t set_2d(void *dst, size_t pitch, int value, size_t width, size_t height, const char *fn) {
  if (width > pitch) return hip_complain(fn, hipErrorInvalidPitchValue, "width %zu exceeds pitch %zu", width, pitch);
  if (!width || !height) return hipSuccess;
  side d;
  hipError_t e = classify(dst, pitch * (height - 1) + width, &d, "dst", fn);
  uint8_t v = (uint8_t)value;
  for (size_t r = 0; e == hipSuccess && r < height; r++) e = do_set((uint8_t *)dst + r * pitch, &v, 1, width, fn);
  return e;
}

hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(set_2d(dst, pitch, value, width, height, __func__));
}
hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream)) {
    if (height > 1 && width > pitch)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "width %zu exceeds pitch %zu", width, pitch));
    return hip_done(hip_capture_set3d(stream, dst, (uint8_t)value, width, height, pitch, 1, 0));
  }
  ASYNC_CHECK(stream);
  return hip_done(set_2d(dst, pitch, value, width, height, __func__));
}

/* ---- pitched 3D memory ---------------------------------------------------------------------------
 * Linear memory as CUDA and HIP lay it out: byte (x, y, z) of a pitched pointer is at
 * ptr + (z * ysize + y) * pitch + x; extents and x positions count bytes. Each side's whole range
 * is checked before any byte moves, as for the 2D forms. */
hipError_t hipMalloc3D(hipPitchedPtr *pp, hipExtent ex) {
  HIP_BEGIN();
  CAPTURE_UNSAFE();
  if (!pp) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pitchedDevPtr is NULL"));
  void *ptr = NULL;
  size_t p = 0;
  hipError_t e = pitched_alloc(&ptr, &p, ex.width, ex.height, ex.depth, __func__);
  if (e == hipSuccess) *pp = make_hipPitchedPtr(ptr, p, ex.width, ex.height);
  return hip_done(e);
}

/* the byte span a pitched 3D region of ex at pos covers, from its first byte; false on overflow */
static bool span_3d(hipPitchedPtr pp, hipPos pos, hipExtent ex, size_t *first, size_t *len) {
  if (!ex.width || !ex.height || !ex.depth) return *first = *len = 0, true;
  if (pos.x > pp.pitch || ex.width > pp.pitch - pos.x) return false;
  if (pp.ysize && (pos.y > pp.ysize || ex.height > pp.ysize - pos.y)) return false;
  size_t slice = pp.pitch * pp.ysize, zl = pos.z + ex.depth - 1, yl = pos.y + ex.height - 1;
  if (pp.ysize && slice / pp.ysize != pp.pitch) return false;
  *first = pos.z * slice + pos.y * pp.pitch + pos.x;
  *len = zl * slice + yl * pp.pitch + pos.x + ex.width - *first;
  return true;
}

static hipError_t copy_3d(const hipMemcpy3DParms *p, const char *fn);
hipError_t hip_copy_3d(const hipMemcpy3DParms *p, const char *fn) { return copy_3d(p, fn); }
static hipError_t copy_3d(const hipMemcpy3DParms *p, const char *fn) {
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "p is NULL");
  if (p->srcArray || p->dstArray)
    return hip_complain(fn, hipErrorInvalidValue, "srcArray/dstArray: arrays are not provided (the device has no image "
                        "support); copy between pitched pointers");
  hipExtent ex = p->extent;
  if (!ex.width || !ex.height || !ex.depth) return hipSuccess;
  if (ex.depth > 1 && (!p->srcPtr.ysize || !p->dstPtr.ysize))
    return hip_complain(fn, hipErrorInvalidValue, "a copy of %zu slices needs srcPtr.ysize and dstPtr.ysize (the rows "
                        "of a slice)", ex.depth);
  size_t sf, sl, df, dl;
  if (!span_3d(p->srcPtr, p->srcPos, ex, &sf, &sl) || !span_3d(p->dstPtr, p->dstPos, ex, &df, &dl))
    return hip_complain(fn, hipErrorInvalidValue, "the extent (%zu x %zu x %zu bytes) at its position runs past a "
                        "side's pitch or ysize", ex.width, ex.height, ex.depth);
  side d, s;
  hipError_t e = classify((uint8_t *)p->dstPtr.ptr + df, dl, &d, "dstPtr", fn);
  if (e == hipSuccess) e = classify((const uint8_t *)p->srcPtr.ptr + sf, sl, &s, "srcPtr", fn);
  const size_t sslice = p->srcPtr.pitch * p->srcPtr.ysize, dslice = p->dstPtr.pitch * p->dstPtr.ysize;
  for (size_t z = 0; e == hipSuccess && z < ex.depth; z++)
    for (size_t y = 0; e == hipSuccess && y < ex.height; y++)
      e = do_copy((uint8_t *)p->dstPtr.ptr + df + z * dslice + y * p->dstPtr.pitch,
                  (const uint8_t *)p->srcPtr.ptr + sf + z * sslice + y * p->srcPtr.pitch, ex.width, p->kind, fn);
  return e;
}

hipError_t hipMemcpy3D(const hipMemcpy3DParms *p) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(copy_3d(p, __func__));
}
hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream)) {
    if (!p || p->srcArray || p->dstArray)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "p is NULL, or names an array (arrays are not provided)"));
    return hip_done(hip_capture_copy3d(stream, p));
  }
  ASYNC_CHECK(stream);
  return hip_done(copy_3d(p, __func__));
}

static hipError_t set_3d(hipPitchedPtr pp, int value, hipExtent ex, const char *fn) {
  if (!ex.width || !ex.height || !ex.depth) return hipSuccess;
  if (ex.depth > 1 && !pp.ysize)
    return hip_complain(fn, hipErrorInvalidValue, "%zu slices need pitchedDevPtr.ysize (the rows of a slice)", ex.depth);
  size_t f, l;
  if (!span_3d(pp, make_hipPos(0, 0, 0), ex, &f, &l))
    return hip_complain(fn, hipErrorInvalidValue, "the extent (%zu x %zu x %zu bytes) runs past the pitch %zu or ysize %zu",
                        ex.width, ex.height, ex.depth, pp.pitch, pp.ysize);
  side d;
  hipError_t e = classify(pp.ptr, l, &d, "pitchedDevPtr", fn);
  uint8_t v = (uint8_t)value;
  for (size_t z = 0; e == hipSuccess && z < ex.depth; z++)
    for (size_t y = 0; e == hipSuccess && y < ex.height; y++)
      e = do_set((uint8_t *)pp.ptr + (z * pp.ysize + y) * pp.pitch, &v, 1, ex.width, fn);
  return e;
}

hipError_t hipMemset3D(hipPitchedPtr pp, int value, hipExtent ex) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(set_3d(pp, value, ex, __func__));
}
hipError_t hipMemset3DAsync(hipPitchedPtr pp, int value, hipExtent ex, hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream)) {
    if (ex.depth > 1 && !pp.ysize)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%zu slices need pitchedDevPtr.ysize (the rows of a slice)", ex.depth));
    if ((ex.height > 1 && ex.width > pp.pitch) || (ex.depth > 1 && ex.height > pp.ysize))
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the extent (%zu x %zu x %zu bytes) runs past the pitch %zu or ysize %zu",
                                   ex.width, ex.height, ex.depth, pp.pitch, pp.ysize));
    return hip_done(hip_capture_set3d(stream, pp.ptr, (uint8_t)value, ex.width, ex.height, pp.pitch, ex.depth, pp.pitch * pp.ysize));
  }
  ASYNC_CHECK(stream);
  return hip_done(set_3d(pp, value, ex, __func__));
}

/* ---- symbols ----------------------------------------------------------------------------------*/
static hipError_t symbol_range(const void *symbol, size_t n, size_t offset, uint8_t **dev, const char *fn) {
  hip_var *v;
  hipError_t e = hip_var_of(symbol, &v, fn);
  if (e != hipSuccess) return e;
  if (offset > v->size || n > v->size - offset)
    return hip_complain(fn, hipErrorInvalidValue, "%zu bytes at offset %zu run past the end of '%s' (%zu bytes)", n,
                        offset, v->name, v->size);
  *dev = (uint8_t *)(uintptr_t)(v->dev + offset);
  return hipSuccess;
}

/* A copy to (to_dev) or from a symbol: the symbol's range (*d) and the kind's direction */
static hipError_t symbol_side(bool to_dev, const void *symbol, size_t n, size_t offset, hipMemcpyKind kind, uint8_t **d,
                              const char *fn) {
  hipError_t e = symbol_range(symbol, n, offset, d, fn);
  hipMemcpyKind dir = to_dev ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost;
  if (e == hipSuccess && kind != dir && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    e = hip_complain(fn, hipErrorInvalidMemcpyDirection, "kind %d: a copy %s a symbol %s the device", (int)kind,
                     to_dev ? "to" : "from", to_dev ? "goes to" : "comes from");
  return e;
}
/* the checks, then the copy */
static hipError_t symbol_copy(bool to_dev, const void *symbol, void *host, size_t n, size_t offset, hipMemcpyKind kind,
                              const char *fn) {
  uint8_t *d = NULL;
  hipError_t e = symbol_side(to_dev, symbol, n, offset, kind, &d, fn);
  if (e == hipSuccess) e = to_dev ? do_copy(d, host, n, kind, fn) : do_copy(host, d, n, kind, fn);
  return e;
}

hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset, hipMemcpyKind kind) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(symbol_copy(true, symbol, (void *)src, n, offset, kind, __func__));
}

/* a symbol copy on a capturing stream: a 1-D copy node to or from the symbol's device range */
static hipError_t symbol_capture(bool to_dev, const void *symbol, void *host, size_t n, size_t offset, hipMemcpyKind kind,
                                 hipStream_t stream, const char *fn) {
  uint8_t *d = NULL;
  hipError_t e = symbol_side(to_dev, symbol, n, offset, kind, &d, fn);
  if (e != hipSuccess) return e;
  return to_dev ? hip_capture_copy(stream, d, host, n, kind) : hip_capture_copy(stream, host, d, n, kind);
}

hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t offset, hipMemcpyKind kind,
                                  hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream))
    return hip_done(symbol_capture(true, symbol, (void *)src, n, offset, kind, stream, __func__));
  ASYNC_CHECK(stream);
  return hip_done(symbol_copy(true, symbol, (void *)src, n, offset, kind, __func__));
}

hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, hipMemcpyKind kind) {
  HIP_BEGIN();
  SYNC_CHECK();
  return hip_done(symbol_copy(false, symbol, dst, n, offset, kind, __func__));
}

hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream) {
  HIP_BEGIN();
  if (hip_stream_valid(stream) && hip_capturing(stream))
    return hip_done(symbol_capture(false, symbol, dst, n, offset, kind, stream, __func__));
  ASYNC_CHECK(stream);
  return hip_done(symbol_copy(false, symbol, dst, n, offset, kind, __func__));
}

hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol) {
  HIP_BEGIN();
  if (!devPtr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "devPtr is NULL"));
  hip_var *v;
  hipError_t e = hip_var_of(symbol, &v, __func__);
  if (e == hipSuccess) *devPtr = (void *)(uintptr_t)v->dev;
  return hip_done(e);
}

hipError_t hipGetSymbolSize(size_t *size, const void *symbol) {
  HIP_BEGIN();
  if (!size) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "size is NULL"));
  hip_var *v;
  hipError_t e = hip_var_of(symbol, &v, __func__);
  if (e == hipSuccess) *size = v->size;
  return hip_done(e);
}

void hip_memory_reset(void) {
  for (size_t i = 0; i < hip_g.nallocs; i++) {
    hip_alloc *a = &hip_g.allocs[i];
    if (a->map) munmap(a->map, a->map_len);
    free(a->init), free(a->adv);
  }
  free(hip_g.allocs);
  hip_g.allocs = NULL;
  hip_g.nallocs = 0;
}

hipError_t hip_managed_adopt(void *p, size_t size, const char *name) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  if (alloc_at(a)) return hipSuccess;
  char nm[48];
  snprintf(nm, sizeof nm, "__managed__ %.24s (%zu bytes)", name, size);
  ll_err e = {0};
  if (!rt_map_host(hip_g.dev, p, size, nm, &e)) return hip_complain("loading the program's device code", hipErrorOutOfMemory, "%s", e.msg);
  hip_alloc *r = alloc_add((hip_alloc){.addr = a, .size = size, .kind = HIP_MEM_MANAGED, .owned = true});
  snprintf(r->name, sizeof r->name, "%s", nm);
  return hipSuccess;
}

/* ---- leakcheck ----------------------------------------------------------------------------------*/
/* At exit (lanelab exec --leakcheck): every allocation the program made and did not free, one
 * finding each, as compute-sanitizer's leak check reports cudaMalloc memory: device memory,
 * host-pinned and managed memory (hipHostRegister'ed memory is the program's own, not counted).
 * hipDeviceReset frees everything, as HIP's does. */
/* a device heap block (malloc in a kernel, its heap marker followed: runtime/rt_hostcall.c) that no
 * free released: the device's memory until the program ends, so counted as a leak (lanelab's
 * choice, docs/hip-runtime.md "Device malloc and free") */
static void heap_leak(void *user, uint64_t addr, uint64_t size, const char *site) {
  (void)user;
  char line[640];
  snprintf(line, sizeof line, "leakcheck: %llu bytes of the device heap at 0x%llx (malloc in %s) not freed at exit",
           (unsigned long long)size, (unsigned long long)addr, site);
  hip_g.leaks++, hip_g.leak_bytes += size;
  hip_finding_add(line);
}

void hip_leakcheck(void) {
  for (size_t i = 0; i < hip_g.nallocs; i++) {
    const hip_alloc *a = &hip_g.allocs[i];
    if (a->kind == HIP_MEM_REGISTERED || a->owned) continue;
    char line[256];
    snprintf(line, sizeof line, "leakcheck: %zu bytes of %s at 0x%llx ('%s') not freed at exit", a->size,
             kind_name(a->kind), (unsigned long long)a->addr, a->name);
    hip_g.leaks++, hip_g.leak_bytes += a->size;
    hip_finding_add(line); /* the exit handler writes the summary once, after */
  }
  if (hip_g.dev) rt_device_heap_blocks(hip_g.dev, heap_leak, NULL);
}
