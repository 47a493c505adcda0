/* util — a small strict JSON (RFC 8259) reader and a pretty-printing writer. */
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *s, *end, *start;
  int line;
  ll_err *err;
  int depth;
} jp;

static void *jfail(jp *p, const char *what) {
  if (p->err && !p->err->code) {
    ll_seterr(p->err, LL_EXIT_USAGE, "JSON line %d: %s (found %s)", p->line, what,
              p->s >= p->end ? "end of input" : (char[]){'\'', *p->s, '\'', 0});
  }
  return NULL;
}

static void skip_ws(jp *p) {
  while (p->s < p->end) {
    char c = *p->s;
    if (c == '\n') p->line++;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') p->s++;
    else break;
  }
}

static ll_json *new_val(jp *p, ll_jtype t) {
  ll_json *j = ll_xcalloc(1, sizeof *j);
  j->type = t;
  j->line = p->line;
  return j;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void put_utf8(ll_buf *b, unsigned cp) {
  char o[4];
  int n;
  if (cp < 0x80) { o[0] = (char)cp; n = 1; }
  else if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 63)); n = 2; }
  else if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 63));
    o[2] = (char)(0x80 | (cp & 63)); n = 3;
  } else {
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 63));
    o[2] = (char)(0x80 | ((cp >> 6) & 63)); o[3] = (char)(0x80 | (cp & 63)); n = 4;
  }
  ll_buf_put(b, o, (size_t)n);
}

static char *parse_str(jp *p) {
  if (p->s >= p->end || *p->s != '"') return jfail(p, "expected a string");
  p->s++;
  ll_buf b = {0};
  while (p->s < p->end && *p->s != '"') {
    unsigned char c = (unsigned char)*p->s;
    if (c < 0x20) { ll_buf_free(&b); return jfail(p, "control character in string"); }
    if (c != '\\') { ll_buf_put(&b, p->s, 1); p->s++; continue; }
    p->s++;
    if (p->s >= p->end) break;
    char e = *p->s++;
    switch (e) {
      case '"': ll_buf_puts(&b, "\""); break;
      case '\\': ll_buf_puts(&b, "\\"); break;
      case '/': ll_buf_puts(&b, "/"); break;
      case 'b': ll_buf_puts(&b, "\b"); break;
      case 'f': ll_buf_puts(&b, "\f"); break;
      case 'n': ll_buf_puts(&b, "\n"); break;
      case 'r': ll_buf_puts(&b, "\r"); break;
      case 't': ll_buf_puts(&b, "\t"); break;
      case 'u': {
        unsigned cp = 0;
        for (int k = 0; k < 4; k++) {
          int h = p->s < p->end ? hexval(*p->s) : -1;
          if (h < 0) { ll_buf_free(&b); return jfail(p, "bad \\u escape"); }
          cp = cp * 16 + (unsigned)h;
          p->s++;
        }
        if (cp >= 0xD800 && cp < 0xDC00 && p->end - p->s >= 6 && p->s[0] == '\\' && p->s[1] == 'u') {
          unsigned lo = 0;
          bool ok = true;
          for (int k = 0; k < 4; k++) {
            int h = hexval(p->s[2 + k]);
            if (h < 0) ok = false;
            lo = lo * 16 + (unsigned)(h < 0 ? 0 : h);
          }
          if (ok && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p->s += 6;
          }
        }
        if (cp == 0) { ll_buf_free(&b); return jfail(p, "\\u0000 is not allowed in lanelab strings"); }
        put_utf8(&b, cp);
        break;
      }
      default: ll_buf_free(&b); return jfail(p, "bad escape in string");
    }
  }
  if (p->s >= p->end) { ll_buf_free(&b); return jfail(p, "unterminated string"); }
  p->s++;
  ll_buf_str(&b);
  return b.data;
}

static ll_json *parse_val(jp *p);

static ll_json *parse_num(jp *p) {
  const char *st = p->s;
  if (p->s < p->end && *p->s == '-') p->s++;
  if (p->s >= p->end || !(*p->s >= '0' && *p->s <= '9')) return jfail(p, "expected a value");
  if (*p->s == '0' && p->s + 1 < p->end && p->s[1] >= '0' && p->s[1] <= '9')
    return jfail(p, "leading zero in number");
  while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  bool frac = false;
  if (p->s < p->end && *p->s == '.') {
    frac = true;
    p->s++;
    if (p->s >= p->end || !(*p->s >= '0' && *p->s <= '9')) return jfail(p, "bad fraction");
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  }
  if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
    frac = true;
    p->s++;
    if (p->s < p->end && (*p->s == '+' || *p->s == '-')) p->s++;
    if (p->s >= p->end || !(*p->s >= '0' && *p->s <= '9')) return jfail(p, "bad exponent");
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  }
  char tmp[64];
  size_t n = (size_t)(p->s - st);
  if (n >= sizeof tmp) return jfail(p, "number too long");
  memcpy(tmp, st, n);
  tmp[n] = 0;
  ll_json *j = new_val(p, LL_JNUM);
  j->num = strtod(tmp, NULL);
  if (!frac) {
    int64_t v;
    if (ll_parse_i64(tmp, &v)) { j->is_int = true; j->i = v; }
  } else if (isfinite(j->num) && j->num == floor(j->num) && fabs(j->num) < 9.0e15) {
    j->is_int = true;
    j->i = (int64_t)j->num;
  }
  return j;
}

static bool lit(jp *p, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(p->end - p->s) >= n && memcmp(p->s, w, n) == 0) { p->s += n; return true; }
  return false;
}

static ll_json *parse_val(jp *p) {
  skip_ws(p);
  if (p->s >= p->end) return jfail(p, "expected a value");
  if (++p->depth > 200) return jfail(p, "nesting too deep");
  ll_json *j = NULL;
  char c = *p->s;
  if (c == '{') {
    j = new_val(p, LL_JOBJ);
    p->s++;
    skip_ws(p);
    if (p->s < p->end && *p->s == '}') { p->s++; goto done; }
    for (;;) {
      skip_ws(p);
      char *k = parse_str(p);
      if (!k) goto bad;
      for (size_t i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], k) == 0) {
          char m[300];
          snprintf(m, sizeof m, "duplicate key \"%.200s\"", k);
          free(k);
          jfail(p, m);
          goto bad;
        }
      skip_ws(p);
      if (p->s >= p->end || *p->s != ':') { free(k); jfail(p, "expected ':'"); goto bad; }
      p->s++;
      ll_json *v = parse_val(p);
      if (!v) { free(k); goto bad; }
      j->keys = ll_xrealloc(j->keys, (j->n + 1) * sizeof *j->keys);
      j->items = ll_xrealloc(j->items, (j->n + 1) * sizeof *j->items);
      j->keys[j->n] = k;
      j->items[j->n++] = v;
      skip_ws(p);
      if (p->s < p->end && *p->s == ',') { p->s++; continue; }
      if (p->s < p->end && *p->s == '}') { p->s++; break; }
      jfail(p, "expected ',' or '}'");
      goto bad;
    }
  } else if (c == '[') {
    j = new_val(p, LL_JARR);
    p->s++;
    skip_ws(p);
    if (p->s < p->end && *p->s == ']') { p->s++; goto done; }
    for (;;) {
      ll_json *v = parse_val(p);
      if (!v) goto bad;
      j->items = ll_xrealloc(j->items, (j->n + 1) * sizeof *j->items);
      j->items[j->n++] = v;
      skip_ws(p);
      if (p->s < p->end && *p->s == ',') { p->s++; continue; }
      if (p->s < p->end && *p->s == ']') { p->s++; break; }
      jfail(p, "expected ',' or ']'");
      goto bad;
    }
  } else if (c == '"') {
    char *s = parse_str(p);
    if (!s) return NULL;
    j = new_val(p, LL_JSTR);
    j->str = s;
  } else if (lit(p, "true")) {
    j = new_val(p, LL_JBOOL);
    j->b = true;
  } else if (lit(p, "false")) {
    j = new_val(p, LL_JBOOL);
  } else if (lit(p, "null")) {
    j = new_val(p, LL_JNULL);
  } else {
    j = parse_num(p);
  }
done:
  p->depth--;
  return j;
bad:
  ll_json_free(j);
  return NULL;
}

ll_json *ll_json_parse(const char *text, size_t len, ll_err *err) {
  jp p = {.s = text, .end = text + len, .start = text, .line = 1, .err = err};
  if (err) err->code = 0;
  ll_json *j = parse_val(&p);
  if (!j) {
    if (err && !err->code) ll_seterr(err, LL_EXIT_USAGE, "JSON line %d: invalid", p.line);
    return NULL;
  }
  skip_ws(&p);
  if (p.s != p.end) {
    jfail(&p, "trailing characters after the JSON value");
    ll_json_free(j);
    return NULL;
  }
  return j;
}

ll_json *ll_json_parse_file(const char *path, ll_err *err) {
  size_t n;
  char *t = ll_read_file(path, &n, err);
  if (!t) return NULL;
  ll_json *j = ll_json_parse(t, n, err);
  free(t);
  if (!j) ll_err_prefix(err, "%s", path);
  return j;
}

void ll_json_free(ll_json *j) {
  if (!j) return;
  for (size_t i = 0; i < j->n; i++) {
    ll_json_free(j->items[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->items);
  free(j->keys);
  free(j->str);
  free(j);
}

ll_json *ll_json_get(const ll_json *obj, const char *key) {
  if (!obj || obj->type != LL_JOBJ) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}

const char *ll_json_type_name(ll_jtype t) {
  static const char *n[] = {"null", "boolean", "number", "string", "array", "object"};
  return n[t];
}

/* ---- writer ------------------------------------------------------------------------------- */

void ll_json_escape(ll_buf *b, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
      case '"': ll_buf_puts(b, "\\\""); break;
      case '\\': ll_buf_puts(b, "\\\\"); break;
      case '\n': ll_buf_puts(b, "\\n"); break;
      case '\r': ll_buf_puts(b, "\\r"); break;
      case '\t': ll_buf_puts(b, "\\t"); break;
      default:
        if (c < 0x20) ll_buf_printf(b, "\\u%04x", c);
        else ll_buf_put(b, s, 1);
    }
  }
}

void ll_jw_init(ll_jw *w, ll_buf *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
  w->first[0] = true;
}

static void indent(ll_jw *w) {
  ll_buf_puts(w->out, "\n");
  for (int i = 0; i < w->depth; i++) ll_buf_puts(w->out, "  ");
}

/* "No value written yet" flag of the current container. The writer used to stop counting depth
 * at 63 (first[] has 64 slots) but not stop decrementing it, so a value nested deeper than 63
 * levels (the reader takes 200) made close_ index first[-1] and emit broken JSON (found by
 * fuzz/fuzz_spec). Depth now counts every level and the levels from 63 on share the last slot:
 * that is exact, because only the current container's flag is ever read before it is closed,
 * and the container a close returns to always has a value already (the one just closed), so its
 * flag is reset to false rather than remembered. */
static bool *first_of(ll_jw *w) { return &w->first[w->depth < 0 ? 0 : w->depth > 63 ? 63 : w->depth]; }

/* Called before every value: handles the comma and newline unless it follows a key. */
static void pre_value(ll_jw *w) {
  if (w->after_key) { w->after_key = false; return; }
  if (w->depth > 0) {
    if (!*first_of(w)) ll_buf_puts(w->out, ",");
    indent(w);
  }
  *first_of(w) = false;
}

static void open(ll_jw *w, const char *c) {
  pre_value(w);
  ll_buf_puts(w->out, c);
  w->depth++;
  *first_of(w) = true;
}
static void close_(ll_jw *w, const char *c) {
  bool empty = *first_of(w);
  w->depth--;
  *first_of(w) = false; /* the container we are back in holds the one just closed */
  if (!empty) indent(w);
  ll_buf_puts(w->out, c);
  if (w->depth == 0) ll_buf_puts(w->out, "\n");
}
void ll_jw_obj_begin(ll_jw *w) { open(w, "{"); }
void ll_jw_obj_end(ll_jw *w) { close_(w, "}"); }
void ll_jw_arr_begin(ll_jw *w) { open(w, "["); }
void ll_jw_arr_end(ll_jw *w) { close_(w, "]"); }
void ll_jw_key(ll_jw *w, const char *key) {
  pre_value(w);
  ll_buf_puts(w->out, "\"");
  ll_json_escape(w->out, key);
  ll_buf_puts(w->out, "\": ");
  w->after_key = true;
}
void ll_jw_str(ll_jw *w, const char *s) {
  pre_value(w);
  ll_buf_puts(w->out, "\"");
  ll_json_escape(w->out, s ? s : "");
  ll_buf_puts(w->out, "\"");
}
void ll_jw_int(ll_jw *w, int64_t v) { pre_value(w); ll_buf_printf(w->out, "%lld", (long long)v); }
void ll_jw_uint(ll_jw *w, uint64_t v) { pre_value(w); ll_buf_printf(w->out, "%llu", (unsigned long long)v); }
void ll_jw_num(ll_jw *w, double v) {
  if (isnan(v)) { ll_jw_str(w, "nan"); return; }
  if (isinf(v)) { ll_jw_str(w, v > 0 ? "inf" : "-inf"); return; }
  pre_value(w);
  ll_buf_printf(w->out, "%.9g", v);
}
void ll_jw_bool(ll_jw *w, bool v) { pre_value(w); ll_buf_puts(w->out, v ? "true" : "false"); }
void ll_jw_null(ll_jw *w) { pre_value(w); ll_buf_puts(w->out, "null"); }
void ll_jw_raw(ll_jw *w, const char *json, size_t len) {
  while (len && (json[len - 1] == '\n' || json[len - 1] == ' ')) len--;
  pre_value(w);
  ll_buf_put(w->out, json, len);
}

void ll_jw_value(ll_jw *w, const ll_json *j) {
  switch (j->type) {
    case LL_JNULL: ll_jw_null(w); break;
    case LL_JBOOL: ll_jw_bool(w, j->b); break;
    case LL_JNUM: if (j->is_int) ll_jw_int(w, j->i); else ll_jw_num(w, j->num); break;
    case LL_JSTR: ll_jw_str(w, j->str); break;
    case LL_JARR:
      ll_jw_arr_begin(w);
      for (size_t i = 0; i < j->n; i++) ll_jw_value(w, j->items[i]);
      ll_jw_arr_end(w);
      break;
    case LL_JOBJ:
      ll_jw_obj_begin(w);
      for (size_t i = 0; i < j->n; i++) { ll_jw_key(w, j->keys[i]); ll_jw_value(w, j->items[i]); }
      ll_jw_obj_end(w);
      break;
  }
}
