// MemoryProbe over libtorch's CUDA caching allocator (issue #5: peak GPU memory per step).
//
// The allocator calls attached trace trackers on every alloc/free and segment change (torch
// >= 2.1: CUDAAllocator::attachAllocatorTraceTracker). Our tracker only updates PeakTracker's
// atomics, since it runs under the allocator's per-device lock. We never reset the
// allocator's own peak statistics: the trainer may read them (torch.cuda.max_memory_allocated).
//
// The allocator object is found at run time with dlsym, so the collector does not link
// libc10_cuda: a process without CUDA torch simply gets no probe. This TU is compiled only
// when CMake's check in cmake/CollectorDeps.cmake found the tracker API in the torch headers.
#include <dlfcn.h>

#include <c10/cuda/CUDACachingAllocator.h>
#include <atomic>
#include <mutex>

#include "../memory_probe.h"
#include "../recorder.h"
#include "../sources.h"

namespace steplint::collector {
namespace {

namespace alloc = c10::cuda::CUDACachingAllocator;
using AllocatorPtr = std::atomic<alloc::CUDAAllocator*>;

// c10::cuda::CUDACachingAllocator::allocator, exported by libc10_cuda.so.
constexpr const char* kAllocatorSymbol = "_ZN3c104cuda20CUDACachingAllocator9allocatorE";

// One tracker per process: the allocator has no detach, so it is attached once and outlives
// every session (a later session's probe reuses it; take() restarts its peaks).
struct Shared {
  PeakTracker tracker;
  std::mutex mutex;
  std::atomic<bool> attached{false};
};
Shared& shared() {
  static Shared* s = new Shared();  // leaked: the allocator may call the tracker during exit
  return *s;
}

class CudaMemoryProbe final : public MemoryProbe {
 public:
  explicit CudaMemoryProbe(AllocatorPtr* allocator) : allocator_(allocator) {}

  void takePeaks(std::vector<MemorySample>& out) noexcept override {
    attachOnce();
    if (shared().attached.load(std::memory_order_acquire)) shared().tracker.take(out, nowNs());
  }
  const char* status() const noexcept override {
    return shared().attached.load() ? "recording (CUDA caching allocator)"
                                    : "nothing recorded: CUDA was not initialised while recording";
  }

 private:
  // The allocator sizes its per-device state when CUDA initialises, and a tracker attached
  // before that is lost; so attach at the first step boundary where device 0 answers.
  void attachOnce() noexcept {
    Shared& sh = shared();
    if (sh.attached.load(std::memory_order_acquire)) return;
    if (processExiting()) return;  // the allocator may be gone (recorder.h)
    std::lock_guard<std::mutex> lock(sh.mutex);
    if (sh.attached.load()) return;
    try {
      alloc::CUDAAllocator* a = allocator_->load();
      if (a == nullptr || !a->initialized()) return;
      int devices = 0;
      for (; devices < PeakTracker::kMaxDevices; ++devices) {
        try {
          auto stats = a->getDeviceStats(static_cast<c10::DeviceIndex>(devices));
          sh.tracker.seed(devices, stats.requested_bytes[0].current,
                          stats.reserved_bytes[0].current);
        } catch (...) {
          break;  // past the last device
        }
      }
      if (devices == 0) return;
      PeakTracker* tracker = &sh.tracker;
      a->attachAllocatorTraceTracker(
          [tracker](const alloc::TraceEntry& e) { onEntry(*tracker, e); });
      sh.attached.store(true, std::memory_order_release);
    } catch (...) {
      // A backend without trackers (cudaMallocAsync) or a torch that throws: no probe.
    }
  }

  static void onEntry(PeakTracker& t, const alloc::TraceEntry& e) noexcept {
    const auto bytes = static_cast<int64_t>(e.size_);
    switch (e.action_) {
      case alloc::TraceEntry::ALLOC:
        return t.onAllocated(e.device_, bytes, nowNs());
      // The allocator's own totals drop at the free request (a block still used by another
      // stream is only returned to the pool later, FREE_COMPLETED); ALLOC and FREE_REQUESTED
      // both carry the requested size, so the totals are requested bytes (requested_bytes).
      case alloc::TraceEntry::FREE_REQUESTED:
        return t.onFreed(e.device_, bytes);
      case alloc::TraceEntry::SEGMENT_ALLOC:
      case alloc::TraceEntry::SEGMENT_MAP:
        return t.onReserved(e.device_, bytes);
      case alloc::TraceEntry::SEGMENT_FREE:
      case alloc::TraceEntry::SEGMENT_UNMAP:
        return t.onReserved(e.device_, -bytes);
      default:
        return;
    }
  }

  AllocatorPtr* allocator_;
};

}  // namespace

std::unique_ptr<MemoryProbe> makeCudaMemoryProbe() {
  auto* allocator = static_cast<AllocatorPtr*>(dlsym(RTLD_DEFAULT, kAllocatorSymbol));
  if (allocator == nullptr) return nullptr;  // CPU-only libtorch in this process
  return std::make_unique<CudaMemoryProbe>(allocator);
}

}  // namespace steplint::collector
