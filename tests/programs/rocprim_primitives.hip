// rocPRIM's block and warp primitives, from Debian's librocprim-dev headers as they are (rocPRIM
// 2.10.9, /usr/include/rocprim; docs/hip-subset.md "rocPRIM"), run on the emulated arch: one
// kernel per family (warp reduce and scan, block reduce, block scan, block radix sort, block
// exchange), each written the way rocPRIM's users write it (typedef the primitive, its
// storage_type in __shared__, one call); and the device-wide reduce and inclusive scan ("device":
// the two-call temporary-storage idiom, many workgroups, the scan's decoupled look-back across them). Every result is checked against a reference computed
// here on the host from the operation's definition (sums, prefix sums, std::stable_sort, the
// index formulas of blocked and striped arrangements), never from rocPRIM.
//
// One program for every family, so the heavy headers compile once (CI time): `rocprim_primitives
// FAMILY...` runs the families named (default: all) and prints "rocprim FAMILY: ok" for each.
#include "common.h"
// rocPRIM 2.10.9's block_radix_sort.hpp uses ::rocprim::min (through warp_scan_dpp.hpp) before it
// includes functional.hpp, which declares it; rocprim.hpp includes functional.hpp first, as here.
#include <rocprim/functional.hpp>
#include <rocprim/block/block_exchange.hpp>
#include <rocprim/block/block_radix_sort.hpp>
#include <rocprim/block/block_reduce.hpp>
#include <rocprim/block/block_scan.hpp>
#include <rocprim/warp/warp_reduce.hpp>
#include <rocprim/warp/warp_scan.hpp>
// rocPRIM 2.10.9's device_reduce.hpp writes to std::cout (its debug_synchronous path) without
// including <iostream>, which neither ROCm 5's HIP headers nor lanelab's bring in: its users
// include it first, as here.
#include <iostream>
#include <rocprim/device/device_reduce.hpp>
#include <rocprim/device/device_scan.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

constexpr unsigned BS = 256, BLOCKS = 2, N = BS * BLOCKS; // 4 waves per block, 2 blocks
constexpr unsigned IPT = 4, NI = N * IPT;                  // items per thread (sort, exchange)

// ---- warp: 64-lane sum and 16-lane max (logical warps), 64-lane inclusive and 32-lane exclusive scan
__global__ __launch_bounds__(BS) void warp_family(const int *in, int *sum64, int *max16, int *inc64, int *exc32) {
  using wr64 = rocprim::warp_reduce<int, 64>;
  using wr16 = rocprim::warp_reduce<int, 16>;
  using ws64 = rocprim::warp_scan<int, 64>;
  using ws32 = rocprim::warp_scan<int, 32>;
  __shared__ typename wr64::storage_type s_wr64[BS / 64];
  __shared__ typename wr16::storage_type s_wr16[BS / 16];
  __shared__ typename ws64::storage_type s_ws64[BS / 64];
  __shared__ typename ws32::storage_type s_ws32[BS / 32];
  const unsigned t = threadIdx.x, i = blockIdx.x * BS + t;
  int x = in[i], r;
  wr64().reduce(x, r, s_wr64[t / 64]);
  if (t % 64 == 0) sum64[i / 64] = r;
  wr16().reduce(x, r, s_wr16[t / 16], rocprim::maximum<int>());
  if (t % 16 == 0) max16[i / 16] = r;
  ws64().inclusive_scan(x, r, s_ws64[t / 64]);
  inc64[i] = r;
  ws32().exclusive_scan(x, r, 5, s_ws32[t / 32]);
  exc32[i] = r;
}

// ---- block reduce: two items per thread, the default (warp-reduce) sum and the raking max
__global__ __launch_bounds__(BS) void block_reduce_family(const int *in, int *sum, int *max) {
  using br = rocprim::block_reduce<int, BS>;
  using br_raking = rocprim::block_reduce<int, BS, rocprim::block_reduce_algorithm::raking_reduce>;
  __shared__ typename br::storage_type s_br;
  __shared__ typename br_raking::storage_type s_raking;
  const unsigned t = threadIdx.x, base = blockIdx.x * BS * 2;
  int v[2] = {in[base + 2 * t], in[base + 2 * t + 1]}, r;
  br().reduce(v, r, s_br);
  if (t == 0) sum[blockIdx.x] = r;
  br_raking().reduce(v, r, s_raking, rocprim::maximum<int>());
  if (t == 0) max[blockIdx.x] = r;
}

// ---- block scan: inclusive sum (warp-scan algorithm) and exclusive sum from 7 with the block's
// total (reduce-then-scan), two items per thread
__global__ __launch_bounds__(BS) void block_scan_family(const int *in, int *inc, int *exc, int *total) {
  using bs = rocprim::block_scan<int, BS>;
  using bs_rts = rocprim::block_scan<int, BS, rocprim::block_scan_algorithm::reduce_then_scan>;
  __shared__ typename bs::storage_type s_bs;
  __shared__ typename bs_rts::storage_type s_rts;
  const unsigned t = threadIdx.x, base = blockIdx.x * BS * 2;
  int v[2] = {in[base + 2 * t], in[base + 2 * t + 1]}, o[2], red;
  bs().inclusive_scan(v, o, s_bs);
  inc[base + 2 * t] = o[0], inc[base + 2 * t + 1] = o[1];
  bs_rts().exclusive_scan(v, o, 7, red, s_rts);
  exc[base + 2 * t] = o[0], exc[base + 2 * t + 1] = o[1];
  if (t == 0) total[blockIdx.x] = red;
}

// ---- block radix sort: unsigned keys ascending; float keys descending carrying their index
// (a stable sort: ties keep their order); unsigned keys on bits [4, 12) only
__global__ __launch_bounds__(BS) void radix_sort_family(const unsigned *keys, const float *fkeys, unsigned *sorted,
                                                         float *fsorted, int *fidx, unsigned *bits) {
  using rs = rocprim::block_radix_sort<unsigned, BS, IPT>;
  using rs_pairs = rocprim::block_radix_sort<float, BS, IPT, int>;
  __shared__ typename rs::storage_type s_rs;
  __shared__ typename rs_pairs::storage_type s_pairs;
  const unsigned t = threadIdx.x, base = blockIdx.x * BS * IPT + t * IPT;
  unsigned k[IPT], kb[IPT];
  float f[IPT];
  int idx[IPT];
  for (unsigned j = 0; j < IPT; j++)
    k[j] = kb[j] = keys[base + j], f[j] = fkeys[base + j], idx[j] = (int)(base + j);
  rs().sort(k, s_rs);
  __syncthreads(); // s_rs is used again below
  rs().sort(kb, s_rs, 4, 12);
  rs_pairs().sort_desc(f, idx, s_pairs);
  for (unsigned j = 0; j < IPT; j++)
    sorted[base + j] = k[j], bits[base + j] = kb[j], fsorted[base + j] = f[j], fidx[base + j] = idx[j];
}

// ---- block exchange: blocked -> striped, striped -> blocked, blocked -> warp-striped, and a
// scatter by rank to blocked; each result stored in the blocked arrangement (thread t, item j at
// t * IPT + j) so that the host sees where every item went
__global__ __launch_bounds__(BS) void exchange_family(const int *in, const unsigned *rank, int *b2s, int *s2b, int *b2ws,
                                                       int *scat) {
  using ex = rocprim::block_exchange<int, BS, IPT>;
  __shared__ typename ex::storage_type s_ex;
  const unsigned t = threadIdx.x, blk = blockIdx.x * BS * IPT, base = blk + t * IPT;
  int v[IPT], o[IPT];
  unsigned r[IPT];
  for (unsigned j = 0; j < IPT; j++) v[j] = in[base + j], r[j] = rank[base + j];
  ex().blocked_to_striped(v, o, s_ex);
  for (unsigned j = 0; j < IPT; j++) b2s[base + j] = o[j];
  __syncthreads();
  ex().striped_to_blocked(v, o, s_ex);
  for (unsigned j = 0; j < IPT; j++) s2b[base + j] = o[j];
  __syncthreads();
  ex().blocked_to_warp_striped(v, o, s_ex);
  for (unsigned j = 0; j < IPT; j++) b2ws[base + j] = o[j];
  __syncthreads();
  ex().scatter_to_blocked(v, o, r, s_ex);
  for (unsigned j = 0; j < IPT; j++) scat[base + j] = o[j];
}

// ---- host ----------------------------------------------------------------------------------------
static unsigned lcg = 12345u;
static unsigned next_rand() { return lcg = lcg * 1664525u + 1013904223u; }

template <class T> struct dbuf {
  T *d = nullptr;
  size_t n;
  explicit dbuf(size_t n_) : n(n_) { HIP_CHECK(hipMalloc(&d, n * sizeof(T))); }
  dbuf(const std::vector<T> &h) : n(h.size()) {
    HIP_CHECK(hipMalloc(&d, n * sizeof(T)));
    HIP_CHECK(hipMemcpy(d, h.data(), n * sizeof(T), hipMemcpyHostToDevice));
  }
  ~dbuf() { (void)hipFree(d); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
    return h;
  }
};

// The first index where got and want differ, reported with both values; exits 1.
template <class T> static void same(const char *what, const std::vector<T> &got, const std::vector<T> &want) {
  EXPECT(got.size() == want.size(), "%s: %zu values, want %zu", what, got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT(std::memcmp(&got[i], &want[i], sizeof(T)) == 0, "%s: element %zu is %.9g, want %.9g", what, i,
           (double)got[i], (double)want[i]);
}

static void warp() {
  std::vector<int> in(N);
  for (auto &x : in) x = (int)(next_rand() >> 16) % 2001 - 1000;
  dbuf<int> din(in), sum64(N / 64), max16(N / 16), inc64(N), exc32(N);
  warp_family<<<BLOCKS, BS>>>(din.d, sum64.d, max16.d, inc64.d, exc32.d);
  HIP_CHECK(hipGetLastError());
  std::vector<int> ws(N / 64, 0), wm(N / 16, -1000000), wi(N), we(N);
  for (unsigned i = 0; i < N; i++) {
    ws[i / 64] += in[i];
    wm[i / 16] = std::max(wm[i / 16], in[i]);
    wi[i] = in[i] + (i % 64 ? wi[i - 1] : 0);
    we[i] = i % 32 ? we[i - 1] + in[i - 1] : 5;
  }
  same("warp_reduce<int, 64> sum", sum64.get(), ws);
  same("warp_reduce<int, 16> maximum", max16.get(), wm);
  same("warp_scan<int, 64> inclusive sum", inc64.get(), wi);
  same("warp_scan<int, 32> exclusive sum from 5", exc32.get(), we);
}

static void block_reduce() {
  std::vector<int> in(2 * N);
  for (auto &x : in) x = (int)(next_rand() >> 12) % 100003 - 50000;
  dbuf<int> din(in), sum(BLOCKS), max(BLOCKS);
  block_reduce_family<<<BLOCKS, BS>>>(din.d, sum.d, max.d);
  HIP_CHECK(hipGetLastError());
  std::vector<int> ws(BLOCKS), wm(BLOCKS);
  for (unsigned b = 0; b < BLOCKS; b++) {
    ws[b] = std::accumulate(in.begin() + b * 2 * BS, in.begin() + (b + 1) * 2 * BS, 0);
    wm[b] = *std::max_element(in.begin() + b * 2 * BS, in.begin() + (b + 1) * 2 * BS);
  }
  same("block_reduce<int, 256> sum of 2 per thread", sum.get(), ws);
  same("block_reduce<int, 256, raking_reduce> maximum", max.get(), wm);
}

static void block_scan() {
  std::vector<int> in(2 * N);
  for (auto &x : in) x = (int)(next_rand() >> 16) % 201 - 100;
  dbuf<int> din(in), inc(2 * N), exc(2 * N), total(BLOCKS);
  block_scan_family<<<BLOCKS, BS>>>(din.d, inc.d, exc.d, total.d);
  HIP_CHECK(hipGetLastError());
  std::vector<int> wi(2 * N), we(2 * N), wt(BLOCKS, 0);
  for (unsigned i = 0; i < 2 * N; i++) {
    bool first = i % (2 * BS) == 0;
    wi[i] = in[i] + (first ? 0 : wi[i - 1]);
    we[i] = first ? 7 : we[i - 1] + in[i - 1];
    wt[i / (2 * BS)] += in[i];
  }
  same("block_scan<int, 256> inclusive sum", inc.get(), wi);
  same("block_scan<int, 256, reduce_then_scan> exclusive sum from 7", exc.get(), we);
  same("block_scan reduce_then_scan: the block's total", total.get(), wt);
}

static void radix_sort() {
  std::vector<unsigned> keys(NI);
  std::vector<float> fkeys(NI);
  for (unsigned i = 0; i < NI; i++) {
    keys[i] = next_rand();
    // few distinct values, both signs, -0.0 and +0.0, so ties and the sign flip of float keys
    // both matter
    int c = (int)(next_rand() >> 20) % 41 - 20;
    fkeys[i] = c == 20 ? -0.0f : c * 0.75f;
  }
  dbuf<unsigned> dk(keys), sorted(NI), bits(NI);
  dbuf<float> df(fkeys), fsorted(NI);
  dbuf<int> fidx(NI);
  radix_sort_family<<<BLOCKS, BS>>>(dk.d, df.d, sorted.d, fsorted.d, fidx.d, bits.d);
  HIP_CHECK(hipGetLastError());
  // A stable sort is a sort of the indices by (key, index).
  std::vector<unsigned> ws(keys), wb(NI);
  std::vector<int> wi(NI), bi(NI);
  const unsigned per = BS * IPT;
  for (unsigned b = 0; b < BLOCKS; b++) {
    const auto lo = b * per, hi = (b + 1) * per;
    std::sort(ws.begin() + lo, ws.begin() + hi);
    std::iota(bi.begin() + lo, bi.begin() + hi, (int)lo);
    std::sort(bi.begin() + lo, bi.begin() + hi, [&](int x, int y) {
      unsigned dx = (keys[x] >> 4) & 0xff, dy = (keys[y] >> 4) & 0xff;
      return dx < dy || (dx == dy && x < y);
    });
    // descending by value, ties in input order; -0.0 ties with +0.0 (rocPRIM 2.10.9's
    // radix_key_codec_floating::extract_digit: "-0.0 should be treated as +0.0 for stable sort")
    std::iota(wi.begin() + lo, wi.begin() + hi, (int)lo);
    std::sort(wi.begin() + lo, wi.begin() + hi,
              [&](int x, int y) { return fkeys[y] < fkeys[x] || (fkeys[x] == fkeys[y] && x < y); });
  }
  std::vector<float> wf(NI);
  for (unsigned i = 0; i < NI; i++) wf[i] = fkeys[wi[i]], wb[i] = keys[bi[i]];
  same("block_radix_sort<unsigned, 256, 4> ascending", sorted.get(), ws);
  same("block_radix_sort bits [4, 12) (stable)", bits.get(), wb);
  same("block_radix_sort<float, 256, 4, int> sort_desc keys", fsorted.get(), wf);
  same("block_radix_sort<float, 256, 4, int> sort_desc values (stable)", fidx.get(), wi);
}

static void exchange() {
  std::vector<int> in(NI);
  std::vector<unsigned> rank(NI);
  const unsigned per = BS * IPT;
  for (unsigned i = 0; i < NI; i++) in[i] = (int)(next_rand() >> 8), rank[i] = (i % per) * 389 % per; // 389 is prime
  dbuf<int> din(in), b2s(NI), s2b(NI), b2ws(NI), scat(NI);
  dbuf<unsigned> dr(rank);
  exchange_family<<<BLOCKS, BS>>>(din.d, dr.d, b2s.d, s2b.d, b2ws.d, scat.d);
  HIP_CHECK(hipGetLastError());
  std::vector<int> wb2s(NI), ws2b(NI), wb2ws(NI), wscat(NI);
  for (unsigned b = 0; b < BLOCKS; b++)
    for (unsigned t = 0; t < BS; t++)
      for (unsigned j = 0; j < IPT; j++) {
        const unsigned o = b * per, at = o + t * IPT + j; // thread t's item j, stored blocked
        // blocked input: item k of the block is thread k / IPT's item k % IPT. Striped output:
        // thread t's item j is item j * BS + t of the block.
        wb2s[at] = in[o + j * BS + t];
        // striped input: thread t's item j is item j * BS + t; blocked output: item t * IPT + j
        // is thread (t * IPT + j) % BS's item (t * IPT + j) / BS
        const unsigned k = t * IPT + j;
        ws2b[at] = in[o + (k % BS) * IPT + k / BS];
        // warp-striped: within each 64-lane wave w, lane l's item j is the wave's item j * 64 + l
        const unsigned w = t / 64, l = t % 64;
        wb2ws[at] = in[o + w * 64 * IPT + j * 64 + l];
        // scatter: the item with rank r lands at blocked position r
        wscat[o + rank[at]] = in[at];
      }
  same("block_exchange blocked_to_striped", b2s.get(), wb2s);
  same("block_exchange striped_to_blocked", s2b.get(), ws2b);
  same("block_exchange blocked_to_warp_striped", b2ws.get(), wb2ws);
  same("block_exchange scatter_to_blocked", scat.get(), wscat);
}

// ---- device-wide: the sum and the inclusive prefix sums of 20,000 ints (not a whole number of
// rocPRIM's tiles), each by the two calls rocPRIM's users make: the temporary storage's size, then
// the algorithm in it
static void device() {
  const unsigned n = 20000;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; i++) in[i] = (int)(next_rand() >> 20) - 2048;
  dbuf<int> din(in), sum(1), inc(n);
  size_t bytes = 0;
  HIP_CHECK(rocprim::reduce(nullptr, bytes, din.d, sum.d, 0, n, rocprim::plus<int>()));
  {
    dbuf<unsigned char> tmp(bytes ? bytes : 1);
    HIP_CHECK(rocprim::reduce(tmp.d, bytes, din.d, sum.d, 0, n, rocprim::plus<int>()));
  }
  bytes = 0;
  HIP_CHECK(rocprim::inclusive_scan(nullptr, bytes, din.d, inc.d, n, rocprim::plus<int>()));
  {
    dbuf<unsigned char> tmp(bytes ? bytes : 1);
    HIP_CHECK(rocprim::inclusive_scan(tmp.d, bytes, din.d, inc.d, n, rocprim::plus<int>()));
  }
  std::vector<int> want(n);
  std::partial_sum(in.begin(), in.end(), want.begin());
  same("rocprim::reduce (device) sum", sum.get(), std::vector<int>{want[n - 1]});
  same("rocprim::inclusive_scan (device)", inc.get(), want);
}

int main(int argc, char **argv) {
  const struct {
    const char *name;
    void (*run)();
  } families[] = {{"warp", warp}, {"block_reduce", block_reduce}, {"block_scan", block_scan},
                  {"radix_sort", radix_sort}, {"exchange", exchange}, {"device", device}};
  std::vector<int> pick;
  for (int a = 1; a < argc; a++) {
    int f = -1;
    for (int i = 0; i < 6; i++)
      if (!std::strcmp(argv[a], families[i].name)) f = i;
    if (f < 0) {
      std::fprintf(stderr, "rocprim_primitives: no family '%s' (warp, block_reduce, block_scan, radix_sort, exchange, device)\n",
                   argv[a]);
      return 2;
    }
    pick.push_back(f);
  }
  if (pick.empty())
    for (int i = 0; i < 6; i++) pick.push_back(i);
  for (int f : pick) {
    families[f].run();
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("rocprim %s: ok\n", families[f].name);
  }
  return 0;
}
