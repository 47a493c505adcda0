// hip/amd_detail/hip_fp16_gcc.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/hip_fp16_gcc.h> is not provided by lanelab's HIP headers: it is HIP's __half for host compilers other than clang; lanelab's <hip/hip_fp16.h> serves clang, host and device"
