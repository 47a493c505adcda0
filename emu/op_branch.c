/* emu/op_branch — program control: SOPP (CDNA3 ISA "SOPP Instructions"): s_endpgm, s_nop,
 * branches, s_barrier, s_waitcnt. */
#include "emu/internal.h"

/* s_endpgm: end of the wave's program. */
int emu_op_s_endpgm(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_END; }

/* s_nop: wait states only; no architectural effect in an in-order emulator. */
int emu_op_s_nop(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }
