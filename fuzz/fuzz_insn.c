/* fuzz/fuzz_insn — libFuzzer harness for the decoder's text parser (emu_insn_parse in
 * emu/decode.c) and its printer (emu_insn_format).
 *
 * The input is one line of text (cut at the first NUL, as a C string would be). emu_insn_parse
 * must never crash on it. When it parses, emu_insn_format must not crash either, and what it
 * prints must be text the parser accepts again and prints identically (format is the parser's
 * inverse on its own output: a record that prints as something it cannot read back holds a value
 * the parser should have refused, e.g. a register index no text can name). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
  char *text = malloc(n + 1);
  memcpy(text, data, n);
  text[n] = 0;
  emu_insn in, again;
  memset(&in, 0, sizeof in);
  if (emu_insn_parse(text, &in)) {
    size_t cap = 4 * n + 256; /* every printed field is at most a few times its text */
    char *out = malloc(cap), *out2 = malloc(cap);
    emu_insn_format(&in, out, cap);
    memset(&again, 0, sizeof again);
    if (!emu_insn_parse(out, &again)) {
      fprintf(stderr, "fuzz_insn: parsed '%s', printed '%s', which does not parse\n", text, out);
      abort();
    }
    emu_insn_format(&again, out2, cap);
    if (strcmp(out, out2) != 0) {
      fprintf(stderr, "fuzz_insn: parsed '%s', printed '%s', reparsed and printed '%s'\n", text, out, out2);
      abort();
    }
    free(out);
    free(out2);
  }
  free(text);
  return 0;
}
