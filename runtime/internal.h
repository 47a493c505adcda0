/* runtime/internal — what the runtime's files share; not part of the contract (rt.h is). */
#ifndef LANELAB_RT_INTERNAL_H
#define LANELAB_RT_INTERNAL_H

#include "runtime/rt.h"

typedef struct rt_emubuf {
  void *host;
  uint64_t addr;
  size_t size;
  bool freed;
} rt_emubuf;

typedef struct rt_hip rt_hip; /* rt_hip.c */

struct rt_device {
  rt_backend backend; /* RT_EMU or RT_HIP */
  emu_arch arch;
  char note[1280];
  /* emu */
  emu_mem *mem;
  rt_emubuf *bufs;
  size_t nbufs;
  /* hip */
  rt_hip *hip;
};

struct rt_module {
  rt_device *d;
  emu_codeobj *co;
  void *hip_module;
  uint64_t image_addr; /* emu: device address of the relocated code object image, or 0 */
};

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

/* emu backend (rt_emu.c) */
uint64_t rt_emu_alloc(rt_device *d, size_t n, const char *name, ll_err *err);
void *rt_emu_host(rt_device *d, uint64_t addr, size_t n, ll_err *err);
int rt_emu_launch(rt_device *d, rt_module *m, const emu_kernel *k, const uint32_t grid[3],
                  const uint32_t block[3], uint32_t dynamic_lds, const uint8_t *kernargs,
                  size_t size, const rt_launch_opts *o, ll_err *err);

#endif
