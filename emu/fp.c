/* emu/fp — the core's float-format conversions (IEEE binary16 and bfloat16 <-> f32, round to
 * nearest even), shared by the operand helpers (emu/operand.c) and the op families; they depend on
 * nothing but internal.h's bit views, so op files depend on the core and never the reverse. */
#include <math.h>
#include <string.h>

#include "emu/internal.h"

float emu_f16_to_f32(uint16_t h)
{
  uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return emu_f32(s | 0x7f800000u | (m << 13)); /* inf / NaN (payload kept) */
  if (e == 0) {
    if (!m) return emu_f32(s);
    float f = (float)m * 0x1p-24f; /* subnormal: exact */
    return s ? -f : f;
  }
  return emu_f32(s | ((e + 112) << 23) | (m << 13));
}

uint16_t emu_f64_to_f16(double x)
{
  uint64_t u;
  memcpy(&u, &x, 8);
  uint32_t s = (uint32_t)(u >> 48) & 0x8000, e = (uint32_t)(u >> 52) & 0x7ff;
  uint64_t m = u & ((1ull << 52) - 1);
  if (e == 0x7ff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (uint32_t)(m >> 42) : 0)); /* NaN quieted */
  int32_t ex = (int32_t)e - 1023 + 15;
  if (ex >= 0x1f) return (uint16_t)(s | 0x7c00);
  if (ex <= 0) { /* subnormal result: q units of 2^-24 */
    if (ex < -10) return (uint16_t)s;
    m |= 1ull << 52;
    uint32_t shift = (uint32_t)(43 - ex);
    uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    return (uint16_t)(s | (uint32_t)q);
  }
  uint32_t q = ((uint32_t)ex << 10) | (uint32_t)(m >> 42);
  uint64_t rem = m & ((1ull << 42) - 1);
  if (rem > (1ull << 41) || (rem == (1ull << 41) && (q & 1))) q++; /* may carry into inf: correct */
  return (uint16_t)(s | q);
}

/* a float converts to double exactly (its NaN payload too, in the top bits), so its f16 is the double's */
uint16_t emu_f32_to_f16(float f) { return emu_f64_to_f16((double)f); }

float emu_bf16_to_f32(uint16_t h) { return emu_f32((uint32_t)h << 16); }

/* libm's rounding functions, out of line for emu/op_avx2.c: under its AVX2 target GCC inlines them
 * as SSE4.1 roundss/roundsd, which quiet a signalling NaN, where the library (called by the generic
 * build) returns it unchanged; the twins call these so both builds give the same bits. */
float emu_libm_floorf(float x) { return floorf(x); }
float emu_libm_ceilf(float x) { return ceilf(x); }
float emu_libm_truncf(float x) { return truncf(x); }
float emu_libm_nearbyintf(float x) { return nearbyintf(x); }
float emu_libm_rintf(float x) { return rintf(x); }
double emu_libm_floor(double x) { return floor(x); }
double emu_libm_ceil(double x) { return ceil(x); }
double emu_libm_trunc(double x) { return trunc(x); }
double emu_libm_nearbyint(double x) { return nearbyint(x); }
