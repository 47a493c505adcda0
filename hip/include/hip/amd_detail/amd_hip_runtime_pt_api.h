// hip/amd_detail/amd_hip_runtime_pt_api.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/amd_hip_runtime_pt_api.h> is not provided by lanelab's HIP headers: the per-thread default stream API (_spt) is not implemented"
