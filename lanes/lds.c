/* lanes/lds — LDS reads as functions of an LDS image, 64 per-lane addresses and EXEC.
 *
 * Transposing reads (gfx950 only; CDNA4 ISA §11.4, docs/isa.md "Transposing LDS reads"): every lane
 * first reads its own 8 bytes (12 for b6) at ADDR+OFFSET; then within each group of 16 lanes
 *   out(16g+m)[k] = in(16g + R*k + m/E)[m % E],  E elements per lane, R = 16/E,
 * elements little-endian (element e = bits [w*e+w-1 : w*e]). Sources: rocRoller
 * TransposeLoadsTest.cpp, Triton chooseDsReadB64TrLayout, composable_kernel
 * amd_transpose_load_encoding.hpp (as summarised in docs/isa.md).
 * Requirements checked and reported: EXEC all ones (tr reads), alignment to the data size
 * (tr_b6: 16 bytes per rocRoller; a ROCm doc says 12 — reported against 16), in range. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lanes/lanes.h"

static const struct {
  const char *name;
  int ndw, bytes, elem_bits, align;
  bool tr;
} ops[] = {
    [LANES_DS_READ_B32] = {"ds_read_b32", 1, 4, 32, 4, false},
    [LANES_DS_READ_B64] = {"ds_read_b64", 2, 8, 32, 8, false},
    [LANES_DS_READ_B96] = {"ds_read_b96", 3, 12, 32, 16, false},
    [LANES_DS_READ_B128] = {"ds_read_b128", 4, 16, 32, 16, false},
    [LANES_DS_READ_B64_TR_B16] = {"ds_read_b64_tr_b16", 2, 8, 16, 8, true},
    [LANES_DS_READ_B64_TR_B8] = {"ds_read_b64_tr_b8", 2, 8, 8, 8, true},
    [LANES_DS_READ_B64_TR_B4] = {"ds_read_b64_tr_b4", 2, 8, 4, 8, true},
    [LANES_DS_READ_B96_TR_B6] = {"ds_read_b96_tr_b6", 3, 12, 6, 16, true},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

bool lanes_ds_op_parse(const char *s, lanes_ds_op *out, ll_err *err) {
  for (int i = 0; s && i < NOPS; i++)
    if (strcmp(s, ops[i].name) == 0) { *out = (lanes_ds_op)i; return true; }
  /* gfx9 spells the plain reads ds_read_*, later arches ds_load_*: accept both. */
  if (s && strncmp(s, "ds_load_", 8) == 0) {
    char b[64];
    snprintf(b, sizeof b, "ds_read_%s", s + 8);
    for (int i = 0; i < NOPS; i++)
      if (strcmp(b, ops[i].name) == 0) { *out = (lanes_ds_op)i; return true; }
  }
  ll_seterr(err, LL_EXIT_USAGE, "unknown LDS read '%s': expected ds_read_b32/b64/b96/b128, ds_read_b64_tr_b16, "
            "ds_read_b64_tr_b8, ds_read_b64_tr_b4 or ds_read_b96_tr_b6", s ? s : "(null)");
  return false;
}

const char *lanes_ds_op_name(lanes_ds_op op) { return ops[op].name; }
int lanes_ds_op_dwords(lanes_ds_op op) { return ops[op].ndw; }
int lanes_ds_op_elem_bits(lanes_ds_op op) { return ops[op].elem_bits; }
bool lanes_ds_op_exists(lanes_ds_op op, lanes_arch arch) { return !ops[op].tr || arch == LANES_GFX950; }

static void problem(lanes_lds_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(lanes_lds_result *r, const char *fmt, ...) {
  r->ok = false;
  if (r->nproblems < LANES_MAX_PROBLEMS) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->problem[r->nproblems], sizeof r->problem[0], fmt, ap);
    va_end(ap);
  }
  r->nproblems++;
}

static uint32_t get_bits(const uint8_t *p, int pos, int w) {
  uint32_t v = 0;
  for (int b = 0; b < w; b++) v |= (uint32_t)((p[(pos + b) / 8] >> ((pos + b) % 8)) & 1) << b;
  return v;
}

static void put_bits(uint32_t *dw, int pos, int w, uint32_t v) {
  for (int b = 0; b < w; b++) {
    int p = pos + b;
    dw[p / 32] = (dw[p / 32] & ~(1u << (p % 32))) | (((v >> b) & 1u) << (p % 32));
  }
}

bool lanes_ds_read(lanes_arch arch, lanes_ds_op op, const uint8_t *lds, size_t n, const uint32_t addr[LANES_WAVE],
                   uint64_t exec, lanes_lds_result *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  if ((int)op < 0 || (int)op >= NOPS) {
    ll_seterr(err, LL_EXIT_USAGE, "LDS read op %d is not one lanelab models", (int)op);
    return false;
  }
  if (!lanes_ds_op_exists(op, arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (transposing LDS reads are gfx950 only)", ops[op].name,
              lanes_arch_name(arch));
    return false;
  }
  out->ndw = ops[op].ndw;
  out->ok = true;
  int bytes = ops[op].bytes;
  if (ops[op].tr && exec != LANES_EXEC_ALL)
    problem(out, "%s with EXEC 0x%016llx: transposing reads require EXEC all ones (CDNA4 ISA §11.4); "
            "lanes with EXEC off supply 0 here, hardware behaviour is undefined", ops[op].name, (unsigned long long)exec);
  uint8_t in[LANES_WAVE][16];
  memset(in, 0, sizeof in);
  for (int L = 0; L < LANES_WAVE; L++) {
    if (!(exec >> L & 1)) continue;
    if (addr[L] % (uint32_t)ops[op].align)
      problem(out, "lane %d: %s address %u (0x%x) is not %d-byte aligned%s", L, ops[op].name, addr[L], addr[L],
              ops[op].align,
              op == LANES_DS_READ_B96_TR_B6 ? " (rocRoller: 16; a ROCm doc says 12 - check)"
              : ops[op].tr ? "" : " (required unless LDS unaligned mode is on)");
    if ((uint64_t)addr[L] + (uint64_t)bytes > n) {
      problem(out, "lane %d: %s reads bytes %u..%llu, outside the %zu-byte LDS image", L, ops[op].name, addr[L],
              (unsigned long long)addr[L] + bytes - 1, n);
      continue;
    }
    memcpy(in[L], lds + addr[L], (size_t)bytes);
  }
  if (!ops[op].tr) {
    for (int L = 0; L < LANES_WAVE; L++)
      if (exec >> L & 1) memcpy(out->v[L], in[L], (size_t)bytes); /* little-endian host assumed, as x86-64/arm64 */
    return true;
  }
  int w = ops[op].elem_bits, E = bytes * 8 / w, R = 16 / E;
  for (int L = 0; L < LANES_WAVE; L++) {
    if (!(exec >> L & 1)) continue;
    int g = L / 16, m = L % 16;
    for (int k = 0; k < E; k++) {
      int src = 16 * g + R * k + m / E;
      put_bits(out->v[L], w * k, w, get_bits(in[src], w * (m % E), w));
    }
  }
  return true;
}
