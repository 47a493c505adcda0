/* emu/loader — AMDGPU ELF code objects (v4, v5, v6) as clang-22 and hand-written assembly (AMD's
 * aiter kernels) produce them: loadable image by virtual address, .text, symbols, 64-byte kernel
 * descriptors, and the MessagePack metadata note.
 *
 * Leniencies (what ROCm's loader accepts and a strict reading of AMDGPUUsage would not; each one
 * applied is recorded in emu_codeobj.notes, and docs/emulator-choices.md "Loader" lists them):
 * code object v4; metadata amdhsa.version [1,0]/[1,1] in a v5/v6 object; descriptor KERNARG_SIZE
 * 0 or different from the metadata's .kernarg_segment_size; arguments that end past the segment
 * size. The kernarg segment lanelab allocates is the largest of the three sizes.
 *
 * Format facts, all from LLVM's AMDGPUUsage (sections named inline) and the ELF-64 gABI, checked
 * against llvm-readelf-22 / llvm-objdump-22 on clang-22 output (docs/isa.md "Code
 * objects (for the loader)"). Every read is bounds-checked; anything malformed, truncated, of the
 * wrong machine or of an unknown arch is LL_EXIT_USAGE with the reason and where. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/internal.h"
#include "emu/msgpack.h"

/* ELF-64 gABI and AMDGPUUsage "AMDGPU ELF Header" / "ELF Header Enumeration Values". */
enum {
  EHDR_SIZE = 64, PHDR_SIZE = 56, SHDR_SIZE = 64, SYM_SIZE = 24,
  ELFCLASS64 = 2, ELFDATA2LSB = 1, ET_REL = 1, ET_DYN = 3, EM_AMDGPU = 224,
  ELFOSABI_AMDGPU_HSA = 64,
  ELFABIVERSION_AMDGPU_HSA_V4 = 2, ELFABIVERSION_AMDGPU_HSA_V5 = 3, ELFABIVERSION_AMDGPU_HSA_V6 = 4,
  PT_LOAD = 1, PT_NOTE = 4,
  SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_RELA = 4, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_DYNSYM = 11,
  SHF_ALLOC = 2, RELA_SIZE = 24,
  /* AMDGPUUsage "Relocation Records" */
  R_AMDGPU_NONE = 0, R_AMDGPU_ABS64 = 3, R_AMDGPU_RELATIVE64 = 13,
  STT_OBJECT = 1, STT_FUNC = 2,
  NT_AMDGPU_METADATA = 32, /* AMDGPUUsage "Code Object V3+ Note Records", owner "AMDGPU" */
  KD_SIZE = 64,            /* AMDGPUUsage "Kernel Descriptor" */
};
/* AMDGPUUsage "AMDGPU ELF Header e_flags for Code Object V4 and After": EF_AMDGPU_MACH is bits
 * 7:0, EF_AMDGPU_GENERIC_VERSION bits 31:24 (nonzero only for generic targets, e.g.
 * gfx9-4-generic = 0x5f, which llvm-readelf-22 prints as "gfx9-4-generic, generic_v1"). */
#define EF_AMDGPU_MACH_MASK 0xffu
#define EF_AMDGPU_GENERIC_VERSION_SHIFT 24
#define EF_AMDGPU_MACH_GFX9_4_GENERIC 0x5fu
/* A corrupted header must not make us allocate gigabytes: no real code object maps this much. */
#define IMAGE_MAX ((uint64_t)1 << 30)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* [off, off+len) inside [0, n)? Written so that it cannot overflow. */
static bool in_range(uint64_t off, uint64_t len, uint64_t n) { return off <= n && len <= n - off; }

typedef struct {
  const uint8_t *p;
  size_t n;
  const char *path;
  ll_err *err;
  int text_idx;                   /* the .text section's index */
  uint16_t shnum;
  uint64_t shoff;
  const uint8_t *shstr;
  uint64_t shstr_size;
} elf;

static bool bad(elf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(elf *e, const char *fmt, ...) {
  char m[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  ll_seterr(e->err, LL_EXIT_USAGE, "%s: %s", e->path, m);
  return false;
}

/* Record a leniency that was applied (emu_codeobj.notes: one line each). */
static void note(emu_codeobj *co, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(emu_codeobj *co, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  char *old = co->notes;
  co->notes = old ? ll_fmt("%s\n%s", old, m) : ll_xstrdup(m);
  free(old);
}

static const uint8_t *shdr(elf *e, unsigned i) { return e->p + e->shoff + (uint64_t)i * SHDR_SIZE; }

/* Section name, or NULL if the name offset is bad / not NUL-terminated. */
static const char *sec_name(elf *e, unsigned i) {
  if (!e->shstr) return NULL;
  uint32_t off = rd32(shdr(e, i));
  if (off >= e->shstr_size || !memchr(e->shstr + off, 0, e->shstr_size - off)) return NULL;
  return (const char *)e->shstr + off;
}

/* Contents of a section that occupies file bytes; checks they lie inside the file. */
static bool sec_bytes(elf *e, unsigned i, const uint8_t **data, uint64_t *size) {
  const uint8_t *s = shdr(e, i);
  uint64_t off = rd64(s + 24), sz = rd64(s + 32);
  if (rd32(s + 4) == SHT_NOBITS) sz = 0;
  if (!in_range(off, sz, e->n))
    return bad(e, "section %u (%s) at file offset %" PRIu64 " size %" PRIu64
                  " runs past the end of the file (%zu bytes)", i, sec_name(e, i) ? sec_name(e, i) : "?",
               off, sz, e->n);
  *data = e->p + off;
  *size = sz;
  return true;
}

static bool check_header(elf *e, emu_codeobj *co) {
  const uint8_t *h = e->p;
  if (e->n < EHDR_SIZE)
    return bad(e, "file is %zu bytes, shorter than an ELF-64 header (64 bytes)", e->n);
  if (memcmp(h, "\177ELF", 4) != 0) return bad(e, "not an ELF file (bad magic)");
  if (h[4] != ELFCLASS64) return bad(e, "ELF class %u, expected ELFCLASS64 (2)", h[4]);
  if (h[5] != ELFDATA2LSB) return bad(e, "ELF data encoding %u, expected little-endian (1)", h[5]);
  uint16_t mach = rd16(h + 18);
  if (mach != EM_AMDGPU)
    return bad(e, "ELF machine %u, expected EM_AMDGPU (224): not an AMDGPU code object", mach);
  if (h[7] != ELFOSABI_AMDGPU_HSA)
    return bad(e, "ELF OS/ABI %u, expected ELFOSABI_AMDGPU_HSA (64)", h[7]);
  /* AMDGPUUsage "ELF Header Enumeration Values": ABI version 3 = code object v5, 4 = v6. */
  switch (h[8]) {
  case ELFABIVERSION_AMDGPU_HSA_V4: co->code_object_version = 4; break;
  case ELFABIVERSION_AMDGPU_HSA_V5: co->code_object_version = 5; break;
  case ELFABIVERSION_AMDGPU_HSA_V6: co->code_object_version = 6; break;
  default:
    /* v3 and older are refused: v3 encodes xnack/sramecc as single e_flags bits (AMDGPUUsage
     * "e_flags for Code Object V3") where v4+ use 2-bit settings, and v2 has no MessagePack
     * metadata at all; none of AMD's gfx942/gfx950 objects use them. */
    return bad(e, "ELF ABI version %u is code object v%d; lanelab loads v4, v5 and v6 "
                  "(ABI versions 2, 3 and 4; clang -mcode-object-version=4, 5 or 6)",
               h[8], h[8] + 2);
  }
  uint16_t type = rd16(h + 16);
  if (type == ET_REL)
    return bad(e, "relocatable object (ET_REL), not a linked code object: link it with ld.lld "
                  "(clang -fuse-ld=lld --ld-path=/usr/lib/llvm-22/bin/ld.lld)");
  if (type != ET_DYN) return bad(e, "ELF type %u, expected ET_DYN (3)", type);
  uint32_t flags = rd32(h + 48);
  co->e_flags = flags;
  uint32_t m = flags & EF_AMDGPU_MACH_MASK, gen = flags >> EF_AMDGPU_GENERIC_VERSION_SHIFT;
  if (m == EF_AMDGPU_MACH_GFX9_4_GENERIC)
    return bad(e, "e_flags 0x%x: generic target gfx9-4-generic (generic_v%u); lanelab emulates "
                  "gfx942 and gfx950 only: compile with --offload-arch=gfx942 or gfx950",
               flags, gen);
  bool found = false;
  for (int a = 0; a < EMU_NARCH; a++)
    if (emu_arch_elf_mach((emu_arch)a) == m) { co->arch = (emu_arch)a; found = true; }
  if (!found)
    return bad(e, "unknown arch: e_flags 0x%x has EF_AMDGPU_MACH 0x%02x; lanelab supports gfx942 "
                  "(0x4c) and gfx950 (0x4f)", flags, m);
  if (gen != 0)
    return bad(e, "e_flags 0x%x sets generic version %u but %s is not a generic target", flags, gen,
               emu_arch_name(co->arch));
  return true;
}

static bool map_segments(elf *e, emu_codeobj *co) {
  const uint8_t *h = e->p;
  uint64_t phoff = rd64(h + 32);
  uint16_t phentsize = rd16(h + 54), phnum = rd16(h + 56);
  if (phnum == 0) return bad(e, "no program headers: nothing to load");
  if (phentsize != PHDR_SIZE) return bad(e, "program header size %u, expected 56", phentsize);
  if (!in_range(phoff, (uint64_t)phnum * PHDR_SIZE, e->n))
    return bad(e, "program headers (%u at offset %" PRIu64 ") run past the end of the file (%zu bytes)",
               phnum, phoff, e->n);
  uint64_t end = 0;
  int nload = 0;
  for (unsigned i = 0; i < phnum; i++) {
    const uint8_t *ph = h + phoff + (uint64_t)i * PHDR_SIZE;
    if (rd32(ph) != PT_LOAD) continue;
    uint64_t off = rd64(ph + 8), va = rd64(ph + 16), fsz = rd64(ph + 32), msz = rd64(ph + 40);
    if (fsz > msz)
      return bad(e, "PT_LOAD %u: file size %" PRIu64 " > memory size %" PRIu64, i, fsz, msz);
    if (!in_range(off, fsz, e->n))
      return bad(e, "PT_LOAD %u: bytes [%" PRIu64 ", +%" PRIu64 ") run past the end of the file (%zu bytes)",
                 i, off, fsz, e->n);
    if (va > IMAGE_MAX || msz > IMAGE_MAX - va)
      return bad(e, "PT_LOAD %u: vaddr 0x%" PRIx64 " + size %" PRIu64 " exceeds the 1 GiB image limit",
                 i, va, msz);
    if (va + msz > end) end = va + msz;
    nload++;
  }
  if (!nload) return bad(e, "no PT_LOAD segment");
  co->image_size = end;
  co->image = ll_xcalloc(end ? end : 1, 1);
  for (unsigned i = 0; i < phnum; i++) {
    const uint8_t *ph = h + phoff + (uint64_t)i * PHDR_SIZE;
    if (rd32(ph) != PT_LOAD) continue;
    memcpy(co->image + rd64(ph + 16), h + rd64(ph + 8), rd64(ph + 32));
  }
  return true;
}

static bool read_sections(elf *e) {
  const uint8_t *h = e->p;
  e->shoff = rd64(h + 40);
  uint16_t shentsize = rd16(h + 58), shstrndx = rd16(h + 62);
  e->shnum = rd16(h + 60);
  if (e->shnum == 0)
    return bad(e, "no section headers (or extended section numbering, which code objects never use)");
  if (shentsize != SHDR_SIZE) return bad(e, "section header size %u, expected 64", shentsize);
  if (!in_range(e->shoff, (uint64_t)e->shnum * SHDR_SIZE, e->n))
    return bad(e, "section headers (%u at offset %" PRIu64 ") run past the end of the file (%zu bytes)",
               e->shnum, e->shoff, e->n);
  if (shstrndx >= e->shnum)
    return bad(e, "section name table index %u >= section count %u", shstrndx, e->shnum);
  const uint8_t *d;
  uint64_t sz;
  if (!sec_bytes(e, shstrndx, &d, &sz)) return false;
  e->shstr = d;
  e->shstr_size = sz;
  return true;
}

/* The loaded image must hold a section's bytes exactly as the file does (sections by vaddr). */
static bool find_text(elf *e, emu_codeobj *co) {
  int found = -1;
  for (unsigned i = 0; i < e->shnum; i++) {
    const char *nm = sec_name(e, i);
    if (nm && strcmp(nm, ".text") == 0) {
      if (found >= 0) return bad(e, "two .text sections (%d and %u)", found, i);
      found = (int)i;
    }
  }
  if (found < 0) return bad(e, "no .text section");
  const uint8_t *s = shdr(e, found), *d;
  uint64_t sz;
  if (rd32(s + 4) != SHT_PROGBITS) return bad(e, ".text is not SHT_PROGBITS");
  if (!sec_bytes(e, found, &d, &sz)) return false;
  uint64_t va = rd64(s + 16);
  if (!in_range(va, sz, co->image_size))
    return bad(e, ".text at vaddr 0x%" PRIx64 " size %" PRIu64 " is not inside the loaded image "
                  "(0x%" PRIx64 " bytes)", va, sz, co->image_size);
  if (memcmp(co->image + va, d, sz) != 0)
    return bad(e, ".text bytes at vaddr 0x%" PRIx64 " differ from its PT_LOAD mapping", va);
  co->text_vaddr = va;
  co->text_size = sz;
  e->text_idx = found;
  return true;
}

/* ---- symbols --------------------------------------------------------------------------------*/
typedef struct {
  const uint8_t *syms;
  uint64_t nsyms;
  const uint8_t *str;
  uint64_t strsz;
} symtab;

static bool find_symtab(elf *e, symtab *st) {
  int idx = -1;
  for (unsigned i = 0; i < e->shnum && idx < 0; i++) /* prefer .symtab ... */
    if (rd32(shdr(e, i) + 4) == SHT_SYMTAB) idx = (int)i;
  for (unsigned i = 0; i < e->shnum && idx < 0; i++) /* ... else .dynsym (a stripped object) */
    if (rd32(shdr(e, i) + 4) == SHT_DYNSYM) idx = (int)i;
  if (idx < 0) return bad(e, "no symbol table (.symtab or .dynsym)");
  const uint8_t *s = shdr(e, idx);
  uint64_t sz;
  if (!sec_bytes(e, idx, &st->syms, &sz)) return false;
  if (rd64(s + 56) != SYM_SIZE) return bad(e, "symbol table entry size %" PRIu64 ", expected 24", rd64(s + 56));
  st->nsyms = sz / SYM_SIZE;
  uint32_t link = rd32(s + 40);
  if (link >= e->shnum) return bad(e, "symbol table's string table index %u out of range", link);
  return sec_bytes(e, link, &st->str, &st->strsz);
}

/* Finds a symbol by name; returns its entry or NULL. */
static const uint8_t *find_sym(const symtab *st, const char *name) {
  size_t k = strlen(name);
  for (uint64_t i = 1; i < st->nsyms; i++) {
    const uint8_t *s = st->syms + i * SYM_SIZE;
    uint32_t off = rd32(s);
    if (off < st->strsz && st->strsz - off > k && memcmp(st->str + off, name, k + 1) == 0) return s;
  }
  return NULL;
}

/* Defined data and function symbols (STT_OBJECT / STT_FUNC with a section: __device__ and
 * __constant__ variables, device functions), kept for runtimes that look variables up by name
 * (HIP's __hipRegisterVar, hipModuleGetGlobal) and reports that name the function of a PC. */
static void read_symbols(const symtab *st, emu_codeobj *co) {
  for (uint64_t i = 1; i < st->nsyms; i++) {
    const uint8_t *y = st->syms + i * SYM_SIZE;
    uint32_t off = rd32(y);
    int type = y[4] & 0xf;
    if ((type != STT_OBJECT && type != STT_FUNC) || rd16(y + 6) == 0 || off >= st->strsz) continue;
    const char *nm = (const char *)st->str + off;
    if (!memchr(nm, 0, st->strsz - off) || !nm[0]) continue;
    co->symbols = ll_xrealloc(co->symbols, (co->nsymbols + 1) * sizeof *co->symbols);
    co->symbols[co->nsymbols++] = (emu_symbol){ll_xstrdup(nm), rd64(y + 8), rd64(y + 16), type == STT_FUNC};
  }
}

const emu_symbol *emu_codeobj_symbol(const emu_codeobj *co, const char *name) {
  for (size_t i = 0; i < co->nsymbols; i++)
    if (!strcmp(co->symbols[i].name, name)) return &co->symbols[i];
  return NULL;
}

/* ---- debug line table (emu/dwarf.c) -------------------------------------------------------------
 * Optional: a missing .debug_line means no file:line; one that cannot be read is noted, never a
 * load error. */
static bool debug_sec(elf *e, const char *name, const uint8_t **p, size_t *n, bool *compressed) {
  for (unsigned i = 0; i < e->shnum; i++) {
    const char *nm = sec_name(e, i);
    if (!nm || strcmp(nm, name)) continue;
    const uint8_t *s = shdr(e, i);
    uint64_t off = rd64(s + 24), sz = rd64(s + 32);
    if (rd64(s + 8) & 0x800) *compressed = true; /* SHF_COMPRESSED */
    if (rd32(s + 4) == SHT_NOBITS || !in_range(off, sz, e->n)) return false;
    *p = e->p + off, *n = (size_t)sz;
    return true;
  }
  return false;
}

static void read_lines(elf *e, emu_codeobj *co) {
  const uint8_t *line = NULL, *lstr = NULL, *str = NULL;
  size_t nline = 0, nlstr = 0, nstr = 0;
  bool compressed = false;
  if (!debug_sec(e, ".debug_line", &line, &nline, &compressed)) return;
  debug_sec(e, ".debug_line_str", &lstr, &nlstr, &compressed);
  debug_sec(e, ".debug_str", &str, &nstr, &compressed);
  if (compressed) {
    note(co, "debug sections are compressed (-gz): not read, so findings name no file:line");
    return;
  }
  char why[160];
  /* .debug_info: the DWARF 2-4 units' compilation directories for the line tables' relative paths,
   * and where inlined code was inlined (optional like the lines: unreadable, noted, none kept) */
  emu_dbg_secs ds = {.str = str, .nstr = nstr, .line_str = lstr, .nline_str = nlstr};
  bool info = debug_sec(e, ".debug_info", &ds.info, &ds.ninfo, &compressed) &&
              debug_sec(e, ".debug_abbrev", &ds.abbrev, &ds.nabbrev, &compressed) && !compressed;
  emu_comp_dirs cd = {0};
  if (info) emu__comp_dirs(&ds, &cd);
  emu_line_units lu = {0};
  emu__read_lines(co, line, nline, lstr, nlstr, str, nstr, &cd, &lu, why, sizeof why);
  free(cd.v);
  if (why[0]) note(co, ".debug_line: %s; findings name no file:line", why);
  if (co->nlines && info) {
    debug_sec(e, ".debug_rnglists", &ds.rnglists, &ds.nrnglists, &compressed);
    debug_sec(e, ".debug_ranges", &ds.ranges, &ds.nranges, &compressed);
    debug_sec(e, ".debug_addr", &ds.addr, &ds.naddr, &compressed);
    if (!compressed) {
      emu__read_inlines(co, &ds, &lu, why, sizeof why);
      if (why[0]) note(co, ".debug_info: %s; findings name no line an inlined call was inlined at", why);
    }
  }
  emu__line_units_free(&lu);
}

/* ---- dynamic relocations --------------------------------------------------------------------
 * A linked code object is a shared object: pointers stored in its data (a table of pointers to
 * __device__ variables, a vtable) are left to the loader as .rela.dyn entries (AMDGPUUsage
 * "Relocation Records": R_AMDGPU_RELATIVE64 = B + A, R_AMDGPU_ABS64 = S + A, with B the load
 * address and S a symbol's address, which here is B + its st_value). Code reaches its own data
 * PC-relatively and needs none. Any other type, or a symbol the object does not define, is
 * refused by name: running with an unrelocated pointer would be silently wrong. */
static bool read_relocs(elf *e, emu_codeobj *co) {
  for (unsigned i = 0; i < e->shnum; i++) {
    const uint8_t *s = shdr(e, i);
    if (rd32(s + 4) != SHT_RELA || !(rd64(s + 8) & SHF_ALLOC)) continue; /* only what a loader applies */
    const char *nm = sec_name(e, i) ? sec_name(e, i) : "?";
    const uint8_t *d;
    uint64_t sz;
    if (!sec_bytes(e, i, &d, &sz)) return false;
    if (rd64(s + 56) != RELA_SIZE) return bad(e, "%s: entry size %" PRIu64 ", expected 24", nm, rd64(s + 56));
    uint32_t link = rd32(s + 40);
    const uint8_t *syms = NULL;
    uint64_t nsyms = 0, symsz = 0;
    if (link && link < e->shnum) {
      if (!sec_bytes(e, link, &syms, &symsz)) return false;
      nsyms = symsz / SYM_SIZE;
    }
    for (uint64_t r = 0; r < sz / RELA_SIZE; r++) {
      const uint8_t *x = d + r * RELA_SIZE;
      uint64_t off = rd64(x), info = rd64(x + 8), addend = rd64(x + 16);
      uint32_t type = (uint32_t)info, sym = (uint32_t)(info >> 32);
      if (type == R_AMDGPU_NONE) continue;
      if (!in_range(off, 8, co->image_size))
        return bad(e, "%s entry %" PRIu64 ": relocation at 0x%" PRIx64 " is outside the loaded image (%" PRIu64 " bytes)",
                   nm, r, off, co->image_size);
      uint64_t value;
      if (type == R_AMDGPU_RELATIVE64) {
        value = addend;
      } else if (type == R_AMDGPU_ABS64) {
        if (sym >= nsyms || sym == 0) return bad(e, "%s entry %" PRIu64 ": symbol index %u out of range", nm, r, sym);
        const uint8_t *y = syms + (uint64_t)sym * SYM_SIZE;
        if (rd16(y + 6) == 0) /* SHN_UNDEF: nothing here defines it */
          return bad(e, "%s entry %" PRIu64 ": R_AMDGPU_ABS64 at 0x%" PRIx64 " refers to an undefined symbol "
                        "(symbol %u); lanelab loads one code object on its own and links nothing into it", nm, r, off, sym);
        value = rd64(y + 8) + addend;
      } else {
        return bad(e, "%s entry %" PRIu64 ": relocation type %u at 0x%" PRIx64 " is not supported (the emulator "
                      "applies R_AMDGPU_RELATIVE64 (13) and R_AMDGPU_ABS64 (3))", nm, r, type, off);
      }
      co->relocs = ll_xrealloc(co->relocs, (co->nrelocs + 1) * sizeof *co->relocs);
      co->relocs[co->nrelocs++] = (struct emu_reloc){off, value};
    }
  }
  return true;
}

void emu_codeobj_relocate(const emu_codeobj *co, uint8_t *image, uint64_t base) {
  for (size_t i = 0; i < co->nrelocs; i++) {
    uint64_t v = base + co->relocs[i].value;
    memcpy(image + co->relocs[i].offset, &v, 8); /* little-endian host, as the target */
  }
}

/* ---- metadata note --------------------------------------------------------------------------*/
/* ELF note records: namesz, descsz, type (4 bytes each), name and desc each padded to 4 bytes
 * (gABI "Note Section"; AMDGPUUsage "Note Records" says AMDGPU notes use 4-byte alignment). */
static bool find_metadata(elf *e, const uint8_t **desc, uint64_t *descsz, bool required) {
  *desc = NULL;
  for (unsigned i = 0; i < e->shnum; i++) {
    if (rd32(shdr(e, i) + 4) != SHT_NOTE) continue;
    const uint8_t *d;
    uint64_t sz, at = 0;
    if (!sec_bytes(e, i, &d, &sz)) return false;
    while (at < sz) {
      if (sz - at < 12) return bad(e, "note section %u: truncated note header at offset %" PRIu64, i, at);
      uint32_t namesz = rd32(d + at), dsz = rd32(d + at + 4), type = rd32(d + at + 8);
      uint64_t name_at = at + 12, npad = ((uint64_t)namesz + 3) & ~3ull;
      uint64_t desc_at = name_at + npad, dpad = ((uint64_t)dsz + 3) & ~3ull;
      if (!in_range(name_at, npad, sz) || !in_range(desc_at, dsz, sz))
        return bad(e, "note section %u: note at offset %" PRIu64 " (name %u bytes, desc %u bytes) runs "
                      "past the section (%" PRIu64 " bytes)", i, at, namesz, dsz, sz);
      if (namesz == 7 && memcmp(d + name_at, "AMDGPU", 7) == 0 && type == NT_AMDGPU_METADATA) {
        if (*desc) return bad(e, "two NT_AMDGPU_METADATA notes");
        *desc = d + desc_at;
        *descsz = dsz;
      }
      at = desc_at + (in_range(desc_at, dpad, sz) ? dpad : dsz);
    }
  }
  if (!*desc && required) return bad(e, "no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32)");
  return true;
}

/* Metadata field helpers: each names the kernel and key in its message. */
static bool md_u32(elf *e, const emu_mp *m, const char *kname, const char *key, bool required,
                   uint32_t dflt, uint32_t *out) {
  const emu_mp *v = emu_mp_get(m, key);
  if (!v) {
    if (required) return bad(e, "metadata of kernel '%s' lacks %s", kname, key);
    *out = dflt;
    return true;
  }
  uint64_t u;
  if (!emu_mp_as_u64(v, &u) || u > UINT32_MAX)
    return bad(e, "metadata of kernel '%s': %s is a %s, expected an unsigned 32-bit integer", kname,
               key, emu_mp_type_name(v->type));
  *out = (uint32_t)u;
  return true;
}

static bool md_str(elf *e, const emu_mp *m, const char *kname, const char *key, bool required,
                   char **out) {
  const emu_mp *v = emu_mp_get(m, key);
  if (!v) {
    if (required) return bad(e, "metadata of kernel '%s' lacks %s", kname, key);
    *out = ll_xstrdup("");
    return true;
  }
  if (!(*out = emu_mp_strdup(v)))
    return bad(e, "metadata of kernel '%s': %s is a %s, expected a string without NULs", kname, key,
               emu_mp_type_name(v->type));
  return true;
}

/* AMDGPUUsage "Kernel Descriptor" (GFX6-GFX12 layout), "compute_pgm_rsrc1/2/3" (GFX90A/GFX942
 * rsrc3), and "Kernel Code Properties". */
static bool parse_kd(elf *e, const emu_codeobj *co, emu_kernel *k) {
  if (!in_range(k->kd_vaddr, KD_SIZE, co->image_size))
    return bad(e, "kernel descriptor of '%s' at vaddr 0x%" PRIx64 " is not inside the loaded image",
               k->name, k->kd_vaddr);
  const uint8_t *kd = co->image + k->kd_vaddr;
  k->group_segment_size = rd32(kd + 0);
  k->private_segment_size = rd32(kd + 4);
  k->kernarg_size = rd32(kd + 8);
  int64_t off = (int64_t)rd64(kd + 16); /* KERNEL_CODE_ENTRY_BYTE_OFFSET, signed */
  k->rsrc3 = rd32(kd + 44);
  k->rsrc1 = rd32(kd + 48);
  k->rsrc2 = rd32(kd + 52);
  k->code_properties = rd16(kd + 56);
  k->kernarg_preload = rd16(kd + 58);
  uint64_t entry = k->kd_vaddr + (uint64_t)off;
  if (!in_range(entry, 4, co->text_vaddr + co->text_size) || entry < co->text_vaddr)
    return bad(e, "kernel '%s': entry 0x%" PRIx64 " (descriptor 0x%" PRIx64 " %+" PRId64
                  ") is outside .text [0x%" PRIx64 ", 0x%" PRIx64 ")",
               k->name, entry, k->kd_vaddr, off, co->text_vaddr, co->text_vaddr + co->text_size);
  k->entry = entry;
  k->user_sgpr_count = (k->rsrc2 >> 1) & 0x1f;   /* rsrc2 USER_SGPR_COUNT bits 5:1 */
  for (int d = 0; d < 3; d++) k->en_wg_id[d] = (k->rsrc2 >> (7 + d)) & 1; /* bits 7, 8, 9 */
  k->workitem_id_dims = (k->rsrc2 >> 11) & 3;    /* ENABLE_VGPR_WORKITEM_ID bits 12:11 */
  if (k->workitem_id_dims == 3)
    return bad(e, "kernel '%s': rsrc2 ENABLE_VGPR_WORKITEM_ID = 3 is reserved", k->name);
  k->accum_offset = ((k->rsrc3 & 0x3f) + 1) * 4; /* rsrc3 ACCUM_OFFSET bits 5:0, granule 4 */
  uint16_t cp = k->code_properties;
  /* Bit 0 ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER: not used with gfx940+'s architected flat scratch;
   * nothing in emu_kernel can express it, so refuse rather than misplace every later SGPR. */
  if (cp & 1)
    return bad(e, "kernel '%s': kernel code properties enable the private segment buffer user SGPRs "
                  "(bit 0), which gfx942/gfx950 code does not use", k->name);
  k->en_dispatch_ptr = cp >> 1 & 1;
  k->en_queue_ptr = cp >> 2 & 1;
  k->en_kernarg_ptr = cp >> 3 & 1;
  k->en_dispatch_id = cp >> 4 & 1;
  k->en_flat_scratch_init = cp >> 5 & 1;
  k->en_private_segment_size = cp >> 6 & 1;
  if (cp >> 10 & 1)
    return bad(e, "kernel '%s': kernel code properties ask for wave32 (bit 10); gfx942/gfx950 are wave64",
               k->name);
  /* AMDGPUUsage "Kernel Descriptor": kd+58 is KERNARG_PRELOAD_SPEC_LENGTH (bits 6:0, dwords) and
   * KERNARG_PRELOAD_SPEC_OFFSET (bits 15:7, the first dword of the kernarg segment preloaded). */
  k->kernarg_preload_count = k->kernarg_preload & 0x7f;
  k->kernarg_preload_offset = k->kernarg_preload >> 7;
  /* The user SGPRs the enables imply (AMDGPUUsage "Initial Kernel Execution State": dispatch ptr
   * 2, queue ptr 2, kernarg ptr 2, dispatch id 2, flat scratch init 2, private segment size 1,
   * then preloaded kernarg dwords) cannot exceed the count the descriptor sets up. */
  uint32_t plain = 2 * (k->en_dispatch_ptr + k->en_queue_ptr + k->en_kernarg_ptr + k->en_dispatch_id +
                        k->en_flat_scratch_init) + k->en_private_segment_size;
  uint32_t need = plain + k->kernarg_preload_count;
  if (need > k->user_sgpr_count)
    return bad(e, "kernel '%s': descriptor enables %u user SGPRs but rsrc2 USER_SGPR_COUNT is %u",
               k->name, need, k->user_sgpr_count);
  /* "Preloaded Kernel Arguments": the preloaded dwords go to consecutive user SGPRs "directly after
   * the last enabled non-kernarg preload User SGPR" (LLVM allocates them after the private segment
   * size too; docs/emulator-choices.md "Kernarg preload"). */
  k->preload_sgpr = plain;
  k->start = entry;
  if (k->kernarg_preload_count) {
    /* "Initial Kernel Execution State": CP sets at most 16 user SGPRs ("only the first 16 are
     * actually initialized"); a preloaded dword past them would hold nothing the kernel asked for. */
    if (need > 16)
      return bad(e, "kernel '%s': kernarg preload of %u dwords after %u other user SGPRs needs %u user SGPRs; "
                    "the hardware initializes 16 (AMDGPUUsage \"Initial Kernel Execution State\")",
                 k->name, k->kernarg_preload_count, plain, need);
    /* "If the kernarg_preload_spec_length is non-zero, the CP firmware will append an additional
     * 256 bytes to the kernel_code_entry_byte_offset": those bytes are the compatibility header
     * (an s_trap 2 for firmware without preload, or clang's load prolog), never executed here. */
    uint64_t start = entry + 256;
    if (!in_range(start, 4, co->text_vaddr + co->text_size))
      return bad(e, "kernel '%s': kernarg preload moves the entry 256 bytes past 0x%" PRIx64 " to 0x%" PRIx64
                    ", outside .text [0x%" PRIx64 ", 0x%" PRIx64 ")",
                 k->name, entry, start, co->text_vaddr, co->text_vaddr + co->text_size);
    k->start = start;
  }
  return true;
}

static bool parse_args(elf *e, emu_codeobj *co, const emu_mp *km, emu_kernel *k, uint32_t *segsize) {
  const emu_mp *args = emu_mp_get(km, ".args");
  if (!args) return true; /* a kernel without arguments has no .args (AMDGPUUsage, optional) */
  if (args->type != EMU_MP_ARR)
    return bad(e, "metadata of kernel '%s': .args is a %s, expected an array", k->name,
               emu_mp_type_name(args->type));
  k->args = ll_xcalloc(args->n ? args->n : 1, sizeof *k->args);
  for (size_t i = 0; i < args->n; i++) {
    const emu_mp *a = &args->items[i];
    emu_kernarg *ka = &k->args[i];
    k->nargs = i + 1;
    if (a->type != EMU_MP_MAP)
      return bad(e, "metadata of kernel '%s': argument %zu is a %s, expected a map", k->name, i,
                 emu_mp_type_name(a->type));
    char what[160];
    snprintf(what, sizeof what, "%s argument %zu", k->name, i);
    if (!md_str(e, a, what, ".name", false, &ka->name) ||
        !md_str(e, a, what, ".value_kind", true, &ka->value_kind) ||
        !md_str(e, a, what, ".address_space", false, &ka->address_space) ||
        !md_u32(e, a, what, ".offset", true, 0, &ka->offset) ||
        !md_u32(e, a, what, ".size", true, 0, &ka->size))
      return false;
    ka->hidden = strncmp(ka->value_kind, "hidden_", 7) == 0;
    static const char *const hk[] = {NULL, "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
                                     "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
                                     "hidden_grid_dims", "hidden_dynamic_lds_size", "hidden_printf_buffer",
                                     "hidden_multigrid_sync_arg", "hidden_hostcall_buffer", "hidden_heap_v1"};
    ka->hk = EMU_HK_OTHER;
    for (uint8_t j = 1; j < sizeof hk / sizeof *hk; j++)
      if (!strcmp(ka->value_kind, hk[j])) ka->hk = j;
    /* An argument that ends past .kernarg_segment_size is accepted (ROCm's runtime sizes the
     * kernarg buffer from the argument list too; aiter's hand-written metadata does this); the
     * segment is grown to cover it. Only an end past 4 GiB (no real segment) is refused. */
    if ((uint64_t)ka->offset + ka->size > UINT32_MAX)
      return bad(e, "metadata of kernel '%s': argument %zu (%s) at offset %u size %u ends past 4 GiB",
                 k->name, i, ka->value_kind, ka->offset, ka->size);
    if (ka->offset + ka->size > *segsize) {
      note(co, "kernel '%s': argument %zu (%s) at offset %u size %u ends past .kernarg_segment_size %u; "
               "kernarg segment grown to %u bytes", k->name, i, ka->value_kind, ka->offset, ka->size,
           *segsize, ka->offset + ka->size);
      *segsize = ka->offset + ka->size;
    }
  }
  return true;
}

/* Bytes of code from a kernel's entry: its STT_FUNC symbol's st_size when nonzero; otherwise
 * (hand-written kernels carry no .size) up to the next function symbol or kernel entry above it,
 * else to the end of .text. The census's functions use it too (read_funcs). */
static uint64_t code_extent(const emu_codeobj *co, const symtab *st, uint64_t entry, const uint8_t *fs) {
  if (fs && rd64(fs + 16)) return rd64(fs + 16);
  uint64_t end = co->text_vaddr + co->text_size;
  for (uint64_t i = 1; i < st->nsyms; i++) {
    const uint8_t *s = st->syms + i * SYM_SIZE;
    uint64_t v = rd64(s + 8);
    if ((s[4] & 0xf) == STT_FUNC && v > entry && v < end) end = v;
  }
  for (size_t i = 0; i < co->nkernels; i++)
    if (co->kernels[i].entry > entry && co->kernels[i].entry < end) end = co->kernels[i].entry;
  return end - entry;
}

/* Every STT_FUNC symbol defined in .text, each inside it, sorted by vaddr with its extent
 * (code_extent). isa/'s census counts per function symbol, kernel or not (isa_elf_read). */
static int func_cmp(const void *a, const void *b) {
  const struct emu_func *x = a, *y = b;
  return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static bool read_funcs(elf *e, emu_codeobj *co, const symtab *st) {
  for (uint64_t i = 1; i < st->nsyms; i++) {
    const uint8_t *s = st->syms + i * SYM_SIZE;
    if ((s[4] & 0xf) != STT_FUNC || rd16(s + 6) != (uint16_t)e->text_idx) continue;
    uint32_t off = rd32(s);
    if (off >= st->strsz || !memchr(st->str + off, 0, st->strsz - off))
      return bad(e, "symbol %" PRIu64 ": name offset %u out of range", i, off);
    const char *name = (const char *)st->str + off;
    uint64_t val = rd64(s + 8), size = rd64(s + 16);
    if (val < co->text_vaddr || val - co->text_vaddr > co->text_size || size > co->text_size - (val - co->text_vaddr))
      return bad(e, "function %s [0x%" PRIx64 ", +0x%" PRIx64 ") lies outside .text [0x%" PRIx64 ", +0x%" PRIx64 ")",
                 name, val, size, co->text_vaddr, co->text_size);
    bool dup = false;
    for (size_t j = 0; j < co->nfuncs && !dup; j++) dup = co->funcs[j].vaddr == val && !strcmp(co->funcs[j].name, name);
    if (dup) continue;
    co->funcs = ll_xrealloc(co->funcs, (co->nfuncs + 1) * sizeof *co->funcs);
    co->funcs[co->nfuncs++] = (struct emu_func){ll_xstrdup(name), val, size};
  }
  if (co->nfuncs) qsort(co->funcs, co->nfuncs, sizeof *co->funcs, func_cmp);
  for (size_t i = 0; i < co->nfuncs; i++)
    if (!co->funcs[i].size) co->funcs[i].size = code_extent(co, st, co->funcs[i].vaddr, NULL);
  return true;
}

static bool parse_metadata(elf *e, emu_codeobj *co, const symtab *st, const uint8_t *desc,
                           uint64_t descsz) {
  ll_err sub = {0};
  emu_mp *md = emu_mp_parse(desc, descsz, &sub);
  if (!md) return bad(e, "NT_AMDGPU_METADATA note: %s", sub.msg);
  bool ok = false;
  const emu_mp *ver = emu_mp_get(md, "amdhsa.version"), *ks = emu_mp_get(md, "amdhsa.kernels");
  const emu_mp *tgt = emu_mp_get(md, "amdhsa.target");
  uint64_t maj, min;
  /* AMDGPUUsage "Code Object V5 Metadata": amdhsa.version is [1, 2] (clang-22 emits [1, 2] for
   * both v5 and v6, checked with llvm-readelf-22 --notes). */
  if (md->type != EMU_MP_MAP) { bad(e, "metadata is a %s, expected a map", emu_mp_type_name(md->type)); goto out; }
  if (!ver || ver->type != EMU_MP_ARR || ver->n != 2 || !emu_mp_as_u64(&ver->items[0], &maj) ||
      !emu_mp_as_u64(&ver->items[1], &min)) {
    bad(e, "metadata amdhsa.version missing or not [major, minor]");
    goto out;
  }
  /* Major 1 is the MessagePack metadata of code object v3 and later; minors 0, 1, 2 are v3, v4,
   * v5+. ROCm's loader does not tie the minor to the ELF ABI version, and AMD's hand-written
   * kernels say [1, 0] in v5/v6 objects: accepted, noted. A major other than 1 is another format. */
  if (maj != 1) {
    bad(e, "metadata amdhsa.version [%" PRIu64 ", %" PRIu64 "]: expected major 1 (MessagePack metadata "
           "of code object v3+)", maj, min);
    goto out;
  }
  if (min < 2 && co->code_object_version >= 5)
    note(co, "metadata amdhsa.version [1, %" PRIu64 "] in a code object v%u (v5+ metadata is [1, 2])",
         min, co->code_object_version);
  if (co->code_object_version == 4) note(co, "code object v4 (ELF ABI version 2)");
  if (tgt) { /* "amdgcn-amd-amdhsa--gfx950[:features]" must agree with e_flags */
    char *t = emu_mp_strdup(tgt);
    const char *pre = "amdgcn-amd-amdhsa--", *an = emu_arch_name(co->arch);
    size_t pl = strlen(pre), al = strlen(an);
    bool agree = t && strncmp(t, pre, pl) == 0 && strncmp(t + pl, an, al) == 0 &&
                 (t[pl + al] == 0 || t[pl + al] == ':');
    if (!agree) bad(e, "metadata amdhsa.target '%s' disagrees with the ELF arch %s", t ? t : "(not a string)", an);
    free(t);
    if (!agree) goto out;
  }
  const emu_mp *pf = emu_mp_get(md, "amdhsa.printf"); /* AMDGPUUsage "amdhsa.printf": strings */
  if (pf && pf->type == EMU_MP_ARR)
    for (size_t i = 0; i < pf->n; i++) {
      char *f = emu_mp_strdup(&pf->items[i]);
      if (!f) { bad(e, "metadata amdhsa.printf entry %zu is not a string", i); goto out; }
      co->printf_fmts = ll_xrealloc(co->printf_fmts, (co->nprintf_fmts + 1) * sizeof *co->printf_fmts);
      co->printf_fmts[co->nprintf_fmts++] = f;
    }
  if (!ks || ks->type != EMU_MP_ARR) { bad(e, "metadata has no amdhsa.kernels array"); goto out; }
  /* an empty list is a code object of device variables and functions only (a translation unit of a
   * HIP program with no kernel: ROCm loads it, and hipMemcpyToSymbol reaches its variables) */
  co->kernels = ll_xcalloc(ks->n ? ks->n : 1, sizeof *co->kernels);
  for (size_t i = 0; i < ks->n; i++) {
    const emu_mp *km = &ks->items[i];
    emu_kernel *k = &co->kernels[i];
    co->nkernels = i + 1;
    char idx[32];
    snprintf(idx, sizeof idx, "#%zu", i);
    if (km->type != EMU_MP_MAP) { bad(e, "metadata kernel %zu is a %s, expected a map", i, emu_mp_type_name(km->type)); goto out; }
    char *mdname = NULL, *sym = NULL;
    if (!md_str(e, km, idx, ".name", true, &mdname)) goto out;
    bool ok1 = md_str(e, km, mdname, ".symbol", true, &sym);
    free(mdname);
    if (!ok1) goto out;
    size_t sl = strlen(sym);
    if (sl < 4 || strcmp(sym + sl - 3, ".kd") != 0) {
      bad(e, "metadata kernel %zu: .symbol '%s' does not end in .kd", i, sym);
      free(sym);
      goto out;
    }
    const uint8_t *s = find_sym(st, sym);
    sym[sl - 3] = 0;
    k->name = sym;
    if (!s) { bad(e, "kernel '%s': descriptor symbol '%s.kd' not in the symbol table", k->name, k->name); goto out; }
    if ((s[4] & 0xf) != STT_OBJECT || rd64(s + 16) != KD_SIZE) {
      bad(e, "kernel '%s': symbol '%s.kd' is not a 64-byte STT_OBJECT (type %u, size %" PRIu64 ")",
          k->name, k->name, s[4] & 0xf, rd64(s + 16));
      goto out;
    }
    k->kd_vaddr = rd64(s + 8);
    if (!parse_kd(e, co, k)) goto out;
    const uint8_t *fs = find_sym(st, k->name);
    /* The code symbol K, when present, is STT_FUNC at the entry (AMDGPUUsage "Symbols"). */
    if (fs && ((fs[4] & 0xf) != STT_FUNC || rd64(fs + 8) != k->entry)) {
      bad(e, "kernel '%s': code symbol is type %u at 0x%" PRIx64 ", expected STT_FUNC at the descriptor's "
             "entry 0x%" PRIx64, k->name, fs[4] & 0xf, rd64(fs + 8), k->entry);
      goto out;
    }
    uint32_t segsize = 0, lds_md = 0; /* set by md_u32 before any use (-O3 cannot tell) */
    if (!md_u32(e, km, k->name, ".kernarg_segment_size", true, 0, &segsize) ||
        !md_u32(e, km, k->name, ".kernarg_segment_align", true, 0, &k->kernarg_segment_align) ||
        !md_u32(e, km, k->name, ".group_segment_fixed_size", true, 0, &lds_md) ||
        !md_u32(e, km, k->name, ".sgpr_count", true, 0, &k->sgpr_count) ||
        !md_u32(e, km, k->name, ".vgpr_count", true, 0, &k->vgpr_count) ||
        !md_u32(e, km, k->name, ".agpr_count", false, 0, &k->agpr_count) ||
        !md_u32(e, km, k->name, ".wavefront_size", true, 0, &k->wavefront_size) ||
        !md_u32(e, km, k->name, ".max_flat_workgroup_size", true, 0, &k->max_flat_workgroup_size))
      goto out;
    if (k->wavefront_size != 64) { bad(e, "kernel '%s': .wavefront_size %u, expected 64", k->name, k->wavefront_size); goto out; }
    /* The descriptor's KERNARG_SIZE is 0 in AMD's hand-written kernels; ROCm's runtime allocates
     * from the metadata's .kernarg_segment_size. Both are kept honest: lanelab allocates the larger
     * and notes the disagreement. */
    if (k->kernarg_size == 0 && segsize != 0)
      note(co, "kernel '%s': descriptor kernarg size 0, metadata .kernarg_segment_size %u used", k->name, segsize);
    else if (segsize != k->kernarg_size)
      note(co, "kernel '%s': metadata .kernarg_segment_size %u != descriptor kernarg size %u; the larger used",
           k->name, segsize, k->kernarg_size);
    if (k->kernarg_size > segsize) segsize = k->kernarg_size;
    if (lds_md != k->group_segment_size) {
      bad(e, "kernel '%s': metadata .group_segment_fixed_size %u != descriptor group segment size %u",
          k->name, lds_md, k->group_segment_size);
      goto out;
    }
    if (!parse_args(e, co, km, k, &segsize)) goto out;
    k->kernarg_size = segsize;
    /* the CP copies the preloaded dwords from the kernarg segment: they must lie inside it */
    if ((uint64_t)(k->kernarg_preload_offset + k->kernarg_preload_count) * 4 > segsize) {
      bad(e, "kernel '%s': descriptor preloads kernarg dwords %u..%u (bytes %u..%u) but the kernarg segment is "
             "%u bytes", k->name, k->kernarg_preload_offset, k->kernarg_preload_offset + k->kernarg_preload_count - 1,
          4 * k->kernarg_preload_offset, 4 * (k->kernarg_preload_offset + k->kernarg_preload_count) - 1, segsize);
      goto out;
    }
  }
  for (size_t i = 0; i < co->nkernels; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(co->kernels[i].name, co->kernels[j].name) == 0) {
        bad(e, "kernel '%s' listed twice in the metadata", co->kernels[i].name);
        goto out;
      }
  for (size_t i = 0; i < co->nkernels; i++) /* after every entry is known */
    co->kernels[i].code_size = code_extent(co, st, co->kernels[i].entry, find_sym(st, co->kernels[i].name));
  ok = true;
out:
  emu_mp_free(md);
  return ok;
}

static emu_codeobj *load(const void *bytes, size_t n, const char *path, bool need_metadata, ll_err *err) {
  elf e = {.p = bytes, .n = n, .path = path ? path : "<memory>", .err = err};
  emu_codeobj *co = ll_xcalloc(1, sizeof *co);
  co->path = ll_xstrdup(e.path);
  symtab st;
  const uint8_t *desc = NULL;
  uint64_t descsz = 0;
  if (!bytes && n) { bad(&e, "no bytes"); goto fail; }
  if (!check_header(&e, co) || !map_segments(&e, co) || !read_sections(&e) || !find_text(&e, co) ||
      !find_symtab(&e, &st) || !find_metadata(&e, &desc, &descsz, need_metadata) ||
      (desc && !parse_metadata(&e, co, &st, desc, descsz)) || !read_funcs(&e, co, &st) || !read_relocs(&e, co))
    goto fail;
  read_symbols(&st, co);
  read_lines(&e, co);
  return co;
fail:
  emu_codeobj_free(co);
  return NULL;
}

emu_codeobj *emu_codeobj_load(const void *bytes, size_t n, const char *path, ll_err *err) {
  return load(bytes, n, path, true, err);
}

emu_codeobj *emu_codeobj_load_code(const void *bytes, size_t n, const char *path, ll_err *err) {
  return load(bytes, n, path, false, err);
}

emu_codeobj *emu_codeobj_load_file(const char *path, ll_err *err) {
  size_t n;
  void *p = ll_read_file_max(path, LL_CAP_CODEOBJ, &n, err);
  if (!p) return NULL;
  emu_codeobj *co = emu_codeobj_load(p, n, path, err);
  free(p);
  return co;
}

const emu_kernel *emu_codeobj_kernel(const emu_codeobj *co, const char *name, ll_err *err) {
  for (size_t i = 0; i < co->nkernels; i++)
    if (strcmp(co->kernels[i].name, name) == 0) return &co->kernels[i];
  return emu__kernel_by_cxx_name(co, name, err); /* emu/kname.c; also the not-found message */
}

void emu_codeobj_free(emu_codeobj *co) {
  if (!co) return;
  emu_codeobj_programs_free(co);
  for (size_t i = 0; i < co->nkernels; i++) {
    emu_kernel *k = &co->kernels[i];
    for (size_t j = 0; j < k->nargs; j++) {
      free(k->args[j].name);
      free(k->args[j].value_kind);
      free(k->args[j].address_space);
    }
    free(k->args);
    free(k->name);
  }
  free(co->kernels);
  for (size_t i = 0; i < co->nfuncs; i++) free(co->funcs[i].name);
  free(co->funcs);
  for (size_t i = 0; i < co->nsymbols; i++) free(co->symbols[i].name);
  free(co->symbols);
  free(co->lines);
  free(co->inl), free(co->inl_sites);
  for (size_t i = 0; i < co->nline_files; i++) free(co->line_files[i]);
  free(co->line_files);
  for (size_t i = 0; i < co->nprintf_fmts; i++) free(co->printf_fmts[i]);
  free(co->printf_fmts);
  free(co->notes);
  free(co->relocs);
  free(co->image);
  free(co->path);
  free(co);
}
