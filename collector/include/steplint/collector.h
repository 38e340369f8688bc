// steplint's linked API: record a LibTorch trainer from inside, with exact steps.
//
//   #include <steplint/collector.h>           // link steplint::collector
//
//   steplint::Session session{"run/trace.pt.trace.json.gz"};   // or options from STEPLINT_* env
//   steplint::annotate("dataloader_workers", 4);
//   for (int64_t n = 0; n < steps; ++n) {
//     steplint::StepScope step{n};                              // ProfilerStep#n
//     Batch batch;
//     { steplint::DataLoaderWait wait; batch = next(loader); }  //
//     enumerate(DataLoader)#...__next__ { steplint::Range r{"forward"}; loss = model(batch); }
//     ...
//   }                                                           // ~Session writes the trace
//
// Without code changes use `steplint record -- ./train` instead (docs/collector.md); the
// environment variables listed there configure both ways. When the trainer was started under
// `steplint record`, a Session here joins the running recording instead of starting another.
//
// Every call is cheap when nothing records, never throws and never aborts the trainer.
// Define STEPLINT_DISABLE to compile the whole API to nothing (types stay, for builds without
// the library).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#if defined(_WIN32) || defined(STEPLINT_DISABLE)
#define STEPLINT_API
#else
#define STEPLINT_API __attribute__((visibility("default")))
#endif

extern "C" {
/// Starts recording to output_path (NULL: STEPLINT_OUTPUT or the default name). Returns 0 on
/// success, 1 if a session already runs (it is joined), 2 on a bad configuration (message on
/// stderr).
STEPLINT_API int steplint_start(const char* output_path);
/// Ends the session started by steplint_start: flushes and writes the trace. 0 on success.
STEPLINT_API int steplint_stop(void);
STEPLINT_API int steplint_is_recording(void);
/// In a process forked from a recording one (a DDP rank started with fork), which records
/// nothing of its own: starts its own session, configured from the environment, host side only
/// (CUPTI cannot be restarted after fork). 0 on success, 2 otherwise. The Python import hook
/// calls it when such a process joins a process group of several ranks.
STEPLINT_API int steplint_start_forked_rank(void);
STEPLINT_API void steplint_step_begin(int64_t step);
STEPLINT_API void steplint_step_end(void);
/// kind: 0 user range (user_annotation), 1 DataLoader wait. Returns a token for range_end.
STEPLINT_API uint64_t steplint_range_begin(const char* name, int kind);
STEPLINT_API void steplint_range_end(uint64_t token);
/// Records configuration as top-level trace metadata; value_json must be JSON text.
STEPLINT_API void steplint_annotate_json(const char* key, const char* value_json);
}

namespace steplint {

#ifndef STEPLINT_DISABLE
/// RAII recording session. Non-copyable; one per process (a second one joins the first).
class Session {
 public:
  explicit Session(const char* output_path = nullptr) : owner_(steplint_start(output_path) == 0) {}
  explicit Session(const std::string& output_path) : Session(output_path.c_str()) {}
  ~Session() {
    if (owner_) steplint_stop();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  /// True when this object started the recording (false: joined, or failed to start).
  bool owner() const { return owner_; }

 private:
  bool owner_;
};

/// One training step; emits `ProfilerStep#<n>` (the name tb_plugin and HTA key on).
class StepScope {
 public:
  explicit StepScope(int64_t n) { steplint_step_begin(n); }
  ~StepScope() { steplint_step_end(); }
  StepScope(const StepScope&) = delete;
  StepScope& operator=(const StepScope&) = delete;
  static void* operator new(size_t) = delete;
};

/// A named range on the calling thread (user_annotation).
class Range {
 public:
  explicit Range(const char* name, int kind = 0) : token_(steplint_range_begin(name, kind)) {}
  explicit Range(const std::string& name, int kind = 0) : Range(name.c_str(), kind) {}
  ~Range() { steplint_range_end(token_); }
  Range(const Range&) = delete;
  Range& operator=(const Range&) = delete;
  static void* operator new(size_t) = delete;

 private:
  uint64_t token_;
};

/// The trainer thread waiting for its next batch: `enumerate(DataLoader)#<iter>.__next__`.
class DataLoaderWait : public Range {
 public:
  DataLoaderWait() : Range("enumerate(DataLoader)#CppDataLoaderIter.__next__", 1) {}
};

inline void annotateJson(const char* key, const char* value_json) {
  steplint_annotate_json(key, value_json);
}
inline void annotate(const char* key, int64_t value) {
  annotateJson(key, std::to_string(value).c_str());
}
inline void annotate(const char* key, int value) { annotate(key, static_cast<int64_t>(value)); }
inline void annotate(const char* key, bool value) { annotateJson(key, value ? "true" : "false"); }
inline void annotate(const char* key, double value) {
  annotateJson(key, std::to_string(value).c_str());
}
/// Strings are JSON-escaped by the library.
STEPLINT_API void annotate(const char* key, std::string_view value);
inline void annotate(const char* key, const char* value) { annotate(key, std::string_view(value)); }
#else
class Session {
 public:
  explicit Session(const char* = nullptr) {}
  explicit Session(const std::string&) {}
  bool owner() const { return false; }
};
class StepScope {
 public:
  explicit StepScope(int64_t) {}
};
class Range {
 public:
  explicit Range(const char*, int = 0) {}
  explicit Range(const std::string&, int = 0) {}
};
class DataLoaderWait {
 public:
  DataLoaderWait() {}
};
template <typename T>
inline void annotate(const char*, const T&) {}
inline void annotateJson(const char*, const char*) {}
#endif

}  // namespace steplint

#define SL_CONCAT_INNER(a, b) a##b
#define SL_CONCAT(a, b) SL_CONCAT_INNER(a, b)
/// A range named after the enclosing function.
#define STEPLINT_FUNC_RANGE() \
  ::steplint::Range SL_CONCAT(steplint_func_range_, __LINE__) { __func__ }
