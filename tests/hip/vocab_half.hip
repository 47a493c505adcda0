// vocab_half: HIP's __half / __half2 structs used the way vLLM and FlashInfer's ROCm port use
// them: implicit construction from float, a pointer to a member of a __half2 (&v.x), half2(a, b)
// and make_half2, operators on halves and pairs, __half_raw bit access, and the intrinsics with
// their rounding modes. Per input pair (x[i], y[i]) the kernel writes NOUT binary16 bit patterns
// to out[i * NOUT + k] and NINT integers to iout[i * NINT + k]; tests/test_hip.c computes every
// one from its definition.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define NOUT 32
#define NINT 16

__device__ unsigned short bits(__half h) { return __half_as_ushort(h); }

__global__ void vocab_half(const float *x, const float *y, unsigned short *out, int *iout, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned short *o = out + i * NOUT;
  int *io = iout + i * NINT;
  const __half a = x[i];             // HIP's implicit float -> __half (round to nearest even)
  const __half b = __float2half(y[i]);
  __half2 v = make_half2(a, b);
  __half *px = &v.x;                 // a member's address, as vec_dtypes code takes it
  const half2 w = half2(*px, v.y);   // HIP's two-half constructor
  const __half2 p = v * w;           // element-wise, each rounded
  const __half2 s = __hadd2(v, __lowhigh2highlow(w));
  o[0] = bits(a);
  o[1] = bits(b);
  o[2] = bits(a + b);
  o[3] = bits(a * b);
  o[4] = bits(__hsub(a, b));
  o[5] = bits(__hdiv(a, b));
  o[6] = bits(__hfma(a, b, a));
  o[7] = bits(__hadd_sat(a, b));
  o[8] = bits(__float2half_rz(x[i]));
  o[9] = bits(__float2half_rd(x[i]));
  o[10] = bits(__float2half_ru(x[i]));
  o[11] = bits(__hmax(a, b));
  o[12] = bits(__hmin(a, b));
  o[13] = bits(__hmax_nan(a, b));
  o[14] = bits(p.x);
  o[15] = bits(p.y);
  o[16] = bits(s.x);
  o[17] = bits(s.y);
  o[18] = bits(__hneg(a));
  o[19] = bits(__habs(a));
  __half_raw r;
  r.x = (unsigned short)(bits(a) ^ 0x8000); // raw bit access builds -a
  o[20] = bits(__half(r));
  o[21] = bits(__int2half_rn((int)(y[i] * 1000.0f)));
  o[22] = bits(__int2half_rz((int)(y[i] * 1000.0f)));
  o[23] = bits(__ll2half_ru((long long)(y[i] * 1e6f)));
  o[24] = bits(hsqrt(__habs(a)));
  o[25] = bits(hexp2(__hmul(b, __float2half(0.01f))));
  o[26] = bits(hrcp(b));
  o[27] = bits(hfloor(a));
  const __half2 m = __hmax2(v, w * __half2(__half(-1.0f), __half(2.0f)));
  o[28] = bits(m.x);
  o[29] = bits(m.y);
  o[30] = bits(__shfl_xor(a, 1));
  o[31] = bits(__shfl_xor(v, 3).y);
  io[0] = __hlt(a, b);
  io[1] = __hltu(a, b);
  io[2] = __heq(a, b);
  io[3] = __hne(a, b);
  io[4] = __hneu(a, b);
  io[5] = __hge(a, b);
  io[6] = a < b;                     // HIP's operators: <= is !(b < a)
  io[7] = a <= b;
  io[8] = __hisnan(a);
  io[9] = __hisinf(a);
  io[10] = __half2int_rn(a);
  io[11] = __half2int_rd(a);
  io[12] = __half2short_rz(a);
  io[13] = (int)__half2uint_ru(a);
  io[14] = (float)a == __half2float(a); // HIP's conversion operator to float (false only for NaN)
  io[15] = __hbgt2(v, __hmul2(w, __half2(__half(0.5f), __half(0.5f))));
}
