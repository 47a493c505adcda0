/* hip/hip_state — the HIP runtime's process state: initialisation from the exec protocol's
 * environment (hip.h), errors (last, pending, sticky), the device and its properties, the summary
 * that `lanelab exec` reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hip/internal.h"

hip_state hip_g;
pthread_mutex_t hip_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static __thread hipError_t last_error = hipSuccess;

/* ---- errors ---------------------------------------------------------------------------------*/
static const struct {
  hipError_t e;
  const char *name, *text;
} errs[] = {
#define E(n, t) {n, #n, t}
    E(hipSuccess, "no error"),
    E(hipErrorInvalidValue, "invalid argument"),
    E(hipErrorOutOfMemory, "out of memory"),
    E(hipErrorNotInitialized, "initialization error"),
    E(hipErrorDeinitialized, "driver shutting down"),
    E(hipErrorProfilerDisabled, "profiler disabled while using external profiling tool"),
    E(hipErrorProfilerNotInitialized, "profiler is not initialized"),
    E(hipErrorProfilerAlreadyStarted, "profiler already started"),
    E(hipErrorProfilerAlreadyStopped, "profiler already stopped"),
    E(hipErrorInvalidConfiguration, "invalid configuration argument"),
    E(hipErrorInvalidPitchValue, "invalid pitch argument"),
    E(hipErrorInvalidSymbol, "invalid device symbol"),
    E(hipErrorInvalidDevicePointer, "invalid device pointer"),
    E(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    E(hipErrorInsufficientDriver, "driver version is insufficient for runtime version"),
    E(hipErrorMissingConfiguration, "__global__ function call is not configured"),
    E(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch"),
    E(hipErrorInvalidDeviceFunction, "invalid device function"),
    E(hipErrorNoDevice, "no ROCm-capable device is detected"),
    E(hipErrorInvalidDevice, "invalid device ordinal"),
    E(hipErrorInvalidImage, "device kernel image is invalid"),
    E(hipErrorInvalidContext, "invalid device context"),
    E(hipErrorContextAlreadyCurrent, "context is already current context"),
    E(hipErrorMapFailed, "mapping of buffer object failed"),
    E(hipErrorUnmapFailed, "unmapping of buffer object failed"),
    E(hipErrorArrayIsMapped, "array is mapped"),
    E(hipErrorAlreadyMapped, "resource already mapped"),
    E(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device"),
    E(hipErrorAlreadyAcquired, "resource already acquired"),
    E(hipErrorNotMapped, "resource not mapped"),
    E(hipErrorNotMappedAsArray, "resource not mapped as array"),
    E(hipErrorNotMappedAsPointer, "resource not mapped as pointer"),
    E(hipErrorECCNotCorrectable, "uncorrectable ECC error encountered"),
    E(hipErrorUnsupportedLimit, "limit is not supported on this architecture"),
    E(hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread"),
    E(hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
    E(hipErrorInvalidKernelFile, "invalid kernel file"),
    E(hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context"),
    E(hipErrorInvalidSource, "device kernel image is invalid"),
    E(hipErrorFileNotFound, "file not found"),
    E(hipErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
    E(hipErrorSharedObjectInitFailed, "shared object initialization failed"),
    E(hipErrorOperatingSystem, "OS call failed or operation not supported on this OS"),
    E(hipErrorInvalidHandle, "invalid resource handle"),
    E(hipErrorIllegalState, "the operation cannot be performed in the present state"),
    E(hipErrorNotFound, "named symbol not found"),
    E(hipErrorNotReady, "device not ready"),
    E(hipErrorIllegalAddress, "an illegal memory access was encountered"),
    E(hipErrorLaunchOutOfResources, "too many resources requested for launch"),
    E(hipErrorLaunchTimeOut, "the launch timed out and was terminated"),
    E(hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
    E(hipErrorPeerAccessNotEnabled, "peer access has not been enabled"),
    E(hipErrorSetOnActiveProcess, "cannot set while device is active in this process"),
    E(hipErrorContextIsDestroyed, "context is destroyed"),
    E(hipErrorAssert, "device-side assert triggered"),
    E(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
    E(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
    E(hipErrorLaunchFailure, "unspecified launch failure"),
    E(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    E(hipErrorNotSupported, "operation not supported"),
    E(hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
    E(hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
    E(hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
    E(hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
    E(hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
    E(hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
    E(hipErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream"),
    E(hipErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
    E(hipErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread"),
    E(hipErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which "
                                      "violated constraints specific to instantiated graph update"),
    E(hipErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    E(hipErrorInvalidTexture, "invalid texture"),
    E(hipErrorUnknown, "unknown error"),
    E(hipErrorRuntimeMemory, "runtime memory call returned error"),
    E(hipErrorRuntimeOther, "runtime call other than memory returned error"),
    E(hipErrorTbd, "marker that more error codes are needed"),
#undef E
};

const char *hipGetErrorName(hipError_t e) {
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
    if (errs[i].e == e) return errs[i].name;
  return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t e) {
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
    if (errs[i].e == e) return errs[i].text;
  return "unknown error";
}

hipError_t hipDrvGetErrorName(hipError_t e, const char **s) {
  if (!s) return hipErrorInvalidValue;
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
    if (errs[i].e == e) return *s = errs[i].name, hipSuccess;
  *s = NULL;
  return hipErrorInvalidValue;
}

hipError_t hipDrvGetErrorString(hipError_t e, const char **s) {
  if (!s) return hipErrorInvalidValue;
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
    if (errs[i].e == e) return *s = errs[i].text, hipSuccess;
  *s = NULL;
  return hipErrorInvalidValue;
}

/* HIP: hipGetLastError returns the thread's last error and resets it; hipPeekAtLastError does
 * not reset it. A sticky fault is returned by both, every time. */
hipError_t hipGetLastError(void) {
  pthread_mutex_lock(&hip_mu);
  hipError_t e = last_error;
  last_error = hipSuccess;
  if (e == hipSuccess && hip_g.sticky != hipSuccess) e = hip_g.sticky;
  pthread_mutex_unlock(&hip_mu);
  return e;
}

hipError_t hipExtGetLastError(void) { return hipGetLastError(); }

hipError_t hipPeekAtLastError(void) {
  pthread_mutex_lock(&hip_mu);
  hipError_t e = last_error != hipSuccess ? last_error : hip_g.sticky;
  pthread_mutex_unlock(&hip_mu);
  return e;
}

hipError_t hip_complain(const char *fn, hipError_t e, const char *why, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, why);
  vsnprintf(msg, sizeof msg, why, ap);
  va_end(ap);
  fprintf(stderr, "lanelab: hip: %s: %s (%s)\n", fn, msg, hipGetErrorName(e));
  hip_g.api_errors++;
  return e;
}

hipError_t hip_done(hipError_t e) {
  if (e != hipSuccess) last_error = e;
  pthread_mutex_unlock(&hip_mu);
  return e;
}

hipError_t hip_sync_point(void) {
  if (hip_g.pending != hipSuccess && hip_g.sticky == hipSuccess) hip_g.sticky = hip_g.pending;
  hip_g.pending = hipSuccess;
  return hip_g.sticky;
}

/* ---- findings and the summary -----------------------------------------------------------------*/
void hip_finding_add(const char *line) {
  fprintf(stderr, "lanelab: %s\n", line);
  hip_g.findings = ll_xrealloc(hip_g.findings, (hip_g.nfindings + 1) * sizeof *hip_g.findings);
  hip_g.findings[hip_g.nfindings++] = ll_xstrdup(line);
}

void hip_finding(const char *line) {
  hip_finding_add(line);
  hip_summary_write(false);
}

void hip_summary_write(bool complete) {
  if (!hip_g.summary_path) return;
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"), ll_jw_str(&w, "lanelab's HIP runtime (hip/); read by lanelab exec");
  ll_jw_key(&w, "arch"), ll_jw_str(&w, hip_g.inited ? emu_arch_name(hip_g.arch) : "");
  ll_jw_key(&w, "launches"), ll_jw_uint(&w, hip_g.launches);
  ll_jw_key(&w, "kernels"), ll_jw_obj_begin(&w);
  for (size_t i = 0; i < hip_g.nk; i++) ll_jw_key(&w, hip_g.kname[i]), ll_jw_uint(&w, hip_g.kcount[i]);
  ll_jw_obj_end(&w);
  ll_jw_key(&w, "faults"), ll_jw_uint(&w, hip_g.faults);
  ll_jw_key(&w, "races"), ll_jw_uint(&w, hip_g.races);
  ll_jw_key(&w, "uninit"), ll_jw_uint(&w, hip_g.uninit);
  ll_jw_key(&w, "mem_warnings"), ll_jw_uint(&w, hip_g.mem_warnings);
  ll_jw_key(&w, "api_errors"), ll_jw_uint(&w, hip_g.api_errors);
  ll_jw_key(&w, "leaks"), ll_jw_uint(&w, hip_g.leaks);
  ll_jw_key(&w, "leak_bytes"), ll_jw_uint(&w, hip_g.leak_bytes);
  ll_jw_key(&w, "heap_bad"), ll_jw_uint(&w, hip_g.heap_bad);
  ll_jw_key(&w, "findings"), ll_jw_arr_begin(&w);
  for (size_t i = 0; i < hip_g.nfindings; i++) ll_jw_str(&w, hip_g.findings[i]);
  ll_jw_arr_end(&w);
  { /* the fidelity line and, for --strict-fidelity, one line per stated choice (docs/fidelity.md) */
    emu_fidelity f;
    emu_fidelity_process(&f);
    char line[1024], choices[8192] = "";
    emu_fidelity_format(&f, line, sizeof line);
    emu_fidelity_strict(&f, choices, sizeof choices);
    ll_jw_key(&w, "insns"), ll_jw_uint(&w, f.insns);
    ll_jw_key(&w, "choice_insns"), ll_jw_uint(&w, f.choice_insns);
    ll_jw_key(&w, "fidelity"), ll_jw_str(&w, line);
    ll_jw_key(&w, "fidelity_choices"), ll_jw_str(&w, choices);
  }
  ll_jw_key(&w, "complete"), ll_jw_bool(&w, complete);
  ll_jw_obj_end(&w);
  ll_err e = {0};
  if (!ll_write_file_atomic(hip_g.summary_path, b.data, b.len, &e))
    fprintf(stderr, "lanelab: hip: cannot write the exec summary: %s\n", e.msg);
  ll_buf_free(&b);
}

static void at_exit(void) {
  pthread_mutex_lock(&hip_mu);
  if (hip_g.leakcheck) hip_leakcheck();
  hip_summary_write(true);
  pthread_mutex_unlock(&hip_mu);
}

/* ---- initialisation -------------------------------------------------------------------------*/
static bool env_bad(const char *var, const char *val, const char *want) {
  fprintf(stderr, "lanelab: hip: %s=%s: expected %s\n", var, val, want);
  return false;
}

static bool read_options(void) {
  const char *v;
  if ((v = getenv("LANELAB_RACECHECK")) && *v) {
    if (!strcmp(v, "lds")) hip_g.race = true;
    else if (!strcmp(v, "global")) hip_g.race = hip_g.race_global = true;
    else return env_bad("LANELAB_RACECHECK", v, "lds or global");
  }
  if ((v = getenv("LANELAB_INITCHECK")) && *v) {
    if (strcmp(v, "1")) return env_bad("LANELAB_INITCHECK", v, "1");
    hip_g.initcheck = true;
  }
  if ((v = getenv("LANELAB_HEAPCHECK")) && *v) {
    if (strcmp(v, "1")) return env_bad("LANELAB_HEAPCHECK", v, "1");
    hip_g.heapcheck = true;
  }
  if ((v = getenv("LANELAB_LEAKCHECK")) && *v) {
    if (strcmp(v, "1")) return env_bad("LANELAB_LEAKCHECK", v, "1");
    hip_g.leakcheck = true;
  }
  if ((v = getenv("LANELAB_STRICT_MEMORY")) && *v) {
    if (strcmp(v, "1")) return env_bad("LANELAB_STRICT_MEMORY", v, "1");
    hip_g.strict_memory = true;
  }
  if ((v = getenv("LANELAB_SCHEDULE")) && *v) {
    if (!strcmp(v, "roundrobin")) hip_g.sched = EMU_SCHED_ROUND_ROBIN;
    else if (!strcmp(v, "adversarial")) hip_g.sched = EMU_SCHED_ADVERSARIAL;
    else if (!strncmp(v, "random:", 7) && ll_parse_u64(v + 7, &hip_g.sched_seed)) hip_g.sched = EMU_SCHED_RANDOM;
    else return env_bad("LANELAB_SCHEDULE", v, "roundrobin, adversarial or random:SEED");
  }
  /* a program's kernels run as long as they need on a GPU: the budget is only a stop for a kernel
   * that never ends, so it is far above `lanelab run`'s 50 M (docs/hip-runtime.md, `lanelab exec --budget`) */
  hip_g.budget = HIP_BUDGET_DEFAULT;
  if ((v = getenv("LANELAB_BUDGET")) && *v) {
    if (!ll_parse_u64(v, &hip_g.budget) || hip_g.budget == 0)
      return env_bad("LANELAB_BUDGET", v, "a positive number of instructions per wave");
  }
  if ((v = getenv("LANELAB_TRACE")) && *v) {
    emu_observer *o = emu_observer_new();
    ll_err e = {0};
    bool ok = emu_observer_trace(o, v, 0, &e);
    emu_observer_free(o);
    if (!ok) return env_bad("LANELAB_TRACE", v, e.msg);
    hip_g.trace_spec = ll_xstrdup(v);
  }
  if ((v = getenv("LANELAB_REPORT")) && *v) hip_g.report_dir = ll_xstrdup(v);
  if ((v = getenv("LANELAB_EXEC_SUMMARY")) && *v) hip_g.summary_path = ll_xstrdup(v);
  return true;
}

/* Which arch: LANELAB_ARCH; else the one arch every registered fat binary was built for; else
 * gfx950 (lanelab's default arch). */
static bool pick_arch(void) {
  const char *v = getenv("LANELAB_ARCH");
  if (v && *v) {
    char low[32];
    snprintf(low, sizeof low, "%s", v);
    for (char *p = low; *p; p++) *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    if (!emu_arch_parse(low, &hip_g.arch)) return env_bad("LANELAB_ARCH", v, "gfx942 or gfx950");
    return true;
  }
  hip_g.arch = EMU_GFX950;
  bool has[EMU_NARCH] = {true, true};
  bool any = false;
  for (size_t i = 0; i < hip_g.nfatbins; i++) {
    char *a = hip_bundle_arches(hip_g.fatbins[i]->bundle);
    for (int k = 0; k < EMU_NARCH; k++)
      if (!strstr(a, emu_arch_name((emu_arch)k))) has[k] = false;
    free(a);
    any = true;
  }
  if (any && has[EMU_GFX942] != has[EMU_GFX950]) hip_g.arch = has[EMU_GFX942] ? EMU_GFX942 : EMU_GFX950;
  return true;
}

hipError_t hip_begin(void) {
  pthread_mutex_lock(&hip_mu);
  if (!hip_g.inited) {
    hip_g.inited = true;
    hip_g.printf_bytes = RT_PRINTF_BYTES;
    hip_g.stack_bytes = 1024; /* HIP's default stack size (docs/emulator-choices.md "Private memory") */
    hip_g.heap_bytes = (size_t)8 << 20; /* ROCm's initial device heap (ROCm/clr flags.hpp HIP_INITIAL_DM_SIZE) */
    if (!read_options() || !pick_arch()) {
      fflush(stdout);
      _exit(LL_EXIT_USAGE); /* the exec protocol (hip.h): bad options stop the program at once */
    }
    hip_reserve_device_range();
    ll_err e = {0};
    hip_g.dev = rt_open(RT_EMU, hip_g.arch, &e);
    if (!hip_g.dev) {
      hip_g.init_err = hipErrorNoDevice;
      hip_complain("hipInit", hipErrorNoDevice, "%s", e.msg);
    }
    atexit(at_exit);
    hip_summary_write(false);
  }
  if (hip_g.init_err != hipSuccess) return hip_g.init_err;
  return hip_g.sticky;
}

/* ---- device properties --------------------------------------------------------------------------
 * Figures and their sources (docs/hip-runtime.md, "Device properties"):
 *   [specs]  ROCm documentation, "AMD GPU specifications" (reference/gpu-specs): MI300X gfx942 192 GiB,
 *            304 CUs, wavefront 64, LDS 64 KiB, L2 32 MiB (4 per XCD), VGPR file 512 KiB per CU,
 *            GFXIP 9.4; MI355X gfx950 288 GiB, 256 CUs, LDS 160 KiB, L2 32 MiB (4 per XCD), VGPR
 *            file 512 KiB, GFXIP 9.5
 *   [clock]  AMD's product pages: MI300X peak engine clock 2100 MHz, MI355X 2400 MHz; both an
 *            8192-bit HBM interface
 *   [llvm]   LLVM AMDGPUUsage / AMDGPUBaseInfo: max flat work-group size 1024, 4 SIMDs per CU,
 *            8 waves per SIMD on gfx90a-family targets (gfx942, gfx950)
 *   [hsa]    the HSA dispatch packet's grid size is 32-bit in work-items */
typedef struct arch_figs {
  const char *name, *gcn;
  uint64_t vram;
  int cus, lds, clock_khz, gfx_minor;
} arch_figs;
static const arch_figs figs[EMU_NARCH] = {
    [EMU_GFX942] = {"AMD Instinct MI300X (lanelab emulator)", "gfx942:sramecc+:xnack-", 192ull << 30, 304, 65536,
                    2100000, 4},
    [EMU_GFX950] = {"AMD Instinct MI355X (lanelab emulator)", "gfx950:sramecc+:xnack-", 288ull << 30, 256, 163840,
                    2400000, 5},
};

size_t hip_total_mem(void) { return figs[hip_g.arch].vram; }
int hip_cu_count(void) { return figs[hip_g.arch].cus; }

static void fill_props(hipDeviceProp_t *p, emu_arch a) {
  const arch_figs *f = &figs[a];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", f->name);
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", f->gcn);
  p->gcnArch = a == EMU_GFX942 ? 942 : 950;
  p->totalGlobalMem = f->vram;
  p->sharedMemPerBlock = (size_t)f->lds;
  p->sharedMemPerBlockOptin = (size_t)f->lds;
  p->sharedMemPerMultiprocessor = (size_t)f->lds;
  p->maxSharedMemoryPerMultiProcessor = (size_t)f->lds;
  p->regsPerMultiprocessor = 512 * 1024 / 4; /* [specs] VGPR file per CU, in 32-bit registers */
  p->regsPerBlock = p->regsPerMultiprocessor;
  p->warpSize = 64;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
  p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 0x7fffffff; /* [hsa] */
  p->clockRate = f->clock_khz;
  p->memoryBusWidth = 8192;
  p->major = 9;
  p->minor = f->gfx_minor;
  p->multiProcessorCount = f->cus;
  p->l2CacheSize = 4 << 20;                  /* [specs] per XCD: what one kernel's CUs share */
  p->maxThreadsPerMultiProcessor = 4 * 8 * 64; /* [llvm] 4 SIMDs x 8 waves x 64 lanes */
  p->maxBlocksPerMultiProcessor = 40;        /* [llvm] getMaxWorkGroupsPerCU for one-wave groups */
  p->managedMemory = 1;
  /* managed memory is one copy host and kernels use at once (ROCm reports its HMM support here) */
  p->concurrentManagedAccess = 1;
  p->unifiedAddressing = 1;
  p->canMapHostMemory = 1;
  p->hostRegisterSupported = 1;
  p->concurrentKernels = 0; /* the emulator runs one launch at a time */
  p->cooperativeLaunch = 1; /* hipLaunchCooperativeKernel (hip_launch.c) */
  p->computeMode = 0;
  p->memPitch = 0x7fffffff;
  p->totalConstMem = 0x7fffffff; /* ROCm: the largest allocation, capped at INT32_MAX (hip_device.cpp) */
  p->textureAlignment = 0;
  p->arch.hasGlobalInt32Atomics = p->arch.hasGlobalFloatAtomicExch = p->arch.hasSharedInt32Atomics = 1;
  p->arch.hasSharedFloatAtomicExch = p->arch.hasFloatAtomicAdd = p->arch.hasGlobalInt64Atomics = 1;
  p->arch.hasSharedInt64Atomics = p->arch.hasDoubles = p->arch.hasWarpVote = p->arch.hasWarpBallot = 1;
  p->arch.hasWarpShuffle = p->arch.hasThreadFenceSystem = p->arch.has3dGrid = 1;
  /* ROCm's values (hip_device.cpp), which the device pass's __HIP_ARCH_HAS_* macros match: no funnel
   * shift, no extended syncthreads (both said 1 until 2026-12-06) */
  p->arch.hasFunnelShift = p->arch.hasSyncThreadsExt = 0;
  p->hostNativeAtomicSupported = 1; /* the device's atomics are the host's own on one memory */
  p->isLargeBar = 0; /* the host cannot dereference device memory here (it is the emulator's, not mapped into the program) */
}

hipError_t hip_device_arg(const char *fn, int id, hipError_t code) {
  if (id != 0) return hip_complain(fn, code, "device %d: the emulated system has one device, 0", id);
  return hipSuccess;
}
static hipError_t check_device(const char *fn, int id) { return hip_device_arg(fn, id, hipErrorInvalidDevice); }

hipError_t hipInit(unsigned int flags) {
  HIP_BEGIN();
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be 0, got %u", flags));
  return hip_done(hipSuccess);
}

/* The HIP release this runtime follows (hip_runtime_api.h HIP_VERSION). */
hipError_t hipDriverGetVersion(int *v) {
  HIP_BEGIN();
  if (!v) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "driverVersion is NULL"));
  *v = HIP_VERSION;
  return hip_done(hipSuccess);
}

hipError_t hipRuntimeGetVersion(int *v) {
  HIP_BEGIN();
  if (!v) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "runtimeVersion is NULL"));
  *v = HIP_VERSION;
  return hip_done(hipSuccess);
}

hipError_t hipGetDeviceCount(int *n) {
  HIP_BEGIN();
  if (!n) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "count is NULL"));
  *n = 1;
  return hip_done(hipSuccess);
}

hipError_t hipSetDevice(int id) {
  HIP_BEGIN();
  return hip_done(check_device(__func__, id));
}

hipError_t hipGetDevice(int *id) {
  HIP_BEGIN();
  if (!id) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "deviceId is NULL"));
  *id = 0;
  return hip_done(hipSuccess);
}

hipError_t hipDeviceGet(hipDevice_t *d, int ordinal) {
  HIP_BEGIN();
  if (!d) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "device is NULL"));
  hipError_t e = check_device(__func__, ordinal);
  if (e == hipSuccess) *d = 0;
  return hip_done(e);
}

hipError_t hipChooseDevice(int *d, const hipDeviceProp_t *prop) {
  HIP_BEGIN();
  if (!d || !prop) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "a pointer argument is NULL"));
  *d = 0;
  return hip_done(hipSuccess);
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int id) {
  HIP_BEGIN();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "prop is NULL"));
  hipError_t e = check_device(__func__, id);
  if (e == hipSuccess) fill_props(p, hip_g.arch);
  return hip_done(e);
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t d) {
  HIP_BEGIN();
  if (!name || len <= 0) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "name is NULL or len <= 0"));
  hipError_t e = check_device(__func__, d);
  if (e == hipSuccess) snprintf(name, (size_t)len, "%s", figs[hip_g.arch].name);
  return hip_done(e);
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t d) {
  HIP_BEGIN();
  if (!bytes) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "bytes is NULL"));
  hipError_t e = check_device(__func__, d);
  if (e == hipSuccess) *bytes = figs[hip_g.arch].vram;
  return hip_done(e);
}

hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t d) {
  HIP_BEGIN();
  if (!major || !minor) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "major or minor is NULL"));
  hipError_t e = check_device(__func__, d);
  if (e == hipSuccess) *major = 9, *minor = figs[hip_g.arch].gfx_minor;
  return hip_done(e);
}

hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int id) {
  HIP_BEGIN();
  if (!pi) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pi is NULL"));
  hipError_t e = check_device(__func__, id);
  if (e != hipSuccess) return hip_done(e);
  hipDeviceProp_t p;
  fill_props(&p, hip_g.arch);
  int v;
  switch (attr) {
  case hipDeviceAttributeMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
  case hipDeviceAttributeMaxBlockDimX: v = p.maxThreadsDim[0]; break;
  case hipDeviceAttributeMaxBlockDimY: v = p.maxThreadsDim[1]; break;
  case hipDeviceAttributeMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
  case hipDeviceAttributeMaxGridDimX: v = p.maxGridSize[0]; break;
  case hipDeviceAttributeMaxGridDimY: v = p.maxGridSize[1]; break;
  case hipDeviceAttributeMaxGridDimZ: v = p.maxGridSize[2]; break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
  case hipDeviceAttributeSharedMemPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
  case hipDeviceAttributeSharedMemPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
  case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: v = (int)p.maxSharedMemoryPerMultiProcessor; break;
  case hipDeviceAttributeWarpSize: v = p.warpSize; break;
  case hipDeviceAttributeMaxRegistersPerBlock: v = p.regsPerBlock; break;
  case hipDeviceAttributeMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
  case hipDeviceAttributeClockRate: v = p.clockRate; break;
  /* the constant clock s_memrealtime reads, 100 MHz on gfx9 (docs/hip-runtime.md "Device
   * properties"); the emulator's reading counts the wave's instructions (clock-counter) */
  case hipDeviceAttributeWallClockRate: v = 100000; break;
  case hipDeviceAttributeMemoryBusWidth: v = p.memoryBusWidth; break;
  case hipDeviceAttributeMultiprocessorCount: v = p.multiProcessorCount; break;
  case hipDeviceAttributeComputeCapabilityMajor: v = p.major; break;
  case hipDeviceAttributeComputeCapabilityMinor: v = p.minor; break;
  case hipDeviceAttributeL2CacheSize: v = p.l2CacheSize; break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
  case hipDeviceAttributeMaxBlocksPerMultiProcessor: v = p.maxBlocksPerMultiProcessor; break;
  case hipDeviceAttributeManagedMemory: v = p.managedMemory; break;
  case hipDeviceAttributeUnifiedAddressing: v = p.unifiedAddressing; break;
  case hipDeviceAttributeCanMapHostMemory: v = p.canMapHostMemory; break;
  case hipDeviceAttributeHostRegisterSupported: v = p.hostRegisterSupported; break;
  case hipDeviceAttributeConcurrentKernels: v = p.concurrentKernels; break;
  case hipDeviceAttributeCooperativeLaunch: v = p.cooperativeLaunch; break;
  case hipDeviceAttributeCooperativeMultiDeviceLaunch: v = 0; break;
  case hipDeviceAttributeComputeMode: v = p.computeMode; break;
  case hipDeviceAttributeIntegrated: v = 0; break;
  case hipDeviceAttributeIsMultiGpuBoard: v = 0; break;
  case hipDeviceAttributeEccEnabled: v = 0; break;
  case hipDeviceAttributeConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
  case hipDeviceAttributePageableMemoryAccess: v = 0; break;
  case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: v = 0; break; /* no pageable access at all */
  case hipDeviceAttributeDirectManagedMemAccessFromHost: v = 1; break;
  case hipDeviceAttributeMaxPitch: v = (int)p.memPitch; break;
  case hipDeviceAttributeTotalConstantMemory: v = (int)p.totalConstMem; break;
  case hipDeviceAttributeIsLargeBar: v = p.isLargeBar; break;
  case hipDeviceAttributeHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
  case hipDeviceAttributeStreamPrioritiesSupported: v = 0; break;
  case hipDeviceAttributePhysicalMultiProcessorCount: v = p.multiProcessorCount; break;
  case hipDeviceAttributeFineGrainSupport: v = 1; break;
  case hipDeviceAttributeImageSupport: v = 0; break;
  case hipDeviceAttributeMemoryPoolsSupported: v = 1; break; /* hip_pool.c */
  case hipDeviceAttributeCanUseStreamWaitValue: v = 1; break; /* hip_stream.c */
  case hipDeviceAttributeMemoryPoolSupportedHandleTypes: v = hipMemHandleTypeNone; break; /* no pool is exported */
  case hipDeviceAttributeVirtualMemoryManagementSupported: v = 0; break;
  default:
    return hip_done(hip_complain(__func__, hipErrorNotSupported,
                                 "attribute %d: lanelab has no figure for it (docs/hip-runtime.md lists the ones it has)",
                                 (int)attr));
  }
  *pi = v;
  return hip_done(hipSuccess);
}

hipError_t hipDeviceSynchronize(void) {
  HIP_BEGIN();
  hipError_t c = hip_capture_sync(__func__, hipErrorStreamCaptureUnsupported); /* hip_graph.c */
  if (c != hipSuccess) return hip_done(c);
  hip_pool_release_freed(); /* ROCm trims the memory pools after the device's work */
  return hip_done(hip_sync_point());
}

/* Frees every allocation, stream, event and module, clears the errors; registered code stays
 * registered (it belongs to the program) and is loaded again on its next use. */
hipError_t hipDeviceReset(void) {
  pthread_mutex_lock(&hip_mu);
  if (!hip_g.inited || !hip_g.dev) {
    pthread_mutex_unlock(&hip_mu);
    return hip_g.inited ? hip_g.init_err : hipSuccess;
  }
  hip_graph_reset(); /* before the memory: graphs give back the allocations they own */
  hip_pool_reset();
  hip_memory_reset();
  hip_code_reset();
  rt_close(hip_g.dev);
  ll_err e = {0};
  hip_g.dev = rt_open(RT_EMU, hip_g.arch, &e);
  hip_g.sticky = hip_g.pending = hipSuccess;
  hip_g.init_err = hip_g.dev ? hipSuccess : hipErrorNoDevice;
  return hip_done(hip_g.init_err);
}

/* A limit that is none of the three, with ROCm's answers (ROCm/clr hip_device_runtime.cpp f9f995c:
 * `limit >= hipLimitRange` is hipErrorInvalidValue, and, the enum's type being int there, a negative
 * one reaches the switch's default, hipErrorUnsupportedLimit; AMD's hip-tests check both) */
static hipError_t limit_refused(const char *fn, enum hipLimit_t limit) {
  if ((int)limit >= (int)hipLimitRange)
    return hip_complain(fn, hipErrorInvalidValue, "limit %d is past hipLimitRange", (int)limit);
  return hip_complain(fn, hipErrorUnsupportedLimit, "limit %d is not a hipLimit_t", (int)limit);
}

hipError_t hipDeviceGetLimit(size_t *v, enum hipLimit_t limit) {
  HIP_BEGIN();
  if (!v) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pValue is NULL"));
  if (limit == hipLimitPrintfFifoSize) return *v = hip_g.printf_bytes, hip_done(hipSuccess);
  if (limit == hipLimitStackSize) return *v = hip_g.stack_bytes, hip_done(hipSuccess);
  if (limit == hipLimitMallocHeapSize) return *v = hip_g.heap_bytes, hip_done(hipSuccess);
  return hip_done(limit_refused(__func__, limit));
}

hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t v) {
  HIP_BEGIN();
  if (limit == hipLimitStackSize) {
    /* the private bytes per work-item a kernel with a dynamic stack gets at least (a kernel's own
     * fixed size, when larger, is kept); lanelab's limit per lane is EMU_PRIVATE_MAX */
    if (v == 0 || v > EMU_PRIVATE_MAX)
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "stack of %zu bytes per work-item: 1 B to %u B", v,
                                   (unsigned)EMU_PRIVATE_MAX));
    hip_g.stack_bytes = v;
    return hip_done(hipSuccess);
  }
  if (limit == hipLimitMallocHeapSize) {
    /* ROCm keeps any size below the device's memory (ROCm/clr device.cpp UpdateInitialHeapSize); it
     * sizes the heap at its first use and a later size changes nothing (call_once), here likewise
     * (runtime/rt_hostcall.c: the heap holds max(size, 256 MiB) rounded up to 2 MiB) */
    if (v >= hip_total_mem())
      return hip_done(hip_complain(__func__, hipErrorInvalidValue, "heap of %zu bytes: not below the device's %llu bytes",
                                   v, (unsigned long long)hip_total_mem()));
    hip_g.heap_bytes = v;
    return hip_done(hipSuccess);
  }
  if (limit != hipLimitPrintfFifoSize) return hip_done(limit_refused(__func__, limit));
  if (v < 64 || v > (1u << 30))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "printf buffer of %zu bytes: 64 B to 1 GiB", v));
  hip_g.printf_bytes = v;
  return hip_done(hipSuccess);
}

/* The device's flags as ROCm keeps them (ROCm/clr hip_device_runtime.cpp, f9f995c): one scheduling
 * flag at most, and only the scheduling part kept (hipGetDeviceFlags gives it back; the device starts
 * at hipDeviceScheduleSpin, ROCm's hip::Device default). Nothing else changes here: host calls block
 * until their work is done whatever the flag. */
static unsigned dev_flags = hipDeviceScheduleSpin;
hipError_t hipSetDeviceFlags(unsigned flags) {
  HIP_BEGIN();
  if (flags & ~(unsigned)(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "unknown flags 0x%x", flags));
  const unsigned sched = flags & hipDeviceScheduleMask;
  if (sched != hipDeviceScheduleAuto && sched != hipDeviceScheduleSpin && sched != hipDeviceScheduleYield &&
      sched != hipDeviceScheduleBlockingSync)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%x: at most one scheduling flag", flags));
  dev_flags = sched;
  return hip_done(hipSuccess);
}

hipError_t hipGetDeviceFlags(unsigned int *flags) {
  HIP_BEGIN();
  if (!flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags is NULL"));
  *flags = dev_flags;
  return hip_done(hipSuccess);
}

hipError_t hipDeviceCanAccessPeer(int *can, int id, int peer) {
  HIP_BEGIN();
  if (!can) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "canAccessPeer is NULL"));
  hipError_t e = check_device(__func__, id);
  if (e == hipSuccess) e = check_device(__func__, peer);
  if (e == hipSuccess) *can = 0; /* a device is not its own peer */
  return hip_done(e);
}

hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest) {
  HIP_BEGIN();
  if (least) *least = 0; /* priorities are not modelled: one level, as the ranges HIP allows */
  if (greatest) *greatest = 0;
  return hip_done(hipSuccess);
}

/* Cache and bank configuration: AMD's runtime accepts and ignores them (CDNA's LDS is not carved
 * out of the L1 cache and its bank width is fixed); so does lanelab, after checking the value. */
static hipFuncCache_t cache_cfg = hipFuncCachePreferNone;
static hipSharedMemConfig bank_cfg = hipSharedMemBankSizeFourByte;
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *c) {
  HIP_BEGIN();
  if (!c) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "cacheConfig is NULL"));
  *c = cache_cfg;
  return hip_done(hipSuccess);
}
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t c) {
  HIP_BEGIN();
  if ((unsigned)c > hipFuncCachePreferEqual) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "config %d", (int)c));
  cache_cfg = c;
  return hip_done(hipSuccess);
}
hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t c) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess && (unsigned)c > hipFuncCachePreferEqual) e = hip_complain(__func__, hipErrorInvalidValue, "config %d", (int)c);
  return hip_done(e);
}
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *c) {
  HIP_BEGIN();
  if (!c) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pConfig is NULL"));
  *c = bank_cfg;
  return hip_done(hipSuccess);
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig c) {
  HIP_BEGIN();
  if ((unsigned)c > hipSharedMemBankSizeEightByte) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "config %d", (int)c));
  return hip_done(hipSuccess);
}
hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig c) {
  HIP_BEGIN();
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(func, &f, __func__);
  if (e == hipSuccess && (unsigned)c > hipSharedMemBankSizeEightByte) e = hip_complain(__func__, hipErrorInvalidValue, "config %d", (int)c);
  return hip_done(e);
}

/* ---- the deprecated context API ---------------------------------------------------------------
 * One device, so a context is little more than a handle: its flags, whether it is the device's
 * primary context, and a per-thread stack of current contexts (HIP's, as CUDA's driver API: the
 * top is current; with none pushed the primary context is). Work issued "in" any context goes to
 * the one device, as it does under HIP. hipCtxGetApiVersion gives the HIP version lanelab's headers
 * declare (HIP_VERSION). Peer access between contexts stays refused: there are no peers. */
struct ihipCtx_t {
  unsigned flags;
  bool primary;
};
static struct ihipCtx_t primary_ctx = {0, true};
static unsigned primary_refs;
static hipCtx_t *made_ctx; /* hipCtxCreate's, not yet destroyed */
static size_t nmade_ctx;
#define CTX_STACK 16
static __thread hipCtx_t ctx_stack[CTX_STACK];
static __thread int ctx_depth;

static bool ctx_valid(hipCtx_t c) {
  if (c == &primary_ctx) return true;
  for (size_t i = 0; c && i < nmade_ctx; i++)
    if (made_ctx[i] == c) return true;
  return false;
}
static hipCtx_t ctx_current(void) { return ctx_depth ? ctx_stack[ctx_depth - 1] : &primary_ctx; }
static hipError_t check_ctx(const char *fn, hipCtx_t c) {
  return ctx_valid(c) ? hipSuccess : hip_complain(fn, hipErrorInvalidContext, "%p is not a context", (void *)c);
}

hipError_t hipCtxCreate(hipCtx_t *ctx, unsigned int flags, hipDevice_t device) {
  HIP_BEGIN();
  if (!ctx) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "ctx is NULL"));
  hipError_t e = check_device(__func__, device);
  if (e != hipSuccess) return hip_done(e);
  if (ctx_depth == CTX_STACK)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%d contexts pushed on this thread already", CTX_STACK));
  hipCtx_t c = ll_xcalloc(1, sizeof *c);
  c->flags = flags;
  made_ctx = ll_xrealloc(made_ctx, (nmade_ctx + 1) * sizeof *made_ctx);
  made_ctx[nmade_ctx++] = c;
  ctx_stack[ctx_depth++] = c;
  *ctx = c;
  return hip_done(hipSuccess);
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
  HIP_BEGIN();
  if (ctx == &primary_ctx)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the primary context is released, not destroyed"));
  size_t i = 0;
  while (i < nmade_ctx && made_ctx[i] != ctx) i++;
  if (!ctx || i == nmade_ctx)
    return hip_done(hip_complain(__func__, hipErrorInvalidContext, "%p is not a context hipCtxCreate made", (void *)ctx));
  made_ctx[i] = made_ctx[--nmade_ctx];
  int k = 0; /* this thread's stack without it (another thread's stack may still name it: HIP's rule too) */
  for (int j = 0; j < ctx_depth; j++)
    if (ctx_stack[j] != ctx) ctx_stack[k++] = ctx_stack[j];
  ctx_depth = k;
  free(ctx);
  return hip_done(hipSuccess);
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  HIP_BEGIN();
  if (check_ctx(__func__, ctx) != hipSuccess) return hip_done(hipErrorInvalidContext);
  if (ctx_depth == CTX_STACK)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%d contexts pushed on this thread already", CTX_STACK));
  ctx_stack[ctx_depth++] = ctx;
  return hip_done(hipSuccess);
}

hipError_t hipCtxPopCurrent(hipCtx_t *ctx) {
  HIP_BEGIN();
  if (!ctx_depth) return hip_done(hip_complain(__func__, hipErrorInvalidContext, "no context is pushed on this thread"));
  hipCtx_t c = ctx_stack[--ctx_depth];
  if (ctx) *ctx = c;
  return hip_done(hipSuccess);
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  HIP_BEGIN();
  if (!ctx) { /* no context bound: the primary one is current again */
    ctx_depth = 0;
    return hip_done(hipSuccess);
  }
  if (check_ctx(__func__, ctx) != hipSuccess) return hip_done(hipErrorInvalidContext);
  if (ctx_depth) ctx_stack[ctx_depth - 1] = ctx;
  else ctx_stack[ctx_depth++] = ctx;
  return hip_done(hipSuccess);
}

hipError_t hipCtxGetCurrent(hipCtx_t *ctx) {
  HIP_BEGIN();
  if (!ctx) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "ctx is NULL"));
  *ctx = ctx_current();
  return hip_done(hipSuccess);
}

hipError_t hipCtxGetDevice(hipDevice_t *device) {
  HIP_BEGIN();
  if (!device) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "device is NULL"));
  *device = 0;
  return hip_done(hipSuccess);
}

hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int *apiVersion) {
  HIP_BEGIN();
  if (!apiVersion) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "apiVersion is NULL"));
  if (ctx && check_ctx(__func__, ctx) != hipSuccess) return hip_done(hipErrorInvalidContext);
  *apiVersion = HIP_VERSION;
  return hip_done(hipSuccess);
}

hipError_t hipCtxGetFlags(unsigned int *flags) {
  HIP_BEGIN();
  if (!flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags is NULL"));
  *flags = ctx_current()->flags;
  return hip_done(hipSuccess);
}

hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }
hipError_t hipCtxGetCacheConfig(hipFuncCache_t *c) { return hipDeviceGetCacheConfig(c); }
hipError_t hipCtxSetCacheConfig(hipFuncCache_t c) { return hipDeviceSetCacheConfig(c); }
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig *c) { return hipDeviceGetSharedMemConfig(c); }
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig c) { return hipDeviceSetSharedMemConfig(c); }

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev) {
  HIP_BEGIN();
  if (!pctx) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pctx is NULL"));
  hipError_t e = check_device(__func__, dev);
  if (e == hipSuccess) primary_refs++, *pctx = &primary_ctx;
  return hip_done(e);
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  HIP_BEGIN();
  hipError_t e = check_device(__func__, dev);
  if (e == hipSuccess && !primary_refs)
    e = hip_complain(__func__, hipErrorInvalidContext, "the primary context is not retained");
  if (e == hipSuccess) primary_refs--;
  return hip_done(e);
}

hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int *flags, int *active) {
  HIP_BEGIN();
  if (!flags || !active) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags or active is NULL"));
  hipError_t e = check_device(__func__, dev);
  if (e == hipSuccess) *flags = primary_ctx.flags, *active = primary_refs > 0;
  return hip_done(e);
}

hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  HIP_BEGIN();
  hipError_t e = check_device(__func__, dev);
  if (e == hipSuccess) primary_ctx.flags = flags;
  return hip_done(e);
}

hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  HIP_BEGIN();
  hipError_t e = check_device(__func__, dev);
  if (e != hipSuccess) return hip_done(e);
  primary_refs = 0;
  return hipDeviceReset();
}

/* ---- peers: one device, so a peer pair is a device and itself (docs/hip-runtime.md "Peers") ---- */
static hipError_t peer_pair(const char *fn, int a, int b) {
  hipError_t e = check_device(fn, a);
  if (e == hipSuccess) e = check_device(fn, b);
  if (e == hipSuccess)
    e = hip_complain(fn, hipErrorInvalidDevice, "devices %d and %d: a device is not its own peer (the emulated system "
                     "has one device)", a, b);
  return e;
}
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
  HIP_BEGIN();
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be 0, got %u", flags));
  return hip_done(peer_pair(__func__, 0, peerDeviceId));
}
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
  HIP_BEGIN();
  return hip_done(peer_pair(__func__, 0, peerDeviceId));
}
hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags) {
  HIP_BEGIN();
  if (check_ctx(__func__, peerCtx) != hipSuccess) return hip_done(hipErrorInvalidContext);
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be 0, got %u", flags));
  return hip_done(peer_pair(__func__, 0, 0));
}
hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx) {
  HIP_BEGIN();
  if (check_ctx(__func__, peerCtx) != hipSuccess) return hip_done(hipErrorInvalidContext);
  return hip_done(peer_pair(__func__, 0, 0));
}
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  HIP_BEGIN();
  if (!value) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "value is NULL"));
  if ((unsigned)attr > hipDevP2PAttrHipArrayAccessSupported)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d", (int)attr));
  return hip_done(peer_pair(__func__, srcDevice, dstDevice));
}
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype, uint32_t *hopcount) {
  HIP_BEGIN();
  /* ROCm (hip_peer.cpp): NULL outputs, a device paired with itself or a negative id are hipErrorInvalidValue */
  if (!linktype || !hopcount || device1 == device2 || device1 < 0 || device2 < 0)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "linktype or hopcount is NULL, or devices %d and %d are "
                                 "one device or negative", device1, device2));
  return hip_done(peer_pair(__func__, device1, device2));
}
