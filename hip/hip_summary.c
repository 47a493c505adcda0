/* hip/hip_summary — reading the summary the runtime writes for `lanelab exec` (hip.h). */
#include <stdlib.h>
#include <string.h>

#include "hip/hip.h"

static bool num(const ll_json *j, const char *k, uint64_t *out, ll_err *err, const char *path) {
  const ll_json *v = ll_json_get(j, k);
  if (!v || v->type != LL_JNUM || !v->is_int || v->i < 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: \"%s\" is missing or not a count", path, k);
    return false;
  }
  *out = (uint64_t)v->i;
  return true;
}

bool hip_summary_read(const char *path, hip_summary *s, ll_err *err) {
  memset(s, 0, sizeof *s);
  ll_json *j = ll_json_parse_file(path, err);
  if (!j) return false;
  bool ok = j->type == LL_JOBJ;
  if (!ok) ll_seterr(err, LL_EXIT_USAGE, "%s: not a JSON object", path);
  const ll_json *arch = ll_json_get(j, "arch"), *ks = ll_json_get(j, "kernels"), *fs = ll_json_get(j, "findings"),
                *c = ll_json_get(j, "complete");
  ok = ok && num(j, "launches", &s->launches, err, path) && num(j, "faults", &s->faults, err, path) &&
       num(j, "races", &s->races, err, path) && num(j, "uninit", &s->uninit, err, path) &&
       num(j, "mem_warnings", &s->mem_warnings, err, path) && num(j, "api_errors", &s->api_errors, err, path) &&
       num(j, "insns", &s->insns, err, path) && num(j, "choice_insns", &s->choice_insns, err, path);
  /* leaks: optional (a program linked with a runtime older than --leakcheck writes none) */
  if (ok && ll_json_get(j, "leaks"))
    ok = num(j, "leaks", &s->leaks, err, path) && num(j, "leak_bytes", &s->leak_bytes, err, path);
  if (ok && ll_json_get(j, "heap_bad")) ok = num(j, "heap_bad", &s->heap_bad, err, path); /* optional as leaks */
  const ll_json *fl = ll_json_get(j, "fidelity"), *fc = ll_json_get(j, "fidelity_choices");
  if (ok && (!arch || arch->type != LL_JSTR || !ks || ks->type != LL_JOBJ || !fs || fs->type != LL_JARR || !c ||
             c->type != LL_JBOOL || !fl || fl->type != LL_JSTR || !fc || fc->type != LL_JSTR)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: \"arch\", \"kernels\", \"findings\", \"fidelity\", \"fidelity_choices\" or \"complete\" "
              "is missing or malformed", path);
    ok = false;
  }
  if (ok) {
    snprintf(s->arch, sizeof s->arch, "%s", arch->str);
    s->complete = c->b;
    s->fidelity = ll_xstrdup(fl->str);
    s->fidelity_choices = ll_xstrdup(fc->str);
    s->nkernels = ks->n;
    s->kernel_names = ll_xcalloc(ks->n ? ks->n : 1, sizeof *s->kernel_names);
    s->kernel_launches = ll_xcalloc(ks->n ? ks->n : 1, sizeof *s->kernel_launches);
    for (size_t i = 0; i < ks->n; i++) {
      s->kernel_names[i] = ll_xstrdup(ks->keys[i]);
      s->kernel_launches[i] = ks->items[i]->type == LL_JNUM && ks->items[i]->is_int ? (uint64_t)ks->items[i]->i : 0;
    }
    s->nfindings = fs->n;
    s->findings = ll_xcalloc(fs->n ? fs->n : 1, sizeof *s->findings);
    for (size_t i = 0; i < fs->n; i++)
      s->findings[i] = ll_xstrdup(fs->items[i]->type == LL_JSTR ? fs->items[i]->str : "?");
  }
  ll_json_free(j);
  if (!ok) hip_summary_free(s);
  return ok;
}

void hip_summary_free(hip_summary *s) {
  for (size_t i = 0; i < s->nkernels; i++) free(s->kernel_names[i]);
  free(s->kernel_names);
  free(s->kernel_launches);
  for (size_t i = 0; i < s->nfindings; i++) free(s->findings[i]);
  free(s->findings);
  free(s->fidelity);
  free(s->fidelity_choices);
  memset(s, 0, sizeof *s);
}
