/* The .text bytes of a snippet of assembly: llvm-mc-22 for the arch, then llvm-objcopy-22 keeps
 * .text. Shared by test_emu.c and tests/emu_snippets/snippet.h (the family suites).
 *
 * Memoised per process: criterion runs every test in its own process, and a test that sweeps a
 * parameter the assembly does not depend on (EXEC, a budget, a schedule, a bound-control bit)
 * assembles the same text many times. Each assembly is three processes (llvm-mc, llvm-objcopy and
 * a shell), about 40 ms; blocks_run_as_single_steps assembled one program about 200 times and
 * dpp_controls each of its 40 snippets 4 times. The cache keys on the arch and the whole text and
 * hands out a copy, so a caller owns and frees what it gets, as before; llvm-mc's output for the
 * same input is the same bytes, so a hit is what a second assembly would give. Header-only;
 * every function is static. */
#ifndef LANELAB_TESTS_ASM_TEXT_H
#define LANELAB_TESTS_ASM_TEXT_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tmpdir.h"
#include "util/util.h"

#define TA_LLVM "/usr/lib/llvm-22/bin/"

typedef struct {
  char *mcpu, *src;
  uint8_t *code;
  size_t n;
} ta_entry;
static ta_entry *ta_cache;
static size_t ta_ncache;

/* A malloc'd copy of the .text of src assembled for mcpu (gfx942, gfx950); its size in *n. A
 * failed assembly fails the test, naming the command and the text. */
__attribute__((unused)) static uint8_t *tt_asm_text(const char *mcpu, const char *src, size_t *n) {
  for (size_t i = 0; i < ta_ncache; i++)
    if (!strcmp(ta_cache[i].mcpu, mcpu) && !strcmp(ta_cache[i].src, src)) {
      *n = ta_cache[i].n;
      uint8_t *c = ll_xmalloc(*n ? *n : 1);
      memcpy(c, ta_cache[i].code, *n);
      return c;
    }
  char *d = tt_dir("test-asm");
  char *sp = ll_fmt("%s/s.s", d), *op = ll_fmt("%s/s.o", d), *bp = ll_fmt("%s/s.bin", d);
  char *text = ll_fmt("%s\n", src);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(sp, text, strlen(text), &e), "%s", e.msg);
  char *cmd = ll_fmt(TA_LLVM "llvm-mc --arch=amdgcn --mcpu=%s -filetype=obj -o %s %s && " TA_LLVM
                     "llvm-objcopy -O binary --only-section=.text %s %s",
                     mcpu, op, sp, op, bp);
  cr_assert_eq(system(cmd), 0, "assembling failed: %s\n%s", cmd, src);
  uint8_t *b = ll_read_file(bp, n, &e);
  cr_assert_not_null(b, "%s: %s", bp, e.msg);
  ll_rm_tree(d);
  ta_cache = ll_xrealloc(ta_cache, (ta_ncache + 1) * sizeof *ta_cache);
  ta_entry *t = &ta_cache[ta_ncache++];
  t->mcpu = ll_xstrdup(mcpu), t->src = ll_xstrdup(src), t->n = *n;
  t->code = ll_xmalloc(*n ? *n : 1);
  memcpy(t->code, b, *n);
  free(text), free(cmd), free(sp), free(op), free(bp), free(d);
  return b;
}

#endif
