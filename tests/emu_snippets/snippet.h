/* Instruction-level harness for the emulator's family tests (test_emu_mfma.c, test_emu_xlane.c).
 *
 * A snippet is assembled with llvm-mc-22 for the arch, its .text extracted with llvm-objcopy
 * (tests/asm_text.h, memoised per test), and
 * decoded by the emulator's own decoder (emu_program_decode: LLVM's disassembler + the record
 * parser). The harness then runs the records on one hand-built wave (registers set by the test,
 * LDS owned by the test, EXEC chosen by the test) by calling each record's handler in order, so a
 * family's semantics are tested without depending on other families (no loads needed to set up
 * inputs). Header-only; every function is static. */
#ifndef LANELAB_TESTS_SNIPPET_H
#define LANELAB_TESTS_SNIPPET_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/internal.h"
#include "tests/asm_text.h"
#include "util/util.h"

#define SN_UNUSED __attribute__((unused))

typedef struct snip {
  emu_arch arch;
  uint8_t *code;
  size_t ncode;
  emu_program *p;
  emu_kernel k;
  emu_dispatch d;
  emu_wg g;
  emu_wave w;
  emu_fault f;
  struct emu_mfma_ctx *mfma; /* the MFMA state a worker would own (emu_wg.mfma) */
  uint32_t *vfile;
  uint8_t lds[163840];
} snip;

#define SN_ACCUM 256 /* AGPR a0 = unified file entry 256 */

/* One memory operation of a wait test: its text and the registers it loads (n 0: none; agpr:
 * AGPRs a[reg .. reg + n), else VGPRs v[reg .. reg + n)). */
typedef struct sn_pend_op {
  const char *text;
  int reg, n, agpr;
} sn_pend_op;

/* The wave's pending-register map (emu_wave.pbits, VGPR, AGPR and SGPR kinds) names exactly the
 * destinations of ops[out[0 .. nout)], the operations the ISA still counts as outstanding; `after`
 * names the record just run. */
SN_UNUSED static void sn_assert_pending(const emu_wave *w, const sn_pend_op *ops, const int *out, int nout, const char *after)
{
  for (int kind = 1; kind <= 3; kind++)
    for (int reg = 0; reg < 512; reg++) {
      bool want = false;
      for (int j = 0; j < nout; j++) {
        const sn_pend_op *o = &ops[out[j]];
        want |= o->n && kind == (o->agpr ? 2 : 1) && reg >= o->reg && reg < o->reg + o->n;
      }
      bool have = w->pbits[kind][reg >> 6] >> (reg & 63) & 1;
      cr_assert_eq(have, want, "%s after %s: %c%d %s", emu_arch_name(w->wg->arch), after,
                   kind == 1 ? 'v' : kind == 2 ? 'a' : 's', reg, want ? "not pending" : "pending");
    }
}

/* Assemble `src` (one instruction per line) for arch and decode it. */
SN_UNUSED static snip *sn_new(emu_arch arch, const char *src)
{
  snip *s = ll_xcalloc(1, sizeof *s);
  s->arch = arch;
  s->code = tt_asm_text(emu_arch_name(arch), src, &s->ncode);
  ll_err e = {0};
  s->p = emu_program_decode(arch, s->code, s->ncode, 0, &e);
  cr_assert_not_null(s->p, "decode: %s", e.msg);

  s->k.name = "snippet";
  s->d.kernel = &s->k;
  s->g.d = &s->d;
  s->g.arch = arch;
  s->g.lds = s->lds;
  s->g.lds_size = emu_arch_lds_bytes(arch);
  s->g.mfma = &s->mfma;
  s->vfile = ll_xcalloc((size_t)EMU_NVGPR * EMU_LANES, 4);
  s->w.v = s->vfile;
  s->w.a = s->vfile + (size_t)SN_ACCUM * EMU_LANES;
  s->w.nv = EMU_NVGPR;
  s->w.na = EMU_NVGPR - SN_ACCUM;
  s->w.insns = s->p->insns;
  s->w.ninsn = s->p->n;
  s->w.wg = &s->g;
  s->w.fault = &s->f;
  emu_wr64s(&s->w, EMU_S_EXEC, ~0ull);
  return s;
}

SN_UNUSED static void sn_free(snip *s)
{
  emu_program_free(s->p);
  emu_mfma_ctx_free(s->mfma);
  free(s->code);
  free(s->vfile);
  free(s);
}

/* One llvm-mc run for many snippets: the texts (one or more lines each) joined, assembled once,
 * decoded by the emulator's decoder, and each text's bytes (its records, one per line) put in
 * tests/asm_text.h's cache under its own text, so the sn_new that follows finds them there instead
 * of starting llvm-mc, llvm-objcopy and a shell (~60 ms) per text. These encodings do not depend
 * on their neighbours; the first text is also assembled on its own and must give its slice's
 * bytes, the records must be one per line and tile the joined .text exactly, and every snippet is
 * still decoded and run by sn_new/sn_run. */
SN_UNUSED static void sn_prefill(emu_arch arch, const char *const *texts, size_t n)
{
  if (!n) return;
  const char *mcpu = emu_arch_name(arch);
  ll_buf b = {0};
  size_t nlines = 0;
  for (size_t i = 0; i < n; i++) {
    ll_buf_puts(&b, texts[i]);
    ll_buf_puts(&b, "\n");
    nlines++;
    for (const char *q = texts[i]; *q; q++) nlines += *q == '\n';
  }
  size_t nall, n0;
  uint8_t *all = tt_asm_text(mcpu, ll_buf_str(&b), &nall);
  ll_err e = {0};
  emu_program *p = emu_program_decode(arch, all, nall, 0, &e);
  cr_assert_not_null(p, "decode: %s", e.msg);
  cr_assert_eq(emu_program_count(p), nlines, "%zu lines, %zu instructions", nlines, emu_program_count(p));
  uint8_t *one = tt_asm_text(mcpu, texts[0], &n0); /* a real assembly, cached */
  size_t r = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = 1;
    for (const char *q = texts[i]; *q; q++) k += *q == '\n';
    uint64_t pc = emu_program_insn(p, r)->pc, at = pc;
    for (size_t j = r; j < r + k; j++) {
      const emu_insn_info *in = emu_program_insn(p, j);
      uint64_t end = j + 1 < nlines ? emu_program_insn(p, j + 1)->pc : nall;
      cr_assert(in->pc == at && in->pc + in->size == end, "%s: record %zu at %llu (%u bytes), the next at %llu",
                texts[i], j, (unsigned long long)in->pc, in->size, (unsigned long long)end);
      at = end;
    }
    r += k;
    if (!i) {
      cr_assert(n0 == at - pc && !memcmp(one, all + pc, n0), "%s: alone %zu bytes, in the batch %llu", texts[i], n0,
                (unsigned long long)(at - pc));
      continue;
    }
    bool have = false;
    for (size_t j = 0; j < ta_ncache && !have; j++) have = !strcmp(ta_cache[j].mcpu, mcpu) && !strcmp(ta_cache[j].src, texts[i]);
    if (have) continue;
    ta_cache = ll_xrealloc(ta_cache, (ta_ncache + 1) * sizeof *ta_cache);
    ta_entry *t = &ta_cache[ta_ncache++];
    t->mcpu = ll_xstrdup(mcpu), t->src = ll_xstrdup(texts[i]), t->n = at - pc;
    t->code = ll_xmalloc(at - pc);
    memcpy(t->code, all + pc, at - pc);
  }
  emu_program_free(p);
  free(one), free(all);
  ll_buf_free(&b);
}

/* Collect, assemble once, then run: sn_with_prefill(body, arg) runs body twice. First with
 * sn_collecting set: the body notes each snippet text it would run (sn_note) and runs nothing.
 * Then each arch's noted texts are assembled in one llvm-mc run (sn_prefill). Then the body runs
 * for real, and its sn_new finds every text's bytes in tests/asm_text.h's cache. */
typedef struct { emu_arch arch; char *text; } sn_text;
SN_UNUSED static sn_text *sn_texts;
SN_UNUSED static size_t sn_ntexts;
SN_UNUSED static bool sn_collecting;

SN_UNUSED static void sn_note(emu_arch arch, const char *text)
{
  sn_texts = ll_xrealloc(sn_texts, (sn_ntexts + 1) * sizeof *sn_texts);
  sn_texts[sn_ntexts++] = (sn_text){arch, ll_xstrdup(text)};
}

SN_UNUSED static void sn_with_prefill(void (*body)(const void *), const void *arg)
{
  sn_collecting = true;
  body(arg);
  sn_collecting = false;
  const char **texts = ll_xcalloc(sn_ntexts + 1, sizeof *texts);
  for (int a = 0; a < EMU_NARCH; a++) {
    size_t n = 0;
    for (size_t i = 0; i < sn_ntexts; i++)
      if (sn_texts[i].arch == (emu_arch)a) texts[n++] = sn_texts[i].text;
    sn_prefill((emu_arch)a, texts, n);
  }
  free(texts);
  for (size_t i = 0; i < sn_ntexts; i++) free(sn_texts[i].text);
  free(sn_texts), sn_texts = NULL, sn_ntexts = 0;
  body(arg);
}

SN_UNUSED static uint32_t *sn_v(snip *s, int r) { return s->w.v + (size_t)r * EMU_LANES; }
SN_UNUSED static uint32_t *sn_a(snip *s, int r) { return s->w.a + (size_t)r * EMU_LANES; }
SN_UNUSED static void sn_exec(snip *s, uint64_t e) { emu_wr64s(&s->w, EMU_S_EXEC, e); }

/* Run every record in order; returns EMU_OK or EMU_FAULT (s->f filled). An unimplemented record
 * fails the test with the decoder's reason unless `allow_unimpl`. */
SN_UNUSED static int sn_run(snip *s)
{
  for (size_t i = 0; i < s->p->n; i++) {
    const emu_insn *in = &s->p->insns[i];
    if (!strncmp(in->mnem, "s_endpgm", 8)) break;
    cr_assert(in->implemented, "'%s' is not implemented: %s", in->text, in->why ? in->why : "?");
    int rc = in->fn(&s->w, in);
    if (rc != EMU_OK) return rc;
  }
  return EMU_OK;
}

/* An exact value -> f16, round to nearest even: round to odd into double first (>= 13 more bits
 * than f16), then one rounding to f16 (_Float16, the compiler's conversion). For references: x
 * must hold the exact value (a __float128 sum of values whose bits span at most 113 places). */
SN_UNUSED static uint16_t sn_q2h(__float128 x)
{
  if (x != x) return 0x7e00;
  double d = (double)x;
  if ((__float128)d != x) {
    if (d != 0 && (d > 0) == ((__float128)d > x)) d = nextafter(d, 0.0); /* toward zero */
    uint64_t u;
    memcpy(&u, &d, 8);
    u |= 1; /* sticky */
    memcpy(&d, &u, 8);
  }
  _Float16 h = (_Float16)d;
  uint16_t r;
  memcpy(&r, &h, 2);
  return r;
}

/* xorshift32, for reproducible inputs */
SN_UNUSED static uint32_t sn_rand(uint32_t *st)
{
  uint32_t x = *st;
  x ^= x << 13, x ^= x >> 17, x ^= x << 5;
  return *st = x;
}

/* ---- micro-kernel launches (integration) --------------------------------------------------------
 * Runs build/<arch>/kernels/NAME.co, kernel NAME, with the micro-kernel ABI (kernels/include/
 * lanelab_micro.h; each kernel's header comment): NAME(uint32_t *out, const uint32_t *image), grid 1,
 * block 64. Kernargs are filled from the metadata: the two global_buffer pointers, the hidden
 * block-count/group-size/grid-dims values of a 1 x 64 launch, everything else 0. Returns
 * emu_launch's status; *f holds the fault. The .co must exist: `make kernels` builds it. */
SN_UNUSED static int sn_micro(emu_arch arch, const char *name, const void *image, size_t image_bytes,
                              uint32_t *out, size_t out_words, emu_fault *f)
{
  char *path = ll_fmt(LANELAB_BUILD "/%s/kernels/%s.co", emu_arch_name(arch), name);
  cr_assert(access(path, R_OK) == 0, "%s is missing: run `make kernels` first", path);
  ll_err e = {0};
  emu_codeobj *co = emu_codeobj_load_file(path, &e);
  cr_assert_not_null(co, "%s", e.msg);
  const emu_kernel *k = emu_codeobj_kernel(co, name, &e);
  cr_assert_not_null(k, "%s", e.msg);
  emu_mem *m = emu_mem_new();
  void *img = ll_xcalloc(1, image_bytes + 64);
  memcpy(img, image, image_bytes);
  uint64_t out_a = emu_mem_map(m, out, out_words * 4, "out");
  uint64_t img_a = emu_mem_map(m, img, image_bytes, "image");
  uint8_t *ka = ll_xcalloc(1, k->kernarg_size + 256);
  int nglobal = 0;
  for (size_t i = 0; i < k->nargs; i++) {
    const emu_kernarg *a = &k->args[i];
    uint64_t v = 0;
    if (!strcmp(a->value_kind, "global_buffer")) v = nglobal++ == 0 ? out_a : img_a;
    else if (!strncmp(a->value_kind, "hidden_block_count_", 19)) v = 1;
    else if (!strcmp(a->value_kind, "hidden_group_size_x")) v = 64;
    else if (!strncmp(a->value_kind, "hidden_group_size_", 18)) v = 1;
    else if (!strcmp(a->value_kind, "hidden_grid_dims")) v = 1;
    cr_assert(a->offset + a->size <= k->kernarg_size + 256u);
    memcpy(ka + a->offset, &v, a->size < 8 ? a->size : 8);
  }
  cr_assert_eq(nglobal, 2, "%s: expected the (out, image) ABI", name);
  uint64_t ka_a = emu_mem_map(m, ka, k->kernarg_size + 256, "kernargs");
  emu_dispatch d = {.co = co, .kernel = k, .grid = {1, 1, 1}, .block = {64, 1, 1}, .kernarg_addr = ka_a};
  emu_launch_opts o = {.threads = 1};
  int rc = emu_launch(m, &d, &o, f, NULL);
  emu_mem_free(m);
  free(ka), free(img), free(path);
  emu_codeobj_free(co);
  return rc;
}

#endif
