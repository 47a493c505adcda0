/* runtime/rt_emu — the emulator backend: device buffers are host buffers registered in an
 * emu_mem; a launch places the kernarg buffer and an HSA kernel dispatch packet in it and runs
 * emu_launch. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime/internal.h"

typedef struct rt_emubuf {
  void *host;
  uint64_t addr;
  size_t size;
  void *map;       /* host_alloc's mapping (NULL: host is from calloc) */
  size_t map_len;
} rt_emubuf;

/* Host memory of a device buffer, zeroed as by calloc. Buffers of 2 MiB and more are anonymous
 * mappings aligned to 2 MiB and advised MADV_HUGEPAGE, so the kernel may back them with 2 MiB
 * pages (Debian's transparent huge pages are "madvise" only): an attention kernel reads K/V rows
 * 8 KiB apart, a new 4 KiB page and TLB entry per row otherwise (issue #16; the first write to a
 * page of an output buffer also clears 2 MiB at once instead of 512 faults). The advice is a
 * hint: memory and results are the same without it. */
#define RT_HUGE ((size_t)2 << 20)
static void *host_alloc(size_t n, void **map, size_t *map_len) {
  *map = NULL, *map_len = 0;
  if (n < RT_HUGE || n > SIZE_MAX - 2 * RT_HUGE) return calloc(n, 1);
  size_t len = (n + RT_HUGE - 1) & ~(RT_HUGE - 1), total = len + RT_HUGE;
  char *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  char *q = (char *)(((uintptr_t)p + RT_HUGE - 1) & ~(uintptr_t)(RT_HUGE - 1));
#ifdef MADV_HUGEPAGE
  (void)madvise(q, len, MADV_HUGEPAGE);
#endif
  *map = p, *map_len = total;
  return q;
}

static void host_free(void *host, void *map, size_t map_len) {
  if (map) munmap(map, map_len);
  else free(host);
}

typedef struct rt_emu {
  emu_mem *mem;
  rt_hostcall *hc; /* the hostcall listener and device heap, from the first launch that needs them */
  rt_emubuf *bufs;
  size_t nbufs;
} rt_emu;

static void *rt_emu_open(emu_arch arch, char *desc, size_t desc_size, ll_err *err) {
  (void)arch, (void)err;
  if (desc && desc_size) desc[0] = 0;
  rt_emu *e = ll_xcalloc(1, sizeof *e);
  e->mem = emu_mem_new();
  return e;
}

static void rt_emu_close(void *impl) {
  rt_emu *e = impl;
  if (!e) return;
  emu_mem_free(e->mem); /* before the host memory it names */
  rt_hostcall_free(e->hc);
  for (size_t i = 0; i < e->nbufs; i++) host_free(e->bufs[i].host, e->bufs[i].map, e->bufs[i].map_len);
  free(e->bufs);
  free(e);
}

static emu_mem *rt_emu_memory(void *impl) { return ((rt_emu *)impl)->mem; }

static uint64_t rt_emu_alloc(void *impl, size_t n, const char *name, ll_err *err) {
  rt_emu *d = impl;
  /* n is often a user's number (`--arg out:N:FILE`): a size the host cannot back is an error
   * naming the buffer, not an abort (ll_xcalloc aborts on out-of-memory) */
  void *map;
  size_t map_len;
  void *host = host_alloc(n, &map, &map_len);
  if (!host) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot allocate an emulator buffer of %zu bytes ('%s')", n, name ? name : "buffer");
    return 0;
  }
  uint64_t addr = emu_mem_map(d->mem, host, n, name ? name : "buffer");
  if (!addr) {
    host_free(host, map, map_len);
    ll_seterr(err, LL_EXIT_FAIL, "emulator memory refused a buffer of %zu bytes ('%s')", n, name ? name : "buffer");
    return 0;
  }
  d->bufs = ll_xrealloc(d->bufs, (d->nbufs + 1) * sizeof *d->bufs);
  d->bufs[d->nbufs++] = (rt_emubuf){host, addr, n, map, map_len};
  return addr;
}

/* The buffer leaves the emulator's memory (a later access to its range faults as unregistered,
 * and its address is never handed out again) and its host memory is released. */
static void rt_emu_free(void *impl, uint64_t addr) {
  rt_emu *d = impl;
  for (size_t i = 0; i < d->nbufs; i++)
    if (d->bufs[i].addr == addr) {
      emu_mem_unmap(d->mem, addr);
      host_free(d->bufs[i].host, d->bufs[i].map, d->bufs[i].map_len);
      d->bufs[i] = d->bufs[--d->nbufs];
      return;
    }
}

static void *rt_emu_host(rt_emu *d, uint64_t addr, size_t n, ll_err *err) {
  for (size_t i = 0; i < d->nbufs; i++) {
    rt_emubuf *b = &d->bufs[i];
    if (addr >= b->addr && addr - b->addr < b->size) {
      if (n > b->size - (addr - b->addr)) {
        ll_seterr(err, LL_EXIT_USAGE, "device range [0x%llx, +%zu) runs past the end of its buffer "
                  "(%zu bytes at 0x%llx)", (unsigned long long)addr, n, b->size, (unsigned long long)b->addr);
        return NULL;
      }
      return (uint8_t *)b->host + (addr - b->addr);
    }
  }
  ll_seterr(err, LL_EXIT_USAGE, "device address 0x%llx is not in any live buffer", (unsigned long long)addr);
  return NULL;
}

/* HSA kernel dispatch packet, 64 bytes (HSA Platform System Architecture Specification,
 * "Kernel Dispatch Packet"; hsa.h hsa_kernel_dispatch_packet_t): header u16 @0, setup u16 @2
 * (dimensions in bits 1:0), workgroup_size_x/y/z u16 @4/6/8, grid_size_x/y/z u32 @12/16/20 in
 * work-items, private_segment_size u32 @24, group_segment_size u32 @28, kernel_object u64 @32,
 * kernarg_address u64 @40, completion_signal u64 @56. */
static void fill_packet(uint8_t *p, const emu_kernel *k, const uint32_t grid[3], const uint32_t block[3],
                        uint32_t dynamic_lds, uint64_t kernarg_addr) {
  memset(p, 0, 64);
  uint16_t header = 2; /* HSA_PACKET_TYPE_KERNEL_DISPATCH */
  uint16_t dims = (grid[2] > 1 || block[2] > 1) ? 3 : (grid[1] > 1 || block[1] > 1) ? 2 : 1;
  memcpy(p + 0, &header, 2);
  memcpy(p + 2, &dims, 2);
  for (int i = 0; i < 3; i++) {
    uint16_t w = (uint16_t)block[i];
    uint32_t g = grid[i] * block[i]; /* fits: checked by rt_launch */
    memcpy(p + 4 + 2 * i, &w, 2);
    memcpy(p + 12 + 4 * i, &g, 4);
  }
  memcpy(p + 24, &k->private_segment_size, 4);
  uint32_t lds = k->group_segment_size + dynamic_lds;
  memcpy(p + 28, &lds, 4);
  memcpy(p + 40, &kernarg_addr, 8);
}

static bool rt_emu_copy(void *impl, uint64_t dev, void *host, size_t n, bool to_device, ll_err *err) {
  void *h = rt_emu_host(impl, dev, n, err);
  if (!h) return false;
  if (to_device) memcpy(h, host, n);
  else memcpy(host, h, n);
  return true;
}

/* A module's image in device memory, relocated: its constant tables and __constant__ /
 * __device__ variables live there, reached PC-relatively (emu_dispatch.image_addr). Writable
 * data keeps its values from launch to launch of this module, as on a GPU. */
typedef struct rt_emu_module {
  uint64_t image_addr;
} rt_emu_module;

static void *rt_emu_load(void *impl, emu_codeobj *co, const void *bytes, size_t n, ll_err *err) {
  (void)bytes, (void)n;
  rt_emu *d = impl;
  char *nm = ll_fmt("code object %s (its .rodata, .data and .bss)", co->path);
  uint64_t addr = rt_emu_alloc(d, co->image_size, nm, err);
  free(nm);
  if (!addr) return NULL;
  uint8_t *h = rt_emu_host(d, addr, co->image_size, NULL);
  memcpy(h, co->image, co->image_size);
  emu_codeobj_relocate(co, h, addr);
  rt_emu_module *m = ll_xcalloc(1, sizeof *m);
  m->image_addr = addr;
  return m;
}

static uint64_t rt_emu_image_addr(void *module) { return ((rt_emu_module *)module)->image_addr; }

static void rt_emu_unload(void *impl, void *module) {
  rt_emu_module *m = module;
  rt_emu_free(impl, m->image_addr);
  free(m);
}

static int rt_emu_run(void *impl, const emu_codeobj *co, void *module, const emu_kernel *k, const uint32_t grid[3],
                   const uint32_t block[3], uint32_t dynamic_lds, uint8_t *kernargs, size_t size,
                   const rt_launch_opts *o, ll_err *err) {
  rt_emu *d = impl;
  const rt_emu_module *mod = module;
  /* the hostcall listener and device heap, made at the first kernel that names them */
  if (!d->hc && (rt_hidden_arg(k, EMU_HK_HOSTCALL_BUFFER) || rt_hidden_arg(k, EMU_HK_HEAP_V1)) &&
      !(d->hc = rt_hostcall_new(d->mem, o ? o->heap_bytes : 0, err)))
    return err ? err->code : LL_EXIT_FAIL;
  if (d->hc && !rt_hostcall_fill(d->hc, k, kernargs, size, err)) return err ? err->code : LL_EXIT_FAIL;
  if (d->hc && o && o->observe && o->heap_initcheck) {
    uint64_t addr, n;
    uint8_t *bits = rt_hostcall_heap_initbits(d->hc, &addr, &n, err);
    if (!bits) return err ? err->code : LL_EXIT_FAIL;
    emu_observer_uninit_in_place(o->observe, addr, n, bits);
  }
  if (d->hc && o && o->observe && o->heap_check) {
    uint64_t addr, n;
    const uint8_t *bits = rt_hostcall_heap_livebits(d->hc, &addr, &n, err);
    if (!bits) return err ? err->code : LL_EXIT_FAIL;
    emu_observer_heap(o->observe, addr, n, bits);
  }
  /* The kernarg segment gets 64 zeroed bytes of slack past its end: the AMDGPU backend widens
   * scalar loads of adjacent kernel arguments (clang-22 emits `s_load_dwordx8` at offset 104 of
   * a 132-byte segment for the gfx950 paged prefill), which is harmless on hardware because
   * ROCr's kernarg pool is mapped well beyond each segment. 64 bytes covers the widest scalar
   * load, s_load_dwordx16. Writes there never reach the kernel's arguments. */
  uint64_t ka = rt_emu_alloc(d, size + 64, "kernarg", err);
  if (!ka) return err ? err->code : LL_EXIT_FAIL;
  uint32_t align = k->kernarg_segment_align ? k->kernarg_segment_align : 16;
  if (ka % align) {
    ll_seterr(err, LL_EXIT_FAIL, "emulator placed the kernarg buffer at 0x%llx, not %u-byte aligned",
              (unsigned long long)ka, align);
    return LL_EXIT_FAIL;
  }
  memcpy(rt_emu_host(d, ka, size, NULL), kernargs, size);
  uint64_t pkt = rt_emu_alloc(d, 64, "dispatch packet", err);
  if (!pkt) return err ? err->code : LL_EXIT_FAIL;
  fill_packet(rt_emu_host(d, pkt, 64, NULL), k, grid, block, dynamic_lds, ka);
  emu_dispatch disp = {.co = co, .kernel = k, .dynamic_lds = dynamic_lds, .kernarg_addr = ka,
                       .dispatch_ptr = pkt, .image_addr = mod->image_addr};
  memcpy(disp.grid, grid, sizeof disp.grid);
  memcpy(disp.block, block, sizeof disp.block);
  emu_launch_opts lo = {0};
  emu_fault local = {0};
  emu_fault *f = o && o->fault ? o->fault : &local;
  memset(f, 0, sizeof *f);
  if (o) {
    lo.insn_budget = o->insn_budget;
    lo.threads = o->threads;
    lo.sched = o->sched;
    lo.on_wave_end = o->on_wave_end;
    lo.user = o->user;
    lo.sched_seed = o->sched_seed;
    lo.snap_pc = o->snap_pc;
    lo.on_snap = o->on_snap;
    lo.observe = o->observe;
    lo.strict_memory = o->strict_memory;
    lo.stack_bytes = o->stack_bytes;
    lo.on_warning = o->on_warning;
    lo.warn_user = o->warn_user;
    lo.cooperative = o->cooperative;
  }
  if (d->hc) {
    lo.on_interrupt = rt_hostcall_interrupt, lo.interrupt_user = d->hc;
    lo.on_heap = rt_hostcall_heap, lo.heap_user = d->hc;
  }
  int rc = emu_launch(d->mem, &disp, &lo, f, o ? o->stats : NULL);
  rt_emu_free(d, pkt);
  rt_emu_free(d, ka);
  if (rc != LL_EXIT_OK) ll_seterr(err, rc, "%s", f->msg[0] ? f->msg : "emulated launch failed without a message");
  return rc;
}

static size_t rt_emu_heap_blocks(void *impl, rt_heap_block_fn fn, void *user) {
  rt_emu *d = impl;
  return d->hc ? rt_hostcall_heap_live(d->hc, fn, user) : 0;
}
static bool rt_emu_heap_where(void *impl, uint64_t addr, char *buf, size_t n) {
  rt_emu *d = impl;
  if (d->hc) rt_hostcall_heap_where(d->hc, addr, buf, n);
  return d->hc != NULL;
}

const rt_backend_ops rt_emu_ops = {
    .id = RT_EMU, .open = rt_emu_open, .close = rt_emu_close, .alloc = rt_emu_alloc, .free = rt_emu_free, .copy = rt_emu_copy,
    .load = rt_emu_load, .unload = rt_emu_unload, .launch = rt_emu_run, .emu_mem = rt_emu_memory,
    .image_addr = rt_emu_image_addr, .heap_blocks = rt_emu_heap_blocks, .heap_where = rt_emu_heap_where,
};
