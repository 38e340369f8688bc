// Building blocks of step detection; see step_detect_internal.h.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "step_detect_internal.h"
#include "steplint/analyzer/medians.h"

namespace steplint::analyzer::detect {
namespace {

using trace::Event;
using trace::TraceModel;

// 1 µs floor so that touching ops (gap 0) and 1-ns gaps do not look infinitely far apart.
constexpr double kGapFloorNs = 1000.0;
// A split is only accepted when the shortest gap between passes is this many times the
// longest gap inside one.
constexpr double kMinSeparation = 3.0;
constexpr size_t kMaxCandidates = 4;

// Candidate thresholds: every place where the sorted gaps jump by kMinSeparation or more,
// most pronounced jump first. The jump between the gaps inside a pass and those between passes
// is usually the largest; a single data-loading stall can make a larger one (and then yields
// too few passes), and a stall inside every backward a smaller one.
std::vector<int64_t> splitThresholds(const std::vector<int64_t>& sorted_gaps) {
  std::vector<std::pair<double, int64_t>> jumps;  // (ratio, threshold)
  for (size_t j = 1; j < sorted_gaps.size(); ++j) {
    const double inside = static_cast<double>(sorted_gaps[j - 1]) + kGapFloorNs;
    const double ratio = (static_cast<double>(sorted_gaps[j]) + kGapFloorNs) / inside;
    if (ratio >= kMinSeparation) jumps.emplace_back(ratio, sorted_gaps[j - 1]);
  }
  std::sort(jumps.begin(), jumps.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int64_t> out;
  for (size_t i = 0; i < jumps.size() && i < kMaxCandidates; ++i) out.push_back(jumps[i].second);
  return out;
}

// Over thousands of passes a few disturbed gaps (preemption, the writer thread, a page fault)
// fall between the short gaps inside a pass and the long ones between passes, so no two
// neighbours in the sorted list are 3x apart although the two groups are. The gaps' histogram
// (quarter-octave bins) still has a sparse valley between them: the threshold is the middle of
// the emptiest window of kValleyBins bins (about the 3x of kMinSeparation) with gaps on both
// sides, when at most 1 % of the gaps lie in it. Only for many gaps, where one stray gap
// cannot make a valley.
constexpr size_t kValleyMinGaps = 50;
constexpr int kValleyBins = 6;

std::optional<int64_t> valleyThreshold(const std::vector<int64_t>& sorted_gaps) {
  if (sorted_gaps.size() < kValleyMinGaps) return std::nullopt;
  const auto bin = [](int64_t gap) {
    return static_cast<int>(std::floor(4 * std::log2(static_cast<double>(gap) + kGapFloorNs)));
  };
  const int lo = bin(sorted_gaps.front()), hi = bin(sorted_gaps.back());
  std::vector<size_t> counts(static_cast<size_t>(hi - lo + 1), 0);
  for (int64_t g : sorted_gaps) ++counts[static_cast<size_t>(bin(g) - lo)];
  const auto in = [&](int a, int b) {  // gaps in bins [a, b) (relative to lo), clamped
    size_t n = 0;
    for (int k = std::max(a, 0); k < std::min(b, static_cast<int>(counts.size())); ++k)
      n += counts[static_cast<size_t>(k)];
    return n;
  };
  std::optional<int> best;
  size_t best_count = 0;
  for (int split = 1; split < static_cast<int>(counts.size()); ++split) {  // above: bins >= split
    if (in(0, split) == 0 || in(split, static_cast<int>(counts.size())) < 2) continue;
    const size_t window = in(split - kValleyBins / 2, split + kValleyBins / 2);
    if (!best || window < best_count) best = split, best_count = window;
  }
  if (!best || best_count * 100 > sorted_gaps.size()) return std::nullopt;
  // The longest gap below the split: gaps up to it stay inside a pass.
  const auto first_above = std::find_if(sorted_gaps.begin(), sorted_gaps.end(),
                                        [&](int64_t g) { return bin(g) - lo >= *best; });
  return *(first_above - 1);
}

std::string_view withoutAten(std::string_view name) {
  constexpr std::string_view kAten = "aten::";
  return name.substr(0, kAten.size()) == kAten ? name.substr(kAten.size()) : name;
}

int64_t countStarts(const TraceModel& model, const std::vector<uint32_t>& ops, int64_t lo,
                    int64_t hi) {
  return std::count_if(ops.begin(), ops.end(), [&](uint32_t i) {
    return model.events[i].start_ns >= lo && model.events[i].start_ns < hi;
  });
}

int64_t medianOps(const std::vector<Pass>& passes) {
  std::vector<int64_t> n;
  for (const Pass& p : passes) n.push_back(p.ops);
  return upperMedian(std::move(n));
}

// A backward pass preempted on a busy machine (milliseconds without ops in its middle, while
// the passes' own gaps are microseconds) reads as two short passes whose ops add up to one
// pass: they are merged.
std::vector<Pass> mergeSplitPasses(const std::vector<Pass>& passes) {
  const int64_t med = medianOps(passes);
  std::vector<Pass> out;
  for (const Pass& p : passes) {
    Pass* last = out.empty() ? nullptr : &out.back();
    if (last && last->ops < med && p.ops < med && last->ops + p.ops <= med) {
      last->end_ns = std::max(last->end_ns, p.end_ns);
      last->ops += p.ops;
    } else {
      out.push_back(p);
    }
  }
  return out;
}

// Time on `track` covered by the ops and annotations that start in [from, to), clipped to
// `to`: the recorded work of a phase, without the unrecorded Python (logging, the loop's own
// code) and idle time between its ops.
int64_t recordedNs(const TraceModel& model, uint32_t track, int64_t from, int64_t to) {
  const auto [begin, end] = model.trackEvents(track);
  const Event* e =
      std::lower_bound(begin, end, from, [](const Event& x, int64_t t) { return x.start_ns < t; });
  int64_t total = 0, covered_to = from;
  for (; e != end && e->start_ns < to; ++e) {
    if (e->kind != trace::EventKind::kCpuOp && e->kind != trace::EventKind::kUserAnnotation)
      continue;
    covered_to = std::max(covered_to, e->start_ns);
    const int64_t stop = std::min(e->end_ns(), to);
    if (stop > covered_to) total += stop - covered_to, covered_to = stop;
  }
  return total;
}

// A pass at the edge of the trace may have been cut by the start or end of profiling.
bool passComplete(const Pass& pass, int64_t median_ops) { return pass.ops * 5 >= median_ops * 4; }

}  // namespace

std::vector<std::vector<Pass>> backwardPassCandidates(
    const std::vector<std::pair<int64_t, int64_t>>& ops) {
  std::vector<std::vector<Pass>> candidates;
  if (ops.empty()) return candidates;
  std::vector<int64_t> gaps;
  int64_t run_end = ops.front().second;
  for (size_t i = 1; i < ops.size(); ++i) {
    gaps.push_back(std::max<int64_t>(0, ops[i].first - run_end));
    run_end = std::max(run_end, ops[i].second);
  }
  std::vector<int64_t> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> thresholds = splitThresholds(sorted);
  // After the sharp jumps, so that a loop they find is found as before.
  if (const auto valley = valleyThreshold(sorted);
      valley && std::find(thresholds.begin(), thresholds.end(), *valley) == thresholds.end())
    thresholds.push_back(*valley);
  for (const int64_t threshold : thresholds) {
    std::vector<Pass> passes{{ops.front().first, ops.front().second, 1}};
    for (size_t i = 1; i < ops.size(); ++i) {
      if (gaps[i - 1] > threshold) passes.push_back({ops[i].first, ops[i].second, 0});
      Pass& p = passes.back();
      p.end_ns = std::max(p.end_ns, ops[i].second);
      ++p.ops;
    }
    candidates.push_back(std::move(passes));
  }
  // Tried after every plain split, so a loop found without merging is found as before.
  const size_t plain = candidates.size();
  for (size_t c = 0; c < plain; ++c) {
    std::vector<Pass> merged = mergeSplitPasses(candidates[c]);
    if (merged.size() != candidates[c].size()) candidates.push_back(std::move(merged));
  }
  return candidates;
}

bool passesRegular(const std::vector<Pass>& passes) {
  const int64_t med = medianOps(passes);
  for (size_t p = 0; p < passes.size(); ++p) {
    const bool edge = p == 0 || p + 1 == passes.size();
    if (passes[p].ops > 2 * med || (!edge && 2 * passes[p].ops < med)) return false;
  }
  return true;
}

bool isRoundedChild(const Event& e, int64_t prev_end) {
  constexpr int64_t kMicrosecondNs = 1000;
  return e.start_ns == prev_end && e.dur_ns <= kMicrosecondNs;
}

std::vector<uint32_t> outerOps(const TraceModel& model, uint32_t track,
                               const std::vector<Pass>& passes) {
  std::vector<uint32_t> out;
  int64_t cur_end = std::numeric_limits<int64_t>::min();
  const auto [begin, end] = model.trackEvents(track);
  for (const Event* e = begin; e != end; ++e) {
    if (e->kind != trace::EventKind::kCpuOp && e->kind != trace::EventKind::kUserAnnotation)
      continue;
    if (e->start_ns < cur_end) continue;
    // Left as outer ops, the zero-length children at the end of backward nodes start inside
    // most passes, and the training thread looks like a busy loader worker (busyThroughPasses).
    if (isRoundedChild(*e, cur_end)) {
      cur_end = e->end_ns();
      continue;
    }
    const auto first = std::lower_bound(passes.begin(), passes.end(), e->start_ns,
                                        [](const Pass& p, int64_t t) { return p.start_ns < t; });
    if (first != passes.end() && first + 1 != passes.end() && (first + 1)->start_ns < e->end_ns())
      continue;
    cur_end = e->end_ns();
    if (!isBackwardOpName(model.name(*e))) out.push_back(model.indexOf(*e));
  }
  return out;
}

bool isOptimizerPhaseName(std::string_view name) {
  if (name.find("Optimizer.") != std::string_view::npos) return true;  // Optimizer.step#SGD.step
  const std::string_view op = withoutAten(name);
  if (op.substr(0, 9) == "_foreach_" || op.substr(0, 7) == "_fused_") return true;
  if (!op.empty() && op.back() == '_')
    return true;  // in-place updates: add_, mul_, addcdiv_, zero_
  // Out-of-place helpers of SGD/Adam/AdamW, loss.item() and allocation; the forward of the
  // next iteration starts with something else (to, conv2d, addmm, embedding, linear …).
  for (std::string_view helper : {"item",       "_local_scalar_dense",
                                  "sqrt",       "div",
                                  "mul",        "add",
                                  "sub",        "clone",
                                  "detach",     "empty",
                                  "empty_like", "zeros",
                                  "zeros_like", "ones_like",
                                  "lerp",       "maximum",
                                  "neg",        "pow",
                                  "addcmul",    "addcdiv",
                                  "is_nonzero"})
    if (op == helper) return true;
  return false;
}

bool isZeroGradName(std::string_view name) {
  if (name.find("zero_grad") != std::string_view::npos) return true;
  const std::string_view op = withoutAten(name);
  return op == "zero_" || op == "detach_" || op == "fill_";
}

DetectedSteps assembleSteps(const TraceModel& model, uint32_t track,
                            const std::vector<Pass>& passes, const std::vector<uint32_t>& ops,
                            const std::vector<std::optional<int64_t>>& bound) {
  const size_t k = passes.size();
  const int64_t med = medianOps(passes);
  // An edge iteration cut by the profiling window has fewer ops before its pass (first) or
  // less recorded work after it (last) than every interior iteration. Time, not ops, for the
  // last one: the ops between the optimizer and the next DataLoader call (the profiler's own,
  // in torch.profiler traces) are missing at the end of the trace. Recorded time, not the
  // span to the next boundary: an interior span also holds the unrecorded Python up to the
  // next iteration (logging, a sleep), which the last iteration has no boundary to hold.
  int64_t min_pre = std::numeric_limits<int64_t>::max(),
          min_post_ns = std::numeric_limits<int64_t>::max();
  for (size_t p = 1; p < k; ++p) {
    min_pre = std::min(min_pre, countStarts(model, ops, *bound[p], passes[p].start_ns));
    min_post_ns = std::min(min_post_ns, recordedNs(model, track, passes[p - 1].end_ns, *bound[p]));
  }
  std::vector<std::pair<int64_t, int64_t>> ranges;
  DetectedSteps d;
  d.first_cut = !(bound[0] && passComplete(passes[0], med) &&
                  countStarts(model, ops, *bound[0], passes[0].start_ns) >= min_pre);
  if (!d.first_cut) ranges.emplace_back(*bound[0], *bound[1]);
  for (size_t p = 1; p + 1 < k; ++p) ranges.emplace_back(*bound[p], *bound[p + 1]);
  // The last iteration ends at the next one's boundary, or else with its last outer op: one
  // after the pass, or one around it (a record_function wrapping each iteration).
  int64_t last_end = passes[k - 1].end_ns;
  if (bound[k]) {
    last_end = *bound[k];
  } else {
    for (uint32_t i : ops) last_end = std::max(last_end, model.events[i].end_ns());
  }
  const int64_t last_post_ns = recordedNs(model, track, passes[k - 1].end_ns, last_end);
  d.last_cut = !(passComplete(passes[k - 1], med) && last_post_ns * 10 >= min_post_ns * 7);
  if (!d.last_cut) ranges.emplace_back(*bound[k - 1], last_end);
  for (const auto& [start, end] : ranges) {
    Step s;
    s.number = static_cast<int64_t>(d.steps.size());
    s.host_start_ns = s.start_ns = start;
    s.host_end_ns = s.end_ns = end;
    d.steps.push_back(s);
  }
  return d;
}

}  // namespace steplint::analyzer::detect
