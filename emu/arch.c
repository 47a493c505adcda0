/* emu/arch — the two arches lanelab emulates and the facts the loader and runtime key off.
 * ELF mach values: LLVM AMDGPUUsage, "AMDGPU EF_AMDGPU_MACH Values" (EF_AMDGPU_MACH_AMDGCN_GFX942
 * = 0x4c, _GFX950 = 0x4f), checked with llvm-readelf-22 on clang-22 output (docs/isa.md).
 * LDS sizes: 64 KiB per workgroup on CDNA3, 160 KiB on CDNA4 (docs/emulator.md, "Execution"; docs/isa.md "gfx942 vs gfx950"). */
#include <string.h>

#include "emu/emu.h"

static const struct {
  const char *name;
  uint32_t lds, mach;
} arches[EMU_NARCH] = {
    [EMU_GFX942] = {"gfx942", 64u * 1024, 0x4c},
    [EMU_GFX950] = {"gfx950", 160u * 1024, 0x4f},
};

const char *emu_arch_name(emu_arch a) { return (unsigned)a < EMU_NARCH ? arches[a].name : "unknown-arch"; }

bool emu_arch_parse(const char *s, emu_arch *out) {
  for (int a = 0; s && a < EMU_NARCH; a++)
    if (strcmp(s, arches[a].name) == 0) {
      if (out) *out = (emu_arch)a;
      return true;
    }
  return false;
}

uint32_t emu_arch_lds_bytes(emu_arch a) { return (unsigned)a < EMU_NARCH ? arches[a].lds : 0; }

uint32_t emu_arch_elf_mach(emu_arch a) { return (unsigned)a < EMU_NARCH ? arches[a].mach : 0; }
