// Test inputs for tests/test_runtime.c's user-kernel tests (compiled by the test at run time):
// C++ kernels (mangled symbols, overloads, templates in a namespace), kernels taking packed
// structs by value (12, 320 and 656 bytes, the sizes AMD's library kernels use), and one whose
// arguments are given by name. Plain HIP with clang builtins only (-nogpuinc -nogpulib).
#define KERNEL __attribute__((global))

static __attribute__((device)) unsigned gid() {
  return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
}

// _Z11row_softmaxPKfPfS1_i: out[i] = in[i] + n (not a softmax: only its name matters here)
KERNEL void row_softmax(const float *in, float *out, float *tmp, int n) {
  unsigned i = gid();
  out[i] = in[i] + (float)n;
}

// Overloads: scale(float*, float) and scale(double*, double)
KERNEL void scale(float *p, float s) { p[gid()] *= s; }
KERNEL void scale(double *p, double s) { p[gid()] *= s; }

// Templates in a namespace: ns::fill<64> and ns::fill<128> write N into out[i]
namespace ns {
template <int N> KERNEL void fill(unsigned *out) { out[gid()] = N; }
template KERNEL void fill<64>(unsigned *);
template KERNEL void fill<128>(unsigned *);
}

// y[i] = a * x[i] + y[i] for i < n: arguments named a, x, y, n in the metadata
KERNEL void axpy(float a, const float *x, float *y, unsigned n) {
  unsigned i = gid();
  if (i < n) y[i] = a * x[i] + y[i];
}

// A 12-byte struct after a pointer: out[0..2] = a, b, c (bits)
struct S12 { float a, b; unsigned c; };
KERNEL void packed12(unsigned *out, S12 s) {
  if (gid() == 0) {
    out[0] = __builtin_bit_cast(unsigned, s.a);
    out[1] = __builtin_bit_cast(unsigned, s.b);
    out[2] = s.c;
  }
}

// 320 bytes by value: out[i] = in[i] * scale + bias[i % 74] for i < n
struct P320 { const float *in; float *out; unsigned n; float scale; float bias[74]; };
static_assert(sizeof(P320) == 320, "P320 is 320 bytes");
KERNEL void packed320(P320 p) {
  unsigned i = gid();
  if (i < p.n) p.out[i] = p.in[i] * p.scale + p.bias[i % 74];
}

// 656 bytes by value: dst[i] = src[idx[i]] for i < 160 (a gather through a table in the struct)
struct P656 { const unsigned *src; unsigned *dst; int idx[160]; };
static_assert(sizeof(P656) == 656, "P656 is 656 bytes");
KERNEL void packed656(P656 p) {
  unsigned i = gid();
  if (i < 160) p.dst[i] = p.src[p.idx[i]];
}
