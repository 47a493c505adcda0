// vocab_bf16: HIP's __hip_bfloat16 / __hip_bfloat162 structs and the older hip_bfloat16, used the
// way aiter and FlashInfer's ROCm port use them: construction from float and double, members of
// a pair taken by address, operators, the intrinsics, and the truncating hip_bfloat16 mode. Per
// input pair (x[i], y[i]) the kernel writes NOUT bfloat16 bit patterns to out[i * NOUT + k] and
// NINT integers to iout[i * NINT + k]; tests/test_hip.c computes each from its definition.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_bfloat16.h>

#define NOUT 24
#define NINT 8

__device__ unsigned short bits(__hip_bfloat16 h) { return __bfloat16_as_ushort(h); }

__global__ void vocab_bf16(const float *x, const float *y, const double *d, unsigned short *out, int *iout, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned short *o = out + i * NOUT;
  int *io = iout + i * NINT;
  const __hip_bfloat16 a = x[i];       // HIP's float constructor (round to nearest even)
  const __hip_bfloat16 b = __float2bfloat16(y[i]);
  __hip_bfloat162 v = __halves2bfloat162(a, b);
  __hip_bfloat16 *py = &v.y;           // a member's address
  const __hip_bfloat162 w(*py, v.x);
  const __hip_bfloat162 s = v + w;
  o[0] = bits(a);
  o[1] = bits(b);
  o[2] = bits(a + b);
  o[3] = bits(a * b);
  o[4] = bits(__hsub(a, b));
  o[5] = bits(__hdiv(a, b));
  o[6] = bits(__hfma(a, b, b));
  o[7] = bits(__float2bfloat16_rz(x[i]));
  o[8] = bits(__float2bfloat16_rd(x[i]));
  o[9] = bits(__float2bfloat16_ru(x[i]));
  o[10] = bits(__double2bfloat16(d[i]));          // rounded once from the double
  o[11] = bits(__hip_bfloat16((int)(y[i] * 70000.0f)));
  o[12] = bits(s.x);
  o[13] = bits(s.y);
  o[14] = bits(__hmax(a, b));
  o[15] = bits(__hneg(a));
  o[16] = bits(hsqrt(__habs(a)));
  o[17] = bits(hfloor(a));
  const hip_bfloat16 ha(x[i]), hb(y[i]);          // the older type: explicit, rounding
  const hip_bfloat16 ht(x[i], hip_bfloat16::truncate);
  o[18] = ha.data;
  o[19] = ht.data;
  o[20] = (ha * hb + ha).data;
  o[21] = (-ha).data;
  o[22] = bits(__shfl_xor_sync(~0ull, a, 2));
  o[23] = bits(__low2bfloat16(__shfl_down_sync(~0ull, v, 1, 16)));
  io[0] = __hlt(a, b);
  io[1] = __hgeu(a, b);
  io[2] = __hisnan(a);
  io[3] = __hisinf(a);
  io[4] = a < b;
  io[5] = ha <= hb;                                // hip_bfloat16: !(a > b), true with a NaN
  io[6] = std::isnan(ha);
  io[7] = (int)(float)b;
}
