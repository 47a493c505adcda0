// hip/library_types.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/library_types.h> is not provided by lanelab's HIP headers: the data-type enums of ROCm's math libraries (hipBLAS, hipFFT, ...), none of which lanelab provides"
