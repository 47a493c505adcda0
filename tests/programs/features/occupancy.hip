// hipOccupancyMaxActiveBlocksPerMultiprocessor and hipOccupancyMaxPotentialBlockSize on kernels
// of different register use, printed as "occupancy KERNEL BLOCK BLOCKS_PER_CU" lines;
// tests/test_hip_programs.c compares them with what LLVM reports for the same code (its
// kernel-resource-usage remark: waves per SIMD) under the hardware's allocation rules.
#include "../common.h"
#include <initializer_list>

__global__ void light(float *p) { p[threadIdx.x] *= 2.0f; }

// Many values live at once: a high VGPR count, so fewer waves fit on a SIMD.
__global__ void __launch_bounds__(256) heavy(const float4 *in, float4 *out, int n) {
  float4 v[24];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 24; k++) v[k] = in[(i + k * 977) % n];
  float4 acc = make_float4(0, 0, 0, 0);
#pragma unroll
  for (int k = 0; k < 24; k++)
#pragma unroll
    for (int j = 0; j < 24; j++) acc += v[k] * v[j].x;
  out[i % n] = acc;
}

static void report(const char *name, const void *k, int block) {
  int n = -1;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, block, 0));
  std::printf("occupancy %s %d %d\n", name, block, n);
}

int main() {
  for (int b : {64, 128, 256, 512, 1024}) report("light", (const void *)light, b);
  for (int b : {64, 128, 256}) report("heavy", (const void *)heavy, b);
  int n = -1;
  EXPECT(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)heavy, 512, 0) == hipSuccess && n == 0,
         "a block above __launch_bounds__ fits 0 times (%d)", n);
  int grid = 0, block = 0;
  HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, heavy, 0, 0));
  std::printf("potential heavy %d %d\n", grid, block);
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  EXPECT(block > 0 && block <= 256 && block % 64 == 0 && grid % p.multiProcessorCount == 0, "potential block %d grid %d", block, grid);
  hipFuncAttributes a;
  HIP_CHECK(hipFuncGetAttributes(&a, (const void *)heavy));
  std::printf("regs heavy %d\n", a.numRegs);
  return 0;
}
