// Step detection from the training loop's period (docs/analyses.md §1, "Detected steps").
// Three stages: backward passes (bursts of backward ops on any thread), the main thread (the
// one that launches them), and one boundary per gap between passes on the main thread.
#include "steplint/analyzer/step_detect.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "step_detect_internal.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/medians.h"

namespace steplint::analyzer {
namespace {

using detect::Pass;
using trace::Event;
using trace::TraceModel;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

// Backward ops that are not inside another backward op: one entry per autograd node. A
// rounded child (detect::isRoundedChild) of the node before it on its thread is that node's
// (a zero-length AccumulateGrad at the end of its evaluate_function would count twice).
std::vector<std::pair<int64_t, int64_t>> outermostBackwardOps(const TraceModel& model) {
  std::vector<std::pair<int64_t, int64_t>> ops;
  uint32_t last_track = trace::kNoIndex;  // model.events holds each track's events together
  int64_t last_end = kNoTime;
  for (const Event& e : model.events) {
    if (e.kind != trace::EventKind::kCpuOp || !isBackwardOpName(model.name(e))) continue;
    bool nested = false;
    for (uint32_t p = e.parent; p != trace::kNoIndex && !nested; p = model.events[p].parent)
      nested = isBackwardOpName(model.name(model.events[p]));
    if (nested) continue;
    const bool part_of_last = e.track == last_track && detect::isRoundedChild(e, last_end);
    last_track = e.track;
    last_end = e.end_ns();
    if (!part_of_last) ops.emplace_back(e.start_ns, e.end_ns());
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}

// True when `ops` (a track's outer non-backward ops) start inside most backward passes: a
// thread that keeps working through the passes (a DataLoader worker decoding the next batches)
// is not the one that called backward(), which waits in it or runs the backward nodes itself.
bool busyThroughPasses(const TraceModel& model, const std::vector<Pass>& passes,
                       const std::vector<uint32_t>& ops) {
  size_t busy = 0;
  for (const Pass& pass : passes) {
    auto it = std::lower_bound(ops.begin(), ops.end(), pass.start_ns,
                               [&](uint32_t i, int64_t v) { return model.events[i].start_ns < v; });
    busy += it != ops.end() && model.events[*it].start_ns < pass.end_ns;
  }
  return 2 * busy > passes.size();
}

// For each pass, the thread whose last op before the pass ends closest to its start: the
// thread that called backward(). DataLoader worker threads win a pass now and then (on a
// loaded machine, most of them), so threads busy through the passes do not take part.
uint32_t voteMainTrack(const TraceModel& model, const std::vector<Pass>& passes,
                       const std::vector<std::vector<uint32_t>>& ops_by_track) {
  std::vector<int64_t> votes(model.tracks.size(), 0);
  std::vector<char> excluded(ops_by_track.size(), 0);
  for (uint32_t t = 0; t < ops_by_track.size(); ++t)
    excluded[t] = busyThroughPasses(model, passes, ops_by_track[t]);
  for (const Pass& pass : passes) {
    uint32_t best = trace::kNoIndex;
    int64_t best_end = kNoTime;
    for (uint32_t t = 0; t < ops_by_track.size(); ++t) {
      if (excluded[t]) continue;
      const auto& ops = ops_by_track[t];
      // Outermost ops do not overlap, so their ends are sorted like their starts.
      auto it = std::upper_bound(ops.begin(), ops.end(), pass.start_ns, [&](int64_t v, uint32_t i) {
        return v < model.events[i].end_ns();
      });
      if (it == ops.begin()) continue;
      const int64_t end = model.events[*(it - 1)].end_ns();
      if (end > best_end) best_end = end, best = t;
    }
    if (best != trace::kNoIndex) ++votes[best];
  }
  const auto top = std::max_element(votes.begin(), votes.end());
  return top == votes.end() || *top == 0 ? trace::kNoIndex
                                         : static_cast<uint32_t>(top - votes.begin());
}

// Main-thread ops in [lo, hi) by start.
std::vector<uint32_t> opsIn(const TraceModel& model, const std::vector<uint32_t>& ops, int64_t lo,
                            int64_t hi) {
  std::vector<uint32_t> out;
  for (uint32_t i : ops)
    if (model.events[i].start_ns >= lo && model.events[i].start_ns < hi) out.push_back(i);
  return out;
}

// Where the next iteration begins among the main-thread ops between two backward passes:
// the DataLoader's __next__ if there is one (what ProfilerStep does); else the idle gap of a
// DataLoader wait that precedes the forward; else the first op after the optimizer phase,
// taking zero_grad with it.
std::optional<int64_t> findBoundary(const TraceModel& model, const std::vector<uint32_t>& ops,
                                    int64_t period) {
  for (uint32_t i : ops)
    if (isDataLoaderName(model.name(model.events[i]))) return model.events[i].start_ns;
  size_t s = 0;
  while (s < ops.size() && detect::isOptimizerPhaseName(model.name(model.events[ops[s]]))) ++s;
  if (s == ops.size()) return std::nullopt;
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < ops.size(); ++i)
    gaps.push_back(
        std::max<int64_t>(0, model.events[ops[i]].start_ns - model.events[ops[i - 1]].end_ns()));
  const int64_t typical = upperMedian(gaps);
  size_t widest = 0;
  for (size_t i = 1; i <= s; ++i)
    if (widest == 0 || gaps[i - 1] > gaps[widest - 1]) widest = i;
  if (widest > 0) {
    const int64_t gap = gaps[widest - 1];
    if (gap * 50 >= period && gap >= 4 * typical && gap > 0)
      return model.events[ops[widest - 1]].end_ns();
  }
  while (s > 0 && detect::isZeroGradName(model.name(model.events[ops[s - 1]]))) --s;
  return model.events[ops[s]].start_ns;
}

// Where the window of iteration 0 starts: it has no pass before it, and one-time setup
// before the loop (building the dataset or the model) must not be its input phase. Its
// DataLoader call starts it when it has one, as for the others, so the window is the whole
// trace before the pass. Without, it reaches back no further than the longest interior
// iteration's pre-pass phase, in time or in main-thread ops, whichever reaches further (a first
// iteration slowed by lazy initialisation keeps its ops).
int64_t firstWindowStart(const TraceModel& model, const std::vector<uint32_t>& ops,
                         const std::vector<Pass>& passes,
                         const std::vector<std::optional<int64_t>>& bound) {
  const std::vector<uint32_t> before = opsIn(model, ops, kNoTime, passes[0].start_ns);
  for (uint32_t i : before)
    if (isDataLoaderName(model.name(model.events[i]))) return kNoTime;
  int64_t longest_ns = 0;
  size_t most_ops = 0;
  for (size_t p = 1; p < passes.size(); ++p) {
    longest_ns = std::max(longest_ns, passes[p].start_ns - *bound[p]);
    most_ops = std::max(most_ops, opsIn(model, ops, *bound[p], passes[p].start_ns).size());
  }
  if (before.size() <= most_ops) return kNoTime;
  return std::min(passes[0].start_ns - longest_ns,
                  model.events[before[before.size() - most_ops]].start_ns);
}

// Where iteration 0 begins: findBoundary in its window (firstWindowStart). When the window
// was bounded, an idle gap before its start as wide as findBoundary's wait gaps is a wait of
// the iteration, as between passes: loader workers starting up make the first batch wait
// longest, and the iteration starts when the wait starts.
std::optional<int64_t> firstBoundary(const TraceModel& model, const std::vector<uint32_t>& ops,
                                     const std::vector<Pass>& passes,
                                     const std::vector<std::optional<int64_t>>& bound,
                                     int64_t period) {
  const int64_t from = firstWindowStart(model, ops, passes, bound);
  const std::vector<uint32_t> window = opsIn(model, ops, from, passes[0].start_ns);
  const std::optional<int64_t> start = findBoundary(model, window, period);
  if (from == kNoTime || !start) return start;
  const auto first = std::lower_bound(ops.begin(), ops.end(), *start, [&](uint32_t i, int64_t t) {
    return model.events[i].start_ns < t;
  });
  if (first == ops.begin()) return start;
  const int64_t wait_start = model.events[*(first - 1)].end_ns(), gap = *start - wait_start;
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < window.size(); ++i)
    gaps.push_back(std::max<int64_t>(
        0, model.events[window[i]].start_ns - model.events[window[i - 1]].end_ns()));
  if (gap > 0 && gap * 50 >= period && gap >= 4 * upperMedian(gaps)) return wait_start;
  return start;
}

DetectedSteps notDetected(std::string why) {
  DetectedSteps d;
  d.note = std::move(why);
  return d;
}

}  // namespace

bool isBackwardOpName(std::string_view name) {
  constexpr std::string_view kEngine = "autograd::engine::evaluate_function: ";
  if (name.substr(0, kEngine.size()) == kEngine || name == "torch::autograd::AccumulateGrad")
    return true;
  if (name.find("::") != std::string_view::npos)
    return false;  // aten::*_backward is an op, not a node
  while (!name.empty() && name.back() >= '0' && name.back() <= '9') name.remove_suffix(1);
  if (!name.empty() && name.back() == 's') name.remove_suffix(1);  // CopyBackwards
  constexpr std::string_view kSuffix = "Backward";
  return name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
}

namespace {

DetectedSteps detectWith(const TraceModel& model, const std::vector<Pass>& passes) {
  if (passes.size() < 3)
    return notDetected("could not detect steps: " + std::to_string(passes.size()) +
                       " backward pass(es) found, at least 3 are needed");
  if (!detect::passesRegular(passes))
    return notDetected("could not detect steps: backward passes differ too much in size");
  std::vector<std::vector<uint32_t>> ops_by_track(model.tracks.size());
  for (uint32_t t = 0; t < model.tracks.size(); ++t)
    if (model.tracks[t].kind == trace::TrackKind::kCpuThread)
      ops_by_track[t] = detect::outerOps(model, t, passes);
  const uint32_t main = voteMainTrack(model, passes, ops_by_track);
  if (main == trace::kNoIndex)
    return notDetected("could not detect steps: no thread launches the backward passes");
  const auto& ops = ops_by_track[main];
  std::vector<int64_t> periods;
  for (size_t p = 1; p < passes.size(); ++p)
    periods.push_back(passes[p].start_ns - passes[p - 1].start_ns);
  const int64_t period = upperMedian(periods);
  const size_t k = passes.size();
  // bound[p]: where the iteration of pass p begins (p = k: the one after the last pass).
  std::vector<std::optional<int64_t>> bound(k + 1);
  for (size_t p = 1; p <= k; ++p) {
    const int64_t hi = p == k ? std::numeric_limits<int64_t>::max() : passes[p].start_ns;
    bound[p] = findBoundary(model, opsIn(model, ops, passes[p - 1].end_ns, hi), period);
    if (p < k && (!bound[p] || (p > 1 && *bound[p] <= *bound[p - 1])))
      return notDetected(
          "could not detect steps: no iteration start found between backward passes " +
          std::to_string(p - 1) + " and " + std::to_string(p));
  }
  bound[0] = firstBoundary(model, ops, passes, bound, period);
  DetectedSteps d = detect::assembleSteps(model, main, passes, ops, bound);
  d.main_track = main;
  d.backward_passes = static_cast<int64_t>(k);
  if (d.steps.size() < 2)
    return notDetected("could not detect steps: fewer than 2 complete iterations");
  const char* cut = d.first_cut && d.last_cut
                        ? " (the first and last iterations, cut by the trace's "
                          "start and end, left out)"
                    : d.first_cut ? " (the first iteration, cut by the trace's start, left out)"
                    : d.last_cut  ? " (the last iteration, cut by the trace's end, left out)"
                                  : "";
  d.note = std::to_string(d.steps.size()) + " steps detected from " + std::to_string(k) +
           " backward passes" + cut + "; iterations of thread " +
           std::to_string(model.tracks[main].tid) + " (no ProfilerStep#N ranges)";
  return d;
}

}  // namespace

DetectedSteps detectSteps(const TraceModel& model) {
  const auto candidates = detect::backwardPassCandidates(outermostBackwardOps(model));
  if (candidates.empty())
    return notDetected("could not detect steps: no repeated backward passes found");
  DetectedSteps first_failure;
  for (const std::vector<Pass>& passes : candidates) {
    DetectedSteps d = detectWith(model, passes);
    if (!d.steps.empty()) return d;
    if (first_failure.note.empty()) first_failure = std::move(d);
  }
  return first_failure;
}

}  // namespace steplint::analyzer
