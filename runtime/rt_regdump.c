/* runtime/rt_regdump — collects every wave's registers at s_endpgm (emu_wave_view, emu.h) and
 * writes them as JSON with util's writer. Callbacks come from emulator worker threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

struct rt_regdump {
  pthread_mutex_t mu;
  emu_wave_view *w;
  size_t n, cap;
  bool sorted;
};

rt_regdump *rt_regdump_new(void) {
  rt_regdump *r = ll_xcalloc(1, sizeof *r);
  pthread_mutex_init(&r->mu, NULL);
  return r;
}

static void *dup_words(const uint32_t *p, size_t n) {
  uint32_t *q = ll_xmalloc(n ? n * 4 : 1);
  if (n) memcpy(q, p, n * 4);
  return q;
}

void rt_regdump_cb(void *user, const emu_wave_view *w) {
  rt_regdump *r = user;
  emu_wave_view c = *w;
  c.sgpr = dup_words(w->sgpr, w->nsgpr);
  c.vgpr = dup_words(w->vgpr, (size_t)w->nvgpr * 64);
  c.agpr = dup_words(w->agpr, (size_t)w->nagpr * 64);
  pthread_mutex_lock(&r->mu);
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->w = ll_xrealloc(r->w, r->cap * sizeof *r->w);
  }
  r->w[r->n++] = c;
  r->sorted = false;
  pthread_mutex_unlock(&r->mu);
}

static int cmp(const void *a, const void *b) {
  const emu_wave_view *x = a, *y = b;
  for (int d = 2; d >= 0; d--)
    if (x->wg[d] != y->wg[d]) return x->wg[d] < y->wg[d] ? -1 : 1;
  return (x->wave > y->wave) - (x->wave < y->wave);
}

size_t rt_regdump_count(const rt_regdump *r) { return r->n; }

const emu_wave_view *rt_regdump_wave(rt_regdump *r, size_t i) {
  if (!r->sorted) {
    qsort(r->w, r->n, sizeof *r->w, cmp);
    r->sorted = true;
  }
  return i < r->n ? &r->w[i] : NULL;
}

static void hex(ll_jw *w, uint64_t v) {
  char s[24];
  snprintf(s, sizeof s, "0x%016llx", (unsigned long long)v);
  ll_jw_str(w, s);
}

static void regs(ll_jw *w, const uint32_t *p, uint32_t nreg) {
  ll_jw_arr_begin(w);
  for (uint32_t r = 0; r < nreg; r++) {
    ll_jw_arr_begin(w);
    for (int l = 0; l < 64; l++) ll_jw_uint(w, p[(size_t)r * 64 + l]);
    ll_jw_arr_end(w);
  }
  ll_jw_arr_end(w);
}

void rt_regdump_json(rt_regdump *r, ll_buf *out, emu_arch arch, const char *kernel,
                     const uint32_t grid[3], const uint32_t block[3]) {
  ll_jw w;
  ll_jw_init(&w, out);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab run --dump-regs (registers at s_endpgm; do not edit)");
  ll_jw_key(&w, "arch"); ll_jw_str(&w, emu_arch_name(arch));
  ll_jw_key(&w, "kernel"); ll_jw_str(&w, kernel);
  ll_jw_key(&w, "grid"); ll_jw_arr_begin(&w); for (int i = 0; i < 3; i++) ll_jw_uint(&w, grid[i]); ll_jw_arr_end(&w);
  ll_jw_key(&w, "block"); ll_jw_arr_begin(&w); for (int i = 0; i < 3; i++) ll_jw_uint(&w, block[i]); ll_jw_arr_end(&w);
  ll_jw_key(&w, "waves");
  ll_jw_arr_begin(&w);
  for (size_t i = 0; i < r->n; i++) {
    const emu_wave_view *v = rt_regdump_wave(r, i);
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "wg"); ll_jw_arr_begin(&w); for (int d = 0; d < 3; d++) ll_jw_uint(&w, v->wg[d]); ll_jw_arr_end(&w);
    ll_jw_key(&w, "wave"); ll_jw_uint(&w, v->wave);
    ll_jw_key(&w, "pc"); hex(&w, v->pc);
    ll_jw_key(&w, "exec"); hex(&w, v->exec);
    ll_jw_key(&w, "vcc"); hex(&w, v->vcc);
    ll_jw_key(&w, "m0"); ll_jw_uint(&w, v->m0);
    ll_jw_key(&w, "scc"); ll_jw_bool(&w, v->scc);
    ll_jw_key(&w, "sgprs"); ll_jw_arr_begin(&w); for (uint32_t s = 0; s < v->nsgpr; s++) ll_jw_uint(&w, v->sgpr[s]); ll_jw_arr_end(&w);
    ll_jw_key(&w, "vgprs"); regs(&w, v->vgpr, v->nvgpr);
    ll_jw_key(&w, "agprs"); regs(&w, v->agpr, v->nagpr);
    ll_jw_obj_end(&w);
  }
  ll_jw_arr_end(&w);
  ll_jw_obj_end(&w);
  ll_buf_puts(out, "\n");
}

void rt_regdump_free(rt_regdump *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n; i++) {
    free((void *)r->w[i].sgpr);
    free((void *)r->w[i].vgpr);
    free((void *)r->w[i].agpr);
  }
  free(r->w);
  pthread_mutex_destroy(&r->mu);
  free(r);
}
