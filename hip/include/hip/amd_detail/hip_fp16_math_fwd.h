// hip/amd_detail/hip_fp16_math_fwd.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/hip_fp16_math_fwd.h> is not provided by lanelab's HIP headers: it declares the ROCm device library's __ocml/__ockl functions, and lanelab compiles without a device library (-nogpulib); the math it offers is in <hip/hip_runtime.h>"
