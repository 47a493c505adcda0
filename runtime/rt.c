/* runtime/rt — devices, memory, modules and launches over the emu and hip backends (rt.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

bool rt_backend_parse(const char *s, rt_backend *out) {
  static const char *n[] = {"auto", "emu", "hip"};
  for (int i = 0; i < 3; i++)
    if (s && strcmp(s, n[i]) == 0) {
      *out = (rt_backend)i;
      return true;
    }
  return false;
}

const char *rt_backend_name(rt_backend b) {
  return b == RT_EMU ? "emu" : b == RT_HIP ? "hip" : b == RT_AUTO ? "auto" : "?";
}

rt_device *rt_open(rt_backend b, emu_arch arch, ll_err *err) {
  if ((unsigned)arch >= EMU_NARCH) {
    ll_seterr(err, LL_EXIT_USAGE, "rt_open: unknown arch %d", (int)arch);
    return NULL;
  }
  rt_device *d = ll_xcalloc(1, sizeof *d);
  d->arch = arch;
  if (b == RT_HIP || b == RT_AUTO) {
    char desc[256] = "";
    ll_err he = {0};
    d->impl = rt_hip_ops.open(arch, desc, sizeof desc, &he);
    if (d->impl) {
      d->ops = &rt_hip_ops;
      d->backend = RT_HIP;
      snprintf(d->note, sizeof d->note, "backend hip: %s", desc);
      return d;
    }
    if (b == RT_HIP) {
      bool runtime = strstr(he.msg, "HIP runtime") != NULL;
      ll_seterr(err, he.code, "--backend hip: %s; %s", he.msg,
                runtime ? "install ROCm's HIP runtime (libamdhip64, e.g. the rocm-hip-runtime package) or use --backend emu"
                        : "use --backend emu (or auto)");
      free(d);
      return NULL;
    }
    snprintf(d->note, sizeof d->note, "backend emu (auto: no HIP GPU of arch %s: %s)", emu_arch_name(arch), he.msg);
  } else {
    snprintf(d->note, sizeof d->note, "backend emu (%s)", emu_arch_name(arch));
  }
  d->ops = &rt_emu_ops;
  d->backend = RT_EMU;
  d->impl = rt_emu_ops.open(arch, NULL, 0, err);
  if (!d->impl) {
    free(d);
    return NULL;
  }
  return d;
}

void rt_close(rt_device *d) {
  if (!d) return;
  d->ops->close(d->impl);
  free(d);
}

rt_backend rt_device_backend(const rt_device *d) { return d->backend; }
emu_arch rt_device_arch(const rt_device *d) { return d->arch; }
const char *rt_device_note(const rt_device *d) { return d->note; }
emu_mem *rt_device_emu_mem(rt_device *d) { return d->ops->emu_mem ? d->ops->emu_mem(d->impl) : NULL; }
size_t rt_device_heap_blocks(rt_device *d, rt_heap_block_fn fn, void *user) {
  return d->ops->heap_blocks ? d->ops->heap_blocks(d->impl, fn, user) : 0;
}
bool rt_device_heap_where(rt_device *d, uint64_t addr, char *buf, size_t n) {
  return d->ops->heap_where && d->ops->heap_where(d->impl, addr, buf, n);
}

uint64_t rt_alloc(rt_device *d, size_t n, const char *name, ll_err *err) {
  if (n == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "buffer '%s' has zero bytes", name ? name : "?");
    return 0;
  }
  return d->ops->alloc(d->impl, n, name, err);
}

void rt_free(rt_device *d, uint64_t addr) { d->ops->free(d->impl, addr); }

bool rt_copy_to_device(rt_device *d, uint64_t dst, const void *src, size_t n, ll_err *err) {
  return d->ops->copy(d->impl, dst, (void *)src, n, true, err);
}

bool rt_copy_from_device(rt_device *d, void *dst, uint64_t src, size_t n, ll_err *err) {
  return d->ops->copy(d->impl, src, dst, n, false, err);
}

rt_module *rt_load(rt_device *d, const void *bytes, size_t n, const char *path, ll_err *err) {
  emu_codeobj *co = emu_codeobj_load(bytes, n, path, err);
  if (!co) return NULL;
  if (co->arch != d->arch) {
    ll_seterr(err, LL_EXIT_USAGE, "%s is a %s code object; the device runs %s", co->path,
              emu_arch_name(co->arch), emu_arch_name(d->arch));
    emu_codeobj_free(co);
    return NULL;
  }
  rt_module *m = ll_xcalloc(1, sizeof *m);
  m->d = d;
  m->co = co;
  if (d->ops->load && !(m->impl = d->ops->load(d->impl, co, bytes, n, err))) {
    rt_unload(m);
    return NULL;
  }
  return m;
}

rt_module *rt_load_file(rt_device *d, const char *path, ll_err *err) {
  size_t n;
  void *p = ll_read_file_max(path, LL_CAP_CODEOBJ, &n, err);
  if (!p) return NULL;
  rt_module *m = rt_load(d, p, n, path, err);
  free(p);
  return m;
}

const emu_codeobj *rt_module_codeobj(const rt_module *m) { return m->co; }

uint64_t rt_module_image_addr(const rt_module *m) {
  return m->impl && m->d->ops->image_addr ? m->d->ops->image_addr(m->impl) : 0;
}

void rt_unload(rt_module *m) {
  if (!m) return;
  if (m->impl && m->d->ops->unload) m->d->ops->unload(m->d->impl, m->impl);
  emu_codeobj_free(m->co);
  free(m);
}

/* A hidden argument that is a buffer's address: when k has the argument of kind hk, a device
 * buffer of `bytes` (zeroed, its first init_n bytes from init, named `name`; `reuse`, a zeroed
 * buffer of that size, if nonzero) and its address written into the kernarg; returns the address,
 * 1 when k has no such argument, 0 on failure. */
static uint64_t hidden_buffer(rt_device *d, const emu_kernel *k, uint8_t hk, uint32_t bytes, const void *init,
                              size_t init_n, const char *name, uint64_t reuse, uint8_t *kernarg, size_t size, ll_err *err) {
  const emu_kernarg *a = rt_hidden_arg(k, hk);
  if (!a) return 1;
  if (!rt_hidden_ptr_fits(k, a, size, err)) return 0;
  uint64_t p = reuse ? reuse : rt_alloc(d, bytes, name, err);
  if (!p) return 0;
  if (!rt_copy_to_device(d, p, init, init_n, err)) {
    rt_free(d, p);
    return 0;
  }
  memcpy(kernarg + a->offset, &p, 8);
  return p;
}

/* Device printf (rt_printf.c): a kernel with a hidden_printf_buffer argument gets a zeroed
 * buffer whose second dword is its capacity: the last launch's, when it has that size */
static uint64_t printf_setup(rt_device *d, const emu_kernel *k, uint32_t bytes, uint8_t *kernarg, size_t size,
                             ll_err *err) {
  const uint32_t hdr[2] = {0, bytes};
  uint64_t reuse = 0;
  if (d->pspare && d->pspare_bytes == bytes && rt_hidden_arg(k, EMU_HK_PRINTF_BUFFER)) reuse = d->pspare, d->pspare = 0;
  return hidden_buffer(d, k, EMU_HK_PRINTF_BUFFER, bytes, hdr, sizeof hdr, "device printf buffer", reuse, kernarg, size,
                       err);
}

/* A cooperative launch's grid-barrier block (rt.h, hidden_multigrid_sync_arg) */
static uint64_t coop_setup(rt_device *d, const emu_kernel *k, const uint32_t grid[3], const uint32_t block[3],
                           uint8_t *kernarg, size_t size, ll_err *err) {
  uint8_t mi[48] = {0};
  uint32_t one = 1, nwg = grid[0] * grid[1] * grid[2]; /* the caller checked the grid's size */
  uint64_t items = (uint64_t)nwg * block[0] * block[1] * block[2];
  memcpy(mi + 12, &one, 4);   /* num_grids */
  memcpy(mi + 24, &items, 8); /* all_sum */
  memcpy(mi + 40, &nwg, 4);   /* num_wg */
  return hidden_buffer(d, k, EMU_HK_MULTIGRID_SYNC, sizeof mi, mi, sizeof mi, "cooperative launch grid barrier", 0,
                       kernarg, size, err);
}

static void printf_flush(rt_device *d, const emu_codeobj *co, uint64_t p, uint32_t bytes, FILE *out) {
  /* only the bytes the records used (the first dword, which may pass the capacity when records were
   * lost: rt_printf_decode reports that from it) are read back, not the whole buffer */
  uint32_t used = 0;
  (void)rt_copy_from_device(d, &used, p, 4, NULL);
  uint32_t n = used > bytes - 8 ? bytes : used + 8;
  uint8_t *buf = ll_xcalloc(n, 1);
  ll_buf text = {0}, etext = {0}, diag = {0};
  bool read = rt_copy_from_device(d, buf, p, n, NULL);
  if (read) rt_printf_decode(co, buf, n, &text, &etext, &diag);
  /* the buffer, zeroed again where records were, waits for the next launch (the latest is kept) */
  memset(buf, 0, n);
  if (read && rt_copy_to_device(d, p, buf, n, NULL)) {
    if (d->pspare) rt_free(d, d->pspare);
    d->pspare = p, d->pspare_bytes = bytes;
  } else {
    rt_free(d, p);
  }
  free(buf);
  FILE *f = out ? out : stdout;
  if (text.len) fwrite(text.data, 1, text.len, f), fflush(f);
  if (etext.len) fwrite(etext.data, 1, etext.len, stderr);
  for (char *l = diag.len ? diag.data : NULL, *e; l && *l; l = e ? e + 1 : NULL) {
    e = strchr(l, '\n');
    fprintf(stderr, "lanelab: warning: %.*s\n", (int)(e ? e - l : (long)strlen(l)), l);
    if (!e) break;
  }
  ll_buf_free(&text), ll_buf_free(&etext), ll_buf_free(&diag);
}

int rt_launch(rt_device *d, rt_module *m, const char *name, const uint32_t grid[3],
              const uint32_t block[3], const rt_arg *args, size_t nargs, uint32_t dynamic_lds,
              const rt_launch_opts *o, ll_err *err) {
  const emu_kernel *k = emu_codeobj_kernel(m->co, name, err);
  if (!k) return LL_EXIT_USAGE;
  uint64_t wg = 1;
  for (int i = 0; i < 3; i++) {
    if (!grid[i] || !block[i]) {
      ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': grid %ux%ux%u, block %ux%ux%u: every extent must be >= 1",
                name, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
      return LL_EXIT_USAGE;
    }
    if ((uint64_t)grid[i] * block[i] > UINT32_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': grid %u x block %u work-items along %c exceeds 2^32-1 "
                "(the dispatch packet's grid size is 32-bit)", name, grid[i], block[i], "xyz"[i]);
      return LL_EXIT_USAGE;
    }
    wg *= block[i];
  }
  if (wg > k->max_flat_workgroup_size) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': block of %llu work-items exceeds its .max_flat_workgroup_size %u",
              name, (unsigned long long)wg, k->max_flat_workgroup_size);
    return LL_EXIT_USAGE;
  }
  uint64_t lds = (uint64_t)k->group_segment_size + dynamic_lds;
  if (lds > emu_arch_lds_bytes(d->arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': %u bytes static + %u dynamic LDS exceed %s's %u bytes", name,
              k->group_segment_size, dynamic_lds, emu_arch_name(d->arch), emu_arch_lds_bytes(d->arch));
    return LL_EXIT_USAGE;
  }
  if (d->backend == RT_HIP && o && (o->on_snap || o->observe || o->sched != EMU_SCHED_ROUND_ROBIN)) {
    ll_seterr(err, LL_EXIT_USAGE, "schedules, register snapshots, traces and race/init checks need the emulator "
              "(--backend emu)");
    return LL_EXIT_USAGE;
  }
  if (d->backend == RT_HIP && o && o->cooperative) {
    ll_seterr(err, LL_EXIT_USAGE, "cooperative launches run on the emulator only (--backend emu)");
    return LL_EXIT_USAGE;
  }
  if (d->backend == RT_HIP && o && o->on_wave_end) {
    ll_seterr(err, LL_EXIT_USAGE, "register dumps need the emulator (--backend emu)");
    return LL_EXIT_USAGE;
  }
  size_t size = rt_kernarg_bytes(k);
  uint8_t *buf = ll_xcalloc(size ? size : 1, 1);
  int rc = LL_EXIT_USAGE;
  bool raw = o && o->kernarg;
  if (raw && nargs) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': raw kernel-argument bytes and %zu argument values given; one or "
              "the other", name, nargs);
    free(buf);
    return LL_EXIT_USAGE;
  }
  if (raw ? rt_fill_kernargs_raw(k, o->kernarg, o->kernarg_size, grid, block, dynamic_lds, buf, size ? size : 1, err)
          : rt_fill_kernargs(k, args, nargs, grid, block, dynamic_lds, buf, size ? size : 1, err)) {
    uint64_t pbuf = 0;
    uint32_t pbytes = o && o->printf_bytes ? o->printf_bytes : RT_PRINTF_BYTES;
    uint64_t cbuf = 1;
    if (d->backend == RT_EMU && !(pbuf = printf_setup(d, k, pbytes, buf, size, err))) rc = err ? err->code : LL_EXIT_FAIL;
    else if (o && o->cooperative && !(cbuf = coop_setup(d, k, grid, block, buf, size, err)))
      rc = err ? err->code : LL_EXIT_FAIL;
    else rc = d->ops->launch(d->impl, m->co, m->impl, k, grid, block, dynamic_lds, buf, size, o, err);
    if (pbuf > 1) printf_flush(d, m->co, pbuf, pbytes, o ? o->printf_out : NULL);
    if (cbuf > 1) rt_free(d, cbuf);
  }
  free(buf);
  return rc;
}

bool rt_map_host(rt_device *d, void *host, size_t n, const char *name, ll_err *err) {
  emu_mem *m = rt_device_emu_mem(d);
  if (!m) {
    ll_seterr(err, LL_EXIT_USAGE, "host memory can be registered for the emulator only");
    return false;
  }
  if (!emu_mem_map_at(m, host, n, name)) {
    ll_seterr(err, LL_EXIT_USAGE, "host range [%p, +%zu) ('%s') cannot be registered for the device: empty, or it "
              "overlaps memory already registered", host, n, name ? name : "?");
    return false;
  }
  return true;
}

void rt_unmap_host(rt_device *d, void *host) {
  emu_mem *m = rt_device_emu_mem(d);
  if (m) emu_mem_unmap(m, (uint64_t)(uintptr_t)host);
}
