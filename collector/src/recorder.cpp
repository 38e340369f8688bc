// The recording session: sources, the writer thread and the trace lifecycle (recorder.h,
// session.h). Process-wide state: recorder_state.h; step boundaries and metadata:
// recorder_steps.cpp.
#include "recorder.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "config.h"
#include "output_path.h"
#include "process_info.h"
#include "recorder_state.h"
#include "schedule.h"
#include "session.h"
#include "sources.h"
#include "status_channel.h"
#include "steplint/trace/kineto_writer.h"
#include "steplint/trace/recorded_names.h"
#include "steplint/trace/trace_file_names.h"
#include "thread_buffers.h"
#include "thread_ids.h"
#include "trace_sink.h"

#ifndef STEPLINT_VERSION
#define STEPLINT_VERSION "0.0.0"
#endif

namespace steplint::collector {

namespace {

/// Leaked: atexit handlers, signal paths and forked children use it. Replaced (and the old one
/// leaked) only in a forked child, on its one thread (resetStateInForkedChild).
std::atomic<Globals*>& globalsSlot() {
  static std::atomic<Globals*> slot{new Globals()};
  return slot;
}

thread_local int64_t t_tid = 0;  // currentThreadId(); 0 = not read yet (or forked since)

}  // namespace

Globals& recorderGlobals() { return *globalsSlot().load(std::memory_order_acquire); }

void installFreshGlobals() {
  auto* fresh = new Globals();
  fresh->parent_copy = globalsSlot().load(std::memory_order_acquire);
  globalsSlot().store(fresh, std::memory_order_release);
}

void putPair(RawJsonPairs& pairs, std::string_view key, std::string_view value) {
  for (auto& p : pairs) {
    if (p.first == key) {
      p.second = std::string(value);
      return;
    }
  }
  pairs.emplace_back(std::string(key), std::string(value));
}

bool capturedAt(int64_t ns) {
  Globals& s = recorderGlobals();
  std::lock_guard<std::mutex> lock(s.schedule_mutex);
  for (const auto& [start, end] : s.windows) {
    if (ns >= start && ns < end) return true;
  }
  return false;
}

bool wantDeviceTracing(const Schedule& schedule) {
  const SchedulePhase p = schedule.phase();
  return p == SchedulePhase::kWarmup || p == SchedulePhase::kActive;
}

void updateCaptureLocked(Globals& s, int64_t now) {
  const bool want = s.live.load(std::memory_order_relaxed) && s.schedule.capturing();
  const bool open = !s.windows.empty() && s.windows.back().second == kOpenWindow;
  if (want && !open) s.windows.emplace_back(now, kOpenWindow);
  if (!want && open) s.windows.back().second = now;
  s.capturing.store(want, std::memory_order_relaxed);
}

/// One recording: its sources, writer thread and trace file (recorder_state.h holds the
/// process-wide state around it).
class Session {
 public:
  Session(const CollectorConfig& config, std::vector<std::string> warnings)
      : config_(config), warnings_(std::move(warnings)) {}

  bool open(std::string* error) {
    std::error_code ec;
    auto parent = std::filesystem::path(config_.output_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    const bool users_file = namesUsersFile(config_);
    const bool taken = users_file || takenByAnotherProcess(config_);
    if (!taken && writer_.open(config_.output_path, error)) return true;
    if (!taken && !writer_.openFailedInUse()) return false;
    // Another process of the same run (an mp.spawn worker, a second script of a shell
    // pipeline) writes or wrote this path, or it is the user's file: a file of its own.
    moveBeside(config_, users_file, warnings_);
    return writer_.open(config_.output_path, error);
  }

  void start() {
    pid_ = static_cast<int64_t>(getpid());
    startSources();
    writeHeader();
    Globals& s = recorderGlobals();
    bool device_tracing = true;
    {
      std::lock_guard<std::mutex> lock(s.schedule_mutex);
      s.schedule = Schedule(config_.schedule);
      s.windows.clear();
      s.step_start_ns = -1;
      s.marked_steps.store(false, std::memory_order_relaxed);
      s.live.store(true, std::memory_order_relaxed);
      updateCaptureLocked(s, origin_ns_);
      device_tracing = s.device_tracing = wantDeviceTracing(s.schedule);
    }
    if (activity_ && !device_tracing) activity_->setCollecting(false);  // a schedule starts in wait
    try {
      HelperThreadSignals blocked;
      thread_ = std::thread([this] { writerLoop(); });
    } catch (...) {
      warnings_.push_back("steplint: no writer thread; events are written at stop only");
    }
  }

  const std::string& outputPath() const { return config_.output_path; }

  bool stop() {
    Globals& s = recorderGlobals();
    const int64_t end_ns = nowNs();
    {
      std::lock_guard<std::mutex> lock(s.schedule_mutex);
      s.live.store(false, std::memory_order_relaxed);
      updateCaptureLocked(s, end_ns);
    }
    if (thread_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(wake_mutex_);
        stop_requested_ = true;
      }
      wake_.notify_all();
      thread_.join();
    }
    for (auto& source : host_sources_) source->stop();
    if (activity_) activity_->stop();
    s.memory.store(nullptr, std::memory_order_release);
    s.memory_by_step.store(false, std::memory_order_relaxed);  // the last step's rest, sampled now
    drainOnce();  // this thread is the only consumer now
    if (memory_) reportSourceStatus("gpu_memory", memory_->status());
    writeEndMetadata(end_ns);
    std::string error;
    bool ok = writer_.endTrace(makeTrailer(), &error);
    if (!ok) {
      std::fprintf(stderr, "steplint: writing the trace failed: %s\n", error.c_str());
      sendStatus(StatusKind::kWriteFailed, "writing the trace failed: " + error);
    }
    s.activity.store(nullptr, std::memory_order_release);
    s.retired_host = std::move(host_sources_);
    s.retired_activity = std::move(activity_);
    s.retired_memory = std::move(memory_);
    return ok;
  }

 private:
  void startSource(const char* key, bool enabled, const char* env,
                   std::unique_ptr<HostSource> source) {
    if (!enabled) return reportSourceStatus(key, std::string("disabled (") + env + "=0)");
    if (!source) return reportSourceStatus(key, "not built");
    std::string why;
    if (!source->start(config_, &why)) return reportSourceStatus(key, "unavailable: " + why);
    reportSourceStatus(key, "recording");
    source->describe();
    host_sources_.push_back(std::move(source));
  }

  void startSources() {
    startSource("torch", config_.enable_torch, "STEPLINT_TORCH",
                config_.enable_torch ? makeTorchSource() : nullptr);
    startSource("nvtx", config_.enable_nvtx, "STEPLINT_NVTX",
                config_.enable_nvtx ? makeNvtxSource() : nullptr);
    startMemoryProbe();
    if (!config_.enable_cupti) {
      return reportSourceStatus("cupti", config_.cupti_off_why.empty()
                                             ? "disabled (STEPLINT_CUPTI=0)"
                                             : config_.cupti_off_why);
    }
    activity_ = makeCuptiSource();
    if (!activity_) return reportSourceStatus("cupti", "not built");
    std::string why;
    ActivityConfig activities;
    activities.driver_api = config_.cupti_driver;
    activities.synchronization = config_.cupti_sync;
    activities.timestamp_callback = config_.cupti_clock_callback;
    activities.api_filter = config_.cupti_api_filter;
    if (!activity_->start(activities, &why)) {
      activity_.reset();
      return reportSourceStatus("cupti", "unavailable: " + why);
    }
    reportSourceStatus("cupti", "recording");
    if (config_.schedule.enabled) activity_->setTimeFilter(capturedAt);
    recorderGlobals().activity.store(activity_.get(), std::memory_order_release);
  }

  void startMemoryProbe() {
    Globals& s = recorderGlobals();
    MemoryProbeFactory factory;
    {
      std::lock_guard<std::mutex> lock(s.memory_mutex);
      factory = s.memory_factory;
      s.pending_memory.clear();
    }
    if (!config_.enable_torch) return;  // the probe reads libtorch's allocator
    memory_ = factory ? factory() : makeCudaMemoryProbe();
    s.memory_by_step.store(false, std::memory_order_relaxed);
    if (!memory_) return;  // CPU-only libtorch: nothing to say, no GPU
    s.memory.store(memory_.get(), std::memory_order_release);
  }

  /// Writes the samples taken at step boundaries, or takes one now when the trainer marks no
  /// steps (then a sample covers one flush interval).
  void writeMemorySamples() {
    if (!memory_) return;
    Globals& s = recorderGlobals();
    std::vector<std::pair<MemorySample, int64_t>> samples;
    if (!s.memory_by_step.load(std::memory_order_relaxed)) {
      std::vector<MemorySample> now;
      memory_->takePeaks(now);
      for (const MemorySample& m : now) samples.emplace_back(m, pid_);
    }
    {
      std::lock_guard<std::mutex> lock(s.memory_mutex);
      samples.insert(samples.end(), s.pending_memory.begin(), s.pending_memory.end());
      s.pending_memory.clear();
    }
    for (const auto& [sample, tid] : samples) {
      if (capturedAt(sample.ts_ns)) writeMemorySample(writer_, sample, pid_, tid);
    }
  }

  void writeHostMemorySamples() {
    std::vector<HostMemorySample> samples;
    {
      Globals& s = recorderGlobals();
      std::lock_guard<std::mutex> lock(s.memory_mutex);
      samples.swap(s.pending_host_memory);
    }
    for (const HostMemorySample& sample : samples) writeHostMemorySample(writer_, sample, pid_);
  }

  void writeHeader() {
    trace::TraceHeader header;
    if (activity_) activity_->describe(header);
    header.rank = std::max(config_.rank, 0);
    header.world_size = std::max(config_.world_size, 1);
    timespec real{}, mono{};
    clock_gettime(CLOCK_REALTIME, &real);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    origin_ns_ = int64_t{mono.tv_sec} * 1000000000 + mono.tv_nsec;
    header.clock_origin_ns = origin_ns_;
    header.base_time_ns = int64_t{real.tv_sec} * 1000000000 + real.tv_nsec;
    RawJsonPairs meta = collectRunMetadata(config_);
    Globals& s = recorderGlobals();
    {
      std::lock_guard<std::mutex> lock(s.meta);
      for (const auto& [k, v] : s.metadata) putPair(meta, k, v);
      s.header_written = true;
      s.late_metadata.clear();
    }
    for (auto& [k, v] : meta) header.metadata.emplace_back(k, v);
    writer_.beginTrace(header);
  }

  void writerLoop() {
    pthread_setname_np(pthread_self(), "steplint_writer");
    const auto interval =
        std::chrono::milliseconds(std::max<int64_t>(config_.flush_interval_ms, 1));
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(wake_mutex_);
        if (wake_.wait_for(lock, interval, [this] { return stop_requested_; })) return;
      }
      drainOnce();
    }
  }

  void drainOnce() {
    ThreadBuffers::instance().drain([this](const HostEvent& e, const ThreadInfo& t) {
      if (threads_.emplace(t.tid, t.name).second && t.name.empty()) threads_[t.tid] = "unnamed";
      writeHostEvent(writer_, e, pid_, t.tid);
    });
    dropped_ += ThreadBuffers::instance().takeDropped();
    if (activity_) {
      activity_->flush(false);
      activity_->drain(writer_);
    }
    writeMemorySamples();
    writeHostMemorySamples();
    writer_.flush();
  }

  void writeEndMetadata(int64_t end_ns) {
    writeProcessMetadata(writer_, pid_, executableName(), "CPU", pid_, origin_ns_);
    for (const auto& [tid, name] : threads_) {
      writeThreadMetadata(writer_, pid_, tid, "thread " + std::to_string(tid) + " (" + name + ")",
                          origin_ns_);
    }
    int64_t span_start = origin_ns_, span_end = end_ns;
    {
      std::lock_guard<std::mutex> lock(recorderGlobals().schedule_mutex);
      if (!recorderGlobals().windows.empty()) {
        span_start = recorderGlobals().windows.front().first;
        span_end = recorderGlobals().windows.back().second;
      }
    }
    writeSpan(writer_, span_start, span_end);
  }

  trace::TraceTrailer makeTrailer() {
    trace::TraceTrailer trailer;
    trailer.trace_name = config_.trace_name;
    Globals& s = recorderGlobals();
    std::lock_guard<std::mutex> lock(s.meta);
    for (const auto& [k, v] : s.late_metadata) trailer.metadata.emplace_back(k, v);
    s.header_written = false;
    trailer.metadata.emplace_back("steplint_sources", jsonObject(s.statuses));
    trailer.metadata.emplace_back(trace::kDroppedEventsKey, std::to_string(dropped_));
    std::vector<std::string> warnings = warnings_;
    if (dropped_ > 0) {
      warnings.push_back(
          std::to_string(dropped_) + " host events dropped: the buffer cap of " +
          std::to_string(config_.max_buffer_bytes >> 20) +
          " MiB was reached (raise STEPLINT_MAX_BUFFER_MB or lower STEPLINT_FLUSH_MS)");
    }
    if (activity_) {
      trailer.metadata.emplace_back(trace::kDroppedActivityRecordsKey,
                                    std::to_string(activity_->droppedRecords()));
    }
    trailer.metadata.emplace_back("steplint_warnings", jsonStringArray(warnings));
    trailer.metadata.emplace_back("steplint_version", jsonString(STEPLINT_VERSION));
    return trailer;
  }

  CollectorConfig config_;
  std::vector<std::string> warnings_;
  trace::KinetoJsonWriter writer_;
  std::vector<std::unique_ptr<HostSource>> host_sources_;
  std::unique_ptr<ActivitySource> activity_;
  std::unique_ptr<MemoryProbe> memory_;
  std::thread thread_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;  // guarded by wake_mutex_
  int64_t pid_ = 0;
  int64_t origin_ns_ = 0;
  std::map<int64_t, std::string> threads_;  // writer thread, then the stopping thread
  uint64_t dropped_ = 0;
};

// ---- session.h

namespace {

StartResult startLocked(Globals& s, const CollectorConfig& config,
                        std::vector<std::string> warnings) {
  installProcessHooks();
  s.retired_host.clear();
  s.retired_activity.reset();
  s.retired_memory.reset();
  CollectorConfig resolved = config;
  if (resolved.output_path.empty()) resolved.output_path = defaultOutputPath(resolved.rank);
  ThreadBuffers::instance().setBudget(resolved.max_buffer_bytes);
  ThreadBuffers::instance().discardAll();  // leftovers appended after the last stop
  ThreadBuffers::instance().takeDropped();
  {
    std::lock_guard<std::mutex> meta_lock(s.meta);
    s.statuses.clear();
  }
  openStatusChannel(resolved.status_channel);
  auto session = std::make_unique<Session>(resolved, std::move(warnings));
  std::string error;
  if (!session->open(&error)) {
    std::fprintf(stderr, "steplint: not recording: %s\n", error.c_str());
    sendStatus(StatusKind::kNotRecording, "not recording: " + error);
    return StartResult::kFailed;
  }
  session->start();
  s.session = session.release();
  return StartResult::kStarted;
}

StartResult startWith(const CollectorConfig& config, std::vector<std::string> warnings) noexcept {
  if (inForkedChild()) return StartResult::kFailed;
  Globals& s = recorderGlobals();
  std::lock_guard<std::mutex> lock(s.lifecycle);
  if (s.session != nullptr) return StartResult::kJoined;
  try {
    return startLocked(s, config, std::move(warnings));
  } catch (...) {
    std::fprintf(stderr, "steplint: not recording: out of memory while starting\n");
    return StartResult::kFailed;
  }
}

}  // namespace

StartResult startSession(const CollectorConfig& config) noexcept { return startWith(config, {}); }

StartResult startSession(const char* output_path) noexcept {
  try {
    CollectorConfig config;
    std::vector<std::string> warnings;
    parseConfig(processEnv(), &config, &warnings);
    for (const auto& w : warnings) std::fprintf(stderr, "%s\n", w.c_str());
    if (output_path != nullptr && *output_path != '\0') config.output_path = output_path;
    return startWith(config, std::move(warnings));
  } catch (...) {
    return StartResult::kFailed;
  }
}

bool stopSession(std::string* trace_path) noexcept {
  if (inForkedChild()) return false;  // the parent's session; its mutexes may be held here
  Globals& s = recorderGlobals();
  std::lock_guard<std::mutex> lock(s.lifecycle);
  if (s.session == nullptr) return false;
  bool ok = false;
  try {
    ok = s.session->stop();
    if (ok && trace_path != nullptr) *trace_path = s.session->outputPath();
  } catch (...) {
    std::fprintf(stderr, "steplint: stopping the session failed\n");
  }
  delete s.session;
  s.session = nullptr;
  return ok;
}

bool sessionRunning() noexcept { return recorderGlobals().live.load(std::memory_order_relaxed); }

void markProcessExiting() noexcept { recorderGlobals().exiting.store(true); }

bool processExiting() noexcept { return recorderGlobals().exiting.load(); }

// ---- recorder.h

int64_t nowNs() noexcept {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

void recordHostEvent(const HostEvent& event) noexcept {
  if (!recorderGlobals().capturing.load(std::memory_order_relaxed)) return;
  ThreadBuffers::instance().append(event);
}

bool isCapturing() noexcept { return recorderGlobals().capturing.load(std::memory_order_relaxed); }

uint64_t nextExternalId() noexcept {
  return recorderGlobals().next_external_id.fetch_add(1, std::memory_order_relaxed) + 1;
}

void forgetCurrentThreadId() noexcept { t_tid = 0; }

int64_t currentThreadId() noexcept {
  if (t_tid == 0) t_tid = static_cast<int64_t>(syscall(SYS_gettid));
  return t_tid;
}

ActivitySource* activeActivitySource() noexcept {
  return recorderGlobals().activity.load(std::memory_order_acquire);
}

}  // namespace steplint::collector
