// The public C ABI (collector.h). Every entry point is noexcept in effect: nothing throws out,
// and each is a relaxed load when no session captures.
#include <atomic>
#include <string>
#include <vector>

#include "recorder.h"
#include "session.h"
#include "steplint/collector.h"
#include "trace_sink.h"

namespace steplint::collector {
namespace {

struct OpenRange {
  std::string name;
  int64_t start_ns = 0;
  uint64_t external_id = 0;
  uint8_t flags = 0;
};

// Ranges open on this thread, innermost last; a token is the 1-based stack depth.
struct RangeStack {
  std::vector<OpenRange> open;
  std::vector<uint64_t> steps;  // tokens of open ProfilerStep ranges
};
thread_local RangeStack tls_ranges;

std::atomic<int> g_joined{0};  // joined starts whose stop must be ignored

uint64_t beginRange(const char* name, uint8_t flags) noexcept {
  if (!isCapturing()) return 0;
  try {
    OpenRange r;
    r.name = (name != nullptr && *name != '\0') ? name : "unnamed";
    r.external_id = nextExternalId();
    r.flags = flags;
    r.start_ns = nowNs();
    tls_ranges.open.push_back(std::move(r));
    return tls_ranges.open.size();
  } catch (...) {
    return 0;
  }
}

// Ends the range `token` and, first, any range opened inside it and never ended.
void endRange(uint64_t token) noexcept {
  auto& open = tls_ranges.open;
  if (token == 0 || token > open.size()) return;
  const int64_t end_ns = nowNs();
  while (open.size() >= token) {
    const OpenRange& r = open.back();
    HostEvent e;
    e.name = r.name;
    e.start_ns = r.start_ns;
    e.end_ns = end_ns;
    e.external_id = r.external_id;
    e.kind = HostKind::kUserAnnotation;
    e.flags = r.flags;
    recordHostEvent(e);
    open.pop_back();
  }
}

}  // namespace
}  // namespace steplint::collector

namespace sc = steplint::collector;

extern "C" {

STEPLINT_API int steplint_start(const char* output_path) {
  switch (sc::startSession(output_path)) {
    case sc::StartResult::kStarted:
      return 0;
    case sc::StartResult::kJoined:
      sc::g_joined.fetch_add(1);
      return 1;
    case sc::StartResult::kFailed:
      break;
  }
  return 2;
}

STEPLINT_API int steplint_stop(void) {
  int joined = sc::g_joined.load();
  while (joined > 0) {  // the stop matching a joined start: the owner stops later
    if (sc::g_joined.compare_exchange_weak(joined, joined - 1)) return 0;
  }
  return sc::stopSession() ? 0 : 1;
}

STEPLINT_API int steplint_start_forked_rank(void) {
  sc::g_joined.store(0);  // the parent's joined starts are not this process's
  return sc::startSessionInForkedChild() == sc::StartResult::kStarted ? 0 : 2;
}

STEPLINT_API int steplint_is_recording(void) { return sc::sessionRunning() ? 1 : 0; }

STEPLINT_API void steplint_step_begin(int64_t step) {
  sc::onStepBegin(step);
  std::string name = "ProfilerStep#" + std::to_string(step);  // tb_plugin / HTA spelling
  uint64_t token = sc::beginRange(name.c_str(), sc::kFlagStep);
  try {
    sc::tls_ranges.steps.push_back(token);
  } catch (...) {
  }
}

STEPLINT_API void steplint_step_end(void) {
  auto& steps = sc::tls_ranges.steps;
  if (steps.empty()) return;
  uint64_t token = steps.back();
  steps.pop_back();
  sc::endRange(token);
  sc::onStepEnd();
}

STEPLINT_API uint64_t steplint_range_begin(const char* name, int kind) {
  return sc::beginRange(name, kind == 1 ? sc::kFlagDataLoader : 0);
}

STEPLINT_API void steplint_range_end(uint64_t token) { sc::endRange(token); }

STEPLINT_API void steplint_annotate_json(const char* key, const char* value_json) {
  if (key == nullptr || *key == '\0' || value_json == nullptr || *value_json == '\0') return;
  sc::setMetadata(key, value_json);
}

}  // extern "C"

namespace steplint {

STEPLINT_API void annotate(const char* key, std::string_view value) {
  if (key == nullptr || *key == '\0') return;
  try {
    collector::setMetadata(key, collector::jsonString(value));
  } catch (...) {
  }
}

}  // namespace steplint
