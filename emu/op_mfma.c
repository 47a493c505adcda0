/* emu/op_mfma — MFMA semantics (v_mfma_*, v_accvgpr_*): placeholder table. Another author fills
 * it in; until then every MFMA decodes and faults "unimplemented" when executed. */
#include "emu/internal.h"

const emu_opdef emu_optab_mfma[] = {
    {NULL, NULL, 0},
};
