// transpose_nosync: the textbook shared-memory tile transpose that forgot its __syncthreads().
// Each 32x8 block stages a 32x32 tile of in (rows x cols, row-major) in LDS, then writes it out
// transposed (out is cols x rows). Thread (x, y) writes tile rows y, y+8, y+16, y+24, then reads
// tile row x, which the threads with threadIdx.y == x % 8 wrote: wave (x % 8) / 2 (a wave is two
// rows of 32 threads), another wave for most x. Without the barrier that read races with the
// other wave's write (RAW).
// Built with -DFIXED=1 the barrier is there. tests/test_observe_hip.c runs both under every
// schedule with `lanelab run --racecheck`.
#include <hip/hip_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(256) transpose_nosync(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
#if FIXED
  __syncthreads();
#endif
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
