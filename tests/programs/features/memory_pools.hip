// Stream-ordered memory pools (docs/hip-runtime.md "Memory pools"). Every expectation is a rule of
// ROCm's pools stated in the docs, worked out by hand for the sequence below (4096-byte blocks):
// a freed block is reused by its own stream, not by another stream once opportunistic reuse is off,
// and again by a stream that waited on an event of its stream; freed blocks stay reserved until a
// synchronizing call trims the pool to its release threshold or hipMemPoolTrimTo trims it; the
// high-water marks reset only to 0; a pool's maxSize bounds what it reserves; a destroyed pool's
// allocation stays usable and returns to it when freed; hipFree returns a pool's allocation too.
// `memory_pools stale` reads a reused block a kernel never wrote since its reuse (initcheck finds
// it); `memory_pools trimmed` uses a block after the pool gave it back to the device (a fault).
#include "../common.h"
#include <cstring>

__global__ void mp_fill(int *p, int k) { p[threadIdx.x] = (int)threadIdx.x * k; }
__global__ void mp_copy(const int *p, int *o) { o[threadIdx.x] = p[threadIdx.x]; } // MP_READ

static uint64_t mp_attr(hipMemPool_t p, hipMemPoolAttr a) {
  uint64_t v = 0;
  HIP_CHECK(hipMemPoolGetAttribute(p, a, &v));
  return v;
}

static void mp_expect_filled(const int *d, int k) {
  int h[1024];
  HIP_CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 1024; i++) EXPECT(h[i] == i * k, "element %d: %d, want %d", i, h[i], i * k);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  const size_t B = 4096; // 1024 ints
  int supported = 0;
  HIP_CHECK(hipDeviceGetAttribute(&supported, hipDeviceAttributeMemoryPoolsSupported, 0));
  EXPECT(supported == 1, "hipDeviceAttributeMemoryPoolsSupported: %d", supported);
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  hipMemPool_t pool, def, cur;
  HIP_CHECK(hipMemPoolCreate(&pool, &props));
  hipStream_t s1, s2, s3;
  HIP_CHECK(hipStreamCreate(&s1));
  HIP_CHECK(hipStreamCreate(&s2));
  HIP_CHECK(hipStreamCreate(&s3));

  if (!std::strcmp(mode, "stale") || !std::strcmp(mode, "trimmed")) {
    int *a, *b, *o;
    HIP_CHECK(hipMalloc(&o, B));
    HIP_CHECK(hipMallocFromPoolAsync(&a, B, pool, s1));
    mp_fill<<<1, 1024, 0, s1>>>(a, 7);
    HIP_CHECK(hipFreeAsync(a, s1));
    if (!std::strcmp(mode, "trimmed")) {
      HIP_CHECK(hipStreamSynchronize(s1)); // the pool's threshold is 0: the block leaves it
      mp_copy<<<1, 1024, 0, s1>>>(a, o);
      std::printf("memory_pools: after the launch %s\n", hipGetErrorName(hipStreamSynchronize(s1)));
      return 0;
    }
    HIP_CHECK(hipMallocFromPoolAsync(&b, B, pool, s1));
    EXPECT(b == a, "the block is reused on its own stream");
    mp_copy<<<1, 1024, 0, s1>>>(b, o); // what the block held before: the program never wrote it as b
    HIP_CHECK(hipStreamSynchronize(s1));
    mp_expect_filled(o, 7);
    HIP_CHECK(hipFreeAsync(b, s1));
    HIP_CHECK(hipFree(o));
    std::printf("memory_pools: stale block read\n");
    HIP_CHECK(hipMemPoolDestroy(pool));
    return 0;
  }

  // the device's pools
  HIP_CHECK(hipDeviceGetDefaultMemPool(&def, 0));
  HIP_CHECK(hipDeviceGetMemPool(&cur, 0));
  EXPECT(def == cur && def != pool, "the current pool is the default one at first");
  EXPECT(hipMemPoolDestroy(def) == hipErrorInvalidValue, "the default pool cannot be destroyed");
  EXPECT(hipDeviceGetDefaultMemPool(&cur, 1) == hipErrorInvalidDevice, "device 1 does not exist");
  (void)hipGetLastError();

  // a new pool's attributes
  int32_t i32 = -1;
  HIP_CHECK(hipMemPoolGetAttribute(pool, hipMemPoolReuseFollowEventDependencies, &i32));
  EXPECT(i32 == 1, "ReuseFollowEventDependencies: %d", i32);
  HIP_CHECK(hipMemPoolGetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &i32));
  EXPECT(i32 == 1, "ReuseAllowOpportunistic: %d", i32);
  EXPECT(mp_attr(pool, hipMemPoolAttrReleaseThreshold) == 0 && mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 0 &&
             mp_attr(pool, hipMemPoolAttrUsedMemCurrent) == 0,
         "an empty pool");

  // the same stream reuses a freed block
  int *a, *b, *c, *d;
  HIP_CHECK(hipMallocFromPoolAsync(&a, B, pool, s1));
  mp_fill<<<1, 1024, 0, s1>>>(a, 3);
  mp_expect_filled(a, 3);
  EXPECT(mp_attr(pool, hipMemPoolAttrUsedMemCurrent) == B && mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == B, "one block");
  HIP_CHECK(hipFreeAsync(a, s1));
  EXPECT(mp_attr(pool, hipMemPoolAttrUsedMemCurrent) == 0 && mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == B,
         "a freed block stays reserved: used %llu reserved %llu", (unsigned long long)mp_attr(pool, hipMemPoolAttrUsedMemCurrent),
         (unsigned long long)mp_attr(pool, hipMemPoolAttrReservedMemCurrent));
  HIP_CHECK(hipMallocFromPoolAsync(&b, B, pool, s1));
  EXPECT(b == a, "the same stream reuses the block: %p, %p", (void *)a, (void *)b);

  // without opportunistic reuse another stream gets a new block; a stream that waited on an event
  // of the block's stream reuses it
  i32 = 0;
  HIP_CHECK(hipMemPoolSetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &i32));
  HIP_CHECK(hipFreeAsync(b, s1));
  HIP_CHECK(hipMallocFromPoolAsync(&c, B, pool, s2));
  EXPECT(c != a, "another stream gets another block");
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 2 * B && mp_attr(pool, hipMemPoolAttrReservedMemHigh) == 2 * B,
         "two blocks reserved");
  hipEvent_t ev;
  HIP_CHECK(hipEventCreate(&ev));
  HIP_CHECK(hipEventRecord(ev, s1));
  HIP_CHECK(hipStreamWaitEvent(s3, ev, 0));
  HIP_CHECK(hipMallocFromPoolAsync(&d, B, pool, s3));
  EXPECT(d == a, "a stream that waited on the block's stream reuses it");
  EXPECT(mp_attr(pool, hipMemPoolAttrUsedMemHigh) == 2 * B, "used high %llu", (unsigned long long)mp_attr(pool, hipMemPoolAttrUsedMemHigh));
  HIP_CHECK(hipFreeAsync(c, s2));
  HIP_CHECK(hipFreeAsync(d, s3));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 2 * B, "both blocks freed, both reserved");

  // a synchronizing call trims to the release threshold (0); with a threshold the blocks stay
  HIP_CHECK(hipStreamSynchronize(s2));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 0, "trimmed at the sync");
  uint64_t thr = 1 << 20;
  HIP_CHECK(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &thr));
  HIP_CHECK(hipMallocFromPoolAsync(&a, B, pool, s1));
  HIP_CHECK(hipFreeAsync(a, s1));
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == B, "kept under the threshold");
  HIP_CHECK(hipMemPoolTrimTo(pool, 0));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 0, "hipMemPoolTrimTo(0)");

  // a free that finds more bytes idle than busy gives the idle blocks back first (3 blocks, then
  // the third free: 2 idle > 1 busy, so only the third block stays reserved)
  int *x, *y, *z;
  HIP_CHECK(hipMallocFromPoolAsync(&x, B, pool, s1));
  HIP_CHECK(hipMallocFromPoolAsync(&y, B, pool, s1));
  HIP_CHECK(hipMallocFromPoolAsync(&z, B, pool, s1));
  HIP_CHECK(hipFreeAsync(x, s1));
  HIP_CHECK(hipFreeAsync(y, s1));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == 3 * B, "two freed, all reserved");
  HIP_CHECK(hipFreeAsync(z, s1));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemCurrent) == B, "the third free trimmed the idle blocks: %llu",
         (unsigned long long)mp_attr(pool, hipMemPoolAttrReservedMemCurrent));
  HIP_CHECK(hipMemPoolTrimTo(pool, 0));
  // a block hipFree gave back (no stream) is reused by any stream, opportunistic reuse off
  HIP_CHECK(hipMallocFromPoolAsync(&x, B, pool, s1));
  HIP_CHECK(hipFree(x));
  HIP_CHECK(hipMallocFromPoolAsync(&y, B, pool, s2));
  EXPECT(y == x, "a block freed without a stream is reused by another stream");
  HIP_CHECK(hipFreeAsync(y, s2));
  HIP_CHECK(hipMemPoolTrimTo(pool, 0));

  // the high-water marks reset to 0 only; the current figures are read-only
  uint64_t zero = 0, five = 5;
  HIP_CHECK(hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemHigh, &zero));
  HIP_CHECK(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &zero));
  EXPECT(mp_attr(pool, hipMemPoolAttrReservedMemHigh) == 0 && mp_attr(pool, hipMemPoolAttrUsedMemHigh) == 0, "reset");
  EXPECT(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &five) == hipErrorInvalidValue, "reset to 5");
  EXPECT(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &zero) == hipErrorInvalidValue, "read-only");
  (void)hipGetLastError();

  // access: the pool's own device reads and writes; ProtNone for it is refused
  hipMemLocation loc{hipMemLocationTypeDevice, 0};
  hipMemAccessFlags fl = hipMemAccessFlagsProtNone;
  HIP_CHECK(hipMemPoolGetAccess(&fl, pool, &loc));
  EXPECT(fl == hipMemAccessFlagsProtReadWrite, "access %d", (int)fl);
  hipMemAccessDesc desc{loc, hipMemAccessFlagsProtNone};
  EXPECT(hipMemPoolSetAccess(pool, &desc, 1) == hipErrorInvalidDevice, "ProtNone for the own device");
  desc.flags = hipMemAccessFlagsProtReadWrite;
  HIP_CHECK(hipMemPoolSetAccess(pool, &desc, 1));
  (void)hipGetLastError();

  // hipMallocAsync takes the current pool; a destroyed pool's allocation stays usable
  HIP_CHECK(hipDeviceSetMemPool(0, pool));
  HIP_CHECK(hipMallocAsync(&a, B, s1));
  EXPECT(mp_attr(pool, hipMemPoolAttrUsedMemCurrent) == B, "hipMallocAsync from the current pool");
  HIP_CHECK(hipMemPoolDestroy(pool));
  HIP_CHECK(hipDeviceGetMemPool(&cur, 0));
  EXPECT(cur == def, "the default pool is current again");
  mp_fill<<<1, 1024, 0, s1>>>(a, 5);
  mp_expect_filled(a, 5);
  HIP_CHECK(hipFreeAsync(a, s1));
  uint64_t v;
  EXPECT(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &v) == hipErrorInvalidValue, "a destroyed pool");
  (void)hipGetLastError();

  // maxSize bounds what a pool reserves; hipFree returns a pool's allocation to it
  props.maxSize = 2 * B;
  HIP_CHECK(hipMemPoolCreate(&pool, &props));
  HIP_CHECK(hipMallocFromPoolAsync(&a, B, pool, s1));
  HIP_CHECK(hipMallocFromPoolAsync(&b, B, pool, s1));
  EXPECT(hipMallocFromPoolAsync(&c, B, pool, s1) == hipErrorOutOfMemory, "a third block passes maxSize");
  (void)hipGetLastError();
  HIP_CHECK(hipFree(b));
  EXPECT(mp_attr(pool, hipMemPoolAttrUsedMemCurrent) == B, "hipFree gave the block back to its pool");
  HIP_CHECK(hipFreeAsync(a, s1));
  HIP_CHECK(hipMemPoolDestroy(pool));
  EXPECT(hipFreeAsync(nullptr, s1) == hipErrorInvalidValue, "hipFreeAsync(NULL)");
  (void)hipGetLastError();

  HIP_CHECK(hipEventDestroy(ev));
  HIP_CHECK(hipStreamDestroy(s1));
  HIP_CHECK(hipStreamDestroy(s2));
  HIP_CHECK(hipStreamDestroy(s3));
  std::printf("memory_pools: ok\n");
  return 0;
}
