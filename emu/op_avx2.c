/* emu/op_avx2 — the VALU families (emu/op_valu.c, emu/op_vop3p.c, emu/op_cvt.c) and the LDS
 * accesses (emu/op_ds.c: its range check of every lane's address and its gathers) compiled a second
 * time for AVX2, so their 64-lane loops run 8 lanes per instruction instead of SSE2's 4. Each
 * handler defined there as EMU_H(emu_op_x) is emu_op_x_avx2 here; emu__ops_avx2 (called by the
 * decoder's op table build when emu_avx2 is set, emu/simd.c: the CPU has AVX2, FMA and F16C and
 * LANELAB_EMU_SIMD / LANELAB_EMU_NO_AVX512 do not cap it) puts the twins of the integer and bit
 * operations in their rows; the float ones keep the generic build (float_named below) unless they do
 * no float arithmetic (bits_only: the class compares). The same C,
 * so the same results: integer lane operations are exact at any width. Measured:
 * docs/performance.md (issue #31). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2")
#define EMU_H(f) f##_avx2
#define EMU_FMA_CLONES __attribute__((target("avx2,fma")))
#include "emu/internal.h"

/* libm's rounding functions as the generic build calls them (emu/fp.c emu_libm_*): inlined here
 * as SSE4.1 rounds they would quiet a signalling NaN the library returns unchanged */
#define floorf(x) emu_libm_floorf(x)
#define ceilf(x) emu_libm_ceilf(x)
#define truncf(x) emu_libm_truncf(x)
#define nearbyintf(x) emu_libm_nearbyintf(x)
#define rintf(x) emu_libm_rintf(x)
#define floor(x) emu_libm_floor(x)
#define ceil(x) emu_libm_ceil(x)
#define trunc(x) emu_libm_trunc(x)
#define nearbyint(x) emu_libm_nearbyint(x)

/* every op row's twin, weak: the rows handled by other files have none (NULL) */
#define EMU_OP(name, fn, flags) int fn##_avx2(emu_wave *w, const emu_insn *in) __attribute__((weak));
#include "emu/ops.def"
#undef EMU_OP

#include "emu/op_valu.c"
#include "emu/op_vop3p.c"
#include "emu/op_cvt.c"
#undef LANES /* op_ds.c's own */
#undef F
#undef U
#include "emu/op_ds.c"

static const struct {
  const char *name;
  emu_handler twin;
} twins[] = {
#define EMU_OP(name, fn, flags) {#name, fn##_avx2},
#include "emu/ops.def"
#undef EMU_OP
};

/* Does the mnemonic name a floating-point type? Those rows (the float LDS atomics too) keep the generic handler: when two
 * operands of a float operation are NaN, which payload the result carries is the host instruction's
 * operand order, which the compiler picks per build (seen: v_mad_f16 in the sanitizer build gave
 * 0xfe0a from one build and 0xff78 from the other). Integer and bit operations (and bit moves
 * such as v_cndmask_b32 and v_mov_b32) are exact in any build. */
static bool float_named(const char *m)
{
  static const char *const t[] = {"_f16", "_f32", "_f64", "bf16", "fp8", "bf8", "fp4", "fp6", "bf6", "_f8"};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (strstr(m, t[i])) return true;
  return false;
}

/* float-named rows whose handlers do no float arithmetic, only tests of their operands' bits, so
 * any build gives the same result: the f32 class compares (emu/op_valu.c fclass32), whose lane
 * loop is a vector one with AVX2's variable shifts (issue #31, fourteenth stop) */
static bool bits_only(const char *m) { return !strcmp(m, "v_cmp_class_f32") || !strcmp(m, "v_cmpx_class_f32"); }

void emu__ops_avx2(emu_opdef *ops, size_t n)
{
  for (size_t i = 0; i < n && i < sizeof twins / sizeof *twins; i++)
    if (twins[i].twin && (!float_named(twins[i].name) || bits_only(twins[i].name)) && !strcmp(ops[i].name, twins[i].name))
      ops[i].fn = twins[i].twin;
}
#else
#include "emu/internal.h"
void emu__ops_avx2(emu_opdef *ops, size_t n) { (void)ops, (void)n; }
#endif
