// Inter-process handles, as an all-reduce library shares its buffers between ranks: each rank
// takes the handle of its hipMalloc buffer and of an interprocess event and hands them to the
// other ranks, which open them. lanelab is one process: a handle is made as HIP makes it, opening
// it in the process that made it is hipErrorInvalidContext (ROCm's runtime compares the owner's
// process id), and a handle opened by another process (a fork here) is refused as not modelled.
#include "../common.h"
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#define EXPECT_ERR(expr, want)                                                                     \
  do {                                                                                             \
    hipError_t got_ = (expr);                                                                      \
    EXPECT(got_ == (want), "%s gave %s, not %s", #expr, hipGetErrorName(got_), #want);             \
  } while (0)

// A rank that is not this process: it opens what the parent exported and reports by exit status.
static int child_opens(hipIpcMemHandle_t mh, hipIpcEventHandle_t eh) {
  void *p = nullptr;
  hipEvent_t e = nullptr;
  if (hipIpcOpenMemHandle(&p, mh, hipIpcMemLazyEnablePeerAccess) != hipErrorNotSupported || p) return 3;
  if (hipIpcOpenEventHandle(&e, eh) != hipErrorNotSupported || e) return 4;
  return 0;
}

int main() {
  static_assert(sizeof(hipIpcMemHandle_t) == HIP_IPC_HANDLE_SIZE && HIP_IPC_HANDLE_SIZE == 64, "HIP's size");
  static_assert(sizeof(hipIpcEventHandle_t) == 64, "HIP's size");
  char *buf;
  HIP_CHECK(hipMalloc(&buf, 4096));
  hipIpcMemHandle_t mh, mh2;
  HIP_CHECK(hipIpcGetMemHandle(&mh, buf));
  HIP_CHECK(hipIpcGetMemHandle(&mh2, buf + 256));
  EXPECT(std::memcmp(&mh, &mh2, sizeof mh) != 0, "an offset into the allocation is in its handle");
  // only device allocations have a handle
  char host[16];
  char *pinned;
  HIP_CHECK(hipHostMalloc(&pinned, 64, hipHostMallocDefault));
  EXPECT_ERR(hipIpcGetMemHandle(&mh2, host), hipErrorInvalidValue);
  EXPECT_ERR(hipIpcGetMemHandle(&mh2, pinned), hipErrorInvalidValue);
  EXPECT_ERR(hipIpcGetMemHandle(nullptr, buf), hipErrorInvalidValue);
  // opening: HIP's argument checks, then the owner's process id
  void *p = nullptr;
  EXPECT_ERR(hipIpcOpenMemHandle(nullptr, mh, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidValue);
  EXPECT_ERR(hipIpcOpenMemHandle(&p, mh, 0), hipErrorInvalidValue);
  hipIpcMemHandle_t zero;
  std::memset(&zero, 0, sizeof zero);
  EXPECT_ERR(hipIpcOpenMemHandle(&p, zero, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidValue);
  EXPECT_ERR(hipIpcOpenMemHandle(&p, mh, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidContext);
  EXPECT(p == nullptr, "a failed open returns no pointer");
  EXPECT_ERR(hipIpcCloseMemHandle(buf), hipErrorInvalidValue);
  // events: only an interprocess event has a handle
  hipEvent_t plain, ipc;
  HIP_CHECK(hipEventCreate(&plain));
  HIP_CHECK(hipEventCreateWithFlags(&ipc, hipEventInterprocess | hipEventDisableTiming));
  hipIpcEventHandle_t eh, eh2;
  EXPECT_ERR(hipIpcGetEventHandle(&eh2, plain), hipErrorInvalidConfiguration);
  HIP_CHECK(hipIpcGetEventHandle(&eh, ipc));
  hipEvent_t opened = nullptr;
  EXPECT_ERR(hipIpcOpenEventHandle(&opened, eh), hipErrorInvalidContext);
  std::memcpy(&zero, &eh, sizeof eh); // an event handle is not a memory handle
  EXPECT_ERR(hipIpcOpenMemHandle(&p, zero, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidValue);
  // another process
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) _exit(child_opens(mh, eh));
  int st = 0;
  EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid, "fork/wait");
  EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the other process's opens: status %d", st);
  (void)hipGetLastError();
  HIP_CHECK(hipEventDestroy(plain));
  HIP_CHECK(hipEventDestroy(ipc));
  HIP_CHECK(hipHostFree(pinned));
  HIP_CHECK(hipFree(buf));
  std::printf("ipc_handles: ok\n");
  return 0;
}
