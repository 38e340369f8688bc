// profilerStepRanges (step_ranges.h).
#include "step_ranges.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <unordered_map>

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

constexpr std::string_view kStepPrefix = "ProfilerStep#";

int64_t stepNumber(std::string_view name, int64_t fallback) {
  std::string_view digits = name.substr(kStepPrefix.size());
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() && ptr != digits.data() ? n : fallback;
}

std::vector<Step> hostSteps(const TraceModel& model) {
  std::vector<Step> steps;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const Event& e = model.events[i];
    if (!isHostStepEvent(model, e)) continue;
    Step s;
    s.number = stepNumber(model.name(e), static_cast<int64_t>(steps.size()));
    s.host_start_ns = s.start_ns = e.start_ns;
    s.host_end_ns = s.end_ns = e.end_ns();
    s.event = i;
    steps.push_back(s);
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    return a.host_start_ns != b.host_start_ns ? a.host_start_ns < b.host_start_ns
                                              : a.host_end_ns < b.host_end_ns;
  });
  return steps;
}

// A step number appears once per recording. Repeats mean a malformed trace: the same events
// written twice, or two recordings merged into one file. Analysing each copy would count the
// same time again and again, and a million copies of ProfilerStep#1 (a hostile or broken
// writer) would cost a million-row breakdown; so the earliest range of each number is kept
// (steps are sorted by start) and the rest are named in one note.
void dropRepeatedNumbers(std::vector<Step>& steps, std::vector<std::string>& notes) {
  std::unordered_map<int64_t, size_t> kept_index;  // number -> index in `kept`
  std::map<int64_t, int64_t> repeats;  // number -> ranges dropped (ordered for the note)
  int64_t dropped = 0, exact_copies = 0;
  std::vector<Step> kept;
  kept.reserve(steps.size());
  for (const Step& s : steps) {
    const auto [it, first] = kept_index.emplace(s.number, kept.size());
    if (first) {
      kept.push_back(s);
      continue;
    }
    const Step& original = kept[it->second];
    if (original.host_start_ns == s.host_start_ns && original.host_end_ns == s.host_end_ns)
      ++exact_copies;
    ++repeats[s.number];
    ++dropped;
  }
  if (dropped == 0) return;
  steps = std::move(kept);
  std::string which;
  size_t listed = 0;
  for (const auto& [number, count] : repeats) {
    if (listed++ == 3) {
      which += ", ...";
      break;
    }
    which += (which.empty() ? "" : ", ") + std::string(kStepPrefix) + std::to_string(number) +
             " x" + std::to_string(count + 1);
  }
  notes.push_back(
      "malformed trace: " + std::to_string(dropped) +
      " ProfilerStep range(s) repeat a step number (" + which + "; " +
      std::to_string(exact_copies) +
      " exact copies); events written twice or recordings merged? Only the earliest range of each "
      "number is used");
}

// A torch.profiler.profile entered inside another's loop (an evaluation wrapped in its own
// profiler that never records: without Kineto torch 1.13 allows one recording profiler per
// thread) still opens its ProfilerStep#0, #0, #1 ranges, and the recording profiler writes them
// inside its own steps. A range lying inside another on its thread is such an inner step, not
// an iteration; read as steps they repeated numbers, and the trace was called malformed.
void dropNestedSteps(const TraceModel& model, std::vector<Step>& steps,
                     std::vector<std::string>& notes) {
  std::vector<size_t> order(steps.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto track = [&](size_t i) { return model.events[steps[i].event].track; };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {  // enclosing ranges first
    const Step &x = steps[a], &y = steps[b];
    if (track(a) != track(b)) return track(a) < track(b);
    return x.host_start_ns != y.host_start_ns ? x.host_start_ns < y.host_start_ns
                                              : x.host_end_ns > y.host_end_ns;
  });
  std::vector<bool> nested(steps.size(), false);
  size_t outer = 0;  // the range reaching furthest so far on the current track
  for (size_t k = 0; k < order.size(); ++k) {
    const Step &s = steps[order[k]], &o = steps[order[outer]];
    const bool same_track = k > 0 && track(order[k]) == track(order[outer]);
    const bool copy = s.host_start_ns == o.host_start_ns && s.host_end_ns == o.host_end_ns;
    if (same_track && !copy && s.host_start_ns < o.host_end_ns && s.host_end_ns <= o.host_end_ns)
      nested[order[k]] = true;
    else if (!same_track || s.host_end_ns > o.host_end_ns)
      outer = k;
  }
  const auto count = std::count(nested.begin(), nested.end(), true);
  if (count == 0) return;
  std::vector<Step> kept;
  for (size_t i = 0; i < steps.size(); ++i)
    if (!nested[i]) kept.push_back(steps[i]);
  steps = std::move(kept);
  notes.push_back(std::to_string(count) +
                  " ProfilerStep range(s) inside another ProfilerStep range of the same thread "
                  "are not steps: a profiler entered inside another's loop (e.g. around an "
                  "evaluation) names its own iterations ProfilerStep#N too");
}

// torch 1.13 and older name the range that profile.step() opens after the step it closes
// (record_function("ProfilerStep#" + str(cur_step)), fixed in torch 2.0), so a recording that
// includes profile.start() reads ProfilerStep#0, #0, #1, #2, ...: one range per iteration,
// named one behind from the second on. Exactly that pattern (one thread, one range after the
// other, the numbers running on) is numbered again in order; read as a repeat, it lost an
// iteration and was called malformed.
void renumberTorch113Steps(const TraceModel& model, std::vector<Step>& steps,
                           std::vector<std::string>& notes) {
  if (steps.size() < 2 || steps[0].number != 0 || steps[1].number != 0) return;
  const uint32_t track = model.events[steps[0].event].track;
  for (size_t i = 1; i < steps.size(); ++i) {
    if (model.events[steps[i].event].track != track ||
        steps[i].host_start_ns < steps[i - 1].host_end_ns ||
        (i > 1 && steps[i].number != static_cast<int64_t>(i) - 1))
      return;
  }
  for (size_t i = 1; i < steps.size(); ++i) steps[i].number = static_cast<int64_t>(i);
  notes.push_back(
      "ProfilerStep#0 appears twice, then the numbers run on: torch 1.13 and older name each "
      "step's range after the step before it. All " +
      std::to_string(steps.size()) + " ranges are kept, as steps 0.." +
      std::to_string(steps.size() - 1) + " (the trace's ProfilerStep#k is step k+1)");
}

}  // namespace

// Only CPU-side ProfilerStep ranges are steps; a gpu_user_annotation copy (ROCm 2024 traces)
// would otherwise become an extra, overlapping step (TB-Q9).
bool isHostStepEvent(const TraceModel& model, const Event& e) {
  return (e.kind == EventKind::kCpuOp || e.kind == EventKind::kUserAnnotation) &&
         model.name(e).substr(0, kStepPrefix.size()) == kStepPrefix;
}

std::vector<Step> profilerStepRanges(const TraceModel& model, std::vector<std::string>& notes) {
  std::vector<Step> steps = hostSteps(model);
  dropNestedSteps(model, steps, notes);
  renumberTorch113Steps(model, steps, notes);
  dropRepeatedNumbers(steps, notes);
  return steps;
}

}  // namespace steplint::analyzer
