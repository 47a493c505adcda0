// A cooperative launch (hipLaunchCooperativeKernel) whose kernel synchronizes the whole grid with
// cooperative_groups' grid_group::sync(): a stencil over all blocks' elements, each step reading
// neighbours that other blocks wrote in the step before, then a sum every block reads from all the
// others' partial sums. Checked against the same arithmetic on the host (wrapping 32-bit integers,
// so exact). Also: hipDeviceAttributeCooperativeLaunch is 1; a grid larger than the device holds at
// once is hipErrorCooperativeLaunchTooLarge; grid.is_valid() is false in a plain launch.
// `grid_sync plain` launches the syncing kernel with <<<>>>: grid.sync() has no barrier there and
// traps (the program's next call returns the launch's error). `grid_sync deadlock` lets one block
// return before the barrier the others wait at: lanelab stops the launch (a deadlock, reported
// after LANELAB_COOP_DEADLOCK_S seconds). `grid_sync racy` reads other blocks' elements with no
// grid.sync() after their writes: `lanelab exec --racecheck=global` finds it.
#include "../common.h"
#include <hip/hip_cooperative_groups.h>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

__global__ void gs_stencil(unsigned *a, unsigned *b, unsigned *partial, unsigned *total, int steps, int *valid) {
  cg::grid_group g = cg::this_grid();
  const unsigned n = g.size(), i = g.thread_rank();
  if (i == 0) *valid = g.is_valid();
  for (int s = 0; s < steps; s++) {
    const unsigned *src = (s & 1) ? b : a;
    unsigned *dst = (s & 1) ? a : b;
    dst[i] = src[(i + n - 1) % n] + 3u * src[i] + src[(i + 1) % n] + (unsigned)s;
    g.sync(); // GS_STEP
  }
  const unsigned *last = (steps & 1) ? b : a;
  __shared__ unsigned part[256];
  part[threadIdx.x] = last[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned t = 0; t < blockDim.x; t++) sum += part[t];
    partial[blockIdx.x] = sum;
  }
  g.sync();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned k = 0; k < gridDim.x; k++) sum += partial[k];
    total[blockIdx.x] = sum;
  }
}

__global__ void gs_valid(int *valid) { *valid = cg::this_grid().is_valid(); }

// block 1 leaves before the barrier every other block waits at
__global__ void gs_deadlock(unsigned *p) {
  if (blockIdx.x == 1) return;
  p[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  cg::this_grid().sync(); // GS_DEADLOCK
}

// each block reads its right neighbour's first element, which that block writes without a barrier
__global__ void gs_racy(unsigned *a, unsigned *b) {
  cg::grid_group g = cg::this_grid();
  const unsigned i = g.thread_rank();
  a[i] = i;
  if (threadIdx.x == 0) b[blockIdx.x] = a[((blockIdx.x + 1) % gridDim.x) * blockDim.x]; // GS_RACY
  g.sync();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  const int blocks = 24, threads = 128, n = blocks * threads, steps = 12;
  unsigned *a, *b, *partial, *total;
  int *valid;
  HIP_CHECK(hipMalloc(&a, n * sizeof *a));
  HIP_CHECK(hipMalloc(&b, n * sizeof *b));
  HIP_CHECK(hipMalloc(&partial, blocks * sizeof *partial));
  HIP_CHECK(hipMalloc(&total, blocks * sizeof *total));
  HIP_CHECK(hipMalloc(&valid, sizeof *valid));
  if (!std::strcmp(mode, "plain")) {
    gs_stencil<<<blocks, threads>>>(a, b, partial, total, steps, valid);
    std::printf("grid_sync: a plain launch: %s\n", hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(mode, "racy")) {
    void *args[] = {&a, &b};
    HIP_CHECK(hipLaunchCooperativeKernel(gs_racy, dim3(4), dim3(64), args, 0, 0));
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("grid_sync: racy ran\n");
    return 0;
  }
  if (!std::strcmp(mode, "deadlock")) {
    void *args[] = {&a};
    hipError_t e = hipLaunchCooperativeKernel(gs_deadlock, dim3(4), dim3(64), args, 0, 0);
    std::printf("grid_sync: the launch %s, then %s\n", hipGetErrorName(e), hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  int coop = 0;
  HIP_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  EXPECT(coop == 1, "hipDeviceAttributeCooperativeLaunch %d", coop);

  std::vector<unsigned> h(n);
  for (int i = 0; i < n; i++) h[i] = (unsigned)i * 2654435761u;
  HIP_CHECK(hipMemcpy(a, h.data(), n * sizeof *a, hipMemcpyHostToDevice));
  int steps_arg = steps;
  void *args[] = {&a, &b, &partial, &total, &steps_arg, &valid};
  HIP_CHECK(hipLaunchCooperativeKernel(gs_stencil, dim3(blocks), dim3(threads), args, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());

  // the host's arithmetic, step by step
  std::vector<unsigned> x = h, y(n);
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) y[i] = x[(i + n - 1) % n] + 3u * x[i] + x[(i + 1) % n] + (unsigned)s;
    x.swap(y);
  }
  unsigned want = 0;
  for (int i = 0; i < n; i++) want += x[i];
  std::vector<unsigned> got(n), tot(blocks);
  HIP_CHECK(hipMemcpy(got.data(), (steps & 1) ? b : a, n * sizeof *a, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(tot.data(), total, blocks * sizeof *total, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(got[i] == x[i], "element %d after %d steps: %u, want %u", i, steps, got[i], x[i]);
  for (int k = 0; k < blocks; k++) EXPECT(tot[k] == want, "block %d's total %u, want %u", k, tot[k], want);
  int v = -1;
  HIP_CHECK(hipMemcpy(&v, valid, sizeof v, hipMemcpyDeviceToHost));
  EXPECT(v == 1, "grid.is_valid() in a cooperative launch: %d", v);

  // too many blocks to be resident at once
  int per_cu = 0, cus = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, gs_stencil, threads, 0));
  HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
  hipError_t e = hipLaunchCooperativeKernel(gs_stencil, dim3(per_cu * cus + 1), dim3(threads), args, 0, 0);
  EXPECT(e == hipErrorCooperativeLaunchTooLarge, "%d x %d + 1 blocks: %s", per_cu, cus, hipGetErrorName(e));
  EXPECT(hipGetLastError() == hipErrorCooperativeLaunchTooLarge, "hipGetLastError after the refused launch");

  gs_valid<<<1, 1>>>(valid);
  HIP_CHECK(hipMemcpy(&v, valid, sizeof v, hipMemcpyDeviceToHost));
  EXPECT(v == 0, "grid.is_valid() in a plain launch: %d", v);
  std::printf("grid_sync: %d blocks, %d grid-wide barriers, %d elements and every block's total ok\n", blocks,
              steps + 1, n);
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(partial));
  HIP_CHECK(hipFree(total));
  HIP_CHECK(hipFree(valid));
  return 0;
}
