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

typedef enum { HG_KERNEL, HG_COPY, HG_SET, HG_HOST, HG_EVENT, HG_WAIT, HG_CHILD, HG_EMPTY, HG_ALLOC, HG_FREE } hg_kind;

struct hipGraphNode {
  hg_kind kind;
  struct ihipGraph *owner;
  struct hipGraphNode **deps; /* the edges into this node */
  size_t ndeps;
  struct hipGraphNode *orig;  /* in a clone or an executable graph: the node copied */
  size_t idx;                 /* the node's place in its graph (graph_copy, topo_order); in an
                                 executable graph, the place of the node it copies */
  size_t *depidx, ndepidx;    /* in an executable graph: the places of that node's dependencies */
  bool disabled, in_child;    /* in an executable graph: hipGraphNodeSetEnabled; from a child graph */
  /* kernel */
  struct ihipModuleSymbol_t *f;
  dim3 grid, block;
  size_t shmem;
  uint8_t *raw;
  size_t nraw;
  bool coop;
  void **kparams;             /* hipGraphKernelNodeGetParams: pointers into raw, made on first use */
  /* copy, set (width elements of esize bytes, height rows pitch bytes apart; a captured 3-D set:
   * depth such slices, slice bytes apart) */
  void *dst;
  const void *src;
  size_t n, height, pitch, depth, slice;
  hipMemcpyKind copy_kind;
  bool any_kind;              /* an added 1-D copy between two of the runtime's allocations: any kind
                                 (copy1d_ok); it runs in the direction of its pointers */
  bool is3d;                  /* hipGraphAddMemcpyNode's: the copy is p3 (copy_kind its kind) */
  hipMemcpy3DParms p3;
  uint8_t pattern[4];
  size_t esize;
  /* host function, event record and wait, child graph (a private copy) */
  hipHostFn_t fn;
  void *user;
  hipEvent_t event;
  struct ihipGraph *child;
  /* memory allocation node: its parameters as added (a capture's: the default pool's, device 0) */
  hipMemAllocNodeParams ap;
};

/* references a graph or an executable graph holds on user objects (hipGraphRetainUserObject) */
typedef struct uo_ref {
  struct hipUserObject *o;
  unsigned n;
} uo_ref;

struct ihipGraph {
  struct hipGraphNode **nodes; /* in the order they were added */
  size_t n;
  bool instantiated;           /* hipGraphInstantiate made an executable graph of it (ever) */
  uo_ref *uo;
  size_t nuo;
};

struct hipGraphExec {
  struct hipGraphNode *nodes; /* copies in the order they run, child graphs inlined */
  size_t n;
  bool auto_free;             /* hipGraphInstantiateFlagAutoFreeOnLaunch */
  uo_ref *uo;
  size_t nuo;
};

/* the program's graphs and executable graphs, so that a handle can be checked */
static struct ihipGraph **graphs;
static size_t ngraphs;
static struct hipGraphExec **execs;
static size_t nexecs;

/* A capture: the graph being recorded, begun on its origin stream and joined by the streams that
 * waited on an event recorded into it. Each capturing stream keeps its frontier, the nodes its next
 * operation depends on (the stream's order); an event recorded into a capture keeps the frontier of
 * its stream then, and a stream waiting on it adds that to its own (joining the capture first if it
 * was not in it). Invalidating one stream's capture invalidates the whole capture, as with HIP. */
typedef struct capture_root {
  struct ihipGraph *g;
  hipStreamCaptureMode mode;
  hipStreamCaptureStatus status;
  unsigned long long id;
  pthread_t thread;
  hipStream_t origin;
} capture_root;
typedef struct {
  hipStream_t s;
  pthread_t pt; /* s is hipStreamPerThread: the thread whose per-thread stream it is */
  capture_root *root;
  struct hipGraphNode **front;
  size_t nfront;
} capture;
static capture *caps;
static size_t ncaps;
static unsigned long long next_id = 1;
/* events recorded into a capture: the frontier their stream had */
typedef struct {
  hipEvent_t e;
  capture_root *root;
  struct hipGraphNode **front;
  size_t nfront;
} cap_event;
static cap_event *cevs;
static size_t ncevs;
/* Graph memory: what an allocation node allocates (hipGraphAddMemAllocNode, or hipMallocAsync
 * during a capture). Its address is fixed when the node is made and the buffer lives while any copy
 * of the node, in graphs and executable graphs, holds a reference, or while it is allocated (its
 * allocation node ran and neither a free node nor the program freed it since). The device's graph
 * memory figures (hipDeviceGetGraphMemAttribute) count it as ROCm's graph memory pool does: in use
 * from the allocation node's run to its free, then idle until a synchronizing call or
 * hipDeviceGraphMemTrim gives the idle bytes back; an allocation that runs again takes idle bytes
 * first (docs/hip-runtime.md "Graphs and stream capture"). */
typedef struct {
  void *p;
  size_t size;
  int refs;
  bool active;    /* allocated: its node ran, and no free since */
  bool free_node; /* a free node names it (hipGraphAddMemFreeNode accepts one) */
} graph_mem;
static graph_mem *gmems;
static size_t ngmems;
static uint64_t gm_used, gm_used_high, gm_idle, gm_reserved_high;
static graph_mem *gmem_of(const void *p) {
  for (size_t i = 0; p && i < ngmems; i++)
    if (gmems[i].p == p) return &gmems[i];
  return NULL;
}
static void gmem_new(void *p, size_t size) {
  gmems = ll_xrealloc(gmems, (ngmems + 1) * sizeof *gmems);
  gmems[ngmems++] = (graph_mem){.p = p, .size = size, .refs = 1};
}
static void gmem_unref(void *p) {
  graph_mem *m = gmem_of(p);
  if (!m || --m->refs > 0 || m->active) return; /* allocated: the program's until it frees it */
  *m = gmems[--ngmems]; /* first: hip_dev_free asks whether it is a graph's */
  hip_dev_free(p, NULL, "a graph's memory");
}
static void gmem_run_alloc(graph_mem *m) {
  if (m->active) return;
  m->active = true;
  uint64_t take = gm_idle < m->size ? gm_idle : m->size;
  gm_idle -= take, gm_used += m->size;
  if (gm_used > gm_used_high) gm_used_high = gm_used;
  if (gm_used + gm_idle > gm_reserved_high) gm_reserved_high = gm_used + gm_idle;
}
static void gmem_run_free(graph_mem *m) {
  if (!m->active) return;
  m->active = false;
  gm_used -= m->size, gm_idle += m->size;
}
void hip_graph_mem_trim(void) { gm_idle = 0; }
bool hip_graph_mem_free(void *p) {
  graph_mem *m = gmem_of(p);
  if (!m) return false;
  gmem_run_free(m);
  if (m->refs > 0) return true; /* the graph's still: its next run allocates it again */
  *m = gmems[--ngmems];
  return false; /* no graph holds it: the caller frees the buffer */
}

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
/* the capture stream s is in (NULL for none; never one for the null stream, which cannot capture).
 * hipStreamPerThread names each thread's own stream, so its captures are the calling thread's */
static capture *cap_of(hipStream_t s) {
  for (size_t i = 0; i < ncaps; i++)
    if (caps[i].s == s && (s != hipStreamPerThread || pthread_equal(caps[i].pt, pthread_self()))) return &caps[i];
  return NULL;
}
static capture *cap_new(hipStream_t s, capture_root *root) {
  caps = ll_xrealloc(caps, (ncaps + 1) * sizeof *caps);
  capture *c = &caps[ncaps++];
  *c = (capture){.s = s, .pt = pthread_self(), .root = root};
  return c;
}

static struct ihipGraph *graph_new(void) {
  struct ihipGraph *g = ll_xcalloc(1, sizeof *g);
  graphs = ll_xrealloc(graphs, (ngraphs + 1) * sizeof *graphs);
  graphs[ngraphs++] = g;
  return g;
}
static void graph_release(struct ihipGraph *g);
static void node_release(struct hipGraphNode *x) {
  if (x->kind == HG_ALLOC) gmem_unref(x->dst);
  free(x->raw), free(x->kparams), free(x->deps);
  if (x->child) graph_release(x->child);
  free(x);
}
/* a graph not in the program's list (a capture's, a child's copy), or after it left the list */
static void graph_release(struct ihipGraph *g) {
  for (size_t i = 0; i < g->n; i++) node_release(g->nodes[i]);
  free(g->nodes);
  free(g);
}
static void uo_release_all(uo_ref **v, size_t *n);
static void uo_copy_refs(uo_ref **v, size_t *n, const struct ihipGraph *g);
static void graph_free(struct ihipGraph *g) {
  for (size_t i = 0; i < ngraphs; i++)
    if (graphs[i] == g) graphs[i] = graphs[--ngraphs];
  uo_release_all(&g->uo, &g->nuo); /* the references it held on user objects */
  graph_release(g);
}
static struct hipGraphNode *node_add(struct ihipGraph *g, hg_kind kind) {
  struct hipGraphNode *x = ll_xcalloc(1, sizeof *x);
  x->kind = kind, x->owner = g;
  g->nodes = ll_xrealloc(g->nodes, (g->n + 1) * sizeof *g->nodes);
  g->nodes[g->n++] = x;
  return x;
}
/* a node handle of one of the program's graphs */
static bool node_valid(hipGraphNode_t x) {
  for (size_t i = 0; x && i < ngraphs; i++)
    for (size_t j = 0; j < graphs[i]->n; j++)
      if (graphs[i]->nodes[j] == x) return true;
  return false;
}
static bool has_dep(const struct hipGraphNode *x, const struct hipGraphNode *d) {
  for (size_t i = 0; i < x->ndeps; i++)
    if (x->deps[i] == d) return true;
  return false;
}
static void dep_add(struct hipGraphNode *x, struct hipGraphNode *d) {
  if (has_dep(x, d)) return;
  x->deps = ll_xrealloc(x->deps, (x->ndeps + 1) * sizeof *x->deps);
  x->deps[x->ndeps++] = d;
}
/* a copy of node x's payload (its edges are the caller's) */
static struct ihipGraph *graph_copy(const struct ihipGraph *g);
static struct hipGraphNode *node_copy(const struct hipGraphNode *x) {
  struct hipGraphNode *c = ll_xmalloc(sizeof *c);
  *c = *x;
  c->deps = NULL, c->ndeps = 0, c->kparams = NULL, c->orig = (struct hipGraphNode *)x, c->depidx = NULL, c->ndepidx = 0;
  if (x->raw) {
    c->raw = ll_xmalloc(x->nraw ? x->nraw : 1);
    memcpy(c->raw, x->raw, x->nraw);
  }
  if (x->child) c->child = graph_copy(x->child);
  if (x->kind == HG_ALLOC) gmem_of(x->dst)->refs++;
  return c;
}
/* a copy of g (not in the program's list), its edges between the copies */
static struct ihipGraph *graph_copy(const struct ihipGraph *g) {
  struct ihipGraph *c = ll_xcalloc(1, sizeof *c);
  c->nodes = ll_xcalloc(g->n ? g->n : 1, sizeof *c->nodes);
  c->n = g->n;
  for (size_t i = 0; i < g->n; i++) g->nodes[i]->idx = i;
  for (size_t i = 0; i < g->n; i++) c->nodes[i] = node_copy(g->nodes[i]), c->nodes[i]->owner = c;
  for (size_t i = 0; i < g->n; i++) {
    const struct hipGraphNode *x = g->nodes[i];
    c->nodes[i]->deps = ll_xcalloc(x->ndeps ? x->ndeps : 1, sizeof *c->nodes[i]->deps);
    for (size_t d = 0; d < x->ndeps; d++) c->nodes[i]->deps[d] = c->nodes[x->deps[d]->idx];
    c->nodes[i]->ndeps = x->ndeps;
  }
  return c;
}

/* a min-heap of node places: the ready node added earliest runs first */
static void heap_push(size_t *h, size_t *n, size_t v) {
  size_t i = (*n)++;
  for (h[i] = v; i && h[(i - 1) / 2] > h[i]; i = (i - 1) / 2) {
    size_t t = h[i];
    h[i] = h[(i - 1) / 2], h[(i - 1) / 2] = t;
  }
}
static size_t heap_pop(size_t *h, size_t *n) {
  size_t top = h[0], i = 0;
  h[0] = h[--*n];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < *n && h[l] < h[m]) m = l;
    if (r < *n && h[r] < h[m]) m = r;
    if (m == i) return top;
    size_t t = h[i];
    h[i] = h[m], h[m] = t, i = m;
  }
}
/* g's nodes in an order that respects every edge (Kahn's algorithm), choosing among the ready nodes
 * by `pick`: HG_FIRST the one added first (a heap of places: a captured chain, or nodes added after
 * their dependencies, come out in the order they were added), HG_LAST the one added last (lanelab
 * exec --schedule adversarial), HG_RANDOM one drawn from *rng (--schedule random:SEED). Every such
 * order is one the graph allows; false when the edges make a cycle. */
typedef enum { HG_FIRST, HG_LAST, HG_RANDOM } hg_pick;
static bool topo_order(const struct ihipGraph *g, struct hipGraphNode **out, hg_pick pick, uint64_t *rng) {
  size_t n = g->n, *indeg = ll_xcalloc(n ? n : 1, sizeof *indeg), *heap = ll_xcalloc(n ? n : 1, sizeof *heap), nh = 0;
  size_t *nout = ll_xcalloc(n ? n : 1, sizeof *nout), *start = ll_xcalloc(n + 1, sizeof *start);
  for (size_t i = 0; i < n; i++) g->nodes[i]->idx = i;
  size_t ne = 0;
  for (size_t i = 0; i < n; i++) {
    indeg[i] = g->nodes[i]->ndeps, ne += g->nodes[i]->ndeps;
    for (size_t d = 0; d < g->nodes[i]->ndeps; d++) nout[g->nodes[i]->deps[d]->idx]++;
  }
  for (size_t i = 0; i < n; i++) start[i + 1] = start[i] + nout[i];
  size_t *succ = ll_xcalloc(ne ? ne : 1, sizeof *succ), *fill = ll_xcalloc(n ? n : 1, sizeof *fill);
  for (size_t i = 0; i < n; i++)
    for (size_t d = 0; d < g->nodes[i]->ndeps; d++) {
      size_t p = g->nodes[i]->deps[d]->idx;
      succ[start[p] + fill[p]++] = i;
    }
  /* the heap orders keys: a node's place, or for HG_LAST its place from the end; HG_RANDOM keeps
   * the ready nodes in the array unordered and draws one */
#define KEY(i) (pick == HG_LAST ? n - 1 - (i) : (i))
  for (size_t i = 0; i < n; i++)
    if (!indeg[i]) {
      if (pick == HG_RANDOM) heap[nh++] = i;
      else heap_push(heap, &nh, KEY(i));
    }
  size_t k = 0;
  while (nh) {
    size_t i;
    if (pick == HG_RANDOM) {
      size_t r = (size_t)(ll_splitmix64(rng) % nh);
      i = heap[r], heap[r] = heap[--nh];
    } else {
      i = KEY(heap_pop(heap, &nh));
    }
    out[k++] = g->nodes[i];
    for (size_t j = start[i]; j < start[i + 1]; j++)
      if (!--indeg[succ[j]]) {
        if (pick == HG_RANDOM) heap[nh++] = succ[j];
        else heap_push(heap, &nh, KEY(succ[j]));
      }
  }
#undef KEY
  free(indeg), free(heap), free(nout), free(start), free(succ), free(fill);
  return k == n;
}

/* a copy node's parameters (captured, added, set) */
static void copy_params(struct hipGraphNode *n, void *dst, const void *src, size_t count, hipMemcpyKind kind) {
  n->dst = dst, n->src = src, n->n = count, n->copy_kind = kind, n->any_kind = false, n->is3d = false;
}

/* the bytes from p to the end of the runtime's allocation (device, pinned, managed or registered
 * memory) holding it; 0 when p is in none */
static size_t alloc_left(const void *p) {
  hip_alloc *a = hip_alloc_find((uint64_t)(uintptr_t)p, 1);
  return a ? a->size - ((uint64_t)(uintptr_t)p - a->addr) : 0;
}
/* A 1-D copy node's parameters as ROCm checks them when the node is added or set (ROCm/clr f9f995c,
 * hip_graph_internal.cpp GraphMemcpyNode1D::ValidateParams and hip_memory.cpp ihipMemcpy_validate):
 * both pointers given; a kind HIP knows (else hipErrorInvalidMemcpyDirection); the count inside the
 * allocation of each side that is one of the runtime's; between host memory the runtime does not
 * know and one of its allocations, the kind of that direction or hipMemcpyDefault. Between two of
 * its allocations any kind is taken (the copy goes the way its pointers do: n->any_kind). */
static hipError_t copy1d_ok(struct hipGraphNode *n, void *dst, const void *src, size_t count, hipMemcpyKind kind,
                            const char *fn) {
  if (!dst || !src) return hip_complain(fn, hipErrorInvalidValue, "dst or src is NULL");
  if ((unsigned)kind > hipMemcpyDefault && kind != hipMemcpyDeviceToDeviceNoCU)
    return hip_complain(fn, hipErrorInvalidMemcpyDirection, "kind %d", (int)kind);
  size_t dl = alloc_left(dst), sl = alloc_left(src);
  if ((sl && count > sl) || (dl && count > dl))
    return hip_complain(fn, hipErrorInvalidValue, "%zu bytes run past the end of the %s's allocation", count,
                        sl && count > sl ? "source" : "destination");
  if (!sl && dl && kind != hipMemcpyHostToDevice && kind != hipMemcpyDefault)
    return hip_complain(fn, hipErrorInvalidValue, "a copy from host memory to %p needs hipMemcpyHostToDevice or hipMemcpyDefault", dst);
  if (sl && !dl && kind != hipMemcpyDeviceToHost && kind != hipMemcpyDefault)
    return hip_complain(fn, hipErrorInvalidValue, "a copy from %p to host memory needs hipMemcpyDeviceToHost or hipMemcpyDefault", src);
  copy_params(n, dst, src, count, kind);
  n->any_kind = sl && dl;
  return hipSuccess;
}

/* ---- capture -------------------------------------------------------------------------------------*/
static void front_set(struct hipGraphNode ***f, size_t *nf, struct hipGraphNode *const *from, size_t n) {
  free(*f);
  *f = ll_xcalloc(n ? n : 1, sizeof **f);
  if (n) memcpy(*f, from, n * sizeof **f); /* an empty frontier may be NULL (an event recorded at a capture's start) */
  *nf = n;
}
static void front_add(capture *c, struct hipGraphNode *const *from, size_t n) {
  for (size_t i = 0; i < n; i++) {
    bool have = false;
    for (size_t j = 0; j < c->nfront && !have; j++) have = c->front[j] == from[i];
    if (have) continue;
    c->front = ll_xrealloc(c->front, (c->nfront + 1) * sizeof *c->front);
    c->front[c->nfront++] = from[i];
  }
}

bool hip_capturing(hipStream_t s) {
  capture *c = cap_of(s);
  return c && c->root->status == hipStreamCaptureStatusActive;
}

/* a node of stream s's capture after the stream's frontier, which it becomes */
static struct hipGraphNode *cap_node(hipStream_t s, hg_kind kind) {
  capture *c = cap_of(s);
  struct hipGraphNode *x = node_add(c->root->g, kind);
  for (size_t i = 0; i < c->nfront; i++) dep_add(x, c->front[i]);
  front_set(&c->front, &c->nfront, &x, 1);
  return x;
}

hipError_t hip_capture_kernel(hipStream_t s, struct ihipModuleSymbol_t *f, dim3 grid, dim3 block, size_t shmem,
                              const uint8_t *raw, size_t nraw, bool coop) {
  struct hipGraphNode *x = cap_node(s, HG_KERNEL);
  x->f = f, x->grid = grid, x->block = block, x->shmem = shmem, x->coop = coop;
  x->raw = ll_xmalloc(nraw ? nraw : 1), x->nraw = nraw;
  memcpy(x->raw, raw, nraw);
  return hipSuccess;
}
hipError_t hip_capture_copy(hipStream_t s, void *dst, const void *src, size_t n, hipMemcpyKind kind) {
  copy_params(cap_node(s, HG_COPY), dst, src, n, kind);
  return hipSuccess;
}
hipError_t hip_capture_set(hipStream_t s, void *dst, const void *pattern, size_t esize, size_t count) {
  struct hipGraphNode *x = cap_node(s, HG_SET);
  x->dst = dst, x->esize = esize, x->n = count, x->height = 1;
  memcpy(x->pattern, pattern, esize);
  return hipSuccess;
}
/* hipMemset2DAsync and hipMemset3DAsync: height rows of width bytes, pitch apart, in depth slices
 * slice bytes apart (checked when the graph runs, row by row, as hipMemset's) */
hipError_t hip_capture_set3d(hipStream_t s, void *dst, uint8_t value, size_t width, size_t height, size_t pitch,
                             size_t depth, size_t slice) {
  struct hipGraphNode *x = cap_node(s, HG_SET);
  x->dst = dst, x->esize = 1, x->n = width, x->height = height, x->pitch = pitch, x->depth = depth, x->slice = slice;
  x->pattern[0] = value;
  return hipSuccess;
}
/* a copy node becomes p's 3-D copy (hipGraphAddMemcpyNode's, a captured hipMemcpy2D/3DAsync) */
static void copy3d_set(struct hipGraphNode *n, const hipMemcpy3DParms *p) {
  n->p3 = *p, n->is3d = true, n->copy_kind = p->kind, n->any_kind = false;
}
/* hipMemcpy2DAsync and hipMemcpy3DAsync: a 3-D copy node (hipGraphAddMemcpyNode's) */
hipError_t hip_capture_copy3d(hipStream_t s, const hipMemcpy3DParms *p) {
  copy3d_set(cap_node(s, HG_COPY), p);
  return hipSuccess;
}
hipError_t hip_capture_host(hipStream_t s, hipHostFn_t fn, void *user) {
  struct hipGraphNode *x = cap_node(s, HG_HOST);
  x->fn = fn, x->user = user;
  return hipSuccess;
}
static cap_event *cev_of(hipEvent_t e) {
  for (size_t i = 0; i < ncevs; i++)
    if (cevs[i].e == e) return &cevs[i];
  return NULL;
}
/* hipEventRecord into a capture adds no node (ROCm/clr hip_event.cpp hipEventRecord_common, f9f995c,
 * as CUDA's): the event keeps the stream's frontier then, which a stream that waits on it adds to
 * its own */
hipError_t hip_capture_event(hipStream_t s, hipEvent_t e) {
  capture *c = cap_of(s);
  cap_event *ce = cev_of(e);
  if (!ce) {
    cevs = ll_xrealloc(cevs, (ncevs + 1) * sizeof *cevs);
    ce = &cevs[ncevs++];
    *ce = (cap_event){.e = e};
  }
  ce->root = c->root;
  front_set(&ce->front, &ce->nfront, c->front, c->nfront);
  return hipSuccess;
}

/* hipEventSynchronize, hipEventQuery: an event recorded into an active capture has no completion to
 * wait for; ROCm invalidates the capture and answers hipErrorCapturedEvent */
hipError_t hip_capture_event_use(hipEvent_t e, const char *fn) {
  cap_event *ce = cev_of(e);
  if (!ce || !ce->root || ce->root->status != hipStreamCaptureStatusActive) return hipSuccess;
  ce->root->status = hipStreamCaptureStatusInvalidated;
  return hip_complain(fn, hipErrorCapturedEvent,
                      "event %p was recorded into the capture begun on stream %p, which is still capturing; the "
                      "capture is invalidated", (void *)e, (void *)ce->root->origin);
}

hipError_t hip_capture_alloc(hipStream_t s, void **ptr, size_t size) {
  hipError_t e = hip_dev_alloc(ptr, size, "hipMallocAsync");
  if (e != hipSuccess || !*ptr) return e; /* a zero-byte allocation is NULL, as hipMalloc's */
  struct hipGraphNode *x = cap_node(s, HG_ALLOC);
  x->dst = *ptr, x->n = size;
  x->ap = (hipMemAllocNodeParams){.poolProps = {.allocType = hipMemAllocationTypePinned, .location = {hipMemLocationTypeDevice, 0}},
                                  .bytesize = size, .dptr = *ptr};
  gmem_new(*ptr, size);
  return hipSuccess;
}
hipError_t hip_capture_free(hipStream_t s, void *ptr, const char *fn) {
  struct ihipGraph *g = cap_of(s)->root->g;
  for (size_t i = 0; ptr && i < g->n; i++)
    if (g->nodes[i]->kind == HG_ALLOC && g->nodes[i]->dst == ptr) {
      cap_node(s, HG_FREE)->dst = ptr;
      gmem_of(ptr)->free_node = true;
      return hipSuccess;
    }
  cap_of(s)->root->status = hipStreamCaptureStatusInvalidated;
  return hip_complain(fn, hipErrorStreamCaptureUnsupported,
                      "%p was not allocated by this capture (hipMallocAsync on a capturing stream): freeing other "
                      "memory from a graph is not provided; the capture is invalidated", ptr);
}

hipError_t hip_capture_refuse(hipStream_t s, const char *fn) {
  capture *c = cap_of(s);
  if (!c) return hipSuccess;
  if (c->root->status == hipStreamCaptureStatusInvalidated)
    return hip_complain(fn, hipErrorStreamCaptureInvalidated,
                        "stream %p's capture was invalidated (by the call named above); hipStreamEndCapture on stream "
                        "%p ends it", (void *)s, (void *)c->root->origin);
  c->root->status = hipStreamCaptureStatusInvalidated;
  return hip_complain(fn, hipErrorStreamCaptureUnsupported,
                      "stream %p is capturing, and lanelab records only kernel launches, hipMemcpyAsync and its "
                      "HtoD/DtoH/DtoD forms, hipMemcpy2DAsync, hipMemcpy3DAsync, the symbol copies, hipMemsetAsync and "
                      "its D8/D16/D32 forms, hipMemset2DAsync, hipMemset3DAsync, hipMallocAsync, hipFreeAsync, "
                      "hipLaunchHostFunc, hipEventRecord and hipStreamWaitEvent into a graph (docs/hip-runtime.md); the "
                      "capture is invalidated", (void *)s);
}

/* hipStreamWaitEvent(s, e): an event recorded into a capture and not run yet. s joins that capture
 * if it is not capturing, and its next node depends on the event's frontier too. */
hipError_t hip_capture_wait(hipStream_t s, hipEvent_t e, const char *fn) {
  cap_event *ce = cev_of(e);
  capture *c = cap_of(s);
  if (!ce || !ce->root) /* an event of no capture: its work ran when it was recorded */
    return c && c->root->status != hipStreamCaptureStatusActive ? hip_capture_refuse(s, fn) : hipSuccess;
  if (c && c->root != ce->root)
    return hip_complain(fn, hipErrorStreamCaptureIsolation,
                        "stream %p captures into another graph than the one event %p was recorded into", (void *)s,
                        (void *)e);
  if (ce->root->status != hipStreamCaptureStatusActive) return hip_capture_refuse(ce->root->origin, fn);
  if (!c) {
    if (!s || s == hipStreamLegacy)
      return hip_complain(fn, hipErrorStreamCaptureImplicit, "the null stream cannot join a capture");
    c = cap_new(s, ce->root);
  }
  front_add(c, ce->front, ce->nfront);
  return hipSuccess;
}

/* the event was recorded outside any capture since, or destroyed */
void hip_capture_forget_event(hipEvent_t e) {
  cap_event *ce = cev_of(e);
  if (!ce) return;
  free(ce->front);
  *ce = cevs[--ncevs];
}

/* the calling thread's capture interaction mode (hipThreadExchangeStreamCaptureMode) */
static __thread hipStreamCaptureMode thread_mode = hipStreamCaptureModeGlobal;

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode) {
  HIP_BEGIN();
  if (!mode || (*mode != hipStreamCaptureModeGlobal && *mode != hipStreamCaptureModeThreadLocal &&
                *mode != hipStreamCaptureModeRelaxed))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mode is NULL or not a hipStreamCaptureMode"));
  hipStreamCaptureMode old = thread_mode;
  thread_mode = *mode, *mode = old;
  return hip_done(hipSuccess);
}

/* A synchronous copy or set while any stream captures (its capture begun and not ended, whatever
 * its mode or status) invalidates every capture: hipErrorStreamCaptureImplicit, ROCm's
 * CHECK_STREAM_CAPTURING (ROCm/clr hip_internal.hpp, f9f995c); hipDeviceSynchronize the same with
 * hipErrorStreamCaptureUnsupported (CHECK_SUPPORTED_DURING_CAPTURE). The thread's mode does not
 * matter to either. */
hipError_t hip_capture_sync(const char *fn, hipError_t code) {
  capture_root *hit = NULL;
  for (size_t i = 0; i < ncaps; i++) caps[i].root->status = hipStreamCaptureStatusInvalidated, hit = caps[i].root;
  if (!hit) return hipSuccess;
  return hip_complain(fn, code,
                      "made while stream %p captures: %s is not allowed during a capture in any mode (HIP's rule); "
                      "the capture is invalidated", (void *)hit->origin,
                      code == hipErrorStreamCaptureImplicit ? "a synchronous copy or set" : "a device synchronization");
}

/* hipStreamSynchronize, hipStreamQuery, hipEventSynchronize (of the event's stream): ROCm's
 * Stream::StreamCaptureOngoing (hip_stream.cpp, f9f995c). A capturing stream: its capture
 * invalidated, hipErrorStreamCaptureUnsupported. Another stream (not the null one): the same while a
 * capture that binds this thread is active (one in global mode, or one begun on this thread in
 * thread-local mode) unless the thread's own mode is relaxed. */
hipError_t hip_capture_ongoing(hipStream_t s, const char *fn) {
  if (!s || s == hipStreamLegacy) return hipSuccess;
  capture *c = cap_of(s);
  capture_root *hit = NULL;
  if (c) {
    c->root->status = hipStreamCaptureStatusInvalidated;
    hit = c->root;
  } else if (thread_mode != hipStreamCaptureModeRelaxed) {
    pthread_t me = pthread_self();
    for (size_t i = 0; i < ncaps; i++) {
      capture_root *r = caps[i].root;
      if (r->mode == hipStreamCaptureModeGlobal || (r->mode == hipStreamCaptureModeThreadLocal && pthread_equal(r->thread, me))) {
        r->status = hipStreamCaptureStatusInvalidated;
        hit = r;
      }
    }
  }
  if (!hit) return hipSuccess;
  return hip_complain(fn, hipErrorStreamCaptureUnsupported,
                      "made while stream %p captures%s: waiting for a stream is not allowed then (HIP's rule); the "
                      "capture is invalidated", (void *)hit->origin, c ? "" : " in a mode that binds this thread");
}

/* An allocation or release call (hipMalloc, hipFree, hipHostMalloc ...) while a capture that
 * prohibits it is active: ROCm's CHECK_STREAM_CAPTURE_SUPPORTED (ROCm/clr hip_internal.hpp, f9f995c),
 * as CUDA's "unsafe calls" rule. Unless this thread's mode is relaxed, a capture begun on this thread
 * in global or thread-local mode, and in global mode also one begun in global mode on any thread,
 * is invalidated, and the call fails with hipErrorStreamCaptureUnsupported (printed). */
hipError_t hip_capture_unsafe(const char *fn) {
  if (thread_mode == hipStreamCaptureModeRelaxed) return hipSuccess;
  pthread_t me = pthread_self();
  capture_root *hit = NULL;
  for (size_t i = 0; i < ncaps; i++) {
    capture_root *r = caps[i].root;
    if (r->mode == hipStreamCaptureModeRelaxed) continue;
    if (pthread_equal(r->thread, me) || (thread_mode == hipStreamCaptureModeGlobal && r->mode == hipStreamCaptureModeGlobal)) {
      r->status = hipStreamCaptureStatusInvalidated;
      hit = r;
    }
  }
  if (!hit) return hipSuccess;
  return hip_complain(fn, hipErrorStreamCaptureUnsupported,
                      "made while stream %p captures: allocating or freeing memory is not allowed then unless the "
                      "thread's capture mode is relaxed (HIP's rule); the capture is invalidated", (void *)hit->origin);
}

/* The null stream's capture queries while a capture on a blocking stream is active: ROCm answers
 * hipErrorStreamCaptureImplicit (hip_graph.cpp hipStreamIsCapturing_common, Device::StreamCaptureBlocking)
 * and leaves the capture as it is */
static hipError_t null_stream_query(hipStream_t s, const char *fn) {
  if (s && s != hipStreamLegacy) return hipSuccess;
  for (size_t i = 0; i < ncaps; i++)
    if (caps[i].root->status == hipStreamCaptureStatusActive && !hip_stream_nonblocking(caps[i].s))
      return hip_complain(fn, hipErrorStreamCaptureImplicit,
                          "asked of the null stream while blocking stream %p captures (the null stream would "
                          "synchronize with it)", (void *)caps[i].s);
  return hipSuccess;
}

/* every stream of root's capture stops capturing, its events forget it; the graph is the caller's */
static void root_end(capture_root *root) {
  for (size_t i = 0; i < ncaps;)
    if (caps[i].root == root) {
      free(caps[i].front);
      caps[i] = caps[--ncaps];
    } else {
      i++;
    }
  for (size_t i = 0; i < ncevs;)
    if (cevs[i].root == root) {
      free(cevs[i].front);
      cevs[i] = cevs[--ncevs];
    } else {
      i++;
    }
  free(root);
}

/* hipStreamDestroy: the stream leaves its capture; the origin's destruction ends the capture */
void hip_capture_drop(hipStream_t s) {
  capture *c = cap_of(s);
  if (!c) return;
  capture_root *root = c->root;
  if (root->origin == s) {
    graph_free(root->g);
    root_end(root);
    return;
  }
  free(c->front);
  *c = caps[--ncaps];
}

/* A handle that is not a stream: ROCm's hipErrorContextIsDestroyed for the capture calls (ROCm/clr
 * hip_graph.cpp, as hip_stream.c's stream calls) */
hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode mode) {
  HIP_BEGIN();
  if (!hip_stream_valid(s)) return hip_done(hip_stream_gone(__func__, s));
  /* the per-thread stream can (ROCm/clr hip_graph.cpp hipStreamBeginCapture_common) */
  if (!s || s == hipStreamLegacy)
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureUnsupported,
                                 "the null (legacy) stream cannot capture; capture a stream the program created"));
  if (mode != hipStreamCaptureModeGlobal && mode != hipStreamCaptureModeThreadLocal && mode != hipStreamCaptureModeRelaxed)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "mode %d", (int)mode));
  if (cap_of(s)) return hip_done(hip_complain(__func__, hipErrorIllegalState, "stream %p is capturing already", (void *)s));
  capture_root *r = ll_xcalloc(1, sizeof *r);
  *r = (capture_root){.g = graph_new(), .mode = mode, .status = hipStreamCaptureStatusActive, .id = next_id++,
                      .thread = pthread_self(), .origin = s}; /* listed: hipStreamGetCaptureInfo_v2 hands it out */
  cap_new(s, r);
  return hip_done(hipSuccess);
}

/* mark[i]: g's node at place i is one of `from` or one of their ancestors (an explicit stack, each
 * node pushed once) */
static bool *ancestors(const struct ihipGraph *g, struct hipGraphNode *const *from, size_t n) {
  for (size_t i = 0; i < g->n; i++) g->nodes[i]->idx = i;
  bool *mark = ll_xcalloc(g->n + 1, sizeof *mark);
  struct hipGraphNode **stack = ll_xcalloc(g->n + 1, sizeof *stack);
  size_t top = 0;
  for (size_t i = 0; i < n; i++)
    if (!mark[from[i]->idx]) mark[from[i]->idx] = true, stack[top++] = from[i];
  while (top) {
    struct hipGraphNode *x = stack[--top];
    for (size_t d = 0; d < x->ndeps; d++)
      if (!mark[x->deps[d]->idx]) mark[x->deps[d]->idx] = true, stack[top++] = x->deps[d];
  }
  free(stack);
  return mark;
}

hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t *pGraph) {
  HIP_BEGIN();
  if (!pGraph) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraph is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_stream_gone(__func__, s));
  capture *c = cap_of(s);
  if (!c) return hip_done(hip_complain(__func__, hipErrorIllegalState, "stream %p is not capturing", (void *)s));
  capture_root *root = c->root;
  if (root->origin != s)
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureUnmatched,
                                 "stream %p joined the capture begun on stream %p, which ends it", (void *)s, (void *)root->origin));
  /* ROCm: a capture not in relaxed mode is ended by the thread that began it (hipStreamEndCapture_common) */
  if (root->mode != hipStreamCaptureModeRelaxed && !pthread_equal(root->thread, pthread_self()))
    return hip_done(hip_complain(__func__, hipErrorStreamCaptureWrongThread, "the capture began on another thread"));
  /* every joined stream's work must have been joined back: its frontier behind the origin's */
  hipError_t e = root->status == hipStreamCaptureStatusActive ? hipSuccess : hipErrorStreamCaptureInvalidated;
  bool *behind = ancestors(root->g, c->front, c->nfront);
  for (size_t i = 0; i < ncaps && e == hipSuccess; i++) {
    if (caps[i].root != root || caps[i].s == s) continue;
    for (size_t f = 0; f < caps[i].nfront && e == hipSuccess; f++)
      if (!behind[caps[i].front[f]->idx])
        e = hip_complain(__func__, hipErrorStreamCaptureUnjoined,
                         "stream %p joined the capture and its work was not joined back into stream %p (an event "
                         "recorded on it and waited for by the origin)", (void *)caps[i].s, (void *)s);
  }
  free(behind);
  struct ihipGraph *g = root->g;
  root_end(root);
  if (e != hipSuccess) {
    graph_free(g);
    *pGraph = NULL;
    if (e == hipErrorStreamCaptureInvalidated)
      hip_complain(__func__, e, "the capture of stream %p was invalidated by an earlier call (its message is above)", (void *)s);
    return hip_done(e);
  }
  *pGraph = g;
  return hip_done(hipSuccess);
}

hipError_t hipStreamIsCapturing(hipStream_t s, hipStreamCaptureStatus *status) {
  HIP_BEGIN();
  if (!status) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pCaptureStatus is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_stream_gone(__func__, s));
  hipError_t q = null_stream_query(s, __func__);
  if (q != hipSuccess) return hip_done(q);
  capture *c = cap_of(s);
  *status = c ? c->root->status : hipStreamCaptureStatusNone;
  return hip_done(hipSuccess);
}

hipError_t hipStreamGetCaptureInfo(hipStream_t s, hipStreamCaptureStatus *status, unsigned long long *id) {
  HIP_BEGIN();
  if (!status) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pCaptureStatus is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_stream_gone(__func__, s));
  hipError_t q = null_stream_query(s, __func__);
  if (q != hipSuccess) return hip_done(q);
  capture *c = cap_of(s);
  *status = c ? c->root->status : hipStreamCaptureStatusNone;
  if (id && c) *id = c->root->id;
  return hip_done(hipSuccess);
}

static hipError_t deps_ok(hipGraph_t g, const hipGraphNode_t *deps, size_t n, const char *fn);

/* the capture's graph and the stream's dependencies (its frontier; valid until its next operation) */
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t s, hipStreamCaptureStatus *status, unsigned long long *id,
                                      hipGraph_t *graph, const hipGraphNode_t **deps, size_t *ndeps) {
  HIP_BEGIN();
  if (!status) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "captureStatus_out is NULL"));
  if (!hip_stream_valid(s)) return hip_done(hip_stream_gone(__func__, s));
  hipError_t q = null_stream_query(s, __func__);
  if (q != hipSuccess) return hip_done(q);
  capture *c = cap_of(s);
  *status = c ? c->root->status : hipStreamCaptureStatusNone;
  bool active = c && c->root->status == hipStreamCaptureStatusActive;
  if (id && c) *id = c->root->id;
  if (graph) *graph = active ? c->root->g : NULL;
  if (deps) *deps = active ? c->front : NULL;
  if (ndeps) *ndeps = active ? c->nfront : 0;
  return hip_done(hipSuccess);
}

/* the stream's next node depends on these nodes of its capture's graph too (flags
 * hipStreamAddCaptureDependencies) or only (hipStreamSetCaptureDependencies) */
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t s, hipGraphNode_t *deps, size_t n, unsigned int flags) {
  HIP_BEGIN();
  capture *c = cap_of(s);
  if (!c || c->root->status != hipStreamCaptureStatusActive)
    return hip_done(hip_complain(__func__, hipErrorIllegalState, "stream %p is not capturing", (void *)s));
  if (flags != hipStreamAddCaptureDependencies && flags != hipStreamSetCaptureDependencies)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags %u", flags));
  hipError_t e = deps_ok(c->root->g, deps, n, __func__);
  if (e != hipSuccess) return hip_done(e);
  if (flags == hipStreamSetCaptureDependencies) c->nfront = 0;
  front_add(c, deps, n);
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

/* a capture still records into g (printed): its frontiers and events point at g's nodes */
static bool captured_into(hipGraph_t g, const char *fn) {
  for (size_t i = 0; i < ncaps; i++)
    if (caps[i].root->g == g) {
      hip_complain(fn, hipErrorIllegalState, "graph %p is being captured into (stream %p)", (void *)g, (void *)caps[i].root->origin);
      return true;
    }
  return false;
}

hipError_t hipGraphDestroy(hipGraph_t g) {
  HIP_BEGIN();
  if (!graph_valid(g)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not a graph", (void *)g));
  if (captured_into(g, __func__)) return hip_done(hipErrorIllegalState);
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

/* a new node's dependencies: nodes of the graph, each once */
static hipError_t deps_ok(hipGraph_t g, const hipGraphNode_t *deps, size_t n, const char *fn) {
  if (!graph_valid(g)) return hip_complain(fn, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  if (n && !deps) return hip_complain(fn, hipErrorInvalidValue, "%zu dependencies and pDependencies NULL", n);
  for (size_t i = 0; i < n; i++) {
    bool in = false;
    for (size_t j = 0; j < g->n && !in; j++) in = g->nodes[j] == deps[i];
    if (!in) return hip_complain(fn, hipErrorInvalidValue, "dependency %zu (%p) is not a node of the graph", i, (void *)deps[i]);
    for (size_t j = 0; j < i; j++)
      if (deps[j] == deps[i]) return hip_complain(fn, hipErrorInvalidValue, "dependency %zu repeats dependency %zu", i, j);
  }
  return hipSuccess;
}
/* Every hipGraphAdd*Node: the node's parameters checked into tmp first, then the graph's checks of
 * its dependencies, then the node with tmp's parameters and its edges. On failure tmp's own memory
 * (a kernel's argument bytes, a child's copy) is released. */
static hipError_t add_node(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps, hg_kind kind,
                           struct hipGraphNode *tmp, hipError_t checked, const char *fn) {
  hipError_t e = checked != hipSuccess ? checked
                 : !pNode              ? hip_complain(fn, hipErrorInvalidValue, "pGraphNode is NULL")
                                       : deps_ok(g, deps, ndeps, fn);
  if (e != hipSuccess) {
    free(tmp->raw);
    if (tmp->child) graph_release(tmp->child);
    return e;
  }
  struct hipGraphNode *x = node_add(g, kind);
  struct ihipGraph *owner = x->owner;
  *x = *tmp;
  x->kind = kind, x->owner = owner, x->deps = NULL, x->ndeps = 0;
  for (size_t d = 0; d < ndeps; d++) dep_add(x, deps[d]);
  *pNode = x;
  return hipSuccess;
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  return hip_done(add_node(pNode, g, deps, ndeps, HG_EMPTY, &tmp, hipSuccess, __func__));
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                   void *dst, const void *src, size_t count, hipMemcpyKind kind) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = copy1d_ok(&tmp, dst, src, count, kind, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_COPY, &tmp, e, __func__));
}

static hipError_t memset_params(struct hipGraphNode *x, const hipMemsetParams *p, const char *fn) {
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "the memset parameters are NULL");
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return hip_complain(fn, hipErrorInvalidValue, "elementSize %u: 1, 2 or 4", p->elementSize);
  if (p->height > 1 && p->pitch < p->width * p->elementSize)
    return hip_complain(fn, hipErrorInvalidValue, "pitch %zu is less than a row of %zu elements of %u bytes", p->pitch,
                        p->width, p->elementSize);
  /* as ROCm (ROCm/clr f9f995c hip_memory.cpp ihipGraphMemsetParams_validate, ihipMemset_validate): a
   * width and a height, dst in one of the runtime's allocations, the rows inside it */
  if (!p->width || !p->height) return hip_complain(fn, hipErrorInvalidValue, "width %zu, height %zu: both must be > 0", p->width, p->height);
  size_t left = alloc_left(p->dst);
  if (!left) return hip_complain(fn, hipErrorInvalidValue, "dst %p is not in memory the runtime allocated", p->dst);
  size_t row = p->width * p->elementSize, span = (p->height - 1) * p->pitch + row;
  if (p->width > SIZE_MAX / 4 || (p->height > 1 && p->pitch > (SIZE_MAX - row) / (p->height - 1)) || span > left)
    return hip_complain(fn, hipErrorInvalidValue, "%zu rows of %zu bytes, %zu apart, run past the end of dst's allocation",
                        p->height, row, p->pitch);
  x->dst = p->dst, x->esize = p->elementSize, x->n = p->width, x->height = p->height, x->pitch = p->pitch;
  uint32_t v = p->value; /* the low elementSize bytes, as hipMemsetD8/D16/D32 take them */
  memcpy(x->pattern, &v, x->esize);
  return hipSuccess;
}
hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                 const hipMemsetParams *p) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = memset_params(&tmp, p, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_SET, &tmp, e, __func__));
}

static hipError_t host_params(struct hipGraphNode *n, const hipHostNodeParams *p, const char *fn) {
  if (!p || !p->fn) return hip_complain(fn, hipErrorInvalidValue, "pNodeParams or its fn is NULL");
  n->fn = p->fn, n->user = p->userData;
  return hipSuccess;
}
hipError_t hipGraphAddHostNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                               const hipHostNodeParams *p) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = host_params(&tmp, p, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_HOST, &tmp, e, __func__));
}

static hipError_t event_params(struct hipGraphNode *n, hipEvent_t ev, const char *fn) {
  if (!hip_event_valid(ev)) return hip_complain(fn, hipErrorInvalidValue, "%p is not an event", (void *)ev);
  n->event = ev;
  return hipSuccess;
}
static struct hipGraphNode *graph_node(hipGraphNode_t node, hg_kind kind, const char *fn);
static struct hipGraphNode *exec_node(hipGraphExec_t x, hipGraphNode_t node, hg_kind kind, const char *fn);
/* an event record or wait node's event, read and changed (the executable graph's copy apart) */
static hipError_t event_get(hipGraphNode_t node, hg_kind kind, hipEvent_t *out, const char *fn) {
  if (!out) return hip_complain(fn, hipErrorInvalidValue, "event_out is NULL");
  struct hipGraphNode *n = graph_node(node, kind, fn);
  if (!n) return hipErrorInvalidValue;
  *out = n->event;
  return hipSuccess;
}
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  HIP_BEGIN();
  return hip_done(event_get(node, HG_EVENT, event_out, __func__));
}
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  HIP_BEGIN();
  return hip_done(event_get(node, HG_WAIT, event_out, __func__));
}
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_EVENT, __func__);
  return hip_done(n ? event_params(n, event, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_WAIT, __func__);
  return hip_done(n ? event_params(n, event, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t x, hipGraphNode_t node, hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_EVENT, __func__);
  return hip_done(n ? event_params(n, event, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t x, hipGraphNode_t node, hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_WAIT, __func__);
  return hip_done(n ? event_params(n, event, __func__) : hipErrorInvalidValue);
}

/* A 3-D copy node (hipGraphAddMemcpyNode): hipMemcpy3D's parameters, copied; the copy and its
 * checks are hipMemcpy3D's when the graph runs (pitched pointers; arrays are refused here, as
 * hipMemcpy3D refuses them) */
static hipError_t copy3d_params(struct hipGraphNode *n, const hipMemcpy3DParms *p, const char *fn) {
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "pCopyParams is NULL");
  if (p->srcArray || p->dstArray)
    return hip_complain(fn, hipErrorInvalidValue, "srcArray/dstArray: arrays are not provided (the device has no image "
                        "support); copy between pitched pointers");
  if (!p->srcPtr.ptr || !p->dstPtr.ptr) return hip_complain(fn, hipErrorInvalidValue, "srcPtr.ptr or dstPtr.ptr is NULL");
  if ((unsigned)p->kind > hipMemcpyDefault) return hip_complain(fn, hipErrorInvalidMemcpyDirection, "kind %d", (int)p->kind);
  /* each side that is one of the runtime's allocations holds the extent at its position (ROCm's
   * ihipMemcpy3D_validate checks the sizes when the node is added or set) */
  const hipExtent ex = p->extent;
  for (int side = 0; side < 2 && ex.width && ex.height && ex.depth; side++) {
    const hipPitchedPtr pp = side ? p->srcPtr : p->dstPtr;
    const hipPos pos = side ? p->srcPos : p->dstPos;
    size_t left = alloc_left(pp.ptr), rows = pp.ysize ? pp.ysize : ex.height;
    double end = ((double)(pos.z + ex.depth - 1) * rows + (double)(pos.y + ex.height - 1)) * (double)pp.pitch +
                 (double)(pos.x + ex.width);
    if (left && end > (double)left)
      return hip_complain(fn, hipErrorInvalidValue, "the extent runs past the end of the %s's allocation", side ? "source" : "destination");
  }
  copy3d_set(n, p);
  return hipSuccess;
}
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                 const hipMemcpy3DParms *p) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = copy3d_params(&tmp, p, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_COPY, &tmp, e, __func__));
}
/* a copy node's parameters as hipMemcpy3DParms: a 1-D copy as one row of count bytes */
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *p) {
  HIP_BEGIN();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pNodeParams is NULL"));
  struct hipGraphNode *n = graph_node(node, HG_COPY, __func__);
  if (!n) return hip_done(hipErrorInvalidValue);
  if (n->is3d) {
    *p = n->p3;
  } else {
    memset(p, 0, sizeof *p);
    p->srcPtr = make_hipPitchedPtr((void *)n->src, n->n, n->n, 1);
    p->dstPtr = make_hipPitchedPtr(n->dst, n->n, n->n, 1);
    p->extent = make_hipExtent(n->n, 1, 1);
    p->kind = n->copy_kind;
  }
  return hip_done(hipSuccess);
}
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_COPY, __func__);
  return hip_done(n ? copy3d_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t x, hipGraphNode_t node, hipMemcpy3DParms *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_COPY, __func__);
  if (n && p && p->kind != n->copy_kind) /* ROCm: an executable copy node keeps its direction */
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "the copy's kind differs from the node's"));
  return hip_done(n ? copy3d_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                      hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = event_params(&tmp, event, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_EVENT, &tmp, e, __func__));
}
/* every node runs in order here, so a wait has nothing to wait for: it is an ordering point */
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                    hipEvent_t event) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = event_params(&tmp, event, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_WAIT, &tmp, e, __func__));
}

/* the child graph is copied when the node is added, as HIP does */
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                     hipGraph_t child) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = hipSuccess;
  if (!graph_valid(child) || child == g)
    e = hip_complain(__func__, hipErrorInvalidValue, "%p is not a graph other than the parent", (void *)child);
  else
    tmp.child = graph_copy(child);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_CHILD, &tmp, e, __func__));
}

/* The kernel's launch configuration is checked when the graph runs (hip_launch, as for a launch) */
static hipError_t kernel_params(struct hipGraphNode *x, const hipKernelNodeParams *p, const char *fn) {
  if (!p) return hip_complain(fn, hipErrorInvalidValue, "pNodeParams is NULL");
  if (p->extra)
    return hip_complain(fn, hipErrorInvalidValue, "extra (a packed argument buffer) is not provided for kernel nodes; give kernelParams");
  struct ihipModuleSymbol_t *f;
  hipError_t e;
  /* func: a __global__ function, or a module's hipFunction_t, which ROCm takes too (ROCm/clr f9f995c
   * GraphKernelNode: a function it does not find registered is taken as a hipFunction_t) */
  if (!(f = hip_module_func(p->func)) && (e = hip_func_of(p->func, &f, fn)) != hipSuccess) return e;
  if ((e = hip_func_resolve(f, fn)) != hipSuccess) return e;
  uint8_t *raw;
  size_t nraw;
  if ((e = hip_kernel_args(fn, f->k, f->name, p->kernelParams, NULL, 0, &raw, &nraw)) != hipSuccess) return e;
  free(x->raw), free(x->kparams);
  x->f = f, x->grid = p->gridDim, x->block = p->blockDim, x->shmem = p->sharedMemBytes, x->raw = raw, x->nraw = nraw;
  x->kparams = NULL;
  return hipSuccess;
}
hipError_t hipGraphAddKernelNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                 const hipKernelNodeParams *p) {
  HIP_BEGIN();
  struct hipGraphNode tmp = {0};
  hipError_t e = kernel_params(&tmp, p, __func__);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_KERNEL, &tmp, e, __func__));
}

/* ---- a graph's structure -------------------------------------------------------------------------*/
static hipError_t edges_ok(hipGraph_t g, const hipGraphNode_t *from, const hipGraphNode_t *to, size_t n, const char *fn) {
  if (!graph_valid(g)) return hip_complain(fn, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  if (n && (!from || !to)) return hip_complain(fn, hipErrorInvalidValue, "from or to is NULL");
  for (size_t i = 0; i < n; i++)
    if (!node_valid(from[i]) || !node_valid(to[i]) || from[i]->owner != g || to[i]->owner != g || from[i] == to[i])
      return hip_complain(fn, hipErrorInvalidValue, "edge %zu (%p -> %p) is not between two nodes of the graph", i,
                          (void *)from[i], (void *)to[i]);
  return hipSuccess;
}
hipError_t hipGraphAddDependencies(hipGraph_t g, const hipGraphNode_t *from, const hipGraphNode_t *to, size_t n) {
  HIP_BEGIN();
  hipError_t e = edges_ok(g, from, to, n, __func__);
  for (size_t i = 0; e == hipSuccess && i < n; i++)
    if (has_dep(to[i], from[i])) e = hip_complain(__func__, hipErrorInvalidValue, "edge %zu exists already", i);
  for (size_t i = 0; e == hipSuccess && i < n; i++) dep_add(to[i], from[i]);
  return hip_done(e);
}
hipError_t hipGraphRemoveDependencies(hipGraph_t g, const hipGraphNode_t *from, const hipGraphNode_t *to, size_t n) {
  HIP_BEGIN();
  hipError_t e = edges_ok(g, from, to, n, __func__);
  for (size_t i = 0; e == hipSuccess && i < n; i++)
    if (!has_dep(to[i], from[i])) e = hip_complain(__func__, hipErrorInvalidValue, "edge %zu does not exist", i);
  for (size_t i = 0; e == hipSuccess && i < n; i++) {
    struct hipGraphNode *x = to[i];
    for (size_t d = 0; d < x->ndeps; d++)
      if (x->deps[d] == from[i]) x->deps[d] = x->deps[--x->ndeps];
  }
  return hip_done(e);
}

/* HIP's listing convention: a NULL array asks for the count; otherwise up to *n entries are filled
 * and *n becomes the number filled (the rest of the array, if any, NULL) */
static void list_out(hipGraphNode_t *out, size_t *n, hipGraphNode_t *all, size_t count) {
  if (!out) {
    *n = count;
    return;
  }
  size_t k = *n < count ? *n : count;
  for (size_t i = 0; i < k; i++) out[i] = all[i];
  for (size_t i = k; i < *n; i++) out[i] = NULL;
  *n = k;
}
hipError_t hipGraphGetEdges(hipGraph_t g, hipGraphNode_t *from, hipGraphNode_t *to, size_t *numEdges) {
  HIP_BEGIN();
  if (!graph_valid(g) || !numEdges || (!from) != (!to))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, numEdges NULL, or one of from and to NULL"));
  size_t count = 0;
  for (size_t i = 0; i < g->n; i++) count += g->nodes[i]->ndeps;
  hipGraphNode_t *f = ll_xcalloc(count ? count : 1, sizeof *f), *t = ll_xcalloc(count ? count : 1, sizeof *t);
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++)
    for (size_t d = 0; d < g->nodes[i]->ndeps; d++) f[k] = g->nodes[i]->deps[d], t[k++] = g->nodes[i];
  size_t nn = *numEdges;
  list_out(from, &nn, f, count);
  list_out(to, numEdges, t, count);
  free(f), free(t);
  return hip_done(hipSuccess);
}
hipError_t hipGraphGetRootNodes(hipGraph_t g, hipGraphNode_t *roots, size_t *n) {
  HIP_BEGIN();
  if (!graph_valid(g) || !n) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, or pNumRootNodes is NULL"));
  hipGraphNode_t *r = ll_xcalloc(g->n ? g->n : 1, sizeof *r);
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++)
    if (!g->nodes[i]->ndeps) r[k++] = g->nodes[i];
  list_out(roots, n, r, k);
  free(r);
  return hip_done(hipSuccess);
}
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t x, hipGraphNode_t *deps, size_t *n) {
  HIP_BEGIN();
  if (!node_valid(x) || !n) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a node, or the count is NULL"));
  list_out(deps, n, x->deps, x->ndeps);
  return hip_done(hipSuccess);
}
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t x, hipGraphNode_t *out, size_t *n) {
  HIP_BEGIN();
  if (!node_valid(x) || !n) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a node, or the count is NULL"));
  struct ihipGraph *g = x->owner;
  hipGraphNode_t *r = ll_xcalloc(g->n ? g->n : 1, sizeof *r);
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++)
    if (has_dep(g->nodes[i], x)) r[k++] = g->nodes[i];
  list_out(out, n, r, k);
  free(r);
  return hip_done(hipSuccess);
}
hipError_t hipGraphNodeGetType(hipGraphNode_t x, hipGraphNodeType *type) {
  HIP_BEGIN();
  if (!node_valid(x) || !type) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a node, or pType is NULL"));
  static const hipGraphNodeType t[] = {
      [HG_KERNEL] = hipGraphNodeTypeKernel,  [HG_COPY] = hipGraphNodeTypeMemcpy,          [HG_SET] = hipGraphNodeTypeMemset,
      [HG_HOST] = hipGraphNodeTypeHost,      [HG_EVENT] = hipGraphNodeTypeEventRecord,    [HG_WAIT] = hipGraphNodeTypeWaitEvent,
      [HG_CHILD] = hipGraphNodeTypeGraph,    [HG_EMPTY] = hipGraphNodeTypeEmpty,          [HG_ALLOC] = hipGraphNodeTypeMemAlloc,
      [HG_FREE] = hipGraphNodeTypeMemFree};
  *type = t[x->kind];
  return hip_done(hipSuccess);
}

hipError_t hipGraphDestroyNode(hipGraphNode_t x) {
  HIP_BEGIN();
  if (!node_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not a node", (void *)x));
  struct ihipGraph *g = x->owner;
  if (captured_into(g, __func__)) return hip_done(hipErrorIllegalState);
  for (size_t i = 0; i < g->n; i++) {
    struct hipGraphNode *y = g->nodes[i];
    for (size_t d = 0; d < y->ndeps; d++)
      if (y->deps[d] == x) y->deps[d--] = y->deps[--y->ndeps];
  }
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i] == x) {
      memmove(g->nodes + i, g->nodes + i + 1, (g->n - i - 1) * sizeof *g->nodes); /* keep the others' order */
      g->n--;
      break;
    }
  node_release(x);
  return hip_done(hipSuccess);
}

hipError_t hipGraphClone(hipGraph_t *pClone, hipGraph_t g) {
  HIP_BEGIN();
  if (!pClone || !graph_valid(g)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphClone NULL, or not a graph"));
  struct ihipGraph *c = graph_copy(g);
  graphs = ll_xrealloc(graphs, (ngraphs + 1) * sizeof *graphs);
  graphs[ngraphs++] = c;
  uo_copy_refs(&c->uo, &c->nuo, g);
  *pClone = c;
  return hip_done(hipSuccess);
}
hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t orig, hipGraph_t clone) {
  HIP_BEGIN();
  if (!pNode || !graph_valid(clone)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pNode NULL, or not a graph"));
  /* a graph's own nodes copy none (orig NULL): a NULL or dead original is no node's */
  if (!node_valid(orig)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not a node", (void *)orig));
  for (size_t i = 0; i < clone->n; i++)
    if (clone->nodes[i]->orig == orig) return *pNode = clone->nodes[i], hip_done(hipSuccess);
  return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p has no copy in graph %p", (void *)orig, (void *)clone));
}

/* ---- a node's parameters -------------------------------------------------------------------------*/
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t x, hipKernelNodeParams *p) {
  HIP_BEGIN();
  if (!node_valid(x) || x->kind != HG_KERNEL || !p)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a kernel node, or pNodeParams is NULL"));
  if (!x->kparams) { /* one pointer per explicit argument, into the node's copy of the bytes */
    const emu_kernel *k = x->f->k;
    x->kparams = ll_xcalloc(k->nargs + 1, sizeof *x->kparams);
    size_t idx = 0;
    for (size_t i = 0; i < k->nargs; i++)
      if (!k->args[i].hidden) x->kparams[idx++] = x->raw + k->args[i].offset;
  }
  memset(p, 0, sizeof *p);
  p->func = x->f->host ? (void *)x->f->host : (void *)x->f;
  p->gridDim = x->grid, p->blockDim = x->block, p->sharedMemBytes = (unsigned)x->shmem, p->kernelParams = x->kparams;
  return hip_done(hipSuccess);
}
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t x, const hipKernelNodeParams *p) {
  HIP_BEGIN();
  if (!node_valid(x) || x->kind != HG_KERNEL) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a kernel node"));
  return hip_done(kernel_params(x, p, __func__));
}
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t x, hipHostNodeParams *p) {
  HIP_BEGIN();
  if (!node_valid(x) || x->kind != HG_HOST || !p)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a host node, or pNodeParams is NULL"));
  p->fn = x->fn, p->userData = x->user;
  return hip_done(hipSuccess);
}
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t x, hipMemsetParams *p) {
  HIP_BEGIN();
  if (!node_valid(x) || x->kind != HG_SET || !p)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a memset node, or pNodeParams is NULL"));
  uint32_t v = 0;
  memcpy(&v, x->pattern, x->esize);
  *p = (hipMemsetParams){.dst = x->dst, .pitch = x->pitch, .value = v, .elementSize = (unsigned)x->esize, .width = x->n,
                         .height = x->height};
  return hip_done(hipSuccess);
}

/* "n3 [label=...]" per node, "n1 -> n3" per edge (Graphviz' DOT); flags are not read */
hipError_t hipGraphDebugDotPrint(hipGraph_t g, const char *path, unsigned int flags) {
  HIP_BEGIN();
  (void)flags;
  if (!graph_valid(g) || !path) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, or path is NULL"));
  static const char *const kind[] = {"kernel",      "memcpy", "memset",       "host",       "event record",
                                     "event wait",  "child graph", "empty", "mem alloc", "mem free"};
  ll_buf b = {0};
  ll_buf_puts(&b, "digraph hip_graph {\n");
  for (size_t i = 0; i < g->n; i++) {
    const struct hipGraphNode *x = g->nodes[i];
    ll_buf_printf(&b, "  n%zu [label=\"%zu: %s", i, i, kind[x->kind]);
    if (x->kind == HG_KERNEL) {
      char *dn = emu_demangle(x->f->k->name);
      ll_buf_puts(&b, " ");
      ll_json_escape(&b, dn ? dn : x->f->k->name); /* a quoted DOT string escapes as JSON's does: \" and \\ */
      free(dn);
      ll_buf_printf(&b, " grid (%u,%u,%u) block (%u,%u,%u)", x->grid.x, x->grid.y, x->grid.z, x->block.x, x->block.y, x->block.z);
    } else if (x->kind == HG_COPY || x->kind == HG_SET || x->kind == HG_ALLOC) {
      ll_buf_printf(&b, " %zu bytes", x->kind == HG_SET ? x->n * x->esize * x->height : x->n);
    } else if (x->kind == HG_CHILD) {
      ll_buf_printf(&b, " of %zu nodes", x->child->n);
    }
    ll_buf_puts(&b, "\"];\n");
  }
  for (size_t i = 0; i < g->n; i++)
    for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
      for (size_t j = 0; j < g->n; j++)
        if (g->nodes[j] == g->nodes[i]->deps[d]) ll_buf_printf(&b, "  n%zu -> n%zu;\n", j, i);
  ll_buf_puts(&b, "}\n");
  ll_err e = {0};
  bool ok = ll_write_file_atomic(path, b.data, b.len, &e);
  ll_buf_free(&b);
  return hip_done(ok ? hipSuccess : hip_complain(__func__, hipErrorInvalidValue, "%s", e.msg));
}

/* ---- executable graphs -----------------------------------------------------------------------------*/
/* appends g's nodes to x in an order that respects every edge, a child graph's nodes in its place;
 * false (naming it) when the edges of g or of a child make a cycle */
static bool flatten(struct hipGraphExec *x, const struct ihipGraph *g, const struct hipGraphNode *as, hg_pick pick,
                    uint64_t *rng, const char *fn) {
  struct hipGraphNode **order = ll_xcalloc(g->n ? g->n : 1, sizeof *order);
  bool ok = topo_order(g, order, pick, rng);
  if (!ok) hip_complain(fn, hipErrorInvalidValue, "the edges of graph %p make a cycle", (void *)g);
  for (size_t i = 0; ok && i < g->n; i++) {
    if (order[i]->kind == HG_CHILD) {
      ok = flatten(x, order[i]->child, order[i], pick, rng, fn);
      continue;
    }
    x->nodes = ll_xrealloc(x->nodes, (x->n + 1) * sizeof *x->nodes);
    struct hipGraphNode *c = node_copy(order[i]), *y = &x->nodes[x->n];
    *y = *c;
    free(c);
    y->orig = as ? (struct hipGraphNode *)as : order[i]; /* a child's nodes answer to the child node */
    y->in_child = as != NULL;
    y->idx = order[i]->idx;
    y->ndepidx = order[i]->ndeps;
    y->depidx = ll_xcalloc(y->ndepidx + 1, sizeof *y->depidx);
    for (size_t d = 0; d < y->ndepidx; d++) y->depidx[d] = order[i]->deps[d]->idx;
    x->n++;
  }
  free(order);
  return ok;
}
static void exec_release(struct hipGraphExec *x) {
  uo_release_all(&x->uo, &x->nuo);
  for (size_t i = 0; i < x->n; i++) {
    if (x->nodes[i].kind == HG_ALLOC) gmem_unref(x->nodes[i].dst);
    free(x->nodes[i].raw), free(x->nodes[i].depidx);
  }
  free(x->nodes), free(x);
}
/* ---- user objects ---------------------------------------------------------------------------------
 * ROCm's (ROCm/clr f9f995c hip_graph.cpp, hip_graph_internal.hpp): an object is a pointer and a
 * destructor with a reference count; graphs hold references (hipGraphRetainUserObject), a clone and
 * an executable graph one on each object their graph holds; the destructor runs, on the calling
 * thread, when the last reference goes (a HIP call inside it is not allowed, as in HIP). A release
 * of more references than the object has, and any call naming an object already destroyed, does
 * nothing (ROCm's hipSuccess). */
struct hipUserObject {
  void *ptr;
  hipHostFn_t destroy;
  unsigned refs;
};
static struct hipUserObject **uobjs;
static size_t nuobjs;
static bool uo_live(const struct hipUserObject *o) {
  for (size_t i = 0; o && i < nuobjs; i++)
    if (uobjs[i] == o) return true;
  return false;
}
static void uo_forget(uo_ref **v, size_t *n, const struct hipUserObject *o) {
  for (size_t i = 0; i < *n; i++)
    if ((*v)[i].o == o) (*v)[i] = (*v)[--*n];
}
static void uo_drop(struct hipUserObject *o, unsigned count) {
  if (!uo_live(o) || o->refs < count) return;
  o->refs -= count;
  if (o->refs) return;
  for (size_t i = 0; i < nuobjs; i++)
    if (uobjs[i] == o) uobjs[i] = uobjs[--nuobjs];
  for (size_t i = 0; i < ngraphs; i++) uo_forget(&graphs[i]->uo, &graphs[i]->nuo, o);
  for (size_t i = 0; i < nexecs; i++) uo_forget(&execs[i]->uo, &execs[i]->nuo, o);
  o->destroy(o->ptr);
  free(o);
}
static uo_ref *uo_find(uo_ref *v, size_t n, const struct hipUserObject *o) {
  for (size_t i = 0; i < n; i++)
    if (v[i].o == o) return &v[i];
  return NULL;
}
static void uo_add(uo_ref **v, size_t *n, struct hipUserObject *o, unsigned count) {
  uo_ref *r = uo_find(*v, *n, o);
  if (!r) {
    *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
    r = &(*v)[(*n)++];
    *r = (uo_ref){.o = o};
  }
  r->n += count;
}
static void uo_release_all(uo_ref **v, size_t *n) {
  while (*n) {
    uo_ref r = (*v)[--*n];
    uo_drop(r.o, r.n < r.o->refs ? r.n : r.o->refs);
  }
  free(*v);
  *v = NULL;
}
static void uo_copy_refs(uo_ref **v, size_t *n, const struct ihipGraph *g) {
  for (size_t i = 0; i < g->nuo; i++) {
    g->uo[i].o->refs++;
    uo_add(v, n, g->uo[i].o, 1);
  }
}
#define UO_COUNT_OK(count) ((count) != 0 && (count) <= (unsigned)INT32_MAX)

hipError_t hipUserObjectCreate(hipUserObject_t *object_out, void *ptr, hipHostFn_t destroy, unsigned int initialRefcount,
                               unsigned int flags) {
  HIP_BEGIN();
  if (!object_out || flags != hipUserObjectNoDestructorSync || !UO_COUNT_OK(initialRefcount) || !destroy)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "object_out or destroy NULL, flags not "
                                 "hipUserObjectNoDestructorSync, or initialRefcount 0 or past INT_MAX"));
  struct hipUserObject *o = ll_xcalloc(1, sizeof *o);
  *o = (struct hipUserObject){.ptr = ptr, .destroy = destroy, .refs = initialRefcount};
  uobjs = ll_xrealloc(uobjs, (nuobjs + 1) * sizeof *uobjs);
  uobjs[nuobjs++] = o;
  *object_out = o;
  return hip_done(hipSuccess);
}
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) {
  HIP_BEGIN();
  if (!object || !UO_COUNT_OK(count)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "object NULL, or count 0 or past INT_MAX"));
  if (uo_live(object)) object->refs += count;
  return hip_done(hipSuccess);
}
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) {
  HIP_BEGIN();
  if (!object || !UO_COUNT_OK(count)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "object NULL, or count 0 or past INT_MAX"));
  uo_drop(object, count);
  return hip_done(hipSuccess);
}
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count, unsigned int flags) {
  HIP_BEGIN();
  if (!graph_valid(graph) || !object || !UO_COUNT_OK(count) || (flags != 0 && flags != hipGraphUserObjectMove))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, object NULL, count 0 or past INT_MAX, or flags "
                                 "not 0 or hipGraphUserObjectMove"));
  if (!uo_live(object)) return hip_done(hipSuccess);
  if (flags != hipGraphUserObjectMove) object->refs += count; /* Move: the caller's references become the graph's */
  uo_add(&graph->uo, &graph->nuo, object, count);
  return hip_done(hipSuccess);
}
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count) {
  HIP_BEGIN();
  if (!graph_valid(graph) || !object || !UO_COUNT_OK(count))
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not a graph, object NULL, or count 0 or past INT_MAX"));
  uo_ref *r = uo_find(graph->uo, graph->nuo, object);
  if (!r || object->refs < count) return hip_done(hipSuccess);
  r->n = r->n > count ? r->n - count : 0;
  if (!r->n) uo_forget(&graph->uo, &graph->nuo, object);
  uo_drop(object, count);
  return hip_done(hipSuccess);
}

static hipError_t instantiate(hipGraphExec_t *pExec, hipGraph_t g, unsigned long long flags, const char *fn) {
  if (!pExec) return hip_complain(fn, hipErrorInvalidValue, "pGraphExec is NULL");
  if (!graph_valid(g)) return hip_complain(fn, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  /* ROCm/clr hip_graph.cpp ihipGraphInstantiate (f9f995c): a graph with memory nodes of its own is
   * instantiated once */
  for (size_t i = 0; g->instantiated && i < g->n; i++)
    if (g->nodes[i]->kind == HG_ALLOC || g->nodes[i]->kind == HG_FREE)
      return hip_complain(fn, hipErrorNotSupported, "graph %p has memory nodes and was instantiated before", (void *)g);
  struct hipGraphExec *x = ll_xcalloc(1, sizeof *x);
  /* the order among nodes the graph leaves unordered follows lanelab exec's --schedule, as the
   * order of waves does: adversarial the latest-added ready node first, random:SEED a drawn one
   * (a new draw for each instantiation), round-robin (the default) the earliest-added */
  static uint64_t ninst;
  uint64_t rng = hip_g.sched_seed ^ (0x9e3779b97f4a7c15ull * ++ninst);
  hg_pick pick = hip_g.sched == EMU_SCHED_ADVERSARIAL ? HG_LAST : hip_g.sched == EMU_SCHED_RANDOM ? HG_RANDOM : HG_FIRST;
  if (!flatten(x, g, NULL, pick, &rng, fn)) {
    exec_release(x);
    return hipErrorInvalidValue;
  }
  execs = ll_xrealloc(execs, (nexecs + 1) * sizeof *execs);
  execs[nexecs++] = x;
  uo_copy_refs(&x->uo, &x->nuo, g); /* it holds one reference on each user object g holds */
  g->instantiated = true;
  x->auto_free = flags & hipGraphInstantiateFlagAutoFreeOnLaunch;
  *pExec = x;
  return hipSuccess;
}

hipError_t hipGraphInstantiate(hipGraphExec_t *pExec, hipGraph_t g, hipGraphNode_t *pErrorNode, char *pLogBuffer,
                               size_t bufferSize) {
  HIP_BEGIN();
  if (pErrorNode) *pErrorNode = NULL;
  if (pLogBuffer && bufferSize) pLogBuffer[0] = 0;
  return hip_done(instantiate(pExec, g, 0, __func__));
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pExec, hipGraph_t g, unsigned long long flags) {
  HIP_BEGIN();
  if (flags & ~(unsigned long long)hipGraphInstantiateFlagAutoFreeOnLaunch)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%llx: only hipGraphInstantiateFlagAutoFreeOnLaunch is provided", flags));
  return hip_done(instantiate(pExec, g, flags, __func__));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t x) {
  HIP_BEGIN();
  if (!exec_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not an executable graph", (void *)x));
  for (size_t i = 0; i < nexecs; i++)
    if (execs[i] == x) execs[i] = execs[--nexecs];
  exec_release(x);
  return hip_done(hipSuccess);
}

/* the executable copy of kernel node `node` takes new arguments and configuration; the graph's
 * node keeps its own */
/* the executable graph's copy of node `node` of that kind, or NULL (printed) */
static struct hipGraphNode *exec_node(hipGraphExec_t x, hipGraphNode_t node, hg_kind kind, const char *fn) {
  if (!exec_valid(x)) {
    hip_complain(fn, hipErrorInvalidValue, "%p is not an executable graph", (void *)x);
    return NULL;
  }
  for (size_t i = 0; i < x->n; i++)
    if (x->nodes[i].orig == node && x->nodes[i].kind == kind) return &x->nodes[i];
  hip_complain(fn, hipErrorInvalidValue, "%p is not a node of that kind in the executable graph's graph", (void *)node);
  return NULL;
}
/* a graph's node of that kind, or NULL (printed) */
static struct hipGraphNode *graph_node(hipGraphNode_t node, hg_kind kind, const char *fn) {
  if (node_valid(node) && node->kind == kind) return node;
  hip_complain(fn, hipErrorInvalidValue, "%p is not a graph node of that kind", (void *)node);
  return NULL;
}

/* the executable graph's copies take new parameters; the graph's nodes keep their own */
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t x, hipGraphNode_t node, const hipKernelNodeParams *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_KERNEL, __func__);
  return hip_done(n ? kernel_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src, size_t count, hipMemcpyKind kind) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_COPY, __func__);
  if (!n) return hip_done(hipErrorInvalidValue);
  if (dst == src || !count) /* ROCm's hipGraphMemcpyNodeSetParams1D refuses these too */
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "dst is src, or count is 0"));
  return hip_done(copy1d_ok(n, dst, src, count, kind, __func__));
}
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t x, hipGraphNode_t node, void *dst, const void *src, size_t count,
                                             hipMemcpyKind kind) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_COPY, __func__);
  if (!n) return hip_done(hipErrorInvalidValue);
  /* ROCm: the executable node's direction does not change (nor may dst be src, or count 0) */
  if (kind != n->copy_kind || dst == src || !count)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%s", kind != n->copy_kind ? "the copy's kind differs from the node's"
                                                                 : "dst is src, or count is 0"));
  return hip_done(copy1d_ok(n, dst, src, count, kind, __func__));
}
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_HOST, __func__);
  return hip_done(n ? host_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t x, hipGraphNode_t node, const hipHostNodeParams *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_HOST, __func__);
  return hip_done(n ? host_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = graph_node(node, HG_SET, __func__);
  return hip_done(n ? memset_params(n, p, __func__) : hipErrorInvalidValue);
}
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t x, hipGraphNode_t node, const hipMemsetParams *p) {
  HIP_BEGIN();
  struct hipGraphNode *n = exec_node(x, node, HG_SET, __func__);
  return hip_done(n ? memset_params(n, p, __func__) : hipErrorInvalidValue);
}

/* nothing to upload: the emulated device's memory is the host's */
hipError_t hipGraphUpload(hipGraphExec_t x, hipStream_t s) {
  HIP_BEGIN();
  if (!exec_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not an executable graph", (void *)x));
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  return hip_done(hip_capture_refuse(s, __func__));
}

/* Kernel, copy and memset nodes of an executable graph can be disabled (they then do nothing) and
 * enabled again, as with HIP */
/* the executable graph's own copy (not a child graph's) of a kernel, memcpy or memset node, or NULL
 * (printed) */
static struct hipGraphNode *switchable(hipGraphExec_t x, hipGraphNode_t node, const char *fn) {
  /* ROCm asks for a live node (GraphNode::isNodeValid): not one destroyed, nor one of a destroyed graph */
  for (size_t i = 0; exec_valid(x) && node_valid(node) && i < x->n; i++) {
    struct hipGraphNode *n = &x->nodes[i];
    if (n->orig == node && !n->in_child && (n->kind == HG_KERNEL || n->kind == HG_COPY || n->kind == HG_SET)) return n;
  }
  hip_complain(fn, hipErrorInvalidValue, "%p is not a kernel, memcpy or memset node of the executable graph", (void *)node);
  return NULL;
}
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t x, hipGraphNode_t node, unsigned int isEnabled) {
  HIP_BEGIN();
  struct hipGraphNode *n = switchable(x, node, __func__);
  if (n) n->disabled = !isEnabled;
  return hip_done(n ? hipSuccess : hipErrorInvalidValue);
}
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t x, hipGraphNode_t node, unsigned int *isEnabled) {
  HIP_BEGIN();
  if (!isEnabled) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "isEnabled is NULL"));
  struct hipGraphNode *n = switchable(x, node, __func__);
  if (n) *isEnabled = !n->disabled;
  return hip_done(n ? hipSuccess : hipErrorInvalidValue);
}

static bool same_places(const size_t *a, size_t na, const struct hipGraphNode *y) {
  if (na != y->ndeps) return false;
  for (size_t i = 0; i < na; i++) {
    bool in = false;
    for (size_t d = 0; d < y->ndeps && !in; d++) in = y->deps[d]->idx == a[i];
    if (!in) return false;
  }
  return true;
}
/* hipGraphExecUpdate: the executable graph takes the parameters of g's nodes, g being the graph it
 * was made from or one of the same shape: as many nodes, added in the same order with the same kinds
 * and the same edges (between the nodes at the same places), the same kernel in each kernel node.
 * Child-graph and memory-allocation nodes are not updated (hipGraphExecUpdateErrorNotSupported). */
hipError_t hipGraphExecUpdate(hipGraphExec_t x, hipGraph_t g, hipGraphNode_t *errNode, hipGraphExecUpdateResult *result) {
  HIP_BEGIN();
  if (!exec_valid(x) || !graph_valid(g) || !result)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "not an executable graph, not a graph, or updateResult_out NULL"));
  if (errNode) *errNode = NULL;
  hipGraphExecUpdateResult r = hipGraphExecUpdateSuccess;
  struct hipGraphNode *bad = NULL;
  for (size_t i = 0; i < g->n; i++) g->nodes[i]->idx = i;
  if (g->n != x->n) r = hipGraphExecUpdateErrorTopologyChanged;
  for (size_t i = 0; i < x->n && r == hipGraphExecUpdateSuccess; i++) {
    struct hipGraphNode *n = &x->nodes[i], *y = n->idx < g->n ? g->nodes[n->idx] : NULL;
    if (n->in_child || n->kind == HG_ALLOC || n->kind == HG_FREE || (y && (y->kind == HG_CHILD || y->kind == HG_ALLOC)))
      r = hipGraphExecUpdateErrorNotSupported, bad = y;
    else if (!y || y->kind != n->kind) r = hipGraphExecUpdateErrorNodeTypeChanged, bad = y;
    else if (!same_places(n->depidx, n->ndepidx, y)) r = hipGraphExecUpdateErrorTopologyChanged, bad = y;
    /* ROCm (ROCm/clr f9f995c hipGraphExecUpdate): a kernel node may take another kernel (of the one
     * device), a copy node not another kind */
    else if (n->kind == HG_COPY && y->copy_kind != n->copy_kind) r = hipGraphExecUpdateErrorParametersChanged, bad = y;
  }
  *result = r;
  if (r != hipGraphExecUpdateSuccess) {
    if (errNode) *errNode = bad;
    return hip_done(hip_complain(__func__, hipErrorGraphExecUpdateFailure, "graph %p is not of the executable graph's shape "
                                 "(hipGraphExecUpdateResult %d)", (void *)g, (int)r));
  }
  for (size_t i = 0; i < x->n; i++) {
    struct hipGraphNode *n = &x->nodes[i], *y = g->nodes[n->idx], *c = node_copy(y);
    free(n->raw);
    c->idx = n->idx, c->depidx = n->depidx, c->ndepidx = n->ndepidx, c->disabled = n->disabled, c->in_child = false;
    *n = *c;
    free(c);
  }
  return hip_done(hipSuccess);
}

/* hipGraphInstantiate with HIP's parameter block: the upload flag (hipGraphUpload on the stream) and
 * no other; the result in result_out */
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pExec, hipGraph_t g, hipGraphInstantiateParams *p) {
  HIP_BEGIN();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "instantiateParams is NULL"));
  p->errNode_out = NULL;
  if (p->flags & ~(unsigned long long)(hipGraphInstantiateFlagUpload | hipGraphInstantiateFlagAutoFreeOnLaunch)) {
    p->result_out = hipGraphInstantiateError;
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "flags 0x%llx: only hipGraphInstantiateFlagUpload and "
                                 "hipGraphInstantiateFlagAutoFreeOnLaunch are provided", p->flags));
  }
  if ((p->flags & hipGraphInstantiateFlagUpload) && !hip_stream_valid(p->uploadStream)) {
    p->result_out = hipGraphInstantiateError;
    return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "uploadStream %p is not a stream", (void *)p->uploadStream));
  }
  hipError_t e = instantiate(pExec, g, p->flags, __func__);
  p->result_out = e == hipSuccess ? hipGraphInstantiateSuccess : hipGraphInstantiateInvalidStructure;
  return hip_done(e);
}

/* The nodes in order on the stream, each as its stream operation would run; the first error ends
 * the launch and is returned (a kernel's fault is reported as a launch's is: at the next
 * synchronizing call). */
hipError_t hipGraphLaunch(hipGraphExec_t x, hipStream_t s) {
  HIP_BEGIN();
  if (!exec_valid(x)) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not an executable graph", (void *)x));
  if (!hip_stream_valid(s)) return hip_done(hip_complain(__func__, hipErrorInvalidHandle, "%p is not a stream", (void *)s));
  hipError_t e = hip_capture_refuse(s, __func__); /* a graph launched into a capture (a child graph) */
  /* hipGraphInstantiateFlagAutoFreeOnLaunch: what the last run allocated and nothing freed is freed
   * first (ROCm's GraphExec launch), and allocated again by its node */
  for (size_t i = 0; x->auto_free && e == hipSuccess && i < x->n; i++)
    if (x->nodes[i].kind == HG_ALLOC) gmem_run_free(gmem_of(x->nodes[i].dst));
  for (size_t i = 0; i < x->n && e == hipSuccess; i++) {
    struct hipGraphNode *n = &x->nodes[i];
    if (hip_g.pending != hipSuccess) break; /* the queue faulted: nothing more runs */
    if (n->disabled) continue;               /* hipGraphNodeSetEnabled: an empty node until enabled */
    switch (n->kind) {
    case HG_KERNEL: e = hip_launch(__func__, n->f, n->grid, n->block, n->shmem, s, NULL, n->raw, n->nraw, n->coop); break;
    case HG_COPY:
      e = n->is3d ? hip_copy_3d(&n->p3, __func__) : hip_copy(n->dst, n->src, n->n, n->any_kind ? hipMemcpyDefault : n->copy_kind, __func__);
      break;
    case HG_SET:
      for (size_t z = 0; z < (n->depth ? n->depth : 1); z++) /* depth 0: one slice (memset_params, hip_capture_set) */
        for (size_t r = 0; r < n->height && e == hipSuccess; r++) /* height >= 1 */
          e = hip_set((uint8_t *)n->dst + z * n->slice + r * n->pitch, n->pattern, n->esize, n->n, __func__);
      break;
    case HG_HOST: n->fn(n->user); break;
    case HG_EVENT:
    case HG_WAIT:
      if (!hip_event_valid(n->event))
        e = hip_complain(__func__, hipErrorInvalidHandle, "node %zu names event %p, destroyed since", i, (void *)n->event);
      else if (n->kind == HG_EVENT) hip_event_mark(n->event);
      break;
    case HG_ALLOC: /* fresh memory at each launch */
      gmem_run_alloc(gmem_of(n->dst));
      hip_mark_unwritten((uint64_t)(uintptr_t)n->dst, n->n);
      break;
    case HG_FREE: gmem_run_free(gmem_of(n->dst)); break; /* the address stays the graph's for its next launch */
    case HG_CHILD: /* inlined by instantiate */
    case HG_EMPTY: break;
    }
  }
  return hip_done(e);
}

/* ---- graph memory nodes (ROCm/clr hip_graph.cpp, f9f995c: each check read there) ----------------*/
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                                   hipMemAllocNodeParams *p) {
  HIP_BEGIN();
  if (!pNode || !g || (ndeps && !deps) || !p)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphNode, graph or pNodeParams is NULL, or the dependencies are"));
  if (!p->bytesize || p->poolProps.allocType != hipMemAllocationTypePinned || p->poolProps.location.type != hipMemLocationTypeDevice ||
      p->poolProps.location.id != 0) {
    p->dptr = NULL;
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "bytesize %zu, allocType %d, location (type %d, id %d): "
                                 "pinned memory of at least a byte on device 0", p->bytesize, (int)p->poolProps.allocType,
                                 (int)p->poolProps.location.type, p->poolProps.location.id));
  }
  struct hipGraphNode tmp = {0};
  hipError_t e = graph_valid(g) ? deps_ok(g, deps, ndeps, __func__)
                                : hip_complain(__func__, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  void *ptr = NULL;
  if (e == hipSuccess) e = hip_dev_alloc(&ptr, p->bytesize, __func__);
  if (e != hipSuccess) return hip_done(e);
  tmp.dst = ptr, tmp.n = p->bytesize, tmp.ap = *p, tmp.ap.dptr = ptr;
  p->dptr = ptr;
  gmem_new(ptr, p->bytesize);
  return hip_done(add_node(pNode, g, deps, ndeps, HG_ALLOC, &tmp, hipSuccess, __func__));
}

/* a free node for memory an allocation node made that no free node names yet (ROCm) */
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pNode, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps, void *dev_ptr) {
  HIP_BEGIN();
  if (!pNode || !g || (ndeps && !deps) || (deps && !ndeps) || !dev_ptr)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pGraphNode, graph or dev_ptr is NULL, or the dependencies and their count disagree"));
  graph_mem *m = gmem_of(dev_ptr);
  if (!m || m->free_node)
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "%p is not memory of an allocation node that no free node names yet", dev_ptr));
  struct hipGraphNode tmp = {0};
  tmp.dst = dev_ptr;
  hipError_t e = graph_valid(g) ? hipSuccess : hip_complain(__func__, hipErrorInvalidValue, "%p is not a graph", (void *)g);
  e = add_node(pNode, g, deps, ndeps, HG_FREE, &tmp, e, __func__);
  if (e == hipSuccess) m->free_node = true;
  return hip_done(e);
}

hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams *p) {
  HIP_BEGIN();
  if (!p) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "pNodeParams is NULL"));
  struct hipGraphNode *n = graph_node(node, HG_ALLOC, __func__);
  if (!n) return hip_done(hipErrorInvalidValue);
  *p = n->ap;
  return hip_done(hipSuccess);
}

hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr) {
  HIP_BEGIN();
  if (!dev_ptr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "dev_ptr is NULL"));
  struct hipGraphNode *n = graph_node(node, HG_FREE, __func__);
  if (!n) return hip_done(hipErrorInvalidValue);
  *(void **)dev_ptr = n->dst;
  return hip_done(hipSuccess);
}

static hipError_t graph_mem_device(int device, const void *value, const char *fn) {
  hipError_t e = hip_device_arg(fn, device, hipErrorInvalidDevice);
  if (e != hipSuccess) return e;
  if (!value) return hip_complain(fn, hipErrorInvalidValue, "value is NULL");
  return hipSuccess;
}

hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value) {
  HIP_BEGIN();
  hipError_t e = graph_mem_device(device, value, __func__);
  if (e != hipSuccess) return hip_done(e);
  uint64_t v;
  switch (attr) {
  case hipGraphMemAttrUsedMemCurrent: v = gm_used; break;
  case hipGraphMemAttrUsedMemHigh: v = gm_used_high; break;
  case hipGraphMemAttrReservedMemCurrent: v = gm_used + gm_idle; break;
  case hipGraphMemAttrReservedMemHigh: v = gm_reserved_high; break;
  default: return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d is not a graph memory attribute", (int)attr));
  }
  memcpy(value, &v, sizeof v);
  return hip_done(hipSuccess);
}

/* the high-water marks, reset to 0 only (ROCm: the pool's attributes of those names) */
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value) {
  HIP_BEGIN();
  hipError_t e = graph_mem_device(device, value, __func__);
  if (e != hipSuccess) return hip_done(e);
  if (attr != hipGraphMemAttrUsedMemHigh && attr != hipGraphMemAttrReservedMemHigh) /* before value is read */
    return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d: only the high-water marks are set", (int)attr));
  uint64_t v;
  memcpy(&v, value, sizeof v);
  if (v) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "attribute %d to %llu: only to 0", (int)attr, (unsigned long long)v));
  if (attr == hipGraphMemAttrUsedMemHigh) gm_used_high = 0;
  else gm_reserved_high = 0;
  return hip_done(hipSuccess);
}

hipError_t hipDeviceGraphMemTrim(int device) {
  HIP_BEGIN();
  hipError_t e = hip_device_arg(__func__, device, hipErrorInvalidDevice);
  if (e == hipSuccess) hip_graph_mem_trim();
  return hip_done(e);
}

/* hipDeviceReset: every graph, executable graph and capture goes with the device's other resources
 * (their kernels may be modules' that the reset unloads); their handles are no longer valid */
void hip_graph_reset(void) {
  while (ncaps) hip_capture_drop(caps[0].root->origin); /* their graphs too */
  while (ngraphs) graph_free(graphs[0]);
  while (nexecs) exec_release(execs[--nexecs]);
  free(gmems); /* what is left is allocated memory, which hip_memory_reset frees with the rest */
  gmems = NULL, ngmems = 0, gm_used = gm_used_high = gm_idle = gm_reserved_high = 0;
}
