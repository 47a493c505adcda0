// vllm_style: kernels in the style of vLLM's csrc (activation_kernels.cu, layernorm_kernels.cu),
// written here: a templated silu-and-mul instantiated for float and __half that reads through
// __ldg, a fused residual-add RMS norm in __half with a shared-memory cross-wave reduction, and a
// kernel of scoped and wrapping atomics (atomicInc/atomicDec, *_block, *_system) on global and
// shared memory.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

template <typename T> __device__ __forceinline__ T silu(const T &x) {
  return (T)(((float)x) / (1.0f + expf((float)-x)));
}

// out[t, i] = silu(in[t, i]) * in[t, d + i]
template <typename scalar_t>
__global__ void act_and_mul_kernel(scalar_t *__restrict__ out, const scalar_t *__restrict__ input, const int d) {
  const int64_t token_idx = blockIdx.x;
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const scalar_t x = __ldg(&input[token_idx * 2 * d + idx]);
    const scalar_t y = __ldg(&input[token_idx * 2 * d + d + idx]);
    out[token_idx * d + idx] = silu(x) * y;
  }
}
template __global__ void act_and_mul_kernel<float>(float *, const float *, int);
template __global__ void act_and_mul_kernel<__half>(__half *, const __half *, int);

// residual += input; input = residual * rsqrt(mean(residual^2) + eps) * weight (per token).
__global__ void fused_add_rms_norm(__half *__restrict__ input, __half *__restrict__ residual,
                                   const __half *__restrict__ weight, const float epsilon, const int hidden_size) {
  __shared__ float s_variance;
  __shared__ float partial[16];
  float variance = 0.0f;
  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    const int i = blockIdx.x * hidden_size + idx;
    const float x = __half2float(input[i]) + __half2float(residual[i]);
    const __half xh = __float2half(x);
    residual[i] = xh;
    const float xr = __half2float(xh);
    variance += xr * xr;
  }
#pragma unroll
  for (int o = 32; o > 0; o >>= 1) variance += __shfl_xor(variance, o);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = variance;
  __syncthreads();
  if (threadIdx.x == 0) {
    float v = 0.0f;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) v += partial[w];
    s_variance = rsqrtf(v / hidden_size + epsilon);
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
    const int i = blockIdx.x * hidden_size + idx;
    input[i] = __float2half(__half2float(residual[i]) * s_variance) * weight[idx];
  }
}

// g[0]: atomicInc(.., 9) by every thread; g[1]: atomicDec(.., 9); g[2]: atomicAdd_system(.., 1);
// g[3]: atomicCAS_system(.., 0, thread + 1), g[4] counts the CASes that found 0;
// g[5]: atomicMax_block over thread ids; per block b: blk[2b] = atomicInc(shared, 100) total,
// blk[2b + 1] = atomicAdd_block(shared, 1) total.
__global__ void scoped_atomics(unsigned *g, unsigned *blk) {
  __shared__ unsigned s_inc, s_add;
  if (threadIdx.x == 0) s_inc = 0, s_add = 0;
  __syncthreads();
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicInc(&g[0], 9u);
  atomicDec(&g[1], 9u);
  atomicAdd_system(&g[2], 1u);
  if (atomicCAS_system(&g[3], 0u, t + 1) == 0u) atomicAdd(&g[4], 1u);
  atomicMax_block(&g[5], t);
  atomicInc(&s_inc, 100u);
  atomicAdd_block(&s_add, 1u);
  __syncthreads();
  if (threadIdx.x == 0) blk[2 * blockIdx.x] = s_inc, blk[2 * blockIdx.x + 1] = s_add;
}
