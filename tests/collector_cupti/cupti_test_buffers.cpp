#include "cupti_test_buffers.h"

namespace steplint::test {

void fillStepBuffer(ActivityBuffer& b) {
  // Correlations: 100 launch, 101 pageable H2D, 102 pinned H2D, 103 D2H, 104 memset, 105 sync.
  addExternal(b, 100, 7);
  addExternal(b, 101, 8);
  addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 1000,
         1500);
  addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 101, 1600,
         1700);
  addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 99, 1700,
         1710);
  addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 105,
         5000, 9000);
  addApi(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 106, 9100, 9200);

  auto& k = addKernel(b, "gemm_kernel", 100, 2000, 4000);
  k.gridX = 264;
  k.gridY = 1;
  k.gridZ = 1;
  k.blockX = 256;
  k.blockY = 1;
  k.blockZ = 1;
  k.registersPerThread = 32;
  k.staticSharedMemory = 4096;
  k.dynamicSharedMemory = 1024;

  addMemcpy(b, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
            CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 101, 4000, 5000, 1000000);
  addMemcpy(b, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
            CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 102, 5000, 5500, 1000000);
  addMemcpy(b, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
            CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, 103, 5500, 6000, 4);

  auto& ms = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  ms.bytes = 4096;
  ms.start = 6000;
  ms.end = 6100;
  ms.deviceId = 0;
  ms.contextId = 1;
  ms.streamId = 7;
  ms.correlationId = 104;
  ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;

  auto& s = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  s.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  s.start = 5000;
  s.end = 9000;
  s.correlationId = 105;
  s.contextId = 1;
  s.streamId = 7;
  s.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;

  auto& o = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
  o.start = 9500;
  o.end = 9600;
}

}  // namespace steplint::test
