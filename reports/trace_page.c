/* reports/trace_page — what `lanelab run --trace SPEC --trace-out DIR` writes (docs/trace.md):
 *   trace.json   every traced instance: PC, text, EXEC, per-lane addresses, register operands
 *                before and (destinations) after, plus the race/init hazards of the run
 *   trace.csv    one row per (instance, lane)
 *   trace.html   the report-style page: hazards, a timeline of the instances, each instance's 64
 *                lanes, the lane map of every access decoded through --tile, and the matrices
 *                each traced v_mfma_* multiplied
 *   mfma/<seq>_{A,B,C,D}.{bin,csv}  those matrices, rebuilt from the lanes' registers with lanes/'s
 *                layout model (lanes_mfma_element), never from the emulator's MFMA code
 * Tiles decode an address to (row, col): offset = addr - base; row = offset / stride; the byte in
 * the row is un-swizzled in 8-byte chunks (chunk j ^ ((row / D) % M), the form of lanes/'s named
 * swizzles: k64B is xor:2:4, k128B xor:1:8, k128B_16Row xor:1:16); col = byte / elem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/lanes.h"
#include "oracle/oracle.h"
#include "reports/internal.h"
#include "reports/tile.h"

/* ---- tiles -----------------------------------------------------------------------------------*/
bool report_trace_tile_parse(const char *spec, report_trace_tile *t, ll_err *err)
{
  memset(t, 0, sizeof *t);
  const char *colon = strchr(spec, ':');
  if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof t->name) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': expected NAME:base=..,rows=..,cols=..,elem=..,stride=..[,swizzle=..]", spec);
    return false;
  }
  memcpy(t->name, spec, (size_t)(colon - spec));
  char *copy = ll_xstrdup(colon + 1), *save = NULL;
  bool ok = true;
  unsigned seen = 0;
  for (char *kv = strtok_r(copy, ",", &save); kv && ok; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) { ok = false; break; }
    *eq = 0;
    const char *k = kv, *v = eq + 1;
    uint64_t n = 0;
    if (!strcmp(k, "swizzle")) {
      lanes_swizzle s;
      ll_err e2 = {0};
      if (!strcmp(v, "none")) t->xor_div = 0, t->xor_mod = 0;
      else if (!strncmp(v, "xor:", 4)) {
        unsigned d, m;
        if (sscanf(v + 4, "%u:%u", &d, &m) != 2 || d == 0 || m == 0) ok = false;
        t->xor_div = d, t->xor_mod = m;
      } else if (lanes_swizzle_parse(v, &s, &e2)) {
        static const unsigned dm[4][2] = {{0, 0}, {2, 4}, {1, 8}, {1, 16}};
        t->xor_div = dm[s][0], t->xor_mod = dm[s][1];
      } else ok = false;
      snprintf(t->swizzle, sizeof t->swizzle, "%s", v);
      continue;
    }
    if (!strcmp(k, "base") && !strncmp(v, "arg", 3)) { /* argN[+OFF]: a buffer argument's address */
      char *plus = strchr(v, '+');
      uint64_t off = 0;
      if (plus) *plus = 0;
      ok = ll_parse_u64(v + 3, &n) && (!plus || ll_parse_u64(plus + 1, &off));
      t->base_arg = (int)n;
      t->base = off;
      seen |= 1;
      continue;
    }
    if (!ll_parse_u64(v, &n)) { ok = false; break; }
    if (!strcmp(k, "base")) t->base = n, t->base_arg = -1, seen |= 1;
    else if (!strcmp(k, "rows")) t->rows = (uint32_t)n, seen |= 2;
    else if (!strcmp(k, "cols")) t->cols = (uint32_t)n, seen |= 4;
    else if (!strcmp(k, "elem")) t->elem = (uint32_t)n, seen |= 8;
    else if (!strcmp(k, "stride")) t->stride = (uint32_t)n, seen |= 16;
    else ok = false;
  }
  free(copy);
  if (ok && (seen != 31 || !t->rows || !t->cols || !t->elem || !t->stride || t->elem > 16 ||
             (uint64_t)t->cols * t->elem > t->stride))
    ok = false;
  if (!ok) {
    ll_seterr(err, LL_EXIT_USAGE,
              "--tile '%s': expected NAME:base=N|argK[+N],rows=R,cols=C,elem=BYTES,stride=ROW_BYTES"
              "[,swizzle=none|kLinear|k64B|k128B|k128B_16Row|xor:D:M] with cols*elem <= stride", spec);
    return false;
  }
  if (!t->swizzle[0]) snprintf(t->swizzle, sizeof t->swizzle, "none");
  return true;
}

bool report_trace_tile_decode(const report_trace_tile *t, uint64_t addr, int *row, int *col)
{
  if (addr < t->base) return false;
  uint64_t off = addr - t->base, r = off / t->stride, in = off % t->stride;
  if (r >= t->rows) return false;
  if (t->xor_mod) {
    uint64_t chunk = in / 8, sw = chunk ^ ((r / t->xor_div) % t->xor_mod);
    in = sw * 8 + in % 8;
  }
  if (in % t->elem || in / t->elem >= t->cols) return false;
  *row = (int)r;
  *col = (int)(in / t->elem);
  return true;
}

/* ---- JSON and CSV ----------------------------------------------------------------------------*/
static void json_hazards(ll_jw *w, const emu_observer *o)
{
  ll_jw_key(w, "hazards");
  ll_jw_arr_begin(w);
  for (size_t i = 0; i < emu_observer_nhazards(o); i++) {
    const emu_hazard *h = emu_observer_hazard(o, i);
    char line[1024];
    emu_hazard_format(h, line, sizeof line);
    ll_jw_obj_begin(w);
    ll_jw_key(w, "kind"), ll_jw_str(w, emu_hazard_kind_name(h->kind));
    ll_jw_key(w, "space"), ll_jw_str(w, h->lds ? "lds" : "global");
    ll_jw_key(w, "addr"), ll_jw_uint(w, h->addr);
    const emu_access *acc[2] = {&h->first, &h->second};
    for (int k = h->kind == EMU_HZ_UNINIT ? 1 : 0; k < 2; k++) {
      ll_jw_key(w, k ? "second" : "first");
      ll_jw_obj_begin(w);
      char pc[32];
      snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)acc[k]->pc);
      ll_jw_key(w, "pc"), ll_jw_str(w, pc);
      ll_jw_key(w, "insn"), ll_jw_str(w, acc[k]->insn);
      ll_jw_key(w, "wg"), ll_jw_arr_begin(w);
      for (int d = 0; d < 3; d++) ll_jw_uint(w, acc[k]->wg[d]);
      ll_jw_arr_end(w);
      ll_jw_key(w, "wave"), ll_jw_uint(w, acc[k]->wave);
      ll_jw_key(w, "lane"), ll_jw_int(w, acc[k]->lane);
      ll_jw_obj_end(w);
    }
    ll_jw_key(w, "count"), ll_jw_uint(w, h->count);
    ll_jw_key(w, "message"), ll_jw_str(w, line);
    ll_jw_obj_end(w);
  }
  ll_jw_arr_end(w);
  ll_jw_key(w, "hazard_conflicts_not_kept"), ll_jw_uint(w, emu_observer_hazards_dropped(o));
}

static void hex(char *b, size_t n, uint64_t v) { snprintf(b, n, "0x%llx", (unsigned long long)v); }


static void json_values(ll_jw *w, const emu_trace_opnd *t, const uint32_t *v)
{
  ll_jw_arr_begin(w);
  if (t->kind == 's') {
    for (int k = 0; k < t->n; k++) ll_jw_uint(w, v[k]);
  } else {
    for (int k = 0; k < t->n; k++) {
      ll_jw_arr_begin(w);
      for (int l = 0; l < 64; l++) ll_jw_uint(w, v[k * 64 + l]);
      ll_jw_arr_end(w);
    }
  }
  ll_jw_arr_end(w);
}

static void write_json(ll_buf *b, const emu_observer *o, const report_trace_info *info)
{
  ll_jw w;
  ll_jw_init(&w, b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"), ll_jw_str(&w, "lanelab run --trace (do not edit)");
  ll_jw_key(&w, "arch"), ll_jw_str(&w, info->arch);
  ll_jw_key(&w, "kernel"), ll_jw_str(&w, info->kernel);
  ll_jw_key(&w, "spec"), ll_jw_str(&w, info->spec ? info->spec : "");
  ll_jw_key(&w, "truncated"), ll_jw_bool(&w, emu_observer_trace_truncated(o));
  json_hazards(&w, o);
  ll_jw_key(&w, "instances");
  ll_jw_arr_begin(&w);
  char h[32];
  for (size_t i = 0; i < emu_observer_ntrace(o); i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "seq"), ll_jw_uint(&w, r->seq);
    ll_jw_key(&w, "wg"), ll_jw_arr_begin(&w);
    for (int d = 0; d < 3; d++) ll_jw_uint(&w, r->wg[d]);
    ll_jw_arr_end(&w);
    ll_jw_key(&w, "wave"), ll_jw_uint(&w, r->wave);
    ll_jw_key(&w, "interval"), ll_jw_uint(&w, r->interval);
    ll_jw_key(&w, "step"), ll_jw_uint(&w, r->step);
    hex(h, sizeof h, r->pc), ll_jw_key(&w, "pc"), ll_jw_str(&w, h);
    ll_jw_key(&w, "text"), ll_jw_str(&w, r->text);
    if (r->src) ll_jw_key(&w, "src"), ll_jw_str(&w, r->src); /* file:line, with debug information */
    hex(h, sizeof h, r->exec), ll_jw_key(&w, "exec"), ll_jw_str(&w, h);
    if (r->space) {
      char sp[2] = {r->space == 'l' ? 'l' : 'g', 0};
      ll_jw_key(&w, "space"), ll_jw_str(&w, sp[0] == 'l' ? "lds" : "global");
      ll_jw_key(&w, "access"), ll_jw_str(&w, r->access == 'r' ? "read" : r->access == 'w' ? "write" : "atomic");
      ll_jw_key(&w, "bytes"), ll_jw_uint(&w, r->bytes);
      ll_jw_key(&w, "addr"), ll_jw_arr_begin(&w);
      for (int s = 0; s < r->naddr; s++) {
        ll_jw_arr_begin(&w);
        for (int l = 0; l < 64; l++) ll_jw_uint(&w, r->addr[s][l]);
        ll_jw_arr_end(&w);
      }
      ll_jw_arr_end(&w);
      if (r->lds_bytes) { /* a load to LDS: the LDS bytes each lane writes */
        ll_jw_key(&w, "lds_bytes"), ll_jw_uint(&w, r->lds_bytes);
        ll_jw_key(&w, "lds_addr"), ll_jw_arr_begin(&w);
        for (int l = 0; l < 64; l++) ll_jw_uint(&w, r->lds_addr[l]);
        ll_jw_arr_end(&w);
      }
    }
    ll_jw_key(&w, "operands"), ll_jw_arr_begin(&w);
    for (size_t k = 0; k < r->nop; k++) {
      const emu_trace_opnd *t = &r->op[k];
      ll_jw_obj_begin(&w);
      ll_jw_key(&w, "name"), ll_jw_str(&w, t->name);
      ll_jw_key(&w, "index"), ll_jw_uint(&w, t->index);
      ll_jw_key(&w, "dst"), ll_jw_bool(&w, t->dst);
      ll_jw_key(&w, "before"), json_values(&w, t, t->before);
      if (t->after) ll_jw_key(&w, "after"), json_values(&w, t, t->after);
      ll_jw_obj_end(&w);
    }
    ll_jw_arr_end(&w);
    ll_jw_obj_end(&w);
  }
  ll_jw_arr_end(&w);
  ll_jw_obj_end(&w);
  ll_buf_puts(b, "\n");
}

static void csv_regs(ll_buf *b, const emu_trace_rec *r, int l, bool after)
{
  bool first = true;
  for (size_t k = 0; k < r->nop; k++) {
    const emu_trace_opnd *t = &r->op[k];
    const uint32_t *v = after ? t->after : (t->dst && !t->after ? NULL : t->before);
    if (after ? !t->after : t->dst) continue;
    if (!v) continue;
    ll_buf_printf(b, "%s%s=", first ? "" : " ", t->name);
    first = false;
    for (int j = 0; j < t->n; j++)
      ll_buf_printf(b, "%s0x%08x", j ? ":" : "", t->kind == 's' ? v[j] : v[j * 64 + l]);
  }
}

static void write_csv(ll_buf *b, const emu_observer *o)
{
  ll_buf_puts(b, "seq,wg_x,wg_y,wg_z,wave,interval,pc,insn,lane,active,addr0,addr1,lds_addr,sources,results\n");
  for (size_t i = 0; i < emu_observer_ntrace(o); i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    for (int l = 0; l < 64; l++) {
      ll_buf_printf(b, "%llu,%u,%u,%u,%u,%u,0x%llx,\"%s\",%d,%d,", (unsigned long long)r->seq, r->wg[0], r->wg[1],
                    r->wg[2], r->wave, r->interval, (unsigned long long)r->pc, r->text, l, (int)(r->exec >> l & 1));
      for (int s = 0; s < 2; s++)
        if (s < r->naddr && (r->exec >> l & 1)) ll_buf_printf(b, "0x%llx,", (unsigned long long)r->addr[s][l]);
        else ll_buf_puts(b, ",");
      if (r->lds_bytes && (r->exec >> l & 1)) ll_buf_printf(b, "0x%llx,", (unsigned long long)r->lds_addr[l]);
      else ll_buf_puts(b, ",");
      csv_regs(b, r, l, false);
      ll_buf_puts(b, ",");
      csv_regs(b, r, l, true);
      ll_buf_puts(b, "\n");
    }
  }
}

/* ---- MFMA reconstruction ---------------------------------------------------------------------*/
static const emu_trace_opnd *opnd_at(const emu_trace_rec *r, int index)
{
  for (size_t k = 0; k < r->nop; k++)
    if (r->op[k].index == index) return &r->op[k];
  return NULL;
}

/* element bits at (lane, reg, bit) of the operand's per-lane values */
static uint64_t elem_bits(const emu_trace_opnd *t, const uint32_t *v, lanes_loc loc, int bits)
{
  if (!t || !v) return 0; /* an inline constant operand (C = 0) */
  uint64_t x = 0;
  for (int b = 0; b < bits; b++) {
    int bit = loc.bit + b, reg = loc.reg + bit / 32;
    if (reg >= t->n) return 0;
    x |= (uint64_t)(v[reg * 64 + loc.lane] >> (bit % 32) & 1) << b;
  }
  return x;
}

static double elem_value(const lanes_mfma *mf, lanes_operand op, uint64_t x)
{
  int bits = lanes_mfma_elem_bits(mf, op);
  if (op >= LANES_OPND_C) {
    if (bits == 64) { double d; memcpy(&d, &x, 8); return d; }
    if (!strcmp(mf->ab_type, "i8")) return (double)(int32_t)x;
    float f; uint32_t u = (uint32_t)x; memcpy(&f, &u, 4); return f;
  }
  if (!strcmp(mf->ab_type, "f16")) return oracle_f16_to_f32((uint16_t)x);
  if (!strcmp(mf->ab_type, "bf16")) { uint32_t u = (uint32_t)x << 16; float f; memcpy(&f, &u, 4); return f; }
  if (!strcmp(mf->ab_type, "f32") || !strcmp(mf->ab_type, "xf32")) { float f; uint32_t u = (uint32_t)x; memcpy(&f, &u, 4); return f; }
  if (!strcmp(mf->ab_type, "f64")) { double d; memcpy(&d, &x, 8); return d; }
  if (!strcmp(mf->ab_type, "i8")) return (double)(int8_t)x;
  return (double)x; /* fp8/bf8/fp6/fp4: raw codes */
}

typedef struct {
  const lanes_mfma *mf;
  int rows[4], cols[4], bits[4];
  uint64_t *raw[4];        /* row-major element bits */
  int lane[4], reg[4];     /* unused */
} mfma_mats;

static bool rebuild(const emu_trace_rec *r, const lanes_mfma *mf, mfma_mats *m)
{
  memset(m, 0, sizeof *m);
  m->mf = mf;
  const emu_trace_opnd *src[4] = {opnd_at(r, 1), opnd_at(r, 2), opnd_at(r, 3), opnd_at(r, 0)};
  for (int op = 0; op < 4; op++) {
    lanes_operand lo = (lanes_operand)op;
    int R = lanes_mfma_rows(mf, lo), C = lanes_mfma_cols(mf, lo), bits = lanes_mfma_elem_bits(mf, lo);
    m->rows[op] = R, m->cols[op] = C, m->bits[op] = bits;
    m->raw[op] = ll_xcalloc((size_t)R * C, sizeof(uint64_t));
    const uint32_t *v = src[op] ? (op == 3 ? src[op]->after : src[op]->before) : NULL;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        lanes_loc loc;
        if (!lanes_mfma_locate(mf, lo, i, j, &loc)) continue;
        m->raw[op][(size_t)i * C + j] = elem_bits(src[op], v, loc, bits);
      }
  }
  return true;
}

static void free_mats(mfma_mats *m)
{
  for (int i = 0; i < 4; i++) free(m->raw[i]);
}

static void mat_bin(ll_buf *b, const mfma_mats *m, int op)
{
  int bytes = m->bits[op] <= 8 ? 1 : m->bits[op] / 8;
  for (size_t i = 0; i < (size_t)m->rows[op] * m->cols[op]; i++) ll_buf_put(b, &m->raw[op][i], (size_t)bytes);
}

static void mat_csv(ll_buf *b, const mfma_mats *m, int op)
{
  for (int i = 0; i < m->rows[op]; i++) {
    for (int j = 0; j < m->cols[op]; j++)
      ll_buf_printf(b, "%s%.9g", j ? "," : "", elem_value(m->mf, (lanes_operand)op, m->raw[op][(size_t)i * m->cols[op] + j]));
    ll_buf_puts(b, "\n");
  }
}

/* Compare operand op (A or B) with the raw elements of FILE; the first difference names the
 * element and where in the lanes it came from. */
static bool expect_check(const mfma_mats *m, int op, const char *file, const emu_trace_rec *r, ll_buf *note,
                         int *mismatches, ll_err *err)
{
  size_t n;
  uint8_t *want = ll_read_file(file, &n, err);
  if (!want) return false;
  int bytes = m->bits[op] <= 8 ? 1 : m->bits[op] / 8;
  size_t count = (size_t)m->rows[op] * m->cols[op];
  if (n != count * (size_t)bytes) {
    ll_seterr(err, LL_EXIT_USAGE, "--expect-%c %s: %zu bytes, but %s's %c is %dx%d elements of %d bytes = %zu",
              op ? 'b' : 'a', file, n, m->mf->name, op ? 'B' : 'A', m->rows[op], m->cols[op], bytes, count * (size_t)bytes);
    free(want);
    return false;
  }
  *mismatches = 0;
  for (size_t i = 0; i < count; i++) {
    uint64_t x = 0;
    memcpy(&x, want + i * (size_t)bytes, (size_t)bytes);
    if (x == m->raw[op][i]) continue;
    if ((*mismatches)++ == 0) {
      int row = (int)(i / (size_t)m->cols[op]), col = (int)(i % (size_t)m->cols[op]);
      lanes_loc loc = {0, 0, 0};
      lanes_mfma_locate(m->mf, (lanes_operand)op, row, col, &loc);
      const emu_trace_opnd *t = opnd_at(r, op + 1);
      ll_buf_printf(note, "%c[%d][%d] is 0x%llx, expected 0x%llx: it came from lane %d, %s register %d (%c%d) bits %d..%d",
                    op ? 'B' : 'A', row, col, (unsigned long long)m->raw[op][i], (unsigned long long)x, loc.lane,
                    t ? t->name : "?", loc.reg, t ? t->kind : 'v', t ? t->reg + loc.reg : loc.reg, loc.bit,
                    loc.bit + m->bits[op] - 1);
    }
  }
  free(want);
  return true;
}

/* ---- the page --------------------------------------------------------------------------------*/
/* Where register slot k of lane l came from: the source lane and byte address. A plain read's slot
 * k is element k of the lane's own access; a transposing read (tr) delivers element m % E of lane
 * 16g + R k + m / E into slot k of lane 16g + m (E = slots elements per lane, R = 16 / E; lanes.h).
 * false if the source lane was not in EXEC. */
static bool slot_source(const emu_trace_rec *r, const uint64_t *base, int l, int k, int slots, bool tr, int ebits,
                        uint64_t *addr)
{
  int src = l, e = k;
  if (tr) {
    int E = slots, R = 16 / (E ? E : 1), m = l % 16;
    src = 16 * (l / 16) + R * k + m / E, e = m % E;
  }
  *addr = base[src] + (uint64_t)e * (uint64_t)ebits / 8;
  return r->exec >> src & 1;
}

static void lane_grid(ll_buf *p, const emu_trace_rec *r, const report_trace_tile *tiles, size_t ntiles)
{
  /* one row per lane: address(es), decoded (row, col) per element of the access, sources, results.
   * The first tile holding an active lane's address decodes; a load to LDS has two sides, its
   * global read (addr[0]) and its LDS write (lds_addr): a tile matching the first decodes it, else
   * one matching the LDS side decodes that (element k of the lane's access lands at lds_addr +
   * k * elem, as it was read). */
  size_t tsel = ntiles;
  const uint64_t *side = r->addr[0];
  for (size_t t = 0; t < ntiles && r->space; t++) {
    int rr, cc;
    for (int k = 0; k < (r->lds_bytes ? 2 : 1) && tsel == ntiles; k++) {
      const uint64_t *a = k ? r->lds_addr : r->addr[0];
      for (int l = 0; l < 64; l++)
        if ((r->exec >> l & 1) && report_trace_tile_decode(&tiles[t], a[l], &rr, &cc)) { tsel = t, side = a; break; }
    }
    if (tsel < ntiles) break;
  }
  const report_trace_tile *T = tsel < ntiles ? &tiles[tsel] : NULL;
  /* transposing reads deliver element m%E of lane 16g+R*k+m/E into slot k of lane 16g+m (lanes.h) */
  int slots = 0, ebits = 0;
  bool tr = strstr(r->text, "_tr_b") != NULL;
  if (T) {
    ebits = tr ? atoi(strstr(r->text, "_tr_b") + 5) : (int)T->elem * 8;
    slots = (int)(r->bytes * 8) / (ebits ? ebits : 8);
    if (slots > 32) slots = 32;
  }
  ll_buf_printf(p, "<table class=\"grid lanemap\" data-seq=\"%llu\"><tr><th>lane</th>", (unsigned long long)r->seq);
  if (r->space) ll_buf_puts(p, r->lds_bytes ? "<th>address</th><th>LDS address written</th>" : "<th>address</th>");
  for (int k = 0; k < slots; k++)
    ll_buf_printf(p, "<th>%s %d<br>%s (row,col)</th>", r->lds_bytes ? "element" : "slot", k, T->name);
  ll_buf_puts(p, "<th>sources</th><th>results</th></tr>\n");
  for (int l = 0; l < 64; l++) {
    bool on = r->exec >> l & 1;
    ll_buf_printf(p, "<tr class=\"lane\"><td class=\"lanecol\">%d</td>", l);
    if (r->space) {
      if (on) ll_buf_printf(p, "<td>0x%llx%s</td>", (unsigned long long)r->addr[0][l], r->naddr > 1 ? " +2nd" : "");
      else ll_buf_puts(p, "<td class=\"exp\">off</td>");
      if (r->lds_bytes && on) ll_buf_printf(p, "<td>0x%llx</td>", (unsigned long long)r->lds_addr[l]);
      else if (r->lds_bytes) ll_buf_puts(p, "<td class=\"exp\">off</td>");
    }
    for (int k = 0; k < slots; k++) {
      int rr, cc;
      uint64_t a;
      if (slot_source(r, side, l, k, slots, tr, ebits, &a) && report_trace_tile_decode(T, a, &rr, &cc))
        ll_buf_printf(p, "<td class=\"rc\">%d,%d</td>", rr, cc);
      else ll_buf_puts(p, "<td class=\"exp\">-</td>");
    }
    for (int after = 0; after < 2; after++) {
      ll_buf_puts(p, "<td>");
      ll_buf b = {0};
      csv_regs(&b, r, l, after != 0);
      report_html_esc(p, ll_buf_str(&b));
      ll_buf_free(&b);
      ll_buf_puts(p, "</td>");
    }
    ll_buf_puts(p, "</tr>\n");
  }
  ll_buf_puts(p, "</table>\n");
  if (!T || !slots) return;
  /* the tile picture (reports/tile.h, as on the micro-kernel pages): each element coloured by the
   * lane whose register slot received it */
  ll_err e = {0};
  char title[200];
  snprintf(title, sizeof title, "%s: tile %s as the lanes %s it", r->text, T->name,
           r->lds_bytes && side == r->lds_addr ? "wrote" : "received");
  report_tile *pic = (uint64_t)T->rows * T->cols <= REPORT_TILE_MAX_CELLS
                         ? report_tile_new(title, (int)T->rows, (int)T->cols, "row", "col", &e)
                         : NULL;
  if (!pic) return;
  for (int l = 0; l < 64; l++)
    for (int k = 0; k < slots; k++) {
      int rr, cc, per_reg = ebits < 32 ? 32 / ebits : 1;
      uint64_t a;
      if (slot_source(r, side, l, k, slots, tr, ebits, &a) && report_trace_tile_decode(T, a, &rr, &cc))
        report_tile_own(pic, rr, cc, l, k / per_reg, k % per_reg);
    }
  char id[48];
  snprintf(id, sizeof id, "pic-%llu", (unsigned long long)r->seq);
  report_tile_svg(pic, id, p);
  report_tile_free(pic);
}

static void mat_table(ll_buf *p, const mfma_mats *m, int op)
{
  static const char *nm = "ABCD";
  ll_buf_printf(p, "<h4>%c (%d x %d, %d-bit)</h4><table class=\"grid mfma-%c\"><tr><th></th>", nm[op], m->rows[op],
                m->cols[op], m->bits[op], nm[op]);
  for (int j = 0; j < m->cols[op]; j++) ll_buf_printf(p, "<th>%d</th>", j);
  ll_buf_puts(p, "</tr>\n");
  for (int i = 0; i < m->rows[op]; i++) {
    ll_buf_printf(p, "<tr><td class=\"lanecol\">%d</td>", i);
    for (int j = 0; j < m->cols[op]; j++)
      ll_buf_printf(p, "<td>%.4g</td>", elem_value(m->mf, (lanes_operand)op, m->raw[op][(size_t)i * m->cols[op] + j]));
    ll_buf_puts(p, "</tr>\n");
  }
  ll_buf_puts(p, "</table>\n");
}

/* ---- the timeline picture ----------------------------------------------------------------------*/
/* The mnemonic class of a traced instruction: the mark's CSS class and its legend entry. */
static const struct { const char *cls, *what, *colour; } tl_classes[] = {
    {"mfma", "v_mfma / v_smfmac", "#8250df"}, {"lds", "LDS (ds_*)", "#1a7f37"},
    {"vmem", "global / buffer / flat", "#0969da"}, {"smem", "scalar memory (s_load ...)", "#bf8700"},
    {"sync", "s_barrier / s_waitcnt", "#cf222e"}, {"valu", "other v_*", "#57606a"},
    {"salu", "other s_*", "#afb8c1"}, {"other", "anything else", "#6e7781"},
};

static int tl_class(const char *m)
{
  static const char *const vmem[] = {"global_", "buffer_", "flat_", "scratch_"};
  static const char *const smem[] = {"s_load", "s_buffer_", "s_store", "s_atomic", "s_dcache", "s_scratch_"};
  if (!strncmp(m, "v_mfma", 6) || !strncmp(m, "v_smfmac", 8)) return 0;
  if (!strncmp(m, "ds_", 3)) return 1;
  for (size_t i = 0; i < sizeof vmem / sizeof *vmem; i++)
    if (!strncmp(m, vmem[i], strlen(vmem[i]))) return 2;
  for (size_t i = 0; i < sizeof smem / sizeof *smem; i++)
    if (!strncmp(m, smem[i], strlen(smem[i]))) return 3;
  if (!strncmp(m, "s_barrier", 9) || !strncmp(m, "s_waitcnt", 9)) return 4;
  if (m[0] == 'v' && m[1] == '_') return 5;
  if (m[0] == 's' && m[1] == '_') return 6;
  return 7;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

#define TL_MAX_ROWS 64 /* waves drawn; the rest are counted in a note (all are in the table) */

/* The selected instances as an inline SVG: x = execution order (the instance's sequence number;
 * the emulator has no cycles), one row per (workgroup, wave) in grid order, one mark per instance
 * coloured by its mnemonic class, a dashed tick where a wave's barrier interval changes; each
 * mark's title names seq, PC, text, wave and interval, and links to the instance's section. */
static void timeline_svg(ll_buf *p, const emu_observer *o)
{
  size_t n = emu_observer_ntrace(o), nrows = 0;
  if (!n) return;
  uint64_t *keys = ll_xmalloc(n * sizeof *keys);
  for (size_t i = 0; i < n; i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    keys[i] = (uint64_t)r->wg_index << 32 | r->wave;
  }
  qsort(keys, n, sizeof *keys, cmp_u64);
  for (size_t i = 0; i < n; i++)
    if (!nrows || keys[nrows - 1] != keys[i]) keys[nrows++] = keys[i];
  size_t drawn = nrows < TL_MAX_ROWS ? nrows : TL_MAX_ROWS;
  const int cw = n <= 128 ? 10 : n <= 512 ? 3 : 1, rh = 14, left = 110, top = 8;
  int W = left + (int)n * cw + 10, H = top + (int)drawn * rh + 20;
  ll_buf_printf(p, "<div class=\"pic\"><svg class=\"timeline\" id=\"timeline\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" data-instances=\"%zu\" data-rows=\"%zu\" font-family=\"sans-serif\" "
                "font-size=\"10\"><style>#timeline text{fill:#57606a}#timeline .tick{stroke:#57606a;"
                "stroke-dasharray:2 2}",
                W, H, W, H, n, nrows);
  for (size_t c = 0; c < sizeof tl_classes / sizeof *tl_classes; c++)
    ll_buf_printf(p, "#timeline .%s{fill:%s}", tl_classes[c].cls, tl_classes[c].colour);
  ll_buf_puts(p, "</style>\n");
  for (size_t w = 0; w < drawn; w++)
    ll_buf_printf(p, "<text x=\"4\" y=\"%d\">wg %llu wave %llu</text>", top + (int)w * rh + 10,
                  (unsigned long long)(keys[w] >> 32), (unsigned long long)(keys[w] & 0xffffffffu));
  ll_buf_printf(p, "\n<text x=\"%d\" y=\"%d\">execution order &#8594; (%zu instances)</text>\n", left,
                top + (int)drawn * rh + 14, n);
  uint32_t *last_iv = ll_xmalloc(drawn * sizeof *last_iv);
  for (size_t w = 0; w < drawn; w++) last_iv[w] = UINT32_MAX;
  for (size_t i = 0; i < n; i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    uint64_t k = (uint64_t)r->wg_index << 32 | r->wave;
    const uint64_t *at = bsearch(&k, keys, nrows, sizeof *keys, cmp_u64);
    size_t row = (size_t)(at - keys);
    if (row >= drawn) continue;
    int x = left + (int)i * cw, y = top + (int)row * rh;
    if (last_iv[row] != UINT32_MAX && last_iv[row] != r->interval)
      ll_buf_printf(p, "<path class=\"tick\" d=\"M%d %dv%d\"/>", x, y - 1, rh);
    last_iv[row] = r->interval;
    ll_buf_printf(p, "<a href=\"#i%llu\"><rect class=\"tl %s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>#%llu "
                  "pc 0x%llx ", (unsigned long long)r->seq, tl_classes[tl_class(r->mnem)].cls, x, y + 1,
                  cw > 1 ? cw - 1 : 1, rh - 3, (unsigned long long)r->seq, (unsigned long long)r->pc);
    report_html_esc(p, r->text);
    ll_buf_printf(p, " (wg %u,%u,%u wave %u, barrier interval %u, step %u)</title></rect></a>", r->wg[0], r->wg[1],
                  r->wg[2], r->wave, r->interval, r->step);
  }
  ll_buf_puts(p, "\n</svg></div>\n<p class=\"notes\">");
  for (size_t c = 0; c < sizeof tl_classes / sizeof *tl_classes; c++)
    ll_buf_printf(p, "<span class=\"pattern\" style=\"background:%s;color:#fff\">%s</span> ", tl_classes[c].colour,
                  tl_classes[c].what);
  if (nrows > drawn) ll_buf_printf(p, "(%zu more waves not drawn; they are in the table below)", nrows - drawn);
  ll_buf_puts(p, "</p>\n");
  free(last_iv);
  free(keys);
}

#define PAGE_INSTANCES 64 /* instances drawn lane by lane on the page (all are in the JSON/CSV) */
#define MFMA_FILES 64     /* MFMA instances rebuilt into mfma/ */

bool report_trace_write(const char *dir, const emu_observer *o, const report_trace_info *info, ll_err *err)
{
  /* the page links the shared stylesheet (with the tile pictures' lane colours) and script */
  if (!ll_mkdir_p(dir, err) || !report_write_assets(dir, err)) return false;
  char *mdir = ll_path_join(dir, "mfma");
  bool ok = true;
  ll_buf js = {0}, csv = {0}, page = {0};
  write_json(&js, o, info);
  write_csv(&csv, o);
  char *p_json = ll_path_join(dir, "trace.json"), *p_csv = ll_path_join(dir, "trace.csv"),
       *p_html = ll_path_join(dir, "trace.html");
  ok = ll_write_file_atomic(p_json, js.data, js.len, err) && ll_write_file_atomic(p_csv, csv.data, csv.len, err);

  char title[300];
  snprintf(title, sizeof title, "Trace of %s (%s)", info->kernel, info->arch);
  report_html_begin(&page, title, "trace");
  ll_buf_puts(&page, "<table class=\"meta\">");
  ll_buf_puts(&page, "<tr><td>code object</td><td>"), report_html_esc(&page, info->co_path), ll_buf_puts(&page, "</td></tr>");
  ll_buf_puts(&page, "<tr><td>trace spec</td><td>"), report_html_esc(&page, info->spec ? info->spec : ""), ll_buf_puts(&page, "</td></tr>");
  ll_buf_printf(&page, "<tr><td>instances</td><td>%zu%s</td></tr>", emu_observer_ntrace(o),
                emu_observer_trace_truncated(o) ? " (truncated: narrow the spec or use first=N)" : "");
  for (size_t t = 0; t < info->ntiles; t++) {
    const report_trace_tile *T = &info->tiles[t];
    ll_buf_printf(&page, "<tr><td>tile %s</td><td>base 0x%llx, %u x %u elements of %u bytes, row stride %u, swizzle %s</td></tr>",
                  T->name, (unsigned long long)T->base, T->rows, T->cols, T->elem, T->stride, T->swizzle);
  }
  ll_buf_puts(&page, "</table>\n<p class=\"exports\"><a href=\"trace.json\">trace.json</a><a href=\"trace.csv\">trace.csv</a></p>\n");

  size_t nh = emu_observer_nhazards(o);
  ll_buf_printf(&page, "<h2>Hazards (%zu)</h2>\n", nh);
  if (nh) {
    ll_buf_puts(&page, "<ul class=\"hazards\">");
    for (size_t i = 0; i < nh; i++) {
      char line[1024];
      emu_hazard_format(emu_observer_hazard(o, i), line, sizeof line);
      ll_buf_puts(&page, "<li class=\"fail\">"), report_html_esc(&page, line), ll_buf_puts(&page, "</li>");
    }
    ll_buf_puts(&page, "</ul>\n");
    if (emu_observer_hazards_dropped(o))
      ll_buf_printf(&page, "<p class=\"fail\">%llu byte conflicts in reports past the %zu kept (not listed).</p>\n",
                    (unsigned long long)emu_observer_hazards_dropped(o), nh);
  } else {
    ll_buf_puts(&page, "<p>None found (or --racecheck/--initcheck not requested).</p>\n");
  }

  /* timeline: one row per instance, in execution order, with a bar at its interval/step */
  size_t n = emu_observer_ntrace(o);
  uint32_t maxstep = 1;
  for (size_t i = 0; i < n; i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    if (r->step + 1 > maxstep) maxstep = r->step + 1;
  }
  ll_buf_printf(&page, "<h2>Timeline (%zu instances)</h2>\n", n);
  timeline_svg(&page, o);
  ll_buf_printf(&page, "<table class=\"timeline\"><tr><th>seq</th><th>wg</th>"
                "<th>wave</th><th>barrier interval</th><th>step</th><th>pc</th><th>instruction</th><th>EXEC lanes</th>"
                "<th>position in the interval</th></tr>\n");
  for (size_t i = 0; i < n; i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    int pct = (int)(100.0 * r->step / maxstep);
    ll_buf_printf(&page, "<tr><td class=\"num\"><a href=\"#i%llu\">%llu</a></td><td>%u,%u,%u</td><td class=\"num\">%u</td>"
                  "<td class=\"num\">%u</td><td class=\"num\">%u</td><td>0x%llx</td><td>",
                  (unsigned long long)r->seq, (unsigned long long)r->seq, r->wg[0], r->wg[1], r->wg[2], r->wave,
                  r->interval, r->step, (unsigned long long)r->pc);
    if (r->src) report_html_esc(&page, r->src), ll_buf_puts(&page, " ");
    report_html_esc(&page, r->text);
    ll_buf_printf(&page, "</td><td class=\"num\">%d</td><td><div style=\"margin-left:%d%%;width:4px;height:10px;"
                  "background:#0969da\"></div></td></tr>\n", __builtin_popcountll(r->exec), pct);
  }
  ll_buf_puts(&page, "</table>\n");

  /* instances */
  lanes_arch la;
  ll_err lerr = {0};
  bool have_arch = lanes_arch_parse(info->arch, &la, &lerr);
  size_t nmfma = 0;
  for (size_t i = 0; i < n && ok; i++) {
    const emu_trace_rec *r = emu_observer_trace_rec(o, i);
    bool mfma = !strncmp(r->mnem, "v_mfma", 6);
    if (i >= PAGE_INSTANCES && !mfma) continue;
    ll_buf_printf(&page, "<h3 id=\"i%llu\">#%llu wg (%u,%u,%u) wave %u, pc 0x%llx: ", (unsigned long long)r->seq,
                  (unsigned long long)r->seq, r->wg[0], r->wg[1], r->wg[2], r->wave, (unsigned long long)r->pc);
    if (r->src) report_html_esc(&page, r->src), ll_buf_puts(&page, " ");
    report_html_esc(&page, r->text);
    ll_buf_printf(&page, "</h3>\n<p class=\"notes\">EXEC 0x%016llx</p>\n", (unsigned long long)r->exec);
    if (i < PAGE_INSTANCES) lane_grid(&page, r, info->tiles, info->ntiles);
    if (!mfma || nmfma >= MFMA_FILES || !have_arch) continue;
    /* the table's name: the mnemonic without the encoding suffix (lanes_mfma_lookup's names) */
    char name[64];
    snprintf(name, sizeof name, "%s", r->mnem);
    char *suf = strstr(name, "_e64");
    if (suf) *suf = 0;
    ll_err merr = {0};
    const lanes_mfma *mf = lanes_mfma_lookup(name, la, &merr);
    if (!mf) {
      ll_buf_puts(&page, "<p class=\"notes\">No layout model for this MFMA: "), report_html_esc(&page, merr.msg);
      ll_buf_puts(&page, "</p>\n");
      continue;
    }
    mfma_mats m;
    rebuild(r, mf, &m);
    nmfma++;
    if (!ll_mkdir_p(mdir, err)) { ok = false; free_mats(&m); break; }
    static const char *nm[] = {"A", "B", "C", "D"};
    ll_buf_puts(&page, "<p class=\"exports\">");
    for (int op = 0; op < 4 && ok; op++) {
      ll_buf bb = {0}, cb = {0};
      mat_bin(&bb, &m, op);
      mat_csv(&cb, &m, op);
      char *rel_b = ll_fmt("mfma/%llu_%s.bin", (unsigned long long)r->seq, nm[op]);
      char *rel_c = ll_fmt("mfma/%llu_%s.csv", (unsigned long long)r->seq, nm[op]);
      char *pb = ll_path_join(dir, rel_b), *pc = ll_path_join(dir, rel_c);
      ok = ll_write_file_atomic(pb, bb.data ? bb.data : "", bb.len, err) &&
           ll_write_file_atomic(pc, cb.data ? cb.data : "", cb.len, err);
      ll_buf_printf(&page, "<a href=\"%s\">%s.bin</a><a href=\"%s\">%s.csv</a>", rel_b, nm[op], rel_c, nm[op]);
      free(rel_b), free(rel_c), free(pb), free(pc);
      ll_buf_free(&bb), ll_buf_free(&cb);
    }
    ll_buf_puts(&page, "</p>\n");
    for (int op = 0; op < 2 && ok; op++) {
      const char *want = op ? info->expect_b : info->expect_a;
      if (!want) continue;
      ll_buf note = {0};
      int mm = 0;
      if (!expect_check(&m, op, want, r, &note, &mm, err)) { ok = false; break; }
      report_trace_expect_result res = {r->seq, op, mm, ""};
      snprintf(res.first, sizeof res.first, "%s", note.data ? note.data : "");
      if (info->on_expect) info->on_expect(info->user, &res);
      ll_buf_printf(&page, "<p class=\"%s\">--expect-%c: %d mismatching element%s. ", mm ? "fail" : "pass", op ? 'b' : 'a',
                    mm, mm == 1 ? "" : "s");
      report_html_esc(&page, note.data ? note.data : "");
      ll_buf_puts(&page, "</p>\n");
      ll_buf_free(&note);
    }
    if (mf->m <= 32 && mf->n <= 32 && mf->k <= 64) {
      for (int op = 0; op < 4; op++) mat_table(&page, &m, op);
      for (int op = 0; op < 2; op++) { /* who holds each element of A and B (lanes/'s model) */
        ll_err e = {0};
        char title[160], id[48];
        snprintf(title, sizeof title, "%c of %s: the lane and register holding each element", op ? 'B' : 'A', mf->name);
        report_tile *pic = report_tile_new(title, m.rows[op], m.cols[op], op ? "k" : "i", op ? "j" : "k", &e);
        if (!pic) continue;
        for (int i2 = 0; i2 < m.rows[op]; i2++)
          for (int j2 = 0; j2 < m.cols[op]; j2++) {
            lanes_loc loc;
            if (lanes_mfma_locate(mf, (lanes_operand)op, i2, j2, &loc))
              report_tile_own(pic, i2, j2, loc.lane, loc.reg, loc.bit / (m.bits[op] ? m.bits[op] : 32));
          }
        snprintf(id, sizeof id, "mfma-%llu-%c", (unsigned long long)r->seq, op ? 'b' : 'a');
        report_tile_svg(pic, id, &page);
        report_tile_free(pic);
      }
    }
    free_mats(&m);
  }
  report_html_end(&page);
  if (ok) ok = ll_write_file_atomic(p_html, page.data, page.len, err);
  ll_buf_free(&js), ll_buf_free(&csv), ll_buf_free(&page);
  free(p_json), free(p_csv), free(p_html), free(mdir);
  return ok;
}
