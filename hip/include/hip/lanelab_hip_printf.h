// hip/lanelab_hip_printf.h — device printf and assert for lanelab's HIP (included by
// hip/hip_runtime.h; docs/hip-runtime.md "Device printf and assert").
//
// printf: clang lowers a device printf call itself. With -mprintf-kind=buffered (lanelab hipcc and
// lanelab cc pass it) each call reserves a record with __printf_alloc, defined here, and writes
// the format's id and the arguments into it; the runtime prints the records after the launch
// (runtime/rt_printf.c has the record format). A program compiled without that flag gets clang's
// default (hostcall) lowering, whose device functions (__ockl_printf_*) do not exist here: the
// device link fails naming them.
//
// assert: glibc's assert() calls __assert_fail; the device one below prints HIP's message
// ("FILE:LINE: FUNCTION: Device-side assertion `EXPR' failed.") and traps, which stops the
// kernel with a fault (s_trap) that the runtime reports as hipErrorAssert.
#ifndef LANELAB_HIP_PRINTF_H
#define LANELAB_HIP_PRINTF_H

extern "C" __device__ int printf(const char *format, ...);

// The printf buffer (the hidden_printf_buffer kernel argument, byte 72 of the implicit arguments
// of code object v5, LLVM AMDGPUUsage "Code Object V5 Metadata") starts with the bytes used so far
// and its capacity; records follow from byte 8. One atomic add reserves a record; a record that
// does not fit is not written (printf returns -1), and the used count still grows so the host
// can tell how much was lost. Weak and used: the call to it is made by clang's printf lowering,
// after the source has been compiled, in every code object that calls printf.
extern "C" __device__ __attribute__((weak, used)) __attribute__((address_space(1))) char *
__printf_alloc(unsigned int bytes) {
  char *buf = *(char *const *)((const __attribute__((address_space(4))) char *)__builtin_amdgcn_implicitarg_ptr() + 72);
  if (!buf) return 0;
  unsigned int *hdr = (unsigned int *)buf;
  unsigned int off = __hip_atomic_fetch_add(&hdr[0], bytes, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  if ((unsigned long long)off + bytes + 8 > hdr[1]) return 0;
  return (__attribute__((address_space(1))) char *)(buf + 8 + off);
}

// Inlined (HIP's own is a noinline call): a call needs a stack in scratch memory, which the
// emulator does not provide to flat accesses, and the assert's trap is then inside the kernel's
// own code. The runtime tells an assert's trap from others by the printf record before it.
extern "C" __device__ inline __attribute__((always_inline, noreturn)) void
__assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}
// CUDA's spelling, which some sources call directly.
extern "C" __device__ inline __attribute__((always_inline, noreturn)) void
__assertfail(const char *assertion, const char *file, unsigned int line, const char *function, unsigned long) {
  __assert_fail(assertion, file, line, function);
}

// Device heap allocation (HIP's device malloc/free) is not provided: declared, never defined, so
// a kernel that calls them fails to link naming them ("undefined symbol: malloc").
extern "C" __device__ void *malloc(size_t size);
extern "C" __device__ void free(void *ptr);

#endif // LANELAB_HIP_PRINTF_H
