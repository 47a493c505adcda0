// bench_mfma — emulator throughput loop for v_mfma_f32_16x16x16_f16 (issue #3 §6): a dependent
// chain of MFMAs per wave (one 64-lane wave per block). emu/bench.c counts MFMAs executed per
// second. out[blockIdx * 64 + lane] receives the accumulator so nothing is optimised away.
// Arches: gfx942, gfx950.
#include "lanelab_device.h"

extern "C" __global__ void bench_mfma(float *out, int iters) {
  const uint32_t t = __builtin_amdgcn_workitem_id_x();
  ll_halfx4 a = {(ll_half)(t & 7), (ll_half)1.0f, (ll_half)0.5f, (ll_half)(t >> 4)};
  ll_halfx4 b = {(ll_half)0.25f, (ll_half)(t & 3), (ll_half)1.0f, (ll_half)-1.0f};
  ll_f32x4 acc = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < iters; i++) {
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
    a.x = (ll_half)((float)a.x + 0.001f);
  }
  out[__builtin_amdgcn_workgroup_id_x() * 64 + t] = acc.x + acc.y + acc.z + acc.w;
}
