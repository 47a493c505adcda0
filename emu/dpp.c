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

/* A source lane that the control does not name, or whose EXEC bit is off, is invalid: with
 * bound_ctrl it reads 0, without it the destination lane is not written (emu_dpp_wmask). */
void emu_dpp_src(emu_wave *w, const emu_insn *in, const uint32_t *src, uint32_t *out)
{
  uint64_t e = emu_exec(w);
  uint32_t t[EMU_LANES];
  for (int l = 0; l < EMU_LANES; l++) {
    int s = dpp_lane(in->dpp_ctrl, l);
    t[l] = (s >= 0 && (e >> s & 1)) ? src[s] : 0;
  }
  memcpy(out, t, sizeof t); /* out may be src */
}

uint64_t emu_dpp_wmask(const emu_wave *w, const emu_insn *in)
{
  uint64_t m = 0, e = emu_exec(w);
  for (int l = 0; l < EMU_LANES; l++) {
    /* row_mask bit = row l/16, bank_mask bit = bank (l/4)%4 within the row */
    if (!(in->row_mask >> (l >> 4) & 1) || !(in->bank_mask >> ((l >> 2) & 3) & 1)) continue;
    int s = dpp_lane(in->dpp_ctrl, l);
    if (in->bound_ctrl || (s >= 0 && (e >> s & 1))) m |= 1ull << l;
  }
  return m;
}

