/* verify/mutator — the mutator of lanelab mutate: a small C++ lexer (comments, strings and
 * preprocessor lines are never mutated) and the mutation operators over its tokens, one mutant per
 * site and change, in file order. Contract and operator list: verify/mutate.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verify/mutate.h"

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

