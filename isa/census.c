/* isa/census — instruction counts per kernel from LLVM's disassembly.
 *
 * Decoding is LLVM's job (docs/emulator.md, "Decoding"): we run llvm-objdump and read its text. Its AMDGPU output
 * with --no-show-raw-insn is, per instruction, a tab-indented line
 *   "\tMNEMONIC OPERANDS   // 00000000ADDR: HEXWORDS[ <sym+off>]"
 * (checked on llvm-objdump 22 output for gfx942 and gfx950); the address in the comment is how an
 * instruction is attributed to a kernel: a kernel is its STT_FUNC symbol's [st_value, +st_size),
 * so the s_nop padding the linker puts after s_endpgm counts for no kernel. A hand-written kernel
 * without .size (st_size 0) extends to the next function symbol or the end of .text (isa/elf.c), so
 * its count includes any padding after its s_endpgm. */
#include "isa/isa.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const isa_canonical_counts[] = {
    "instructions",
    /* cross-lane and LDS reads (docs/isa.md "Cross-lane primitives", "Transposing LDS reads") */
    "ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32", "ds_read_b64",
    "ds_read_b64_tr_b16", "ds_read_b64_tr_b8", "ds_read_b64_tr_b4", "ds_read_b96_tr_b6",
    "v_mov_b32_dpp", "dpp", "v_permlane16_swap_b32*", "v_permlane32_swap_b32*",
    /* matrix */
    "v_mfma_*",
    /* global memory by width and by cache bit (docs/isa.md: sc0 bit 16, nt bit 17, sc1 bit 25) */
    "global_load_dword", "global_load_dwordx2", "global_load_dwordx3", "global_load_dwordx4",
    "global_store_dword", "global_store_dwordx2", "global_store_dwordx3", "global_store_dwordx4",
    "global_load_*:nt", "global_load_*:sc0", "global_load_*:sc1",
    "global_store_*:nt", "global_store_*:sc0", "global_store_*:sc1",
    NULL};

/* ---- disassembly ----------------------------------------------------------------------------*/
static bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* Finds objdump's trailing "// ADDR:" comment; returns its start and the address. */
static char *addr_comment(char *line, uint64_t *addr) {
  for (char *c = strstr(line, "//"); c; c = strstr(c + 2, "//")) {
    char *p = c + 2;
    while (*p == ' ') p++;
    char *h = p;
    while (is_hex(*p)) p++;
    if (p - h >= 8 && *p == ':') {
      *addr = strtoull(h, NULL, 16);
      return c;
    }
  }
  return NULL;
}

/* llvm-objdump's text per file, kept for the life of the process: a census depends only on the
 * file's bytes, and budgets (and their tests) census one build several times. Keyed by device,
 * inode, size, modification time and arch (a rebuilt or atomically replaced file misses); at most
 * 64 MiB kept, past which files are disassembled again each time. */
typedef struct dis_entry {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  char arch[16];
  char *text;
  size_t len;
  struct dis_entry *next;
} dis_entry;
static dis_entry *dis_cache;
static size_t dis_cache_bytes;
static pthread_mutex_t dis_mu = PTHREAD_MUTEX_INITIALIZER;

static bool dis_same(const dis_entry *c, const struct stat *st, const char *arch) {
  return c->dev == st->st_dev && c->ino == st->st_ino && c->size == st->st_size &&
         c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec && !strcmp(c->arch, arch);
}

/* copies the cached text of path into out; false if there is none */
static bool dis_lookup(const struct stat *st, const char *arch, ll_buf *out) {
  bool hit = false;
  pthread_mutex_lock(&dis_mu);
  for (dis_entry *c = dis_cache; c && !hit; c = c->next)
    if (dis_same(c, st, arch)) ll_buf_put(out, c->text, c->len), hit = true;
  pthread_mutex_unlock(&dis_mu);
  return hit;
}

static void dis_store(const struct stat *st, const char *arch, const ll_buf *out) {
  if (strlen(arch) >= sizeof ((dis_entry *)0)->arch || out->len > (64u << 20)) return;
  pthread_mutex_lock(&dis_mu);
  if (dis_cache_bytes + out->len <= (64u << 20)) {
    dis_entry *c = ll_xcalloc(1, sizeof *c);
    c->dev = st->st_dev, c->ino = st->st_ino, c->size = st->st_size, c->mtime = st->st_mtim;
    snprintf(c->arch, sizeof c->arch, "%s", arch);
    c->text = ll_xmalloc(out->len ? out->len : 1);
    memcpy(c->text, out->data, out->len);
    c->len = out->len;
    c->next = dis_cache, dis_cache = c;
    dis_cache_bytes += out->len;
  }
  pthread_mutex_unlock(&dis_mu);
}

isa_insn *isa_disasm(const char *path, const char *arch, size_t *n, ll_err *err) {
  *n = 0;
  char *tool = isa_llvm_tool("llvm-objdump", err);
  if (!tool) return NULL;
  char *mcpu = ll_fmt("--mcpu=%s", arch);
  /* -z: disassemble runs of zero bytes too (objdump otherwise prints "..." for them, which is
   * not an instruction line; a zeroed byte inside .text made census exit 3). */
  char *argv[] = {tool, "-d", "-z", "--no-show-raw-insn", mcpu, (char *)path, NULL};
  ll_buf out = {0}, eb = {0};
  struct stat st;
  bool keyed = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  int rc = 0;
  if (!keyed || !dis_lookup(&st, arch, &out)) {
    rc = isa_run(argv, NULL, NULL, &out, &eb, err);
    if (rc == 0 && keyed) dis_store(&st, arch, &out);
  }
  free(mcpu);
  isa_insn *v = NULL;
  size_t cap = 0;
  if (rc != 0) {
    if (rc > 0) ll_seterr(err, LL_EXIT_USAGE, "llvm-objdump failed on %s (exit %d): %s", path, rc, eb.data ? eb.data : "");
    goto done;
  }
  int lineno = 0;
  for (char *line = out.data, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    lineno++;
    if (line[0] != '\t') continue; /* headers, "ADDR <sym>:" labels, blank lines */
    uint64_t a;
    char *c = addr_comment(line, &a);
    if (!c) {
      ll_seterr(err, LL_EXIT_ENV,
                "llvm-objdump output for %s, line %d, has no address comment (\"// ADDR:\"); this llvm-objdump prints"
                " a format lanelab does not know: '%s'", path, lineno, line + 1);
      isa_insns_free(v, *n);
      v = NULL;
      *n = 0;
      goto done;
    }
    *c = 0;
    char *s = line;
    while (*s == '\t' || *s == ' ') s++;
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t')) s[--len] = 0;
    for (char *t = s; *t; t++) if (*t == '\t') *t = ' ';
    if (*n == cap) v = ll_xrealloc(v, (cap = cap ? 2 * cap : 1024) * sizeof *v);
    v[(*n)++] = (isa_insn){a, ll_xstrdup(s)};
  }
  if (!v) v = ll_xcalloc(1, sizeof *v);
done:
  ll_buf_free(&out);
  ll_buf_free(&eb);
  free(tool);
  return v;
}

void isa_insns_free(isa_insn *v, size_t n) {
  if (!v) return;
  for (size_t i = 0; i < n; i++) free(v[i].text);
  free(v);
}

/* ---- counting -------------------------------------------------------------------------------*/
static int count_cmp(const void *a, const void *b) { return strcmp(((const isa_count *)a)->key, ((const isa_count *)b)->key); }

/* counts stay sorted by key: binary search, insertion in place (production kernels have tens of
 * thousands of instructions over a few hundred keys). */
static void bump(isa_kernel_census *k, size_t *cap, const char *key) {
  size_t lo = 0, hi = k->ncounts;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(k->counts[mid].key, key);
    if (c == 0) { k->counts[mid].n++; return; }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (k->ncounts == *cap) k->counts = ll_xrealloc(k->counts, (*cap = *cap ? 2 * *cap : 64) * sizeof *k->counts);
  memmove(&k->counts[lo + 1], &k->counts[lo], (k->ncounts - lo) * sizeof *k->counts);
  k->counts[lo] = (isa_count){ll_xstrdup(key), 1};
  k->ncounts++;
}

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static void count_insn(isa_kernel_census *k, size_t *cap, const char *text) {
  size_t ml = strcspn(text, " ");
  char mn[128];
  if (ml >= sizeof mn) ml = sizeof mn - 1;
  memcpy(mn, text, ml);
  mn[ml] = 0;
  bump(k, cap, mn);
  bump(k, cap, "instructions");
  bool mem = starts(mn, "global_") || starts(mn, "flat_") || starts(mn, "buffer_") || starts(mn, "scratch_");
  bool dpp = false;
  /* Operand tokens: DPP controls are quad_perm:[..], row_*:.., wave_*:.. (docs/isa.md "DPP on gfx9");
   * cache bits are bare tokens nt / sc0 / sc1. */
  char *ops = ll_xstrdup(text + ml), *save = NULL;
  for (char *t = strtok_r(ops, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
    if (starts(t, "quad_perm:") || starts(t, "row_") || starts(t, "wave_")) dpp = true;
    if (mem && (strcmp(t, "nt") == 0 || strcmp(t, "sc0") == 0 || strcmp(t, "sc1") == 0)) {
      char key[160];
      snprintf(key, sizeof key, "%s:%s", mn, t);
      bump(k, cap, key);
    }
  }
  free(ops);
  if (dpp) {
    bump(k, cap, "dpp");
    /* LLVM prints gfx9 DPP moves as v_mov_b32_dpp (counted above as a mnemonic); any other
     * spelling of a DPP v_mov_b32 is folded into the same key. */
    if (starts(mn, "v_mov_b32") && strcmp(mn, "v_mov_b32_dpp") != 0) bump(k, cap, "v_mov_b32_dpp");
  }
}

isa_census *isa_census_build(const isa_elf *elf, const isa_insn *insns, size_t n, const char *path) {
  isa_census *c = ll_xcalloc(1, sizeof *c);
  snprintf(c->arch, sizeof c->arch, "%s", elf->arch);
  c->path = ll_xstrdup(path ? path : "<memory>");
  c->nkernels = elf->nfuncs;
  c->kernels = ll_xcalloc(elf->nfuncs ? elf->nfuncs : 1, sizeof *c->kernels);
  size_t *caps = ll_xcalloc(elf->nfuncs ? elf->nfuncs : 1, sizeof *caps);
  for (size_t i = 0; i < elf->nfuncs; i++)
    c->kernels[i] = (isa_kernel_census){ll_xstrdup(elf->funcs[i].name), elf->funcs[i].vaddr, elf->funcs[i].size, NULL, 0};
  for (size_t j = 0; j < n; j++) {
    bool hit = false;
    for (size_t i = 0; i < c->nkernels; i++) {
      isa_kernel_census *k = &c->kernels[i];
      if (insns[j].vaddr >= k->vaddr && insns[j].vaddr - k->vaddr < k->size) {
        count_insn(k, &caps[i], insns[j].text);
        hit = true;
      }
    }
    if (!hit) c->outside++;
  }
  free(caps);
  return c;
}

isa_census *isa_census_file(const char *co_path, ll_err *err) {
  isa_elf *e = isa_elf_read_file(co_path, err);
  if (!e) return NULL;
  size_t n;
  isa_insn *v = isa_disasm(co_path, e->arch, &n, err);
  if (!v) { isa_elf_free(e); return NULL; }
  isa_census *c = isa_census_build(e, v, n, co_path);
  isa_insns_free(v, n);
  isa_elf_free(e);
  return c;
}

void isa_census_free(isa_census *c) {
  if (!c) return;
  for (size_t i = 0; i < c->nkernels; i++) {
    for (size_t j = 0; j < c->kernels[i].ncounts; j++) free(c->kernels[i].counts[j].key);
    free(c->kernels[i].counts);
    free(c->kernels[i].name);
  }
  free(c->kernels);
  free(c->path);
  free(c);
}

const isa_kernel_census *isa_census_kernel(const isa_census *c, const char *name) {
  for (size_t i = 0; i < c->nkernels; i++)
    if (strcmp(c->kernels[i].name, name) == 0) return &c->kernels[i];
  return NULL;
}

static bool derived(const char *key) { return strcmp(key, "dpp") == 0 || strcmp(key, "instructions") == 0; }

long isa_census_value(const isa_kernel_census *k, const char *expr) {
  if (!strpbrk(expr, "*?[")) {
    isa_count probe = {(char *)expr, 0};
    isa_count *hit = bsearch(&probe, k->counts, k->ncounts, sizeof *k->counts, count_cmp);
    return hit ? hit->n : 0;
  }
  const char *ecolon = strchr(expr, ':');
  char mpat[160];
  size_t ml = ecolon ? (size_t)(ecolon - expr) : strlen(expr);
  if (ml >= sizeof mpat) ml = sizeof mpat - 1;
  memcpy(mpat, expr, ml);
  mpat[ml] = 0;
  long sum = 0;
  for (size_t i = 0; i < k->ncounts; i++) {
    const char *key = k->counts[i].key, *kcolon = strchr(key, ':');
    if (derived(key) || (!ecolon) != (!kcolon)) continue;
    char km[160];
    size_t kl = kcolon ? (size_t)(kcolon - key) : strlen(key);
    if (kl >= sizeof km) kl = sizeof km - 1;
    memcpy(km, key, kl);
    km[kl] = 0;
    if (fnmatch(mpat, km, 0) != 0) continue;
    if (ecolon && fnmatch(ecolon + 1, kcolon + 1, 0) != 0) continue;
    sum += k->counts[i].n;
  }
  return sum;
}

report_table *isa_census_table(const isa_census *c) {
  char *title = ll_fmt("instruction census of %s (%s)", c->path, c->arch);
  report_table *t = report_table_new(title, "kernel,count,n#");
  free(title);
  for (size_t i = 0; i < c->nkernels; i++) {
    const isa_kernel_census *k = &c->kernels[i];
    for (size_t j = 0; isa_canonical_counts[j]; j++)
      report_table_row(t, "%s\t%s\t%ld", k->name, isa_canonical_counts[j], isa_census_value(k, isa_canonical_counts[j]));
    /* then every other key, most frequent first */
    size_t m = k->ncounts;
    const isa_count **rest = ll_xcalloc(m ? m : 1, sizeof *rest);
    size_t nr = 0;
    for (size_t j = 0; j < m; j++) {
      bool canon = false;
      for (size_t q = 0; isa_canonical_counts[q]; q++) canon |= strcmp(isa_canonical_counts[q], k->counts[j].key) == 0;
      if (!canon) rest[nr++] = &k->counts[j];
    }
    for (size_t a = 1; a < nr; a++) /* insertion sort: n desc, then key */
      for (size_t b = a; b > 0 && (rest[b]->n > rest[b - 1]->n ||
                                   (rest[b]->n == rest[b - 1]->n && strcmp(rest[b]->key, rest[b - 1]->key) < 0)); b--) {
        const isa_count *x = rest[b];
        rest[b] = rest[b - 1];
        rest[b - 1] = x;
      }
    for (size_t j = 0; j < nr; j++) report_table_row(t, "%s\t%s\t%ld", k->name, rest[j]->key, rest[j]->n);
    free(rest);
    report_table_note(t, "%s: %ld instructions at [0x%llx, 0x%llx)", k->name, isa_census_value(k, "instructions"),
                      (unsigned long long)k->vaddr, (unsigned long long)(k->vaddr + k->size));
  }
  if (c->nkernels == 0) report_table_note(t, "no kernel (STT_FUNC) symbols in .text");
  report_table_note(t, "%zu instructions outside every kernel symbol (padding) are not counted", c->outside);
  report_table_note(t, "keys: MNEMONIC as LLVM prints it; MNEMONIC:nt|sc0|sc1 cache bits; dpp = any DPP control; "
                       "globs (v_mfma_*) sum mnemonics");
  return t;
}

bool isa_output_is_stale(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return false;
  char *side = ll_fmt("%.*s.src", (int)(dot - path), path);
  size_t n;
  char *src = ll_read_file(side, &n, NULL);
  free(side);
  if (!src) return false;
  src[strcspn(src, "\n")] = 0;
  struct stat st;
  bool stale = src[0] && stat(src, &st) != 0;
  free(src);
  return stale;
}
