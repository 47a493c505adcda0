// Pitched 3D memory: hipMalloc3D, hipMemset3D, hipMemcpy3D with positions on both sides (a host
// volume's sub-box into the device volume and back), a kernel walking the volume by its pitch and
// ysize, and the refusals (an array side; an extent past the pitch). The expected bytes are
// computed on the host from the layout rule, byte (x, y, z) at ptr + (z * ysize + y) * pitch + x.
#include "../common.h"
#include <cstring>
#include <vector>

__global__ void vol_add(hipPitchedPtr v, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  unsigned char *row = (unsigned char *)v.ptr + ((size_t)z * v.ysize + y) * v.pitch;
  row[x] = (unsigned char)(row[x] + 1 + x % 3);
}

int main() {
  const int W = 70, H = 5, D = 4;                 // the device volume, bytes
  const int HW = 90, HH = 8, HD = 6;              // the host volume it is copied from and to
  hipPitchedPtr dv;
  HIP_CHECK(hipMalloc3D(&dv, make_hipExtent(W, H, D)));
  EXPECT(dv.pitch >= (size_t)W && dv.xsize == (size_t)W && dv.ysize == (size_t)H, "pitch %zu xsize %zu ysize %zu",
         dv.pitch, dv.xsize, dv.ysize);
  HIP_CHECK(hipMemset3D(dv, 0x11, make_hipExtent(W, H, D)));
  std::vector<unsigned char> host(HW * HH * HD), back(HW * HH * HD, 0xee);
  for (size_t i = 0; i < host.size(); i++) host[i] = (unsigned char)(i * 7 + 3);
  // the host box at (5, 1, 1), 40 x 3 x 2 bytes, to the device at (20, 2, 1)
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(host.data(), HW, HW, HH);
  p.srcPos = make_hipPos(5, 1, 1);
  p.dstPtr = dv;
  p.dstPos = make_hipPos(20, 2, 1);
  p.extent = make_hipExtent(40, 3, 2);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
  vol_add<<<dim3((W + 63) / 64, H, D), 64>>>(dv, W, H, D);
  HIP_CHECK(hipGetLastError());
  // the whole device volume back into the host volume at (10, 2, 1)
  hipMemcpy3DParms q = {};
  q.srcPtr = dv;
  q.dstPtr = make_hipPitchedPtr(back.data(), HW, HW, HH);
  q.dstPos = make_hipPos(10, 2, 1);
  q.extent = make_hipExtent(W, H, D);
  q.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3DAsync(&q, 0));
  HIP_CHECK(hipDeviceSynchronize());
  int bad = 0;
  for (int z = 0; z < HD; z++)
    for (int y = 0; y < HH; y++)
      for (int x = 0; x < HW; x++) {
        const int dx = x - 10, dy = y - 2, dz = z - 1;
        int want = 0xee;
        if (dx >= 0 && dx < W && dy >= 0 && dy < H && dz >= 0 && dz < D) {
          int v = 0x11;
          const int sx = dx - 20 + 5, sy = dy - 2 + 1, sz = dz - 1 + 1;
          if (dx >= 20 && dx < 60 && dy >= 2 && dy < 5 && dz >= 1 && dz < 3) v = host[(sz * HH + sy) * HW + sx];
          want = (v + 1 + dx % 3) & 0xff;
        }
        bad += back[(z * HH + y) * HW + x] != want;
      }
  EXPECT(bad == 0, "%d bytes differ", bad);
  hipMemcpy3DParms arr = q;
  arr.srcArray = (hipArray_t)0x1;
  EXPECT(hipMemcpy3D(&arr) == hipErrorInvalidValue, "an array side is refused");
  hipMemcpy3DParms wide = q;
  wide.extent = make_hipExtent(dv.pitch + 1, 1, 1);
  EXPECT(hipMemcpy3D(&wide) == hipErrorInvalidValue, "an extent past the pitch is refused");
  HIP_CHECK(hipFree(dv.ptr));
  std::printf("pitched_3d: %d x %d x %d volume, pitch %zu: ok\n", W, H, D, dv.pitch);
  return 0;
}
