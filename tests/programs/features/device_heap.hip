// Device malloc and free (docs/hip-runtime.md "Device malloc and free"): ROCm's device library
// (ockl) keeps the heap and asks the host for memory by hostcall, which the emulator's runtime
// serves. `device_heap` checks, each against a value worked from the program's own rules:
// - hipLimitMallocHeapSize: ROCm's 8 MiB before any set; 300 MiB after hipDeviceSetLimit; ROCm's
//   errors for a limit past hipLimitRange (invalid value) and a negative one (unsupported limit);
// - large blocks (more than ockl's 3072-byte classes, each a host request): one lane takes 40 MiB
//   blocks until malloc returns NULL; the heap holds max(limit, 256 MiB) rounded up to 2 MiB =
//   300 MiB, so 7 blocks fit, and every block is written and read back (a word each MiB and its
//   last) before being freed;
// - per-thread linked lists built with new and taken apart with delete in 4 workgroups (small
//   blocks from ockl's slabs): the sums t*n + n(n-1)/2;
// - a block allocated in one launch, kept in a __device__ pointer, read and freed by the next;
// - free(nullptr) does nothing.
// `device_heap badfree` frees an address no malloc returned (a hipMalloc buffer): the launch
// faults at the free (lanelab's heap marker) naming it, and the program sees
// hipErrorLaunchFailure; `badfree_ockl` the same through ockl's own free, which the host's devmem
// service refuses (hostcall); `leak` leaves 4 blocks for --leakcheck; `double` frees a block twice; `uninit` reads a word of a
// new block that nothing wrote; `uaf` reads blocks after their free and writes past a block's end
// (--heapcheck).
#include "../common.h"
#include <cstring>

struct HeapNode { int v; HeapNode *next; };
__device__ int *heap_kept;

__global__ void heap_large(int *count, int *bad, size_t bytes) {
  if (threadIdx.x != 0) return;
  int *blk[16];
  int n = 0;
  while (n < 16 && (blk[n] = (int *)malloc(bytes)) != nullptr) n++;
  size_t words = bytes / sizeof(int);
  for (int b = 0; b < n; b++) {
    for (size_t i = 0; i < words; i += 262147) blk[b][i] = b * 7 + (int)i;
    blk[b][words - 1] = -b;
  }
  int wrong = 0;
  for (int b = 0; b < n; b++) {
    for (size_t i = 0; i < words; i += 262147) wrong += blk[b][i] != b * 7 + (int)i;
    wrong += blk[b][words - 1] != -b;
    free(blk[b]);
  }
  *count = n, *bad = wrong;
}

__global__ void heap_lists(long long *out, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  HeapNode *head = nullptr;
  for (int i = 0; i < n; i++) {
    HeapNode *x = new HeapNode;
    if (!x) { out[t] = -1; return; }
    x->v = t + i, x->next = head, head = x;
  }
  long long s = 0;
  while (head) {
    s += head->v;
    HeapNode *nx = head->next;
    delete head;
    head = nx;
  }
  free(nullptr);
  out[t] = s;
}

__global__ void heap_keep(int n) {
  heap_kept = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) heap_kept[i] = i * i;
}
__global__ void heap_use(long long *out, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) s += heap_kept[i];
  free(heap_kept);
  *out = s;
}

__global__ void heap_badfree(int *p) {
  if (threadIdx.x == 0) free(p); // HEAP_BADFREE
}
/* the same free straight to ockl, past lanelab's heap marker (as code built by ROCm's hipcc has
 * none): ockl takes the address for a large block and asks the host, whose devmem service refuses */
__global__ void heap_badfree_ockl(int *p) {
  if (threadIdx.x == 0) __ockl_dm_dealloc((unsigned long long)p); // HEAP_BADFREE_OCKL
}
/* lanes 0-7 each take (t + 1) * 8 bytes; the odd ones free theirs: 4 blocks left, 8 + 24 + 40 + 56
 * = 128 bytes */
__global__ void heap_leak(int **keep) {
  int t = threadIdx.x;
  if (t >= 8) return;
  int *p = (int *)malloc((t + 1) * 8); // HEAP_LEAK
  p[0] = t;
  keep[t] = p;
  if (t & 1) free(p);
}
/* each lane reads the second word of its new block, which nothing wrote (initcheck) */
__global__ void heap_uninit(int *out) {
  int *p = (int *)malloc(16 * sizeof(int));
  p[0] = (int)threadIdx.x;
  out[threadIdx.x] = p[0] + p[1]; // HEAP_UNINIT
  free(p);
}
/* heapcheck: lanes 0-3 each read their 16-byte block after freeing it; lane 8 writes the word past
 * the 12 bytes its malloc asked for (inside ockl's 16-byte block) */
__global__ void heap_uaf(int *out) {
  const int t = threadIdx.x;
  if (t < 4) {
    int *p = (int *)malloc(16); // HEAP_UAF_MALLOC
    p[0] = t;
    free(p); // HEAP_UAF_FREE
    out[t] = p[0]; // HEAP_UAF_READ
  } else if (t == 8) {
    int *p = (int *)malloc(12);
    p[0] = p[1] = p[2] = t;
    ((volatile int *)p)[3] = t; // HEAP_PAST_END (volatile: a store of its own, not merged with the three)
    out[t] = p[0] + p[1] + p[2];
    free(p);
  }
}
/* lane 5 frees its block twice */
__global__ void heap_double(void) {
  char *p = (char *)malloc(48); // HEAP_DOUBLE_MALLOC
  p[0] = 1;
  free(p); // HEAP_FREE1
  if (threadIdx.x == 5) free(p); // HEAP_FREE2
}

int main(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "badfree") || !strcmp(argv[1], "badfree_ockl"))) {
    int *d;
    HIP_CHECK(hipMalloc(&d, 1 << 16));
    if (!strcmp(argv[1], "badfree")) heap_badfree<<<1, 64>>>(d);
    else heap_badfree_ockl<<<1, 64>>>(d);
    hipError_t e = hipDeviceSynchronize();
    printf("device_heap: bad free: %s\n", hipGetErrorName(e));
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "leak")) {
    int **k;
    HIP_CHECK(hipMalloc(&k, 8 * sizeof(int *)));
    heap_leak<<<1, 64>>>(k);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(k));
    printf("device_heap: leak ran\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "uninit")) {
    int *o;
    HIP_CHECK(hipMalloc(&o, 64 * sizeof(int)));
    heap_uninit<<<1, 64>>>(o);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(o));
    printf("device_heap: uninit ran\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "uaf")) {
    int *o;
    HIP_CHECK(hipMalloc(&o, 64 * sizeof(int)));
    heap_uaf<<<1, 64>>>(o);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(o));
    printf("device_heap: uaf ran\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "double")) {
    heap_double<<<1, 64>>>();
    printf("device_heap: double free: %s\n", hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  size_t lim = 0;
  HIP_CHECK(hipDeviceGetLimit(&lim, hipLimitMallocHeapSize));
  EXPECT(lim == (size_t)8 << 20, "default heap limit %zu", lim);
  HIP_CHECK(hipDeviceSetLimit(hipLimitMallocHeapSize, (size_t)300 << 20));
  HIP_CHECK(hipDeviceGetLimit(&lim, hipLimitMallocHeapSize));
  EXPECT(lim == (size_t)300 << 20, "heap limit after set %zu", lim);
  /* ROCm's answers for a limit that is none of the three: past hipLimitRange, and negative */
  EXPECT(hipDeviceSetLimit(static_cast<hipLimit_t>(0xffff), 1) == hipErrorInvalidValue, "limit 0xffff");
  EXPECT(hipDeviceGetLimit(&lim, static_cast<hipLimit_t>(-1)) == hipErrorUnsupportedLimit, "limit -1");

  int *dc, hc[2];
  HIP_CHECK(hipMalloc(&dc, 2 * sizeof(int)));
  heap_large<<<1, 64>>>(dc, dc + 1, (size_t)40 << 20);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hc, dc, sizeof hc, hipMemcpyDeviceToHost));
  EXPECT(hc[0] == 7 && hc[1] == 0, "40 MiB blocks: %d fit (want 7), %d words wrong", hc[0], hc[1]);
  /* the seven were freed: they fit again */
  heap_large<<<1, 64>>>(dc, dc + 1, (size_t)40 << 20);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hc, dc, sizeof hc, hipMemcpyDeviceToHost));
  EXPECT(hc[0] == 7 && hc[1] == 0, "40 MiB blocks again: %d fit (want 7), %d words wrong", hc[0], hc[1]);

  const int n = 12, threads = 4 * 64;
  long long *dl, hl[threads];
  HIP_CHECK(hipMalloc(&dl, sizeof hl));
  heap_lists<<<4, 64>>>(dl, n);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hl, dl, sizeof hl, hipMemcpyDeviceToHost));
  for (int t = 0; t < threads; t++)
    EXPECT(hl[t] == (long long)t * n + n * (n - 1) / 2, "thread %d: list sum %lld, want %lld", t, hl[t],
           (long long)t * n + n * (n - 1) / 2);

  heap_keep<<<1, 1>>>(1000);
  heap_use<<<1, 1>>>(dl, 1000);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hl, dl, sizeof(long long), hipMemcpyDeviceToHost));
  EXPECT(hl[0] == 332833500LL, "kept block: sum of squares %lld, want 332833500", hl[0]);
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipFree(dl));
  printf("device_heap: ok\n");
  return 0;
}
