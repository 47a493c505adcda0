/* runtime/internal — what the runtime's files share; not part of the contract (rt.h is). */
#ifndef LANELAB_RT_INTERNAL_H
#define LANELAB_RT_INTERNAL_H

#include "runtime/rt.h"

/* A backend is a table of operations over its own state (`impl`); rt.c calls backends only
 * through it, and no backend calls back into rt.c, so the dependencies go one way. Each
 * backend's file defines its table. copy moves n bytes between host and device: to_device ?
 * (dev <- host) : (host <- dev). load returns the backend's module (NULL: failed, err set);
 * load/unload may be NULL (no per-module state); emu_mem NULL
 * when the backend has no emulator memory. */
typedef struct rt_backend_ops {
  rt_backend id;
  void *(*open)(emu_arch arch, char *desc, size_t desc_size, ll_err *err);
  void (*close)(void *impl);
  uint64_t (*alloc)(void *impl, size_t n, const char *name, ll_err *err);
  void (*free)(void *impl, uint64_t addr);
  bool (*copy)(void *impl, uint64_t dev, void *host, size_t n, bool to_device, ll_err *err);
  void *(*load)(void *impl, emu_codeobj *co, const void *bytes, size_t n, ll_err *err);
  void (*unload)(void *impl, void *module);
  int (*launch)(void *impl, const emu_codeobj *co, void *module, const emu_kernel *k, const uint32_t grid[3],
                const uint32_t block[3], uint32_t dynamic_lds, uint8_t *kernargs, size_t size,
                const rt_launch_opts *o, ll_err *err);
  emu_mem *(*emu_mem)(void *impl);
  uint64_t (*image_addr)(void *module); /* device address of a loaded module's image, or NULL */
  size_t (*heap_blocks)(void *impl, rt_heap_block_fn fn, void *user); /* NULL: no device heap */
  bool (*heap_where)(void *impl, uint64_t addr, char *buf, size_t n);  /* NULL: no device heap */
} rt_backend_ops;

extern const rt_backend_ops rt_emu_ops; /* rt_emu.c */

/* a hidden argument that holds a device address: 8 bytes inside the size-byte kernarg segment, else
 * false with err naming the kernel and the argument (rt_args.c; rt.c's buffers, rt_hostcall.c) */
bool rt_hidden_ptr_fits(const emu_kernel *k, const emu_kernarg *a, size_t size, ll_err *err);

/* The emulator's hostcall listener and device heap (rt_hostcall.c): made on the first launch of a
 * kernel with hidden_hostcall_buffer or hidden_heap_v1, kept for the device's life; its memory is
 * registered in mem, so it is freed after emu_mem_free. rt_hostcall_fill writes the two hidden
 * arguments; rt_hostcall_interrupt is the launch's emu_launch_opts.on_interrupt. */
typedef struct rt_hostcall rt_hostcall;
rt_hostcall *rt_hostcall_new(emu_mem *mem, uint64_t heap_limit, ll_err *err);
void rt_hostcall_free(rt_hostcall *h);
bool rt_hostcall_fill(rt_hostcall *h, const emu_kernel *k, uint8_t *kernarg, size_t size, ll_err *err);
int rt_hostcall_interrupt(void *user, uint32_t event_id, char *msg, size_t msgn);
/* the launch's emu_launch_opts.on_heap: lanelab's heap markers (the block table), and its live
 * blocks in address order (each to fn; returns how many) */
int rt_hostcall_heap(void *user, emu_heap_event *e, char *msg, size_t msgn);
size_t rt_hostcall_heap_live(rt_hostcall *h, rt_heap_block_fn fn, void *user);
/* initcheck's bitmap of the heap's region (bit set: written), made at the first call with every
 * bit set; each malloc marker clears its block's bits from then on. NULL with err when it cannot
 * be mapped. */
uint8_t *rt_hostcall_heap_initbits(rt_hostcall *h, uint64_t *addr, uint64_t *size, ll_err *err);
/* heapcheck's bitmap of the heap's region (bit set: inside a live block), made at the first call
 * from the blocks live then; each malloc marker sets its block's bits, each free clears them. NULL
 * with err when it cannot be mapped. rt_hostcall_heap_where: what a byte of the region belongs to,
 * for a finding ("byte 8 of a block of 24 bytes from malloc in kernel K at F:L, freed in ..."). */
uint8_t *rt_hostcall_heap_livebits(rt_hostcall *h, uint64_t *addr, uint64_t *size, ll_err *err);
void rt_hostcall_heap_where(rt_hostcall *h, uint64_t addr, char *buf, size_t n);

/* Formats one printf call (rt_printf.c): fmt with its arguments [a, a_end) as the buffered records and
 * ROCm's hostcall printf messages both lay them out (8 bytes an argument, a %s string's bytes with
 * the NUL padded to 8), appended to out; false with why when the arguments run out. */
bool rt_printf_format(const char *fmt, const uint8_t *a, const uint8_t *a_end, ll_buf *out, char *why, size_t whyn);
extern const rt_backend_ops rt_hip_ops; /* rt_hip.c */

struct rt_device {
  rt_backend backend; /* RT_EMU or RT_HIP (= ops->id) */
  emu_arch arch;
  char note[1280];
  const rt_backend_ops *ops;
  void *impl;         /* the backend's state */
  /* the device printf buffer of the latest launch that had one, kept for the next of its size
   * (rt.c printf_setup: a buffer a launch was 4 MiB of mapping, zeroing and unmapping, 60-280 us);
   * its records' bytes are zeroed again */
  uint64_t pspare;
  uint32_t pspare_bytes;
};

struct rt_module {
  rt_device *d;
  emu_codeobj *co;
  void *impl;         /* the backend's module, if it keeps one */
};

typedef struct rt_hip rt_hip; /* rt_hip.c */

/* hip backend (rt_hip.c). rt_hip_open: NULL + LL_EXIT_ENV with the reason when no HIP GPU of the
 * arch can be used; on success *desc names the device. */
rt_hip *rt_hip_open(emu_arch arch, char *desc, size_t desc_size, ll_err *err);
void rt_hip_close(rt_hip *h);
uint64_t rt_hip_alloc(rt_hip *h, size_t n, ll_err *err);
void rt_hip_free(rt_hip *h, uint64_t addr);
bool rt_hip_copy(rt_hip *h, void *dst, const void *src, size_t n, bool to_device, ll_err *err);
void *rt_hip_load(rt_hip *h, const void *bytes, size_t n, ll_err *err);
void rt_hip_unload(rt_hip *h, void *module);
int rt_hip_launch(rt_hip *h, void *module, const emu_kernel *k, const uint32_t grid[3],
                  const uint32_t block[3], uint32_t dynamic_lds, uint8_t *kernargs, size_t size,
                  ll_err *err);

#endif
