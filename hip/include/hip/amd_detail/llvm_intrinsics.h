// hip/amd_detail/llvm_intrinsics.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/llvm_intrinsics.h> is not provided by lanelab's HIP headers: it declares __llvm_amdgcn_* aliases; use clang's __builtin_amdgcn_* (every one clang offers for the arch is available)"
