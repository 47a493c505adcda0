/* emu/msgpack — see msgpack.h. Every read checks the bytes remaining first; element counts are
 * checked against the bytes left (each element takes at least one byte) before anything is
 * allocated, so a corrupted count cannot cause a huge allocation. Type bytes and their payload
 * layouts (big-endian lengths and numbers) follow the MessagePack specification, "Formats". */
#include "emu/msgpack.h"

#include <stdlib.h>
#include <string.h>

enum { MP_MAX_DEPTH = 64 };

typedef struct {
  const uint8_t *p;
  size_t n, at;
  ll_err *err;
} rd;

static bool need(rd *r, size_t k, const char *what) {
  if (r->n - r->at < k) {
    ll_seterr(r->err, LL_EXIT_USAGE,
              "MessagePack truncated at byte %zu: %s needs %zu bytes, %zu left", r->at, what, k,
              r->n - r->at);
    return false;
  }
  return true;
}

static uint64_t be(const uint8_t *p, int k) {
  uint64_t v = 0;
  for (int i = 0; i < k; i++) v = v << 8 | p[i];
  return v;
}

static bool read_be(rd *r, int k, uint64_t *v, const char *what) {
  if (!need(r, k, what)) return false;
  *v = be(r->p + r->at, k);
  r->at += k;
  return true;
}

static bool parse(rd *r, emu_mp *v, int depth);

static bool payload(rd *r, emu_mp *v, uint64_t len, const char *what) {
  if (len > UINT32_MAX || !need(r, len, what)) {
    if (len > UINT32_MAX)
      ll_seterr(r->err, LL_EXIT_USAGE, "MessagePack %s at byte %zu has length %llu > 4 GiB", what,
                r->at, (unsigned long long)len);
    return false;
  }
  v->s = (const char *)r->p + r->at;
  v->len = (uint32_t)len;
  r->at += len;
  return true;
}

static bool container(rd *r, emu_mp *v, uint64_t count, bool is_map, int depth) {
  uint64_t items = is_map ? count * 2 : count;
  /* Each element needs at least one byte: reject impossible counts before allocating. */
  if (count > r->n - r->at || items > r->n - r->at) {
    ll_seterr(r->err, LL_EXIT_USAGE,
              "MessagePack truncated at byte %zu: %s of %llu %s but only %zu bytes left", r->at,
              is_map ? "map" : "array", (unsigned long long)count, is_map ? "pairs" : "elements",
              r->n - r->at);
    return false;
  }
  if (depth >= MP_MAX_DEPTH) {
    ll_seterr(r->err, LL_EXIT_USAGE, "MessagePack nested deeper than %d at byte %zu", MP_MAX_DEPTH,
              r->at);
    return false;
  }
  v->type = is_map ? EMU_MP_MAP : EMU_MP_ARR;
  v->n = count;
  v->items = ll_xcalloc(items ? items : 1, sizeof *v->items);
  for (uint64_t i = 0; i < items; i++)
    if (!parse(r, &v->items[i], depth + 1)) return false;
  return true;
}

static bool parse(rd *r, emu_mp *v, int depth) {
  uint64_t x;
  if (!need(r, 1, "a type byte")) return false;
  size_t start = r->at;
  uint8_t t = r->p[r->at++];
  if (t <= 0x7f) { v->type = EMU_MP_UINT; v->u = t; return true; }           /* positive fixint */
  if (t >= 0xe0) { v->type = EMU_MP_INT; v->i = (int8_t)t; return true; }   /* negative fixint */
  if (t >= 0x80 && t <= 0x8f) return container(r, v, t & 0x0f, true, depth);  /* fixmap */
  if (t >= 0x90 && t <= 0x9f) return container(r, v, t & 0x0f, false, depth); /* fixarray */
  if (t >= 0xa0 && t <= 0xbf) { v->type = EMU_MP_STR; return payload(r, v, t & 0x1f, "fixstr"); }
  switch (t) {
  case 0xc0: v->type = EMU_MP_NIL; return true;
  case 0xc2: case 0xc3: v->type = EMU_MP_BOOL; v->b = t == 0xc3; return true;
  case 0xc4: case 0xc5: case 0xc6: {                                        /* bin 8/16/32 */
    int k = 1 << (t - 0xc4);
    v->type = EMU_MP_BIN;
    return read_be(r, k, &x, "bin length") && payload(r, v, x, "bin");
  }
  case 0xc7: case 0xc8: case 0xc9: {                                        /* ext 8/16/32 */
    int k = 1 << (t - 0xc7);
    v->type = EMU_MP_EXT;
    if (!read_be(r, k, &x, "ext length") || !need(r, 1, "ext type")) return false;
    v->ext_type = (int8_t)r->p[r->at++];
    return payload(r, v, x, "ext");
  }
  case 0xca: {                                                               /* float 32 */
    if (!read_be(r, 4, &x, "float32")) return false;
    uint32_t u = (uint32_t)x;
    float f;
    memcpy(&f, &u, 4);
    v->type = EMU_MP_FLOAT; v->f = f;
    return true;
  }
  case 0xcb: {                                                               /* float 64 */
    if (!read_be(r, 8, &x, "float64")) return false;
    double d;
    memcpy(&d, &x, 8);
    v->type = EMU_MP_FLOAT; v->f = d;
    return true;
  }
  case 0xcc: case 0xcd: case 0xce: case 0xcf:                                /* uint 8..64 */
    if (!read_be(r, 1 << (t - 0xcc), &x, "uint")) return false;
    v->type = EMU_MP_UINT; v->u = x;
    return true;
  case 0xd0: case 0xd1: case 0xd2: case 0xd3: {                              /* int 8..64 */
    int k = 1 << (t - 0xd0);
    if (!read_be(r, k, &x, "int")) return false;
    int64_t s = k == 8 ? (int64_t)x : (int64_t)(x << (64 - 8 * k)) >> (64 - 8 * k);
    if (s >= 0) { v->type = EMU_MP_UINT; v->u = (uint64_t)s; }
    else { v->type = EMU_MP_INT; v->i = s; }
    return true;
  }
  case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:                     /* fixext 1..16 */
    if (!need(r, 1, "fixext type")) return false;
    v->type = EMU_MP_EXT;
    v->ext_type = (int8_t)r->p[r->at++];
    return payload(r, v, 1u << (t - 0xd4), "fixext");
  case 0xd9: case 0xda: case 0xdb:                                           /* str 8/16/32 */
    v->type = EMU_MP_STR;
    return read_be(r, 1 << (t - 0xd9), &x, "str length") && payload(r, v, x, "str");
  case 0xdc: case 0xdd:                                                      /* array 16/32 */
    return read_be(r, t == 0xdc ? 2 : 4, &x, "array length") && container(r, v, x, false, depth);
  case 0xde: case 0xdf:                                                      /* map 16/32 */
    return read_be(r, t == 0xde ? 2 : 4, &x, "map length") && container(r, v, x, true, depth);
  default:
    ll_seterr(r->err, LL_EXIT_USAGE, "MessagePack byte 0x%02x at byte %zu is reserved (never used)",
              t, start);
    return false;
  }
}

static void free_items(emu_mp *v) {
  if (v->type != EMU_MP_ARR && v->type != EMU_MP_MAP) return;
  size_t k = v->type == EMU_MP_MAP ? v->n * 2 : v->n;
  if (v->items)
    for (size_t i = 0; i < k; i++) free_items(&v->items[i]);
  free(v->items);
}

void emu_mp_free(emu_mp *v) {
  if (!v) return;
  free_items(v);
  free(v);
}

emu_mp *emu_mp_parse(const uint8_t *p, size_t n, ll_err *err) {
  rd r = {p, n, 0, err};
  emu_mp *v = ll_xcalloc(1, sizeof *v);
  if (!parse(&r, v, 0)) {
    emu_mp_free(v);
    return NULL;
  }
  if (r.at != n) {
    ll_seterr(err, LL_EXIT_USAGE, "MessagePack value ends at byte %zu but the data has %zu bytes",
              r.at, n);
    emu_mp_free(v);
    return NULL;
  }
  return v;
}

bool emu_mp_str_eq(const emu_mp *v, const char *s) {
  size_t k = strlen(s);
  return v && v->type == EMU_MP_STR && v->len == k && memcmp(v->s, s, k) == 0;
}

const emu_mp *emu_mp_get(const emu_mp *map, const char *key) {
  if (!map || map->type != EMU_MP_MAP) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (emu_mp_str_eq(&map->items[2 * i], key)) return &map->items[2 * i + 1];
  return NULL;
}

bool emu_mp_as_u64(const emu_mp *v, uint64_t *out) {
  if (!v || v->type != EMU_MP_UINT) return false;
  *out = v->u;
  return true;
}

char *emu_mp_strdup(const emu_mp *v) {
  if (!v || v->type != EMU_MP_STR || memchr(v->s, 0, v->len)) return NULL;
  char *s = ll_xmalloc((size_t)v->len + 1);
  memcpy(s, v->s, v->len);
  s[v->len] = 0;
  return s;
}

const char *emu_mp_type_name(emu_mp_type t) {
  static const char *names[] = {"nil", "bool", "uint", "int", "float", "str", "bin", "ext",
                                "array", "map"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
