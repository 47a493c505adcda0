// The HIP vocabulary AMD's own conformance tests (ROCm/hip-tests' catch/unit) lean on, written here
// the way they write it; each part has its expected values from HIP's definitions, not from a run:
// - memcpy and memset in device code (HIP provides both, byte by byte), for sizes that are not
//   multiples of 4;
// - __shfl and its kin on bool, char and short: HIP's overloads promote them to int;
// - HIP's feature-test macros (__HIP_ARCH_HAS_*): gfx9's values in the device pass, 0 in the host's;
// - INT_MAX and std::numeric_limits with nothing but hip_runtime.h (ROCm's headers bring both);
// - __clock() and __clock64();
// - the occupancy templates with the kernel's pointer type as an explicit argument, and
//   hipExtLaunchKernelGGL given a function template's name;
// - the mipmapped-array, array-flag, pointer-attribute and pool types compile (their calls are
//   refused by name);
// - cooperative groups' thread_block::group_index, thread_index and group_dim;
// - atomicAddNoRet, HIP's bfloat16 constants (HIPRT_ONE_BF16 ...) and HIP_SUCCESS;
// - atomics on double and long long, and the floating atomicMax/atomicMin with HIP's definition (a
//   compare-and-swap loop: NaN beats nothing, -0.0 counts below +0.0);
// - hipPointerGetAttribute and hipDrvPointerGetAttributes with ROCm's answers;
// - hipDeviceAttributeWallClockRate, and the errors ROCm gives handles that are not streams or events;
// - hipKernelNameRefByPtr (the kernel's mangled name, written out by the Itanium rule; NULL for a
//   pointer that is no kernel), __half2 comparisons on the host (__hbeq2, __hblt2: ROCm 6's are
//   host and device) and a vector compared with a scalar (every element against it);
// - the external semaphores' signal and wait: their parameter types, and ROCm's error for a NULL
//   array and for a handle that is not a semaphore (none can exist here);
// - hipMemcpyParam2D / hipMemcpyParam2DAsync, the driver API's 2D copy block;
// - cooperative groups' binary_partition (of a tile), a coalesced group's match_any, and a
//   coalesced group cut by tiled_partition(group, n).
// - from deviceLib and math: nanf/nan with their tags, amd_mixed_dot in its seven forms (with and
//   without saturation), pow(float/double/_Float16, int), fma of three _Float16, and the bit counts
//   given other types (__clz(short), __clz(float), __clzll(int)), as HIP's signatures convert them;
//   <cmath>'s mixed-type calls (fma(float, float, int), std::fmax(float, double) ...);
// - unsafeAtomicAdd of __half2 and __hip_bfloat162 (atomics/unsafeAtomicAdd.cc).
// - compute-unit masks (hipExtStreamCreateWithCUMask, hipExtStreamGetCUMask; stream/hipStream*CUMask.cc):
//   ROCm's answers written out below as formulas of the device's compute-unit count, and a kernel on a
//   masked stream computing as on any other.
// - hipOccupancyMaxPotentialBlockSizeVariableSMem[WithFlags] (occupancy/...VariableSMemWithFlags.cc)
//   with a function, a functor and a lambda as the size rule, on cases worked by hand.
// `hip_tests_idioms long N` instead runs one wave through N iterations of a loop (AMD's hip-tests
// have such kernels: 2^21 iterations of powf in one thread) and prints the launch's result: a
// program's instruction budget is far above `lanelab run`'s 50 million (LANELAB_BUDGET changes it).
#include "../common.h"
#include <hip/hip_ext.h>
#include <hip/hip_cooperative_groups.h>
#include <cfloat>
#include <cmath>
#include <cstring>

__global__ void copy_sizes(const unsigned char *in, unsigned char *out, unsigned char *set) {
  const int n = threadIdx.x + 1; // 1 .. 11 bytes
  memcpy(out + 16 * threadIdx.x, in + 16 * threadIdx.x, n);
  memset(set + 16 * threadIdx.x, 0x80 + n, n);
}

__global__ void narrow_shuffles(int *out) {
  const int l = threadIdx.x;
  short s = (short)(-3 * l);
  signed char c = (signed char)(l - 100);
  bool b = l % 3 == 0;
  unsigned short u = (unsigned short)(60000 + l);
  auto rs = __shfl(s, (l + 1) % 64);
  auto rc = __shfl_down(c, 1);
  auto rb = __shfl_xor(b, 1);
  auto ru = __shfl_up(u, 2);
  static_assert(std::is_same<decltype(rs), int>::value && std::is_same<decltype(rb), int>::value, "promoted to int");
  out[4 * l] = rs, out[4 * l + 1] = rc, out[4 * l + 2] = rb, out[4 * l + 3] = ru;
}

__global__ void feature_macros(int *out, long long *clk) {
  out[0] = __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__;
  out[1] = __HIP_ARCH_HAS_DOUBLES__;
  out[2] = __HIP_ARCH_HAS_WARP_SHUFFLE__;
  out[3] = __HIP_ARCH_HAS_3DGRID__;
  out[4] = __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__;
  out[5] = __HIP_ARCH_HAS_DYNAMIC_PARALLEL__;
  out[6] = INT_MAX == std::numeric_limits<int>::max();
  long long a = __clock64();
  long long b = __clock();
  clk[0] = a, clk[1] = b;
}

__global__ void occupancy_kernel(int *p) { p[threadIdx.x] = 1; }

__global__ void old_names(float *p) {
  atomicAddNoRet(&p[0], 0.5f);
  if (threadIdx.x == 0) p[1] = (float)HIPRT_ONE_BF16 + (float)HIPRT_NEG_ZERO_BF16, p[2] = (float)HIPRT_INF_BF16;
}

// a grid of 3 x 2 blocks of 4 x 2 threads: each thread writes what its block says of itself
__global__ void cg_indices(int *out) {
  auto b = cooperative_groups::this_thread_block();
  const dim3 g = b.group_index(), t = b.thread_index(), d = b.group_dim();
  const int flat = ((blockIdx.y * 3 + blockIdx.x) * 8) + threadIdx.y * 4 + threadIdx.x;
  out[flat] = g.x * 100000 + g.y * 10000 + t.x * 1000 + t.y * 100 + d.x * 10 + d.y;
}

__global__ void wide_atomics(float *f, double *d, long long *ll, double *dx) {
  const int l = threadIdx.x;
  atomicMax(&f[0], (float)l);
  atomicMin(&f[1], -(float)l);
  atomicMax(&d[0], (double)l * 1.5);
  atomicMin_system(&d[1], -(double)l);
  atomicSub(&d[2], 1.0);
  atomicMax(&ll[0], (long long)l - 100);
  atomicMin_block(&ll[1], (long long)l - 100);
  if (l == 0) {
    dx[0] = atomicExch(&dx[1], 7.0);
    dx[3] = atomicCAS(&dx[2], 3.0, 9.0);
    atomicMax(&f[2], 0.0f);  // over -0.0: +0.0
    atomicMin(&f[3], -0.0f); // over +0.0: -0.0
    atomicMax(&f[4], 1.0f);  // over NaN: NaN stays
    atomicMin(&d[3], 5.0);   // over NaN: NaN stays
    atomicMax(&f[5], NAN);   // NaN over 2: 2 stays
  }
}

template <typename T> __global__ void add_template(const T *a, const T *b, T *c, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

/* binary_partition of a 16-lane tile by a value's parity, and a coalesced group's match_any */
__global__ void cg_partitions(const int *d, unsigned long long *m, int *sz, int *any, int *rank) {
  const int t = threadIdx.x;
  auto tile = cooperative_groups::tiled_partition<16>(cooperative_groups::this_thread_block());
  auto p = cooperative_groups::binary_partition(tile, d[t] & 1);
  sz[t] = p.size(), rank[t] = p.thread_rank(), any[t] = p.any(d[t] > 46);
  m[t] = cooperative_groups::coalesced_threads().match_any(d[t] % 3);
  /* the odd values' lanes as a coalesced group, cut into runs of 4 of its ranks: each lane's run
   * size and rank there, and the value of the run's next rank (shfl_down by 1; the last keeps its own) */
  if (d[t] & 1) {
    auto q = cooperative_groups::tiled_partition(cooperative_groups::coalesced_threads(), 4);
    sz[64 + t] = q.size(), rank[64 + t] = q.thread_rank(), any[64 + t] = q.shfl_down(d[t], 1);
  }
}
__global__ void devlib_vocab(const int *in, unsigned *u, int *i32, float *f, double *d) {
  if (threadIdx.x != 0) return;
  // nanf / nan: the tag's payload under the quiet bit (decimal, octal; hexadecimal and junk give 0)
  u[0] = __builtin_bit_cast(unsigned, nanf("1"));
  u[1] = __builtin_bit_cast(unsigned, nanf("017"));
  u[2] = __builtin_bit_cast(unsigned, nanf("0x1f"));
  u[3] = __builtin_bit_cast(unsigned, nanf("12a"));
  const unsigned long long dn = __builtin_bit_cast(unsigned long long, nan("4194304"));
  u[4] = (unsigned)dn, u[5] = (unsigned)(dn >> 32);
  // amd_mixed_dot: in[] holds the operands so the compiler folds none of them
  const short2 sa(in[0], in[1]), sb(in[2], in[3]);
  i32[0] = amd_mixed_dot(sa, sb, in[4], false);
  i32[1] = amd_mixed_dot(sa, sb, (int)0x80000005u, true);
  const ushort2 ua((unsigned short)in[5], (unsigned short)in[6]);
  u[6] = amd_mixed_dot(ua, ua, 7u, false);
  u[7] = amd_mixed_dot(ua, ua, 0xfffffff0u, true);
  const char4 ca((char)in[0], (char)in[1], (char)in[2], (char)in[3]), cb((char)in[7], (char)in[8], (char)in[9], (char)in[10]);
  i32[2] = amd_mixed_dot(ca, cb, -5, false);
  const uchar4 uca((unsigned char)in[5], 1, 2, 3), ucb(200, 3, 4, (unsigned char)in[6]);
  u[8] = amd_mixed_dot(uca, ucb, 1u, false);
  i32[3] = amd_mixed_dot(in[11], in[12], 100, false);
  u[9] = amd_mixed_dot((unsigned)in[11], (unsigned)in[12], 100u, false);
  f[0] = amd_mixed_dot(__half2(__half((float)in[0]), __half(0.5f)), __half2(__half((float)in[2]), __half(3.0f)), 0.25f, false);
  // pow with an int exponent in the base's format, fma of three _Float16
  f[1] = pow((float)in[13], in[14]);
  d[0] = pow((double)in[7], in[14]);
  const _Float16 h = (_Float16)(1.0f / 3.0f);
  f[2] = (float)pow((_Float16)in[13], 3);
  f[3] = (float)fma(h, h, (_Float16)3);
  // bit counts given other types, converted as HIP's parameters convert them
  const short sh = (short)in[15];
  const float fl = (float)in[16];
  i32[4] = __clz(sh), i32[5] = __clz(fl), i32[6] = __clzll(in[16]);
  u[10] = __popc(in[15]);
}

/* unsafeAtomicAdd of __half2 and __hip_bfloat162 (the packed f16 / bf16 atomic adds), 64 lanes on one pair */
__global__ void packed_atomics(__half2 *h, __hip_bfloat162 *b, float *old) {
  const int t = threadIdx.x;
  const __half2 o = unsafeAtomicAdd(h, __half2(__half(1.0f), __half(0.5f)));
  const __hip_bfloat162 p = unsafeAtomicAdd(b, __hip_bfloat162(__hip_bfloat16(2.0f), __hip_bfloat16(-1.0f)));
  old[2 * t] = __half2float(o.x), old[2 * t + 1] = (float)p.x;
}

/* __half's assignment set as HIP's (AMD's deviceLib/hipTestNativeHalf.cc asks these of it) */
static_assert(std::is_assignable<__half, volatile __half_raw &&>::value && std::is_assignable<__half, volatile __half_raw &>::value &&
                  std::is_assignable<__half, __half_raw>::value && std::is_assignable<__half, int64_t>::value &&
                  std::is_convertible<__half, volatile __half_raw>::value && std::is_convertible<__half, bool>::value,
              "__half's assignments and conversions");

/* <cmath>'s mixed-type forms (libstdc++'s templates promote to double and call the double function:
 * HIP's device one) */
__global__ void mixed_promote(double *o, float f, int i, double d) {
  o[0] = fma(f, f, 3), o[1] = fma(f, f, (unsigned char)3), o[2] = std::fmax(f, d), o[3] = std::fmin(i, f);
  o[4] = std::copysign(f, -i), o[5] = std::fdim(f, i), o[6] = std::fmod(d, f), o[7] = std::nextafter(f, d);
  o[8] = std::remainder(i, f), o[9] = std::hypot(f, i), o[10] = std::atan2(i, d), o[11] = std::pow(f, d);
}

__global__ void long_loop(float *out, int n) {
  float acc = out[0];
  for (int i = 0; i < n; i++) acc = acc * 0.999f + (float)(i & 7);
  out[0] = acc;
}

static size_t lds_16k_plus_64_per_thread(int b) { return 16384 + 64 * (size_t)b; }
struct per_thread_lds {
  int bytes;
  size_t operator()(int b) { return (size_t)b * bytes; } // not const: HIP's template calls it as given
};

int main(int argc, char **argv) {
  if (argc == 3 && !std::strcmp(argv[1], "long")) {
    float *d;
    HIP_CHECK(hipMalloc(&d, sizeof(float)));
    HIP_CHECK(hipMemset(d, 0, sizeof(float)));
    long_loop<<<1, 1>>>(d, std::atoi(argv[2]));
    hipError_t e = hipDeviceSynchronize();
    std::printf("hip_tests_idioms: long loop of %s: %s\n", argv[2], hipGetErrorName(e));
    return e == hipSuccess ? 0 : 1;
  }
  // device memcpy / memset
  unsigned char in[176], out[176], set[176];
  for (int i = 0; i < 176; i++) in[i] = (unsigned char)(i * 7 + 1);
  unsigned char *din, *dout, *dset;
  HIP_CHECK(hipMalloc(&din, 176));
  HIP_CHECK(hipMalloc(&dout, 176));
  HIP_CHECK(hipMalloc(&dset, 176));
  HIP_CHECK(hipMemcpy(din, in, 176, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0xee, 176));
  HIP_CHECK(hipMemset(dset, 0xee, 176));
  copy_sizes<<<1, 11>>>(din, dout, dset);
  HIP_CHECK(hipMemcpy(out, dout, 176, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(set, dset, 176, hipMemcpyDeviceToHost));
  for (int t = 0; t < 11; t++)
    for (int k = 0; k < 16; k++) {
      const int i = 16 * t + k;
      EXPECT(out[i] == (k <= t ? in[i] : 0xee), "memcpy of %d bytes: byte %d is 0x%02x", t + 1, k, out[i]);
      EXPECT(set[i] == (k <= t ? 0x80 + t + 1 : 0xee), "memset of %d bytes: byte %d is 0x%02x", t + 1, k, set[i]);
    }

  // narrow shuffles: results as HIP's int overloads give them
  int *dsh, sh[256];
  HIP_CHECK(hipMalloc(&dsh, sizeof sh));
  narrow_shuffles<<<1, 64>>>(dsh);
  HIP_CHECK(hipMemcpy(sh, dsh, sizeof sh, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; l++) {
    const int src = (l + 1) % 64, down = l + 1 < 64 ? l + 1 : l, up = l >= 2 ? l - 2 : l;
    EXPECT(sh[4 * l] == -3 * src, "__shfl(short) lane %d: %d", l, sh[4 * l]);
    EXPECT(sh[4 * l + 1] == down - 100, "__shfl_down(signed char) lane %d: %d", l, sh[4 * l + 1]);
    EXPECT(sh[4 * l + 2] == ((l ^ 1) % 3 == 0), "__shfl_xor(bool) lane %d: %d", l, sh[4 * l + 2]);
    EXPECT(sh[4 * l + 3] == 60000 + up, "__shfl_up(unsigned short) lane %d: %d", l, sh[4 * l + 3]);
  }

  // feature-test macros: the device pass's values, then the host's
  int *dfm, fm[7];
  long long *dclk, clk[2];
  HIP_CHECK(hipMalloc(&dfm, sizeof fm));
  HIP_CHECK(hipMalloc(&dclk, sizeof clk));
  feature_macros<<<1, 1>>>(dfm, dclk);
  HIP_CHECK(hipMemcpy(fm, dfm, sizeof fm, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(clk, dclk, sizeof clk, hipMemcpyDeviceToHost));
  EXPECT(fm[0] == 1 && fm[1] == 1 && fm[2] == 1 && fm[3] == 1 && fm[4] == 0 && fm[5] == 0 && fm[6] == 1,
         "device feature macros %d %d %d %d %d %d, limits %d", fm[0], fm[1], fm[2], fm[3], fm[4], fm[5], fm[6]);
  EXPECT(__HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ == 0 && __HIP_ARCH_HAS_DOUBLES__ == 0, "host pass feature macros");
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  EXPECT(prop.arch.hasGlobalInt32Atomics == fm[0] && prop.arch.hasDoubles == fm[1] && prop.arch.hasWarpShuffle == fm[2] &&
             prop.arch.has3dGrid == fm[3] && prop.arch.hasFunnelShift == fm[4] && prop.arch.hasDynamicParallelism == fm[5] &&
             prop.arch.hasSyncThreadsExt == 0,
         "the properties' arch flags against the device pass's macros");
  // the device flags: ROCm's hip::Device starts at hipDeviceScheduleSpin and keeps the scheduling part
  unsigned dflags = 99;
  HIP_CHECK(hipGetDeviceFlags(&dflags));
  EXPECT(dflags == hipDeviceScheduleSpin, "initial device flags %u", dflags);
  HIP_CHECK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync | hipDeviceMapHost));
  HIP_CHECK(hipGetDeviceFlags(&dflags));
  EXPECT(dflags == hipDeviceScheduleBlockingSync, "device flags after a set %u", dflags);
  EXPECT(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleYield) == hipErrorInvalidValue, "two scheduling flags");
  uint32_t link = 0, hops = 0;
  EXPECT(hipExtGetLinkTypeAndHopCount(0, 0, &link, &hops) == hipErrorInvalidValue, "a device's link to itself");
  EXPECT(clk[0] > 0 && clk[1] > clk[0], "__clock64 %lld then __clock %lld", clk[0], clk[1]);

  // occupancy with the kernel's pointer type named, as hip-tests call it
  int grid = 0, block = 0, blocks = 0;
  HIP_CHECK(hipOccupancyMaxPotentialBlockSize<void (*)(int *)>(&grid, &block, occupancy_kernel, 0, 0));
  EXPECT(block > 0 && block <= 1024 && block % 64 == 0 && grid > 0, "potential block size %d, grid %d", block, grid);
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor<void (*)(int *)>(&blocks, occupancy_kernel, block, 0));
  EXPECT(blocks > 0, "active blocks %d", blocks);

  // hipExtLaunchKernelGGL with a function template's name: its arguments pick the instance
  const size_t n = 300;
  int *da, *db, *dc, a[300], b[300], c[300];
  for (size_t i = 0; i < n; i++) a[i] = (int)i, b[i] = (int)(1000 - 3 * i);
  HIP_CHECK(hipMalloc(&da, sizeof a));
  HIP_CHECK(hipMalloc(&db, sizeof b));
  HIP_CHECK(hipMalloc(&dc, sizeof c));
  HIP_CHECK(hipMemcpy(da, a, sizeof a, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b, sizeof b, hipMemcpyHostToDevice));
  hipExtLaunchKernelGGL(add_template, dim3(5), dim3(64), 0, 0, nullptr, nullptr, 0, static_cast<const int *>(da),
                        static_cast<const int *>(db), dc, n);
  HIP_CHECK(hipMemcpy(c, dc, sizeof c, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) EXPECT(c[i] == a[i] + b[i], "template kernel c[%zu] = %d", i, c[i]);

  // the old names
  float *don, on[3] = {1, 0, 0};
  HIP_CHECK(hipMalloc(&don, sizeof on));
  HIP_CHECK(hipMemcpy(don, on, sizeof on, hipMemcpyHostToDevice));
  old_names<<<1, 64>>>(don);
  HIP_CHECK(hipMemcpy(on, don, sizeof on, hipMemcpyDeviceToHost));
  EXPECT(on[0] == 33 && on[1] == 1 && std::isinf(on[2]) && HIP_SUCCESS == 0, "atomicAddNoRet %g, bf16 constants %g %g",
         on[0], on[1], on[2]);
  HIP_CHECK(hipFree(don));

  // thread_block's indices
  int *dcg, cg[48];
  HIP_CHECK(hipMalloc(&dcg, sizeof cg));
  cg_indices<<<dim3(3, 2), dim3(4, 2)>>>(dcg);
  HIP_CHECK(hipMemcpy(cg, dcg, sizeof cg, hipMemcpyDeviceToHost));
  for (int by = 0; by < 2; by++)
    for (int bx = 0; bx < 3; bx++)
      for (int ty = 0; ty < 2; ty++)
        for (int tx = 0; tx < 4; tx++) {
          const int v = cg[(by * 3 + bx) * 8 + ty * 4 + tx];
          EXPECT(v == bx * 100000 + by * 10000 + tx * 1000 + ty * 100 + 4 * 10 + 2, "block (%d,%d) thread (%d,%d): %d", bx,
                 by, tx, ty, v);
        }
  HIP_CHECK(hipFree(dcg));

  // atomics on double and long long; HIP's floating max and min
  float hf[6] = {-1e30f, 1e30f, -0.0f, 0.0f, NAN, 2.0f};
  double hd[4] = {-1e300, 1e300, 100.0, NAN}, hx[4] = {0, 2.0, 3.0, 0};
  long long hl[2] = {-1000, 1000};
  float *df;
  double *dd, *dx;
  long long *dl;
  HIP_CHECK(hipMalloc(&df, sizeof hf));
  HIP_CHECK(hipMalloc(&dd, sizeof hd));
  HIP_CHECK(hipMalloc(&dl, sizeof hl));
  HIP_CHECK(hipMalloc(&dx, sizeof hx));
  HIP_CHECK(hipMemcpy(df, hf, sizeof hf, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dd, hd, sizeof hd, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dl, hl, sizeof hl, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dx, hx, sizeof hx, hipMemcpyHostToDevice));
  wide_atomics<<<1, 64>>>(df, dd, dl, dx);
  HIP_CHECK(hipMemcpy(hf, df, sizeof hf, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hd, dd, sizeof hd, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hl, dl, sizeof hl, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hx, dx, sizeof hx, hipMemcpyDeviceToHost));
  EXPECT(hf[0] == 63 && hf[1] == -63 && hd[0] == 94.5 && hd[1] == -63 && hd[2] == 36 && hl[0] == -37 && hl[1] == -100,
         "max/min/sub: %g %g %g %g %g %lld %lld", hf[0], hf[1], hd[0], hd[1], hd[2], hl[0], hl[1]);
  EXPECT(hx[0] == 2 && hx[1] == 7 && hx[3] == 3 && hx[2] == 9, "exch/CAS of double: %g %g %g %g", hx[0], hx[1], hx[2], hx[3]);
  EXPECT(hf[2] == 0 && !std::signbit(hf[2]) && hf[3] == 0 && std::signbit(hf[3]), "signed zeros: %g %g", hf[2], hf[3]);
  EXPECT(std::isnan(hf[4]) && std::isnan(hd[3]) && hf[5] == 2.0f, "NaN: %g %g %g", hf[4], hd[3], hf[5]);
  HIP_CHECK(hipFree(df));
  HIP_CHECK(hipFree(dd));
  HIP_CHECK(hipFree(dl));
  HIP_CHECK(hipFree(dx));

  // pointer attributes, one at a time and several at once (ROCm's answers: managed memory is "host"
  // to MEMORY_TYPE; memory no allocation holds: the "none" value and hipErrorInvalidValue)
  {
    char *dv, *hv, *mv;
    HIP_CHECK(hipMalloc(&dv, 1000));
    HIP_CHECK(hipHostMalloc(&hv, 500));
    HIP_CHECK(hipMallocManaged(&mv, 300));
    unsigned type = 9, size = 0, id_d = 0, id_h = 0;
    void *start = nullptr, *host = (void *)1, *dev = nullptr;
    bool managed = true;
    int ordinal = 5;
    HIP_CHECK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, dv + 10));
    EXPECT(type == hipMemoryTypeDevice, "device memory's type %u", type);
    HIP_CHECK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, mv));
    EXPECT(type == hipMemoryTypeHost, "managed memory's type %u", type);
    HIP_CHECK(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, dv + 999));
    HIP_CHECK(hipPointerGetAttribute(&size, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, dv + 999));
    HIP_CHECK(hipPointerGetAttribute(&dev, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, hv + 3));
    EXPECT(start == dv && size == 1000 && dev == hv + 3, "range %p + %u, device pointer %p", start, size, dev);
    EXPECT(hipPointerGetAttribute(&host, HIP_POINTER_ATTRIBUTE_HOST_POINTER, dv) == hipErrorInvalidValue && host == nullptr,
           "device memory has no host pointer");
    HIP_CHECK(hipPointerGetAttribute(&host, HIP_POINTER_ATTRIBUTE_HOST_POINTER, hv + 7));
    HIP_CHECK(hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, hv));
    HIP_CHECK(hipPointerGetAttribute(&id_d, HIP_POINTER_ATTRIBUTE_BUFFER_ID, dv));
    HIP_CHECK(hipPointerGetAttribute(&id_h, HIP_POINTER_ATTRIBUTE_BUFFER_ID, hv));
    HIP_CHECK(hipPointerGetAttribute(&ordinal, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, mv));
    EXPECT(host == hv + 7 && !managed && id_d && id_h && id_d != id_h && ordinal == 0,
           "host pointer %p, managed %d, buffer ids %u %u, ordinal %d", host, (int)managed, id_d, id_h, ordinal);
    int local = 0;
    EXPECT(hipPointerGetAttribute(&ordinal, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, &local) == hipErrorInvalidValue &&
               ordinal == -2,
           "memory no allocation holds: ordinal %d", ordinal);
    EXPECT(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_CONTEXT, dv) == hipErrorNotSupported, "the context");
    EXPECT(hipPointerGetAttribute(nullptr, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, dv) == hipErrorInvalidValue, "NULL data");
    hipPointer_attribute which[3] = {HIP_POINTER_ATTRIBUTE_IS_MANAGED, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
                                     HIP_POINTER_ATTRIBUTE_CONTEXT};
    bool m2 = false;
    unsigned s2 = 0, ctx = 77;
    void *out[3] = {&m2, &s2, &ctx};
    HIP_CHECK(hipDrvPointerGetAttributes(3, which, out, mv + 1));
    EXPECT(m2 && s2 == 300 && ctx == 77, "several at once: managed %d, size %u", (int)m2, s2);
    HIP_CHECK(hipFree(dv));
    HIP_CHECK(hipHostFree(hv));
    HIP_CHECK(hipFree(mv));
    (void)hipGetLastError();
  }

  // the types of the refused families compile
  hipMipmappedArray_t mip = nullptr;
  hipMemPoolProps pool = {};
  pool.allocType = hipMemAllocationTypePinned;
  pool.location.type = hipMemLocationTypeDevice;
  hipPointer_attribute pa = HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
  EXPECT(mip == nullptr && hipArrayDefault == 0 && hipArrayLayered == 1 && pa == 9 && pool.location.id == 0 &&
             hipMemRangeAttributeLastPrefetchLocation == 4 && hipUserObjectNoDestructorSync == 1,
         "HIP's values of the declared types");

  // the constant clock's rate, and ROCm's answers for handles that are not streams or events
  int rate = 0;
  HIP_CHECK(hipDeviceGetAttribute(&rate, hipDeviceAttributeWallClockRate, 0));
  EXPECT(rate == 100000, "wall clock %d kHz", rate);
  hipStream_t st;
  HIP_CHECK(hipStreamCreate(&st));
  HIP_CHECK(hipStreamDestroy(st));
  EXPECT(hipStreamQuery(st) == hipErrorContextIsDestroyed, "query of a destroyed stream");
  EXPECT(hipStreamSynchronize(st) == hipErrorContextIsDestroyed, "sync of a destroyed stream");
  EXPECT(hipStreamDestroy(st) == hipErrorContextIsDestroyed, "a stream destroyed twice");
  EXPECT(hipStreamDestroy(nullptr) == hipErrorInvalidHandle, "the null stream destroyed");
  unsigned flags = 7;
  EXPECT(hipStreamGetFlags(nullptr, &flags) == hipErrorInvalidValue && flags == 7, "the null stream's flags");
  EXPECT(hipStreamGetFlags(st, nullptr) == hipErrorInvalidValue, "flags NULL first");
  hipEvent_t ev;
  HIP_CHECK(hipEventCreate(&ev));
  EXPECT(hipEventRecord(ev, st) == hipErrorContextIsDestroyed, "an event recorded into a destroyed stream");
  EXPECT(hipEventRecord(nullptr, st) == hipErrorInvalidHandle, "a NULL event recorded");
  HIP_CHECK(hipEventDestroy(ev));
  EXPECT(hipEventDestroy(ev) == hipErrorContextIsDestroyed, "an event destroyed twice");
  hipEvent_t ev2 = nullptr;
  EXPECT(hipEventCreateWithFlags(&ev2, hipEventReleaseToDevice | hipEventReleaseToSystem) == hipErrorInvalidValue,
         "two release flags");
  HIP_CHECK(hipEventCreateWithFlags(&ev2, hipEventReleaseToSystem | hipEventDisableTiming));
  HIP_CHECK(hipEventDestroy(ev2));
  EXPECT(hipEventDestroy(nullptr) == hipErrorInvalidHandle, "a NULL event destroyed");
  // allocation arguments as ROCm/clr f9f995c answers them (AMD's hip-tests memory folder)
  void *vp = nullptr;
  EXPECT(hipExtMallocWithFlags(&vp, 4096, hipMallocSignalMemory) == hipErrorInvalidValue, "signal memory of 4096 bytes");
  HIP_CHECK(hipExtMallocWithFlags(&vp, 8, hipMallocSignalMemory));
  HIP_CHECK(hipFree(vp));
  EXPECT(hipHostMalloc(&vp, 64, hipHostMallocCoherent | hipHostMallocNonCoherent) == hipErrorInvalidValue,
         "coherent and non-coherent at once");
  HIP_CHECK(hipHostMalloc(&vp, 0, hipHostMallocCoherent | hipHostMallocNonCoherent)); // 0 bytes: NULL, success
  EXPECT(vp == nullptr, "a 0-byte hipHostMalloc gives NULL");
  EXPECT(hipMallocManaged(&vp, 0, hipMemAttachGlobal) == hipErrorInvalidValue, "0 bytes of managed memory");
  hipPointerAttribute_t pattr;
  EXPECT(hipPointerGetAttributes(&pattr, nullptr) == hipErrorInvalidValue, "the attributes of NULL");
  EXPECT(hipHostUnregister(nullptr) == hipErrorInvalidValue, "unregistering NULL");
  HIP_CHECK(hipMallocManaged(&vp, 8192, hipMemAttachGlobal));
  hipStream_t gone;
  HIP_CHECK(hipStreamCreate(&gone));
  HIP_CHECK(hipStreamDestroy(gone));
  EXPECT(hipStreamAttachMemAsync(gone, vp) == hipErrorContextIsDestroyed, "attaching to a destroyed stream");
  // a destroyed stream: launches hipErrorInvalidValue, a cooperative launch and copies
  // hipErrorContextIsDestroyed (ROCm/clr f9f995c)
  int *op = (int *)vp;
  void *oargs[] = {&op};
  EXPECT(hipLaunchKernel((const void *)occupancy_kernel, dim3(1), dim3(64), oargs, 0, gone) == hipErrorInvalidValue,
         "a launch into a destroyed stream");
  EXPECT(hipLaunchCooperativeKernel((const void *)occupancy_kernel, dim3(1), dim3(64), oargs, 0, gone) ==
             hipErrorContextIsDestroyed, "a cooperative launch into a destroyed stream");
  EXPECT(hipMemcpyAsync(vp, vp, 0, hipMemcpyDefault, gone) == hipErrorContextIsDestroyed, "a copy on a destroyed stream");
  EXPECT(hipStreamAttachMemAsync(nullptr, vp, 4096) == hipErrorInvalidValue, "attaching half an allocation");
  EXPECT(hipStreamAttachMemAsync(nullptr, vp, 8192) == hipErrorInvalidValue, "hipMemAttachSingle (the default) on the null stream");
  HIP_CHECK(hipStreamAttachMemAsync(nullptr, vp, 8192, hipMemAttachGlobal));
  HIP_CHECK(hipFree(vp));
  // managed memory's advice, page by page, read back as HIP documents hipMemRangeGetAttribute
  int cma = 0;
  HIP_CHECK(hipDeviceGetAttribute(&cma, hipDeviceAttributeConcurrentManagedAccess, 0));
  EXPECT(cma == 1, "concurrent managed access %d", cma);
  // the constant memory figure: ROCm's largest allocation capped at INT32_MAX, in both forms
  int tcm = 0;
  HIP_CHECK(hipDeviceGetAttribute(&tcm, hipDeviceAttributeTotalConstantMemory, 0));
  hipDeviceProp_t tprop;
  HIP_CHECK(hipGetDeviceProperties(&tprop, 0));
  EXPECT(tcm == 2147483647 && tprop.totalConstMem == 2147483647u, "total constant memory %d / %zu", tcm, tprop.totalConstMem);
  char *mm;
  const size_t pg = 4096;
  HIP_CHECK(hipMallocManaged((void **)&mm, 3 * pg, hipMemAttachGlobal));
  int32_t at = -9, list[3];
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributePreferredLocation, mm, 3 * pg));
  EXPECT(at == hipInvalidDeviceId, "no preferred location yet: %d", at);
  HIP_CHECK(hipMemAdvise(mm, pg, hipMemAdviseSetReadMostly, 0));
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributeReadMostly, mm, 2 * pg));
  EXPECT(at == 0, "read-mostly over a page that is not: %d", at);
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributeReadMostly, mm + 100, 200));
  EXPECT(at == 1, "read-mostly inside the advised page: %d", at);
  HIP_CHECK(hipMemAdvise(mm, 2 * pg, hipMemAdviseSetPreferredLocation, 0));
  HIP_CHECK(hipMemAdvise(mm + 2 * pg, pg, hipMemAdviseSetPreferredLocation, hipCpuDeviceId));
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributePreferredLocation, mm, 3 * pg));
  EXPECT(at == hipInvalidDeviceId, "mixed preferred locations: %d", at);
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributePreferredLocation, mm + pg, pg));
  EXPECT(at == 0, "the device preferred: %d", at);
  HIP_CHECK(hipMemAdvise(mm, 3 * pg, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
  HIP_CHECK(hipMemAdvise(mm, 3 * pg, hipMemAdviseSetAccessedBy, 0));
  HIP_CHECK(hipMemAdvise(mm + 2 * pg, 1, hipMemAdviseUnsetAccessedBy, hipCpuDeviceId));
  HIP_CHECK(hipMemRangeGetAttribute(list, sizeof list, hipMemRangeAttributeAccessedBy, mm, 3 * pg));
  EXPECT(list[0] == 0 && list[1] == hipInvalidDeviceId && list[2] == hipInvalidDeviceId, "accessed by %d %d %d", list[0], list[1], list[2]);
  HIP_CHECK(hipMemRangeGetAttribute(list, sizeof list, hipMemRangeAttributeAccessedBy, mm, 2 * pg));
  EXPECT(list[0] == 0 && list[1] == hipCpuDeviceId && list[2] == hipInvalidDeviceId, "accessed by (2 pages) %d %d", list[0], list[1]);
  HIP_CHECK(hipMemPrefetchAsync(mm + pg, pg, hipCpuDeviceId, nullptr));
  HIP_CHECK(hipMemAdvise(mm + 2 * pg, pg, hipMemAdviseSetCoarseGrain, 0));
  void *vals[] = {&at, &list[0]};
  size_t sizes[] = {4, 4};
  hipMemRangeAttribute attrs[] = {hipMemRangeAttributeLastPrefetchLocation, hipMemRangeAttributeCoherencyMode};
  HIP_CHECK(hipMemRangeGetAttributes(vals, sizes, attrs, 2, mm + pg, pg));
  EXPECT(at == hipCpuDeviceId && list[0] == hipMemRangeCoherencyModeFineGrain, "prefetched page: %d, mode %d", at, list[0]);
  HIP_CHECK(hipMemRangeGetAttributes(vals, sizes, attrs, 2, mm, 3 * pg));
  EXPECT(at == hipInvalidDeviceId && list[0] == hipMemRangeCoherencyModeIndeterminate, "whole range: %d, mode %d", at, list[0]);
  EXPECT(hipMemRangeGetAttribute(&at, 8, hipMemRangeAttributeReadMostly, mm, pg) == hipErrorInvalidValue, "dataSize 8");
  EXPECT(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributeReadMostly, da, 4) == hipErrorInvalidValue, "device memory");
  EXPECT(hipMemAdvise(mm, 0, hipMemAdviseSetReadMostly, 0) == hipErrorInvalidValue, "advice on 0 bytes");
  HIP_CHECK(hipMemRangeGetAttribute(&at, 4, hipMemRangeAttributeCoherencyMode, da, 4));
  EXPECT(at == hipMemRangeCoherencyModeCoarseGrain, "device memory's coherency mode: %d", at);
  // registering more than the program has mapped (ROCm cannot pin it)
  int *small = (int *)std::malloc(sizeof(int));
  EXPECT(hipHostRegister(small, (size_t)1 << 40, 0) == hipErrorInvalidValue, "registering 1 TiB from a 4-byte block");
  std::free(small);
  HIP_CHECK(hipFree(mm));
  (void)hipGetLastError();

  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dset));
  HIP_CHECK(hipFree(dsh));
  HIP_CHECK(hipFree(dfm));
  HIP_CHECK(hipFree(dclk));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));

  const char *kn = hipKernelNameRefByPtr((const void *)occupancy_kernel, nullptr);
  EXPECT(kn && !strcmp(kn, "_Z16occupancy_kernelPi"), "hipKernelNameRefByPtr: %s", kn ? kn : "(null)");
  EXPECT(hipKernelNameRefByPtr((const void *)&argc, nullptr) == nullptr, "a pointer that is no kernel names none");
  const __half2 h12(__half(1.0f), __half(2.0f)), h13(__half(1.0f), __half(3.0f)), h24(__half(2.0f), __half(4.0f));
  EXPECT(__hbeq2(h12, h12) && !__hbeq2(h12, h13) && __hblt2(h12, h24) && !__hblt2(h12, h13) && __hble2(h12, h13),
         "__half2 comparisons on the host");
  const int4 v3 = make_int4(3, 3, 3, 3), v34 = make_int4(3, 3, 3, 4);
  EXPECT(v3 == 3 && 3 == v3 && !(v34 == 3) && v34 != 3 && !(v3 != 3), "int4 against a scalar");
  {
    /* each lane's partition (the tile's lanes of its parity), its rank there, whether any of them
     * holds a value over 46 (half the partitions do), and the lanes holding its value mod 3: worked from the inputs */
    int hv[64], hs[128], ha[128], hr[128];
    unsigned long long hm[64];
    for (int i = 0; i < 64; i++) hv[i] = (i * 7) % 50;
    int *dv, *ds, *da2, *dr;
    unsigned long long *dmm;
    HIP_CHECK(hipMalloc(&dv, sizeof hv));
    HIP_CHECK(hipMalloc(&ds, sizeof hs));
    HIP_CHECK(hipMalloc(&da2, sizeof ha));
    HIP_CHECK(hipMalloc(&dr, sizeof hr));
    HIP_CHECK(hipMalloc(&dmm, sizeof hm));
    HIP_CHECK(hipMemcpy(dv, hv, sizeof hv, hipMemcpyHostToDevice));
    cg_partitions<<<1, 64>>>(dv, dmm, ds, da2, dr);
    HIP_CHECK(hipMemcpy(hs, ds, sizeof hs, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(ha, da2, sizeof ha, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hr, dr, sizeof hr, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hm, dmm, sizeof hm, hipMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
      int size = 0, rank = 0, any = 0;
      unsigned long long mm = 0;
      for (int u = t & ~15; u < (t & ~15) + 16; u++)
        if ((hv[u] & 1) == (hv[t] & 1)) rank += u < t, size++, any |= hv[u] > 46;
      for (int u = 0; u < 64; u++) mm |= (unsigned long long)(hv[u] % 3 == hv[t] % 3) << u;
      EXPECT(hs[t] == size && hr[t] == rank && ha[t] == any && hm[t] == mm,
             "lane %d: binary_partition size %d rank %d any %d (want %d %d %d), match_any 0x%llx (want 0x%llx)", t, hs[t],
             hr[t], ha[t], size, rank, any, hm[t], mm);
    }
    /* the odd lanes in lane order: lane t's index k among them, its run k / 4, the run's length,
     * and the next odd lane's value within the run */
    int odd[64], nodd = 0;
    for (int u = 0; u < 64; u++)
      if (hv[u] & 1) odd[nodd++] = u;
    for (int k = 0; k < nodd; k++) {
      const int t = odd[k], run = k / 4, len = nodd - 4 * run < 4 ? nodd - 4 * run : 4;
      const int next = k % 4 + 1 < len ? hv[odd[k + 1]] : hv[t];
      EXPECT(hs[64 + t] == len && hr[64 + t] == k % 4 && ha[64 + t] == next,
             "lane %d: coalesced tile size %d rank %d next %d (want %d %d %d)", t, hs[64 + t], hr[64 + t], ha[64 + t], len,
             k % 4, next);
    }
    HIP_CHECK(hipFree(dv));
    HIP_CHECK(hipFree(ds));
    HIP_CHECK(hipFree(da2));
    HIP_CHECK(hipFree(dr));
    HIP_CHECK(hipFree(dmm));
  }
  hipExternalSemaphoreWaitParams wp = {};
  hipExternalSemaphoreSignalParams sp = {};
  wp.params.fence.value = 1;
  hipExternalSemaphore_t none = &wp;
  EXPECT(hipWaitExternalSemaphoresAsync(nullptr, &wp, 1, nullptr) == hipErrorInvalidValue &&
             hipSignalExternalSemaphoresAsync(&none, &sp, 1, nullptr) == hipErrorInvalidValue &&
             hipSignalExternalSemaphoresAsync(nullptr, nullptr, 0, nullptr) == hipSuccess,
         "external semaphores: argument checks (none can exist)");
  (void)hipGetLastError();

  /* the driver API's 2D copy block: a 4 x 3 block of ints from (column 1, row 2) of an 8 x 6 host
   * array to (column 3, row 1) of a pitched device one, then the whole device array back on a
   * stream; every element's value from the two offsets */
  int hsrc[8 * 6], hback[8 * 6];
  for (int i = 0; i < 8 * 6; i++) hsrc[i] = 7 * i + 1;
  int *dm;
  size_t dpitch;
  HIP_CHECK(hipMallocPitch((void **)&dm, &dpitch, 8 * sizeof(int), 6));
  HIP_CHECK(hipMemset(dm, 0, dpitch * 6));
  hip_Memcpy2D c2 = {};
  c2.srcMemoryType = hipMemoryTypeHost, c2.srcHost = hsrc, c2.srcPitch = 8 * sizeof(int);
  c2.srcXInBytes = 1 * sizeof(int), c2.srcY = 2;
  c2.dstMemoryType = hipMemoryTypeDevice, c2.dstDevice = (hipDeviceptr_t)dm, c2.dstPitch = dpitch;
  c2.dstXInBytes = 3 * sizeof(int), c2.dstY = 1;
  c2.WidthInBytes = 4 * sizeof(int), c2.Height = 3;
  HIP_CHECK(hipMemcpyParam2D(&c2));
  hip_Memcpy2D b2 = {};
  b2.srcMemoryType = hipMemoryTypeDevice, b2.srcDevice = (hipDeviceptr_t)dm, b2.srcPitch = dpitch;
  b2.dstMemoryType = hipMemoryTypeHost, b2.dstHost = hback, b2.dstPitch = 8 * sizeof(int);
  b2.WidthInBytes = 8 * sizeof(int), b2.Height = 6;
  hipStream_t st2;
  HIP_CHECK(hipStreamCreate(&st2));
  HIP_CHECK(hipMemcpyParam2DAsync(&b2, st2));
  HIP_CHECK(hipStreamSynchronize(st2));
  for (int r = 0; r < 6; r++)
    for (int col = 0; col < 8; col++) {
      const bool in = r >= 1 && r < 4 && col >= 3 && col < 7;
      const int want = in ? hsrc[(r - 1 + 2) * 8 + (col - 3 + 1)] : 0;
      EXPECT(hback[r * 8 + col] == want, "hipMemcpyParam2D: row %d column %d is %d, want %d", r, col, hback[r * 8 + col], want);
    }
  b2.srcMemoryType = hipMemoryTypeArray;
  EXPECT(hipMemcpyParam2D(&b2) == hipErrorInvalidValue, "an array side (none can exist)");
  (void)hipGetLastError();
  HIP_CHECK(hipStreamDestroy(st2));
  HIP_CHECK(hipFree(dm));
  {
    /* devlib_vocab: each expected value worked from HIP's definition of the call */
    const int hin[17] = {3, -4, 5, 6, 11, 40000, 300, 2, -1, 7, 100, 0x12345678, (int)0xfedcba98u, 3, 4, -2, 1000};
    int *din, *di;
    unsigned *du;
    float *df;
    double *dd;
    HIP_CHECK(hipMalloc(&din, sizeof hin));
    HIP_CHECK(hipMalloc(&di, 7 * sizeof(int)));
    HIP_CHECK(hipMalloc(&du, 11 * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&df, 4 * sizeof(float)));
    HIP_CHECK(hipMalloc(&dd, sizeof(double)));
    HIP_CHECK(hipMemcpy(din, hin, sizeof hin, hipMemcpyHostToDevice));
    devlib_vocab<<<1, 64>>>(din, du, di, df, dd);
    int hi[7];
    unsigned hu[11];
    float hf[4];
    double hd;
    HIP_CHECK(hipMemcpy(hi, di, sizeof hi, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hu, du, sizeof hu, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hf, df, sizeof hf, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(&hd, dd, sizeof hd, hipMemcpyDeviceToHost));
    EXPECT(hu[0] == 0x7fc00001u && hu[1] == 0x7fc0000fu && hu[2] == 0x7fc00000u && hu[3] == 0x7fc00000u,
           "nanf payloads %#x %#x %#x %#x", hu[0], hu[1], hu[2], hu[3]);
    /* nan("4194304"): payload 2^22 under the double's quiet bit */
    EXPECT(hu[4] == 0x00400000u && hu[5] == 0x7ff80000u, "nan(\"4194304\") %#x:%#x", hu[5], hu[4]);
    /* short2: 3*5 + (-4)*6 + 11 = 2; saturated: INT_MIN + 5 - 9 passes INT_MIN and stays there */
    EXPECT(hi[0] == 2 && hi[1] == INT_MIN, "amd_mixed_dot(short2) %d %d", hi[0], hi[1]);
    /* ushort2 of (40000, 300) with itself: 1.6e9 + 90000 + 7; then past 2^32 - 16: saturated to 2^32 - 1 */
    EXPECT(hu[6] == 1600090007u && hu[7] == 0xffffffffu, "amd_mixed_dot(ushort2) %u %#x", hu[6], hu[7]);
    /* char4 (3, -4, 5, 6) . (2, -1, 7, 100) - 5 = 6 + 4 + 35 + 600 - 5 */
    EXPECT(hi[2] == 640, "amd_mixed_dot(char4) %d", hi[2]);
    /* uchar4 (40000 & 0xff = 64, 1, 2, 3) . (200, 3, 4, 300 & 0xff = 44) + 1 */
    EXPECT(hu[8] == 64u * 200 + 3 + 8 + 3 * 44 + 1, "amd_mixed_dot(uchar4) %u", hu[8]);
    /* int / uint: the eight 4-bit fields of 0x12345678 and 0xfedcba98, signed (-8..7) or unsigned */
    int sdot = 100;
    unsigned udot = 100;
    for (int k = 0; k < 8; k++) {
      const unsigned a = (0x12345678u >> (4 * k)) & 15, b = (0xfedcba98u >> (4 * k)) & 15;
      sdot += ((int)a - ((a & 8) ? 16 : 0)) * ((int)b - ((b & 8) ? 16 : 0));
      udot += a * b;
    }
    EXPECT(hi[3] == sdot && hu[9] == udot, "amd_mixed_dot(int) %d want %d, (uint) %u want %u", hi[3], sdot, hu[9], udot);
    /* __half2: 3*5 + 0.5*3 + 0.25, each exact */
    EXPECT(hf[0] == 16.75f, "amd_mixed_dot(__half2) %g", hf[0]);
    /* pown: 3^4, 2^4 and half 3^3, each representable (ocml's pown is within 16 ULP: OpenCL's; its
     * double 2^-4 is 0.0625 less an ULP, docs/hip-subset.md) */
    EXPECT(std::fabs(hf[1] - 81.0f) <= 81.0f * 16 * FLT_EPSILON && hd == 16.0 && hf[2] == 27.0f,
           "pow(3, 4) %.9g, pow(2.0, 4) %.17g, pow(half 3, 3) %g", hf[1], hd, hf[2]);
    /* fma in half: h = 0.333251953125 (binary16 of 1/3); h*h + 3 = 3.11105... rounds to 3.111328125 */
    EXPECT(hf[3] == 3.111328125f, "fma(_Float16) %.9g", hf[3]);
    /* __clz(short -2): -2 as int, 0 leading zeros; __clz(1000.0f): int 1000, 22; __clzll(1000): 54 */
    EXPECT(hi[4] == 0 && hi[5] == 22 && hi[6] == 54 && hu[10] == 31, "__clz(short) %d __clz(float) %d __clzll(int) %d __popc(-2) %u",
           hi[4], hi[5], hi[6], hu[10]);
    HIP_CHECK(hipFree(din));
    HIP_CHECK(hipFree(di));
    HIP_CHECK(hipFree(du));
    HIP_CHECK(hipFree(df));
    HIP_CHECK(hipFree(dd));
  }
  {
    /* mixed_promote's twelve, each in double from f = 1.5, i = 2, d = 0.25: exact but for
     * hypot, atan2 and pow (ocml's, within 2 ULP of the host's) */
    double *dmo, hmo[12];
    HIP_CHECK(hipMalloc(&dmo, sizeof hmo));
    mixed_promote<<<1, 1>>>(dmo, 1.5f, 2, 0.25);
    HIP_CHECK(hipMemcpy(hmo, dmo, sizeof hmo, hipMemcpyDeviceToHost));
    const double want[12] = {5.25, 5.25, 1.5, 1.5, -1.5, 0.0, 0.25, std::nextafter(1.5, 0.25), 0.5, std::hypot(1.5, 2.0),
                             std::atan2(2.0, 0.25), std::pow(1.5, 0.25)};
    for (int k = 0; k < 12; k++)
      EXPECT(k < 9 ? hmo[k] == want[k] : std::fabs(hmo[k] - want[k]) <= 2 * DBL_EPSILON * std::fabs(want[k]),
             "mixed-type <cmath> %d: %.17g, want %.17g", k, hmo[k], want[k]);
    HIP_CHECK(hipFree(dmo));
  }
  {
    /* packed_atomics: the pair ends at 64 x (1, 0.5) and 64 x (2, -1), all exact in both formats; the
     * old .x values each lane got are 0..63 once each (halves) and 0, 2, .., 126 once each (bf16) */
    __half2 *dh;
    __hip_bfloat162 *db;
    float *dold, hold[128];
    HIP_CHECK(hipMalloc(&dh, sizeof *dh));
    HIP_CHECK(hipMalloc(&db, sizeof *db));
    HIP_CHECK(hipMalloc(&dold, sizeof hold));
    HIP_CHECK(hipMemset(dh, 0, sizeof *dh));
    HIP_CHECK(hipMemset(db, 0, sizeof *db));
    packed_atomics<<<1, 64>>>(dh, db, dold);
    __half2 hh;
    __hip_bfloat162 hb;
    HIP_CHECK(hipMemcpy(&hh, dh, sizeof hh, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(&hb, db, sizeof hb, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hold, dold, sizeof hold, hipMemcpyDeviceToHost));
    EXPECT(__half2float(hh.x) == 64.0f && __half2float(hh.y) == 32.0f && (float)hb.x == 128.0f && (float)hb.y == -64.0f,
           "packed atomic sums (%g, %g) (%g, %g)", __half2float(hh.x), __half2float(hh.y), (float)hb.x, (float)hb.y);
    unsigned long long seen_h = 0, seen_b = 0;
    for (int t = 0; t < 64; t++) seen_h |= 1ull << (int)hold[2 * t], seen_b |= 1ull << ((int)hold[2 * t + 1] / 2);
    EXPECT(seen_h == ~0ull && seen_b == ~0ull, "packed atomics' old values: %#llx %#llx", seen_h, seen_b);
    HIP_CHECK(hipFree(dh));
    HIP_CHECK(hipFree(db));
    HIP_CHECK(hipFree(dold));
  }
  {
    /* compute-unit masks, ROCm's rules (docs/hip-runtime.md "Streams and events"): the default mask
     * has compute unit i as bit i % 32 of word i / 32, for every CU of hipDeviceProp_t; a stream's
     * mask read back is its own AND the default over the words both have, the default when that is
     * all zeros or the stream has none; fewer words than the CUs need, or a NULL mask, is
     * hipErrorInvalidValue; so is a mask of 0 words when creating, and a NULL stream pointer
     * hipErrorInvalidHandle */
    hipDeviceProp_t pr;
    HIP_CHECK(hipGetDeviceProperties(&pr, 0));
    const unsigned ncu = (unsigned)pr.multiProcessorCount, need = (ncu + 31) / 32;
    EXPECT(need >= 2 && need <= 16, "%u compute units", ncu);
    unsigned def[16], got[17], custom[17];
    for (unsigned w = 0; w < need; w++) def[w] = ncu - 32 * w >= 32 ? 0xffffffffu : (1u << (ncu - 32 * w)) - 1;
    for (unsigned w = 0; w < 17; w++) got[w] = 0x5a5a5a5au;
    HIP_CHECK(hipExtStreamGetCUMask(nullptr, need, got));
    for (unsigned w = 0; w < need; w++) EXPECT(got[w] == def[w], "null stream word %u: %#x, want %#x", w, got[w], def[w]);
    EXPECT(got[need] == 0x5a5a5a5au, "a word past the mask was written: %#x", got[need]);
    /* a custom mask one word longer than the CUs need, with bits above the last CU set: the extra
     * word is not given back and the last word's bits past the CUs are cleared */
    for (unsigned w = 0; w <= need; w++) custom[w] = 0xf0f0f0f0u;
    custom[0] = 0xe;
    hipStream_t ms;
    HIP_CHECK(hipExtStreamCreateWithCUMask(&ms, need + 1, custom));
    unsigned fl = 1;
    int prio = 1;
    HIP_CHECK(hipStreamGetFlags(ms, &fl));
    HIP_CHECK(hipStreamGetPriority(ms, &prio));
    EXPECT(fl == 0 && prio == 0, "a masked stream's flags %u and priority %d", fl, prio);
    for (unsigned w = 0; w < 17; w++) got[w] = 0x5a5a5a5au;
    HIP_CHECK(hipExtStreamGetCUMask(ms, need + 1, got));
    EXPECT(got[0] == 0xeu, "custom word 0: %#x", got[0]);
    for (unsigned w = 1; w < need; w++) EXPECT(got[w] == (0xf0f0f0f0u & def[w]), "custom word %u: %#x", w, got[w]);
    EXPECT(got[need] == 0x5a5a5a5au, "the custom mask's extra word came back: %#x", got[need]);
    /* a kernel on the masked stream writes its 64 words as on any stream */
    int *dk, hk[64];
    HIP_CHECK(hipMalloc(&dk, sizeof hk));
    HIP_CHECK(hipMemsetAsync(dk, 0, sizeof hk, ms));
    occupancy_kernel<<<1, 64, 0, ms>>>(dk);
    HIP_CHECK(hipMemcpyAsync(hk, dk, sizeof hk, hipMemcpyDeviceToHost, ms));
    HIP_CHECK(hipStreamSynchronize(ms));
    int ones = 0;
    for (int t = 0; t < 64; t++) ones += hk[t] == 1;
    EXPECT(ones == 64, "a kernel on a masked stream: %d of 64 written", ones);
    HIP_CHECK(hipFree(dk));
    HIP_CHECK(hipStreamDestroy(ms));
    /* all zeros, and a stream made without a mask: the default */
    unsigned zero[17] = {0};
    HIP_CHECK(hipExtStreamCreateWithCUMask(&ms, need, zero));
    HIP_CHECK(hipExtStreamGetCUMask(ms, need, got));
    for (unsigned w = 0; w < need; w++) EXPECT(got[w] == def[w], "all-zero mask word %u: %#x", w, got[w]);
    HIP_CHECK(hipStreamDestroy(ms));
    HIP_CHECK(hipStreamCreate(&ms));
    HIP_CHECK(hipExtStreamGetCUMask(ms, need, got));
    for (unsigned w = 0; w < need; w++) EXPECT(got[w] == def[w], "unmasked stream word %u: %#x", w, got[w]);
    HIP_CHECK(hipStreamDestroy(ms));
    EXPECT(hipExtStreamGetCUMask(nullptr, need - 1, got) == hipErrorInvalidValue, "one word short");
    EXPECT(hipExtStreamGetCUMask(nullptr, need, nullptr) == hipErrorInvalidValue, "a NULL mask to fill");
    EXPECT(hipExtStreamCreateWithCUMask(&ms, 0, custom) == hipErrorInvalidValue, "a mask of 0 words");
    EXPECT(hipExtStreamCreateWithCUMask(&ms, 1, nullptr) == hipErrorInvalidValue, "a NULL mask");
    EXPECT(hipExtStreamCreateWithCUMask(nullptr, 1, custom) == hipErrorInvalidHandle, "a NULL stream pointer");
    (void)hipGetLastError();
  }
  {
    /* the variable-LDS block-size search, HIP's rule (docs/hip-runtime.md "Occupancy"): candidates
     * from the limit rounded up to 64 down by 64 (the first the limit itself), each with its own LDS
     * bytes; the most threads per CU wins, the larger block on a tie, and the search stops once a CU
     * is full (2048 threads); the grid is the winner's work-groups per CU times the CUs. The kernel
     * (one store a thread) is limited by waves alone to 32 one-wave work-groups a CU, the first
     * EXPECT below; the rest is the CU's LDS (64 KiB in 512-byte granules on gfx942, 160 KiB in
     * 1280-byte granules on gfx950), worked by hand: */
    hipDeviceProp_t pr;
    HIP_CHECK(hipGetDeviceProperties(&pr, 0));
    const bool g950 = std::strstr(pr.gcnArchName, "gfx950") != nullptr;
    const int ncu = pr.multiProcessorCount;
    int n = 0, grid = -1, block = -1;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, occupancy_kernel, 64, 0));
    EXPECT(n == 32 && pr.maxThreadsPerMultiProcessor == 2048, "the kernel's one-wave work-groups a CU: %d", n);
    /* 16 KiB + 64 bytes a thread: gfx942 fits one work-group of 768 (64 KiB), none above, two of 256
     * (512 threads): 768 wins, grid 1 x CUs; gfx950 fits two of 1024 (80 KiB each): 2048 threads, a
     * full CU at the first candidate */
    HIP_CHECK(hipOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, occupancy_kernel, lds_16k_plus_64_per_thread));
    EXPECT(g950 ? block == 1024 && grid == 2 * ncu : block == 768 && grid == ncu, "16K + 64/thread: block %d grid %d", block, grid);
    /* 64 bytes a thread as a functor, limit 1000 (candidates 1000, 960, .., 64): on gfx942 1000
     * threads fit once (1000 threads), 512 twice (1024: more), and nothing smaller gives more than
     * 1024 (256 x 4, 128 x 8, 64 x 16 tie, and the first found stays); on gfx950 1000 fits twice
     * (2000 threads, 50 granules of the 128), 640 three times by its waves (1920), 512 four times
     * (2048: a full CU, the search stops) */
    per_thread_lds f64{64};
    HIP_CHECK(hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&grid, &block, occupancy_kernel, f64, 1000, hipOccupancyDefault));
    EXPECT(block == 512 && grid == (g950 ? 4 : 2) * ncu, "64/thread, limit 1000: block %d grid %d", block, grid);
    /* no LDS as a lambda, limit 100: 100 threads (two waves) fit 16 a CU (1600 threads), 64 fit 32
     * (2048: full) */
    HIP_CHECK(hipOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, occupancy_kernel, [](int) { return 0; }, 100));
    EXPECT(block == 64 && grid == 32 * ncu, "no LDS, limit 100: block %d grid %d", block, grid);
    EXPECT(hipOccupancyMaxPotentialBlockSizeVariableSMem(nullptr, &block, occupancy_kernel, lds_16k_plus_64_per_thread) == hipErrorInvalidValue,
           "a NULL grid size");
    const hipError_t enull = hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags<size_t (*)(int), void (*)(int *)>(
        &grid, &block, nullptr, lds_16k_plus_64_per_thread, 0, 0);
    EXPECT(enull == hipErrorInvalidValue, "a NULL kernel: %s", hipGetErrorName(enull));
    EXPECT(hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&grid, &block, occupancy_kernel, lds_16k_plus_64_per_thread, 0, 0x10) ==
               hipErrorInvalidValue,
           "flags 0x10");
    (void)hipGetLastError();
  }
  std::printf("hip_tests_idioms: ok\n");
  return 0;
}
