/* Tests for the emu loader (emu/loader.c, emu/msgpack.c, emu/arch.c).
 *
 * Inputs are real code objects: tests/kernels/loader_kernels.hip compiled at run time with
 * clang-22 for gfx942 and gfx950 into a temporary directory. Expected values come from LLVM's own
 * tools, parsed here independently of the loader: llvm-readelf-22 (--notes YAML, --symbols,
 * --sections, --file-header) and llvm-objdump-22 -D -j .rodata (the .amdhsa_* directives it
 * prints for each kernel descriptor). MessagePack cases are hand-encoded from the specification. */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/emu.h"
#include "emu/msgpack.h"
#include "util/util.h"
#include "tests/llvm_tools.h"

#define KSRC LANELAB_ROOT "/tests/kernels/loader_kernels.hip"

static char *compile(const char *arch, const char *extra) { return compile_src(KSRC, arch, extra); }

static emu_codeobj *load_ok(const char *path) {
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(path, &e);
  cr_assert_not_null(co, "load %s: %s", path, e.msg);
  return co;
}

/* The .amdhsa_* directives llvm-objdump prints for kernel descriptor K.kd. */
static long kd_directive(const char *objdump_out, const char *kernel, const char *directive) {
  char *hdr = ll_fmt("<%s.kd>:", kernel);
  const char *p = strstr(objdump_out, hdr);
  cr_assert_not_null(p, "llvm-objdump shows no %s", hdr);
  free(hdr);
  const char *end = strstr(p, ".end_amdhsa_kernel");
  cr_assert_not_null(end);
  char *d = ll_fmt("%s ", directive);
  const char *q = strstr(p, d);
  cr_assert(q && q < end, "no %s for %s.kd", directive, kernel);
  long v = atol(q + strlen(d));
  free(d);
  return v;
}

/* ---- the loader against llvm-readelf ---------------------------------------------------------*/
static void check_against_readelf(const char *arch, const char *extra, unsigned want_cov) {
  char *co_path = compile(arch, extra);
  emu_codeobj *co = load_ok(co_path);
  emu_arch a;
  cr_assert(emu_arch_parse(arch, &a));
  cr_assert_eq(co->arch, a, "arch %s, loaded as %s", arch, emu_arch_name(co->arch));
  cr_assert_eq(co->code_object_version, want_cov);

  /* ELF header facts from readelf: ABI version 3 = v5, 4 = v6 (AMDGPUUsage). */
  char *cmd = ll_fmt(LLVM_BIN "llvm-readelf --file-header %s", co_path);
  char *hdr = run(cmd);
  free(cmd);
  char *abi = strstr(hdr, "ABI Version:");
  cr_assert_not_null(abi);
  cr_assert_eq((unsigned)atoi(abi + 12) + 2, want_cov);
  cr_assert_not_null(strstr(hdr, arch), "readelf flags do not name %s", arch);
  free(hdr);

  rkern *rk = ll_xcalloc(8, sizeof *rk);
  long vmaj = -1, vmin = -1;
  int nk = readelf_kernels(co_path, rk, 8, &vmaj, &vmin);
  cr_assert_eq(nk, 3, "readelf lists %d kernels", nk);
  cr_assert_eq(vmaj, 1);
  cr_assert_eq(vmin, 2);
  cr_assert_eq(co->nkernels, (size_t)nk);

  unsigned long long taddr, toff, tsize;
  readelf_text(co_path, &taddr, &toff, &tsize);
  cr_assert_eq(co->text_vaddr, taddr);
  cr_assert_eq(co->text_size, tsize);
  size_t fsize;
  uint8_t *file = ll_read_file(co_path, &fsize, NULL);
  cr_assert_not_null(file);
  cr_assert_leq(toff + tsize, fsize);
  cr_assert_leq(taddr + tsize, co->image_size);
  cr_assert_eq(memcmp(co->image + taddr, file + toff, tsize), 0, ".text not mapped at its vaddr");

  cmd = ll_fmt(LLVM_BIN "llvm-objdump -D -j .rodata %s", co_path);
  char *kdtext = run(cmd);
  free(cmd);

  for (int i = 0; i < nk; i++) {
    rkern *r = &rk[i];
    size_t sl = strlen(r->symbol);
    cr_assert(sl > 3 && !strcmp(r->symbol + sl - 3, ".kd"));
    char sym[128];
    snprintf(sym, sizeof sym, "%.*s", (int)(sl - 3), r->symbol);
    ll_err e = {0};
    const emu_kernel *k = emu_codeobj_kernel(co, sym, &e);
    cr_assert_not_null(k, "%s", e.msg);
    cr_assert_eq(k->kd_vaddr, (uint64_t)readelf_sym(co_path, r->symbol), "%s kd vaddr", sym);
    cr_assert_eq(k->entry, (uint64_t)readelf_sym(co_path, sym), "%s entry", sym);
    cr_assert_eq(k->kernarg_size, (uint32_t)r->kseg, "%s kernarg size", sym);
    cr_assert_eq(k->kernarg_segment_align, (uint32_t)r->kalign);
    cr_assert_eq(k->group_segment_size, (uint32_t)r->lds, "%s lds", sym);
    cr_assert_eq(k->sgpr_count, (uint32_t)r->sgpr);
    cr_assert_eq(k->vgpr_count, (uint32_t)r->vgpr);
    cr_assert_eq(k->agpr_count, (uint32_t)(r->agpr < 0 ? 0 : r->agpr));
    cr_assert_eq(k->wavefront_size, (uint32_t)r->wave);
    cr_assert_eq(k->max_flat_workgroup_size, (uint32_t)r->maxwg);
    cr_assert_eq(k->nargs, (size_t)r->nargs, "%s: %zu args, readelf %d", sym, k->nargs, r->nargs);
    for (int j = 0; j < r->nargs; j++) {
      const emu_kernarg *ka = &k->args[j];
      cr_assert_eq(ka->offset, (uint32_t)r->args[j].offset, "%s arg %d offset", sym, j);
      cr_assert_eq(ka->size, (uint32_t)r->args[j].size, "%s arg %d size", sym, j);
      cr_assert_str_eq(ka->value_kind, r->args[j].kind);
      cr_assert_str_eq(ka->address_space, r->args[j].as);
      cr_assert_str_eq(ka->name, r->args[j].name);
      cr_assert_eq(ka->hidden, strncmp(r->args[j].kind, "hidden_", 7) == 0);
    }
    /* Descriptor fields against the directives llvm-objdump decodes from the same 64 bytes. */
    cr_assert_eq(k->group_segment_size, (uint32_t)kd_directive(kdtext, sym, ".amdhsa_group_segment_fixed_size"));
    cr_assert_eq(k->private_segment_size, (uint32_t)kd_directive(kdtext, sym, ".amdhsa_private_segment_fixed_size"));
    cr_assert_eq(k->kernarg_size, (uint32_t)kd_directive(kdtext, sym, ".amdhsa_kernarg_size"));
    cr_assert_eq(k->accum_offset, (uint32_t)kd_directive(kdtext, sym, ".amdhsa_accum_offset"));
    cr_assert_eq(k->workitem_id_dims, (uint32_t)kd_directive(kdtext, sym, ".amdhsa_system_vgpr_workitem_id"));
    cr_assert_eq(k->en_wg_id[0], kd_directive(kdtext, sym, ".amdhsa_system_sgpr_workgroup_id_x"));
    cr_assert_eq(k->en_wg_id[1], kd_directive(kdtext, sym, ".amdhsa_system_sgpr_workgroup_id_y"));
    cr_assert_eq(k->en_wg_id[2], kd_directive(kdtext, sym, ".amdhsa_system_sgpr_workgroup_id_z"));
    cr_assert_eq(k->en_dispatch_ptr, kd_directive(kdtext, sym, ".amdhsa_user_sgpr_dispatch_ptr"));
    cr_assert_eq(k->en_queue_ptr, kd_directive(kdtext, sym, ".amdhsa_user_sgpr_queue_ptr"));
    cr_assert_eq(k->en_kernarg_ptr, kd_directive(kdtext, sym, ".amdhsa_user_sgpr_kernarg_segment_ptr"));
    cr_assert_eq(k->en_dispatch_id, kd_directive(kdtext, sym, ".amdhsa_user_sgpr_dispatch_id"));
    cr_assert_eq(k->en_private_segment_size, kd_directive(kdtext, sym, ".amdhsa_user_sgpr_private_segment_size"));
    long preload = strstr(kdtext, ".amdhsa_user_sgpr_kernarg_preload_length")
                       ? kd_directive(kdtext, sym, ".amdhsa_user_sgpr_kernarg_preload_length") : 0;
    cr_assert_eq(k->kernarg_preload_count, (uint32_t)preload, "%s preload", sym);
    /* USER_SGPR_COUNT is not printed by llvm-objdump; AMDGPUUsage "Initial Kernel Execution
     * State" gives it as the sum of the enabled user SGPRs (2 per pointer/id, 1 for the private
     * segment size) plus the preloaded kernarg dwords; gfx940+ has no flat-scratch-init SGPRs. */
    uint32_t want_usgpr = 2 * (k->en_dispatch_ptr + k->en_queue_ptr + k->en_kernarg_ptr + k->en_dispatch_id) +
                          k->en_private_segment_size + (uint32_t)preload;
    cr_assert_eq(k->user_sgpr_count, want_usgpr, "%s user sgprs %u, want %u", sym, k->user_sgpr_count, want_usgpr);
  }
  free(kdtext);
  free(file);
  free(rk);
  emu_codeobj_free(co);
  free(co_path);
}

Test(emu_loader, matches_readelf_gfx942) { check_against_readelf("gfx942", NULL, 6); }
Test(emu_loader, matches_readelf_gfx950) { check_against_readelf("gfx950", NULL, 6); }
Test(emu_loader, matches_readelf_code_object_v5) { check_against_readelf("gfx950", "-mcode-object-version=5", 5); }
Test(emu_loader, matches_readelf_with_kernarg_preload) {
  check_against_readelf("gfx950", "-mllvm -amdgpu-kernarg-preload-count=2", 6);
}

/* Facts about the test kernels stated in their source, checked on the loaded object. */
Test(emu_loader, test_kernels_have_the_features_they_were_written_for) {
  char *p = compile("gfx950", NULL);
  emu_codeobj *co = load_ok(p);
  const emu_kernel *s = emu_codeobj_kernel(co, "scale", NULL), *l = emu_codeobj_kernel(co, "lds3d", NULL);
  cr_assert(s && l);
  /* scale: 3 explicit args (two pointers, one u32) then hidden args, incl. the group size x it reads */
  int explicit = 0, has_gsx = 0;
  for (size_t i = 0; i < s->nargs; i++) {
    if (!s->args[i].hidden) explicit++;
    if (!strcmp(s->args[i].value_kind, "hidden_group_size_x")) has_gsx = 1;
  }
  cr_assert_eq(explicit, 3);
  cr_assert(has_gsx);
  cr_assert_str_eq(s->args[0].value_kind, "global_buffer");
  cr_assert_str_eq(s->args[2].value_kind, "by_value");
  /* lds3d: 256 u32 of static LDS, x/y/z ids, the dispatch pointer, AGPRs up to a7 */
  cr_assert_eq(l->group_segment_size, 1024);
  cr_assert_eq(l->workitem_id_dims, 2);
  cr_assert(l->en_dispatch_ptr);
  cr_assert_geq(l->agpr_count, 8);
  emu_codeobj_free(co);
  free(p);
}

Test(emu_loader, unknown_kernel_lists_the_kernels) {
  char *p = compile("gfx942", NULL);
  emu_codeobj *co = load_ok(p);
  ll_err e = {0};
  cr_assert_null(emu_codeobj_kernel(co, "nope", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "'nope'") && strstr(e.msg, "scale") && strstr(e.msg, "mixed") && strstr(e.msg, "lds3d"),
            "%s", e.msg);
  emu_codeobj_free(co);
  free(p);
}

/* ---- malformed input --------------------------------------------------------------------------*/
static void expect_reject(const uint8_t *b, size_t n, const char *want, const char *what) {
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load(b, n, "x.co", &e);
  cr_assert_null(co, "%s: accepted", what);
  cr_assert_eq(e.code, LL_EXIT_USAGE, "%s: code %d (%s)", what, e.code, e.msg);
  cr_assert(strstr(e.msg, "x.co: ") == e.msg, "%s: message does not name the file: %s", what, e.msg);
  if (want) cr_assert(strstr(e.msg, want), "%s: message '%s' lacks '%s'", what, e.msg, want);
}

Test(emu_loader, truncation_at_every_sixteenth_is_exit_2) {
  char *p = compile("gfx950", NULL);
  size_t n;
  uint8_t *b = ll_read_file(p, &n, NULL);
  cr_assert_not_null(b);
  for (int k = 0; k < 16; k++) {
    size_t m = n * k / 16;
    uint8_t *c = ll_xmalloc(m ? m : 1); /* exact-size copy so ASan sees any overread */
    memcpy(c, b, m);
    char what[64];
    snprintf(what, sizeof what, "truncated to %zu of %zu bytes (%d/16)", m, n, k);
    expect_reject(c, m, NULL, what);
    free(c);
  }
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load(b, n, p, &e);
  cr_assert_not_null(co, "whole file: %s", e.msg);
  emu_codeobj_free(co);
  free(b);
  free(p);
}

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i); }
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

Test(emu_loader, corrupted_headers_are_exit_2_with_the_reason) {
  char *p = compile("gfx942", NULL);
  size_t n;
  uint8_t *orig = ll_read_file(p, &n, NULL);
  cr_assert_not_null(orig);
  uint8_t *b = ll_xmalloc(n);
  /* ELF-64 header offsets (gABI): e_ident[4..8], e_type 16, e_machine 18, e_phoff 32, e_shoff 40,
   * e_flags 48, e_phentsize 54, e_phnum 56, e_shentsize 58, e_shnum 60, e_shstrndx 62. */
#define CASE(edit, want)                                 \
  do {                                                   \
    memcpy(b, orig, n);                                  \
    edit;                                                \
    expect_reject(b, n, want, #edit);                    \
  } while (0)
  CASE(b[0] = 0x7e, "not an ELF file");
  CASE(b[4] = 1, "ELFCLASS64");
  CASE(b[5] = 2, "little-endian");
  CASE(put16(b + 18, 62), "EM_AMDGPU");
  CASE(b[7] = 0, "ELFOSABI_AMDGPU_HSA");
  CASE(b[8] = 1, "code object v3");
  CASE(put16(b + 16, 1), "ET_REL");
  CASE(put32(b + 48, (orig[48] | orig[49] << 8 | orig[50] << 16 | (uint32_t)orig[51] << 24) & ~0xffu), "unknown arch");
  CASE(put32(b + 48, 0x41), "unknown arch");
  CASE(b[48] = 0x4f, "disagrees with the ELF arch gfx950"); /* gfx942 object relabelled gfx950 */
  CASE(b[51] = 1, "generic version");
  CASE(put64(b + 32, (uint64_t)n - 8), "program headers");
  CASE(put16(b + 56, 0xffff), "program headers");
  CASE(put16(b + 54, 32), "program header size");
  CASE(put64(b + 40, (uint64_t)1 << 62), "section headers");
  CASE(put16(b + 60, 0), "no section headers");
  CASE(put16(b + 62, 0xfff0), "section name table");
  free(b);
  free(orig);
  free(p);
}

/* Edits inside the file found through llvm-readelf: the kernel descriptor's entry offset and
 * the metadata note's MessagePack payload. */
Test(emu_loader, corrupted_descriptor_and_metadata_are_exit_2) {
  char *p = compile("gfx942", NULL);
  size_t n;
  uint8_t *orig = ll_read_file(p, &n, NULL);
  uint8_t *b = ll_xmalloc(n);
  /* scale.kd lies in .rodata, which the first PT_LOAD maps at file offset == vaddr (readelf -l). */
  long long kd = readelf_sym(p, "scale.kd");
  cr_assert_gt(kd, 0);
  cr_assert_lt((size_t)kd + 64, n);
  memcpy(b, orig, n);
  put64(b + kd + 16, (uint64_t)1 << 40); /* entry offset far outside .text */
  expect_reject(b, n, "outside .text", "kd entry offset");
  memcpy(b, orig, n);
  put64(b + kd + 16, (uint64_t)-(int64_t)kd - 64); /* negative: before address 0 */
  expect_reject(b, n, "outside .text", "kd negative entry offset");
  memcpy(b, orig, n);
  b[kd + 56] |= 1; /* private segment buffer SGPRs: not expressible, refused */
  expect_reject(b, n, "private segment buffer", "kd code properties bit 0");

  /* The note: find "AMDGPU\0" followed by the MessagePack map; corrupt the descsz and the data. */
  uint8_t *own = memmem(orig, n, "AMDGPU\0\0", 8);
  cr_assert_not_null(own);
  size_t note = (size_t)(own - orig) - 12;
  cr_assert_eq(orig[note + 8], 32, "NT_AMDGPU_METADATA type");
  memcpy(b, orig, n);
  put32(b + note + 4, 0x7fffffff);
  expect_reject(b, n, "runs past the section", "note desc size");
  memcpy(b, orig, n);
  b[note + 20] = 0xc1; /* MessagePack's never-used byte as the metadata's first type byte */
  expect_reject(b, n, "reserved", "metadata type byte 0xc1");
  memcpy(b, orig, n);
  /* Rename the metadata key "amdhsa.kernels" so the kernel list is missing. */
  uint8_t *key = memmem(b, n, "amdhsa.kernels", 14);
  cr_assert_not_null(key);
  key[0] = 'X';
  expect_reject(b, n, "amdhsa.kernels", "no kernel list");
  free(b);
  free(orig);
  free(p);
}

Test(emu_loader, generic_target_is_refused_by_name) {
  char *p = compile("gfx9-4-generic", NULL);
  size_t n;
  uint8_t *b = ll_read_file(p, &n, NULL);
  expect_reject(b, n, "gfx9-4-generic", "generic target");
  free(b);
  free(p);
}

/* Every single-byte corruption of the headers and a deterministic sample of the rest: the loader
 * either loads or reports exit 2; it never crashes (a crash fails the test under Criterion). */
Test(emu_loader, byte_flips_never_crash) {
  char *p = compile("gfx950", NULL);
  size_t n;
  uint8_t *orig = ll_read_file(p, &n, NULL);
  uint8_t *b = ll_xmalloc(n);
  uint32_t seed = 12345;
  int rejected = 0, tries = 0;
  for (size_t pos = 0; pos < n; pos += pos < 0x240 ? 1 : 7) {
    for (int v = 0; v < 2; v++) {
      memcpy(b, orig, n);
      seed = seed * 1103515245u + 12345u;
      b[pos] ^= v ? 0xff : (uint8_t)(1u << (seed >> 16) % 8);
      ll_err e = {0};
      emu_codeobj *co = emu_codeobj_load(b, n, "x.co", &e);
      if (!co) {
        cr_assert_eq(e.code, LL_EXIT_USAGE, "flip at %zu: code %d %s", pos, e.code, e.msg);
        cr_assert_gt(strlen(e.msg), 6);
        rejected++;
      }
      emu_codeobj_free(co);
      tries++;
    }
  }
  cr_assert_gt(rejected, 0, "no corruption was detected in %d tries", tries);
  free(b);
  free(orig);
  free(p);
}

Test(emu_loader, missing_file_is_exit_2) {
  ll_err e = {0};
  cr_assert_null(emu_codeobj_load_file("/nonexistent/x.co", &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
}

/* ---- MessagePack, hand-encoded from the specification -----------------------------------------*/
Test(emu_msgpack, decodes_every_family) {
  static const uint8_t m[] = {
      0x8a,                                      /* fixmap, 10 pairs */
      0xa1, 'a', 0x7f,                           /* positive fixint 127 */
      0xa1, 'b', 0xe0,                           /* negative fixint -32 */
      0xa1, 'c', 0xcd, 0x12, 0x34,               /* uint16 0x1234 */
      0xa1, 'd', 0xd1, 0xff, 0x00,               /* int16 -256 */
      0xa1, 'e', 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, /* float64 1.5 */
      0xa1, 'f', 0x92, 0xc3, 0xc0,               /* fixarray [true, nil] */
      0xa1, 'g', 0xd9, 0x03, 'x', 'y', 'z',      /* str8 "xyz" */
      0xa1, 'h', 0xdc, 0x00, 0x01, 0xc2,         /* array16 [false] */
      0xa1, 'i', 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* uint64 max */
      0xa1, 'j', 0xd4, 0x05, 0x42,               /* fixext1 type 5, 1 byte */
  };
  ll_err e = {0};
  emu_mp *v = emu_mp_parse(m, sizeof m, &e);
  cr_assert_not_null(v, "%s", e.msg);
  cr_assert_eq(v->type, EMU_MP_MAP);
  cr_assert_eq(v->n, 10);
  uint64_t u;
  cr_assert(emu_mp_as_u64(emu_mp_get(v, "a"), &u) && u == 127);
  cr_assert_eq(emu_mp_get(v, "b")->type, EMU_MP_INT);
  cr_assert_eq(emu_mp_get(v, "b")->i, -32);
  cr_assert(emu_mp_as_u64(emu_mp_get(v, "c"), &u) && u == 0x1234);
  cr_assert_eq(emu_mp_get(v, "d")->i, -256);
  cr_assert_eq(emu_mp_get(v, "e")->f, 1.5);
  const emu_mp *f = emu_mp_get(v, "f");
  cr_assert(f->type == EMU_MP_ARR && f->n == 2 && f->items[0].b && f->items[1].type == EMU_MP_NIL);
  cr_assert(emu_mp_str_eq(emu_mp_get(v, "g"), "xyz"));
  cr_assert(emu_mp_get(v, "h")->n == 1 && emu_mp_get(v, "h")->items[0].type == EMU_MP_BOOL &&
            !emu_mp_get(v, "h")->items[0].b);
  cr_assert(emu_mp_as_u64(emu_mp_get(v, "i"), &u) && u == UINT64_MAX);
  cr_assert(emu_mp_get(v, "j")->type == EMU_MP_EXT && emu_mp_get(v, "j")->ext_type == 5 &&
            emu_mp_get(v, "j")->len == 1 && emu_mp_get(v, "j")->s[0] == 0x42);
  cr_assert_null(emu_mp_get(v, "zz"));
  /* every proper prefix is truncated */
  for (size_t k = 0; k < sizeof m; k++) {
    ll_err e2 = {0};
    cr_assert_null(emu_mp_parse(m, k, &e2), "prefix %zu accepted", k);
    cr_assert_eq(e2.code, LL_EXIT_USAGE);
    cr_assert(strstr(e2.msg, "truncated"), "prefix %zu: %s", k, e2.msg);
  }
  emu_mp_free(v);
}

Test(emu_msgpack, rejects_reserved_trailing_huge_and_deep) {
  ll_err e = {0};
  const uint8_t reserved[] = {0x91, 0xc1};
  cr_assert_null(emu_mp_parse(reserved, 2, &e));
  cr_assert(strstr(e.msg, "0xc1") && strstr(e.msg, "byte 1"), "%s", e.msg);
  const uint8_t trailing[] = {0x01, 0x02};
  cr_assert_null(emu_mp_parse(trailing, 2, &e));
  cr_assert(strstr(e.msg, "ends at byte 1"), "%s", e.msg);
  const uint8_t huge[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x00}; /* array32 of 4G elements, 1 byte left */
  cr_assert_null(emu_mp_parse(huge, sizeof huge, &e));
  cr_assert(strstr(e.msg, "truncated"), "%s", e.msg);
  uint8_t deep[100];
  memset(deep, 0x91, sizeof deep); /* 99 nested one-element arrays around 0 */
  deep[99] = 0;
  cr_assert_null(emu_mp_parse(deep, sizeof deep, &e));
  cr_assert(strstr(e.msg, "deeper"), "%s", e.msg);
}

/* ---- arch facts -------------------------------------------------------------------------------*/
Test(emu_arch, names_sizes_and_elf_mach) {
  emu_arch a;
  cr_assert(emu_arch_parse("gfx942", &a) && a == EMU_GFX942);
  cr_assert(emu_arch_parse("gfx950", &a) && a == EMU_GFX950);
  cr_assert(!emu_arch_parse("gfx940", &a));
  cr_assert(!emu_arch_parse("", &a));
  cr_assert_str_eq(emu_arch_name(EMU_GFX942), "gfx942");
  cr_assert_str_eq(emu_arch_name(EMU_GFX950), "gfx950");
  cr_assert_eq(emu_arch_lds_bytes(EMU_GFX942), 65536);   /* CDNA3: 64 KiB */
  cr_assert_eq(emu_arch_lds_bytes(EMU_GFX950), 163840);  /* CDNA4: 160 KiB */
  cr_assert_eq(emu_arch_elf_mach(EMU_GFX942), 0x4c);     /* AMDGPUUsage EF_AMDGPU_MACH values */
  cr_assert_eq(emu_arch_elf_mach(EMU_GFX950), 0x4f);
}

/* ---- hand-written kernels (AMD aiter style): the loader's leniencies ------------------------------
 * Written the way AMD's assembly kernels are: no .size on the code symbols, no .amdhsa_kernarg_size
 * (descriptor KERNARG_SIZE 0), a metadata block of their own saying amdhsa.version [1, 0] and a
 * .kernarg_segment_size that the argument list runs past. */
static const char lenient_src[] =
    ".amdhsa_code_object_version %d\n"
    ".text\n.global hand_a\n.p2align 8\n.type hand_a,@function\nhand_a:\n"
    "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n  s_nop 0\n  s_nop 1\n  s_endpgm\n"
    ".global hand_b\n.p2align 8\n.type hand_b,@function\nhand_b:\n  s_endpgm\n"
    ".rodata\n.p2align 6\n"
    ".amdhsa_kernel hand_a\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n .amdhsa_next_free_vgpr 8\n"
    " .amdhsa_next_free_sgpr 16\n .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n"
    ".amdhsa_kernel hand_b\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n .amdhsa_next_free_vgpr 8\n"
    " .amdhsa_next_free_sgpr 16\n .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n"
    ".amdgpu_metadata\n---\namdhsa.version: [ 1, %d ]\namdhsa.kernels:\n"
    "  - { .name: hand_a, .symbol: hand_a.kd, .sgpr_count: 16, .vgpr_count: 8, .kernarg_segment_align: 8,\n"
    "      .kernarg_segment_size: %d, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0,\n"
    "      .wavefront_size: 64, .max_flat_workgroup_size: 256, .args: [\n"
    "      { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global },\n"
    "      { .name: n, .size: 12, .offset: 8, .value_kind: by_value } ] }\n"
    "  - { .name: hand_b, .symbol: hand_b.kd, .sgpr_count: 16, .vgpr_count: 8, .kernarg_segment_align: 8,\n"
    "      .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0,\n"
    "      .wavefront_size: 64, .max_flat_workgroup_size: 256 }\n"
    "...\n.end_amdgpu_metadata\n";

static emu_codeobj *load_lenient(const char *arch, int cov, int minor, int segsize, char **path) {
  char *src = ll_fmt(lenient_src, cov, minor, segsize);
  *path = assemble_co(src, NULL, arch, NULL);
  free(src);
  return load_ok(*path);
}

Test(emu_loader, accepts_what_rocm_accepts_and_says_so) {
  /* v5 object, metadata [1, 0], descriptor kernarg size 0, args ending at 20 > segment size 16 */
  char *p;
  emu_codeobj *co = load_lenient("gfx950", 5, 0, 16, &p);
  cr_assert_eq(co->code_object_version, 5);
  cr_assert_not_null(co->notes);
  cr_assert(strstr(co->notes, "amdhsa.version [1, 0] in a code object v5"), "%s", co->notes);
  cr_assert(strstr(co->notes, "'hand_a': descriptor kernarg size 0, metadata .kernarg_segment_size 16 used"), "%s", co->notes);
  cr_assert(strstr(co->notes, "ends past .kernarg_segment_size 16; kernarg segment grown to 20 bytes"), "%s", co->notes);
  const emu_kernel *a = emu_codeobj_kernel(co, "hand_a", NULL), *b = emu_codeobj_kernel(co, "hand_b", NULL);
  cr_assert_eq(a->kernarg_size, 8 + 12, "segment covers the last argument (offset 8 + size 12)");
  cr_assert_eq(b->kernarg_size, 0);
  /* extents: st_size is 0 for both (readelf); hand_a runs to hand_b (.p2align 8: 256 bytes apart),
   * hand_b to the end of .text (one 4-byte s_endpgm) */
  cr_assert_eq(readelf_sym(p, "hand_b") - readelf_sym(p, "hand_a"), 256);
  cr_assert_eq(a->code_size, 256, "hand_a extent %llu", (unsigned long long)a->code_size);
  cr_assert_eq(b->code_size, 4, "hand_b extent %llu", (unsigned long long)b->code_size);
  cr_assert_eq(co->text_vaddr + co->text_size, b->entry + 4);
  emu_codeobj_free(co);
  free(p);
  /* code object v4 (ELF ABI version 2) with its own metadata version [1, 1] */
  co = load_lenient("gfx942", 4, 1, 20, &p);
  cr_assert_eq(co->code_object_version, 4);
  cr_assert(strstr(co->notes, "code object v4"), "%s", co->notes);
  cr_assert_null(strstr(co->notes, "amdhsa.version"), "[1, 1] is v4's own metadata version: %s", co->notes);
  cr_assert_null(strstr(co->notes, "grown"), "args fit in 20 bytes: %s", co->notes);
  emu_codeobj_free(co);
  free(p);
  /* a clang-built v6 object needs no leniency */
  p = compile("gfx950", NULL);
  co = load_ok(p);
  cr_assert_null(co->notes, "clang output needed leniency: %s", co->notes);
  emu_codeobj_free(co);
  free(p);
}

Test(emu_loader, metadata_major_other_than_1_stays_refused) {
  char *src = ll_fmt(lenient_src, 5, 0, 16), *at = strstr(src, "[ 1, 0 ]");
  cr_assert_not_null(at);
  at[2] = '2'; /* amdhsa.version [2, 0]: not the MessagePack metadata format lanelab reads */
  char *p = assemble_co(src, NULL, "gfx950", NULL);
  size_t n;
  uint8_t *b = ll_read_file(p, &n, NULL);
  expect_reject(b, n, "expected major 1", "metadata version [2, 0]");
  free(b), free(p), free(src);
}

/* Dynamic relocations: tests/hip/globals.hip stores two pointers (tabs = {va, vb}) in .data, which
 * ld.lld leaves to the loader as R_AMDGPU_RELATIVE64 entries. The loader must list both, at tabs
 * and tabs + 8, with the addresses of va and vb (from llvm-readelf, not from the loader), and
 * emu_codeobj_relocate must store base + those into a copy of the image. A relocation type it does
 * not apply, or an ABS64 with a bad symbol, is refused by name (exit 2), never ignored. */
static uint8_t *read_all(const char *path, size_t *n) {
  ll_err e = {0};
  uint8_t *b = ll_read_file(path, n, &e);
  cr_assert_not_null(b, "%s", e.msg);
  return b;
}
/* File offset of the first SHT_RELA section's entries (ELF-64 section headers, parsed here). */
static uint64_t rela_offset(const uint8_t *b, size_t n) {
  uint64_t shoff = 0;
  uint16_t shnum = 0;
  memcpy(&shoff, b + 0x28, 8);
  memcpy(&shnum, b + 0x3c, 2);
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *s = b + shoff + 64ull * i;
    uint32_t type;
    memcpy(&type, s + 4, 4);
    if (type == 4) {
      uint64_t off;
      memcpy(&off, s + 24, 8);
      cr_assert_lt(off + 24, n);
      return off;
    }
  }
  cr_assert_fail("no SHT_RELA section");
  return 0;
}
Test(emu_loader, dynamic_relocations_are_applied_or_refused_by_name) {
  char *co_path = compile_src(LANELAB_ROOT "/tests/hip/globals.hip", "gfx942", "-I" LANELAB_ROOT "/hip/include");
  long long tabs = readelf_sym(co_path, "tabs"), va = readelf_sym(co_path, "va"), vb = readelf_sym(co_path, "vb");
  cr_assert(tabs > 0 && va > 0 && vb > 0, "symbols tabs/va/vb not found by llvm-readelf");
  emu_codeobj *co = load_ok(co_path);
  cr_assert_eq(co->nrelocs, 2, "%zu relocations, want the 2 pointers of tabs", co->nrelocs);
  cr_expect(co->relocs[0].offset == (uint64_t)tabs && co->relocs[0].value == (uint64_t)va, "tabs[0]");
  cr_expect(co->relocs[1].offset == (uint64_t)tabs + 8 && co->relocs[1].value == (uint64_t)vb, "tabs[1]");
  uint8_t *img = malloc(co->image_size);
  memcpy(img, co->image, co->image_size);
  const uint64_t base = 0x123450000ull;
  emu_codeobj_relocate(co, img, base);
  uint64_t p0, p1;
  memcpy(&p0, img + tabs, 8);
  memcpy(&p1, img + tabs + 8, 8);
  cr_expect_eq(p0, base + (uint64_t)va);
  cr_expect_eq(p1, base + (uint64_t)vb);
  free(img);
  emu_codeobj_free(co);

  size_t n;
  uint8_t *b = read_all(co_path, &n);
  uint64_t ro = rela_offset(b, n);
  uint8_t *c = malloc(n);
  memcpy(c, b, n);
  put64(c + ro + 8, 5); /* R_AMDGPU_REL64: not something a loader applies */
  expect_reject(c, n, "relocation type 5", "REL64 in .rela.dyn");
  memcpy(c, b, n);
  put64(c + ro + 8, 3); /* R_AMDGPU_ABS64 against symbol 0 */
  expect_reject(c, n, "symbol index 0", "ABS64 against the null symbol");
  memcpy(c, b, n);
  put64(c + ro, 1ull << 40); /* outside the image */
  expect_reject(c, n, "outside the loaded image", "relocation past the image");
  free(c);
  free(b);
  free(co_path);
}

/* ---- kernarg preload (AMDGPUUsage "Preloaded Kernel Arguments", "Initial Kernel Execution State")
 * Hand-written kernels in AMD's style (aiter's topk_per_row): a 256-byte compatibility header
 * (s_trap 2 for firmware without preload, then s_nop) before the body. On hardware with preload the
 * CP adds 256 to the entry and copies KERNARG_PRELOAD_SPEC_LENGTH dwords, from dword
 * KERNARG_PRELOAD_SPEC_OFFSET of the kernarg segment, into the user SGPRs after the others. The
 * body copies s0..s19 into VGPRs before touching any SGPR, then stores them to out + 128 * (wg y *
 * 2 + wg x). Expected values are written here from that order, not taken from lanelab. */
typedef struct {
  const char *enables;  /* .amdhsa_* lines */
  unsigned len, off;    /* preload length, offset (dwords) */
  unsigned kaptr;       /* first SGPR of the kernarg segment pointer */
  unsigned wgx, wgy;    /* SGPRs of the workgroup ids (wgy 0: none) */
} preload_case;

static char *preload_src(const preload_case *c, const char *header)
{
  ll_buf b = {0};
  ll_buf_printf(&b, ".text\n.global pl\n.p2align 8\n.type pl,@function\npl:\n%s", header);
  for (int i = 0; i < 20; i++) ll_buf_printf(&b, "  v_mov_b32 v%d, s%d\n", 10 + i, i);
  ll_buf_printf(&b, "  s_mov_b32 s40, s%u\n", c->wgx);
  if (c->wgy) ll_buf_printf(&b, "  s_lshl_b32 s41, s%u, 1\n  s_add_u32 s40, s40, s41\n", c->wgy);
  ll_buf_printf(&b, "  s_lshl_b32 s40, s40, 7\n"                    /* 128 bytes per workgroup */
                    "  s_load_dwordx2 s[42:43], s[%u:%u], 0x0\n"      /* out, kernarg bytes 0..7 */
                    "  s_mov_b64 exec, 1\n  v_mov_b32 v1, s40\n  s_waitcnt lgkmcnt(0)\n",
                c->kaptr, c->kaptr + 1);
  for (int i = 0; i < 20; i++) ll_buf_printf(&b, "  global_store_dword v1, v%d, s[42:43] offset:%d\n", 10 + i, 4 * i);
  ll_buf_printf(&b, "  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel pl\n%s"
                    "  .amdhsa_user_sgpr_kernarg_preload_length %u\n  .amdhsa_user_sgpr_kernarg_preload_offset %u\n"
                    "  .amdhsa_private_segment_fixed_size 16\n"
                    "  .amdhsa_next_free_vgpr 32\n  .amdhsa_next_free_sgpr 48\n  .amdhsa_accum_offset 32\n"
                    ".end_amdhsa_kernel\n"
                    ".amdgpu_metadata\n---\namdhsa.version: [ 1, 0 ]\namdhsa.kernels:\n"
                    "  - .name: pl\n    .symbol: pl.kd\n    .sgpr_count: 48\n    .vgpr_count: 32\n"
                    "    .kernarg_segment_align: 8\n    .kernarg_segment_size: 24\n"
                    "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 16\n"
                    "    .wavefront_size: 64\n    .max_flat_workgroup_size: 64\n    .args:\n"
                    "    - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }\n"
                    "    - { .size: 4, .offset: 8, .value_kind: by_value }\n"
                    "    - { .size: 4, .offset: 12, .value_kind: by_value }\n"
                    "    - { .size: 4, .offset: 16, .value_kind: by_value }\n"
                    "    - { .size: 4, .offset: 20, .value_kind: by_value }\n"
                    "...\n.end_amdgpu_metadata\n",
                c->enables, c->len, c->off);
  ll_buf_str(&b);
  return b.data;
}

static const char preload_header[] = "  s_trap 2\n  .fill 63, 4, 0xbf800000\n";

static void preload_run(const char *arch, const preload_case *c)
{
  char *src = preload_src(c, preload_header);
  char *co_path = assemble_co(src, NULL, arch, NULL);
  emu_codeobj *co = load_ok(co_path);
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(co, "pl", &e);
  cr_assert_not_null(k, "%s", e.msg);
  cr_assert_eq(k->kernarg_preload_count, c->len);
  cr_assert_eq(k->kernarg_preload_offset, c->off);
  cr_assert_eq(k->start, k->entry + 256, "%s: execution starts past the 256-byte header", arch);
  static uint32_t out[4 * 32];
  memset(out, 0xee, sizeof out);
  uint8_t pkt[64] = {0};
  emu_mem *m = emu_mem_new();
  uint64_t po = emu_mem_map(m, out, sizeof out, "out"), dp = emu_mem_map(m, pkt, sizeof pkt, "packet");
  uint32_t ka[6] = {(uint32_t)po, (uint32_t)(po >> 32), 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u};
  uint64_t dka = emu_mem_map(m, ka, sizeof ka, "kernarg");
  emu_dispatch d = {.co = co, .kernel = k, .grid = {2, c->wgy ? 2u : 1u, 1}, .block = {64, 1, 1},
                    .kernarg_addr = dka, .dispatch_ptr = dp};
  emu_launch_opts o = {.threads = 1};
  emu_fault f;
  int rc = emu_launch(m, &d, &o, &f, NULL);
  cr_assert_eq(rc, LL_EXIT_OK, "%s: %s", arch, f.msg);
  for (uint32_t wy = 0; wy < d.grid[1]; wy++)
    for (uint32_t wx = 0; wx < 2; wx++) {
      const uint32_t *s = out + 32 * (wy * 2 + wx);
      /* the user SGPRs in AMDGPUUsage order: dispatch ptr, kernarg ptr, private segment size, the
       * preloaded dwords, then the workgroup ids */
      unsigned r = 0;
      if (strstr(c->enables, "dispatch_ptr 1")) {
        cr_assert_eq(s[r], (uint32_t)dp);
        cr_assert_eq(s[r + 1], (uint32_t)(dp >> 32));
        r += 2;
      }
      cr_assert_eq(r, c->kaptr);
      cr_assert_eq(s[r], (uint32_t)dka, "%s s%u", arch, r);
      cr_assert_eq(s[r + 1], (uint32_t)(dka >> 32));
      r += 2;
      if (strstr(c->enables, "private_segment_size 1")) cr_assert_eq(s[r++], 16u, "%s s%u private segment size", arch, r);
      for (unsigned i = 0; i < c->len; i++, r++)
        cr_assert_eq(s[r], ka[c->off + i], "%s wg (%u,%u) s%u = 0x%x, want kernarg dword %u = 0x%x", arch, wx, wy, r,
                     s[r], c->off + i, ka[c->off + i]);
      cr_assert_eq(r, c->wgx);
      cr_assert_eq(s[r++], wx, "%s workgroup id x in s%u", arch, c->wgx);
      if (c->wgy) cr_assert_eq(s[r++], wy, "%s workgroup id y in s%u", arch, c->wgy);
    }
  emu_mem_free(m);
  emu_codeobj_free(co);
  free(co_path), free(src);
}

static const preload_case PL_A = {"  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_system_sgpr_workgroup_id_x 1\n",
                                  4, 0, 0, 6, 0};
static const preload_case PL_B = {"  .amdhsa_user_sgpr_dispatch_ptr 1\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                                  "  .amdhsa_user_sgpr_private_segment_size 1\n"
                                  "  .amdhsa_system_sgpr_workgroup_id_x 1\n  .amdhsa_system_sgpr_workgroup_id_y 1\n",
                                  3, 2, 2, 8, 9};

Test(kernarg_preload, sgprs_and_entry_past_the_header_gfx942) { preload_run("gfx942", &PL_A), preload_run("gfx942", &PL_B); }
Test(kernarg_preload, sgprs_and_entry_past_the_header_gfx950) { preload_run("gfx950", &PL_A), preload_run("gfx950", &PL_B); }

/* Descriptor fields the CP cannot honour are exit 2 naming them, before anything runs. */
static void preload_reject(const char *arch, const preload_case *c, const char *header, const char *want)
{
  char *src = preload_src(c, header);
  char *co_path = assemble_co(src, NULL, arch, NULL);
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(co_path, &e);
  cr_assert_null(co, "%s: accepted (%s)", arch, want);
  cr_assert_eq(e.code, LL_EXIT_USAGE, "%s: %s", arch, e.msg);
  cr_assert(strstr(e.msg, want) && strstr(e.msg, "'pl'"), "%s: %s", arch, e.msg);
  free(co_path), free(src);
}

Test(kernarg_preload, descriptor_fields_are_validated)
{
  const char *arch[2] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    /* dwords 4..7 of a 24-byte segment: bytes 16..31 */
    preload_case past = PL_A;
    past.off = 4;
    preload_reject(arch[a], &past, preload_header, "preloads kernarg dwords 4..7 (bytes 16..31) but the kernarg segment is 24 bytes");
    /* 2 (kernarg ptr) + 15 preloaded = 17 user SGPRs: the hardware sets 16 */
    preload_case many = PL_A;
    many.len = 15;
    preload_reject(arch[a], &many, preload_header, "needs 17 user SGPRs; the hardware initializes 16");
  }
}

/* a body shorter than the header: the entry the CP computes is past .text */
Test(kernarg_preload, entry_past_text_is_refused)
{
  const char *src = ".text\n.global pl\n.p2align 8\n.type pl,@function\npl:\n  s_endpgm\n"
                    ".rodata\n.p2align 6\n.amdhsa_kernel pl\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                    "  .amdhsa_user_sgpr_kernarg_preload_length 2\n  .amdhsa_next_free_vgpr 8\n"
                    "  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n"
                    ".amdgpu_metadata\n---\namdhsa.version: [ 1, 0 ]\namdhsa.kernels:\n"
                    "  - .name: pl\n    .symbol: pl.kd\n    .sgpr_count: 16\n    .vgpr_count: 8\n"
                    "    .kernarg_segment_align: 8\n    .kernarg_segment_size: 8\n"
                    "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n"
                    "    .wavefront_size: 64\n    .max_flat_workgroup_size: 64\n"
                    "...\n.end_amdgpu_metadata\n";
  char *co_path = assemble_co(src, NULL, "gfx942", NULL);
  ll_err e = {0};
  cr_assert_null(emu_codeobj_load_file(co_path, &e));
  cr_assert(e.code == LL_EXIT_USAGE && strstr(e.msg, "kernarg preload moves the entry 256 bytes") &&
            strstr(e.msg, "outside .text"), "%s", e.msg);
  free(co_path);
}
