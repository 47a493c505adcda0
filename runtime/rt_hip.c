/* runtime/rt_hip — the HIP backend: libamdhip64 opened with dlopen at run time, so lanelab has
 * no build-time ROCm dependency. Only the few entry points and types needed are declared here,
 * from HIP's public API (hip_runtime_api.h): hipError_t is an int enum with hipSuccess = 0;
 * hipMemcpyKind HostToDevice = 1, DeviceToHost = 2; hipModuleLaunchKernel's `extra` array takes
 * HIP_LAUNCH_PARAM_BUFFER_POINTER (0x01), HIP_LAUNCH_PARAM_BUFFER_SIZE (0x02) and
 * HIP_LAUNCH_PARAM_END (0x03).
 *
 * Not exercised on the machines lanelab is developed on (no AMD GPU, no ROCm); the paths that
 * are — library missing, no device, wrong arch — end in LL_EXIT_ENV with what to install. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

typedef int hipError_t;
typedef void *hipModule_t, *hipFunction_t, *hipStream_t;

struct rt_hip {
  void *lib;
  int device;
  hipError_t (*Init)(unsigned);
  hipError_t (*GetDeviceCount)(int *);
  hipError_t (*GetDeviceProperties)(void *, int);
  hipError_t (*SetDevice)(int);
  hipError_t (*Malloc)(void **, size_t);
  hipError_t (*Free)(void *);
  hipError_t (*Memcpy)(void *, const void *, size_t, int);
  hipError_t (*ModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*ModuleUnload)(hipModule_t);
  hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, hipStream_t, void **, void **);
  hipError_t (*DeviceSynchronize)(void);
  const char *(*GetErrorString)(hipError_t);
};

static const char *estr(rt_hip *h, hipError_t e) {
  const char *s = h->GetErrorString ? h->GetErrorString(e) : NULL;
  return s ? s : "unknown HIP error";
}

/* Messages here say what is missing; the remedy (install ROCm's HIP runtime, or use the emulator)
 * is added by rt_open for --backend hip only: under auto the emulator is simply used, and a run
 * should not suggest installing ROCm every time (issue #29). */

void rt_hip_close(rt_hip *h) {
  if (!h) return;
  if (h->lib) dlclose(h->lib);
  free(h);
}

/* gcnArchName ("gfx942:sramecc+:xnack-") from hipGetDeviceProperties. Its offset inside
 * hipDeviceProp_t differs between HIP releases (R0000 / R0600 layouts), so rather than hard-code
 * one, the property block is searched for the NUL-terminated "gfx..." string that starts a
 * field (preceded by a NUL). The marketing name at offset 0 never starts with "gfx". */
static bool arch_name(const uint8_t *p, size_t n, char *out, size_t outsz) {
  for (size_t i = 0; i + 4 < n; i++) {
    if (memcmp(p + i, "gfx", 3) != 0 || (i && p[i - 1])) continue;
    size_t k = i;
    while (k < n && p[k] >= 0x20 && p[k] < 0x7f) k++;
    if (k < n && p[k] == 0 && k - i < outsz) {
      memcpy(out, p + i, k - i);
      out[k - i] = 0;
      return true;
    }
  }
  return false;
}

rt_hip *rt_hip_open(emu_arch arch, char *desc, size_t desc_size, ll_err *err) {
  const char *libname = getenv("LANELAB_HIP_LIB");
  if (!libname || !*libname) libname = "libamdhip64.so";
  rt_hip *h = ll_xcalloc(1, sizeof *h);
  h->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
  if (!h->lib) {
    ll_seterr(err, LL_EXIT_ENV, "no HIP runtime: cannot load %s (%s)", libname, dlerror());
    goto fail;
  }
  struct { const char *name; void **slot; bool required; } syms[] = {
      {"hipInit", (void **)&h->Init, true},
      {"hipGetDeviceCount", (void **)&h->GetDeviceCount, true},
      {"hipGetDevicePropertiesR0600", (void **)&h->GetDeviceProperties, false},
      {"hipSetDevice", (void **)&h->SetDevice, true},
      {"hipMalloc", (void **)&h->Malloc, true},
      {"hipFree", (void **)&h->Free, true},
      {"hipMemcpy", (void **)&h->Memcpy, true},
      {"hipModuleLoadData", (void **)&h->ModuleLoadData, true},
      {"hipModuleUnload", (void **)&h->ModuleUnload, true},
      {"hipModuleGetFunction", (void **)&h->ModuleGetFunction, true},
      {"hipModuleLaunchKernel", (void **)&h->ModuleLaunchKernel, true},
      {"hipDeviceSynchronize", (void **)&h->DeviceSynchronize, true},
      {"hipGetErrorString", (void **)&h->GetErrorString, false},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    *syms[i].slot = dlsym(h->lib, syms[i].name);
    if (!*syms[i].slot && syms[i].required) {
      ll_seterr(err, LL_EXIT_ENV, "%s lacks %s: not a usable HIP runtime", libname, syms[i].name);
      goto fail;
    }
  }
  if (!h->GetDeviceProperties && !(*(void **)&h->GetDeviceProperties = dlsym(h->lib, "hipGetDeviceProperties"))) {
    ll_seterr(err, LL_EXIT_ENV, "%s lacks hipGetDeviceProperties: not a usable HIP runtime", libname);
    goto fail;
  }
  hipError_t e = h->Init(0);
  int count = 0;
  if (e != 0 || (e = h->GetDeviceCount(&count)) != 0 || count == 0) {
    ll_seterr(err, LL_EXIT_ENV, "no HIP device (%s: %s)",
              e ? "HIP error" : "device count", e ? estr(h, e) : "0");
    goto fail;
  }
  ll_buf seen = {0};
  for (int dev = 0; dev < count; dev++) {
    uint8_t *prop = ll_xcalloc(1, 1 << 16); /* larger than any hipDeviceProp_t */
    char name[256] = "";
    bool ok = h->GetDeviceProperties(prop, dev) == 0 && arch_name(prop, 1 << 16, name, sizeof name);
    free(prop);
    size_t al = strlen(emu_arch_name(arch));
    ll_buf_printf(&seen, "%s%d: %s", dev ? ", " : "", dev, ok ? name : "(unknown arch)");
    if (ok && strncmp(name, emu_arch_name(arch), al) == 0 && (name[al] == 0 || name[al] == ':')) {
      if ((e = h->SetDevice(dev)) != 0) {
        ll_seterr(err, LL_EXIT_ENV, "hipSetDevice(%d): %s", dev, estr(h, e));
        ll_buf_free(&seen);
        goto fail;
      }
      h->device = dev;
      snprintf(desc, desc_size, "HIP device %d (%s)", dev, name);
      ll_buf_free(&seen);
      return h;
    }
  }
  ll_seterr(err, LL_EXIT_ENV, "no HIP device of arch %s (devices: %s)",
            emu_arch_name(arch), ll_buf_str(&seen));
  ll_buf_free(&seen);
fail:
  rt_hip_close(h);
  return NULL;
}

uint64_t rt_hip_alloc(rt_hip *h, size_t n, ll_err *err) {
  void *p = NULL;
  hipError_t e = h->Malloc(&p, n);
  if (e != 0 || !p) {
    ll_seterr(err, LL_EXIT_FAIL, "hipMalloc(%zu): %s", n, estr(h, e));
    return 0;
  }
  /* Zero it, as rt.h promises, with a host copy (no hipMemset dependency). */
  void *z = ll_xcalloc(n, 1);
  e = h->Memcpy(p, z, n, 1);
  free(z);
  if (e != 0) {
    h->Free(p);
    ll_seterr(err, LL_EXIT_FAIL, "hipMemcpy (zero fill, %zu bytes): %s", n, estr(h, e));
    return 0;
  }
  return (uint64_t)(uintptr_t)p;
}

void rt_hip_free(rt_hip *h, uint64_t addr) { h->Free((void *)(uintptr_t)addr); }

bool rt_hip_copy(rt_hip *h, void *dst, const void *src, size_t n, bool to_device, ll_err *err) {
  hipError_t e = h->Memcpy(dst, src, n, to_device ? 1 : 2);
  if (e != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "hipMemcpy (%s, %zu bytes): %s", to_device ? "to device" : "from device", n, estr(h, e));
    return false;
  }
  return true;
}

void *rt_hip_load(rt_hip *h, const void *bytes, size_t n, ll_err *err) {
  hipModule_t m = NULL;
  hipError_t e = h->ModuleLoadData(&m, bytes);
  if (e != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "hipModuleLoadData: %s", estr(h, e));
    return NULL;
  }
  return m;
}

void rt_hip_unload(rt_hip *h, void *module) { if (module) h->ModuleUnload(module); }

int rt_hip_launch(rt_hip *h, void *module, const emu_kernel *k, const uint32_t grid[3],
                  const uint32_t block[3], uint32_t dynamic_lds, uint8_t *kernargs, size_t size,
                  ll_err *err) {
  hipFunction_t f = NULL;
  hipError_t e = h->ModuleGetFunction(&f, module, k->name);
  if (e != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "hipModuleGetFunction('%s'): %s", k->name, estr(h, e));
    return LL_EXIT_FAIL;
  }
  void *extra[] = {(void *)0x01, kernargs, (void *)0x02, &size, (void *)0x03};
  e = h->ModuleLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], dynamic_lds,
                            NULL, NULL, extra);
  if (e == 0) e = h->DeviceSynchronize();
  if (e != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "HIP launch of '%s': %s", k->name, estr(h, e));
    return LL_EXIT_FAIL;
  }
  return LL_EXIT_OK;
}

/* ---- the backend table (runtime/internal.h) ---------------------------------------------------*/
static void *hip_open(emu_arch arch, char *desc, size_t desc_size, ll_err *err) {
  return rt_hip_open(arch, desc, desc_size, err);
}
static void hip_close(void *h) { rt_hip_close(h); }
static uint64_t hip_alloc(void *h, size_t n, const char *name, ll_err *err) {
  (void)name;
  return rt_hip_alloc(h, n, err);
}
static void hip_free(void *h, uint64_t addr) { rt_hip_free(h, addr); }
static bool hip_copy(void *h, uint64_t dev, void *host, size_t n, bool to_device, ll_err *err) {
  void *d = (void *)(uintptr_t)dev;
  return to_device ? rt_hip_copy(h, d, host, n, true, err) : rt_hip_copy(h, host, d, n, false, err);
}
static void *hip_load(void *h, emu_codeobj *co, const void *bytes, size_t n, ll_err *err) {
  (void)co;
  return rt_hip_load(h, bytes, n, err);
}
static void hip_unload(void *h, void *module) { rt_hip_unload(h, module); }
static int hip_launch(void *h, const emu_codeobj *co, void *module, const emu_kernel *k, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dynamic_lds, uint8_t *kernargs, size_t size,
                      const rt_launch_opts *o, ll_err *err) {
  (void)co, (void)o;
  return rt_hip_launch(h, module, k, grid, block, dynamic_lds, kernargs, size, err);
}

const rt_backend_ops rt_hip_ops = {
    .id = RT_HIP, .open = hip_open, .close = hip_close, .alloc = hip_alloc, .free = hip_free, .copy = hip_copy,
    .load = hip_load, .unload = hip_unload, .launch = hip_launch, .emu_mem = NULL,
};
