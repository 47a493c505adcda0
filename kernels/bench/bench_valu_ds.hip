// bench_valu_ds — emulator throughput loop (issue #3 §6): per iteration a mix of f32 VALU
// (fma/mul/add), integer VALU (xor/shift/add) and one LDS write + read per lane, in one wave
// (64 work-items per block, so the LDS exchange needs no barrier). emu/bench.c runs it and
// divides executed wave-instructions by time. out[blockIdx * 64 + lane] receives a checksum so
// nothing is optimised away.
// Arches: gfx942, gfx950.
#include "lanelab_device.h"

extern "C" __global__ void bench_valu_ds(float *out, int iters) {
  __shared__ float lds[64];
  const uint32_t t = __builtin_amdgcn_workitem_id_x();
  float a = (float)t * 0.5f, b = 1.0f, c = 0.0f;
  uint32_t u = t * 2654435761u;
  for (int i = 0; i < iters; i++) {
    a = a * 1.0001f + b;
    b = b * 0.999f - c * 0.5f;
    u = (u ^ (u << 3)) + 0x9e3779b9u;
    u ^= u >> 7;
    lds[t] = a + (float)(u & 255);
    c += lds[(t + 1) & 63];
  }
  out[__builtin_amdgcn_workgroup_id_x() * 64 + t] = a + b + c + (float)(u & 1023);
}
