/* runtime/rt_hostcall — the host side of ROCm's hostcall and the device heap, for the emulator
 * backend (docs/hip-runtime.md "Device malloc and free").
 *
 * A kernel that calls malloc or free (ROCm's device library, ockl: __ockl_dm_alloc/_dealloc) has
 * two hidden arguments: hidden_heap_v1, the heap's state that ockl keeps in device memory (zeroed
 * once, kept from launch to launch, as ROCm's 128 KiB HeapBuffer is), and hidden_hostcall_buffer,
 * through which ockl asks the host for memory (its devmem service) when its slabs run out and for
 * blocks larger than it serves itself. The protocol is ROCm's (ROCm/clr
 * rocclr/device/devhostcall.cpp and ockl's hostcall_impl.cl, ROCm 5.2.3's ockl.bc as Debian ships
 * it; facts, not code, carried over):
 *   buffer: { headers*, payloads*, doorbell signal, free_stack, ready_stack, index_mask } (48 B),
 *   header: { next, activemask, service (u32), control (u32, bit 0: ready) } (24 B),
 *   payload: 64 lanes x 8 u64 (4 KiB);
 *   stacks hold packet indices (low bits, index_mask) with a tag above them; the free stack starts
 *   as headers[n-1] -> ... -> headers[1] -> headers[0], headers[1].next tagged so that no entry is 0.
 * A wave pops a packet off the free stack, fills its lanes' slots, sets the ready bit, pushes it on
 * the ready stack, adds 1 to the doorbell signal and, the signal having an event mailbox, writes
 * the event id there and sends s_sendmsg(MSG_INTERRUPT); it then waits for the ready bit to clear,
 * reads slots [0] and [1] of its lanes and pushes the packet back on the free stack. The emulator
 * delivers the interrupt to rt_hostcall_interrupt (emu_launch_opts.on_interrupt) before the wave's
 * next instruction: it takes the whole ready stack, serves every active lane of every packet on it,
 * and clears each ready bit (as ROCm's listener thread does, without its wait).
 *
 * Services: devmem (3): slot [0] nonzero frees that block, else slot [1] bytes are allocated and
 * slot [0] answers the address, 0 when the heap is full (malloc then returns NULL). The blocks come
 * from one region of emulator memory, "device heap": ROCm makes each block a buffer of its own and
 * has no bound but the device's memory; here the region is mapped before the first launch that
 * needs it (emulator memory is not remapped while a launch runs), max(hipLimitMallocHeapSize,
 * 256 MiB) rounded up to 2 MiB, reserved (pages are the host's only once touched), and accesses
 * between blocks inside it do not fault (as on the GPU, whose pages hold them). ockl takes slabs
 * freely (AMD's hip-tests' 2048 threads of 128-byte blocks took 16 slabs, 32 MiB), hence the size;
 * --racecheck=global does not shadow the region (emu_mem_map_unshadowed). A free of an address no devmem answer gave faults the wave ("hostcall"), where
 * ROCm logs an error.
 *
 * printf (2), ROCm's default device printf (clang -mprintf-kind=hostcall; lanelab hipcc's default is
 * the buffered form, rt_printf.c): each lane's call is a message of one or more packets, each slot
 * [0] a descriptor (bit 0 begin, bit 1 end, bits 7:5 the count of words that follow in slots
 * [1..7], bits 63:8 the message's id, which the host assigns at the begin packet and answers in
 * slot [0] for the next ones: ROCm/clr devhcmessages.cpp); the whole message is a control word
 * (bit 0: stderr), the format string (NUL, padded to 8 bytes) and the arguments as the buffered
 * records lay them out. At the end packet the call is formatted (rt_printf_format), written to
 * stdout or stderr at once, and slot [0] answers its character count (ROCm/clr devhcprintf.cpp), -1
 * for a message that does not parse (a warning names it); a message past 1 MiB faults the wave. Function calls (1) and any other service
 * fault: a host function pointer cannot run here. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pthread.h>

#include "runtime/internal.h"

enum { HC_PACKETS = 256, HC_HDR = 24, HC_PAYLOAD = 64 * 8 * 8, HC_BUF_HDR = 48 };
enum { SERVICE_FUNCTION_CALL = 1, SERVICE_PRINTF = 2, SERVICE_DEVMEM = 3 };
#define HC_HEAP_STATE (128u << 10)   /* ROCm's HeapBuffer: ockl 5.2.3's state is 100,872 bytes */
#define HC_ARENA_MIN ((uint64_t)256 << 20)
#define HC_SLAB ((uint64_t)2 << 20)  /* ockl's slab: blocks this large are aligned to it */
#define HC_EVENT_ID 1u
#define HC_MSG_MAX ((size_t)1 << 20) /* a printf message's bytes at most (its format and arguments) */

typedef struct hc_block { uint64_t off, size; } hc_block;
/* a block lanelab's heap markers reported (hip/include/hip/lanelab_hip_heap.h): state 1 live, 2
 * freed (kept, so that a second free names the first; a later malloc of the address makes it live
 * again); sites index hc_site */
typedef struct hc_tracked { uint64_t addr, size; uint32_t alloc_site, free_site; uint8_t state; } hc_tracked;
typedef struct hc_msg { ll_buf data; bool live; } hc_msg; /* a printf message being assembled */

struct rt_hostcall {
  pthread_mutex_t mu;
  uint8_t *buf;         /* the hostcall buffer, headers and payloads (host view) */
  uint64_t buf_addr;
  size_t buf_size;
  uint8_t *sig;         /* the doorbell: an amd_signal_t (64 B) and its event mailbox (8 B at +64) */
  uint64_t sig_addr;
  uint8_t *heap;        /* hidden_heap_v1 */
  uint64_t heap_addr;
  void *arena_map;      /* the devmem service's region (a mapping one slab larger, for the alignment) */
  size_t arena_map_len;
  uint64_t arena_map_addr, arena_addr, arena_size;
  hc_block *blk;        /* blocks handed out, sorted by offset */
  size_t nblk, capblk;
  hc_msg *msg;          /* printf messages by id (the descriptor's bits 63:8) */
  size_t nmsg;
  emu_mem *mem;         /* to name what a bad free's address lies in */
  hc_tracked *trk;      /* open addressing by address (never 0), ntrk of cap used; entries are never
                           removed (freed ones stay, state 2) */
  size_t ntrk, captrk, nlive;
  struct hc_site {       /* a marker's place: where its code object is loaded, its PC and kernel, and
                           "kernel K at FILE:LINE" (or "pc 0x..." without a line table), formed at its
                           first event */
    uint64_t image_addr, pc;
    const char *kernel;
    char *text;
  } *site;
  size_t nsite;
  uint8_t *initbits;    /* initcheck's bitmap of the region (rt_hostcall_heap_initbits), NULL until asked */
  uint8_t *livebits;    /* heapcheck's bitmap of the region (rt_hostcall_heap_livebits), NULL until asked */
};

static void *zmap(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static uint64_t arena_bytes(uint64_t heap_limit) {
  uint64_t a = heap_limit > HC_ARENA_MIN ? heap_limit : HC_ARENA_MIN;
  return (a + HC_SLAB - 1) & ~(HC_SLAB - 1);
}

rt_hostcall *rt_hostcall_new(emu_mem *mem, uint64_t heap_limit, ll_err *err) {
  rt_hostcall *h = ll_xcalloc(1, sizeof *h);
  pthread_mutex_init(&h->mu, NULL);
  h->mem = mem;
  h->buf_size = HC_BUF_HDR + HC_PACKETS * HC_HDR + HC_PACKETS * (size_t)HC_PAYLOAD;
  h->arena_size = arena_bytes(heap_limit);
  h->arena_map_len = h->arena_size + HC_SLAB;
  h->buf = zmap(h->buf_size);
  h->sig = zmap(4096);
  h->heap = zmap(HC_HEAP_STATE);
  h->arena_map = zmap(h->arena_map_len);
  if (!h->buf || !h->sig || !h->heap || !h->arena_map) {
    ll_seterr(err, LL_EXIT_ENV, "cannot map the device heap's %llu MiB and hostcall buffer (mmap failed)",
              (unsigned long long)(h->arena_size >> 20));
    rt_hostcall_free(h);
    return NULL;
  }
  h->buf_addr = emu_mem_map(mem, h->buf, h->buf_size, "hostcall buffer");
  h->sig_addr = emu_mem_map(mem, h->sig, 72, "hostcall doorbell signal");
  h->heap_addr = emu_mem_map(mem, h->heap, HC_HEAP_STATE, "device heap state (ockl)");
  /* the region's device address is 64 KiB aligned (emu_mem_map); slabs want 2 MiB: the region
   * starts at the first 2 MiB boundary of a mapping one slab larger */
  h->arena_map_addr = emu_mem_map_unshadowed(mem, h->arena_map, h->arena_map_len, "device heap (malloc in kernels)");
  if (!h->buf_addr || !h->sig_addr || !h->heap_addr || !h->arena_map_addr) {
    ll_seterr(err, LL_EXIT_FAIL, "emulator memory refused the device heap and hostcall buffer");
    const uint64_t mapped[4] = {h->buf_addr, h->sig_addr, h->heap_addr, h->arena_map_addr};
    for (int i = 0; i < 4; i++)
      if (mapped[i]) emu_mem_unmap(mem, mapped[i]); /* before their host memory goes */
    rt_hostcall_free(h);
    return NULL;
  }
  const uint64_t a = h->arena_map_addr;
  h->arena_addr = (a + HC_SLAB - 1) & ~(HC_SLAB - 1);
  /* the buffer as ROCm's HostcallBuffer::initialize lays it out */
  uint64_t hdr = h->buf_addr + HC_BUF_HDR, pay = hdr + HC_PACKETS * HC_HDR, mask = HC_PACKETS - 1;
  uint64_t doorbell = h->sig_addr, next = mask + 1;
  memcpy(h->buf + 0, &hdr, 8);
  memcpy(h->buf + 8, &pay, 8);
  memcpy(h->buf + 16, &doorbell, 8);
  memcpy(h->buf + 40, &mask, 8);
  uint8_t *H = h->buf + HC_BUF_HDR;
  memset(H, 0, 8); /* headers[0].next */
  for (uint64_t i = 1; i < HC_PACKETS; i++) {
    memcpy(H + i * HC_HDR, &next, 8);
    next = i;
  }
  memcpy(h->buf + 24, &next, 8); /* free_stack */
  /* the doorbell: kind 1 (user signal), value 0, its event mailbox (8 bytes after it) and id */
  uint64_t kind = 1, mbox = h->sig_addr + 64;
  uint32_t ev = HC_EVENT_ID;
  memcpy(h->sig + 0, &kind, 8);
  memcpy(h->sig + 16, &mbox, 8);
  memcpy(h->sig + 24, &ev, 4);
  return h;
}

void rt_hostcall_free(rt_hostcall *h) {
  if (!h) return;
  if (h->buf) munmap(h->buf, h->buf_size);
  if (h->sig) munmap(h->sig, 4096);
  if (h->heap) munmap(h->heap, HC_HEAP_STATE);
  if (h->livebits) munmap(h->livebits, h->arena_size / 8);
  if (h->arena_map) munmap(h->arena_map, h->arena_map_len);
  pthread_mutex_destroy(&h->mu);
  free(h->blk);
  for (size_t i = 0; i < h->nmsg; i++) ll_buf_free(&h->msg[i].data);
  free(h->msg);
  free(h->trk);
  if (h->initbits) munmap(h->initbits, h->arena_size / 8);
  for (size_t i = 0; i < h->nsite; i++) free(h->site[i].text);
  free(h->site);
  free(h);
}

static bool put_addr(const emu_kernel *k, uint8_t hk, uint64_t v, uint8_t *kernarg, size_t size, ll_err *err) {
  const emu_kernarg *a = rt_hidden_arg(k, hk);
  if (!a) return true;
  if (!rt_hidden_ptr_fits(k, a, size, err)) return false;
  memcpy(kernarg + a->offset, &v, 8);
  return true;
}

bool rt_hostcall_fill(rt_hostcall *h, const emu_kernel *k, uint8_t *kernarg, size_t size, ll_err *err) {
  return put_addr(k, EMU_HK_HOSTCALL_BUFFER, h->buf_addr, kernarg, size, err) &&
         put_addr(k, EMU_HK_HEAP_V1, h->heap_addr, kernarg, size, err);
}

/* ---- the devmem service: first fit in the region, blocks of a slab or more slab aligned -------- */
static uint64_t devmem_alloc(rt_hostcall *h, uint64_t n) {
  if (!n || n > h->arena_size) return 0;
  uint64_t align = n >= HC_SLAB ? HC_SLAB : 4096, size = (n + 4095) & ~(uint64_t)4095;
  uint64_t at = 0;
  size_t i = 0;
  for (;; i++) {
    at = (at + align - 1) & ~(align - 1);
    uint64_t end = i < h->nblk ? h->blk[i].off : h->arena_size;
    if (end >= at && end - at >= size) break;
    if (i == h->nblk) return 0;
    at = h->blk[i].off + h->blk[i].size;
  }
  if (h->nblk == h->capblk) {
    h->capblk = h->capblk ? 2 * h->capblk : 64;
    h->blk = ll_xrealloc(h->blk, h->capblk * sizeof *h->blk);
  }
  memmove(h->blk + i + 1, h->blk + i, (h->nblk - i) * sizeof *h->blk);
  h->blk[i] = (hc_block){at, size};
  h->nblk++;
  return h->arena_addr + at;
}

static bool devmem_free(rt_hostcall *h, uint64_t addr) {
  if (addr < h->arena_addr || addr >= h->arena_addr + h->arena_size) return false;
  uint64_t off = addr - h->arena_addr;
  size_t lo = 0, hi = h->nblk;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (h->blk[mid].off < off) lo = mid + 1;
    else hi = mid;
  }
  if (lo == h->nblk || h->blk[lo].off != off) return false;
  memmove(h->blk + lo, h->blk + lo + 1, (h->nblk - lo - 1) * sizeof *h->blk);
  h->nblk--;
  return true;
}

/* one printf packet of a lane (slot [0] its descriptor); see the top of the file */
static int serve_printf(rt_hostcall *h, uint64_t *slot, unsigned lane, char *msg, size_t msgn) {
  uint64_t desc = slot[0], id = desc >> 8;
  unsigned len = (unsigned)(desc >> 5 & 7);
  hc_msg *m = NULL;
  if (desc & 1) {
    for (id = 0; id < h->nmsg && h->msg[id].live; id++) {
    }
    if (id == h->nmsg) {
      h->msg = ll_xrealloc(h->msg, ++h->nmsg * sizeof *h->msg);
      h->msg[id] = (hc_msg){{0}, false};
    }
    m = &h->msg[id];
    m->live = true;
    m->data.len = 0;
    slot[0] = (desc & ~(uint64_t)1 & 0xff) | id << 8;
  } else if (id < h->nmsg && h->msg[id].live) {
    m = &h->msg[id];
  } else {
    snprintf(msg, msgn, "device printf (hostcall, lane %u): a packet of message %llu, which no begin packet opened", lane,
             (unsigned long long)id);
    return 1;
  }
  if (m->data.len + len * 8u > HC_MSG_MAX) {
    snprintf(msg, msgn, "device printf (hostcall, lane %u): a message past %zu bytes (its format and arguments)", lane,
             HC_MSG_MAX);
    m->live = false;
    return 1;
  }
  ll_buf_put(&m->data, slot + 1, len * 8u);
  if (!(desc & 2)) return 0;
  /* the whole call: control, format, arguments */
  const uint8_t *d = (const uint8_t *)m->data.data, *end = d + m->data.len;
  ll_buf out = {0};
  char why[256] = "";
  const uint8_t *z = m->data.len > 8 ? memchr(d + 8, 0, m->data.len - 8) : NULL;
  uint64_t control = 0;
  if (m->data.len >= 8) memcpy(&control, d, 8);
  bool ok = z && control <= 1;
  if (ok) ok = rt_printf_format((const char *)d + 8, d + 8 + ((size_t)(z - (d + 8)) + 1 + 7) / 8 * 8, end, &out, why,
                                sizeof why);
  else snprintf(why, sizeof why, "%s", control > 1 ? "an unknown control word" : "no NUL-terminated format");
  FILE *f = control & 1 ? stderr : stdout;
  if (out.len) fwrite(out.data, 1, out.len, f), fflush(f);
  if (!ok) fprintf(stderr, "lanelab: warning: device printf (hostcall, lane %u): %s\n", lane, why);
  slot[0] = ok ? (uint64_t)(int64_t)out.len : (uint64_t)(int64_t)-1;
  ll_buf_free(&out);
  m->live = false;
  return 0;
}

static int serve(rt_hostcall *h, uint32_t service, uint64_t *slot, unsigned lane, char *msg, size_t msgn) {
  switch (service) {
  case SERVICE_DEVMEM:
    if (slot[0]) {
      if (!devmem_free(h, slot[0])) {
        snprintf(msg, msgn, "free of 0x%llx (lane %u): no device malloc returned this address (ockl's devmem "
                 "service, the device heap)", (unsigned long long)slot[0], lane);
        return 1;
      }
      slot[0] = 0;
    } else if (slot[1]) {
      slot[0] = devmem_alloc(h, slot[1]);
    } else {
      snprintf(msg, msgn, "devmem request with neither an address nor a size (lane %u)", lane);
      return 1;
    }
    return 0;
  case SERVICE_PRINTF:
    return serve_printf(h, slot, lane, msg, msgn);
  case SERVICE_FUNCTION_CALL:
    snprintf(msg, msgn, "hostcall service 1 (a call of host function 0x%llx) is not provided: a host function "
             "cannot run from emulated device code", (unsigned long long)slot[0]);
    return 1;
  default:
    snprintf(msg, msgn, "hostcall service %u is not provided (lanelab serves devmem, 3)", service);
    return 1;
  }
}

int rt_hostcall_interrupt(void *user, uint32_t event_id, char *msg, size_t msgn) {
  rt_hostcall *h = user;
  if (event_id != HC_EVENT_ID) return 0; /* not the doorbell's: no host listens for it */
  pthread_mutex_lock(&h->mu);
  int rc = 0;
  uint64_t *rs = (uint64_t *)(void *)(h->buf + 32);
  uint64_t top = __atomic_exchange_n(rs, 0, __ATOMIC_ACQUIRE);
  const uint64_t mask = HC_PACKETS - 1;
  uint8_t *H = h->buf + HC_BUF_HDR, *P = H + HC_PACKETS * HC_HDR;
  for (uint64_t it = top, next; it; it = next) {
    uint8_t *hd = H + (it & mask) * HC_HDR;
    uint64_t am;
    uint32_t service;
    memcpy(&next, hd, 8);
    memcpy(&am, hd + 8, 8);
    memcpy(&service, hd + 16, 4);
    uint64_t *slots = (uint64_t *)(void *)(P + (it & mask) * HC_PAYLOAD);
    for (; am && !rc; am &= am - 1) {
      unsigned lane = (unsigned)__builtin_ctzll(am);
      rc = serve(h, service, slots + 8 * lane, lane, msg, msgn);
    }
    uint32_t *ctl = (uint32_t *)(void *)(hd + 20);
    __atomic_store_n(ctl, __atomic_load_n(ctl, __ATOMIC_RELAXED) & ~1u, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&h->mu);
  return rc;
}

/* ---- the blocks lanelab's heap markers report (emu_launch_opts.on_heap) -------------------------
 * ockl hands out small blocks from its slabs without asking the host, so the devmem service above
 * sees slabs, not blocks. lanelab's HIP headers mark each malloc and free (emu.h EMU_HEAP_TAG) and
 * this table follows them: the leak check at exit lists what is live, and a free of an address that
 * is not a live block faults at the free, naming its line, before ockl touches its state. Code
 * without the markers (built by ROCm's hipcc) is not followed. */
static uint64_t trk_hash(uint64_t a) { return (a >> 4) * 0x9e3779b97f4a7c15ull; }
static hc_tracked *trk_find(rt_hostcall *h, uint64_t addr, bool add) {
  if (add && (h->ntrk + 1) * 4 > h->captrk * 3) {
    size_t cap = h->captrk ? 2 * h->captrk : 1024;
    hc_tracked *t = ll_xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < h->captrk; i++) {
      if (!h->trk[i].addr) continue;
      size_t j = trk_hash(h->trk[i].addr) & (cap - 1);
      while (t[j].addr) j = (j + 1) & (cap - 1);
      t[j] = h->trk[i];
    }
    free(h->trk);
    h->trk = t, h->captrk = cap;
  }
  if (!h->captrk) return NULL;
  for (size_t j = trk_hash(addr) & (h->captrk - 1);; j = (j + 1) & (h->captrk - 1)) {
    if (h->trk[j].addr == addr) return &h->trk[j];
    if (!h->trk[j].addr) {
      if (!add) return NULL;
      h->ntrk++;
      h->trk[j] = (hc_tracked){.addr = addr};
      return &h->trk[j];
    }
  }
}

/* "kernel K at FILE:LINE": the marker's line is inside lanelab_hip_heap.h's malloc or free, inlined
 * at the program's call, which is the line named ("H:29 (inlined at F:L)" -> "F:L"). The line
 * table is read and the name demangled once a place (a marker runs at every malloc and free): a
 * place is its code object's load address, which emulator memory never hands out again while the
 * device lives (so an unloaded module's places cannot be taken for a later one's), its PC and its
 * kernel (a device function called by several kernels holds one marker). */
static uint32_t site_of(rt_hostcall *h, const emu_heap_event *e) {
  for (size_t i = h->nsite; e->image_addr && i-- > 0;)
    if (h->site[i].image_addr == e->image_addr && h->site[i].pc == e->pc && h->site[i].kernel == e->kernel)
      return (uint32_t)i;
  char s[512], line[320] = "", *dm = emu_demangle(e->kernel);
  if (e->co) emu_codeobj_srcline(e->co, e->pc, line, sizeof line);
  const char *src = line, *in = strstr(src, " (inlined at ");
  int n = (int)strlen(src);
  if (in && strstr(src, "lanelab_hip_heap.h:") && strstr(src, "lanelab_hip_heap.h:") < in) {
    src = in + strlen(" (inlined at ");
    n = (int)strlen(src) - 1; /* its closing parenthesis */
  }
  if (src[0]) snprintf(s, sizeof s, "kernel %s at %.*s", dm ? dm : e->kernel, n, src);
  else snprintf(s, sizeof s, "kernel %s pc 0x%llx", dm ? dm : e->kernel, (unsigned long long)e->pc);
  free(dm);
  for (size_t i = h->nsite; !e->image_addr && i-- > 0;) /* no load address to tell places apart: by their text */
    if (!strcmp(h->site[i].text, s)) return (uint32_t)i;
  h->site = ll_xrealloc(h->site, (h->nsite + 1) * sizeof *h->site);
  h->site[h->nsite] = (struct hc_site){e->image_addr, e->pc, e->kernel, ll_xstrdup(s)};
  return (uint32_t)h->nsite++;
}

/* bits [a, a + n) of the region's bitmap bm set (on) or cleared: atomically, as the observer reads
 * and sets other bits of the same bytes from other workers. initcheck's bitmap (bit set: written)
 * clears a new block's bits; heapcheck's (bit set: inside a live block) sets them at its malloc and
 * clears them at its free. */
static void region_bits(const rt_hostcall *h, uint8_t *bm, uint64_t a, uint64_t n, bool on) {
  if (a < h->arena_addr || a - h->arena_addr >= h->arena_size) return;
  uint64_t lo = a - h->arena_addr, hi = n > h->arena_size - lo ? h->arena_size : lo + n;
  for (uint64_t i = lo; i < hi;) {
    if (i % 8 == 0 && hi - i >= 8) {
      const uint64_t e = hi / 8; /* whole bitmap bytes of this block's bytes only */
      for (uint64_t j = i / 8; j < e; j++) __atomic_store_n(&bm[j], on ? 0xff : 0, __ATOMIC_RELAXED);
      i = e * 8;
      continue;
    }
    if (on) __atomic_or_fetch(&bm[i / 8], (uint8_t)(1u << (i % 8)), __ATOMIC_RELAXED);
    else __atomic_and_fetch(&bm[i / 8], (uint8_t) ~(1u << (i % 8)), __ATOMIC_RELAXED);
    i++;
  }
}

/* a check's bitmap of the region, made (mapped, then filled by fill) at the first call under the
 * lock; NULL with err when it cannot be mapped */
static uint8_t *region_bitmap(rt_hostcall *h, uint8_t **bm, void (*fill)(rt_hostcall *), const char *check, uint64_t *addr,
                              uint64_t *size, ll_err *err) {
  pthread_mutex_lock(&h->mu);
  if (!*bm && (*bm = zmap(h->arena_size / 8))) fill(h);
  pthread_mutex_unlock(&h->mu);
  if (!*bm) {
    ll_seterr(err, LL_EXIT_ENV, "cannot map %s's %llu MiB bitmap of the device heap (mmap failed)", check,
              (unsigned long long)(h->arena_size >> 23));
    return NULL;
  }
  *addr = h->arena_addr, *size = h->arena_size;
  return *bm;
}
static void all_written(rt_hostcall *h) { memset(h->initbits, 0xff, h->arena_size / 8); }
static void live_blocks(rt_hostcall *h) { /* the blocks live before the check began */
  for (size_t i = 0; i < h->captrk; i++)
    if (h->trk[i].state == 1) region_bits(h, h->livebits, h->trk[i].addr, h->trk[i].size, true);
}
uint8_t *rt_hostcall_heap_livebits(rt_hostcall *h, uint64_t *addr, uint64_t *size, ll_err *err) {
  return region_bitmap(h, &h->livebits, live_blocks, "heapcheck", addr, size, err);
}
uint8_t *rt_hostcall_heap_initbits(rt_hostcall *h, uint64_t *addr, uint64_t *size, ll_err *err) {
  return region_bitmap(h, &h->initbits, all_written, "initcheck", addr, size, err);
}

/* what the heap byte at addr belongs to, for a heapcheck finding, as the blocks stand at the launch's
 * end: inside a freed block, a use after free; past the bytes the nearest block below asked for, an
 * access past that block's end */
void rt_hostcall_heap_where(rt_hostcall *h, uint64_t addr, char *buf, size_t n) {
  pthread_mutex_lock(&h->mu);
  const hc_tracked *in = NULL, *below = NULL;
  for (size_t i = 0; i < h->captrk; i++) {
    const hc_tracked *t = &h->trk[i];
    if (!t->addr || t->addr > addr) continue;
    if (addr - t->addr < t->size && (!in || t->addr > in->addr)) in = t;
    if (!below || t->addr > below->addr) below = t;
  }
  if (in && in->state == 2)
    snprintf(buf, n, "byte %llu of a block of %llu bytes from malloc in %s, freed in %s: a use after free",
             (unsigned long long)(addr - in->addr), (unsigned long long)in->size, h->site[in->alloc_site].text,
             h->site[in->free_site].text);
  else if (in) /* live again: freed and handed out again after the access */
    snprintf(buf, n, "byte %llu of a block of %llu bytes from malloc in %s, handed out again after the access",
             (unsigned long long)(addr - in->addr), (unsigned long long)in->size, h->site[in->alloc_site].text);
  else if (below)
    snprintf(buf, n, "byte %llu past the end of a block of %llu bytes from malloc in %s%s%s",
             (unsigned long long)(addr - below->addr - below->size), (unsigned long long)below->size,
             h->site[below->alloc_site].text, below->state == 2 ? ", freed since in " : "",
             below->state == 2 ? h->site[below->free_site].text : "");
  else
    snprintf(buf, n, "below every block a device malloc handed out");
  pthread_mutex_unlock(&h->mu);
}

int rt_hostcall_heap(void *user, emu_heap_event *e, char *msg, size_t msgn) {
  rt_hostcall *h = user;
  pthread_mutex_lock(&h->mu);
  const uint32_t site = site_of(h, e);
  int rc = 0;
  for (uint64_t m = e->exec; m && !rc; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const uint64_t a = e->ptr[l];
    if (e->op == EMU_HEAP_ALLOC) {
      if (!a) continue; /* malloc returned NULL: no block */
      hc_tracked *t = trk_find(h, a, true);
      if (t->state != 1) h->nlive++;
      t->state = 1, t->size = e->size[l], t->alloc_site = site;
      if (h->initbits) region_bits(h, h->initbits, a, e->size[l], false); /* unwritten */
      if (h->livebits) region_bits(h, h->livebits, a, e->size[l], true);
      continue;
    }
    hc_tracked *t = trk_find(h, a, false);
    if (t && t->state == 1) {
      t->state = 2, t->free_site = site;
      if (h->livebits) region_bits(h, h->livebits, t->addr, t->size, false);
      h->nlive--;
      continue;
    }
    const char *in = emu_mem_name_of(h->mem, a);
    if (t)
      snprintf(msg, msgn, "free of 0x%llx (lane %d), a block of %llu bytes from malloc in %s, freed before in %s: a "
               "double free", (unsigned long long)a, l, (unsigned long long)t->size, h->site[t->alloc_site].text,
               h->site[t->free_site].text);
    else
      snprintf(msg, msgn, "free of 0x%llx (lane %d): no device malloc returned this address%s%s%s", (unsigned long long)a,
               l, in ? " (it lies in '" : "", in ? in : "", in ? "')" : "");
    e->lane = l, e->addr = a;
    rc = 1;
  }
  pthread_mutex_unlock(&h->mu);
  return rc;
}

static int by_addr(const void *x, const void *y) {
  const hc_tracked *a = x, *b = y;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

size_t rt_hostcall_heap_live(rt_hostcall *h, rt_heap_block_fn fn, void *user) {
  pthread_mutex_lock(&h->mu);
  hc_tracked *v = ll_xmalloc((h->nlive ? h->nlive : 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < h->captrk && n < h->nlive; i++)
    if (h->trk[i].state == 1) v[n++] = h->trk[i];
  qsort(v, n, sizeof *v, by_addr);
  for (size_t i = 0; i < n && fn; i++) fn(user, v[i].addr, v[i].size, h->site[v[i].alloc_site].text);
  pthread_mutex_unlock(&h->mu);
  free(v);
  return n;
}
