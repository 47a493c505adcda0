// shfl_types: __shfl_xor(v, 5) for every type the subset shuffles, each lane's value distinct and
// using all of the type's bits (the high dword of 64-bit types, the fraction of floats), so a
// shuffle that converted or dropped half of a value shows. Per lane i, out = the values of lane
// i ^ 5, packed: int, unsigned, long long, unsigned long long, float, double, __half.
#include <hip/hip_runtime.h>

struct Row {
  int i;
  unsigned u;
  long long ll;
  unsigned long long ull;
  float f;
  double d;
  __half h;
  unsigned short pad;
};

__global__ void shfl_types(Row *out) {
  const int l = threadIdx.x;
  Row r;
  r.i = __shfl_xor(-1000 * l - 7, 5);
  r.u = __shfl_xor(0x80000001u + (unsigned)l, 5);
  r.ll = __shfl_xor(-(1LL << 40) * l - 3, 5);
  r.ull = __shfl_xor(0x123456789abcdef0ull + ((unsigned long long)l << 36), 5);
  r.f = __shfl_xor(0.37f * l + 0.125f, 5);
  r.d = __shfl_xor(1.0 / 3.0 + (double)l * 1e-12, 5);
  r.h = __shfl_xor((__half)(0.5f * l + 0.25f), 5);
  r.pad = 0;
  out[l] = r;
}
