// vocab_intrin: HIP's integer and bit intrinsics and the float conversions with a rounding mode,
// used as quantization and packing kernels use them (aiter's, vLLM's): bit casts, __byte_perm
// to gather bytes, funnel shifts, __brev, halving adds, 24-bit and high multiplies, __sad, and
// float <-> int conversions in every mode. Per element i the kernel writes NOUT 32-bit words to
// out[i * NOUT + k]; tests/test_hip.c computes each from its definition.
#include <hip/hip_runtime.h>

#define NOUT 38

__global__ void vocab_intrin(const float *x, const unsigned *u, const double *d, unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned *o = out + i * NOUT;
  const float f = x[i];
  const unsigned a = u[2 * i], b = u[2 * i + 1];
  const long long ll = (long long)((unsigned long long)a << 32 | b);
  o[0] = (unsigned)__float_as_int(f);
  o[1] = __float_as_uint(__int_as_float((int)a) + 0.0f == __int_as_float((int)a) ? f : -f);
  o[2] = __float_as_uint(__uint_as_float(b));
  o[3] = __byte_perm(a, b, b);                        // the selector from data
  o[4] = __byte_perm(a, b, 0x5410);                   // two low halves
  o[5] = __funnelshift_l(a, b, b);
  o[6] = __funnelshift_rc(a, b, b & 63);
  o[7] = __brev(a);
  o[8] = (unsigned)__hadd((int)a, (int)b);
  o[9] = (unsigned)__rhadd((int)a, (int)b);
  o[10] = __urhadd(a, b);
  o[11] = (unsigned)__mul24((int)a, (int)b);
  o[12] = __umul24(a, b);
  o[13] = (unsigned)__umul64hi((unsigned long long)ll, 0x9e3779b97f4a7c15ull);
  o[14] = __usad(a, b, 7);
  o[15] = (unsigned)__float2int_rn(f);
  o[16] = (unsigned)__float2int_rz(f);
  o[17] = (unsigned)__float2int_rd(f);
  o[18] = (unsigned)__float2int_ru(f);
  o[19] = __float2uint_rn(f);
  o[20] = (unsigned)(__float2ll_rz(f * 4294967296.0f) >> 16);
  o[21] = __float_as_uint(__int2float_rz((int)a));
  o[22] = __float_as_uint(__int2float_rd((int)a));
  o[23] = __float_as_uint(__uint2float_ru(b));
  o[24] = __float_as_uint(__ll2float_rn(ll));
  o[25] = __float_as_uint(__double2float_rz(d[i]));
  o[26] = __float_as_uint(__double2float_ru(d[i]));
  o[27] = (unsigned)__double2hiint(d[i]);
  o[28] = __float_as_uint((float)__hiloint2double(__double2hiint(d[i]), __double2loint(d[i])));
  o[29] = __float_as_uint(__fmul_rn(f, 1.0f + 0x1p-23f));
  o[30] = __float_as_uint(__saturatef(f));
  o[31] = (unsigned)__popc(a) | (unsigned)__clz(b) << 8 | (unsigned)__ffs((int)a) << 16;
  o[32] = __bitextract_u32(a, b, b >> 8);
  o[33] = (unsigned)__bitextract_u64((unsigned long long)ll, b, b >> 8);
  o[34] = __bitinsert_u32(a, b, b >> 16, b >> 24);
  o[35] = __lastbit_u32_u64((unsigned long long)ll & (i % 5 ? ~0ull : 0ull));
  o[36] = (unsigned)__fns32(a, b & 31, (int)(b >> 28) - 8);
  o[37] = (unsigned)__fns64((unsigned long long)ll, b & 63, (int)((b >> 8) & 15) - 4);
}
