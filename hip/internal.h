/* hip/internal — what the HIP runtime's files share; not part of any contract (hip/hip.h and
 * hip/include/hip/hip_runtime_api.h are). One process-wide state (one emulated device), guarded
 * by one recursive mutex: every API entry point takes it (HIP_ENTER) and releases it on return. */
#ifndef LANELAB_HIP_INTERNAL_H
#define LANELAB_HIP_INTERNAL_H

#include <pthread.h>
#include <stdio.h>

#include "hip/include/hip/hip_runtime_api.h"
#include "hip/hip.h"
#include "runtime/rt.h"

/* ---- code: fat binaries, modules, kernels, variables (hip_code.c) ---------------------------*/
struct ihipModule_t {          /* a loaded code object: one per fat binary (for the device's arch)
                                  or per hipModuleLoad* */
  rt_module *rt;
  char *what;                  /* for messages: "the program's code (gfx942)", "module x.co" */
  bool from_user;              /* hipModuleLoad*: hipModuleUnload may free it */
};

typedef struct hip_fatbin {    /* one __hipRegisterFatBinary */
  const uint8_t *bundle;       /* the clang offload bundle */
  struct ihipModule_t *mod;    /* loaded on first use */
  bool tried;
  hipError_t load_err;
} hip_fatbin;

struct ihipModuleSymbol_t {    /* a kernel: registered (host stub) or from a module */
  const void *host;            /* __hipRegisterFunction's host stub, NULL for a module's */
  hip_fatbin *fb;              /* registered: its fat binary */
  struct ihipModule_t *mod;    /* module kernels, and registered ones once resolved */
  char *name;                  /* device symbol name */
  const emu_kernel *k;         /* resolved */
  int max_dyn_lds;             /* hipFuncAttributeMaxDynamicSharedMemorySize (-1: unset) */
};

typedef struct hip_var {       /* a __device__ / __constant__ / __managed__ variable */
  const void *host;            /* the host shadow's address */
  hip_fatbin *fb;
  char *name;
  size_t size;
  bool constant, managed;
  void **managed_ptr;          /* __hipRegisterManagedVar: where the host reads the address */
  uint64_t dev;                /* resolved device address, 0 until then */
} hip_var;

/* ---- memory (hip_memory.c) ---------------------------------------------------------------------*/
typedef enum { HIP_MEM_DEVICE, HIP_MEM_HOST, HIP_MEM_MANAGED, HIP_MEM_REGISTERED } hip_mem_kind;
/* a page's managed-memory advice (hipMemRangeGetAttribute): read-mostly, coarse-grained, the
 * preferred and last-prefetch locations (0 the device, hipCpuDeviceId, hipInvalidDeviceId none),
 * accessed-by as bits (1 the device, 2 the CPU) */
typedef struct hip_adv {
  uint8_t rm, cg, acc;
  int8_t pref, last;
} hip_adv;
typedef struct hip_alloc {
  uint64_t addr;               /* device address (== host pointer for host/managed/registered) */
  size_t size;
  hip_mem_kind kind;
  unsigned flags;
  uint8_t *init;               /* initcheck: bitmap of bytes written (device memory only) */
  void *map;                   /* host/managed: our mmap'd region (NULL for registered) */
  size_t map_len;
  char name[48];               /* "hipMalloc #3 (4096 bytes)": the buffer's name (leakcheck) */
  bool owned;                  /* the runtime's own: a __managed__ variable's storage (not a leak, not freed) */
  struct hip_adv *adv;         /* hipMemAdvise/hipMemPrefetchAsync per 4 KiB page, made at the first (hip_memory.c) */
  unsigned id;                 /* HIP_POINTER_ATTRIBUTE_BUFFER_ID: 1, 2, ... in allocation order, never reused */
  struct ihipMemPoolHandle_t *pool; /* a memory pool's block (hip_pool.c): its free returns it there */
} hip_alloc;

/* a program's launches: each wave may issue 2^32 instructions before its launch stops as one that
 * never ends (hipErrorLaunchTimeOut); LANELAB_BUDGET or `lanelab exec --budget` changes it */
#define HIP_BUDGET_DEFAULT (1ull << 32)

/* ---- the process state (hip_state.c) --------------------------------------------------------*/
typedef struct hip_state {
  bool inited;
  hipError_t init_err;
  emu_arch arch;
  rt_device *dev;
  /* options (hip.h, the exec protocol) */
  bool race, race_global, initcheck, strict_memory, leakcheck, heapcheck;
  emu_sched sched;
  uint64_t sched_seed;
  uint64_t budget; /* each launch's instruction budget per wave (LANELAB_BUDGET; HIP_BUDGET_DEFAULT) */
  char *trace_spec, *report_dir, *summary_path;
  /* errors */
  hipError_t sticky;           /* a fault seen at a synchronizing call: every later call */
  hipError_t pending;          /* a fault not yet seen by a synchronizing call */
  /* code */
  hip_fatbin **fatbins;
  size_t nfatbins;
  struct ihipModuleSymbol_t **funcs;
  size_t nfuncs;
  hip_var **vars;
  size_t nvars;
  /* memory */
  hip_alloc *allocs;           /* sorted by addr */
  size_t nallocs;
  size_t printf_bytes;
  size_t stack_bytes; /* hipLimitStackSize: private bytes per work-item of a dynamic-stack kernel */
  size_t heap_bytes;  /* hipLimitMallocHeapSize: the device heap's size, read at its first use (rt_launch_opts) */
  /* counters for the summary */
  uint64_t launches, faults, races, uninit, mem_warnings, api_errors, leaks, leak_bytes, heap_bad;
  char **kname;
  uint64_t *kcount;
  size_t nk;
  char **findings;
  size_t nfindings;
  unsigned traced;             /* launches whose trace was written */
} hip_state;

extern hip_state hip_g;
extern pthread_mutex_t hip_mu;

/* Every API entry point is
 *   hipError_t hipX(...) { HIP_BEGIN(); ... return hip_done(e); }
 * HIP_BEGIN takes the lock and initialises the runtime on first use; when the runtime cannot run
 * (bad options, no code for the arch) or a fault has become sticky, it returns that error at once.
 * hip_done records a failure as the thread's last error (HIP: a successful call leaves it as it
 * is) and releases the lock. Helpers return hipError_t and never touch the lock. */
hipError_t hip_begin(void);
hipError_t hip_done(hipError_t e);
#define HIP_BEGIN()                                                                                 \
  do {                                                                                              \
    hipError_t b_ = hip_begin();                                                                    \
    if (b_ != hipSuccess) return hip_done(b_);                                                      \
  } while (0)
/* A device ordinal other than 0 (the one emulated device): code, said; hipSuccess for 0. ROCm answers
 * hipErrorInvalidDevice for most calls and hipErrorInvalidValue for some (the caller's code). */
hipError_t hip_device_arg(const char *fn, int id, hipError_t code);
/* Prints "lanelab: hip: FN: WHY (hipErrorX)" on stderr, counts an API error; returns e. */
hipError_t hip_complain(const char *fn, hipError_t e, const char *why, ...) __attribute__((format(printf, 3, 4)));
/* A synchronizing call: a pending fault becomes the sticky error and is returned. */
hipError_t hip_sync_point(void);

/* A finding (fault, hazard, warning): printed on stderr as "lanelab: LINE" and kept for the
 * summary, which is rewritten at once. */
void hip_finding(const char *line);
/* The same without rewriting the summary: for a run of findings the caller writes it after (the
 * leakcheck at exit, whose every leak would otherwise rewrite the whole summary once). */
void hip_finding_add(const char *line);
void hip_summary_write(bool complete);

/* ---- code (hip_code.c) ----------------------------------------------------------------------*/
/* The module of a registered fat binary for the device's arch, loading it on first use.
 * hipErrorNoBinaryForGpu (printed, naming the arches the binary has) when it has none. */
hipError_t hip_fatbin_module(hip_fatbin *fb, struct ihipModule_t **out);
/* The kernel behind a host stub (or a hipFunction_t), resolved against its module. */
hipError_t hip_func_of(const void *host, struct ihipModuleSymbol_t **out, const char *fn);
hipError_t hip_func_resolve(struct ihipModuleSymbol_t *f, const char *fn);
/* The variable whose host shadow is at host, resolved to its device address. */
hipError_t hip_var_of(const void *host, hip_var **out, const char *fn);
/* a hipFunction_t of hipModuleGetFunction's, or NULL */
struct ihipModuleSymbol_t *hip_module_func(const void *p);
/* Fat binaries: the arches a bundle holds ("gfx942, gfx950"), malloc'd. */
char *hip_bundle_arches(const uint8_t *bundle);
void hip_code_reset(void);

/* ---- memory (hip_memory.c) ------------------------------------------------------------------*/
/* Reserve the emulator's device address range in this process (PROT_NONE), so a host dereference
 * of a device pointer faults as on a discrete GPU. */
void hip_reserve_device_range(void);
/* The allocation containing [p, p+n), or NULL. */
hip_alloc *hip_alloc_find(uint64_t p, size_t n);
/* Host pointer through which [addr, addr+n) of device-visible memory is read and written; NULL
 * if that range is not wholly inside one registered buffer. */
void *hip_host_view(uint64_t addr, size_t n);
/* A __managed__ variable's storage (host memory hip_code.c allocated when the variable was
 * registered) made device-visible as the runtime's own managed memory, once per device. */
hipError_t hip_managed_adopt(void *p, size_t size, const char *name);
/* initcheck: the device bytes [addr, addr+n) are now written. */
void hip_mark_written(uint64_t addr, size_t n);
void hip_memory_reset(void);
/* lanelab exec --leakcheck, at exit: one finding per allocation not freed (counts hip_g.leaks). */
void hip_leakcheck(void);
/* Inter-process handles (docs/hip-runtime.md "Inter-process handles"): fill HIP's 64 reserved
 * bytes with a tag (8 characters), this process's id and three values; and check a handle handed
 * to an Open call for function fn: hipErrorInvalidValue if it is not one made with this tag,
 * hipErrorInvalidContext if this process made it (ROCm's rule), else hipErrorNotSupported (another
 * process's memory or event is not modelled) -- each with its message. Never hipSuccess. */
void hip_ipc_fill(char reserved[HIP_IPC_HANDLE_SIZE], const char tag[8], uint64_t a, uint64_t b, uint64_t c);
hipError_t hip_ipc_open(const char *fn, const char reserved[HIP_IPC_HANDLE_SIZE], const char tag[8]);
/* The emulated device's memory size (hipDeviceProp_t.totalGlobalMem). */
size_t hip_total_mem(void);
/* The emulated device's compute units (hipDeviceProp_t.multiProcessorCount). */
int hip_cu_count(void);

/* ---- launches (hip_launch.c) ----------------------------------------------------------------*/
hipError_t hip_launch(const char *fn, struct ihipModuleSymbol_t *f, dim3 grid, dim3 block, size_t shmem,
                      hipStream_t stream, void **args, const void *packed, size_t packed_size, bool coop);
/* The explicit kernel arguments from args or a packed buffer, at the metadata's offsets (*raw
 * malloc'd); hipErrorInvalidValue, printed, for a missing one or a short buffer. */
hipError_t hip_kernel_args(const char *fn, const emu_kernel *k, const char *kname, void **args, const void *packed,
                           size_t packed_size, uint8_t **raw, size_t *nraw);
/* A stream handle is one the program created (or a null/legacy/per-thread one). */
bool hip_stream_valid(hipStream_t s);
/* a stream the program created with hipStreamNonBlocking (the null and per-thread streams block) */
bool hip_stream_nonblocking(hipStream_t s);
/* ROCm's answer for a handle that is not a live stream (hip_stream.c): hipErrorContextIsDestroyed, said */
hipError_t hip_stream_gone(const char *fn, hipStream_t s);
/* hipEventRecord's work, for a graph's event node, and whether an event handle is live (hip_stream.c). */
void hip_event_mark(hipEvent_t e);
bool hip_event_valid(hipEvent_t e);

/* ---- copies and sets (hip_memory.c), for graphs' nodes -----------------------------------------*/
hipError_t hip_copy(void *dst, const void *src, size_t n, hipMemcpyKind kind, const char *fn);
/* hipMemcpy3D's copy between pitched pointers (arrays refused), its checks included */
hipError_t hip_copy_3d(const hipMemcpy3DParms *p, const char *fn);
hipError_t hip_set(void *dst, const void *pattern, size_t esize, size_t count, const char *fn);
/* hipMalloc's and hipFree's work (a graph's allocations), and initcheck's bytes of an allocation
 * made unwritten again (a graph's allocation at each launch) */
hipError_t hip_dev_alloc(void **ptr, size_t size, const char *fn);
hipError_t hip_dev_free(void *ptr, hipStream_t s, const char *fn); /* s: hipFreeAsync's stream (a pool's block records it) */
void hip_mark_unwritten(uint64_t addr, size_t n);
/* a memory pool's block [addr, addr+size) of device memory enters the allocation table as an
 * allocation of that pool (its bytes unwritten for initcheck), and leaves it */
void hip_alloc_adopt(uint64_t addr, size_t size, const char *name, struct ihipMemPoolHandle_t *pool);
void hip_alloc_forget(hip_alloc *a);

/* ---- memory pools (hip_pool.c) ----------------------------------------------------------------
 * hip_pool_free: a pool allocation (a->pool) goes back to its pool, freed on stream s (on_stream)
 * or by hipFree. hip_pool_release_freed: a synchronizing call's trim of every pool to its release
 * threshold. hip_pool_wait: hipStreamWaitEvent (the waiting stream may reuse what the event's
 * stream may). hip_pool_forget_stream: hipStreamDestroy. hip_pool_reset: hipDeviceReset. */
void hip_pool_free(hip_alloc *a, hipStream_t s, bool on_stream);
void hip_pool_release_freed(void);
void hip_pool_wait(hipStream_t event_stream, hipStream_t wait_stream);
void hip_pool_forget_stream(hipStream_t s);
void hip_pool_reset(void);

/* ---- graphs and stream capture (hip_graph.c) ---------------------------------------------------
 * A stream between hipStreamBeginCapture and hipStreamEndCapture records the operations issued to
 * it into a graph instead of running them; hipGraphLaunch runs a graph's nodes in order on a
 * stream. hip_capturing: the stream records (an active capture). hip_capture_*: record one
 * operation (its arguments copied). hip_capture_refuse: an operation that cannot be recorded,
 * issued to a capturing stream: the capture is invalidated and the call fails
 * (hipErrorStreamCaptureUnsupported, printed); any operation on a stream whose capture is
 * invalidated and not yet ended: hipErrorStreamCaptureInvalidated; hipSuccess for a stream
 * that does not capture.
 * hip_capture_sync: a synchronous copy or set (code hipErrorStreamCaptureImplicit) or
 * hipDeviceSynchronize (hipErrorStreamCaptureUnsupported) while any capture is begun and not ended
 * invalidates them all: code, printed. hip_capture_ongoing: waiting for stream s
 * (hipStreamSynchronize, hipStreamQuery, hipEventSynchronize) while it captures, or while a capture
 * binding this thread is active: invalidated, hipErrorStreamCaptureUnsupported, printed. */
bool hip_capturing(hipStream_t s);
hipError_t hip_capture_kernel(hipStream_t s, struct ihipModuleSymbol_t *f, dim3 grid, dim3 block, size_t shmem,
                              const uint8_t *raw, size_t nraw, bool coop);
hipError_t hip_capture_copy(hipStream_t s, void *dst, const void *src, size_t n, hipMemcpyKind kind);
hipError_t hip_capture_set(hipStream_t s, void *dst, const void *pattern, size_t esize, size_t count);
hipError_t hip_capture_host(hipStream_t s, hipHostFn_t fn, void *user);
hipError_t hip_capture_set3d(hipStream_t s, void *dst, uint8_t value, size_t width, size_t height, size_t pitch,
                             size_t depth, size_t slice);
hipError_t hip_capture_copy3d(hipStream_t s, const hipMemcpy3DParms *p);
hipError_t hip_capture_event(hipStream_t s, hipEvent_t e);
/* hipEventSynchronize/hipEventQuery of an event recorded into an active capture: the capture is
 * invalidated, hipErrorCapturedEvent (printed); hipSuccess for any other event */
hipError_t hip_capture_event_use(hipEvent_t e, const char *fn);
/* hipMalloc, hipFree and the other allocation calls while a capture prohibits them (global or
 * thread-local mode, unless the thread's mode is relaxed): invalidated, hipErrorStreamCaptureUnsupported */
hipError_t hip_capture_unsafe(const char *fn);
/* hipMallocAsync while capturing: the memory is allocated now and owned by the graph (a
 * memory-allocation node); hipFreeAsync of it: a memory-free node (anything else is refused) */
hipError_t hip_capture_alloc(hipStream_t s, void **ptr, size_t size);
hipError_t hip_capture_free(hipStream_t s, void *ptr, const char *fn);
hipError_t hip_capture_refuse(hipStream_t s, const char *fn);
hipError_t hip_capture_sync(const char *fn, hipError_t code);
hipError_t hip_capture_ongoing(hipStream_t s, const char *fn);
/* hipStreamDestroy: a capture of the stream ends, its graph freed */
void hip_capture_drop(hipStream_t s);
/* hipStreamWaitEvent: an event recorded into a capture adds its frontier to the stream's, the
 * stream joining the capture if it was not capturing (hipErrorStreamCaptureIsolation, printed, when
 * it captures into another graph); any other event: hipSuccess, nothing to do */
hipError_t hip_capture_wait(hipStream_t s, hipEvent_t e, const char *fn);
/* hipEventRecord outside a capture, hipEventDestroy: the event no longer marks a capture's point */
void hip_capture_forget_event(hipEvent_t e);
/* Graph memory (an allocation node's): hip_graph_mem_free, the program's hipFree/hipFreeAsync of
 * it: no longer allocated; true while a graph still holds it (the buffer stays), false otherwise
 * (the caller frees the buffer; also for memory that is no graph's). hip_graph_mem_trim: the idle
 * graph memory given back (a synchronizing call, hipDeviceGraphMemTrim). */
bool hip_graph_mem_free(void *p);
void hip_graph_mem_trim(void);
/* hipDeviceReset: every graph, executable graph and capture freed */
void hip_graph_reset(void);

#endif
