/* emu/simd — whole-wave (64-lane) kernels of the hot handlers, with an AVX-512 path chosen at run
 * time (`__builtin_cpu_supports`, once at start-up) and a portable path with the same results.
 * Each is exact: selects and gathers move bits; the f16 <-> f32 conversions are IEEE (round to
 * nearest even, NaN payload kept and quieted as emu/fp.c does; checked against emu/fp.c for every
 * f16 and a sweep of f32 in tests/test_emu_cvt.c); compares use the ordered/unordered predicate
 * the C expression in emu/op_valu.c computes (quiet and signalling predicates differ only in the
 * exception flags, which no emulated result reads). No function here is called with partial
 * data: every array has EMU_LANES entries. */
#include <immintrin.h>
#include <math.h>
#include <stdlib.h>

#include "emu/internal.h"

bool emu_avx512, emu_avx2;

/* LANELAB_EMU_SIMD=portable|avx2|avx512 caps the paths used (the CPU's best by default);
 * LANELAB_EMU_NO_AVX512=1, the older switch, means portable (docs/emulator-choices.md). */
__attribute__((constructor)) static void simd_init(void)
{
  __builtin_cpu_init();
  const char *cap = getenv("LANELAB_EMU_SIMD"), *no512 = getenv("LANELAB_EMU_NO_AVX512");
  bool portable = (no512 && *no512 && strcmp(no512, "0") != 0) || (cap && !strcmp(cap, "portable"));
  bool only2 = cap && !strcmp(cap, "avx2");
  emu_avx2 = !portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             __builtin_cpu_supports("f16c");
  emu_avx512 = !portable && !only2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
/* AVX2 with FMA and F16C (x86-64-v3): the paths taken on CPUs without AVX-512 */
#define T256 __attribute__((target("avx2,fma,f16c")))

/* ---- d[l] = m bit l ? b[l] : a[l] --------------------------------------------------------------*/
T512 static void sel_512(uint32_t *d, const uint32_t *a, const uint32_t *b, uint64_t m)
{
  for (int c = 0; c < 4; c++) {
    __m512i va = _mm512_loadu_si512(a + 16 * c), vb = _mm512_loadu_si512(b + 16 * c);
    _mm512_storeu_si512(d + 16 * c, _mm512_mask_blend_epi32((__mmask16)(m >> (16 * c)), va, vb));
  }
}

/* lanes 8c..8c+7's mask bits moved into each dword's sign bit (what blendvps reads): the mask's
 * 32-bit half broadcast once, shifted left by 31 - bit per lane */
T256 static inline __attribute__((always_inline)) __m256 sign8_256(uint64_t m, int c)
{
  const __m256i sh = _mm256_setr_epi32(31 - 8 * (c & 3), 30 - 8 * (c & 3), 29 - 8 * (c & 3), 28 - 8 * (c & 3),
                                       27 - 8 * (c & 3), 26 - 8 * (c & 3), 25 - 8 * (c & 3), 24 - 8 * (c & 3));
  return _mm256_castsi256_ps(_mm256_sllv_epi32(_mm256_set1_epi32((int)(uint32_t)(m >> (32 * (c >> 2)))), sh));
}
#define BLENDS_256(va, vb, sgn) \
  _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(va), _mm256_castsi256_ps(vb), (sgn)))

T256 static void sel_256(uint32_t *d, const uint32_t *a, const uint32_t *b, uint64_t m)
{
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c));
    __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * c));
    _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), BLENDS_256(va, vb, sign8_256(m, c)));
  }
}

void emu_sel64(uint32_t *d, const uint32_t *a, const uint32_t *b, uint64_t m)
{
  if (emu_avx512) {
    sel_512(d, a, b, m);
    return;
  }
  if (emu_avx2) {
    sel_256(d, a, b, m);
    return;
  }
  typedef uint32_t v4u __attribute__((vector_size(16)));
  typedef int32_t v4i __attribute__((vector_size(16)));
  for (int h = 0; h < 2; h++) {
    const uint32_t mh = (uint32_t)(m >> (32 * h));
    const v4u mv = {mh, mh, mh, mh};
    for (int l = 0; l < 32; l += 4) {
      const v4u bits = {1u << l, 1u << (l + 1), 1u << (l + 2), 1u << (l + 3)};
      const v4u sel = (v4u)((v4i)((mv & bits) != 0));
      v4u va, vb;
      memcpy(&va, a + 32 * h + l, sizeof va);
      memcpy(&vb, b + 32 * h + l, sizeof vb);
      const v4u o = (vb & sel) | (va & ~sel);
      memcpy(d + 32 * h + l, &o, sizeof o);
    }
  }
}

/* ---- the same select with sources that are either lanes or one uniform value, each through a
 * (x & andm) ^ xorm bit modifier (v_cndmask_b32's abs/neg and SGPR/constant operands in one pass
 * instead of a broadcast, a modifier pass and the select) ---------------------------------------*/
/* Each source's modifier and uniform value are set up once; the loop is instantiated for the four
 * lane/uniform combinations (always_inline with constant flags) so that no test is left inside it. */
#define SELX_BODY(W, LOAD, SET1, AND, XOR, BLEND)                                                      \
  const W aand = SET1((int)a->andm), axor = SET1((int)a->xorm), band = SET1((int)b->andm),             \
          bxor = SET1((int)b->xorm);                                                                  \
  const W au = SET1((int)((a->s & a->andm) ^ a->xorm)), bu = SET1((int)((b->s & b->andm) ^ b->xorm));  \
  _Pragma("GCC unroll 8")                                                                             \
  for (int c = 0; c < EMU_LANES / (int)(sizeof(W) / 4); c++) {                                         \
    W va = avec ? XOR(AND(LOAD(a->p, c), aand), axor) : au;                                           \
    W vb = bvec ? XOR(AND(LOAD(b->p, c), band), bxor) : bu;                                           \
    BLEND;                                                                                            \
  }
#define L512(p, c) _mm512_loadu_si512((p) + 16 * (c))
T512 static inline __attribute__((always_inline)) void selx_512_k(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b,
                                                                  uint64_t m, bool avec, bool bvec)
{
  SELX_BODY(__m512i, L512, _mm512_set1_epi32, _mm512_and_si512, _mm512_xor_si512,
            _mm512_storeu_si512(d + 16 * c, _mm512_mask_blend_epi32((__mmask16)(m >> (16 * c)), va, vb)))
}
T512 static void selx_512(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b, uint64_t m)
{
  if (a->p && b->p) selx_512_k(d, a, b, m, true, true);
  else if (a->p) selx_512_k(d, a, b, m, true, false);
  else if (b->p) selx_512_k(d, a, b, m, false, true);
  else selx_512_k(d, a, b, m, false, false);
}
#define L256(p, c) _mm256_loadu_si256((const __m256i *)(const void *)((p) + 8 * (c)))
T256 static inline __attribute__((always_inline)) void selx_256_k(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b,
                                                                  uint64_t m, bool avec, bool bvec)
{
  SELX_BODY(__m256i, L256, _mm256_set1_epi32, _mm256_and_si256, _mm256_xor_si256,
            _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), BLENDS_256(va, vb, sign8_256(m, c))))
}
T256 static void selx_256(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b, uint64_t m)
{
  if (a->p && b->p) selx_256_k(d, a, b, m, true, true);
  else if (a->p) selx_256_k(d, a, b, m, true, false);
  else if (b->p) selx_256_k(d, a, b, m, false, true);
  else selx_256_k(d, a, b, m, false, false);
}
#undef SELX_BODY

void emu_sel64x(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b, uint64_t m)
{
  if (emu_avx512) {
    selx_512(d, a, b, m);
    return;
  }
  if (emu_avx2) {
    selx_256(d, a, b, m);
    return;
  }
  /* lane by lane in 16-lane blocks, each block read whole before it is written (d may be a source) */
  for (int c = 0; c < EMU_LANES; c += 16) {
    uint32_t o[16];
    for (int l = 0; l < 16; l++) {
      const emu_selsrc *s = (m >> (c + l) & 1) ? b : a;
      o[l] = ((s->p ? s->p[c + l] : s->s) & s->andm) ^ s->xorm;
    }
    memcpy(d + c, o, sizeof o);
  }
}

/* ---- dst[l] = d[l] for the lanes of e -----------------------------------------------------------*/
T512 static void blend_512(uint32_t *dst, const uint32_t *d, uint64_t e)
{
  for (int c = 0; c < 4; c++)
    _mm512_mask_storeu_epi32(dst + 16 * c, (__mmask16)(e >> (16 * c)), _mm512_loadu_si512(d + 16 * c));
}

T256 static void blend_256(uint32_t *dst, const uint32_t *d, uint64_t e)
{
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i vd = _mm256_loadu_si256((const __m256i *)(const void *)(d + 8 * c));
    __m256i vo = _mm256_loadu_si256((const __m256i *)(const void *)(dst + 8 * c));
    _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * c), BLENDS_256(vo, vd, sign8_256(e, c)));
  }
}

/* ---- a = va in every lane (a uniform source's lanes, emu/operand.c) ----------------------------*/
T256 static void fill_256(uint32_t *a, uint32_t va)
{
  const __m256i x = _mm256_set1_epi32((int)va);
  for (int c = 0; c < 8; c++) _mm256_storeu_si256((__m256i *)(void *)(a + 8 * c), x);
}

void emu_fill64(uint32_t *a, uint32_t va)
{
  if (emu_avx2) {
    fill_256(a, va);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) a[l] = va;
}

/* ---- a = va, b = vb in every lane (uniform packed sources, emu/op_vop3p.c) ---------------------*/
T256 static void fill2_256(uint32_t *a, uint32_t va, uint32_t *b, uint32_t vb)
{
  __m256i x = _mm256_set1_epi32((int)va), y = _mm256_set1_epi32((int)vb);
  for (int c = 0; c < 8; c++) {
    _mm256_storeu_si256((__m256i *)(void *)(a + 8 * c), x);
    _mm256_storeu_si256((__m256i *)(void *)(b + 8 * c), y);
  }
}

void emu_fill2_64(uint32_t *a, uint32_t va, uint32_t *b, uint32_t vb)
{
  if (emu_avx2) {
    fill2_256(a, va, b, vb);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) a[l] = va, b[l] = vb;
}

void emu_blend64(uint32_t *dst, const uint32_t *d, uint64_t e)
{
  if (emu_avx512) {
    blend_512(dst, d, e);
    return;
  }
  if (emu_avx2) {
    blend_256(dst, d, e);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) {
    uint32_t m = 0u - (uint32_t)(e >> l & 1);
    dst[l] = (d[l] & m) | (dst[l] & ~m);
  }
}

/* ---- d[l] = src[((addr[l] + off) >> 2) & 63] (ds_bpermute_b32 with EXEC all ones) -------------*/
T512 static void bperm_512(uint32_t *d, const uint32_t *src, const uint32_t *addr, uint32_t off)
{
  __m512i s0 = _mm512_loadu_si512(src), s1 = _mm512_loadu_si512(src + 16);
  __m512i s2 = _mm512_loadu_si512(src + 32), s3 = _mm512_loadu_si512(src + 48);
  __m512i vo = _mm512_set1_epi32((int)off), m63 = _mm512_set1_epi32(63), b5 = _mm512_set1_epi32(32);
  for (int c = 0; c < 4; c++) {
    __m512i ix = _mm512_and_si512(_mm512_srli_epi32(_mm512_add_epi32(_mm512_loadu_si512(addr + 16 * c), vo), 2), m63);
    __m512i lo = _mm512_permutex2var_epi32(s0, ix, s1), hi = _mm512_permutex2var_epi32(s2, ix, s3);
    __mmask16 up = _mm512_test_epi32_mask(ix, b5);
    _mm512_storeu_si512(d + 16 * c, _mm512_mask_blend_epi32(up, lo, hi));
  }
}

/* The 64 source dwords picked by index (the indices are masked to 0..63: in bounds): the indices as
 * vectors, the picks as scalar loads into a copy, then the copy stored, so d may be src (or addr).
 * Not AVX2's gather: on this project's benchmark host (AMD family 23, Zen 1) a gather is microcoded
 * and the eight of a wave took 73 ns where the scalar picks take 57 (a /tmp microbenchmark,
 * docs/performance.md, eighth stop); the same holds for the other whole-wave reads below. Not
 * inlined: its two 256-byte arrays would give bperm_256's fast path a realigned stack frame. */
T256 __attribute__((noinline)) static void bperm_pick_256(uint32_t *d, const uint32_t *src, const uint32_t *addr, uint32_t off)
{
  uint32_t ix[EMU_LANES] __attribute__((aligned(32))), t[EMU_LANES] __attribute__((aligned(32)));
  __m256i vo = _mm256_set1_epi32((int)off), m63 = _mm256_set1_epi32(63);
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(addr + 8 * c));
    _mm256_store_si256((__m256i *)(void *)(ix + 8 * c), _mm256_and_si256(_mm256_srli_epi32(_mm256_add_epi32(x, vo), 2), m63));
  }
#pragma GCC unroll 64
  for (int l = 0; l < EMU_LANES; l++) t[l] = src[ix[l]];
  memcpy(d, t, sizeof t);
}

/* Quad-uniform fast path (issue #31): gfx942's software transpose (the seed's prefill) issues
 * ds_bpermute_b32 with five address vectors only (lane ^ 1, ^ 2, ^ 16, ^ 32 and a 4x4 transpose of
 * 4-lane blocks; a log of 400 k of them, docs/performance.md, ninth stop), and in all five every
 * aligned 4-lane output group reads one aligned 4-lane source group. Lane l's source lane is bits
 * 7:2 of x = addr + off (mod 2^32), its source group bits 7:4: when those agree with the group's
 * first lane in every group (x ^ x[first] has no bit of 0xf0 set), the wave is 16 vector loads
 * of a source group and a vpermilps by bits 3:2 (it reads bits 1:0 of x >> 2) per two groups,
 * 22 ns a wave where the scalar picks take 42 (/tmp microbenchmark, the logged addresses in
 * order, in place). Every other wave costs the check on top of the picks (48 ns against 45 on
 * random addresses). The eight results stay in registers until all are read: d may be src or addr. */
T256 static void bperm_256(uint32_t *d, const uint32_t *src, const uint32_t *addr, uint32_t off)
{
  __m256i vo = _mm256_set1_epi32((int)off), dif = _mm256_setzero_si256(), r[8];
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i x = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(addr + 8 * c)), vo);
    dif = _mm256_or_si256(dif, _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0))); /* against lanes 0 and 4 */
  }
  if (!_mm256_testz_si256(dif, _mm256_set1_epi32(0xf0))) {
    bperm_pick_256(d, src, addr, off);
    return;
  }
  const char *s = (const char *)src; /* a group's byte offset is x & 0xf0 (16 bytes a group) */
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i ix = _mm256_srli_epi32(_mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(addr + 8 * c)), vo), 2);
    uint32_t qa = (addr[8 * c] + off) & 0xf0, qb = (addr[8 * c + 4] + off) & 0xf0;
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(s + qa))),
                                        _mm_loadu_si128((const __m128i *)(const void *)(s + qb)), 1);
    r[c] = _mm256_castps_si256(_mm256_permutevar_ps(_mm256_castsi256_ps(v), ix));
  }
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), r[c]);
}

/* d may be src or addr: every path reads all it needs before it writes (the portable one through a
 * copy when d is src) */
void emu_bperm64(uint32_t *d, const uint32_t *src, const uint32_t *addr, uint32_t off)
{
  if (emu_avx512) {
    bperm_512(d, src, addr, off);
    return;
  }
  if (emu_avx2) {
    bperm_256(d, src, addr, off);
    return;
  }
  uint32_t t[EMU_LANES];
  if (d == src) src = memcpy(t, src, sizeof t);
  for (int l = 0; l < EMU_LANES; l++) d[l] = src[((addr[l] + off) >> 2) & 63];
}

/* ---- 64-bit lane values in 32-bit halves: 16 lanes' low dwords l and high dwords h (two VGPRs'
 * chunks) as two vectors of eight 64-bit values (lanes 0-7, lanes 8-15), and back -------------- */
T512 static inline __attribute__((always_inline)) __m512i pairs_lo8(__m512i l, __m512i h)
{
  return _mm512_permutex2var_epi32(l, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), h);
}
T512 static inline __attribute__((always_inline)) __m512i pairs_hi8(__m512i l, __m512i h)
{
  return _mm512_permutex2var_epi32(l, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), h);
}
/* the low (even) and high (odd) dwords of 16 64-bit values x0 (lanes 0-7), x1 (lanes 8-15) */
T512 static inline __attribute__((always_inline)) __m512i dwords_even(__m512i x0, __m512i x1)
{
  return _mm512_permutex2var_epi32(x0, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), x1);
}
T512 static inline __attribute__((always_inline)) __m512i dwords_odd(__m512i x0, __m512i x1)
{
  return _mm512_permutex2var_epi32(x0, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), x1);
}

/* ---- 64-bit lane addresses (emu/op_mem.c's global accesses) ---------------------------------
 * d[l] = (lo[l] | hi[l] << 32) + off, and the lanes whose a[l] - base exceeds lim (unsigned, so an
 * address below base wraps above lim): integer operations, exact at any width. */
T512 static void addr_512(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off)
{
  /* 16 lanes a step, each half loaded whole (64 bytes, as the register's writers store it) and the
   * pairs interleaved by vpermt2d */
  const __m512i vo = _mm512_set1_epi64((long long)off);
  for (int c = 0; c < 4; c++) {
    __m512i l = _mm512_loadu_si512(lo + 16 * c), h = _mm512_loadu_si512(hi + 16 * c);
    _mm512_storeu_si512(d + 16 * c, _mm512_add_epi64(pairs_lo8(l, h), vo));
    _mm512_storeu_si512(d + 16 * c + 8, _mm512_add_epi64(pairs_hi8(l, h), vo));
  }
}

T256 static void addr_256(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off)
{
  __m256i vo = _mm256_set1_epi64x((long long)off);
  for (int c = 0; c < 16; c++) {
    __m256i l = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(lo + 4 * c)));
    __m256i h = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(hi + 4 * c)));
    _mm256_storeu_si256((__m256i *)(void *)(d + 4 * c), _mm256_add_epi64(_mm256_or_si256(l, _mm256_slli_epi64(h, 32)), vo));
  }
}

void emu_addr64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off)
{
  if (emu_avx512) {
    addr_512(d, lo, hi, off);
    return;
  }
  if (emu_avx2) {
    addr_256(d, lo, hi, off);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) d[l] = ((uint64_t)lo[l] | (uint64_t)hi[l] << 32) + off;
}

/* ---- v_mad_u64_u32 of a whole wave: {carry, dhi:dlo} = a * b + chi:clo (emu/op_valu.c; the pair may
 * be a source: each chunk reads its lanes of every source before it writes them). AVX-512, sixteen
 * lanes a chunk: the even and odd lanes' 64-bit products by vpmuludq, the addend's dwords paired to
 * match, the carry where the sum is below the product (vpcmpuq), halves and carries put back in lane
 * order by masked blends (issue #31, thirty-eighth stop: 5% of FlashInfer's prefill kernel). The
 * carry mask is returned. ------------------------------------------------------------------------ */
T512 static uint64_t mad_u64_u32_512(uint32_t *dlo, uint32_t *dhi, const uint32_t *a, const uint32_t *b,
                                     const uint32_t *clo, const uint32_t *chi)
{
  uint64_t co = 0;
  for (int c = 0; c < 4; c++) {
    const __m512i va = _mm512_loadu_si512(a + 16 * c), vb = _mm512_loadu_si512(b + 16 * c),
                  cl = _mm512_loadu_si512(clo + 16 * c), ch = _mm512_loadu_si512(chi + 16 * c);
    const __m512i pe = _mm512_mul_epu32(va, vb), po = _mm512_mul_epu32(_mm512_srli_epi64(va, 32), _mm512_srli_epi64(vb, 32));
    const __m512i ce = _mm512_mask_blend_epi32(0xaaaa, cl, _mm512_slli_epi64(ch, 32)),
                  cd = _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(cl, 32), ch);
    const __m512i se = _mm512_add_epi64(pe, ce), so = _mm512_add_epi64(po, cd);
    const __m512i ke = _mm512_movm_epi64(_mm512_cmplt_epu64_mask(se, pe)),
                  ko = _mm512_movm_epi64(_mm512_cmplt_epu64_mask(so, po));
    co |= (uint64_t)_mm512_movepi32_mask(_mm512_mask_blend_epi32(0xaaaa, ke, ko)) << (16 * c);
    _mm512_storeu_si512(dlo + 16 * c, _mm512_mask_blend_epi32(0xaaaa, se, _mm512_slli_epi64(so, 32)));
    _mm512_storeu_si512(dhi + 16 * c, _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(se, 32), so));
  }
  return co;
}

/* the same on AVX2, 8 lanes a block: the carry by a sign-flipped signed compare (no unsigned 64-bit
 * compare before AVX-512), the carries gathered by movmskps */
T256 static uint64_t mad_u64_u32_256(uint32_t *dlo, uint32_t *dhi, const uint32_t *a, const uint32_t *b,
                                     const uint32_t *clo, const uint32_t *chi)
{
  const __m256i sgn = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  uint64_t co = 0;
  for (int o = 0; o < EMU_LANES; o += 8) {
    const __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(a + o)),
                  vb = _mm256_loadu_si256((const __m256i *)(const void *)(b + o)),
                  cl = _mm256_loadu_si256((const __m256i *)(const void *)(clo + o)),
                  ch = _mm256_loadu_si256((const __m256i *)(const void *)(chi + o));
    const __m256i pe = _mm256_mul_epu32(va, vb), po = _mm256_mul_epu32(_mm256_srli_epi64(va, 32), _mm256_srli_epi64(vb, 32));
    const __m256i ce = _mm256_blend_epi32(cl, _mm256_slli_epi64(ch, 32), 0xaa),
                  cd = _mm256_blend_epi32(_mm256_srli_epi64(cl, 32), ch, 0xaa);
    const __m256i se = _mm256_add_epi64(pe, ce), so = _mm256_add_epi64(po, cd);
    const __m256i ke = _mm256_cmpgt_epi64(_mm256_xor_si256(pe, sgn), _mm256_xor_si256(se, sgn)),
                  ko = _mm256_cmpgt_epi64(_mm256_xor_si256(po, sgn), _mm256_xor_si256(so, sgn));
    co |= (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_blend_epi32(ke, ko, 0xaa))) << o;
    _mm256_storeu_si256((__m256i *)(void *)(dlo + o), _mm256_blend_epi32(se, _mm256_slli_epi64(so, 32), 0xaa));
    _mm256_storeu_si256((__m256i *)(void *)(dhi + o), _mm256_blend_epi32(_mm256_srli_epi64(se, 32), so, 0xaa));
  }
  return co;
}

uint64_t emu_mad_u64_u32_64(uint32_t *dlo, uint32_t *dhi, const uint32_t *a, const uint32_t *b, const uint32_t *clo,
                            const uint32_t *chi)
{
  if (emu_avx512) return mad_u64_u32_512(dlo, dhi, a, b, clo, chi);
  if (emu_avx2) return mad_u64_u32_256(dlo, dhi, a, b, clo, chi);
  uint32_t rl[EMU_LANES], rh[EMU_LANES];
  uint64_t co = 0;
  for (int l = 0; l < EMU_LANES; l++) {
    const uint64_t p = (uint64_t)a[l] * b[l], sum = p + ((uint64_t)chi[l] << 32 | clo[l]);
    rl[l] = (uint32_t)sum, rh[l] = (uint32_t)(sum >> 32), co |= (uint64_t)(sum < p) << l;
  }
  memcpy(dlo, rl, sizeof rl); /* after every source lane is read */
  memcpy(dhi, rh, sizeof rh);
  return co;
}

/* ---- 64-bit lane values back into their two VGPR halves: lo[l] = d[l], hi[l] = d[l] >> 32 (the
 * inverse of emu_addr64 with off 0: 64-bit operands' writes, emu/operand.c emu_dst64) ----------- */
T512 static void split_512(uint32_t *lo, uint32_t *hi, const uint64_t *d)
{
  for (int c = 0; c < 4; c++) {
    __m512i x0 = _mm512_loadu_si512(d + 16 * c), x1 = _mm512_loadu_si512(d + 16 * c + 8);
    _mm512_storeu_si512(lo + 16 * c, dwords_even(x0, x1));
    _mm512_storeu_si512(hi + 16 * c, dwords_odd(x0, x1));
  }
}

T256 static void split_256(uint32_t *lo, uint32_t *hi, const uint64_t *d)
{
  const __m256i p = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  for (int c = 0; c < 8; c++) { /* lanes 8c..8c+7: [lo hi] pairs to four lows then four highs, twice */
    __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(d + 8 * c)), p);
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(d + 8 * c + 4)), p);
    _mm256_storeu_si256((__m256i *)(void *)(lo + 8 * c), _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256((__m256i *)(void *)(hi + 8 * c), _mm256_permute2x128_si256(a, b, 0x31));
  }
}

void emu_split64(uint32_t *lo, uint32_t *hi, const uint64_t *d)
{
  if (emu_avx512) {
    split_512(lo, hi, d);
    return;
  }
  if (emu_avx2) {
    split_256(lo, hi, d);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) lo[l] = (uint32_t)d[l], hi[l] = (uint32_t)(d[l] >> 32);
}

/* ---- f64 add, mul and fma of whole registers (emu/op_valu.c f64_fast) ------------------------
 * 16 lanes at a time: each source's halves loaded whole and interleaved (or its uniform value
 * broadcast), abs/neg applied to the bits, the operation, the result split back and stored whole
 * when the chunk's lanes are all on (a masked store's data cannot be forwarded to the next
 * instruction's loads of the register: they wait for it to retire), else under the chunk's EXEC
 * bits. The operand order is pinned in inline assembly so that the compiler cannot commute it: it
 * decides which NaN comes out (docs/emulator-choices.md): vaddpd/vmulpd with S0 the first source,
 * vfmadd132pd with S1 in the destination, S2 the second operand and S0 the third. */
T512 static inline __attribute__((always_inline)) __m512d f64_load(const emu_f64src *s, int c, int half)
{
  __m512i x;
  if (s->lo) {
    const __m512i l = _mm512_loadu_si512(s->lo + 16 * c), h = _mm512_loadu_si512(s->hi + 16 * c);
    x = half ? pairs_hi8(l, h) : pairs_lo8(l, h);
  } else {
    x = _mm512_set1_epi64((long long)s->u);
  }
  if (s->andm != ~0ull || s->xorm)
    x = _mm512_xor_si512(_mm512_and_si512(x, _mm512_set1_epi64((long long)s->andm)), _mm512_set1_epi64((long long)s->xorm));
  return _mm512_castsi512_pd(x);
}
T512 static inline __attribute__((always_inline)) __m512d f64_op(int op, const emu_f64src *s, int c, int h)
{
  __m512d a = f64_load(&s[0], c, h), b = f64_load(&s[1], c, h), r;
  if (op == EMU_F64_ADD) {
    __asm__("vaddpd %2, %1, %0" : "=v"(r) : "v"(a), "v"(b));
  } else if (op == EMU_F64_MUL) {
    __asm__("vmulpd %2, %1, %0" : "=v"(r) : "v"(a), "v"(b));
  } else {
    __m512d cc = f64_load(&s[2], c, h);
    __asm__("vfmadd132pd %2, %1, %0" : "+v"(b) : "v"(cc), "v"(a));
    r = b;
  }
  return r;
}
T512 static inline __attribute__((always_inline)) void f64_arith_512(const int op, const emu_f64src *s, uint32_t *dlo,
                                                                    uint32_t *dhi, uint64_t e)
{
  for (int c = 0; c < 4; c++) {
    const __mmask16 k = (__mmask16)(e >> (16 * c));
    if (!k) continue;
    const __m512i x0 = _mm512_castpd_si512(f64_op(op, s, c, 0)), x1 = _mm512_castpd_si512(f64_op(op, s, c, 1));
    const __m512i lo = dwords_even(x0, x1), hi = dwords_odd(x0, x1);
    if (k == 0xffff) {
      _mm512_storeu_si512(dlo + 16 * c, lo);
      _mm512_storeu_si512(dhi + 16 * c, hi);
    } else {
      _mm512_mask_storeu_epi32(dlo + 16 * c, k, lo);
      _mm512_mask_storeu_epi32(dhi + 16 * c, k, hi);
    }
  }
}
T512 static void f64_arith_512_any(int op, const emu_f64src *s, uint32_t *dlo, uint32_t *dhi, uint64_t e)
{
  if (op == EMU_F64_ADD) f64_arith_512(EMU_F64_ADD, s, dlo, dhi, e);
  else if (op == EMU_F64_MUL) f64_arith_512(EMU_F64_MUL, s, dlo, dhi, e);
  else f64_arith_512(EMU_F64_FMA, s, dlo, dhi, e);
}
bool emu_f64_arith64(int op, const emu_f64src *s, uint32_t *dlo, uint32_t *dhi, uint64_t e)
{
  if (!emu_avx512) return false;
  f64_arith_512_any(op, s, dlo, dhi, e);
  return true;
}

T512 static uint64_t outside_512(const uint64_t *a, uint64_t base, uint64_t lim)
{
  __m512i vb = _mm512_set1_epi64((long long)base), vl = _mm512_set1_epi64((long long)lim);
  uint64_t r = 0;
  for (int c = 0; c < 8; c++)
    r |= (uint64_t)_mm512_cmpgt_epu64_mask(_mm512_sub_epi64(_mm512_loadu_si512(a + 8 * c), vb), vl) << (8 * c);
  return r;
}

T256 static uint64_t outside_256(const uint64_t *a, uint64_t base, uint64_t lim)
{
  /* unsigned x > lim as signed (x ^ 2^63) > (lim ^ 2^63): AVX2 compares signed only */
  __m256i sg = _mm256_set1_epi64x((long long)(1ull << 63)), vb = _mm256_set1_epi64x((long long)base);
  __m256i vl = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sg);
  uint64_t r = 0;
  for (int c = 0; c < 16; c++) {
    __m256i x = _mm256_xor_si256(_mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(a + 4 * c)), vb), sg);
    r |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(x, vl))) << (4 * c);
  }
  return r;
}

uint64_t emu_outside64(const uint64_t *a, uint64_t base, uint64_t lim)
{
  if (emu_avx512) return outside_512(a, base, lim);
  if (emu_avx2) return outside_256(a, base, lim);
  uint64_t r = 0;
  for (int l = 0; l < EMU_LANES; l++) r |= (uint64_t)(a[l] - base > lim) << l;
  return r;
}

/* lanes 8c .. 8c+7 of emu_addr_outside64: their addresses to d (and *a0, *a1: lanes 0-3, 4-7 of the
 * chunk), their out-of-range bits as the result's low byte; vl is lim with the sign bit flipped (sg) */
T256 static inline __attribute__((always_inline)) unsigned addr_chunk_256(uint64_t *d, const uint32_t *lo, const uint32_t *hi, int c,
                                                                   __m256i vo, __m256i vb, __m256i vl, __m256i sg,
                                                                   __m256i *a0, __m256i *a1)
{
  __m256i l8 = _mm256_loadu_si256((const __m256i *)(const void *)(lo + 8 * c));
  __m256i h8 = _mm256_loadu_si256((const __m256i *)(const void *)(hi + 8 * c));
  __m256i q0 = _mm256_unpacklo_epi32(l8, h8), q1 = _mm256_unpackhi_epi32(l8, h8); /* lanes 0 1 | 4 5, 2 3 | 6 7 */
  *a0 = _mm256_add_epi64(_mm256_permute2x128_si256(q0, q1, 0x20), vo); /* lanes 0-3 */
  *a1 = _mm256_add_epi64(_mm256_permute2x128_si256(q0, q1, 0x31), vo); /* lanes 4-7 */
  _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), *a0);
  _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c + 4), *a1);
  __m256i x0 = _mm256_xor_si256(_mm256_sub_epi64(*a0, vb), sg), x1 = _mm256_xor_si256(_mm256_sub_epi64(*a1, vb), sg);
  return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(x0, vl))) |
         (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(x1, vl))) << 4;
}

/* emu_addr64 and emu_outside64 in one pass (a global load's addresses and its buffer check,
 * emu/op_mem.c): d[l] = (lo[l] | hi[l] << 32) + off; bit l of the result when d[l] - base > lim
 * (unsigned). AVX2: eight lanes' dwords paired by unpacks into two four-lane address vectors. */
T256 static uint64_t addr_outside_256(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off, uint64_t base,
                                      uint64_t lim)
{
  const __m256i vo = _mm256_set1_epi64x((long long)off), sg = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vb = _mm256_set1_epi64x((long long)base), vl = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sg);
  uint64_t r = 0;
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i a0, a1;
    r |= (uint64_t)addr_chunk_256(d, lo, hi, c, vo, vb, vl, sg, &a0, &a1) << (8 * c);
  }
  return r;
}

uint64_t emu_addr_outside64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off, uint64_t base, uint64_t lim)
{
  if (emu_avx2 && !emu_avx512) return addr_outside_256(d, lo, hi, off, base, lim);
  emu_addr64(d, lo, hi, off);
  return emu_outside64(d, base, lim);
}

/* emu_addr_outside64 and emu_newline64 (d, step) in one pass: *nl gets the lanes whose 64-byte line
 * (d[l] + step) >> 6 differs from lane l - 1's (bit 0 set), the stride prefetch's lanes (emu/op_mem.c).
 * AVX2: each four-lane vector's lines against themselves moved up one lane, the lane below the
 * vector's first carried in from the vector before. */
T256 static uint64_t addr_outside_nl_256(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off,
                                         uint64_t base, uint64_t lim, uint64_t step, uint64_t *nl)
{
  const __m256i vo = _mm256_set1_epi64x((long long)off), sg = _mm256_set1_epi64x((long long)(1ull << 63));
  const __m256i vb = _mm256_set1_epi64x((long long)base), vl = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sg);
  const __m256i vs = _mm256_set1_epi64x((long long)step);
  uint64_t r = 0, same = 0;
  __m256i carry = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i a0, a1;
    r |= (uint64_t)addr_chunk_256(d, lo, hi, c, vo, vb, vl, sg, &a0, &a1) << (8 * c);
    __m256i c0 = _mm256_srli_epi64(_mm256_add_epi64(a0, vs), 6), c1 = _mm256_srli_epi64(_mm256_add_epi64(a1, vs), 6);
    if (c == 0) carry = _mm256_permute4x64_epi64(c0, 0x00); /* lane 0 against itself: bit 0 is set below */
    __m256i p0 = _mm256_blend_epi32(_mm256_permute4x64_epi64(c0, 0x90), carry, 0x03); /* lanes -1 0 1 2 */
    __m256i p1 = _mm256_blend_epi32(_mm256_permute4x64_epi64(c1, 0x90), _mm256_permute4x64_epi64(c0, 0xff), 0x03);
    carry = _mm256_permute4x64_epi64(c1, 0xff);
    unsigned e = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(c0, p0))) |
                 (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(c1, p1))) << 4;
    same |= (uint64_t)e << (8 * c);
  }
  *nl = ~same | 1;
  return r;
}

uint64_t emu_addr_outside_nl64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off, uint64_t base,
                               uint64_t lim, uint64_t step, uint64_t *nl)
{
  if (emu_avx2 && !emu_avx512) return addr_outside_nl_256(d, lo, hi, off, base, lim, step, nl);
  uint64_t r = emu_addr_outside64(d, lo, hi, off, base, lim);
  *nl = emu_newline64(d, step);
  return r;
}

/* Two 8-byte reads into one 128-bit vector, p's bytes low, q's high (a movq and a movhpd) */
T256 static inline __m128i ld8x2_128(const void *p, const void *q)
{
  return _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)p)), (const double *)q));
}

/* Eight lanes' 8-byte reads (lane i's bytes at p[i]) straight into registers, split: the low dwords
 * in lane order into *lo, the high into *hi. The reads go in as g0 = lanes 0 1 | 4 5, g1 = 2 3 | 6 7,
 * so that one in-lane shuffle each takes the dwords apart in lane order. It replaced scalar loads
 * into a copy that shuffles then took apart (64 stores and their reloads): lds_read8_256 36.6 -> 30.8 ns
 * a wave on the seed's ds_read_b64 addresses (/tmp microbenchmark, docs/performance.md, ninth stop). */
T256 static inline void rd8x8_256(const void *p0, const void *p1, const void *p2, const void *p3, const void *p4,
                                  const void *p5, const void *p6, const void *p7, __m256i *lo, __m256i *hi)
{
  __m256 g0 = _mm256_castsi256_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(ld8x2_128(p0, p1)), ld8x2_128(p4, p5), 1));
  __m256 g1 = _mm256_castsi256_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(ld8x2_128(p2, p3)), ld8x2_128(p6, p7), 1));
  *lo = _mm256_castps_si256(_mm256_shuffle_ps(g0, g1, 0x88));
  *hi = _mm256_castps_si256(_mm256_shuffle_ps(g0, g1, 0xdd));
}

/* A whole wave's global dword / dwordx2 load, every lane's bytes known in one buffer: lane l reads
 * the host bytes at h + a[l] (h: the buffer's host address minus its device base, integer
 * arithmetic). d1 NULL: 4 bytes into d0; else 8, the low dword into d0 and the high into d1. Scalar
 * loads (see bperm_256 on gathers): 4 bytes straight into d0 in lane order, 8 bytes by rd8x8_256,
 * all in registers before the first store. */
T256 static void gload_256(uint32_t *d0, uint32_t *d1, uintptr_t h, const uint64_t *a)
{
  if (!d1) {
#pragma GCC unroll 16
    for (int l = 0; l < EMU_LANES; l++) memcpy(&d0[l], (const void *)(h + a[l]), 4);
    return;
  }
  __m256i r0[8], r1[8];
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    const uint64_t *q = a + 8 * c;
    rd8x8_256((const void *)(h + q[0]), (const void *)(h + q[1]), (const void *)(h + q[2]), (const void *)(h + q[3]),
              (const void *)(h + q[4]), (const void *)(h + q[5]), (const void *)(h + q[6]), (const void *)(h + q[7]),
              &r0[c], &r1[c]);
  }
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    _mm256_storeu_si256((__m256i *)(void *)(d0 + 8 * c), r0[c]);
    _mm256_storeu_si256((__m256i *)(void *)(d1 + 8 * c), r1[c]);
  }
}
/* The dwordx2 load on AVX-512 (issue #31, nineteenth stop): sixteen lanes whose addresses run on by
 * 8 from the first (a row of 128 bytes: 89% of the seed kernels' global_load_dwordx2 chunks, a /tmp
 * count at seq 256 on both arches) are two 64-byte loads whose dwords a permute each takes apart,
 * the low ones to d0 and the high ones to d1; any other chunk is rd8x8_256's scalar loads, eight
 * lanes at a time. Exactly the lanes' bytes are read. All chunks are in registers before the first
 * store. The dword load stays gload_256's. */
T512 static void gload2_512(uint32_t *d0, uint32_t *d1, uintptr_t h, const uint64_t *a)
{
  const __m512i step = _mm512_setr_epi64(0, 8, 16, 24, 32, 40, 48, 56), s64 = _mm512_set1_epi64(64);
  __m512i r0[4], r1[4];
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) {
    const uint64_t *q = a + 16 * c;
    const __m512i row = _mm512_add_epi64(_mm512_set1_epi64((long long)q[0]), step);
    if (_mm512_cmpeq_epi64_mask(_mm512_loadu_si512(q), row) == 0xff &&
        _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(q + 8), _mm512_add_epi64(row, s64)) == 0xff) {
      const __m512i lo = _mm512_loadu_si512((const void *)(h + q[0])), hi = _mm512_loadu_si512((const void *)(h + q[0] + 64));
      r0[c] = dwords_even(lo, hi), r1[c] = dwords_odd(lo, hi);
      continue;
    }
    __m256i l0, h0, l1, h1;
    rd8x8_256((const void *)(h + q[0]), (const void *)(h + q[1]), (const void *)(h + q[2]), (const void *)(h + q[3]),
              (const void *)(h + q[4]), (const void *)(h + q[5]), (const void *)(h + q[6]), (const void *)(h + q[7]), &l0, &h0);
    rd8x8_256((const void *)(h + q[8]), (const void *)(h + q[9]), (const void *)(h + q[10]), (const void *)(h + q[11]),
              (const void *)(h + q[12]), (const void *)(h + q[13]), (const void *)(h + q[14]), (const void *)(h + q[15]), &l1, &h1);
    r0[c] = _mm512_inserti64x4(_mm512_castsi256_si512(l0), l1, 1), r1[c] = _mm512_inserti64x4(_mm512_castsi256_si512(h0), h1, 1);
  }
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) _mm512_storeu_si512(d0 + 16 * c, r0[c]), _mm512_storeu_si512(d1 + 16 * c, r1[c]);
}

void emu_gload64(uint32_t *d0, uint32_t *d1, uintptr_t h, const uint64_t *a)
{
  if (emu_avx512 && d1) {
    gload2_512(d0, d1, h, a);
    return;
  }
  if (emu_avx2) {
    gload_256(d0, d1, h, a);
    return;
  }
  if (!d1) {
    for (int l = 0; l < EMU_LANES; l++) memcpy(&d0[l], (const void *)(h + a[l]), 4);
    return;
  }
  uint64_t x;
  for (int l = 0; l < EMU_LANES; l++) memcpy(&x, (const void *)(h + a[l]), 8), d0[l] = (uint32_t)x, d1[l] = (uint32_t)(x >> 32);
}

/* bit l: lane l's 64-byte line (a[l] + step) >> 6 differs from lane l - 1's (bit 0 always): the
 * lanes a stride prefetch (emu/op_mem.c) touches, in lane order */
T256 static uint64_t newline_256(const uint64_t *a, uint64_t step)
{
  const __m256i vs = _mm256_set1_epi64x((long long)step);
  uint64_t same = 0;
#pragma GCC unroll 4
  for (int c = 0; c < 16; c++) {
    __m256i cur = _mm256_srli_epi64(_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(a + 4 * c)), vs), 6);
    /* lane l - 1's addresses (lane -1 of the first block: lane 0's, then bit 0 is cleared below) */
    __m256i prv = c ? _mm256_loadu_si256((const __m256i *)(const void *)(a + 4 * c - 1))
                    : _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(const void *)a), 0x90);
    prv = _mm256_srli_epi64(_mm256_add_epi64(prv, vs), 6);
    same |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(cur, prv))) << (4 * c);
  }
  return ~same | 1;
}
/* the same on AVX-512, eight lanes a vector (issue #31, nineteenth stop) */
T512 static uint64_t newline_512(const uint64_t *a, uint64_t step)
{
  const __m512i vs = _mm512_set1_epi64((long long)step);
  uint64_t same = 0;
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    const __m512i cur = _mm512_srli_epi64(_mm512_add_epi64(_mm512_loadu_si512(a + 8 * c), vs), 6);
    /* lane l - 1's addresses (lane -1 of the first block: lane 0's, then bit 0 is set below) */
    __m512i prv = c ? _mm512_loadu_si512(a + 8 * c - 1)
                    : _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 0, 1, 2, 3, 4, 5, 6), _mm512_loadu_si512(a));
    prv = _mm512_srli_epi64(_mm512_add_epi64(prv, vs), 6);
    same |= (uint64_t)_mm512_cmpeq_epi64_mask(cur, prv) << (8 * c);
  }
  return ~same | 1;
}
uint64_t emu_newline64(const uint64_t *a, uint64_t step)
{
  if (emu_avx512) return newline_512(a, step);
  if (emu_avx2) return newline_256(a, step);
  uint64_t r = 1;
  for (int l = 1; l < EMU_LANES; l++) r |= (uint64_t)((a[l] + step) >> 6 != (a[l - 1] + step) >> 6) << l;
  return r;
}

/* 8-byte stores of a vector's low or high half at any alignment (_mm_storel_pd / _mm_storeh_pd
 * store through a double *, which UBSan rightly calls misaligned at a lane's 4-byte address) */
static inline void st8_lo(void *p, __m128d v) { _mm_storel_epi64((__m128i_u *)p, _mm_castpd_si128(v)); }
static inline void st8_hi(void *p, __m128d v) { _mm_storel_epi64((__m128i_u *)p, _mm_castpd_si128(_mm_unpackhi_pd(v, v))); }

/* A whole wave's global dwordx2 / dwordx4 store, every lane's bytes known in one buffer: lane after
 * lane (the order decides which lane's bytes stay where addresses overlap), lane l's dword k from
 * s[k][l] at host address h + a[l] + 4k. AVX2: four lanes' dwords transposed by unpacks, one 8- or
 * 16-byte store per lane (a lane's dwords are distinct bytes, so one store is its k stores). */
T256 static void gstore_256(uintptr_t h, const uint64_t *a, const uint32_t *const *s, uint32_t nw)
{
  for (int c = 0; c < 16; c++) {
    __m128i x0 = _mm_loadu_si128((const __m128i *)(const void *)(s[0] + 4 * c));
    __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(s[1] + 4 * c));
    __m128i t0 = _mm_unpacklo_epi32(x0, x1), t1 = _mm_unpackhi_epi32(x0, x1); /* lanes 0 1 | 2 3: dwords 0 1 */
    const uint64_t *ad = a + 4 * c;
    if (nw == 2) {
      st8_lo((void *)(h + ad[0]), _mm_castsi128_pd(t0));
      st8_hi((void *)(h + ad[1]), _mm_castsi128_pd(t0));
      st8_lo((void *)(h + ad[2]), _mm_castsi128_pd(t1));
      st8_hi((void *)(h + ad[3]), _mm_castsi128_pd(t1));
      continue;
    }
    __m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(s[2] + 4 * c));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(s[3] + 4 * c));
    __m128i u0 = _mm_unpacklo_epi32(x2, x3), u1 = _mm_unpackhi_epi32(x2, x3); /* dwords 2 3 */
    _mm_storeu_si128((__m128i *)(void *)(h + ad[0]), _mm_unpacklo_epi64(t0, u0));
    _mm_storeu_si128((__m128i *)(void *)(h + ad[1]), _mm_unpackhi_epi64(t0, u0));
    _mm_storeu_si128((__m128i *)(void *)(h + ad[2]), _mm_unpacklo_epi64(t1, u1));
    _mm_storeu_si128((__m128i *)(void *)(h + ad[3]), _mm_unpackhi_epi64(t1, u1));
  }
}
/* AVX-512, a wave whose lanes' bytes follow one another (a[l] = a[0] + 4 nw l: a coalesced store,
 * no two lanes' bytes overlap, so the lane order decides nothing): the dwords interleaved by
 * vpermt2d (nw 2; nw 4 as two pairs) and stored 64 bytes at a time. false: not contiguous. */
T512 static bool gstore_seq_512(uintptr_t h, const uint64_t *a, const uint32_t *const *s, uint32_t nw)
{
  const __m512i step = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  const __m512i a0 = _mm512_set1_epi64((long long)a[0]), sz = _mm512_set1_epi64((long long)(4 * nw));
  __mmask8 ok = 0xff;
  for (int c = 0; c < 8; c++) { /* a[8c + i] == a[0] + 4 nw (8c + i) */
    const __m512i want = _mm512_add_epi64(a0, _mm512_mullo_epi64(_mm512_add_epi64(step, _mm512_set1_epi64(8 * c)), sz));
    ok &= _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(a + 8 * c), want);
  }
  if (ok != 0xff || a[0] > UINT64_MAX - 256 * nw) return false;
  uint8_t *d = (uint8_t *)(h + a[0]);
  if (nw == 1) {
    for (int c = 0; c < 4; c++) _mm512_storeu_si512(d + 64 * c, _mm512_loadu_si512(s[0] + 16 * c));
    return true;
  }
  for (int c = 0; c < 4; c++) {
    const __m512i x0 = _mm512_loadu_si512(s[0] + 16 * c), x1 = _mm512_loadu_si512(s[1] + 16 * c);
    const __m512i p0 = pairs_lo8(x0, x1), p1 = pairs_hi8(x0, x1);
    if (nw == 2) { /* lanes 16c..16c+7, then 16c+8..16c+15: (dword 0, dword 1) each */
      _mm512_storeu_si512(d + 128 * c, p0);
      _mm512_storeu_si512(d + 128 * c + 64, p1);
      continue;
    }
    const __m512i x2 = _mm512_loadu_si512(s[2] + 16 * c), x3 = _mm512_loadu_si512(s[3] + 16 * c);
    const __m512i q0 = pairs_lo8(x2, x3), q1 = pairs_hi8(x2, x3);
    /* lane i's 16 bytes: its (0, 1) pair from p, its (2, 3) pair from q, as 64-bit items */
    const __m512i ja = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), jb = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
    _mm512_storeu_si512(d + 256 * c, _mm512_permutex2var_epi64(p0, ja, q0));
    _mm512_storeu_si512(d + 256 * c + 64, _mm512_permutex2var_epi64(p0, jb, q0));
    _mm512_storeu_si512(d + 256 * c + 128, _mm512_permutex2var_epi64(p1, ja, q1));
    _mm512_storeu_si512(d + 256 * c + 192, _mm512_permutex2var_epi64(p1, jb, q1));
  }
  return true;
}

void emu_gstore64(uintptr_t h, const uint64_t *a, const uint32_t *const *s, uint32_t nw)
{
  if (emu_avx512 && (nw == 1 || nw == 2 || nw == 4) && gstore_seq_512(h, a, s, nw)) return;
  if (emu_avx2 && (nw == 2 || nw == 4)) {
    gstore_256(h, a, s, nw);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++)
    for (uint32_t k = 0; k < nw; k++) memcpy((void *)(h + a[l] + 4 * k), &s[k][l], 4);
}

/* ---- unsigned min and max of 64 lanes (the LDS ordering check's granule range) -------------- */
T512 static void minmax_512(const uint32_t *a, uint32_t *mn, uint32_t *mx)
{
  __m512i lo = _mm512_loadu_si512(a), hi = lo;
  for (int c = 1; c < 4; c++) {
    __m512i v = _mm512_loadu_si512(a + 16 * c);
    lo = _mm512_min_epu32(lo, v), hi = _mm512_max_epu32(hi, v);
  }
  *mn = _mm512_reduce_min_epu32(lo), *mx = _mm512_reduce_max_epu32(hi);
}

T256 static void minmax_256(const uint32_t *a, uint32_t *mn, uint32_t *mx)
{
  __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)a), hi = lo;
  for (int c = 1; c < 8; c++) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c));
    lo = _mm256_min_epu32(lo, v), hi = _mm256_max_epu32(hi, v);
  }
  uint32_t l[8], h[8];
  _mm256_storeu_si256((__m256i *)(void *)l, lo), _mm256_storeu_si256((__m256i *)(void *)h, hi);
  uint32_t m0 = l[0], m1 = h[0];
  for (int i = 1; i < 8; i++) m0 = l[i] < m0 ? l[i] : m0, m1 = h[i] > m1 ? h[i] : m1;
  *mn = m0, *mx = m1;
}

void emu_minmax64(const uint32_t *a, uint32_t *mn, uint32_t *mx)
{
  if (emu_avx512) {
    minmax_512(a, mn, mx);
    return;
  }
  if (emu_avx2) {
    minmax_256(a, mn, mx);
    return;
  }
  uint32_t m0 = UINT32_MAX, m1 = 0;
  for (int l = 0; l < EMU_LANES; l++) m0 = a[l] < m0 ? a[l] : m0, m1 = a[l] > m1 ? a[l] : m1;
  *mn = m0, *mx = m1;
}

/* d[l] = a[l] + off (32-bit arithmetic) and the unsigned min and max of d: a DS access's addresses
 * and their span for the LDS ordering check (emu/observe.c) in one pass instead of a copy loop and
 * emu_minmax64. AVX2: the minima and maxima of eight lanes folded by shuffles at the end. */
T256 static void add_minmax_256(uint32_t *d, const uint32_t *a, uint32_t off, uint32_t *mn, uint32_t *mx)
{
  const __m256i vo = _mm256_set1_epi32((int)off);
  __m256i lo = _mm256_set1_epi32(-1), hi = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i v = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)), vo);
    _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), v);
    lo = _mm256_min_epu32(lo, v), hi = _mm256_max_epu32(hi, v);
  }
  __m128i l = _mm_min_epu32(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
  __m128i h = _mm_max_epu32(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
  l = _mm_min_epu32(l, _mm_shuffle_epi32(l, 0x4e)), h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0x4e));
  l = _mm_min_epu32(l, _mm_shuffle_epi32(l, 0xb1)), h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0xb1));
  *mn = (uint32_t)_mm_cvtsi128_si32(l), *mx = (uint32_t)_mm_cvtsi128_si32(h);
}

/* the same on AVX-512, sixteen lanes a vector, the folds by the reductions (issue #31, nineteenth stop) */
T512 static void add_minmax_512(uint32_t *d, const uint32_t *a, uint32_t off, uint32_t *mn, uint32_t *mx)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  __m512i lo = _mm512_set1_epi32(-1), hi = _mm512_setzero_si512();
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) {
    const __m512i v = _mm512_add_epi32(_mm512_loadu_si512(a + 16 * c), vo);
    _mm512_storeu_si512(d + 16 * c, v);
    lo = _mm512_min_epu32(lo, v), hi = _mm512_max_epu32(hi, v);
  }
  *mn = _mm512_reduce_min_epu32(lo), *mx = _mm512_reduce_max_epu32(hi);
}

void emu_add_minmax64(uint32_t *d, const uint32_t *a, uint32_t off, uint32_t *mn, uint32_t *mx)
{
  if (emu_avx512) {
    add_minmax_512(d, a, off, mn, mx);
    return;
  }
  if (emu_avx2) {
    add_minmax_256(d, a, off, mn, mx);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) d[l] = a[l] + off;
  emu_minmax64(d, mn, mx);
}

/* every (uint32_t)(a[l] + off) <= last (32-bit sums, unsigned): emu/op_ds.c's quick range test of
 * a DS access (lds_bad_lane). AVX2: the sums' unsigned maximum per vector lane, then one test of
 * max(m, last) == last; an add and a vpmaxud per 8 lanes where the sign-flipped signed compare took
 * an add, an xor, a compare and an or (/tmp microbenchmark 9.5 -> 6.1 ns a call, docs/performance.md,
 * ninth stop). */
T256 static bool lds_in_256(const uint32_t *a, uint32_t off, uint32_t last)
{
  const __m256i vo = _mm256_set1_epi32((int)off), vt = _mm256_set1_epi32((int)last);
  __m256i m = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)a), vo);
#pragma GCC unroll 7
  for (int c = 1; c < 8; c++)
    m = _mm256_max_epu32(m, _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)), vo));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(m, vt), vt)) == -1;
}

/* the same on AVX-512: the unsigned maximum of 16 sums per vector, one compare into a mask (issue
 * #31, nineteenth stop: bench_valu_ds's two DS records a loop iteration each call it) */
T512 static bool lds_in_512(const uint32_t *a, uint32_t off, uint32_t last)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  __m512i m = _mm512_add_epi32(_mm512_loadu_si512(a), vo);
#pragma GCC unroll 3
  for (int c = 1; c < 4; c++) m = _mm512_max_epu32(m, _mm512_add_epi32(_mm512_loadu_si512(a + 16 * c), vo));
  return _mm512_cmpgt_epu32_mask(m, _mm512_set1_epi32((int)last)) == 0;
}

bool emu_lds_in64(const uint32_t *a, uint32_t off, uint32_t last)
{
  if (emu_avx512) return lds_in_512(a, off, last);
  if (emu_avx2) return lds_in_256(a, off, last);
  uint32_t any = 0;
  for (int l = 0; l < EMU_LANES; l++) any |= (uint32_t)(a[l] + off) > last;
  return !any;
}

/* ---- LDS reads of a whole wave (emu/op_xlane.c's transposing reads) --------------------------------
 * emu_lds_ok64: every lane's address a[l] + off (exact) is a multiple of align (a power of two) and
 * its bytes end at or below lim; in 32 bits: a[l] + off + bytes <= lim is a[l] <= lim - off - bytes,
 * and the low bits of a sum do not depend on its carry out. */
T256 static bool lds_ok_256(const uint32_t *a, uint32_t off, uint32_t align, uint32_t t)
{
  /* the sums' low bits ORed and the addresses' unsigned maximum (vpmaxud), both tested once at the
   * end (as lds_in_256) */
  const __m256i vo = _mm256_set1_epi32((int)off), am = _mm256_set1_epi32((int)(align - 1)), vt = _mm256_set1_epi32((int)t);
  __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)a), lo = _mm256_add_epi32(x, vo), m = x;
#pragma GCC unroll 7
  for (int c = 1; c < 8; c++) {
    x = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c));
    lo = _mm256_or_si256(lo, _mm256_add_epi32(x, vo));
    m = _mm256_max_epu32(m, x);
  }
  return _mm256_testz_si256(lo, am) && _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(m, vt), vt)) == -1;
}

/* the same on AVX-512 (issue #31, nineteenth stop: the gfx950 seed's transposing reads test every
 * wave's addresses) */
T512 static bool lds_ok_512(const uint32_t *a, uint32_t off, uint32_t align, uint32_t t)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  __m512i x = _mm512_loadu_si512(a), lo = _mm512_add_epi32(x, vo), m = x;
#pragma GCC unroll 3
  for (int c = 1; c < 4; c++) {
    x = _mm512_loadu_si512(a + 16 * c);
    lo = _mm512_or_si512(lo, _mm512_add_epi32(x, vo));
    m = _mm512_max_epu32(m, x);
  }
  return _mm512_test_epi32_mask(lo, _mm512_set1_epi32((int)(align - 1))) == 0 &&
         _mm512_cmpgt_epu32_mask(m, _mm512_set1_epi32((int)t)) == 0;
}

bool emu_lds_ok64(const uint32_t *a, uint32_t off, uint32_t align, uint32_t bytes, uint64_t lim)
{
  if ((uint64_t)off + bytes > lim) return false;
  uint64_t t = lim - off - bytes;
  if (t > UINT32_MAX) t = UINT32_MAX; /* every 32-bit address is below it */
  if (emu_avx512) return lds_ok_512(a, off, align, (uint32_t)t);
  if (emu_avx2) return lds_ok_256(a, off, align, (uint32_t)t);
  for (int l = 0; l < EMU_LANES; l++)
    if (((a[l] + off) & (align - 1)) || a[l] > t) return false;
  return true;
}

/* ds_read_b64_tr_b16's result (emu/op_xlane.c tr_read) with every lane's 8 bytes at lds + a[l]:
 * h[4j + i] is 16-bit element i of lane j's bytes; lane 16g+m of register r (d0, d1) takes
 * h[64g + 32r + m] | h[64g + 32r + 16 + m] << 16. AVX2: h's 16-word runs (four lanes' 8 bytes) by
 * scalar loads straight into registers (ld8x2_128; see bperm_256 on gathers; before, into a copy of
 * h then reloaded), then per 16 lanes two runs interleaved (unpack, then the two 128-bit halves put
 * in lane order). All reads happen before any write, so d0/d1 may be a's register. */
T256 static void tr16_256(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a)
{
  __m256i o[16];
#pragma GCC unroll 2
  for (int r = 0; r < 2; r++)
#pragma GCC unroll 4
    for (int g = 0; g < 4; g++) {
      const uint32_t *q = a + 16 * g + 8 * r; /* lo: h + 64g + 32r, lanes q[0..3]; hi: the next four */
      __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(ld8x2_128(lds + q[0], lds + q[1])), ld8x2_128(lds + q[2], lds + q[3]), 1);
      __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(ld8x2_128(lds + q[4], lds + q[5])), ld8x2_128(lds + q[6], lds + q[7]), 1);
      __m256i u0 = _mm256_unpacklo_epi16(lo, hi), u1 = _mm256_unpackhi_epi16(lo, hi); /* m 0-3, 8-11 | 4-7, 12-15 */
      o[8 * r + 2 * g] = _mm256_permute2x128_si256(u0, u1, 0x20);
      o[8 * r + 2 * g + 1] = _mm256_permute2x128_si256(u0, u1, 0x31);
    }
#pragma GCC unroll 8
  for (int k = 0; k < 8; k++) {
    _mm256_storeu_si256((__m256i *)(void *)(d0 + 8 * k), o[k]);
    _mm256_storeu_si256((__m256i *)(void *)(d1 + 8 * k), o[8 + k]);
  }
}

/* The same on AVX-512 (issue #31, twentieth stop): a group of four lanes (4j..4j+3) whose 8-byte
 * reads all lie in one aligned 32-byte block (every group of the gfx950 seed's V reads: the
 * fragment's four lanes read one row's 32 bytes, swizzled) is one 32-byte load, and a qword permute
 * by address bits 4:3 puts the lanes' bytes in lane order; a 16-lane chunk with any other group,
 * or with a block that would reach past the LDS's last byte (lim), takes the lanes' 8-byte loads
 * (ld8x2_128). Then, per chunk g, register r's 16 dwords are words m and 16 + m (m = 0..15) of the
 * 64 bytes of lanes 16g+8r..+7: one vpermw each. The caller checked every lane aligned and in range;
 * all reads happen before any write, so d0 or d1 may be a's register. 14.4 -> 10.0 ns a wave on the
 * seed's addresses (/tmp microbenchmark, docs/performance.md twentieth stop). */
T512 static void tr16_512(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off, uint32_t lim)
{
  static const uint16_t wi[32] __attribute__((aligned(64))) = {0, 16, 1, 17, 2,  18, 3,  19, 4,  20, 5,  21, 6,  22, 7,  23,
                                                               8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512i wix = _mm512_load_si512(wi), vo = _mm512_set1_epi32((int)off), m32 = _mm512_set1_epi32(~31);
  const __m512i hi4 = _mm512_setr_epi64(0, 0, 0, 0, 4, 4, 4, 4), q3 = _mm512_set1_epi64(3);
  const __m512i top = _mm512_set1_epi32((int)(lim - 32)); /* a block's first byte at most lim - 32 */
  __m512i r0[4], r1[4];
#pragma GCC unroll 4
  for (int g = 0; g < 4; g++) {
    const __m512i x = _mm512_add_epi32(_mm512_loadu_si512(a + 16 * g), vo), blk = _mm512_and_si512(x, m32);
    const __mmask16 bad = _mm512_cmpneq_epi32_mask(blk, _mm512_shuffle_epi32(blk, 0)) | _mm512_cmpgt_epu32_mask(blk, top);
    __m512i h[2];
    if (!bad && lim >= 32) {
      uint32_t b[16];
      _mm512_storeu_si512(b, blk);
#pragma GCC unroll 2
      for (int k = 0; k < 2; k++) {
        const __m512i z = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)(lds + b[8 * k]))),
                                             _mm256_loadu_si256((const __m256i *)(const void *)(lds + b[8 * k + 4])), 1);
        const __m256i xk = k ? _mm512_extracti64x4_epi64(x, 1) : _mm512_castsi512_si256(x);
        const __m512i qi = _mm512_add_epi64(_mm512_and_si512(_mm512_srli_epi64(_mm512_cvtepu32_epi64(xk), 3), q3), hi4);
        h[k] = _mm512_permutexvar_epi64(qi, z);
      }
    } else {
      const uint32_t *q = a + 16 * g;
#pragma GCC unroll 2
      for (int k = 0; k < 2; k++) {
        const uint32_t *p = q + 8 * k;
        __m512i z = _mm512_castsi128_si512(ld8x2_128(lds + (uint32_t)(p[0] + off), lds + (uint32_t)(p[1] + off)));
        z = _mm512_inserti32x4(z, ld8x2_128(lds + (uint32_t)(p[2] + off), lds + (uint32_t)(p[3] + off)), 1);
        z = _mm512_inserti32x4(z, ld8x2_128(lds + (uint32_t)(p[4] + off), lds + (uint32_t)(p[5] + off)), 2);
        h[k] = _mm512_inserti32x4(z, ld8x2_128(lds + (uint32_t)(p[6] + off), lds + (uint32_t)(p[7] + off)), 3);
      }
    }
    r0[g] = _mm512_permutexvar_epi16(wix, h[0]), r1[g] = _mm512_permutexvar_epi16(wix, h[1]);
  }
#pragma GCC unroll 4
  for (int g = 0; g < 4; g++) _mm512_storeu_si512(d0 + 16 * g, r0[g]), _mm512_storeu_si512(d1 + 16 * g, r1[g]);
}

void emu_tr16_64(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off, uint32_t lim)
{
  if (emu_avx512) {
    tr16_512(d0, d1, lds, a, off, lim);
    return;
  }
  lds += off;
  if (emu_avx2) {
    tr16_256(d0, d1, lds, a);
    return;
  }
  uint16_t h[4 * EMU_LANES];
  for (int l = 0; l < EMU_LANES; l++) memcpy(&h[4 * l], lds + a[l], 8);
  for (int r = 0; r < 2; r++) {
    uint32_t *d = r ? d1 : d0;
    for (int g = 0; g < 4; g++)
      for (int m = 0; m < 16; m++)
        d[16 * g + m] = (uint32_t)h[64 * g + 32 * r + m] | (uint32_t)h[64 * g + 32 * r + 16 + m] << 16;
  }
}

/* 8-byte LDS reads of a whole wave (emu/op_ds.c ds_read_b64, ds_read2*_b64): lane l's bytes at
 * lds + (uint32_t)(a[l] + off), the low dword to d0[l], the high to d1[l]. Every address is in range
 * (the caller checked). AVX2: every lane's 8 bytes by rd8x8_256's scalar loads (see bperm_256 on
 * gathers; 97 ns a wave with gathers, 42 by scalar loads into a copy, 31 by rd8x8_256). All reads
 * happen before any write, so d0 or d1 may be a's register. */
T256 static void lds_read8_256(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  __m256i r0[8], r1[8];
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    const uint32_t *q = a + 8 * c;
    rd8x8_256(lds + (uint32_t)(q[0] + off), lds + (uint32_t)(q[1] + off), lds + (uint32_t)(q[2] + off),
              lds + (uint32_t)(q[3] + off), lds + (uint32_t)(q[4] + off), lds + (uint32_t)(q[5] + off),
              lds + (uint32_t)(q[6] + off), lds + (uint32_t)(q[7] + off), &r0[c], &r1[c]);
  }
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    _mm256_storeu_si256((__m256i *)(void *)(d0 + 8 * c), r0[c]);
    _mm256_storeu_si256((__m256i *)(void *)(d1 + 8 * c), r1[c]);
  }
}

/* The same on AVX-512 (issue #31, thirty-first stop): eight lanes' 8 bytes by one vpgatherdq (the
 * lanes' 32-bit addresses plus off, as the scalar path's (uint32_t)(a[l] + off)), two
 * gathers a 16-lane chunk whose dwords a permute each takes apart, the low ones to d0 and the high
 * ones to d1. The seed kernels' reads are swizzled (no two lanes of a chunk on from each other), so
 * there is no contiguous case. 16.3 -> 10.4 ns a wave on gfx942's ds_read_b64 addresses (/tmp
 * microbenchmark, docs/performance.md thirty-first stop). Every read before any write, as above. */
T512 static void lds_read8_512(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  __m512i r0[4], r1[4];
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) {
    const __m512i x = _mm512_add_epi32(_mm512_loadu_si512(a + 16 * c), vo);
    /* vpgatherdq sign-extends its indices: each is an in-range LDS address (the caller checked;
     * an LDS is at most 160 KiB), below 2^31, so the same as zero-extended */
    const __m512i lo = _mm512_i32gather_epi64(_mm512_castsi512_si256(x), (const void *)lds, 1);
    const __m512i hi = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(x, 1), (const void *)lds, 1);
    r0[c] = dwords_even(lo, hi), r1[c] = dwords_odd(lo, hi);
  }
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) _mm512_storeu_si512(d0 + 16 * c, r0[c]), _mm512_storeu_si512(d1 + 16 * c, r1[c]);
}

void emu_lds_read8_64(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  if (emu_avx512) {
    lds_read8_512(d0, d1, lds, a, off);
    return;
  }
  if (emu_avx2) {
    lds_read8_256(d0, d1, lds, a, off);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) {
    uint64_t v;
    memcpy(&v, lds + (uint32_t)(a[l] + off), 8);
    d0[l] = (uint32_t)v, d1[l] = (uint32_t)(v >> 32);
  }
}

/* 4-byte LDS reads of a whole wave (emu/op_ds.c ds_read_b32): d[l] = the dword at
 * lds + (uint32_t)(a[l] + off), every address in range (the caller checked). AVX2 build: eight lanes
 * whose addresses run on by 4 from the first (a row of dwords, as lds_write4_256) are one 32-byte
 * load; any other chunk is eight scalar loads straight into a register (vpinsrd), their addresses
 * taken out of the vector add by extracts (not a gather: see bperm_256). Every chunk stays in a
 * register until all are read, so d may be a's register. It replaced storing the addresses and
 * reloading them as 64 scalars, then loads into a copy memcpy'd to d: both store-to-load forwarding
 * stalls on Zen 1 (docs/performance.md, tenth stop). Portable: lane by lane, each lane's address
 * read before its result is written. */
T256 static inline __m128i rd4x4_128(const uint8_t *lds, __m128i ix)
{
  uint64_t q0 = (uint64_t)_mm_cvtsi128_si64(ix), q1 = (uint64_t)_mm_extract_epi64(ix, 1);
  uint32_t v0, v1, v2, v3;
  memcpy(&v0, lds + (uint32_t)q0, 4), memcpy(&v1, lds + (uint32_t)(q0 >> 32), 4);
  memcpy(&v2, lds + (uint32_t)q1, 4), memcpy(&v3, lds + (uint32_t)(q1 >> 32), 4);
  __m128i r = _mm_cvtsi32_si128((int)v0);
  r = _mm_insert_epi32(r, (int)v1, 1), r = _mm_insert_epi32(r, (int)v2, 2);
  return _mm_insert_epi32(r, (int)v3, 3);
}

T256 static void lds_read4_256(uint32_t *d, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  const __m256i vo = _mm256_set1_epi32((int)off), step = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
  __m256i r[8];
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i ix = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)), vo);
    uint32_t a0 = (uint32_t)_mm256_cvtsi256_si32(ix);
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(ix, _mm256_add_epi32(_mm256_set1_epi32((int)a0), step))) == -1)
      r[c] = _mm256_loadu_si256((const __m256i *)(const void *)(lds + a0));
    else
      r[c] = _mm256_inserti128_si256(_mm256_castsi128_si256(rd4x4_128(lds, _mm256_castsi256_si128(ix))),
                                     rd4x4_128(lds, _mm256_extracti128_si256(ix, 1)), 1);
  }
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), r[c]);
}

/* the lanes of a 16-lane chunk of addresses ix that lie in a row of dwords from x: ix[i] = x + 4 i */
T512 static inline __mmask16 dword_row_512(__m512i ix, uint32_t x)
{
  const __m512i step = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  return _mm512_cmpeq_epi32_mask(ix, _mm512_add_epi32(_mm512_set1_epi32((int)x), step));
}

/* The same on AVX-512, sixteen lanes a vector (issue #31, nineteenth stop). The lanes of a chunk
 * whose addresses run on by 4 from lane j's (x[i] = x[j] + 4 (i - j)) are one load masked to them,
 * from lds + x[j] - 4 j: twice, from the chunk's first lane and from the first lane the first load
 * left, so a row, and a row that wraps around once (a neighbour's dword, lane (t + 1) & 63), take
 * at most two loads. A masked-off lane's bytes are not read (AVX-512 suppresses their faults), and
 * a loaded lane's address is its own: x[i] = x[j] + 4 (i - j) in 32 bits with both inside the
 * allocation (below 2^31) holds in integers too, so lds + x[j] + 4 (i - j) is lds + x[i]. The lanes
 * left after two loads are gathered (vpgatherdd: on this project's AVX-512 host, Zen 4, as fast as
 * the scalar picks, 24 ns against 22 a wave of random addresses in a /tmp microbenchmark). Every
 * chunk stays in a register until all are read, so d may be a's register. */
T512 static void lds_read4_512(uint32_t *d, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  __m512i r[4];
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) {
    const __m512i ix = _mm512_add_epi32(_mm512_loadu_si512(a + 16 * c), vo);
    const uint32_t x0 = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(ix));
    __mmask16 m = dword_row_512(ix, x0);
    if (m == 0xffff) {
      r[c] = _mm512_loadu_si512(lds + x0);
      continue;
    }
    __m512i v = _mm512_maskz_loadu_epi32(m, lds + x0);
    __mmask16 left = (__mmask16)~m;
    const int j = __builtin_ctz(left);
    const uint32_t xj = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_permutexvar_epi32(_mm512_set1_epi32(j), ix)));
    /* lane i's dword at bj + 4 i when x[i] = x[j] + 4 (i - j) (bj itself may lie before lds: integer arithmetic) */
    const void *bj = (const void *)((uintptr_t)lds + xj - 4u * (uint32_t)j);
    m = left & dword_row_512(ix, xj - 4u * (uint32_t)j);
    v = _mm512_mask_loadu_epi32(v, m, bj);
    left &= (__mmask16)~m;
    r[c] = left ? _mm512_mask_i32gather_epi32(v, left, ix, lds, 1) : v;
  }
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) _mm512_storeu_si512(d + 16 * c, r[c]);
}

void emu_lds_read4_64(uint32_t *d, const uint8_t *lds, const uint32_t *a, uint32_t off)
{
  if (emu_avx512) {
    lds_read4_512(d, lds, a, off);
    return;
  }
  if (emu_avx2) {
    lds_read4_256(d, lds, a, off);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) memcpy(&d[l], lds + (uint32_t)(a[l] + off), 4);
}

/* 4-byte LDS writes of a whole wave (emu/op_ds.c ds_write_b32), every lane in range: s[l] to
 * lds + (uint32_t)(a[l] + off), lane after lane (the order decides which lane's bytes stay where
 * addresses collide). AVX2: eight lanes whose addresses run on by 4 from the first (a row of
 * dwords: distinct bytes, so one 32-byte store is their eight stores in any order) are one store;
 * other chunks are stored lane by lane from one vector add. Chunks go in lane order. */
T256 static void lds_write4_256(uint8_t *lds, const uint32_t *a, uint32_t off, const uint32_t *s)
{
  const __m256i vo = _mm256_set1_epi32((int)off), step = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
  for (int c = 0; c < 8; c++) {
    __m256i ix = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)), vo);
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + 8 * c));
    uint32_t a0 = (uint32_t)_mm256_cvtsi256_si32(ix);
    __m256i row = _mm256_add_epi32(_mm256_set1_epi32((int)a0), step);
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(ix, row)) == -1) {
      _mm256_storeu_si256((__m256i *)(void *)(lds + a0), v);
      continue;
    }
    uint32_t ia[8], va[8];
    _mm256_storeu_si256((__m256i *)(void *)ia, ix), _mm256_storeu_si256((__m256i *)(void *)va, v);
    for (int i = 0; i < 8; i++) memcpy(lds + ia[i], &va[i], 4);
  }
}

/* The same on AVX-512: a chunk of sixteen lanes that is a row is one 64-byte store; any other goes
 * as lds_write4_256's two chunks of eight, in lane order (issue #31, nineteenth stop) */
T512 static void lds_write4_512(uint8_t *lds, const uint32_t *a, uint32_t off, const uint32_t *s)
{
  const __m512i vo = _mm512_set1_epi32((int)off);
  for (int c = 0; c < 4; c++) {
    const __m512i ix = _mm512_add_epi32(_mm512_loadu_si512(a + 16 * c), vo);
    const uint32_t x0 = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(ix));
    const __mmask16 m = dword_row_512(ix, x0);
    if (m == 0xffff) {
      _mm512_storeu_si512(lds + x0, _mm512_loadu_si512(s + 16 * c));
      continue;
    }
    /* lanes 8..15 a row from lane 8's address: bits 8..15 of m8 */
    const uint32_t x8 = (uint32_t)_mm_cvtsi128_si32(_mm512_extracti32x4_epi32(ix, 2));
    const __mmask16 m8 = dword_row_512(ix, x8 - 32u);
    const __m512i v = _mm512_loadu_si512(s + 16 * c);
    uint32_t ia[16], va[16];
    bool spilled = false;
    for (int h = 0; h < 2; h++) {
      const __m256i vh = h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
      if (h ? (m8 >> 8) == 0xff : (m & 0xff) == 0xff) {
        _mm256_storeu_si256((__m256i *)(void *)(lds + (h ? x8 : x0)), vh);
        continue;
      }
      if (!spilled) _mm512_storeu_si512(ia, ix), _mm512_storeu_si512(va, v), spilled = true;
      for (int i = 8 * h; i < 8 * h + 8; i++) memcpy(lds + ia[i], &va[i], 4);
    }
  }
}

void emu_lds_write4_64(uint8_t *lds, const uint32_t *a, uint32_t off, const uint32_t *s)
{
  if (emu_avx512) {
    lds_write4_512(lds, a, off, s);
    return;
  }
  if (emu_avx2) {
    lds_write4_256(lds, a, off, s);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) memcpy(lds + (uint32_t)(a[l] + off), &s[l], 4);
}

/* ds_write2*_b64 with every lane in range: lane l's 8 bytes s0lo/s0hi at lds + (a[l] + off0), then
 * s1lo/s1hi at lds + (a[l] + off1), lane after lane (the order decides which lane's bytes stay where
 * addresses overlap). AVX2 has no scatter: four lanes' qwords are paired by unpacks and stored one
 * by one (movq / movhpd: moves, no arithmetic), their addresses extracted from one vector add. */
T256 static inline __attribute__((always_inline)) void lds_write2_8_4(uint8_t *lds, const uint32_t *a, __m128i vo0,
                                                                      __m128i vo1, const uint32_t *s0lo,
                                                                      const uint32_t *s0hi, const uint32_t *s1lo,
                                                                      const uint32_t *s1hi, int c)
{
  __m128i ix = _mm_loadu_si128((const __m128i *)(const void *)(a + 4 * c));
  __m128i i0 = _mm_add_epi32(ix, vo0), i1 = _mm_add_epi32(ix, vo1);
  __m128i l0 = _mm_loadu_si128((const __m128i *)(const void *)(s0lo + 4 * c));
  __m128i h0 = _mm_loadu_si128((const __m128i *)(const void *)(s0hi + 4 * c));
  __m128i l1 = _mm_loadu_si128((const __m128i *)(const void *)(s1lo + 4 * c));
  __m128i h1 = _mm_loadu_si128((const __m128i *)(const void *)(s1hi + 4 * c));
  __m128d q01 = _mm_castsi128_pd(_mm_unpacklo_epi32(l0, h0)), q23 = _mm_castsi128_pd(_mm_unpackhi_epi32(l0, h0));
  __m128d r01 = _mm_castsi128_pd(_mm_unpacklo_epi32(l1, h1)), r23 = _mm_castsi128_pd(_mm_unpackhi_epi32(l1, h1));
  st8_lo((void *)(lds + (uint32_t)_mm_cvtsi128_si32(i0)), q01);
  st8_lo((void *)(lds + (uint32_t)_mm_cvtsi128_si32(i1)), r01);
  st8_hi((void *)(lds + (uint32_t)_mm_extract_epi32(i0, 1)), q01);
  st8_hi((void *)(lds + (uint32_t)_mm_extract_epi32(i1, 1)), r01);
  st8_lo((void *)(lds + (uint32_t)_mm_extract_epi32(i0, 2)), q23);
  st8_lo((void *)(lds + (uint32_t)_mm_extract_epi32(i1, 2)), r23);
  st8_hi((void *)(lds + (uint32_t)_mm_extract_epi32(i0, 3)), q23);
  st8_hi((void *)(lds + (uint32_t)_mm_extract_epi32(i1, 3)), r23);
}

/* Issue #31: with both offsets multiples of 64, an eight-lane chunk whose addresses are
 * a[i] = a[0] ^ 8 i with a[0] a multiple of 8 (a row, or an XOR-swizzled one as the attention kernels'
 * K tile stores) fills one 64-byte block per half, lane i at slot i ^ k (k = a[0] >> 3 & 7); the two
 * blocks are apart (128 distinct bytes each written once, so in any order) or, with equal offsets,
 * the same (every slot ends with its lane's DATA1 in either order). Each half is two 32-byte
 * stores, lanes 0-3 and 4-7 put in slot order by a dword permute (the k & 4 swap by where they are
 * stored). Any other chunk takes the lane-order stores above; chunks go in lane order either way. */
static const int32_t w2_perm[4][8] __attribute__((aligned(32))) = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 6, 7, 4, 5}, {4, 5, 6, 7, 0, 1, 2, 3}, {6, 7, 4, 5, 2, 3, 0, 1}};
T256 static inline __attribute__((always_inline)) void w2_block(uint8_t *b, __m256i p, uint32_t o, const uint32_t *lo,
                                                                const uint32_t *hi)
{
  __m256i l = _mm256_loadu_si256((const __m256i *)(const void *)lo);
  __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)hi);
  __m256i u0 = _mm256_unpacklo_epi32(l, h), u1 = _mm256_unpackhi_epi32(l, h); /* lanes 0 1 | 4 5, 2 3 | 6 7 */
  __m256i q0 = _mm256_permute2x128_si256(u0, u1, 0x20), q1 = _mm256_permute2x128_si256(u0, u1, 0x31); /* 0-3, 4-7 */
  _mm256_storeu_si256((__m256i *)(void *)(b + o), _mm256_permutevar8x32_epi32(q0, p));
  _mm256_storeu_si256((__m256i *)(void *)(b + (o ^ 32)), _mm256_permutevar8x32_epi32(q1, p));
}

T256 static void lds_write2_8_256(uint8_t *lds, const uint32_t *a, uint32_t off0, uint32_t off1, const uint32_t *s0lo,
                                  const uint32_t *s0hi, const uint32_t *s1lo, const uint32_t *s1hi)
{
  const __m128i vo0 = _mm_set1_epi32((int)off0), vo1 = _mm_set1_epi32((int)off1);
  const __m256i step = _mm256_setr_epi32(0, 8, 16, 24, 32, 40, 48, 56);
  const bool blk = !((off0 | off1) & 63);
  for (int c = 0; c < 8; c++) {
    __m256i ix = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c));
    uint32_t a0 = (uint32_t)_mm256_cvtsi256_si32(ix);
    if (blk && !(a0 & 7) &&
        _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_xor_si256(ix, _mm256_set1_epi32((int)a0)), step)) == -1) {
      uint32_t k = a0 >> 3 & 7, o = (k & 4) * 8, base = a0 & ~63u;
      __m256i p = _mm256_load_si256((const __m256i *)(const void *)w2_perm[k & 3]);
      w2_block(lds + (uint32_t)(base + off0), p, o, s0lo + 8 * c, s0hi + 8 * c);
      w2_block(lds + (uint32_t)(base + off1), p, o, s1lo + 8 * c, s1hi + 8 * c);
      continue;
    }
    lds_write2_8_4(lds, a, vo0, vo1, s0lo, s0hi, s1lo, s1hi, 2 * c);
    lds_write2_8_4(lds, a, vo0, vo1, s0lo, s0hi, s1lo, s1hi, 2 * c + 1);
  }
}

void emu_lds_write2_8_64(uint8_t *lds, const uint32_t *a, uint32_t off0, uint32_t off1, const uint32_t *s0lo,
                         const uint32_t *s0hi, const uint32_t *s1lo, const uint32_t *s1hi)
{
  if (emu_avx2) {
    lds_write2_8_256(lds, a, off0, off1, s0lo, s0hi, s1lo, s1hi);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) {
    uint64_t v0 = s0lo[l] | (uint64_t)s0hi[l] << 32, v1 = s1lo[l] | (uint64_t)s1hi[l] << 32;
    memcpy(lds + (uint32_t)(a[l] + off0), &v0, 8), memcpy(lds + (uint32_t)(a[l] + off1), &v1, 8);
  }
}

/* ---- v_mul_hi_u32 / v_mul_hi_i32 and v_bcnt_u32_b32 (emu/op_valu.c) -------------------------------
 * d[l] = bits 63:32 of a[l] * b[l] (unsigned or signed 32 x 32 -> 64), and d[l] = popcount(a[l]) +
 * b[l]: integer operations, exact at any width. AVX2: VPMULUDQ / VPMULDQ on the even dwords and on
 * the odd ones moved down, the high halves blended back; the population count by a nibble table
 * (pop8_256). d may be a or b: each chunk is read before it is written. */
T256 static void mulhi_256(uint32_t *d, const uint32_t *a, const uint32_t *b, bool sgn)
{
  for (int c = 0; c < 8; c++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)),
            y = _mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * c));
    __m256i xo = _mm256_srli_epi64(x, 32), yo = _mm256_srli_epi64(y, 32);
    __m256i pe = sgn ? _mm256_mul_epi32(x, y) : _mm256_mul_epu32(x, y);   /* lanes 0, 2, 4, 6 */
    __m256i po = sgn ? _mm256_mul_epi32(xo, yo) : _mm256_mul_epu32(xo, yo); /* lanes 1, 3, 5, 7 */
    _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xaa));
  }
}
void emu_mulhi64(uint32_t *d, const uint32_t *a, const uint32_t *b, bool sgn)
{
  if (emu_avx2) {
    mulhi_256(d, a, b, sgn);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++)
    d[l] = sgn ? (uint32_t)(((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32) : (uint32_t)(((uint64_t)a[l] * b[l]) >> 32);
}
/* the set bits of each dword: a nibble table (VPSHUFB), the byte counts summed per dword */
T256 static inline __m256i pop8_256(__m256i x)
{
  const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nib = _mm256_set1_epi8(0x0f);
  __m256i n = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x, nib)),
                              _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)));
  return _mm256_madd_epi16(_mm256_maddubs_epi16(n, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
}
T256 static void bcnt_256(uint32_t *d, const uint32_t *a, const uint32_t *b)
{
  for (int c = 0; c < 8; c++)
    _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c),
                        _mm256_add_epi32(pop8_256(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c))),
                                         _mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * c))));
}
void emu_bcnt64(uint32_t *d, const uint32_t *a, const uint32_t *b)
{
  if (emu_avx2) {
    bcnt_256(d, a, b);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) d[l] = (uint32_t)__builtin_popcount(a[l]) + b[l];
}

/* ---- v_ffbh_u32 / v_ffbl_b32 / v_ffbh_i32 / v_bfrev_b32 (emu/op_valu.c) ------------------------
 * kind 0 d[l] = the zeros above a[l]'s highest set bit, 1 the zeros below its lowest set bit (each
 * 0xffffffff for 0), 2 kind 0 of a[l] xor its sign spread (the bits above the highest one that
 * differs from the sign; 0xffffffff for 0 and -1), 3 a[l] with its bits reversed. AVX2: counts as
 * population counts (pop8_256) of the bits at and below the highest set bit
 * (the value smeared down) or below the lowest ((x & -x) - 1); the reversal as nibbles reversed by
 * a table and bytes by VPSHUFB. d may be a. */
T256 static void bitscan_256(uint32_t *d, const uint32_t *a, int kind)
{
  const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi32(-1);
  const __m256i rnib = _mm256_setr_epi8(0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15, 0, 8, 4, 12, 2, 10, 6, 14, 1, 9,
                                        5, 13, 3, 11, 7, 15);
  const __m256i rbytes = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11,
                                          10, 9, 8, 15, 14, 13, 12);
  for (int c = 0; c < 8; c++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c)), r;
    if (kind == 3) {
      const __m256i nib = _mm256_set1_epi8(0x0f);
      __m256i lo = _mm256_shuffle_epi8(rnib, _mm256_and_si256(x, nib));
      __m256i hi = _mm256_shuffle_epi8(rnib, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib));
      r = _mm256_shuffle_epi8(_mm256_or_si256(_mm256_slli_epi16(lo, 4), hi), rbytes); /* bits in each byte, then bytes */
    } else {
      if (kind == 2) x = _mm256_xor_si256(x, _mm256_srai_epi32(x, 31));
      __m256i m;
      if (kind == 1) {
        m = _mm256_sub_epi32(_mm256_and_si256(x, _mm256_sub_epi32(zero, x)), _mm256_set1_epi32(1)); /* below the lowest */
        r = pop8_256(m);
      } else {
        m = _mm256_or_si256(x, _mm256_srli_epi32(x, 1));
        m = _mm256_or_si256(m, _mm256_srli_epi32(m, 2));
        m = _mm256_or_si256(m, _mm256_srli_epi32(m, 4));
        m = _mm256_or_si256(m, _mm256_srli_epi32(m, 8));
        m = _mm256_or_si256(m, _mm256_srli_epi32(m, 16));
        r = _mm256_sub_epi32(_mm256_set1_epi32(32), pop8_256(m)); /* zeros above the highest */
      }
      r = _mm256_blendv_epi8(r, ones, _mm256_cmpeq_epi32(x, zero)); /* none: 0xffffffff */
    }
    _mm256_storeu_si256((__m256i *)(void *)(d + 8 * c), r);
  }
}
void emu_bitscan64(uint32_t *d, const uint32_t *a, int kind)
{
  if (emu_avx2) {
    bitscan_256(d, a, kind);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) {
    uint32_t x = a[l];
    if (kind == 3) {
      d[l] = emu_brev32(x);
      continue;
    }
    if (kind == 2) x ^= (uint32_t)((int32_t)x >> 31);
    d[l] = !x ? 0xffffffffu : kind == 1 ? (uint32_t)__builtin_ctz(x) : (uint32_t)__builtin_clz(x);
  }
}

/* ---- the f16 fma rounded once, n halves (emu/op_valu.c v_fma_f16, emu/op_vop3p.c v_pk_fma_f16) --
 * h[i] = the exact a[i] * b[i] + c[i] rounded once to f16, clamped to [0, 1] first with clamp (-0
 * kept). In f32, 8 halves at a time: the product of two f16 values is exact (22 bits), TwoSum gives
 * the sum's rounding error exactly, the sum rounded to odd (one unit toward the exact value where it
 * is inexact and even) keeps 24 >= 11 + 2 bits, so VCVTPS2PH's one rounding to nearest even is the
 * exact sum's (emu_fma_ro's argument at f32 width). Not FMA: target avx2,f16c, so that the compiler
 * cannot contract the product and the sum. False, with nothing written, when an operand is an
 * infinity or a NaN (the caller's scalar path: its NaN payloads). n a multiple of 8. */
__attribute__((target("avx2,f16c"))) static bool fma_f16_256(uint16_t *h, const uint16_t *a, const uint16_t *b,
                                                             const uint16_t *c, int n, bool clamp)
{
  const __m128i ex = _mm_set1_epi16(0x7c00);
  __m128i bad = _mm_setzero_si128();
  for (int i = 0; i < n; i += 8) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + i)), y = _mm_loadu_si128((const __m128i *)(const void *)(b + i)),
            z = _mm_loadu_si128((const __m128i *)(const void *)(c + i));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi16(_mm_and_si128(x, ex), ex));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi16(_mm_and_si128(y, ex), ex));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi16(_mm_and_si128(z, ex), ex));
  }
  if (!_mm_testz_si128(bad, bad)) return false;
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  const __m256i lsb = _mm256_set1_epi32(1);
  for (int i = 0; i < n; i += 8) {
    __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
    __m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
    __m256 z = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(c + i)));
    __m256 p = _mm256_mul_ps(x, y), s = _mm256_add_ps(p, z);
    __m256 zb = _mm256_sub_ps(s, p), pb = _mm256_sub_ps(s, zb);
    __m256 e = _mm256_add_ps(_mm256_sub_ps(p, pb), _mm256_sub_ps(z, zb));
    /* to odd: where e != 0 and s is even, one unit away from zero if e has s's sign, else toward */
    __m256i sb = _mm256_castps_si256(s);
    __m256i inexact = _mm256_castps_si256(_mm256_cmp_ps(e, zero, _CMP_NEQ_OQ));
    __m256i even = _mm256_cmpeq_epi32(_mm256_and_si256(sb, lsb), _mm256_setzero_si256());
    __m256i away = _mm256_cmpeq_epi32(_mm256_srli_epi32(_mm256_xor_si256(_mm256_castps_si256(e), sb), 31),
                                      _mm256_setzero_si256()); /* e and s of one sign */
    __m256i step = _mm256_or_si256(_mm256_and_si256(away, lsb), _mm256_andnot_si256(away, _mm256_set1_epi32(-1)));
    sb = _mm256_add_epi32(sb, _mm256_and_si256(_mm256_and_si256(inexact, even), step));
    s = _mm256_castsi256_ps(sb);
    if (clamp) {
      s = _mm256_blendv_ps(s, zero, _mm256_cmp_ps(s, zero, _CMP_LT_OQ));
      s = _mm256_blendv_ps(s, one, _mm256_cmp_ps(s, one, _CMP_GT_OQ));
    }
    _mm_storeu_si128((__m128i *)(void *)(h + i), _mm256_cvtps_ph(s, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  return true;
}

bool emu_fma_f16_n(uint16_t *h, const uint16_t *a, const uint16_t *b, const uint16_t *c, int n, bool clamp)
{
  return emu_avx2 && fma_f16_256(h, a, b, c, n, clamp);
}

/* ---- f16 <-> f32 ---------------------------------------------------------------------------------
 * VCVTPS2PH (imm: round to nearest even, exceptions suppressed) gives emu_f32_to_f16's result for
 * every input: overflow to inf, subnormals rounded, a NaN quieted with its payload's top bits kept
 * (Intel SDM "VCVTPS2PH": SNaN converted to QNaN, payload truncated). VCVTPH2PS is exact for every
 * non-NaN half; a NaN half is quieted by it while emu_f16_to_f32 keeps the payload as is, so NaN
 * lanes are redone with the scalar conversion. Neither instruction reads MXCSR's DAZ/FTZ
 * (conversions between these formats are exact or use the immediate's rounding). */
T512 static void f32_to_f16_512(uint16_t *h, const float *f)
{
  for (int c = 0; c < 4; c++)
    _mm256_storeu_si256((__m256i *)(void *)(h + 16 * c),
                        _mm512_cvtps_ph(_mm512_loadu_ps(f + 16 * c), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

T256 static void f32_to_f16_256(uint16_t *h, const float *f)
{
  for (int c = 0; c < 8; c++)
    _mm_storeu_si128((__m128i *)(void *)(h + 8 * c),
                     _mm256_cvtps_ph(_mm256_loadu_ps(f + 8 * c), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

/* ---- the exact a * b + c of f32 values rounded once to f16 (v_fma_mixlo_f16 / mixhi, emu/op_vop3p.c):
 * emu_f64_to_f16(emu_fma_ro(a, b, c)) per lane. AVX-512, eight lanes a vector: the product exact in
 * double, the sum and its TwoSum error, rounded to odd at double precision as emu_fma_ro does; then
 * to f32 rounded to odd (toward zero, the low bit set where that was inexact) and vcvtps2ph's round
 * to nearest even. Rounding to odd at 53 and then 24 bits keeps the exact sum's side of every f16
 * rounding boundary (both have at least two bits more than f16, subnormals included), so the f16 is
 * the exact sum's rounded once (issue #31, thirty-eighth stop: FlashInfer's P tile). A lane with a NaN
 * operand or a non-finite sum takes the definition (x86's own NaN propagation, the first NaN operand
 * quieted, gives the same bits, but the result does not rest on it). -------------------------------- */
T512 static void fma_f16_512(uint16_t *h, const float *a, const float *b, const float *c)
{
  const __m512d zero = _mm512_setzero_pd();
  const __m512i one = _mm512_set1_epi64(1);
  for (int o = 0; o < EMU_LANES; o += 8) {
    const __m512d A = _mm512_cvtps_pd(_mm256_loadu_ps(a + o)), B = _mm512_cvtps_pd(_mm256_loadu_ps(b + o)),
                  C = _mm512_cvtps_pd(_mm256_loadu_ps(c + o));
    const __m512d p = _mm512_mul_pd(A, B), s = _mm512_add_pd(p, C);
    const __m512d cb = _mm512_sub_pd(s, p), pb = _mm512_sub_pd(s, cb);
    const __m512d e = _mm512_add_pd(_mm512_sub_pd(p, pb), _mm512_sub_pd(C, cb));
    __m512i u = _mm512_castpd_si512(s);
    const __mmask8 fix = _mm512_cmp_pd_mask(e, zero, _CMP_NEQ_OQ) & _mm512_testn_epi64_mask(u, one);
    const __mmask8 up = (__mmask8)~(_mm512_cmp_pd_mask(e, zero, _CMP_GT_OQ) ^ _mm512_cmp_pd_mask(s, zero, _CMP_GT_OQ));
    u = _mm512_mask_add_epi64(u, fix & up, u, one); /* one unit toward the exact sum */
    u = _mm512_mask_sub_epi64(u, fix & (__mmask8)~up, u, one);
    const __m512d r = _mm512_castsi512_pd(u);
    const __m256 t = _mm512_cvt_roundpd_ps(r, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask8 ne = _mm512_cmp_pd_mask(_mm512_cvtps_pd(t), r, _CMP_NEQ_UQ);
    const __m256i ti = _mm256_mask_or_epi32(_mm256_castps_si256(t), ne, _mm256_castps_si256(t), _mm256_set1_epi32(1));
    const __m512 t16 = _mm512_castps256_ps512(_mm256_castsi256_ps(ti)); /* the low eight lanes used */
    _mm_storeu_si128((__m128i *)(void *)(h + o),
                     _mm256_castsi256_si128(_mm512_cvtps_ph(t16, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
    __mmask8 bad = (__mmask8)(_mm512_cmp_pd_mask(A, A, _CMP_UNORD_Q) | _mm512_cmp_pd_mask(B, B, _CMP_UNORD_Q) |
                              _mm512_cmp_pd_mask(C, C, _CMP_UNORD_Q) | _mm512_fpclass_pd_mask(s, 0x99)); /* NaN, +-inf */
    for (; bad; bad &= (__mmask8)(bad - 1)) {
      const int l = o + __builtin_ctz(bad);
      h[l] = emu_f64_to_f16(emu_fma_ro(a[l], b[l], c[l]));
    }
  }
}

void emu_fma_f16_64(uint16_t *h, const float *a, const float *b, const float *c)
{
  if (emu_avx512) {
    fma_f16_512(h, a, b, c);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) h[l] = emu_f64_to_f16(emu_fma_ro(a[l], b[l], c[l]));
}

void emu_f32_to_f16_64(uint16_t *h, const float *f)
{
  if (emu_avx512) {
    f32_to_f16_512(h, f);
    return;
  }
  if (emu_avx2) {
    f32_to_f16_256(h, f);
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) h[l] = emu_f32_to_f16(f[l]);
}

T512 static uint64_t f16_to_f32_512(float *f, const uint16_t *h)
{
  uint64_t nan = 0;
  const __m512i em = _mm512_set1_epi32(0x7c00), mm = _mm512_set1_epi32(0x3ff);
  for (int c = 0; c < 4; c++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(h + 16 * c));
    _mm512_storeu_ps(f + 16 * c, _mm512_cvtph_ps(x));
    __m512i w = _mm512_cvtepu16_epi32(x);
    __mmask16 n = _mm512_cmpeq_epi32_mask(_mm512_and_si512(w, em), em) & _mm512_test_epi32_mask(w, mm);
    nan |= (uint64_t)n << (16 * c);
  }
  return nan;
}

T256 static uint64_t f16_to_f32_256(float *f, const uint16_t *h)
{
  /* a NaN half is (x & 0x7fff) > 0x7c00 (exponent all ones, mantissa not zero), one signed 16-bit
   * compare (both sides below 2^15) on the halves as loaded, packed to one byte a lane for the mask:
   * four 128-bit operations per 8 lanes where widening to 32 bits took seven 256-bit ones */
  uint64_t nan = 0;
  const __m128i ab = _mm_set1_epi16(0x7fff), ninf = _mm_set1_epi16(0x7c00);
  for (int c = 0; c < 8; c++) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(h + 8 * c));
    _mm256_storeu_ps(f + 8 * c, _mm256_cvtph_ps(x));
    __m128i n = _mm_cmpgt_epi16(_mm_and_si128(x, ab), ninf);
    nan |= (uint64_t)(uint8_t)_mm_movemask_epi8(_mm_packs_epi16(n, n)) << (8 * c);
  }
  return nan;
}

void emu_f16_to_f32_64(float *f, const uint16_t *h)
{
  if (emu_avx512 || emu_avx2) {
    uint64_t nan = emu_avx512 ? f16_to_f32_512(f, h) : f16_to_f32_256(f, h);
    while (nan) {
      int l = __builtin_ctzll(nan);
      nan &= nan - 1;
      f[l] = emu_f16_to_f32(h[l]);
    }
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) f[l] = emu_f16_to_f32(h[l]);
}

/* ---- d[l] = (float)exp2((double)a[l]): v_exp_f32's definition (emu/op_valu.c t_exp) ------------
 * AVX-512: for -125 <= a <= 127 (a normal float result), 16a = k + u with k = round(16a) (adding
 * 1.5 * 2^52, whose low mantissa bits are then k's: no round or convert instruction) and |u| <= 1/2,
 * all exact; y = 2^floor(k/16) * T[k mod 16] * p(u) with T[j] = 2^(j/16) from libm's exp2 at start-up
 * (within 1 double ULP) picked by vpermt2pd on k's low four bits, p the degree-5 Taylor polynomial of
 * e^(u ln2 / 16) (|u ln2 / 16| < 0.0217: truncation below 0.0217^6 / 720 < 2^-42) in double by Horner
 * with FMA (a few double ULPs), one rounding for the product, the power of two by vscalefpd (exact):
 * |y - 2^a| < 2^-41 * 2^a. F = (float)y is certain unless the 29 bits of y below the float mantissa
 * lie within 2^13 of the half-way point 2^28, the AVX2 path's test below: a double ULP of y is at
 * least 2^-53 y, so 2^13 of them are at least 2^-40 y, more than y's distance from the exact value
 * and from libm's exp2 (within 1 ULP of double, glibc's documented bound), which therefore lie on
 * F's side of every float rounding boundary (a boundary between binades is a float itself, not a
 * half-way point), and (float)exp2(a) is F. Any other lane (near a rounding boundary, out of that
 * range, NaN) is computed by the definition. Checked equal to the definition for every float in
 * [-125, 127] (2,247,622,658 of them, 99.99923% decided here, none different: a /tmp program, issue
 * #31 twenty-second stop; the form before, which rounded y(1 - 2^-40) and y(1 + 2^-40) and compared,
 * decided 99.9994% and was checked the same way at the fifteenth; the degree-13 polynomial before
 * that, over |f| <= 1/2 without a table, was checked for all 2^32 inputs, docs/emulator-choices.md
 * "Host SIMD paths"); tests/test_emu_cvt.c keeps a sweep. 78 -> 45 ns a wave in a /tmp
 * microbenchmark (fifteenth stop), the bit test 41 -> 37 (twenty-second). */
static float exp2_def(float a) { return (float)exp2((double)a); }
/* the certainty test both vector kernels make on y's bits: r = (y + EXP2_WADD) & EXP2_WMASK, the 29
 * bits below the float mantissa moved so that the window of 2^13 around the half-way point 2^28 is
 * r < EXP2_WIN; a lane is certain when r >= EXP2_WIN */
#define EXP2_WADD ((1ll << 13) - (1ll << 28))
#define EXP2_WMASK ((1ll << 29) - 1)
#define EXP2_WIN (1ll << 14)

static double exp2_t16[16], exp2_p5[6]; /* 2^(j/16); (ln2/16)^i / i! (exp2_init below) */
T512 static uint64_t exp2_512(float *d, const float *a)
{
  const __m512d t0 = _mm512_loadu_pd(exp2_t16), t1 = _mm512_loadu_pd(exp2_t16 + 8);
  const __m512d magic = _mm512_set1_pd(0x1.8p52), s16 = _mm512_set1_pd(16.0);
  const __m512i wadd = _mm512_set1_epi64(EXP2_WADD), wm = _mm512_set1_epi64(EXP2_WMASK), win = _mm512_set1_epi64(EXP2_WIN);
  uint64_t slow = 0;
#pragma GCC unroll 2
  for (int b = 0; b < 8; b++) {
    __m256 af = _mm256_loadu_ps(a + 8 * b);
    __mmask8 ok = _mm256_cmp_ps_mask(af, _mm256_set1_ps(-125.0f), _CMP_GE_OQ) &
                  _mm256_cmp_ps_mask(af, _mm256_set1_ps(127.0f), _CMP_LE_OQ);
    __m512d x = _mm512_cvtps_pd(af);
    __m512d t = _mm512_fmadd_pd(x, s16, magic); /* 1.5 * 2^52 + k */
    __m512d kd = _mm512_sub_pd(t, magic), u = _mm512_fmsub_pd(x, s16, kd);
    __m512d p = _mm512_set1_pd(exp2_p5[5]);
    for (int k = 4; k >= 0; k--) p = _mm512_fmadd_pd(p, u, _mm512_set1_pd(exp2_p5[k]));
    __m512d tj = _mm512_permutex2var_pd(t0, _mm512_castpd_si512(t), t1); /* T[k mod 16] */
    __m512d y = _mm512_scalef_pd(_mm512_mul_pd(p, tj), _mm512_mul_pd(kd, _mm512_set1_pd(0.0625)));
    const __m512i r = _mm512_and_si512(_mm512_add_epi64(_mm512_castpd_si512(y), wadd), wm);
    ok &= _mm512_cmpge_epu64_mask(r, win);
    _mm256_storeu_ps(d + 8 * b, _mm512_cvtpd_ps(y));
    slow |= (uint64_t)(uint8_t)~ok << (8 * b);
  }
  return slow;
}

/* AVX2: y = 2^n * T[j] * q(f), a = (64n + j + f) / 64 with 64a = 64n + j + f exact (64a is a float
 * times 64; n, j integers, 0 <= j < 64, |f| <= 1/2, f = 64a - round(64a) exact), T[j] = 2^(j/64) from
 * libm's exp2 at start-up (within 1 double ULP, 2^-52), q the degree-4 Taylor polynomial of
 * e^(f ln2 / 64) (|f ln2 / 64| < 0.0055: truncation below 0.0055^5 / 120 < 2^-44) by Horner with FMA
 * (a few double ULPs), one rounding for the product, 2^n added to T[j]'s exponent field (exact):
 * |y - 2^a| < 2^-44 * 2^a. round(64a) is taken by adding 1.5 * 2^52 (its integer in the low bits
 * of the sum, no round or convert instruction). The certainty test is done on y's bits, not by the
 * two multiplies and conversions of the AVX-512 path: F = (float)y is certain unless the 29 bits of
 * y below the float mantissa lie within 2^13 of the half-way point 2^28. 2^13 double ULPs of y are
 * more than 2^-40 * y, so outside that window y, the exact 2^a and libm's exp2 (both within
 * 2^-44 * 2^a of y) are on the same side of every float rounding boundary (a boundary between
 * binades is a float itself, not a half-way point), and (float)exp2(a) is F. On this Zen 1 host
 * (256-bit double ops two µops, the kernel latency-bound) these cut 240 -> 211 ns per wave
 * (docs/performance.md, eighth stop). Out-of-range lanes are clamped to 0 so the bits stay
 * finite, then redone by the definition. Checked equal to the definition for all 2^32 inputs
 * (2026-12-03, and this form 2026-12-04); tests/test_emu_cvt.c keeps a sweep. */
static double exp2_tab[64], exp2_q[5];
__attribute__((constructor)) static void exp2_init(void)
{
  for (int j = 0; j < 64; j++) exp2_tab[j] = exp2((double)j / 64);
  for (int j = 0; j < 16; j++) exp2_t16[j] = exp2_tab[4 * j]; /* 2^(j/16) = 2^(4j/64), the same argument */
  exp2_p5[0] = 1.0;
  for (int k = 1; k < 6; k++) exp2_p5[k] = exp2_p5[k - 1] * (0x1.62e42fefa39efp-1 / 16) / k; /* (ln2/16)^k / k! */
  exp2_q[0] = 1.0;
  for (int k = 1; k < 5; k++) exp2_q[k] = exp2_q[k - 1] * (0x1.62e42fefa39efp-1 / 64) / k; /* (ln2/64)^k / k! */
}

T256 static uint64_t exp2_256(float *d, const float *a)
{
  uint64_t slow = 0;
  const __m256d q4 = _mm256_set1_pd(exp2_q[4]), q3 = _mm256_set1_pd(exp2_q[3]);
  const __m256d q2 = _mm256_set1_pd(exp2_q[2]), q1 = _mm256_set1_pd(exp2_q[1]), q0 = _mm256_set1_pd(1.0);
  const __m256d sh = _mm256_set1_pd(0x1.8p52), c64 = _mm256_set1_pd(64.0);
#pragma GCC unroll 4
  for (int b = 0; b < 16; b++) {
    __m128 af = _mm_loadu_ps(a + 4 * b);
    __m128 okf = _mm_and_ps(_mm_cmp_ps(af, _mm_set1_ps(-125.0f), _CMP_GE_OQ), _mm_cmp_ps(af, _mm_set1_ps(127.0f), _CMP_LE_OQ));
    int ok = _mm_movemask_ps(okf);
    af = _mm_and_ps(af, okf); /* lanes out of range (NaN included) compute 2^0, then go slow */
    __m256d x = _mm256_cvtps_pd(af);
    /* kd = 1.5 * 2^52 + k, k = round(64a) (|64a| < 2^13, one rounding to an integer, ties to even):
     * its mantissa is 2^51 + k, k in two's complement in the low bits */
    __m256d kd = _mm256_fmadd_pd(x, c64, sh);
    __m256d f = _mm256_fmsub_pd(x, c64, _mm256_sub_pd(kd, sh)); /* 64a - k, exact */
    __m256d q = _mm256_fmadd_pd(q4, f, q3);
    q = _mm256_fmadd_pd(q, f, q2);
    q = _mm256_fmadd_pd(q, f, q1);
    q = _mm256_fmadd_pd(q, f, q0);
    __m256i kb = _mm256_castpd_si256(kd);
    /* T[j] by four scalar loads, not vgatherqpd (microcoded on Zen 1; see bperm_256): the same
     * values; with the loop unrolled 4 instead of 2, 186-208 -> 164-176 ns a wave (/tmp
     * microbenchmark, docs/performance.md, ninth stop) */
    uint64_t kq[4] __attribute__((aligned(32)));
    _mm256_store_si256((__m256i *)(void *)kq, kb);
    __m128d t01 = _mm_loadh_pd(_mm_load_sd(&exp2_tab[kq[0] & 63]), &exp2_tab[kq[1] & 63]);
    __m128d t23 = _mm_loadh_pd(_mm_load_sd(&exp2_tab[kq[2] & 63]), &exp2_tab[kq[3] & 63]);
    __m256d t = _mm256_insertf128_pd(_mm256_castpd128_pd256(t01), t23, 1);
    /* (2^51 + k) >> 6 = 2^45 + n, n = floor(k / 64); << 52 drops the 2^45: n added to T[j]'s
     * exponent field (1 <= T[j] < 2, 2^n T[j] a normal double for -125 <= n <= 127): exact */
    __m256i e = _mm256_slli_epi64(_mm256_srli_epi64(kb, 6), 52);
    __m256i y = _mm256_castpd_si256(_mm256_mul_pd(q, _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(t), e))));
    /* certain unless y's 29 bits below the float mantissa lie within 2^13 of the half-way point
     * 2^28 (see above; EXP2_WIN) */
    __m256i r = _mm256_and_si256(_mm256_add_epi64(y, _mm256_set1_epi64x(EXP2_WADD)), _mm256_set1_epi64x(EXP2_WMASK));
    ok &= ~_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(EXP2_WIN), r)));
    _mm_storeu_ps(d + 4 * b, _mm256_cvtpd_ps(_mm256_castsi256_pd(y)));
    slow |= (uint64_t)(~ok & 15) << (4 * b);
  }
  return slow;
}

void emu_exp2_64(float *d, const float *a)
{
  if (emu_avx512 || emu_avx2) {
    uint64_t slow = emu_avx512 ? exp2_512(d, a) : exp2_256(d, a);
    while (slow) {
      int l = __builtin_ctzll(slow);
      slow &= slow - 1;
      d[l] = exp2_def(a[l]);
    }
    return;
  }
  for (int l = 0; l < EMU_LANES; l++) d[l] = exp2_def(a[l]);
}

/* ---- compares: bit l = pred(a[l], b[l]) -----------------------------------------------------------*/
/* each v_cmp_*_f32 predicate as a vcmpps immediate (ordered/unordered as the C expression in
 * emu/op_valu.c; quiet and signalling differ only in exception flags) */
#define CMPF_CASES(CF)                                                                             \
  case EMU_CMP_LT: CF(_CMP_LT_OQ)                                                                  \
  case EMU_CMP_EQ: CF(_CMP_EQ_OQ)                                                                  \
  case EMU_CMP_LE: CF(_CMP_LE_OQ)                                                                  \
  case EMU_CMP_GT: CF(_CMP_GT_OQ)                                                                  \
  case EMU_CMP_LG: CF(_CMP_NEQ_OQ)                                                                 \
  case EMU_CMP_GE: CF(_CMP_GE_OQ)                                                                  \
  case EMU_CMP_O: CF(_CMP_ORD_Q)                                                                   \
  case EMU_CMP_U: CF(_CMP_UNORD_Q)                                                                 \
  case EMU_CMP_NGE: CF(_CMP_NGE_UQ)                                                                \
  case EMU_CMP_NLG: CF(_CMP_EQ_UQ)                                                                 \
  case EMU_CMP_NGT: CF(_CMP_NGT_UQ)                                                                \
  case EMU_CMP_NLE: CF(_CMP_NLE_UQ)                                                                \
  case EMU_CMP_NEQ: CF(_CMP_NEQ_UQ)                                                                \
  case EMU_CMP_NLT: CF(_CMP_NLT_UQ)

T512 static uint64_t cmpf_512(const float *a, const float *b, int p)
{
  uint64_t r = 0;
#define CF(imm)                                                                                    \
  for (int c = 0; c < 4; c++)                                                                      \
    r |= (uint64_t)_mm512_cmp_ps_mask(_mm512_loadu_ps(a + 16 * c), _mm512_loadu_ps(b + 16 * c), imm) << (16 * c); \
  break;
  switch (p) {
  CMPF_CASES(CF)
  }
#undef CF
  return r;
}

/* signed (s) or unsigned 32-bit integer compare; p one of LT EQ LE GT NE GE */
T512 static uint64_t cmpi_512(const uint32_t *a, const uint32_t *b, int p, bool s)
{
  int imm = p == EMU_CMP_LT ? _MM_CMPINT_LT : p == EMU_CMP_EQ ? _MM_CMPINT_EQ : p == EMU_CMP_LE ? _MM_CMPINT_LE
          : p == EMU_CMP_GT ? _MM_CMPINT_NLE : p == EMU_CMP_NE ? _MM_CMPINT_NE : _MM_CMPINT_NLT;
  uint64_t r = 0;
#define CI(cmp, k)                                                                                 \
  case k:                                                                                          \
    for (int c = 0; c < 4; c++)                                                                    \
      r |= (uint64_t)cmp(_mm512_loadu_si512(a + 16 * c), _mm512_loadu_si512(b + 16 * c), k) << (16 * c); \
    break;
  if (s) {
    switch (imm) {
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_LT)
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_EQ)
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_LE)
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_NLE)
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_NE)
      CI(_mm512_cmp_epi32_mask, _MM_CMPINT_NLT)
    }
  } else {
    switch (imm) {
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_LT)
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_EQ)
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_LE)
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_NLE)
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_NE)
      CI(_mm512_cmp_epu32_mask, _MM_CMPINT_NLT)
    }
  }
#undef CI
  return r;
}

T256 static uint64_t cmpf_256(const float *a, const float *b, int p)
{
  uint64_t r = 0;
#define CF(imm)                                                                                    \
  for (int c = 0; c < 8; c++)                                                                      \
    r |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(a + 8 * c), _mm256_loadu_ps(b + 8 * c), imm)) << (8 * c); \
  break;
  switch (p) {
  CMPF_CASES(CF)
  }
#undef CF
  return r;
}

/* AVX2 has signed greater-than and equality only: unsigned compares flip the sign bits first; LE,
 * GE and NE are the complements of GT, LT and EQ. One loop per (predicate, signedness), chosen
 * before it: the tests inside the loop cost as much as the compares (seed seq 256, callgrind). */
T256 static inline __attribute__((always_inline)) uint64_t cmpi_256_k(const uint32_t *a, const uint32_t *b, const int p, const bool s)
{
  const __m256i flip = _mm256_set1_epi32((int)0x80000000u);
  uint64_t r = 0;
#pragma GCC unroll 8
  for (int c = 0; c < 8; c++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * c));
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * c));
    if (!s && p != EMU_CMP_EQ && p != EMU_CMP_NE) x = _mm256_xor_si256(x, flip), y = _mm256_xor_si256(y, flip);
    __m256i t = p == EMU_CMP_EQ || p == EMU_CMP_NE ? _mm256_cmpeq_epi32(x, y)
              : p == EMU_CMP_GT || p == EMU_CMP_LE ? _mm256_cmpgt_epi32(x, y) : _mm256_cmpgt_epi32(y, x);
    uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(t));
    if (p == EMU_CMP_NE || p == EMU_CMP_LE || p == EMU_CMP_GE) m ^= 0xffu;
    r |= (uint64_t)m << (8 * c);
  }
  return r;
}

T256 static uint64_t cmpi_256(const uint32_t *a, const uint32_t *b, int p, bool s)
{
  switch (p) {
  case EMU_CMP_EQ: return cmpi_256_k(a, b, EMU_CMP_EQ, true);
  case EMU_CMP_NE: return cmpi_256_k(a, b, EMU_CMP_NE, true);
  case EMU_CMP_LT: return s ? cmpi_256_k(a, b, EMU_CMP_LT, true) : cmpi_256_k(a, b, EMU_CMP_LT, false);
  case EMU_CMP_LE: return s ? cmpi_256_k(a, b, EMU_CMP_LE, true) : cmpi_256_k(a, b, EMU_CMP_LE, false);
  case EMU_CMP_GT: return s ? cmpi_256_k(a, b, EMU_CMP_GT, true) : cmpi_256_k(a, b, EMU_CMP_GT, false);
  default: return s ? cmpi_256_k(a, b, EMU_CMP_GE, true) : cmpi_256_k(a, b, EMU_CMP_GE, false);
  }
}

bool emu_cmpf32_64(const float *a, const float *b, int p, uint64_t *r)
{
  if ((!emu_avx512 && !emu_avx2) || p < EMU_CMP_LT || p > EMU_CMP_NLT || p == EMU_CMP_NE) return false;
  *r = emu_avx512 ? cmpf_512(a, b, p) : cmpf_256(a, b, p);
  return true;
}

bool emu_cmpi32_64(const uint32_t *a, const uint32_t *b, int p, bool sgn, uint64_t *r)
{
  if ((!emu_avx512 && !emu_avx2) || p < EMU_CMP_LT || p > EMU_CMP_NE) return false; /* LT EQ LE GT GE NE */
  *r = emu_avx512 ? cmpi_512(a, b, p, sgn) : cmpi_256(a, b, p, sgn);
  return true;
}
