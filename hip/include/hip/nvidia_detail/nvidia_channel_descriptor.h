// hip/nvidia_detail/nvidia_channel_descriptor.h
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/nvidia_detail/nvidia_channel_descriptor.h> is not provided by lanelab's HIP headers: it belongs to HIP's NVIDIA platform (nvcc); lanelab targets AMD gfx942 and gfx950 only"
