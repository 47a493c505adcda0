/* emu/op_xlane — cross-lane semantics: ds_bpermute/permute/swizzle, DPP lane selection,
 * v_permlane16/32_swap, the transposing LDS reads. Placeholder: another author fills it in; until
 * then these instructions fault "unimplemented" when executed, and so does any DPP form. */
#include "emu/internal.h"

const emu_opdef emu_optab_xlane[] = {
    {NULL, NULL, 0},
};

const bool emu_dpp_implemented = false;

void emu_dpp_src(emu_wave *w, const emu_insn *in, const uint32_t *src, uint32_t *out)
{
  (void)w, (void)in;
  memcpy(out, src, EMU_LANES * sizeof *out); /* never reached while emu_dpp_implemented is false */
}

uint64_t emu_dpp_wmask(const emu_wave *w, const emu_insn *in)
{
  (void)w, (void)in;
  return ~0ull;
}
