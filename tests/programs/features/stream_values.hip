// Stream memory operations (docs/hip-runtime.md "Streams and events"): hipStreamWriteValue32/64
// into device memory, signal memory and registered host memory (a kernel reads what was written,
// and initcheck counts it written); hipStreamWaitValue32/64 with each comparison as HIP defines it
// (Gte (v & mask) >= value, Eq (v & mask) == value, And (v & value & mask) != 0,
// Nor (~(v | value) & mask) != 0), the expected outcome of each worked by hand below; a wait whose
// condition does not hold when issued is hipErrorNotSupported (this runtime cannot hold a stream);
// ROCm's argument errors. Signal memory is host-writable; a range registered twice is one
// registration, as ROCm keeps it.
#include "../common.h"

__global__ void sv_read(const unsigned *p, unsigned *o) { o[threadIdx.x] = p[threadIdx.x] + 1u; }

int main() {
  int can = 0;
  HIP_CHECK(hipDeviceGetAttribute(&can, hipDeviceAttributeCanUseStreamWaitValue, 0));
  EXPECT(can == 1, "hipDeviceAttributeCanUseStreamWaitValue: %d", can);
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  unsigned *d, *o;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&o, 64 * sizeof(unsigned)));
  for (unsigned i = 0; i < 64; i++) HIP_CHECK(hipStreamWriteValue32(s, d + i, 100 + i, 0));
  sv_read<<<1, 64, 0, s>>>(d, o);
  unsigned h[64];
  HIP_CHECK(hipMemcpyAsync(h, o, sizeof h, hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (unsigned i = 0; i < 64; i++) EXPECT(h[i] == 101 + i, "element %u: %u", i, h[i]);

  uint64_t *sig;
  HIP_CHECK(hipExtMallocWithFlags((void **)&sig, 8, hipMallocSignalMemory));
  *sig = 7; // signal memory is where the host reads and writes it (ROCm's HSA signal value)
  HIP_CHECK(hipStreamWaitValue64(s, sig, 7, hipStreamWaitValueEq));
  HIP_CHECK(hipStreamWriteValue64(s, sig, 0x0123456789abcdefull, 0));
  uint64_t v64 = 0;
  HIP_CHECK(hipMemcpy(&v64, sig, 8, hipMemcpyDeviceToHost));
  EXPECT(v64 == 0x0123456789abcdefull, "signal memory: 0x%llx", (unsigned long long)v64);
  static uint32_t reg[4];
  HIP_CHECK(hipHostRegister(reg, sizeof reg, 0));
  HIP_CHECK(hipStreamWriteValue32(s, &reg[2], 0xF4Au, 0));
  EXPECT(reg[2] == 0xF4Au && reg[1] == 0, "registered memory: %x %x", reg[2], reg[1]);
  // the same range registered again succeeds (ROCm keeps one entry; one unregister ends it); an
  // overlapping other range is refused
  HIP_CHECK(hipHostRegister(reg, sizeof reg, 0));
  EXPECT(hipHostRegister(&reg[1], 4, 0) == hipErrorHostMemoryAlreadyRegistered, "an overlapping range");

  // reg[2] = 0xF4A: each wait's outcome by its formula
  HIP_CHECK(hipStreamWaitValue32(s, &reg[2], 0x4, hipStreamWaitValueGte, 0xF));   // 0xA >= 0x4
  HIP_CHECK(hipStreamWaitValue32(s, &reg[2], 0xF4A, hipStreamWaitValueEq));       // all bits
  HIP_CHECK(hipStreamWaitValue32(s, &reg[2], 0x02, hipStreamWaitValueAnd, 0xFF)); // bit 1 of 0x4A
  HIP_CHECK(hipStreamWaitValue32(s, &reg[2], 0x0F0, hipStreamWaitValueNor, 0xFFF)); // bit 0 in neither
  HIP_CHECK(hipStreamWaitValue64(s, sig, 0x0123456789abcdefull, hipStreamWaitValueGte));
  EXPECT(hipStreamWaitValue32(s, &reg[2], 0xB, hipStreamWaitValueGte, 0xF) == hipErrorNotSupported, "0xA >= 0xB fails");
  EXPECT(hipStreamWaitValue32(s, &reg[2], 0x01, hipStreamWaitValueAnd, 0xFF) == hipErrorNotSupported, "bit 0 of 0x4A is 0");
  EXPECT(hipStreamWaitValue32(s, &reg[2], 0x0B5, hipStreamWaitValueNor, 0x0FF) == hipErrorNotSupported,
         "0x4A | 0xB5 covers 0xFF");
  EXPECT(hipStreamWaitValue64(s, sig, 1, hipStreamWaitValueEq) == hipErrorNotSupported, "64-bit Eq fails");
  EXPECT(hipStreamWaitValue32(s, &reg[2], 0, 7, 0xF) == hipErrorInvalidValue, "comparison 7");
  EXPECT(hipStreamWriteValue32(s, nullptr, 1, 0) == hipErrorInvalidValue, "NULL");
  static uint32_t unregistered;
  EXPECT(hipStreamWriteValue32(s, &unregistered, 1, 0) == hipErrorInvalidValue, "memory HIP does not know");
  hipStream_t gone;
  HIP_CHECK(hipStreamCreate(&gone));
  HIP_CHECK(hipStreamDestroy(gone));
  EXPECT(hipStreamWriteValue32(gone, d, 1, 0) == hipErrorContextIsDestroyed, "a destroyed stream");
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT(hipStreamWriteValue32(s, d, 1, 0) == hipErrorStreamCaptureUnsupported, "not recorded into a graph");
  hipGraph_t g = nullptr;
  EXPECT(hipStreamEndCapture(s, &g) == hipErrorStreamCaptureInvalidated, "the capture was invalidated");
  (void)hipGetLastError();

  HIP_CHECK(hipHostUnregister(reg));
  EXPECT(hipHostUnregister(reg) == hipErrorHostMemoryNotRegistered, "one registration, one unregister");
  HIP_CHECK(hipFree(sig));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipFree(o));
  HIP_CHECK(hipStreamDestroy(s));
  std::printf("stream_values: ok\n");
  return 0;
}
