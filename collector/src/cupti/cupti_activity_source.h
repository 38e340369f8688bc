// The real ActivitySource: CUPTI activity tracing with fixed-size buffers (libkineto's
// CuptiActivityApi practice). CUPTI hands completed buffers to bufferCompleted on its own
// thread; they are only queued there and converted in drain() on the writer thread.
//
// Locking: queue_mutex_ guards completed_ only. No CUPTI function is ever called while it is
// held (CUPTI may call bufferCompleted from inside cuptiActivityFlushAll on the calling thread,
// which would then deadlock on the same mutex).
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "activity_source.h"
#include "cupti/cupti_api_filter.h"
#include "cupti/cupti_event_writer.h"
#include "cupti/cupti_records.h"

namespace steplint::collector {

class CuptiActivitySource final : public ActivitySource {
 public:
  CuptiActivitySource() = default;
  ~CuptiActivitySource() override;
  CuptiActivitySource(const CuptiActivitySource&) = delete;
  CuptiActivitySource& operator=(const CuptiActivitySource&) = delete;

  bool start(const ActivityConfig& config, std::string* why) override;
  void flush(bool forced) override;
  void drain(trace::KinetoJsonWriter& out) override;
  void setTimeFilter(TimeFilter keep) override { keep_ = std::move(keep); }
  void setCollecting(bool on) noexcept override;
  void stop() override;
  void describe(trace::TraceHeader& header) override;
  uint64_t droppedRecords() const override;
  void pushExternalId(uint64_t id) noexcept override;
  void popExternalId() noexcept override;

  /// Buffer callbacks (public so tests can drive the pool, cap and queue without a driver).
  /// requestBuffer hands out buffer_bytes (8-byte aligned) or, past max_buffer_bytes, nothing.
  void requestBuffer(uint8_t** buffer, size_t* size) noexcept;
  /// dropped: what cuptiActivityGetNumDroppedRecords reported for this buffer.
  void completeBuffer(uint8_t* buffer, size_t size, size_t valid_size, size_t dropped = 0) noexcept;
  /// Faults in spare buffers up to kSpareBuffers (the writer thread, after each drain), so
  /// that a request from CUPTI on a trainer thread takes one ready instead of fresh pages.
  void prepareSpareBuffers() noexcept;
  size_t spareBuffers() const;
  static constexpr size_t kSpareBuffers = 2;
  static constexpr size_t kMaxSpareBuffers = 4;  // drained buffers kept beyond that are freed
  /// Sets buffer sizes without starting CUPTI (tests).
  void configureBuffers(const ActivityConfig& config) { config_ = config; }

  uint64_t bufferCapHits() const { return cap_hits_.load(std::memory_order_relaxed); }
  size_t outstandingBytes() const { return outstanding_bytes_.load(std::memory_order_relaxed); }
  const RecordCounters& recordCounters() const { return converter_.counters(); }
  /// Activity kinds that failed to enable, "MEMSET: CUPTI_ERROR_NOT_SUPPORTED (27), ..." (empty
  /// when all enabled). Also written as trace metadata "steplint_cupti_missing".
  const std::string& missingKinds() const { return missing_kinds_; }
  bool started() const { return started_.load(std::memory_order_relaxed); }

 private:
  /// Removes the converted records that start outside keep_ (a schedule's captured windows).
  void dropOutsideWindows();
  struct Completed {
    uint8_t* buffer;
    size_t size;
    size_t valid;
  };
  bool checkVersion(std::string* why);
  bool subscribe(std::string* why);
  void setupClock();
  bool enableKinds(std::string* why);
  void releaseCupti();
  void detach() noexcept;
  /// Back to the spares (up to kMaxSpareBuffers) or freed.
  void freeBuffer(uint8_t* buffer, size_t size) noexcept;
  uint8_t* takeSpare() noexcept;
  size_t bufferBytes() const;

  ActivityConfig config_;
  std::atomic<bool> started_{false};
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::vector<CUpti_ActivityKind> enabled_;
  ApiSelection apis_;         // calls turned off at the source (config_.api_filter)
  bool paused_ = false;       // kinds disabled by setCollecting(false); guarded by control_mutex_
  std::mutex control_mutex_;  // serialises setCollecting and stop (trainer vs. stopping thread)
  std::string missing_kinds_;
  uint32_t cupti_version_ = 0;

  std::mutex queue_mutex_;  // guards completed_; never held across a CUPTI call
  std::vector<Completed> completed_;
  std::atomic<size_t> outstanding_bytes_{0};
  std::atomic<uint64_t> cap_hits_{0};
  std::atomic<uint64_t> cupti_dropped_{0};
  mutable std::mutex spare_mutex_;  // guards spare_; never held across a CUPTI call
  std::vector<uint8_t*> spare_;     // buffers of bufferBytes(), pages mapped, for requests

  // Writer-thread state (drain/describe).
  RecordConverter converter_;
  ConvertedRecords scratch_;
  TimeFilter keep_;  // writer thread only
  GpuEventWriter events_;
};

}  // namespace steplint::collector
