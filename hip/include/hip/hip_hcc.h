// hip/hip_hcc.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/hip_hcc.h> is not provided by lanelab's HIP headers: it is hcc's deprecated extension header, removed from HIP"
