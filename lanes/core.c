/* lanes/core — names, swizzled tile layouts, the micro-kernel images and seeds, lane-map diff,
 * and the affine lane-bit-field fit used to state closed forms. */
#include <stdio.h>
#include <string.h>

#include "lanes/lanes.h"

bool lanes_arch_parse(const char *s, lanes_arch *out, ll_err *err) {
  if (s && strcmp(s, "gfx942") == 0) { *out = LANES_GFX942; return true; }
  if (s && strcmp(s, "gfx950") == 0) { *out = LANES_GFX950; return true; }
  ll_seterr(err, LL_EXIT_USAGE, "unknown arch '%s': expected gfx942 or gfx950", s ? s : "(null)");
  return false;
}

const char *lanes_arch_name(lanes_arch a) { return a == LANES_GFX942 ? "gfx942" : "gfx950"; }

bool lanes_operand_parse(const char *s, lanes_operand *out, ll_err *err) {
  static const char *n[] = {"A", "B", "C", "D"};
  for (int i = 0; s && i < 4; i++)
    if (strcmp(s, n[i]) == 0 || (s[0] == n[i][0] + 32 && s[1] == 0)) { *out = (lanes_operand)i; return true; }
  ll_seterr(err, LL_EXIT_USAGE, "unknown operand '%s': expected A, B, C or D", s ? s : "(null)");
  return false;
}

const char *lanes_operand_name(lanes_operand o) {
  static const char *n[] = {"A", "B", "C", "D"};
  return n[o];
}

/* ---- swizzled layouts (docs/isa.md "The software transpose being replaced"; FlashInfer ROCm
 * permuted_smem): offsets in 8-byte units. */
static const char *swz_names[] = {"kLinear", "k64B", "k128B", "k128B_16Row"};

bool lanes_swizzle_parse(const char *s, lanes_swizzle *out, ll_err *err) {
  for (int i = 0; s && i < 4; i++)
    if (strcmp(s, swz_names[i]) == 0) { *out = (lanes_swizzle)i; return true; }
  ll_seterr(err, LL_EXIT_USAGE, "unknown swizzle mode '%s': expected kLinear, k64B, k128B or k128B_16Row",
            s ? s : "(null)");
  return false;
}

const char *lanes_swizzle_name(lanes_swizzle s) { return swz_names[s]; }

uint32_t lanes_swizzle_offset(lanes_swizzle s, uint32_t stride, uint32_t i, uint32_t j) {
  switch (s) {
  case LANES_SWZ_LINEAR: return i * stride + j;
  case LANES_SWZ_64B: return i * stride + (j ^ ((i / 2) % 4));
  case LANES_SWZ_128B: return i * stride + (j ^ (i % 8));
  case LANES_SWZ_128B_16ROW: return i * stride + (j ^ (i % 16)); /* needs stride >= 16 units */
  }
  return 0;
}

/* ---- the f16 tile region (microabi) ---- */
uint16_t lanes_region_tag(int r, int c) {
  return c < 16 ? (uint16_t)(16 * r + c) : (uint16_t)(0x4000 + 64 * r + c);
}

uint32_t lanes_region_addr(lanes_swizzle s, int r, int c) {
  return 8u * lanes_swizzle_offset(s, LANES_REGION_STRIDE_UNITS, (uint32_t)r, (uint32_t)c / 4) + 2u * ((uint32_t)c % 4);
}

void lanes_region_fill(lanes_swizzle s, uint8_t out[LANES_REGION_BYTES]) {
  memset(out, 0, LANES_REGION_BYTES);
  for (int r = 0; r < LANES_REGION_ROWS; r++)
    for (int c = 0; c < LANES_REGION_COLS; c++) {
      uint32_t a = lanes_region_addr(s, r, c);
      uint16_t t = lanes_region_tag(r, c);
      out[a] = (uint8_t)t;
      out[a + 1] = (uint8_t)(t >> 8);
    }
}

void lanes_xorshift_fill(uint8_t *out, size_t n) {
  uint32_t x = 0x1234567u;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = (uint8_t)(x & 0xff);
  }
}

/* load_fragment's seed (FlashInfer, docs/isa.md): lane L reads row L%16, chunk L/16. */
void lanes_seed_fragment(lanes_swizzle s, uint32_t addr[LANES_WAVE]) {
  for (int L = 0; L < LANES_WAVE; L++) addr[L] = lanes_region_addr(s, L % 16, 4 * (L / 16));
}

/* The CDNA4 prefill seed (docs/changes.md, change 000, microabi): row 4(L/16)+(L%16)/4, chunk L%4. */
void lanes_seed_tr16(lanes_swizzle s, uint32_t addr[LANES_WAVE]) {
  for (int L = 0; L < LANES_WAVE; L++) addr[L] = lanes_region_addr(s, 4 * (L / 16) + (L % 16) / 4, 4 * (L % 4));
}

/* ---- lane-map diff ---- */
uint32_t lanes_slot_get(const uint32_t *dw, int slot, int bits) {
  uint32_t v = 0;
  for (int b = 0; b < bits; b++) {
    int p = slot * bits + b;
    v |= ((dw[p / 32] >> (p % 32)) & 1u) << b;
  }
  return v;
}

void lanes_diff_dwords(const uint32_t *want, const uint32_t *got, int ndw, int slot_bits, lanes_diff *d) {
  memset(d, 0, sizeof *d);
  int slots = ndw * 32 / slot_bits;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < slots; s++) {
      uint32_t w = lanes_slot_get(want + L * ndw, s, slot_bits), g = lanes_slot_get(got + L * ndw, s, slot_bits);
      d->compared++;
      if (w != g) {
        if (d->listed < LANES_DIFF_LIST) d->list[d->listed++] = (lanes_mismatch){L, s, w, g};
        d->mismatches++;
      }
    }
}

void lanes_diff_format(const lanes_diff *d, char *buf, size_t cap) {
  size_t k = (size_t)snprintf(buf, cap, "%d/%d mismatches", d->mismatches, d->compared);
  for (int i = 0; i < d->listed && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s lane %d slot %d want 0x%x got 0x%x", i ? "," : ":",
                          d->list[i].lane, d->list[i].slot, d->list[i].want, d->list[i].got);
  if (d->mismatches > d->listed && k < cap) snprintf(buf + k, cap - k, ", ... (%d more)", d->mismatches - d->listed);
}

/* ---- closed forms: f(L) = c0 + sum over bit-fields of coef * field(L).
 * Fit: the per-bit deltas f(1<<b) - f(0) must reproduce f for all 64 lanes (f affine in the lane
 * bits); then runs of consecutive bits whose deltas double (d[b+1] = 2 d[b]) merge into one
 * field with coefficient d[lo]. */
lanes_affine lanes_affine_fit(const int v[LANES_WAVE]) {
  lanes_affine f;
  memset(&f, 0, sizeof f);
  int d[6];
  for (int b = 0; b < 6; b++) d[b] = v[1 << b] - v[0];
  f.c0 = v[0];
  for (int L = 0; L < LANES_WAVE; L++) {
    int s = v[0];
    for (int b = 0; b < 6; b++)
      if (L >> b & 1) s += d[b];
    if (s != v[L]) { f.ok = false; return f; }
  }
  for (int b = 0; b < 6;) {
    if (d[b] == 0) { b++; continue; }
    int lo = b, w = 1;
    /* never merge across bit 4: transposing reads work within 16-lane groups, so L/16 (the group)
     * and the lane-in-group fields are stated separately, as kernel code writes them */
    while (lo + w < 6 && lo + w != 4 && d[lo + w] == 2 * d[lo + w - 1]) w++;
    f.coef[f.nterms] = d[lo];
    f.lo[f.nterms] = lo;
    f.w[f.nterms] = w;
    f.nterms++;
    b = lo + w;
  }
  f.ok = true;
  return f;
}

int lanes_affine_eval(const lanes_affine *f, int L) {
  int s = f->c0;
  for (int t = 0; t < f->nterms; t++) s += f->coef[t] * ((L >> f->lo[t]) & ((1 << f->w[t]) - 1));
  return s;
}

/* Field names in the spelling kernel code uses: L%4, (L%16)/4, L/16. */
static void field_name(int lo, int w, char *buf, size_t cap) {
  int hi = lo + w; /* exclusive */
  if (lo == 0 && hi >= 6) snprintf(buf, cap, "L");
  else if (lo == 0) snprintf(buf, cap, "L%%%d", 1 << hi);
  else if (hi >= 6) snprintf(buf, cap, "L/%d", 1 << lo);
  else snprintf(buf, cap, "(L%%%d)/%d", 1 << hi, 1 << lo);
}

void lanes_affine_format(const lanes_affine *f, char *buf, size_t cap) {
  if (!f->ok) { snprintf(buf, cap, "(no closed form in lane bit-fields)"); return; }
  size_t k = 0;
  buf[0] = 0;
  for (int u = 0; u < f->nterms && k < cap; u++) {
    int t = f->nterms - 1 - u; /* high fields first: 4*(L/16) + (L%16)/4 */
    char fn[32];
    field_name(f->lo[t], f->w[t], fn, sizeof fn);
    int c = f->coef[t];
    const char *sep = u == 0 ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
    int a = c < 0 ? -c : c;
    bool paren = strcmp(fn, "L") != 0; /* 4*(L/16), 4*(L%4), 8*((L%16)/4): C precedence-safe */
    if (a == 1) k += (size_t)snprintf(buf + k, cap - k, "%s%s", sep, fn);
    else k += (size_t)snprintf(buf + k, cap - k, "%s%d*%s%s%s", sep, a, paren ? "(" : "", fn, paren ? ")" : "");
  }
  if (k < cap && (f->c0 != 0 || f->nterms == 0))
    snprintf(buf + k, cap - k, "%s%d", f->nterms == 0 ? "" : (f->c0 < 0 ? " - " : " + "),
             f->nterms == 0 ? f->c0 : (f->c0 < 0 ? -f->c0 : f->c0));
}
