// gemm_mfma16: C = A * B for f16 A (M x K, row-major) and B (K x N, row-major), f32 C, with
// v_mfma_f32_16x16x16f16: one wave64 per 16x16 tile of C, K in steps of 16. Operand layout
// (`lanelab mfma v_mfma_f32_16x16x16_f16`): lane l holds A[l%16][4(l/16)+i], B[4(l/16)+i][l%16]
// and C[4(l/16)+i][l%16], i = 0..3.
#include <hip/hip_runtime.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float floatx4 __attribute__((ext_vector_type(4)));

__global__ void gemm_mfma16(const __half *A, const __half *B, float *C, int M, int N, int K) {
  const int lane = threadIdx.x;
  const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
  floatx4 acc = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    half4 a, b;
    for (int i = 0; i < 4; i++) {
      a[i] = A[(row0 + lane % 16) * K + k0 + 4 * (lane / 16) + i];
      b[i] = B[(k0 + 4 * (lane / 16) + i) * N + col0 + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int i = 0; i < 4; i++) C[(row0 + 4 * (lane / 16) + i) * N + col0 + lane % 16] = acc[i];
}
