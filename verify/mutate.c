/* verify/mutate — source-level mutation testing of the production kernels. Contract and the
 * list of mutation operators: verify/mutate.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "isa/isa.h"
#include "reports/table.h"
#include "verify/mutate.h"
#include "verify/prod.h"
#include "verify/verify.h"

/* ---- lexer ----------------------------------------------------------------------------------- */
typedef enum { TK_ID, TK_NUM, TK_PUNCT } tkind;
typedef struct tok {
  tkind k;
  size_t off, len;
  int line, col;
  bool sp_before, sp_after; /* white space (or line start/end) on that side */
} tok;

static const char *const puncts[] = {"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->",
                                     "::", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};

/* Tokens of text, skipping comments, string and char literals and preprocessor lines (with their
 * continuations). */
static tok *lex(const char *t, size_t n, size_t *ntok) {
  tok *v = NULL;
  size_t nv = 0, cap = 0;
  int line = 1;
  size_t line_start = 0;
  bool at_line_start = true;
  for (size_t i = 0; i < n;) {
    char ch = t[i];
    if (ch == '\n') { line++; i++; line_start = i; at_line_start = true; continue; }
    if (ch == ' ' || ch == '\t' || ch == '\r') { i++; continue; }
    if (at_line_start && ch == '#') { /* preprocessor line, with backslash continuations */
      while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n') { i += 2; line++; line_start = i; continue; }
        i++;
      }
      continue;
    }
    at_line_start = false;
    if (ch == '/' && i + 1 < n && t[i + 1] == '/') { while (i < n && t[i] != '\n') i++; continue; }
    if (ch == '/' && i + 1 < n && t[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(t[i] == '*' && t[i + 1] == '/')) {
        if (t[i] == '\n') { line++; line_start = i + 1; }
        i++;
      }
      i += 2;
      continue;
    }
    tok k = {.off = i, .line = line, .col = (int)(i - line_start) + 1};
    if (ch == '"' || ch == '\'') {
      size_t j = i + 1;
      while (j < n && t[j] != ch && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
      i = j + 1;
      continue; /* literals are never mutated and never operands we look at */
    }
    if (isalpha((unsigned char)ch) || ch == '_') {
      size_t j = i;
      while (j < n && (isalnum((unsigned char)t[j]) || t[j] == '_')) j++;
      k.k = TK_ID;
      k.len = j - i;
    } else if (isdigit((unsigned char)ch) || (ch == '.' && i + 1 < n && isdigit((unsigned char)t[i + 1]))) {
      size_t j = i;
      while (j < n && (isalnum((unsigned char)t[j]) || t[j] == '.' || t[j] == '_' ||
                       ((t[j] == '+' || t[j] == '-') && (t[j - 1] == 'e' || t[j - 1] == 'E') && t[i] != '0')))
        j++;
      k.k = TK_NUM;
      k.len = j - i;
    } else {
      k.k = TK_PUNCT;
      k.len = 1;
      for (size_t p = 0; p < sizeof puncts / sizeof *puncts; p++) {
        size_t l = strlen(puncts[p]);
        if (l > k.len && i + l <= n && memcmp(t + i, puncts[p], l) == 0) k.len = l;
      }
    }
    k.sp_before = i == 0 || isspace((unsigned char)t[i - 1]);
    k.sp_after = i + k.len >= n || isspace((unsigned char)t[i + k.len]);
    i += k.len;
    if (nv == cap) v = ll_xrealloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
    v[nv++] = k;
  }
  *ntok = nv;
  return v;
}

static bool is(const char *t, const tok *k, const char *s) {
  return k->len == strlen(s) && memcmp(t + k->off, s, k->len) == 0;
}

static bool is_keyword(const char *t, const tok *k) {
  static const char *const kw[] = {"if", "for", "while", "switch", "return", "sizeof", "static_assert", "constexpr",
                                   "alignof", "decltype", "__attribute__", "template", "catch", "defined"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (is(t, k, kw[i])) return true;
  return false;
}

/* ---- sites ----------------------------------------------------------------------------------- */
typedef struct scan {
  const char *file, *t;
  size_t n;
  tok *k;
  size_t nk;
  mutate_site **sites;
  size_t *nsites, cap;
  const char *func;
} scan;

static char *line_text(const char *t, size_t n, size_t off) {
  size_t a = off, b = off;
  while (a > 0 && t[a - 1] != '\n') a--;
  while (b < n && t[b] != '\n') b++;
  while (a < b && isspace((unsigned char)t[a])) a++;
  while (b > a && isspace((unsigned char)t[b - 1])) b--;
  char *s = ll_xmalloc(b - a + 1);
  memcpy(s, t + a, b - a);
  s[b - a] = 0;
  return s;
}

static void add(scan *S, const char *op, size_t off, size_t len, const char *repl, const char *desc) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < off; i++) {
    if (S->t[i] == '\n') { line++; col = 1; }
    else col++;
  }
  mutate_site *v = *S->sites;
  v = ll_xrealloc(v, (*S->nsites + 1) * sizeof *v);
  *S->sites = v;
  mutate_site *m = &v[(*S->nsites)++];
  memset(m, 0, sizeof *m);
  m->file = S->file;
  m->line = (int)line;
  m->col = (int)col;
  snprintf(m->func, sizeof m->func, "%s", S->func && S->func[0] ? S->func : "(file scope)");
  m->op = op;
  m->off = off;
  m->len = len;
  m->repl = ll_xstrdup(repl);
  m->desc = ll_xstrdup(desc);
  m->src_line = line_text(S->t, S->n, off);
}

static char *tok_str(const scan *S, const tok *k) {
  char *s = ll_xmalloc(k->len + 1);
  memcpy(s, S->t + k->off, k->len);
  s[k->len] = 0;
  return s;
}

/* Index of the token matching the bracket at i (forward for ( [ {, backward for ) ] }), or -1. */
static long match(const scan *S, size_t i) {
  const char *open = "([{", *close = ")]}";
  char c = S->t[S->k[i].off];
  const char *po = strchr(open, c), *pc = strchr(close, c);
  int depth = 0;
  if (po) {
    for (size_t j = i; j < S->nk; j++) {
      if (S->k[j].k != TK_PUNCT || S->k[j].len != 1) continue;
      char d = S->t[S->k[j].off];
      if (strchr(open, d)) depth++;
      else if (strchr(close, d) && --depth == 0) return (long)j;
    }
  } else if (pc) {
    for (long j = (long)i; j >= 0; j--) {
      if (S->k[j].k != TK_PUNCT || S->k[j].len != 1) continue;
      char d = S->t[S->k[j].off];
      if (strchr(close, d)) depth++;
      else if (strchr(open, d) && --depth == 0) return j;
    }
  }
  return -1;
}

/* Ends an additive operand: a binary operator of additive or lower precedence, a separator or a
 * closing bracket at depth 0. */
static bool operand_end(const scan *S, const tok *k) {
  static const char *const stop[] = {",", ";", ")", "]", "}", "?", ":", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                                     "^=", "<<=", ">>=", "&&", "||", "==", "!=", "<=", ">=", "{"};
  if (k->k != TK_PUNCT) return false;
  for (size_t i = 0; i < sizeof stop / sizeof *stop; i++)
    if (is(S->t, k, stop[i])) return true;
  /* spaced binary operators of additive or lower precedence */
  static const char *const bin[] = {"+", "-", "<", ">", "&", "|", "^", "<<", ">>"};
  if (k->sp_before && k->sp_after)
    for (size_t i = 0; i < sizeof bin / sizeof *bin; i++)
      if (is(S->t, k, bin[i])) return true;
  return false;
}

/* Token range [a, b] of the operand right of token i (a = i+1), or left of it (b = i-1). */
static bool operand(const scan *S, size_t i, bool right, size_t *a, size_t *b) {
  if (right) {
    size_t j = i + 1;
    while (j < S->nk) {
      const tok *k = &S->k[j];
      if (k->k == TK_PUNCT && k->len == 1 && strchr("([{", S->t[k->off])) {
        long m = match(S, j);
        if (m < 0) return false;
        j = (size_t)m + 1;
        continue;
      }
      if (operand_end(S, k)) break;
      j++;
    }
    if (j == i + 1) return false;
    *a = i + 1;
    *b = j - 1;
  } else {
    long j = (long)i - 1;
    while (j >= 0) {
      const tok *k = &S->k[j];
      if (k->k == TK_PUNCT && k->len == 1 && strchr(")]}", S->t[k->off])) {
        long m = match(S, (size_t)j);
        if (m < 0) return false;
        j = m - 1;
        continue;
      }
      if (operand_end(S, k) || (k->k == TK_PUNCT && k->len == 1 && strchr("([", S->t[k->off])) ||
          is(S->t, k, "return"))
        break;
      j--;
    }
    if (j == (long)i - 1) return false;
    *a = (size_t)(j + 1);
    *b = i - 1;
  }
  return true;
}

static bool in_skipped_call(const scan *S, size_t i) {
  /* inside static_assert( ... ) or __attribute__(( ... )) */
  for (size_t j = 0; j < i; j++) {
    if (S->k[j].k == TK_ID && (is(S->t, &S->k[j], "static_assert") || is(S->t, &S->k[j], "__attribute__")) &&
        j + 1 < S->nk && is(S->t, &S->k[j + 1], "(")) {
      long m = match(S, j + 1);
      if (m > 0 && (size_t)m > i && j < i) return true;
    }
  }
  return false;
}

static void scan_binary(scan *S, size_t i) {
  static const struct { const char *from, *to, *op; } swaps[] = {
      {"+", "-", "arith"},   {"-", "+", "arith"},   {"*", "/", "arith"},  {"/", "*", "arith"},  {"%", "/", "arith"},
      {"+=", "-=", "arith"}, {"-=", "+=", "arith"}, {"*=", "/=", "arith"}, {"/=", "*=", "arith"},
      {"<", "<=", "cmp"},    {"<=", "<", "cmp"},    {">", ">=", "cmp"},   {">=", ">", "cmp"},   {"==", "!=", "cmp"},
      {"!=", "==", "cmp"},   {"&&", "||", "logic"}, {"||", "&&", "logic"}, {"&", "|", "bit"},   {"|", "&", "bit"},
      {"^", "|", "bit"},     {"<<", ">>", "shift"}, {">>", "<<", "shift"}};
  const tok *k = &S->k[i];
  if (k->k != TK_PUNCT || !k->sp_before || !k->sp_after || in_skipped_call(S, i)) return;
  for (size_t s = 0; s < sizeof swaps / sizeof *swaps; s++) {
    if (!is(S->t, k, swaps[s].from)) continue;
    char d[64];
    snprintf(d, sizeof d, "'%s' -> '%s'", swaps[s].from, swaps[s].to);
    add(S, swaps[s].op, k->off, k->len, swaps[s].to, d);
  }
  /* a dropped term of a sum: "x + y" -> "x" and -> "y" */
  if (is(S->t, k, "+")) {
    size_t a, b;
    if (operand(S, i, true, &a, &b)) {
      size_t from = S->k[i - 1].off + S->k[i - 1].len, to = S->k[b].off + S->k[b].len;
      char *txt = ll_xmalloc(to - k->off + 1);
      memcpy(txt, S->t + k->off, to - k->off);
      txt[to - k->off] = 0;
      char *d = ll_fmt("dropped '%s'", txt);
      add(S, "drop", from, to - from, "", d);
      free(d);
      free(txt);
    }
    if (operand(S, i, false, &a, &b)) {
      size_t from = S->k[a].off, to = S->k[i + 1].off;
      char *txt = ll_xmalloc(k->off + k->len - from + 1);
      memcpy(txt, S->t + from, k->off + k->len - from);
      txt[k->off + k->len - from] = 0;
      char *d = ll_fmt("dropped '%s'", txt);
      add(S, "drop", from, to - from, "", d);
      free(d);
      free(txt);
    }
  }
}

/* integer literal +-1, keeping its base and suffix */
static void scan_const(scan *S, size_t i) {
  const tok *k = &S->k[i];
  if (k->k != TK_NUM) return;
  char *s = tok_str(S, k);
  if (strpbrk(s, ".eEpP") && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) { free(s); return; } /* float */
  bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
  if (errno || end == s || (*end && strspn(end, "uUlL") != strlen(end))) { free(s); return; }
  if (in_skipped_call(S, i)) { free(s); return; }
  for (int dlt = -1; dlt <= 1; dlt += 2) {
    if (dlt < 0 && v == 0) continue;
    unsigned long long w = v + (unsigned long long)(long long)dlt;
    char r[64], d[96];
    if (hex) snprintf(r, sizeof r, "0x%llx%s", w, end);
    else snprintf(r, sizeof r, "%llu%s", w, end);
    snprintf(d, sizeof d, "%s -> %s", s, r);
    add(S, "const", k->off, k->len, r, d);
  }
  free(s);
}

/* a barrier / fence / wait call statement removed */
static void scan_barrier(scan *S, size_t i) {
  const tok *k = &S->k[i];
  if (k->k != TK_ID || i + 1 >= S->nk || !is(S->t, &S->k[i + 1], "(")) return;
  if (i > 0 && !(is(S->t, &S->k[i - 1], ";") || is(S->t, &S->k[i - 1], "{") || is(S->t, &S->k[i - 1], "}")))
    return; /* statement start only */
  char *name = tok_str(S, k);
  bool hit = strstr(name, "sync") || strstr(name, "barrier") || strstr(name, "fence") || strstr(name, "waitcnt");
  /* the compiler-only scheduling barrier of LL_PHASE is not a memory barrier */
  if (strstr(name, "sched_barrier")) hit = false;
  long m = match(S, i + 1);
  if (hit && m > 0 && (size_t)m + 1 < S->nk && is(S->t, &S->k[m + 1], ";")) {
    size_t to = S->k[m + 1].off + 1;
    char *txt = ll_xmalloc(to - k->off + 1);
    memcpy(txt, S->t + k->off, to - k->off);
    txt[to - k->off] = 0;
    char *d = ll_fmt("deleted '%s'", txt);
    add(S, "barrier", k->off, to - k->off, "", d);
    free(d);
    free(txt);
  }
  free(name);
}

static void scan_minmax(scan *S, size_t i) {
  static const struct { const char *from, *to; } mm[] = {
      {"fmax_", "__builtin_fminf"}, {"fmaxf", "fminf"}, {"fminf", "fmaxf"}, {"max", "min"}, {"min", "max"}};
  const tok *k = &S->k[i];
  if (k->k != TK_ID || i + 1 >= S->nk || !is(S->t, &S->k[i + 1], "(")) return;
  if (i > 0 && S->k[i + 1].k == TK_PUNCT && S->k[i - 1].k == TK_ID && !is(S->t, &S->k[i - 1], "return") &&
      !is(S->t, &S->k[i - 1], "else"))
    return; /* a declaration "float fmax_(...)" */
  for (size_t s = 0; s < sizeof mm / sizeof *mm; s++)
    if (is(S->t, k, mm[s].from)) {
      char d[96];
      snprintf(d, sizeof d, "%s -> %s", mm[s].from, mm[s].to);
      add(S, "minmax", k->off, k->len, mm[s].to, d);
    }
}

static void scan_not(scan *S, size_t i) {
  const tok *k = &S->k[i];
  if (k->k == TK_PUNCT && is(S->t, k, "!") && !k->sp_after) add(S, "logic", k->off, 1, "", "removed '!'");
}

/* adjacent arguments of a call swapped */
static void scan_swap(scan *S, size_t i) {
  const tok *k = &S->k[i];
  if (k->k != TK_ID || is_keyword(S->t, k)) return;
  size_t p = i + 1;
  if (p < S->nk && is(S->t, &S->k[p], "<") && !S->k[p].sp_before) { /* template arguments */
    int depth = 0;
    for (; p < S->nk; p++) {
      if (is(S->t, &S->k[p], "<")) depth++;
      else if (is(S->t, &S->k[p], ">")) { if (--depth == 0) break; }
      else if (is(S->t, &S->k[p], ">>")) { depth -= 2; if (depth <= 0) break; }
      else if (is(S->t, &S->k[p], ";") || is(S->t, &S->k[p], "{")) return;
    }
    p++;
  }
  if (p >= S->nk || !is(S->t, &S->k[p], "(")) return;
  /* a declaration: "TYPE name(" or "name(" after a type keyword; calls follow an operator, a
   * bracket, '=', 'return', ... */
  if (i > 0 && (S->k[i - 1].k == TK_ID || is(S->t, &S->k[i - 1], "&") || is(S->t, &S->k[i - 1], "*")) &&
      !is(S->t, &S->k[i - 1], "return") && !is(S->t, &S->k[i - 1], "else") && !S->k[i - 1].sp_after)
    return;
  if (i > 0 && S->k[i - 1].k == TK_ID && !is(S->t, &S->k[i - 1], "return") && !is(S->t, &S->k[i - 1], "else"))
    return;
  long e = match(S, p);
  if (e < 0) return;
  /* argument token ranges at depth 1 */
  size_t starts[16], ends[16], na = 0, st = p + 1;
  for (size_t j = p + 1; j <= (size_t)e && na < 16; j++) {
    const tok *t = &S->k[j];
    if (t->k == TK_PUNCT && t->len == 1 && strchr("([{", S->t[t->off])) {
      long m = match(S, j);
      if (m < 0) return;
      j = (size_t)m;
      continue;
    }
    if (j == (size_t)e || is(S->t, t, ",")) {
      if (j > st) { starts[na] = st; ends[na] = j - 1; na++; }
      st = j + 1;
    }
  }
  char *name = tok_str(S, k);
  for (size_t a = 0; a + 1 < na; a++) {
    size_t a0 = S->k[starts[a]].off, a1 = S->k[ends[a]].off + S->k[ends[a]].len;
    size_t b0 = S->k[starts[a + 1]].off, b1 = S->k[ends[a + 1]].off + S->k[ends[a + 1]].len;
    if (a1 - a0 == b1 - b0 && memcmp(S->t + a0, S->t + b0, a1 - a0) == 0) continue;
    /* replacement covers a0..b1: B + (text between) + A */
    ll_buf r = {0};
    ll_buf_printf(&r, "%.*s%.*s%.*s", (int)(b1 - b0), S->t + b0, (int)(b0 - a1), S->t + a1, (int)(a1 - a0), S->t + a0);
    char *d = ll_fmt("swapped arguments %zu and %zu of %s ('%.*s', '%.*s')", a + 1, a + 2, name, (int)(a1 - a0),
                     S->t + a0, (int)(b1 - b0), S->t + b0);
    add(S, "swap", a0, b1 - a0, ll_buf_str(&r), d);
    free(d);
    ll_buf_free(&r);
  }
  free(name);
}

size_t mutate_scan(const char *file, const char *text, size_t len, mutate_site **sites, size_t *n) {
  scan S = {.file = file, .t = text, .n = len, .sites = sites, .nsites = n};
  size_t before = *n;
  S.k = lex(text, len, &S.nk);
  /* function tracking: a '{' after ') [const|noexcept]' whose '(' follows a non-keyword name
   * opens a function body; its matching '}' closes it */
  char func[64] = "";
  long func_end = -1;
  for (size_t i = 0; i < S.nk; i++) {
    const tok *k = &S.k[i];
    if ((long)i == func_end) { func[0] = 0; func_end = -1; }
    if (!func[0] && is(text, k, "{") && i > 0) {
      size_t j = i - 1;
      while (j > 0 && S.k[j].k == TK_ID && (is(text, &S.k[j], "const") || is(text, &S.k[j], "noexcept"))) j--;
      if (is(text, &S.k[j], ")")) {
        long o = match(&S, j);
        if (o > 0 && S.k[o - 1].k == TK_ID && !is_keyword(text, &S.k[o - 1])) {
          snprintf(func, sizeof func, "%.*s", (int)S.k[o - 1].len, text + S.k[o - 1].off);
          func_end = match(&S, i);
        }
      }
    }
    S.func = func;
    scan_binary(&S, i);
    scan_const(&S, i);
    if (!func[0]) continue; /* at file scope only constants and their expressions are mutated */
    scan_barrier(&S, i);
    scan_minmax(&S, i);
    scan_not(&S, i);
    scan_swap(&S, i);
  }
  free(S.k);
  return *n - before;
}

char *mutate_apply(const char *text, size_t len, const mutate_site *m, size_t *outlen) {
  size_t rl = strlen(m->repl), n = len - m->len + rl;
  char *s = ll_xmalloc(n + 1);
  memcpy(s, text, m->off);
  memcpy(s + m->off, m->repl, rl);
  memcpy(s + m->off + rl, text + m->off + m->len, len - m->off - m->len);
  s[n] = 0;
  if (outlen) *outlen = n;
  return s;
}

void mutate_sites_free(mutate_site *sites, size_t n) {
  for (size_t i = 0; i < n; i++) { free(sites[i].repl); free(sites[i].desc); free(sites[i].src_line); }
  free(sites);
}

/* ---- running --------------------------------------------------------------------------------- */
/* The mutated files: the production sources and the headers they include (lanelab_micro.h is
 * micro-kernel only). */
static const char *const mut_files[] = {
    "kernels/prod/prefill_impl.h", "kernels/prod/prefill_single.hip", "kernels/prod/prefill_ragged.hip",
    "kernels/prod/prefill_paged.hip", "kernels/prod/concat_mla_q.hip", "kernels/include/lanelab_fragments.h",
    "kernels/include/lanelab_device.h"};
#define NFILES (sizeof mut_files / sizeof *mut_files)
static const char *const stems[] = {"prefill_single", "prefill_ragged", "prefill_paged", "concat_mla_q"};
#define NSTEMS 4

/* Which code objects a file reaches (by the kernels' #include graph: the three prefill entries
 * include prefill_impl.h, which includes lanelab_fragments.h, which includes lanelab_device.h;
 * concat_mla_q includes lanelab_device.h). Bit s = stems[s]. */
static unsigned file_stems(const char *f) {
  if (strstr(f, "prefill_single.hip")) return 1;
  if (strstr(f, "prefill_ragged.hip")) return 2;
  if (strstr(f, "prefill_paged.hip")) return 4;
  if (strstr(f, "concat_mla_q.hip")) return 8;
  if (strstr(f, "lanelab_device.h")) return 15;
  return 7; /* prefill_impl.h, lanelab_fragments.h */
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

typedef enum { ST_NOTRUN, ST_KILLED, ST_NARROW, ST_SURVIVED, ST_EQUIV, ST_STILLBORN, ST_ARGUED } mstatus;
static const char *const st_name[] = {"not run", "killed", "narrow", "SURVIVED", "equivalent", "stillborn", "argued"};

typedef struct mres {
  mstatus st[EMU_NARCH];
  char detail[EMU_NARCH][240];
} mres;

/* cache line: "<arch> <status> <detail>" */
static bool cache_read(const char *path, mres *r) {
  ll_err e = {0};
  size_t n;
  char *t = ll_read_file(path, &n, &e);
  if (!t) return false;
  char *save = NULL;
  for (char *ln = strtok_r(t, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
    char arch[16], st[16];
    int used = 0;
    if (sscanf(ln, "%15s %15s %n", arch, st, &used) < 2) continue;
    emu_arch a;
    if (!emu_arch_parse(arch, &a)) continue;
    for (int s = ST_KILLED; s <= ST_STILLBORN; s++)
      if (strcmp(st, st_name[s]) == 0 || (s == ST_SURVIVED && strcmp(st, "survived") == 0)) r->st[a] = (mstatus)s;
    snprintf(r->detail[a], sizeof r->detail[a], "%s", ln + used);
  }
  free(t);
  return true;
}

static bool cache_write(const char *path, const mres *r, const emu_arch *arches, size_t narch, ll_err *err) {
  ll_buf b = {0};
  for (size_t i = 0; i < narch; i++) {
    emu_arch a = arches[i];
    if (r->st[a] == ST_NOTRUN) continue;
    ll_buf_printf(&b, "%s %s %s\n", emu_arch_name(a), r->st[a] == ST_SURVIVED ? "survived" : st_name[r->st[a]],
                  r->detail[a]);
  }
  bool ok = ll_write_file_atomic(path, b.data ? b.data : "", b.len, err);
  ll_buf_free(&b);
  return ok;
}

/* ---- the gate -------------------------------------------------------------------------------- */
typedef struct gcase {
  bool attn;
  prod_case c;
  prod_concat_case cc;
  char name[40];
  int stem;                      /* index into stems[] */
  oracle_attention_spec spec;    /* attn */
  float *ro, *rl;
  bool have_ref;
  double noise[EMU_NARCH];       /* correct kernel's max abs error */
  uint64_t budget[EMU_NARCH];    /* per-wave instruction budget for mutants */
  bool have_noise[EMU_NARCH];
  long nt_stores[EMU_NARCH];     /* concat: correct kernel's global_store_dwordx4:nt */
} gcase;

static int stem_of_case(const prod_case *c) {
  return c->kind == ORACLE_SINGLE ? 0 : c->kind == ORACLE_RAGGED ? 1 : 2;
}

static double gate_work(const gcase *g) {
  if (!g->attn) return (double)(g->cc.T * g->cc.H) / 2048.0;
  double w = 0;
  for (int b = 0; b < g->c.batch; b++)
    w += (double)((g->c.qo_len[b] + 63) / 64) * (double)((g->c.kv_len[b] + 31) / 32 + 1);
  return w * g->c.hq * (g->c.head_dim / 64.0);
}
static int by_work(const void *a, const void *b) {
  double x = gate_work(a), y = gate_work(b);
  return x < y ? -1 : x > y;
}

static gcase *gate_cases(size_t random_n, uint64_t seed, size_t *n) { /* head_dim 64 cases only */
  prod_set q, r;
  ll_err e = {0};
  char rs[32];
  snprintf(rs, sizeof rs, "random:%zu", random_n);
  prod_set_make("quick", 0, &q, &e);
  bool have_r = random_n > 0 && prod_set_make(rs, seed, &r, &e);
  size_t cap = q.n + q.nc + (have_r ? r.n + r.nc : 0);
  gcase *g = ll_xcalloc(cap ? cap : 1, sizeof *g);
  size_t k = 0;
  /* cheapest first inside each set is not known without running; keep the matrix order */
  for (int pass = 0; pass < 2; pass++) {
    prod_set *s = pass == 0 ? &q : &r;
    if (pass == 1 && !have_r) break;
    for (size_t i = 0; i < s->n; i++) {
      if (s->cases[i].head_dim != 64) continue; /* mutant builds instantiate head_dim 64 only */
      g[k].attn = true;
      g[k].c = s->cases[i];
      snprintf(g[k].name, sizeof g[k].name, "%s", s->cases[i].name);
      g[k].c.name = g[k].name;
      g[k].stem = stem_of_case(&g[k].c);
      k++;
    }
    for (size_t i = 0; i < s->nc; i++, k++) {
      g[k].cc = s->concat[i];
      snprintf(g[k].name, sizeof g[k].name, "%s", s->concat[i].name);
      g[k].cc.name = g[k].name;
      g[k].stem = 3;
    }
  }
  prod_set_free(&q);
  if (have_r) prod_set_free(&r);
  *n = k;
  qsort(g, k, sizeof *g, by_work); /* cheapest first: most mutants die on the first case they meet */
  for (size_t i = 0; i < k; i++) g[i].c.name = g[i].cc.name = g[i].name; /* the names moved with qsort */
  return g;
}

static void gate_free(gcase *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (g[i].have_ref) prod_spec_free(&g[i].spec);
    free(g[i].ro);
    free(g[i].rl);
  }
  free(g);
}

static long nt_count(const char *co) {
  ll_err e = {0};
  isa_census *cs = isa_census_file(co, &e);
  if (!cs) return -1;
  const isa_kernel_census *k = isa_census_kernel(cs, "concat_mla_q");
  long v = k ? isa_census_value(k, "global_store_dwordx4:nt") : -1;
  isa_census_free(cs);
  return v;
}

/* The correct kernel's run of case g on arch: oracle reference, noise floor, budget. */
static bool gate_prepare(rt_device *d, const char *build, emu_arch a, gcase *g, ll_err *err) {
  if (g->have_noise[a]) return true;
  if (!g->attn) {
    char *co = prod_co_path(build, a, "concat_mla_q");
    prod_concat_result r;
    int rc = prod_concat_run(d, build, &g->cc, co, &r, err);
    g->nt_stores[a] = nt_count(co);
    free(co);
    if (rc != LL_EXIT_OK) return false;
    if (g->cc.T == 0 ? !r.t0_untouched : r.mismatches != 0) {
      ll_seterr(err, LL_EXIT_FAIL, "the correct concat_mla_q fails gate case %s on %s", g->name, emu_arch_name(a));
      return false;
    }
    g->have_noise[a] = true;
    return true;
  }
  if (!g->have_ref) {
    if (!prod_case_spec(&g->c, &g->spec, err)) return false;
    size_t no = (size_t)oracle_attention_q_elems(&g->spec);
    size_t nl = (size_t)oracle_attention_total_q(&g->spec) * (size_t)g->spec.num_qo_heads;
    g->ro = ll_xcalloc(no ? no : 1, sizeof(float));
    g->rl = ll_xcalloc(nl ? nl : 1, sizeof(float));
    g->have_ref = true;
    if (!oracle_attention_run(&g->spec, g->ro, g->rl, NULL, err)) return false;
  }
  prod_result r;
  prod_run_opts o = {0};
  int rc = prod_case_run_ref(d, build, &g->c, &o, &g->spec, g->ro, g->rl, &r, err);
  if (rc != LL_EXIT_OK) return false;
  if (!r.pass) {
    ll_seterr(err, LL_EXIT_FAIL, "the correct kernel fails gate case %s on %s", g->name, emu_arch_name(a));
    return false;
  }
  g->noise[a] = r.max_abs;
  /* a mutant that loops stops with a budget fault: no wave of the correct kernel runs more than
   * all of them together */
  g->budget[a] = 2 * r.wave_insns + 200000;
  g->have_noise[a] = true;
  return true;
}

/* Runs the gate on arch for a mutant whose changed code objects are in dir (stems bitmask).
 * Fills st/detail. */
static void gate_run(rt_device *d, const char *build, emu_arch a, gcase *g, size_t ng, const char *dir,
                     unsigned changed, mstatus *st, char *detail, size_t dn) {
  double best_narrow = 0;
  char narrow_case[48] = "";
  size_t ran = 0;
  for (size_t i = 0; i < ng; i++) {
    if (!(changed & (1u << g[i].stem))) continue;
    ll_err e = {0};
    if (!gate_prepare(d, build, a, &g[i], &e)) {
      *st = ST_NOTRUN;
      snprintf(detail, dn, "gate case %s could not run with the correct kernel: %.150s", g[i].name, e.msg);
      return;
    }
    ran++;
    char *co = ll_fmt("%s/%s.co", dir, stems[g[i].stem]);
    if (!g[i].attn) {
      prod_concat_result r;
      int rc = prod_concat_run(d, build, &g[i].cc, co, &r, &e);
      long nt = nt_count(co);
      free(co);
      if (rc != LL_EXIT_OK) { *st = ST_KILLED; snprintf(detail, dn, "%s: run failed: %.160s", g[i].name, e.msg); return; }
      if (g[i].cc.T == 0 ? !r.t0_untouched : r.mismatches != 0) {
        *st = ST_KILLED;
        snprintf(detail, dn, "%s: %zu of %zu elements differ (bit-exact)", g[i].name, r.mismatches, r.n);
        return;
      }
      if (nt != g[i].nt_stores[a]) {
        *st = ST_KILLED;
        snprintf(detail, dn, "%s: ISA guard: %ld global_store_dwordx4:nt (correct: %ld)", g[i].name, nt,
                 g[i].nt_stores[a]);
        return;
      }
      continue;
    }
    prod_result r;
    prod_run_opts o = {.co_path = co, .insn_budget = g[i].budget[a], .racecheck = true, .initcheck = true};
    int rc = prod_case_run_ref(d, build, &g[i].c, &o, &g[i].spec, g[i].ro, g[i].rl, &r, &e);
    free(co);
    if (rc != LL_EXIT_OK) {
      *st = ST_KILLED;
      snprintf(detail, dn, "%s: %s: %.170s", g[i].name, rc == LL_EXIT_FAIL ? "fault" : "launch refused", e.msg);
      return;
    }
    if (r.hazards) { /* as the prod stage: a racecheck/initcheck finding fails the case */
      *st = ST_KILLED;
      snprintf(detail, dn, "%s: racecheck/initcheck: %.180s", g[i].name, r.hazard);
      return;
    }
    char why[300];
    if (r.have_stats && !prod_phase_check(a, &r, why, sizeof why)) {
      *st = ST_KILLED;
      snprintf(detail, dn, "%s: phase census: %.180s", g[i].name, why);
      return;
    }
    if (!r.pass) {
      size_t nonfinite = r.o.nonfinite_mismatches + r.lse.nonfinite_mismatches;
      double noise = g[i].noise[a] > 1e-30 ? g[i].noise[a] : 1e-30;
      double ratio = r.max_abs / noise;
      if (nonfinite || ratio >= 100) {
        *st = ST_KILLED;
        snprintf(detail, dn, "%s: %zu mismatches, max abs err %.3g = %.3gx noise floor%s", g[i].name,
                 r.o.mismatches + r.lse.mismatches, r.max_abs, ratio, nonfinite ? " (non-finite)" : "");
        return;
      }
      if (ratio > best_narrow) {
        best_narrow = ratio;
        snprintf(narrow_case, sizeof narrow_case, "%s", g[i].name);
      }
    }
  }
  if (best_narrow > 0) {
    *st = ST_NARROW;
    snprintf(detail, dn, "caught only narrowly: best %.3gx the noise floor (%s); %zu gate cases", best_narrow,
             narrow_case, ran);
  } else {
    *st = ST_SURVIVED;
    snprintf(detail, dn, "passed all %zu gate cases of the changed code objects", ran);
  }
}

/* ---- builds ----------------------------------------------------------------------------------
 * Through lanelab's one compiler driver (isa_cc_build_dir, as make builds the kernels), with the
 * work tree's kernels/include first on the include path: the mutated headers are the ones used. */
static bool copy_file(const char *from, const char *to, ll_err *err) {
  size_t n;
  char *t = ll_read_file(from, &n, err);
  if (!t) return false;
  bool ok = ll_write_file_atomic(to, t, n, err);
  free(t);
  return ok;
}

/* Builds SUB/NAME.hip of the work tree for arch into WORK/DIR/ARCH. 1: NAME.co built, 0: the
 * source is not for this arch (NAME.skip), -1: it does not compile. */
static int build_in_work(const char *work, const char *sub, const char *name, const char *dir, emu_arch a,
                         const char *define) {
  const char *an = emu_arch_name(a);
  char *src = ll_fmt("%s/%s/%s.hip", work, sub, name), *odir = ll_fmt("%s/%s/%s", work, dir, an);
  char *co = ll_fmt("%s/%s.co", odir, name), *inc = ll_fmt("-I%s/kernels/include", work);
  char *extra[] = {inc, (char *)define, NULL};
  remove(co);
  ll_err e = {0};
  char *skipped = NULL;
  bool ok = isa_cc_build_dir(src, an, odir, extra, NULL, &skipped, &e);
  struct stat sb;
  int r = !ok ? -1 : skipped ? 0 : stat(co, &sb) == 0 ? 1 : -1;
  free(skipped); free(src); free(odir); free(co); free(inc);
  return r;
}

/* Builds stem for arch in the work tree into WORK/DIR/ARCH/STEM.co (prefill: head_dim 64 only,
 * LANELAB_PREFILL_D64_ONLY). Returns the path (malloc'd) or NULL when it does not compile. */
static char *build_stem(const char *work, const char *dir, emu_arch a, int s) {
  if (build_in_work(work, "kernels/prod", stems[s], dir, a, s < 3 ? "-DLANELAB_PREFILL_D64_ONLY" : NULL) != 1) return NULL;
  return ll_fmt("%s/%s/%s/%s.co", work, dir, emu_arch_name(a), stems[s]);
}

/* ---- the lanes gate of the headers ------------------------------------------------------------
 * lanelab_device.h and lanelab_fragments.h are also the micro-kernels' headers, and their contract
 * there is the lane map: what every lane holds and which address it reads, which the lanes stage
 * checks against the lanes model (verify/lanes_stage.c, an independent formula). A header mutant
 * that survives the production gate is therefore also run through that stage on the micro-kernels
 * it reaches (every one the lanes stage runs includes lanelab_device.h through lanelab_micro.h;
 * those that #include "lanelab_fragments.h" reach that header). A swizzle change, for example,
 * moves LDS addresses consistently for the production kernel's stores and loads (its output is
 * unchanged) but breaks the lane map the micro-kernels publish. */
typedef struct micro_k {
  char *name;
  bool fragments; /* includes lanelab_fragments.h */
} micro_k;

static micro_k *micro_list(const char *root, size_t *n, ll_err *err) {
  *n = 0;
  char *dir = ll_fmt("%s/kernels/micro", root);
  DIR *d = opendir(dir);
  if (!d) {
    ll_seterr(err, LL_EXIT_ENV, "%s: %s", dir, strerror(errno));
    free(dir);
    return NULL;
  }
  micro_k *v = NULL;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".hip")) continue;
    char *name = ll_xstrdup(e->d_name);
    name[len - 4] = 0;
    if (!verify_lanes_runs(name)) { free(name); continue; }
    char *p = ll_fmt("%s/%s", dir, e->d_name);
    size_t tn;
    char *t = ll_read_file(p, &tn, err);
    free(p);
    if (!t) { free(name); goto fail; }
    v = realloc(v, (*n + 1) * sizeof *v);
    v[*n] = (micro_k){name, strstr(t, "#include \"lanelab_fragments.h\"") != NULL};
    (*n)++;
    free(t);
  }
  closedir(d);
  free(dir);
  return v ? v : ll_xcalloc(1, sizeof *v);
fail:
  closedir(d);
  free(dir);
  for (size_t i = 0; i < *n; i++) free(v[i].name);
  free(v);
  return NULL;
}

/* Builds micro-kernel NAME for arch into WORK/DIR/ARCH. 1: NAME.co built, 0: the source is not for
 * this arch (NAME.skip), -1: it does not compile. */
static int build_micro(const char *work, const char *dir, emu_arch a, const char *name) {
  return build_in_work(work, "kernels/micro", name, dir, a, NULL);
}

/* The lanes gate of a header mutant on arch (micro-kernels already copied to the work tree).
 * Rebuilds the micro-kernels the file reaches into WORK/micro-out/ARCH; the lanes stage then runs
 * on WORK/lanes/ARCH/kernels, the correct builds (WORK/micro-base) with the changed ones swapped
 * in. *changed is set when any micro-kernel's .text differs. */
static void lanes_gate(const char *work, emu_arch a, const micro_k *mk, size_t nmk,
                       bool base_only, bool fragments_only, bool *changed,
                       mstatus *st, char *detail, size_t dn) {
  const char *an = emu_arch_name(a);
  *changed = false;
  *st = ST_SURVIVED;
  char *kdir = ll_fmt("%s/lanes/%s/kernels", work, an), *res = ll_fmt("%s/lanes-results/%s", work, an);
  ll_err e = {0};
  if (!ll_mkdir_p(kdir, &e)) {
    *st = ST_NOTRUN;
    snprintf(detail, dn, "lanes gate: %.200s", e.msg);
    goto out;
  }
  for (size_t i = 0; i < nmk; i++) {
    char *base = ll_fmt("%s/micro-base/%s/%s.co", work, an, mk[i].name), *dst = ll_fmt("%s/%s.co", kdir, mk[i].name);
    struct stat sb;
    remove(dst);
    bool have = stat(base, &sb) == 0; /* no .co: not built for this arch (.skip) */
    if (have && !base_only && (!fragments_only || mk[i].fragments)) {
      int b = build_micro(work, "micro-out", a, mk[i].name);
      if (b < 0) {
        *st = ST_STILLBORN;
        snprintf(detail, dn, "micro-kernel %s.hip does not compile for %s", mk[i].name, an);
        free(base);
        free(dst);
        goto out;
      }
      char *co = ll_fmt("%s/micro-out/%s/%s.co", work, an, mk[i].name);
      isa_diff_result dr;
      ll_err de = {0};
      bool differs = b == 1 && (!isa_diff_files(co, base, &dr, NULL, &de) || !dr.text_identical);
      if (differs) *changed = true;
      if (have && !copy_file(differs ? co : base, dst, &e)) {
        *st = ST_NOTRUN;
        snprintf(detail, dn, "lanes gate: %.200s", e.msg);
        free(co);
        free(base);
        free(dst);
        goto out;
      }
      free(co);
    } else if (have && !copy_file(base, dst, &e)) {
      *st = ST_NOTRUN;
      snprintf(detail, dn, "lanes gate: %.200s", e.msg);
      free(base);
      free(dst);
      goto out;
    }
    free(base);
    free(dst);
  }
  if (base_only) *changed = true; /* the correct builds: the stage must pass on them */
  if (!*changed) goto out;
  char *bdir = ll_fmt("%s/lanes", work);
  verify_ctx c = {.arch = a, .arch_name = an, .build = bdir, .results = res, .shapes = "quick", .backend = "emu",
                  .shard_n = 1, .t0 = ll_now()};
  bool q = verify_quiet;
  verify_quiet = true;
  stage_result r = {.v = VERDICT_NOT_RUN};
  verify_stage_lanes(&c, &r);
  verify_quiet = q;
  if (r.v == VERDICT_FAIL) {
    *st = ST_KILLED;
    snprintf(detail, dn, "lane map (lanes stage on the micro-kernels): %.180s", r.summary);
  } else if (r.v != VERDICT_PASS) {
    *st = ST_NOTRUN;
    snprintf(detail, dn, "lanes gate did not run: %.190s", r.summary);
  } else {
    snprintf(detail, dn, "the micro-kernels' lane maps match the model");
  }
  for (size_t k = 0; k < r.ntables; k++) report_table_free(r.tables[k]);
  free(r.tables);
  free(r.device);
  free(bdir);
out:
  free(kdir);
  free(res);
}

/* ---- the report ------------------------------------------------------------------------------ */
typedef struct argued {
  char *file, *desc, *line, *why;
} argued;

/* kernels/mutants-equivalent.txt: "FILE | CHANGE | SOURCE LINE (trimmed) | WHY" per line. */
static argued *read_argued(const char *root, size_t *n) {
  char *p = ll_fmt("%s/kernels/mutants-equivalent.txt", root);
  ll_err e = {0};
  size_t len;
  char *t = ll_read_file(p, &len, &e);
  free(p);
  *n = 0;
  if (!t) return NULL;
  argued *v = NULL;
  char *save = NULL;
  for (char *ln = strtok_r(t, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
    if (ln[0] == '#' || !strchr(ln, '|')) continue;
    char *f[4] = {0};
    int k = 0;
    for (char *s = ln; k < 4; k++) {
      char *bar = k < 3 ? strstr(s, " | ") : NULL;
      if (bar) *bar = 0;
      while (*s == ' ') s++;
      f[k] = s;
      if (!bar) break;
      s = bar + 3;
    }
    if (k < 3) continue;
    v = ll_xrealloc(v, (*n + 1) * sizeof *v);
    v[*n] = (argued){ll_xstrdup(f[0]), ll_xstrdup(f[1]), ll_xstrdup(f[2]), ll_xstrdup(f[3])};
    (*n)++;
  }
  free(t);
  return v;
}

static const argued *find_argued(const argued *v, size_t n, const mutate_site *m) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v[i].file, m->file) && !strcmp(v[i].desc, m->desc) && !strcmp(v[i].line, m->src_line)) return &v[i];
  return NULL;
}

typedef struct tally {
  char key[96];
  size_t k, s, nar, eq, sb, arg, nr;
} tally;

static tally *tally_get(tally **v, size_t *n, const char *key) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i].key, key)) return &(*v)[i];
  *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
  memset(&(*v)[*n], 0, sizeof **v);
  snprintf((*v)[*n].key, sizeof (*v)[*n].key, "%s", key);
  return &(*v)[(*n)++];
}

static void tally_add(tally *t, mstatus s) {
  switch (s) {
    case ST_KILLED: t->k++; break;
    case ST_NARROW: t->nar++; break;
    case ST_SURVIVED: t->s++; break;
    case ST_EQUIV: t->eq++; break;
    case ST_STILLBORN: t->sb++; break;
    case ST_ARGUED: t->arg++; break;
    default: t->nr++;
  }
}

/* killed / (killed + survived + narrow) in percent; NAN when nothing is scored (no mutant of the
 * row has run, or every one is equivalent or stillborn): such a row has no score, not 100%. */
static double score(const tally *t) {
  size_t d = t->k + t->s + t->nar;
  return d ? 100.0 * (double)t->k / (double)d : NAN;
}

static void tally_rows(report_table *tb, const char *arch, tally *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double sc = score(&v[i]);
    char sbuf[16];
    if (isnan(sc)) snprintf(sbuf, sizeof sbuf, "-");
    else snprintf(sbuf, sizeof sbuf, "%.1f", sc);
    report_table_row(tb, "%s\t%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%s", arch, v[i].key, v[i].k, v[i].s, v[i].nar,
                     v[i].eq, v[i].arg, v[i].sb, v[i].nr, sbuf);
  }
}

int mutate_run(const mutate_opts *o, ll_err *err) {
  /* 1. enumerate */
  mutate_site *sites = NULL;
  size_t nsites = 0;
  char *texts[NFILES] = {0};
  size_t lens[NFILES] = {0};
  for (size_t f = 0; f < NFILES; f++) {
    if (o->only_file && strcmp(o->only_file, mut_files[f])) continue;
    char *p = ll_fmt("%s/%s", o->root, mut_files[f]);
    texts[f] = ll_read_file(p, &lens[f], err);
    free(p);
    if (!texts[f]) goto fail;
    mutate_scan(mut_files[f], texts[f], lens[f], &sites, &nsites);
  }
  if (o->only_file && nsites == 0) {
    bool known = false;
    for (size_t f = 0; f < NFILES; f++) known |= !strcmp(o->only_file, mut_files[f]);
    if (!known) {
      ll_seterr(err, LL_EXIT_USAGE, "--file %s is not one of the mutated files (kernels/prod/*, "
                "kernels/include/lanelab_{device,fragments}.h)", o->only_file);
      goto fail;
    }
  }
  if (o->only && o->nonly > nsites) {
    ll_seterr(err, LL_EXIT_USAGE, "--only %zu: there are %zu mutants%s%s (indices 0..%zu, as --list prints them)",
              o->nonly - 1, nsites, o->only_file ? " in " : "", o->only_file ? o->only_file : "", nsites ? nsites - 1 : 0);
    goto fail;
  }
  if (o->list) {
    for (size_t i = 0; i < nsites; i++)
      if (o->shard_n <= 1 || i % o->shard_n == o->shard_i)
        printf("%zu\t%s:%d:%d\t%s\t%s\t%s\n", i, sites[i].file, sites[i].line, sites[i].col, sites[i].func,
               sites[i].op, sites[i].desc);
    fprintf(stderr, "lanelab: mutate: %zu mutants\n", nsites);
    mutate_sites_free(sites, nsites);
    for (size_t f = 0; f < NFILES; f++) free(texts[f]);
    return LL_EXIT_OK;
  }
  /* 2. per mutant: cache or build + gate */
  char *mdir = ll_fmt("%s/mutate", o->build), *rdir = ll_fmt("%s/mutate/results", o->build);
  char *work = ll_fmt("%s/mutate/work-%u-%u", o->build, o->shard_i, o->shard_n);
  char *kp = ll_fmt("%s/kernels/prod", work), *ki = ll_fmt("%s/kernels/include", work);
  bool ok = ll_mkdir_p(rdir, err) && ll_mkdir_p(kp, err) && ll_mkdir_p(ki, err);
  rt_device *dev[EMU_NARCH] = {0};
  gcase *g = NULL;
  size_t ng = 0;
  micro_k *mk = NULL; /* the micro-kernels of the headers' lanes gate */
  size_t nmk = 0;
  mres *res = ll_xcalloc(nsites ? nsites : 1, sizeof *res);
  size_t argued_n = 0;
  argued *arg = read_argued(o->root, &argued_n);
  int rc = LL_EXIT_OK;
  if (!ok) { rc = err->code; goto out; }
  for (size_t f = 0; f < NFILES && !o->report_only; f++) {
    char *src = ll_fmt("%s/%s", o->root, mut_files[f]), *dst = ll_fmt("%s/%s", work, mut_files[f]);
    bool c = copy_file(src, dst, err);
    free(src);
    free(dst);
    if (!c) { rc = err->code; goto out; }
  }
  if (!o->report_only) {
    for (size_t i = 0; i < o->narch; i++) {
      emu_arch a = o->arches[i];
      if (!(dev[a] = rt_open(RT_EMU, a, err))) { rc = err->code; goto out; }
      /* the correct sources built the way the mutants are: the .text they are compared with */
      for (int s = 0; s < NSTEMS; s++) {
        char *co = build_stem(work, "base", a, s);
        if (!co) {
          ll_seterr(err, LL_EXIT_ENV, "the correct %s.hip does not build for %s in %s", stems[s], emu_arch_name(a), work);
          rc = LL_EXIT_ENV;
          goto out;
        }
        free(co);
      }
    }
    g = gate_cases(o->random_n, o->seed, &ng);
  }
  /* the headers' lanes gate: micro-kernel sources and their correct builds in the work tree */
  bool headers = !o->only_file || strstr(o->only_file, "kernels/include/");
  if (!o->report_only && headers) {
    if (!(mk = micro_list(o->root, &nmk, err))) { rc = err->code; goto out; }
    char *md = ll_fmt("%s/kernels/micro", work);
    bool c = ll_mkdir_p(md, err);
    free(md);
    for (size_t i = 0; c && i <= nmk; i++) {
      const char *rel = i < nmk ? NULL : "kernels/include/lanelab_micro.h";
      char *r2 = i < nmk ? ll_fmt("kernels/micro/%s.hip", mk[i].name) : ll_xstrdup(rel);
      char *src = ll_fmt("%s/%s", o->root, r2), *dst = ll_fmt("%s/%s", work, r2);
      c = copy_file(src, dst, err);
      free(src);
      free(dst);
      free(r2);
    }
    for (size_t ai = 0; c && ai < o->narch; ai++)
      for (size_t i = 0; c && i < nmk; i++)
        if (build_micro(work, "micro-base", o->arches[ai], mk[i].name) < 0) {
          ll_seterr(err, LL_EXIT_ENV, "the correct micro-kernel %s.hip does not build for %s in %s", mk[i].name,
                    emu_arch_name(o->arches[ai]), work);
          c = false;
        }
    if (!c) { rc = err->code; goto out; }
    for (size_t ai = 0; ai < o->narch; ai++) { /* as gate_prepare: the correct builds must pass */
      bool ch;
      mstatus ls;
      char ldet[240];
      lanes_gate(work, o->arches[ai], mk, nmk, true, false, &ch, &ls, ldet, sizeof ldet);
      if (ls != ST_SURVIVED) {
        ll_seterr(err, LL_EXIT_ENV, "the correct micro-kernels do not pass the lanes gate on %s: %s",
                  emu_arch_name(o->arches[ai]), ldet);
        rc = LL_EXIT_ENV;
        goto out;
      }
    }
  }
  size_t ran_now = 0, inshard = 0;
  double t0 = ll_now();
  for (size_t i = 0; i < nsites; i++) {
    if (o->shard_n > 1 && i % o->shard_n != o->shard_i) continue;
    inshard++;
    if (o->only && !(i < o->nonly && o->only[i])) continue; /* --only: reported from the cache, not run */
    const mutate_site *m = &sites[i];
    size_t f = 0;
    while (strcmp(mut_files[f], m->file)) f++;
    size_t mlen;
    char *mt = mutate_apply(texts[f], lens[f], m, &mlen);
    uint64_t key = fnv(fnv(0xcbf29ce484222325ull, m->file, strlen(m->file)), mt, mlen);
    bool header = strstr(m->file, "kernels/include/") != NULL;
    if (header) key = fnv(key, "lanes-gate-1", 12); /* results from before the lanes gate are stale */
    char *cpath = ll_fmt("%s/%016llx.txt", rdir, (unsigned long long)key);
    bool cached = cache_read(cpath, &res[i]);
    for (size_t ai = 0; ai < o->narch && cached; ai++) {
      mstatus cs = res[i].st[o->arches[ai]];
      cached = cs != ST_NOTRUN && !(o->retry && (cs == ST_SURVIVED || cs == ST_NARROW));
    }
    if (cached || o->report_only || (o->max && ran_now >= o->max)) { free(mt); free(cpath); continue; }
    ran_now++;
    char *dst = ll_fmt("%s/%s", work, m->file);
    ll_err we = {0};
    if (!ll_write_file_atomic(dst, mt, mlen, &we)) { free(dst); free(mt); free(cpath); rc = ll_report(&we); goto out; }
    unsigned reach = file_stems(m->file);
    for (size_t ai = 0; ai < o->narch; ai++) {
      emu_arch a = o->arches[ai];
      const char *an = emu_arch_name(a);
      char *odir = ll_fmt("%s/out/%s", work, an);
      /* code object by code object: build, compare .text, run its gate cases; the first kill
       * ends it (the other code objects need not be built), equivalence needs them all */
      mstatus best = ST_EQUIV;
      char best_detail[240] = "";
      for (int s = 0; s < NSTEMS; s++) {
        if (!(reach & (1u << s))) continue;
        char *co = build_stem(work, "out", a, s);
        if (!co) {
          best = ST_STILLBORN;
          snprintf(best_detail, sizeof best_detail, "%s.hip does not compile for %s", stems[s], an);
          break;
        }
        char *orig = ll_fmt("%s/base/%s/%s.co", work, an, stems[s]);
        isa_diff_result dr;
        ll_err de = {0};
        bool changed = !isa_diff_files(co, orig, &dr, NULL, &de) || !dr.text_identical;
        free(orig);
        free(co);
        if (!changed) continue;
        mstatus st;
        char det[240];
        gate_run(dev[a], o->build, a, g, ng, odir, 1u << s, &st, det, sizeof det);
        /* rank: killed > not run > narrow > survived > equivalent */
        static const int rank[] = {[ST_EQUIV] = 0, [ST_SURVIVED] = 1, [ST_NARROW] = 2, [ST_NOTRUN] = 3, [ST_KILLED] = 4};
        if (rank[st] > rank[best] || best == ST_EQUIV) {
          best = st;
          snprintf(best_detail, sizeof best_detail, "%s", det);
        }
        if (st == ST_KILLED) break;
      }
      if (header && mk && best != ST_KILLED && best != ST_STILLBORN) {
        bool mchanged;
        mstatus ls;
        char ldet[240];
        lanes_gate(work, a, mk, nmk, false, strstr(m->file, "lanelab_fragments.h") != NULL,
                   &mchanged, &ls, ldet, sizeof ldet);
        if (ls == ST_KILLED || ls == ST_NOTRUN || (ls == ST_STILLBORN && best == ST_EQUIV)) {
          best = ls;
          snprintf(best_detail, sizeof best_detail, "%s", ldet);
        } else if (mchanged && best == ST_EQUIV) {
          best = ST_SURVIVED;
          snprintf(best_detail, sizeof best_detail, "production .text unchanged; %s", ldet);
        } else if (mchanged && best != ST_STILLBORN) {
          size_t bl = strlen(best_detail);
          snprintf(best_detail + bl, sizeof best_detail - bl, "; %s", ldet);
        }
      }
      if (best == ST_EQUIV) snprintf(best_detail, sizeof best_detail, ".text byte-identical to the correct code objects");
      res[i].st[a] = best;
      snprintf(res[i].detail[a], sizeof res[i].detail[a], "%s", best_detail);
      free(odir);
    }
    /* restore the original file in the work tree */
    ll_write_file_atomic(dst, texts[f], lens[f], &we);
    free(dst);
    if (!cache_write(cpath, &res[i], o->arches, o->narch, &we)) ll_report(&we);
    fprintf(stderr, "[mutate %zu/%zu %.0fs] %s:%d %s: %s", i, nsites, ll_now() - t0, m->file, m->line, m->desc,
            "");
    for (size_t ai = 0; ai < o->narch; ai++)
      fprintf(stderr, "%s%s %s", ai ? ", " : "", emu_arch_name(o->arches[ai]), st_name[res[i].st[o->arches[ai]]]);
    fputc('\n', stderr);
    free(mt);
    free(cpath);
  }
  /* 3. report */
  {
    ll_buf md = {0};
    ll_buf_printf(&md, "<!-- generated by lanelab mutate; do not edit -->\n# Mutation testing of the production kernels\n\n"
                       "%zu mutants over %zu files (this shard: %zu); gate: quick matrix + random:%zu --seed %llu.\n\n",
                  nsites, NFILES, inshard, o->random_n, (unsigned long long)o->seed);
    report_table *tf = report_table_new("mutation score per file (score = killed / (killed + survived + narrow))",
                                        "arch,file,killed#,survived#,narrow#,equivalent#,argued#,stillborn#,not_run#,score#");
    report_table *tfn = report_table_new("mutation score per function",
                                         "arch,function,killed#,survived#,narrow#,equivalent#,argued#,stillborn#,not_run#,score#");
    report_table *tsv = report_table_new("survivors and narrow kills (gaps), by file, line and change",
                                         "arch,where,function,change,status,detail");
    report_table *ta = report_table_new("argued equivalent (kernels/mutants-equivalent.txt)", "arch,where,change,why");
    bool all_ok = true;
    for (size_t ai = 0; ai < o->narch; ai++) {
      emu_arch a = o->arches[ai];
      const char *an = emu_arch_name(a);
      tally *tfiles = NULL, *tfuncs = NULL, total = {.key = "(all)"};
      size_t nf = 0, nfn = 0;
      for (size_t i = 0; i < nsites; i++) {
        if (o->shard_n > 1 && i % o->shard_n != o->shard_i) continue;
        const mutate_site *m = &sites[i];
        mstatus s = res[i].st[a];
        const argued *ar = NULL;
        if ((s == ST_SURVIVED || s == ST_NARROW) && (ar = find_argued(arg, argued_n, m))) {
          s = ST_ARGUED;
          report_table_row(ta, "%s\t%s:%d\t%s\t%s", an, m->file, m->line, m->desc, ar->why);
        }
        char fk[96];
        snprintf(fk, sizeof fk, "%s", m->file);
        tally_add(tally_get(&tfiles, &nf, fk), s);
        snprintf(fk, sizeof fk, "%s %s", strrchr(m->file, '/') + 1, m->func);
        tally_add(tally_get(&tfuncs, &nfn, fk), s);
        tally_add(&total, s);
        if (s == ST_SURVIVED || s == ST_NARROW)
          report_table_row(tsv, "%s\t%s:%d:%d\t%s\t%s\t%s\t%s", an, m->file, m->line, m->col, m->func, m->desc,
                           st_name[s], res[i].detail[a]);
      }
      tally_rows(tf, an, tfiles, nf);
      tally_rows(tf, an, &total, 1);
      tally_rows(tfn, an, tfuncs, nfn);
      double sc = score(&total);
      char sbuf[24];
      if (isnan(sc)) snprintf(sbuf, sizeof sbuf, "- (nothing scored)");
      else snprintf(sbuf, sizeof sbuf, "%.1f%%", sc);
      ll_buf_printf(&md, "- **%s**: score %s (%zu killed of %zu non-equivalent: %zu survived, %zu narrow); "
                         "%zu equivalent by .text identity, %zu argued equivalent, %zu stillborn, %zu not run\n",
                    an, sbuf, total.k, total.k + total.s + total.nar, total.s, total.nar, total.eq, total.arg, total.sb,
                    total.nr);
      printf("mutate %s: score %s (%zu killed / %zu non-equivalent; %zu survived, %zu narrow; %zu equivalent "
             "(.text), %zu argued, %zu stillborn, %zu not run)\n",
             an, sbuf, total.k, total.k + total.s + total.nar, total.s, total.nar, total.eq, total.arg, total.sb, total.nr);
      if (isnan(sc) || sc < 98.0 || total.nr) all_ok = false;
      free(tfiles);
      free(tfuncs);
    }
    report_table_note(tsv, "narrow = the mutant fails the oracle comparison but below 100x the correct kernel's noise "
                           "floor: a gap, like a survivor. Triage: kill it with a new matrix case, or argue it "
                           "equivalent in kernels/mutants-equivalent.txt (never by widening a tolerance).");
    report_table *tabs[] = {tf, tfn, tsv, ta};
    for (size_t t = 0; t < 4; t++) {
      ll_buf b = {0};
      report_table_render(tabs[t], REPORT_MD, &b);
      ll_buf_printf(&md, "\n%s\n", ll_buf_str(&b));
      ll_buf_free(&b);
    }
    report_table_print(tf, REPORT_TEXT);
    report_table_print(tsv, REPORT_TEXT);
    char *rp = ll_fmt("%s/report.md", mdir);
    ll_err we = {0};
    if (!ll_write_file_atomic(rp, md.data, md.len, &we)) ll_report(&we);
    else fprintf(stderr, "lanelab: mutate: report %s\n", rp);
    free(rp);
    ll_buf_free(&md);
    for (size_t t = 0; t < 4; t++) report_table_free(tabs[t]);
    rc = all_ok ? LL_EXIT_OK : LL_EXIT_FAIL;
  }
out:
  for (size_t i = 0; i < argued_n; i++) { free(arg[i].file); free(arg[i].desc); free(arg[i].line); free(arg[i].why); }
  free(arg);
  for (int a = 0; a < EMU_NARCH; a++) if (dev[a]) rt_close(dev[a]);
  if (g) gate_free(g, ng);
  for (size_t i = 0; i < nmk; i++) free(mk[i].name);
  free(mk);
  free(res);
  free(mdir); free(rdir); free(work); free(kp); free(ki);
  mutate_sites_free(sites, nsites);
  for (size_t f = 0; f < NFILES; f++) free(texts[f]);
  return rc;
fail:
  mutate_sites_free(sites, nsites);
  for (size_t f = 0; f < NFILES; f++) free(texts[f]);
  return err->code ? err->code : LL_EXIT_USAGE;
}
