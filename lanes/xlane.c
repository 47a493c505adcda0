/* lanes/xlane — cross-lane operations under EXEC. Every operation reads all of its sources into
 * a copy before writing any destination (docs/isa.md: cross-lane instructions read every source lane
 * before writing). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/lanes.h"

#define ON(exec, L) (((exec) >> (L)) & 1)

/* ds_bpermute_b32 (CDNA3 ISA §11, docs/isa.md): source lane = ((ADDR+OFFSET)/4) mod 64; a source lane
 * with EXEC off yields 0; only EXEC-on destinations are written. */
void lanes_ds_bpermute(const uint32_t src[LANES_WAVE], const uint32_t addr[LANES_WAVE], uint64_t exec,
                       uint32_t dst[LANES_WAVE]) {
  uint32_t s[LANES_WAVE];
  memcpy(s, src, sizeof s);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (!ON(exec, L)) continue;
    int from = (int)((addr[L] / 4) % 64);
    dst[L] = ON(exec, from) ? s[from] : 0;
  }
}

/* ds_permute_b32 (docs/isa.md): EXEC-on lane L writes src[L] to lane (addr/4) mod 64; when several
 * lanes target one, the highest lane wins; EXEC-on destinations nobody targets get 0. */
void lanes_ds_permute(const uint32_t src[LANES_WAVE], const uint32_t addr[LANES_WAVE], uint64_t exec,
                      uint32_t dst[LANES_WAVE]) {
  uint32_t tmp[LANES_WAVE] = {0};
  uint32_t s[LANES_WAVE];
  memcpy(s, src, sizeof s);
  for (int L = 0; L < LANES_WAVE; L++) /* ascending: a later (higher) lane overwrites */
    if (ON(exec, L)) tmp[(addr[L] / 4) % 64] = s[L];
  for (int L = 0; L < LANES_WAVE; L++)
    if (ON(exec, L)) dst[L] = tmp[L];
}

/* ds_swizzle_b32 offset modes (docs/isa.md; the GCN3/Vega/CDNA ISA DS_SWIZZLE_B32 pseudocode; the
 * mode boundaries agree with llvm-mc-22, which prints 0xe000.. as swizzle(FFT,n) with n =
 * offset[4:0] and 0xc000..0xdfff as swizzle(ROTATE,dir,count) with dir = offset[10],
 * count = offset[9:5]):
 *   FFT     j = bitreverse5(i & 31) >> popcount(mask) | (i & mask), mask = offset[4:0]
 *   rotate  j = (i & mask) | ((i + r) & ~mask & 31), r = +count (dir 0) or -count (dir 1)
 *   quad    j = (i & ~3) | offset[2(i&3)+1 : 2(i&3)]              (offset bit 15 set)
 *   bitmask j = ((i & and) | or) ^ xor over offset[4:0], [9:5], [14:10]
 * all within 32-lane halves (j |= i & 32). FFT and rotate are modelled from the pseudocode only:
 * no hardware-checked source (open question). */
int lanes_swizzle_src(uint16_t off, int i) {
  int j;
  if (off >= 0xE000) {
    int mask = off & 31, rev = 0, x = i & 31;
    for (int b = 0; b < 5; b++) rev |= ((x >> b) & 1) << (4 - b);
    j = (rev >> __builtin_popcount((unsigned)mask)) | (i & mask);
  } else if (off >= 0xC000) {
    int mask = off & 31, r = (off >> 5) & 31;
    if (off & 0x400) r = -r;
    j = (i & mask) | ((i + r) & ~mask & 31);
  } else if (off & 0x8000) {
    j = (i & ~3 & 31) | ((off >> (2 * (i & 3))) & 3);
  } else {
    int and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
    j = (((i & 31) & and_m) | or_m) ^ xor_m;
  }
  return (j & 31) | (i & 32);
}

void lanes_ds_swizzle(const uint32_t src[LANES_WAVE], uint16_t off, uint64_t exec, uint32_t dst[LANES_WAVE]) {
  uint32_t s[LANES_WAVE];
  memcpy(s, src, sizeof s);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (!ON(exec, L)) continue;
    int j = lanes_swizzle_src(off, L);
    dst[L] = ON(exec, j) ? s[j] : 0;
  }
}

/* ---- DPP (gfx9 / CDNA: rows of 16 lanes; AMD Vega/CDNA3 ISA "DPP", docs/isa.md) ---- */
static bool parse_int(const char *s, int *v) {
  char *e;
  long x = strtol(s, &e, 0);
  if (e == s || *e) return false;
  *v = (int)x;
  return true;
}

bool lanes_dpp_parse(const char *text, lanes_arch arch, lanes_dpp *d, ll_err *err) {
  (void)arch; /* every control below assembles on both gfx942 and gfx950 (llvm-mc-22) */
  memset(d, 0, sizeof *d);
  d->row_mask = d->bank_mask = 0xf;
  bool have = false;
  char *buf = ll_xstrdup(text ? text : ""), *save = NULL;
  bool ok = true;
  for (char *tok = strtok_r(buf, " \t", &save); tok && ok; tok = strtok_r(NULL, " \t", &save)) {
    char *colon = strchr(tok, ':');
    char key[32];
    snprintf(key, sizeof key, "%.*s", colon ? (int)(colon - tok) : (int)strlen(tok), tok);
    const char *val = colon ? colon + 1 : NULL;
    int v = 0;
    struct { const char *k; lanes_dpp_kind kind; int lo, hi; } amt[] = {
        {"row_shl", LANES_DPP_ROW_SHL, 1, 15},   {"row_shr", LANES_DPP_ROW_SHR, 1, 15},
        {"row_ror", LANES_DPP_ROW_ROR, 1, 15},   {"wave_shl", LANES_DPP_WAVE_SHL, 1, 1},
        {"wave_rol", LANES_DPP_WAVE_ROL, 1, 1},  {"wave_shr", LANES_DPP_WAVE_SHR, 1, 1},
        {"wave_ror", LANES_DPP_WAVE_ROR, 1, 1},  {"row_newbcast", LANES_DPP_ROW_NEWBCAST, 0, 15},
    };
    bool matched = false;
    for (size_t a = 0; a < sizeof amt / sizeof amt[0]; a++)
      if (strcmp(key, amt[a].k) == 0) {
        matched = true;
        if (!val || !parse_int(val, &v) || v < amt[a].lo || v > amt[a].hi) {
          ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': %s needs a value in %d..%d", tok, key, amt[a].lo, amt[a].hi);
          ok = false;
        } else if (have) {
          ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': only one dpp_ctrl per instruction", tok);
          ok = false;
        } else {
          d->kind = amt[a].kind;
          d->amount = v;
          have = true;
        }
      }
    if (matched) continue;
    if (strcmp(key, "quad_perm") == 0) {
      int s[4];
      if (!val || sscanf(val, "[%d,%d,%d,%d]", &s[0], &s[1], &s[2], &s[3]) != 4 || s[0] < 0 || s[0] > 3 || s[1] < 0 ||
          s[1] > 3 || s[2] < 0 || s[2] > 3 || s[3] < 0 || s[3] > 3 || have) {
        ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': expected quad_perm:[a,b,c,d] with a..d in 0..3", tok);
        ok = false;
      } else {
        d->kind = LANES_DPP_QUAD_PERM;
        memcpy(d->sel, s, sizeof s);
        have = true;
      }
    } else if (strcmp(key, "row_mirror") == 0 || strcmp(key, "row_half_mirror") == 0) {
      if (have) { ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': only one dpp_ctrl", tok); ok = false; }
      d->kind = key[4] == 'm' ? LANES_DPP_ROW_MIRROR : LANES_DPP_ROW_HALF_MIRROR;
      have = true;
    } else if (strcmp(key, "row_bcast") == 0) {
      if (!val || !parse_int(val, &v) || (v != 15 && v != 31) || have) {
        ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': expected row_bcast:15 or row_bcast:31", tok);
        ok = false;
      } else {
        d->kind = v == 15 ? LANES_DPP_ROW_BCAST15 : LANES_DPP_ROW_BCAST31;
        have = true;
      }
    } else if (strcmp(key, "row_mask") == 0 || strcmp(key, "bank_mask") == 0) {
      if (!val || !parse_int(val, &v) || v < 0 || v > 15) {
        ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': %s takes 0x0..0xf", tok, key);
        ok = false;
      } else if (key[0] == 'r') d->row_mask = (unsigned)v;
      else d->bank_mask = (unsigned)v;
    } else if (strcmp(key, "bound_ctrl") == 0) {
      /* On gfx9 the assembler encodes both bound_ctrl:0 and bound_ctrl:1 as the bit set
       * (docs/isa.md; llvm-mc-22 prints bound_ctrl:0 back as bound_ctrl:1). */
      if (!val || (strcmp(val, "0") && strcmp(val, "1"))) {
        ll_seterr(err, LL_EXIT_USAGE, "DPP control '%s': bound_ctrl takes 0 or 1", tok);
        ok = false;
      } else d->bound_ctrl = true;
    } else {
      ll_seterr(err, LL_EXIT_USAGE, "unknown DPP control '%s'", tok);
      ok = false;
    }
  }
  free(buf);
  if (ok && !have) {
    ll_seterr(err, LL_EXIT_USAGE, "DPP controls '%s' name no dpp_ctrl (quad_perm, row_shl, ...)", text ? text : "");
    ok = false;
  }
  return ok;
}

/* Source lane per control (Vega/CDNA3 ISA DPP_CTRL table). row_shl:n — lane reads n lanes
 * higher in its row; row_shr the reverse; row_ror rotates right within the row (lane reads
 * n lanes lower, wrapping); wave_* by one lane across the wave; row_bcast:15 — rows 1..3 read
 * lane 15 of the previous row; row_bcast:31 — rows 2 and 3 read lane 31; row_newbcast:n
 * (gfx90a+) — every lane reads lane n of its own row. */
int lanes_dpp_src(const lanes_dpp *d, int L) {
  int row = L / 16, r = L % 16;
  switch (d->kind) {
  case LANES_DPP_QUAD_PERM: return (L & ~3) | d->sel[L & 3];
  case LANES_DPP_ROW_SHL: return r + d->amount < 16 ? L + d->amount : -1;
  case LANES_DPP_ROW_SHR: return r - d->amount >= 0 ? L - d->amount : -1;
  case LANES_DPP_ROW_ROR: return 16 * row + ((r - d->amount) & 15);
  case LANES_DPP_WAVE_SHL: return L + 1 < 64 ? L + 1 : -1;
  case LANES_DPP_WAVE_ROL: return (L + 1) & 63;
  case LANES_DPP_WAVE_SHR: return L - 1 >= 0 ? L - 1 : -1;
  case LANES_DPP_WAVE_ROR: return (L - 1) & 63;
  case LANES_DPP_ROW_MIRROR: return 16 * row + 15 - r;
  case LANES_DPP_ROW_HALF_MIRROR: return (L & ~7) | (7 - (L & 7));
  case LANES_DPP_ROW_BCAST15: return row >= 1 ? 16 * row - 1 : -1;
  case LANES_DPP_ROW_BCAST31: return row >= 2 ? 31 : -1;
  case LANES_DPP_ROW_NEWBCAST: return 16 * row + d->amount;
  }
  return -1;
}

/* A lane writes when EXEC-on and its row (L/16) and bank ((L%16)/4) are enabled: the masks gate
 * only the destination write (docs/isa.md). An invalid source (out of range, or EXEC off — gfx9 has
 * no fetch-inactive, which came with gfx10) gives 0 with bound_ctrl, else the lane keeps its old
 * value (LLVM AMDGPUModifierSyntax: "accessing data from an invalid lane will return zero";
 * Mesa ACO sets bound_ctrl precisely to "read 0 from inactive lanes when using dpp"). */
void lanes_dpp_apply(const lanes_dpp *d, const uint32_t src[LANES_WAVE], uint64_t exec, uint32_t dst[LANES_WAVE]) {
  uint32_t s[LANES_WAVE];
  memcpy(s, src, sizeof s);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (!ON(exec, L) || !(d->row_mask >> (L / 16) & 1) || !(d->bank_mask >> ((L % 16) / 4) & 1)) continue;
    int j = lanes_dpp_src(d, L);
    if (j >= 0 && ON(exec, j)) dst[L] = s[j];
    else if (d->bound_ctrl) dst[L] = 0;
  }
}

/* v_permlane16_swap_b32 / v_permlane32_swap_b32 (gfx950; docs/isa.md, LLVM gfx950 MC tests). */
static bool swap_ok(lanes_arch arch, const char *name, uint64_t exec, ll_err *err) {
  if (arch != LANES_GFX950) {
    ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (gfx950 only)", name, lanes_arch_name(arch));
    return false;
  }
  if (exec != LANES_EXEC_ALL) {
    ll_seterr(err, LL_EXIT_ENV, "%s with EXEC 0x%016llx: partial-EXEC behaviour is not modelled (an open question "
              "in docs/isa.md)", name, (unsigned long long)exec);
    return false;
  }
  return true;
}

bool lanes_permlane16_swap(lanes_arch arch, uint32_t vdst[LANES_WAVE], uint32_t src0[LANES_WAVE], uint64_t exec,
                           ll_err *err) {
  if (!swap_ok(arch, "v_permlane16_swap_b32", exec, err)) return false;
  for (int p = 0; p < 2; p++) /* vdst row 2p+1 <-> src0 row 2p */
    for (int r = 0; r < 16; r++) {
      int a = 16 * (2 * p + 1) + r, b = 16 * (2 * p) + r;
      uint32_t t = vdst[a];
      vdst[a] = src0[b];
      src0[b] = t;
    }
  return true;
}

bool lanes_permlane32_swap(lanes_arch arch, uint32_t vdst[LANES_WAVE], uint32_t src0[LANES_WAVE], uint64_t exec,
                           ll_err *err) {
  if (!swap_ok(arch, "v_permlane32_swap_b32", exec, err)) return false;
  for (int r = 0; r < 32; r++) { /* vdst lanes 32..63 <-> src0 lanes 0..31 */
    uint32_t t = vdst[32 + r];
    vdst[32 + r] = src0[r];
    src0[r] = t;
  }
  return true;
}
