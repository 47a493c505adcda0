// hip/driver_types.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/driver_types.h> is not provided by lanelab's HIP headers: a host-side runtime header, not provided yet (issue 26 builds lanelab's HIP host side)"
