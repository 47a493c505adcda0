/* emu/op_avx2 — the VALU families (emu/op_valu.c, emu/op_vop3p.c, emu/op_cvt.c) compiled a second
 * time for AVX2, so their 64-lane loops run 8 lanes per instruction instead of SSE2's 4. Each
 * handler defined there as EMU_H(emu_op_x) is emu_op_x_avx2 here; emu__ops_avx2 (called by the
 * decoder's op table build when emu_avx2 is set, emu/simd.c: the CPU has AVX2, FMA and F16C and
 * LANELAB_EMU_SIMD / LANELAB_EMU_NO_AVX512 do not cap it) puts each twin in its row. The same C,
 * so the same results: integer lane operations are exact at any width, and the float ones are the
 * same IEEE operations; the target is AVX2 alone, without FMA, so GCC cannot contract an a * b + c
 * the handler writes as two roundings into one (v_mad_f32 stays unfused). Measured: docs/performance.md
 * (issue #31). */
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

static const emu_handler twins[] = {
#define EMU_OP(name, fn, flags) fn##_avx2,
#include "emu/ops.def"
#undef EMU_OP
};

void emu__ops_avx2(emu_opdef *ops, size_t n)
{
  for (size_t i = 0; i < n && i < sizeof twins / sizeof *twins; i++)
    if (twins[i]) ops[i].fn = twins[i];
}
#else
#include "emu/internal.h"
void emu__ops_avx2(emu_opdef *ops, size_t n) { (void)ops, (void)n; }
#endif
