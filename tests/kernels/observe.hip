// Race and initialization kernels for tests/test_emu_observe.c (--racecheck, --initcheck). Two
// waves per workgroup (block 128); each kernel's comment states the hazard the test expects, from
// the source alone: which bytes two different waves touch between the same barriers.
#include "lanelab_device.h"

// RAW: thread t writes s[t], then (no barrier) reads s[(t + 64) % 128], which the other wave
// wrote. Every read dword was written by the other wave in the same barrier interval.
extern "C" __global__ void race_raw(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[128];
  uint32_t t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + 64) % 128];
}

// The same with the barrier: no hazard.
extern "C" __global__ void race_raw_fixed(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[128];
  uint32_t t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[(t + 64) % 128];
}

// WAR: after a barrier thread t reads s[(t + 64) % 128] (the other wave's half) and then, with no
// barrier, overwrites its own s[t], which the other wave reads in the same interval.
extern "C" __global__ void race_war(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[128];
  uint32_t t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  uint32_t v = s[(t + 64) % 128];
  s[t] = v + 1;
  __syncthreads();
  out[t] = s[t];
}

// WAW: thread t writes s[t % 64]: both waves write the same 64 dwords between the same barriers.
extern "C" __global__ void race_waw(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[64];
  uint32_t t = threadIdx.x;
  s[t % 64] = in[t];
  __syncthreads();
  out[t] = s[t % 64];
}

// Atomics from both waves on one LDS word do not race; the word is initialized first.
extern "C" __global__ void race_atomic_ok(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[1];
  uint32_t t = threadIdx.x;
  if (t == 0) s[0] = 0;
  __syncthreads();
  __hip_atomic_fetch_add(&s[0], in[t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  out[t] = s[0];
}

// UNINIT (LDS): thread t reads s[t] that no thread wrote (the write is guarded by a flag the test
// passes as 0, so the compiler cannot drop the read as undefined). Barrier first: no race.
extern "C" __global__ void uninit_lds(const uint32_t *in, uint32_t *out, uint32_t flag) {
  __shared__ uint32_t s[128];
  uint32_t t = threadIdx.x;
  if (flag) s[t] = t;
  __syncthreads();
  out[t] = s[t] + in[t];
}

// UNINIT (out buffer): out[t] += in[t] reads out[t] before anything wrote it.
extern "C" __global__ void uninit_out(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  out[t] = out[t] + in[t];
}

// UNINIT (out buffer, part of each dword written): thread 0 writes bytes 0 and 1 of out[0], every
// other even thread byte 1 of its out[t]; after the barrier each thread reads its whole out[t].
extern "C" __global__ void uninit_partial(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  uint8_t *b = (uint8_t *)out;
  if (t % 2 == 0) b[4 * t + 1] = 1;
  if (t == 0) b[0] = 1;
  __syncthreads();
  out[t] = out[t] + in[t];
}

// UNINIT (out buffer) after whole-span writes: wave 0's lanes write out[0..63] one after another,
// wave 1's lanes 0..31 write every other dword, out[64], out[66], ... out[126]; after the barrier
// each thread reads out[t]. Never written: the 32 odd dwords out[65] .. out[127], 128 bytes, the
// first read by wave 1 lane 1 at out + 260.
extern "C" __global__ void uninit_span(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  if (t < 64) out[t] = in[t];
  else if (t < 96) out[64 + 2 * (t - 64)] = in[t];
  __syncthreads();
  out[t] = out[t] + in[t];
}

// The same with part of a wave: threads 0..99 write out[t] (wave 1: lanes 0..35, one after
// another); after the barrier each thread reads out[t]. Never written: out[100] .. out[127], 112
// bytes, the first read by wave 1 lane 36 at out + 400.
extern "C" __global__ void uninit_span_part(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  if (t < 100) out[t] = in[t];
  __syncthreads();
  out[t] = out[t] + in[t];
}

// Runs of LDS bytes in different states: wave 0 writes the low dword of each 8-byte element of s,
// wave 1 (no barrier) reads whole elements: lane l of wave 1 element l (race_runs) or element l / 16
// (race_runs_bcast, 16 lanes to an element). Each of wave 1's 64 lanes reads 4 bytes wave 0 wrote
// and 4 nothing wrote: 256 byte conflicts in either kernel, under any schedule.
extern "C" __global__ void race_runs(const uint32_t *in, uint32_t *out) {
  __shared__ uint64_t s[64];
  uint32_t t = threadIdx.x;
  if (t < 64) ((uint32_t *)s)[2 * t] = in[t];
  else {
    uint64_t v = s[t - 64];
    out[t] = (uint32_t)v + (uint32_t)(v >> 32);
  }
}
extern "C" __global__ void race_runs_bcast(const uint32_t *in, uint32_t *out) {
  __shared__ uint64_t s[64];
  uint32_t t = threadIdx.x;
  if (t < 64) ((uint32_t *)s)[2 * t] = in[t];
  else {
    uint64_t v = s[(t - 64) / 16];
    out[t] = (uint32_t)v + (uint32_t)(v >> 32);
  }
}

// Runs of global bytes in different states: workgroup 0's threads 0..63 write the low dword of
// element t of out (8-byte elements), workgroup 1's threads 0..63 read element t whole (the store
// after it never runs: out's values are below 400). --racecheck=global runs workgroup 0 first: each
// of 64 reads meets 4 written bytes, 256 byte conflicts (RAW, different workgroups); the high 4
// bytes of each element nothing wrote: 256 uninitialized bytes under --initcheck.
extern "C" __global__ void race_global_runs(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  if (t >= 64) return;
  if (blockIdx.x == 0) {
    out[2 * t] = in[t];
  } else {
    uint64_t v = ((const uint64_t *)out)[t];
    if (v == 12345) out[0] = 1;
  }
}

// Whole 8-byte elements: wave 0 writes element t of s, wave 1 (no barrier) reads element l
// (race_gran) or element l / 16 (race_gran_bcast) whole: 8 byte conflicts a lane, 512 in all, or 32
// (4 elements x 8 bytes) when 16 lanes read each element and the read runs first.
extern "C" __global__ void race_gran(const uint32_t *in, uint32_t *out) {
  __shared__ uint64_t s[64];
  uint32_t t = threadIdx.x;
  if (t < 64) s[t] = (uint64_t)in[t] << 32 | in[t];
  else {
    uint64_t v = s[t - 64];
    out[t] = (uint32_t)v + (uint32_t)(v >> 32);
  }
}
extern "C" __global__ void race_gran_bcast(const uint32_t *in, uint32_t *out) {
  __shared__ uint64_t s[64];
  uint32_t t = threadIdx.x;
  if (t < 64) s[t] = (uint64_t)in[t] << 32 | in[t];
  else {
    uint64_t v = s[(t - 64) / 16];
    out[t] = (uint32_t)v + (uint32_t)(v >> 32);
  }
}

// Three waves (block 192), no barrier: wave 0 reads the low dword of element l of s, wave 1 writes
// element l whole, wave 2 writes its high dword (another value). Run wave after wave (the
// adversarial schedule's first order): wave 0's read against wave 1's write, 4 bytes a lane, 256;
// wave 1's write against wave 2's, 4 bytes a lane, 256 (WAW); wave 0's read and wave 2's write
// share no byte: 2 reports.
extern "C" __global__ void race_merge(const uint32_t *in, uint32_t *out) {
  __shared__ uint64_t s[64];
  uint32_t t = threadIdx.x, l = t % 64, w = t / 64;
  if (w == 0) out[l] = ((volatile uint32_t *)s)[2 * l];
  else if (w == 1) s[l] = (uint64_t)in[l] << 32 | in[l];
  else ((uint32_t *)s)[2 * l + 1] = in[l] + 1000;
}

// One byte of every 8-byte granule of big: thread t of the grid (blocks of 128) writes big[8 t]
// (the --racecheck=global shadow splits each granule so written; tests/test_emu_observe.c).
extern "C" __global__ void shadow_split(uint8_t *big) {
  uint32_t t = blockIdx.x * 128 + threadIdx.x;
  big[8 * t] = 1;
}

// Global race across workgroups: every workgroup writes out[threadIdx.x].
extern "C" __global__ void race_global(const uint32_t *in, uint32_t *out) {
  uint32_t t = threadIdx.x;
  out[t] = in[t] + blockIdx.x;
}

// One v_mfma_f32_16x16x16_f16 for the MFMA reconstruction test: lane l passes a[4l..4l+3] as its A
// fragment and b[4l..4l+3] as its B fragment, C = 0; d[4l+i] = the lane's D register i.
extern "C" __global__ void mfma_16x16x16(const ll_half *a, const ll_half *b, float *d) {
  uint32_t l = threadIdx.x;
  ll_halfx4 av = {a[4 * l], a[4 * l + 1], a[4 * l + 2], a[4 * l + 3]};
  ll_halfx4 bv = {b[4 * l], b[4 * l + 1], b[4 * l + 2], b[4 * l + 3]};
  ll_f32x4 r = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, ll_f32x4{0, 0, 0, 0}, 0, 0, 0);
  for (int i = 0; i < 4; i++) d[4 * l + i] = r[i];
}

// Two LDS races whose first workgroup in grid order differs from the first a worker meets:
// workgroup 0 spends its first interval in a loop, the others race there at once (WAR: a read of
// the other wave's half, then an overwrite of its own half, which the other wave reads); then every
// workgroup races again (RAW: a write of its own half, a read of the other wave's). In grid order
// workgroup 0 meets the RAW pair first and workgroup 1 the WAR pair; another worker runs workgroup
// 1 and later ones, and meets both, while workgroup 0 still loops.
extern "C" __global__ void race_late0(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[128];
  uint32_t t = threadIdx.x, v = in[t];
  s[t] = v;
  __syncthreads();
  if (blockIdx.x == 0) {
    for (uint32_t i = 0; i < in[1] * 4000u; i++) v = v * 3u + in[i & 127];
  } else {
    v += s[(t + 64) % 128];
    s[t] = v;
  }
  __syncthreads();
  s[t] = v * 5u;
  out[t] = s[(t + 64) % 128];
}

// More hazard reports than the observer keeps (256): wave 0 writes 17 blocks of 64 dwords, one
// store each; wave 1 reads 17 times, lane l of read j from block (64 + l + j) % 17, so each read
// meets each of the 17 stores in some lanes: 289 PC pairs, 64 lanes x 17 reads x 4 bytes = 4352
// byte conflicts a workgroup.
extern "C" __global__ void race_many(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[17 * 64];
  volatile uint32_t *vs = s;
  uint32_t t = threadIdx.x;
  if (t < 64) {
#pragma unroll
    for (uint32_t i = 0; i < 17; i++) vs[i * 64 + t] = in[t] + i;
  } else {
    uint32_t acc = 0;
#pragma unroll
    for (uint32_t j = 0; j < 17; j++) acc += vs[((t + j) % 17) * 64 + (t & 63)];
    out[t] = acc;
  }
}

// initcheck with workgroups side by side (a last-block reduction; grid 8): workgroup w writes byte w
// of each 8-byte group of out past its first 64 bytes (so every bitmap byte of those bytes gets a
// bit from each workgroup), then counts itself in out[0] with an atomic after a fence; the
// workgroup that counts last reads all the groups. Every byte it reads was written and the writes
// are ordered before its reads: no uninitialized read. In the _gap twin workgroup 3 writes nothing:
// the last workgroup reads its byte of every group unwritten, 8184 bytes of a 65536-byte out.
__device__ void lastblock(uint32_t *out, uint32_t skip) {
  const uint32_t groups = (65536 - 64) / 8;
  uint8_t *b = (uint8_t *)out + 64;
  const uint32_t t = threadIdx.x, w = blockIdx.x;
  if (w != skip)
    for (uint32_t i = t; i < groups; i += blockDim.x) b[8 * i + w] = (uint8_t)(i + w);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  __syncthreads();
  __shared__ uint32_t last;
  if (t == 0) last = __hip_atomic_fetch_add(&out[0], 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) == 8 - 1;
  __syncthreads();
  if (!last) return;
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
  const uint32_t *d = (const uint32_t *)b;
  uint32_t s = 0;
  for (uint32_t i = t; i < groups * 2; i += blockDim.x) s += d[i];
  __hip_atomic_fetch_add(&out[1], s, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
extern "C" __global__ void init_lastblock(const uint32_t *in, uint32_t *out) { lastblock(out, ~0u); }
extern "C" __global__ void init_lastblock_gap(const uint32_t *in, uint32_t *out) { lastblock(out, 3); }
