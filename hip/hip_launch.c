/* hip/hip_launch — kernel launches (<<<>>>, hipLaunchKernel, hipModuleLaunchKernel, the old
 * hipConfigureCall path), the checks `lanelab exec` asks for on every launch, what a fault becomes
 * (docs/hip-runtime.md "Errors"), kernel attributes and occupancy. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hip/internal.h"
#include "reports/report.h"

/* ---- <<<>>>: clang emits __hipPushCallConfiguration(grid, block, shmem, stream) before the
 * arguments are evaluated, and the kernel's host stub pops it and calls hipLaunchKernel. A stack
 * per thread: an argument may itself launch a kernel. ---------------------------------------*/
typedef struct call_cfg {
  dim3 grid, block;
  size_t shmem;
  hipStream_t stream;
} call_cfg;
static __thread call_cfg cfg_stack[16];
static __thread int cfg_n;

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, hipStream_t stream) {
  if (cfg_n == 16) {
    fprintf(stderr, "lanelab: hip: __hipPushCallConfiguration: more than 16 nested <<<>>> configurations\n");
    return hipErrorInvalidConfiguration;
  }
  cfg_stack[cfg_n++] = (call_cfg){grid, block, shmem, stream};
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, hipStream_t *stream) {
  if (cfg_n == 0) {
    fprintf(stderr, "lanelab: hip: __hipPopCallConfiguration: no <<<>>> configuration to pop\n");
    return hipErrorMissingConfiguration;
  }
  call_cfg c = cfg_stack[--cfg_n];
  *grid = c.grid, *block = c.block, *shmem = c.shmem, *stream = c.stream;
  return hipSuccess;
}

/* ---- faults -> HIP errors -------------------------------------------------------------------*/
/* What a GPU's runtime reports after the kernel stopped this way. A trap after the launch printed
 * a device assert's message (hip_runtime.h's __assert_fail prints HIP's "Device-side assertion"
 * line, then traps) is hipErrorAssert; any other trap, an instruction the emulator
 * cannot run or a malformed program is hipErrorLaunchFailure; running out of the instruction budget
 * stands for a kernel that does not finish, hipErrorLaunchTimeOut, as does a cooperative launch's deadlock
 * (emu/exec.c); every bad memory access is
 * hipErrorIllegalAddress. */
static hipError_t fault_error(const emu_fault *f, bool asserted) {
  const char *k = f->kind;
  if (!strcmp(k, "trap")) return asserted ? hipErrorAssert : hipErrorLaunchFailure;
  if (!strcmp(k, "budget exceeded") || !strcmp(k, "deadlock")) return hipErrorLaunchTimeOut;
  if (strstr(k, "global") || strstr(k, "lds") || strstr(k, "address") || strstr(k, "private"))
    return hipErrorIllegalAddress;
  return hipErrorLaunchFailure;
}

static void count_kernel(const char *name) {
  for (size_t i = 0; i < hip_g.nk; i++)
    if (!strcmp(hip_g.kname[i], name)) {
      hip_g.kcount[i]++;
      return;
    }
  hip_g.kname = ll_xrealloc(hip_g.kname, (hip_g.nk + 1) * sizeof *hip_g.kname);
  hip_g.kcount = ll_xrealloc(hip_g.kcount, (hip_g.nk + 1) * sizeof *hip_g.kcount);
  hip_g.kname[hip_g.nk] = ll_xstrdup(name);
  hip_g.kcount[hip_g.nk++] = 1;
}

static void on_warning(void *user, const emu_fault *w) {
  (void)user;
  hip_g.mem_warnings++;
  char *l = ll_fmt("warning: %s", w->msg);
  hip_finding(l);
  free(l);
}

/* initcheck: each device allocation with bytes not yet written is watched during the launch, which
 * reads its bitmap and sets the bits of the bytes the kernel writes, in place. */
static bool fully_written(const hip_alloc *a) {
  size_t full = a->size / 8;
  for (size_t i = 0; i < full; i++)
    if (a->init[i] != 0xff) return false;
  for (size_t o = full * 8; o < a->size; o++)
    if (!(a->init[o / 8] >> (o % 8) & 1)) return false;
  return true;
}

static void trace_out(emu_observer *obs, const char *kname, const struct ihipModuleSymbol_t *f) {
  if (!hip_g.trace_spec || !emu_observer_ntrace(obs)) return;
  const char *root = hip_g.report_dir ? hip_g.report_dir : "lanelab-exec-report";
  char *dir = ll_fmt("%s/launch-%llu", root, (unsigned long long)hip_g.launches);
  ll_err e = {0};
  report_trace_info ti = {.arch = emu_arch_name(hip_g.arch), .kernel = kname, .co_path = f->mod->what,
                          .spec = hip_g.trace_spec};
  if (!ll_mkdir_p(dir, &e) || !report_trace_write(dir, obs, &ti, &e))
    fprintf(stderr, "lanelab: hip: cannot write the trace of launch %llu: %s\n", (unsigned long long)hip_g.launches, e.msg);
  else
    fprintf(stderr, "lanelab: traced %zu instruction instances of %s%s into %s/\n", emu_observer_ntrace(obs), kname,
            emu_observer_trace_truncated(obs) ? " (truncated: use first=N)" : "", dir);
  hip_g.traced++;
  free(dir);
}

static int occupancy(const emu_kernel *k, int block, size_t dyn);

/* A cooperative launch has every workgroup resident at once: past the device's occupancy for this
 * kernel, block and shared memory times its CUs (HIP's rule), or past what the emulator keeps
 * resident, it is hipErrorCooperativeLaunchTooLarge */
static hipError_t coop_fits(const char *fn, const emu_kernel *k, const char *kname, const uint32_t g[3], uint64_t threads,
                            size_t shmem) {
  int cus = 0;
  if (hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0) != hipSuccess) cus = 0;
  const int per_cu = occupancy(k, (int)threads, shmem);
  uint64_t nwg = (uint64_t)g[0] * g[1] * g[2], fit = (uint64_t)per_cu * (uint64_t)cus;
  if (fit > EMU_COOP_MAX_WG) fit = EMU_COOP_MAX_WG;
  if (nwg <= fit) return hipSuccess;
  return hip_complain(fn, hipErrorCooperativeLaunchTooLarge,
                      "kernel %s: %llu blocks of %llu threads cannot all be resident at once: %llu fit (%d per CU by "
                      "hipOccupancyMaxActiveBlocksPerMultiprocessor, %d CUs%s)", kname, (unsigned long long)nwg,
                      (unsigned long long)threads, (unsigned long long)fit, per_cu, cus,
                      fit == EMU_COOP_MAX_WG ? ", capped at the most lanelab keeps resident" : "");
}

/* the explicit arguments, laid out at the metadata's offsets: from args (one pointer per explicit
 * argument) or a packed buffer of at least their extent. *raw malloc'd, *nraw its size. */
hipError_t hip_kernel_args(const char *fn, const emu_kernel *k, const char *kname, void **args, const void *packed,
                           size_t packed_size, uint8_t **raw, size_t *nraw) {
  uint32_t end, first_hidden;
  rt_explicit_extent(k, &end, &first_hidden, NULL);
  if (packed && packed_size < end)
    return hip_complain(fn, hipErrorInvalidValue, "kernel %s: the argument buffer has %zu bytes; its arguments need %u",
                        kname, packed_size, end);
  uint8_t *r = ll_xcalloc(end ? end : 1, 1);
  if (packed) {
    memcpy(r, packed, end);
  } else {
    size_t idx = 0;
    for (size_t i = 0; i < k->nargs; i++) {
      const emu_kernarg *a = &k->args[i];
      if (a->hidden) continue;
      if (!args || !args[idx]) {
        free(r);
        return hip_complain(fn, hipErrorInvalidValue, "kernel %s: argument %zu has no value (args[%zu] is NULL)", kname, idx, idx);
      }
      memcpy(r + a->offset, args[idx], a->size);
      idx++;
    }
  }
  *raw = r, *nraw = end;
  return hipSuccess;
}

hipError_t hip_launch(const char *fn, struct ihipModuleSymbol_t *f, dim3 grid, dim3 block, size_t shmem,
                      hipStream_t stream, void **args, const void *packed, size_t packed_size, bool coop) {
  /* a handle that is not a stream: ROCm/clr f9f995c answers hipErrorInvalidValue for the launch calls
   * (ihipLaunchKernel, hipModuleLaunchKernel ...); hipLaunchCooperativeKernel answers its own */
  if (!hip_stream_valid(stream)) return hip_complain(fn, hipErrorInvalidValue, "stream %p is not a stream", (void *)stream);
  hipError_t e = hip_func_resolve(f, fn);
  if (e != hipSuccess) return e;
  if (hip_g.pending != hipSuccess) return hipSuccess; /* the queue faulted: nothing more runs */
  const emu_kernel *k = f->k;
  char *dn = emu_demangle(k->name);
  const char *kname = dn ? dn : k->name;
  uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
  if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2]) {
    e = hip_complain(fn, hipErrorInvalidConfiguration, "kernel %s: grid (%u,%u,%u) block (%u,%u,%u): no extent may be 0",
                     kname, g[0], g[1], g[2], b[0], b[1], b[2]);
    goto out;
  }
  if (threads > 1024 || threads > k->max_flat_workgroup_size) {
    e = hip_complain(fn, hipErrorInvalidConfiguration,
                     "kernel %s: a block of %llu work-items exceeds its maximum of %u (1024, or its __launch_bounds__)",
                     kname, (unsigned long long)threads, k->max_flat_workgroup_size < 1024 ? k->max_flat_workgroup_size : 1024);
    goto out;
  }
  for (int i = 0; i < 3; i++)
    if ((uint64_t)g[i] * b[i] > UINT32_MAX) {
      e = hip_complain(fn, hipErrorInvalidConfiguration, "kernel %s: %u blocks of %u along %c exceed 2^32-1 work-items",
                       kname, g[i], b[i], "xyz"[i]);
      goto out;
    }
  if ((uint64_t)k->group_segment_size + shmem > emu_arch_lds_bytes(hip_g.arch)) {
    e = hip_complain(fn, hipErrorInvalidValue, "kernel %s: %u bytes of static and %zu of dynamic shared memory exceed "
                     "%s's %u bytes per block", kname, k->group_segment_size, shmem, emu_arch_name(hip_g.arch),
                     emu_arch_lds_bytes(hip_g.arch));
    goto out;
  }
  if (coop && (e = coop_fits(fn, k, kname, g, threads, shmem)) != hipSuccess) goto out;
  uint8_t *raw = NULL;
  size_t nraw = 0;
  if ((e = hip_kernel_args(fn, k, kname, args, packed, packed_size, &raw, &nraw)) != hipSuccess) goto out;
  if (hip_capturing(stream) || (e = hip_capture_refuse(stream, fn)) != hipSuccess) {
    /* recorded into the stream's graph with its arguments' bytes (hip_graph.c), or an invalidated capture */
    if (e == hipSuccess) e = hip_capture_kernel(stream, f, grid, block, shmem, raw, nraw, coop);
    free(raw);
    goto out;
  }
  emu_observer *obs = NULL;
  if (hip_g.race || hip_g.initcheck || hip_g.heapcheck || hip_g.trace_spec) {
    obs = emu_observer_new();
    if (hip_g.race) emu_observer_racecheck(obs, hip_g.race_global);
    if (hip_g.initcheck) {
      emu_observer_initcheck(obs);
      for (size_t i = 0; i < hip_g.nallocs; i++) {
        hip_alloc *a = &hip_g.allocs[i];
        if (a->init && !fully_written(a)) emu_observer_uninit_in_place(obs, a->addr, a->size, a->init);
      }
    }
    if (hip_g.trace_spec) {
      ll_err te = {0};
      emu_observer_trace(obs, hip_g.trace_spec, 0, &te); /* checked at start-up */
    }
  }
  emu_fault fault = {0};
  /* device printf output passes through here: it goes to stdout after the launch, and tells a
   * device assert's trap from other traps */
  char *ptext = NULL;
  size_t plen = 0;
  FILE *ms = rt_printf_arg(k) ? open_memstream(&ptext, &plen) : NULL; /* only a kernel with a printf buffer prints */
  rt_launch_opts o = {.printf_out = ms, .sched = hip_g.sched, .sched_seed = hip_g.sched_seed, .observe = obs,
                      .strict_memory = hip_g.strict_memory, .on_warning = on_warning, .fault = &fault,
                      .kernarg = raw, .kernarg_size = nraw, .printf_bytes = (uint32_t)hip_g.printf_bytes,
                      .stack_bytes = (uint32_t)hip_g.stack_bytes, .heap_bytes = hip_g.heap_bytes, .cooperative = coop,
                      .heap_initcheck = hip_g.initcheck, .heap_check = hip_g.heapcheck,
                      .insn_budget = hip_g.budget};
  ll_err err = {0};
  hip_g.launches++;
  count_kernel(kname);
  int rc = rt_launch(hip_g.dev, f->mod->rt, k->name, g, b, NULL, 0, (uint32_t)shmem, &o, &err);
  free(raw);
  bool asserted = false;
  if (ms) {
    fclose(ms);
    if (plen) {
      fwrite(ptext, 1, plen, stdout);
      fflush(stdout);
      asserted = strstr(ptext, ": Device-side assertion `") != NULL;
    }
    free(ptext);
  }
  if (rc == LL_EXIT_FAIL && fault.faulted) {
    hip_g.faults++;
    hip_g.pending = fault_error(&fault, asserted);
    /* the kernel by its C++ name, as the program wrote it */
    char msg[sizeof fault.msg + 512];
    char *km = dn ? ll_fmt("kernel %s ", k->name) : NULL, *at = km ? strstr(fault.msg, km) : NULL;
    if (at) snprintf(msg, sizeof msg, "%.*skernel %s %s", (int)(at - fault.msg), fault.msg, kname, at + strlen(km));
    else snprintf(msg, sizeof msg, "%s", fault.msg);
    free(km);
    char *l = ll_fmt("fault: %s (the program's next synchronizing HIP call returns %s)", msg,
                     hipGetErrorName(hip_g.pending));
    hip_finding(l);
    free(l);
  } else if (rc != LL_EXIT_OK) {
    e = hip_complain(fn, rc == LL_EXIT_USAGE ? hipErrorInvalidValue : hipErrorLaunchFailure, "kernel %s: %s", kname, err.msg);
  }
  if (obs) {
    size_t nh = emu_observer_nhazards(obs);
    for (size_t i = 0; i < nh; i++) {
      const emu_hazard *h = emu_observer_hazard(obs, i);
      if (h->kind == EMU_HZ_UNINIT) hip_g.uninit++;
      else if (h->kind == EMU_HZ_HEAP) hip_g.heap_bad++;
      else hip_g.races++;
      char line[1024], where[1024];
      emu_hazard_format(h, line, sizeof line);
      /* a heapcheck finding names the block the byte belongs to */
      const bool block = h->kind == EMU_HZ_HEAP && rt_device_heap_where(hip_g.dev, h->addr, where, sizeof where);
      char *l = ll_fmt("%s: %s kernel %s: %s%s%s",
                       h->kind == EMU_HZ_UNINIT ? "initcheck" : h->kind == EMU_HZ_HEAP ? "heapcheck" : "racecheck",
                       emu_arch_name(hip_g.arch), kname, line, block ? "; " : "", block ? where : "");
      hip_finding(l);
      free(l);
    }
    if (emu_observer_hazards_dropped(obs)) {
      char *l = ll_fmt("hazards: %s kernel %s: %llu byte conflicts in reports past the %zu kept (not listed)",
                       emu_arch_name(hip_g.arch), kname, (unsigned long long)emu_observer_hazards_dropped(obs), nh);
      hip_finding(l);
      free(l);
    }
    trace_out(obs, kname, f);
    emu_observer_free(obs);
  }
out:
  free(dn);
  return e;
}

hipError_t hipLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, hipStream_t stream) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = hip_launch(__func__, f, grid, block, shmem, stream, args, NULL, 0, false);
  return hip_done(e);
}

/* -fgpu-default-stream=per-thread's launch entry point: the null stream is the thread's own */
hipError_t hipLaunchKernel_spt(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, hipStream_t stream) {
  return hipLaunchKernel(func, grid, block, args, shmem, stream ? stream : hipStreamPerThread);
}

hipError_t hipExtLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, hipStream_t stream,
                              hipEvent_t start, hipEvent_t stop, int flags) {
  HIP_BEGIN();
  (void)flags;
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess && start) e = hipEventRecord(start, stream);
  if (e == hipSuccess) e = hip_launch(__func__, f, grid, block, shmem, stream, args, NULL, 0, false);
  if (e == hipSuccess && stop) e = hipEventRecord(stop, stream);
  return hip_done(e);
}

/* Cooperative launches: every block resident at once, so grid_group::sync() completes (emu/exec.c
 * "cooperative launches", docs/hip-runtime.md) */
hipError_t hipLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, unsigned int shmem,
                                      hipStream_t stream) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  /* ROCm's hipLaunchCooperativeKernel_common: a handle that is not a stream, hipErrorContextIsDestroyed */
  if (e == hipSuccess && !hip_stream_valid(stream)) e = hip_stream_gone(__func__, stream);
  if (e == hipSuccess) e = hip_launch(__func__, f, grid, block, shmem, stream, args, NULL, 0, true);
  return hip_done(e);
}

hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
                                            unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                                            hipStream_t stream, void **kernelParams) {
  HIP_BEGIN();
  if (!f) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "the function is NULL"));
  hipError_t e = hip_launch(__func__, f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shmem, stream, kernelParams, NULL, 0, true);
  return hip_done(e);
}

/* hipModuleLaunchKernel's work (kernelParams, or extra's packed buffer), for fn */
static hipError_t module_launch(const char *fn, hipFunction_t f, dim3 grid, dim3 block, unsigned int shmem,
                                hipStream_t stream, void **kernelParams, void **extra) {
  if (!f) return hip_complain(fn, hipErrorInvalidResourceHandle, "the function is NULL");
  if (kernelParams && extra) return hip_complain(fn, hipErrorInvalidValue, "kernelParams and extra given: one or the other");
  const void *buf = NULL;
  size_t size = 0;
  bool have_size = false;
  if (extra) {
    for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
      if (i > 16) return hip_complain(fn, hipErrorInvalidValue, "extra is not terminated by HIP_LAUNCH_PARAM_END");
      if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
      else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) size = *(size_t *)extra[i + 1], have_size = true;
      else return hip_complain(fn, hipErrorInvalidValue, "extra[%zu] is not a HIP_LAUNCH_PARAM_* key", i);
    }
    if (!buf || !have_size)
      return hip_complain(fn, hipErrorInvalidValue, "extra needs HIP_LAUNCH_PARAM_BUFFER_POINTER and _SIZE");
  }
  return hip_launch(fn, f, grid, block, shmem, stream, kernelParams, extra ? buf : NULL, size, false);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                 unsigned int by, unsigned int bz, unsigned int shmem, hipStream_t stream,
                                 void **kernelParams, void **extra) {
  HIP_BEGIN();
  return hip_done(module_launch(__func__, f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shmem, stream, kernelParams, extra));
}

/* hip_ext.h's launches by work-items (HIP: globalWorkSize is the grid's work-items, not blocks),
 * between two event records (either may be NULL). A global size that is not a multiple of the
 * local one would make partial workgroups, which the emulator does not run (runtime/rt.h
 * hidden_remainder_*): refused with hipErrorInvalidValue */
static hipError_t ext_module_launch(const char *fn, hipFunction_t f, const uint32_t global[3], const uint32_t local[3],
                                    size_t shmem, hipStream_t stream, void **kernelParams, void **extra, hipEvent_t start,
                                    hipEvent_t stop) {
  uint32_t g[3];
  for (int i = 0; i < 3; i++) {
    if (!local[i] || global[i] % local[i])
      return hip_complain(fn, hipErrorInvalidValue, "global work size %u along %c is not a multiple of the local size %u: "
                          "partial workgroups are not provided", global[i], "xyz"[i], local[i]);
    g[i] = global[i] / local[i];
  }
  if (shmem > UINT32_MAX) return hip_complain(fn, hipErrorInvalidValue, "sharedMemBytes %zu", shmem);
  hipError_t e = start ? hipEventRecord(start, stream) : hipSuccess;
  if (e == hipSuccess)
    e = module_launch(fn, f, (dim3){g[0], g[1], g[2]}, (dim3){local[0], local[1], local[2]}, (unsigned)shmem, stream,
                      kernelParams, extra);
  if (e == hipSuccess && stop) e = hipEventRecord(stop, stream);
  return e;
}

hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t shmem, hipStream_t stream, void **kernelParams, void **extra,
                                    hipEvent_t start, hipEvent_t stop, uint32_t flags) {
  HIP_BEGIN();
  (void)flags;
  const uint32_t g[3] = {gx, gy, gz}, l[3] = {lx, ly, lz};
  return hip_done(ext_module_launch(__func__, f, g, l, shmem, stream, kernelParams, extra, start, stop));
}

hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t shmem, hipStream_t stream, void **kernelParams, void **extra,
                                    hipEvent_t start, hipEvent_t stop) {
  HIP_BEGIN();
  const uint32_t g[3] = {gx, gy, gz}, l[3] = {lx, ly, lz};
  return hip_done(ext_module_launch(__func__, f, g, l, shmem, stream, kernelParams, extra, start, stop));
}

/* ---- the pre-<<<>>> launch path: hipConfigureCall, hipSetupArgument (bytes at offsets of the
 * argument buffer), hipLaunchByPtr --------------------------------------------------------------*/
static __thread uint8_t setup_buf[4096];
static __thread size_t setup_len;

hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shmem, hipStream_t stream) {
  HIP_BEGIN();
  setup_len = 0;
  return hip_done(__hipPushCallConfiguration(grid, block, shmem, stream));
}

hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset) {
  HIP_BEGIN();
  if (!arg || offset > sizeof setup_buf || size > sizeof setup_buf - offset)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%zu bytes at offset %zu: past the %zu-byte argument buffer",
                                 size, offset, sizeof setup_buf));
  memcpy(setup_buf + offset, arg, size);
  if (offset + size > setup_len) setup_len = offset + size;
  return hip_done(hipSuccess);
}

hipError_t hipLaunchByPtr(const void *func) {
  HIP_BEGIN();
  dim3 g, b;
  size_t shmem;
  hipStream_t s;
  hipError_t e = __hipPopCallConfiguration(&g, &b, &shmem, &s);
  if (e != hipSuccess) return hip_done(hip_complain(__func__, e, "no hipConfigureCall before it"));
  struct ihipModuleSymbol_t *f;
  e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = hip_launch(__func__, f, g, b, shmem, s, NULL, setup_buf, setup_len, false);
  setup_len = 0;
  return hip_done(e);
}

/* ---- attributes ---------------------------------------------------------------------------------*/
static void func_attrs(const struct ihipModuleSymbol_t *f, hipFuncAttributes *a) {
  const emu_kernel *k = f->k;
  memset(a, 0, sizeof *a);
  a->numRegs = (int)k->vgpr_count;
  a->sharedSizeBytes = k->group_segment_size;
  a->localSizeBytes = k->private_segment_size;
  a->maxThreadsPerBlock = (int)(k->max_flat_workgroup_size < 1024 ? k->max_flat_workgroup_size : 1024);
  a->maxDynamicSharedSizeBytes = f->max_dyn_lds >= 0 ? f->max_dyn_lds
                                                     : (int)(emu_arch_lds_bytes(hip_g.arch) - k->group_segment_size);
  a->binaryVersion = 90 + (hip_g.arch == EMU_GFX942 ? 4 : 5);
  a->preferredShmemCarveout = -1;
}

hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func) {
  HIP_BEGIN();
  if (!attr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attr is NULL"));
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) func_attrs(f, attr);
  return hip_done(e);
}

hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t f) {
  HIP_BEGIN();
  if (!value || !f) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "value or hfunc is NULL"));
  hipError_t e = hip_func_resolve(f, __func__);
  if (e != hipSuccess) return hip_done(e);
  hipFuncAttributes a;
  func_attrs(f, &a);
  switch (attrib) {
  case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = a.maxThreadsPerBlock; break;
  case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)a.sharedSizeBytes; break;
  case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = (int)a.constSizeBytes; break;
  case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = (int)a.localSizeBytes; break;
  case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = a.numRegs; break;
  case HIP_FUNC_ATTRIBUTE_PTX_VERSION: *value = a.ptxVersion; break;
  case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: *value = a.binaryVersion; break;
  case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = a.cacheModeCA; break;
  case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = a.maxDynamicSharedSizeBytes; break;
  case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = a.preferredShmemCarveout; break;
  default: return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d", (int)attrib));
  }
  return hip_done(hipSuccess);
}

hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e != hipSuccess) return hip_done(e);
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize) {
    int room = (int)(emu_arch_lds_bytes(hip_g.arch) - f->k->group_segment_size);
    if (value < 0 || value > room)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%d bytes of dynamic shared memory: 0 to %d fit beside "
                                   "the kernel's %u static bytes", value, room, f->k->group_segment_size));
    f->max_dyn_lds = value;
    return hip_done(hipSuccess);
  }
  if (attr == hipFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "carveout %d", value));
    return hip_done(hipSuccess); /* a hint; CDNA's LDS is not carved out of L1 */
  }
  return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d", (int)attr));
}

/* ---- occupancy (docs/hip-runtime.md "Occupancy") -----------------------------------------------
 * Work-groups of a kernel that fit on one CU at once, as the hardware allocates:
 *   - waves per work-group W = ceil(block / 64);
 *   - VGPRs: the descriptor's GRANULATED_WORKITEM_VGPR_COUNT (compute_pgm_rsrc1 bits 5:0) is the
 *     unified VGPR+AGPR allocation in blocks of 8 (AMDGPUUsage, GFX90A/GFX942/GFX950); a SIMD has 512
 *     per lane, so floor(512 / alloc) waves fit, at most 8 (the wave slots of a SIMD on these
 *     targets, LLVM getMaxWavesPerEU);
 *   - SGPRs: .sgpr_count (metadata; VCC, FLAT_SCRATCH and XNACK included) limits waves per SIMD to
 *     10 / 9 / 8 / 7 at <= 80 / 88 / 100 / more (LLVM getOccupancyWithNumSGPRs, GFX8-GFX9);
 *   - a CU has 4 SIMDs: floor(4 * waves per SIMD / W) work-groups;
 *   - LDS: static + dynamic bytes rounded up to the allocation granule (512 bytes on gfx942, 1280 on
 *     gfx950: AMDGPUUsage compute_pgm_rsrc2 LDS_SIZE) out of the CU's 64 or 160 KiB;
 *   - at most 40 work-groups of one wave, else min(40 / W, 16) (LLVM getMaxWorkGroupsPerCU). */
static int occupancy(const emu_kernel *k, int block, size_t dyn) {
  if (block <= 0 || (unsigned)block > k->max_flat_workgroup_size || block > 1024) return 0;
  int w = (block + 63) / 64;
  int vgpr_alloc = (int)((k->rsrc1 & 0x3f) + 1) * 8;
  int simd = 512 / vgpr_alloc;
  if (simd > 8) simd = 8;
  int sg = k->sgpr_count <= 80 ? 10 : k->sgpr_count <= 88 ? 9 : k->sgpr_count <= 100 ? 8 : 7;
  if (sg < simd) simd = sg;
  int n = 4 * simd / w;
  int cap = w == 1 ? 40 : (40 / w < 16 ? 40 / w : 16);
  if (n > cap) n = cap;
  uint64_t lds = (uint64_t)k->group_segment_size + dyn;
  if (lds) {
    uint64_t gran = hip_g.arch == EMU_GFX950 ? 1280 : 512;
    uint64_t alloc = (lds + gran - 1) / gran * gran;
    uint64_t by_lds = emu_arch_lds_bytes(hip_g.arch) / alloc;
    if (by_lds < (uint64_t)n) n = (int)by_lds;
  }
  return n;
}

static hipError_t occ_flags(unsigned flags, const char *fn) {
  if (flags & ~(unsigned)hipOccupancyDisableCachingOverride) return hip_complain(fn, hipErrorInvalidValue, "flags 0x%x", flags);
  return hipSuccess;
}

static hipError_t occ_blocks(int *num, struct ihipModuleSymbol_t *f, int block, size_t dyn, const char *fn) {
  if (!num) return hip_complain(fn, hipErrorInvalidValue, "numBlocks is NULL");
  hipError_t e = hip_func_resolve(f, fn);
  if (e != hipSuccess) return e;
  if (block <= 0) return hip_complain(fn, hipErrorInvalidValue, "blockSize %d", block);
  *num = occupancy(f->k, block, dyn);
  return hipSuccess;
}

/* The block size (a multiple of 64 up to the limit) that keeps the most waves on a CU; on a tie
 * the larger block; gridSize is then enough blocks to fill every CU once. */
static hipError_t occ_potential(int *grid, int *block, struct ihipModuleSymbol_t *f, size_t dyn, int limit,
                                const char *fn) {
  if (!grid || !block) return hip_complain(fn, hipErrorInvalidValue, "gridSize or blockSize is NULL");
  hipError_t e = hip_func_resolve(f, fn);
  if (e != hipSuccess) return e;
  int max = (int)(f->k->max_flat_workgroup_size < 1024 ? f->k->max_flat_workgroup_size : 1024);
  if (limit > 0 && limit < max) max = limit;
  int best = 0, best_waves = -1, best_n = 0;
  for (int bs = 64; bs <= max; bs += 64) {
    int n = occupancy(f->k, bs, dyn), waves = n * (bs / 64);
    if (waves >= best_waves) best = bs, best_waves = waves, best_n = n;
  }
  if (!best) best = max, best_n = occupancy(f->k, max, dyn);
  int cus = 0;
  if (hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0) != hipSuccess) cus = 0;
  *block = best;
  *grid = best_n * cus;
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func, int block, size_t dyn) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = occ_blocks(num, f, block, dyn, __func__);
  return hip_done(e);
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, const void *func, int block, size_t dyn,
                                                                 unsigned int flags) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = occ_flags(flags, __func__);
  if (e == hipSuccess) e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = occ_blocks(num, f, block, dyn, __func__);
  return hip_done(e);
}

hipError_t hipOccupancyMaxPotentialBlockSize(int *grid, int *block, const void *func, size_t dyn, int limit) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = occ_potential(grid, block, f, dyn, limit, __func__);
  return hip_done(e);
}

hipError_t hipOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, const void *func, size_t dyn, int limit,
                                                      unsigned int flags) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = occ_flags(flags, __func__);
  if (e == hipSuccess) e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess) e = occ_potential(grid, block, f, dyn, limit, __func__);
  return hip_done(e);
}

/* hipOccupancyMaxPotentialBlockSizeVariableSMem[WithFlags]: HIP has them only as header templates
 * (ROCm/HIP include/hip/hip_runtime_api.h) whose search calls the public entry points; the same
 * search here for a size rule given as a function pointer, which lanelab's header templates also use
 * for functors and lambdas (docs/hip-runtime.md "Occupancy"). The user's rule runs with no lock held. */
hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *grid, int *block, const void *func,
                                                                  size_t (*smem)(int), int limit, unsigned int flags) {
  HIP_BEGIN();
  hipError_t e = !grid || !block || !func || !smem
                     ? hip_complain(__func__, hipErrorInvalidValue, "%s is NULL",
                                    !grid ? "min_grid_size" : !block ? "block_size" : !func ? "func" : "the size rule")
                     : hipSuccess;
  hip_done(e);
  if (e != hipSuccess) return e;
  int dev = 0, per_cu = 0, warp = 0, cus = 0;
  hipFuncAttributes a;
  if ((e = hipGetDevice(&dev)) != hipSuccess ||
      (e = hipDeviceGetAttribute(&per_cu, hipDeviceAttributeMaxThreadsPerMultiProcessor, dev)) != hipSuccess ||
      (e = hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, dev)) != hipSuccess ||
      (e = hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, dev)) != hipSuccess ||
      (e = hipFuncGetAttributes(&a, func)) != hipSuccess)
    return e;
  /* the limit: 0 or above the kernel's own, the kernel's; candidates from it rounded up to the wave
   * size, down by the wave size, each no larger than the limit */
  if (limit == 0 || limit > a.maxThreadsPerBlock) limit = a.maxThreadsPerBlock;
  int best_threads = 0, best_block = 0, best_n = 0;
  for (int c = (limit + warp - 1) / warp * warp; c > 0; c -= warp) {
    const int bs = limit < c ? limit : c;
    int n = 0;
    if ((e = hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, func, bs, smem(bs), flags)) != hipSuccess) return e;
    if (bs * n > best_threads) best_threads = bs * n, best_block = bs, best_n = n; /* the larger block on a tie */
    if (best_threads == per_cu) break;                                           /* a CU is full */
  }
  *grid = best_n * cus;
  *block = best_block;
  return hipSuccess;
}

hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(int *grid, int *block, const void *func, size_t (*smem)(int),
                                                        int limit) {
  return hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(grid, block, func, smem, limit, hipOccupancyDefault);
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *num, hipFunction_t f, int block, size_t dyn) {
  HIP_BEGIN();
  if (!f) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "f is NULL"));
  return hip_done(occ_blocks(num, f, block, dyn, __func__));
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, hipFunction_t f, int block, size_t dyn,
                                                                       unsigned int flags) {
  HIP_BEGIN();
  if (!f) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "f is NULL"));
  hipError_t e = occ_flags(flags, __func__);
  return hip_done(e == hipSuccess ? occ_blocks(num, f, block, dyn, __func__) : e);
}

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *grid, int *block, hipFunction_t f, size_t dyn, int limit) {
  HIP_BEGIN();
  if (!f) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "f is NULL"));
  return hip_done(occ_potential(grid, block, f, dyn, limit, __func__));
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, hipFunction_t f, size_t dyn,
                                                            int limit, unsigned int flags) {
  HIP_BEGIN();
  if (!f) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "f is NULL"));
  hipError_t e = occ_flags(flags, __func__);
  return hip_done(e == hipSuccess ? occ_potential(grid, block, f, dyn, limit, __func__) : e);
}
