/* lanelab/ref.h — what a C reference for `lanelab verify --manifest` sees (docs/manifest.md).
 *
 * lanelab compiles the manifest's reference file into a shared object and calls it once per case
 * with the same arguments the kernel got: every input buffer holds the same bytes, every output
 * buffer holds the kernel's initial contents (poison, 0xff bytes, unless the manifest's "init"
 * says otherwise) and is to be filled, and every scalar has its value. Two calling conventions:
 *
 *   "abi": "args" (the default): the function takes the kernel's arguments in order, as C types:
 *       in buffer     const T *          (T from the dtype: float, double, lanelab_half,
 *       out, inout    T *                 lanelab_bf16, int32_t, uint32_t, int16_t, uint16_t,
 *       scalar        T                   int8_t, uint8_t, int64_t, uint64_t)
 *     and returns void. Example for saxpy(x, y, out, a, n):
 *       void saxpy_ref(const float *x, const float *y, float *out, float a, uint32_t n);
 *     lanelab compiles a call with exactly these types next to the file, so a pointer of the wrong
 *     type is a compile error, not a silent reinterpretation.
 *
 *   "abi": "call": int fn(lanelab_ref_call *call) gets everything (names, dtypes, shapes, grid,
 *     block, arch); it returns 0 when the outputs are filled, else non-zero with a message written
 *     into call->error.
 *
 * Buffers are little-endian arrays in row-major order of the manifest's shape. f16 and bf16
 * elements are their 16-bit patterns; the helpers below convert (round to nearest even). */
#ifndef LANELAB_REF_H
#define LANELAB_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LANELAB_REF_ABI 1

typedef uint16_t lanelab_half; /* IEEE binary16 bits */
typedef uint16_t lanelab_bf16; /* bfloat16 bits */

typedef enum { LANELAB_REF_IN = 0, LANELAB_REF_OUT = 1, LANELAB_REF_INOUT = 2, LANELAB_REF_SCALAR = 3 } lanelab_ref_role;

typedef struct lanelab_ref_arg {
  const char *name;        /* the manifest's argument name */
  lanelab_ref_role role;
  const char *dtype;       /* "f32", "f16", "bf16", "f64", "i32", "u32", "i16", "u16", "i8", "u8", "i64", "u64" */
  void *data;              /* buffers: the elements; scalars: points at the value (of dtype) */
  size_t bytes, count;     /* size in bytes, elements */
  int ndim;
  const int64_t *shape;    /* ndim extents (scalars: ndim 0) */
} lanelab_ref_arg;

typedef struct lanelab_ref_call {
  int abi;                 /* LANELAB_REF_ABI */
  const char *kernel;      /* the manifest's kernel name */
  const char *arch;        /* "gfx942" or "gfx950": the case being checked */
  uint32_t grid[3];        /* workgroups */
  uint32_t block[3];       /* work-items per workgroup */
  size_t nargs;
  lanelab_ref_arg *args;   /* in the kernel's order */
  char *error;             /* "call" abi: a message on failure */
  size_t error_size;
} lanelab_ref_call;

typedef int (*lanelab_ref_fn)(lanelab_ref_call *call);

/* The argument called name, or NULL. */
static inline lanelab_ref_arg *lanelab_ref_find(lanelab_ref_call *c, const char *name) {
  for (size_t i = 0; i < c->nargs; i++)
    if (strcmp(c->args[i].name, name) == 0) return &c->args[i];
  return NULL;
}

static inline float lanelab_half_to_float(lanelab_half h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, u;
  if (e == 31) u = s | 0x7f800000u | (m << 13);
  else if (e) u = s | ((e + 112) << 23) | (m << 13);
  else if (!m) u = s;
  else { /* subnormal: normalise */
    e = 113;
    while (!(m & 1024)) { m <<= 1; e--; }
    u = s | (e << 23) | ((m & 1023) << 13);
  }
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline lanelab_half lanelab_float_to_half(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t s = (u >> 16) & 0x8000, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (lanelab_half)(s | 0x7e00 | ((a >> 13) & 0x3ff));  /* NaN stays NaN */
  if (a >= 0x477ff000u) return (lanelab_half)(s | 0x7c00);                        /* overflow: inf */
  if (a < 0x38800000u) {                                                           /* subnormal or 0 */
    if (a < 0x33000000u) return (lanelab_half)s;
    uint32_t e = a >> 23, m = (a & 0x7fffff) | 0x800000, sh = 126 - e;
    uint32_t r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (r & 1))) r++;
    return (lanelab_half)(s | r);
  }
  uint32_t r = ((a >> 13) - (112u << 10)), rem = a & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (r & 1))) r++;
  return (lanelab_half)(s | r);
}

static inline float lanelab_bf16_to_float(lanelab_bf16 b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline lanelab_bf16 lanelab_float_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (lanelab_bf16)((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return (lanelab_bf16)(u >> 16);
}

/* fp8 buffers reach a reference as their raw bytes; these decode them (docs/manifest.md, lanelab's
 * docs/oracle.md "fp8": OCP E4M3 and E5M2, and the FNUZ forms gfx942's MFMA takes). */
static inline float lanelab_fp8_decode__(uint8_t v, int mbits, int bias, int fnuz, int has_inf) {
  int eb = 7 - mbits;
  unsigned s = v >> 7, e = (v >> mbits) & ((1u << eb) - 1), m = v & ((1u << mbits) - 1);
  if (fnuz && v == 0x80) return __builtin_nanf("");
  if (!fnuz && !has_inf && e == 15 && m == 7) return __builtin_nanf("");
  if (has_inf && e == (1u << eb) - 1) return m ? __builtin_nanf("") : s ? -__builtin_inff() : __builtin_inff();
  float x = 1.0f;
  int ex = e ? (int)e - bias : 1 - bias - mbits;
  float mant = e ? 1.0f + (float)m / (float)(1u << mbits) : (float)m;
  for (; ex > 0; ex--) x *= 2.0f;
  for (; ex < 0; ex++) x *= 0.5f;
  return s ? -mant * x : mant * x;
}
static inline float lanelab_fp8_e4m3_to_float(uint8_t v) { return lanelab_fp8_decode__(v, 3, 7, 0, 0); }
static inline float lanelab_fp8_e5m2_to_float(uint8_t v) { return lanelab_fp8_decode__(v, 2, 15, 0, 1); }
static inline float lanelab_fp8_e4m3_fnuz_to_float(uint8_t v) { return lanelab_fp8_decode__(v, 3, 8, 1, 0); }
static inline float lanelab_fp8_e5m2_fnuz_to_float(uint8_t v) { return lanelab_fp8_decode__(v, 2, 16, 1, 0); }

#endif
