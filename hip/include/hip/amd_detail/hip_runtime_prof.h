// hip/amd_detail/hip_runtime_prof.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/hip_runtime_prof.h> is not provided by lanelab's HIP headers: HIP's profiler/tracer interface is not implemented"
