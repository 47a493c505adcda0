/* emu/lds_access — the LDS side of an instruction (emu_insn.lk, lop, lbytes, lai, loff0/1) and the
 * vector-memory form of a buffer/flat/global access (vmf, vmop, vmbytes), described once at decode
 * from its mnemonic: the LDS ordering check and the checkers (emu/observe.c) read them while the
 * kernel runs. The decoder calls emu_vm_form_prepare and emu_lds_access_prepare, the
 * observer emu_vm_bytes; this file calls no other file of emu/. */
#include <stdlib.h>

#include "emu/internal.h"

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* bytes per lane from a DS suffix: b8/u8/i8 1, b16/u16/i16 2, b32 4, b64 8, b96 12, b128 16 */
static uint32_t ds_bytes(const char *s)
{
  while (*s && !(s[0] >= '0' && s[0] <= '9')) s++;
  int bits = atoi(s);
  return bits >= 8 ? (uint32_t)bits / 8 : 4;
}

/* bytes per lane from a FLAT/GLOBAL/BUFFER suffix: dword 4, dwordx2/3/4, ubyte/sbyte/byte 1,
 * ushort/sshort/short 2 */
uint32_t emu_vm_bytes(const char *s)
{
  if (strstr(s, "dwordx")) return 4 * (uint32_t)atoi(strstr(s, "dwordx") + 6);
  if (strstr(s, "byte")) return 1;
  if (strstr(s, "short")) return 2;
  return 4;
}

/* The LDS side of an instruction, from its mnemonic (name: its op-table row's), once at decode
 * (emu_insn.lk ...; declared in emu/internal.h). DS address rules as emu/op_ds.c: lane address
 * VGPR + offset; ds_read2/ds_write2 two accesses at offset0/offset1 times the size (times 64 for
 * st64); atomics one access of 4 or 8 bytes. Cross-lane DS instructions (permute, swizzle) and the GWS/append/consume ones touch no
 * LDS bytes here; a DS form without a VGPR address (ds_read_addtid_b32) is not described and is
 * then neither checked nor recorded. */
/* A buffer, flat or global load, store or atomic: its family, operation, bytes per lane and whether
 * it loads to LDS (in->vmf stays 0 for anything else). Taken once per record at decode (name: its
 * op-table row's; also for a record refused later, which the observer describes as before), not at
 * each execution by the observer (the string tests were a sixth of an initcheck run of a global-memory benchmark,
 * docs/performance.md twenty-eighth stop). */
void emu_vm_form_prepare(emu_insn *in, const char *name)
{
  const bool buffer = starts(name, "buffer_"), flat = starts(name, "flat_");
  if (!buffer && !flat && !starts(name, "global_")) return;
  const bool to_lds = in->lds || strstr(name, "_load_lds_") != NULL;
  const char op = strstr(name, "_load_") ? 'r' : strstr(name, "_store_") ? 'w' : strstr(name, "_atomic_") ? 'a' : 0;
  if (!op || (to_lds && (op != 'r' || flat))) return;
  uint32_t bytes = emu_vm_bytes(name);
  if (op == 'a') {
    size_t len = strlen(name);
    bytes = (len > 3 && !strcmp(name + len - 3, "_x2")) || strstr(name, "f64") ? 8 : 4;
  }
  in->vmf = (uint8_t)(EMU_VMF_OK | (buffer ? EMU_VMF_BUFFER : 0) | (flat ? EMU_VMF_FLAT : 0) | (to_lds ? EMU_VMF_TO_LDS : 0));
  in->vmop = (uint8_t)op, in->vmbytes = (uint8_t)bytes;
}

void emu_lds_access_prepare(emu_insn *in, const char *name)
{
  in->lk = EMU_LK_NONE;
  in->lop = in->lbytes = in->lai = 0;
  in->loff0 = in->loff1 = 0;
  uint32_t f = in->flags;
  if (in->op == 0xffff || !(f & (EMU_F_DS | EMU_F_VMEM))) return;
  if (f & EMU_F_DS) {
    int ai;
    char op;
    uint32_t bytes, off0 = (uint32_t)in->offset, off1 = 0;
    uint8_t lk = EMU_LK_DS;
    if (strstr(name, "permute") || strstr(name, "swizzle") || !strcmp(name, "ds_nop") || strstr(name, "gws") ||
        strstr(name, "append") || strstr(name, "consume") || strstr(name, "addtid") || strstr(name, "wrxchg2"))
      return;
    if (strstr(name, "_tr_")) { /* ds_read_b64_tr_b16 ...: bytes per lane from the b64/b96 */
      op = 'r', ai = 1, bytes = ds_bytes(name + 7);
    } else if (starts(name, "ds_read2") || starts(name, "ds_write2")) {
      bool rd = starts(name, "ds_read2");
      op = rd ? 'r' : 'w', ai = rd ? 1 : 0;
      bytes = strstr(name, "b64") ? 8 : 4;
      uint32_t stride = strstr(name, "st64") ? 64 : 1;
      off0 = (uint32_t)in->offset0 * bytes * stride, off1 = (uint32_t)in->offset1 * bytes * stride;
      lk = EMU_LK_DS2;
    } else if (starts(name, "ds_read_")) {
      op = 'r', ai = 1, bytes = ds_bytes(name + 8);
    } else if (starts(name, "ds_write_")) {
      op = 'w', ai = 0, bytes = ds_bytes(name + 9);
    } else { /* atomics: [vdst,] vaddr, data... */
      op = 'a', ai = strstr(name, "_rtn") ? 1 : 0;
      size_t len = strlen(name);
      bytes = len > 2 && !strcmp(name + len - 2, "64") ? 8 : 4;
    }
    if (ai >= in->nop || in->o[ai].kind != EMU_OPK_VGPR) return;
    in->lk = lk, in->lop = (uint8_t)op, in->lbytes = (uint8_t)bytes, in->lai = (uint8_t)ai;
    in->loff0 = off0, in->loff1 = off1;
    return;
  }
  bool buffer = starts(name, "buffer_"), flat = starts(name, "flat_");
  bool load = strstr(name, "_load_") != NULL;
  if ((buffer || starts(name, "global_")) && load && (in->lds || strstr(name, "_load_lds_"))) {
    in->lk = EMU_LK_LOADLDS, in->lop = 'w', in->lbytes = (uint8_t)emu_vm_bytes(name);
  } else if (flat && (load || strstr(name, "_store_") || strstr(name, "_atomic_"))) {
    in->lk = EMU_LK_FLAT, in->lop = load ? 'r' : strstr(name, "_store_") ? 'w' : 'a';
  }
}
