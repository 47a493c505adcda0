// gemm_mfma32: C = A * B as gemm_mfma16 but with v_mfma_f32_32x32x8f16 on 32x32 tiles, K in
// steps of 8. Layout (`lanelab mfma v_mfma_f32_32x32x8_f16`): lane l holds A[l%32][4(l/32)+i],
// B[4(l/32)+i][l%32], and C[8(j/4) + 4(l/32) + j%4][l%32] in accumulator j = 0..15.
#include <hip/hip_runtime.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));

__global__ void gemm_mfma32(const __half *A, const __half *B, float *C, int M, int N, int K) {
  const int lane = threadIdx.x;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  floatx16 acc = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
    half4 a, b;
    for (int i = 0; i < 4; i++) {
      a[i] = A[(row0 + lane % 32) * K + k0 + 4 * (lane / 32) + i];
      b[i] = B[(k0 + 4 * (lane / 32) + i) * N + col0 + lane % 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
  for (int j = 0; j < 16; j++)
    C[(row0 + 8 * (j / 4) + 4 * (lane / 32) + j % 4) * N + col0 + lane % 32] = acc[j];
}
