// A program that picks its tile from the device: the largest power-of-two square tile of floats
// whose two copies (in and out staging) fit in hipDeviceProp_t::sharedMemPerBlock with room for
// one more block per CU (hipOccupancyMaxActiveBlocksPerMultiprocessor confirms >= 2), then a
// tiled transpose through that much dynamic shared memory. 64 KiB (gfx942) and 160 KiB (gfx950)
// give different tiles; the result is the same.
#include "../common.h"
#include <cstring>
#include <vector>

__global__ void transpose_tiles(const float *in, float *out, int n, int tile) {
  extern __shared__ float s[];
  int tx = blockIdx.x * tile, ty = blockIdx.y * tile;
  for (int k = threadIdx.x; k < tile * tile; k += blockDim.x) {
    int r = k / tile, c = k % tile;
    s[c * tile + r] = in[(ty + r) * n + tx + c];
  }
  __syncthreads();
  for (int k = threadIdx.x; k < tile * tile; k += blockDim.x) {
    int r = k / tile, c = k % tile;
    out[(tx + r) * n + ty + c] = s[r * tile + c];
  }
}

int main() {
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  EXPECT(p.warpSize == 64, "warpSize %d", p.warpSize);
  int attr = 0;
  HIP_CHECK(hipDeviceGetAttribute(&attr, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  EXPECT((size_t)attr == p.sharedMemPerBlock, "the attribute agrees with the property");
  HIP_CHECK(hipDeviceGetAttribute(&attr, hipDeviceAttributeMultiprocessorCount, 0));
  EXPECT(attr == p.multiProcessorCount, "CUs %d", attr);
  int tile = 1;
  while ((size_t)(2 * tile) * (2 * tile) * sizeof(float) * 2 <= p.sharedMemPerBlock) tile *= 2;
  size_t shmem = (size_t)tile * tile * sizeof(float);
  int blocks_per_cu = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_cu, transpose_tiles, 256, shmem));
  EXPECT(blocks_per_cu >= 2, "%d blocks of %zu bytes per CU", blocks_per_cu, shmem);
  const int n = 2 * tile;
  std::vector<float> h((size_t)n * n), r((size_t)n * n);
  for (int i = 0; i < n * n; i++) h[i] = (float)i;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, h.size() * 4));
  HIP_CHECK(hipMalloc(&dout, h.size() * 4));
  HIP_CHECK(hipMemcpy(din, h.data(), h.size() * 4, hipMemcpyHostToDevice));
  transpose_tiles<<<dim3(n / tile, n / tile), 256, shmem>>>(din, dout, n, tile);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(r.data(), dout, r.size() * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) EXPECT(r[j * n + i] == h[i * n + j], "out[%d][%d]", j, i);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  std::printf("device_props_tile: %s, %zu bytes of shared memory per block: tile %d, %d blocks per CU\n",
              p.gcnArchName, p.sharedMemPerBlock, tile, blocks_per_cu);
  return 0;
}
