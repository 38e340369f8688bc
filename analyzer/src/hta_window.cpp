// HTA's last-step filter on our model (docs/reference/peer-tools.md §2.1, HTA-Q3).
#include "steplint/analyzer/hta_window.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_set>

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

// HTA's ProfilerStepGroupingPattern, `re.match(r"^ProfilerStep#(\d+)")`: a prefix match, so
// "ProfilerStep#5 (extra)" counts too.
bool isProfilerStepName(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  return name.size() > kPrefix.size() && name.substr(0, kPrefix.size()) == kPrefix &&
         std::isdigit(static_cast<unsigned char>(name[kPrefix.size()]));
}

// HTA's "GPU event": `stream >= 0 and correlation >= 0`, or a stream-less `Event Sync` /
// `Context Sync`. A gpu_user_annotation carries no `stream` arg, so for HTA it is a CPU event
// (its ProfilerStep copy on ROCm traces therefore counts as a step name and start).
bool isHtaGpuEvent(const TraceModel& model, const Event& e) {
  if (e.kind == EventKind::kGpuUserAnnotation) return false;
  const trace::GpuDetail* g = model.gpu(e);
  if (g == nullptr) return false;
  if (g->stream >= 0 && e.correlation >= 0) return true;
  const std::string_view name = model.name(e);
  return e.kind == EventKind::kCudaSync && (name == "Event Sync" || name == "Context Sync");
}

}  // namespace

bool HtaWindow::keeps(const TraceModel& model, const Event& e) const {
  if (!filtered) return true;
  if (!isHtaGpuEvent(model, e)) return e.start_ns < cutoff_ns;
  // HTA joins on `correlation` with the kept CPU events; the importer made the same join to
  // the launch call (TraceBuilder::linkEvents), so the launch's start decides.
  return e.link != trace::kNoIndex && model.events[e.link].start_ns < cutoff_ns;
}

HtaWindow computeHtaWindow(const TraceModel& model) {
  HtaWindow w;
  std::unordered_set<trace::StringId> names;  // interned: one id per distinct name
  bool any = false;
  for (const Event& e : model.events) {
    // HTA drops the "Trace" span (cat Trace) before anything else.
    if (e.kind == EventKind::kSpan || !isProfilerStepName(model.name(e))) continue;
    names.insert(e.name);
    if (isHtaGpuEvent(model, e)) continue;
    if (!any || e.start_ns > w.cutoff_ns) {
      w.cutoff_ns = e.start_ns;
      w.last_step = std::string(model.name(e));
    }
    any = true;
  }
  w.distinct_steps = static_cast<int>(names.size());
  w.filtered = any && w.distinct_steps >= 2;
  if (!w.filtered) {
    w.cutoff_ns = 0;
    w.last_step.clear();
  }
  return w;
}

}  // namespace steplint::analyzer
