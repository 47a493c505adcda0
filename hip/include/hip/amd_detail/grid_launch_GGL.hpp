// hip/amd_detail/grid_launch_GGL.hpp
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/grid_launch_GGL.hpp> is not provided by lanelab's HIP headers: hcc's grid_launch interface, removed from HIP; launch with <<<>>> or hipLaunchKernelGGL"
