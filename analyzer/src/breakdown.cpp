// Step-time breakdown (docs/reference/peer-tools.md §1.2 roles, §1.4 priority subtraction).
#include "steplint/analyzer/breakdown.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "step_windows.h"
#include "steplint/analyzer/intervals.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

constexpr int kRoleCount = kStepCategoryCount - 1;  // every category but Other has a role

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool isOpOrAnnotation(EventKind k) {
  return k == EventKind::kCpuOp || k == EventKind::kUserAnnotation;
}

// What a CPU range's name says about its role, computed once per distinct name: traces repeat
// a few thousand names across millions of events.
enum class NameRole : int8_t { kUnknown = -1, kPlain, kDataLoader, kProfilerStep, kCommunication };

class NameRoles {
 public:
  explicit NameRoles(const TraceModel& model)
      : model_(model), cache_(model.strings.size(), NameRole::kUnknown) {}
  NameRole of(trace::StringId name) {
    NameRole& r = cache_[name];
    if (r == NameRole::kUnknown) r = classify(model_.str(name));
    return r;
  }

 private:
  static NameRole classify(std::string_view name) {
    if (isDataLoaderName(name)) return NameRole::kDataLoader;
    if (startsWith(name, "ProfilerStep#")) return NameRole::kProfilerStep;
    if (isCommunicationOpName(name)) return NameRole::kCommunication;
    return NameRole::kPlain;
  }
  const TraceModel& model_;
  std::vector<NameRole> cache_;
};

// Decides, once per CPU event, whether it or an enclosing range is a communication op, so a
// kernel launched anywhere under `nccl:all_reduce` counts as communication.
class CommAncestry {
 public:
  CommAncestry(const TraceModel& model, NameRoles& names)
      : model_(model), names_(names), state_(model.events.size(), kUnknown) {}

  bool underCommOp(uint32_t index) {
    std::vector<uint32_t>& path = path_;
    path.clear();
    int8_t answer = kNo;
    for (uint32_t i = index; i != trace::kNoIndex; i = model_.events[i].parent) {
      if (state_[i] != kUnknown) {
        answer = state_[i];
        break;
      }
      path.push_back(i);
      if (trace::isCpuRange(model_.events[i].kind) &&
          names_.of(model_.events[i].name) == NameRole::kCommunication) {
        answer = kYes;
        break;
      }
    }
    for (uint32_t i : path) state_[i] = answer;
    return answer == kYes;
  }

 private:
  static constexpr int8_t kUnknown = -1, kNo = 0, kYes = 1;
  const TraceModel& model_;
  NameRoles& names_;
  std::vector<int8_t> state_;
  std::vector<uint32_t> path_;  // reused: this runs once per kernel
};

// tb_plugin row 1: communication kernels are those of comm ops. tb requires the kernel's own
// External id to be the comm op's; we follow kernel -> launch call -> CPU op -> enclosing ops,
// and also take NCCL's own kernels by name (they are communication whoever launched them).
bool isCommKernel(const TraceModel& model, const Event& kernel, CommAncestry& comm) {
  if (startsWith(model.name(kernel), "nccl")) return true;
  if (kernel.link == trace::kNoIndex) return false;
  const uint32_t op = model.events[kernel.link].link;
  return op != trace::kNoIndex && comm.underCommOp(op);
}

std::optional<StepCategory> roleOf(const TraceModel& model, const Event& e, CommAncestry& comm,
                                   NameRoles& names) {
  switch (e.kind) {
    case EventKind::kKernel:
      return isCommKernel(model, e, comm) ? StepCategory::kCommunication : StepCategory::kKernel;
    case EventKind::kMemcpy:
      return StepCategory::kMemcpy;
    case EventKind::kMemset:
      return StepCategory::kMemset;
    case EventKind::kRuntime:
    case EventKind::kDriver:
      return StepCategory::kRuntime;  // tb ignores cuda_driver (TB-Q10)
    case EventKind::kCpuOp:
    case EventKind::kUserAnnotation:
    case EventKind::kPythonFunction:
      break;
    default:
      return std::nullopt;  // gpu_user_annotation, syncs, overhead ...: no role (TB-Q9)
  }
  const NameRole role = names.of(e.name);
  if (isOpOrAnnotation(e.kind) && role == NameRole::kDataLoader) return StepCategory::kDataLoader;
  if (isOpOrAnnotation(e.kind) && role == NameRole::kProfilerStep) return std::nullopt;
  if (role == NameRole::kCommunication) return StepCategory::kCommunication;
  return StepCategory::kCpuExec;
}

// Each role's time inside one step window (step_windows.h), from the events overlapping it.
std::array<IntervalSet, kRoleCount> roleSets(const TraceModel& model, WindowEvents& events,
                                             const StepWindow& w, CommAncestry& comm,
                                             NameRoles& names) {
  std::array<IntervalSetBuilder, kRoleCount> raw;
  events.forEach(w.start, w.end, [&](const Event& e) {
    if (auto role = roleOf(model, e, comm, names)) {
      const Interval iv = clipTo(e.start_ns, e.end_ns(), w.start, w.end);
      raw[static_cast<size_t>(*role)].add(iv.start, iv.end);
    }
  });
  std::array<IntervalSet, kRoleCount> sets;
  for (int r = 0; r < kRoleCount; ++r) sets[r] = raw[r].build();
  return sets;
}

// Each role keeps only what no higher-priority role covers. tb_plugin restarts from the full
// step set once nothing is left (TB-Q8), which can make categories exceed the step; we keep
// clipping, so the categories always sum to the step time.
//
// One sweep over the steps: each piece of step time goes to the highest-priority role that
// covers it, else to Other. That is the same as intersecting with each role in turn and
// subtracting the result from what is left, without building that shrinking set once per
// role (on a multi-million-event trace each copy costs tens of megabytes of fresh pages).
std::array<IntervalSet, kStepCategoryCount> prioritize(
    const std::array<IntervalSet, kRoleCount>& roles, const std::vector<Step>& steps,
    const std::vector<size_t>& which) {
  std::vector<Interval> step_ranges;
  for (size_t i : which) step_ranges.push_back({steps[i].start_ns, steps[i].end_ns});
  const IntervalSet step_set = IntervalSet::fromUnsorted(std::move(step_ranges));
  std::array<std::vector<Interval>, kStepCategoryCount> pieces;
  std::array<size_t, kRoleCount> cursor{};  // per role: first interval not ending before t
  for (const Interval& span : step_set.intervals()) {
    for (int64_t t = span.start; t < span.end;) {
      int owner = kRoleCount;  // the index of Other
      int64_t next = span.end;
      // Roles after the owner cannot change who owns [t, next): they are not looked at.
      for (int r = 0; r < kRoleCount && owner == kRoleCount; ++r) {
        const std::vector<Interval>& items = roles[r].intervals();
        size_t& c = cursor[r];
        while (c < items.size() && items[c].end <= t) ++c;
        if (c == items.size()) continue;
        if (items[c].start <= t) owner = r;
        next = std::min(next, items[c].start <= t ? items[c].end : items[c].start);
      }
      std::vector<Interval>& out = pieces[owner];
      if (!out.empty() && out.back().end == t)
        out.back().end = next;
      else
        out.push_back({t, next});
      t = next;
    }
  }
  std::array<IntervalSet, kStepCategoryCount> parts;
  for (int c = 0; c < kStepCategoryCount; ++c)
    parts[c] = IntervalSet::fromUnsorted(std::move(pieces[c]));
  return parts;
}

}  // namespace

std::string_view stepCategoryName(StepCategory c) {
  static constexpr std::string_view kNames[kStepCategoryCount] = {
      "Kernel", "Memcpy", "Memset", "Communication", "Runtime", "DataLoader", "CPU Exec", "Other"};
  return kNames[static_cast<size_t>(c)];
}

double BreakdownResult::averageFraction(StepCategory c) const {
  return average_total_ns > 0 ? average_ns[static_cast<size_t>(c)] / average_total_ns : 0.0;
}

bool isDataLoaderName(std::string_view name) {
  constexpr std::string_view kNext = ".__next__";
  return (startsWith(name, "enumerate(DataLoader)#") && name.size() >= kNext.size() &&
          name.substr(name.size() - kNext.size()) == kNext) ||
         startsWith(name, "enumerate(DataPipe)#");
}

bool isCommunicationOpName(std::string_view name) {
  // tb_plugin knows exactly nccl:/gloo: {broadcast, reduce, all_reduce, all_gather,
  // reduce_scatter} (TB-Q13); any c10d range of those backends is communication, and
  // record_param_comms wraps every c10d collective and point-to-point call.
  return startsWith(name, "nccl:") || startsWith(name, "gloo:") || name == "record_param_comms";
}

bool isCommunicationKernelName(std::string_view name) {
  return startsWith(name, "nccl") || startsWith(name, "rccl") ||
         name.find("ncclKernel") != std::string_view::npos ||
         name.find("ncclDevKernel") != std::string_view::npos;
}

bool isPeerLibraryKernelName(std::string_view name) {
  return name.find("deep_ep::") != std::string_view::npos ||
         name.find("dpsk::ep::") != std::string_view::npos ||
         name.find("nvshmem") != std::string_view::npos;
}

BreakdownResult computeBreakdown(const TraceModel& model, const StepResult& steps,
                                 const IntervalSet& extra_dataloader) {
  BreakdownResult result;
  if (steps.steps.empty()) return result;
  result.per_step.resize(steps.steps.size());
  NameRoles names(model);
  CommAncestry comm(model, names);
  WindowEvents events(model);
  for (const StepWindow& w : stepWindows(steps.steps, kStepWindowCount)) {
    auto roles = roleSets(model, events, w, comm, names);
    IntervalSet& loader = roles[static_cast<size_t>(StepCategory::kDataLoader)];
    if (!extra_dataloader.empty()) loader = loader.unite(extra_dataloader.clip(w.start, w.end));
    const auto parts = prioritize(roles, steps.steps, w.steps);
    for (size_t i : w.steps) {
      const Step& s = steps.steps[i];
      StepBreakdown& row = result.per_step[i];
      row.step_number = s.number;
      row.total_ns = s.duration_ns();
      for (int c = 0; c < kStepCategoryCount; ++c)
        row.ns[c] = parts[c].overlapLength(s.start_ns, s.end_ns);
    }
  }
  const double n = static_cast<double>(result.per_step.size());
  for (const StepBreakdown& row : result.per_step) {
    result.average_total_ns += static_cast<double>(row.total_ns) / n;
    for (int c = 0; c < kStepCategoryCount; ++c)
      result.average_ns[c] += static_cast<double>(row.ns[c]) / n;
  }
  return result;
}

}  // namespace steplint::analyzer
