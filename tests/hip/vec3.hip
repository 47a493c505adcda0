// vec3: arrays of structures of 3-element vectors, as particle and mesh codes keep them: positions
// and velocities as float3 (12 bytes each, packed), an int3 cell index, and double3 accumulation.
#include <hip/hip_runtime.h>

__global__ void vec3(const float3 *pos, const float3 *vel, float3 *out, int3 *cell, double3 *sum, float dt,
                     int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 p = pos[i];
  p += vel[i] * dt;            // compound and scalar forms
  p = 0.5f * (p + pos[i]) - -p; // scalar on the left, unary minus
  out[i] = p;
  cell[i] = make_int3((int)p.x, (int)p.y, (int)p.z) / 2;
  if (p != p) return;          // never (no NaN inputs): == / != exist
  double3 d = make_double3(p.x, p.y, p.z);
  atomicAdd(&sum->x, d.x);
  atomicAdd(&sum->y, d.y);
  atomicAdd(&sum->z, d.z);
}
