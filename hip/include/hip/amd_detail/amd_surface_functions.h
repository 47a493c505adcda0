// hip/amd_detail/amd_surface_functions.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/amd_surface_functions.h> is not provided by lanelab's HIP headers: textures, surfaces and images are not implemented (the emulator has no texture unit)"
