/* emu/observe — instruction traces, LDS/global race checking and initialization checking
 * (emu.h part 4; docs/trace.md). Everything here runs only when a launch has an observer: the
 * executor calls emu_obs_exec instead of the handler, and this file computes the instruction's
 * per-lane memory accesses from its operands (the same address rules as emu/op_ds.c,
 * emu/op_mem.c and emu/op_xlane.c, which stay untouched; the LDS destination of a load to LDS is
 * emu_load_lds_dest, shared with emu/op_mem.c), updates the shadow state, captures
 * register operands before and after, and calls the handler. */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/observe.h"

/* ---- configuration and results ---------------------------------------------------------------*/
typedef struct { uint64_t lo, hi; } range64; /* inclusive */

typedef struct {
  char **glob;
  size_t nglob;
  range64 *pcs;
  size_t npcs;
  bool any_wg, any_wave;
  range64 wg, wave;
  uint64_t first; /* 0 = no limit */
} trace_spec;

typedef struct {        /* a range whose bytes start uninitialized, and which were written */
  uint64_t base, size;
  uint8_t *written;     /* bitmap: the observer's, allocated at launch begin, or the caller's */
  uint8_t *caller;      /* emu_observer_uninit_in_place: the caller's bitmap, used as written */
  char name[64];        /* the buffer's name */
} uninit_range;

/* global shadow: the last write (or atomic) and the last read of each byte (best effort: an
 * earlier conflicting access overwritten by a later one from the same wave is not kept) */
typedef struct { uint32_t ip, wg, epoch, step; uint16_t wave; uint8_t lane; char op; } grec;
typedef struct { grec w, r; } gshadow;
#define SCALAR_LANE 0xff /* grec.lane of a scalar (SMEM) access */
/* kept by granules of 8 bytes from the buffer's base: one state while all its bytes are in it (an
 * access of the whole granule leaves them so), else its 8 bytes' states in the observer's split
 * pool (split: 1 + their slot; 0 none) */
enum { GGRAN = 8 };
typedef struct { gshadow s; uint32_t split; } ggran;
typedef struct { uint64_t base, size; ggran *g; char name[64]; } gbuf;

struct emu_observer {
  bool race, race_global, init;
  bool tracing;
  trace_spec ts;
  size_t max_records;
  pthread_mutex_t mu;
  emu_hazard *hz;
  size_t nhz, caphz;
  /* each report's place in the serial grid-order run: the launch, the workgroup that met it first
   * in grid order and the report's rank among that workgroup's (emu_obs_worker.nrep); the reports
   * of workers running side by side keep this representative and are listed in this order */
  struct hzkey { uint64_t launch, wg, seq; } *hzk;
  uint64_t launches;
  uint64_t hz_dropped;      /* byte conflicts of reports past MAX_HAZARDS (not kept) */
  emu_trace_rec **rec;
  size_t nrec, caprec;
  uint64_t seq;
  bool truncated;
  uninit_range *un;
  size_t nun;
  /* heapcheck (emu_observer_heap): the region, its live bytes, and per launch the PC ranges of the
   * code object's device-library functions, sorted */
  uint64_t heap_base, heap_size;
  const uint8_t *heap_live;
  range64 *dl;
  size_t ndl;
  /* per launch */
  const emu_dispatch *d;
  const emu_program *prog;
  gbuf *gb;
  gshadow *sp;              /* split granules' byte states, GGRAN a slot */
  size_t nsp, capsp;        /* slots made, allocated */
  uint32_t *spfree;         /* slots a merged granule gave back */
  size_t nspfree, capspfree;
  uint64_t sp_limit;        /* bytes the pool may take: the shadow limit less the granules */
  bool sp_full;             /* a split found the pool at its limit: the launch faults (emu_obs_exec) */
  size_t ngb;
};

static int by_lo(const void *a, const void *b)
{
  const range64 *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}
/* pc lies in one of the launch's device-library functions (o->dl: sorted, disjoint) */
static bool in_devlib(const emu_observer *o, uint64_t pc)
{
  size_t lo = 0, hi = o->ndl;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (o->dl[mid].hi < pc) lo = mid + 1;
    else hi = mid;
  }
  return lo < o->ndl && o->dl[lo].lo <= pc;
}

#define MAX_HAZARDS 256
#define MAX_GLOBAL_SHADOW (512ull << 20)
#define MAX_SYNC_SETS (256ull << 20)

const char *emu_hazard_kind_name(emu_hazard_kind k)
{
  static const char *n[] = {"RAW", "WAR", "WAW", "UNINIT", "HEAP"};
  return (unsigned)k < 5 ? n[k] : "?";
}

emu_observer *emu_observer_new(void)
{
  emu_observer *o = ll_xcalloc(1, sizeof *o);
  pthread_mutex_init(&o->mu, NULL);
  return o;
}

static void free_rec(emu_trace_rec *r)
{
  if (!r) return;
  for (size_t i = 0; i < r->nop; i++) free(r->op[i].before), free(r->op[i].after);
  free(r->text);
  free(r->mnem);
  free(r->src);
  free(r);
}

void emu_observer_reset(emu_observer *o)
{
  for (size_t i = 0; i < o->nrec; i++) free_rec(o->rec[i]);
  o->nrec = 0;
  o->nhz = 0;
  o->seq = 0;
  o->hz_dropped = 0;
  o->truncated = false;
}

void emu_observer_free(emu_observer *o)
{
  if (!o) return;
  emu_observer_reset(o);
  free(o->rec);
  free(o->hz);
  free(o->hzk);
  for (size_t i = 0; i < o->ts.nglob; i++) free(o->ts.glob[i]);
  free(o->ts.glob);
  free(o->ts.pcs);
  for (size_t i = 0; i < o->nun; i++)
    if (!o->un[i].caller) free(o->un[i].written);
  free(o->un);
  for (size_t i = 0; i < o->ngb; i++) free(o->gb[i].g);
  free(o->gb);
  free(o->sp), free(o->spfree);
  free(o->dl);
  pthread_mutex_destroy(&o->mu);
  free(o);
}

void emu_observer_racecheck(emu_observer *o, bool global)
{
  o->race = true;
  o->race_global |= global;
}
void emu_observer_initcheck(emu_observer *o) { o->init = true; }

void emu_observer_uninit(emu_observer *o, uint64_t addr, uint64_t size)
{
  if (!size) return;
  o->un = ll_xrealloc(o->un, (o->nun + 1) * sizeof *o->un);
  o->un[o->nun++] = (uninit_range){addr, size, NULL, NULL, ""};
}

void emu_observer_uninit_in_place(emu_observer *o, uint64_t addr, uint64_t size, uint8_t *bits)
{
  if (!size) return;
  emu_observer_uninit(o, addr, size);
  o->un[o->nun - 1].caller = bits;
}

void emu_observer_heap(emu_observer *o, uint64_t addr, uint64_t size, const uint8_t *live)
{
  o->heap_base = addr, o->heap_size = size, o->heap_live = size ? live : NULL;
}

size_t emu_observer_nhazards(const emu_observer *o) { return o->nhz; }
uint64_t emu_observer_hazards_dropped(const emu_observer *o) { return o->hz_dropped; }
const emu_hazard *emu_observer_hazard(const emu_observer *o, size_t i) { return i < o->nhz ? &o->hz[i] : NULL; }
size_t emu_observer_ntrace(const emu_observer *o) { return o->nrec; }
const emu_trace_rec *emu_observer_trace_rec(const emu_observer *o, size_t i) { return i < o->nrec ? o->rec[i] : NULL; }
bool emu_observer_trace_truncated(const emu_observer *o) { return o->truncated; }

/* "N" or "N-M" (decimal or 0x-hex) */
static bool parse_range(const char *s, range64 *r)
{
  char *copy = ll_xstrdup(s), *dash = strchr(copy + (copy[0] == '-'), '-');
  if (dash) *dash = 0;
  bool ok = ll_parse_u64(copy, &r->lo);
  r->hi = r->lo;
  if (ok && dash) ok = ll_parse_u64(dash + 1, &r->hi) && r->hi >= r->lo;
  free(copy);
  return ok;
}

bool emu_observer_trace(emu_observer *o, const char *spec, size_t max_records, ll_err *err)
{
  trace_spec *t = &o->ts;
  t->any_wg = t->any_wave = true;
  if (!spec || !*spec) {
    ll_seterr(err, LL_EXIT_USAGE, "--trace: empty SPEC; expected e.g. 'ds_read*,v_mfma*@wg=0,wave=0-1,first=8'");
    return false;
  }
  char *copy = ll_xstrdup(spec), *at = strchr(copy, '@'), *save = NULL;
  if (at) *at++ = 0;
  bool ok = true;
  for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
    if (!strncmp(tok, "pc=", 3)) {
      t->pcs = ll_xrealloc(t->pcs, (t->npcs + 1) * sizeof *t->pcs);
      if (!(ok = parse_range(tok + 3, &t->pcs[t->npcs++])))
        ll_seterr(err, LL_EXIT_USAGE, "--trace '%s': '%s' is not pc=ADDR or pc=LO-HI", spec, tok);
    } else if (strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_*?[]") == strlen(tok)) {
      t->glob = ll_xrealloc(t->glob, (t->nglob + 1) * sizeof *t->glob);
      t->glob[t->nglob++] = ll_xstrdup(tok);
    } else {
      ll_seterr(err, LL_EXIT_USAGE, "--trace '%s': '%s' is neither a mnemonic glob (e.g. ds_read*) nor pc=LO-HI",
                spec, tok);
      ok = false;
    }
  }
  if (ok && t->nglob == 0 && t->npcs == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "--trace '%s': no instructions selected (give a mnemonic glob or pc=)", spec);
    ok = false;
  }
  save = NULL;
  for (char *tok = at ? strtok_r(at, ",", &save) : NULL; tok && ok; tok = strtok_r(NULL, ",", &save)) {
    if (!strncmp(tok, "wg=", 3)) ok = parse_range(tok + 3, &t->wg), t->any_wg = false;
    else if (!strncmp(tok, "wave=", 5)) ok = parse_range(tok + 5, &t->wave), t->any_wave = false;
    else if (!strncmp(tok, "first=", 6)) ok = ll_parse_u64(tok + 6, &t->first) && t->first > 0;
    else ok = false;
    if (!ok)
      ll_seterr(err, LL_EXIT_USAGE, "--trace '%s': filter '%s': expected wg=N[-M], wave=N[-M] or first=N (N > 0)",
                spec, tok);
  }
  free(copy);
  if (ok) {
    o->tracing = true;
    o->max_records = max_records ? max_records : 4096;
  }
  return ok;
}

/* ---- hazards ---------------------------------------------------------------------------------*/
/* "lane 5", or "scalar" for an SMEM access (lane -1) */
static const char *lane_text(int lane, char *buf, size_t n)
{
  if (lane < 0) snprintf(buf, n, "scalar");
  else snprintf(buf, n, "lane %d", lane);
  return buf;
}

void emu_hazard_format(const emu_hazard *h, char *buf, size_t n)
{
  char la[16], lb[16];
  char where[96];
  if (h->lds) snprintf(where, sizeof where, "LDS byte 0x%llx", (unsigned long long)h->addr);
  else snprintf(where, sizeof where, "global 0x%llx (buffer '%s')", (unsigned long long)h->addr, h->buffer);
  const emu_access *a = &h->first, *b = &h->second;
  /* " at FILE:LINE" beside a PC when the code object has debug information */
  char sa[330] = "", sb[330] = "";
  if (a->src[0]) snprintf(sa, sizeof sa, " at %s", a->src);
  if (b->src[0]) snprintf(sb, sizeof sb, " at %s", b->src);
  if (h->kind == EMU_HZ_HEAP) {
    static const char *op[] = {"read", "write", "atomic"};
    const int k = b->op == 'w' ? 1 : b->op == 'a' ? 2 : 0;
    snprintf(n ? buf : NULL, n,
             "HEAP %s of device heap byte 0x%llx outside every live block: pc 0x%llx%s '%s' wg (%u,%u,%u) wave %u %s "
             "(%llu bytes)", op[k], (unsigned long long)h->addr, (unsigned long long)b->pc, sb, b->insn, b->wg[0],
             b->wg[1], b->wg[2], b->wave, lane_text(b->lane, lb, sizeof lb), (unsigned long long)h->count);
    return;
  }
  if (h->kind == EMU_HZ_UNINIT) {
    snprintf(n ? buf : NULL, n,
             "UNINIT %s read before any write: pc 0x%llx%s '%s' wg (%u,%u,%u) wave %u %s (%llu bytes)", where,
             (unsigned long long)b->pc, sb, b->insn, b->wg[0], b->wg[1], b->wg[2], b->wave,
             lane_text(b->lane, lb, sizeof lb), (unsigned long long)h->count);
    return;
  }
  static const char *what[] = {"written by", "read by", "written by"};
  static const char *then[] = {"then read by", "then written by", "and written by"};
  snprintf(buf, n,
           "%s hazard on %s: %s pc 0x%llx%s '%s' wg (%u,%u,%u) wave %u %s, %s pc 0x%llx%s '%s' wg (%u,%u,%u) "
           "wave %u %s, %s (%llu byte conflicts)",
           emu_hazard_kind_name(h->kind), where, what[h->kind], (unsigned long long)a->pc, sa, a->insn, a->wg[0], a->wg[1],
           a->wg[2], a->wave, lane_text(a->lane, la, sizeof la), then[h->kind], (unsigned long long)b->pc, sb, b->insn,
           b->wg[0], b->wg[1], b->wg[2], b->wave, lane_text(b->lane, lb, sizeof lb),
           memcmp(a->wg, b->wg, sizeof a->wg) ? "in different workgroups (no release and acquire orders them)"
                                              : "with no s_barrier between",
           (unsigned long long)h->count);
}

typedef struct { uint32_t ip, wg, wave, step; int lane; char op; } acc_t;
/* An access's kind: 'r' read, 'w' write, 'a' atomic, and on global memory 'l', an atomic load (a
 * load with sc1: agent- or system-scope, as LLVM emits atomic and volatile loads for gfx942/gfx950,
 * AMDGPUUsage "Memory Model GFX942"), a read that is also an atomic: it races with a write, not with
 * a read or an atomic; and 's', an atomic store (a store with sc1, as LLVM emits agent- and
 * system-scope atomic and volatile stores there): a write that is also an atomic, racing with a
 * plain read or write, not with an atomic. Reports name 'l' as 'a' and 's' as 'w'. */
static inline bool op_reads(char op) { return op == 'r' || op == 'l'; }
static inline bool op_atomic(char op) { return op == 'a' || op == 'l' || op == 's'; }

static void fill_access(const emu_observer *o, emu_access *x, const acc_t *a)
{
  const emu_insn *in = &o->prog->insns[a->ip];
  x->pc = in->pc;
  snprintf(x->insn, sizeof x->insn, "%s", in->text ? in->text : in->mnem);
  uint32_t gx = o->d->grid[0], gy = o->d->grid[1];
  x->wg[0] = a->wg % gx;
  x->wg[1] = (a->wg / gx) % gy;
  x->wg[2] = a->wg / (gx * gy);
  x->wave = a->wave;
  x->lane = a->lane;
  x->op = a->op == 'l' ? 'a' : a->op == 's' ? 'w' : a->op;
  x->src[0] = 0;
  if (o->d && o->d->co) emu_codeobj_srcline(o->d->co, in->pc, x->src, sizeof x->src);
}

/* ---- the instruction's memory accesses -------------------------------------------------------*/
typedef struct macc {
  char space;            /* 0 none, 'l', 'g' */
  char op;               /* 'r', 'w', 'a' */
  bool scalar;           /* SMEM: one access by the wave, kept in lane 0's slot */
  uint32_t bytes;
  int nseg;
  uint64_t lanes;        /* lanes that access memory */
  uint64_t addr[2][EMU_LANES];
  /* a load to LDS (buffer_load_* lds, global_load_lds_*): the access above is its global read;
   * each EXEC lane also writes lds_bytes bytes of LDS at lds_addr (emu_load_lds_dest) */
  uint32_t lds_bytes;    /* 0: not a load to LDS */
  uint64_t lds_lanes;
  uint32_t lds_addr[EMU_LANES];
} macc;

/* ---- per-worker state ------------------------------------------------------------------------*/
typedef struct { uint32_t ip, step; uint8_t wave, lane; } lrec;
/* LDS shadow for one byte, valid for interval `epoch`: which waves wrote (0), read (1) and
 * atomically updated (2) it, and for each kind the first access and the first access by another
 * wave than that one (so any wave finds a partner from a different wave). */
typedef struct { uint32_t epoch; uint16_t m[3]; lrec r[3][2]; } lshadow;
/* the LDS shadow by granule of 8 bytes: one state while all its bytes are in it (an access of the
 * whole granule leaves them so), else (split) its bytes' states in emu_obs_worker.lds */
enum { LGRAN = 8 };
typedef struct { lshadow s; uint8_t split; } lgran;

struct emu_obs_worker {
  emu_observer *o;
  uint32_t lds_size, nwaves;
  lshadow *lds;          /* racecheck: the bytes' states of split granules */
  lgran *lgr;            /* racecheck: the granules */
  uint32_t *lwr;         /* initcheck: workgroup stamp of the last write */
  uint32_t epoch;        /* barrier interval, unique over the worker's life */
  uint32_t stamp;        /* workgroup, unique over the worker's life */
  uint32_t interval;     /* barriers passed in this workgroup */
  uint32_t wg_index;
  uint64_t nrep;         /* reports made in the current workgroup (report_n's key) */
  /* reports this worker made again (report_n): counted here, added to the observer's list under its
   * lock when the slot is taken by another or the launch ends (emu_obs_worker_flush) */
  struct hzc { uint64_t pa, pb, n; struct hzkey key; uint8_t kind, lds, used; } hzc[16];
  /* the current instruction's accesses (emu_obs_exec): 1.3 KB, in the worker's memory rather than
   * on emu_obs_exec's stack, where writing the lanes' addresses and then reading them stalled (a
   * checked Stream_Overlap: 5.9 s on the stack, 5.35-5.39 s here at any of 8 offsets tried) */
  struct macc *m;
  uint32_t *steps;       /* per wave: instructions since the last barrier */
  /* WAW pairs on LDS found while the current instruction was checked, decided after it ran: a write
   * that leaves the byte as it was (the value another wave wrote there) is no hazard */
  bool defer_waw;
  struct waw { uint32_t byte; uint8_t old; acc_t earlier, now; } *waw; /* old: the byte before the write */
  size_t nwaw, capwaw;
  /* --racecheck=global's ordering across workgroups by release and acquire (docs/trace.md): sets of
   * the launch's workgroups, `words` 64-bit words each (NULL: racecheck=global is off) */
  size_t words;
  uint64_t *before;      /* per wave: workgroups whose accesses it is ordered after */
  uint64_t *pend;        /* per wave: the sets its atomic reads met since its last acquire */
  uint64_t *tmp;         /* one set: the union at a barrier */
  bool *released;        /* per wave: it has executed a release (buffer_wbl2 sc1) */
  /* release sets: per 4-byte location an atomic write reached after its wave's release, the
   * workgroups it released (that wave's `before` and its own); open addressing, key address + 1 */
  struct rs_table {
    uint64_t *rs_key;
    uint32_t *rs_at;     /* index of the location's set in rs_sets */
    size_t rs_cap, rs_n, rs_max;
    uint64_t *rs_sets;
  } rs_own, *rs;         /* rs: the worker's own table, or the one it shares (emu_obs_worker_share_sync) */
};

/* Record a hazard met n times (n byte conflicts: its count); folded into an existing report of the
 * same kind, space and PC pair. Workers run workgroups side by side, so reports arrive in an order
 * of the schedule's making; each keeps, as its representative (address, accesses), the one met
 * first in grid order (key: launch, workgroup, rank of the report within the workgroup's run, which
 * one worker runs in a fixed order), and emu_obs_launch_end lists them by that key: the reports of
 * any number of workers are the one-worker (grid-order) run's. Past MAX_HAZARDS reports, the one
 * latest in that order is not kept and its count goes to hz_dropped. */
static bool key_before(const struct hzkey *a, const struct hzkey *b)
{
  return a->launch != b->launch ? a->launch < b->launch : a->wg != b->wg ? a->wg < b->wg : a->seq < b->seq;
}

static void set_rep(emu_observer *o, emu_hazard *h, uint64_t addr, const char *buf, const acc_t *first,
                    const acc_t *second)
{
  h->addr = addr;
  snprintf(h->buffer, sizeof h->buffer, "%s", buf ? buf : "");
  memset(&h->first, 0, sizeof h->first);
  if (first) fill_access(o, &h->first, first);
  fill_access(o, &h->second, second);
}

/* n more byte conflicts of the report of kind k, space lds and PC pair (pa, pb) (the observer's lock held) */
static void report_add(emu_observer *o, emu_hazard_kind k, bool lds, uint64_t pa, uint64_t pb, uint64_t n)
{
  for (size_t i = 0; i < o->nhz; i++) {
    emu_hazard *h = &o->hz[i];
    if (h->kind == k && h->lds == lds && h->first.pc == pa && h->second.pc == pb) {
      h->count += n;
      return;
    }
  }
  o->hz_dropped += n; /* its report was not kept (MAX_HAZARDS) */
}

/* the counts a worker holds back (report_n's cache) into the observer's reports */
static void hzc_flush(emu_obs_worker *ow, struct hzc *c)
{
  if (c->used && c->n) {
    pthread_mutex_lock(&ow->o->mu);
    report_add(ow->o, (emu_hazard_kind)c->kind, c->lds, c->pa, c->pb, c->n);
    pthread_mutex_unlock(&ow->o->mu);
  }
  c->used = 0, c->n = 0;
}

void emu_obs_worker_flush(emu_obs_worker *ow)
{
  if (!ow) return;
  for (size_t i = 0; i < sizeof ow->hzc / sizeof *ow->hzc; i++) hzc_flush(ow, &ow->hzc[i]);
}

static void report_n(emu_obs_worker *ow, emu_hazard_kind k, bool lds, uint64_t addr, const char *buf,
                     const acc_t *first, const acc_t *second, uint64_t n)
{
  emu_observer *o = ow->o;
  const struct hzkey key = {o->launches, ow->wg_index, ow->nrep++};
  uint64_t pa = first ? o->prog->insns[first->ip].pc : 0, pb = o->prog->insns[second->ip].pc;
  /* A report this worker already made, from a place earlier in grid order: its representative
   * stands (the list's is that one or an earlier one), so only the count grows, held here. */
  struct hzc *c = &ow->hzc[(pa * 0x9e3779b97f4a7c15ull ^ pb * 0xc2b2ae3d27d4eb4full ^ (uint64_t)k * 3 ^ lds) >> 60];
  if (c->used && c->pa == pa && c->pb == pb && c->kind == (uint8_t)k && c->lds == lds && key_before(&c->key, &key)) {
    c->n += n;
    return;
  }
  hzc_flush(ow, c);
  *c = (struct hzc){pa, pb, 0, key, (uint8_t)k, lds, 1};
  pthread_mutex_lock(&o->mu);
  for (size_t i = 0; i < o->nhz; i++) {
    emu_hazard *h = &o->hz[i];
    if (h->kind == k && h->lds == lds && h->first.pc == pa && h->second.pc == pb) {
      h->count += n;
      if (key_before(&key, &o->hzk[i])) o->hzk[i] = key, set_rep(o, h, addr, buf, first, second);
      pthread_mutex_unlock(&o->mu);
      return;
    }
  }
  size_t at = o->nhz;
  if (o->nhz == MAX_HAZARDS) { /* full: the new report takes the latest one's place if it is earlier */
    at = 0;
    for (size_t i = 1; i < o->nhz; i++)
      if (key_before(&o->hzk[at], &o->hzk[i])) at = i;
    if (!key_before(&key, &o->hzk[at])) {
      o->hz_dropped += n;
      pthread_mutex_unlock(&o->mu);
      return;
    }
    o->hz_dropped += o->hz[at].count;
  } else if (o->nhz == o->caphz) {
    o->caphz = o->caphz ? 2 * o->caphz : 16;
    o->hz = ll_xrealloc(o->hz, o->caphz * sizeof *o->hz);
    o->hzk = ll_xrealloc(o->hzk, o->caphz * sizeof *o->hzk);
  }
  if (at == o->nhz) o->nhz++;
  emu_hazard *h = &o->hz[at];
  memset(h, 0, sizeof *h);
  h->kind = k;
  h->lds = lds;
  set_rep(o, h, addr, buf, first, second);
  h->count = n;
  o->hzk[at] = key;
  pthread_mutex_unlock(&o->mu);
}

/* the reports in grid order (report_n), once the workers are done */
void emu_obs_launch_end(emu_observer *o)
{
  for (size_t i = 1; i < o->nhz; i++) { /* insertion sort: few reports, mostly in order already */
    emu_hazard h = o->hz[i];
    struct hzkey kk = o->hzk[i];
    size_t j = i;
    for (; j > 0 && key_before(&kk, &o->hzk[j - 1]); j--) o->hz[j] = o->hz[j - 1], o->hzk[j] = o->hzk[j - 1];
    o->hz[j] = h, o->hzk[j] = kk;
  }
}
static void report(emu_obs_worker *ow, emu_hazard_kind k, bool lds, uint64_t addr, const char *buf,
                   const acc_t *first, const acc_t *second)
{
  report_n(ow, k, lds, addr, buf, first, second, 1);
}

/* Order a conflicting pair for the report: RAW/WAR by the lockstep model (instruction counts
 * since the barrier; equal counts: the write first), WAW by PC then wave. n: how many byte
 * conflicts the pair stands for (lanes of one read that read the byte, lds_read_lanes) */
static void race_pair_n(emu_obs_worker *ow, bool lds, uint64_t addr, const char *buf, const acc_t *x, const acc_t *y,
                        bool ordered_by_run, uint64_t n)
{
  const emu_observer *o = ow->o;
  const acc_t *w = !op_reads(x->op) ? x : y, *r = !op_reads(x->op) ? y : x;
  if (!op_reads(x->op) && !op_reads(y->op)) {
    const emu_insn *ix = &o->prog->insns[x->ip], *iy = &o->prog->insns[y->ip];
    bool xf = x->wg != y->wg ? x->wg < y->wg : ix->pc != iy->pc ? ix->pc < iy->pc : x->wave < y->wave;
    report_n(ow, EMU_HZ_WAW, lds, addr, buf, xf ? x : y, xf ? y : x, n);
    return;
  }
  /* across workgroups there is no lockstep: the earlier in the (serial, grid-order) run is first;
   * x is then the shadow's (earlier) access, y the current one, so a write in x came first */
  bool raw = ordered_by_run ? (w == x) : w->step <= r->step;
  if (raw) report_n(ow, EMU_HZ_RAW, lds, addr, buf, w, r, n);
  else report_n(ow, EMU_HZ_WAR, lds, addr, buf, r, w, n);
}
static void race_pair(emu_obs_worker *ow, bool lds, uint64_t addr, const char *buf, const acc_t *x, const acc_t *y,
                      bool ordered_by_run)
{
  race_pair_n(ow, lds, addr, buf, x, y, ordered_by_run, 1);
}

bool emu_obs_serial(const emu_observer *o) { return o->race_global || o->tracing; }
bool emu_obs_racecheck(const emu_observer *o) { return o->race; }

bool emu_obs_launch_begin(emu_observer *o, emu_mem *m, const emu_dispatch *d, const emu_program *prog,
                          char *msg, size_t msgn)
{
  o->d = d;
  o->prog = prog;
  o->launches++;
  for (size_t i = 0; i < o->ngb; i++) free(o->gb[i].g);
  free(o->gb);
  o->gb = NULL;
  o->ngb = 0;
  free(o->sp), free(o->spfree);
  o->sp = NULL, o->spfree = NULL;
  o->nsp = o->capsp = o->nspfree = o->capspfree = 0;
  o->sp_full = false;
  if (o->race_global) {
    uint64_t tot = 0;
    for (size_t i = 0; i < m->n; i++)
      if (!m->b[i].unshadowed) tot += (m->b[i].size + GGRAN - 1) / GGRAN * sizeof(ggran);
    if (tot > MAX_GLOBAL_SHADOW) {
      snprintf(msg, msgn, "--racecheck=global: %llu MiB of shadow state needed for %zu buffers (limit %llu MiB); "
               "use smaller buffers", (unsigned long long)(tot >> 20), m->n, MAX_GLOBAL_SHADOW >> 20);
      return false;
    }
    o->gb = ll_xcalloc(m->n ? m->n : 1, sizeof *o->gb);
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) {
      if (m->b[i].unshadowed) continue;
      o->gb[n].base = m->b[i].base;
      o->gb[n].size = m->b[i].size;
      o->gb[n].g = ll_xcalloc(m->b[i].size ? (m->b[i].size + GGRAN - 1) / GGRAN : 1, sizeof(ggran));
      snprintf(o->gb[n].name, sizeof o->gb[n].name, "%s", m->b[i].name ? m->b[i].name : "");
      n++;
    }
    o->ngb = n;
    o->sp_limit = MAX_GLOBAL_SHADOW - tot;
  }
  free(o->dl);
  o->dl = NULL, o->ndl = 0;
  if (o->heap_live && d->co) { /* the device-library functions, whose accesses to the heap are its allocator's */
    const emu_codeobj *co = d->co;
    o->dl = ll_xmalloc((co->nsymbols ? co->nsymbols : 1) * sizeof *o->dl);
    for (size_t i = 0; i < co->nsymbols; i++) {
      const emu_symbol *y = &co->symbols[i];
      if (y->func && y->size && !strncmp(y->name, "__ockl_", 7)) o->dl[o->ndl++] = (range64){y->vaddr, y->vaddr + y->size - 1};
    }
    qsort(o->dl, o->ndl, sizeof *o->dl, by_lo);
    size_t k = 0; /* ranges that overlap (two names of one function) merged: in_devlib's search needs them disjoint */
    for (size_t i = 0; i < o->ndl; i++) {
      if (k && o->dl[i].lo <= o->dl[k - 1].hi) {
        if (o->dl[i].hi > o->dl[k - 1].hi) o->dl[k - 1].hi = o->dl[i].hi;
      } else {
        o->dl[k++] = o->dl[i];
      }
    }
    o->ndl = k;
  }
  for (size_t i = 0; i < o->nun; i++) {
    uninit_range *u = &o->un[i];
    if (!u->caller) free(u->written);
    u->written = !o->init ? NULL : u->caller ? u->caller : ll_xcalloc((u->size + 7) / 8, 1);
    const char *nm = emu_mem_name_of(m, o->un[i].base);
    snprintf(o->un[i].name, sizeof o->un[i].name, "%s", nm ? nm : "");
  }
  return true;
}

emu_obs_worker *emu_obs_worker_new(emu_observer *o, uint32_t lds_size, uint32_t nwaves)
{
  emu_obs_worker *ow = ll_xcalloc(1, sizeof *ow);
  ow->o = o;
  ow->lds_size = lds_size;
  ow->nwaves = nwaves;
  if (o->race) ow->lds = ll_xcalloc(lds_size ? lds_size : 1, sizeof *ow->lds);
  if (o->race) ow->lgr = ll_xcalloc(lds_size ? (lds_size + LGRAN - 1) / LGRAN : 1, sizeof *ow->lgr);
  if (o->init) ow->lwr = ll_xcalloc(lds_size ? lds_size : 1, sizeof *ow->lwr);
  ow->steps = ll_xcalloc(nwaves, sizeof *ow->steps);
  ow->m = ll_xaligned(sizeof(struct macc));
  ow->rs = &ow->rs_own;
  if (o->race_global) {
    const emu_dispatch *d = o->d;
    uint64_t nwg = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
    ow->words = (size_t)((nwg + 63) / 64);
    if (!ow->words) ow->words = 1;
    ow->before = ll_xcalloc(nwaves * ow->words, 8);
    ow->pend = ll_xcalloc(nwaves * ow->words, 8);
    ow->tmp = ll_xcalloc(ow->words, 8);
    ow->released = ll_xcalloc(nwaves, sizeof *ow->released);
    /* the release sets together stay within MAX_SYNC_SETS bytes; past that, a location gets none
     * (its acquires order nothing: findings are reported, never hidden) */
    ow->rs_own.rs_max = MAX_SYNC_SETS / (ow->words * 8);
  }
  return ow;
}

void emu_obs_worker_share_sync(emu_obs_worker *ow, emu_obs_worker *with)
{
  if (ow && with) ow->rs = with->rs;
}

void emu_obs_worker_free(emu_obs_worker *ow)
{
  if (!ow) return;
  free(ow->lds), free(ow->lgr);
  free(ow->lwr);
  free(ow->steps);
  free(ow->m);
  free(ow->waw);
  free(ow->before), free(ow->pend), free(ow->tmp), free(ow->released);
  free(ow->rs_own.rs_key), free(ow->rs_own.rs_at), free(ow->rs_own.rs_sets);
  free(ow);
}

void emu_obs_wg_begin(emu_obs_worker *ow, const emu_wg *g)
{
  const emu_dispatch *d = ow->o->d;
  ow->epoch++;
  ow->stamp++;
  ow->interval = 0;
  ow->wg_index = g->id[0] + d->grid[0] * (g->id[1] + d->grid[1] * g->id[2]);
  ow->nrep = 0;
  memset(ow->steps, 0, ow->nwaves * sizeof *ow->steps);
  if (ow->before) {
    memset(ow->before, 0, ow->nwaves * ow->words * 8);
    memset(ow->pend, 0, ow->nwaves * ow->words * 8);
    memset(ow->released, 0, ow->nwaves * sizeof *ow->released);
  }
}

void emu_obs_barrier(emu_obs_worker *ow)
{
  ow->epoch++;
  ow->interval++;
  memset(ow->steps, 0, ow->nwaves * sizeof *ow->steps);
  if (ow->before) { /* after an s_barrier every wave is ordered after what any wave was ordered after */
    memset(ow->tmp, 0, ow->words * 8);
    for (uint32_t v = 0; v < ow->nwaves; v++)
      for (size_t i = 0; i < ow->words; i++) ow->tmp[i] |= ow->before[v * ow->words + i];
    for (uint32_t v = 0; v < ow->nwaves; v++) memcpy(ow->before + v * ow->words, ow->tmp, ow->words * 8);
  }
}


static const char *op_name(const emu_insn *in)
{
  if (in->op != 0xffff) {
    const emu_opdef *d = emu_ops_get(in->op);
    if (d && d->name) return d->name;
  }
  return in->mnem;
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* SMEM (CDNA3 ISA "Scalar Memory Operations", the address rule of emu/op_salu.c): s_load_* and
 * s_buffer_load_* read, s_store_* and s_buffer_store_* write o[0].n dwords; s_atomic_* update one
 * dword; the address is sbase (or a V#'s base) + an SGPR or immediate offset + the offset field.
 * Cache maintenance and timers are no access. An s_buffer access beyond num_records is left to the
 * handler, which faults. */
static bool classify_smem(emu_wave *w, const emu_insn *in, const char *name, macc *m)
{
  bool buffer = starts(name, "s_buffer_");
  const char *rest = name + (buffer ? 9 : 2);
  if (starts(rest, "load_")) m->op = 'r';
  else if (starts(rest, "store_")) m->op = 'w';
  else if (!buffer && starts(rest, "atomic_")) m->op = 'a';
  else return false;
  if (in->nop < 2 || in->o[0].kind != EMU_OPK_SGPR || in->o[1].kind != EMU_OPK_SGPR ||
      in->o[1].reg + (buffer ? 3u : 2u) > EMU_NSFILE)
    return false;
  m->bytes = m->op == 'a' ? 4 : (in->o[0].n ? in->o[0].n : 1) * 4u;
  uint64_t base, limit = ~0ull;
  if (buffer) {
    base = w->s[in->o[1].reg] | (uint64_t)(w->s[in->o[1].reg + 1] & 0xffff) << 32;
    limit = w->s[in->o[1].reg + 2];
  } else {
    base = emu_rd64s(w, in->o[1].reg);
  }
  uint64_t off = 0;
  if (in->nop > 2) off = in->o[2].kind == EMU_OPK_SGPR ? w->s[in->o[2].reg] : (uint64_t)in->o[2].ival;
  off += (uint64_t)(int64_t)in->offset;
  if (buffer && off + m->bytes > limit) return false;
  m->scalar = true;
  m->lanes = 1;
  m->nseg = 1;
  m->addr[0][0] = base + off;
  m->space = 'g';
  return true;
}

/* The LDS bytes of a DS instruction (in->lk DS or DS2): per lane address VGPR + offset, 32 bits. */
static void ds_addrs(emu_wave *w, const emu_insn *in, macc *m)
{
  const uint32_t *a = emu_vreg(w, in, in->lai, 0);
  uint32_t off0 = in->loff0, off1 = in->loff1;
  m->op = (char)in->lop;
  m->bytes = in->lbytes;
  m->nseg = in->lk == EMU_LK_DS2 ? 2 : 1;
  for (int l = 0; l < EMU_LANES; l++) m->addr[0][l] = (uint32_t)(a[l] + off0);
  if (m->nseg == 2)
    for (int l = 0; l < EMU_LANES; l++) m->addr[1][l] = (uint32_t)(a[l] + off1);
  m->space = 'l';
}

static bool classify(emu_wave *w, const emu_insn *in, macc *m)
{
  m->space = 0;
  m->scalar = false;
  m->lds_bytes = 0;
  uint32_t f = in->flags;
  if (f & EMU_F_SMEM) return classify_smem(w, in, op_name(in), m);
  if (!(f & (EMU_F_DS | EMU_F_VMEM))) return false;
  uint64_t e = emu_exec(w);
  m->lanes = e;
  m->nseg = 1;
  if (f & EMU_F_DS) {
    if (in->lk != EMU_LK_DS && in->lk != EMU_LK_DS2) return false;
    ds_addrs(w, in, m);
    return true;
  }
  /* VMEM: its form from decode (emu_insn.vmf) */
  if (!(in->vmf & EMU_VMF_OK)) return false;
  const bool buffer = in->vmf & EMU_VMF_BUFFER, flat = in->vmf & EMU_VMF_FLAT, to_lds = in->vmf & EMU_VMF_TO_LDS;
  m->op = (char)in->vmop;
  m->bytes = in->vmbytes;
  bool ret = in->sc0 || in->glc;
  /* operand 0 is the vaddr of a load to LDS (it has no destination), else the VGPR data/dest */
  int vi = to_lds ? 0 : buffer ? 1 : (m->op == 'r' || (m->op == 'a' && ret)) ? 1 : 0;
  if (to_lds) { /* the LDS side: where the instruction's handler writes (emu/op_mem.c) */
    emu_lds_dest ld = emu_load_lds_dest(w, in, buffer, m->bytes);
    m->lds_bytes = ld.bytes;
    m->lds_lanes = e;
    for (int l = 0; l < EMU_LANES; l++) m->lds_addr[l] = ld.base + (uint32_t)l * ld.stride;
  }
  if (vi >= in->nop) return false;
  const emu_opnd *va = &in->o[vi];
  if (buffer) {
    /* the executor's addressing and range check (emu_buffer_access); a lane is recorded when every
     * component of its access passed the check and they are contiguous (one access of m->bytes),
     * so a partly dropped or swizzled multi-dword access is not recorded rather than recorded wrong */
    emu_bufacc b;
    char why[120];
    if (!emu_buffer_access(w, in, vi, m->bytes, m->op == 'a', e, &b, why, sizeof why)) return false;
    for (int l = 0; l < EMU_LANES; l++) {
      if (!(e >> l & 1)) continue;
      if (b.in[l] != (1u << b.ncomp) - 1 || (b.swizzled && b.ncomp > 1)) m->lanes &= ~(1ull << l); /* dropped */
      m->addr[0][l] = b.addr[0][l];
    }
    m->space = 'g';
    return true;
  }
  int si = m->op == 'r' ? vi + 1 : vi + 2; /* load: vdst, vaddr, saddr; store/atomic: ..., vdata, saddr */
  bool saddr = !flat && si < in->nop && in->o[si].kind == EMU_OPK_SGPR;
  if (saddr) {
    static const uint32_t zero[EMU_LANES];
    emu_addr64(m->addr[0], emu_vreg(w, in, vi, 0), zero, emu_rd64s(w, in->o[si].reg) + (uint64_t)(int64_t)in->offset);
  } else {
    if (va->kind != EMU_OPK_VGPR || va->n < 2) return false;
    emu_addr64(m->addr[0], emu_vreg(w, in, vi, 0), emu_vreg(w, in, vi, 1), (uint64_t)(int64_t)in->offset);
  }
  m->space = 'g';
  if (flat && m->lanes) { /* the LDS aperture goes to LDS (decided by the first lane) */
    int l0 = __builtin_ctzll(m->lanes);
    if ((m->addr[0][l0] >> 32) == (EMU_PRIVATE_APERTURE >> 32)) return false; /* private memory: not observed */
    if ((m->addr[0][l0] >> 32) == (EMU_LDS_APERTURE >> 32)) {
      m->space = 'l';
      for (int l = 0; l < EMU_LANES; l++) {
        if ((m->addr[0][l] >> 32) != (EMU_LDS_APERTURE >> 32)) m->lanes &= ~(1ull << l);
        m->addr[0][l] = (uint32_t)m->addr[0][l];
      }
    }
  }
  return true;
}

/* ---- checks ----------------------------------------------------------------------------------*/
static inline int kind_index(char op) { return op == 'w' ? 0 : op == 'r' ? 1 : 2; }

/* the race check of LDS state s (a byte's, or a granule's standing for all its bytes) for byte
 * `byte` of an access x; n: the byte conflicts each finding stands for */
static inline __attribute__((always_inline)) void lds_check(emu_obs_worker *ow, lshadow *s, uint32_t byte, const acc_t *x,
                                                            uint64_t n)
{
  if (s->epoch != ow->epoch) {
    s->epoch = ow->epoch;
    s->m[0] = s->m[1] = s->m[2] = 0;
  }
  uint16_t me = (uint16_t)(1u << x->wave);
  int k = kind_index(x->op);
  /* conflicting kinds: a write with everything, a read with writes and atomics, an atomic with
   * writes and reads */
  static const bool conf[3][3] = {{1, 1, 1}, {1, 0, 1}, {1, 1, 0}};
  for (int j = 0; j < 3; j++) {
    if (!conf[k][j] || !(s->m[j] & ~me)) continue;
    const lrec *p = s->r[j][0].wave != x->wave ? &s->r[j][0] : &s->r[j][1];
    acc_t y = {p->ip, ow->wg_index, p->wave, p->step, p->lane, j == 0 ? 'w' : j == 1 ? 'r' : 'a'};
    if (ow->defer_waw && j == 0 && x->op == 'w') { /* two writes: decided once this one has run */
      if (ow->nwaw == ow->capwaw) ow->capwaw = ow->capwaw ? 2 * ow->capwaw : 64, ow->waw = ll_xrealloc(ow->waw, ow->capwaw * sizeof *ow->waw);
      ow->waw[ow->nwaw++] = (struct waw){byte, 0, y, *x};
      continue;
    }
    race_pair_n(ow, true, byte, NULL, &y, x, false, n);
  }
  lrec cur = {x->ip, x->step, (uint8_t)x->wave, (uint8_t)x->lane};
  if (!s->m[k]) s->r[k][0] = cur;
  else if (s->m[k] == (1u << s->r[k][0].wave) && x->wave != s->r[k][0].wave) s->r[k][1] = cur;
  s->m[k] |= me;
}

/* initcheck's mark of an LDS access x on byte `byte`, standing for n bytes in the same state */
static inline __attribute__((always_inline)) void lds_init(emu_obs_worker *ow, uint32_t byte, const acc_t *x, uint64_t n)
{
  if (x->op != 'w' && ow->lwr[byte] != ow->stamp) report_n(ow, EMU_HZ_UNINIT, true, byte, NULL, NULL, x, n);
  if (x->op != 'r') ow->lwr[byte] = ow->stamp;
}

/* the bytes of granule g get states of their own, the granule's (a split granule keeps them) */
static void lds_split(emu_obs_worker *ow, uint32_t g)
{
  lgran *G = &ow->lgr[g];
  if (G->split) return;
  const uint32_t g0 = g * LGRAN, gend = g0 + LGRAN < ow->lds_size ? g0 + LGRAN : ow->lds_size;
  for (uint32_t i = g0; i < gend; i++) ow->lds[i] = G->s;
  G->split = 1;
}

/* the states s and t hold the same records in effect (a state from an earlier barrier interval is
 * empty; a kind's first record counts while any wave made one, its second while two did) */
static inline bool lsh_same(const emu_obs_worker *ow, const lshadow *s, const lshadow *t)
{
  const bool es = s->epoch == ow->epoch, et = t->epoch == ow->epoch;
  for (int j = 0; j < 3; j++) {
    const uint16_t ms = es ? s->m[j] : 0, mt = et ? t->m[j] : 0;
    if (ms != mt) return false;
    for (int i = 0; i < (ms & (ms - 1) ? 2 : ms ? 1 : 0); i++) {
      const lrec *p = &s->r[j][i], *q = &t->r[j][i];
      if (p->ip != q->ip || p->step != q->step || p->wave != q->wave || p->lane != q->lane) return false;
    }
  }
  return true;
}

/* Bytes b and c of LDS would meet the same checks from one access and be left in the same state by
 * it: the same UNINIT mark, and (in a split granule) the same records in effect */
static inline bool lds_same(const emu_obs_worker *ow, uint32_t b, uint32_t c)
{
  if (ow->lwr && ow->lwr[b] != ow->lwr[c]) return false;
  return !ow->lds || lsh_same(ow, &ow->lds[b], &ow->lds[c]);
}

/* bytes [lo, hi) of LDS, in split granules or without racecheck: a run of bytes in the same state
 * as its first (lds_same) is checked once, by its first byte, whose reports count every byte of the
 * run (report_n adds the count to the report its first byte made or makes), and the others take the
 * state it was left in. A write that meets another wave's write, whose pair waits for its values
 * (defer_waw), goes byte by byte: each byte's value decides */
static void lds_runs(emu_obs_worker *ow, uint64_t lo, uint64_t hi, const acc_t *x, uint64_t n)
{
  const bool waw = ow->defer_waw && x->op == 'w' && ow->lds;
  for (uint64_t b = lo; b < hi;) {
    uint64_t e = b + 1;
    const lshadow *s = ow->lds ? &ow->lds[b] : NULL;
    if (!waw || s->epoch != ow->epoch || !(s->m[0] & ~(1u << x->wave)))
      while (e < hi && lds_same(ow, (uint32_t)b, (uint32_t)e)) e++;
    if (ow->lwr) lds_init(ow, (uint32_t)b, x, n * (e - b));
    if (ow->lds) lds_check(ow, &ow->lds[b], (uint32_t)b, x, n * (e - b));
    for (uint64_t c = b + 1; c < e; c++) {
      if (ow->lwr) ow->lwr[c] = ow->lwr[b];
      if (ow->lds) ow->lds[c] = ow->lds[b];
    }
    b = e;
  }
}

/* bytes [a, a + len) of one lane's LDS access x (n lanes alike, lds_read_lanes), those past the
 * LDS allocation skipped, as lds_check and lds_init byte by byte give them (the same reports, first
 * bytes and counts): a granule the access covers whole while its bytes are in one state and carry
 * one UNINIT mark is checked once, standing for its bytes (unless a write meets another wave's
 * write there: byte by byte, lds_runs); the bytes of other granules in runs (lds_runs), their
 * granule split first, and merged again when an access of all of it leaves them in one state */
static void lds_bytes(emu_obs_worker *ow, uint64_t a, uint32_t len, const acc_t *x, uint64_t n)
{
  const uint64_t end = a + len < ow->lds_size ? a + len : ow->lds_size;
  if (!ow->lds) {
    if (a < end) lds_runs(ow, a, end, x, n);
    return;
  }
  const bool waw = ow->defer_waw && x->op == 'w';
  for (uint64_t b = a; b < end;) {
    const uint32_t g = (uint32_t)(b / LGRAN), g0 = g * LGRAN;
    const uint64_t gend = g0 + LGRAN < ow->lds_size ? g0 + LGRAN : ow->lds_size, hi = end < gend ? end : gend;
    lgran *G = &ow->lgr[g];
    const bool whole = b == g0 && hi == gend;
    bool one = whole && !G->split && !(waw && G->s.epoch == ow->epoch && (G->s.m[0] & ~(1u << x->wave)));
    for (uint64_t i = g0 + 1; one && ow->lwr && i < gend; i++) one = ow->lwr[i] == ow->lwr[g0];
    if (one) {
      if (ow->lwr) {
        lds_init(ow, g0, x, n * (gend - g0));
        for (uint64_t i = g0 + 1; i < gend; i++) ow->lwr[i] = ow->lwr[g0];
      }
      lds_check(ow, &G->s, g0, x, n * (gend - g0));
      b = hi;
      continue;
    }
    lds_split(ow, g);
    lds_runs(ow, b, hi, x, n);
    if (whole && gend - g0 == LGRAN) {
      bool same = true;
      for (uint64_t i = g0 + 1; same && i < gend; i++) same = lsh_same(ow, &ow->lds[i], &ow->lds[g0]);
      if (same) G->s = ow->lds[g0], G->split = 0;
    }
    b = hi;
  }
}

static gbuf *find_gbuf(emu_observer *o, uint64_t a)
{
  size_t lo = 0, hi = o->ngb;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (o->gb[mid].base <= a) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  gbuf *b = &o->gb[lo - 1];
  return a - b->base < b->size ? b : NULL;
}

/* ---- ordering across workgroups: release and acquire ------------------------------------------
 * --racecheck=global runs the workgroups one after another in grid order. Two accesses of
 * different workgroups are ordered when the earlier workgroup released and the later one acquired
 * through an atomic location, as HIP's __threadfence() and atomics do it (AMDGPUUsage "Memory Model
 * GFX942", which gfx950 shares: an agent- or system-scope release is `buffer_wbl2 sc1`, an acquire
 * `buffer_inv sc1`, each with its s_waitcnt): a wave that has executed a release and then writes a
 * location atomically (an atomic, or a store) puts its workgroup, and every workgroup it is
 * itself ordered after, into the location's release set; a wave that reads a location atomically
 * (an atomic, or a load with sc1) and then executes an acquire is ordered after that set; an
 * s_barrier shares what each wave is ordered after with the others. Simplifications, each of which
 * can only hide a finding, never make one: the release covers the wave's accesses after it as well
 * as before; a location's set keeps every release ever written to it (no release sequence is
 * broken); a store counts as an atomic write and an sc1 load as an atomic read. */
/* the slot of key in a table of cap (a power of two) keys: its own, or the empty one it would take */
static size_t rs_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
  size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
  while (keys[i] && keys[i] != key) i = (i + 1) & (cap - 1);
  return i;
}

static uint64_t *rs_find(emu_obs_worker *ow, uint64_t addr, bool make)
{
  struct rs_table *t = ow->rs;
  const uint64_t key = (addr & ~3ull) + 1;
  if (t->rs_cap) {
    size_t i = rs_slot(t->rs_key, t->rs_cap, key);
    if (t->rs_key[i]) return t->rs_sets + (size_t)t->rs_at[i] * ow->words;
  }
  if (!make || t->rs_n >= t->rs_max) return NULL; /* rs_max < 2^32: rs_at holds every index */
  if (2 * (t->rs_n + 1) > t->rs_cap) { /* grow: at most half full */
    size_t cap = t->rs_cap ? 2 * t->rs_cap : 64;
    uint64_t *k = ll_xcalloc(cap, sizeof *k);
    uint32_t *at = ll_xcalloc(cap, sizeof *at);
    for (size_t j = 0; j < t->rs_cap; j++)
      if (t->rs_key[j]) {
        size_t i = rs_slot(k, cap, t->rs_key[j]);
        k[i] = t->rs_key[j], at[i] = t->rs_at[j];
      }
    free(t->rs_key), free(t->rs_at);
    t->rs_key = k, t->rs_at = at, t->rs_cap = cap;
    t->rs_sets = ll_xrealloc(t->rs_sets, cap / 2 * ow->words * 8);
  }
  size_t i = rs_slot(t->rs_key, t->rs_cap, key);
  t->rs_key[i] = key, t->rs_at[i] = (uint32_t)t->rs_n;
  uint64_t *set = t->rs_sets + t->rs_n++ * ow->words;
  memset(set, 0, ow->words * 8);
  return set;
}

static void sync_event(emu_obs_worker *ow, emu_wave *w, const emu_insn *in, const macc *m)
{
  const size_t nw = ow->words;
  uint64_t *before = ow->before + (size_t)w->wave_id * nw, *pend = ow->pend + (size_t)w->wave_id * nw;
  if (!m) {
    const char *name = op_name(in);
    if (!in->sc1) return;
    if (!strcmp(name, "buffer_wbl2")) ow->released[w->wave_id] = true;
    else if (!strcmp(name, "buffer_inv")) {
      for (size_t i = 0; i < nw; i++) before[i] |= pend[i];
      memset(pend, 0, nw * 8);
    }
    return;
  }
  if (m->space != 'g') return;
  bool reads = m->op == 'a' || (m->op == 'r' && in->sc1), writes = m->op != 'r' && ow->released[w->wave_id];
  for (int l = 0; l < EMU_LANES && (reads || writes); l++) {
    if (!(m->lanes >> l & 1)) continue;
    if (reads) {
      const uint64_t *s = rs_find(ow, m->addr[0][l], false);
      if (s)
        for (size_t i = 0; i < nw; i++) pend[i] |= s[i];
    }
    if (writes) {
      uint64_t *s = rs_find(ow, m->addr[0][l], true);
      if (s) {
        for (size_t i = 0; i < nw; i++) s[i] |= before[i];
        s[ow->wg_index / 64] |= 1ull << (ow->wg_index % 64);
      }
    }
  }
}

/* The uninitialized reads of one instruction: how many bytes, and the first one met (its address,
 * lane and buffer) */
typedef struct { uint64_t n, addr; int lane; const char *name; } uninit_acc;

/* initcheck's bitmaps are shared by the workers that run a launch's workgroups side by side (one
 * bitmap byte holds the bits of 8 bytes two workgroups may write): bits are set by atomic ORs, taken
 * only when one is still clear, and read with relaxed loads. A workgroup sees the bits of what
 * another one wrote before it in time: in a program that orders the two (an atomic, a flag), the
 * writes it reads; bytes another workgroup writes unordered (a race) may read as unwritten. */
typedef uint64_t __attribute__((may_alias)) bm_word;
static inline uint8_t bm_load(const uint8_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void bm_or(uint8_t *p, uint8_t m)
{
  if ((bm_load(p) & m) != m) __atomic_fetch_or(p, m, __ATOMIC_RELAXED);
}

/* initcheck of byte a of a global access x against every watched range (global_byte's first part) */
static void init_byte(emu_observer *o, uint64_t a, const acc_t *x, uninit_acc *u)
{
  for (size_t i = 0; i < o->nun; i++) {
    uninit_range *r = &o->un[i];
    if (!r->written || a - r->base >= r->size) continue;
    uint64_t off = a - r->base;
    if (!op_reads(x->op)) bm_or(&r->written[off / 8], (uint8_t)(1u << (off % 8)));
    else if (!(bm_load(&r->written[off / 8]) >> (off % 8) & 1) && !u->n++) u->addr = a, u->lane = x->lane, u->name = r->name;
  }
}

/* the byte states of granule g, split from its one state if they were not (a slot from the free
 * list, else a new one); NULL when the pool is at its limit (o->sp_full: the launch faults) */
static gshadow *gsplit(emu_observer *o, ggran *g)
{
  if (g->split) return &o->sp[(size_t)(g->split - 1) * GGRAN];
  size_t slot;
  if (o->nspfree) {
    slot = o->spfree[--o->nspfree];
  } else {
    if ((o->nsp + 1) * GGRAN * sizeof(gshadow) > o->sp_limit || o->nsp >= UINT32_MAX - 1) {
      o->sp_full = true;
      return NULL;
    }
    if (o->nsp == o->capsp) {
      o->capsp = o->capsp ? 2 * o->capsp : 1024;
      o->sp = ll_xrealloc(o->sp, o->capsp * GGRAN * sizeof *o->sp);
    }
    slot = o->nsp++;
  }
  gshadow *p = &o->sp[slot * GGRAN];
  for (int i = 0; i < GGRAN; i++) p[i] = g->s;
  g->split = (uint32_t)slot + 1;
  return p;
}
/* a split granule whose byte states have become one (an access of all of it) keeps it once again */
static void gmerge(emu_observer *o, ggran *g)
{
  const gshadow *p = &o->sp[(size_t)(g->split - 1) * GGRAN];
  for (int i = 1; i < GGRAN; i++)
    if (memcmp(&p[i], &p[0], sizeof *p)) return;
  g->s = p[0];
  if (o->nspfree == o->capspfree)
    o->capspfree = o->capspfree ? 2 * o->capspfree : 1024, o->spfree = ll_xrealloc(o->spfree, o->capspfree * sizeof *o->spfree);
  o->spfree[o->nspfree++] = g->split - 1;
  g->split = 0;
}

/* the race shadow s of byte a of buffer b for a global access x, standing for n bytes in the same
 * state (global_bytes) */
static void global_race(emu_obs_worker *ow, uint64_t a, const gbuf *b, const acc_t *x, gshadow *s, uint64_t n)
{
  const grec *recs[2] = {&s->w, &s->r};
  for (int j = 0; j < 2; j++) {
    const grec *r = recs[j];
    if (!r->op || (op_reads(r->op) && op_reads(x->op)) || (op_atomic(r->op) && op_atomic(x->op))) continue;
    bool other_wg = r->wg != x->wg;
    if (!other_wg && (r->wave == x->wave || r->epoch != ow->epoch)) continue;
    /* another workgroup's access this wave is ordered after by release and acquire */
    if (other_wg && ow->before && (ow->before[(size_t)x->wave * ow->words + r->wg / 64] >> (r->wg % 64) & 1)) continue;
    acc_t y = {r->ip, r->wg, r->wave, r->step, r->lane == SCALAR_LANE ? -1 : r->lane, r->op};
    race_pair_n(ow, false, a, b->name, &y, x, other_wg, n);
  }
  grec cur = {x->ip, x->wg, ow->epoch, x->step, (uint16_t)x->wave, x->lane < 0 ? SCALAR_LANE : (uint8_t)x->lane, x->op};
  if (op_reads(x->op)) s->r = cur;
  else s->w = cur;
}

/* byte a of a global access x under --racecheck=global: initcheck, then the race shadow */
static void global_byte(emu_obs_worker *ow, uint64_t a, const acc_t *x)
{
  emu_observer *o = ow->o;
  uninit_acc u = {0, 0, 0, NULL};
  init_byte(o, a, x, &u);
  if (u.n) report(ow, EMU_HZ_UNINIT, false, a, u.name, NULL, x);
  if (!o->race_global) return;
  const gbuf *b = find_gbuf(o, a);
  if (!b) return;
  const uint64_t off = a - b->base;
  gshadow *p = gsplit(o, &b->g[off / GGRAN]);
  if (p) global_race(ow, a, b, x, &p[off % GGRAN], 1);
}

/* no byte of [a, a + len) is an uninitialized read by x: x writes, or each byte lies outside every
 * watched range or was written */
static bool init_clean(const emu_observer *o, uint64_t a, uint32_t len, const acc_t *x)
{
  if (!o->nun || !op_reads(x->op)) return true;
  for (uint32_t i = 0; i < len; i++)
    for (size_t r = 0; r < o->nun; r++) {
      const uninit_range *u = &o->un[r];
      const uint64_t off = a + i - u->base;
      if (u->written && off < u->size && !(bm_load(&u->written[off / 8]) >> (off % 8) & 1)) return false;
    }
  return true;
}

/* bytes [a, a + len) of one lane's global access x under --racecheck=global, as global_byte byte by
 * byte gives them. When they lie in one buffer and none can be an uninitialized read (init_clean),
 * initcheck has no report to make (a write's bits are set), and bytes in the same shadow state meet
 * the same race checks: a granule the access covers whole while its bytes are in one state is
 * checked once, and in a split granule a run of bytes in one state is, by its first byte, whose
 * reports count every byte of the run, the others taking the state it left (a granule covered whole
 * whose bytes end in one state is merged). Otherwise byte by byte, so that an access's reports keep
 * their order. */
static void global_bytes(emu_obs_worker *ow, uint64_t a, uint32_t len, const acc_t *x)
{
  emu_observer *o = ow->o;
  const gbuf *b = find_gbuf(o, a);
  if (!b || len > b->size - (a - b->base) || !init_clean(o, a, len, x)) {
    for (uint32_t i = 0; i < len; i++) global_byte(ow, a + i, x);
    return;
  }
  if (o->nun && !op_reads(x->op)) {
    uninit_acc u = {0, 0, 0, NULL};
    for (uint32_t i = 0; i < len; i++) init_byte(o, a + i, x, &u); /* sets the bits; a write reports nothing */
  }
  const uint64_t off = a - b->base, end = off + len;
  for (uint64_t lo = off; lo < end;) {
    const uint64_t gi = lo / GGRAN, g0 = gi * GGRAN;
    const uint64_t gend = g0 + GGRAN < b->size ? g0 + GGRAN : b->size, hi = end < gend ? end : gend;
    ggran *g = &b->g[gi];
    const bool whole = lo == g0 && hi == gend;
    if (!g->split && whole) {
      global_race(ow, b->base + lo, b, x, &g->s, hi - lo);
      lo = hi;
      continue;
    }
    gshadow *p = gsplit(o, g);
    if (!p) return;
    for (uint64_t i = lo - g0; i < hi - g0;) {
      uint64_t e = i + 1;
      while (e < hi - g0 && !memcmp(&p[e], &p[i], sizeof *p)) e++;
      global_race(ow, b->base + g0 + i, b, x, &p[i], e - i);
      for (uint64_t c = i + 1; c < e; c++) p[c] = p[i];
      i = e;
    }
    if (whole && gend - g0 == GGRAN) gmerge(o, g);
    lo = hi;
  }
}

/* bits [lo, hi) of a bitmap: all set (set == false), or set them (set == true; returns true) */
static bool bits_range(uint8_t *bm, uint64_t lo, uint64_t hi, bool set)
{
  while (lo < hi && lo % 8) { /* the head, bit by bit */
    if (set) bm_or(&bm[lo / 8], (uint8_t)(1u << lo % 8));
    else if (!(bm_load(&bm[lo / 8]) >> lo % 8 & 1)) return false;
    lo++;
  }
  if (hi - lo >= 8) { /* whole bytes, eight at a time where they are aligned */
    const uint64_t nb = (hi - lo) / 8;
    uint8_t *p = bm + lo / 8;
    uint64_t i = 0;
    /* a store only where a bit is clear: a line of bits already set stays shared between workers */
    for (; i < nb && (uintptr_t)(p + i) % 8; i++)
      if (bm_load(&p[i]) != 0xff) {
        if (!set) return false;
        __atomic_store_n(&p[i], 0xff, __ATOMIC_RELAXED);
      }
    for (; i + 8 <= nb; i += 8)
      if (__atomic_load_n((const bm_word *)(const void *)(p + i), __ATOMIC_RELAXED) != ~0ull) {
        if (!set) return false;
        __atomic_store_n((bm_word *)(void *)(p + i), ~0ull, __ATOMIC_RELAXED);
      }
    for (; i < nb; i++)
      if (bm_load(&p[i]) != 0xff) {
        if (!set) return false;
        __atomic_store_n(&p[i], 0xff, __ATOMIC_RELAXED);
      }
    lo += nb * 8;
  }
  for (; lo < hi; lo++) { /* the tail */
    if (set) bm_or(&bm[lo / 8], (uint8_t)(1u << lo % 8));
    else if (!(bm_load(&bm[lo / 8]) >> lo % 8 & 1)) return false;
  }
  return true;
}

/* global_init's whole-segment path: when every lane's bytes lie in one watched range, a read
 * whose span (lowest to highest byte any lane reads) is all written has no uninitialized byte, and
 * a write whose lanes' bytes follow one another in lane order (a coalesced store) sets exactly its
 * span. Otherwise (false) the lane walk below decides, and it alone reports. */
static bool global_init_span(emu_observer *o, const macc *m, int sg, bool rd, size_t *last)
{
  if (m->scalar || !m->lanes) return false;
  const uint64_t *ad = m->addr[sg];
  uint64_t lo = UINT64_MAX, hi = 0;
  bool follow = m->lanes == ~0ull;
  if (follow) { /* every lane: the usual coalesced access first, one compare a lane */
    uint64_t miss = 0;
    for (int l = 1; l < EMU_LANES; l++) miss |= ad[l] - ad[l - 1] - m->bytes;
    follow = miss == 0 && ad[EMU_LANES - 1] > ad[0];
    if (follow) lo = ad[0], hi = ad[EMU_LANES - 1];
  }
  if (!follow) {
    uint64_t next = 0;
    bool first = true;
    follow = true;
    for (uint64_t ls = m->lanes; ls; ls &= ls - 1) {
      const uint64_t a = ad[__builtin_ctzll(ls)];
      follow = follow && (first || a == next);
      first = false, next = a + m->bytes;
      if (a < lo) lo = a;
      if (a > hi) hi = a;
    }
  }
  if (hi + m->bytes < hi) return false;
  hi += m->bytes;
  uninit_range *r = *last < o->nun ? &o->un[*last] : NULL;
  if (!r || !r->written || lo - r->base >= r->size) {
    r = NULL;
    for (size_t i = 0; i < o->nun; i++)
      if (o->un[i].written && lo - o->un[i].base < o->un[i].size) {
        r = &o->un[i], *last = i;
        break;
      }
  }
  if (!r || hi - r->base > r->size) return false;
  if (rd) return bits_range(r->written, lo - r->base, hi - r->base, false);
  if (!follow) return false;
  return bits_range(r->written, lo - r->base, hi - r->base, true);
}

/* initcheck of a global access without --racecheck=global (which walks the bytes itself, in
 * global_byte): what the byte walk finds, lane by lane, with the range that holds a lane's first
 * byte found once (the last one used, else a search) and the lane's bytes tested there together;
 * an access that does not lie in one range walks its bytes. The instruction's UNINIT reads are
 * reported at once with their byte count, named by the first in (segment, lane, byte) order, which
 * is the report the walk's first byte made (its later bytes only counted): the same finding. */
static void global_init(emu_obs_worker *ow, const macc *m, acc_t *x)
{
  emu_observer *o = ow->o;
  uninit_acc u = {0, 0, 0, NULL};
  const bool rd = op_reads(x->op);
  size_t last = 0;
  /* m's fields in locals: the bitmap stores (bytes) could alias the record for the compiler */
  const uint64_t lanes = m->lanes;
  const uint32_t bytes = m->bytes;
  const bool scalar = m->scalar;
  for (int sg = 0; sg < m->nseg; sg++) {
    if (global_init_span(o, m, sg, rd, &last)) continue;
    const uint64_t *ad = m->addr[sg];
    for (int l = 0; l < EMU_LANES; l++) {
      if (!(lanes >> l & 1)) continue;
      x->lane = scalar ? -1 : l;
      const uint64_t a = ad[l];
      uninit_range *r = last < o->nun ? &o->un[last] : NULL;
      if (!r || !r->written || a - r->base >= r->size) {
        r = NULL;
        for (size_t i = 0; i < o->nun; i++)
          if (o->un[i].written && a - o->un[i].base < o->un[i].size) {
            r = &o->un[i], last = i;
            break;
          }
      }
      if (!r) { /* the first byte in no range: the walk finds nothing unless a later byte is in one */
        bool any = false;
        for (size_t i = 0; i < o->nun && !any; i++)
          any = o->un[i].written && o->un[i].base - a < bytes;
        if (!any) continue;
      }
      const uint64_t off = r ? a - r->base : 0;
      if (!r || bytes > r->size - off) { /* in no range, or not in one: byte by byte */
        for (uint32_t b = 0; b < bytes; b++) init_byte(o, a + b, x, &u);
        continue;
      }
      /* the bits of bytes [off, off + bytes), a bitmap byte at a time */
      for (uint64_t b = off, end = off + bytes; b < end; b = (b | 7) + 1) {
        const unsigned lo = (unsigned)(b % 8), hi = end - (b & ~7ull) < 8 ? (unsigned)(end - (b & ~7ull)) : 8;
        const uint8_t mask = (uint8_t)((0xffu << lo) & (0xffu >> (8 - hi)));
        if (!rd) {
          bm_or(&r->written[b / 8], mask);
          continue;
        }
        const unsigned un = mask & (uint8_t)~bm_load(&r->written[b / 8]);
        if (!un) continue;
        if (!u.n) u.addr = r->base + (b & ~7ull) + (unsigned)__builtin_ctz(un), u.lane = x->lane, u.name = r->name;
        for (unsigned t = un; t; t &= t - 1) u.n++; /* at most 8 (no popcnt in the base build's target) */
      }
    }
  }
  if (u.n) {
    x->lane = u.lane;
    report_n(ow, EMU_HZ_UNINIT, false, u.addr, u.name, NULL, x, u.n);
  }
}

/* One segment of an LDS read by a wave: lanes that read the same address meet the same checks on
 * each of its bytes (a read changes a byte's state only for the first of them: the wave's bit and,
 * for the wave's first read of the byte, its record; the conflicts it meets are other waves'
 * accesses, which its own lanes do not change), so each address is checked once, by its first
 * lane in lane order, and every report it makes counts the lanes that read it. The reports are
 * those of the lane-by-lane walk, with the same first access and the same counts: 16 lanes
 * reading one element of a tile (a broadcast) cost one lane's check, not 16. */
static void lds_read_lanes(emu_obs_worker *ow, const macc *m, int sg, acc_t *x)
{
  enum { SLOTS = 128 };            /* open addressing over the 64 lanes' addresses */
  uint64_t key[SLOTS];             /* address + 1; 0 empty */
  uint8_t at[SLOTS], mult[EMU_LANES];
  memset(key, 0, sizeof key);
  for (int l = 0; l < EMU_LANES; l++) {
    mult[l] = 0;
    if (!(m->lanes >> l & 1)) continue;
    const uint64_t k = m->addr[sg][l] + 1;
    unsigned h = (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 57);
    while (key[h] && key[h] != k) h = (h + 1) & (SLOTS - 1);
    if (key[h]) {
      mult[at[h]]++;
      continue;
    }
    key[h] = k, at[h] = (uint8_t)l, mult[l] = 1;
  }
  for (int l = 0; l < EMU_LANES; l++) {
    if (!mult[l]) continue;
    x->lane = l;
    const uint64_t a = m->addr[sg][l];
    lds_bytes(ow, a, m->bytes, x, mult[l]);
  }
}

/* heapcheck of an instruction's global (or scalar) accesses: the bytes of the device heap outside
 * every live block, one report standing for all of them, named by the first (emu_observer_heap) */
static void heap_check(emu_obs_worker *ow, emu_wave *w, const emu_insn *in, const macc *m, uint32_t step)
{
  const emu_observer *o = ow->o;
  const uint64_t lo = o->heap_base, hi = o->heap_base + o->heap_size;
  uint64_t nbad = 0, first = 0;
  int lane = 0;
  for (int sg = 0; sg < m->nseg; sg++)
    for (int l = 0; l < EMU_LANES; l++) {
      const uint64_t a = m->addr[sg][l];
      if (!(m->lanes >> l & 1) || a >= hi || a + m->bytes <= lo) continue;
      for (uint32_t i = 0; i < m->bytes; i++) {
        const uint64_t off = a + i - lo;
        if (off < o->heap_size && !(bm_load(&o->heap_live[off / 8]) >> (off % 8) & 1) && !nbad++)
          first = a + i, lane = m->scalar ? -1 : l;
      }
    }
  if (!nbad) return;
  acc_t x = {(uint32_t)(in - w->insns), ow->wg_index, w->wave_id, step, lane, m->op};
  report_n(ow, EMU_HZ_HEAP, false, first, "device heap", NULL, &x, nbad);
}

static void check(emu_obs_worker *ow, emu_wave *w, const emu_insn *in, const macc *m, uint32_t step)
{
  emu_observer *o = ow->o;
  bool lds = m->space == 'l', lds_watched = ow->lds || ow->lwr;
  acc_t x = {(uint32_t)(in - w->insns), ow->wg_index, w->wave_id, step, 0, m->op};
  if (m->lds_bytes && lds_watched) { /* a load to LDS: its LDS write, recorded at issue (docs/trace.md) */
    acc_t y = x;
    y.op = 'w';
    for (int l = 0; l < EMU_LANES; l++) {
      if (!(m->lds_lanes >> l & 1)) continue;
      y.lane = l;
      lds_bytes(ow, m->lds_addr[l], m->lds_bytes, &y, 1);
    }
  }
  if (lds ? !lds_watched : !(o->race_global || o->nun)) return;
  if (!lds && m->op == 'r' && in->sc1 && !m->lds_bytes) x.op = 'l'; /* an atomic load (op_reads) */
  if (!lds && m->op == 'w' && in->sc1) x.op = 's';                      /* an atomic store */
  if (!lds && !o->race_global) {
    global_init(ow, m, &x);
    return;
  }
  for (int sg = 0; sg < m->nseg; sg++) {
    if (lds && x.op == 'r') {
      lds_read_lanes(ow, m, sg, &x);
      continue;
    }
    for (int l = 0; l < EMU_LANES; l++) {
      if (!(m->lanes >> l & 1)) continue;
      x.lane = m->scalar ? -1 : l;
      uint64_t a = m->addr[sg][l];
      if (lds) {
        lds_bytes(ow, a, m->bytes, &x, 1);
        continue;
      }
      global_bytes(ow, a, m->bytes, &x);
    }
  }
}

/* ---- LDS ordering --------------------------------------------------------------------------------
 * An LDS write still outstanding (a DS store or atomic its wave has not waited for with s_waitcnt
 * lgkmcnt; a load to LDS, or a flat store or atomic to LDS, not waited for with s_waitcnt vmcnt)
 * lands at some time between its issue and the s_waitcnt that retires it: the emulator writes LDS
 * at issue, the hardware promises nothing sooner than the wait. Another wave of the workgroup is
 * ordered after it only by an s_barrier that follows that wait (AMDGPUUsage "Memory Model GFX942":
 * a workgroup release is s_waitcnt then s_barrier; CDNA3 ISA "S_BARRIER" waits for the waves, not
 * for their memory operations). So another wave's access to those bytes while the write is
 * outstanding, or after its wait with no s_barrier since, is a finding; so is the writer's own DS
 * or flat access to the bytes of its own load to LDS before the vmcnt wait (the vector-memory path
 * that writes them is not ordered with the wave's LDS instructions). An s_barrier reached with the
 * write outstanding is no finding by itself (software pipelining: the tile loaded now is read
 * after a later wait and a later barrier). A finding is a memory-model warning naming both
 * instructions, or a fault under strict_memory; nothing here changes the machine.
 * docs/emulator-choices.md "Memory-model strictness".
 *
 * Bookkeeping: a write is known by the writer's wave, counter, lane, instruction and its place in
 * the counter's in-order sequence (emu_wave.pseq). It is retired when seq <= the writer's
 * pret[cnt], and safe when it was retired before the last s_barrier released the workgroup (safe[],
 * taken at each release). Cost, in three steps: nothing is looked at while every write is safe (in
 * code that waits before each barrier, only the window between a write and the next barrier is
 * not); then a mask per 256-byte granule of the waves and counters that wrote there lets an access
 * that meets none of the writes that could be findings go on; only then are the writes copied into
 * per-byte records (the last write of each byte) and the access's bytes checked. Writes that are
 * all safe at a barrier before any access needed them are dropped uncopied. A workgroup of one
 * wave records only its loads to LDS. */
#define LR_IP_NONE 0x1fffffu /* the instruction index does not fit the record's 21 bits */

/* The instruction's LDS bytes: per lane in `lanes`, nseg accesses of `bytes` at addr[seg][lane]. */
typedef struct {
  char op;                 /* 'r', 'w', 'a' */
  uint8_t cnt;             /* a write's counter: EMU_CNT_DS, or EMU_CNT_VM (loads to LDS, flat) */
  bool loadlds;
  int nseg;
  uint32_t bytes;
  uint64_t lanes;
  uint32_t addr[2][EMU_LANES];
  uint32_t g0[2], g1[2];   /* per access: the granules [g0, g1) between its lowest and highest byte */
  bool span;               /* mn/mx hold each access's lowest and highest address (every lane on) */
  uint32_t mn[2], mx[2];
} lside;

/* A write recorded but not yet copied into the per-byte records: copied when an access may meet
 * it (ldso_flush), dropped when a barrier finds every write safe (then no record of it could be a
 * finding). Writes that are staged, waited for and published by a barrier before anyone else
 * touches them (the common case) thus cost their addresses, not 8 bytes per byte written. */
typedef struct { uint64_t base; lside s; } ldso_batch;
#define LDSO_BATCHES 64

struct emu_ldso {
  uint64_t *sh;            /* per LDS byte: seq | ip << 32 | lane << 53 | (wave * 2 + cnt) << 59; 0 none */
  uint32_t size, nwaves;
  uint32_t lo, hi;         /* the bytes recorded in this workgroup: [lo, hi) */
  uint32_t *gm;            /* per 256-byte granule of LDS: the slots (bit wave * 2 + cnt) that recorded
                              a write between its lowest and highest byte since every write was last
                              safe; a filter: an access whose granules meet none of the slots that can
                              give a finding skips the records */
  uint32_t glo, ghi;       /* granules with bits: [glo, ghi) */
  ldso_batch *batch;       /* writes not yet in sh, oldest first */
  int nbatch;
  const emu_wave *waves;
  uint32_t safe[32];       /* per wave * 2 + cnt: the seqs retired before the last s_barrier release */
  uint32_t last[32];       /* per wave * 2 + cnt: the seq of the last LDS write recorded */
  uint32_t ibar[32];       /* per wave * 2 + cnt: pseq at the last barrier release (later seqs were
                              issued in the current barrier interval) */
  bool defer;              /* racecheck is on: another wave's access in the write's own barrier
                              interval is its race (RAW/WAW, "no s_barrier between"), not reported here */
  bool unsafe;             /* some last > safe */
  uint32_t hotx;           /* bit k: slot k's last write can be a finding for another wave's access,
                              min(last, defer ? ibar : max) > safe (ldso_check's test for the slots
                              not its own), kept up to date where last, safe and ibar change */
};

emu_ldso *emu_ldso_new(uint32_t lds_size, uint32_t nwaves, bool racecheck)
{
  emu_ldso *lo = ll_xcalloc(1, sizeof *lo);
  lo->defer = racecheck;
  lo->sh = ll_xcalloc(lds_size ? lds_size : 1, sizeof *lo->sh);
  lo->gm = ll_xcalloc(lds_size / 256 + 1, sizeof *lo->gm);
  lo->batch = ll_xmalloc(LDSO_BATCHES * sizeof *lo->batch);
  lo->size = lds_size;
  lo->nwaves = nwaves > 16 ? 16 : nwaves; /* 1024 work-items: 16 waves at most */
  lo->lo = lo->glo = UINT32_MAX;
  return lo;
}

void emu_ldso_free(emu_ldso *lo)
{
  if (!lo) return;
  free(lo->sh);
  free(lo->gm);
  free(lo->batch);
  free(lo);
}

static void gm_clear(emu_ldso *lo)
{
  if (lo->ghi > lo->glo) memset(lo->gm + lo->glo, 0, (size_t)(lo->ghi - lo->glo) * sizeof *lo->gm);
  lo->glo = UINT32_MAX, lo->ghi = 0;
}

void emu_ldso_wg_begin(emu_ldso *lo, const emu_wave *waves)
{
  if (lo->hi > lo->lo) memset(lo->sh + lo->lo, 0, (size_t)(lo->hi - lo->lo) * sizeof *lo->sh);
  lo->lo = UINT32_MAX, lo->hi = 0;
  lo->nbatch = 0;
  gm_clear(lo);
  lo->waves = waves;
  memset(lo->safe, 0, sizeof lo->safe);
  memset(lo->last, 0, sizeof lo->last);
  memset(lo->ibar, 0, sizeof lo->ibar);
  lo->unsafe = false;
  lo->hotx = 0;
}

/* bit k of emu_ldso.hotx from last[k], safe[k] and ibar[k] */
static inline uint32_t hot_bit(const emu_ldso *lo, uint32_t k)
{
  uint32_t top = lo->defer ? lo->ibar[k] : UINT32_MAX;
  return (uint32_t)((lo->last[k] < top ? lo->last[k] : top) > lo->safe[k]) << k;
}

void emu_ldso_barrier(emu_ldso *lo)
{
  bool unsafe = false;
  uint32_t hotx = 0;
  for (uint32_t k = 0; k < 2 * lo->nwaves; k++) {
    lo->safe[k] = lo->waves[k >> 1].pret[k & 1];
    lo->ibar[k] = lo->waves[k >> 1].pseq[k & 1];
    unsafe |= lo->last[k] > lo->safe[k];
    hotx |= hot_bit(lo, k);
  }
  lo->unsafe = unsafe;
  lo->hotx = hotx;
  if (!unsafe) gm_clear(lo), lo->nbatch = 0; /* every write is safe: no record of one can be a finding */
}


static bool lds_side(emu_wave *w, const emu_insn *in, lside *s)
{
  uint64_t e = emu_exec(w);
  if (!e) return false;
  s->lanes = e;
  s->loadlds = false;
  s->span = false;
  if (in->lk == EMU_LK_DS || in->lk == EMU_LK_DS2) {
    const uint32_t *a = emu_vreg(w, in, in->lai, 0);
    s->op = (char)in->lop, s->cnt = EMU_CNT_DS, s->bytes = in->lbytes;
    s->nseg = in->lk == EMU_LK_DS2 ? 2 : 1;
    if (e == ~0ull) { /* every lane: the addresses and their span in one pass (emu/simd.c) */
      s->span = true;
      for (int sg = 0; sg < s->nseg; sg++)
        emu_add_minmax64(s->addr[sg], a, sg ? in->loff1 : in->loff0, &s->mn[sg], &s->mx[sg]);
      return true;
    }
    for (int l = 0; l < EMU_LANES; l++) s->addr[0][l] = a[l] + in->loff0;
    if (s->nseg == 2)
      for (int l = 0; l < EMU_LANES; l++) s->addr[1][l] = a[l] + in->loff1;
    return true;
  }
  if (in->lk == EMU_LK_LOADLDS) { /* the LDS side of the load, as emu/op_mem.c writes it */
    emu_lds_dest d = emu_load_lds_dest(w, in, starts(in->mnem, "buffer_"), in->lbytes);
    s->op = 'w', s->cnt = EMU_CNT_VM, s->bytes = d.bytes, s->nseg = 1, s->loadlds = true;
    for (int l = 0; l < EMU_LANES; l++) s->addr[0][l] = d.base + (uint32_t)l * d.stride;
    return true;
  }
  if (in->lk == EMU_LK_FLAT) { /* LDS when the address is in the LDS aperture (classify) */
    macc m;
    m.lds_bytes = 0, m.lds_lanes = 0;
    if (!classify(w, in, &m) || m.space != 'l' || !m.lanes) return false;
    s->op = m.op, s->cnt = EMU_CNT_VM, s->bytes = m.bytes, s->nseg = 1, s->lanes = m.lanes;
    for (int l = 0; l < EMU_LANES; l++) s->addr[0][l] = (uint32_t)m.addr[0][l];
    return true;
  }
  return false;
}

/* The granules [*g0, *g1) segment sg of s touches (clipped to the LDS; empty if none): min and max
 * over the lanes, whole-wave (emu_minmax64) for the common full EXEC. */
static void seg_granules(const emu_ldso *lo, const lside *s, int sg, uint32_t *g0, uint32_t *g1)
{
  uint32_t amin = UINT32_MAX, amax = 0;
  const uint32_t *a = s->addr[sg];
  if (s->span) {
    amin = s->mn[sg], amax = s->mx[sg];
  } else if (s->lanes == ~0ull) {
    emu_minmax64(a, &amin, &amax);
  } else {
    for (int l = 0; l < EMU_LANES; l++)
      if (s->lanes >> l & 1) amin = a[l] < amin ? a[l] : amin, amax = a[l] > amax ? a[l] : amax;
  }
  uint64_t end = (uint64_t)amax + s->bytes;
  if (end > lo->size) end = lo->size;
  if (amin >= end) {
    *g0 = *g1 = 0;
    return;
  }
  *g0 = amin >> 8, *g1 = (uint32_t)((end - 1) >> 8) + 1;
}

static const char *cnt_name(unsigned c) { return c == EMU_CNT_VM ? "vmcnt" : "lgkmcnt"; }

/* Nonzero unless p[0..n) all equal r (the access sizes as constants, so the loop is vectorized). */
static inline __attribute__((always_inline)) uint64_t rec_diff(const uint64_t *p, uint64_t r, uint32_t n)
{
  uint64_t d = 0;
  switch (n) {
  case 4: for (int b = 0; b < 4; b++) d |= p[b] ^ r; break;
  case 8: for (int b = 0; b < 8; b++) d |= p[b] ^ r; break;
  case 16: for (int b = 0; b < 16; b++) d |= p[b] ^ r; break;
  default: for (uint32_t b = 0; b < n; b++) d |= p[b] ^ r;
  }
  return d;
}

/* n copies of r from p: the access sizes as constants, so the stores are unrolled and vectorized */
static inline __attribute__((always_inline)) void fill_rec(uint64_t *p, uint64_t r, uint32_t n)
{
  switch (n) {
  case 4: for (int b = 0; b < 4; b++) p[b] = r; break;
  case 8: for (int b = 0; b < 8; b++) p[b] = r; break;
  case 16: for (int b = 0; b < 16; b++) p[b] = r; break;
  default: for (uint32_t b = 0; b < n; b++) p[b] = r;
  }
}

/* The deferred writes into the per-byte records, in order (the last write of a byte wins). */
static void ldso_flush(emu_ldso *lo)
{
  uint64_t *sh = lo->sh;
  for (int i = 0; i < lo->nbatch; i++) {
    const ldso_batch *bt = &lo->batch[i];
    const lside *s = &bt->s;
    uint32_t amin = UINT32_MAX, amax = 0;
    for (int sg = 0; sg < s->nseg; sg++)
      for (int l = 0; l < EMU_LANES; l++) {
        if (!(s->lanes >> l & 1)) continue;
        uint32_t a = s->addr[sg][l];
        if (a >= lo->size || s->bytes > lo->size - a) continue; /* the handler faulted on it */
        fill_rec(sh + a, bt->base | (uint64_t)l << 53, s->bytes);
        if (a < amin) amin = a;
        if (a + s->bytes > amax) amax = a + s->bytes;
      }
    if (amin < lo->lo) lo->lo = amin;
    if (amax > lo->hi) lo->hi = amax;
  }
  lo->nbatch = 0;
}

/* An atomic update against a record an atomic update left: no finding. Each DS (or flat LDS) atomic
 * is one indivisible read-modify-write in the LDS (LLVM lowers a workgroup-scope atomicrmw on
 * local memory to the one ds_ instruction: AMDGPUUsage, "Memory Model GFX942"), so two waves'
 * atomics on a word are ordered by nothing and need nothing: a shared-memory histogram's
 * atomicAdd from every wave. A plain read or write against an outstanding atomic, or an atomic
 * against an outstanding plain write, still is a finding. */
static bool atomic_pair(const emu_wave *w, const lside *s, uint64_t r)
{
  uint32_t ip = (uint32_t)(r >> 32) & LR_IP_NONE;
  return s->op == 'a' && ip != LR_IP_NONE && ip < w->ninsn && w->insns[ip].lop == 'a';
}

/* Before the instruction runs: its LDS bytes against the records of writes not yet safe. */
static int ldso_check(emu_ldso *lo, emu_wave *w, const emu_insn *in, const lside *s)
{
  uint32_t me = w->wave_id, thr[32], top[32], n2 = 2 * lo->nwaves;
  /* the slots with a record that can be a finding (hot), and whether this access meets one's
   * granules; the bounds are filled only past those two filters. The other waves' slots: hotx;
   * the wave's own: its vector memory slot (below) against its DS/flat access, its DS slot never */
  uint32_t nmask = n2 >= 32 ? ~0u : (1u << n2) - 1, own = me < 16 ? 3u << 2 * me : 0;
  uint32_t hot = lo->hotx & nmask & ~own, met = 0;
  if (own && 2 * me < n2 && !s->loadlds)
    hot |= (uint32_t)(lo->last[2 * me + EMU_CNT_VM] > w->pret[EMU_CNT_VM]) << (2 * me + EMU_CNT_VM);
  if (!hot) return EMU_OK;
  for (int sg = 0; sg < s->nseg; sg++)
    for (uint32_t g = s->g0[sg]; g < s->g1[sg]; g++) met |= lo->gm[g];
  if (!(met & hot)) return EMU_OK;
  for (uint32_t k = 0; k < n2; k++) {
    top[k] = lo->defer && k >> 1 != me ? lo->ibar[k] : UINT32_MAX;
    if (k >> 1 != me) thr[k] = lo->safe[k];
    /* the wave's own load to LDS not yet waited for, against its DS/flat access (a later load to
     * LDS of the same wave lands after it: vmcnt returns in order) */
    else if ((k & 1) == EMU_CNT_VM && !s->loadlds) thr[k] = w->pret[EMU_CNT_VM];
    else thr[k] = UINT32_MAX;
  }
  for (uint32_t k = n2; k < 32; k++) thr[k] = top[k] = UINT32_MAX;
  ldso_flush(lo);
  const uint64_t *sh = lo->sh;
  uint64_t found = 0, nbytes = 0;
  uint32_t fa = 0;
  int fl = -1;
  for (int sg = 0; sg < s->nseg; sg++)
    for (int l = 0; l < EMU_LANES; l++) {
      if (!(s->lanes >> l & 1)) continue;
      uint64_t a = s->addr[sg][l];
      uint32_t n = s->bytes;
      if (a + n > lo->size) n = a >= lo->size ? 0 : lo->size - (uint32_t)a; /* the handler faults there */
      if (!n) continue;
      /* the common case: the lane's bytes carry one record (one write wrote them all) */
      const uint64_t *p = sh + a;
      uint64_t r0 = p[0];
      if (!rec_diff(p, r0, n)) {
        if ((uint32_t)r0 <= thr[r0 >> 59] || (uint32_t)r0 > top[r0 >> 59] || atomic_pair(w, s, r0)) continue;
        if (!found) found = r0, fa = (uint32_t)a, fl = l;
        nbytes += n;
        continue;
      }
      for (uint32_t b = 0; b < n; b++) {
        uint64_t r = p[b];
        if ((uint32_t)r <= thr[r >> 59] || (uint32_t)r > top[r >> 59] || atomic_pair(w, s, r)) continue;
        if (!found) found = r, fa = (uint32_t)(a + b), fl = l;
        nbytes++;
      }
    }
  if (!found) return EMU_OK;
  uint32_t seq = (uint32_t)found, ip = (uint32_t)(found >> 32) & LR_IP_NONE;
  unsigned lane = (unsigned)(found >> 53) & 63, slot = (unsigned)(found >> 59), wv = slot >> 1, c = slot & 1;
  const emu_wave *ww = &lo->waves[wv];
  bool outstanding = seq > ww->pret[c];
  char wr[200];
  if (ip != LR_IP_NONE && ip < w->ninsn)
    snprintf(wr, sizeof wr, "pc 0x%llx '%s'", (unsigned long long)w->insns[ip].pc,
             w->insns[ip].text ? w->insns[ip].text : w->insns[ip].mnem);
  else
    snprintf(wr, sizeof wr, "an instruction past the record's index range");
  const char *verb = s->loadlds ? "loads to" : s->op == 'r' ? "reads" : s->op == 'w' ? "writes" : "updates";
  const char *k = "unordered LDS access";
  unsigned long long nb = (unsigned long long)nbytes;
  if (wv == me)
    return emu_memwarn(w, in, k, fl, fa,
                       "%s LDS byte 0x%x (%llu bytes) that this wave's load to LDS at %s lane %u writes, not yet "
                       "waited for with s_waitcnt vmcnt: the load lands at an unknown time before that wait",
                       verb, fa, nb, wr, lane);
  if (outstanding)
    return emu_memwarn(w, in, k, fl, fa,
                       "%s LDS byte 0x%x (%llu bytes) that wave %u lane %u writes at %s, not yet waited for with "
                       "s_waitcnt %s: it lands at an unknown time before that wait, and other waves see it only "
                       "after an s_barrier that follows the wait",
                       verb, fa, nb, wv, lane, wr, cnt_name(c));
  return emu_memwarn(w, in, k, fl, fa,
                     "%s LDS byte 0x%x (%llu bytes) that wave %u lane %u wrote at %s, waited for (s_waitcnt %s) "
                     "but with no s_barrier since: other waves see it only after an s_barrier that follows the wait",
                     verb, fa, nb, wv, lane, wr, cnt_name(c));
}

/* After the instruction ran: its LDS writes recorded under the counter entry it just added (their
 * granules at once, the bytes deferred). */
static void ldso_record(emu_ldso *lo, emu_wave *w, const emu_insn *in, const lside *s, uint32_t seq)
{
  uint32_t ii = in >= w->insns && in < w->insns + w->ninsn ? (uint32_t)(in - w->insns) : LR_IP_NONE;
  if (ii > LR_IP_NONE) ii = LR_IP_NONE;
  uint32_t slot = (w->wave_id & 15) * 2 + s->cnt;
  for (int sg = 0; sg < s->nseg; sg++) {
    uint32_t g0 = s->g0[sg], g1 = s->g1[sg];
    for (uint32_t g = g0; g < g1; g++) lo->gm[g] |= 1u << slot;
    if (g0 < g1 && g0 < lo->glo) lo->glo = g0;
    if (g1 > lo->ghi) lo->ghi = g1;
  }
  ldso_batch *bt;
  if (s == &lo->batch[lo->nbatch].s) { /* built in the batch's next entry (ldso_exec): no copy */
    bt = &lo->batch[lo->nbatch++];
  } else {
    if (lo->nbatch == LDSO_BATCHES) ldso_flush(lo);
    bt = &lo->batch[lo->nbatch++];
    bt->s.op = s->op, bt->s.cnt = s->cnt, bt->s.loadlds = s->loadlds;
    bt->s.nseg = s->nseg, bt->s.bytes = s->bytes, bt->s.lanes = s->lanes;
    memcpy(bt->s.addr, s->addr, (size_t)s->nseg * sizeof s->addr[0]);
  }
  bt->base = seq | (uint64_t)ii << 32 | (uint64_t)slot << 59;
  lo->last[slot] = seq;
  lo->hotx = (lo->hotx & ~(1u << slot)) | hot_bit(lo, slot);
  lo->unsafe = true;
}

/* emu_ldso_exec past its idle test. The access's LDS side is built where a recorded write would be
 * copied to, the batch's next entry, while there is one (ldso_check may flush the batch meanwhile:
 * then ldso_record copies it as before). */
static __attribute__((noinline)) int ldso_exec(emu_ldso *lo, emu_obs_worker *ow, emu_wave *w, const emu_insn *in)
{
  lside local, *sp = lo->nbatch < LDSO_BATCHES ? &lo->batch[lo->nbatch].s : &local;
  if (!lds_side(w, in, sp)) return ow ? emu_obs_exec(ow, w, in) : in->fn(w, in);
  for (int sg = 0; sg < sp->nseg; sg++) seg_granules(lo, sp, sg, &sp->g0[sg], &sp->g1[sg]);
  if (lo->unsafe && ldso_check(lo, w, in, sp) != EMU_OK) return EMU_FAULT;
  bool writes = sp->op != 'r' && !(lo->nwaves == 1 && sp->cnt == EMU_CNT_DS); /* one wave: its DS writes are in order */
  uint8_t cnt = sp->cnt;
  uint32_t before = w->pseq[cnt];
  int rc = ow ? emu_obs_exec(ow, w, in) : in->fn(w, in);
  /* recorded under the counter entry the handler added; none added (nothing outstanding): no record */
  if (rc == EMU_OK && writes && w->pseq[cnt] != before) ldso_record(lo, w, in, sp, w->pseq[cnt]);
  return rc;
}

int emu_ldso_exec(emu_ldso *lo, emu_obs_worker *ow, emu_wave *w, const emu_insn *in)
{
  /* nothing to check (no write is unsafe) and nothing to record (a read; a DS write of a
   * workgroup of one wave, which its own later DS accesses follow in order): the handler, as a
   * tail call without the body's frame (most DS reads of the attention kernels) */
  bool idle = !lo->unsafe && (in->lop == 'r' || (lo->nwaves == 1 && in->lk != EMU_LK_LOADLDS && in->lk != EMU_LK_FLAT));
  if (idle) return ow ? emu_obs_exec(ow, w, in) : in->fn(w, in);
  return ldso_exec(lo, ow, w, in);
}

bool emu_ldso_idle(const emu_ldso *lo) { return !lo->unsafe; }

bool emu_ldso_writes_retired(const emu_ldso *lo, const emu_wave *w)
{
  uint32_t me = (w->wave_id & 15) * 2; /* ldso_record's slot */
  return lo->last[me + EMU_CNT_DS] <= w->pret[EMU_CNT_DS] && lo->last[me + EMU_CNT_VM] <= w->pret[EMU_CNT_VM];
}

/* ---- tracing ---------------------------------------------------------------------------------*/
static bool selected(emu_obs_worker *ow, const emu_wave *w, const emu_insn *in)
{
  const trace_spec *t = &ow->o->ts;
  if (!t->any_wg && (ow->wg_index < t->wg.lo || ow->wg_index > t->wg.hi)) return false;
  if (!t->any_wave && (w->wave_id < t->wave.lo || w->wave_id > t->wave.hi)) return false;
  for (size_t i = 0; i < t->npcs; i++)
    if (in->pc >= t->pcs[i].lo && in->pc <= t->pcs[i].hi) return true;
  const char *name = op_name(in);
  for (size_t i = 0; i < t->nglob; i++)
    if (fnmatch(t->glob[i], name, 0) == 0 || fnmatch(t->glob[i], in->mnem, 0) == 0) return true;
  return false;
}

/* Operand i is written by the instruction: operand 0 of loads, returning atomics and ALU ops
 * (except compares into SCC, branches and s_setpc), operand 1 of carry-out ALU ops. */
static bool is_dst(const emu_insn *in, int i)
{
  const char *name = op_name(in);
  uint32_t f = in->flags;
  if (f & (EMU_F_DS | EMU_F_VMEM | EMU_F_SMEM)) {
    if (i != 0) return false;
    if (in->lds || strstr(name, "_load_lds_")) return false; /* loads to LDS: operand 0 is the vaddr */
    if (f & EMU_F_LOAD) return true;
    if (starts(name, "ds_")) return strstr(name, "_rtn") != NULL;
    if (strstr(name, "_atomic_")) return starts(name, "buffer_") ? (in->sc0 || in->glc) : (in->sc0 || in->glc);
    return false;
  }
  if (i == 1) return (f & EMU_F_CARRY) != 0;
  if (i != 0) return false;
  return !(starts(name, "s_cmp") || starts(name, "s_bitcmp") || starts(name, "s_cbranch") ||
           starts(name, "s_setpc") || starts(name, "s_branch") || starts(name, "s_waitcnt"));
}

static void opnd_name(const emu_opnd *op, char *buf, size_t n)
{
  char c = op->kind == EMU_OPK_VGPR ? 'v' : op->kind == EMU_OPK_AGPR ? 'a' : 's';
  if (op->kind == EMU_OPK_SGPR && op->reg >= EMU_NSGPR_GP) {
    const char *s = op->reg == EMU_S_VCC ? "vcc" : op->reg == EMU_S_EXEC ? "exec" : op->reg == EMU_S_M0 ? "m0" : NULL;
    if (s) {
      snprintf(buf, n, "%s", s);
      return;
    }
  }
  if (op->n <= 1) snprintf(buf, n, "%c%u", c, op->reg);
  else snprintf(buf, n, "%c[%u:%u]", c, op->reg, op->reg + op->n - 1);
}

static uint32_t *opnd_regs(emu_wave *w, const emu_opnd *op, size_t *count)
{
  size_t n = op->n ? op->n : 1;
  if (op->kind == EMU_OPK_SGPR) {
    if (op->reg + n > EMU_NSFILE) return NULL;
    *count = n;
    return w->s + op->reg;
  }
  uint32_t *base = op->kind == EMU_OPK_VGPR ? w->v : w->a;
  uint32_t first = op->kind == EMU_OPK_VGPR ? op->reg : (uint32_t)(w->a - w->v) / EMU_LANES + op->reg;
  if (first + n > w->nv) return NULL;
  *count = n * EMU_LANES;
  return base + (size_t)op->reg * EMU_LANES;
}

static emu_trace_rec *trace_begin(emu_obs_worker *ow, emu_wave *w, const emu_insn *in, const macc *m, uint32_t step)
{
  emu_observer *o = ow->o;
  if (o->ts.first && o->seq >= o->ts.first) return NULL;
  if (o->nrec >= o->max_records) {
    o->truncated = true;
    return NULL;
  }
  emu_trace_rec *r = ll_xcalloc(1, sizeof *r);
  r->seq = o->seq++;
  const emu_dispatch *d = o->d;
  r->wg_index = ow->wg_index;
  r->wg[0] = ow->wg_index % d->grid[0];
  r->wg[1] = (ow->wg_index / d->grid[0]) % d->grid[1];
  r->wg[2] = ow->wg_index / (d->grid[0] * d->grid[1]);
  r->wave = w->wave_id;
  r->step = step;
  r->interval = ow->interval;
  r->pc = in->pc;
  r->exec = emu_exec(w);
  r->text = ll_xstrdup(in->text ? in->text : in->mnem);
  char src[320];
  if (o->d && o->d->co && emu_codeobj_srcline(o->d->co, in->pc, src, sizeof src)) r->src = ll_xstrdup(src);
  r->mnem = ll_xstrdup(in->mnem);
  for (int i = 0; i < in->nop && r->nop < 6; i++) {
    const emu_opnd *op = &in->o[i];
    if (op->kind != EMU_OPK_VGPR && op->kind != EMU_OPK_AGPR && op->kind != EMU_OPK_SGPR) continue;
    size_t cnt = 0;
    uint32_t *src = opnd_regs(w, op, &cnt);
    if (!src) continue;
    emu_trace_opnd *t = &r->op[r->nop++];
    opnd_name(op, t->name, sizeof t->name);
    t->kind = op->kind == EMU_OPK_VGPR ? 'v' : op->kind == EMU_OPK_AGPR ? 'a' : 's';
    t->reg = op->reg;
    t->n = op->n ? op->n : 1;
    t->index = (uint8_t)i;
    t->dst = is_dst(in, i);
    t->before = ll_xmalloc(cnt * 4);
    memcpy(t->before, src, cnt * 4);
  }
  if (m->space) {
    r->space = m->space;
    r->access = m->op;
    r->bytes = m->bytes;
    r->naddr = m->nseg;
    for (int s = 0; s < m->nseg; s++)
      for (int l = 0; l < EMU_LANES; l++) r->addr[s][l] = (m->lanes >> l & 1) ? m->addr[s][l] : 0;
    r->lds_bytes = m->lds_bytes;
    if (m->lds_bytes)
      for (int l = 0; l < EMU_LANES; l++) r->lds_addr[l] = (m->lds_lanes >> l & 1) ? m->lds_addr[l] : 0;
  }
  return r;
}

static void trace_end(emu_obs_worker *ow, emu_wave *w, const emu_insn *in, emu_trace_rec *r)
{
  emu_observer *o = ow->o;
  for (size_t i = 0; i < r->nop; i++) {
    emu_trace_opnd *t = &r->op[i];
    if (!t->dst) continue;
    size_t cnt = 0;
    uint32_t *src = opnd_regs(w, &in->o[t->index], &cnt);
    if (!src) continue;
    t->after = ll_xmalloc(cnt * 4);
    memcpy(t->after, src, cnt * 4);
  }
  pthread_mutex_lock(&o->mu);
  if (o->nrec == o->caprec) o->rec = ll_xrealloc(o->rec, (o->caprec = o->caprec ? 2 * o->caprec : 64) * sizeof *o->rec);
  o->rec[o->nrec++] = r;
  pthread_mutex_unlock(&o->mu);
}

bool emu_obs_events_only(const emu_obs_worker *ow) { return !ow->o->tracing; }

void emu_obs_step(emu_obs_worker *ow, const emu_wave *w, uint32_t step) { ow->steps[w->wave_id] = step; }

int emu_obs_exec(emu_obs_worker *ow, emu_wave *w, const emu_insn *in)
{
  emu_observer *o = ow->o;
  uint32_t step = ow->steps[w->wave_id]++;
  macc *mp = ow->m;
#define m (*mp)
  m.space = 0, m.op = 0, m.bytes = 0, m.nseg = 0, m.lanes = 0, m.lds_bytes = 0, m.lds_lanes = 0;
  bool mem = (in->flags & (EMU_F_DS | EMU_F_VMEM | EMU_F_SMEM)) && classify(w, in, &m);
  /* an LDS write (a DS store, a load to LDS): its WAW pairs wait for the bytes it writes */
  const bool lds_write = mem && ow->lds && ((m.space == 'l' && m.op == 'w') || m.lds_bytes) && w->wg->lds;
  ow->defer_waw = lds_write, ow->nwaw = 0;
  if (mem && (o->race || o->init)) check(ow, w, in, &m, step);
  if (mem && o->heap_live && m.space != 'l' && !in_devlib(o, in->pc)) heap_check(ow, w, in, &m, step);
  if (__builtin_expect(o->sp_full, 0))
    return emu_raise(w, in, "racecheck shadow exhausted", -1, 0,
                     "--racecheck=global: the byte states of granules accessed in parts of 8 bytes passed the "
                     "%llu MiB shadow limit; use smaller buffers", MAX_GLOBAL_SHADOW >> 20);
  ow->defer_waw = false;
  for (size_t i = 0; i < ow->nwaw; i++) ow->waw[i].old = w->wg->lds[ow->waw[i].byte];
  if (ow->before && (mem || (in->flags & EMU_F_VMEM))) sync_event(ow, w, in, mem ? &m : NULL);
  emu_trace_rec *r = o->tracing && selected(ow, w, in) ? trace_begin(ow, w, in, &m, step) : NULL;
  int rc = in->fn(w, in);
  /* Two waves' writes of the same LDS bytes between barriers race unless the later leaves them as
   * they were, the values the earlier wrote: either order then leaves the same bytes (AMD's fmha_bwd
   * kernels load the same words into the same LDS from pairs of waves; docs/trace.md). Decided per
   * lane's write: one byte of it that changes makes every byte it shares with another wave a hazard. */
  if (ow->nwaw) {
    uint64_t changed = rc == EMU_FAULT ? ~0ull : 0;
    for (size_t i = 0; i < ow->nwaw; i++)
      if (w->wg->lds[ow->waw[i].byte] != ow->waw[i].old) changed |= 1ull << (ow->waw[i].now.lane & 63);
    for (size_t i = 0; i < ow->nwaw; i++)
      if (changed >> (ow->waw[i].now.lane & 63) & 1)
        race_pair(ow, true, ow->waw[i].byte, NULL, &ow->waw[i].earlier, &ow->waw[i].now, false);
    ow->nwaw = 0;
  }
  if (r) {
    if (rc == EMU_FAULT) free_rec(r);
    else trace_end(ow, w, in, r);
  }
  return rc;
#undef m
}
