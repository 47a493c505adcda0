/* isa/elf — the smallest ELF64 reader the guards need: arch from e_flags, the .text bytes and the
 * STT_FUNC symbols (kernel entries) with their sizes (st_size, or up to the next function / end of
 * .text when st_size is 0). emu/loader.c is the full loader; it does not
 * expose symbol sizes, which the census needs to leave the s_nop padding after s_endpgm out.
 *
 * Facts (LLVM AMDGPUUsage "ELF Code Object", docs/isa.md "Code objects"): ELF64 little
 * endian, e_machine 224 (EM_AMDGPU), arch in e_flags & 0xff: 0x4c gfx942, 0x4f gfx950. Field
 * offsets are the System V gABI ELF64 ones. Every offset/size read from the file is checked against
 * the file size before use. */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* [off, off+len) inside [0, n)? (overflow-safe) */
static bool inside(uint64_t off, uint64_t len, size_t n) { return off <= n && len <= n - off; }

typedef struct shdr {
  uint32_t name, type;
  uint64_t flags, addr, offset, size;
  uint32_t link, info;
  uint64_t entsize;
} shdr;

enum { SHT_SYMTAB = 2, SHT_NOBITS = 8, SHT_DYNSYM = 11, STT_FUNC = 2, EM_AMDGPU = 224 };

static int sym_cmp(const void *a, const void *b) {
  const isa_sym *x = a, *y = b;
  return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

isa_elf *isa_elf_read(const void *bytes, size_t n, const char *path, ll_err *err) {
  const uint8_t *d = bytes;
  if (!path) path = "<memory>";
#define BAD(...) do { ll_seterr(err, LL_EXIT_USAGE, __VA_ARGS__); ll_err_prefix(err, "%s", path); goto fail; } while (0)
  isa_elf *e = ll_xcalloc(1, sizeof *e);
  shdr *sh = NULL;
  if (n < 64 || memcmp(d, "\x7f" "ELF", 4) != 0) BAD("not an ELF file (%zu bytes)", n);
  if (d[4] != 2 || d[5] != 1) BAD("not a little-endian ELF64 file (class %u, data %u)", d[4], d[5]);
  if (rd16(d + 18) != EM_AMDGPU) BAD("e_machine is %u, expected 224 (EM_AMDGPU)", rd16(d + 18));
  e->e_flags = rd32(d + 48);
  switch (e->e_flags & 0xff) {
    case 0x4c: strcpy(e->arch, "gfx942"); break;
    case 0x4f: strcpy(e->arch, "gfx950"); break;
    default: BAD("e_flags 0x%x names arch 0x%x; lanelab handles gfx942 (0x4c) and gfx950 (0x4f)", e->e_flags,
                 e->e_flags & 0xff);
  }
  uint64_t shoff = rd64(d + 40);
  uint16_t shentsize = rd16(d + 58), shnum = rd16(d + 60), shstrndx = rd16(d + 62);
  if (shnum == 0) BAD("no section headers");
  if (shentsize < 64) BAD("e_shentsize %u < 64", shentsize);
  if (!inside(shoff, (uint64_t)shentsize * shnum, n)) BAD("section headers at 0x%llx run past the end", (unsigned long long)shoff);
  if (shstrndx >= shnum) BAD("e_shstrndx %u out of range (%u sections)", shstrndx, shnum);
  sh = ll_xcalloc(shnum, sizeof *sh);
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *p = d + shoff + (uint64_t)i * shentsize;
    sh[i] = (shdr){rd32(p), rd32(p + 4), rd64(p + 8), rd64(p + 16), rd64(p + 24), rd64(p + 32),
                   rd32(p + 40), rd32(p + 44), rd64(p + 56)};
    if (sh[i].type != SHT_NOBITS && sh[i].type != 0 && !inside(sh[i].offset, sh[i].size, n))
      BAD("section %u (offset 0x%llx, size 0x%llx) runs past the end of the file", i,
          (unsigned long long)sh[i].offset, (unsigned long long)sh[i].size);
  }
  const shdr *ss = &sh[shstrndx];
  if (ss->type == SHT_NOBITS || ss->type == 0) BAD("section name table %u has no bytes", shstrndx);
  int text = -1;
  for (unsigned i = 0; i < shnum; i++) {
    if (sh[i].name >= ss->size) BAD("section %u name offset out of range", i);
    const char *nm = (const char *)d + ss->offset + sh[i].name;
    if (!memchr(nm, 0, ss->size - sh[i].name)) BAD("section %u name not terminated", i);
    if (strcmp(nm, ".text") == 0) text = (int)i;
  }
  if (text < 0) BAD("no .text section");
  if (sh[text].type == SHT_NOBITS || sh[text].type == 0) BAD(".text has no bytes (type %u)", sh[text].type);
  e->text_vaddr = sh[text].addr;
  e->text_size = sh[text].size;
  e->text = ll_xmalloc(e->text_size ? e->text_size : 1);
  memcpy(e->text, d + sh[text].offset, e->text_size);
  /* Symbols: .symtab if present (complete), else .dynsym (kernels are exported there too). */
  int st = -1;
  for (unsigned i = 0; i < shnum; i++) if (sh[i].type == SHT_SYMTAB) st = (int)i;
  if (st < 0) for (unsigned i = 0; i < shnum; i++) if (sh[i].type == SHT_DYNSYM) st = (int)i;
  if (st >= 0) {
    const shdr *s = &sh[st];
    if (s->entsize < 24) BAD("symbol table entsize %llu < 24", (unsigned long long)s->entsize);
    if (s->link >= shnum) BAD("symbol table string section %u out of range", s->link);
    const shdr *str = &sh[s->link];
    if (str->type == SHT_NOBITS || str->type == 0) BAD("symbol string table %u has no bytes", s->link);
    for (uint64_t k = 0; k < s->size / s->entsize; k++) {
      const uint8_t *p = d + s->offset + k * s->entsize;
      uint32_t nm = rd32(p);
      uint8_t info = p[4];
      uint16_t shndx = rd16(p + 6);
      uint64_t val = rd64(p + 8), size = rd64(p + 16);
      if ((info & 0xf) != STT_FUNC || shndx != (uint16_t)text) continue;
      if (nm >= str->size || !memchr(d + str->offset + nm, 0, str->size - nm)) BAD("symbol %llu name out of range", (unsigned long long)k);
      const char *name = (const char *)d + str->offset + nm;
      if (val < e->text_vaddr || val - e->text_vaddr > e->text_size || size > e->text_size - (val - e->text_vaddr))
        BAD("function %s [0x%llx, +0x%llx) lies outside .text [0x%llx, +0x%llx)", name, (unsigned long long)val,
            (unsigned long long)size, (unsigned long long)e->text_vaddr, (unsigned long long)e->text_size);
      bool dup = false;
      for (size_t j = 0; j < e->nfuncs; j++) dup |= strcmp(e->funcs[j].name, name) == 0 && e->funcs[j].vaddr == val;
      if (dup) continue;
      e->funcs = ll_xrealloc(e->funcs, (e->nfuncs + 1) * sizeof *e->funcs);
      e->funcs[e->nfuncs++] = (isa_sym){ll_xstrdup(name), val, size};
    }
  }
  if (e->nfuncs) qsort(e->funcs, e->nfuncs, sizeof *e->funcs, sym_cmp);
  /* Hand-written kernels (AMD's aiter .s files) set no .size, so st_size is 0: such a function
   * extends to the next function symbol above it, else to the end of .text (the same rule as
   * emu/loader.c's code_extent). */
  for (size_t i = 0; i < e->nfuncs; i++) {
    if (e->funcs[i].size) continue;
    uint64_t end = e->text_vaddr + e->text_size;
    for (size_t j = i + 1; j < e->nfuncs; j++)
      if (e->funcs[j].vaddr > e->funcs[i].vaddr) { end = e->funcs[j].vaddr; break; }
    e->funcs[i].size = end - e->funcs[i].vaddr;
  }
  free(sh);
  return e;
fail:
#undef BAD
  free(sh);
  isa_elf_free(e);
  return NULL;
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
