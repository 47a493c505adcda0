/* hip/hip_code — the program's device code: clang's fat binaries and what the program registers
 * from them (kernels, variables), and modules loaded with hipModuleLoad*.
 *
 * A HIP-Clang host object registers its device code from a constructor: __hipRegisterFatBinary
 * with a wrapper {u32 magic 0x48495046 "HIPF", u32 version 1, const void *bundle, void *unused},
 * then __hipRegisterFunction per kernel and __hipRegisterVar per __device__/__constant__ variable
 * (clang's CGCUDANV.cpp). The bundle is clang's offload bundle (clang-offload-bundler):
 *   "__CLANG_OFFLOAD_BUNDLE__" (24 bytes), u64 entry count, per entry u64 offset, u64 size,
 *   u64 triple length, the triple ("hipv4-amdgcn-amd-amdhsa--gfx942[:features]", or "hip-..." from
 *   the linker wrapper of -fgpu-rdc); offsets are from
 *   the start of the bundle. A compressed bundle ("CCOB", clang --offload-compress) is refused by
 *   name: lanelab hipcc never asks for one.
 * Code objects are loaded (rt_load) the first time anything of their fat binary is used. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hip/internal.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define FATBIN_MAGIC 0x48495046u
#define BUNDLE_MAX_ENTRIES 64
#define BUNDLE_MAX_BYTES ((uint64_t)LL_CAP_CODEOBJ * 4)

static uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Walks the bundle's entries; calls f for each with its triple and bytes; false when the bundle is
 * malformed (why says how). The bundle's total size is unknown (the wrapper gives only a pointer),
 * so each entry is checked against BUNDLE_MAX_BYTES, and the header against the entry count. */
typedef bool (*entry_fn)(void *u, const char *triple, size_t tlen, const uint8_t *p, uint64_t n);
static bool bundle_walk(const uint8_t *b, entry_fn f, void *u, char *why, size_t whyn) {
  if (!b) return snprintf(why, whyn, "no bundle"), false;
  if (!memcmp(b, "CCOB", 4))
    return snprintf(why, whyn, "a compressed offload bundle (clang --offload-compress): rebuild without it"), false;
  if (memcmp(b, BUNDLE_MAGIC, 24)) return snprintf(why, whyn, "not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)"), false;
  uint64_t n = rd64(b + 24);
  if (n == 0 || n > BUNDLE_MAX_ENTRIES) return snprintf(why, whyn, "offload bundle with %llu entries", (unsigned long long)n), false;
  const uint8_t *e = b + 32;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t off = rd64(e), size = rd64(e + 8), tl = rd64(e + 16);
    if (tl > 256 || off > BUNDLE_MAX_BYTES || size > BUNDLE_MAX_BYTES)
      return snprintf(why, whyn, "offload bundle entry %llu is malformed", (unsigned long long)i), false;
    if (f && !f(u, (const char *)e + 24, (size_t)tl, b + off, size)) return true;
    e += 24 + tl;
  }
  return true;
}

/* "hipv4-amdgcn-amd-amdhsa--gfx942" or with ":feature" suffixes: the arch after "--". The
 * bundles clang's linker wrapper writes for relocatable device code (-fgpu-rdc, the new offload
 * driver) name their entries "hip-amdgcn-amd-amdhsa--gfx942", the same code objects. */
static bool triple_arch(const char *t, size_t tl, char *arch, size_t an) {
  static const char *const pre[] = {"hipv4-amdgcn-amd-amdhsa--", "hip-amdgcn-amd-amdhsa--"};
  size_t pl = 0;
  for (size_t i = 0; i < sizeof pre / sizeof *pre && !pl; i++)
    if (tl > strlen(pre[i]) && !strncmp(t, pre[i], strlen(pre[i]))) pl = strlen(pre[i]);
  if (!pl) return false;
  size_t k = 0;
  while (pl + k < tl && t[pl + k] != ':' && k + 1 < an) arch[k] = t[pl + k], k++;
  arch[k] = 0;
  return k > 0;
}

typedef struct { ll_buf list; } arch_list;
static bool add_arch(void *u, const char *t, size_t tl, const uint8_t *p, uint64_t n) {
  (void)p, (void)n;
  arch_list *l = u;
  char a[64];
  if (triple_arch(t, tl, a, sizeof a)) {
    if (l->list.len) ll_buf_puts(&l->list, ", ");
    ll_buf_puts(&l->list, a);
  }
  return true;
}

char *hip_bundle_arches(const uint8_t *bundle) {
  arch_list l = {{0}};
  char why[256];
  if (!bundle_walk(bundle, add_arch, &l, why, sizeof why) || !l.list.len) {
    ll_buf_free(&l.list);
    return ll_xstrdup("none");
  }
  char *s = ll_xstrdup(ll_buf_str(&l.list));
  ll_buf_free(&l.list);
  return s;
}

typedef struct { const char *arch; const uint8_t *p; uint64_t n; } find_arch;
static bool match_arch(void *u, const char *t, size_t tl, const uint8_t *p, uint64_t n) {
  find_arch *f = u;
  char a[64];
  if (triple_arch(t, tl, a, sizeof a) && !strcmp(a, f->arch)) {
    f->p = p, f->n = n;
    return false;
  }
  return true;
}

static hip_fatbin *fatbin_of(void **handle) { return (hip_fatbin *)handle; }

static hipError_t managed_bind(hip_fatbin *fb, struct ihipModule_t *m);
hipError_t hip_fatbin_module(hip_fatbin *fb, struct ihipModule_t **out) {
  if (fb->mod) return *out = fb->mod, hipSuccess;
  if (fb->tried) return fb->load_err;
  fb->tried = true;
  const char *an = emu_arch_name(hip_g.arch);
  find_arch f = {an, NULL, 0};
  char why[256] = "";
  if (!bundle_walk(fb->bundle, match_arch, &f, why, sizeof why)) {
    fb->load_err = hip_complain("loading the program's device code", hipErrorInvalidImage, "%s", why);
    return fb->load_err;
  }
  if (!f.p) {
    char *has = hip_bundle_arches(fb->bundle);
    fb->load_err = hip_complain("loading the program's device code", hipErrorNoBinaryForGpu,
                                "the program has no code for %s (it was built for: %s); rebuild with "
                                "--offload-arch=%s or run with --arch set to one of those", an, has, an);
    free(has);
    return fb->load_err;
  }
  ll_err e = {0};
  char *what = ll_fmt("the program's %s code", an);
  rt_module *m = rt_load(hip_g.dev, f.p, (size_t)f.n, what, &e);
  if (!m) {
    fb->load_err = hip_complain("loading the program's device code", hipErrorInvalidImage, "%s", e.msg);
    free(what);
    return fb->load_err;
  }
  fb->mod = ll_xcalloc(1, sizeof *fb->mod);
  fb->mod->rt = m;
  fb->mod->what = what;
  hipError_t me = managed_bind(fb, fb->mod);
  if (me != hipSuccess) return fb->load_err = me;
  *out = fb->mod;
  return hipSuccess;
}

/* ---- registration (called from the program's constructors, before main) ----------------------*/
void **__hipRegisterFatBinary(const void *data) {
  pthread_mutex_lock(&hip_mu);
  const uint8_t *w = data;
  uint32_t magic = 0;
  if (w) memcpy(&magic, w, 4);
  hip_fatbin *fb = ll_xcalloc(1, sizeof *fb);
  if (magic != FATBIN_MAGIC) {
    fb->tried = true;
    fb->load_err = hipErrorInvalidImage;
    fprintf(stderr, "lanelab: hip: __hipRegisterFatBinary: the wrapper has magic 0x%08x, not HIPF (0x%08x): not a "
            "HIP-Clang fat binary\n", magic, FATBIN_MAGIC);
  } else {
    const void *bundle;
    memcpy(&bundle, w + 8, sizeof bundle);
    fb->bundle = bundle;
  }
  hip_g.fatbins = ll_xrealloc(hip_g.fatbins, (hip_g.nfatbins + 1) * sizeof *hip_g.fatbins);
  hip_g.fatbins[hip_g.nfatbins++] = fb;
  pthread_mutex_unlock(&hip_mu);
  return (void **)fb;
}

/* The program is exiting (its destructors run): the module stays until the process ends, because
 * another translation unit's destructor may still free memory or synchronize. */
void __hipUnregisterFatBinary(void **modules) { (void)modules; }

void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction, const char *deviceName,
                           unsigned int threadLimit, void *tid, void *bid, dim3 *blockDim, dim3 *gridDim, int *wSize) {
  (void)deviceName, (void)threadLimit, (void)tid, (void)bid, (void)blockDim, (void)gridDim, (void)wSize;
  pthread_mutex_lock(&hip_mu);
  struct ihipModuleSymbol_t *f = ll_xcalloc(1, sizeof *f);
  f->host = hostFunction;
  f->fb = fatbin_of(modules);
  f->name = ll_xstrdup(deviceFunction ? deviceFunction : "");
  f->max_dyn_lds = -1;
  hip_g.funcs = ll_xrealloc(hip_g.funcs, (hip_g.nfuncs + 1) * sizeof *hip_g.funcs);
  hip_g.funcs[hip_g.nfuncs++] = f;
  pthread_mutex_unlock(&hip_mu);
}

void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar, int ext, size_t size, int constant,
                      int global) {
  (void)hostVar, (void)ext, (void)global;
  pthread_mutex_lock(&hip_mu);
  hip_var *v = ll_xcalloc(1, sizeof *v);
  v->host = var;
  v->fb = fatbin_of(modules);
  v->name = ll_xstrdup(deviceVar ? deviceVar : "");
  v->size = size;
  v->constant = constant != 0;
  hip_g.vars = ll_xrealloc(hip_g.vars, (hip_g.nvars + 1) * sizeof *hip_g.vars);
  hip_g.vars[hip_g.nvars++] = v;
  pthread_mutex_unlock(&hip_mu);
}

/* __managed__ variables: clang registers the host's pointer variable (its host code reaches the
 * variable through it, &var included) and the initial value; the device code reaches it through a
 * pointer variable of the same name in its own data (the storage clang emits there, NAME.managed,
 * only gives the size), which the runtime sets when the code is loaded, as ROCm/clr f9f995c does
 * (hip_platform.cpp __hipRegisterManagedVar, hip_code_object.cpp initStatManagedVarDevicePtr). The
 * storage is allocated here, before main (host code may use the variable before any HIP call):
 * host memory, made device-visible as managed memory when the device code loads (hip_managed_adopt),
 * so both sides see one copy. */
void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value, const char *name, size_t size,
                             unsigned align) {
  (void)align; /* mmap's pages are aligned past any alignment a variable asks */
  size_t len = ((size ? size : 1) + 4095) & ~(size_t)4095;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    fprintf(stderr, "lanelab: hip: __hipRegisterManagedVar: no memory for __managed__ variable '%s' (%zu bytes)\n",
            name ? name : "?", size);
    abort();
  }
  if (init_value && size) memcpy(p, init_value, size);
  *pointer = p;
  pthread_mutex_lock(&hip_mu);
  hip_var *v = ll_xcalloc(1, sizeof *v);
  v->fb = fatbin_of((void **)hipModule);
  v->name = ll_xstrdup(name ? name : "");
  v->size = size;
  v->managed = true;
  v->managed_ptr = pointer;
  v->host = pointer;
  hip_g.vars = ll_xrealloc(hip_g.vars, (hip_g.nvars + 1) * sizeof *hip_g.vars);
  hip_g.vars[hip_g.nvars++] = v;
  pthread_mutex_unlock(&hip_mu);
}

/* the module of fb loaded: each of its __managed__ variables' storage made device-visible and its
 * address written into the device's pointer variable of that name */
static hipError_t managed_bind(hip_fatbin *fb, struct ihipModule_t *m) {
  const emu_codeobj *co = rt_module_codeobj(m->rt);
  for (size_t i = 0; i < hip_g.nvars; i++) {
    hip_var *v = hip_g.vars[i];
    if (!v->managed || v->fb != fb) continue;
    void *p = *v->managed_ptr;
    hipError_t e = hip_managed_adopt(p, v->size, v->name);
    if (e != hipSuccess) return e;
    const emu_symbol *s = emu_codeobj_symbol(co, v->name);
    void *slot = s && !s->func && s->size >= sizeof p ? hip_host_view(rt_module_image_addr(m->rt) + s->vaddr, sizeof p) : NULL;
    if (!slot)
      return hip_complain("loading the program's device code", hipErrorInvalidSymbol,
                          "__managed__ variable '%s': no 8-byte pointer variable of that name in %s", v->name, m->what);
    memcpy(slot, &p, sizeof p);
    v->dev = (uint64_t)(uintptr_t)p;
  }
  return hipSuccess;
}

/* Texture and surface references: clang's linker wrapper (-fgpu-rdc) calls these for each one the
 * program declares, and links them whether it declares any or not. lanelab's HIP headers declare
 * no texture or surface reference (texture<T, dim>, surface<...>: image instructions are not
 * emulated), so a program built by lanelab hipcc never registers one; another program's would be
 * told so. */
void __hipRegisterSurface(void **modules, void *var, char *deviceVar, char *hostVar, int type, int ext) {
  (void)modules, (void)var, (void)hostVar, (void)type, (void)ext;
  fprintf(stderr, "lanelab: hip: __hipRegisterSurface: surface '%s' is not provided (image instructions are not "
          "emulated)\n", deviceVar ? deviceVar : "?");
}
void __hipRegisterTexture(void **modules, void *var, char *deviceVar, char *hostVar, int type, int norm, int ext) {
  (void)modules, (void)var, (void)hostVar, (void)type, (void)norm, (void)ext;
  fprintf(stderr, "lanelab: hip: __hipRegisterTexture: texture '%s' is not provided (image instructions are not "
          "emulated)\n", deviceVar ? deviceVar : "?");
}

/* ---- lookups -----------------------------------------------------------------------------------*/
hipError_t hip_func_resolve(struct ihipModuleSymbol_t *f, const char *fn) {
  if (f->k) return hipSuccess;
  if (!f->mod) {
    hipError_t e = hip_fatbin_module(f->fb, &f->mod);
    if (e != hipSuccess) return e;
  }
  ll_err err = {0};
  f->k = emu_codeobj_kernel(rt_module_codeobj(f->mod->rt), f->name, &err);
  if (!f->k) return hip_complain(fn, hipErrorInvalidDeviceFunction, "%s", err.msg);
  return hipSuccess;
}

struct ihipModuleSymbol_t *hip_module_func(const void *p) {
  for (size_t i = 0; p && i < hip_g.nfuncs; i++)
    if (hip_g.funcs[i] == p && !hip_g.funcs[i]->host) return hip_g.funcs[i];
  return NULL;
}

/* the kernel registered with host function `host`, NULL for none */
static struct ihipModuleSymbol_t *func_by_host(const void *host) {
  for (size_t i = 0; host && i < hip_g.nfuncs; i++)
    if (hip_g.funcs[i]->host == host) return hip_g.funcs[i];
  return NULL;
}

hipError_t hip_func_of(const void *host, struct ihipModuleSymbol_t **out, const char *fn) {
  if (!host) return hip_complain(fn, hipErrorInvalidDeviceFunction, "the kernel is NULL");
  if ((*out = func_by_host(host)) != NULL) return hip_func_resolve(*out, fn);
  return hip_complain(fn, hipErrorInvalidDeviceFunction,
                      "%p is not a registered kernel (pass the __global__ function itself, as <<<>>> does)", host);
}

hipError_t hip_var_of(const void *host, hip_var **out, const char *fn) {
  hip_var *v = NULL;
  /* a __managed__ variable is named by its host pointer variable or, as host code's &var is, by its
   * storage's address */
  for (size_t i = 0; i < hip_g.nvars && !v; i++)
    if (hip_g.vars[i]->host == host || (hip_g.vars[i]->managed && *hip_g.vars[i]->managed_ptr == host)) v = hip_g.vars[i];
  if (!v)
    return hip_complain(fn, hipErrorInvalidSymbol,
                        "%p is not a registered __device__ or __constant__ variable (pass the variable itself, or "
                        "HIP_SYMBOL(var))", host);
  if (v->managed && !v->dev) { /* its storage becomes device-visible with its module */
    struct ihipModule_t *m;
    hipError_t e = hip_fatbin_module(v->fb, &m);
    if (e != hipSuccess) return e;
  }
  if (!v->dev) {
    struct ihipModule_t *m;
    hipError_t e = hip_fatbin_module(v->fb, &m);
    if (e != hipSuccess) return e;
    const emu_codeobj *co = rt_module_codeobj(m->rt);
    const emu_symbol *s = emu_codeobj_symbol(co, v->name);
    if (!s || s->func)
      return hip_complain(fn, hipErrorInvalidSymbol, "variable '%s' is not in %s (the compiler dropped it?)", v->name,
                          m->what);
    v->dev = rt_module_image_addr(m->rt) + s->vaddr;
    if (s->size && s->size < v->size) v->size = s->size;
  }
  *out = v;
  return hipSuccess;
}

void hip_code_reset(void) {
  for (size_t i = 0; i < hip_g.nfatbins; i++) {
    hip_fatbin *fb = hip_g.fatbins[i];
    if (fb->mod) {
      rt_unload(fb->mod->rt);
      free(fb->mod->what);
      free(fb->mod);
    }
    fb->mod = NULL;
    fb->tried = false;
    fb->load_err = hipSuccess;
  }
  for (size_t i = 0; i < hip_g.nfuncs; i++) hip_g.funcs[i]->mod = NULL, hip_g.funcs[i]->k = NULL;
  for (size_t i = 0; i < hip_g.nvars; i++) hip_g.vars[i]->dev = 0;
}

/* ---- modules --------------------------------------------------------------------------------*/
static hipError_t load_module(hipModule_t *out, const void *bytes, size_t n, const char *path, const char *fn) {
  if (!out) return hip_complain(fn, hipErrorInvalidValue, "module is NULL");
  ll_err e = {0};
  rt_module *m = rt_load(hip_g.dev, bytes, n, path, &e);
  if (!m) return hip_complain(fn, hipErrorInvalidImage, "%s", e.msg);
  struct ihipModule_t *mod = ll_xcalloc(1, sizeof *mod);
  mod->rt = m;
  mod->what = ll_fmt("module %s", path);
  mod->from_user = true;
  *out = mod;
  return hipSuccess;
}


/* The image's size is not passed: it is read from its ELF header (the section header table ends
 * the file as clang's linker writes it), or, for an offload bundle, the device's entry is used. */
static size_t elf_extent(const uint8_t *p) {
  if (memcmp(p, "\177ELF", 4) || p[4] != 2) return 0;
  uint64_t shoff;
  uint16_t shentsize, shnum;
  memcpy(&shoff, p + 40, 8);
  memcpy(&shentsize, p + 58, 2);
  memcpy(&shnum, p + 60, 2);
  uint64_t end = shoff + (uint64_t)shentsize * shnum;
  return end > LL_CAP_CODEOBJ ? 0 : (size_t)end;
}

/* An offload bundle (hipcc --genco, or a fat binary's bundle): its entry for the device's arch. */
static hipError_t load_bundle(hipModule_t *module, const uint8_t *p, const char *what, const char *fn) {
  find_arch f = {emu_arch_name(hip_g.arch), NULL, 0};
  char why[256] = "";
  if (!bundle_walk(p, match_arch, &f, why, sizeof why)) return hip_complain(fn, hipErrorInvalidImage, "%s: %s", what, why);
  if (!f.p) {
    char *has = hip_bundle_arches(p);
    hipError_t e = hip_complain(fn, hipErrorNoBinaryForGpu, "%s has no code for %s (it has: %s)", what,
                                emu_arch_name(hip_g.arch), has);
    free(has);
    return e;
  }
  return load_module(module, f.p, (size_t)f.n, what, fn);
}

static hipError_t load_data(hipModule_t *module, const void *image, const char *fn) {
  if (!image) return hip_complain(fn, hipErrorInvalidValue, "image is NULL");
  const uint8_t *p = image;
  if (!memcmp(p, BUNDLE_MAGIC, 24)) return load_bundle(module, p, "<bundle in memory>", fn);
  size_t n = elf_extent(p);
  if (!n) return hip_complain(fn, hipErrorInvalidImage, "the image is not a 64-bit ELF code object or offload bundle");
  return load_module(module, p, n, "<image in memory>", fn);
}

hipError_t hipModuleLoad(hipModule_t *module, const char *fname) {
  HIP_BEGIN();
  if (!fname) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "fname is NULL"));
  size_t n;
  ll_err e = {0};
  void *p = ll_read_file_max(fname, LL_CAP_CODEOBJ, &n, &e);
  if (!p) return hip_done(hip_complain(__func__, hipErrorFileNotFound, "%s", e.msg));
  hipError_t r;
  if (n >= 24 && !memcmp(p, BUNDLE_MAGIC, 24)) r = load_bundle(module, p, fname, __func__); /* hipcc --genco */
  else r = load_module(module, p, n, fname, __func__);
  free(p);
  return hip_done(r);
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  HIP_BEGIN();
  return hip_done(load_data(module, image, __func__));
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions, hipJitOption *options,
                               void **optionValues) {
  HIP_BEGIN();
  (void)options, (void)optionValues;
  if (numOptions)
    return hip_done(hip_complain(__func__, hipErrorNotSupported, "%u JIT options given: code objects are not compiled "
                                 "at load time, so no option applies", numOptions));
  return hip_done(load_data(module, image, __func__));
}

hipError_t hipModuleUnload(hipModule_t module) {
  HIP_BEGIN();
  if (!module || !module->from_user) return hip_done(hip_complain(__func__, hipErrorInvalidResourceHandle, "not a loaded module"));
  for (size_t i = 0; i < hip_g.nfuncs; i++)
    if (hip_g.funcs[i]->mod == module && !hip_g.funcs[i]->host) hip_g.funcs[i]->mod = NULL, hip_g.funcs[i]->k = NULL;
  rt_unload(module->rt);
  free(module->what);
  free(module);
  return hip_done(hipSuccess);
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname) {
  HIP_BEGIN();
  if (!function || !module || !kname) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "a NULL argument"));
  ll_err e = {0};
  const emu_kernel *k = emu_codeobj_kernel(rt_module_codeobj(module->rt), kname, &e);
  if (!k) return hip_done(hip_complain(__func__, hipErrorNotFound, "%s", e.msg));
  for (size_t i = 0; i < hip_g.nfuncs; i++)
    if (!hip_g.funcs[i]->host && hip_g.funcs[i]->mod == module && hip_g.funcs[i]->k == k)
      return *function = hip_g.funcs[i], hip_done(hipSuccess);
  struct ihipModuleSymbol_t *f = ll_xcalloc(1, sizeof *f);
  f->mod = module;
  f->name = ll_xstrdup(k->name);
  f->k = k;
  f->max_dyn_lds = -1;
  hip_g.funcs = ll_xrealloc(hip_g.funcs, (hip_g.nfuncs + 1) * sizeof *hip_g.funcs);
  hip_g.funcs[hip_g.nfuncs++] = f;
  *function = f;
  return hip_done(hipSuccess);
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod, const char *name) {
  HIP_BEGIN();
  if (!hmod || !name) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "a NULL argument"));
  const emu_symbol *s = emu_codeobj_symbol(rt_module_codeobj(hmod->rt), name);
  if (!s || s->func) return hip_done(hip_complain(__func__, hipErrorNotFound, "no variable '%s' in %s", name, hmod->what));
  if (dptr) *dptr = (void *)(uintptr_t)(rt_module_image_addr(hmod->rt) + s->vaddr);
  if (bytes) *bytes = (size_t)s->size;
  return hip_done(hipSuccess);
}

hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr) {
  HIP_BEGIN();
  if (!functionPtr) return hip_done(hip_complain(__func__, hipErrorInvalidValue, "functionPtr is NULL"));
  struct ihipModuleSymbol_t *f;
  hipError_t e = hip_func_of(symbolPtr, &f, __func__);
  if (e == hipSuccess) *functionPtr = f;
  return hip_done(e);
}

const char *hipKernelNameRef(const hipFunction_t f) { return f ? f->name : NULL; }
/* the device name a registered kernel's host function stands for (ROCm's: the stream names no more
 * than a device, and this runtime has one); NULL for a pointer no kernel was registered with */
const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream) {
  (void)stream;
  const struct ihipModuleSymbol_t *f = func_by_host(hostFunction);
  return f ? f->name : NULL;
}
