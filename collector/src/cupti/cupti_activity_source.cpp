#include "cupti/cupti_activity_source.h"

#include <cstdlib>

#include "cupti/cupti_api_filter.h"
#include "cupti/cupti_device_info.h"
#include "cupti/cupti_errors.h"
#include "recorder.h"
#include "sources.h"

namespace steplint::collector {

namespace {

// CUPTI's buffer callbacks carry no user pointer: one source per process receives them.
std::atomic<CuptiActivitySource*> g_source{nullptr};

constexpr size_t kRecordAlignment = 8;  // ACTIVITY_RECORD_ALIGNMENT in CUPTI's samples

void CUPTIAPI onBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *max_records = 0;  // fill the buffer
  CuptiActivitySource* s = g_source.load(std::memory_order_acquire);
  if (s == nullptr) {
    *buffer = nullptr;
    *size = 0;
    return;
  }
  s->requestBuffer(buffer, size);
}

void CUPTIAPI onBufferCompleted(CUcontext context, uint32_t stream, uint8_t* buffer, size_t size,
                                size_t valid_size) {
  // Called on CUPTI's thread (or inside cuptiActivityFlushAll). Dropped records are read here,
  // before completeBuffer takes its lock: no CUPTI call ever happens under that lock.
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) dropped = 0;
  CuptiActivitySource* s = g_source.load(std::memory_order_acquire);
  if (s == nullptr) {
    std::free(buffer);  // the source is gone; the records with it
    return;
  }
  s->completeBuffer(buffer, size, valid_size, dropped);
}

uint64_t CUPTIAPI traceClockNs() { return static_cast<uint64_t>(nowNs()); }

// The subscriber exists only to claim CUPTI (cuptiSubscribe is how CUPTI clients detect each
// other); steplint enables no callback domain, so this never runs.
void CUPTIAPI onCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

struct KindToggle {
  CUpti_ActivityKind kind;
  bool ActivityConfig::*flag;  // nullptr: always when any kind is on
  const char* label;
};

constexpr KindToggle kKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, &ActivityConfig::kernels, "CONCURRENT_KERNEL"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, &ActivityConfig::memcpy, "MEMCPY"},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, &ActivityConfig::memcpy, "MEMCPY2"},  // peer-to-peer copies
    {CUPTI_ACTIVITY_KIND_MEMSET, &ActivityConfig::memset, "MEMSET"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, &ActivityConfig::runtime_api, "RUNTIME"},
    {CUPTI_ACTIVITY_KIND_DRIVER, &ActivityConfig::driver_api, "DRIVER"},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, &ActivityConfig::synchronization, "SYNCHRONIZATION"},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, &ActivityConfig::overhead, "OVERHEAD"},
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, nullptr, "EXTERNAL_CORRELATION"},
};

}  // namespace

CuptiActivitySource::~CuptiActivitySource() {
  stop();
  detach();
  std::lock_guard<std::mutex> lock(queue_mutex_);
  for (const Completed& c : completed_) std::free(c.buffer);
  completed_.clear();
  std::lock_guard<std::mutex> spares(spare_mutex_);
  for (uint8_t* p : spare_) std::free(p);
  spare_.clear();
}

bool CuptiActivitySource::start(const ActivityConfig& config, std::string* why) {
  std::string ignored;
  if (why == nullptr) why = &ignored;
  if (started()) {
    *why = "CUPTI source already started";
    return false;
  }
  CuptiActivitySource* expected = nullptr;
  if (!g_source.compare_exchange_strong(expected, this) && expected != this) {
    *why = "another steplint CUPTI session is active in this process";
    return false;
  }
  config_ = config;
  missing_kinds_.clear();
  if (!checkVersion(why) || !subscribe(why)) {
    detach();
    return false;
  }
  setupClock();
  CUptiResult rc =
      SL_CUPTI_CALL(cuptiActivityRegisterCallbacks(onBufferRequested, onBufferCompleted));
  if (rc != CUPTI_SUCCESS) {
    *why = startFailureText(rc);
    releaseCupti();
    return false;
  }
  if (!enableKinds(why)) {
    releaseCupti();
    return false;
  }
  started_.store(true, std::memory_order_release);
  if (!missing_kinds_.empty()) *why = "partial: not recorded: " + missing_kinds_;
  return true;
}

bool CuptiActivitySource::checkVersion(std::string* why) {
  if (SL_CUPTI_CALL(cuptiGetVersion(&cupti_version_)) != CUPTI_SUCCESS) cupti_version_ = 0;
  bool fatal = false;
  std::string text = checkCuptiVersion(cupti_version_, CUPTI_API_VERSION, &fatal);
  if (fatal) {
    *why = text;
    return false;
  }
  if (!text.empty()) missing_kinds_ = text;
  return true;
}

bool CuptiActivitySource::subscribe(std::string* why) {
  char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
  CUpti_SubscriberParams params = {};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "steplint";
  params.oldSubscriberName = holder;
  params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
  // Expected to fail when a profiler holds CUPTI; the why says so, no extra log line.
  CUptiResult rc = cuptiSubscribe_v2(&subscriber_, onCallback, this, &params);
  if (rc == CUPTI_SUCCESS) return true;
  subscriber_ = nullptr;
  *why = startFailureText(rc);
  if (rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED && holder[0] != '\0') {
    *why += std::string(" (CUPTI is held by \"") + holder + "\")";
  }
  return false;
}

void CuptiActivitySource::setupClock() {
  // Preferred: CUPTI stamps records with nowNs() itself (must precede cuptiActivityEnable).
  // Otherwise CUPTI uses CLOCK_REALTIME: shift by the offset measured now.
  if (config_.timestamp_callback &&
      SL_CUPTI_CALL(cuptiActivityRegisterTimestampCallback(traceClockNs)) == CUPTI_SUCCESS) {
    converter_.setOffset(0);
    return;
  }
  uint64_t cupti_now = 0;
  const int64_t before = nowNs();
  if (SL_CUPTI_CALL(cuptiGetTimestamp(&cupti_now)) != CUPTI_SUCCESS) return;
  const int64_t after = nowNs();
  converter_.setOffset(before + (after - before) / 2 - static_cast<int64_t>(cupti_now));
}

bool CuptiActivitySource::enableKinds(std::string* why) {
  enabled_.clear();
  CUptiResult first_error = CUPTI_SUCCESS;
  for (const KindToggle& k : kKinds) {
    if (k.flag != nullptr && !(config_.*(k.flag))) continue;
    CUptiResult rc = SL_CUPTI_CALL(cuptiActivityEnable(k.kind));
    if (rc == CUPTI_SUCCESS) {
      enabled_.push_back(k.kind);
      continue;
    }
    if (first_error == CUPTI_SUCCESS) first_error = rc;
    if (isFatalStartCode(rc)) {
      *why = startFailureText(rc);
      return false;
    }
    if (!missing_kinds_.empty()) missing_kinds_ += ", ";
    missing_kinds_ += std::string(k.label) + ": " + cuptiCodeText(rc);
  }
  if (config_.api_filter) {
    apis_ = selectApis(cuptiApiNames());
    disableUnneededApis(apis_);
  }
  if (enabled_.empty() || (enabled_.size() == 1 && first_error != CUPTI_SUCCESS)) {
    // Nothing (or only EXTERNAL_CORRELATION) recorded: not worth a half-working source.
    *why = startFailureText(first_error == CUPTI_SUCCESS ? CUPTI_ERROR_UNKNOWN : first_error);
    return false;
  }
  return true;
}

void CuptiActivitySource::setCollecting(bool on) noexcept {
  // control_mutex_ is never taken by the buffer callbacks, so holding it across CUPTI calls
  // cannot deadlock with them (unlike queue_mutex_).
  std::lock_guard<std::mutex> lock(control_mutex_);
  if (!started() || paused_ == !on) return;
  for (CUpti_ActivityKind kind : enabled_) {
    SL_CUPTI_CALL(on ? cuptiActivityEnable(kind) : cuptiActivityDisable(kind));
  }
  if (on && config_.api_filter) disableUnneededApis(apis_);  // enabling a kind reset them
  paused_ = !on;
}

void CuptiActivitySource::stop() {
  std::lock_guard<std::mutex> lock(control_mutex_);
  if (!started_.exchange(false, std::memory_order_acq_rel)) return;
  for (CUpti_ActivityKind kind : enabled_) SL_CUPTI_CALL(cuptiActivityDisable(kind));
  enabled_.clear();
  paused_ = false;
  // Forced: also hands over buffers with records still being written; drain() gets them.
  SL_CUPTI_CALL(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  releaseCupti();
}

void CuptiActivitySource::detach() noexcept {
  // After the forced flush CUPTI holds no buffer of ours; a later callback finds nullptr and
  // frees what it brings. This lets a new session's source start while this one still waits
  // for its final drain().
  CuptiActivitySource* self = this;
  g_source.compare_exchange_strong(self, nullptr);
}

void CuptiActivitySource::releaseCupti() {
  for (CUpti_ActivityKind kind : enabled_) SL_CUPTI_CALL(cuptiActivityDisable(kind));
  enabled_.clear();
  if (subscriber_ != nullptr) {
    SL_CUPTI_CALL(cuptiUnsubscribe(subscriber_));  // lets torch.profiler / nsys claim CUPTI later
    subscriber_ = nullptr;
  }
  detach();
}

}  // namespace steplint::collector
