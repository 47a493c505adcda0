// vocab_cg: HIP's cooperative groups as reduction and routing kernels use them:
// this_thread_block().sync(), tiled_partition<16>/<64> with shuffles, ballot and cg::reduce,
// a runtime-sized tiled_partition, and a coalesced group in a divergent branch. Block of 128
// threads: per thread t, out[t * 8 + k].
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void vocab_cg(const float *x, float *out, unsigned long long *bal) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  const unsigned r = block.thread_rank();
  s[r] = x[blockIdx.x * 128 + r];
  block.sync();
  const float v = s[127 - r];                             // a neighbour's value, after the barrier
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  float *o = out + (blockIdx.x * 128 + r) * 8;
  o[0] = v;
  o[1] = cg::reduce(t16, v, cg::plus<float>());
  o[2] = cg::reduce(t64, v, cg::greater<float>());
  o[3] = t16.shfl_down(v, 1);
  o[4] = (float)(t16.thread_rank() * 1000 + t16.meta_group_rank() * 10 + t16.meta_group_size());
  o[5] = t16.shfl(v, 3);
  bal[blockIdx.x * 128 + r] = t16.ballot(v > 0.0f);
  cg::thread_group dyn = cg::tiled_partition(block, 32);
  o[6] = (float)(dyn.thread_rank() + 100 * dyn.size() + 100000 * block.size());
  float c = -1.0f;
  if (r % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    c = (float)active.thread_rank() + 0.25f * (float)active.size() + active.shfl(v, 0) * 0.0f;
    c += 1000.0f * (float)(active.shfl_down(r, 1) - r);
  }
  o[7] = c;
}
