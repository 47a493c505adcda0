// tests/programs/common.h — what the corpus programs share: HIP_CHECK, as HIP programs write it.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(expr)                                                                            \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #expr,               \
                   hipGetErrorString(e_), hipGetErrorName(e_));                                    \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);                     \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fprintf(stderr, "\n");                                                                  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
