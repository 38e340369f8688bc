# Peak GPU memory per step (collector/src/torch/cuda_memory.cpp) needs a CUDA build of libtorch
# whose caching allocator takes trace trackers (torch >= 2.1) and the CUDA headers it includes.
# Debian's CPU-only libtorch 1.13 fails this check and the collector records no GPU memory.
include(CheckCXXSourceCompiles)
if(NOT DEFINED STEPLINT_HAVE_CUDA_ALLOCATOR_TRACKER)
  set(CMAKE_REQUIRED_INCLUDES ${TORCH_INCLUDE_DIRS} ${CUDAToolkit_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_FLAGS "-std=c++17 ${TORCH_CXX_FLAGS}")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles([=[
#include <c10/cuda/CUDACachingAllocator.h>
namespace a = c10::cuda::CUDACachingAllocator;
void attach(a::CUDAAllocator* x) {
  x->attachAllocatorTraceTracker([](const a::TraceEntry& e) { (void)e.size_; (void)e.device_; });
  (void)x->getDeviceStats(0).requested_bytes[0].current;
}
int main() { return 0; }
]=] STEPLINT_HAVE_CUDA_ALLOCATOR_TRACKER)
  unset(CMAKE_REQUIRED_INCLUDES)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_QUIET)
endif()
message(STATUS "steplint collector: peak GPU memory from the CUDA caching allocator: "
               "${STEPLINT_HAVE_CUDA_ALLOCATOR_TRACKER}")
