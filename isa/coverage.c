/* isa/coverage — `lanelab isa coverage CO...`: the emulator's fidelity over a code object's
 * instructions (docs/fidelity.md). Every instruction of .text, as the emulator decodes it
 * (emu_codeobj_program: LLVM's disassembler, the record parser, the op tables), falls in exactly one
 * class: semantics from AMD's documents only; resting on one or more stated choices
 * (docs/emulator-choices.md "Stated choices: index"); or refused (it faults "unimplemented" if
 * executed, with the reason listed). Bytes LLVM does not decode (data, padding) are refused
 * "instructions" too, so the three classes always add up to the total. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "isa/isa.h"

typedef struct item {
  char *key, *why;   /* refused: mnemonic and reason; choice: NULL */
  size_t n;
} item;

struct isa_coverage {
  char *path;
  emu_arch arch;
  size_t total, semantics, on_choices, refused;
  size_t per_choice[EMU_MAX_CHOICES];
  char *choice_mnems[EMU_MAX_CHOICES]; /* up to 4 distinct mnemonics, ", "-separated, "+N" after */
  size_t choice_nmnem[EMU_MAX_CHOICES];
  item *ref;
  size_t nref;
};

static void add_refused(isa_coverage *c, const char *mnem, const char *why)
{
  for (size_t i = 0; i < c->nref; i++)
    if (!strcmp(c->ref[i].key, mnem) && !strcmp(c->ref[i].why, why)) {
      c->ref[i].n++;
      return;
    }
  c->ref = ll_xrealloc(c->ref, (c->nref + 1) * sizeof *c->ref);
  c->ref[c->nref++] = (item){ll_xstrdup(mnem), ll_xstrdup(why), 1};
}

static void add_choice_mnem(isa_coverage *c, int ch, const char *mnem)
{
  char *l = c->choice_mnems[ch];
  if (l) { /* already listed? (whole-word match in the ", "-separated list) */
    size_t n = strlen(mnem);
    for (const char *p = l; (p = strstr(p, mnem)); p += n)
      if ((p == l || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) return;
  }
  c->choice_nmnem[ch]++;
  if (c->choice_nmnem[ch] > 4) return;
  c->choice_mnems[ch] = l ? ll_fmt("%s, %s", l, mnem) : ll_xstrdup(mnem);
  free(l);
}

static int cmp_ref(const void *a, const void *b)
{
  const item *x = a, *y = b;
  if (x->n != y->n) return x->n < y->n ? 1 : -1;
  return strcmp(x->key, y->key);
}

isa_coverage *isa_coverage_file(const char *path, ll_err *err)
{
  emu_codeobj *co = emu_codeobj_load_file(path, err);
  if (!co) return NULL;
  const emu_program *p = emu_codeobj_program(co, err);
  if (!p) {
    emu_codeobj_free(co);
    return NULL;
  }
  isa_coverage *c = ll_xcalloc(1, sizeof *c);
  c->path = ll_xstrdup(path);
  c->arch = co->arch;
  size_t n = emu_program_count(p);
  for (size_t i = 0; i < n; i++) {
    const emu_insn_info *in = emu_program_insn(p, i);
    c->total++;
    if (!in->implemented) {
      c->refused++;
      add_refused(c, in->mnem, in->why ? in->why : "no semantics");
    } else if (!in->choices) {
      c->semantics++;
    } else {
      c->on_choices++;
      for (int ch = 1; ch < EMU_MAX_CHOICES; ch++)
        if (in->choices >> ch & 1) c->per_choice[ch]++, add_choice_mnem(c, ch, in->mnem);
    }
  }
  if (c->nref) qsort(c->ref, c->nref, sizeof *c->ref, cmp_ref); /* qsort(NULL, 0) is undefined */
  emu_codeobj_free(co);
  return c;
}

void isa_coverage_free(isa_coverage *c)
{
  if (!c) return;
  for (size_t i = 0; i < c->nref; i++) free(c->ref[i].key), free(c->ref[i].why);
  for (int ch = 0; ch < EMU_MAX_CHOICES; ch++) free(c->choice_mnems[ch]);
  free(c->ref);
  free(c->path);
  free(c);
}

void isa_coverage_totals(const isa_coverage *c, size_t *total, size_t *semantics, size_t *on_choices,
                         size_t *refused)
{
  if (total) *total = c->total;
  if (semantics) *semantics = c->semantics;
  if (on_choices) *on_choices = c->on_choices;
  if (refused) *refused = c->refused;
}

size_t isa_coverage_choice(const isa_coverage *c, size_t choice)
{
  return choice < EMU_MAX_CHOICES ? c->per_choice[choice] : 0;
}

report_table *isa_coverage_table(isa_coverage *const *cs, size_t n)
{
  report_table *t = report_table_new("emulator fidelity over the code objects' instructions",
                                     "codeobj,arch,class,item,instructions#,detail");
  for (size_t k = 0; k < n; k++) {
    const isa_coverage *c = cs[k];
    const char *a = emu_arch_name(c->arch);
    report_table_row(t, "%s\t%s\ttotal\t-\t%zu\t.text, every instruction decoded", c->path, a, c->total);
    report_table_row(t, "%s\t%s\tsemantics\t-\t%zu\tfrom AMD's documents only", c->path, a, c->semantics);
    report_table_row(t, "%s\t%s\tchoices\t-\t%zu\tresting on at least one stated choice", c->path, a, c->on_choices);
    for (size_t ch = 1; ch < emu_choice_count(); ch++) {
      if (!c->per_choice[ch]) continue;
      const emu_choice *e = emu_choice_get(ch);
      char more[32] = "";
      if (c->choice_nmnem[ch] > 4) snprintf(more, sizeof more, " +%zu more", c->choice_nmnem[ch] - 4);
      report_table_row(t, "%s\t%s\tchoice\t%s\t%zu\tdocs/emulator-choices.md#%s: %s%s", c->path, a, e->id,
                       c->per_choice[ch], e->id, c->choice_mnems[ch], more);
    }
    report_table_row(t, "%s\t%s\trefused\t-\t%zu\tfault \"unimplemented\" if executed", c->path, a, c->refused);
    for (size_t i = 0; i < c->nref; i++)
      report_table_row(t, "%s\t%s\trefused\t%s\t%zu\t%s", c->path, a, c->ref[i].key, c->ref[i].n, c->ref[i].why);
  }
  report_table_note(t, "classes: total = semantics + choices + refused; an instruction resting on several choices "
                       "is listed under each (docs/fidelity.md)");
  return t;
}
