// private_array: per-thread arrays indexed with run-time indices, so the compiler keeps them in
// private (scratch) memory: a float array (dword scratch stores and loads) and a byte array
// (byte stores, ubyte loads). Thread i:
//   a[k] = x[k] * (i + 1)          for k < 40
//   b[k] = (k * 7 + i) & 0xff      for k < 40
//   for r < 4: j = (unsigned)idx[4i + r] % 40; a[j] += r + 1; b[j] ^= 0x5a (a repeated j sees the earlier updates)
//   out[i] = sum over r < 4 of a[(unsigned)idx[4i + 3 - r] % 40] * (r + 1) + b[(unsigned)idx[4i + r] % 40]
#include <hip/hip_runtime.h>

__global__ void private_array(const float *__restrict__ x, const int *__restrict__ idx, float *__restrict__ out,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a[40];
  unsigned char b[40];
  for (int k = 0; k < 40; k++) {
    a[k] = x[k] * (float)(i + 1);
    b[k] = (unsigned char)((k * 7 + i) & 0xff);
  }
  for (int r = 0; r < 4; r++) {
    int j = (unsigned)idx[4 * i + r] % 40u;
    a[j] += (float)(r + 1);
    b[j] ^= 0x5a;
  }
  float s = 0.0f;
  for (int r = 0; r < 4; r++) s += a[(unsigned)idx[4 * i + 3 - r] % 40u] * (float)(r + 1) + (float)b[(unsigned)idx[4 * i + r] % 40u];
  out[i] = s;
}
