// hip/hiprtc.h — HIP's runtime compilation (hiprtc) on lanelab's runtime (docs/hip-runtime.md,
// "Runtime compilation"). A program's source string is compiled at run time by the same compiler
// and headers as `lanelab hipcc` (clang-22 or ROCm's, lanelab's HIP headers) into a code object
// for gfx942 or gfx950, which hipModuleLoadData loads. The result codes have HIP's values. The
// linker API (hiprtcLink*) and bitcode output (-fgpu-rdc, hiprtcGetBitcode) are refused by name.
#ifndef LANELAB_HIPRTC_H
#define LANELAB_HIPRTC_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hiprtcResult {
  HIPRTC_SUCCESS = 0,
  HIPRTC_ERROR_OUT_OF_MEMORY = 1,
  HIPRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  HIPRTC_ERROR_INVALID_INPUT = 3,
  HIPRTC_ERROR_INVALID_PROGRAM = 4,
  HIPRTC_ERROR_INVALID_OPTION = 5,
  HIPRTC_ERROR_COMPILATION = 6,
  HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  HIPRTC_ERROR_INTERNAL_ERROR = 11,
  HIPRTC_ERROR_LINKING = 100
} hiprtcResult;

typedef struct _hiprtcProgram *hiprtcProgram;

const char *hiprtcGetErrorString(hiprtcResult result);
hiprtcResult hiprtcVersion(int *major, int *minor);
hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                 const char *const *headers, const char *const *includeNames);
hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog);
hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression);
hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char *const *options);
hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression, const char **lowered_name);
hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet);
hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log);
hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet);
hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code);

#ifdef __cplusplus
} // extern "C"

// The linker API's types, declared so that a program naming them stops at the refusal of the call.
typedef enum hiprtcJIT_option {
  HIPRTC_JIT_MAX_REGISTERS = 0,
  HIPRTC_JIT_THREADS_PER_BLOCK = 1,
  HIPRTC_JIT_WALL_TIME = 2,
  HIPRTC_JIT_INFO_LOG_BUFFER = 3,
  HIPRTC_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  HIPRTC_JIT_ERROR_LOG_BUFFER = 5,
  HIPRTC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  HIPRTC_JIT_OPTIMIZATION_LEVEL = 7,
  HIPRTC_JIT_TARGET_FROM_HIPCONTEXT = 8,
  HIPRTC_JIT_TARGET = 9,
  HIPRTC_JIT_FALLBACK_STRATEGY = 10,
  HIPRTC_JIT_GENERATE_DEBUG_INFO = 11,
  HIPRTC_JIT_LOG_VERBOSE = 12,
  HIPRTC_JIT_GENERATE_LINE_INFO = 13,
  HIPRTC_JIT_CACHE_MODE = 14,
  HIPRTC_JIT_NEW_SM3X_OPT = 15,
  HIPRTC_JIT_FAST_COMPILE = 16,
  HIPRTC_JIT_GLOBAL_SYMBOL_NAMES = 17,
  HIPRTC_JIT_GLOBAL_SYMBOL_ADDRESS = 18,
  HIPRTC_JIT_GLOBAL_SYMBOL_COUNT = 19,
  HIPRTC_JIT_LTO = 20,
  HIPRTC_JIT_FTZ = 21,
  HIPRTC_JIT_PREC_DIV = 22,
  HIPRTC_JIT_PREC_SQRT = 23,
  HIPRTC_JIT_FMA = 24,
  HIPRTC_JIT_NUM_OPTIONS = 25
} hiprtcJIT_option;
typedef enum hiprtcJITInputType {
  HIPRTC_JIT_INPUT_CUBIN = 0,
  HIPRTC_JIT_INPUT_PTX = 1,
  HIPRTC_JIT_INPUT_FATBINARY = 2,
  HIPRTC_JIT_INPUT_OBJECT = 3,
  HIPRTC_JIT_INPUT_LIBRARY = 4,
  HIPRTC_JIT_INPUT_NVVM = 5,
  HIPRTC_JIT_NUM_LEGACY_INPUT_TYPES = 6,
  HIPRTC_JIT_INPUT_LLVM_BITCODE = 100,
  HIPRTC_JIT_INPUT_LLVM_BUNDLED_BITCODE = 101,
  HIPRTC_JIT_INPUT_LLVM_ARCHIVES_OF_BUNDLED_BITCODE = 102,
  HIPRTC_JIT_NUM_INPUT_TYPES = 9
} hiprtcJITInputType;
typedef struct ihiprtcLinkState *hiprtcLinkState;

#define LL_HIPRTC_REFUSED(name, why)                                                                  \
  template <class... A> hiprtcResult name(A &&...) noexcept __attribute__((error(                    \
      "lanelab's hiprtc does not provide " #name ": " why " (docs/hip-runtime.md)")));
LL_HIPRTC_REFUSED(hiprtcGetBitcode, "bitcode for a later link (-fgpu-rdc) is not provided; compile to a code object")
LL_HIPRTC_REFUSED(hiprtcGetBitcodeSize, "bitcode for a later link (-fgpu-rdc) is not provided; compile to a code object")
LL_HIPRTC_REFUSED(hiprtcLinkCreate, "the run-time linker is not provided; compile one source to a code object")
LL_HIPRTC_REFUSED(hiprtcLinkAddFile, "the run-time linker is not provided; compile one source to a code object")
LL_HIPRTC_REFUSED(hiprtcLinkAddData, "the run-time linker is not provided; compile one source to a code object")
LL_HIPRTC_REFUSED(hiprtcLinkComplete, "the run-time linker is not provided; compile one source to a code object")
LL_HIPRTC_REFUSED(hiprtcLinkDestroy, "the run-time linker is not provided; compile one source to a code object")
#undef LL_HIPRTC_REFUSED
#endif
#endif
