// hip/amd_detail/amd_hip_complex.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/amd_hip_complex.h> is not provided by lanelab's HIP headers: complex numbers (hipFloatComplex, hipDoubleComplex) are not implemented"
