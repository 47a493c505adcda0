// hip/hip_runtime_api.h — the host side of lanelab's HIP: the runtime API that lanelab's HIP
// runtime library (hip/ in lanelab's tree, linked by `lanelab hipcc`) implements on the wave64
// emulator. Names, types and enum values are HIP's (ROCm HIP 6.x hip_runtime_api.h), so a program
// written for HIP compiles unchanged and prints HIP's error numbers; the structures' layouts are
// lanelab's own (this is not ABI-compatible with libamdhip64: docs/hip-runtime.md).
//
// Every HIP API name is either declared below and implemented, or declared with
// LL_HIP_REFUSED: using it is a compile error that names it and says why. docs/hip-runtime.md
// lists each name with its status; tests/test_hip_programs.c keeps the two in step.
//
// Valid C and C++; HIP programs are C++ (clang -x hip), where the C++ conveniences at the end
// (templates over symbols and kernels, hipLaunchKernelGGL) are available too.
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define LANELAB_HIP_RUNTIME_API 1

#include <stddef.h>
#include <stdint.h>
#include <limits.h> /* INT_MAX and the others, which ROCm's texture_types.h brings in with this header */

/* HIP's old status names, which its header still declares first */
enum { HIP_SUCCESS = 0, HIP_ERROR_INVALID_VALUE, HIP_ERROR_NOT_INITIALIZED, HIP_ERROR_LAUNCH_OUT_OF_RESOURCES };

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
// The HIP release whose interface lanelab's headers follow (HIP_VERSION, hipDriverGetVersion).
#include "hip_version.h" /* this folder's, also when the runtime (built with -I.) includes this header: a host with ROCm's or Debian's HIP headers has its own hip/hip_version.h */

#ifdef __cplusplus
#define LL_HIP_DEFAULT(v) = v
#define LL_HIP_EXTERN_C extern "C"
#else
#define LL_HIP_DEFAULT(v)
#define LL_HIP_EXTERN_C
#endif

// ---- errors (HIP's values) ----------------------------------------------------------------------
typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3,
  hipErrorDeinitialized = 4,
  hipErrorProfilerDisabled = 5,
  hipErrorProfilerNotInitialized = 6,
  hipErrorProfilerAlreadyStarted = 7,
  hipErrorProfilerAlreadyStopped = 8,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidPitchValue = 12,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInsufficientDriver = 35,
  hipErrorMissingConfiguration = 52,
  hipErrorPriorLaunchFailure = 53,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorInvalidContext = 201,
  hipErrorContextAlreadyCurrent = 202,
  hipErrorMapFailed = 205,
  hipErrorMapBufferObjectFailed = 205,
  hipErrorUnmapFailed = 206,
  hipErrorArrayIsMapped = 207,
  hipErrorAlreadyMapped = 208,
  hipErrorNoBinaryForGpu = 209,
  hipErrorAlreadyAcquired = 210,
  hipErrorNotMapped = 211,
  hipErrorNotMappedAsArray = 212,
  hipErrorNotMappedAsPointer = 213,
  hipErrorECCNotCorrectable = 214,
  hipErrorUnsupportedLimit = 215,
  hipErrorContextAlreadyInUse = 216,
  hipErrorPeerAccessUnsupported = 217,
  hipErrorInvalidKernelFile = 218,
  hipErrorInvalidGraphicsContext = 219,
  hipErrorInvalidSource = 300,
  hipErrorFileNotFound = 301,
  hipErrorSharedObjectSymbolNotFound = 302,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorOperatingSystem = 304,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400,
  hipErrorIllegalState = 401,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorPeerAccessAlreadyEnabled = 704,
  hipErrorPeerAccessNotEnabled = 705,
  hipErrorSetOnActiveProcess = 708,
  hipErrorContextIsDestroyed = 709,
  hipErrorAssert = 710,
  hipErrorHostMemoryAlreadyRegistered = 712,
  hipErrorHostMemoryNotRegistered = 713,
  hipErrorLaunchFailure = 719,
  hipErrorCooperativeLaunchTooLarge = 720,
  hipErrorNotSupported = 801,
  hipErrorStreamCaptureUnsupported = 900,
  hipErrorStreamCaptureInvalidated = 901,
  hipErrorStreamCaptureMerge = 902,
  hipErrorStreamCaptureUnmatched = 903,
  hipErrorStreamCaptureUnjoined = 904,
  hipErrorStreamCaptureIsolation = 905,
  hipErrorStreamCaptureImplicit = 906,
  hipErrorCapturedEvent = 907,
  hipErrorStreamCaptureWrongThread = 908,
  hipErrorGraphExecUpdateFailure = 910,
  hipErrorInvalidChannelDescriptor = 911,
  hipErrorInvalidTexture = 912,
  hipErrorUnknown = 999,
  hipErrorRuntimeMemory = 1052,
  hipErrorRuntimeOther = 1053,
  hipErrorTbd = 1054,
} hipError_t;

// ---- handles and small types ----------------------------------------------------------------------
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef int hipDevice_t;
typedef enum hipDeviceP2PAttr {
  hipDevP2PAttrPerformanceRank = 0,
  hipDevP2PAttrAccessSupported,
  hipDevP2PAttrNativeAtomicSupported,
  hipDevP2PAttrHipArrayAccessSupported
} hipDeviceP2PAttr;
typedef void *hipDeviceptr_t;
typedef struct hipUUID_t { char bytes[16]; } hipUUID;
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void *userData);
typedef void (*hipHostFn_t)(void *userData);
typedef int hipJitOption;

#define hipStreamLegacy ((hipStream_t)1)
#define hipStreamPerThread ((hipStream_t)2)
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)

// dim3: x, y, z default to 1.
typedef struct dim3 {
  uint32_t x, y, z;
#ifdef __cplusplus
#if defined(__HIP__)
  __attribute__((host, device))
#endif
  constexpr dim3(uint32_t _x = 1, uint32_t _y = 1, uint32_t _z = 1) : x(_x), y(_y), z(_z) {}
#endif
} dim3;

// ---- handles and argument types of graphs and of the refused families ------------------------------
// The graph handles are hip/hip_graph.c's (stream capture and a few explicit nodes); the others are
// declared so that a program written against HIP compiles up to a refused call and is told why,
// rather than stopping at an unknown type (docs/hip-runtime.md "The HIP API, name by name"). The names
// and the enumerators' values are HIP's.
typedef struct ihipGraph *hipGraph_t;
typedef struct hipGraphNode *hipGraphNode_t;
typedef struct hipGraphExec *hipGraphExec_t;
typedef struct hipUserObject *hipUserObject_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef struct hipArray *hipArray_t;
typedef const struct hipArray *hipArray_const_t;
typedef struct hipMipmappedArray *hipMipmappedArray_t;
typedef hipMipmappedArray_t hipmipmappedArray;
typedef const struct hipMipmappedArray *hipMipmappedArray_const_t;
// array flags (hipMallocArray, hipMalloc3DArray): the refused array calls take them
#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08
typedef struct __hip_texture *hipTextureObject_t;
typedef struct __hip_surface *hipSurfaceObject_t;
typedef void *hipExternalMemory_t;
typedef void *hipExternalSemaphore_t;
// The parameters of the external semaphores' signal and wait (HIP's, which are CUDA's layout). No
// semaphore can exist here (hipImportExternalSemaphore is refused), so the two calls only check
// their arguments: every handle is invalid.
struct lanelab_ext_sem_fence { unsigned long long value; };
typedef struct hipExternalSemaphoreSignalParams_st {
  struct {
    struct lanelab_ext_sem_fence fence;
    struct { unsigned long long key; } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags, reserved[16];
} hipExternalSemaphoreSignalParams;
typedef struct hipExternalSemaphoreWaitParams_st {
  struct {
    struct lanelab_ext_sem_fence fence;
    struct { unsigned long long key; unsigned int timeoutMs; } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags, reserved[16];
} hipExternalSemaphoreWaitParams;
typedef struct ihipMemGenericAllocationHandle *hipMemGenericAllocationHandle_t;
// Pitched 3D memory (HIP's, which are CUDA's): a linear allocation of depth slices of height rows of
// pitch bytes; positions and extents of linear memory count x and width in bytes.
typedef struct hipPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
} hipPitchedPtr;
typedef struct hipExtent {
  size_t width, height, depth;
} hipExtent;
typedef struct hipPos {
  size_t x, y, z;
} hipPos;
static inline hipPitchedPtr make_hipPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  hipPitchedPtr r = {d, p, xsz, ysz};
  return r;
}
static inline hipPos make_hipPos(size_t x, size_t y, size_t z) {
  hipPos r = {x, y, z};
  return r;
}
static inline hipExtent make_hipExtent(size_t w, size_t h, size_t d) {
  hipExtent r = {w, h, d};
  return r;
}
typedef enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal = 1,
  hipStreamCaptureModeRelaxed = 2,
} hipStreamCaptureMode;
typedef enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = 0,
  hipStreamCaptureStatusActive = 1,
  hipStreamCaptureStatusInvalidated = 2,
} hipStreamCaptureStatus;
// Texture objects' descriptors (HIP's names, fields and enumerator values, which are CUDA's): code
// that only declares them, such as rocPRIM's texture_cache_iterator.hpp, compiles; creating a
// texture object is refused (hipCreateTextureObject, hipCreateChannelDesc, tex1Dfetch).
typedef enum hipChannelFormatKind {
  hipChannelFormatKindSigned = 0,
  hipChannelFormatKindUnsigned = 1,
  hipChannelFormatKindFloat = 2,
  hipChannelFormatKindNone = 3,
} hipChannelFormatKind;
typedef struct hipChannelFormatDesc {
  int x, y, z, w;
  hipChannelFormatKind f;
} hipChannelFormatDesc;
typedef enum hipResourceType {
  hipResourceTypeArray = 0,
  hipResourceTypeMipmappedArray = 1,
  hipResourceTypeLinear = 2,
  hipResourceTypePitch2D = 3,
} hipResourceType;
typedef struct hipResourceDesc {
  hipResourceType resType;
  union {
    struct { hipArray_t array; } array;
    struct { hipMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; hipChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; hipChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
} hipResourceDesc;
typedef enum hipTextureAddressMode {
  hipAddressModeWrap = 0,
  hipAddressModeClamp = 1,
  hipAddressModeMirror = 2,
  hipAddressModeBorder = 3,
} hipTextureAddressMode;
typedef enum hipTextureFilterMode { hipFilterModePoint = 0, hipFilterModeLinear = 1 } hipTextureFilterMode;
typedef enum hipTextureReadMode { hipReadModeElementType = 0, hipReadModeNormalizedFloat = 1 } hipTextureReadMode;
typedef struct hipTextureDesc {
  hipTextureAddressMode addressMode[3];
  hipTextureFilterMode filterMode;
  hipTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
} hipTextureDesc;
#if defined(__cplusplus)
template <class T> hipChannelFormatDesc hipCreateChannelDesc() noexcept __attribute__((error(
    "lanelab's HIP runtime does not provide hipCreateChannelDesc: arrays, textures and surfaces: image instructions "
    "are not emulated (docs/hip-runtime.md)")));
// HIP's non-template form (x, y, z, w bits and the kind), refused alike
template <class... A> hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f,
                                                                A...) noexcept __attribute__((error(
    "lanelab's HIP runtime does not provide hipCreateChannelDesc: arrays, textures and surfaces: image instructions "
    "are not emulated (docs/hip-runtime.md)")));
#if defined(__HIP__)
template <class T, class... A> __attribute__((device)) T tex1Dfetch(A...) __attribute__((error(
    "not in lanelab's HIP headers: tex1Dfetch: texture fetches are not emulated (docs/hip-subset.md)")));
#endif
#endif

typedef struct hipKernelNodeParams {
  dim3 blockDim;
  void **extra;
  void *func;
  dim3 gridDim;
  void **kernelParams;
  unsigned int sharedMemBytes;
} hipKernelNodeParams;
typedef struct hipHostNodeParams {
  hipHostFn_t fn;
  void *userData;
} hipHostNodeParams;
// HIP 7.0's layout (CUDA's; HIP 6 had elementSize, height, pitch, value, width after dst)
typedef struct hipMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
} hipMemsetParams;
typedef enum hipGraphNodeType {
  hipGraphNodeTypeKernel = 0,
  hipGraphNodeTypeMemcpy = 1,
  hipGraphNodeTypeMemset = 2,
  hipGraphNodeTypeHost = 3,
  hipGraphNodeTypeGraph = 4,
  hipGraphNodeTypeEmpty = 5,
  hipGraphNodeTypeWaitEvent = 6,
  hipGraphNodeTypeEventRecord = 7,
  hipGraphNodeTypeExtSemaphoreSignal = 8,
  hipGraphNodeTypeExtSemaphoreWait = 9,
  hipGraphNodeTypeMemAlloc = 10,
  hipGraphNodeTypeMemFree = 11,
  hipGraphNodeTypeMemcpyFromSymbol = 12,
  hipGraphNodeTypeMemcpyToSymbol = 13,
  hipGraphNodeTypeBatchMemOp = 14,
  hipGraphNodeTypeCount = 15
} hipGraphNodeType;
typedef enum hipGraphExecUpdateResult {
  hipGraphExecUpdateSuccess = 0x0,
  hipGraphExecUpdateError = 0x1,
  hipGraphExecUpdateErrorTopologyChanged = 0x2,
  hipGraphExecUpdateErrorNodeTypeChanged = 0x3,
  hipGraphExecUpdateErrorFunctionChanged = 0x4,
  hipGraphExecUpdateErrorParametersChanged = 0x5,
  hipGraphExecUpdateErrorNotSupported = 0x6,
  hipGraphExecUpdateErrorUnsupportedFunctionChange = 0x7
} hipGraphExecUpdateResult;
typedef enum hipGraphInstantiateResult {
  hipGraphInstantiateSuccess = 0,
  hipGraphInstantiateError = 1,
  hipGraphInstantiateInvalidStructure = 2,
  hipGraphInstantiateNodeOperationNotSupported = 3,
  hipGraphInstantiateMultipleDevicesNotSupported = 4
} hipGraphInstantiateResult;
typedef enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = 1,
  hipGraphInstantiateFlagUpload = 2,
  hipGraphInstantiateFlagDeviceLaunch = 4,
  hipGraphInstantiateFlagUseNodePriority = 8
} hipGraphInstantiateFlags;
typedef struct hipGraphInstantiateParams {
  hipGraphNode_t errNode_out;
  unsigned long long flags;
  hipGraphInstantiateResult result_out;
  hipStream_t uploadStream;
} hipGraphInstantiateParams;
typedef enum hipStreamUpdateCaptureDependenciesFlags {
  hipStreamAddCaptureDependencies = 0,
  hipStreamSetCaptureDependencies = 1
} hipStreamUpdateCaptureDependenciesFlags;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
  hipMemcpyDeviceToDeviceNoCU = 1024,
} hipMemcpyKind;
// hipMemcpy3D's parameter block (HIP's fields, CUDA's layout): arrays are refused (no image support)
typedef struct hipMemcpy3DParms {
  hipArray_t srcArray;
  hipPos srcPos;
  hipPitchedPtr srcPtr;
  hipArray_t dstArray;
  hipPos dstPos;
  hipPitchedPtr dstPtr;
  hipExtent extent;
  hipMemcpyKind kind;
} hipMemcpy3DParms;

typedef enum hipMemoryType {
  hipMemoryTypeUnregistered = 0,
  hipMemoryTypeHost = 1,
  hipMemoryTypeDevice = 2,
  hipMemoryTypeManaged = 3,
  hipMemoryTypeArray = 10,
  hipMemoryTypeUnified = 11,
} hipMemoryType;
// The driver API's array descriptors and 2D copy block (HIP's driver_types.h), so that a program
// using them stops at the refusal of the call that takes them (hipArrayCreate, hipMemcpyParam2D,
// ...) rather than at an unknown type; nothing here makes an array
typedef enum hipArray_Format {
  HIP_AD_FORMAT_UNSIGNED_INT8 = 0x01,
  HIP_AD_FORMAT_UNSIGNED_INT16 = 0x02,
  HIP_AD_FORMAT_UNSIGNED_INT32 = 0x03,
  HIP_AD_FORMAT_SIGNED_INT8 = 0x08,
  HIP_AD_FORMAT_SIGNED_INT16 = 0x09,
  HIP_AD_FORMAT_SIGNED_INT32 = 0x0a,
  HIP_AD_FORMAT_HALF = 0x10,
  HIP_AD_FORMAT_FLOAT = 0x20
} hipArray_Format;
typedef struct HIP_ARRAY_DESCRIPTOR {
  size_t Width, Height;
  enum hipArray_Format Format;
  unsigned int NumChannels;
} HIP_ARRAY_DESCRIPTOR;
typedef struct HIP_ARRAY3D_DESCRIPTOR {
  size_t Width, Height, Depth;
  enum hipArray_Format Format;
  unsigned int NumChannels, Flags;
} HIP_ARRAY3D_DESCRIPTOR;
typedef struct hip_Memcpy2D {
  size_t srcXInBytes, srcY;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  struct hipArray *srcArray;
  size_t srcPitch, dstXInBytes, dstY;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  struct hipArray *dstArray;
  size_t dstPitch, WidthInBytes, Height;
} hip_Memcpy2D;
// the driver API's 3D copy block (hipDrvMemcpy3D, refused), HIP's fields
typedef struct HIP_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  struct hipArray *srcArray;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  struct hipArray *dstArray;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} HIP_MEMCPY3D;
// texture types of the texture-reference API (textures are refused: docs/hip-runtime.md)
#define hipTextureType1D 0x01
#define hipTextureType2D 0x02
#define hipTextureType3D 0x03
#define hipTextureTypeCubemap 0x0C
#define hipTextureType1DLayered 0xF1
#define hipTextureType2DLayered 0xF2
#define hipTextureTypeCubemapLayered 0xFC
// the driver API's texture-reference flags (HIP's driver_types.h), for the refused hipTexRefSet*
#define HIP_TRSA_OVERRIDE_FORMAT 0x01
#define HIP_TRSF_READ_AS_INTEGER 0x01
#define HIP_TRSF_NORMALIZED_COORDINATES 0x02
#define HIP_TRSF_SRGB 0x10
#if defined(__cplusplus)
// the texture-reference API (deprecated in HIP; HIP's texture_types.h): declared so that a program
// using it stops at the refusal of its fetches (tex1D, tex2D, tex3D) or of its binding calls
// (hipBindTexture*), by name; nothing here makes a texture
struct textureReference {
  int normalized;
  hipTextureReadMode readMode;
  hipTextureFilterMode filterMode;
  hipTextureAddressMode addressMode[3];
  hipChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  hipTextureObject_t textureObject;
  int numChannels;
  hipArray_Format format;
};
template <class T, int texType = hipTextureType1D, hipTextureReadMode mode = hipReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {};
#if defined(__HIP__)
#define LL_HIP_TEX_REFUSED(name)                                                                         \
  template <class T, int D, hipTextureReadMode M, class... A>                                           \
  __attribute__((device)) T name(texture<T, D, M>, A...) __attribute__((error(                           \
      "not in lanelab's HIP headers: " #name ": texture fetches are not emulated (docs/hip-subset.md)")));  \
  template <class T, class... A>                                                                        \
  __attribute__((device)) T name(hipTextureObject_t, A...) __attribute__((error(                         \
      "not in lanelab's HIP headers: " #name ": texture fetches are not emulated (docs/hip-subset.md)")));
LL_HIP_TEX_REFUSED(tex1D)
LL_HIP_TEX_REFUSED(tex2D)
LL_HIP_TEX_REFUSED(tex3D)
#undef LL_HIP_TEX_REFUSED
#endif
#endif

typedef struct hipPointerAttribute_t {
  enum hipMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  int isManaged;
  unsigned allocationFlags;
} hipPointerAttribute_t;

// hipPointerGetAttribute's attributes (HIP's values, which are CUDA's)
typedef enum hipPointer_attribute {
  HIP_POINTER_ATTRIBUTE_CONTEXT = 1,
  HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
  HIP_POINTER_ATTRIBUTE_DEVICE_POINTER,
  HIP_POINTER_ATTRIBUTE_HOST_POINTER,
  HIP_POINTER_ATTRIBUTE_P2P_TOKENS,
  HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS,
  HIP_POINTER_ATTRIBUTE_BUFFER_ID,
  HIP_POINTER_ATTRIBUTE_IS_MANAGED,
  HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
  HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE,
  HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR,
  HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
  HIP_POINTER_ATTRIBUTE_MAPPED,
  HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES,
  HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE,
  HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS,
  HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
} hipPointer_attribute;

// managed-memory range attributes (hipMemRangeGetAttribute) and the memory-pool and
// virtual-memory types the refused pool and VMM calls take
typedef enum hipMemRangeCoherencyMode {
  hipMemRangeCoherencyModeFineGrain = 0,
  hipMemRangeCoherencyModeCoarseGrain = 1,
  hipMemRangeCoherencyModeIndeterminate = 2,
} hipMemRangeCoherencyMode;
typedef enum hipMemRangeAttribute {
  hipMemRangeAttributeReadMostly = 1,
  hipMemRangeAttributePreferredLocation = 2,
  hipMemRangeAttributeAccessedBy = 3,
  hipMemRangeAttributeLastPrefetchLocation = 4,
  hipMemRangeAttributeCoherencyMode = 100,
} hipMemRangeAttribute;
typedef enum hipMemLocationType { hipMemLocationTypeInvalid = 0, hipMemLocationTypeDevice = 1 } hipMemLocationType;
typedef struct hipMemLocation {
  hipMemLocationType type;
  int id;
} hipMemLocation;
typedef enum hipMemAccessFlags {
  hipMemAccessFlagsProtNone = 0,
  hipMemAccessFlagsProtRead = 1,
  hipMemAccessFlagsProtReadWrite = 3,
} hipMemAccessFlags;
typedef struct hipMemAccessDesc {
  hipMemLocation location;
  hipMemAccessFlags flags;
} hipMemAccessDesc;
typedef enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0x0,
  hipMemAllocationTypePinned = 0x1,
  hipMemAllocationTypeMax = 0x7FFFFFFF,
} hipMemAllocationType;
typedef enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0x0,
  hipMemHandleTypePosixFileDescriptor = 0x1,
  hipMemHandleTypeWin32 = 0x2,
  hipMemHandleTypeWin32Kmt = 0x4,
} hipMemAllocationHandleType;
typedef struct hipMemPoolProps {
  hipMemAllocationType allocType;
  hipMemAllocationHandleType handleTypes;
  hipMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned char reserved[56];
} hipMemPoolProps;
typedef struct hipMemAllocationProp {
  hipMemAllocationType type;
  hipMemAllocationHandleType requestedHandleType;
  hipMemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
  } allocFlags;
} hipMemAllocationProp;
typedef struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;
  const hipMemAccessDesc *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;
} hipMemAllocNodeParams;
typedef enum hipGraphMemAttributeType {
  hipGraphMemAttrUsedMemCurrent = 0,
  hipGraphMemAttrUsedMemHigh = 1,
  hipGraphMemAttrReservedMemCurrent = 2,
  hipGraphMemAttrReservedMemHigh = 3,
} hipGraphMemAttributeType;
typedef enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 0x1,
  hipMemPoolReuseAllowOpportunistic = 0x2,
  hipMemPoolReuseAllowInternalDependencies = 0x3,
  hipMemPoolAttrReleaseThreshold = 0x4,
  hipMemPoolAttrReservedMemCurrent = 0x5,
  hipMemPoolAttrReservedMemHigh = 0x6,
  hipMemPoolAttrUsedMemCurrent = 0x7,
  hipMemPoolAttrUsedMemHigh = 0x8,
} hipMemPoolAttr;
typedef enum hipUserObjectFlags { hipUserObjectNoDestructorSync = 0x1 } hipUserObjectFlags;
typedef enum hipUserObjectRetainFlags { hipGraphUserObjectMove = 0x1 } hipUserObjectRetainFlags;

enum hipLimit_t {
  hipLimitStackSize = 0x0,
  hipLimitPrintfFifoSize = 0x01,
  hipLimitMallocHeapSize = 0x02,
  hipLimitRange,
};

typedef enum hipFuncCache_t {
  hipFuncCachePreferNone,
  hipFuncCachePreferShared,
  hipFuncCachePreferL1,
  hipFuncCachePreferEqual,
} hipFuncCache_t;

typedef enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault,
  hipSharedMemBankSizeFourByte,
  hipSharedMemBankSizeEightByte,
} hipSharedMemConfig;

typedef enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
  hipMemAdviseUnsetAccessedBy = 6,
  hipMemAdviseSetCoarseGrain = 100,
  hipMemAdviseUnsetCoarseGrain = 101,
} hipMemoryAdvise;

typedef enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
  hipFuncAttributeMax,
} hipFuncAttribute;

typedef enum hipFunction_attribute {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_NUM_REGS,
  HIP_FUNC_ATTRIBUTE_PTX_VERSION,
  HIP_FUNC_ATTRIBUTE_BINARY_VERSION,
  HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA,
  HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
  HIP_FUNC_ATTRIBUTE_MAX,
} hipFunction_attribute;

typedef struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  size_t sharedSizeBytes;
} hipFuncAttributes;

// Inter-process handles: HIP's opaque 64-byte structs (ROCm/HIP hip_runtime_api.h). lanelab is one
// process, so a handle can be made but not opened here (docs/hip-runtime.md "Inter-process handles").
#define HIP_IPC_HANDLE_SIZE 64
typedef struct hipIpcMemHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcMemHandle_t;
typedef struct hipIpcEventHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcEventHandle_t;
#define hipIpcMemLazyEnablePeerAccess 0x01

// Flags (HIP's values).
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventDisableSystemFence 0x20000000
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostAllocDefault hipHostMallocDefault
#define hipHostAllocPortable hipHostMallocPortable
#define hipHostAllocMapped hipHostMallocMapped
#define hipHostAllocWriteCombined hipHostMallocWriteCombined
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04
#define hipDeviceMallocDefault 0x0
#define hipDeviceMallocFinegrained 0x1
#define hipMallocSignalMemory 0x2
#define hipDeviceMallocUncached 0x3
#define hipDeviceMallocContiguous 0x4
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08
#define hipExtHostRegisterCoarseGrained 0x8
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10
#define hipOccupancyDefault 0x00
#define hipOccupancyDisableCachingOverride 0x01
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)

// ---- devices --------------------------------------------------------------------------------------
typedef struct hipDeviceArch_t {
  unsigned hasGlobalInt32Atomics : 1;
  unsigned hasGlobalFloatAtomicExch : 1;
  unsigned hasSharedInt32Atomics : 1;
  unsigned hasSharedFloatAtomicExch : 1;
  unsigned hasFloatAtomicAdd : 1;
  unsigned hasGlobalInt64Atomics : 1;
  unsigned hasSharedInt64Atomics : 1;
  unsigned hasDoubles : 1;
  unsigned hasWarpVote : 1;
  unsigned hasWarpBallot : 1;
  unsigned hasWarpShuffle : 1;
  unsigned hasFunnelShift : 1;
  unsigned hasThreadFenceSystem : 1;
  unsigned hasSyncThreadsExt : 1;
  unsigned hasSurfaceFuncs : 1;
  unsigned has3dGrid : 1;
  unsigned hasDynamicParallelism : 1;
} hipDeviceArch_t;

// HIP's fields, by name (the figures lanelab fills in are listed in docs/hip-runtime.md with
// their sources; a field lanelab has no figure for is 0).
typedef struct hipDeviceProp_t {
  char name[256];
  hipUUID uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseHipArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingHipArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
  int hipReserved[32];
  char gcnArchName[256];
  // HIP 5's numeric arch (942, 950: major * 100 + minor * 10 + stepping), removed in HIP 6.0 and
  // kept here because Debian's rocPRIM (ROCm 5) reads it in its device-wide algorithms.
  int gcnArch;
  size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate;
  hipDeviceArch_t arch;
  unsigned int *hdpMemFlushCntl;
  unsigned int *hdpRegFlushCntl;
  int cooperativeMultiDeviceUnmatchedFunc;
  int cooperativeMultiDeviceUnmatchedGridDim;
  int cooperativeMultiDeviceUnmatchedBlockDim;
  int cooperativeMultiDeviceUnmatchedSharedMem;
  int isLargeBar;
  int asicRevision;
} hipDeviceProp_t;

// HIP's attribute numbers.
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeCudaCompatibleBegin = 0,
  hipDeviceAttributeEccEnabled = 0,
  hipDeviceAttributeAccessPolicyMaxWindowSize = 1,
  hipDeviceAttributeAsyncEngineCount = 2,
  hipDeviceAttributeCanMapHostMemory = 3,
  hipDeviceAttributeCanUseHostPointerForRegisteredMem = 4,
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeComputeMode = 6,
  hipDeviceAttributeComputePreemptionSupported = 7,
  hipDeviceAttributeConcurrentKernels = 8,
  hipDeviceAttributeConcurrentManagedAccess = 9,
  hipDeviceAttributeCooperativeLaunch = 10,
  hipDeviceAttributeCooperativeMultiDeviceLaunch = 11,
  hipDeviceAttributeDeviceOverlap = 12,
  hipDeviceAttributeDirectManagedMemAccessFromHost = 13,
  hipDeviceAttributeGlobalL1CacheSupported = 14,
  hipDeviceAttributeHostNativeAtomicSupported = 15,
  hipDeviceAttributeIntegrated = 16,
  hipDeviceAttributeIsMultiGpuBoard = 17,
  hipDeviceAttributeKernelExecTimeout = 18,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeLocalL1CacheSupported = 20,
  hipDeviceAttributeLuid = 21,
  hipDeviceAttributeLuidDeviceNodeMask = 22,
  hipDeviceAttributeComputeCapabilityMajor = 23,
  hipDeviceAttributeManagedMemory = 24,
  hipDeviceAttributeMaxBlocksPerMultiProcessor = 25,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxSurface1D = 32,
  hipDeviceAttributeMaxSurface1DLayered = 33,
  hipDeviceAttributeMaxSurface2D = 34,
  hipDeviceAttributeMaxSurface2DLayered = 35,
  hipDeviceAttributeMaxSurface3D = 36,
  hipDeviceAttributeMaxSurfaceCubemap = 37,
  hipDeviceAttributeMaxSurfaceCubemapLayered = 38,
  hipDeviceAttributeMaxTexture1DWidth = 39,
  hipDeviceAttributeMaxTexture1DLayered = 40,
  hipDeviceAttributeMaxTexture1DLinear = 41,
  hipDeviceAttributeMaxTexture1DMipmap = 42,
  hipDeviceAttributeMaxTexture2DWidth = 43,
  hipDeviceAttributeMaxTexture2DHeight = 44,
  hipDeviceAttributeMaxTexture2DGather = 45,
  hipDeviceAttributeMaxTexture2DLayered = 46,
  hipDeviceAttributeMaxTexture2DLinear = 47,
  hipDeviceAttributeMaxTexture2DMipmap = 48,
  hipDeviceAttributeMaxTexture3DWidth = 49,
  hipDeviceAttributeMaxTexture3DHeight = 50,
  hipDeviceAttributeMaxTexture3DDepth = 51,
  hipDeviceAttributeMaxTexture3DAlt = 52,
  hipDeviceAttributeMaxTextureCubemap = 53,
  hipDeviceAttributeMaxTextureCubemapLayered = 54,
  hipDeviceAttributeMaxThreadsDim = 55,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
  hipDeviceAttributeMaxPitch = 58,
  hipDeviceAttributeMemoryBusWidth = 59,
  hipDeviceAttributeMemoryClockRate = 60,
  hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiGpuBoardGroupID = 62,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeUnused1 = 64,
  hipDeviceAttributePageableMemoryAccess = 65,
  hipDeviceAttributePageableMemoryAccessUsesHostPageTables = 66,
  hipDeviceAttributePciBusId = 67,
  hipDeviceAttributePciDeviceId = 68,
  hipDeviceAttributePciDomainID = 69,
  hipDeviceAttributePersistingL2CacheMaxSize = 70,
  hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeMaxRegistersPerMultiprocessor = 72,
  hipDeviceAttributeReservedSharedMemPerBlock = 73,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeSharedMemPerBlockOptin = 75,
  hipDeviceAttributeSharedMemPerMultiprocessor = 76,
  hipDeviceAttributeSingleToDoublePrecisionPerfRatio = 77,
  hipDeviceAttributeStreamPrioritiesSupported = 78,
  hipDeviceAttributeSurfaceAlignment = 79,
  hipDeviceAttributeTccDriver = 80,
  hipDeviceAttributeTextureAlignment = 81,
  hipDeviceAttributeTexturePitchAlignment = 82,
  hipDeviceAttributeTotalConstantMemory = 83,
  hipDeviceAttributeTotalGlobalMem = 84,
  hipDeviceAttributeUnifiedAddressing = 85,
  hipDeviceAttributeUnused2 = 86,
  hipDeviceAttributeWarpSize = 87,
  hipDeviceAttributeMemoryPoolsSupported = 88,
  hipDeviceAttributeVirtualMemoryManagementSupported = 89,
  hipDeviceAttributeHostRegisterSupported = 90,
  hipDeviceAttributeMemoryPoolSupportedHandleTypes = 91,
  hipDeviceAttributeCudaCompatibleEnd = 9999,
  hipDeviceAttributeAmdSpecificBegin = 10000,
  hipDeviceAttributeClockInstructionRate = 10000,
  hipDeviceAttributeUnused3 = 10001,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = 10002,
  hipDeviceAttributeUnused4 = 10003,
  hipDeviceAttributeUnused5 = 10004,
  hipDeviceAttributeHdpMemFlushCntl = 10005,
  hipDeviceAttributeHdpRegFlushCntl = 10006,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc = 10007,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim = 10008,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim = 10009,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem = 10010,
  hipDeviceAttributeIsLargeBar = 10011,
  hipDeviceAttributeAsicRevision = 10012,
  hipDeviceAttributeCanUseStreamWaitValue = 10013,
  hipDeviceAttributeImageSupport = 10014,
  hipDeviceAttributePhysicalMultiProcessorCount = 10015,
  hipDeviceAttributeFineGrainSupport = 10016,
  hipDeviceAttributeWallClockRate = 10017,
  // HIP's value (ROCm/aiter's aiter/jit/utils/chip_info.py passes 10019 to hipDeviceGetAttribute;
  // aiter_hip_common.h names it). lanelab's hipDeviceGetAttribute has no figure for it: it returns
  // hipErrorNotSupported, naming the attribute.
  hipDeviceAttributePciChipId = 10019,
  hipDeviceAttributeAmdSpecificEnd = 19999,
  hipDeviceAttributeVendorSpecificBegin = 20000,
} hipDeviceAttribute_t;

// ---- the implemented API ------------------------------------------------------------------------
#ifdef __cplusplus
extern "C" {
#endif
// --- devices
hipError_t hipInit(unsigned int flags);
hipError_t hipDriverGetVersion(int *driverVersion);
hipError_t hipRuntimeGetVersion(int *runtimeVersion);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipDeviceGet(hipDevice_t *device, int ordinal);
hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId);
hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId);
hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device);
hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device);
hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipDeviceGetLimit(size_t *pValue, enum hipLimit_t limit);
hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value);
hipError_t hipSetDeviceFlags(unsigned flags);
hipError_t hipGetDeviceFlags(unsigned int *flags);
hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *cacheConfig);
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config);
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *pConfig);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config);
// --- errors
hipError_t hipGetLastError(void);
hipError_t hipExtGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorName(hipError_t hip_error);
const char *hipGetErrorString(hipError_t hipError);
hipError_t hipDrvGetErrorName(hipError_t hipError, const char **errorString);
hipError_t hipDrvGetErrorString(hipError_t hipError, const char **errorString);
// --- memory
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags);
hipError_t hipFree(void *ptr);
hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags LL_HIP_DEFAULT(hipMemAttachGlobal));
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipMallocHost(void **ptr, size_t size);
hipError_t hipMemAllocHost(void **ptr, size_t size);
hipError_t hipHostFree(void *ptr);
hipError_t hipFreeHost(void *ptr);
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void *hostPtr);
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags);
hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr);
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes, size_t height, unsigned int elementSizeBytes);
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);
/* stream memory operations (hip_stream.c); the wait's comparisons, as HIP defines them */
#define hipStreamWaitValueGte 0x0
#define hipStreamWaitValueEq 0x1
#define hipStreamWaitValueAnd 0x2
#define hipStreamWaitValueNor 0x3
hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags, uint32_t mask LL_HIP_DEFAULT(0xFFFFFFFFu));
hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags, uint64_t mask LL_HIP_DEFAULT(0xFFFFFFFFFFFFFFFFull));
hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags);
hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags);
/* graph memory nodes (hip_graph.c) */
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies, size_t numDependencies, hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies, size_t numDependencies, void *dev_ptr);
hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr);
hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value);
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value);
hipError_t hipDeviceGraphMemTrim(int device);
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device);
hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool);
hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *pool_props);
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool);
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold);
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list, size_t count);
hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool, hipMemLocation *location);
hipError_t hipMemGetInfo(size_t *free, size_t *total);
hipError_t hipMemPtrGetInfo(void *ptr, size_t *size);
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr);
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr);
hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr);
hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute *attributes, void **data,
                                      hipDeviceptr_t ptr);
hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr);
hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle, unsigned int flags);
hipError_t hipIpcCloseMemHandle(void *devPtr);
hipError_t hipMemPrefetchAsync(const void *dev_ptr, size_t count, int device, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemRangeGetAttribute(void *data, size_t data_size, hipMemRangeAttribute attribute, const void *dev_ptr,
                                   size_t count);
hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes, hipMemRangeAttribute *attributes,
                                    size_t num_attributes, const void *dev_ptr, size_t count);
hipError_t hipMemAdvise(const void *dev_ptr, size_t count, hipMemoryAdvise advice, int device);
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *dev_ptr, size_t length LL_HIP_DEFAULT(0), unsigned int flags LL_HIP_DEFAULT(hipMemAttachSingle));
// --- copies
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId, size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice, size_t sizeBytes, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count);
hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count);
hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent);
hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent);
hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p);
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy);
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p, hipStream_t stream LL_HIP_DEFAULT(0));
// --- symbols
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t sizeBytes, size_t offset LL_HIP_DEFAULT(0), hipMemcpyKind kind LL_HIP_DEFAULT(hipMemcpyHostToDevice));
hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t sizeBytes, size_t offset, hipMemcpyKind kind, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes, size_t offset LL_HIP_DEFAULT(0), hipMemcpyKind kind LL_HIP_DEFAULT(hipMemcpyDeviceToHost));
hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind, hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol);
hipError_t hipGetSymbolSize(size_t *size, const void *symbol);
// --- streams
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags LL_HIP_DEFAULT(0));
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags);
hipError_t hipStreamGetPriority(hipStream_t stream, int *priority);
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t cuMaskSize, const uint32_t *cuMask);
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize, uint32_t *cuMask);
int hipGetStreamDeviceId(hipStream_t stream);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData, unsigned int flags);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData);
// --- stream capture and graphs (docs/hip-runtime.md "Graphs and stream capture")
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph);
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus);
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus, unsigned long long *pId);
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus *captureStatus_out, unsigned long long *id_out LL_HIP_DEFAULT(0), hipGraph_t *graph_out LL_HIP_DEFAULT(0), const hipGraphNode_t **dependencies_out LL_HIP_DEFAULT(0), size_t *numDependencies_out LL_HIP_DEFAULT(0));
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t *dependencies, size_t numDependencies, unsigned int flags LL_HIP_DEFAULT(0));
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode);
hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags);
hipError_t hipGraphDestroy(hipGraph_t graph);
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes);
hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                size_t numDependencies);
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                   size_t numDependencies, void *dst, const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphNode_t *pErrorNode, char *pLogBuffer,
                               size_t bufferSize);
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph, unsigned long long flags);
hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec);
hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipMemsetParams *pMemsetParams);
hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                               size_t numDependencies, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                      size_t numDependencies, hipEvent_t event);
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                    size_t numDependencies, hipEvent_t event);
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                     size_t numDependencies, hipGraph_t childGraph);
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                   size_t numDependencies);
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                      size_t numDependencies);
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to, size_t *numEdges);
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes, size_t *pNumRootNodes);
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t *pDependencies, size_t *pNumDependencies);
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t *pDependentNodes, size_t *pNumDependentNodes);
hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType);
hipError_t hipGraphDestroyNode(hipGraphNode_t node);
hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph);
hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode, hipGraph_t clonedGraph);
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *pNodeParams);
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams *pNodeParams);
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams *pNodeParams);
hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char *path, unsigned int flags);
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph, hipGraphNode_t *hErrorNode_out, hipGraphExecUpdateResult *updateResult_out);
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphInstantiateParams *instantiateParams);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int isEnabled);
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int *isEnabled);
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst, const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipMemcpy3DParms *pCopyParams);
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipUserObjectCreate(hipUserObject_t *object_out, void *ptr, hipHostFn_t destroy, unsigned int initialRefcount,
                               unsigned int flags);
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count);
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count);
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count, unsigned int flags);
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count);
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams *pNodeParams);
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, const hipMemsetParams *pNodeParams);
// --- events
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream LL_HIP_DEFAULT(NULL));
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event);
hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle);
// --- launches
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args, size_t sharedMemBytes LL_HIP_DEFAULT(0), hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args, size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent, int flags);
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem LL_HIP_DEFAULT(0), hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, hipStream_t *stream);
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem LL_HIP_DEFAULT(0), hipStream_t stream LL_HIP_DEFAULT(0));
hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset);
hipError_t hipLaunchByPtr(const void *func);
hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func);
hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value);
hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f, int blockSize, size_t dynSharedMemPerBlk);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags LL_HIP_DEFAULT(hipOccupancyDefault));
hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f, size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, const void *f, size_t dynSharedMemPerBlk, int blockSizeLimit, unsigned int flags);
hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(int *gridSize, int *blockSize, const void *f, size_t (*blockSizeToDynamicSMemSize)(int), int blockSizeLimit LL_HIP_DEFAULT(0));
hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *gridSize, int *blockSize, const void *f, size_t (*blockSizeToDynamicSMemSize)(int), int blockSizeLimit LL_HIP_DEFAULT(0), unsigned int flags LL_HIP_DEFAULT(hipOccupancyDefault));
// --- modules
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions, hipJitOption *options, void **optionValues);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);
hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod, const char *name);
// the deprecated context API: one device, so contexts are handles on a per-thread stack
// (docs/hip-runtime.md "Contexts")
hipError_t hipCtxCreate(hipCtx_t *ctx, unsigned int flags, hipDevice_t device);
hipError_t hipCtxDestroy(hipCtx_t ctx);
hipError_t hipCtxPopCurrent(hipCtx_t *ctx);
hipError_t hipCtxPushCurrent(hipCtx_t ctx);
hipError_t hipCtxSetCurrent(hipCtx_t ctx);
hipError_t hipCtxGetCurrent(hipCtx_t *ctx);
hipError_t hipCtxGetDevice(hipDevice_t *device);
hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int *apiVersion);
hipError_t hipCtxGetCacheConfig(hipFuncCache_t *cacheConfig);
hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig *pConfig);
hipError_t hipCtxSynchronize(void);
hipError_t hipCtxGetFlags(unsigned int *flags);
hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int *flags, int *active);
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev);
hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev);
hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev);
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags);
// peers: the emulated system has one device, so every pair of devices these calls can name is a
// device and itself, which HIP refuses at run time with hipErrorInvalidDevice (a program that
// looks for a second device first runs as on a one-GPU machine); any other id is no device
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);
hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags);
hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx);
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice, int dstDevice);
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype, uint32_t *hopcount);
// a cooperative launch: every block resident at once, so grid_group::sync() completes;
// hipErrorCooperativeLaunchTooLarge when they cannot be (docs/hip-runtime.md "Cooperative launches")
hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDim, void **kernelParams, unsigned int sharedMemBytes, hipStream_t stream);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream, void **kernelParams);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream, void **kernelParams, void **extra);
hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t hfunc);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags);
hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, hipFunction_t f, size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, hipFunction_t f, size_t dynSharedMemPerBlk, int blockSizeLimit, unsigned int flags);
const char *hipKernelNameRef(const hipFunction_t f);
const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream);
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                            const hipExternalSemaphoreSignalParams *paramsArray,
                                            unsigned int numExtSems, hipStream_t stream);
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                          const hipExternalSemaphoreWaitParams *paramsArray,
                                          unsigned int numExtSems, hipStream_t stream);
// --- registration: the entry points clang's host code calls. clang declares them itself and
// HIP's headers do not, so in a HIP translation unit they are left undeclared: sources that
// declare them with their own types (ROCm/aiter's aiter_hip_common.h) would otherwise meet a
// conflicting declaration. lanelab's runtime (C, not HIP) sees them.
#if !defined(__HIP__)
void **__hipRegisterFatBinary(const void *data);
void __hipUnregisterFatBinary(void **modules);
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction, const char *deviceName, unsigned int threadLimit, void *tid, void *bid, dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar, int ext, size_t size, int constant, int global);
void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value, const char *name, size_t size, unsigned align);
void __hipRegisterSurface(void **modules, void *var, char *deviceVar, char *hostVar, int type, int ext);
void __hipRegisterTexture(void **modules, void *var, char *deviceVar, char *hostVar, int type, int norm, int ext);
#endif
#ifdef __cplusplus
} // extern "C"
#endif

// ---- per-thread default stream entry points -----------------------------------------------------
// Compiled with -fgpu-default-stream=per-thread (clang defines HIP_API_PER_THREAD_DEFAULT_STREAM),
// clang's kernel launches (<<<>>>) call hipLaunchKernel_spt, where the null stream is the calling
// thread's default stream (hipStreamPerThread). It is the entry point of that compile mode, not one
// of HIP's API names (docs/hip-runtime.md "Streams and events"). HIP's headers also rename the other
// calls to their _spt forms in that mode; lanelab's do not: every stream's work completes when it
// is issued here, so the per-thread stream and the null stream give the same results.
LL_HIP_EXTERN_C hipError_t hipLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                               size_t sharedMemBytes LL_HIP_DEFAULT(0), hipStream_t stream LL_HIP_DEFAULT(0));

// ---- HIP API names lanelab refuses ------------------------------------------------------------------
// Declared so that a use is a compile error naming the function and the reason (C++; in C an
// undeclared function is an error of its own under -Werror=implicit-function-declaration). The
// error comes when a call is compiled into the program (an `error` attribute), not where a call is
// written: library code that names a refused function in a member it never instantiates or emits
// compiles, as it does with HIP (rocPRIM's texture_cache_iterator.hpp calls hipCreateTextureObject
// in members a program that does not use the iterator never compiles; with `unavailable`, which
// clang reports where the call is written, that header stopped every program that included it).
// noexcept: clang reports the attribute on a call, not on an invoke, so a refused call made where
// an exception could unwind past a live object with a destructor (a std::string in scope) was no
// error and failed at the link instead ("undefined symbol"); a noexcept function is always called.
// Arguments by forwarding reference: an argument of a texture type passed by value made a call the
// back end did not diagnose (hipBindTextureToArray(texref, ...) compiled and failed at the link).
#if defined(__cplusplus)
#define LL_HIP_REFUSED(name, why)                                                                   \
  template <class... A> hipError_t name(A &&...) noexcept __attribute__((error(                     \
      "lanelab's HIP runtime does not provide " #name ": " why " (docs/hip-runtime.md)")));
LL_HIP_REFUSED(__hipGetPCH, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipApiName, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipArray3DCreate, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipArray3DGetDescriptor, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipArrayCreate, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipArrayDestroy, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipArrayGetDescriptor, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipArrayGetInfo, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipBindTexture, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipBindTexture2D, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipBindTextureToArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipBindTextureToMipmappedArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipCreateSurfaceObject, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipCreateTextureObject, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipDestroyExternalMemory, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipDestroyExternalSemaphore, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipDestroySurfaceObject, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipDestroyTextureObject, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipDeviceGetByPCIBusId, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipDeviceGetPCIBusId, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipDeviceGetUuid, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipDrvGraphAddMemFreeNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphAddMemcpyNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphAddMemsetNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphExecMemcpyNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphExecMemsetNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphMemcpyNodeGetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvGraphMemcpyNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipDrvMemcpy2DUnaligned, "the driver API's 2D/3D and parameter-block copies are not provided; hipMemcpy2D, hipMemcpy3D and the memsets are")
LL_HIP_REFUSED(hipDrvMemcpy3D, "the driver API's 2D/3D and parameter-block copies are not provided; hipMemcpy2D, hipMemcpy3D and the memsets are")
LL_HIP_REFUSED(hipDrvMemcpy3DAsync, "the driver API's 2D/3D and parameter-block copies are not provided; hipMemcpy2D, hipMemcpy3D and the memsets are")
LL_HIP_REFUSED(hipExtHostAlloc, "not provided; hipHostMalloc is")
LL_HIP_REFUSED(hipExtLaunchMultiKernelMultiDevice, "multi-device launches are not provided (the emulated system has one device)")
LL_HIP_REFUSED(hipExternalMemoryGetMappedBuffer, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipExternalMemoryGetMappedMipmappedArray, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipFreeArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipFreeMipmappedArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetChannelDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetMipmappedArrayLevel, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetProcAddress, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipGetTextureAlignmentOffset, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetTextureObjectResourceDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetTextureObjectResourceViewDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetTextureObjectTextureDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGetTextureReference, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipGraphAddBatchMemOpNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphAddExternalSemaphoresSignalNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphAddExternalSemaphoresWaitNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphAddMemcpyNodeFromSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphAddMemcpyNodeToSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphAddNode, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphBatchMemOpNodeGetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphBatchMemOpNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphChildGraphNodeGetGraph, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecBatchMemOpNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecChildGraphNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecExternalSemaphoresSignalNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecExternalSemaphoresWaitNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecGetFlags, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecMemcpyNodeSetParamsFromSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecMemcpyNodeSetParamsToSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExecNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExternalSemaphoresSignalNodeGetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExternalSemaphoresSignalNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExternalSemaphoresWaitNodeGetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphExternalSemaphoresWaitNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphKernelNodeCopyAttributes, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphKernelNodeGetAttribute, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphKernelNodeSetAttribute, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphMemcpyNodeSetParamsFromSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphMemcpyNodeSetParamsToSymbol, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphNodeSetParams, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipGraphicsMapResources, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipGraphicsResourceGetMappedPointer, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipGraphicsSubResourceGetMappedArray, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipGraphicsUnmapResources, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipGraphicsUnregisterResource, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipImportExternalMemory, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipImportExternalSemaphore, "interoperation with other graphics and compute APIs is not provided")
LL_HIP_REFUSED(hipLaunchCooperativeKernelMultiDevice, "multi-device cooperative launches are not provided (the emulated system has one device; hipLaunchCooperativeKernel is)")
LL_HIP_REFUSED(hipMalloc3DArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMallocArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMallocMipmappedArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemAddressFree, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemAddressReserve, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemCreate, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemExportToShareableHandle, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemGetAccess, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemGetAllocationGranularity, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemGetAllocationPropertiesFromHandle, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemImportFromShareableHandle, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemMap, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemMapArrayAsync, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemPoolExportPointer, "a memory pool or its memory shared between processes: another process's memory is not modelled")
LL_HIP_REFUSED(hipMemPoolExportToShareableHandle, "a memory pool or its memory shared between processes: another process's memory is not modelled")
LL_HIP_REFUSED(hipMemPoolImportFromShareableHandle, "a memory pool or its memory shared between processes: another process's memory is not modelled")
LL_HIP_REFUSED(hipMemPoolImportPointer, "a memory pool or its memory shared between processes: another process's memory is not modelled")
LL_HIP_REFUSED(hipMemRelease, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemRetainAllocationHandle, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemSetAccess, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemUnmap, "virtual memory management is not provided")
LL_HIP_REFUSED(hipMemcpy2DArrayToArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpy2DFromArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpy2DFromArrayAsync, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpy2DToArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpy2DToArrayAsync, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyAtoA, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyAtoD, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyAtoH, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyAtoHAsync, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyDtoA, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyFromArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyHtoA, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyHtoAAsync, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMemcpyToArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMipmappedArrayCreate, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMipmappedArrayDestroy, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipMipmappedArrayGetLevel, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipModuleGetTexRef, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipModuleLaunchCooperativeKernelMultiDevice, "multi-device cooperative launches are not provided (the emulated system has one device; hipModuleLaunchCooperativeKernel is)")
LL_HIP_REFUSED(hipPointerSetAttribute, "not provided; hipPointerGetAttributes is")
LL_HIP_REFUSED(hipProfilerStart, "there is no profiler to start or stop")
LL_HIP_REFUSED(hipProfilerStop, "there is no profiler to start or stop")
LL_HIP_REFUSED(hipSetValidDevices, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
LL_HIP_REFUSED(hipStreamBatchMemOp, "batched stream memory operations are not provided; hipStreamWaitValue32/64 and hipStreamWriteValue32/64 are")
LL_HIP_REFUSED(hipStreamBeginCaptureToGraph, "this graph call is not provided (docs/hip-runtime.md \"Graphs and stream capture\" lists those that are)")
LL_HIP_REFUSED(hipTexObjectCreate, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexObjectDestroy, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexObjectGetResourceDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexObjectGetResourceViewDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexObjectGetTextureDesc, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetAddress, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetAddressMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetBorderColor, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetFilterMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetFlags, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetFormat, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetMaxAnisotropy, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetMipMappedArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetMipmapFilterMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetMipmapLevelBias, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefGetMipmapLevelClamp, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetAddress, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetAddress2D, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetAddressMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetBorderColor, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetFilterMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetFlags, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetFormat, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetMaxAnisotropy, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetMipmapFilterMode, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetMipmapLevelBias, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetMipmapLevelClamp, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTexRefSetMipmappedArray, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hipTriggerProgrammaticLaunchCompletion, "programmatic dependent launch is not provided")
LL_HIP_REFUSED(hipUnbindTexture, "arrays, textures and surfaces: image instructions are not emulated (the device has no image support, __HIP_NO_IMAGE_SUPPORT)")
LL_HIP_REFUSED(hip_init, "not provided: the emulated device has no PCI bus identity, UUID or driver entry-point table")
#undef LL_HIP_REFUSED
#endif

// ---- C++ conveniences (HIP's) --------------------------------------------------------------------
#if defined(__cplusplus)
template <class T> static inline hipError_t hipMalloc(T **devPtr, size_t size) {
  return hipMalloc((void **)devPtr, size);
}
template <class T> static inline hipError_t hipHostMalloc(T **ptr, size_t size, unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc((void **)ptr, size, flags);
}
template <class T> static inline hipError_t hipHostAlloc(T **ptr, size_t size, unsigned int flags = hipHostAllocDefault) {
  return hipHostAlloc((void **)ptr, size, flags);
}
template <class T> static inline hipError_t hipMallocHost(T **ptr, size_t size) {
  return hipMallocHost((void **)ptr, size);
}
template <class T> static inline hipError_t hipMallocManaged(T **devPtr, size_t size, unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged((void **)devPtr, size, flags);
}
template <class T> static inline hipError_t hipMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) {
  return hipMallocPitch((void **)ptr, pitch, width, height);
}
template <class T> static inline hipError_t hipMallocAsync(T **ptr, size_t size, hipStream_t stream) {
  return hipMallocAsync((void **)ptr, size, stream);
}
template <class T> static inline hipError_t hipMallocFromPoolAsync(T **ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream) {
  return hipMallocFromPoolAsync((void **)ptr, size, mem_pool, stream);
}
// A symbol is named as itself (HIP_SYMBOL(x) is x on AMD, as in HIP's amd_hip_runtime.h); the
// templates below take its address.
#define HIP_SYMBOL(X) X
template <class T>
static inline hipError_t hipMemcpyToSymbol(const T &symbol, const void *src, size_t sizeBytes, size_t offset = 0,
                                           hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol((const void *)&symbol, src, sizeBytes, offset, kind);
}
template <class T>
static inline hipError_t hipMemcpyToSymbolAsync(const T &symbol, const void *src, size_t sizeBytes, size_t offset,
                                                hipMemcpyKind kind, hipStream_t stream = 0) {
  return hipMemcpyToSymbolAsync((const void *)&symbol, src, sizeBytes, offset, kind, stream);
}
template <class T>
static inline hipError_t hipMemcpyFromSymbol(void *dst, const T &symbol, size_t sizeBytes, size_t offset = 0,
                                             hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(dst, (const void *)&symbol, sizeBytes, offset, kind);
}
template <class T>
static inline hipError_t hipMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t sizeBytes, size_t offset,
                                                  hipMemcpyKind kind, hipStream_t stream = 0) {
  return hipMemcpyFromSymbolAsync(dst, (const void *)&symbol, sizeBytes, offset, kind, stream);
}
template <class T> static inline hipError_t hipGetSymbolAddress(void **devPtr, const T &symbol) {
  return hipGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> static inline hipError_t hipGetSymbolSize(size_t *size, const T &symbol) {
  return hipGetSymbolSize(size, (const void *)&symbol);
}
// Kernels may be passed as themselves (a function, a function pointer, a template instance).
template <class F> static inline hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, F *kernel) {
  return hipFuncGetAttributes(attr, (const void *)kernel);
}
template <class F> static inline hipError_t hipFuncSetAttribute(F *kernel, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute((const void *)kernel, attr, value);
}
template <class F> static inline hipError_t hipFuncSetCacheConfig(F *kernel, hipFuncCache_t config) {
  return hipFuncSetCacheConfig((const void *)kernel, config);
}
// The occupancy and cooperative-launch templates take the kernel by value as HIP's do (T f), so
// that an explicit argument naming its pointer type (hipOccupancyMaxPotentialBlockSize<void (*)(int *)>
// (..., kernel, ...), as AMD's hip-tests write it) deduces as with HIP.
template <class T>
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T f, int blockSize,
                                                                      size_t dynSharedMemPerBlk) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void *>(f), blockSize,
                                                      dynSharedMemPerBlk);
}
template <class T>
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T f, int blockSize,
                                                                               size_t dynSharedMemPerBlk,
                                                                               unsigned int flags) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, reinterpret_cast<const void *>(f), blockSize,
                                                               dynSharedMemPerBlk, flags);
}
template <class T>
static inline hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, T f,
                                                           size_t dynSharedMemPerBlk = 0, int blockSizeLimit = 0) {
  return hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, reinterpret_cast<const void *>(f), dynSharedMemPerBlk,
                                           blockSizeLimit);
}
template <class T>
static inline hipError_t hipOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, T f,
                                                                    size_t dynSharedMemPerBlk = 0,
                                                                    int blockSizeLimit = 0, unsigned int flags = 0) {
  return hipOccupancyMaxPotentialBlockSizeWithFlags(gridSize, blockSize, reinterpret_cast<const void *>(f),
                                                    dynSharedMemPerBlk, blockSizeLimit, flags);
}
// HIP's VariableSMem templates take any unary size rule (a function, a functor, a lambda): the call
// is the C entry point's search, the rule reached through a per-thread pointer to this call's copy.
template <class U> struct ll_hip_smem_rule {
  static thread_local U *rule;
  static size_t call(int blockSize) { return static_cast<size_t>((*rule)(blockSize)); }
};
template <class U> thread_local U *ll_hip_smem_rule<U>::rule = nullptr;
template <typename UnaryFunction, class T>
static inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *min_grid_size, int *block_size, T func,
                                                                                UnaryFunction block_size_to_dynamic_smem_size,
                                                                                int block_size_limit = 0, unsigned int flags = 0) {
  ll_hip_smem_rule<UnaryFunction>::rule = &block_size_to_dynamic_smem_size;
  return hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, reinterpret_cast<const void *>(func),
                                                                &ll_hip_smem_rule<UnaryFunction>::call, block_size_limit, flags);
}
template <typename UnaryFunction, class T>
static inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(int *min_grid_size, int *block_size, T func,
                                                                       UnaryFunction block_size_to_dynamic_smem_size,
                                                                       int block_size_limit = 0) {
  return hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, func, block_size_to_dynamic_smem_size,
                                                                block_size_limit, 0u);
}
template <class F>
static inline hipError_t hipLaunchKernel(F *kernel, dim3 numBlocks, dim3 dimBlocks, void **args, size_t sharedMemBytes = 0,
                                         hipStream_t stream = 0) {
  return hipLaunchKernel((const void *)kernel, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}
template <class T>
static inline hipError_t hipLaunchCooperativeKernel(T f, dim3 gridDim, dim3 blockDim, void **kernelParams,
                                                    unsigned int sharedMemBytes, hipStream_t stream) {
  return hipLaunchCooperativeKernel(reinterpret_cast<const void *>(f), gridDim, blockDim, kernelParams, sharedMemBytes,
                                    stream);
}
#endif

// hipLaunchKernelGGL(kernel, grid, block, dynamicSharedBytes, stream, args...): the launch
// <<<grid, block, dynamicSharedBytes, stream>>>(args...), as HIP defines it. A template kernel
// whose name holds a comma is written HIP_KERNEL_NAME(k<A, B>). As in HIP, a program that defines
// HIP_TEMPLATE_KERNEL_LAUNCH before including the header gets a function template instead, which
// takes the kernel as a pointer: k<A, B> needs no HIP_KERNEL_NAME (and its template arguments are
// not deduced from the launch's).
#if defined(__HIP__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGLInternal(kernelName, numBlocks, numThreads, memPerBlock, streamId, ...)          \
  do {                                                                                                    \
    kernelName<<<(numBlocks), (numThreads), (memPerBlock), (streamId)>>>(__VA_ARGS__);                     \
  } while (0)
#ifdef HIP_TEMPLATE_KERNEL_LAUNCH
template <typename... Args, typename F = void (*)(Args...)>
inline void hipLaunchKernelGGL(F kernel, const dim3 &numBlocks, const dim3 &dimBlocks, unsigned int sharedMemBytes,
                               hipStream_t stream, Args... args) {
  kernel<<<numBlocks, dimBlocks, sharedMemBytes, stream>>>(args...);
}
#else
#define hipLaunchKernelGGL(kernelName, ...) hipLaunchKernelGGLInternal((kernelName), __VA_ARGS__)
#endif
#endif

#undef LL_HIP_EXTERN_C
#endif // HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
