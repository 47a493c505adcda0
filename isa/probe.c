/* isa/probe — is an assembly line a valid instruction on an arch? Asks LLVM's assembler
 * (`llvm-mc --arch=amdgcn --mcpu=ARCH -show-encoding`), which is the authority on syntax and
 * encodings (docs/isa.md: "where this page and LLVM disagree, LLVM is right"). llvm-mc
 * exits non-zero and prints "<stdin>:1:1: error: ..." for a rejected line, and prints
 * "\tTEXT ; encoding: [0x..,...]" for an accepted one. */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

bool isa_probe(const char *arch, const char *line, isa_probe_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  if (!arch || (strcmp(arch, "gfx942") != 0 && strcmp(arch, "gfx950") != 0)) {
    ll_seterr(err, LL_EXIT_USAGE, "probe: unknown arch '%s' (expected gfx942 or gfx950)", arch ? arch : "");
    return false;
  }
  if (!line || strpbrk(line, "\n\r")) {
    ll_seterr(err, LL_EXIT_USAGE, "probe: give exactly one assembly line (found a line break)");
    return false;
  }
  const char *s = line;
  while (*s == ' ' || *s == '\t') s++;
  if (!*s) {
    ll_seterr(err, LL_EXIT_USAGE, "probe: the assembly line is empty");
    return false;
  }
  char *tool = isa_llvm_tool("llvm-mc", err);
  if (!tool) return false;
  char *mcpu = ll_fmt("--mcpu=%s", arch);
  char *argv[] = {tool, "--arch=amdgcn", mcpu, "-show-encoding", NULL};
  char *in = ll_fmt("%s\n", line);
  ll_buf out = {0}, eb = {0};
  int rc = isa_run(argv, NULL, in, &out, &eb, err);
  bool ok = rc >= 0;
  if (ok) {
    const char *o = out.data ? out.data : "", *enc = strstr(o, "; encoding: ");
    const char *e = eb.data ? eb.data : "";
    if (rc == 0 && enc && !strstr(e, "error:")) {
      r->accepted = true;
      const char *t = o;
      while (*t == ' ' || *t == '\t' || *t == '\n') t++;
      size_t tl = (size_t)(enc - t);
      while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t')) tl--;
      snprintf(r->text, sizeof r->text, "%.*s", (int)tl, t);
      snprintf(r->encoding, sizeof r->encoding, "%.*s", (int)strcspn(enc + 12, "\n"), enc + 12);
    } else if (rc == 0 && !enc) {
      /* Accepted but produced no bytes: a directive or label, not an instruction. */
      ll_seterr(err, LL_EXIT_USAGE, "probe: llvm-mc accepted '%s' but emitted no encoding (not an instruction)", line);
      ok = false;
    } else {
      /* First diagnostic line, without llvm-mc's "<stdin>:1:1: " position prefix. */
      const char *m = strstr(e, "error: ");
      m = m ? m : e;
      snprintf(r->message, sizeof r->message, "%.*s", (int)strcspn(m, "\n"), m);
      if (!r->message[0]) snprintf(r->message, sizeof r->message, "llvm-mc exited with status %d", rc);
    }
  }
  ll_buf_free(&out);
  ll_buf_free(&eb);
  free(in);
  free(mcpu);
  free(tool);
  return ok;
}
