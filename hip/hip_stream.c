/* hip/hip_stream — streams and events. Every operation runs to completion when it is issued, in
 * issue order, so a stream is always idle by the time its next call is made: waits and queries
 * complete at once. hipEventElapsedTime measures the host's wall time between the two records,
 * which is the time spent emulating the work issued between them; it is not a GPU time
 * (docs/hip-runtime.md "Streams and events"). */
#include <stdlib.h>
#include <string.h>

#include "hip/internal.h"

struct ihipStream_t {
  unsigned flags;
  int priority;
  uint32_t *cumask, ncumask; /* hipExtStreamCreateWithCUMask's mask as given; NULL: none */
};
struct ihipEvent_t {
  unsigned flags;
  bool recorded;
  double t;
  hipStream_t stream; /* of its last hipEventRecord (hipEventSynchronize asks whether it captures) */
};

static struct ihipStream_t **streams;
static size_t nstreams;
static struct ihipEvent_t **events;
static size_t nevents;

bool hip_stream_valid(hipStream_t s) {
  if (!s || s == hipStreamLegacy || s == hipStreamPerThread) return true;
  for (size_t i = 0; i < nstreams; i++)
    if (streams[i] == s) return true;
  return false;
}

bool hip_stream_nonblocking(hipStream_t s) {
  return s && s != hipStreamLegacy && s != hipStreamPerThread && hip_stream_valid(s) && (s->flags & hipStreamNonBlocking);
}

static bool event_valid(hipEvent_t e) {
  for (size_t i = 0; e && i < nevents; i++)
    if (events[i] == e) return true;
  return false;
}
bool hip_event_valid(hipEvent_t e) { return event_valid(e); }

static hipError_t stream_create(hipStream_t *s, unsigned flags, int priority, const char *fn) {
  if (!s) return hip_complain(fn, hipErrorInvalidValue, "stream is NULL");
  if (flags & ~(unsigned)hipStreamNonBlocking) return hip_complain(fn, hipErrorInvalidValue, "flags 0x%x", flags);
  struct ihipStream_t *x = ll_xcalloc(1, sizeof *x);
  x->flags = flags;
  x->priority = 0; /* one priority level (hipDeviceGetStreamPriorityRange gives 0..0); others clamp to it */
  (void)priority;
  streams = ll_xrealloc(streams, (nstreams + 1) * sizeof *streams);
  streams[nstreams++] = x;
  *s = x;
  return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t *s) {
  HIP_BEGIN();
  return hip_done(stream_create(s, 0, 0, __func__));
}
hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned int flags) {
  HIP_BEGIN();
  return hip_done(stream_create(s, flags, 0, __func__));
}
hipError_t hipStreamCreateWithPriority(hipStream_t *s, unsigned int flags, int priority) {
  HIP_BEGIN();
  return hip_done(stream_create(s, flags, priority, __func__));
}

/* Handles that are not streams: ROCm's runtime (ROCm/clr hipamd/src/hip_stream.cpp, f9f995c) answers
 * hipErrorContextIsDestroyed for a pointer that is not a live stream (destroyed, or never made),
 * hipErrorInvalidHandle for destroying the null stream (hipErrorInvalidResourceHandle, the same
 * value, for hipStreamPerThread), and checks a NULL output argument first where it does. */
hipError_t hip_stream_gone(const char *fn, hipStream_t s) {
  return hip_complain(fn, hipErrorContextIsDestroyed, "%p is not a stream (destroyed, or never created)", (void *)s);
}
#define STREAM_GONE(s) hip_stream_gone(__func__, s)

hipError_t hipStreamDestroy(hipStream_t s) {
  HIP_BEGIN();
  if (!s || s == hipStreamLegacy) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "the null stream cannot be destroyed"));
  if (s == hipStreamPerThread) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "hipStreamPerThread cannot be destroyed"));
  for (size_t i = 0; s && i < nstreams; i++)
    if (streams[i] == s) {
      hip_capture_drop(s); /* a capture it had ends with it */
      hip_pool_forget_stream(s);
      free(s->cumask);
      free(s);
      streams[i] = streams[--nstreams];
      return hip_done(hipSuccess);
    }
  return hip_done(STREAM_GONE(s));
}

#define STREAM_CHECK(s)                                                                            \
  do {                                                                                             \
    if (!hip_stream_valid(s)) return hip_done(STREAM_GONE(s));                                     \
  } while (0)

hipError_t hipStreamSynchronize(hipStream_t s) {
  HIP_BEGIN();
  STREAM_CHECK(s);
  hipError_t c = hip_capture_ongoing(s, __func__);
  if (c != hipSuccess) return hip_done(c);
  hip_pool_release_freed(); /* ROCm trims the memory pools after the stream's work */
  return hip_done(hip_sync_point());
}

/* All work is complete; a fault it had is reported here, as the error of the work queried. */
hipError_t hipStreamQuery(hipStream_t s) {
  HIP_BEGIN();
  STREAM_CHECK(s);
  hipError_t c = hip_capture_ongoing(s, __func__);
  if (c != hipSuccess) return hip_done(c);
  return hip_done(hip_sync_point());
}

hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned int flags) {
  HIP_BEGIN();
  /* ROCm: a NULL event or a handle that is not a stream is hipErrorInvalidHandle here */
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  if (!event_valid(e)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not an event", (void *)e));
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be 0, got %u", flags));
  /* an event recorded into a capture: the stream's next work depends on the event's point in the
   * graph, the stream joining the capture (hip_graph.c) */
  hipError_t c = hip_capture_wait(s, e, __func__);
  /* a memory pool's blocks the event's stream may reuse, the waiting stream may too (ROCm) */
  if (c == hipSuccess && e->recorded && !hip_capturing(s)) hip_pool_wait(e->stream, s);
  return hip_done(c);
}

hipError_t hipStreamGetFlags(hipStream_t s, unsigned int *flags) {
  HIP_BEGIN();
  if (!flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags is NULL"));
  /* ROCm answers hipErrorInvalidValue for the null stream's flags */
  if (!s) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the null stream has no flags to give"));
  STREAM_CHECK(s);
  *flags = s && s != hipStreamLegacy && s != hipStreamPerThread ? s->flags : 0;
  return hip_done(hipSuccess);
}

hipError_t hipStreamGetPriority(hipStream_t s, int *priority) {
  HIP_BEGIN();
  if (!priority) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "priority is NULL"));
  STREAM_CHECK(s);
  *priority = 0;
  return hip_done(hipSuccess);
}

hipError_t hipStreamGetDevice(hipStream_t s, hipDevice_t *device) {
  HIP_BEGIN();
  if (!device) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "device is NULL"));
  STREAM_CHECK(s);
  *device = 0;
  return hip_done(hipSuccess);
}

/* Compute-unit masks (AMD's extension; the semantics of ROCm/clr hipamd/src/hip_stream.cpp,
 * hipExtStreamCreateWithCUMask and hipExtStreamGetCUMask). A mask says on which compute units the
 * stream's workgroups may run: where, not what, so the emulator runs the work the same under any
 * mask and keeps the mask only to give it back. Creating: a NULL stream pointer is
 * hipErrorInvalidHandle, a size of 0 or a NULL mask hipErrorInvalidValue; the stream is a default
 * one (flags 0, the one priority) holding the mask's words as given. Reading: a NULL mask or a size
 * below the words the device's compute units need (ceil(CUs / 32)) is hipErrorInvalidValue; the
 * null stream (and hipStreamPerThread, and here hipStreamLegacy, also the null stream) gives the
 * default mask, every compute unit's bit set; another stream the AND of its mask and the default
 * over the words both have (none for a stream made without one), the default when that is all
 * zeros. ROCm's global mask (the ROC_GLOBAL_CU_MASK variable) is not read: no global mask. */
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *s, uint32_t n, const uint32_t *mask) {
  HIP_BEGIN();
  if (!s) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "stream is NULL"));
  if (!n || !mask) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the mask is %s", mask ? "0 words long" : "NULL"));
  hipError_t c = stream_create(s, 0, 0, __func__);
  if (c == hipSuccess) {
    (*s)->cumask = ll_xmalloc((size_t)n * sizeof *mask);
    memcpy((*s)->cumask, mask, (size_t)n * sizeof *mask);
    (*s)->ncumask = n;
  }
  return hip_done(c);
}

/* word w of the default mask of ncu compute units: compute unit i is bit i % 32 of word i / 32 */
static uint32_t cu_default_word(uint32_t ncu, uint32_t w) {
  return ncu - 32 * w >= 32 ? 0xffffffffu : (1u << (ncu - 32 * w)) - 1;
}

hipError_t hipExtStreamGetCUMask(hipStream_t s, uint32_t n, uint32_t *mask) {
  HIP_BEGIN();
  if (!mask) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mask is NULL"));
  const uint32_t ncu = (uint32_t)hip_cu_count(), need = (ncu + 31) / 32;
  if (n < need)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%u words cannot hold the mask of %u compute units (%u words)", n, ncu, need));
  STREAM_CHECK(s);
  const bool own = s && s != hipStreamLegacy && s != hipStreamPerThread;
  uint32_t m = own ? (s->ncumask < need ? s->ncumask : need) : 0, any = 0;
  for (uint32_t w = 0; w < m; w++) any |= s->cumask[w] & cu_default_word(ncu, w);
  if (!any) m = need; /* the default mask's words */
  for (uint32_t w = 0; w < m; w++) mask[w] = (any ? s->cumask[w] : ~0u) & cu_default_word(ncu, w);
  return hip_done(hipSuccess);
}

int hipGetStreamDeviceId(hipStream_t s) {
  pthread_mutex_lock(&hip_mu);
  int id = hip_stream_valid(s) ? 0 : -1;
  pthread_mutex_unlock(&hip_mu);
  return id;
}

/* Called now, in order after the work issued before it, with the status of that work. */
hipError_t hipStreamAddCallback(hipStream_t s, hipStreamCallback_t cb, void *user, unsigned int flags) {
  HIP_BEGIN();
  if (!cb || flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "callback is NULL or flags is not 0"));
  STREAM_CHECK(s);
  hipError_t c = hip_capture_refuse(s, __func__);
  if (c != hipSuccess) return hip_done(c);
  hipError_t status = hip_g.sticky != hipSuccess ? hip_g.sticky : hip_g.pending;
  cb(s, status, user);
  return hip_done(hipSuccess);
}

hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void *user) {
  HIP_BEGIN();
  if (!fn) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "fn is NULL"));
  STREAM_CHECK(s);
  if (hip_capturing(s)) return hip_done(hip_capture_host(s, fn, user));
  hipError_t c = hip_capture_refuse(s, __func__); /* an invalidated capture */
  if (c != hipSuccess) return hip_done(c);
  if (hip_g.pending == hipSuccess) fn(user);
  return hip_done(hipSuccess);
}

/* ---- events ------------------------------------------------------------------------------------*/
static hipError_t event_create(hipEvent_t *e, unsigned flags, const char *fn) {
  if (!e) return hip_complain(fn, hipErrorInvalidValue, "event is NULL");
  unsigned ok = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | hipEventDisableSystemFence |
                hipEventReleaseToDevice | hipEventReleaseToSystem;
  if (flags & ~ok) return hip_complain(fn, hipErrorInvalidValue, "flags 0x%x", flags);
  if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming))
    return hip_complain(fn, hipErrorInvalidValue, "hipEventInterprocess needs hipEventDisableTiming");
  /* ROCm (hip_event.cpp ihipEventCreateWithFlags): at most one of the release flags */
  if (__builtin_popcount(flags & (hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventDisableSystemFence)) > 1)
    return hip_complain(fn, hipErrorInvalidValue,
                        "flags 0x%x: at most one of hipEventReleaseToDevice, hipEventReleaseToSystem and "
                        "hipEventDisableSystemFence", flags);
  struct ihipEvent_t *x = ll_xcalloc(1, sizeof *x);
  x->flags = flags;
  events = ll_xrealloc(events, (nevents + 1) * sizeof *events);
  events[nevents++] = x;
  *e = x;
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t *e) {
  HIP_BEGIN();
  return hip_done(event_create(e, 0, __func__));
}
hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags) {
  HIP_BEGIN();
  return hip_done(event_create(e, flags, __func__));
}

hipError_t hipEventDestroy(hipEvent_t e) {
  HIP_BEGIN();
  for (size_t i = 0; e && i < nevents; i++)
    if (events[i] == e) {
      hip_capture_forget_event(e);
      free(e);
      events[i] = events[--nevents];
      return hip_done(hipSuccess);
    }
  /* ROCm: NULL is hipErrorInvalidHandle, an event not (or no longer) in its set hipErrorContextIsDestroyed */
  if (!e) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "event is NULL"));
  return hip_done(hip_complain(__func__, hipErrorContextIsDestroyed, "%p is not an event (destroyed, or never created)", (void *)e));
}

hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) {
  HIP_BEGIN();
  if (!e) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "event is NULL"));
  STREAM_CHECK(s);
  if (!event_valid(e)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not an event", (void *)e));
  e->stream = s;
  if (hip_capturing(s)) return hip_done(hip_capture_event(s, e));
  hipError_t c = hip_capture_refuse(s, __func__); /* an invalidated capture */
  if (c != hipSuccess) return hip_done(c);
  hip_event_mark(e);
  hip_capture_forget_event(e);
  return hip_done(hipSuccess);
}

void hip_event_mark(hipEvent_t e) {
  e->recorded = true;
  e->t = ll_now();
}

/* Inter-process event handles: hip_memory.c "inter-process handles". A handle is made for an event
 * created with hipEventInterprocess; any other event gives hipErrorInvalidConfiguration, as
 * ROCm/clr's hip::Event::GetHandle does. */
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t e) {
  HIP_BEGIN();
  if (!handle || !e) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "handle or event is NULL"));
  if (!event_valid(e)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not an event", (void *)e));
  if (!(e->flags & hipEventInterprocess))
    return hip_done(hip_complain(__func__, hipErrorInvalidConfiguration, "the event was not created with hipEventInterprocess"));
  hip_ipc_fill(handle->reserved, "llipcevt", (uint64_t)(uintptr_t)e, 0, 0);
  return hip_done(hipSuccess);
}

hipError_t hipIpcOpenEventHandle(hipEvent_t *e, hipIpcEventHandle_t handle) {
  HIP_BEGIN();
  if (!e) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "event is NULL"));
  return hip_done(hip_ipc_open(__func__, handle.reserved, "llipcevt"));
}

hipError_t hipEventSynchronize(hipEvent_t e) {
  HIP_BEGIN();
  if (!event_valid(e)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not an event", (void *)e));
  hipError_t c = hip_capture_event_use(e, __func__);
  if (c == hipSuccess && hip_stream_valid(e->stream)) c = hip_capture_ongoing(e->stream, __func__);
  if (c == hipSuccess) hip_pool_release_freed(); /* as hipStreamSynchronize */
  return hip_done(c != hipSuccess ? c : hip_sync_point());
}

hipError_t hipEventQuery(hipEvent_t e) {
  HIP_BEGIN();
  if (!event_valid(e)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not an event", (void *)e));
  hipError_t c = hip_capture_event_use(e, __func__);
  return hip_done(c != hipSuccess ? c : hip_sync_point());
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  HIP_BEGIN();
  if (!ms) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "ms is NULL"));
  if (!event_valid(start) || !event_valid(stop))
    return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "start or stop is not an event"));
  if ((start->flags | stop->flags) & hipEventDisableTiming)
    return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "an event was created with hipEventDisableTiming"));
  if (!start->recorded || !stop->recorded)
    return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "an event has not been recorded"));
  *ms = (float)((stop->t - start->t) * 1e3);
  return hip_done(hipSuccess);
}

/* ---- stream memory operations ----------------------------------------------------------------
 * ROCm's checks (ROCm/clr hipamd/src/hip_stream_ops.cpp, f9f995c): a NULL pointer or one in no
 * allocation hipErrorInvalidValue, a handle that is not a stream hipErrorContextIsDestroyed, a
 * wait's unknown comparison hipErrorInvalidValue; a write's flags are unused. The conditions are
 * the barrier-value packets' (rocvirtual.cpp submitStreamOperation): Gte (v & mask) >= value, Eq
 * (v & mask) == value, And (v & value & mask) != 0, Nor (~(v | value) & mask) != 0. The stream's
 * earlier work is done when the call is made, so a wait whose condition holds then passes at
 * once; one that does not would hold the stream until a later write, which this runtime (a
 * stream's work runs when issued) cannot model: hipErrorNotSupported, said (docs/hip-runtime.md
 * "Streams and events"). */
static hipError_t stream_op(hipStream_t s, void *ptr, size_t n, const char *fn, void **host) {
  if (!ptr) return hip_complain(fn, hipErrorInvalidValue, "ptr is NULL");
  if (!hip_stream_valid(s)) return hip_stream_gone(fn, s);
  hipError_t c = hip_capture_refuse(s, fn); /* not recorded into a graph */
  if (c != hipSuccess) return c;
  uint64_t a = (uint64_t)(uintptr_t)ptr;
  if (!hip_alloc_find(a, n) || !(*host = hip_host_view(a, n)))
    return hip_complain(fn, hipErrorInvalidValue, "%p: %zu bytes there are not in one HIP allocation", ptr, n);
  return hipSuccess;
}

static hipError_t wait_value(hipStream_t s, void *ptr, uint64_t value, unsigned flags, uint64_t mask, size_t n,
                             const char *fn) {
  void *h = NULL;
  hipError_t e = stream_op(s, ptr, n, fn, &h);
  if (e != hipSuccess) return e;
  uint64_t v = 0;
  memcpy(&v, h, n);
  bool ok;
  switch (flags) {
  case hipStreamWaitValueGte: ok = (v & mask) >= value; break;
  case hipStreamWaitValueEq: ok = (v & mask) == value; break;
  case hipStreamWaitValueAnd: ok = (v & value & mask) != 0; break;
  case hipStreamWaitValueNor: ok = (~(v | value) & mask) != 0; break;
  default: return hip_complain(fn, hipErrorInvalidValue, "flags %u: not hipStreamWaitValueGte, Eq, And or Nor", flags);
  }
  if (!ok)
    return hip_complain(fn, hipErrorNotSupported,
                        "the value at %p (0x%llx) does not meet the condition now, so the stream would wait for a "
                        "later write; this runtime runs a stream's work when it is issued and cannot hold a stream",
                        ptr, (unsigned long long)v);
  return hipSuccess;
}

static hipError_t write_value(hipStream_t s, void *ptr, uint64_t value, size_t n, const char *fn) {
  void *h = NULL;
  hipError_t e = stream_op(s, ptr, n, fn, &h);
  if (e != hipSuccess) return e;
  memcpy(h, &value, n);
  hip_mark_written((uint64_t)(uintptr_t)ptr, n);
  return hipSuccess;
}

hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags, uint32_t mask) {
  HIP_BEGIN();
  return hip_done(wait_value(stream, ptr, value, flags, mask, 4, __func__));
}
hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags, uint64_t mask) {
  HIP_BEGIN();
  return hip_done(wait_value(stream, ptr, value, flags, mask, 8, __func__));
}
hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags) {
  HIP_BEGIN();
  (void)flags;
  return hip_done(write_value(stream, ptr, value, 4, __func__));
}
hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags) {
  HIP_BEGIN();
  (void)flags;
  return hip_done(write_value(stream, ptr, value, 8, __func__));
}

/* ---- external semaphores ---------------------------------------------------------------------
 * No external semaphore can exist here (hipImportExternalSemaphore is refused, docs/hip-runtime.md),
 * so a signal or wait names none that is valid: argument checks only, ROCm's error for NULL arrays
 * and for handles that are not semaphores (hipErrorInvalidValue); zero semaphores do nothing. */
static hipError_t ext_sems(const char *fn, const hipExternalSemaphore_t *sems, const void *params, unsigned int n,
                           hipStream_t s) {
  HIP_BEGIN();
  STREAM_CHECK(s);
  if (n == 0) return hip_done(hipSuccess);
  if (!sems || !params)
    return hip_done(hip_complain(fn, hipErrorInvalidValue, "%s is NULL", !sems ? "extSemArray" : "paramsArray"));
  return hip_done(hip_complain(fn, hipErrorInvalidValue,
                               "%p is not an external semaphore (none can exist: their import is not provided)",
                               sems[0]));
}
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                            const hipExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems,
                                            hipStream_t stream) {
  return ext_sems(__func__, extSemArray, paramsArray, numExtSems, stream);
}
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                          const hipExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
                                          hipStream_t stream) {
  return ext_sems(__func__, extSemArray, paramsArray, numExtSems, stream);
}
