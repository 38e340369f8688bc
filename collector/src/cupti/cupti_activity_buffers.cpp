// CuptiActivitySource: the buffer pool and the writer-thread side (flush, drain, stop,
// describe). start() and the failure policy live in cupti_activity_source.cpp.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cupti/cupti_activity_source.h"
#include "cupti/cupti_device_info.h"
#include "cupti/cupti_errors.h"
#include "process_info.h"
#include "sources.h"
#include "trace_sink.h"

namespace steplint::collector {

size_t CuptiActivitySource::bufferBytes() const {
  // aligned_alloc needs a size that is a multiple of the alignment; CUPTI needs 8-byte records.
  return (config_.buffer_bytes + 7) / 8 * 8;
}

void CuptiActivitySource::requestBuffer(uint8_t** buffer, size_t* size) noexcept {
  const size_t bytes = bufferBytes();
  const size_t before = outstanding_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  void* p = nullptr;
  if (before + bytes <= config_.max_buffer_bytes) {
    p = takeSpare();
    if (p == nullptr) p = std::aligned_alloc(8, bytes);
  }
  if (p == nullptr) {
    // Past the cap: hand CUPTI no buffer, which CUPTI API >= 27 (CUDA 12.9) accepts; it then
    // drops records and counts them (cuptiActivityGetNumDroppedRecords). This build requires
    // CUPTI 13 (checkCuptiVersion), so the older "must return a buffer" rule never applies.
    outstanding_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
    cap_hits_.fetch_add(1, std::memory_order_relaxed);
    *buffer = nullptr;
    *size = 0;
    return;
  }
  *buffer = static_cast<uint8_t*>(p);
  *size = bytes;
}

uint8_t* CuptiActivitySource::takeSpare() noexcept {
  std::lock_guard<std::mutex> lock(spare_mutex_);
  if (spare_.empty()) return nullptr;
  uint8_t* p = spare_.back();
  spare_.pop_back();
  return p;
}

void CuptiActivitySource::prepareSpareBuffers() noexcept {
  // CUPTI asks for a buffer on the thread whose records filled the last one (a trainer thread,
  // inside a launch), and its "Activity Buffer Request" records showed 1.5-2.7 ms each on the
  // GPU machines; a fresh buffer's pages also fault in on the thread that first writes them.
  // A spare allocated and faulted in here, on the writer thread, leaves that thread only a
  // pop; how much of the 1.5-2.7 ms this removes is still to be measured on a GPU.
  const size_t bytes = bufferBytes();
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(spare_mutex_);
      if (spare_.size() >= kSpareBuffers) return;
    }
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
    if (p == nullptr) return;
    std::memset(p, 0, bytes);
    std::lock_guard<std::mutex> lock(spare_mutex_);
    try {
      spare_.push_back(p);
    } catch (...) {
      std::free(p);
      return;
    }
  }
}

size_t CuptiActivitySource::spareBuffers() const {
  std::lock_guard<std::mutex> lock(spare_mutex_);
  return spare_.size();
}

void CuptiActivitySource::completeBuffer(uint8_t* buffer, size_t size, size_t valid_size,
                                         size_t dropped) noexcept {
  if (dropped != 0) cupti_dropped_.fetch_add(dropped, std::memory_order_relaxed);
  if (buffer == nullptr) return;
  try {
    // Only queue here: parsing happens in drain() on the writer thread. No CUPTI call under
    // this lock (see the header).
    std::lock_guard<std::mutex> lock(queue_mutex_);
    completed_.push_back({buffer, size, valid_size});
  } catch (...) {
    // push_back could not allocate: lose this buffer's records rather than throw into CUPTI.
    cupti_dropped_.fetch_add(1, std::memory_order_relaxed);
    freeBuffer(buffer, size);
  }
}

void CuptiActivitySource::freeBuffer(uint8_t* buffer, size_t size) noexcept {
  outstanding_bytes_.fetch_sub(size, std::memory_order_relaxed);
  if (size == bufferBytes()) {  // kept for the next request: its pages are already mapped
    std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spare_.size() < kMaxSpareBuffers) {
      try {
        spare_.push_back(buffer);
        return;
      } catch (...) {
      }
    }
  }
  std::free(buffer);
}

void CuptiActivitySource::flush(bool forced) {
  if (!started()) return;
  // No lock held: CUPTI may call onBufferCompleted from inside this call.
  SL_CUPTI_CALL(cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0));
}

void CuptiActivitySource::drain(trace::KinetoJsonWriter& out) {
  std::vector<Completed> batch;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    batch.swap(completed_);
  }
  for (const Completed& c : batch) {
    scratch_.clear();
    converter_.parseBuffer(c.buffer, c.valid, &scratch_);
    if (keep_) dropOutsideWindows();
    events_.write(scratch_, out);
    freeBuffer(c.buffer, c.size);
  }
  if (started()) prepareSpareBuffers();
}

void CuptiActivitySource::dropOutsideWindows() {
  auto outside = [this](const auto& e) { return !keep_(e.start_ns); };
  auto& device = scratch_.device;
  device.erase(std::remove_if(device.begin(), device.end(), outside), device.end());
  auto& api = scratch_.api;
  api.erase(std::remove_if(api.begin(), api.end(), outside), api.end());
}

void CuptiActivitySource::describe(trace::TraceHeader& header) {
  GpuDriverInfo info = queryGpuDriver();
  if (header.devices.empty()) header.devices = info.devices;
  events_.setDevices(header.devices);
  events_.setProcessName(executableName());
  if (cupti_version_ == 0 && cuptiGetVersion(&cupti_version_) != CUPTI_SUCCESS) cupti_version_ = 0;
  // Kineto's own keys (unprefixed), so HTA and tb_plugin find them where Kineto puts them.
  if (cupti_version_ != 0)
    header.metadata.emplace_back("cupti_version", std::to_string(cupti_version_));
  if (info.driver_version != 0) {
    header.metadata.emplace_back("cuda_driver_version", std::to_string(info.driver_version));
  }
  if (info.runtime_version != 0) {
    header.metadata.emplace_back("cuda_runtime_version", std::to_string(info.runtime_version));
  }
  if (!missing_kinds_.empty())
    header.metadata.emplace_back("steplint_cupti_missing", jsonString(missing_kinds_));
  if (info.devices.empty() && !info.why.empty()) {
    header.metadata.emplace_back("steplint_gpu_devices", jsonString("none: " + info.why));
  }
}

uint64_t CuptiActivitySource::droppedRecords() const {
  return cupti_dropped_.load(std::memory_order_relaxed) + cap_hits_.load(std::memory_order_relaxed);
}

void CuptiActivitySource::pushExternalId(uint64_t id) noexcept {
  if (!started()) return;
  SL_CUPTI_CALL(
      cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id));
}

void CuptiActivitySource::popExternalId() noexcept {
  if (!started()) return;
  uint64_t last = 0;
  SL_CUPTI_CALL(
      cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last));
}

std::unique_ptr<ActivitySource> makeCuptiSource() {
  return std::make_unique<CuptiActivitySource>();
}

}  // namespace steplint::collector
