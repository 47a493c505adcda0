// bench_valu — emulator throughput loop with VALU only (issue #31): per iteration one
// v_pk_fma_f32 (x = x * m + c on a float pair, contracted by clang into one fused multiply-add per
// element) and the loop's scalar counter, compare and branch: 4 wave-instructions. emu/bench.c runs
// it beside the same arithmetic written natively. out[blockIdx * 64 + lane] receives x.x + x.y.
// Arches: gfx942, gfx950.
#include "lanelab_device.h"

typedef float bv_f32x2 __attribute__((ext_vector_type(2)));

extern "C" __global__ void bench_valu(float *out, int iters) {
  const uint32_t t = __builtin_amdgcn_workitem_id_x();
  bv_f32x2 x = {(float)t * 0.25f, 1.0f};
  const bv_f32x2 m = {0.999f, 0.9999f}, c = {0.5f, -0.25f}; // both converge (to 500 and -2500)
  for (int i = 0; i < iters; i++) x = x * m + c;
  out[__builtin_amdgcn_workgroup_id_x() * 64 + t] = x.x + x.y;
}
