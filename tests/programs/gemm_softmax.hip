// A two-kernel pipeline: C = A x B (16x16 shared-memory tiles), then a row softmax of C (one
// wave per row: max and sum by shuffles), checked against a double-precision reference on the
// host with a relative tolerance.
#include "common.h"
#include <cmath>
#include <vector>

constexpr int TILE = 16;

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float a[TILE][TILE], b[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    a[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.0f;
    b[threadIdx.y][threadIdx.x] = col < N && k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

__global__ void row_softmax(const float *C, float *P, int N) {
  const float *x = C + blockIdx.x * N;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < N; j += 64) m = fmaxf(m, x[j]);
  for (int off = 32; off > 0; off /= 2) m = fmaxf(m, __shfl_xor(m, off));
  float s = 0.0f;
  for (int j = threadIdx.x; j < N; j += 64) s += expf(x[j] - m);
  for (int off = 32; off > 0; off /= 2) s += __shfl_xor(s, off);
  for (int j = threadIdx.x; j < N; j += 64) P[blockIdx.x * N + j] = expf(x[j] - m) / s;
}

int main() {
  const int M = 40, N = 72, K = 50;
  std::vector<float> A(M * K), B(K * N), P(M * N);
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 13 - 6) / 8.0f;
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 11 - 5) / 16.0f;
  float *dA, *dB, *dC, *dP;
  HIP_CHECK(hipMalloc(&dA, A.size() * 4));
  HIP_CHECK(hipMalloc(&dB, B.size() * 4));
  HIP_CHECK(hipMalloc(&dC, (size_t)M * N * 4));
  HIP_CHECK(hipMalloc(&dP, (size_t)M * N * 4));
  HIP_CHECK(hipMemcpy(dA, A.data(), A.size() * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dB, B.data(), B.size() * 4, hipMemcpyHostToDevice));
  gemm<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(dA, dB, dC, M, N, K);
  HIP_CHECK(hipGetLastError());
  row_softmax<<<M, 64>>>(dC, dP, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(P.data(), dP, P.size() * 4, hipMemcpyDeviceToHost));
  double worst = 0;
  for (int i = 0; i < M; i++) {
    std::vector<double> c(N);
    double m = -1e300, s = 0;
    for (int j = 0; j < N; j++) {
      double acc = 0;
      for (int k = 0; k < K; k++) acc += (double)A[i * K + k] * B[k * N + j];
      c[j] = acc, m = std::fmax(m, acc);
    }
    for (int j = 0; j < N; j++) s += std::exp(c[j] - m);
    for (int j = 0; j < N; j++) {
      double want = std::exp(c[j] - m) / s, err = std::fabs(P[i * N + j] - want) / want;
      worst = std::fmax(worst, err);
      EXPECT(err < 1e-5, "P[%d][%d] = %.9g, want %.9g", i, j, P[i * N + j], want);
    }
  }
  HIP_CHECK(hipFree(dA));
  HIP_CHECK(hipFree(dB));
  HIP_CHECK(hipFree(dC));
  HIP_CHECK(hipFree(dP));
  std::printf("gemm_softmax: %dx%d ok (worst relative error %.2e)\n", M, N, worst);
  return 0;
}
