/* isa/elf — what the guards need of a code object (arch, the .text bytes, the STT_FUNC symbols with
 * their extents), taken from the emulator's loader (emu_codeobj_load_code): one loader checks every
 * field of the ELF, its segments, kernel descriptors and metadata for the census, the diff and the
 * emulator alike (docs/isa.md "Code objects"); a code object the emulator would refuse is refused
 * here with the same message, except that one without a metadata note (hand-written, never meant to
 * be launched) is read for its code alone. */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"

isa_elf *isa_elf_read(const void *bytes, size_t n, const char *path, ll_err *err) {
  emu_codeobj *co = emu_codeobj_load_code(bytes, n, path ? path : "<memory>", err);
  if (!co) return NULL;
  isa_elf *e = ll_xcalloc(1, sizeof *e);
  snprintf(e->arch, sizeof e->arch, "%s", emu_arch_name(co->arch));
  e->e_flags = co->e_flags;
  e->text_vaddr = co->text_vaddr;
  e->text_size = co->text_size;
  e->text = ll_xmalloc(co->text_size ? co->text_size : 1);
  memcpy(e->text, co->image + co->text_vaddr, co->text_size);
  e->funcs = ll_xcalloc(co->nfuncs ? co->nfuncs : 1, sizeof *e->funcs);
  for (size_t i = 0; i < co->nfuncs; i++)
    e->funcs[i] = (isa_sym){ll_xstrdup(co->funcs[i].name), co->funcs[i].vaddr, co->funcs[i].size};
  e->nfuncs = co->nfuncs;
  emu_codeobj_free(co);
  return e;
}

isa_elf *isa_elf_read_file(const char *path, ll_err *err) {
  size_t n;
  void *d = ll_read_file_max(path, LL_CAP_CODEOBJ, &n, err);
  if (!d) return NULL;
  isa_elf *e = isa_elf_read(d, n, path, err);
  free(d);
  return e;
}

void isa_elf_free(isa_elf *e) {
  if (!e) return;
  for (size_t i = 0; i < e->nfuncs; i++) free(e->funcs[i].name);
  free(e->funcs);
  free(e->text);
  free(e);
}
