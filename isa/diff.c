/* isa/diff — are two code objects' machine code the same, byte for byte? Compares the .text
 * section and each kernel symbol's bytes [st_value, +st_size); where they differ, names the first
 * differing offset and the instruction LLVM's disassembler shows there on each side. Byte identity
 * is the proof an untouched arch stayed untouched (docs/changes.md, change 000: gfx942's ISA
 * byte-identical to base). */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

static int64_t first_diff(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb) {
  uint64_t n = na < nb ? na : nb;
  for (uint64_t i = 0; i < n; i++)
    if (a[i] != b[i]) return (int64_t)i;
  return na == nb ? -1 : (int64_t)n;
}

static const isa_sym *find_sym(const isa_elf *e, const char *name) {
  for (size_t i = 0; i < e->nfuncs; i++)
    if (strcmp(e->funcs[i].name, name) == 0) return &e->funcs[i];
  return NULL;
}

/* Text of the instruction covering vaddr ("" if none; "<end of .text>" past the end). */
static void insn_at(const isa_insn *v, size_t n, uint64_t vaddr, uint64_t text_end, char *out, size_t cap) {
  out[0] = 0;
  if (vaddr >= text_end) { snprintf(out, cap, "<end of .text>"); return; }
  const isa_insn *best = NULL;
  for (size_t i = 0; i < n; i++)
    if (v[i].vaddr <= vaddr && (!best || v[i].vaddr > best->vaddr)) best = &v[i];
  if (best) snprintf(out, cap, "0x%llx: %s", (unsigned long long)best->vaddr, best->text);
}

typedef struct side {
  const char *path;
  isa_elf *e;
  isa_insn *v;   /* disassembled on demand */
  size_t n;
  bool tried;
} side;

static bool disasm_side(side *s, ll_err *err) {
  if (s->tried) return s->v != NULL;
  s->tried = true;
  s->v = isa_disasm(s->path, s->e->arch, &s->n, err);
  return s->v != NULL;
}

bool isa_diff_files(const char *a, const char *b, isa_diff_result *res, report_table **out, ll_err *err) {
  memset(res, 0, sizeof *res);
  res->first_offset = -1;
  if (out) *out = NULL;
  side A = {a, NULL, NULL, 0, false}, B = {b, NULL, NULL, 0, false};
  bool ok = false;
  report_table *t = NULL;
  if (!(A.e = isa_elf_read_file(a, err)) || !(B.e = isa_elf_read_file(b, err))) goto done;
  res->text_identical = A.e->text_size == B.e->text_size && memcmp(A.e->text, B.e->text, A.e->text_size) == 0;
  res->first_offset = first_diff(A.e->text, A.e->text_size, B.e->text, B.e->text_size);
  if (res->first_offset >= 0) {
    if (!disasm_side(&A, err) || !disasm_side(&B, err)) goto done;
    insn_at(A.v, A.n, A.e->text_vaddr + res->first_offset, A.e->text_vaddr + A.e->text_size, res->insn_a, sizeof res->insn_a);
    insn_at(B.v, B.n, B.e->text_vaddr + res->first_offset, B.e->text_vaddr + B.e->text_size, res->insn_b, sizeof res->insn_b);
  }
  char *title = ll_fmt("isa diff %s %s", a, b);
  t = report_table_new(title, "kernel,bytes_a#,bytes_b#,verdict,detail");
  free(title);
  /* kernels of A (in A's order), then those only in B */
  for (int pass = 0; pass < 2; pass++) {
    side *S = pass ? &B : &A, *O = pass ? &A : &B;
    for (size_t i = 0; i < S->e->nfuncs; i++) {
      const isa_sym *s = &S->e->funcs[i], *o = find_sym(O->e, s->name);
      if (pass == 1 && o) continue; /* already reported */
      if (!o) {
        if (pass == 0) res->kernels_only_a++;
        else res->kernels_only_b++;
        char sz[32];
        snprintf(sz, sizeof sz, "%llu", (unsigned long long)s->size);
        report_table_row(t, "%s\t%s\t%s\tonly in %s\t", s->name, pass ? "" : sz, pass ? sz : "", pass ? "B" : "A");
        continue;
      }
      const uint8_t *pa = A.e->text + (s->vaddr - A.e->text_vaddr), *pb = B.e->text + (o->vaddr - B.e->text_vaddr);
      int64_t d = first_diff(pa, s->size, pb, o->size);
      if (d < 0) {
        report_table_row(t, "%s\t%llu\t%llu\tidentical\t", s->name, (unsigned long long)s->size, (unsigned long long)o->size);
        continue;
      }
      res->kernels_different++;
      char ia[192], ib[192];
      if (!disasm_side(&A, err) || !disasm_side(&B, err)) goto done;
      insn_at(A.v, A.n, s->vaddr + d, s->vaddr + s->size, ia, sizeof ia);
      insn_at(B.v, B.n, o->vaddr + d, o->vaddr + o->size, ib, sizeof ib);
      report_table_row(t, "%s\t%llu\t%llu\tdifferent\tfirst at +0x%llx: A %s | B %s", s->name,
                       (unsigned long long)s->size, (unsigned long long)o->size, (unsigned long long)d, ia, ib);
    }
  }
  bool same_arch = strcmp(A.e->arch, B.e->arch) == 0;
  res->identical = same_arch && res->text_identical && !res->kernels_different && !res->kernels_only_a && !res->kernels_only_b;
  report_table_note(t, "A: %s (%s), .text %llu bytes at 0x%llx", a, A.e->arch, (unsigned long long)A.e->text_size,
                    (unsigned long long)A.e->text_vaddr);
  report_table_note(t, "B: %s (%s), .text %llu bytes at 0x%llx", b, B.e->arch, (unsigned long long)B.e->text_size,
                    (unsigned long long)B.e->text_vaddr);
  if (!same_arch) report_table_note(t, "arches differ: %s vs %s", A.e->arch, B.e->arch);
  if (res->first_offset >= 0)
    report_table_note(t, ".text differs; first at offset 0x%llx: A %s | B %s", (unsigned long long)res->first_offset,
                      res->insn_a, res->insn_b);
  else
    report_table_note(t, ".text bytes identical");
  report_table_note(t, "verdict: %s", res->identical ? "identical" : "different");
  ok = true;
done:
  if (ok && out) *out = t;
  else report_table_free(t);
  isa_elf_free(A.e);
  isa_elf_free(B.e);
  isa_insns_free(A.v, A.n);
  isa_insns_free(B.v, B.n);
  return ok;
}
