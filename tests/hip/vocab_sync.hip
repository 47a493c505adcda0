// vocab_sync: HIP's *_sync cross-lane forms with 64-bit masks, as reduction and top-k kernels
// written for CUDA and ported to ROCm use them, here with each wave split in two halves that
// pass different masks (lanes 0-31: the low 32 bits, 32-63: the high 32), plus __match_any_sync,
// __match_all_sync, __activemask in a divergent branch, __syncwarp and the __syncthreads_count
// family. vocab_sync_bad calls __shfl_xor_sync with a mask naming lanes that do not take part,
// which HIP's checks (and lanelab's) turn into a trap.
#include <hip/hip_runtime.h>

__global__ void vocab_sync(const int *key, unsigned long long *ob, int *oi, float *of) {
  const int t = threadIdx.x, lane = t & 63;
  const unsigned long long mask = lane < 32 ? 0x00000000ffffffffull : 0xffffffff00000000ull;
  const int k = key[blockIdx.x * blockDim.x + t];
  const int g = blockIdx.x * blockDim.x + t;
  ob[4 * g + 0] = __ballot_sync(mask, k & 1);
  ob[4 * g + 1] = __match_any_sync(mask, k % 3);
  int pred = -1;
  ob[4 * g + 2] = __match_all_sync(mask, k / 1000, &pred);
  ob[4 * g + 3] = 0;
  if (lane & 1) ob[4 * g + 3] = __activemask();
  of[g] = __shfl_xor_sync(mask, (float)k * 0.5f, 4);
  oi[8 * g + 0] = pred;
  oi[8 * g + 1] = __any_sync(mask, k == 7);
  oi[8 * g + 2] = __all_sync(mask, k >= 0);
  __syncwarp(mask);
  __syncwarp();
  oi[8 * g + 3] = __syncthreads_count(k & 1);
  oi[8 * g + 4] = __syncthreads_and(k >= 0);
  oi[8 * g + 5] = __syncthreads_or(k == 7);
  oi[8 * g + 6] = __shfl_down_sync(~0ull, k, 3, 16);
  oi[8 * g + 7] = __shfl_up_sync(~0ull, k, 1);
}

// vocab_fence: the "last block" reduction (each block's partial sum published with __threadfence(),
// a counter taken with atomicAdd, the block that takes it last adds the partials after another
// __threadfence()), with __threadfence_block and __threadfence_system beside it, and clock64() /
// wall_clock64() read at the start and end of every wave (on the emulator: instruction counts,
// docs/emulator-choices.md clock-counter). vocab_fence_unfenced is the same without the two
// __threadfence() calls: the partials are then read with nothing ordering them after their writes
// (a race --racecheck=global reports; the fenced kernel is clean).
template <bool FENCE> __device__ void fence_body(const int *in, int *partial, unsigned *count, int *total, long long *clk) {
  __shared__ int red[16];
  __shared__ int last;
  const int t = threadIdx.x;
  const long long c0 = clock64(), w0 = wall_clock64();
  int v = in[blockIdx.x * blockDim.x + t];
  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if ((t & 63) == 0) red[t >> 6] = v;
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int w = 0; w < (int)blockDim.x / 64; w++) s += red[w];
    partial[blockIdx.x] = s;
    if (FENCE) __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __threadfence_block();
  __syncthreads();
  if (last && t == 0) {
    if (FENCE) __threadfence();
    int s = 0;
    for (int b = 0; b < (int)gridDim.x; b++) s += partial[b];
    *total = s;
    __threadfence_system();
  }
  const long long c1 = clock64(), w1 = wall_clock64();
  if ((t & 63) == 0) {
    long long *c = clk + 4 * (blockIdx.x * (blockDim.x / 64) + (t >> 6));
    c[0] = c0, c[1] = c1, c[2] = w0, c[3] = w1;
  }
}
__global__ void vocab_fence(const int *in, int *partial, unsigned *count, int *total, long long *clk) {
  fence_body<true>(in, partial, count, total, clk);
}
__global__ void vocab_fence_unfenced(const int *in, int *partial, unsigned *count, int *total, long long *clk) {
  fence_body<false>(in, partial, count, total, clk);
}

// flag_chain: block b waits on block b-1's flag with an atomic load, reads its value, and publishes
// its own (a running sum) behind a fence and an atomicExch on its flag: a chain of releases and
// acquires through 4-byte flags, one per block (the decoupled look-back of device-wide scans, in
// order). flag_chain_unfenced drops the fences: the values are then read with nothing ordering them
// after their writes, a race --racecheck=global reports (the flags' atomics race with nothing).
template <bool FENCE> __device__ void chain_body(int *val, unsigned *flag, int *out) {
  if (threadIdx.x) return;
  const int b = blockIdx.x;
  int prev = 0;
  if (b > 0) {
    while (__hip_atomic_load(&flag[b - 1], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) == 0) {
    }
    if (FENCE) __threadfence();
    prev = val[b - 1];
  }
  val[b] = prev + b;
  if (FENCE) __threadfence();
  atomicExch(&flag[b], 1u);
  out[b] = prev;
}
__global__ void flag_chain(int *val, unsigned *flag, int *out) { chain_body<true>(val, flag, out); }
__global__ void flag_chain_unfenced(int *val, unsigned *flag, int *out) { chain_body<false>(val, flag, out); }

// atomic_flags: block b's first thread stores b + 1 to its flag with a relaxed agent-scope atomic
// store (a store with sc1 on gfx942/gfx950, AMDGPUUsage "Memory Model GFX942") and reads block
// b - 1's flag with an agent-scope atomic load (a load with sc1): atomics race with nothing.
// plain = 1 stores the flag with a plain store instead: the atomic load of another block's plain
// write is a race --racecheck=global reports (RAW).
__global__ void atomic_flags(unsigned *flag, unsigned *out, int plain) {
  if (threadIdx.x) return;
  const int b = blockIdx.x;
  if (plain) flag[b] = b + 1;
  else __hip_atomic_store(&flag[b], b + 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  out[b] = b ? __hip_atomic_load(&flag[b - 1], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) : 0u;
}

// lds_dup: every wave of the block writes the same 64 LDS words before the barrier, the same values
// (differ = 0: the idiom of AMD's fmha_bwd kernels, which load the same words into the same LDS from
// pairs of waves: no hazard) or values that depend on the wave (differ = 1: a WAW race, the word's
// final value depends on which wave wrote last).
__global__ void lds_dup(int *out, int differ) {
  __shared__ int tile[64];
  const int lane = threadIdx.x & 63, wave = threadIdx.x >> 6;
  tile[lane] = lane * 3 + (differ ? wave : 0);
  __syncthreads();
  out[threadIdx.x] = tile[lane];
}

__global__ void vocab_sync_bad(float *out) {
  const int lane = threadIdx.x & 63;
  if (lane < 40) out[threadIdx.x] = __shfl_xor_sync(~0ull, (float)lane, 1); // lanes 40-63 are named but absent
}
