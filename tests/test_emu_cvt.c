/* tests/test_emu_cvt — instructions AMD's hand-written kernels use that clang rarely emits
 * (emu/op_cvt.c, the integer clamp in emu/op_valu.c): fp8/bf8 conversions on both arches, packed
 * f16/u8, int4 offset, saturating adds, v_sad_*, v_prng_b32, v_dot2_f32_bf16, the gfx950 scaled
 * conversions and the stochastic-rounding ones (v_cvt_sr_*, v_cvt_scalef32_sr_*). Each snippet is
 * assembled by llvm-mc-22 and run on a hand-built wave (tests/emu_snippets/snippet.h). Expected
 * values come from the formats' definitions and the ISA's formulas written here. */
#include <math.h>

#include <sys/wait.h>
#include <unistd.h>

#include "tests/emu_snippets/snippet.h"

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* fp8 formats (CDNA3 ISA: FNUZ on gfx942; CDNA4 ISA: OCP on gfx950): value of code c, NaN if none */
static double ref_f8(emu_arch a, bool bf8, unsigned c)
{
  int eb = bf8 ? 5 : 4, mb = bf8 ? 2 : 3;
  int bias = a == EMU_GFX942 ? (bf8 ? 16 : 8) : (bf8 ? 15 : 7);
  unsigned s = c >> 7, e = (c >> mb) & ((1u << eb) - 1), m = c & ((1u << mb) - 1);
  if (a == EMU_GFX942 && c == 0x80) return NAN;
  if (a == EMU_GFX950 && bf8 && e == 31) return m ? NAN : (s ? -INFINITY : INFINITY);
  if (a == EMU_GFX950 && !bf8 && e == 15 && m == 7) return NAN;
  double v = e ? ldexp(1.0 + m / (double)(1 << mb), (int)e - bias) : ldexp(m / (double)(1 << mb), 1 - bias);
  return s ? -v : v;
}

/* decode of every byte: v_cvt_f32_fp8/bf8 (byte 0 and SDWA BYTE_2) and v_cvt_pk_f32_fp8/bf8 */
static void decode_all(emu_arch a, bool bf8)
{
  const char *t = bf8 ? "bf8" : "fp8";
  char *src = ll_fmt("v_cvt_f32_%s v4, v1\nv_cvt_f32_%s_sdwa v5, v2 src0_sel:BYTE_2\nv_cvt_pk_f32_%s v[6:7], v1\n"
                     "v_cvt_pk_f32_%s_sdwa v[8:9], v2 src0_sel:WORD_1\n", t, t, t, t);
  for (unsigned base = 0; base < 256; base += 64) {
    snip *s = sn_new(a, src);
    for (int l = 0; l < 64; l++) {
      unsigned c = base + (unsigned)l, c2 = (c + 77) & 0xff;
      sn_v(s, 1)[l] = c | c2 << 8 | 0xabcd0000u;
      sn_v(s, 2)[l] = 0x1234u | c << 16 | c2 << 24;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      unsigned c = base + (unsigned)l, c2 = (c + 77) & 0xff;
      double want = ref_f8(a, bf8, c), want2 = ref_f8(a, bf8, c2);
      float got[4] = {bf(sn_v(s, 4)[l]), bf(sn_v(s, 5)[l]), bf(sn_v(s, 6)[l]), bf(sn_v(s, 8)[l])};
      for (int k = 0; k < 4; k++)
        cr_assert(isnan(want) ? isnan(got[k]) : got[k] == (float)want, "%s %s code 0x%02x form %d: %a, want %a",
                  emu_arch_name(a), t, c, k, got[k], want);
      float g7 = bf(sn_v(s, 7)[l]), g9 = bf(sn_v(s, 9)[l]);
      cr_assert(isnan(want2) ? isnan(g7) && isnan(g9) : g7 == (float)want2 && g9 == (float)want2,
                "%s %s pk high byte 0x%02x", emu_arch_name(a), t, c2);
    }
    sn_free(s);
  }
  free(src);
}

Test(emu_cvt, fp8_bf8_to_f32_every_code_both_arches)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    decode_all((emu_arch)a, false);
    decode_all((emu_arch)a, true);
  }
}

/* f32 -> fp8/bf8: every finite code's value converts back to that code; the midpoint of two
 * neighbouring codes goes to the one with the even mantissa; beyond the largest finite value
 * gives NaN (or inf for OCP bf8); op_sel:[0,0,1] fills the high word and keeps the low one. */
static void encode_case(emu_arch a, bool bf8)
{
  const char *t = bf8 ? "bf8" : "fp8";
  char *src = ll_fmt("v_cvt_pk_%s_f32 v3, v1, v2\nv_cvt_pk_%s_f32 v4, v1, v2 op_sel:[0,0,1]\n", t, t);
  double maxv = 0;
  for (unsigned c = 0; c < 128; c++) {
    double v = ref_f8(a, bf8, c);
    if (!isnan(v) && !isinf(v) && v > maxv) maxv = v;
  }
  for (unsigned base = 0; base < 256; base += 64) {
    snip *s = sn_new(a, src);
    for (int l = 0; l < 64; l++) {
      unsigned c = base + (unsigned)l;
      double v = ref_f8(a, bf8, c);
      sn_v(s, 1)[l] = fb((float)v);
      unsigned n = (c & 0x7f) + 1; /* midpoint towards the next code of the same sign */
      double vn = ref_f8(a, bf8, (c & 0x80) | n);
      sn_v(s, 2)[l] = (n < 128 && !isnan(v) && !isnan(vn) && !isinf(vn)) ? fb((float)((v + vn) / 2)) : fb((float)v);
      sn_v(s, 4)[l] = 0x5a5a5a5au;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      unsigned c = base + (unsigned)l, lo = sn_v(s, 3)[l] & 0xff, hi = sn_v(s, 3)[l] >> 8 & 0xff;
      double v = ref_f8(a, bf8, c);
      if (isnan(v)) {
        cr_assert(isnan(ref_f8(a, bf8, lo)), "%s %s NaN -> 0x%02x", emu_arch_name(a), t, lo);
        continue;
      }
      cr_assert_eq(lo, c, "%s %s value %a -> 0x%02x, want 0x%02x", emu_arch_name(a), t, v, lo, c);
      unsigned n = (c & 0x7f) + 1;
      double vn = ref_f8(a, bf8, (c & 0x80) | n);
      if (n < 128 && !isnan(vn) && !isinf(vn)) {
        unsigned want = (c & 1) == 0 ? c : (c & 0x80) | n; /* ties to the even code */
        cr_assert_eq(hi, want, "%s %s midpoint of 0x%02x and 0x%02x -> 0x%02x", emu_arch_name(a), t, c, (c & 0x80) | n, hi);
      }
      cr_assert_eq(sn_v(s, 4)[l] & 0xffff, 0x5a5au, "op_sel:[0,0,1] keeps the low word");
      cr_assert_eq(sn_v(s, 4)[l] >> 16, sn_v(s, 3)[l] & 0xffff, "op_sel:[0,0,1] writes the high word");
    }
    sn_free(s);
  }
  /* overflow: twice the largest finite value */
  snip *s = sn_new(a, src);
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = fb((float)(2 * maxv)), sn_v(s, 2)[l] = fb((float)(-2 * maxv));
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  double o = ref_f8(a, bf8, sn_v(s, 3)[0] & 0xff), on = ref_f8(a, bf8, sn_v(s, 3)[0] >> 8 & 0xff);
  if (a == EMU_GFX950 && bf8) cr_assert(isinf(o) && o > 0 && isinf(on) && on < 0, "OCP bf8 overflows to inf");
  else cr_assert(isnan(o) && isnan(on), "%s %s overflow gives NaN", emu_arch_name(a), t);
  sn_free(s);
  free(src);
}

Test(emu_cvt, f32_to_fp8_bf8_round_to_nearest_even_both_arches)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    encode_case((emu_arch)a, false);
    encode_case((emu_arch)a, true);
  }
}

Test(emu_cvt, pk_f16_off_i4_pk_u8)
{
  /* v_cvt_off_f32_i4 and v_cvt_pk_u8_f32 exist on both; v_cvt_pk_f16_f32 on gfx950 only */
  for (int a = 0; a < EMU_NARCH; a++) {
    bool g950 = a == EMU_GFX950;
    snip *s = sn_new((emu_arch)a, g950 ? "v_cvt_off_f32_i4 v3, v1\nv_cvt_pk_u8_f32 v4, v2, v1, v5\nv_cvt_pk_f16_f32 v6, v2, v7\n"
                                       : "v_cvt_off_f32_i4 v3, v1\nv_cvt_pk_u8_f32 v4, v2, v1, v5\n");
    static const float fin[] = {-3.0f, 0.4f, 0.5f, 1.5f, 2.5f, 254.6f, 300.0f, NAN};
    for (int l = 0; l < 64; l++) {
      sn_v(s, 1)[l] = (uint32_t)l * 0x11u; /* low nibble l % 16, byte select l & 3 */
      sn_v(s, 2)[l] = fb(fin[l % 8]);
      sn_v(s, 5)[l] = 0x11223344u;
      sn_v(s, 7)[l] = fb(1.0f / 3.0f);
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      int n = l % 16;
      float want = (float)(n >= 8 ? n - 16 : n) / 16.0f; /* signed int4 / 16 */
      cr_assert_eq(bf(sn_v(s, 3)[l]), want, "cvt_off_f32_i4 lane %d", l);
      float x = fin[l % 8];
      double r = isnan(x) ? 0 : nearbyint(x); /* RNE: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2 */
      uint32_t u = r < 0 ? 0 : r > 255 ? 255 : (uint32_t)r;
      unsigned sh = 8 * ((uint32_t)l * 0x11u & 3);
      cr_assert_eq(sn_v(s, 4)[l], (0x11223344u & ~(0xffu << sh)) | u << sh, "cvt_pk_u8_f32 lane %d", l);
      if (g950) {
        uint32_t d = sn_v(s, 6)[l];
        float lo = bf(sn_v(s, 2)[l]);
        /* 1/3 in f16 round to nearest even: 0x3555; the low half is the f16 of src0 */
        cr_assert_eq(d >> 16, 0x3555u, "pk_f16 high = f16(1/3)");
        if (!isnan(lo)) { /* f16 round to nearest even: quantum 2^(floor(log2|x|) - 10) for normal x */
          double q = ldexp(1.0, ilogb(lo) - 10), want16 = nearbyint(lo / q) * q;
          cr_assert_eq((double)emu_f16_to_f32((uint16_t)d), want16, "pk_f16 low lane %d: %a", l, lo);
        } else {
          cr_assert((d & 0x7c00) == 0x7c00 && (d & 0x3ff), "pk_f16 of NaN is NaN");
        }
      }
    }
    sn_free(s);
  }
}

Test(emu_cvt, saturating_integer_adds_with_clamp)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    snip *s = sn_new((emu_arch)a,
                     "v_add_i32 v3, v1, v2 clamp\nv_sub_i32 v4, v1, v2 clamp\nv_add_i32 v5, v1, v2\n"
                     "v_add_u32_e64 v6, v1, v2 clamp\nv_sub_u32_e64 v7, v1, v2 clamp\n"
                     "v_add_co_u32_e64 v8, s[10:11], v1, v2 clamp\nv_sub_co_u32_e64 v9, s[12:13], v1, v2 clamp\n"
                     "v_add_u16_e64 v10, v1, v2 clamp\nv_add_i16 v11, v1, v2 clamp\n");
    static const uint32_t A[] = {0x7ffffff0u, 0x80000010u, 5u, 0xfffffffeu, 0x7ff0u, 0x8010u};
    static const uint32_t B[] = {0x20u, 0x20u, 7u, 3u, 0x20u, 0xffe0u};
    for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = A[l % 6], sn_v(s, 2)[l] = B[l % 6], sn_v(s, 11)[l] = 0xdead0000u;
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      int64_t x = (int32_t)A[l % 6], y = (int32_t)B[l % 6];
      int64_t sa = x + y, ss = x - y;
      sa = sa > INT32_MAX ? INT32_MAX : sa < INT32_MIN ? INT32_MIN : sa;
      ss = ss > INT32_MAX ? INT32_MAX : ss < INT32_MIN ? INT32_MIN : ss;
      uint64_t ua = (uint64_t)A[l % 6] + B[l % 6];
      int64_t us = (int64_t)A[l % 6] - B[l % 6];
      cr_assert_eq(sn_v(s, 3)[l], (uint32_t)sa, "v_add_i32 clamp lane %d", l);
      cr_assert_eq(sn_v(s, 4)[l], (uint32_t)ss, "v_sub_i32 clamp lane %d", l);
      cr_assert_eq(sn_v(s, 5)[l], A[l % 6] + B[l % 6], "v_add_i32 wraps without clamp");
      cr_assert_eq(sn_v(s, 6)[l], ua > 0xffffffffu ? 0xffffffffu : (uint32_t)ua, "v_add_u32 clamp lane %d", l);
      cr_assert_eq(sn_v(s, 7)[l], us < 0 ? 0u : (uint32_t)us, "v_sub_u32 clamp lane %d", l);
      cr_assert_eq(sn_v(s, 8)[l], ua > 0xffffffffu ? 0xffffffffu : (uint32_t)ua, "v_add_co_u32 clamp");
      cr_assert_eq(sn_v(s, 9)[l], us < 0 ? 0u : (uint32_t)us, "v_sub_co_u32 clamp");
      uint32_t u16 = (A[l % 6] & 0xffff) + (B[l % 6] & 0xffff);
      cr_assert_eq(sn_v(s, 10)[l] & 0xffff, u16 > 0xffff ? 0xffffu : u16, "v_add_u16 clamp lane %d", l);
      int32_t i16 = (int16_t)A[l % 6] + (int16_t)B[l % 6];
      i16 = i16 > 32767 ? 32767 : i16 < -32768 ? -32768 : i16;
      cr_assert_eq(sn_v(s, 11)[l], 0xdead0000u | ((uint32_t)i16 & 0xffff), "v_add_i16 clamp keeps the high half, lane %d", l);
    }
    sn_free(s);
  }
}

/* Without clamp the 32-bit adds wrap modulo 2^32 (the low half of the exact result, signed or not),
 * and v_mad_u64_u32's carry-out is the wrap of S0 * S1 + S2 past 2^64 (CDNA3 ISA "V_MAD_U64_U32"):
 * pseudo-random operands plus the edges, against the formulas in 128-bit arithmetic. */
static void on_every_simd_path(void (*check)(void));
static void wrapping_adds_case(void)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    snip *s = sn_new((emu_arch)a,
                     "v_add_u32 v3, v1, v2\nv_sub_u32 v4, v1, v2\nv_subrev_u32 v5, v1, v2\n"
                     "v_add_i32 v6, v1, v2\nv_sub_i32 v7, v1, v2\nv_add_u32 v8, s20, v1\n"
                     "v_mad_u64_u32 v[10:11], s[12:13], v1, v2, v[20:21]\n"
                     "v_mad_u64_u32 v[14:15], vcc, v1, v2, s[22:23]\n"
                     "v_mad_u64_u32 v[24:25], s[14:15], v24, v25, v[24:25]\n");
    uint32_t A[64], B[64];
    uint64_t C[64], x = 0x9e3779b97f4a7c15ull;
    for (int l = 0; l < 64; l++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      A[l] = (uint32_t)x, B[l] = (uint32_t)(x >> 32);
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      C[l] = x;
    }
    /* edges: the largest product plus the largest addend (carries), the largest product plus the
     * addend that just does not carry, and zeros */
    A[0] = B[0] = 0xffffffffu, C[0] = ~0ull;
    A[1] = B[1] = 0xffffffffu, C[1] = 0x1fffffffeull;
    A[2] = B[2] = 0xffffffffu, C[2] = 0x1ffffffffull;
    A[3] = 0, B[3] = 0, C[3] = ~0ull;
    A[4] = 0x80000000u, B[4] = 0x80000000u;
    A[5] = 3, B[5] = 5, C[5] = 0; /* a zero addend: the sum equals the product and does not carry */
    /* the records as the op table holds them (the AVX2 build's where the host has it), then the
     * baseline build's handler called directly (both call emu/simd.c's sum on the path that is on) */
    uint64_t co = 0;
    for (int mode = 0; mode < 2; mode++) {
    for (int l = 0; l < 64; l++) {
      sn_v(s, 10)[l] = sn_v(s, 11)[l] = sn_v(s, 14)[l] = sn_v(s, 15)[l] = 0xdeadbeefu; /* none left from mode 0 */
      sn_v(s, 1)[l] = A[l], sn_v(s, 2)[l] = B[l];
      sn_v(s, 20)[l] = (uint32_t)C[l], sn_v(s, 21)[l] = (uint32_t)(C[l] >> 32);
      sn_v(s, 24)[l] = A[l], sn_v(s, 25)[l] = B[l]; /* destination = sources (the whole-wave path reads first) */
    }
    s->w.s[20] = 0xfffffff0u;
    s->w.s[22] = 0x89abcdefu, s->w.s[23] = 0xfedcba98u;
    for (int r = 12; r <= 15; r++) s->w.s[r] = 0x5a5a5a5au;
    s->w.s[106] = s->w.s[107] = 0x5a5a5a5au;
    if (mode == 0) cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    else
      for (int r = 6; r <= 8; r++) cr_assert_eq(emu_op_v_mad_u64_u32(&s->w, &s->p->insns[r]), EMU_OK, "%s", s->f.msg);
    uint64_t co2 = 0, C2 = 0xfedcba9889abcdefull;
    co = 0;
    for (int l = 0; l < 64; l++) {
      cr_assert_eq(sn_v(s, 3)[l], (uint32_t)((uint64_t)A[l] + B[l]), "v_add_u32 lane %d", l);
      cr_assert_eq(sn_v(s, 4)[l], (uint32_t)((uint64_t)A[l] - B[l]), "v_sub_u32 lane %d", l);
      cr_assert_eq(sn_v(s, 5)[l], (uint32_t)((uint64_t)B[l] - A[l]), "v_subrev_u32 lane %d", l);
      cr_assert_eq(sn_v(s, 6)[l], (uint32_t)((int64_t)(int32_t)A[l] + (int32_t)B[l]), "v_add_i32 lane %d", l);
      cr_assert_eq(sn_v(s, 7)[l], (uint32_t)((int64_t)(int32_t)A[l] - (int32_t)B[l]), "v_sub_i32 lane %d", l);
      cr_assert_eq(sn_v(s, 8)[l], (uint32_t)(0xfffffff0ull + A[l]), "v_add_u32 with an SGPR lane %d", l);
      unsigned __int128 r = (unsigned __int128)A[l] * B[l] + C[l], r2 = (unsigned __int128)A[l] * B[l] + C2;
      uint64_t got = sn_v(s, 10)[l] | (uint64_t)sn_v(s, 11)[l] << 32, got2 = sn_v(s, 14)[l] | (uint64_t)sn_v(s, 15)[l] << 32;
      cr_assert_eq(got, (uint64_t)r, "v_mad_u64_u32 lane %d", l);
      cr_assert_eq(got2, (uint64_t)r2, "v_mad_u64_u32 (SGPR addend) lane %d", l);
      co |= (uint64_t)(r >> 64 & 1) << l, co2 |= (uint64_t)(r2 >> 64 & 1) << l;
    }
    cr_assert(co & 1, "lane 0 carries");
    cr_assert(!(co & 2) && (co & 4), "lane 1 does not carry, lane 2 does");
    cr_assert_eq(s->w.s[12] | (uint64_t)s->w.s[13] << 32, co, "v_mad_u64_u32 carry-out mask");
    cr_assert_eq(s->w.s[106] | (uint64_t)s->w.s[107] << 32, co2, "v_mad_u64_u32 carry-out in vcc");
    uint64_t co3 = 0;
    for (int l = 0; l < 64; l++) {
      unsigned __int128 r = (unsigned __int128)A[l] * B[l] + ((uint64_t)B[l] << 32 | A[l]);
      cr_assert_eq(sn_v(s, 24)[l] | (uint64_t)sn_v(s, 25)[l] << 32, (uint64_t)r, "v_mad_u64_u32 in place lane %d", l);
      co3 |= (uint64_t)(r >> 64 & 1) << l;
    }
    cr_assert_eq(s->w.s[14] | (uint64_t)s->w.s[15] << 32, co3, "v_mad_u64_u32 in place carry-out mask");
    }
    /* a partial EXEC (the lane loop; EXEC all ones above took the whole-wave path): active lanes
     * by the formula, carry bits of inactive lanes 0, inactive lanes of the destination kept */
    const uint64_t ex = 0x00ff00ff0f0f0f0full;
    for (int l = 0; l < 64; l++) sn_v(s, 10)[l] = 0xdead0000u | (uint32_t)l, sn_v(s, 11)[l] = 0xbeef0000u;
    sn_exec(s, ex);
    cr_assert_eq(s->p->insns[6].fn(&s->w, &s->p->insns[6]), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      unsigned __int128 r = (unsigned __int128)A[l] * B[l] + C[l];
      uint64_t got = sn_v(s, 10)[l] | (uint64_t)sn_v(s, 11)[l] << 32;
      cr_assert_eq(got, (ex >> l & 1) ? (uint64_t)r : (0xbeef0000ull << 32 | 0xdead0000u | (uint64_t)l),
                   "v_mad_u64_u32, partial EXEC, lane %d", l);
    }
    cr_assert_eq(s->w.s[12] | (uint64_t)s->w.s[13] << 32, co & ex, "v_mad_u64_u32 carry-out under a partial EXEC");
    sn_free(s);
  }
}
/* on every path this CPU has (the whole-wave sum: emu/simd.c emu_mad_u64_u32_64's AVX-512 and AVX2
 * kernels and its portable loop) */
Test(emu_cvt, wrapping_integer_adds_and_mad_u64_carry) { on_every_simd_path(wrapping_adds_case); }

/* The 64-bit integer ops of clang's address arithmetic (CDNA3 ISA "V_LSHL_ADD_U64": D = (S0 << S1[2:0])
 * + S2, counts above 4 unsupported and taken as 0 (emu/op_valu.c); "V_LSHLREV_B64": D = S1 << S0[5:0];
 * "V_MOV_B64") with SGPR-pair, VGPR-pair and constant sources, uniform and per-lane counts, the whole
 * wave and a partial EXEC, against the formulas in 64-bit arithmetic. */
Test(emu_cvt, sixty_four_bit_address_ops)
{
  for (int a = 0; a < EMU_NARCH; a++)
    for (int part = 0; part < 2; part++) {
      snip *s = sn_new((emu_arch)a,
                       "v_lshl_add_u64 v[10:11], s[20:21], 0, v[2:3]\n"
                       "v_lshl_add_u64 v[12:13], v[2:3], 3, v[4:5]\n"
                       "v_lshl_add_u64 v[14:15], v[2:3], s24, v[4:5]\n"
                       "v_lshl_add_u64 v[16:17], v[2:3], v6, v[4:5]\n"
                       "v_lshl_add_u64 v[18:19], v[2:3], 7, v[4:5]\n"
                       "v_lshlrev_b64 v[20:21], 9, v[2:3]\n"
                       "v_lshlrev_b64 v[22:23], 40, v[2:3]\n"
                       "v_lshlrev_b64 v[24:25], v6, s[20:21]\n"
                       "v_lshlrev_b64 v[26:27], 0, v[2:3]\n"
                       "v_mov_b64 v[28:29], s[20:21]\n"
                       "v_mov_b64 v[30:31], v[2:3]\n"
                       "v_mov_b64 v[32:33], -1\n"
                       "v_lshl_add_u64 v[2:3], v[2:3], 1, v[2:3]\n");
      uint64_t A[64], C[64], x = 0x243f6a8885a308d3ull;
      uint32_t cnt[64];
      for (int l = 0; l < 64; l++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        A[l] = x;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        C[l] = l == 0 ? ~0ull - 5 : x, cnt[l] = (uint32_t)(x >> 58); /* 0..63 */
        sn_v(s, 2)[l] = (uint32_t)A[l], sn_v(s, 3)[l] = (uint32_t)(A[l] >> 32);
        sn_v(s, 4)[l] = (uint32_t)C[l], sn_v(s, 5)[l] = (uint32_t)(C[l] >> 32);
        sn_v(s, 6)[l] = cnt[l];
        for (int r = 10; r < 34; r++) sn_v(s, r)[l] = 0xdeadbeefu;
      }
      const uint64_t S = 0x00007fff12345678ull;
      s->w.s[20] = (uint32_t)S, s->w.s[21] = (uint32_t)(S >> 32), s->w.s[24] = 2;
      uint64_t exec = part ? 0xf0f0f0f0f0f0f0f1ull : ~0ull;
      sn_exec(s, exec);
      cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
      for (int l = 0; l < 64; l++) {
        bool on = exec >> l & 1;
        uint32_t c = cnt[l] & 7;
        uint64_t want[12] = {S + A[l], (A[l] << 3) + C[l], (A[l] << 2) + C[l], (A[l] << (c > 4 ? 0 : c)) + C[l], A[l] + C[l],
                             A[l] << 9, A[l] << 40, S << cnt[l], A[l], S, A[l], ~0ull};
        for (int k = 0; k < 12; k++) {
          uint64_t got = sn_v(s, 10 + 2 * k)[l] | (uint64_t)sn_v(s, 11 + 2 * k)[l] << 32;
          cr_assert_eq(got, on ? want[k] : 0xdeadbeefdeadbeefull, "%s exec %d: result %d lane %d: %llx want %llx",
                       emu_arch_name((emu_arch)a), part, k, l, (unsigned long long)got, (unsigned long long)want[k]);
        }
        uint64_t got = sn_v(s, 2)[l] | (uint64_t)sn_v(s, 3)[l] << 32;
        cr_assert_eq(got, on ? (A[l] << 1) + A[l] : A[l], "destination = both sources, lane %d", l);
      }
      sn_free(s);
    }
}

Test(emu_cvt, sad_prng_dot2_bf16)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    bool g950 = a == EMU_GFX950;
    snip *s = sn_new((emu_arch)a, g950 ? "v_sad_u8 v4, v1, v2, v3\nv_sad_hi_u8 v5, v1, v2, v3\nv_sad_u16 v6, v1, v2, v3\n"
                                         "v_sad_u32 v7, v1, v2, v3\nv_prng_b32 v8, v1\nv_dot2_f32_bf16 v9, v1, v2, v10\n"
                                       : "v_sad_u8 v4, v1, v2, v3\nv_sad_hi_u8 v5, v1, v2, v3\nv_sad_u16 v6, v1, v2, v3\n"
                                         "v_sad_u32 v7, v1, v2, v3\n");
    uint32_t st = 7;
    for (int l = 0; l < 64; l++) {
      sn_v(s, 1)[l] = sn_rand(&st) & 0x7f7f7f7fu; /* bf16 halves finite */
      sn_v(s, 2)[l] = sn_rand(&st) & 0x3f7f3f7fu;
      sn_v(s, 3)[l] = sn_rand(&st) & 0xffff;
      sn_v(s, 10)[l] = fb(0.25f);
    }
    uint32_t x[64], y[64], z[64];
    memcpy(x, sn_v(s, 1), sizeof x), memcpy(y, sn_v(s, 2), sizeof y), memcpy(z, sn_v(s, 3), sizeof z);
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      uint32_t s8 = 0;
      for (int k = 0; k < 4; k++) s8 += (uint32_t)abs((int)(x[l] >> 8 * k & 0xff) - (int)(y[l] >> 8 * k & 0xff));
      uint32_t s16 = (uint32_t)abs((int)(x[l] & 0xffff) - (int)(y[l] & 0xffff)) + (uint32_t)abs((int)(x[l] >> 16) - (int)(y[l] >> 16));
      cr_assert_eq(sn_v(s, 4)[l], s8 + z[l]);
      cr_assert_eq(sn_v(s, 5)[l], (s8 << 16) + z[l]);
      cr_assert_eq(sn_v(s, 6)[l], s16 + z[l]);
      cr_assert_eq(sn_v(s, 7)[l], (x[l] > y[l] ? x[l] - y[l] : y[l] - x[l]) + z[l]);
      if (g950) {
        cr_assert_eq(sn_v(s, 8)[l], (x[l] << 1) ^ ((x[l] >> 31) ? 197u : 0u), "v_prng_b32 LFSR step");
        /* CDNA4 ISA pseudocode: tmp = a.lo*b.lo; tmp += a.hi*b.hi; tmp += S2, each step an f32 operation
         * (tests/test_emu_pcode.c covers the edge values) */
        float t = bf(x[l] << 16) * bf(y[l] << 16);
        t = t + bf(x[l] & 0xffff0000u) * bf(y[l] & 0xffff0000u);
        t = t + 0.25f;
        cr_assert_eq(bf(sn_v(s, 9)[l]), t, "v_dot2_f32_bf16 lane %d", l);
      }
    }
    sn_free(s);
  }
}

/* ---- v_cvt_scalef32_* (gfx950) ------------------------------------------------------------------
 * Rule (CDNA4 ISA; docs/emulator-choices.md): up-conversion = code value x 2^(e-127), e the
 * exponent field of the f32 scale (here always an exact power of two, 2^k); down-conversion encodes
 * x / 2^k. Byte/word selects through op_sel. fp4 = E2M1 (OCP MX spec): value written here. */
static double ref_fp4(unsigned c)
{
  unsigned s = c >> 3 & 1, e = c >> 1 & 3, m = c & 1;
  double v = e ? ldexp(1.0 + m / 2.0, (int)e - 1) : m * 0.5;
  return s ? -v : v;
}
static double ref_f16(unsigned h) /* binary16 bits -> value */
{
  unsigned s = h >> 15 & 1, e = h >> 10 & 31, m = h & 1023;
  double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
  return s ? -v : v;
}
static double ref_bf16(unsigned h) { return bf((uint32_t)h << 16); }
static int sc_k(int l, int lo, int hi) { return lo + l % (hi - lo + 1); } /* the lane's scale exponent */

/* every code of fp8/bf8 (byte 3, byte 2, word 1, word 0 selects) and fp4 (byte 3) up-converted */
Test(emu_cvt, scalef32_up_every_code_and_select)
{
  for (int bf8 = 0; bf8 < 2; bf8++) {
    const char *t = bf8 ? "bf8" : "fp8";
    char *src = ll_fmt("v_cvt_scalef32_f32_%s v4, v1, v2 op_sel:[1,1,0]\n"
                       "v_cvt_scalef32_f16_%s v5, v1, v2 op_sel:[0,1,1]\n"
                       "v_cvt_scalef32_pk_f32_%s v[6:7], v1, v2 op_sel:[1,0,0]\n"
                       "v_cvt_scalef32_pk_f16_%s v8, v1, v2\n"
                       "v_cvt_scalef32_pk_bf16_%s v9, v1, v2\n", t, t, t, t, t);
    int klo = bf8 ? -4 : -4, khi = bf8 ? 0 : 4; /* results stay exact in f16 */
    for (unsigned base = 0; base < 256; base += 64) {
      snip *s = sn_new(EMU_GFX950, src);
      for (int l = 0; l < 64; l++) {
        unsigned c = base + (unsigned)l, c2 = (c + 101) & 0xff, c3 = (c + 37) & 0xff;
        sn_v(s, 1)[l] = c3 | c << 8 | c2 << 16 | c << 24; /* word 0 (c3, c), word 1 (c2, c) */
        sn_v(s, 2)[l] = fb(ldexpf(1.0f, sc_k(l, klo, khi)));
        sn_v(s, 5)[l] = 0x1234abcdu;
      }
      cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
      for (int l = 0; l < 64; l++) {
        unsigned c = base + (unsigned)l, c2 = (c + 101) & 0xff;
        double sc = ldexp(1.0, sc_k(l, klo, khi)), v = ref_f8(EMU_GFX950, bf8, c) * sc,
               v2 = ref_f8(EMU_GFX950, bf8, c2) * sc;
        double got[6] = {bf(sn_v(s, 4)[l]), ref_f16(sn_v(s, 5)[l] >> 16), bf(sn_v(s, 7)[l]),
                         ref_f16(sn_v(s, 8)[l] >> 16), ref_bf16(sn_v(s, 9)[l] >> 16), bf(sn_v(s, 6)[l])};
        double want[6] = {v, v2, v, v, v, v2};
        for (int k = 0; k < 6; k++)
          cr_assert(isnan(want[k]) ? isnan(got[k]) : got[k] == want[k], "%s code 0x%02x/0x%02x form %d lane %d: %g, want %g",
                    t, c, c2, k, l, got[k], want[k]);
        cr_assert_eq(sn_v(s, 5)[l] & 0xffff, 0xabcdu, "f16 op_sel dst: the low half kept");
        double lo8 = ref_f8(EMU_GFX950, bf8, (c + 37) & 0xff) * sc, lo16 = ref_f16(sn_v(s, 8)[l] & 0xffff);
        cr_assert(isnan(lo8) ? isnan(lo16) : lo16 == lo8, "%s pk_f16 low element", t);
      }
      sn_free(s);
    }
    free(src);
  }
  /* fp4: byte 3 of v1 holds codes (hi nibble, lo nibble) */
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_pk_f32_fp4 v[4:5], v1, v2 op_sel:[1,1,0]\n"
                               "v_cvt_scalef32_pk_f16_fp4 v6, v1, v2\n"
                               "v_cvt_scalef32_pk_bf16_fp4 v7, v1, v2 op_sel:[0,1,0]");
  for (int l = 0; l < 64; l++) {
    unsigned lo = (unsigned)l & 15, hi = ((unsigned)l * 7 + 3) & 15;
    sn_v(s, 1)[l] = (lo | hi << 4) * 0x01010101u;
    sn_v(s, 2)[l] = fb(ldexpf(1.0f, sc_k(l, -3, 5)));
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    unsigned lo = (unsigned)l & 15, hi = ((unsigned)l * 7 + 3) & 15;
    double sc = ldexp(1.0, sc_k(l, -3, 5)), a = ref_fp4(lo) * sc, b = ref_fp4(hi) * sc;
    cr_assert(bf(sn_v(s, 4)[l]) == a && bf(sn_v(s, 5)[l]) == b, "fp4 pk_f32 lane %d", l);
    cr_assert(ref_f16(sn_v(s, 6)[l] & 0xffff) == a && ref_f16(sn_v(s, 6)[l] >> 16) == b, "fp4 pk_f16 lane %d", l);
    cr_assert(ref_bf16(sn_v(s, 7)[l] & 0xffff) == a && ref_bf16(sn_v(s, 7)[l] >> 16) == b, "fp4 pk_bf16 lane %d", l);
  }
  sn_free(s);
}

/* down-conversion: every finite code's value times the lane's scale converts back to the code,
 * into the selected word/byte, the rest of vdst kept; fp4 saturates past +-6 */
Test(emu_cvt, scalef32_down_round_trip_and_select)
{
  for (int bf8 = 0; bf8 < 2; bf8++) {
    const char *t = bf8 ? "bf8" : "fp8";
    char *src = ll_fmt("v_cvt_scalef32_pk_%s_f32 v4, v1, v3, v2 op_sel:[0,0,0,1]\n"
                       "v_cvt_scalef32_pk_%s_f16 v5, v6, v2\n"
                       "v_cvt_scalef32_pk_%s_bf16 v7, v8, v2 op_sel:[0,0,1]\n", t, t, t);
    for (unsigned base = 0; base < 256; base += 64) {
      snip *s = sn_new(EMU_GFX950, src);
      for (int l = 0; l < 64; l++) {
        unsigned c = base + (unsigned)l;
        double sc = ldexp(1.0, sc_k(l, -2, 2)), v = ref_f8(EMU_GFX950, bf8, c) * sc;
        float fv = isnan(v) ? 0.0f : (float)v;
        sn_v(s, 1)[l] = fb(fv), sn_v(s, 3)[l] = fb(-fv), sn_v(s, 2)[l] = fb((float)sc);
        /* f16 / bf16 of the same value (exact: fp8 significands fit; range kept by the scale) */
        uint32_t u = fb(fv);
        sn_v(s, 8)[l] = (u >> 16) | (fb(-fv) & 0xffff0000u);
        _Float16 h = (_Float16)fv, hn = (_Float16)-fv;
        uint16_t hb, hnb;
        memcpy(&hb, &h, 2), memcpy(&hnb, &hn, 2);
        sn_v(s, 6)[l] = hb | (uint32_t)hnb << 16;
        sn_v(s, 4)[l] = sn_v(s, 5)[l] = sn_v(s, 7)[l] = 0x5a5a5a5au;
      }
      cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
      for (int l = 0; l < 64; l++) {
        unsigned c = base + (unsigned)l, nc = c ^ 0x80;
        double sc = ldexp(1.0, sc_k(l, -2, 2)), v = ref_f8(EMU_GFX950, bf8, c) * sc;
        if (isnan(v) || isinf(v) || fabs(v) > 65504 || (fabs(v) < 0x1p-14 && v != 0)) continue; /* f16-exact only */
        cr_assert_eq(sn_v(s, 4)[l], 0x5a5au | (c | nc << 8) << 16, "%s pk_f32 code 0x%02x lane %d: 0x%08x", t, c, l, sn_v(s, 4)[l]);
        cr_assert_eq(sn_v(s, 5)[l], 0x5a5a0000u | c | nc << 8, "%s pk_f16 code 0x%02x: 0x%08x", t, c, sn_v(s, 5)[l]);
        cr_assert_eq(sn_v(s, 7)[l], 0x5a5au | (c | nc << 8) << 16, "%s pk_bf16 code 0x%02x: 0x%08x", t, c, sn_v(s, 7)[l]);
      }
      sn_free(s);
    }
    free(src);
  }
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_pk_fp4_f32 v4, v1, v3, v2 op_sel:[0,0,1,1]\n"
                               "v_cvt_scalef32_pk_fp4_f16 v5, v6, v2 op_sel:[0,0,1,0]");
  for (int l = 0; l < 64; l++) {
    unsigned c = (unsigned)l & 15;
    double sc = ldexp(1.0, sc_k(l, -3, 3));
    float a = (float)(ref_fp4(c) * sc), big = l >= 32 ? (float)(100 * sc) : (float)(-ref_fp4(c) * sc);
    sn_v(s, 1)[l] = fb(a), sn_v(s, 3)[l] = fb(big), sn_v(s, 2)[l] = fb((float)sc);
    _Float16 h0 = (_Float16)a, h1 = (_Float16)big;
    uint16_t b0, b1;
    memcpy(&b0, &h0, 2), memcpy(&b1, &h1, 2);
    sn_v(s, 6)[l] = b0 | (uint32_t)b1 << 16;
    sn_v(s, 4)[l] = sn_v(s, 5)[l] = 0x11223344u;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    unsigned c = (unsigned)l & 15, c2 = l >= 32 ? 0x7u : c ^ 8u; /* 100 saturates to +6 (code 7) */
    unsigned p = c | c2 << 4;
    cr_assert_eq(sn_v(s, 4)[l], 0x00223344u | p << 24, "fp4 pk_f32 lane %d: 0x%08x", l, sn_v(s, 4)[l]);
    cr_assert_eq(sn_v(s, 5)[l], 0x11220044u | p << 8, "fp4 pk_f16 lane %d: 0x%08x", l, sn_v(s, 5)[l]);
  }
  sn_free(s);
}

/* the scaled and the f16/bf16 stochastic-rounding conversions are gfx950 only: their encoding
 * does not decode to them on gfx942 */
Test(emu_cvt, scalef32_and_sr16_gfx950_only)
{
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_pk_fp4_f32 v4, v1, v3, v2\nv_cvt_scalef32_f32_fp8 v1, v2, v3\n"
                               "v_cvt_scalef32_sr_fp8_f32 v1, v2, v3, v4\nv_cvt_sr_f16_f32 v1, v2, v3\n"
                               "v_cvt_sr_bf16_f32 v1, v2, v3");
  ll_err e = {0};
  emu_program *p = emu_program_decode(EMU_GFX942, s->code, s->ncode, 0, &e);
  cr_assert_not_null(p, "%s", e.msg);
  for (size_t i = 0; i < 5 && i < p->n; i++)
    cr_assert(!(p->insns[i].implemented && !strcmp(p->insns[i].mnem, s->p->insns[i].mnem)), "gfx942 decoded '%s'",
              p->insns[i].text);
  emu_program_free(p);
  sn_free(s);
}

/* fp6 (E2M3, bias 1) / bf6 (E3M2, bias 3), OCP MX spec: value of a 6-bit code */
static double ref_f6(bool bf6, unsigned c)
{
  int mb = bf6 ? 2 : 3, eb = bf6 ? 3 : 2, bias = bf6 ? 3 : 1;
  unsigned s = c >> 5 & 1, e = c >> mb & ((1u << eb) - 1), m = c & ((1u << mb) - 1);
  double v = e ? ldexp(1.0 + m / (double)(1 << mb), (int)e - bias) : ldexp(m / (double)(1 << mb), 1 - bias);
  return s ? -v : v;
}
/* code i of lane l in the tests below (every code appears), and its 6 bits at bit 6i of 6 VGPRs */
static unsigned f6_code(int l, int i) { return (unsigned)(l + 7 * i) & 63; }
static void put6(snip *s, int base, int l, int i, unsigned c)
{
  for (int q = 0; q < 6; q++) {
    int bit = 6 * i + q;
    uint32_t *r = &sn_v(s, base + bit / 32)[l];
    *r = (*r & ~(1u << (bit % 32))) | ((c >> q & 1u) << (bit % 32));
  }
}

Test(emu_cvt, scalef32_fp6_bf6_blocks_of_32)
{
  for (int bf6 = 0; bf6 < 2; bf6++) {
    const char *t = bf6 ? "bf6" : "fp6";
    /* up: v[40:45] codes, v46 scale -> 32 f32 at v[0:31], 16 f16 pairs at v[64:79], bf16 at v[80:95];
     * down: the f16 pairs back to codes at v[100:105], 2xpk16 from the f32 at v[110:115] */
    char *src = ll_fmt("v_cvt_scalef32_pk32_f32_%s v[0:31], v[40:45], v46\n"
                       "v_cvt_scalef32_pk32_f16_%s v[64:79], v[40:45], v46\n"
                       "v_cvt_scalef32_pk32_bf16_%s v[80:95], v[40:45], v46\n"
                       "v_cvt_scalef32_pk32_%s_f16 v[100:105], v[64:79], v46\n"
                       "v_cvt_scalef32_pk32_%s_bf16 v[120:125], v[80:95], v46\n"
                       "v_cvt_scalef32_2xpk16_%s_f32 v[110:115], v[0:15], v[16:31], v46\n", t, t, t, t, t, t);
    snip *s = sn_new(EMU_GFX950, src);
    for (int l = 0; l < 64; l++) {
      for (int i = 0; i < 32; i++) put6(s, 40, l, i, f6_code(l, i));
      sn_v(s, 46)[l] = fb(ldexpf(1.0f, sc_k(l, -3, 3)));
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      double sc = ldexp(1.0, sc_k(l, -3, 3));
      for (int i = 0; i < 32; i++) {
        double v = ref_f6(bf6, f6_code(l, i)) * sc;
        unsigned h = sn_v(s, 64 + i / 2)[l] >> (16 * (i & 1)) & 0xffff, b = sn_v(s, 80 + i / 2)[l] >> (16 * (i & 1)) & 0xffff;
        cr_assert(bf(sn_v(s, i)[l]) == v && ref_f16(h) == v && ref_bf16(b) == v, "%s lane %d code %d: %g %g %g want %g", t,
                  l, i, bf(sn_v(s, i)[l]), ref_f16(h), ref_bf16(b), v);
      }
      for (int k = 0; k < 6; k++) /* round trips give the codes back, bit for bit (the -0 code too) */
        cr_assert(sn_v(s, 100 + k)[l] == sn_v(s, 40 + k)[l] && sn_v(s, 120 + k)[l] == sn_v(s, 40 + k)[l] &&
                      sn_v(s, 110 + k)[l] == sn_v(s, 40 + k)[l],
                  "%s lane %d reg %d: 0x%08x 0x%08x 0x%08x, codes 0x%08x", t, l, k, sn_v(s, 100 + k)[l],
                  sn_v(s, 120 + k)[l], sn_v(s, 110 + k)[l], sn_v(s, 40 + k)[l]);
    }
    sn_free(s);
    free(src);
  }
  /* saturation: 1000 converts to the largest code (fp6 7.5 = 0x1f, bf6 28 = 0x1f) */
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_2xpk16_fp6_f32 v[0:5], v[8:23], v[24:39], v40\n"
                               "v_cvt_scalef32_2xpk16_bf6_f32 v[50:55], v[8:23], v[24:39], v40");
  for (int l = 0; l < 64; l++) {
    for (int r = 8; r < 40; r++) sn_v(s, r)[l] = fb(r & 1 ? 1000.0f : -1000.0f);
    sn_v(s, 40)[l] = fb(1.0f);
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int i = 0; i < 32; i++) {
    unsigned want = (8 + i) & 1 ? 0x1fu : 0x3fu;
    int bit = 6 * i;
    uint64_t lo = sn_v(s, bit / 32)[0] | (uint64_t)(bit / 32 < 5 ? sn_v(s, bit / 32 + 1)[0] : 0) << 32;
    uint64_t lo6 = sn_v(s, 50 + bit / 32)[0] | (uint64_t)(bit / 32 < 5 ? sn_v(s, 51 + bit / 32)[0] : 0) << 32;
    cr_assert_eq((unsigned)(lo >> (bit % 32) & 63), want, "fp6 code %d", i);
    cr_assert_eq((unsigned)(lo6 >> (bit % 32) & 63), want, "bf6 code %d", i);
  }
  sn_free(s);
}

/* ---- stochastic rounding: v_cvt_sr_* (gfx942, gfx950), v_cvt_scalef32_sr_* (gfx950) -------------
 * The rule (docs/emulator-choices.md "Stochastic rounding"): a source value is S * 2^k (S its
 * integer significand); the result's LSB is 2^lsb, lsb = max(floor(log2|x|), emin) - mb; D is the
 * W = (source mantissa bits - mb) bits of x just below that LSB (lower ones dropped); R = rnd >>
 * (32 - W); the magnitude is truncated to the LSB and one LSB added iff D + R >= 2^W. Written
 * here with integers on the source bits, independently of emu/op_cvt.c. */
typedef struct { uint64_t S; int k; bool neg, nan, inf; } srcv;

static srcv src_bits(int mb, int eb, uint32_t u) /* f32 (23, 8), f16 (10, 5), bf16 (7, 8) */
{
  int bias = (1 << (eb - 1)) - 1;
  unsigned E = u >> mb & ((1u << eb) - 1), M = u & ((1u << mb) - 1), top = (1u << eb) - 1;
  srcv v = {E ? M | 1u << mb : M, (E ? (int)E : 1) - bias - mb, (u >> (mb + eb)) & 1, E == top && M, E == top && !M};
  return v;
}

/* |v| / 2^sc rounded stochastically to mb mantissa bits, smallest normal exponent emin */
static double ref_sr(srcv v, int sc, int mb, int emin, int W, uint32_t rnd)
{
  if (!v.S) return 0;
  int k = v.k - sc, bl = 63 - __builtin_clzll(v.S), e = bl + k > emin ? bl + k : emin;
  int lsb = e - mb, sh = lsb - k;
  uint64_t kept, D;
  if (sh <= 0) kept = v.S << -sh, D = 0;
  else if (sh >= 48) kept = 0, D = 0;
  else {
    uint64_t disc = v.S & ((1ull << sh) - 1);
    kept = v.S >> sh, D = sh >= W ? disc >> (sh - W) : disc << (W - sh);
  }
  kept += D + (rnd >> (32 - W)) >= 1ull << W;
  return ldexp((double)kept, lsb);
}

/* a narrow format as a decode table (fp8/bf8 of an arch, fp4, fp6, bf6) */
typedef struct { const char *name; int mb, emin, n; double tab[256], max; bool sat, inf; } tfmt;
static tfmt tf_f8(emu_arch a, bool bf8)
{
  tfmt f = {bf8 ? "bf8" : "fp8", bf8 ? 2 : 3, 0, 256, {0}, 0, false, a == EMU_GFX950 && bf8};
  f.emin = 1 - (a == EMU_GFX942 ? (bf8 ? 16 : 8) : (bf8 ? 15 : 7));
  for (unsigned c = 0; c < 256; c++) f.tab[c] = ref_f8(a, bf8, c);
  return f;
}
static double ref_f6(bool bf6, unsigned c);
static tfmt tf_small(int kind) /* 0 fp4 E2M1, 1 fp6 E2M3, 2 bf6 E3M2 (OCP MX) */
{
  tfmt f = {kind == 0 ? "fp4" : kind == 1 ? "fp6" : "bf6", kind == 0 ? 1 : kind == 1 ? 3 : 2, kind == 2 ? -2 : 0,
            kind == 0 ? 16 : 64, {0}, 0, true, false};
  for (int c = 0; c < f.n; c++) f.tab[c] = kind == 0 ? ref_fp4((unsigned)c) : ref_f6(kind == 2, (unsigned)c);
  return f;
}
static void tf_max(tfmt *f)
{
  for (int c = 0; c < f->n; c++)
    if (!isnan(f->tab[c]) && !isinf(f->tab[c]) && fabs(f->tab[c]) > f->max) f->max = fabs(f->tab[c]);
}

/* the code `got` is what the rule gives for source v, scale exponent sc, source mantissa bits smb */
static void check_sr(const tfmt *f, srcv v, int sc, int smb, uint32_t rnd, unsigned got, const char *what, int l)
{
  double g = f->tab[got];
  if (v.nan) {
    cr_assert(f->sat ? fabs(g) == f->max : isnan(g), "%s %s lane %d: NaN gave code 0x%02x", what, f->name, l, got);
    return;
  }
  double x = ldexp((double)v.S, v.k - sc), want = v.inf ? INFINITY : ref_sr(v, sc, f->mb, f->emin, smb - f->mb, rnd);
  if (v.neg) want = -want, x = -x;
  if (fabs(want) > f->max) {
    if (f->sat) cr_assert(g == (v.neg ? -f->max : f->max), "%s %s lane %d: %a saturates, got %a", what, f->name, l, x, g);
    else if (f->inf) cr_assert(isinf(g) && signbit(g) == v.neg, "%s %s lane %d: %a overflows to inf, got %a", what, f->name, l, x, g);
    else cr_assert(isnan(g), "%s %s lane %d: %a overflows to NaN, got %a", what, f->name, l, x, g);
    return;
  }
  bool fnuz = f->n == 256 && !f->inf && isnan(f->tab[0x80]); /* FNUZ: one zero, +0 */
  cr_assert(g == want && (want != 0 || fnuz || f->sat || signbit(g) == v.neg),
            "%s %s lane %d: x %a rnd 0x%08x scale 2^%d: got code 0x%02x (%a), want %a", what, f->name, l, x, rnd, sc, got, g,
            want);
  /* the two ends of the rule, as stated: random 0 truncates the magnitude; random all ones rounds
   * up whenever a bit below the LSB is set (the normal range, where every such bit is in D) */
  if (!v.inf && rnd == 0) cr_assert(fabs(g) <= fabs(x), "%s rnd 0 must truncate: %a -> %a", f->name, x, g);
  if (!v.inf && rnd == ~0u && fabs(x) >= ldexp(1.0, f->emin) && smb == 23)
    cr_assert(fabs(g) >= fabs(x), "%s rnd ~0 must round up: %a -> %a", f->name, x, g);
}

/* a random f32 with exponent in [lo, hi] (unbiased), or a special value on a few lanes */
static uint32_t rnd_f32(uint32_t *st, int l, int round, int lo, int hi)
{
  uint32_t r = sn_rand(st), sgn = r & 0x80000000u;
  switch (l) {
  case 63: return 0x7fc00000u | (r & 0x3fffff) | sgn;    /* NaN */
  case 62: return 0x7f800000u | sgn;                     /* inf */
  case 61: return round & 1 ? 0x80000000u : 0;           /* +-0 */
  case 60: return (r & 0x7fffff) | sgn;                  /* f32 subnormal */
  }
  int e = lo + (int)(sn_rand(st) % (uint32_t)(hi - lo + 1));
  return sgn | (uint32_t)(e + 127) << 23 | (sn_rand(st) & 0x7fffff);
}
static uint32_t lane_rnd(uint32_t *st, int l) { return l == 0 ? 0u : l == 1 ? ~0u : sn_rand(st); }

/* v_cvt_sr_fp8/bf8_f32 on both arches: a sweep of values (subnormal to overflow) and random
 * operands against the rule, each byte select once with the other bytes of vdst kept */
Test(emu_cvt, sr_fp8_bf8_f32_both_arches)
{
  const char *src = "v_cvt_sr_fp8_f32 v4, v1, v2 op_sel:[0,0,1,1]\nv_cvt_sr_bf8_f32 v5, v1, v2\n"
                    "v_cvt_sr_fp8_f32 v6, v1, v2 op_sel:[0,0,0,1]\nv_cvt_sr_bf8_f32 v7, v1, v2 op_sel:[0,0,1,0]\n";
  for (int a = 0; a < EMU_NARCH; a++) {
    tfmt f8 = tf_f8((emu_arch)a, false), b8 = tf_f8((emu_arch)a, true);
    tf_max(&f8), tf_max(&b8);
    snip *s = sn_new((emu_arch)a, src);
    uint32_t st = 0x2545f491u + (uint32_t)a;
    for (int round = 0; round < 48; round++) {
      uint32_t x[64], r[64];
      for (int l = 0; l < 64; l++) {
        x[l] = rnd_f32(&st, l, round, -24, 17), r[l] = lane_rnd(&st, l);
        sn_v(s, 1)[l] = x[l], sn_v(s, 2)[l] = r[l];
        sn_v(s, 4)[l] = sn_v(s, 5)[l] = sn_v(s, 6)[l] = sn_v(s, 7)[l] = 0xa5c3e1f7u;
      }
      cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
      for (int l = 0; l < 64; l++) {
        srcv v = src_bits(23, 8, x[l]);
        uint32_t d4 = sn_v(s, 4)[l], d5 = sn_v(s, 5)[l], d6 = sn_v(s, 6)[l], d7 = sn_v(s, 7)[l];
        cr_assert(d4 << 8 == 0xa5c3e1f7u << 8 && (d5 & ~0xffu) == (0xa5c3e1f7u & ~0xffu) &&
                  (d6 & ~0xff0000u) == (0xa5c3e1f7u & ~0xff0000u) && (d7 & ~0xff00u) == (0xa5c3e1f7u & ~0xff00u),
                  "%s lane %d: a byte outside the select changed", emu_arch_name((emu_arch)a), l);
        check_sr(&f8, v, 0, 23, r[l], d4 >> 24, emu_arch_name((emu_arch)a), l);
        check_sr(&b8, v, 0, 23, r[l], d5 & 0xff, emu_arch_name((emu_arch)a), l);
        check_sr(&f8, v, 0, 23, r[l], d6 >> 16 & 0xff, emu_arch_name((emu_arch)a), l);
        check_sr(&b8, v, 0, 23, r[l], d7 >> 8 & 0xff, emu_arch_name((emu_arch)a), l);
      }
    }
    sn_free(s);
  }
}

/* every exactly representable value converts to its own code whatever the random operand */
Test(emu_cvt, sr_exact_values_unchanged_for_every_random)
{
  for (int a = 0; a < EMU_NARCH; a++)
    for (int bf8 = 0; bf8 < 2; bf8++) {
      snip *s = sn_new((emu_arch)a, bf8 ? "v_cvt_sr_bf8_f32 v4, v1, v2" : "v_cvt_sr_fp8_f32 v4, v1, v2");
      uint32_t st = 0x9e3779b9u;
      for (unsigned base = 0; base < 256; base += 64)
        for (int rep = 0; rep < 8; rep++) {
          for (int l = 0; l < 64; l++) {
            double v = ref_f8((emu_arch)a, bf8, base + (unsigned)l);
            sn_v(s, 1)[l] = fb(isnan(v) ? 0.0f : (float)v), sn_v(s, 2)[l] = rep == 0 ? 0u : rep == 1 ? ~0u : sn_rand(&st);
          }
          cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
          for (int l = 0; l < 64; l++) {
            unsigned c = base + (unsigned)l;
            if (isnan(ref_f8((emu_arch)a, bf8, c))) continue;
            cr_assert_eq(sn_v(s, 4)[l] & 0xff, c, "%s %s code 0x%02x rnd 0x%08x: got 0x%02x", emu_arch_name((emu_arch)a),
                         bf8 ? "bf8" : "fp8", c, sn_v(s, 2)[l], sn_v(s, 4)[l] & 0xff);
          }
        }
      sn_free(s);
    }
}

/* v_cvt_sr_f16/bf16_f32 (gfx950): the rule with W = 13 (f16) and 16 (bf16); overflow to inf, NaN
 * stays NaN; op_sel[3] writes the high half and keeps the low one */
Test(emu_cvt, sr_f16_bf16_f32)
{
  snip *s = sn_new(EMU_GFX950, "v_cvt_sr_f16_f32 v4, v1, v2\nv_cvt_sr_bf16_f32 v5, v1, v2 op_sel:[0,0,1]\n"
                               "v_cvt_sr_bf16_f32 v6, v3, v2");
  uint32_t st = 0x1234567u;
  const double f16max = 65504, bf16max = ldexp(255.0 / 128, 127);
  for (int round = 0; round < 48; round++) {
    uint32_t x[64], y[64], r[64];
    for (int l = 0; l < 64; l++) {
      x[l] = rnd_f32(&st, l, round, -27, 16), y[l] = rnd_f32(&st, l, round, -135, 127), r[l] = lane_rnd(&st, l);
      sn_v(s, 1)[l] = x[l], sn_v(s, 3)[l] = y[l], sn_v(s, 2)[l] = r[l];
      sn_v(s, 4)[l] = sn_v(s, 5)[l] = sn_v(s, 6)[l] = 0x5a5a5a5au;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      for (int k = 0; k < 3; k++) {
        bool bf = k > 0;
        srcv v = src_bits(23, 8, k == 2 ? y[l] : x[l]);
        uint32_t d = sn_v(s, 4 + k)[l], h = k == 1 ? d >> 16 : d & 0xffff, kept = k == 1 ? d & 0xffff : d >> 16;
        cr_assert_eq(kept, 0x5a5au, "lane %d form %d: the other half changed", l, k);
        double g = bf ? ref_bf16(h) : ref_f16(h);
        if (v.nan) { cr_assert(isnan(g), "lane %d form %d: NaN gave 0x%04x", l, k, h); continue; }
        double want = v.inf ? INFINITY : ref_sr(v, 0, bf ? 7 : 10, bf ? -126 : -14, bf ? 16 : 13, r[l]);
        if (want > (bf ? bf16max : f16max)) want = INFINITY;
        if (v.neg) want = -want;
        cr_assert(g == want && signbit(g) == signbit(want), "lane %d form %d: x 0x%08x rnd 0x%08x: got 0x%04x (%a), want %a", l,
                  k, k == 2 ? y[l] : x[l], r[l], h, g, want);
      }
    }
  }
  sn_free(s);
}

/* v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16} (gfx950): the value divided by the lane's scale
 * 2^sc, then the rule with W = 23/10/7 - mb; byte op_sel[3:2], a 16-bit source's high half with
 * op_sel[0] */
Test(emu_cvt, scalef32_sr_fp8_bf8)
{
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_sr_fp8_f32 v4, v1, v2, v3 op_sel:[0,0,1,1]\n"
                               "v_cvt_scalef32_sr_bf8_f32 v5, v1, v2, v3\n"
                               "v_cvt_scalef32_sr_fp8_f16 v6, v7, v2, v3 op_sel:[0,0,0,1]\n"
                               "v_cvt_scalef32_sr_bf8_f16 v8, v7, v2, v3 op_sel:[1,0,1,0]\n"
                               "v_cvt_scalef32_sr_fp8_bf16 v9, v10, v2, v3\n"
                               "v_cvt_scalef32_sr_bf8_bf16 v11, v10, v2, v3 op_sel:[1,0,1,1]\n");
  tfmt f8 = tf_f8(EMU_GFX950, false), b8 = tf_f8(EMU_GFX950, true);
  tf_max(&f8), tf_max(&b8);
  uint32_t st = 0xdeadbeefu;
  for (int round = 0; round < 32; round++) {
    uint32_t x[64], h[64], g[64], r[64];
    for (int l = 0; l < 64; l++) {
      int sc = sc_k(l + round, -6, 6);
      x[l] = rnd_f32(&st, l, round, -24 + sc, 17 + sc), r[l] = lane_rnd(&st, l);
      uint32_t q = sn_rand(&st);
      h[l] = (q & 0x8000u) | ((1 + q % 30) << 10 & 0x7c00u) | (sn_rand(&st) & 0x3ff);
      if (l == 63) h[l] = 0x7e01u;          /* f16 NaN */
      if (l == 60) h[l] = sn_rand(&st) & 0x83ffu; /* f16 subnormal */
      g[l] = x[l] >> 16;                   /* bf16: the f32's top half */
      sn_v(s, 1)[l] = x[l], sn_v(s, 2)[l] = r[l], sn_v(s, 3)[l] = fb(ldexpf(1.0f, sc));
      sn_v(s, 7)[l] = h[l] | (sn_rand(&st) & 0xffff) << 16 | (h[l] ^ 0x4000u) << 16; /* high half: another f16 */
      sn_v(s, 10)[l] = g[l] | (g[l] ^ 0x00400000u >> 16) << 16;
      sn_v(s, 4)[l] = sn_v(s, 5)[l] = sn_v(s, 6)[l] = sn_v(s, 8)[l] = sn_v(s, 9)[l] = sn_v(s, 11)[l] = 0x01234567u;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      int sc = sc_k(l + round, -6, 6);
      uint32_t v7 = sn_v(s, 7)[l], v10 = sn_v(s, 10)[l];
      struct { int reg, byte; const tfmt *f; srcv v; int smb; } c[6] = {
          {4, 3, &f8, src_bits(23, 8, x[l]), 23},       {5, 0, &b8, src_bits(23, 8, x[l]), 23},
          {6, 2, &f8, src_bits(10, 5, v7 & 0xffff), 10}, {8, 1, &b8, src_bits(10, 5, v7 >> 16), 10},
          {9, 0, &f8, src_bits(7, 8, v10 & 0xffff), 7},  {11, 3, &b8, src_bits(7, 8, v10 >> 16), 7}};
      for (int k = 0; k < 6; k++) {
        uint32_t d = sn_v(s, c[k].reg)[l], m = 0xffu << (8 * c[k].byte);
        cr_assert_eq(d & ~m, 0x01234567u & ~m, "form %d lane %d: a byte outside the select changed", k, l);
        check_sr(c[k].f, c[k].v, sc, c[k].smb, r[l], (d & m) >> (8 * c[k].byte), "scalef32_sr", l);
      }
    }
  }
  sn_free(s);
}

/* v_cvt_scalef32_sr_pk_fp4_* (two codes from an f32 pair or the halves of one register, one random
 * value, byte op_sel[3:2]) and v_cvt_scalef32_sr_pk32_{fp6,bf6}_* (32 codes, code i at bits
 * 6i..6i+5 of 6 VGPRs): saturating formats, the rule with W = source bits - mb */
Test(emu_cvt, scalef32_sr_fp4_fp6_bf6)
{
  snip *s = sn_new(EMU_GFX950, "v_cvt_scalef32_sr_pk_fp4_f32 v4, v[0:1], v2, v3 op_sel:[0,0,1,0]\n"
                               "v_cvt_scalef32_sr_pk_fp4_bf16 v5, v6, v2, v3 op_sel:[0,0,1,1]\n"
                               "v_cvt_scalef32_sr_pk32_fp6_f32 v[40:45], v[8:39], v2, v3\n"
                               "v_cvt_scalef32_sr_pk32_bf6_bf16 v[46:51], v[8:23], v2, v3\n");
  tfmt f4 = tf_small(0), f6 = tf_small(1), b6 = tf_small(2);
  tf_max(&f4), tf_max(&f6), tf_max(&b6);
  uint32_t st = 0x600dcafeu;
  for (int round = 0; round < 8; round++) {
    uint32_t r[64];
    for (int l = 0; l < 64; l++) {
      int sc = sc_k(l + round, -3, 3);
      r[l] = lane_rnd(&st, l);
      sn_v(s, 0)[l] = rnd_f32(&st, l, round, -3 + sc, 3 + sc), sn_v(s, 1)[l] = rnd_f32(&st, (l + 7) & 63, round, -3 + sc, 3 + sc);
      sn_v(s, 6)[l] = rnd_f32(&st, l, round, -3 + sc, 3 + sc) >> 16 | (rnd_f32(&st, l ^ 3, round, -3 + sc, 3 + sc) & 0xffff0000u);
      for (int i = 0; i < 32; i++) sn_v(s, 8 + i)[l] = rnd_f32(&st, (l + i) & 63, round, -5 + sc, 5 + sc);
      sn_v(s, 2)[l] = r[l], sn_v(s, 3)[l] = fb(ldexpf(1.0f, sc));
      sn_v(s, 4)[l] = sn_v(s, 5)[l] = 0x89abcdefu;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      int sc = sc_k(l + round, -3, 3);
      uint32_t d4 = sn_v(s, 4)[l], d5 = sn_v(s, 5)[l];
      cr_assert((d4 & ~0xff00u) == (0x89abcdefu & ~0xff00u) && (d5 & 0xffffffu) == 0xabcdefu, "fp4 lane %d: kept bytes", l);
      check_sr(&f4, src_bits(23, 8, sn_v(s, 0)[l]), sc, 23, r[l], d4 >> 8 & 15, "pk_fp4_f32 lo", l);
      check_sr(&f4, src_bits(23, 8, sn_v(s, 1)[l]), sc, 23, r[l], d4 >> 12 & 15, "pk_fp4_f32 hi", l);
      check_sr(&f4, src_bits(7, 8, sn_v(s, 6)[l] & 0xffff), sc, 7, r[l], d5 >> 24 & 15, "pk_fp4_bf16 lo", l);
      check_sr(&f4, src_bits(7, 8, sn_v(s, 6)[l] >> 16), sc, 7, r[l], d5 >> 28, "pk_fp4_bf16 hi", l);
      for (int i = 0; i < 32; i++) {
        int bit = 6 * i;
        uint64_t w6 = sn_v(s, 40 + bit / 32)[l] | (bit / 32 < 5 ? (uint64_t)sn_v(s, 41 + bit / 32)[l] << 32 : 0);
        uint64_t w6b = sn_v(s, 46 + bit / 32)[l] | (bit / 32 < 5 ? (uint64_t)sn_v(s, 47 + bit / 32)[l] << 32 : 0);
        check_sr(&f6, src_bits(23, 8, sn_v(s, 8 + i)[l]), sc, 23, r[l], (unsigned)(w6 >> (bit % 32) & 63), "pk32_fp6_f32", l);
        uint32_t h = sn_v(s, 8 + i / 2)[l] >> (16 * (i & 1)) & 0xffff;
        check_sr(&b6, src_bits(7, 8, h), sc, 7, r[l], (unsigned)(w6b >> (bit % 32) & 63), "pk32_bf6_bf16", l);
      }
    }
  }
  sn_free(s);
}

/* Issue #13's mnemonic families (the conversions, sparse and block-scaled MFMAs, saturating adds,
 * SAD, PRNG, dot2 and permlane swaps AMD's libraries use): every opcode of the VOP1, VOP2, VOP3
 * and VOP3P spaces that LLVM's disassembler decodes, with well-formed (even-aligned) VGPR operands,
 * into a mnemonic of these families must have semantics in the emulator. The list is taken from
 * LLVM, not from lanelab, so a form the emulator does not know shows up here. */
#include <fnmatch.h>
static const char *const fam13[] = {
    "v_cvt_scalef32*", "v_cvt_sr*", "v_smfmac*", "v_mfma_scale*", "v_cvt_pk_fp8*", "v_cvt_pk_bf8*",
    "v_cvt_pk_f32_fp8*", "v_cvt_pk_f32_bf8*", "v_cvt_f32_fp8*", "v_cvt_f32_bf8*", "v_cvt_fp8*", "v_cvt_bf8*",
    "v_cvt_pk_f16_f32*", "v_cvt_off_f32_i4*", "v_cvt_pk_u8_f32*", "v_add_i32*", "v_sub_i32*", "v_sad*", "v_prng*",
    "v_dot2_f32_bf16*", "v_permlane*", NULL};

static size_t fam13_scan(emu_arch a, const uint8_t *b, size_t n, char (*seen)[64], size_t nseen, size_t *missing)
{
  ll_err e = {0};
  emu_program *p = emu_program_decode(a, b, n, 0, &e);
  if (!p) return nseen;
  const emu_insn_info *in = emu_program_count(p) ? emu_program_insn(p, 0) : NULL;
  bool fam = false;
  char m[64] = ""; /* the mnemonic without its encoding suffix */
  if (in && !strstr(in->text, "Invalid") && !strstr(in->text, "Warning")) {
    snprintf(m, sizeof m, "%s", in->mnem);
    size_t l = strlen(m);
    if (l > 4 && (!strcmp(m + l - 4, "_e32") || !strcmp(m + l - 4, "_e64"))) m[l - 4] = 0;
    for (int i = 0; fam13[i]; i++) fam |= fnmatch(fam13[i], m, 0) == 0;
  }
  if (fam) {
    size_t k = 0;
    while (k < nseen && strcmp(seen[k], m)) k++;
    if (k == nseen && nseen < 512) {
      snprintf(seen[nseen++], 64, "%s", m);
      if (!in->implemented) {
        fprintf(stderr, "%s: no semantics: %s\n", a == EMU_GFX942 ? "gfx942" : "gfx950", in->text);
        (*missing)++;
      }
    }
  }
  emu_program_free(p);
  return nseen;
}

Test(emu_cvt, every_decodable_form_of_amds_library_families_has_semantics)
{
  static char seen[512][64];
  for (int ai = 0; ai < 2; ai++) {
    emu_arch a = ai ? EMU_GFX950 : EMU_GFX942;
    size_t nseen = 0, missing = 0;
    uint8_t b[16] = {0};
    uint32_t w[2];
    for (uint32_t op = 0; op < 1024; op++) /* VOP3: vdst v0, sources v2, v4|s0|1, v8|0 */
      for (int v = 0; v < 3; v++) {
        w[0] = 0xD0000000u | op << 16;
        w[1] = (256 + 2) | (v == 2 ? 1u : 256 + 4) << 9 | (v == 1 ? 0u : 256 + 8) << 18;
        memcpy(b, w, 8);
        nseen = fam13_scan(a, b, sizeof b, seen, nseen, &missing);
      }
    for (uint32_t op = 0; op < 128; op++) /* VOP3P: vdst v0, v4, v12, v20|v0 */
      for (int v = 0; v < 2; v++) {
        w[0] = 0xD3800000u | op << 16;
        w[1] = (256 + 4) | (256 + 12) << 9 | (v ? 256 + 20 : 256 + 0) << 18;
        memcpy(b, w, 8);
        nseen = fam13_scan(a, b, sizeof b, seen, nseen, &missing);
      }
    memset(b, 0, sizeof b);
    for (uint32_t op = 0; op < 256; op++) { /* VOP1: vdst v0, src v4 */
      w[0] = 0x7E000000u | op << 9 | (256 + 4);
      memcpy(b, w, 4);
      nseen = fam13_scan(a, b, sizeof b, seen, nseen, &missing);
    }
    for (uint32_t op = 0; op < 63; op++) { /* VOP2: vdst v0, v6, v4 */
      w[0] = op << 25 | 4u << 9 | (256 + 6);
      memcpy(b, w, 4);
      nseen = fam13_scan(a, b, sizeof b, seen, nseen, &missing);
    }
    fprintf(stderr, "%s: %zu mnemonics of the families decoded, %zu without semantics\n",
            a == EMU_GFX942 ? "gfx942" : "gfx950", nseen, missing);
    /* both arches decode their conversions and smfmacs (gfx942: 30 at the time of writing, gfx950: 100) */
    cr_assert_geq(nseen, ai ? 90 : 25, "too few mnemonics decoded (%zu): the scan is broken", nseen);
    cr_assert_eq(missing, 0, "%zu mnemonics without semantics (above)", missing);
  }
}

/* emu/simd.c's whole-wave kernels against the per-lane definitions, on the AVX-512 path (when the
 * CPU has it) and the portable one: f16 -> f32 for every half (NaN payloads kept), f32 -> f16 for
 * a sweep of every 2^32 / 2^22 bit pattern plus each of the 2^16 patterns around the f16 rounding
 * boundaries (subnormal, overflow, sNaN/qNaN), exp2 (v_exp_f32) for the same sweep and every float
 * of [-16, -8) and [0.5, 1), compares of every predicate on NaN/zero/inf mixes, the select (also
 * into one of its sources), blend and bpermute gathers. */
static void simd_check(void)
{
  float f[64], g[64];
  uint16_t h[64], h2[64];
  for (uint32_t base = 0; base < 65536; base += 64) {
    for (int l = 0; l < 64; l++) h[l] = (uint16_t)(base + (uint32_t)l);
    emu_f16_to_f32_64(f, h);
    for (int l = 0; l < 64; l++) cr_assert_eq(fb(f[l]), fb(emu_f16_to_f32(h[l])), "f16 0x%04x", h[l]);
  }
  for (uint64_t k = 0; k < (1ull << 22) + (1ull << 17); k += 64) {
    for (int l = 0; l < 64; l++) {
      uint64_t i = k + (uint64_t)l;
      /* the sweep, then low mantissa patterns under exponents 101..113, 142, 143 and 255 */
      static const uint32_t ex[8] = {102, 103, 112, 113, 142, 143, 255, 101};
      uint32_t u = i < (1ull << 22) ? (uint32_t)(i << 10 | (i & 1023))
                                    : (uint32_t)((i & 0x10000 ? 0x80000000u : 0) | ex[(i >> 14) & 7] << 23 | (uint32_t)(i & 0x3fff) << 9 | (uint32_t)(i & 0x1ff));
      f[l] = bf(u);
    }
    emu_f32_to_f16_64(h2, f);
    for (int l = 0; l < 64; l++) cr_assert_eq(h2[l], emu_f32_to_f16(f[l]), "f32 0x%08x", fb(f[l]));
    emu_exp2_64(g, f);
    for (int l = 0; l < 64; l++) cr_assert_eq(fb(g[l]), fb((float)exp2((double)f[l])), "exp2 of f32 0x%08x", fb(f[l]));
  }
  /* exp2 (v_exp_f32) over every float in [-16, -8) and [0.5, 1): where softmax exponents live */
  for (uint32_t u0 = 0; u0 < (2u << 23); u0 += 64) {
    for (int l = 0; l < 64; l++) f[l] = bf((u0 < (1u << 23) ? 0xc1000000u : 0x3f000000u - (1u << 23)) + u0 + (uint32_t)l);
    emu_exp2_64(g, f);
    for (int l = 0; l < 64; l++) cr_assert_eq(fb(g[l]), fb((float)exp2((double)f[l])), "exp2 of f32 0x%08x", fb(f[l]));
  }
  static const uint32_t vals[8] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x00000001u};
  uint32_t a[64], b[64], d[64], d2[64];
  for (int l = 0; l < 64; l++) a[l] = vals[l & 7], b[l] = vals[l >> 3], f[l] = bf(a[l]), g[l] = bf(b[l]);
  for (int p = EMU_CMP_LT; p <= EMU_CMP_NLT; p++) {
    uint64_t r = 0, want = 0;
    for (int l = 0; l < 64; l++) {
      float x = f[l], y = g[l];
      bool v = p == EMU_CMP_LT ? x < y : p == EMU_CMP_EQ ? x == y : p == EMU_CMP_LE ? x <= y : p == EMU_CMP_GT ? x > y
             : p == EMU_CMP_GE ? x >= y : p == EMU_CMP_NE ? x != y : p == EMU_CMP_LG ? (x < y || x > y)
             : p == EMU_CMP_O ? (x == x && y == y) : p == EMU_CMP_U ? (x != x || y != y) : p == EMU_CMP_NGE ? !(x >= y)
             : p == EMU_CMP_NLG ? !(x < y || x > y) : p == EMU_CMP_NGT ? !(x > y) : p == EMU_CMP_NLE ? !(x <= y)
             : p == EMU_CMP_NEQ ? !(x == y) : !(x < y);
      want |= (uint64_t)v << l;
    }
    if (emu_cmpf32_64(f, g, p, &r)) cr_assert_eq(r, want, "float predicate %d", p);
    if (p > EMU_CMP_NE) continue;
    for (int sg = 0; sg < 2; sg++) {
      want = 0;
      for (int l = 0; l < 64; l++) {
        int64_t x = sg ? (int32_t)a[l] : (int64_t)a[l], y = sg ? (int32_t)b[l] : (int64_t)b[l];
        bool v = p == EMU_CMP_LT ? x < y : p == EMU_CMP_EQ ? x == y : p == EMU_CMP_LE ? x <= y : p == EMU_CMP_GT ? x > y
               : p == EMU_CMP_GE ? x >= y : x != y;
        want |= (uint64_t)v << l;
      }
      if (emu_cmpi32_64(a, b, p, sg, &r)) cr_assert_eq(r, want, "integer predicate %d signed %d", p, sg);
    }
  }
  uint64_t m = 0x9e3779b97f4a7c15ull;
  emu_sel64(d, a, b, m);
  for (int l = 0; l < 64; l++) cr_assert_eq(d[l], (m >> l & 1) ? b[l] : a[l]);
  memcpy(d2, a, sizeof d2); /* the destination may be a source */
  emu_sel64(d2, d2, b, m);
  for (int l = 0; l < 64; l++) cr_assert_eq(d2[l], (m >> l & 1) ? b[l] : a[l]);
  memcpy(d2, a, sizeof d2);
  emu_blend64(d2, b, m);
  for (int l = 0; l < 64; l++) cr_assert_eq(d2[l], (m >> l & 1) ? b[l] : a[l]);
  for (int l = 0; l < 64; l++) d2[l] = (uint32_t)(l * 37 * 4 + (l & 3)) ^ 0xffff0000u, a[l] = 1000u + (uint32_t)l;
  emu_bperm64(d, a, d2, 12);
  for (int l = 0; l < 64; l++) cr_assert_eq(d[l], a[((d2[l] + 12) >> 2) & 63]);
  /* 64-bit lane values from their two halves plus an offset (a carry out of the low half), and
   * back (a 64-bit register's read and write: emu/operand.c emu_src64, emu_dst64) */
  uint64_t q[64], q2[64];
  for (int l = 0; l < 64; l++) a[l] = 0xfffffff0u + (uint32_t)l * 0x01010101u, b[l] = 0x80000000u ^ (uint32_t)(l * 977);
  emu_addr64(q, a, b, 0x30);
  for (int l = 0; l < 64; l++) cr_assert_eq(q[l], ((uint64_t)b[l] << 32 | a[l]) + 0x30, "addr64 lane %d", l);
  emu_addr64(q2, a, b, 0);
  uint32_t lo[64], hi[64];
  emu_split64(lo, hi, q2);
  for (int l = 0; l < 64; l++) cr_assert(lo[l] == a[l] && hi[l] == b[l], "split64 lane %d", l);
}

/* 64-bit LDS reads and writes of a whole wave (the all-lanes fast paths) against the ISA's per-lane
 * definition (CDNA3 ISA "DS_WRITE2_B64": ADDR + OFFSET0 * 8 gets DATA0, ADDR + OFFSET1 * 8 DATA1,
 * lane by lane): two halves that overlap between lanes (lane order decides), two that cannot
 * (st64), both halves of a lane at one address (DATA1 written last), a read2 into the register that holds the address, and partial EXEC. */
static void ds_b64_case(emu_arch arch)
{
  snip *s = sn_new(arch, "ds_write2_b64 v1, v[2:3], v[4:5] offset1:1\n"
                         "ds_write2st64_b64 v6, v[2:3], v[4:5] offset0:1 offset1:3\n"
                         "ds_write2_b64 v7, v[2:3], v[4:5] offset0:3 offset1:3\n"
                         "s_waitcnt lgkmcnt(0)\n"
                         "ds_read_b64 v[10:11], v1 offset:8\n"
                         "ds_read2st64_b64 v[12:15], v6 offset0:1 offset1:3\n"
                         "ds_read2_b64 v[16:19], v16 offset1:1\n"
                         "s_waitcnt lgkmcnt(0)\n");
  for (int l = 0; l < 64; l++) {
    sn_v(s, 1)[l] = 8u * (uint32_t)l;            /* lane l's second half is lane l+1's first */
    sn_v(s, 6)[l] = 4096u + 8u * (uint32_t)(l ^ 1);
    sn_v(s, 7)[l] = 6144u + 8u * (uint32_t)l; /* both halves at the same address: DATA1 last */
    sn_v(s, 16)[l] = 8u * (uint32_t)(63 - l);
    sn_v(s, 2)[l] = 0x20000000u + (uint32_t)l, sn_v(s, 3)[l] = 0x30000000u + (uint32_t)l;
    sn_v(s, 4)[l] = 0x40000000u + (uint32_t)l, sn_v(s, 5)[l] = 0x50000000u + (uint32_t)l;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  /* the definition, lane by lane, on a model of the LDS */
  static uint8_t m[8192];
  memset(m, 0, sizeof m);
  for (int l = 0; l < 64; l++) {
    uint32_t d0[2] = {0x20000000u + (uint32_t)l, 0x30000000u + (uint32_t)l}, d1[2] = {0x40000000u + (uint32_t)l, 0x50000000u + (uint32_t)l};
    memcpy(m + 8 * l, d0, 8), memcpy(m + 8 * l + 8, d1, 8);
  }
  for (int l = 0; l < 64; l++) {
    uint32_t d0[2] = {0x20000000u + (uint32_t)l, 0x30000000u + (uint32_t)l}, d1[2] = {0x40000000u + (uint32_t)l, 0x50000000u + (uint32_t)l};
    uint32_t a = 4096u + 8u * (uint32_t)(l ^ 1);
    memcpy(m + a + 512, d0, 8), memcpy(m + a + 1536, d1, 8);
  }
  for (int l = 0; l < 64; l++) {
    uint32_t d0[2] = {0x20000000u + (uint32_t)l, 0x30000000u + (uint32_t)l}, d1[2] = {0x40000000u + (uint32_t)l, 0x50000000u + (uint32_t)l};
    memcpy(m + 6144 + 8 * l + 24, d0, 8), memcpy(m + 6144 + 8 * l + 24, d1, 8);
  }
  cr_assert(!memcmp(s->lds, m, sizeof m), "%s: LDS after the writes differs from the lane-order definition",
            emu_arch_name(arch));
  for (int l = 0; l < 64; l++) {
    uint32_t w[2];
    memcpy(w, m + 8 * l + 8, 8);
    cr_assert(sn_v(s, 10)[l] == w[0] && sn_v(s, 11)[l] == w[1], "ds_read_b64 lane %d", l);
    uint32_t a = 4096u + 8u * (uint32_t)(l ^ 1), r0[2], r1[2];
    memcpy(r0, m + a + 512, 8), memcpy(r1, m + a + 1536, 8);
    cr_assert(sn_v(s, 12)[l] == r0[0] && sn_v(s, 13)[l] == r0[1] && sn_v(s, 14)[l] == r1[0] && sn_v(s, 15)[l] == r1[1],
              "ds_read2st64_b64 lane %d", l);
    memcpy(r0, m + 8 * (63 - l), 8), memcpy(r1, m + 8 * (63 - l) + 8, 8);
    cr_assert(sn_v(s, 16)[l] == r0[0] && sn_v(s, 17)[l] == r0[1] && sn_v(s, 18)[l] == r1[0] && sn_v(s, 19)[l] == r1[1],
              "ds_read2_b64 into its own address register, lane %d", l);
  }
  sn_free(s);
  /* partial EXEC: lanes off neither write nor have their registers written */
  s = sn_new(arch, "ds_write2st64_b64 v6, v[2:3], v[4:5] offset1:2\ns_waitcnt lgkmcnt(0)\nds_read2st64_b64 v[12:15], v6 offset1:2\ns_waitcnt lgkmcnt(0)\n");
  sn_exec(s, 0x00ff00ff00ff00ffull);
  for (int l = 0; l < 64; l++) {
    sn_v(s, 6)[l] = 8u * (uint32_t)l;
    sn_v(s, 2)[l] = sn_v(s, 3)[l] = 0x11110000u + (uint32_t)l, sn_v(s, 4)[l] = sn_v(s, 5)[l] = 0x22220000u + (uint32_t)l;
    for (int k = 12; k < 16; k++) sn_v(s, k)[l] = 0xdeadu;
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    bool on = (0x00ff00ff00ff00ffull >> l) & 1;
    uint32_t x;
    memcpy(&x, s->lds + 8 * l, 4);
    cr_assert_eq(x, on ? 0x11110000u + (uint32_t)l : 0u, "partial EXEC store, lane %d", l);
    cr_assert_eq(sn_v(s, 14)[l], on ? 0x22220000u + (uint32_t)l : 0xdeadu, "partial EXEC read2, lane %d", l);
  }
  sn_free(s);
}

/* The single-address writes (CDNA3 ISA "DS_WRITE_B16" ... "DS_WRITE_B128": lane l's bytes of DATA at
 * ADDR + OFFSET, lanes in order where they overlap) on the stores' own loop per size (issue #31,
 * thirty-seventh stop): b8, b16, b16_d16_hi, b32, b64, b96 and b128 at addresses 4 bytes apart per lane
 * (every access overlaps its neighbours'), an unaligned offset, under a partial EXEC and a full one,
 * against the definition run lane by lane on a model of the LDS. */
Test(emu_cvt, ds_writes_store_lane_by_lane_in_lane_order)
{
  static const struct { const char *op; uint32_t bytes; bool hi; } f[] = {
      {"ds_write_b8", 1, false}, {"ds_write_b16", 2, false}, {"ds_write_b16_d16_hi", 2, true}, {"ds_write_b32", 4, false},
      {"ds_write_b64", 8, false}, {"ds_write_b96", 12, false}, {"ds_write_b128", 16, false}};
  static const uint64_t ex[] = {~0ull, 0x5a5a0ff0f00f3cc3ull};
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    for (int e = 0; e < 2; e++)
      for (int a = 0; a < EMU_NARCH; a++) {
        const uint32_t nw = (f[i].bytes + 3) / 4;
        char src[96];
        if (nw == 1) snprintf(src, sizeof src, "%s v1, v2 offset:6\ns_waitcnt lgkmcnt(0)\n", f[i].op);
        else snprintf(src, sizeof src, "%s v1, v[2:%u] offset:6\ns_waitcnt lgkmcnt(0)\n", f[i].op, 1 + nw);
        snip *s = sn_new((emu_arch)a, src);
        sn_exec(s, ex[e]);
        uint32_t st = 0x9e3779b9u + (uint32_t)i;
        for (int l = 0; l < 64; l++) {
          sn_v(s, 1)[l] = 4u * (uint32_t)(l ^ 5) + (uint32_t)(l & 1);
          for (uint32_t k = 0; k < 4; k++) sn_v(s, 2 + (int)k)[l] = sn_rand(&st);
        }
        static uint8_t m[1024];
        memset(m, 0, sizeof m);
        for (int l = 0; l < 64; l++) {
          if (!(ex[e] >> l & 1)) continue;
          uint32_t v[4];
          for (uint32_t k = 0; k < 4; k++) v[k] = sn_v(s, 2 + (int)k)[l];
          if (f[i].hi) v[0] >>= 16;
          memcpy(m + sn_v(s, 1)[l] + 6, v, f[i].bytes);
        }
        cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
        for (uint32_t b = 0; b < sizeof m; b++)
          cr_assert_eq(s->lds[b], m[b], "%s %s EXEC %016llx: LDS byte %u is 0x%02x, the lane-order definition's 0x%02x",
                       emu_arch_name((emu_arch)a), f[i].op, (unsigned long long)ex[e], b, s->lds[b], m[b]);
        sn_free(s);
      }
}

/* check on every path this CPU has: AVX-512 (if present), AVX2 (if present), portable */
static void on_every_simd_path(void (*check)(void))
{
  bool had = emu_avx512, had2 = emu_avx2;
  check();
  emu_avx512 = false;
  check();
  emu_avx2 = false;
  check();
  emu_avx512 = had, emu_avx2 = had2;
}

/* v_fma_mix*_f16's whole-wave rounding (emu/simd.c emu_fma_f16_64): the exact a * b + c of f32 values
 * rounded once to f16. Lanes 0-7 against values worked out by hand (the f16 neighbours of the exact
 * sum and round to nearest even: a tie kept even, a tie broken by a term 2^-40 that a rounding
 * through f32 first would lose, the overflow midpoint 65520 to infinity, the underflow midpoint
 * 2^-25 to zero and just above it to the smallest subnormal); every lane, NaNs, infinities, zeros,
 * f32 subnormals, near-ties and random bits included, against the lane definition
 * emu_f64_to_f16(emu_fma_ro(a, b, c)) */
static void fma_f16_case(void)
{
  float A[64], B[64], C[64];
  uint16_t h[64];
  static const struct { float a, b, c; uint16_t want; } hand[8] = {
      {1.0f + 0x1p-11f, 1.0f, 0.0f, 0x3c00},          /* halfway between 1 and 1 + 2^-10: even, 1 */
      {1.0f + 0x1p-11f, 1.0f, 0x1p-40f, 0x3c01},      /* just above: up (through f32 first: a tie, 1) */
      {1.0f + 0x1p-11f, 1.0f, -0x1p-40f, 0x3c00},     /* just below: down */
      {1.0f + 3 * 0x1p-11f, 1.0f, 0.0f, 0x3c02},      /* halfway between 0x3c01 and 0x3c02: even */
      {65504.0f, 1.0f, 16.0f, 0x7c00},                /* 65520, the midpoint to 2^16: even is infinity */
      {65504.0f, 1.0f, 15.75f, 0x7bff},               /* below it: the largest finite */
      {0x1p-13f, 0x1p-12f, 0.0f, 0x0000},             /* 2^-25, half the smallest subnormal: even, 0 */
      {-0x1p-13f, 0x1p-12f, -0x1p-60f, 0x8001},       /* just past -2^-25: -2^-24 */
  };
  uint32_t st = 0x2545f491u;
  static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc12345u, 0xffa00001u,
                                0x00000001u, 0x80400000u, 0x477fe000u, 0x477ff000u, 0x33800000u, 0x33000000u,
                                0x3f801000u, 0x3f800800u, 0x7f7fffffu, 0x38800000u, 0x387fc000u, 0xc77fe000u};
  const size_t nsp = sizeof sp / sizeof *sp;
  for (int round = 0; round < 64; round++) {
    for (int l = 0; l < 64; l++) {
      uint32_t x = sn_rand(&st), y = sn_rand(&st), z = sn_rand(&st);
      if (round % 3 == 0) x = sp[x % nsp], y = sp[y % nsp], z = sp[z % nsp];
      else if (round % 3 == 1) { /* f16-sized products near ties: a small mantissa, c far below */
        x = (x & 0x8000000fu) | 0x3f800000u | (x >> 8 & 0x1f) << 13, y = 0x3f800000u | (y & 0x3) << 21;
        z = (z & 0x80000000u) | (0x2e000000u + (z & 0x07ffffffu));
      }
      memcpy(&A[l], &x, 4), memcpy(&B[l], &y, 4), memcpy(&C[l], &z, 4);
    }
    if (round == 0)
      for (int l = 0; l < 8; l++) A[l] = hand[l].a, B[l] = hand[l].b, C[l] = hand[l].c;
    emu_fma_f16_64(h, A, B, C);
    for (int l = 0; l < 64; l++) {
      const uint16_t want = emu_f64_to_f16(emu_fma_ro(A[l], B[l], C[l]));
      cr_assert_eq(h[l], want, "round %d lane %d: %a * %a + %a gives 0x%04x, the definition 0x%04x (avx512 %d)", round,
                   l, (double)A[l], (double)B[l], (double)C[l], h[l], want, emu_avx512);
      if (round == 0 && l < 8)
        cr_assert_eq(h[l], hand[l].want, "lane %d: %a * %a + %a gives 0x%04x, want 0x%04x", l, (double)A[l],
                     (double)B[l], (double)C[l], h[l], hand[l].want);
    }
  }
}
Test(emu_cvt, fma_mix_f16_rounds_the_exact_sum_once_on_every_path) { on_every_simd_path(fma_f16_case); }

static void ds_b64_all_arches(void)
{
  for (int a = 0; a < EMU_NARCH; a++) ds_b64_case((emu_arch)a);
}
/* the handlers on this CPU's paths (emu/simd.c emu_lds_read8_64: AVX-512 gathers, AVX2's scalar
 * loads, the portable loop) */
Test(emu_cvt, ds_b64_whole_wave_paths_follow_the_lane_definition) { on_every_simd_path(ds_b64_all_arches); }

/* emu_lds_read8_64 itself against the lane definition, lane l's 8 bytes at (uint32_t)(a[l] + off):
 * the gfx942 seed's swizzled ds_read_b64 addresses, random ones up to the LDS's last 8 bytes (an
 * LDS of exactly that many bytes on the heap, so the sanitizer build sees the scalar paths read
 * past it; AddressSanitizer does not see a gather's loads), sums that wrap past 2^32 into range,
 * and d0 the address register itself */
static void lds_read8_check(void)
{
  enum { N = 65536 };
  uint8_t *lds = malloc(N);
  cr_assert(lds != NULL);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < N; i++) x ^= x << 13, x ^= x >> 7, x ^= x << 17, lds[i] = (uint8_t)(x >> 24);
  static const uint32_t seed[16] = {0, 264, 528, 792, 1056, 1320, 1584, 1848, 2048, 2312, 2576, 2840, 3104, 3368, 3632, 3896};
  for (int t = 0; t < 400; t++) {
    uint32_t a[64], off = 0, d0[64], d1[64];
    for (int l = 0; l < 64; l++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const uint32_t r = (uint32_t)(x % (N - 7)); /* 0 .. N - 8 */
      if (t == 0) a[l] = seed[l % 16] + 8u * (uint32_t)(l / 16), off = 4096; /* the seed's pattern */
      else if (t < 200) a[l] = r, off = 0;
      else a[l] = r - 1000u, off = 1000; /* r < 1000: a[l] near 2^32, a[l] + off wraps back to r */
      if (t == 1 && l == 63) a[l] = N - 8; /* the last 8 bytes */
    }
    uint32_t want0[64], want1[64];
    for (int l = 0; l < 64; l++) {
      uint32_t ad = a[l] + off;
      cr_assert(ad <= N - 8, "test setup: lane %d address %u", l, ad);
      memcpy(&want0[l], lds + ad, 4), memcpy(&want1[l], lds + ad + 4, 4);
    }
    emu_lds_read8_64(d0, d1, lds, a, off);
    for (int l = 0; l < 64; l++)
      cr_assert(d0[l] == want0[l] && d1[l] == want1[l], "case %d lane %d: 0x%08x 0x%08x, want 0x%08x 0x%08x (avx512 %d avx2 %d)", t, l,
                d0[l], d1[l], want0[l], want1[l], emu_avx512, emu_avx2);
    emu_lds_read8_64(a, d1, lds, a, off); /* d0 is the address register */
    cr_assert(!memcmp(a, want0, sizeof a) && !memcmp(d1, want1, sizeof d1), "case %d: d0 the address register", t);
  }
  free(lds);
}
Test(emu_cvt, lds_read8_follows_the_lane_definition) { on_every_simd_path(lds_read8_check); }

Test(emu_cvt, whole_wave_kernels_match_the_lane_definitions) { on_every_simd_path(simd_check); }
/* emu_tr16_64 (ds_read_b64_tr_b16's whole-wave kernel) against docs/isa.md's rule: output element k
 * of lane 16g+m is 16-bit element m%4 of lane 16g+4k+m/4's 8 bytes, register r holding elements 2r
 * and 2r+1. The LDS is a buffer of exactly lim bytes (so the sanitizer build sees any read past it).
 * Layouts: random slots; each group of four lanes reading the four slots of one aligned 32-byte
 * block in a random order (the seed's V reads); the same with one lane of one group moved to
 * another block; blocks whose last one ends past lim (lim not a multiple of 32: the lanes read
 * its first 8 bytes only); the offset moving every block by 8; the destination on the address
 * register. */
static void tr16_check(void)
{
  uint32_t st = 0x6b43a9b5u;
  for (int round = 0; round < 48; round++) {
    const int layout = round % 4;
    const uint32_t off = round & 4 ? 8 : round & 8 ? 64 : 0;
    const uint32_t lim = layout == 3 ? 16 * 32 + 8 + off : 8192 + off;  /* layout 3: the last block has 8 bytes */
    uint8_t *lds = malloc(lim);
    cr_assert(lds);
    for (uint32_t i = 0; i < lim; i++) lds[i] = (uint8_t)sn_rand(&st);
    uint32_t a[64], d0[64], d1[64];
    if (layout == 0) {
      for (int l = 0; l < 64; l++) a[l] = 8 * (sn_rand(&st) % ((lim - off) / 8));
    } else {
      const uint32_t nblk = layout == 3 ? 17 : 256; /* whole 32-byte blocks below lim - off, plus layout 3's part block */
      for (int j = 0; j < 16; j++) {
        uint32_t b = layout == 3 ? (uint32_t)j + 1 : sn_rand(&st) % nblk, p[4] = {0, 1, 2, 3};
        for (int i = 3; i > 0; i--) {
          uint32_t k = sn_rand(&st) % (uint32_t)(i + 1), t = p[i];
          p[i] = p[k], p[k] = t;
        }
        for (int i = 0; i < 4; i++)
          a[4 * j + i] = layout == 3 && b == 16 ? 32 * b : 32 * b + 8 * p[i]; /* the part block: its first slot */
      }
      if (layout == 2) a[4 * (sn_rand(&st) % 16) + sn_rand(&st) % 4] = 32 * (sn_rand(&st) % nblk) + 8 * (sn_rand(&st) % 4);
    }
    for (int l = 0; l < 64; l++) cr_assert_leq(a[l] + off + 8, lim, "round %d lane %d in range", round, l);
    uint32_t want0[64], want1[64];
    for (int L = 0; L < 64; L++) {
      uint16_t e[4];
      for (int k = 0; k < 4; k++) {
        int src = L / 16 * 16 + 4 * k + L % 16 / 4, el = L % 4;
        memcpy(&e[k], lds + a[src] + off + 2 * el, 2);
      }
      want0[L] = e[0] | (uint32_t)e[1] << 16, want1[L] = e[2] | (uint32_t)e[3] << 16;
    }
    if (round % 8 == 7) { /* d0 on the address register */
      memcpy(d0, a, sizeof a);
      emu_tr16_64(d0, d1, lds, d0, off, lim);
    } else {
      emu_tr16_64(d0, d1, lds, a, off, lim);
    }
    for (int L = 0; L < 64; L++)
      cr_assert(d0[L] == want0[L] && d1[L] == want1[L], "tr16 round %d (layout %d, offset %u) lane %d: %08x %08x, want %08x %08x",
                round, layout, off, L, d0[L], d1[L], want0[L], want1[L]);
    free(lds);
  }
}
Test(emu_cvt, tr16_kernel_follows_the_transpose_rule) { on_every_simd_path(tr16_check); }


/* emu/simd.c's address kernels (global accesses, the LDS ordering check) against their definitions:
 * d = (lo | hi << 32) + off; bit l of the outside mask when a[l] - base > lim as unsigned 64-bit
 * numbers (below base wraps above); the unsigned min and max of 64 lanes, with the extreme in each
 * lane in turn. */
static void addr_kernels_check(void)
{
  uint32_t st = 0x2545f491u, lo[64], hi[64], v[64];
  uint64_t d[64], a[64];
  for (int round = 0; round < 64; round++) {
    for (int l = 0; l < 64; l++) lo[l] = sn_rand(&st), hi[l] = round & 1 ? sn_rand(&st) : (sn_rand(&st) & 3);
    uint64_t off = round & 2 ? (uint64_t)-(int64_t)(sn_rand(&st) & 4095) : sn_rand(&st) & 4095;
    emu_addr64(d, lo, hi, off);
    for (int l = 0; l < 64; l++) cr_assert_eq(d[l], ((uint64_t)lo[l] | (uint64_t)hi[l] << 32) + off, "addr lane %d", l);
    uint64_t base = 0x100000000ull + (sn_rand(&st) & 0xffff0u), lim = sn_rand(&st) & 0xfff;
    /* around both ends of [base, base + lim], far above and below, and the extremes */
    const uint64_t pick[10] = {base - 1, base, base + 1, base + lim - 1, base + lim, base + lim + 1, 0, ~0ull,
                               base + (1ull << 63), base + lim / 2};
    for (int l = 0; l < 64; l++) a[l] = pick[(sn_rand(&st) + (uint32_t)l) % 10];
    uint64_t want = 0;
    for (int l = 0; l < 64; l++) want |= (uint64_t)(a[l] - base > lim) << l;
    cr_assert_eq(emu_outside64(a, base, lim), want, "outside mask, round %d", round);
    /* the two in one pass (emu_addr_outside64): registers that give those addresses after the offset */
    uint64_t d2[64];
    for (int l = 0; l < 64; l++) lo[l] = (uint32_t)(a[l] - off), hi[l] = (uint32_t)((a[l] - off) >> 32);
    cr_assert_eq(emu_addr_outside64(d2, lo, hi, off, base, lim), want, "addr+outside mask, round %d", round);
    for (int l = 0; l < 64; l++) cr_assert_eq(d2[l], a[l], "addr+outside address, round %d lane %d", round, l);
    /* with the stride prefetch's line changes (emu_addr_outside_nl64): lanes in runs of a few per
     * 64-byte line and random jumps, steps that move lines and that wrap */
    for (int l = 0; l < 64; l++) {
      uint64_t x = l % 7 == 3 ? base + (sn_rand(&st) & 0xffff) : base + 24u * (uint64_t)l + (uint64_t)round;
      lo[l] = (uint32_t)(x - off), hi[l] = (uint32_t)((x - off) >> 32), a[l] = x;
    }
    const uint64_t step = round & 8 ? (uint64_t)-(int64_t)(sn_rand(&st) & 0xfff) : sn_rand(&st) & 0xfff;
    uint64_t nl = 0, wnl = 1, wout = 0;
    for (int l = 0; l < 64; l++) wout |= (uint64_t)(a[l] - base > lim) << l;
    for (int l = 1; l < 64; l++) wnl |= (uint64_t)((a[l] + step) >> 6 != (a[l - 1] + step) >> 6) << l;
    cr_assert_eq(emu_addr_outside_nl64(d2, lo, hi, off, base, lim, step, &nl), wout, "addr+outside+lines mask, round %d", round);
    cr_assert_eq(nl, wnl, "addr+outside+lines line changes, round %d: %016llx, want %016llx", round,
                 (unsigned long long)nl, (unsigned long long)wnl);
    for (int l = 0; l < 64; l++) cr_assert_eq(d2[l], a[l], "addr+outside+lines address, round %d lane %d", round, l);
    uint32_t mn, mx, wmn = UINT32_MAX, wmx = 0;
    for (int l = 0; l < 64; l++) v[l] = 1000u + (sn_rand(&st) & 0xffff);
    v[round] = round & 1 ? 7u : 0xfffffff0u; /* the extreme at lane `round` */
    if (round & 2) v[63 - round] = 0x80000001u; /* above 2^31: unsigned, not signed */
    for (int l = 0; l < 64; l++) wmn = v[l] < wmn ? v[l] : wmn, wmx = v[l] > wmx ? v[l] : wmx;
    emu_minmax64(v, &mn, &mx);
    cr_assert(mn == wmn && mx == wmx, "min/max round %d: %u %u, want %u %u", round, mn, mx, wmn, wmx);
    /* v + off (32-bit: round & 4 makes some lanes wrap) and its min/max in one pass (emu_add_minmax64) */
    uint32_t vo = round & 4 ? 0x7fffffffu + (uint32_t)round : (uint32_t)round * 8u, w2[64];
    wmn = UINT32_MAX, wmx = 0;
    for (int l = 0; l < 64; l++) {
      uint32_t x = v[l] + vo;
      wmn = x < wmn ? x : wmn, wmx = x > wmx ? x : wmx;
    }
    emu_add_minmax64(w2, v, vo, &mn, &mx);
    cr_assert(mn == wmn && mx == wmx, "add+min/max round %d: %u %u, want %u %u", round, mn, mx, wmn, wmx);
    for (int l = 0; l < 64; l++) cr_assert_eq(w2[l], v[l] + vo, "add+min/max round %d lane %d", round, l);
  }
}

Test(emu_cvt, address_kernels_match_their_definitions) { on_every_simd_path(addr_kernels_check); }

/* ---- the VALU families' AVX2 builds (emu/op_avx2.c) ---------------------------------------------
 * On an AVX2 host the op table holds the twins compiled for AVX2 of the integer and bit operations;
 * each must give the generic handler's bits (the float rows, listed too, must keep the generic). Each instruction runs once through the table and once through the generic
 * handler on the same random registers (every bit pattern: NaNs, infinities, denormals), with EXEC
 * all ones and with a random partial EXEC; every register of the file and every SGPR must agree. */
typedef struct { const char *text; emu_handler generic; bool twin; } twin_case;
static const twin_case twin_cases[] = {
    {"v_add_f32 v10, v1, v2", emu_op_v_add_f32, false},
    {"v_mul_f32 v10, s4, v2", emu_op_v_mul_f32, false},
    {"v_mul_f32 v1, v1, v2", emu_op_v_mul_f32, false},
    {"v_add_f32_e64 v10, -v1, |v2| clamp mul:2", emu_op_v_add_f32, false},
    {"v_mad_f16 v10, v1, v2, v3", emu_op_v_mad_f16, false},
    {"v_fma_f32 v10, v1, v2, v3", emu_op_v_fma_f32, false},
    {"v_fmac_f32 v10, v1, v2", emu_op_v_fmac_f32, false},
    {"v_max3_f32 v10, v1, v2, v3", emu_op_v_max3_f32, false},
    {"v_med3_f32 v10, v1, v2, v3", emu_op_v_med3_f32, false},
    {"v_exp_f32 v10, v1", emu_op_v_exp_f32, false},
    {"v_rcp_f32 v10, v1", emu_op_v_rcp_f32, false},
    {"v_sqrt_f32 v10, v1", emu_op_v_sqrt_f32, false},
    {"v_floor_f32 v10, v1", emu_op_v_floor_f32, false},
    {"v_ceil_f32 v10, v1", emu_op_v_ceil_f32, false},
    {"v_trunc_f32 v10, v1", emu_op_v_trunc_f32, false},
    {"v_rndne_f32 v10, v1", emu_op_v_rndne_f32, false},
    {"v_fract_f32 v10, v1", emu_op_v_fract_f32, false},
    {"v_cvt_flr_i32_f32 v10, v1", emu_op_v_cvt_flr_i32_f32, false},
    {"v_cvt_rpi_i32_f32 v10, v1", emu_op_v_cvt_rpi_i32_f32, false},
    {"v_floor_f16 v10, v1", emu_op_v_floor_f16, false},
    {"v_rndne_f16 v10, v1", emu_op_v_rndne_f16, false},
    {"v_floor_f64 v[10:11], v[2:3]", emu_op_v_floor_f64, false},
    {"v_ceil_f64 v[10:11], v[2:3]", emu_op_v_ceil_f64, false},
    {"v_trunc_f64 v[10:11], v[2:3]", emu_op_v_trunc_f64, false},
    {"v_rndne_f64 v[10:11], v[2:3]", emu_op_v_rndne_f64, false},
    {"v_fract_f64 v[10:11], v[2:3]", emu_op_v_fract_f64, false},
    {"v_min_f32 v10, v1, v2", emu_op_v_min_f32, false},
    {"v_ldexp_f32 v10, v1, v2", emu_op_v_ldexp_f32, false},
    {"v_frexp_mant_f32 v10, v1", emu_op_v_frexp_mant_f32, false},
    {"v_log_f32 v10, v1", emu_op_v_log_f32, false},
    {"v_sin_f32 v10, v1", emu_op_v_sin_f32, false},
    {"v_cvt_i32_f32 v10, v1", emu_op_v_cvt_i32_f32, false},
    {"v_cvt_f32_u32 v10, v1", emu_op_v_cvt_f32_u32, false},
    {"v_cvt_f16_f32 v10, v1", emu_op_v_cvt_f16_f32, false},
    {"v_cvt_f32_f16 v10, v1", emu_op_v_cvt_f32_f16, false},
    {"v_add_f64 v[10:11], v[2:3], v[4:5]", emu_op_v_add_f64, false},
    {"v_add_u32 v10, v1, v2", emu_op_v_add_u32, true},
    {"v_add_u32_e64 v10, v1, v2 clamp", emu_op_v_add_u32, true},
    {"v_sub_co_u32 v10, vcc, v1, v2", emu_op_v_sub_co_u32, true},
    {"v_xad_u32 v10, v1, v2, v3", emu_op_v_xad_u32, true},
    {"v_lshlrev_b32 v10, v1, v2", emu_op_v_lshlrev_b32, true},
    {"v_lshrrev_b32 v10, 7, v2", emu_op_v_lshrrev_b32, true},
    {"v_ashrrev_i32 v10, v1, v2", emu_op_v_ashrrev_i32, true},
    {"v_lshl_add_u32 v10, v1, 3, v3", emu_op_v_lshl_add_u32, true},
    {"v_mul_lo_u32 v10, v1, v2", emu_op_v_mul_lo_u32, true},
    {"v_mul_hi_i32 v10, v1, v2", emu_op_v_mul_hi_i32, true},
    {"v_bfe_u32 v10, v1, v2, v3", emu_op_v_bfe_u32, true},
    {"v_and_or_b32 v10, v1, v2, v3", emu_op_v_and_or_b32, true},
    {"v_cndmask_b32 v10, v1, v2, vcc", emu_op_v_cndmask_b32, true},
    {"v_mov_b32 v10, s4", emu_op_v_mov_b32, true},
    {"v_cmp_lt_f32 vcc, v1, v2", emu_op_v_cmp_lt_f32, false},
    {"v_pk_fma_f32 v[10:11], v[2:3], v[4:5], v[6:7]", emu_op_v_pk_fma_f32, false},
    {"v_pk_mul_f32 v[10:11], v[2:3], s[4:5] op_sel_hi:[1,0]", emu_op_v_pk_mul_f32, false},
    {"v_pk_add_f16 v10, v1, v2", emu_op_v_pk_add_f16, false},
    {"v_pk_fma_f16 v10, v1, v2, v3", emu_op_v_pk_fma_f16, false},
    {"v_pk_add_u16 v10, v1, v2", emu_op_v_pk_add_u16, true},
    {"v_cvt_pk_fp8_f32 v10, v1, v2", emu_op_v_cvt_pk_fp8_f32, false},
    {"v_cvt_pknorm_i16_f32 v10, v1, v2", emu_op_v_cvt_pknorm_i16_f32, false},
    /* emu/op_ds.c's twins (addresses masked into the LDS below; LDS compared too) */
    {"ds_read_b32 v10, v1", emu_op_ds_read_b32, true},
    {"ds_read_b64 v[10:11], v1 offset:8", emu_op_ds_read_b64, true},
    {"ds_read2st64_b64 v[10:13], v1 offset0:1 offset1:3", emu_op_ds_read2st64_b64, true},
    {"ds_write_b32 v1, v2 offset:4", emu_op_ds_write_b32, true},
    {"ds_write2st64_b64 v1, v[2:3], v[4:5] offset1:2", emu_op_ds_write2st64_b64, true},
    {"ds_add_u32 v1, v2", emu_op_ds_add_u32, true},
    {"ds_add_rtn_f32 v10, v1, v2", emu_op_ds_add_rtn_f32, false},
};

Test(emu_cvt, valu_avx2_builds_give_the_generic_handlers_bits)
{
  const char *texts[sizeof twin_cases / sizeof *twin_cases];
  for (size_t i = 0; i < sizeof twin_cases / sizeof *twin_cases; i++) texts[i] = twin_cases[i].text;
  sn_prefill(EMU_GFX950, texts, sizeof twin_cases / sizeof *twin_cases);
  uint32_t st = 0x2545f491u;
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *before = ll_xmalloc(nbytes), *want = ll_xmalloc(nbytes), swant[EMU_NSFILE];
  for (size_t i = 0; i < sizeof twin_cases / sizeof *twin_cases; i++) {
    snip *s = sn_new(EMU_GFX950, twin_cases[i].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s: %s", twin_cases[i].text, in->why ? in->why : "?");
    /* the table holds the twin exactly when the AVX2 paths are on, for the integer and bit
     * operations only (emu/op_avx2.c float_named: a float operation's NaN payload from two NaN
     * operands is the compiler's operand order, per build) */
    bool twin = in->fn != twin_cases[i].generic && in->fn != emu_op_v_pk_fma_f32_sp &&
                in->fn != emu_op_v_pk_mul_f32_sp; /* the generic build's, specialised */
    cr_assert_eq(twin, emu_avx2 && twin_cases[i].twin, "%s: %s handler in the table", twin_cases[i].text,
                 twin ? "a twin" : "the generic");
    for (int pass = 0; pass < 2; pass++) {
      /* random bits, and in lanes 0..11 the special values (f32 sNaN and qNaN of both signs,
       * infinities, -0, denormals, an f64 sNaN's high word, two f16 sNaNs, a value needing rounding) */
      static const uint32_t special[12] = {0x7fa00001u, 0xffa00001u, 0x7fc00001u, 0x7f800000u, 0xff800000u, 0x80000000u,
                                           0x00000001u, 0x807fffffu, 0x7ff40000u, 0x7d007d00u, 0x3fc00000u, 0x4b400001u};
      for (int r = 0; r < 16; r++)
        for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = l < 12 ? special[(l + r) % 12] : sn_rand(&st);
      for (int r = 0; r < 8; r++) s->w.s[r] = sn_rand(&st);
      emu_wr64s(&s->w, EMU_S_VCC, (uint64_t)sn_rand(&st) << 32 | sn_rand(&st));
      sn_exec(s, pass ? (uint64_t)sn_rand(&st) << 32 | sn_rand(&st) : ~0ull);
      bool ds = !strncmp(twin_cases[i].text, "ds_", 3);
      if (ds) { /* LDS addresses in the first 16 KiB, random LDS bytes */
        for (int l = 0; l < EMU_LANES; l++) sn_v(s, 1)[l] &= 0x3ffcu;
        for (size_t b = 0; b < 32768; b++) s->lds[b] = (uint8_t)sn_rand(&st);
      }
      static uint8_t lds_before[32768], lds_want[32768];
      memcpy(lds_before, s->lds, sizeof lds_before);
      memcpy(before, s->vfile, nbytes);
      uint32_t sbefore[EMU_NSFILE];
      memcpy(sbefore, s->w.s, sizeof sbefore);
      cr_assert_eq(twin_cases[i].generic(&s->w, in), EMU_OK, "%s", twin_cases[i].text);
      memcpy(want, s->vfile, nbytes);
      memcpy(swant, s->w.s, sizeof swant);
      memcpy(lds_want, s->lds, sizeof lds_want);
      memcpy(s->vfile, before, nbytes);
      memcpy(s->w.s, sbefore, sizeof sbefore);
      memcpy(s->lds, lds_before, sizeof lds_before);
      cr_assert_eq(in->fn(&s->w, in), EMU_OK, "%s", twin_cases[i].text);
      cr_assert(!memcmp(s->lds, lds_want, sizeof lds_want), "%s: LDS differs", twin_cases[i].text);
      for (size_t k = 0; k < (size_t)EMU_NVGPR * EMU_LANES; k++)
        cr_assert_eq(s->vfile[k], want[k], "%s (EXEC %s): v%zu lane %zu: %#x, the generic handler %#x", twin_cases[i].text,
                     pass ? "partial" : "all ones", k / EMU_LANES, k % EMU_LANES, s->vfile[k], want[k]);
      cr_assert(!memcmp(s->w.s, swant, sizeof swant), "%s: scalar results differ", twin_cases[i].text);
    }
    sn_free(s);
  }
  free(before), free(want);
}

/* ---- v_pk_fma_f32 specialised at decode (emu/op_vop3p.c emu_vop3p_specialise) --------------------
 * The decoder gives the forms without clamp or neg, with a VGPR pair as destination and VGPR, SGPR or
 * constant sources, a handler that reads the sources and writes the destination in place (in the
 * order that keeps each half's sources unwritten); the others keep the general handler. On random
 * registers with NaNs of both kinds in two and three operands of some lanes, under EXEC all ones
 * and a partial EXEC, every VGPR must equal what the general handler gives, and the lanes without
 * a NaN the fma of the operands the form names, computed here. */
static const struct {
  const char *text;
  bool sp;                 /* specialised */
  int d;                   /* the destination's low VGPR */
  int s0[2], s1[2], s2[2]; /* VGPR of each source's low and high dword, or -1 - SGPR, or -100: 2.0 / 1.0 */
} pkfma_cases[] = {
  {"v_pk_fma_f32 v[2:3], v[2:3], s[4:5], v[4:5]", true, 2, {2, 3}, {-5, -6}, {4, 5}},
  {"v_pk_fma_f32 v[2:3], v[4:5], v[6:7], v[8:9] op_sel:[1,0,1] op_sel_hi:[0,1,0]", true, 2, {5, 4}, {6, 7}, {9, 8}},
  /* the low destination v4 is the high half's src0: the high half first */
  {"v_pk_fma_f32 v[4:5], v[4:5], v[6:7], v[8:9] op_sel_hi:[0,1,1]", true, 4, {4, 4}, {6, 7}, {8, 9}},
  /* the high destination v3 is the low half's src1: the low half first */
  {"v_pk_fma_f32 v[2:3], v[4:5], v[2:3], v[8:9] op_sel:[0,1,0]", true, 2, {4, 5}, {3, 3}, {8, 9}},
  /* each half reads the other's destination: the general handler */
  {"v_pk_fma_f32 v[2:3], v[2:3], v[2:3], v[8:9] op_sel:[1,0,0] op_sel_hi:[1,0,1]", false, 2, {3, 3}, {2, 2}, {8, 9}},
  {"v_pk_fma_f32 v[2:3], v[4:5], s[6:7], v[6:7] op_sel:[0,1,0] op_sel_hi:[1,0,1]", true, 2, {4, 5}, {-8, -7}, {6, 7}},
  {"v_pk_fma_f32 v[2:3], v[4:5], 2.0, 1.0 op_sel_hi:[1,0,0]", true, 2, {4, 5}, {-100, -100}, {-101, -101}},
  /* neg_lo / neg_hi: specialised since the FMA host's form (issue #31, sixth stop), which the C loops
   * leave to the general handler at run time */
  {"v_pk_fma_f32 v[2:3], v[4:5], v[6:7], v[8:9] neg_lo:[0,0,1] neg_hi:[0,0,1]", true, 2, {4, 5}, {6, 7}, {8, 9}},
  {"v_pk_fma_f32 v[2:3], v[4:5], v[6:7], v[8:9] clamp", false, 2, {4, 5}, {6, 7}, {8, 9}},
};

static float pkfma_opnd(snip *s, const uint32_t *before, int spec, int l)
{
  if (spec >= 0) return bf(before[(size_t)spec * EMU_LANES + l]);
  if (spec == -100) return 2.0f;
  if (spec == -101) return 1.0f;
  return bf(s->w.s[-1 - spec]);
}

Test(emu_cvt, pk_fma_f32_specialised_gives_the_general_handlers_bits)
{
  uint32_t st = 0x7f4a7c15u;
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *before = ll_xmalloc(nbytes), *want = ll_xmalloc(nbytes);
  static const uint32_t nan[4] = {0x7fa00001u, 0xffc00002u, 0x7fc12345u, 0xff812345u};
  for (size_t i = 0; i < sizeof pkfma_cases / sizeof *pkfma_cases; i++) {
    snip *s = sn_new(EMU_GFX950, pkfma_cases[i].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", pkfma_cases[i].text);
    cr_assert_eq(in->fn == emu_op_v_pk_fma_f32_sp, pkfma_cases[i].sp, "%s: %s handler", pkfma_cases[i].text,
                 in->fn == emu_op_v_pk_fma_f32_sp ? "the specialised" : "the general");
    for (int pass = 0; pass < 3; pass++) {
      /* values near 1 (no overflow), NaNs in lanes 0..15: lane l has one in operand dwords picked by l */
      for (int r = 0; r < 16; r++)
        for (int l = 0; l < EMU_LANES; l++) {
          uint32_t x = sn_rand(&st);
          sn_v(s, r)[l] = (l < 16 && (l >> (r % 4) & 1)) ? nan[(l + r) % 4] : fb(0.5f + (float)(x >> 8) / 16777216.0f);
        }
      for (int r = 0; r < 8; r++) s->w.s[r] = pass == 2 ? nan[r % 4] : fb(1.0f + (float)r / 8.0f);
      sn_exec(s, pass == 1 ? (uint64_t)sn_rand(&st) << 32 | sn_rand(&st) : ~0ull);
      memcpy(before, s->vfile, nbytes);
      cr_assert_eq(emu_op_v_pk_fma_f32(&s->w, in), EMU_OK);
      memcpy(want, s->vfile, nbytes);
      memcpy(s->vfile, before, nbytes);
      cr_assert_eq(in->fn(&s->w, in), EMU_OK);
      for (size_t k = 0; k < (size_t)EMU_NVGPR * EMU_LANES; k++)
        cr_assert_eq(s->vfile[k], want[k], "%s (pass %d): v%zu lane %zu: %#x, the general handler %#x",
                     pkfma_cases[i].text, pass, k / EMU_LANES, k % EMU_LANES, s->vfile[k], want[k]);
      if (pass != 0) continue;
      for (int l = 16; l < EMU_LANES; l++)
        for (int h = 0; h < 2; h++) {
          float r = fmaf(pkfma_opnd(s, before, pkfma_cases[i].s0[h], l), pkfma_opnd(s, before, pkfma_cases[i].s1[h], l),
                         pkfma_opnd(s, before, pkfma_cases[i].s2[h], l));
          if (strstr(pkfma_cases[i].text, "neg_lo")) continue;
          if (strstr(pkfma_cases[i].text, "clamp")) r = r < 0 ? 0 : r > 1 ? 1 : r;
          int d = pkfma_cases[i].d + h;
          cr_assert_eq(sn_v(s, d)[l], fb(r), "%s: lane %d half %d: %a, want %a", pkfma_cases[i].text, l, h,
                       bf(sn_v(s, d)[l]), r);
        }
    }
    sn_free(s);
  }
  free(before), free(want);
}

/* The specialised v_pk_fma_f32 has two forms: on a host with FMA (emu_avx2) 8-lane blocks written
 * out in the instruction the general handler's FMA clone issues, with neg_lo / neg_hi applied to the
 * loaded values, uniform sources (SGPR pairs, integer constants) kept spread over the lanes while
 * their values stay the same; otherwise the C loops (and the general handler for neg). Both must
 * give the general handler's bits on every form: NaN payloads in one, two and three operands
 * (uniform ones included), negations of each source in either half, the halves in either order,
 * a uniform source's value changed between two runs of the same record, a partial EXEC; and the
 * NaN-free lanes the fma of the negated operands computed here. */
static const struct {
  const char *text;
  int d;
  int s0[2], s1[2], s2[2]; /* VGPR of each source's low and high dword, -1 - SGPR, -102: the integer 0,
                              -103: the inline constant 0.5, -104: the inline constant -4.0 */
  unsigned nlo, nhi;       /* neg_lo, neg_hi */
} pkfma_neg_cases[] = {
  {"v_pk_fma_f32 v[2:3], v[4:5], v[6:7], v[8:9] neg_lo:[0,0,1] neg_hi:[0,0,1]", 2, {4, 5}, {6, 7}, {8, 9}, 4, 4},
  /* bench_valu_ds's form: v4 is the low destination and the high half's src2: the high half first */
  {"v_pk_fma_f32 v[4:5], v[2:3], s[4:5], v[4:5] op_sel_hi:[1,1,0] neg_lo:[0,0,1] neg_hi:[0,0,1]", 4, {2, 3}, {-5, -6},
   {4, 4}, 4, 4},
  {"v_pk_fma_f32 v[2:3], v[4:5], s[6:7], v[8:9] neg_lo:[1,1,0] neg_hi:[0,1,1]", 2, {4, 5}, {-7, -8}, {8, 9}, 3, 6},
  {"v_pk_fma_f32 v[4:5], v[4:5], s[2:3], v[8:9] op_sel:[1,0,0] op_sel_hi:[1,0,1] neg_hi:[1,0,0]", 4, {5, 5}, {-3, -3},
   {8, 9}, 0, 1},
  {"v_pk_fma_f32 v[2:3], v[4:5], v[6:7], 0", 2, {4, 5}, {6, 7}, {-102, -102}, 0, 0},
  {"v_pk_fma_f32 v[2:3], s[8:9], v[6:7], 0 neg_lo:[0,1,1]", 2, {-9, -10}, {6, 7}, {-102, -102}, 6, 0},
  {"v_pk_fma_f32 v[2:3], v[2:3], s[4:5], v[4:5]", 2, {2, 3}, {-5, -6}, {4, 5}, 0, 0},
  /* inline float constants as clang splats them (op_sel_hi 0: both halves the constant), in the
   * specialised form since the fourteenth stop (before: sp_slow's C loops) */
  {"v_pk_fma_f32 v[2:3], v[2:3], s[4:5], 0.5 op_sel_hi:[1,0,0]", 2, {2, 3}, {-5, -5}, {-103, -103}, 0, 0},
  {"v_pk_fma_f32 v[2:3], v[4:5], -4.0, v[6:7] op_sel_hi:[1,0,1] neg_hi:[1,0,0]", 2, {4, 5}, {-104, -104}, {6, 7}, 0, 1},
};

static float pkfma_neg_opnd(snip *s, const uint32_t *before, int spec, int l, bool neg)
{
  uint32_t u = spec >= 0        ? before[(size_t)spec * EMU_LANES + l]
               : spec == -102 ? 0u
               : spec == -103 ? 0x3f000000u /* 0.5f */
               : spec == -104 ? 0xc0800000u /* -4.0f */
                              : s->w.s[-1 - spec];
  return bf(neg ? u ^ 0x80000000u : u);
}

/* One pass of the specialised-against-general comparisons below: fresh inputs (NaNs in lanes 0..31,
 * in the operand dwords each lane's bits pick, SGPRs included; on pass 2 NaN SGPRs, nan_off picking
 * which; pass 3 gives the SGPRs of pass 0 again, so the fills made for pass 2 are stale; on pass 1 a
 * random EXEC), then the general handler's registers against the record's own handler's, all of
 * them. The inputs are left in before. */
static void pk_sp_pass(snip *s, const emu_insn *in, emu_handler general, const char *text, int path, int pass,
                       int nan_off, uint32_t *st, uint32_t *before, uint32_t *want)
{
  static const uint32_t nan[4] = {0x7fa00001u, 0xffc00002u, 0x7fc12345u, 0xff812345u};
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  for (int r = 0; r < 16; r++)
    for (int l = 0; l < EMU_LANES; l++) {
      uint32_t x = sn_rand(st);
      sn_v(s, r)[l] = (l < 32 && (l >> (r % 5) & 1)) ? nan[(l + r) % 4] : fb(0.5f + (float)(x >> 8) / 16777216.0f);
    }
  for (int r = 0; r < 12; r++) s->w.s[r] = pass == 2 ? nan[(r + nan_off) % 4] : fb(1.0f + (float)r / 8.0f);
  sn_exec(s, pass == 1 ? (uint64_t)sn_rand(st) << 32 | sn_rand(st) : ~0ull);
  memcpy(before, s->vfile, nbytes);
  cr_assert_eq(general(&s->w, in), EMU_OK);
  memcpy(want, s->vfile, nbytes);
  memcpy(s->vfile, before, nbytes);
  cr_assert_eq(in->fn(&s->w, in), EMU_OK);
  for (size_t k = 0; k < (size_t)EMU_NVGPR * EMU_LANES; k++)
    cr_assert_eq(s->vfile[k], want[k], "%s (path %d, pass %d): v%zu lane %zu: %#x, the general handler %#x", text, path,
                 pass, k / EMU_LANES, k % EMU_LANES, s->vfile[k], want[k]);
}

Test(emu_cvt, pk_fma_f32_specialised_forms_give_the_general_handlers_bits)
{
  uint32_t st = 0x2545f491u;
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *before = ll_xmalloc(nbytes), *want = ll_xmalloc(nbytes);
  bool had2 = emu_avx2;
  for (size_t i = 0; i < sizeof pkfma_neg_cases / sizeof *pkfma_neg_cases; i++) {
    snip *s = sn_new(EMU_GFX950, pkfma_neg_cases[i].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", pkfma_neg_cases[i].text);
    cr_assert(in->fn == emu_op_v_pk_fma_f32_sp, "%s: not specialised", pkfma_neg_cases[i].text);
    /* every uniform source an SGPR pair or a constant whose dwords the record holds (sp_kv): the FMA
     * host's form, not sp_slow */
    cr_assert_lt(in->sp_var, 16, "%s: a uniform source left to sp_slow", pkfma_neg_cases[i].text);
    for (int path = 0; path < 2; path++) {
      emu_avx2 = had2 && path == 0; /* path 1: the C loops */
      for (int pass = 0; pass < 4; pass++) {
        pk_sp_pass(s, in, emu_op_v_pk_fma_f32, pkfma_neg_cases[i].text, path, pass, 1, &st, before, want);
        if (pass == 1 || pass == 2) continue;
        for (int l = 32; l < EMU_LANES; l++)
          for (int h = 0; h < 2; h++) {
            unsigned ng = h ? pkfma_neg_cases[i].nhi : pkfma_neg_cases[i].nlo;
            float r = fmaf(pkfma_neg_opnd(s, before, pkfma_neg_cases[i].s0[h], l, ng & 1),
                           pkfma_neg_opnd(s, before, pkfma_neg_cases[i].s1[h], l, ng & 2),
                           pkfma_neg_opnd(s, before, pkfma_neg_cases[i].s2[h], l, ng & 4));
            int d = pkfma_neg_cases[i].d + h;
            cr_assert_eq(sn_v(s, d)[l], fb(r), "%s (path %d): lane %d half %d: %a, want %a", pkfma_neg_cases[i].text,
                         path, l, h, bf(sn_v(s, d)[l]), r);
          }
      }
    }
    emu_avx2 = had2;
    sn_free(s);
  }
  free(before), free(want);
}

/* v_pk_mul_f32 specialised as v_pk_fma_f32 is (no clamp, no neg), run by the FMA host's 8-lane
 * blocks: the general handler's bits on NaNs in either and both operands (the payload of the first
 * source), uniform sources changed between runs, both half orders, a partial EXEC, with and without
 * emu_avx2; the NaN-free lanes the product computed here. */
static const struct {
  const char *text;
  bool sp;
  int d;
  int s0[2], s1[2]; /* VGPR of each source's low and high dword, -1 - SGPR, -102: the integer 0, -103: 0.5 */
} pkmul_cases[] = {
  {"v_pk_mul_f32 v[10:11], v[0:1], v[10:11] op_sel_hi:[0,1]", true, 10, {0, 0}, {10, 11}}, /* the seed kernels' form */
  {"v_pk_mul_f32 v[2:3], v[4:5], s[6:7]", true, 2, {4, 5}, {-7, -8}},
  {"v_pk_mul_f32 v[2:3], s[6:7], v[4:5] op_sel:[1,0] op_sel_hi:[0,1]", true, 2, {-8, -7}, {4, 5}},
  /* v4 is the low destination and the high half's src0: the high half first */
  {"v_pk_mul_f32 v[4:5], v[4:5], v[6:7] op_sel_hi:[0,1]", true, 4, {4, 4}, {6, 7}},
  {"v_pk_mul_f32 v[2:3], 0, v[6:7]", true, 2, {-102, -102}, {6, 7}},
  {"v_pk_mul_f32 v[2:3], v[4:5], 0.5 op_sel_hi:[1,0]", true, 2, {4, 5}, {-103, -103}}, /* clang's splat */
  {"v_pk_mul_f32 v[2:3], v[4:5], v[6:7] neg_lo:[1,0]", false, 2, {4, 5}, {6, 7}},
  {"v_pk_mul_f32 v[2:3], v[4:5], v[6:7] clamp", false, 2, {4, 5}, {6, 7}},
};

Test(emu_cvt, pk_mul_f32_specialised_gives_the_general_handlers_bits)
{
  uint32_t st = 0x68e31da4u;
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *before = ll_xmalloc(nbytes), *want = ll_xmalloc(nbytes);
  bool had2 = emu_avx2;
  for (size_t i = 0; i < sizeof pkmul_cases / sizeof *pkmul_cases; i++) {
    snip *s = sn_new(EMU_GFX950, pkmul_cases[i].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", pkmul_cases[i].text);
    cr_assert_eq(in->fn == emu_op_v_pk_mul_f32_sp, pkmul_cases[i].sp, "%s: %s handler", pkmul_cases[i].text,
                 in->fn == emu_op_v_pk_mul_f32_sp ? "the specialised" : "the general");
    cr_assert(!pkmul_cases[i].sp || in->sp_var < 16, "%s: a uniform source left to the general handler", pkmul_cases[i].text);
    for (int path = 0; path < 2; path++) {
      emu_avx2 = had2 && path == 0;
      for (int pass = 0; pass < 4; pass++) {
        pk_sp_pass(s, in, emu_op_v_pk_mul_f32, pkmul_cases[i].text, path, pass, 3, &st, before, want);
        if (pass == 1 || pass == 2 || !pkmul_cases[i].sp) continue;
        for (int l = 32; l < EMU_LANES; l++)
          for (int h = 0; h < 2; h++) {
            float r = pkfma_neg_opnd(s, before, pkmul_cases[i].s0[h], l, false) *
                      pkfma_neg_opnd(s, before, pkmul_cases[i].s1[h], l, false);
            int d = pkmul_cases[i].d + h;
            cr_assert_eq(sn_v(s, d)[l], fb(r), "%s (path %d): lane %d half %d: %a, want %a", pkmul_cases[i].text, path,
                         l, h, bf(sn_v(s, d)[l]), r);
          }
      }
    }
    emu_avx2 = had2;
    sn_free(s);
  }
  free(before), free(want);
}

/* ---- scalar ALU forms specialised at decode (emu/op_salu.c emu_salu_specialise) -------------------
 * Each specialised form (two SGPRs, an SGPR and an integer constant, a constant and an SGPR; 32-bit
 * adds, subtracts, shifts and compares, 64-bit bitwise operations) must leave every SGPR and SCC as
 * the op table's handler does, on edge values (0, 1, INT_MAX, INT_MIN, ~0, shift counts past 31)
 * and random ones, with SCC set and clear before; the forms they do not cover (float constants,
 * 64-bit literals) keep the table's handler. */
static const struct {
  const char *text;
  bool sp;
} salu_cases[] = {
  {"s_add_i32 s3, s3, -1", true}, {"s_add_i32 s4, s5, s6", true}, {"s_add_i32 s4, 0x7fffffff, s6", true},
  {"s_add_u32 s4, s5, s6", true}, {"s_add_u32 s4, s5, 0xfffffff0", true},
  {"s_sub_u32 s4, s5, s6", true}, {"s_sub_u32 s4, 3, s6", true}, {"s_sub_i32 s4, s5, s6", true},
  {"s_sub_i32 s4, -5, s6", true}, {"s_sub_i32 s4, s5, 17", true},
  {"s_and_b32 s4, s5, s6", true}, {"s_and_b32 s4, s5, 0xff00", true}, {"s_or_b32 s4, 64, s6", true},
  {"s_lshl_b32 s4, s5, s6", true}, {"s_lshl_b32 s4, s5, 3", true}, {"s_lshr_b32 s4, s5, s6", true},
  {"s_lshr_b32 s4, -1, s6", true}, {"s_mul_i32 s4, s5, s6", true}, {"s_mul_i32 s4, s5, 0x9e3779b1", true},
  {"s_and_b64 s[4:5], s[6:7], s[8:9]", true}, {"s_and_b64 s[4:5], vcc, exec", true}, {"s_and_b64 s[4:5], s[6:7], -2", true},
  {"s_or_b64 s[4:5], s[6:7], s[8:9]", true}, {"s_or_b64 s[4:5], 7, s[8:9]", true}, {"s_xor_b64 s[4:5], s[6:7], s[8:9]", true},
  {"s_xor_b64 s[4:5], s[6:7], -1", true}, {"s_andn2_b64 s[4:5], s[6:7], s[8:9]", true}, {"s_andn2_b64 s[4:5], -1, s[8:9]", true},
  {"s_cmp_eq_u32 s3, 0", true}, {"s_cmp_eq_u32 s3, s4", true}, {"s_cmp_lg_u32 s3, s4", true}, {"s_cmp_lg_u32 5, s4", true},
  {"s_cmp_gt_u32 s3, s4", true}, {"s_cmp_ge_u32 s3, 7", true}, {"s_cmp_lt_u32 s3, s4", true}, {"s_cmp_le_u32 -1, s4", true},
  {"s_cmp_eq_i32 s3, s4", true}, {"s_cmp_lg_i32 s3, -3", true}, {"s_cmp_gt_i32 s3, s4", true}, {"s_cmp_ge_i32 s3, -1", true},
  {"s_cmp_lt_i32 s3, 1", true}, {"s_cmp_lt_i32 -16, s4", true}, {"s_cmp_le_i32 s3, s4", true},
  /* not covered: float constants, a 64-bit literal, two constants */
  {"s_add_i32 s4, s5, 1.0", false}, {"s_cmp_eq_u32 s3, 0.5", false}, {"s_and_b64 s[4:5], s[6:7], 0x12345678", false},
  {"s_add_u32 s4, 1, 2", false},
};

Test(emu_cvt, specialised_scalar_forms_give_the_table_handlers_results)
{
  static const uint32_t edge[] = {0, 1, 2, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 0xfffffff0u};
  uint32_t st = 0x1b873593u;
  const char *texts[sizeof salu_cases / sizeof *salu_cases];
  for (size_t i = 0; i < sizeof salu_cases / sizeof *salu_cases; i++) texts[i] = salu_cases[i].text;
  sn_prefill(EMU_GFX950, texts, sizeof salu_cases / sizeof *salu_cases);
  for (size_t i = 0; i < sizeof salu_cases / sizeof *salu_cases; i++) {
    snip *s = sn_new(EMU_GFX950, salu_cases[i].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", salu_cases[i].text);
    emu_handler gen = emu_ops_get(in->op)->fn;
    cr_assert_eq(in->fn != gen, salu_cases[i].sp, "%s: %s handler", salu_cases[i].text,
                 in->fn != gen ? "a specialised" : "the table's");
    for (int t = 0; t < 400; t++) {
      uint32_t init[EMU_NSFILE], want[EMU_NSFILE];
      for (int r = 0; r < EMU_NSFILE; r++)
        init[r] = t < 121 ? edge[(t + r * (t / 11 + 1)) % 11] : (t & 1) ? sn_rand(&st) : sn_rand(&st) & 63;
      bool scc0 = t & 2;
      memcpy(s->w.s, init, sizeof init);
      s->w.scc = scc0;
      cr_assert_eq(gen(&s->w, in), EMU_OK);
      memcpy(want, s->w.s, sizeof want);
      bool wscc = s->w.scc;
      memcpy(s->w.s, init, sizeof init);
      s->w.scc = scc0;
      cr_assert_eq(in->fn(&s->w, in), EMU_OK);
      cr_assert_eq(s->w.scc, wscc, "%s (values %d): scc %d, the table's handler %d", salu_cases[i].text, t, s->w.scc, wscc);
      for (int r = 0; r < EMU_NSFILE; r++)
        cr_assert_eq(s->w.s[r], want[r], "%s (values %d): s%d %#x, the table's handler %#x", salu_cases[i].text, t, r,
                     s->w.s[r], want[r]);
    }
    sn_free(s);
  }
  /* the loop tail of bench_valu, by hand: s3 = 1 - 1 = 0, then SCC = (s3 == 0) */
  snip *s = sn_new(EMU_GFX950, "s_add_i32 s3, s3, -1\ns_cmp_eq_u32 s3, 0\ns_add_i32 s4, 0x7fffffff, s5\ns_sub_u32 s6, s7, 1");
  s->w.s[3] = 1, s->w.s[5] = 1, s->w.s[7] = 0;
  cr_assert_eq(s->p->insns[0].fn(&s->w, &s->p->insns[0]), EMU_OK);
  cr_assert(s->w.s[3] == 0 && !s->w.scc, "s_add_i32 1 + -1: %#x scc %d", s->w.s[3], s->w.scc);
  cr_assert_eq(s->p->insns[1].fn(&s->w, &s->p->insns[1]), EMU_OK);
  cr_assert(s->w.scc, "s_cmp_eq_u32 0, 0 leaves SCC clear");
  cr_assert_eq(s->p->insns[2].fn(&s->w, &s->p->insns[2]), EMU_OK);
  cr_assert(s->w.s[4] == 0x80000000u && s->w.scc, "s_add_i32 INT_MAX + 1: %#x, overflow %d", s->w.s[4], s->w.scc);
  cr_assert_eq(s->p->insns[3].fn(&s->w, &s->p->insns[3]), EMU_OK);
  cr_assert(s->w.s[6] == 0xffffffffu && s->w.scc, "s_sub_u32 0 - 1: %#x, borrow %d", s->w.s[6], s->w.scc);
  sn_free(s);
}

/* ---- runs of integer lane operations (emu/fuse.c) ------------------------------------------------
 * A run the decoder fuses must give the handlers' bits: every fusable mnemonic with VGPR, SGPR,
 * inline-integer, inline-float and literal sources, per-lane shift counts above 31, both mask forms of
 * v_cndmask_b32, and destinations that are sources of the same or a later instruction. The whole
 * program is one run (fuse_n), executed once handler by handler and once by emu_fuse_run on the same
 * random registers, on the AVX2 build (where the host has it) and the baseline one; every VGPR and
 * SGPR must agree. The forms a run must not take (clamp, abs/neg, SDWA, DPP, carry-out, float ops)
 * are checked to start none. */
static const char fuse_src[] =
    "v_add_u32 v3, v1, v2\nv_sub_u32 v4, v1, v2\nv_subrev_u32 v5, s3, v2\nv_and_b32 v6, 0xff00ff, v1\n"
    "v_or_b32 v7, s4, v2\nv_xor_b32 v8, v7, v8\nv_lshlrev_b32 v9, 16, v1\nv_lshrrev_b32 v10, v2, v1\n"
    "v_ashrrev_i32 v11, s5, v1\nv_ashrrev_i32 v12, v3, v2\nv_lshlrev_b32_e64 v13, v4, s6\nv_mul_lo_u32 v14, v1, v2\n"
    "v_mul_lo_u32 v15, s7, v3\nv_min_i32 v16, v1, v2\nv_max_i32 v17, -5, v1\nv_min_u32 v18, s8, v1\n"
    "v_max_u32 v19, v2, v1\nv_cndmask_b32 v20, v1, v2, vcc\nv_cndmask_b32_e64 v21, v2, v1, s[10:11]\n"
    "v_cndmask_b32_e64 v22, 1.0, v1, s[10:11]\nv_cndmask_b32_e64 v23, -4.0, v1, vcc\nv_and_or_b32 v24, v1, v2, v3\n"
    "v_or3_b32 v25, v1, s2, v3\nv_xad_u32 v26, v1, v2, s6\nv_lshl_add_u32 v27, v1, 3, v2\nv_add_lshl_u32 v28, v1, v2, v3\n"
    "v_add3_u32 v29, v1, v2, 7\nv_lshl_or_b32 v30, v1, v2, v3\nv_bfi_b32 v31, v1, v2, v3\nv_not_b32 v32, v1\n"
    "v_mov_b32 v33, 0.5\nv_mov_b32 v34, s1\nv_mov_b32 v35, -16\nv_lshrrev_b32 v36, s12, v2\n"
    "v_add_u32 v1, v1, v1\nv_xor_b32 v2, v2, v1\nv_cndmask_b32 v3, v3, v2, vcc\nv_and_or_b32 v4, v4, v1, v4\n"
    "v_lshlrev_b32 v5, v5, v5\nv_mov_b32 v6, v6\nv_sub_u32 v7, 0x12345678, v7\nv_bfi_b32 v8, v8, v1, v8\n"
    "v_bfe_u32 v37, v1, v2, v3\nv_bfe_u32 v38, v1, 8, 5\nv_bfe_u32 v39, s3, v2, 0\nv_bfe_u32 v9, v9, s4, v2\n"
    "s_nop 1\nv_cvt_f32_ubyte0 v10, v1\nv_cvt_f32_ubyte1 v11, v1\nv_cvt_f32_ubyte2_e64 v12, s5\n"
    "v_cvt_f32_ubyte3 v13, v13\ns_nop 0\nv_add_u32 v14, v13, v12\n"
    "v_exp_f32 v15, v1\nv_exp_f32_e64 v16, s4\nv_exp_f32 v17, v17\nv_cvt_f16_f32 v18, v2\nv_cvt_f16_f32_e64 v19, s3\n"
    "v_cvt_f16_f32 v20, v20\nv_cvt_f32_f16 v21, v1\nv_cvt_f32_f16 v22, v22\nv_cvt_f32_f16_e64 v23, s5\n"
    "v_exp_f32 v24, 0.5\nv_cvt_f32_f16 v25, 0x3555\n";

/* One pass of a run against its records' handlers, from the wave's registers as they are: the
 * handlers one by one, then the same registers restored and the whole run as one step (emu_fuse_run;
 * its AVX2 build when avx2 and the CPU has it, else the baseline one); every VGPR and SGPR equal. */
static bool scc_want; /* SCC after the handlers (handlers_then_run) */
static bool handlers_then_run(snip *s, size_t n, bool avx2, uint32_t *want, uint32_t swant[EMU_NSFILE])
{
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *before = ll_xmalloc(nbytes), sbefore[EMU_NSFILE];
  const bool scc0 = s->w.scc;
  bool ok = true;
  memcpy(before, s->vfile, nbytes);
  memcpy(sbefore, s->w.s, sizeof sbefore);
  for (size_t i = 0; i < n; i++) ok = ok && s->p->insns[i].fn(&s->w, &s->p->insns[i]) == EMU_OK;
  memcpy(want, s->vfile, nbytes);
  memcpy(swant, s->w.s, sizeof sbefore);
  scc_want = s->w.scc;
  memcpy(s->vfile, before, nbytes);
  memcpy(s->w.s, sbefore, sizeof sbefore);
  s->w.scc = scc0;
  bool had2 = emu_avx2;
  emu_avx2 = had2 && avx2;
  emu_fuse_run(&s->w, s->p->insns, (int)n);
  emu_avx2 = had2;
  free(before);
  return ok;
}
static void run_vs_handlers(snip *s, size_t n, bool avx2, emu_arch a, int pass)
{
  uint32_t *want = ll_xmalloc((size_t)EMU_NVGPR * EMU_LANES * 4), swant[EMU_NSFILE];
  cr_assert(handlers_then_run(s, n, avx2, want, swant), "%s", s->f.msg);
  for (int r = 0; r < EMU_NVGPR; r++)
    for (int l = 0; l < EMU_LANES; l++)
      cr_assert_eq(sn_v(s, r)[l], want[r * EMU_LANES + l], "%s pass %d: v%d lane %d: run 0x%08x, handlers 0x%08x",
                   emu_arch_name(a), pass, r, l, sn_v(s, r)[l], want[r * EMU_LANES + l]);
  for (int r = 0; r < EMU_NSFILE; r++)
    cr_assert_eq(s->w.s[r], swant[r], "%s pass %d: s%d: run 0x%08x, handlers 0x%08x", emu_arch_name(a), pass, r, s->w.s[r],
                 swant[r]);
  cr_assert_eq(s->w.scc, scc_want, "%s pass %d: SCC: run %d, handlers %d", emu_arch_name(a), pass, s->w.scc, scc_want);
  free(want);
}

/* The snippet src on arch, asserted to be one fused run over all its *n instructions (the s_
 * padding llvm-mc may add at the end not counted) */
static snip *sn_one_run(emu_arch a, const char *src, size_t *n)
{
  snip *s = sn_new(a, src);
  *n = s->p->n;
  while (*n && !strncmp(s->p->insns[*n - 1].mnem, "s_", 2)) (*n)--; /* padding llvm-mc may add */
  cr_assert_eq(s->p->insns[0].fuse_n, *n, "%s: the run covers %u of the %zu instructions", emu_arch_name(a),
               (unsigned)s->p->insns[0].fuse_n, *n);
  return s;
}

static void fuse_compare(emu_arch a)
{
  size_t n;
  snip *s = sn_one_run(a, fuse_src, &n);
  uint32_t st = 0x9e3779b9u;
  for (int pass = 0; pass < 4; pass++) {
    for (int r = 0; r < 40; r++)
      for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = (pass & 1) && r == 2 ? sn_rand(&st) & 63 : sn_rand(&st);
    for (int r = 0; r < 16; r++) s->w.s[r] = sn_rand(&st);
    s->w.s[12] = 35; /* a uniform shift count above 31 */
    emu_wr64s(&s->w, EMU_S_VCC, (uint64_t)sn_rand(&st) << 32 | sn_rand(&st));
    sn_exec(s, ~0ull);
    run_vs_handlers(s, n, pass < 2, a, pass); /* passes 2, 3: the baseline build */
  }
  sn_free(s);
  snip *x = sn_new(a, "v_add_u32_e64 v3, v1, v2 clamp\nv_cndmask_b32_e64 v3, -v1, v2, s[10:11]\n"
                      "v_mov_b32_sdwa v3, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD\n"
                      "v_add_co_u32 v3, vcc, v1, v2\nv_mov_b32_dpp v3, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                      "v_add_f32_e64 v3, -v1, v2\nv_mul_f32_e64 v3, v1, v2 clamp\nv_fma_f32 v3, v1, |v2|, v3\nv_cvt_f32_f16 v3, 1.0\n"
                      "v_cvt_f32_ubyte0_sdwa v3, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1\n"
                      "v_lshlrev_b64 v[4:5], v1, v[2:3]\nv_readfirstlane_b32 s3, v1\n");
  for (size_t i = 0; i < x->p->n; i++)
    cr_assert_eq(x->p->insns[i].fuse_n, 0, "%s: '%s' starts a run", emu_arch_name(a), x->p->insns[i].text);
  sn_free(x);
}
Test(emu_cvt, fused_lane_runs_give_the_handlers_bits)
{
  fuse_compare(EMU_GFX942);
  fuse_compare(EMU_GFX950);
}

/* Shifts by a constant amount (inline integers, literals, amounts above 31), which the translated
 * code takes by the immediate shift forms (emu/jit.c shift_by, issue #31 forty-fourth stop): against
 * the handlers as above, and the results against the shift written here, amount & 31 (the CDNA3 ISA's
 * VOP2 descriptions: D = S1 shifted by S0[4:0]), on the values before the run. */
static const char kshift_src[] = "v_lshlrev_b32 v10, 16, v1\nv_lshrrev_b32 v11, 16, v2\nv_ashrrev_i32 v12, 5, v1\n"
                                 "v_lshrrev_b32 v13, 35, v2\nv_lshlrev_b32 v14, 0x44, v2\nv_ashrrev_i32 v15, 0x3f, v1\n"
                                 "v_lshl_add_u32 v16, v1, 33, v2\nv_lshl_or_b32 v17, v1, 9, v3\nv_lshl_or_b32 v18, v1, 0x27, v3\n"
                                 "v_ashrrev_i32 v19, 31, v19\nv_lshrrev_b32 v20, 0, v3\n";
static void kshift_compare(emu_arch a)
{
  size_t n;
  snip *s = sn_one_run(a, kshift_src, &n);
  uint32_t st = 0x2545f491u;
  for (int pass = 0; pass < 4; pass++) {
    uint32_t v1[EMU_LANES], v2[EMU_LANES], v3[EMU_LANES], v19[EMU_LANES];
    for (int r = 0; r < 24; r++)
      for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = sn_rand(&st);
    memcpy(v1, sn_v(s, 1), sizeof v1), memcpy(v2, sn_v(s, 2), sizeof v2), memcpy(v3, sn_v(s, 3), sizeof v3);
    memcpy(v19, sn_v(s, 19), sizeof v19);
    sn_exec(s, ~0ull);
    run_vs_handlers(s, n, pass < 2, a, pass);
    for (int l = 0; l < EMU_LANES; l++) {
      const uint32_t want[] = {v1[l] << 16,
                               v2[l] >> 16,
                               (uint32_t)((int32_t)v1[l] >> 5),
                               v2[l] >> 3,
                               v2[l] << 4,
                               (uint32_t)((int32_t)v1[l] >> 31),
                               (v1[l] << 1) + v2[l],
                               (v1[l] << 9) | v3[l],
                               (v1[l] << 7) | v3[l],
                               (uint32_t)((int32_t)v19[l] >> 31),
                               v3[l]};
      for (int i = 0; i < 11; i++)
        cr_assert_eq(sn_v(s, 10 + i)[l], want[i], "%s pass %d: v%d lane %d: 0x%08x, want 0x%08x", emu_arch_name(a), pass, 10 + i, l,
                     sn_v(s, 10 + i)[l], want[i]);
    }
  }
  sn_free(s);
}
Test(emu_cvt, constant_shift_amounts_in_runs_give_the_handlers_bits)
{
  kshift_compare(EMU_GFX942);
  kshift_compare(EMU_GFX950);
}

/* The 64-bit lane-mask scalar operations in runs (emu/fuse.c sop_mark; emu/jit.c runs them on the
 * chunk's 16 mask bits): every one of the ten, VCC and EXEC as sources, VCC as destination, pairs a
 * compare wrote and a v_cndmask_b32 reads, an SGPR of a pair they wrote read as a uniform source after
 * them (the translated piece is cut there), the last SCC writer's pair overwritten by a compare and by
 * s_mov_b64 (SCC must still be that writer's). Against the handlers (emu/op_salu.c), on the runner of
 * both builds and the translated code, SCC set both ways before each pass; and against the
 * definitions written here: SCC = the last writer's result != 0, and three results as formulas. */
/* v0..v(nv-1) and s0..s(ns-1) random; ones: every fourth lane's even VGPRs all ones (a carry out of
 * a 64-bit pair's low half) */
static void sn_fill(snip *s, int nv, int ns, uint32_t *st, bool ones)
{
  for (int r = 0; r < nv; r++)
    for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = ones && (r & 1) == 0 && (l & 3) == 0 ? 0xffffffffu : sn_rand(st);
  for (int r = 0; r < ns; r++) s->w.s[r] = sn_rand(st);
}
static const char sop_src[] =
    "v_cmp_lt_u32_e64 s[10:11], v1, v2\ns_and_b64 s[12:13], s[10:11], vcc\nv_cndmask_b32_e64 v5, v1, v2, s[12:13]\n"
    "s_or_b64 s[14:15], s[12:13], s[16:17]\ns_xor_b64 s[18:19], s[14:15], exec\nv_cndmask_b32_e64 v6, v2, v3, s[18:19]\n"
    "s_andn2_b64 s[20:21], s[18:19], s[10:11]\ns_orn2_b64 s[22:23], s[20:21], s[12:13]\n"
    "s_nand_b64 s[24:25], s[22:23], s[14:15]\ns_nor_b64 s[26:27], s[24:25], s[10:11]\n"
    "s_xnor_b64 vcc, s[26:27], s[18:19]\nv_cndmask_b32 v7, v5, v6, vcc\ns_not_b64 s[28:29], vcc\n"
    "s_mov_b64 s[30:31], s[28:29]\nv_cndmask_b32_e64 v8, v7, v1, s[30:31]\nv_add_u32 v9, s20, v8\n"
    "s_and_b64 s[32:33], s[30:31], s[10:11]\nv_cmp_gt_i32_e64 s[32:33], v9, v1\nv_xor_b32 v10, v9, v8\n"
    "s_and_b64 s[34:35], s[32:33], s[14:15]\ns_mov_b64 s[34:35], s[28:29]\nv_cndmask_b32_e64 v11, v10, v2, s[34:35]\n";
Test(emu_cvt, lane_mask_scalar_ops_in_runs_give_the_handlers_bits_and_scc)
{
  uint32_t st = 0x2545f491u;
  for (int a = 0; a < EMU_NARCH; a++) {
    size_t n;
    snip *s = sn_one_run((emu_arch)a, sop_src, &n);
    for (int pass = 0; pass < 8; pass++) {
      sn_fill(s, 12, 40, &st, false);
      emu_wr64s(&s->w, EMU_S_VCC, (uint64_t)sn_rand(&st) << 32 | sn_rand(&st));
      if (pass & 2) /* s[12:13] and s[14:15] zero, so the last SCC writer's result too: SCC 0 */
        s->w.s[16] = s->w.s[17] = 0, emu_wr64s(&s->w, EMU_S_VCC, 0);
      sn_exec(s, ~0ull);
      const uint64_t vcc0 = emu_rd64s(&s->w, EMU_S_VCC), s16 = emu_rd64s(&s->w, 16);
      s->w.scc = pass & 1;
      run_vs_handlers(s, n, !(pass & 4), (emu_arch)a, pass); /* passes 4-7: the baseline build */
      /* the definitions: s[12:13] = cmp & VCC, s[14:15] = that | s[16:17], s[18:19] = ~that (EXEC all
       * ones); SCC from s_and_b64 s[34:35] (before s_mov_b64 overwrote the pair) */
      const uint64_t c10 = emu_rd64s(&s->w, 10), s12 = c10 & vcc0, s14 = s12 | s16;
      cr_assert_eq(emu_rd64s(&s->w, 12), s12);
      cr_assert_eq(emu_rd64s(&s->w, 14), s14);
      cr_assert_eq(emu_rd64s(&s->w, 18), ~s14);
      cr_assert_eq(s->w.scc, (emu_rd64s(&s->w, 32) & s14) != 0, "pass %d: SCC is not the last writer's", pass);
    }
    const emu_insn *in = s->p->insns;
    if (emu_jit_ready()) {
      /* translated: one piece of four segments. The first ends before v_add_u32's read of s20 (record
       * 15), SCC after it from s_not_b64's s[28:29]; records 15-16 end before the compare that writes
       * s_and_b64's s[32:33], SCC from that pair; records 17-19 before s_mov_b64 overwrites s[34:35],
       * their SCC pair; 20-21 set no SCC. The code stores each segment's SCC when another follows, so
       * the piece's own (jit_scc) is none */
      cr_assert(in[0].jit != NULL && in[0].jit != EMU_JIT_NONE, "no code for the run");
      cr_assert_eq(in[0].jit_n, n, "the piece covers %u records", (unsigned)in[0].jit_n);
      cr_assert_eq(in[0].jit_scc, 0);
      int at[8], len[8], nc[8];
      unsigned sc[8];
      cr_assert_eq(emu_jit_segments(in, at, len, nc, sc, 8), 4);
      static const int wat[] = {0, 15, 17, 20}, wlen[] = {15, 2, 3, 2};
      static const unsigned wsc[] = {29, 33, 35, 0};
      for (int i = 0; i < 4; i++)
        cr_assert(at[i] == wat[i] && len[i] == wlen[i] && nc[i] == 0 && sc[i] == wsc[i], "segment %d: at %d, %d records, scc %u",
                  i, at[i], len[i], sc[i]);
    }
    sn_free(s);
  }
  /* alone (between records of no run: s_addc_u32 reads SCC, no run takes it), with a constant source
   * or EXEC as destination, they are not run records */
  snip *x = sn_new(EMU_GFX950, "s_and_b64 s[0:1], s[2:3], s[4:5]\ns_or_b64 s[6:7], s[0:1], vcc\ns_addc_u32 s8, s9, s10\n"
                               "v_add_u32 v1, v2, v3\ns_and_b64 exec, exec, s[2:3]\nv_add_u32 v1, v2, v3\n"
                               "s_and_b64 s[0:1], s[2:3], 0xff\nv_add_u32 v1, v2, v3\ns_mov_b64 s[0:1], -1\n"
                               "v_add_u32 v1, v2, v3\n");
  const int want[] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    cr_assert_eq(x->p->insns[i].fuse_n, want[i], "'%s': fuse_n %u", x->p->insns[i].text, (unsigned)x->p->insns[i].fuse_n);
  sn_free(x);
  /* before and between lane operations they join the run */
  size_t n;
  x = sn_one_run(EMU_GFX942, "s_and_b64 s[0:1], s[2:3], s[4:5]\nv_cndmask_b32_e64 v1, v2, v3, s[0:1]\n"
                             "s_or_b64 s[6:7], s[0:1], s[2:3]\nv_add_u32 v1, v2, v3\n", &n);
  cr_assert_eq(n, 4);
  sn_free(x);
}

/* The 64-bit lane operations in runs (emu/fuse.c m64_mark, issue #31 fifteenth stop): v_mov_b64,
 * v_lshlrev_b64 and v_lshl_add_u64 with VGPR-pair, SGPR-pair and inline-integer sources, counts 0, 9,
 * 32, 45, 63 and 0..6 (5..7 shift by 0, as the handler reads the guides' Notes), a destination that is
 * a source, random registers with low halves of all ones so that the carry crosses; against the
 * handlers on the runner of both builds and the translated code, and against 64-bit sums and shifts
 * computed here */
static const char m64_src[] =
    "v_mov_b64 v[10:11], v[2:3]\nv_mov_b64 v[12:13], s[4:5]\nv_mov_b64 v[14:15], 0\nv_mov_b64 v[16:17], -5\n"
    "v_lshlrev_b64 v[18:19], 0, v[2:3]\nv_lshlrev_b64 v[20:21], 9, v[2:3]\nv_lshlrev_b64 v[22:23], 32, v[4:5]\n"
    "v_lshlrev_b64 v[24:25], 45, v[4:5]\nv_lshlrev_b64 v[26:27], 63, s[6:7]\nv_lshl_add_u64 v[28:29], v[2:3], 0, v[4:5]\n"
    "v_lshl_add_u64 v[30:31], s[8:9], 3, v[6:7]\nv_lshl_add_u64 v[32:33], v[6:7], 4, s[10:11]\n"
    "v_lshl_add_u64 v[34:35], v[2:3], 6, v[4:5]\nv_lshl_add_u64 v[36:37], v[8:9], 2, -1\n"
    "v_lshl_add_u64 v[38:39], 0, 1, v[6:7]\nv_lshl_add_u64 v[4:5], v[4:5], 1, v[4:5]\n"
    "v_lshlrev_b64 v[2:3], 17, v[2:3]\nv_add_u32 v40, v2, v5\n";
static uint64_t rd64v(snip *s, int r, int l) { return (uint64_t)sn_v(s, r + 1)[l] << 32 | sn_v(s, r)[l]; }
Test(emu_cvt, sixty_four_bit_lane_ops_in_runs_give_the_handlers_bits)
{
  uint32_t st = 0x68e31da4u;
  for (int a = 0; a < EMU_NARCH; a++) {
    size_t n;
    snip *s = sn_one_run((emu_arch)a, m64_src, &n);
    for (int pass = 0; pass < 6; pass++) {
      sn_fill(s, 42, 16, &st, true);
      s->w.s[10] = 0xffffffffu; /* the SGPR addend's low half: a carry wherever the shifted low half is not 0 */
      sn_exec(s, ~0ull);
      uint64_t v2[EMU_LANES], v4[EMU_LANES], v6[EMU_LANES], v8[EMU_LANES];
      for (int l = 0; l < EMU_LANES; l++) v2[l] = rd64v(s, 2, l), v4[l] = rd64v(s, 4, l), v6[l] = rd64v(s, 6, l), v8[l] = rd64v(s, 8, l);
      const uint64_t s8 = emu_rd64s(&s->w, 8), s10 = emu_rd64s(&s->w, 10);
      run_vs_handlers(s, n, pass < 4, (emu_arch)a, pass); /* passes 4, 5: the baseline build */
      for (int l = 0; l < EMU_LANES; l++) {
        cr_assert_eq(rd64v(s, 16, l), (uint64_t)-5);
        cr_assert_eq(rd64v(s, 20, l), v2[l] << 9);
        cr_assert_eq(rd64v(s, 22, l), v4[l] << 32);
        cr_assert_eq(rd64v(s, 24, l), v4[l] << 45);
        cr_assert_eq(rd64v(s, 28, l), v2[l] + v4[l]);
        cr_assert_eq(rd64v(s, 30, l), (s8 << 3) + v6[l]);
        cr_assert_eq(rd64v(s, 32, l), (v6[l] << 4) + s10);
        cr_assert_eq(rd64v(s, 34, l), v2[l] + v4[l], "lane %d: a count of 6 shifts by 0", l);
        cr_assert_eq(rd64v(s, 36, l), (v8[l] << 2) - 1);
        cr_assert_eq(rd64v(s, 38, l), v6[l], "lane %d: a zero low half carries nothing", l);
        cr_assert_eq(rd64v(s, 4, l), (v4[l] << 1) + v4[l]);
        cr_assert_eq(rd64v(s, 2, l), v2[l] << 17);
      }
    }
    if (emu_jit_ready()) cr_assert(s->p->insns[0].jit != NULL && s->p->insns[0].jit != EMU_JIT_NONE, "no code for the run");
    sn_free(s);
  }
  /* a count from a register keeps the handler */
  snip *x = sn_new(EMU_GFX950, "v_lshl_add_u64 v[0:1], v[2:3], s4, v[4:5]\nv_lshlrev_b64 v[6:7], v1, v[2:3]\n");
  for (size_t i = 0; i < 2; i++) cr_assert_eq(x->p->insns[i].fuse_n, 0, "'%s' starts a run", x->p->insns[i].text);
  sn_free(x);
}

/* v_mad_u64_u32 in runs (emu/fuse.c mad_mark, emu/jit.c mad64; issue #31, forty-first stop): VGPR,
 * SGPR and constant multiplicands, a VGPR-pair, SGPR-pair and inline-integer addend, carries into a
 * general pair and VCC, a destination that is its addend and whose halves are its multiplicands, a
 * carry pair read by a later v_cndmask_b32 and s_and_b64 and a result by a later v_add_u32; addends
 * with high halves of all ones so that the 64-bit sum carries out in many lanes. Against the handlers
 * (the translated code on the first passes, the runner on the last) and against the sums computed
 * here in 128 bits. A clamp keeps the handler, as does v_mad_i64_i32. */
static const char mad_src[] =
    "v_mad_u64_u32 v[10:11], s[0:1], v2, v3, v[4:5]\nv_mad_u64_u32 v[12:13], vcc, v2, s8, v[4:5]\n"
    "v_mad_u64_u32 v[14:15], s[2:3], s9, v3, v[6:7]\nv_mad_u64_u32 v[16:17], s[4:5], v2, 12, -1\n"
    "v_mad_u64_u32 v[4:5], s[6:7], v4, v5, v[4:5]\nv_cndmask_b32_e64 v18, v2, v3, s[0:1]\n"
    "s_and_b64 s[12:13], s[2:3], vcc\nv_cndmask_b32_e64 v19, v3, v2, s[12:13]\nv_add_u32 v20, v10, v13\n"
    "v_mad_u64_u32 v[22:23], s[14:15], v20, v6, v[22:23]\nv_mad_u64_u32 v[24:25], s[16:17], v2, v3, s[10:11]\n";
static uint64_t mad_carry(uint64_t a, uint64_t b, uint64_t c, uint64_t *sum)
{
  const unsigned __int128 r = (unsigned __int128)(a * b) + c; /* a, b below 2^32: a * b is exact */
  *sum = (uint64_t)r;
  return (uint64_t)(r >> 64);
}
Test(emu_cvt, mad_u64_u32_in_runs_gives_the_handlers_bits)
{
  uint32_t st = 0x2545f491u;
  for (int a = 0; a < EMU_NARCH; a++) {
    size_t n;
    snip *s = sn_one_run((emu_arch)a, mad_src, &n);
    cr_assert_eq(s->p->insns[0].fz_op, FZ_MAD64);
    for (int pass = 0; pass < 6; pass++) {
      sn_fill(s, 24, 16, &st, false);
      for (int l = 0; l < EMU_LANES; l++)
        if (l % 3 != 2) sn_v(s, 5)[l] = 0xffffffffu, sn_v(s, 23)[l] = 0xffffffffu - (uint32_t)l; /* carries */
      s->w.s[11] = pass & 1 ? 0xffffffffu : 7u;
      const uint32_t s8 = s->w.s[8], s9 = s->w.s[9];
      const uint64_t s10 = emu_rd64s(&s->w, 10);
      uint32_t v2[EMU_LANES], v3[EMU_LANES], v6[EMU_LANES];
      uint64_t v4[EMU_LANES], v6p[EMU_LANES], v22[EMU_LANES];
      for (int l = 0; l < EMU_LANES; l++)
        v2[l] = sn_v(s, 2)[l], v3[l] = sn_v(s, 3)[l], v6[l] = sn_v(s, 6)[l], v4[l] = rd64v(s, 4, l), v6p[l] = rd64v(s, 6, l),
        v22[l] = rd64v(s, 22, l);
      sn_exec(s, ~0ull);
      run_vs_handlers(s, n, pass < 4, (emu_arch)a, pass); /* passes 4, 5: the baseline build */
      uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c7 = 0, c8 = 0, sum;
      int carried = 0;
      for (int l = 0; l < EMU_LANES; l++) {
        const uint64_t b = 1ull << l;
        c0 |= mad_carry(v2[l], v3[l], v4[l], &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 10, l), sum, "%s lane %d", emu_arch_name((emu_arch)a), l);
        c1 |= mad_carry(v2[l], s8, v4[l], &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 12, l), sum);
        c2 |= mad_carry(s9, v3[l], v6p[l], &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 14, l), sum);
        c3 |= mad_carry(v2[l], 12, ~0ull, &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 16, l), sum);
        c4 |= mad_carry((uint32_t)v4[l], (uint32_t)(v4[l] >> 32), v4[l], &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 4, l), sum, "lane %d: the destination is the addend and the multiplicands", l);
        const uint32_t v10 = (uint32_t)(v2[l] * (uint64_t)v3[l] + v4[l]), v13 = (uint32_t)((v2[l] * (uint64_t)s8 + v4[l]) >> 32);
        cr_assert_eq(sn_v(s, 18)[l], c0 & b ? v3[l] : v2[l], "lane %d: the carry pair read by v_cndmask_b32", l);
        cr_assert_eq(sn_v(s, 20)[l], v10 + v13);
        c7 |= mad_carry(v10 + v13, v6[l], v22[l], &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 22, l), sum);
        c8 |= mad_carry(v2[l], v3[l], s10, &sum) ? b : 0;
        cr_assert_eq(rd64v(s, 24, l), sum, "lane %d: an SGPR-pair addend", l);
      }
      cr_assert_eq(emu_rd64s(&s->w, 0), c0);
      cr_assert_eq(emu_rd64s(&s->w, EMU_S_VCC), c1);
      cr_assert_eq(emu_rd64s(&s->w, 2), c2);
      cr_assert_eq(emu_rd64s(&s->w, 4), c3);
      cr_assert_eq(emu_rd64s(&s->w, 6), c4);
      cr_assert_eq(emu_rd64s(&s->w, 12), c2 & c1, "s_and_b64 of two carry pairs");
      cr_assert_eq(emu_rd64s(&s->w, 14), c7);
      cr_assert_eq(emu_rd64s(&s->w, 16), c8);
      for (int l = 0; l < EMU_LANES; l++) cr_assert_eq(sn_v(s, 19)[l], (c2 & c1) >> l & 1 ? v2[l] : v3[l]);
      carried += __builtin_popcountll(c0) + __builtin_popcountll(c7);
      uint64_t nz = 0; /* v2 * 12 + (2^64 - 1) carries out wherever v2 is not 0 */
      for (int l = 0; l < EMU_LANES; l++) nz |= (uint64_t)(v2[l] != 0) << l;
      cr_assert_eq(c3, nz);
      cr_assert(carried > 0 && (!(pass & 1) || c8 != 0), "pass %d: no carry-out to check", pass);
    }
    if (emu_jit_ready()) cr_assert(s->p->insns[0].jit != NULL && s->p->insns[0].jit != EMU_JIT_NONE, "no code for the run");
    sn_free(s);
  }
  snip *x = sn_new(EMU_GFX942, "v_mad_u64_u32 v[0:1], s[0:1], v2, v3, v[4:5] clamp\nv_mad_i64_i32 v[0:1], s[0:1], v2, v3, v[4:5]\n");
  for (size_t i = 0; i < 2; i++) cr_assert_eq(x->p->insns[i].fuse_n, 0, "'%s' starts a run", x->p->insns[i].text);
  sn_free(x);
}

/* Runs translated to AVX-512 code (emu/jit.c) on a host that has it: a run touching more VGPRs than
 * the 32 zmm registers hold is cut into pieces, each translated, the whole giving the handlers' bits
 * twice (translated on the first pass, found again on the second); the run-ahead loop's entry
 * translates a run only once it has run EMU_JIT_HOT times, and leaves a run the caller cut shorter
 * than its code to the runner. Without AVX-512 (or with LANELAB_EMU_NO_JIT) no record gets code. */
Test(emu_cvt, translated_runs_split_where_registers_run_out_and_give_the_handlers_bits)
{
  char src[4096] = "";
  size_t o = 0;
  for (int r = 3; r < 44; r++) /* v3..v43 from the two before: 43 VGPRs, no room for all in one piece */
    o += (size_t)snprintf(src + o, sizeof src - o, "%s v%d, v%d, v%d\n", r % 3 ? "v_add_u32" : "v_xor_b32", r, r - 1, r - 2);
  o += (size_t)snprintf(src + o, sizeof src - o, "v_mul_lo_u32 v44, v43, v1\nv_lshl_add_u32 v45, v44, 5, s7\n");
  size_t n;
  snip *s = sn_one_run(EMU_GFX950, src, &n);
  uint32_t st = 0x1b873593u;
  for (int pass = 0; pass < 2; pass++) {
    for (int r = 0; r < 48; r++)
      for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = sn_rand(&st);
    for (int r = 0; r < 16; r++) s->w.s[r] = sn_rand(&st);
    sn_exec(s, ~0ull);
    run_vs_handlers(s, n, true, EMU_GFX950, pass);
  }
  const emu_insn *in = s->p->insns;
  if (!emu_jit_ready()) {
    for (size_t i = 0; i < n; i++) cr_assert_null(in[i].jit, "record %zu has code without AVX-512 translation", i);
    cr_log_info("no AVX-512 translation on this host (or LANELAB_EMU_NO_JIT): checked that no record has code");
    sn_free(s);
    return;
  }
  /* one piece over the whole run, its segments end to end, each at most as many records as fit */
  cr_assert(in[0].jit != NULL && in[0].jit != EMU_JIT_NONE, "the run has no code");
  cr_assert_eq(in[0].jit_n, n, "the piece covers %u of %zu records", (unsigned)in[0].jit_n, n);
  int sat[16], slen[16], snc[16];
  unsigned ssc[16];
  const int nseg = emu_jit_segments(in, sat, slen, snc, ssc, 16);
  cr_assert(nseg >= 2 && nseg <= 16, "%d segments", nseg);
  size_t at = 0;
  for (int i = 0; i < nseg; i++) {
    cr_assert(sat[i] == (int)at && slen[i] >= 2 && snc[i] == 0, "segment %d at %d of %d records", i, sat[i], slen[i]);
    at += (size_t)slen[i];
  }
  cr_assert_eq(at, n);
  sn_free(s);

  /* compares write SGPR pairs chunk by chunk: a v_cndmask_b32 reading that pair as its mask before
   * and after the compare, and an SGPR of it read as a uniform source (broadcast before the piece:
   * the piece is cut there), must each see the value of instruction order */
  s = sn_one_run(EMU_GFX950,
                 "v_cndmask_b32_e64 v5, v1, v2, s[10:11]\nv_cmp_lt_u32_e64 s[10:11], v1, v2\n"
                 "v_cndmask_b32_e64 v6, v2, v1, s[10:11]\nv_add_u32 v7, s11, v1\nv_cmp_gt_i32_e64 s[14:15], v2, v1\n"
                 "v_cndmask_b32_e64 v8, v1, v3, s[14:15]\nv_xor_b32 v10, s14, v8\nv_cmp_ne_u32 vcc, v10, v1\n"
                 "v_cndmask_b32 v11, v10, v2, vcc\n",
                 &n);
  for (int pass = 0; pass < 4; pass++) {
    for (int r = 0; r < 12; r++)
      for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = sn_rand(&st);
    for (int r = 0; r < 20; r++) s->w.s[r] = sn_rand(&st);
    sn_exec(s, ~0ull);
    run_vs_handlers(s, n, true, EMU_GFX950, 10 + pass);
  }
  sn_free(s);

  /* the run-ahead loop's entry: not before EMU_JIT_HOT runs, and not for fewer records than the code */
  s = sn_one_run(EMU_GFX942, "v_add_u32 v3, v1, v2\nv_xor_b32 v4, v3, v1\nv_sub_u32 v5, v4, s2\n", &n);
  uint64_t cnt[4] = {0};
  cr_assert_eq(emu_jit_step(&s->w, s->p->insns, 3, cnt, false), -3);
  cr_assert_null(s->p->insns[0].jit);
  cnt[0] = EMU_JIT_HOT;
  for (int l = 0; l < EMU_LANES; l++) sn_v(s, 1)[l] = (uint32_t)l * 0x01010101u, sn_v(s, 2)[l] = 0x9e3779b9u + (uint32_t)l;
  s->w.s[2] = 12345;
  cr_assert_eq(emu_jit_step(&s->w, s->p->insns, 3, cnt, false), 3);
  cr_assert(cnt[0] == EMU_JIT_HOT + 1 && cnt[1] == 1 && cnt[2] == 1 && cnt[3] == 0, "counts %llu %llu %llu %llu",
            (unsigned long long)cnt[0], (unsigned long long)cnt[1], (unsigned long long)cnt[2], (unsigned long long)cnt[3]);
  for (int l = 0; l < EMU_LANES; l++) { /* the definitions: v3 = v1 + v2, v4 = v3 ^ v1, v5 = v4 - s2 */
    uint32_t v3 = (uint32_t)l * 0x01010101u + 0x9e3779b9u + (uint32_t)l, v4 = v3 ^ ((uint32_t)l * 0x01010101u);
    cr_assert_eq(sn_v(s, 3)[l], v3, "lane %d", l);
    cr_assert_eq(sn_v(s, 4)[l], v4, "lane %d", l);
    cr_assert_eq(sn_v(s, 5)[l], v4 - 12345u, "lane %d", l);
  }
  cr_assert_eq(emu_jit_step(&s->w, s->p->insns, 2, cnt, false), -2, "a run cut to 2 records ran 3 records' code");
  cr_assert_eq(emu_jit_try(&s->w, s->p->insns, 2, cnt), 0);
  cr_assert(cnt[0] == EMU_JIT_HOT + 1 && cnt[1] == 1 && cnt[2] == 1 && cnt[3] == 0, "a refused piece counted");
  sn_free(s);
}

/* ds_bpermute_b32 and s_waitcnt inside runs (emu/fuse.c FZ_XCALL, issue #31 forty-second stop): a
 * warp reduction in FlashInfer's style (max3, bpermute, s_waitcnt lgkmcnt(0) and (1), max), a
 * bpermute writing its data register and one writing its address register, an offset, a wait on
 * the vector-memory counter and a bpermute left outstanding at the end; and gfx942's transpose
 * style (the forty-third stop), bpermutes waited for by lgkmcnt(N) with waits between a bpermute and
 * the one that retires it. Their records run on the translated code (the inline bpermute and wait
 * of emu/jit.c, or its calls for a solo wave), on the runner of both builds, and one handler at a
 * time with the elision rule written here: a bpermute makes no LDS-counter entry when the wait that
 * retires it (emu_insn.sel for a solo wave, wsel else, records later) lies in the part that runs.
 * For every part of the run from its start (m records, the code stopping at a segment or call that
 * does not fit and the runner taking the rest), with none, LDS and vector-memory entries
 * outstanding before: every VGPR and SGPR, the counters' whole state (entries, sequence numbers, the
 * pending-register map) and each record's count must agree. And what the checks after the run see
 * must be the machine's: the handlers one at a time with every entry made (no elision), compared on
 * the counts, each live entry's issuer and registers, oldest first, and the pending-register map
 * (not the sequence numbers, which count the entries left out). */
static const char xcall_src[] =
    "v_max3_f32 v10, v1, v2, v3\nds_bpermute_b32 v11, v20, v10\nv_max3_f32 v12, v4, v5, v6\ns_waitcnt lgkmcnt(0)\n"
    "v_max_f32 v10, v10, v11\nds_bpermute_b32 v11, v21, v10\nds_bpermute_b32 v13, v20, v12 offset:8\n"
    "v_max3_f32 v14, v7, v8, v9\ns_waitcnt lgkmcnt(1)\nv_max_f32 v10, v10, v11\nds_bpermute_b32 v10, v22, v10\n"
    "s_waitcnt lgkmcnt(1)\nv_max_f32 v12, v12, v13\nds_bpermute_b32 v21, v21, v12\nv_add_u32 v15, v14, v12\n"
    "s_waitcnt vmcnt(0) lgkmcnt(0)\nv_xor_b32 v16, v10, v15\nds_bpermute_b32 v17, v20, v16\nv_add_u32 v18, v1, v2\n";
/* no lgkmcnt(0): entries outstanding before the run meet every wait. By hand, on the machine's counter
 * (the LDS entries oldest first, all but the N youngest retired at lgkmcnt(N)): the bpermute at 1 is
 * retired by lgkmcnt(1) at 3 (one younger), that at 2 not there (none) but by lgkmcnt(2) at 7 (5 and 6
 * younger), those at 5 and 6 not at 7 (one and none younger) but by lgkmcnt(1) at 10 (two and one),
 * that at 9 by none */
static const char xcall_src2[] =
    "v_xor_b32 v10, v10, v23\nds_bpermute_b32 v11, v20, v10\nds_bpermute_b32 v12, v21, v10\ns_waitcnt lgkmcnt(1)\nv_max_f32 v13, v11, v10\n"
    "ds_bpermute_b32 v14, v20, v13\nds_bpermute_b32 v15, v21, v13\ns_waitcnt lgkmcnt(2)\nv_max_f32 v16, v12, v10\n"
    "ds_bpermute_b32 v17, v22, v16\ns_waitcnt lgkmcnt(1)\nv_add_u32 v18, v14, v15\n";
/* the counters' state: emu_wave from ncnt to the end of pbits */
#define PEND_AT offsetof(emu_wave, ncnt)
#define PEND_LEN (offsetof(emu_wave, pbits) + sizeof(((emu_wave *)0)->pbits) - PEND_AT)
/* the records before m one handler at a time, under the elision rule (elide) or with every entry made */
static void xcall_reference(snip *s, int m, bool solo, bool elide)
{
  const emu_insn *in = s->p->insns;
  for (int i = 0; i < m; i++) {
    const emu_insn *x = &in[i];
    const unsigned d = elide && !strcmp(x->mnem, "ds_bpermute_b32") ? (solo ? x->sel : x->wsel) : 0;
    s->w.nopend = d && i + (int)d < m;
    cr_assert_eq(x->fn(&s->w, x), EMU_OK, "%s", x->text);
    s->w.nopend = 0;
  }
}
/* what a check after the run reads of the counters: a and b the same, else a message in why */
static bool pend_seen_same(const emu_wave *a, const emu_wave *b, char *why, size_t n)
{
  if (memcmp(a->ncnt, b->ncnt, sizeof a->ncnt)) {
    snprintf(why, n, "entries %u %u %u against %u %u %u", a->ncnt[0], a->ncnt[1], a->ncnt[2], b->ncnt[0], b->ncnt[1], b->ncnt[2]);
    return false;
  }
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < a->ncnt[c]; i++) {
      const int ia = EMU_PRING_BASE(c) + ((a->phead[c] + i) & (EMU_PRING_CAP(c) - 1));
      const int ib = EMU_PRING_BASE(c) + ((b->phead[c] + i) & (EMU_PRING_CAP(c) - 1));
      if (a->pring[ia].pc != b->pring[ib].pc || a->pring[ia].reg != b->pring[ib].reg || a->pring[ia].n != b->pring[ib].n ||
          a->pring[ia].kw != b->pring[ib].kw) {
        snprintf(why, n, "counter %d entry %d: pc 0x%llx v%u against pc 0x%llx v%u", c, i, (unsigned long long)a->pring[ia].pc,
                 a->pring[ia].reg, (unsigned long long)b->pring[ib].pc, b->pring[ib].reg);
        return false;
      }
    }
  if (memcmp(a->pbits, b->pbits, sizeof a->pbits) || a->pkinds != b->pkinds || memcmp(a->pkc, b->pkc, sizeof a->pkc)) {
    snprintf(why, n, "the pending-register map");
    return false;
  }
  return true;
}
/* mode 0 translated code then the runner, 1 the runner, 2 the baseline runner */
static void xcall_run(snip *s, int m, bool solo, int mode, uint64_t *cnt)
{
  const bool jit = emu_jit_on, av = emu_avx2;
  emu_jit_on = jit && mode == 0;
  emu_avx2 = av && mode < 2;
  s->w.rr_solo = solo;
  s->w.rr_end = s->p->insns + m;
  const int t = emu_jit_try(&s->w, s->p->insns, m, cnt);
  cr_assert(t >= 0 && t <= m, "the code ran %d of %d records", t, m);
  if (t < m) emu_fuse_runc(&s->w, s->p->insns + t, m - t, cnt + t);
  emu_jit_on = jit, emu_avx2 = av;
}
Test(emu_cvt, bpermute_and_waits_in_runs_give_the_handlers_bits_and_counters)
{
  uint32_t st = 0x85ebca6bu;
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *v0 = ll_xmalloc(nbytes), *vw = ll_xmalloc(nbytes);
  emu_wave *w0 = ll_xmalloc(sizeof *w0), *ww = ll_xmalloc(sizeof *ww), *wm = ll_xmalloc(sizeof *wm);
  /* per source: its bpermutes and waits, and each bpermute's wsel as worked out above */
  static const struct { const char *src; int nb, nw; int wsel[20]; } cases[2] = {
      {xcall_src, 6, 4, {[1] = 2, [5] = 3, [6] = 5, [10] = 5, [13] = 2, [17] = 0}},
      {xcall_src2, 5, 3, {[1] = 2, [2] = 5, [5] = 5, [6] = 4, [9] = 0}},
  };
  for (int a = 0; a < EMU_NARCH; a++)
    for (int cs = 0; cs < 2; cs++) {
      size_t n;
      snip *s = sn_one_run((emu_arch)a, cases[cs].src, &n);
      const emu_insn *in = s->p->insns;
      int nb = 0, nw = 0;
      for (size_t i = 0; i < n; i++) {
        const bool bp = in[i].fz_op == FZ_XCALL && !strcmp(in[i].mnem, "ds_bpermute_b32");
        nb += bp;
        nw += in[i].fz_op == FZ_XCALL && in[i].fn == emu_op_s_waitcnt;
        if (bp) cr_assert_eq(in[i].wsel, cases[cs].wsel[i], "source %d record %zu '%s': wsel %u", cs, i, in[i].text, in[i].wsel);
      }
      cr_assert(nb == cases[cs].nb && nw == cases[cs].nw, "%d bpermutes and %d waits are in-place records", nb, nw);
      emu_fuse_run(&s->w, in, (int)n); /* translated at once (where the host translates) */
      if (emu_jit_ready()) {
        cr_assert(in[0].jit != NULL && in[0].jit != EMU_JIT_NONE && in[0].jit_n == n, "the piece covers %u of %zu records",
                  (unsigned)in[0].jit_n, n);
        int at[16], len[16], nc[16];
        unsigned sc[16];
        cr_assert_geq(emu_jit_segments(in, at, len, nc, sc, 16), cs == 0 ? 8 : 3);
      }
      for (int pass = 0; pass < 6; pass++) {
        for (int r = 0; r < 24; r++)
          for (int l = 0; l < EMU_LANES; l++) {
            const uint32_t x = sn_rand(&st);
            /* floats of both signs, some NaN; the addresses any 32 bits */
            sn_v(s, r)[l] = r >= 20 ? x : (x & 0x807fffffu) | (l % 17 == 3 ? 0x7f800000u : 0x3f000000u);
          }
        memset((char *)&s->w + PEND_AT, 0, PEND_LEN);
        if (pass % 3 == 1) { /* two LDS entries and a vector-memory one outstanding */
          emu_pend(&s->w, &in[1], EMU_CNT_DS, 0);
          emu_pend(&s->w, &in[n - 1], EMU_CNT_VM, 0);
          emu_pend(&s->w, &in[5], EMU_CNT_DS, 0);
        } else if (pass % 3 == 2) {
          for (int j = 0; j < 3; j++) emu_pend(&s->w, &in[n - 6], EMU_CNT_VM, 0);
        }
        const bool solo = pass >= 3;
        memcpy(v0, s->vfile, nbytes);
        memcpy(w0, &s->w, sizeof *w0);
        for (int m = (int)n; m >= 1; m--) {
          memcpy(s->vfile, v0, nbytes), memcpy(&s->w, w0, sizeof *w0);
          xcall_reference(s, m, solo, false);
          memcpy(wm, &s->w, sizeof *wm);
          memcpy(s->vfile, v0, nbytes), memcpy(&s->w, w0, sizeof *w0);
          xcall_reference(s, m, solo, true);
          memcpy(vw, s->vfile, nbytes), memcpy(ww, &s->w, sizeof *ww);
          char why[160];
          cr_assert(pend_seen_same(ww, wm, why, sizeof why), "%s source %d pass %d m %d: elision against every entry made: %s",
                    emu_arch_name((emu_arch)a), cs, pass, m, why);
          for (int mode = 0; mode < 3; mode++) {
            uint64_t cnt[32] = {0};
            memcpy(s->vfile, v0, nbytes), memcpy(&s->w, w0, sizeof *w0);
            xcall_run(s, m, solo, mode, cnt);
            for (int i = 0; i < 32; i++)
              cr_assert_eq(cnt[i], (uint64_t)(i < m), "%s pass %d m %d mode %d: record %d counted %llu times",
                           emu_arch_name((emu_arch)a), pass, m, mode, i, (unsigned long long)cnt[i]);
            for (int r = 0; r < 24; r++)
              for (int l = 0; l < EMU_LANES; l++)
                cr_assert_eq(sn_v(s, r)[l], vw[r * EMU_LANES + l], "%s source %d pass %d m %d mode %d: v%d lane %d: 0x%08x, handlers 0x%08x",
                             emu_arch_name((emu_arch)a), cs, pass, m, mode, r, l, sn_v(s, r)[l], vw[r * EMU_LANES + l]);
            cr_assert(!memcmp(s->w.s, ww->s, sizeof ww->s), "%s source %d pass %d m %d mode %d: SGPRs", emu_arch_name((emu_arch)a), cs,
                      pass, m, mode);
            cr_assert(!memcmp((char *)&s->w + PEND_AT, (char *)ww + PEND_AT, PEND_LEN),
                      "%s source %d pass %d m %d mode %d: the counters (%u %u %u entries, handlers %u %u %u)", emu_arch_name((emu_arch)a),
                      cs, pass, m, mode, s->w.ncnt[0], s->w.ncnt[1], s->w.ncnt[2], ww->ncnt[0], ww->ncnt[1], ww->ncnt[2]);
            cr_assert(pend_seen_same(&s->w, wm, why, sizeof why), "%s source %d pass %d m %d mode %d: against every entry made: %s",
                      emu_arch_name((emu_arch)a), cs, pass, m, mode, why);
            cr_assert_eq(s->w.nopend, 0);
          }
        }
      }
      sn_free(s);
    }
  free(v0), free(vw), free(w0), free(ww), free(wm);
}

/* The translated code's memory is shared with a child made by fork (its pieces are MAP_SHARED): a
 * child that translates a run while its parent translates another must not get its code overwritten
 * by the parent's (after a fork each process writes into new pieces only). The child translates R2,
 * waits while the parent translates R3, then runs R2 against the handlers; the parent's R1, translated
 * before the fork, still gives the handlers' bits afterwards. */
/* handlers_then_run on random v0..v15 from seed, as a verdict (no assertion: a forked child calls it) */
static bool run_matches_handlers(snip *s, size_t n, uint32_t seed)
{
  const size_t nbytes = (size_t)EMU_NVGPR * EMU_LANES * 4;
  uint32_t *want = ll_xmalloc(nbytes), swant[EMU_NSFILE];
  for (int r = 0; r < 16; r++)
    for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = sn_rand(&seed);
  bool ok = handlers_then_run(s, n, true, want, swant) && !memcmp(want, s->vfile, nbytes) &&
            !memcmp(swant, s->w.s, sizeof swant);
  free(want);
  return ok;
}
Test(emu_cvt, translated_code_survives_a_fork)
{
  size_t n1, n2, n3;
  snip *s1 = sn_one_run(EMU_GFX950, "v_add_u32 v3, v1, v2\nv_xor_b32 v4, v3, v1\nv_sub_u32 v5, v4, v2\nv_or_b32 v6, v5, v3\n", &n1);
  snip *s2 = sn_one_run(EMU_GFX950, "v_xor_b32 v3, v1, v2\nv_lshlrev_b32 v4, 3, v3\nv_add_u32 v5, v4, v1\n", &n2);
  snip *s3 = sn_one_run(EMU_GFX950, "v_mul_lo_u32 v7, v1, v2\nv_max_u32 v8, v7, v1\nv_and_b32 v9, v8, v2\nv_not_b32 v10, v9\n", &n3);
  sn_exec(s1, ~0ull), sn_exec(s2, ~0ull), sn_exec(s3, ~0ull);
  cr_assert(run_matches_handlers(s1, n1, 1u));
  if (!emu_jit_ready()) {
    cr_assert_null(s1->p->insns[0].jit);
    cr_log_info("no AVX-512 translation on this host: checked that the run has no code");
    sn_free(s1), sn_free(s2), sn_free(s3);
    return;
  }
  cr_assert(s1->p->insns[0].jit != NULL && s1->p->insns[0].jit != EMU_JIT_NONE);
  int c2p[2], p2c[2];
  cr_assert(pipe(c2p) == 0 && pipe(p2c) == 0);
  fflush(NULL);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    char b = 0;
    bool ok = run_matches_handlers(s2, n2, 2u); /* translates R2 */
    ok = ok && write(c2p[1], "r", 1) == 1 && read(p2c[0], &b, 1) == 1;
    ok = ok && run_matches_handlers(s2, n2, 3u); /* R2's code again, after the parent translated R3 */
    _exit(ok ? 0 : 1);
  }
  char b = 0;
  cr_assert_eq(read(c2p[0], &b, 1), 1);
  cr_assert(run_matches_handlers(s3, n3, 4u)); /* translates R3 */
  cr_assert_eq(write(p2c[1], "g", 1), 1);
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's translated run no longer gave the handlers' bits (status 0x%x)", st);
  cr_assert(run_matches_handlers(s1, n1, 5u));
  cr_assert(run_matches_handlers(s3, n3, 6u));
  close(c2p[0]), close(c2p[1]), close(p2c[0]), close(p2c[1]);
  sn_free(s1), sn_free(s2), sn_free(s3);
}

/* v_cndmask_b32 in a run with masks of all ones and all zeros (the runner copies one source, or
 * nothing when that source is the destination, instead of selecting lane by lane; issue #31, ninth
 * stop) and a mixed mask, from VCC and SGPR pairs: VGPR and constant sources, the destination each
 * source in turn. Each mask pattern against the handlers, on the AVX2 build and the baseline one. */
static const char cnd_src[] =
    "v_cndmask_b32 v20, v1, v2, vcc\nv_cndmask_b32_e64 v21, v2, v1, s[10:11]\nv_cndmask_b32_e64 v22, 1.0, v1, s[10:11]\n"
    "v_cndmask_b32_e64 v23, -4.0, v1, vcc\nv_cndmask_b32_e64 v24, v1, 64, s[12:13]\nv_cndmask_b32 v3, v3, v2, vcc\n"
    "v_cndmask_b32 v4, v1, v4, vcc\nv_cndmask_b32_e64 v5, v5, v2, s[10:11]\nv_cndmask_b32_e64 v6, v1, v6, s[12:13]\n"
    "v_cndmask_b32_e64 v7, -1, 0.5, s[12:13]\nv_cndmask_b32_e64 v8, v8, v8, vcc\nv_cndmask_b32_e64 v9, 7, v9, s[10:11]\n"
    "v_cndmask_b32_e64 v10, v10, -16, s[12:13]\n";
Test(emu_cvt, fused_cndmask_with_uniform_masks_gives_the_handlers_bits)
{
  const uint64_t pat[3] = {~0ull, 0, 0x8000000100000001ull};
  for (int a = 0; a < 2; a++) {
    const emu_arch arch = a ? EMU_GFX950 : EMU_GFX942;
    size_t n;
    snip *s = sn_one_run(arch, cnd_src, &n);
    uint32_t st = 0x2545f491u;
    for (int k = 0; k < 27 * 2; k++) { /* each mask of the three from the three patterns; both builds */
      for (int r = 0; r < 32; r++)
        for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = sn_rand(&st);
      for (int r = 0; r < 16; r++) s->w.s[r] = sn_rand(&st);
      const int m = k / 2;
      emu_wr64s(&s->w, EMU_S_VCC, pat[m % 3]);
      emu_wr64s(&s->w, 10, pat[m / 3 % 3]);
      emu_wr64s(&s->w, 12, pat[m / 9]);
      sn_exec(s, ~0ull);
      run_vs_handlers(s, n, !(k & 1), arch, k);
    }
    sn_free(s);
  }
}

/* The same comparison for the operations runs took on later (issue #31's seventh stop; the
 * integer ones, v_exp_f32 and the f16 conversions are in fuse_src above): gfx950's
 * v_bitop3_b32 with tables that single out each of its eight cases and some of clang's, and the
 * float operations, on the AVX2+FMA host, with NaNs in every operand: quiet and signalling ones of
 * distinct payloads and signs, so that a lane whose two or three operands are NaNs shows which one
 * the result's payload comes from (the general handlers' lane loops decide it by their operand
 * order, which the run must copy). Registers draw from those values, infinities, zeros,
 * denormals and random bits; uniform sources (SGPRs, inline constants, literals, a NaN literal)
 * and destinations that are sources too. In the sanitizer build (and on a host without AVX2+FMA)
 * the float operations start no run: checked. */
static const uint32_t fnan_vals[] = {0x7fc00000u, 0xffc00001u, 0x7fc12345u, 0xffe00002u, 0x7fa00003u, 0xff900004u,
                                     0x7f800001u, 0xff812345u, 0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,
                                     0x00000001u, 0x807fffffu, 0x3f800000u, 0xc0400000u,
                                     /* conversion and rounding edges: +-2^31, the float below 2^31,
                                      * the one past -2^31, ties (0.5, 1.5, 2.5, -0.5, 2^23 - 0.5),
                                      * 2^23, -0.25; 2^32, the float below it, the float below 1 */
                                     0x4f000000u, 0xcf000000u, 0x4effffffu, 0xcf000001u, 0x3f000000u,
                                     0x3fc00000u, 0x40200000u, 0xbf000000u, 0x4affffffu, 0x4b000000u,
                                     0xbe800000u, 0x4f800000u, 0x4f7fffffu, 0x3f7fffffu};

/* v_cvt_pk_f16_f32 and v_cvt_pk_bf16_f32 (gfx950) over NaNs of both kinds and signs, infinities,
 * zeros, subnormals, rounding ties and the overflow edges, then random bit patterns, on every SIMD
 * path (the f16 pair by emu_f32_to_f16_64's vector conversions, the bf16 one by a vectorised lane
 * loop since issue #31's thirty-seventh stop), against round to nearest even written here: the
 * nearer of the two neighbours by the value's distance in double (a tie to the even one), the
 * overflow edge the midpoint of the largest finite value and 2^(emax+1); a NaN quieted with its
 * top payload bits (the sign kept). src1 negated (the VOP3 modifier) for the high halves. */
static uint32_t rne16_ref(uint32_t u, bool bf)
{
  const int mb = bf ? 7 : 10, eb = bf ? 8 : 5, bias = (1 << (eb - 1)) - 1;
  const uint32_t sign = u >> 31 << (mb + eb), inf = ((1u << eb) - 1) << mb;
  float f;
  memcpy(&f, &u, 4);
  if (f != f) return bf ? (u >> 16) | 0x40 : sign | inf | 0x200 | ((u >> 13) & 0x3ff);
  double x = fabs((double)f), q = ldexp(1.0, (x < ldexp(1.0, 1 - bias) ? 1 - bias : ilogb(x)) - mb);
  double lo = floor(x / q) * q, hi = lo + q, maxf = ldexp(2.0 - ldexp(1.0, -mb), bias);
  if (x >= maxf + ldexp(1.0, bias - mb - 1) || isinf(x)) return sign | inf;
  double r = x - lo < hi - x ? lo : x - lo > hi - x ? hi : fmod(lo / q, 2.0) == 0 ? lo : hi;
  if (r > maxf) return sign | inf;
  /* r's bits: a subnormal or a normal with mb fraction bits */
  uint32_t bits = r < ldexp(1.0, 1 - bias) ? (uint32_t)(r / ldexp(1.0, 1 - bias - mb))
                                           : (uint32_t)(ilogb(r) + bias) << mb | ((uint32_t)(r / ldexp(1.0, ilogb(r) - mb)) & ((1u << mb) - 1));
  return sign | bits;
}
static void packed_case(void)
{
  static const uint32_t edge[] = {0x477fefffu, 0x477ff000u, 0x477ff001u, 0x477fe000u, 0x7f7f7fffu, 0x7f7f8000u,
                                  0x7f7fffffu, 0x33800000u, 0x33800001u, 0x337fffffu, 0x387fc000u, 0x38800000u,
                                  0x3f808000u, 0x3f818000u, 0x3f801000u, 0x3f803000u, 0x00400000u, 0x80000001u};
  snip *s = sn_new(EMU_GFX950, "v_cvt_pk_f16_f32 v6, v2, v7\nv_cvt_pk_bf16_f32 v8, v2, v7\n"
                               "v_cvt_pk_f16_f32_e64 v9, v2, -v7\nv_cvt_pk_bf16_f32_e64 v10, -v2, v7\n");
  const size_t nf = sizeof fnan_vals / sizeof *fnan_vals, ne = sizeof edge / sizeof *edge;
  const int path = emu_avx512 ? 0 : emu_avx2 ? 1 : 2;
  uint32_t st = 0x2545f491u;
  for (int pass = 0; pass < 64; pass++) {
    for (int l = 0; l < 64; l++)
      for (int r = 2; r <= 7; r += 5) {
        uint32_t x = sn_rand(&st);
        sn_v(s, r)[l] = pass < 8 ? (x % 2 ? fnan_vals[x / 2 % nf] : edge[x / 2 % ne] ^ (x >> 31) << 31) : sn_rand(&st);
      }
    sn_exec(s, ~0ull);
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (int l = 0; l < 64; l++) {
      const uint32_t a = sn_v(s, 2)[l], b = sn_v(s, 7)[l];
      const uint32_t want[4] = {rne16_ref(a, false) | rne16_ref(b, false) << 16, rne16_ref(a, true) | rne16_ref(b, true) << 16,
                                rne16_ref(a, false) | rne16_ref(b ^ 0x80000000u, false) << 16,
                                rne16_ref(a ^ 0x80000000u, true) | rne16_ref(b, true) << 16};
      const int reg[4] = {6, 8, 9, 10};
      for (int k = 0; k < 4; k++)
        cr_assert_eq(sn_v(s, reg[k])[l], want[k], "path %d v%d lane %d: 0x%08x from 0x%08x, 0x%08x; want 0x%08x", path,
                     reg[k], l, sn_v(s, reg[k])[l], a, b, want[k]);
    }
  }
  sn_free(s);
}
Test(emu_cvt, packed_f16_and_bf16_conversions_round_to_nearest_even_on_every_path) { on_every_simd_path(packed_case); }

static const char bitop3_src[] =
    "v_bitop3_b32 v3, v1, v2, v3 bitop3:0x01\nv_bitop3_b32 v4, v1, v2, v3 bitop3:0x02\n"
    "v_bitop3_b32 v5, v1, v2, v3 bitop3:0x04\nv_bitop3_b32 v6, v1, v2, v3 bitop3:0x08\n"
    "v_bitop3_b32 v7, v1, v2, v3 bitop3:0x10\nv_bitop3_b32 v8, v1, v2, v3 bitop3:0x20\n"
    "v_bitop3_b32 v9, v1, v2, v3 bitop3:0x40\nv_bitop3_b32 v10, v1, v2, v3 bitop3:0x80\n"
    "v_bitop3_b32 v11, v6, v5, v7 bitop3:0xde\nv_bitop3_b32 v12, v1, v3, 7 bitop3:0x6c\n"
    "v_bitop3_b32 v13, s2, v2, v4 bitop3:0xf6\nv_bitop3_b32 v14, v1, s3, 3 bitop3:0x36\n"
    "v_bitop3_b32 v15, v1, v2, v3\nv_bitop3_b32 v16, v1, v2, v3 bitop3:0xff\nv_bitop3_b32 v2, v2, v2, v1 bitop3:0x96\n"
    "v_bitop3_b32 v1, -1, v1, s4 bitop3:0xe8\n";
static const char fflt_src[] =
    "v_add_f32 v20, v1, v2\nv_add_f32 v21, s2, v1\nv_add_f32 v22, 0x7fc01234, v2\nv_add_f32_e64 v23, v1, 0.5\n"
    "v_sub_f32 v24, v1, v2\nv_sub_f32 v25, s3, v2\nv_sub_f32_e64 v26, v2, s4\nv_subrev_f32 v27, v1, v2\n"
    "v_subrev_f32 v28, -4.0, v2\nv_mul_f32 v29, v1, v2\nv_mul_f32 v30, 0.5, v3\nv_mul_f32_e64 v31, v3, s5\n"
    "v_fma_f32 v32, v1, v2, v3\nv_fma_f32 v33, s2, v2, v3\nv_fma_f32 v34, v1, s3, v3\nv_fma_f32 v35, v1, v2, s4\n"
    "v_fma_f32 v36, s5, 1.0, v3\nv_fma_f32 v37, 2.0, v2, s6\nv_fma_f32 v38, v1, 0.5, s7\nv_fma_f32 v39, s2, -1.0, 0.5\n"
    "v_mul_f32 v40, 0x7fa00005, v2\nv_fmac_f32 v41, v1, v2\nv_fmac_f32 v42, 0x3f800347, v2\nv_fmac_f32 v43, s3, v1\n"
    "v_fmac_f32_e64 v44, v2, s4\nv_add_f32 v4, v4, v4\nv_mul_f32 v5, v5, v4\nv_fmac_f32 v6, v6, v6\n"
    "v_fma_f32 v7, v7, v5, v7\nv_sub_f32 v8, v8, v8\nv_subrev_f32 v9, v9, v1\nv_add_u32 v10, v9, v8\n"
    "v_cvt_f32_ubyte0 v11, v10\nv_mul_f32 v12, v11, v10\n"
    /* v_fmaak_f32 / v_fmamk_f32 (D = S0 * S1 + K, S0 * K + S1), a NaN K among them (issue #31, thirty-seventh stop) */
    "v_fmaak_f32 v45, v1, v2, 0x3e800000\nv_fmamk_f32 v46, v1, 0x3fc00000, v3\nv_fmaak_f32 v47, v3, v1, 0x7fa00005\n"
    "v_fmamk_f32 v13, v13, 0xffc00321, v2\nv_fmaak_f32 v14, v2, v14, 0x80000000\n";

/* the 32-bit compares runs take, each writing its own SGPR pair (VCC too), with the NaN-heavy
 * registers below; a v_cndmask_b32 reads one back inside the run */
static const char fcmp_src[] =
    "v_cmp_lt_f32 vcc, v1, v2\nv_cndmask_b32 v30, v1, v2, vcc\nv_cmp_eq_f32_e64 s[20:21], v1, v2\n"
    "v_cmp_le_f32_e64 s[22:23], v1, s2\nv_cmp_gt_f32_e64 s[24:25], 0.5, v2\nv_cmp_ge_f32_e64 s[26:27], v3, v3\n"
    "v_cmp_lg_f32_e64 s[28:29], v1, v2\nv_cmp_o_f32_e64 s[30:31], v1, v2\nv_cmp_u_f32_e64 s[32:33], v2, v3\n"
    "v_cmp_nge_f32_e64 s[34:35], v1, v2\nv_cmp_nlg_f32_e64 s[36:37], v1, v2\nv_cmp_ngt_f32_e64 s[38:39], v1, v2\n"
    "v_cmp_nle_f32_e64 s[40:41], v1, v2\nv_cmp_neq_f32_e64 s[42:43], s3, v2\nv_cmp_nlt_f32_e64 s[44:45], v1, v2\n"
    "v_cmp_gt_f32 vcc, 0x7fc00000, v1\nv_cndmask_b32_e64 v31, v2, v1, s[20:21]\n"
    "v_cmp_lt_i32_e64 s[46:47], v1, v2\nv_cmp_eq_i32_e64 s[48:49], v1, v1\nv_cmp_le_i32_e64 s[50:51], -1, v2\n"
    "v_cmp_gt_i32_e64 s[52:53], s4, v2\nv_cmp_ge_i32_e64 s[54:55], v3, v2\nv_cmp_ne_i32_e64 s[56:57], v1, v2\n"
    "v_cmp_lt_u32_e64 s[58:59], v1, v2\nv_cmp_eq_u32 vcc, 1, v1\nv_cndmask_b32 v32, 0, v2, vcc\n"
    "v_cmp_le_u32_e64 s[60:61], v1, s5\nv_cmp_gt_u32_e64 s[62:63], v1, v2\nv_cmp_ge_u32_e64 s[64:65], v3, 64\n"
    "v_cmp_ne_u32 vcc, 0x80000000, v1\nv_cmp_eq_u32_e64 s[2:3], s2, v2\nv_cndmask_b32 v33, v1, v3, vcc\n";

/* v_max_f32 / v_min_f32, v_med3_f32, v_cvt_i32_f32, v_cvt_u32_f32 and v_rndne_f32 (issue #31, fourteenth stop):
 * runs take them on every build (picked by bits, or exact: FZ_MINMAX, FZ_MED3, FZ_CVT_I32, FZ_RNDNE), with the NaN-heavy registers below, +0 and -0 among them; VGPR,
 * SGPR, inline float and integer constant and literal (a signalling NaN one too) sources, e64 forms,
 * a destination that is a source; in both IEEE modes (MODE.IEEE from the kernel's rsrc1 bit 23,
 * which decides whether a signalling NaN operand is returned quieted) */
static const char fminmax_src[] =
    "v_max_f32 v20, v1, v2\nv_min_f32 v21, v1, v2\nv_max_f32 v22, s2, v1\nv_min_f32 v23, v2, s3\n"
    "v_max_f32 v24, 0.5, v2\nv_min_f32 v25, -4.0, v1\nv_max_f32 v26, 1, v3\nv_min_f32 v27, 0x7fa00005, v2\n"
    "v_max_f32_e64 v28, v2, s4\nv_min_f32_e64 v29, v3, 0\nv_max_f32 v4, v4, v4\nv_min_f32 v5, v5, v1\n"
    "v_max_f32 v6, v2, v6\nv_min_f32 v7, 0xff900004, v3\nv_max_f32 v8, v1, v1\nv_add_u32 v9, v20, v21\n"
    /* v_med3_f32 (clamps: clang's fminf(fmaxf(x, lo), hi)), v_cvt_i32_f32, v_rndne_f32 */
    "v_med3_f32 v30, v1, v2, v3\nv_med3_f32 v31, v1, s2, v3\nv_med3_f32 v32, v2, -4.0, s6\n"
    "v_med3_f32 v33, s3, v1, 0.5\nv_med3_f32 v34, v1, v1, v2\nv_med3_f32 v35, v3, v2, v3\n"
    "v_med3_f32 v10, v10, v1, v2\nv_med3_f32 v36, s7, v2, v1\n"
    /* v_max3_f32 / v_min3_f32 (issue #31, thirty-seventh stop: FlashInfer's row maxima) */
    "v_max3_f32 v48, v1, v2, v3\nv_min3_f32 v49, v3, v1, v2\nv_max3_f32 v50, s2, v1, 0.5\nv_min3_f32 v51, v2, -4.0, s6\n"
    "v_max3_f32 v52, v1, v1, v2\nv_min3_f32 v53, v2, v3, v2\nv_max3_f32 v15, v15, v1, v2\nv_min3_f32 v54, s8, v2, v3\n"
    "v_cvt_i32_f32 v37, v1\nv_cvt_i32_f32 v38, v2\nv_cvt_i32_f32_e64 v39, s4\nv_cvt_i32_f32 v11, v11\n"
    "v_cvt_i32_f32 v40, 0x4effffff\nv_rndne_f32 v41, v1\nv_rndne_f32 v42, v3\nv_rndne_f32_e64 v43, s5\n"
    "v_rndne_f32 v12, v12\nv_rndne_f32 v44, 0x7fa00005\nv_cvt_i32_f32 v45, v41\n"
    "v_cvt_u32_f32 v46, v1\nv_cvt_u32_f32_e64 v47, s6\nv_cvt_u32_f32 v13, v13\nv_cvt_u32_f32 v14, 0x4f7fffff\n";

static uint32_t fminmax_rsrc1; /* the snippet kernel's rsrc1 (its IEEE bit) */
static void fuse_compare_float(emu_arch a, const char *src, bool is_float)
{
  snip *s = sn_new(a, src);
  s->k.rsrc1 = fminmax_rsrc1;
  size_t n = s->p->n;
  while (n && !strncmp(s->p->insns[n - 1].mnem, "s_", 2)) n--; /* padding llvm-mc may add */
#if defined(__SANITIZE_ADDRESS__)
  const bool fl = false;
#else
  const bool fl = emu_avx2;
#endif
  if (is_float && !fl) {
    for (size_t i = 0; i < n; i++)
      if (strstr(s->p->insns[i].mnem, "_f32") && strncmp(s->p->insns[i].mnem, "v_cvt_f32_ubyte", 15))
        cr_assert_eq(s->p->insns[i].fuse_n, 0, "'%s' starts a run here", s->p->insns[i].text);
    sn_free(s);
    return;
  }
  cr_assert_eq(s->p->insns[0].fuse_n, n, "%s: the run covers %u of the %zu instructions", emu_arch_name(a),
               (unsigned)s->p->insns[0].fuse_n, n);
  uint32_t st = 0x51ed270bu;
  const size_t nv = sizeof fnan_vals / sizeof *fnan_vals;
  for (int pass = 0; pass < 8; pass++) {
    for (int r = 0; r < 48; r++)
      for (int l = 0; l < EMU_LANES; l++) {
        uint32_t x = sn_rand(&st);
        /* passes 0-5: mostly the special values (every lane a NaN in passes 0 and 1), else random bits */
        sn_v(s, r)[l] = pass < 2 ? fnan_vals[x % 8] : pass < 6 && (x >> 8) % 4 ? fnan_vals[x % nv] : sn_rand(&st);
      }
    for (int r = 0; r < 70; r++) s->w.s[r] = pass < 6 ? fnan_vals[sn_rand(&st) % nv] : sn_rand(&st);
    sn_exec(s, ~0ull);
    emu_wr64s(&s->w, EMU_S_VCC, (uint64_t)sn_rand(&st) << 32 | sn_rand(&st));
    run_vs_handlers(s, n, !(pass & 1), a, pass); /* odd passes: the baseline build (its float records call the handlers) */
  }
  sn_free(s);
}
Test(emu_cvt, fused_bitop3_and_float_runs_give_the_handlers_bits)
{
  fuse_compare_float(EMU_GFX950, bitop3_src, false);
  fuse_compare_float(EMU_GFX942, fcmp_src, false);
  fuse_compare_float(EMU_GFX950, fcmp_src, false);
  fuse_compare_float(EMU_GFX942, fflt_src, true);
  fuse_compare_float(EMU_GFX950, fflt_src, true);
}

/* Scalar ALU records and the packed f32 forms in runs (emu/fuse.c salu_mark and the FZ_PK_* marks,
 * issue #31 seventeenth stop): the runner calls their handlers in place, and the translated code runs
 * the packed forms in its chunks and calls the scalar handlers after them. The snippet has v_pk_fma_f32
 * with VGPR, SGPR-pair and inline-constant sources, op_sel / op_sel_hi, neg_lo / neg_hi, a destination
 * the other half reads (the high half first), v_pk_mul_f32 likewise, and scalar records whose places
 * the translation must keep: an SGPR a scalar record writes read by a later lane record (record 5), a
 * scalar record's source written by a later compare (16), SCC set by a scalar record then by a lane-
 * mask operation (17, 20, 22, 26-27), a scalar record writing the pair SCC is read from (23), a lane-
 * mask operation writing a scalar record's source (32). Against the handlers with NaNs in every
 * operand (fuse_compare_float), the pieces where the cuts must fall, and the results against formulas
 * written here. */
static const char pk_salu_src[] =
    "v_pk_fma_f32 v[20:21], v[2:3], v[4:5], v[6:7]\ns_mov_b32 s20, s21\nv_pk_mul_f32 v[24:25], v[8:9], v[10:11]\n"
    "s_add_i32 s3, s3, -1\nv_add_f32 v30, v1, v2\nv_add_f32 v31, s20, v1\n"
    "v_pk_fma_f32 v[22:23], v[2:3], s[4:5], v[6:7] op_sel_hi:[1,1,0] neg_lo:[0,0,1] neg_hi:[0,0,1]\n"
    "v_pk_fma_f32 v[26:27], s[6:7], 0.5, v[12:13] op_sel_hi:[1,0,1] neg_lo:[1,0,0] neg_hi:[0,1,1]\n"
    "v_pk_mul_f32 v[28:29], v[4:5], s[6:7] op_sel:[1,0] op_sel_hi:[0,1]\n"
    "s_cmp_eq_u32 s3, 0\n"
    "v_pk_fma_f32 v[4:5], v[2:3], v[4:5], v[6:7] op_sel_hi:[1,0,1]\n"
    "v_pk_mul_f32 v[8:9], v[8:9], v[10:11]\n"
    "v_pk_mul_f32 v[10:11], v[12:13], v[10:11] op_sel_hi:[1,0]\n"
    "s_mul_i32 s22, s3, 7\ns_add_u32 s24, vcc_lo, 1\nv_mul_f32 v32, v1, v2\nv_cmp_gt_i32 vcc, v1, v2\n"
    "s_and_b64 s[10:11], s[12:13], vcc\ns_mov_b32 s30, 5\nv_cndmask_b32 v33, v1, v2, s[10:11]\ns_add_u32 s31, s30, 1\n"
    "v_fma_f32 v34, v1, v2, v3\ns_or_b64 s[14:15], s[10:11], s[12:13]\ns_mov_b32 s14, 0\nv_sub_f32 v35, v1, v2\n"
    "v_mul_f32 v36, v2, v3\ns_and_b64 s[16:17], s[12:13], s[18:19]\ns_add_u32 s25, s26, s27\n"
    "v_pk_fma_f32 v[6:7], v[2:3], v[6:7], v[12:13] op_sel_hi:[1,0,1] neg_lo:[1,0,0] neg_hi:[0,0,1]\n"
    "v_add_f32 v37, v1, v2\ns_lshl_b32 s28, s16, 1\nv_add_f32 v38, v1, v2\ns_or_b64 s[16:17], s[12:13], vcc\n"
    "v_cndmask_b32 v39, v1, v2, s[16:17]\nv_mul_f32 v40, v1, v3\n";
static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
Test(emu_cvt, scalar_alu_and_packed_f32_records_in_runs_give_the_handlers_bits)
{
  fuse_compare_float(EMU_GFX942, pk_salu_src, true);
  fuse_compare_float(EMU_GFX950, pk_salu_src, true);
#if !defined(__SANITIZE_ADDRESS__)
  if (!emu_avx2) return;
  snip *s = sn_new(EMU_GFX950, pk_salu_src);
  const emu_insn *in = s->p->insns;
  for (int i = 0; i < 35; i++) /* each record is a run record: scalar, packed or lane */
    cr_assert(in[i].fz_op != FZ_NONE, "'%s' is no run record", in[i].text);
  cr_assert(in[10].sp_hi_first && in[12].sp_hi_first && in[28].sp_hi_first && !in[0].sp_hi_first, "the halves' order");
  /* finite values: the results against fmaf and products computed here */
  uint32_t st = 0x1b873593u;
  for (int r = 0; r < 16; r++)
    for (int l = 0; l < EMU_LANES; l++) sn_v(s, r)[l] = u32_of((float)(int32_t)(sn_rand(&st) % 2001 - 1000) / 64.0f);
  for (int r = 0; r < 32; r++) s->w.s[r] = sn_rand(&st) % 1000;
  s->w.s[4] = u32_of(1.5f), s->w.s[5] = u32_of(-2.25f), s->w.s[6] = u32_of(0.75f), s->w.s[7] = u32_of(3.0f);
  s->w.s[3] = 1;
  s->w.s[18] = s->w.s[19] = 0, s->w.s[26] = 0xfffffff0u, s->w.s[27] = 0x20; /* s[16:17] zero; s25's carry set */
  sn_exec(s, ~0ull);
  emu_wr64s(&s->w, EMU_S_VCC, 0x0123456789abcdefull);
  uint32_t v0[16][EMU_LANES], s0[32];
  for (int r = 0; r < 16; r++) memcpy(v0[r], sn_v(s, r), sizeof v0[r]);
  memcpy(s0, s->w.s, sizeof s0);
  const uint64_t vcc0 = emu_rd64s(&s->w, EMU_S_VCC);
  emu_fuse_run(&s->w, in, 35);
  for (int l = 0; l < EMU_LANES; l++) {
#define F(r) f32_of(v0[r][l])
#define EQ(r, x) cr_assert_eq(sn_v(s, r)[l], u32_of(x), "v%d lane %d: %a, want %a", r, l, f32_of(sn_v(s, r)[l]), (double)(x))
    EQ(20, fmaf(F(2), F(4), F(6)));
    EQ(21, fmaf(F(3), F(5), F(7)));
    EQ(22, fmaf(F(2), 1.5f, -F(6)));  /* op_sel_hi 0 on src2: both halves read v6; neg on src2 */
    EQ(23, fmaf(F(3), -2.25f, -F(6)));
    EQ(24, F(8) * F(10));
    EQ(25, F(9) * F(11));
    EQ(26, fmaf(-0.75f, 0.5f, F(12))); /* neg_lo on src0 */
    EQ(27, fmaf(3.0f, -0.5f, -F(13)));  /* op_sel_hi 0 on the constant: its low dword; neg_hi on 1, 2 */
    EQ(28, F(5) * 0.75f);              /* op_sel 1 on src0: the low half reads v5; op_sel_hi 0: v4 */
    EQ(29, F(4) * 3.0f);
    EQ(4, fmaf(F(2), F(4), F(6)));     /* the high half reads the old v4 (op_sel_hi 0 on src1) */
    EQ(5, fmaf(F(3), F(4), F(7)));
    EQ(8, F(8) * F(10));
    EQ(9, F(9) * F(11));
    EQ(10, F(12) * F(10));
    EQ(11, F(13) * F(10));
    EQ(31, f32_of(s0[21]) + F(1));
    EQ(34, fmaf(F(1), F(2), F(3)));
    EQ(6, fmaf(-F(2), F(6), F(12)));   /* the high half first: each half's own negations */
    EQ(7, fmaf(F(3), F(6), -F(13)));
#undef EQ
#undef F
  }
  const uint64_t cmp = emu_rd64s(&s->w, EMU_S_VCC), s10 = ((uint64_t)s0[13] << 32 | s0[12]) & cmp;
  cr_assert_eq(s->w.s[3], 0u);
  cr_assert_eq(s->w.s[20], s0[21]);
  cr_assert_eq(s->w.s[22], 0u);
  cr_assert_eq(s->w.s[24], (uint32_t)vcc0 + 1);
  cr_assert_eq(s->w.s[31], 6u);
  cr_assert_eq(emu_rd64s(&s->w, 10), s10);
  cr_assert_eq(s->w.s[14], 0u);
  cr_assert_eq(s->w.s[15], (uint32_t)((s10 | ((uint64_t)s0[13] << 32 | s0[12])) >> 32));
  cr_assert_eq(s->w.s[25], 0x10u);
  cr_assert_eq(s->w.s[28], 0u); /* s16 << 1, s16 zero then (s[12:13] & s[18:19]) */
  cr_assert_eq(emu_rd64s(&s->w, 16), ((uint64_t)s0[13] << 32 | s0[12]) | cmp);
  cr_assert_eq(s->w.scc, emu_rd64s(&s->w, 16) != 0, "SCC is not the last s_or_b64's");
  if (emu_jit_ready()) {
    /* one piece of five segments: 0-4 (s20, which the scalar record 1 writes, is read at 5), 5-15 (the
     * compare at 16 writes the VCC that the scalar record 14 reads), 16-22 (SCC last from s_or_b64's
     * pair), 23-31 (s_mov_b32 s14 writes that pair without setting SCC; SCC last from s_lshl_b32's
     * handler), 32-34 (s_or_b64 writes s16, which the scalar record 30 reads) */
    static const int wat[] = {0, 5, 16, 23, 32}, wlen[] = {5, 11, 7, 9, 3};
    static const unsigned wsc[] = {0, 0, 15, 0, 17};
    int at[8], len[8], nc[8];
    unsigned sc[8];
    cr_assert(in[0].jit != NULL && in[0].jit != EMU_JIT_NONE, "no code at record 0");
    cr_assert_eq(in[0].jit_n, 35, "the piece covers %u records", (unsigned)in[0].jit_n);
    cr_assert_eq(emu_jit_segments(in, at, len, nc, sc, 8), 5);
    for (int i = 0; i < 5; i++)
      cr_assert(at[i] == wat[i] && len[i] == wlen[i] && nc[i] == 0 && sc[i] == wsc[i], "segment %d: at %d, %d records, scc %u", i,
                at[i], len[i], sc[i]);
    /* the code counts each record it runs once (before its scalar handlers' calls), and no other: all
     * 35, or with room for 30 the four segments that fit (records 0-22 and 23-31 need 32: 0-22) */
    for (int m = 35; m >= 30; m -= 5) {
      uint64_t cn[40] = {0};
      const int k = m == 35 ? 35 : 23;
      cr_assert_eq(emu_jit_try(&s->w, in, m, cn), k, "room for %d", m);
      for (int i = 0; i < 40; i++)
        cr_assert_eq(cn[i], (uint64_t)(i < k), "room for %d: record %d counted %llu times", m, i, (unsigned long long)cn[i]);
    }
  }
  sn_free(s);
#endif
}

/* The blocks of a wave alone in its workgroup (emu/decode.c block_prepare, emu_insn.blk_sn; issue
 * #31 seventeenth stop) run on through LDS reads, writes and s_waitcnt, each DS record's block cut
 * before the first record naming its operand 0 (a read's destination, which it makes pending), where a
 * workgroup of several waves ends its blocks at each of them (blk_n). test_emu
 * solo_blocks_run_lds_accesses_and_waits_as_single_steps_do runs the same program. */
Test(emu_cvt, solo_blocks_span_lds_accesses_and_waits)
{
  snip *s = sn_new(EMU_GFX950,
                   "v_lshlrev_b32 v1, 2, v0\nv_add_u32 v2, 1, v0\nv_and_b32 v2, 63, v2\nv_lshlrev_b32 v2, 2, v2\n"
                   "ds_write_b32 v1, v0\nds_read_b32 v3, v2\nv_add_u32 v4, v0, v0\ns_waitcnt lgkmcnt(0)\n"
                   "v_add_u32 v5, v3, v4\nds_write_b32 v1, v5 offset:256\nds_read_b32 v6, v2 offset:256\n"
                   "s_add_i32 s4, s4, 1\ns_waitcnt lgkmcnt(0)\nv_xor_b32 v7, v6, v0\ns_endpgm\n");
  const emu_insn *in = s->p->insns;
  /* solo, from record 0: 0-7 (the first read's block, and the blocks before it, end before v_add_u32
   * v5, v3, v4, which names its destination), then 8-12 (before v_xor_b32's read of v6), then 13; a
   * block from a record after a read runs on (6: 7 records). Several waves: each write an event
   * (4, 9), each read inside its block and the block cut as a solo one's (0-3, 5-8, 10-13), an
   * s_waitcnt inside its block, blk_wn records before the first wait and blk_rn before the first
   * read (the records a block runs while another wave may write LDS) */
  static const int sn[15] = {8, 7, 6, 5, 4, 3, 7, 6, 5, 4, 3, 3, 2, 1, 0};
  static const int bn[15] = {4, 3, 2, 1, 0, 4, 3, 2, 1, 0, 4, 3, 2, 1, 0};
  static const int wn[15] = {4, 3, 2, 1, 0, 2, 1, 0, 1, 0, 2, 1, 0, 1, 0};
  static const int rn[15] = {4, 3, 2, 1, 0, 0, 3, 2, 1, 0, 0, 3, 2, 1, 0};
  /* emu_insn.ldsw: the write at 9 is reachable from 0-9, nothing after it writes LDS; wsel: each
   * read's entry is retired by the lgkmcnt(0) two records on, in its block of several waves */
  static const int ldsw[15] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
  static const int wsel[15] = {0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0};
  /* emu_insn.sel: each DS record's distance to the s_waitcnt lgkmcnt(0) of its solo block (4: the
   * write, 3 on at 7; 5: the read, 2 on; 9 and 10 likewise to 12); none elsewhere */
  static const int sel[15] = {0, 0, 0, 0, 3, 2, 0, 0, 0, 3, 2, 0, 0, 0, 0};
  for (int i = 0; i < 15; i++) {
    cr_assert_eq(in[i].blk_sn, sn[i], "'%s': solo block of %u records", in[i].text, (unsigned)in[i].blk_sn);
    cr_assert_eq(in[i].blk_n, bn[i], "'%s': block of %u records", in[i].text, (unsigned)in[i].blk_n);
    cr_assert_eq(in[i].blk_wn, wn[i], "'%s': %u records before a wait", in[i].text, (unsigned)in[i].blk_wn);
    cr_assert_eq(in[i].blk_rn, rn[i], "'%s': %u records before a read", in[i].text, (unsigned)in[i].blk_rn);
    cr_assert_eq(in[i].ldsw, ldsw[i], "'%s': ldsw %u", in[i].text, (unsigned)in[i].ldsw);
    cr_assert_eq(in[i].wsel, wsel[i], "'%s': wsel %u", in[i].text, (unsigned)in[i].wsel);
    cr_assert_eq(in[i].sel, sel[i], "'%s': sel %u, want %d", in[i].text, (unsigned)in[i].sel, sel[i]);
  }
  sn_free(s);
  /* a wait for fewer than all (lgkmcnt(1)) elides nothing: the first read's solo block is 0-2 (cut
   * before record 3, which names v3), the second's 1-4 (before 5, which names v6), whose lgkmcnt(0)
   * at 4 is 3 on (past the lgkmcnt(1)); the bpermute at 6 runs to its wait at 7, cut before 8 */
  s = sn_new(EMU_GFX942, "ds_read_b32 v3, v2\nds_read_b32 v6, v2 offset:256\ns_waitcnt lgkmcnt(1)\n"
                         "v_add_u32 v5, v3, v0\ns_waitcnt lgkmcnt(0)\nv_xor_b32 v7, v6, v0\n"
                         "ds_bpermute_b32 v8, v1, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v9, v8\ns_endpgm\n");
  in = s->p->insns;
  static const int sn2[10] = {3, 4, 6, 5, 4, 3, 2, 2, 1, 0}, sel2[10] = {0, 3, 0, 0, 0, 0, 1, 0, 0, 0};
  for (int i = 0; i < 10; i++) {
    cr_assert_eq(in[i].blk_sn, sn2[i], "'%s': solo block of %u records", in[i].text, (unsigned)in[i].blk_sn);
    cr_assert_eq(in[i].sel, sel2[i], "'%s': sel %u, want %d", in[i].text, (unsigned)in[i].sel, sel2[i]);
  }
  sn_free(s);
}

/* Blocks of a workgroup of several waves (blk_n) run through s_waitcnt (issue #31, thirty-ninth
 * stop), blk_wn records before the first, and a cross-lane DS record's block runs past a record naming
 * its destination when a wait between retires it: all at lgkmcnt(0), all but the N youngest LDS
 * entries at lgkmcnt(N) (CDNA3 ISA "S_WAITCNT"; LDS returns in order). test_emu
 * blocks_of_several_waves_run_through_their_waits runs the same programs. */
Test(emu_cvt, blocks_of_several_waves_run_through_their_waits)
{
  static const char *const src[2] = {
      "v_xor_b32 v9, 1, v0\nv_lshlrev_b32 v9, 2, v9\nds_bpermute_b32 v5, v9, v0\nv_add_u32 v2, v0, v0\n"
      "ds_bpermute_b32 v6, v9, v2\ns_waitcnt lgkmcnt(1)\nv_add_u32 v7, v5, v0\ns_waitcnt lgkmcnt(0)\n"
      "v_add_u32 v8, v6, v7\ns_endpgm\n",
      "v_xor_b32 v9, 1, v0\nv_lshlrev_b32 v9, 2, v9\nds_bpermute_b32 v5, v9, v0\nv_add_u32 v2, v0, v0\n"
      "ds_bpermute_b32 v6, v9, v2\ns_waitcnt lgkmcnt(2)\nv_add_u32 v7, v5, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n"};
  /* the first: the bpermute at 2 is retired by lgkmcnt(1) at 5 (the one at 4 is younger), that at 4
   * by lgkmcnt(0) at 7, so every block runs to s_endpgm. The second: lgkmcnt(2) at 5 leaves the
   * bpermute at 2 outstanding (one younger entry), so its block stops before 6, which reads v5 */
  static const int bn[2][10] = {{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, {6, 5, 4, 5, 4, 3, 2, 1, 0, 0}};
  static const int wn[2][10] = {{5, 4, 3, 2, 1, 0, 1, 0, 1, 0}, {5, 4, 3, 2, 1, 0, 1, 0, 0, 0}};
  /* emu_insn.wsel (emu/decode.c several_elide): the distance to the first wait after the record, in
   * its block, that retires its entry. The first program: the first bpermute's by lgkmcnt(1), 3
   * records on (one younger entry); the second's not by that wait (none younger) but by lgkmcnt(0),
   * 3 on. The second program: the first bpermute's block ends before 6 with only lgkmcnt(2) in it
   * (one younger entry: not retired), so none; the second's by lgkmcnt(0), 3 on */
  static const int wsel[2][10] = {{0, 0, 3, 0, 3, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 3, 0, 0, 0, 0, 0}};
  static const int n[2] = {10, 9};
  for (int c = 0; c < 2; c++) {
    snip *s = sn_new(EMU_GFX942, src[c]);
    const emu_insn *in = s->p->insns;
    for (int i = 0; i < n[c]; i++) {
      cr_assert_eq(in[i].blk_n, bn[c][i], "case %d '%s': block of %u records", c, in[i].text, (unsigned)in[i].blk_n);
      cr_assert_eq(in[i].blk_wn, wn[c][i], "case %d '%s': %u records before a wait", c, in[i].text, (unsigned)in[i].blk_wn);
      cr_assert_eq(in[i].wsel, wsel[c][i], "case %d '%s': wsel %u", c, in[i].text, (unsigned)in[i].wsel);
    }
    sn_free(s);
  }
}

/* emu_insn.ldsw and gmw (issue #31, fortieth stop): from a record, may the wave write LDS (other memory) before it reaches an
 * s_barrier, along any path? Worked out by hand. The first program's loop reads LDS at its head (1)
 * and writes it at its end (7) before branching back (8): every record of the loop reaches the write,
 * the branch back only through the loop's head, which a single backward pass visits after it (the
 * fixed point needs a second); after the loop the barrier (9) stops it. The second: a barrier between
 * the read and the write (5), an indirect branch (s_setpc_b64: its target unknown) counting as a
 * write, s_endpgm as none. */
Test(emu_cvt, ldsw_and_gmw_follow_every_path_to_a_write_before_a_barrier)
{
  static const char *const src[2] = {
      "s_mov_b32 s4, 2\n.Lloop:\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)\ns_sub_u32 s4, s4, 1\ns_cmp_lg_u32 s4, 0\n"
      "s_cbranch_scc0 .Ldone\nv_add_u32 v3, 1, v3\nds_write_b32 v1, v3\ns_branch .Lloop\n.Ldone:\ns_barrier\n"
      "ds_read_b32 v5, v1\ns_endpgm\n",
      "s_mov_b32 s4, 2\n.Lloop:\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)\ns_cbranch_scc0 .Ldone\ns_barrier\n"
      "ds_write_b32 v1, v3\ns_branch .Lloop\n.Ldone:\nv_mov_b32 v5, v3\ns_endpgm\ns_setpc_b64 s[30:31]\n"};
  static const int want[2][13] = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 0, 0, 1}};
  static const int n[2] = {12, 10};
  for (int c = 0; c < 2; c++) {
    snip *s = sn_new(EMU_GFX942, src[c]);
    const emu_insn *in = s->p->insns;
    for (int i = 0; i < n[c]; i++) {
      cr_assert_eq(in[i].ldsw, want[c][i], "case %d record %d '%s': ldsw %u, want %d", c, i, in[i].text,
                   (unsigned)in[i].ldsw, want[c][i]);
      /* no store to other memory: only the indirect branch reaches one */
      cr_assert_eq(in[i].gmw, c == 1 && i == 9, "case %d record %d '%s': gmw %u", c, i, in[i].text, (unsigned)in[i].gmw);
    }
    sn_free(s);
  }
  /* emu_insn.gmw: the second program's shape with a global load and store for the LDS read and write:
   * the store (5) reaches nothing before it but itself (the barrier at 4, the loop's exit to
   * s_endpgm), the indirect branch (9) counts as one; neither writes LDS. The blocks of several waves
   * (blk_n) run the load (1) through its vmcnt(0) (mem_cut), blk_gn records before their first load */
  snip *s = sn_new(EMU_GFX942, "s_mov_b32 s4, 2\n.Lloop:\nglobal_load_dword v4, v[2:3], off\ns_waitcnt vmcnt(0)\n"
                               "s_cbranch_scc0 .Ldone\ns_barrier\nglobal_store_dword v[2:3], v4, off\ns_branch .Lloop\n"
                               ".Ldone:\nv_mov_b32 v5, v4\ns_endpgm\ns_setpc_b64 s[30:31]\n");
  static const int gmw[10] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 1}, bn[10] = {4, 3, 2, 1, 0, 0, 1, 1, 0, 1},
                   gn[10] = {1, 0, 2, 1, 0, 0, 1, 1, 0, 1};
  const emu_insn *in = s->p->insns;
  for (int i = 0; i < 10; i++) {
    cr_assert_eq(in[i].gmw, gmw[i], "record %d '%s': gmw %u, want %d", i, in[i].text, (unsigned)in[i].gmw, gmw[i]);
    cr_assert_eq(in[i].ldsw, i == 9, "record %d '%s': ldsw %u", i, in[i].text, (unsigned)in[i].ldsw);
    cr_assert_eq(in[i].blk_n, bn[i], "record %d '%s': block of %u records", i, in[i].text, (unsigned)in[i].blk_n);
    cr_assert_eq(in[i].blk_gn, gn[i], "record %d '%s': %u records before a load", i, in[i].text, (unsigned)in[i].blk_gn);
  }
  sn_free(s);
}

Test(emu_cvt, fused_max_min_f32_give_the_handlers_bits_in_both_ieee_modes)
{
  for (int ieee = 0; ieee < 2; ieee++) {
    fminmax_rsrc1 = ieee ? 1u << 23 : 0;
    fuse_compare_float(EMU_GFX942, fminmax_src, false);
    fuse_compare_float(EMU_GFX950, fminmax_src, false);
  }
  fminmax_rsrc1 = 0;
  /* every (a, b, c) over zeros of both signs, +-1, infinities and NaNs of both kinds: 512 triples,
   * eight waves, each operation of the five in a run against its handler (ties between +0 and -0
   * decide by sign in max, min, med3, max3 and min3's comparisons) */
  static const uint32_t sv[8] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                                 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xff800005u};
  snip *s = sn_new(EMU_GFX950, "v_med3_f32 v10, v1, v2, v3\nv_max_f32 v11, v1, v2\nv_min_f32 v12, v2, v3\n"
                               "v_med3_f32 v13, v3, v1, v2\nv_max3_f32 v14, v1, v2, v3\nv_min3_f32 v15, v3, v1, v2\n");
  cr_assert_eq(s->p->insns[0].fuse_n, 6, "the run covers %u of 6", (unsigned)s->p->insns[0].fuse_n);
  for (int ieee = 0; ieee < 2; ieee++) {
    s->k.rsrc1 = ieee ? 1u << 23 : 0;
    for (int wv = 0; wv < 8; wv++) {
      for (int l = 0; l < EMU_LANES; l++) {
        int t = wv * 64 + l;
        sn_v(s, 1)[l] = sv[t & 7];
        sn_v(s, 2)[l] = sv[t >> 3 & 7];
        sn_v(s, 3)[l] = sv[t >> 6 & 7];
      }
      sn_exec(s, ~0ull);
      run_vs_handlers(s, 6, wv & 1, EMU_GFX950, wv);
    }
  }
  sn_free(s);
}

/* emu_gload64 (the whole-wave global dword / dwordx2 load of emu/op_mem.c, AVX2 gathers on this
 * CPU) against the per-lane definition: lane l's 4 or 8 bytes at host address h + a[l], the low
 * dword into d0 and the high into d1; lanes that share, repeat or reverse addresses, unaligned
 * addresses, and the device base above the host address (h wraps). */
static void gload_check(void)
{
  static uint8_t buf[4096];
  uint32_t st = 77;
  for (size_t i = 0; i < sizeof buf; i++) {
    st = st * 1103515245u + 12345u;
    buf[i] = (uint8_t)(st >> 16);
  }
  const uint64_t bases[2] = {0x1000, UINT64_C(0xffff800000000000)};
  for (int pb = 0; pb < 4; pb++) {
    const int b = pb & 1;
    uintptr_t h = (uintptr_t)buf - (uintptr_t)bases[b];
    uint64_t a[64];
    for (int l = 0; l < 64; l++) {
      uint32_t o = l < 16 ? 8u * (uint32_t)l : l < 32 ? 8u * (uint32_t)(63 - l) : l < 40 ? 100u : (st = st * 1103515245u + 12345u) % 4000u;
      /* the second pair of passes: sixteen-lane rows (the AVX-512 path's two loads), at an unaligned
       * start, with the last lane one byte off, with lane 8 off, and one ending at the buffer's end */
      if (pb >= 2) {
        const uint32_t j = (uint32_t)l % 16u;
        o = l < 16 ? 1003u + 8u * j : l < 32 ? 200u + 8u * j + (j == 15) : l < 48 ? 600u + 8u * j + 8u * (j == 8) : 4096u - 128u + 8u * j;
      }
      a[l] = bases[b] + o;
    }
    uint32_t d0[64], d1[64];
    memset(d1, 0xab, sizeof d1);
    emu_gload64(d0, NULL, h, a);
    for (int l = 0; l < 64; l++) {
      uint32_t want;
      memcpy(&want, buf + (a[l] - bases[b]), 4);
      cr_assert_eq(d0[l], want, "dword lane %d (pass %d)", l, pb);
      cr_assert_eq(d1[l], 0xababababu, "dword load wrote d1, lane %d", l);
    }
    emu_gload64(d0, d1, h, a);
    for (int l = 0; l < 64; l++) {
      uint32_t w0, w1;
      memcpy(&w0, buf + (a[l] - bases[b]), 4), memcpy(&w1, buf + (a[l] - bases[b]) + 4, 4);
      cr_assert(d0[l] == w0 && d1[l] == w1, "dwordx2 lane %d (pass %d): %08x %08x, want %08x %08x", l, pb, d0[l], d1[l], w0,
                w1);
    }
  }
}

Test(emu_cvt, whole_wave_global_loads_follow_the_lane_definition) { on_every_simd_path(gload_check); }

/* emu_lds_read4_64 / emu_lds_write4_64 (ds_read_b32 / ds_write_b32 of a whole wave, emu/op_ds.c;
 * AVX2: gathers, and rows of eight dwords as one store) against the per-lane definition (CDNA3 ISA
 * "DS_WRITE_B32": lane by lane, the highest lane's bytes stay where addresses collide): eight-lane
 * chunks that are rows at aligned and unaligned starts, a row whose bytes an earlier chunk wrote, a
 * row with its last lane off by one, lanes in reverse, every lane of a chunk at one address, random
 * addresses, 32-bit address arithmetic that wraps; the same for sixteen-lane rows; rows that wrap
 * around (a neighbour's dword, lane (l + 1) & 63, and a rotation inside each sixteen lanes: the
 * AVX-512 read's second masked load); reads of the same into the address register. */
static void lds_b32_check(void)
{
  static uint8_t got[4096], want[4096];
  uint32_t a[64], src[64], st = 23;
  for (int l = 0; l < 64; l++) st = st * 1103515245u + 12345u, src[l] = st;
  for (int pat = 0; pat < 6; pat++) {
    uint32_t off = pat == 2 ? 0xfffff000u : 12u;
    for (int l = 0; l < 64; l++) {
      int c = l / 8, i = l % 8;
      st = st * 1103515245u + 12345u;
      uint32_t x = c == 0 ? 256u + 4u * (uint32_t)i                       /* a row */
                 : c == 1 ? 1001u + 4u * (uint32_t)i                      /* a row, unaligned */
                 : c == 2 ? 256u + 4u * (uint32_t)i + 8u                  /* a row over chunk 0's bytes */
                 : c == 3 ? 2000u + 4u * (uint32_t)i + (i == 7)           /* not quite a row */
                 : c == 4 ? 3000u + 4u * (uint32_t)(7 - i)                /* reversed */
                 : c == 5 ? 1500u                                         /* one address */
                 : (st >> 16) % 4000u;                                    /* anywhere */
      if (pat == 1) x = l < 32 ? 4u * (uint32_t)l : 128u + 4u * (uint32_t)(l - 32) + 2u; /* rows everywhere */
      if (pat == 3) { /* sixteen-lane rows: over the one before, unaligned, not quite */
        const uint32_t j = (uint32_t)l % 16u;
        x = l < 16 ? 256u + 4u * j : l < 32 ? 264u + 4u * j : l < 48 ? 1001u + 4u * j : 2000u + 4u * j + (j == 15);
      }
      if (pat == 4) x = 512u + 4u * (((uint32_t)l + 1u) & 63u);
      if (pat == 5) x = 64u * (uint32_t)(l / 16) + 4u * (((uint32_t)l + 5u * (uint32_t)(l / 16) + 3u) & 15u);
      a[l] = x - off; /* a[l] + off = x in 32-bit arithmetic (pattern 2: the sum wraps past 2^32) */
    }
    for (int l = 0; l < 64; l++) cr_assert_lt((uint32_t)(a[l] + off), 4096u - 4u, "pattern %d lane %d", pat, l);
    memset(got, 0x5a, sizeof got), memset(want, 0x5a, sizeof want);
    for (int l = 0; l < 64; l++) memcpy(want + (uint32_t)(a[l] + off), &src[l], 4);
    emu_lds_write4_64(got, a, off, src);
    for (size_t i = 0; i < sizeof got; i++) cr_assert_eq(got[i], want[i], "write, pattern %d: byte %zu", pat, i);
    uint32_t d[64], r[64];
    for (int l = 0; l < 64; l++) memcpy(&r[l], want + (uint32_t)(a[l] + off), 4);
    emu_lds_read4_64(d, got, a, off);
    for (int l = 0; l < 64; l++) cr_assert_eq(d[l], r[l], "read, pattern %d: lane %d", pat, l);
    memcpy(d, a, sizeof d); /* the address register as the destination */
    emu_lds_read4_64(d, got, d, off);
    for (int l = 0; l < 64; l++) cr_assert_eq(d[l], r[l], "read into its address, pattern %d: lane %d", pat, l);
  }
}

Test(emu_cvt, lds_b32_whole_wave_paths_follow_the_lane_definition) { on_every_simd_path(lds_b32_check); }

/* emu_lds_in64 (emu/op_ds.c's quick range test) against its definition: every (uint32_t)(a[l] + off)
 * <= last, unsigned; one lane at last, last + 1, 2^31 and 2^32 - 1 in turn, sums that wrap. */
static void lds_in_check(void)
{
  uint32_t a[64], st = 99;
  const uint32_t lasts[3] = {65532u, 0x7fffffffu, 12u};
  const uint32_t offs[3] = {0u, 64u, 0xffffff00u};
  for (int li = 0; li < 3; li++)
    for (int oi = 0; oi < 3; oi++)
      for (int k = 0; k < 70; k++) {
        uint32_t last = lasts[li], off = offs[oi];
        for (int l = 0; l < 64; l++) a[l] = (sn_rand(&st) % (last + 1u)) - off; /* a + off in [0, last] */
        if (k < 64) { /* lane k at a boundary */
          const uint32_t at[4] = {last, last + 1u, 0x80000000u, 0xffffffffu};
          a[k] = at[k % 4] - off;
        }
        bool want = true;
        for (int l = 0; l < 64; l++) want &= (uint32_t)(a[l] + off) <= last;
        cr_assert_eq(emu_lds_in64(a, off, last), want, "last %u off %u case %d", last, off, k);
      }
}

Test(emu_cvt, lds_range_test_follows_its_definition) { on_every_simd_path(lds_in_check); }

/* emu_lds_ok64 (the transposing reads' test, emu/op_xlane.c) against its definition: every lane's
 * a[l] + off (exact) a multiple of align with its bytes ending at or below lim; one lane at the last
 * address that fits, one past it, one misaligned by 1, 2 or 4 bytes, one past 2^31, offsets whose
 * sums wrap in 32 bits, an offset alone past lim. */
static void lds_ok_check(void)
{
  uint32_t a[64], st = 7;
  const uint64_t lims[3] = {65536u, 163840u, 24u};
  const uint32_t offs[3] = {0u, 64u, 0xffffff00u}, aligns[3] = {8u, 16u, 1u}, bytes[2] = {8u, 12u};
  for (int li = 0; li < 3; li++)
    for (int oi = 0; oi < 3; oi++)
      for (int ai = 0; ai < 3; ai++)
        for (int k = 0; k < 70; k++) {
          const uint64_t lim = lims[li];
          const uint32_t off = offs[oi], al = aligns[ai], by = bytes[k & 1];
          for (int l = 0; l < 64; l++) a[l] = lim > by ? (uint32_t)((sn_rand(&st) % (lim - by + 1)) / al * al) : 0u;
          if (k < 64) {
            const uint32_t at[6] = {(uint32_t)((lim - by) / al * al), (uint32_t)((lim - by) / al * al + al), 1u, 2u, 4u, 0x80000000u};
            a[k] = at[k % 6];
          }
          for (int l = 0; l < 64; l++) a[l] -= off; /* so that a[l] + off is the intended address, in 32 bits */
          bool want = (uint64_t)off + by <= lim;
          for (int l = 0; l < 64 && want; l++) {
            const uint64_t ad = (uint64_t)a[l] + off; /* exact, as the definition says */
            want = (ad & (al - 1)) == 0 && ad + by <= lim;
          }
          cr_assert_eq(emu_lds_ok64(a, off, al, by, lim), want, "lim %llu off %u align %u bytes %u case %d",
                       (unsigned long long)lim, off, al, by, k);
        }
}

Test(emu_cvt, lds_alignment_and_range_test_follows_its_definition) { on_every_simd_path(lds_ok_check); }

/* emu_newline64 (which lanes a global load's stride prefetch touches, emu/op_mem.c) against its
 * definition: bit l set when lane l's 64-byte line (a[l] + step) >> 6 differs from lane l - 1's,
 * bit 0 always; runs of lanes in one line, a line change at every block edge, a step that wraps. */
static void newline_check(void)
{
  const uint64_t steps[3] = {0, 8192, (uint64_t)-72};
  uint32_t st = 5;
  for (int k = 0; k < 3; k++)
    for (int pat = 0; pat < 3; pat++) {
      uint64_t a[64];
      for (int l = 0; l < 64; l++) {
        st = st * 1103515245u + 12345u;
        a[l] = pat == 0 ? 0x10000 + 8u * (uint64_t)l : pat == 1 ? 0x10000 + 64u * (uint64_t)(l / 4) + (st >> 28) : st >> 20;
      }
      uint64_t want = 1;
      for (int l = 1; l < 64; l++)
        if ((a[l] + steps[k]) / 64 != (a[l - 1] + steps[k]) / 64) want |= 1ull << l;
      cr_assert_eq(emu_newline64(a, steps[k]), want, "step %d pattern %d", k, pat);
    }
}

Test(emu_cvt, prefetch_line_changes_follow_the_definition) { on_every_simd_path(newline_check); }

/* emu_gstore64 (the whole-wave global dword / dwordx2 / dwordx4 store of emu/op_mem.c: a coalesced
 * store whole on AVX-512, AVX2 transposes) against the per-lane definition: lane after lane, dword k
 * of lane l at h + a[l] + 4k; lanes whose bytes overlap (a later lane's bytes stay), repeated and
 * unaligned addresses; lanes that follow one another (at an aligned and an odd start), and the same
 * with one lane out of place or the stride one byte short (the lane-order stores must decide). */
static void gstore_check(void)
{
  static uint8_t got[2048], want[2048];
  uint32_t src[4][64], st = 19;
  const uint32_t *s[4] = {src[0], src[1], src[2], src[3]};
  for (int k = 0; k < 4; k++)
    for (int l = 0; l < 64; l++) st = st * 1103515245u + 12345u, src[k][l] = st;
  for (uint32_t nw = 1; nw <= 4; nw++)
    for (int pat = 0; pat < 5; pat++) {
      uint64_t a[64];
      const uint64_t base = 0x40000;
      for (int l = 0; l < 64; l++) {
        st = st * 1103515245u + 12345u;
        a[l] = base + (pat == 0 ? (l < 16 ? 4u * (uint32_t)l : l < 24 ? 500u : (st >> 16) % (2048u - 16u))
                       : pat == 1 ? 64u + 4u * nw * (uint32_t)l
                       : pat == 2 ? 3u + 4u * nw * (uint32_t)l
                       : pat == 3 ? 8u + 4u * nw * (uint32_t)(l == 37 ? 38 : l)
                                  : 8u + (4u * nw - 1u) * (uint32_t)l);
      }
      memset(got, 0x5a, sizeof got), memset(want, 0x5a, sizeof want);
      for (int l = 0; l < 64; l++)
        for (uint32_t k = 0; k < nw; k++) memcpy(want + (a[l] - base) + 4 * k, &src[k][l], 4);
      emu_gstore64((uintptr_t)got - (uintptr_t)base, a, s, nw);
      for (size_t i = 0; i < sizeof got; i++) cr_assert_eq(got[i], want[i], "%u dwords, pattern %d: byte %zu", nw, pat, i);
    }
}

Test(emu_cvt, whole_wave_global_stores_follow_the_lane_definition) { on_every_simd_path(gstore_check); }

/* emu_lds_write2_8_64 (ds_write2*_b64 of a whole wave, emu/op_ds.c) against the per-lane definition
 * (CDNA3 ISA "DS_WRITE2_B64": lane by lane, DATA0 at ADDR + OFFSET0 then DATA1 at ADDR + OFFSET1;
 * where bytes collide the later store stays). Eight-lane chunks that are 64-byte blocks in lane order
 * and XOR-swizzled (the AVX2 path's block stores, every swizzle; both halves in one block with equal
 * offsets), and what must take the lane-order stores: halves that meet (offsets 32 and 8 apart: lane
 * i's DATA1 over a later lane's DATA0), a swizzle with one lane off, a block at an unaligned start (a
 * wrong slot order or block start failed it), a lane repeated, random addresses, a 32-bit address sum
 * that wraps. */
static void lds_write2_8_check(void)
{
  static uint8_t got[8192], want[8192];
  uint32_t a[64], s[4][64], st = 77;
  for (int k = 0; k < 4; k++)
    for (int l = 0; l < 64; l++) st = st * 1103515245u + 12345u, s[k][l] = st;
  static const uint32_t offs[6][2] = {{0, 4096}, {512, 0}, {0, 32}, {0, 8}, {0, 0}, {0xfffff000u, 0xfffff800u}};
  for (int oi = 0; oi < 6; oi++)
    for (int pat = 0; pat < 3; pat++) {
      uint32_t off0 = offs[oi][0], off1 = offs[oi][1];
      for (int l = 0; l < 64; l++) {
        int c = l / 8, i = l % 8;
        st = st * 1103515245u + 12345u;
        uint32_t x = 64u * (uint32_t)(c + 8 * pat) + 8u * (uint32_t)(i ^ c); /* block c, swizzle c */
        if (pat == 1 && c == 2 && i == 5) x += 64;                            /* one lane off */
        if (pat == 1 && c == 3) x += 4;                                       /* unaligned block */
        if (pat == 1 && c == 4 && i == 6) x -= 8;                             /* lane 5's slot twice */
        if (pat == 2 && c >= 4) x = 8u * ((st >> 16) % 400u);                 /* anywhere */
        a[l] = x - (off0 & 0xfffff000u); /* offset pair 5: a + off wraps past 2^32 */
      }
      for (int l = 0; l < 64; l++)
        cr_assert(a[l] + off0 <= sizeof got - 8 && a[l] + off1 <= sizeof got - 8, "offsets %d pattern %d lane %d", oi, pat, l);
      memset(got, 0x5a, sizeof got), memset(want, 0x5a, sizeof want);
      for (int l = 0; l < 64; l++) {
        uint32_t d0[2] = {s[0][l], s[1][l]}, d1[2] = {s[2][l], s[3][l]};
        memcpy(want + (uint32_t)(a[l] + off0), d0, 8), memcpy(want + (uint32_t)(a[l] + off1), d1, 8);
      }
      emu_lds_write2_8_64(got, a, off0, off1, s[0], s[1], s[2], s[3]);
      for (size_t i = 0; i < sizeof got; i++)
        cr_assert_eq(got[i], want[i], "offsets %d pattern %d: byte %zu", oi, pat, i);
    }
}

Test(emu_cvt, lds_write2_b64_whole_wave_path_follows_the_lane_definition) { on_every_simd_path(lds_write2_8_check); }

/* v_div_scale_f32 and v_div_fixup_f32 decide from the operands' exponents whether every lane is in
 * their common case (emu/op_valu.c, issue #31 fourteenth stop: no scaling, no VCC bit; |q| with the
 * quotient's sign) and then skip the per-lane tests. At and one step past each edge of that region
 * (the denominator's biased exponent e1, the numerator's e2, their difference), with the whole wave
 * at one pair, the record must give what its per-lane tests give: the same wave again with lane 63
 * made a zero denominator, which sends it down the tests, lanes 0..62 compared (result and VCC). */
static const uint8_t div_edges[][2] = {
    {1, 24},   {252, 254}, {252, 127}, {1, 96},  {129, 24},  {2, 97},   {251, 126}, {150, 25}, /* inside */
    {253, 128}, {1, 97},   {10, 23},  {200, 74}, {0, 60},   {254, 200}, {30, 255},  {127, 0},  /* outside */
    {255, 100}, {100, 255}, {250, 124}, {200, 75}, {120, 216}, {120, 215}, {60, 23},  {1, 1},
    {200, 49},  {200, 50},  {255, 200}, {254, 1}}; /* v_div_fixup_f32's edges: e2 - e1 -151 / -150, an infinite denominator */
static void div_edge_pass(snip *s, const emu_insn *in, int pair, bool fixup, bool qnan, uint32_t *st)
{
  /* operands: v1 s0 (scale) / q (fixup), v2 the denominator, v3 the numerator */
  const uint32_t e1 = div_edges[pair][0], e2 = div_edges[pair][1];
  for (int l = 0; l < EMU_LANES; l++) {
    uint32_t m1 = sn_rand(st) & 0x807fffffu, m2 = sn_rand(st) & 0x807fffffu;
    if (e1 == 255) m1 &= 0x80000000u; /* infinities, not NaNs, at exponent 255 */
    if (e2 == 255) m2 &= 0x80000000u;
    sn_v(s, 2)[l] = m1 | e1 << 23, sn_v(s, 3)[l] = m2 | e2 << 23;
    uint32_t q = sn_rand(st);
    /* NaN and infinite quotients in some passes only: a NaN q sends the whole wave down fixup_f32 */
    sn_v(s, 1)[l] = qnan && l % 16 == 5 ? 0x7fc00000u | (q & 0x80000000u) : qnan && l % 16 == 9 ? 0x7f800000u : q;
    if (!fixup && l % 4 == 0) sn_v(s, 1)[l] = sn_v(s, 2)[l]; /* s0 == s1 */
    if (!fixup && l % 4 == 1) sn_v(s, 1)[l] = sn_v(s, 3)[l]; /* s0 == s2 */
  }
  uint32_t got[EMU_LANES], want[EMU_LANES];
  emu_wr64s(&s->w, EMU_S_VCC, 0x5555555555555555ull);
  cr_assert_eq(in->fn(&s->w, in), EMU_OK);
  memcpy(got, sn_v(s, 10), sizeof got);
  uint64_t gvcc = emu_rd64s(&s->w, EMU_S_VCC);
  const uint32_t keep = sn_v(s, 2)[63];
  sn_v(s, 2)[63] = 0; /* a zero denominator: the per-lane tests */
  emu_wr64s(&s->w, EMU_S_VCC, 0x5555555555555555ull);
  cr_assert_eq(in->fn(&s->w, in), EMU_OK);
  memcpy(want, sn_v(s, 10), sizeof want);
  uint64_t wvcc = emu_rd64s(&s->w, EMU_S_VCC);
  sn_v(s, 2)[63] = keep;
  for (int l = 0; l < 63; l++)
    cr_assert_eq(got[l], want[l], "%s e1 %u e2 %u lane %d: 0x%08x, the per-lane tests 0x%08x", in->text, e1, e2, l,
                 got[l], want[l]);
  if (!fixup)
    cr_assert_eq(gvcc & ~(1ull << 63), wvcc & ~(1ull << 63), "%s e1 %u e2 %u: VCC %#llx, the per-lane tests %#llx",
                 in->text, e1, e2, (unsigned long long)gvcc, (unsigned long long)wvcc);
}
Test(emu_cvt, div_scale_and_fixup_common_case_gives_the_per_lane_tests_bits)
{
  uint32_t st = 0x3c6ef372u;
  const char *srcs[2] = {"v_div_scale_f32 v10, vcc, v1, v2, v3", "v_div_fixup_f32 v10, v1, v2, v3"};
  for (int f = 0; f < 2; f++) {
    snip *s = sn_new(EMU_GFX950, srcs[f]);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", srcs[f]);
    sn_exec(s, ~0ull);
    for (int rep = 0; rep < 4; rep++)
      for (int p = 0; p < (int)(sizeof div_edges / sizeof *div_edges); p++)
        div_edge_pass(s, in, p, f == 1, f == 1 && rep == 1, &st);
    sn_free(s);
  }
}

/* v_cmp_class_f32 / v_cmpx_class_f32 (issue #31, fourteenth stop: classified from the bits without
 * branches, the AVX2 twin taken on such hosts): lane l's bit is bit class(S0) of S1, the classes as
 * the ISA lists them (CDNA3 ISA "V_CMP_CLASS_F32": 0 signalling NaN, 1 quiet NaN, 2 -infinity,
 * 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +infinity), computed here from
 * the value's fields; S1 one class bit at a time, then random masks in a VGPR; the destination VCC,
 * an SGPR pair (e64) and EXEC (cmpx, under a partial EXEC: inactive lanes' bits cleared). */
static unsigned isa_class(uint32_t u)
{
  uint32_t e = u >> 23 & 0xff, m = u & 0x7fffff, neg = u >> 31;
  if (e == 0xff) return m ? (m >> 22 ? 1 : 0) : neg ? 2 : 9;
  if (e == 0) return m ? (neg ? 4 : 7) : neg ? 5 : 6;
  return neg ? 3 : 8;
}
Test(emu_cvt, cmp_class_f32_gives_each_lane_its_class_bit)
{
  static const uint32_t sp[] = {0x7fa00000u, 0xffa00001u, 0x7fc00000u, 0xffc12345u, 0x7f800000u, 0xff800000u,
                                0x3f800000u, 0xc0400000u, 0x00000001u, 0x807fffffu, 0x00000000u, 0x80000000u,
                                0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800001u, 0x7fffffffu};
  const char *src = "v_cmp_class_f32 vcc, v1, s2\nv_cmp_class_f32_e64 s[4:5], v1, v2\nv_cmpx_class_f32 vcc, v1, v2\n";
  snip *s = sn_new(EMU_GFX950, src);
  uint32_t st = 0x0b4b8c9du;
  for (int pass = 0; pass < 24; pass++) {
    uint32_t want_s = pass < 10 ? 1u << pass : sn_rand(&st) & 0x3ff;
    for (int l = 0; l < EMU_LANES; l++) {
      sn_v(s, 1)[l] = (l + pass) % 3 ? sp[(l * 7 + pass) % (sizeof sp / sizeof *sp)] : sn_rand(&st);
      sn_v(s, 2)[l] = pass < 10 ? 1u << (9 - pass) : sn_rand(&st) & 0x3ff;
    }
    s->w.s[2] = want_s;
    uint64_t e = pass & 1 ? (uint64_t)sn_rand(&st) << 32 | sn_rand(&st) : ~0ull;
    uint64_t want_vcc = 0, want_pair = 0;
    for (int l = 0; l < EMU_LANES; l++) {
      unsigned c = isa_class(sn_v(s, 1)[l]);
      want_vcc |= (uint64_t)(want_s >> c & 1) << l;
      want_pair |= (uint64_t)(sn_v(s, 2)[l] >> c & 1) << l;
    }
    for (int h = 0; h < 2; h++) { /* the record's handler, then the generic build's */
      emu_wr64s(&s->w, EMU_S_VCC, 0);
      emu_wr64s(&s->w, 4, 0);
      sn_exec(s, e);
      for (int i = 0; i < 3; i++) {
        const emu_insn *in = &s->p->insns[i];
        emu_handler f = h ? (i < 2 ? emu_op_v_cmp_class_f32 : emu_op_v_cmpx_class_f32) : in->fn;
        cr_assert_eq(f(&s->w, in), EMU_OK);
        if (i == 0)
          cr_assert_eq(emu_rd64s(&s->w, EMU_S_VCC), want_vcc & e, "pass %d handler %d: vcc %#llx, want %#llx", pass, h,
                       (unsigned long long)emu_rd64s(&s->w, EMU_S_VCC), (unsigned long long)(want_vcc & e));
        if (i == 1)
          cr_assert_eq(emu_rd64s(&s->w, 4), want_pair & e, "pass %d handler %d: s[4:5] %#llx, want %#llx", pass, h,
                       (unsigned long long)emu_rd64s(&s->w, 4), (unsigned long long)(want_pair & e));
      }
      cr_assert_eq(emu_exec(&s->w), want_pair & e, "pass %d handler %d: exec %#llx, want %#llx", pass, h,
                   (unsigned long long)emu_exec(&s->w), (unsigned long long)(want_pair & e));
    }
  }
  sn_free(s);
}

/* v_ldexp_f32 (issue #31, fourteenth stop: a wave whose normal inputs stay normal is scaled through
 * the exponent field, any other takes ldexpf lane by lane): S0 * 2^S1 as libm's ldexpf gives it,
 * with the handler's clamp of S1 to [-1000, 1000]; each wave's lanes at one (exponent, scale) pair,
 * at and one step past the edges of the exponent-field region (result exponent 1 and 254, 0 and
 * 255, inputs at exponents 1 and 254), then waves of mixed values: zeros, denormals, infinities,
 * NaNs, huge scales */
Test(emu_cvt, ldexp_f32_gives_libms_ldexpf)
{
  static const int32_t pairs[][2] = {{127, 0},  {127, 127}, {127, -126}, {127, 128}, {127, -127}, {1, 0},   {254, 0},
                                     {1, 253},  {254, -253}, {1, -1},   {254, 1},   {200, -199}, {200, -200}, {50, 204},
                                     {50, 205}, {0, 5},     {255, -3},  {100, 5000}, {100, -5000}, {127, -1000},
                                     {-1, 7}}; /* -1: zeros of both signs */
  snip *s = sn_new(EMU_GFX950, "v_ldexp_f32 v10, v1, v2\nv_ldexp_f32 v11, v1, s3\n");
  uint32_t st = 0x7f4a7c15u;
  const int np = (int)(sizeof pairs / sizeof *pairs);
  for (int pass = 0; pass < np + 8; pass++) {
    for (int l = 0; l < EMU_LANES; l++) {
      uint32_t m = sn_rand(&st) & 0x807fffffu, e;
      int32_t n;
      if (pass < np) {
        e = (uint32_t)pairs[pass][0], n = pairs[pass][1];
        if (pairs[pass][0] < 0) e = 0, m &= 0x80000000u;
      } else { /* mixed: any exponent (0 and 255 included), any scale, some zeros */
        e = sn_rand(&st) & 0xff, n = (int32_t)(sn_rand(&st) % 600) - 300;
        if (l % 9 == 0) m &= 0x80000000u, e = 0; /* +-0 */
      }
      if (e == 255 && l % 2) m &= 0x80000000u; /* infinities beside the NaNs */
      sn_v(s, 1)[l] = m | e << 23;
      sn_v(s, 2)[l] = (uint32_t)n;
    }
    s->w.s[3] = (uint32_t)(pass < np ? pairs[pass][1] : 3);
    sn_exec(s, ~0ull);
    for (int i = 0; i < 2; i++) cr_assert_eq(s->p->insns[i].fn(&s->w, &s->p->insns[i]), EMU_OK);
    for (int l = 0; l < EMU_LANES; l++)
      for (int i = 0; i < 2; i++) {
        int32_t n = i ? (int32_t)s->w.s[3] : (int32_t)sn_v(s, 2)[l];
        n = n > 1000 ? 1000 : n < -1000 ? -1000 : n;
        float want = ldexpf(bf(sn_v(s, 1)[l]), n);
        uint32_t got = sn_v(s, 10 + i)[l];
        cr_assert(got == fb(want), /* NaNs too: ldexpf's own bits */
                  "pass %d lane %d: ldexp(%#x, %d) = %#x, ldexpf %#x", pass, l, sn_v(s, 1)[l], n, got, fb(want));
      }
  }
  sn_free(s);
}

/* v_fma_mixlo_f16 / v_fma_mixhi_f16 (issue #31, fourteenth stop): each lane as the mix definition
 * gives it, computed here per lane: a source is f16 (the half op_sel picks) where op_sel_hi sets its
 * bit, else f32; the exact fma of the three (a __float128 sum: the f32 sources' exponents are kept
 * within 2^-15..2^16 so that its bits span at most 113 places), clamped to [0, 1] with clamp,
 * rounded once to f16 (sn_q2h) into the low or high half, the other half kept; a NaN source gives
 * the first NaN of the three (a, b, c), quieted, an infinite result as fma in double gives it. Over
 * random bits with NaNs, infinities and f16 denormals among them. Until the
 * eighteenth stop the handler rounded the double fma to f32 first, which decided some f16 ties the
 * exact sum does not have (test_emu_pcode G_F32MID). */
Test(emu_cvt, fma_mix_f16_gives_the_per_lane_definition)
{
  static const struct { const char *text; unsigned sel, selhi; bool hi, clamp; } forms[] = {
      {"v_fma_mixlo_f16 v10, v1, v2, v3 op_sel_hi:[1,0,0]", 0, 1, false, false},
      {"v_fma_mixhi_f16 v11, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]", 1, 3, true, false},
      {"v_fma_mixlo_f16 v12, v1, v2, v3 op_sel:[0,1,1] op_sel_hi:[1,1,1] clamp", 6, 7, false, true},
      {"v_fma_mixhi_f16 v13, v3, v1, v2 op_sel_hi:[0,0,1]", 0, 4, true, false},
  };
  uint32_t st = 0x2c1b3c6du;
  for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
    snip *s = sn_new(EMU_GFX950, forms[k].text);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(in->implemented, "%s", forms[k].text);
    const int src[3] = {in->o[1].reg, in->o[2].reg, in->o[3].reg}, dst = in->o[0].reg;
    for (int pass = 0; pass < 8; pass++) {
      static const uint16_t hs[] = {0x7c00, 0xfc00, 0x7e01, 0x7d00, 0x0001, 0x83ff, 0x3c00, 0xbc00, 0x7bff, 0x0000, 0x8000};
      for (int r = 1; r <= 3; r++)
        for (int l = 0; l < EMU_LANES; l++) {
          uint32_t x = sn_rand(&st);
          if (pass & 1) x = (uint32_t)hs[x % 11] << 16 | hs[(x >> 8) % 11]; /* f16 specials in both halves */
          else if (l % 5 == 0) x = (x & 0x807fffffu) | 0x7f800000u; /* f32 NaNs and infinities */
          else x = (x & 0x807fffffu) | (112u + (x >> 23 & 0xff) % 32) << 23; /* f32 in 2^-15..2^16 */
          sn_v(s, r)[l] = x;
        }
      for (int l = 0; l < EMU_LANES; l++) sn_v(s, dst)[l] = sn_rand(&st);
      uint32_t old[EMU_LANES];
      memcpy(old, sn_v(s, dst), sizeof old);
      sn_exec(s, ~0ull);
      cr_assert_eq(in->fn(&s->w, in), EMU_OK);
      for (int l = 0; l < EMU_LANES; l++) {
        double v[3];
        for (int j = 0; j < 3; j++) {
          uint32_t u = sn_v(s, src[j])[l];
          v[j] = forms[k].selhi >> j & 1 ? (double)emu_f16_to_f32((uint16_t)(forms[k].sel >> j & 1 ? u >> 16 : u)) : (double)bf(u);
        }
        float r = (float)fma(v[0], v[1], v[2]);
        /* a NaN source: the first of the three, quieted (docs/emulator-choices.md) */
        for (int j = 2; j >= 0; j--)
          if (v[j] != v[j]) r = (float)v[j];
        uint16_t h;
        if (isfinite(r)) {
          __float128 x = (__float128)v[0] * v[1] + v[2]; /* exact */
          if (forms[k].clamp) x = x < 0 ? 0 : x > 1 ? 1 : x;
          h = sn_q2h(x);
        } else {
          if (forms[k].clamp) r = r != r ? emu_f32(fb(r) | 0x400000u) : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r; /* IEEE clamp, DX10 off */
          h = emu_f32_to_f16(r);
        }
        uint32_t want = forms[k].hi ? (old[l] & 0xffffu) | (uint32_t)h << 16 : (old[l] & 0xffff0000u) | h;
        cr_assert_eq(sn_v(s, dst)[l], want, "%s pass %d lane %d: 0x%08x, the definition 0x%08x", forms[k].text, pass, l,
                     sn_v(s, dst)[l], want);
      }
    }
    sn_free(s);
  }
}

/* v_div_fmas_f32 (issue #31, fourteenth stop: with no VCC bit and no infinite or NaN operand the
 * whole wave is one vector FMA): each lane without its VCC bit is fmaf of its operands, computed
 * here with libm's fmaf, bit for bit; waves of finite values (normals, denormals, products that
 * overflow or cancel), waves with an infinity or a NaN in one lane, and waves with VCC bits set */
Test(emu_cvt, div_fmas_f32_without_vcc_is_fmaf)
{
  snip *s = sn_new(EMU_GFX950, "v_div_fmas_f32 v10, v1, v2, v3");
  const emu_insn *in = &s->p->insns[0];
  uint32_t st = 0x1f83d9abu;
  for (int pass = 0; pass < 24; pass++) {
    for (int r = 1; r <= 3; r++)
      for (int l = 0; l < EMU_LANES; l++) {
        uint32_t x = sn_rand(&st), e = pass % 3 == 0 ? x >> 23 & 0xff : 100 + (x >> 23) % 60;
        if (e == 255) e = 254; /* finite here; the specials below */
        sn_v(s, r)[l] = (x & 0x807fffffu) | e << 23;
      }
    if (pass % 4 == 1) sn_v(s, 1 + pass % 3)[pass % 64] = pass & 8 ? 0x7f800000u : 0x7fc00042u;
    uint64_t vcc = pass % 4 == 3 ? (uint64_t)sn_rand(&st) << 32 | sn_rand(&st) : 0;
    emu_wr64s(&s->w, EMU_S_VCC, vcc);
    sn_exec(s, ~0ull);
    cr_assert_eq(in->fn(&s->w, in), EMU_OK);
    for (int l = 0; l < EMU_LANES; l++) {
      if (vcc >> l & 1) continue;
      float want = fmaf(bf(sn_v(s, 1)[l]), bf(sn_v(s, 2)[l]), bf(sn_v(s, 3)[l]));
      cr_assert_eq(sn_v(s, 10)[l], fb(want), "pass %d lane %d: fma(%#x, %#x, %#x) = %#x, fmaf %#x", pass, l, sn_v(s, 1)[l],
                   sn_v(s, 2)[l], sn_v(s, 3)[l], sn_v(s, 10)[l], fb(want));
    }
  }
  sn_free(s);
}

/* v_add_f64, v_mul_f64, v_fma_f64 and v_fmac_f64 on AVX-512 (emu/op_valu.c f64_fast, emu/simd.c
 * emu_f64_arith64: 16 lanes at a time, the halves interleaved and split by vpermt2d) give the
 * generic handlers' bits (the path a
 * host without AVX-512 takes): sources of NaNs with payloads (quiet and signalling, either sign),
 * infinities, signed zeros, subnormals and ordinary values in every pairing the lanes make,
 * modifiers, SGPR and inline-constant sources, a destination over a source, partial EXEC. And the
 * rules without either path: two NaNs added or multiplied give S0's, quieted (IEEE leaves the
 * payload open; x86's order, the generic build's), 1.5 * -2.0 is -3.0, 1.5 + 0.25 is 1.75. */
static const char f64_src_text[] =
    "v_add_f64 v[10:11], v[2:3], v[4:5]\nv_mul_f64 v[12:13], v[2:3], v[4:5]\n"
    "v_fma_f64 v[14:15], v[2:3], v[4:5], v[6:7]\nv_fmac_f64 v[16:17], v[2:3], v[4:5]\n"
    "v_add_f64 v[18:19], -v[2:3], |v[4:5]|\nv_mul_f64 v[20:21], s[4:5], v[4:5]\n"
    "v_fma_f64 v[22:23], v[2:3], 0.5, -v[6:7]\nv_fma_f64 v[24:25], |v[2:3]|, -v[4:5], s[6:7]\n"
    "v_mul_f64 v[26:27], v[4:5], -4.0\nv_add_f64 v[2:3], v[2:3], v[4:5]\n";
static uint64_t f64_special(uint32_t *st, int l, int which)
{
  static const uint64_t sp[] = {0x7ff8000000000000ull, 0x7ff8000000000abcull, 0xfff0000000000123ull, 0x7ff0000000000001ull,
                                0x7ff0000000000000ull, 0xfff0000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull,
                                0x000fffffffffffffull, 0x8000000000000001ull, 0x7fefffffffffffffull, 0x3ff8000000000000ull,
                                0xc000000000000000ull, 0x0010000000000000ull};
  const int ns = (int)(sizeof sp / sizeof *sp);
  const int k = which == 0 ? l % ns : which == 1 ? (l / ns + l) % ns : (l * 7 + 3) % ns;
  if (l >= 48) return (uint64_t)sn_rand(st) << 32 | sn_rand(st); /* ordinary bits (any class) */
  return sp[k] ^ (which == 2 && l % 5 == 0 ? 0x8000000000000000ull : 0);
}
static void f64_fill(snip *s, uint32_t seed)
{
  uint32_t st = seed;
  for (int l = 0; l < 64; l++)
    for (int r = 0; r < 3; r++) {
      uint64_t v = f64_special(&st, l, r);
      sn_v(s, 2 + 2 * r)[l] = (uint32_t)v, sn_v(s, 3 + 2 * r)[l] = (uint32_t)(v >> 32);
    }
  for (int r = 10; r < 28; r++)
    for (int l = 0; l < 64; l++) sn_v(s, r)[l] = 0xdead0000u + (uint32_t)(r * 64 + l);
  emu_wr64s(&s->w, 4, 0x3ff0000000000001ull); /* s[4:5]: 1 + 1 ulp */
  emu_wr64s(&s->w, 6, 0xfff00000000000ffull); /* s[6:7]: a negative signalling NaN */
}
Test(emu_cvt, f64_arithmetic_on_avx512_gives_the_generic_handlers_bits)
{
  const bool had = emu_avx512, had2 = emu_avx2;
  for (int a = 0; a < EMU_NARCH; a++)
    for (int pass = 0; pass < 2; pass++) {
      const uint64_t ex = pass ? 0xf0f0ff00a5a5ffffull : ~0ull;
      snip *s = sn_new((emu_arch)a, f64_src_text);
      uint32_t out[2][18][64];
      for (int path = 0; path < 2; path++) {
        emu_avx512 = path ? false : had, emu_avx2 = path ? false : had2;
        f64_fill(s, 0x1234567u + (uint32_t)pass);
        sn_exec(s, ex);
        cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
        for (int r = 0; r < 18; r++) memcpy(out[path][r], sn_v(s, r < 2 ? 2 + r : 10 + (r - 2)), sizeof out[path][r]);
      }
      emu_avx512 = had, emu_avx2 = had2;
      for (int r = 0; r < 18; r++)
        for (int l = 0; l < 64; l++)
          cr_assert_eq(out[0][r][l], out[1][r][l], "%s EXEC %016llx v%d lane %d: this CPU's path 0x%08x, generic 0x%08x",
                       emu_arch_name((emu_arch)a), (unsigned long long)ex, r < 2 ? 2 + r : 10 + (r - 2), l, out[0][r][l],
                       out[1][r][l]);
      sn_free(s);
    }
  /* the rules, on this CPU's path: lane 62 qNaN(0xabc) and -sNaN(0x123), lane 63 sNaN(1) and
   * qNaN(0xabc): S0's NaN, quieted (bit 51 set) */
  snip *s = sn_new(EMU_GFX950, f64_src_text);
  f64_fill(s, 7);
  const uint64_t nan_a[2] = {0x7ff8000000000abcull, 0x7ff0000000000001ull}, nan_b[2] = {0xfff0000000000123ull, 0x7ff8000000000abcull};
  for (int i = 0; i < 2; i++) {
    sn_v(s, 2)[62 + i] = (uint32_t)nan_a[i], sn_v(s, 3)[62 + i] = (uint32_t)(nan_a[i] >> 32);
    sn_v(s, 4)[62 + i] = (uint32_t)nan_b[i], sn_v(s, 5)[62 + i] = (uint32_t)(nan_b[i] >> 32);
  }
  const uint64_t a1 = 0x3ff8000000000000ull, b1 = 0xc000000000000000ull, c1 = 0x3fd0000000000000ull; /* 1.5, -2, 0.25 */
  sn_v(s, 2)[60] = (uint32_t)a1, sn_v(s, 3)[60] = (uint32_t)(a1 >> 32);
  sn_v(s, 4)[60] = (uint32_t)b1, sn_v(s, 5)[60] = (uint32_t)(b1 >> 32);
  sn_v(s, 2)[61] = (uint32_t)a1, sn_v(s, 3)[61] = (uint32_t)(a1 >> 32);
  sn_v(s, 4)[61] = (uint32_t)c1, sn_v(s, 5)[61] = (uint32_t)(c1 >> 32);
  sn_exec(s, ~0ull);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int i = 0; i < 2; i++) {
    const uint64_t want = nan_a[i] | 1ull << 51;
    cr_assert(rd64v(s, 10, 62 + i) == want && rd64v(s, 12, 62 + i) == want, "lane %d: S0's NaN quieted, 0x%016llx", 62 + i,
              (unsigned long long)want);
  }
  cr_assert_eq(rd64v(s, 12, 60), 0xc008000000000000ull, "1.5 * -2.0");
  cr_assert_eq(rd64v(s, 10, 61), 0x3ffc000000000000ull, "1.5 + 0.25");
  sn_free(s);
}
