/* hip/hip_graph — HIP graphs: stream capture, a few explicit nodes, instantiation and launch
 * (docs/hip-runtime.md "Graphs and stream capture"). Every stream operation here runs to completion
 * in issue order (hip_stream.c), so a graph is its nodes in the order they were recorded or added:
 * a node's dependencies must exist when it is added, so that order is a topological one, and
 * running the nodes one after the other on the launch's stream is one of the executions the graph
 * allows. A capture records into the stream's graph what the stream's operations would do, with
 * their arguments copied at the call (a kernel's explicit argument bytes, a copy's pointers and
 * size, a set's pattern); hipGraphInstantiate copies the graph, so later changes to it do not reach
 * the executable one, as with HIP. */
#include <stdlib.h>
#include <string.h>

#include "hip/internal.h"

typedef enum { HG_KERNEL, HG_COPY, HG_SET, HG_HOST, HG_EVENT, HG_EMPTY } hg_kind;

struct hipGraphNode {
  hg_kind kind;
  /* kernel */
  struct ihipModuleSymbol_t *f;
  dim3 grid, block;
  size_t shmem;
  uint8_t *raw;
  size_t nraw;
  bool coop;
  /* copy, set */
  void *dst;
  const void *src;
  size_t n;
  hipMemcpyKind copy_kind;
  uint8_t pattern[4];
  size_t esize;
  /* host function, event */
  hipHostFn_t fn;
  void *user;
  hipEvent_t event;
};

struct ihipGraph {
  struct hipGraphNode **nodes;
  size_t n;
};

struct hipGraphExec {
  struct hipGraphNode *nodes; /* copies */
  size_t n;
};

/* the program's graphs and executable graphs, so that a handle can be checked */
static struct ihipGraph **graphs;
static size_t ngraphs;
static struct hipGraphExec **execs;
static size_t nexecs;

/* active and invalidated captures, one per stream at most */
typedef struct {
  hipStream_t s;
  struct ihipGraph *g;
  hipStreamCaptureMode mode;
  hipStreamCaptureStatus status;
  unsigned long long id;
  pthread_t thread;
} capture;
static capture *caps;
static size_t ncaps;
static unsigned long long next_id = 1;

static bool graph_valid(hipGraph_t g) {
  for (size_t i = 0; g && i < ngraphs; i++)
    if (graphs[i] == g) return true;
  return false;
}
static bool exec_valid(hipGraphExec_t x) {
  for (size_t i = 0; x && i < nexecs; i++)
    if (execs[i] == x) return true;
  return false;
}
static capture *cap_of(hipStream_t s) {
  for (size_t i = 0; i < ncaps; i++)
    if (caps[i].s == s) return &caps[i];
  return NULL;
}

static struct ihipGraph *graph_new(void) {
  struct ihipGraph *g = ll_xcalloc(1, sizeof *g);
  graphs = ll_xrealloc(graphs, (ngraphs + 1) * sizeof *graphs);
  graphs[ngraphs++] = g;
  return g;
}
static void graph_release(struct ihipGraph *g) {
  for (size_t i = 0; i < g->n; i++) free(g->nodes[i]->raw), free(g->nodes[i]);
  free(g->nodes);
  free(g);
}
static void graph_free(struct ihipGraph *g) {
  for (size_t i = 0; i < ngraphs; i++)
    if (graphs[i] == g) graphs[i] = graphs[--ngraphs];
  graph_release(g);
}
static struct hipGraphNode *node_add(struct ihipGraph *g, hg_kind kind) {
  struct hipGraphNode *x = ll_xcalloc(1, sizeof *x);
  x->kind = kind;
  g->nodes = ll_xrealloc(g->nodes, (g->n + 1) * sizeof *g->nodes);
  g->nodes[g->n++] = x;
  return x;
}

/* ---- capture -------------------------------------------------------------------------------------*/
bool hip_capturing(hipStream_t s) {
  capture *c = s ? cap_of(s) : NULL;
  return c && c->status == hipStreamCaptureStatusActive;
}

static struct ihipGraph *cap_graph(hipStream_t s) { return cap_of(s)->g; }

hipError_t hip_capture_kernel(hipStream_t s, struct ihipModuleSymbol_t *f, dim3 grid, dim3 block, size_t shmem,
                              const uint8_t *raw, size_t nraw, bool coop) {
  struct hipGraphNode *x = node_add(cap_graph(s), HG_KERNEL);
  x->f = f, x->grid = grid, x->block = block, x->shmem = shmem, x->coop = coop;
  x->raw = ll_xmalloc(nraw ? nraw : 1), x->nraw = nraw;
  memcpy(x->raw, raw, nraw);
  return hipSuccess;
}
hipError_t hip_capture_copy(hipStream_t s, void *dst, const void *src, size_t n, hipMemcpyKind kind) {
  struct hipGraphNode *x = node_add(cap_graph(s), HG_COPY);
  x->dst = dst, x->src = src, x->n = n, x->copy_kind = kind;
  return hipSuccess;
}
hipError_t hip_capture_set(hipStream_t s, void *dst, const void *pattern, size_t esize, size_t count) {
  struct hipGraphNode *x = node_add(cap_graph(s), HG_SET);
  x->dst = dst, x->esize = esize, x->n = count;
  memcpy(x->pattern, pattern, esize);
  return hipSuccess;
}
hipError_t hip_capture_host(hipStream_t s, hipHostFn_t fn, void *user) {
  struct hipGraphNode *x = node_add(cap_graph(s), HG_HOST);
  x->fn = fn, x->user = user;
  return hipSuccess;
}
hipError_t hip_capture_event(hipStream_t s, hipEvent_t e) {
  node_add(cap_graph(s), HG_EVENT)->event = e;
  return hipSuccess;
}

hipError_t hip_capture_refuse(hipStream_t s, const char *fn) {
  capture *c = s ? cap_of(s) : NULL;
  if (!c) return hipSuccess;
  if (c->status == hipStreamCaptureStatusInvalidated)
    return hip_complain(fn, hipErrorStreamCaptureInvalidated,
                        "stream %p's capture was invalidated (by the call named above); hipStreamEndCapture ends it",
                        (void *)s);
  c->status = hipStreamCaptureStatusInvalidated;
  return hip_complain(fn, hipErrorStreamCaptureUnsupported,
                      "stream %p is capturing, and lanelab records only kernel launches, hipMemcpyAsync and its "
                      "HtoD/DtoH/DtoD forms, hipMemsetAsync and its D8/D16/D32 forms, hipLaunchHostFunc, "
                      "hipEventRecord and hipStreamWaitEvent into a graph (docs/hip-runtime.md); the capture is "
                      "invalidated", (void *)s);
}

hipError_t hip_capture_sync(const char *fn) {
  pthread_t me = pthread_self();
  capture *hit = NULL;
  for (size_t i = 0; i < ncaps; i++) {
    capture *c = &caps[i];
    if (c->status != hipStreamCaptureStatusActive || c->mode == hipStreamCaptureModeRelaxed) continue;
    if (c->mode == hipStreamCaptureModeThreadLocal && !pthread_equal(c->thread, me)) continue;
    c->status = hipStreamCaptureStatusInvalidated;
    hit = c;
  }
  if (!hit) return hipSuccess;
  return hip_complain(fn, hipErrorStreamCaptureImplicit,
                      "made while stream %p captures in %s mode: a synchronizing call is not allowed then (HIP's "
                      "rule); the capture is invalidated", (void *)hit->s,
                      hit->mode == hipStreamCaptureModeGlobal ? "hipStreamCaptureModeGlobal" : "hipStreamCaptureModeThreadLocal");
}

void hip_capture_drop(hipStream_t s) {
  capture *c = s ? cap_of(s) : NULL;
  if (!c) return;
  graph_release(c->g); /* a capture's graph is the program's only once the capture ends */
  *c = caps[--ncaps];
}

hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode mode) {
  HIP_BEGIN();
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  if (!s || s == hipStreamLegacy || s == hipStreamPerThread)
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureUnsupported,
                                 "the null (legacy) stream cannot capture; capture a stream the program created"));
  if (mode != hipStreamCaptureModeGlobal && mode != hipStreamCaptureModeThreadLocal && mode != hipStreamCaptureModeRelaxed)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mode %d", (int)mode));
  if (cap_of(s)) return hip_done(hip_complain(__func__, hipErrorIllegalState, "stream %p is capturing already", (void *)s));
  caps = ll_xrealloc(caps, (ncaps + 1) * sizeof *caps);
  caps[ncaps++] = (capture){.s = s, .g = ll_xcalloc(1, sizeof(struct ihipGraph)), .mode = mode,
                            .status = hipStreamCaptureStatusActive, .id = next_id++, .thread = pthread_self()};
  return hip_done(hipSuccess);
}

hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t *pGraph) {
  HIP_BEGIN();
  if (!pGraph) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraph is NULL"));
  capture *c = s ? cap_of(s) : NULL;
  if (!c) return hip_done(hip_complain(__func__, hipErrorIllegalState, "stream %p is not capturing", (void *)s));
  if (c->mode == hipStreamCaptureModeThreadLocal && !pthread_equal(c->thread, pthread_self()))
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureWrongThread, "the capture began on another thread"));
  bool ok = c->status == hipStreamCaptureStatusActive;
  struct ihipGraph *g = c->g;
  *c = caps[--ncaps];
  if (!ok) {
    graph_release(g);
    *pGraph = NULL;
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureInvalidated,
                                 "the capture of stream %p was invalidated by an earlier call (its message is above)",
                                 (void *)s));
  }
  graphs = ll_xrealloc(graphs, (ngraphs + 1) * sizeof *graphs);
  graphs[ngraphs++] = g;
  *pGraph = g;
  return hip_done(hipSuccess);
}

hipError_t hipStreamIsCapturing(hipStream_t s, hipStreamCaptureStatus *status) {
  HIP_BEGIN();
  if (!status) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pCaptureStatus is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  capture *c = s ? cap_of(s) : NULL;
  *status = c ? c->status : hipStreamCaptureStatusNone;
  return hip_done(hipSuccess);
}

hipError_t hipStreamGetCaptureInfo(hipStream_t s, hipStreamCaptureStatus *status, unsigned long long *id) {
  HIP_BEGIN();
  if (!status) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pCaptureStatus is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  capture *c = s ? cap_of(s) : NULL;
  *status = c ? c->status : hipStreamCaptureStatusNone;
  if (id && c) *id = c->id;
  return hip_done(hipSuccess);
}

/* ---- graphs ---------------------------------------------------------------------------------------*/
hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags) {
  HIP_BEGIN();
  if (!pGraph) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraph is NULL"));
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags must be 0, got %u", flags));
  *pGraph = graph_new();
  return hip_done(hipSuccess);
}

hipError_t hipGraphDestroy(hipGraph_t g) {
  HIP_BEGIN();
  if (!graph_valid(g)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not a graph", (void *)g));
  graph_free(g);
  return hip_done(hipSuccess);
}

hipError_t hipGraphGetNodes(hipGraph_t g, hipGraphNode_t *nodes, size_t *numNodes) {
  HIP_BEGIN();
  if (!graph_valid(g) || !numNodes) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, or numNodes is NULL"));
  if (nodes) {
    size_t k = *numNodes < g->n ? *numNodes : g->n;
    for (size_t i = 0; i < k; i++) nodes[i] = g->nodes[i];
    for (size_t i = k; i < *numNodes; i++) nodes[i] = NULL;
    *numNodes = k;
  } else {
    *numNodes = g->n;
  }
  return hip_done(hipSuccess);
}

/* a new node's dependencies must be nodes of the graph already: so the order nodes are added in is
 * a topological order, the one hipGraphLaunch runs them in */
static hipError_t deps_ok(hipGraph_t g, const hipGraphNode_t *deps, size_t n, const char *fn) {
  if (!graph_valid(g)) return hip_complain(fn, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  if (n && !deps) return hip_complain(fn, hipErrorInvalidValue, "%zu dependencies and pDependencies NULL", n);
  for (size_t i = 0; i < n; i++) {
    bool in = false;
    for (size_t j = 0; j < g->n && !in; j++) in = g->nodes[j] == deps[i];
    if (!in) return hip_complain(fn, hipErrorInvalidValue, "dependency %zu (%p) is not a node of the graph", i, (void *)deps[i]);
  }
  return hipSuccess;
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps) {
  HIP_BEGIN();
  if (!pNode) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphNode is NULL"));
  hipError_t e = deps_ok(g, deps, ndeps, __func__);
  if (e == hipSuccess) *pNode = node_add(g, HG_EMPTY);
  return hip_done(e);
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                   void *dst, const void *src, size_t count, hipMemcpyKind kind) {
  HIP_BEGIN();
  if (!pNode) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphNode is NULL"));
  hipError_t e = deps_ok(g, deps, ndeps, __func__);
  if (e != hipSuccess) return hip_done(e);
  struct hipGraphNode *x = node_add(g, HG_COPY);
  x->dst = dst, x->src = src, x->n = count, x->copy_kind = kind;
  *pNode = x;
  return hip_done(hipSuccess);
}

/* The kernel's launch configuration is checked when the graph runs (hip_launch, as for a launch) */
hipError_t hipGraphAddKernelNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                 const hipKernelNodeParams *p) {
  HIP_BEGIN();
  if (!pNode || !p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphNode or pNodeParams is NULL"));
  hipError_t e = deps_ok(g, deps, ndeps, __func__);
  if (e != hipSuccess) return hip_done(e);
  if (p->extra)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue,
                                 "extra (a packed argument buffer) is not provided for kernel nodes; give kernelParams"));
  struct ihipModuleSymbol_t *f;
  if ((e = hip_func_of(p->func, &f, __func__)) != hipSuccess || (e = hip_func_resolve(f, __func__)) != hipSuccess)
    return hip_done(e);
  uint8_t *raw;
  size_t nraw;
  if ((e = hip_kernel_args(__func__, f->k, f->name, p->kernelParams, NULL, 0, &raw, &nraw)) != hipSuccess) return hip_done(e);
  struct hipGraphNode *x = node_add(g, HG_KERNEL);
  x->f = f, x->grid = p->gridDim, x->block = p->blockDim, x->shmem = p->sharedMemBytes, x->raw = raw, x->nraw = nraw;
  *pNode = x;
  return hip_done(hipSuccess);
}

/* ---- executable graphs -----------------------------------------------------------------------------*/
static hipError_t instantiate(hipGraphExec_t *pExec, hipGraph_t g, const char *fn) {
  if (!pExec) return hip_complain(fn, hipErrorInvalidValue, "pGraphExec is NULL");
  if (!graph_valid(g)) return hip_complain(fn, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  struct hipGraphExec *x = ll_xcalloc(1, sizeof *x);
  x->n = g->n;
  x->nodes = ll_xcalloc(g->n ? g->n : 1, sizeof *x->nodes);
  for (size_t i = 0; i < g->n; i++) {
    x->nodes[i] = *g->nodes[i];
    if (g->nodes[i]->raw) {
      x->nodes[i].raw = ll_xmalloc(g->nodes[i]->nraw ? g->nodes[i]->nraw : 1);
      memcpy(x->nodes[i].raw, g->nodes[i]->raw, g->nodes[i]->nraw);
    }
  }
  execs = ll_xrealloc(execs, (nexecs + 1) * sizeof *execs);
  execs[nexecs++] = x;
  *pExec = x;
  return hipSuccess;
}

hipError_t hipGraphInstantiate(hipGraphExec_t *pExec, hipGraph_t g, hipGraphNode_t *pErrorNode, char *pLogBuffer,
                               size_t bufferSize) {
  HIP_BEGIN();
  if (pErrorNode) *pErrorNode = NULL;
  if (pLogBuffer && bufferSize) pLogBuffer[0] = 0;
  return hip_done(instantiate(pExec, g, __func__));
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pExec, hipGraph_t g, unsigned long long flags) {
  HIP_BEGIN();
  if (flags) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%llx: no instantiation flag is provided", flags));
  return hip_done(instantiate(pExec, g, __func__));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t x) {
  HIP_BEGIN();
  if (!exec_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not an executable graph", (void *)x));
  for (size_t i = 0; i < nexecs; i++)
    if (execs[i] == x) execs[i] = execs[--nexecs];
  for (size_t i = 0; i < x->n; i++) free(x->nodes[i].raw);
  free(x->nodes), free(x);
  return hip_done(hipSuccess);
}

/* The nodes in order on the stream, each as its stream operation would run; the first error ends
 * the launch and is returned (a kernel's fault is reported as a launch's is: at the next
 * synchronizing call). */
hipError_t hipGraphLaunch(hipGraphExec_t x, hipStream_t s) {
  HIP_BEGIN();
  if (!exec_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not an executable graph", (void *)x));
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  hipError_t e = hip_capture_refuse(s, __func__); /* a graph launched into a capture (a child graph) */
  for (size_t i = 0; i < x->n && e == hipSuccess; i++) {
    struct hipGraphNode *n = &x->nodes[i];
    if (hip_g.pending != hipSuccess) break; /* the queue faulted: nothing more runs */
    switch (n->kind) {
    case HG_KERNEL: e = hip_launch(__func__, n->f, n->grid, n->block, n->shmem, s, NULL, n->raw, n->nraw, n->coop); break;
    case HG_COPY: e = hip_copy(n->dst, n->src, n->n, n->copy_kind, __func__); break;
    case HG_SET: e = hip_set(n->dst, n->pattern, n->esize, n->n, __func__); break;
    case HG_HOST: n->fn(n->user); break;
    case HG_EVENT:
      if (!hip_event_valid(n->event))
        e = hip_complain(__func__, hipErrorInvalidHandle, "node %zu records event %p, destroyed since", i, (void *)n->event);
      else hip_event_mark(n->event);
      break;
    case HG_EMPTY: break;
    }
  }
  return hip_done(e);
}

/* hipDeviceReset: every graph, executable graph and capture goes with the device's other resources
 * (their kernels may be modules' that the reset unloads); their handles are no longer valid */
void hip_graph_reset(void) {
  while (ngraphs) graph_free(graphs[0]);
  while (nexecs) {
    struct hipGraphExec *x = execs[--nexecs];
    for (size_t i = 0; i < x->n; i++) free(x->nodes[i].raw);
    free(x->nodes), free(x);
  }
  while (ncaps) hip_capture_drop(caps[0].s);
}
