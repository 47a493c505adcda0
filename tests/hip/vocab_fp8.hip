// vocab_fp8: HIP's fp8 types with the encoding of the arch the kernel runs on, as FlashInfer's
// and aiter's vec_dtypes pick them (HIP_FP8_TYPE_FNUZ: gfx942's instructions are FNUZ; gfx950's
// are OCP): float -> fp8 through the types' constructors (saturating, HIP's default), the x2
// form, the x4 form from a double4 (each double rounded once), and fp8 -> float for every one of the
// 256 codes. Lane i writes codes[8i..8i+7] and dec[2i..2i+1]; tests/test_hip.c decodes and rounds
// from the formats' definitions.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>

#if HIP_FP8_TYPE_FNUZ
typedef __hip_fp8_e4m3_fnuz e4;
typedef __hip_fp8_e5m2_fnuz e5;
typedef __hip_fp8x2_e4m3_fnuz e4x2;
typedef __hip_fp8x4_e4m3_fnuz e4x4;
#else
typedef __hip_fp8_e4m3 e4;
typedef __hip_fp8_e5m2 e5;
typedef __hip_fp8x2_e4m3 e4x2;
typedef __hip_fp8x4_e4m3 e4x4;
#endif

__global__ void vocab_fp8(const float *x, unsigned char *codes, float *dec) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const e4 a = x[i];
  const e5 b = x[i];
  const e4x2 p(float2{x[i], -0.5f * x[i]});
  codes[8 * i + 0] = a.__x;
  codes[8 * i + 1] = b.__x;
  codes[8 * i + 2] = (unsigned char)(p.__x & 0xff);
  codes[8 * i + 3] = (unsigned char)(p.__x >> 8);
  const double xd = x[i];
  const e4x4 q(double4{xd + 0x1p-30, -xd, xd * 3.0, xd / 3.0});
  for (int k = 0; k < 4; k++) codes[8 * i + 4 + k] = (unsigned char)(q.__x >> (8 * k));
  e4 c;
  e5 d;
  c.__x = (__hip_fp8_storage_t)(i & 0xff);
  d.__x = (__hip_fp8_storage_t)(i & 0xff);
  dec[2 * i] = (float)c;
  dec[2 * i + 1] = (float)d;
}
