/* emu/dpp — DPP lane selection for every *_dpp form, used by the shared operand helpers
 * (emu/operand.c): part of the core, so the op families depend on it and it on none of them. */
#include "emu/internal.h"

/* ---- DPP (CDNA3 ISA §12.x "DPP"; gfx9 rows are 16 lanes) ------------------------------------
 * Source lane of lane l for a DPP_CTRL value, or -1 when the control names no lane (shifted past
 * the row/wave edge, row 0 of row_bcast:15, rows 0-1 of row_bcast:31). */
static int dpp_lane(unsigned ctrl, int l)
{
  int row = l & ~15, r = l & 15;
  if (ctrl <= 0xff) return (l & ~3) | (ctrl >> (2 * (l & 3)) & 3);         /* quad_perm */
  if (ctrl >= 0x101 && ctrl <= 0x10f) { int n = ctrl & 15; return r + n <= 15 ? l + n : -1; } /* row_shl */
  if (ctrl >= 0x111 && ctrl <= 0x11f) { int n = ctrl & 15; return r >= n ? l - n : -1; }      /* row_shr */
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row | ((r - (int)(ctrl & 15)) & 15);             /* row_ror */
  switch (ctrl) {
  case 0x130: return l < 63 ? l + 1 : -1;  /* wave_shl:1 */
  case 0x134: return (l + 1) & 63;         /* wave_rol:1 */
  case 0x138: return l > 0 ? l - 1 : -1;   /* wave_shr:1 */
  case 0x13c: return (l + 63) & 63;        /* wave_ror:1 */
  case 0x140: return row | (15 - r);       /* row_mirror */
  case 0x141: return (l & ~7) | (7 - (l & 7)); /* row_half_mirror */
  case 0x142: return row ? row - 1 : -1;   /* row_bcast:15: lane 15 of the previous row */
  case 0x143: return l >= 32 ? 31 : -1;    /* row_bcast:31: lane 31 to rows 2 and 3 */
  }
  if (ctrl >= 0x150 && ctrl <= 0x15f) return row | (ctrl & 15); /* row_newbcast:n (gfx90a+) */
  return -1; /* the decoder accepts only the controls above */
}

const bool emu_dpp_implemented = true;

/* dpp_lane for every control the decoder accepts (0 .. 0x15f), made once: a lane's source lane, and
 * per control the lanes that have one (issue #31, fourteenth stop: dpp_lane's tests per lane and per
 * call were three quarters of a DPP reduction kernel's time) */
enum { DPP_NCTRL = 0x160 };
static uint32_t dpp_addr[DPP_NCTRL][EMU_LANES]; /* the source lane as ds_bpermute_b32's byte address (lane 63 for none) */
static uint64_t dpp_named[DPP_NCTRL];
__attribute__((constructor)) static void dpp_init(void)
{
  for (unsigned c = 0; c < DPP_NCTRL; c++)
    for (int l = 0; l < EMU_LANES; l++) {
      int s = dpp_lane(c, l);
      dpp_addr[c][l] = (uint32_t)(s & 63) * 4;
      if (s >= 0) dpp_named[c] |= 1ull << l;
    }
}
/* the lanes whose source lane is named and has its EXEC bit on */
static uint64_t dpp_valid(unsigned c, uint64_t e)
{
  if (e == ~0ull) return dpp_named[c];
  uint64_t v = 0;
  for (int l = 0; l < EMU_LANES; l++) v |= (e >> (dpp_addr[c][l] >> 2) & 1) << l;
  return v & dpp_named[c];
}

/* A source lane that the control does not name, or whose EXEC bit is off, is invalid: with
 * bound_ctrl it reads 0, without it the destination lane is not written (emu_dpp_wmask). */
void emu_dpp_src(emu_wave *w, const emu_insn *in, const uint32_t *src, uint32_t *out)
{
  const unsigned c = in->dpp_ctrl;
  uint32_t t[EMU_LANES];
  if (c >= DPP_NCTRL) { /* none the decoder accepts: no lane named */
    memset(out, 0, sizeof t);
    return;
  }
  static const uint32_t zero[EMU_LANES];
  /* the whole-wave gather of ds_bpermute_b32 (emu/simd.c: it reads every source lane before it
   * writes, so out may be src), then the invalid lanes zeroed */
  emu_bperm64(t, src, dpp_addr[c], 0);
  emu_sel64(out, zero, t, dpp_valid(c, emu_exec(w)));
}

uint64_t emu_dpp_wmask(const emu_wave *w, const emu_insn *in)
{
  /* row_mask bit r enables lanes 16r..16r+15; bank_mask bit b lanes 4b..4b+3 of every row */
  uint64_t rows = 0, banks = 0;
  for (int r = 0; r < 4; r++)
    if (in->row_mask >> r & 1) rows |= 0xffffull << (16 * r);
  for (int b = 0; b < 4; b++)
    if (in->bank_mask >> b & 1) banks |= 0x000f000f000f000full << (4 * b);
  if (in->bound_ctrl) return rows & banks;
  return in->dpp_ctrl < DPP_NCTRL ? rows & banks & dpp_valid(in->dpp_ctrl, emu_exec(w)) : 0;
}

