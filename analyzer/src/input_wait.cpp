// The inferred input-pipeline wait (input_wait.h, docs/analyses.md §2b): per kept step, the
// prefix of the iteration on the training thread before its first host-to-device copy,
// Optimizer.zero_grad range or autograd node, measured like a DataLoader range.
#include "steplint/analyzer/input_wait.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <vector>

#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/medians.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::kNoIndex;
using trace::TraceModel;

bool isZeroGradRange(std::string_view name) { return name.substr(0, 20) == "Optimizer.zero_grad#"; }
bool isStepRange(std::string_view name) { return name.substr(0, 13) == "ProfilerStep#"; }

bool hasDataLoaderRange(const TraceModel& model) {
  NameMemo loader(model, isDataLoaderName);
  return std::any_of(model.events.begin(), model.events.end(),
                     [&](const Event& e) { return trace::isCpuRange(e.kind) && loader(e.name); });
}

/// The outermost range around `e` that starts at or after `lo`, the step's own range excepted:
/// `aten::to` around the `aten::copy_` that issued a copy, `aten::linear` around the `aten::t`
/// that made a node, and an annotation around the forward (`DistributedDataParallel.forward`,
/// whose buffer broadcast runs before the model's first op, or `nn.Module: …`).
const Event& outermostRange(const TraceModel& model, const Event& e, int64_t lo) {
  const Event* range = &e;
  while (range->parent != kNoIndex) {
    const Event& up = model.events[range->parent];
    if (!trace::isCpuRange(up.kind) || up.start_ns < lo || isStepRange(model.name(up))) break;
    range = &up;
  }
  return *range;
}

/// The training thread's events that issued a host-to-device copy (the CPU op around the launch
/// call, else the call), by start: the batch moving to the device ends its input phase.
std::vector<uint32_t> hostToDeviceIssuers(const TraceModel& model, uint32_t main) {
  std::vector<uint32_t> out;
  for (const Event& copy : model.events) {
    const trace::GpuDetail* g = model.gpu(copy);
    if (copy.kind != trace::EventKind::kMemcpy || !g || g->copy_kind != trace::CopyKind::kHtoD)
      continue;
    if (copy.link == kNoIndex) continue;
    const Event& call = model.events[copy.link];
    if (call.link != kNoIndex && model.events[call.link].track == main)
      out.push_back(call.link);
    else if (call.track == main)
      out.push_back(copy.link);
  }
  std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
    return model.events[a].start_ns < model.events[b].start_ns;
  });
  return out;
}

/// Ops record the autograd sequence counter as it is when they start ("Sequence number"), in
/// LibTorch 1.13 and torch 2.x alike, whether or not they need gradients: the loader's ops
/// record the same value s0 as every op before the iteration's first autograd node. The op
/// that creates that node records s0 too and takes it, so the ops after it record more. The
/// forward therefore starts at the last op recording s0 before the first recording more; the
/// range around it is returned.
const Event* forwardStart(const TraceModel& model, const Event* it, const Event* end, int64_t lo) {
  int64_t s0 = trace::kNoId;
  const Event* creator = nullptr;
  for (; it != end; ++it) {
    const trace::OpDetail* op = model.op(*it);
    if (!op || op->sequence_number < 0) continue;
    if (s0 == trace::kNoId || op->sequence_number == s0) {
      s0 = op->sequence_number;
      creator = it;
    } else if (op->sequence_number > s0) {
      return &outermostRange(model, *creator, lo);
    }
  }
  return nullptr;
}

/// The CPU ranges after `e` (in [e, end)) that share its parent, up to `n` of them, `e` first.
std::vector<const Event*> siblingsFrom(const Event* e, const Event* end, size_t n) {
  std::vector<const Event*> out;
  for (const Event* s = e; s != end && out.size() < n; ++s)
    if (s->parent == e->parent && trace::isCpuRange(s->kind)) out.push_back(s);
  return out;
}

/// A forward that created no autograd node before the training forward (`forward`): the
/// evaluation that nanoGPT runs under torch.no_grad() at the top of every N-th iteration. It
/// runs the model's first ops in the same order (the training forward's range and the next
/// kForwardSignature of its siblings, by name); a loader's ops that share one name do not.
const Event* forwardWithoutGrad(const Event* it, const Event* forward, const Event* end) {
  constexpr size_t kForwardSignature = 3;
  const std::vector<const Event*> want = siblingsFrom(forward, end, kForwardSignature);
  for (const Event* e = it; e != forward; ++e) {
    if (e->name != forward->name || !trace::isCpuRange(e->kind)) continue;
    const std::vector<const Event*> seen = siblingsFrom(e, forward, want.size());
    const bool same = seen.size() == want.size() &&
                      std::equal(seen.begin(), seen.end(), want.begin(),
                                 [](const Event* a, const Event* b) { return a->name == b->name; });
    if (same) return e;
  }
  return nullptr;
}

struct StepInput {
  int64_t begin = 0;
  int64_t end = 0;  // == begin: no input phase found
  InputEnd by = InputEnd::kNone;
};

/// The input phase of one iteration [lo, hi) of the training thread `main`.
StepInput stepInput(const TraceModel& model, uint32_t main, const std::vector<uint32_t>& h2d,
                    int64_t lo, int64_t hi) {
  const auto [first, last] = model.trackEvents(main);
  const Event* it =
      std::lower_bound(first, last, lo, [](const Event& e, int64_t t) { return e.start_ns < t; });
  const Event* end =
      std::lower_bound(it, last, hi, [](const Event& e, int64_t t) { return e.start_ns < t; });
  StepInput in{lo, lo, InputEnd::kNone};
  // zero_grad before the fetch ends no input phase; the phase starts after it.
  for (; it != end && trace::isCpuRange(it->kind);) {
    const std::string_view name = model.name(*it);
    if (isStepRange(name)) {
      ++it;
      continue;
    }
    if (!isZeroGradRange(name)) break;
    in.begin = in.end = it->end_ns();
    while (it != end && it->start_ns < in.begin) ++it;
  }
  int64_t best = hi;
  auto offer = [&](std::optional<int64_t> t, InputEnd by) {
    if (t && *t >= in.begin && *t < best) best = *t, in.by = by;
  };
  const auto copy = std::lower_bound(h2d.begin(), h2d.end(), in.begin, [&](uint32_t i, int64_t t) {
    return model.events[i].start_ns < t;
  });
  if (copy != h2d.end())
    offer(outermostRange(model, model.events[*copy], in.begin).start_ns, InputEnd::kHostToDevice);
  const Event* forward = forwardStart(model, it, end, in.begin);
  if (forward) offer(forward->start_ns, InputEnd::kForward);
  // An evaluation before the training forward is not input: the phase ends where it starts.
  if (const Event* eval = forward ? forwardWithoutGrad(it, forward, end) : nullptr)
    offer(outermostRange(model, *eval, in.begin).start_ns, InputEnd::kForwardWithoutGrad);
  // zero_grad may also follow the forward (`loss = model(x); opt.zero_grad(); loss.backward()`):
  // it ends the input phase only when it comes before a forward that was found.
  for (const Event* e = it; forward && e != end; ++e)
    if (trace::isCpuRange(e->kind) && isZeroGradRange(model.name(*e))) {
      offer(e->start_ns, InputEnd::kZeroGrad);
      break;
    }
  if (in.by != InputEnd::kNone) in.end = best;
  return in;
}

/// The training thread's idle time inside `ranges` during which another thread ran ops. Only
/// ops count: annotations (the step's own range, an epoch) enclose the idle time.
IntervalSet workerWaits(const TraceModel& model, uint32_t main, const IntervalSet& ranges) {
  IntervalSetBuilder busy_main, busy_other;
  for (const Event& e : model.events) {
    if (e.kind != trace::EventKind::kCpuOp || isStepRange(model.name(e))) continue;
    (e.track == main ? busy_main : busy_other).add(e.start_ns, e.end_ns());
  }
  return ranges.subtract(busy_main.build()).intersect(busy_other.build());
}

std::string whyNot(const StepResult& steps) {
  if (steps.steps.empty()) return "no steps";
  if (!steps.stepsAreIterations())
    return "the steps are not training-loop iterations (the whole trace is one step)";
  return "the training thread is not known";
}

void average(InferredInputWait& w, const StepResult& steps) {
  const double n = static_cast<double>(w.per_step_ns.size());
  for (size_t s = 0; s < w.per_step_ns.size(); ++s) {
    w.average_ns += static_cast<double>(w.per_step_ns[s]) / n;
    w.average_worker_wait_ns += static_cast<double>(w.worker_wait_ns[s]) / n;
    if (w.per_step_ns[s] > w.longest_ns)
      w.longest_ns = w.per_step_ns[s], w.longest_step = steps.steps[s].number;
  }
  w.median_ns = upperMedian(w.per_step_ns);
}

}  // namespace

std::string InferredInputWait::method() const {
  static constexpr const char* kEnds[kInputEndCount] = {
      "", "a host-to-device copy", "Optimizer.zero_grad", "the first autograd node of the forward",
      "a forward without autograd nodes (an evaluation under torch.no_grad)"};
  std::string ends;
  for (int b = 1; b < kInputEndCount; ++b) {
    if (steps_by_end[b] == 0) continue;
    ends += (ends.empty() ? "" : ", ") + std::string(kEnds[b]) + " in " +
            std::to_string(steps_by_end[b]);
  }
  std::string out =
      "inferred (no DataLoader ranges): each iteration's start on the training thread until its first "
      "host-to-device copy, Optimizer.zero_grad before the forward or autograd node, whichever comes "
      "first (ended by " +
      ends + " of " + std::to_string(per_step_ns.size()) + " steps)";
  if (steps_by_end[static_cast<size_t>(InputEnd::kForwardWithoutGrad)] > 0)
    out +=
        "; the evaluation, and what follows it until the training forward (a checkpoint, the "
        "next batch), is not counted";
  if (average_worker_wait_ns > 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "; %.2f ms/step of it the training thread was idle while other threads ran ops "
                  "(waiting for loader workers)",
                  average_worker_wait_ns / 1e6);
    out += buf;
  }
  // Irregular phases are averaged all the same, but the reader is told: a 77 ms phase every
  // 5th step against a 0.2 ms median is rarely the loader (h6 D2: an evaluation).
  constexpr double kIrregular = 10;
  if (longest_ns >= 1'000'000 &&
      static_cast<double>(longest_ns) > kIrregular * static_cast<double>(median_ns)) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "; the phases vary widely (median %.2f ms, longest %.2f ms in step %lld): a long "
                  "one may hold other work than loading",
                  static_cast<double>(median_ns) / 1e6, static_cast<double>(longest_ns) / 1e6,
                  static_cast<long long>(longest_step));
    out += buf;
  }
  out +=
      "; a batch fetched after the forward starts (nanoGPT fetches the next one before the "
      "backward) is not seen";
  return out;
}

InferredInputWait inferInputWait(const TraceModel& model, const StepResult& steps) {
  InferredInputWait w;
  if (steps.steps.empty() || !steps.stepsAreIterations() ||
      steps.main_track >= model.tracks.size()) {
    w.reason = whyNot(steps);
    return w;
  }
  if (hasDataLoaderRange(model)) {
    w.reason = "the trace has DataLoader ranges: the wait is measured";
    return w;
  }
  const std::vector<uint32_t> h2d = hostToDeviceIssuers(model, steps.main_track);
  std::vector<Interval> phases;
  for (const Step& s : steps.steps) {
    const StepInput in = stepInput(model, steps.main_track, h2d, s.host_start_ns, s.host_end_ns);
    ++w.steps_by_end[static_cast<size_t>(in.by)];
    phases.push_back({in.begin, in.end});
  }
  if (w.steps_by_end[static_cast<size_t>(InputEnd::kNone)] ==
      static_cast<int64_t>(steps.steps.size())) {
    w.reason =
        "no step shows where its training starts (no op on the training thread whose Sequence number "
        "advances, as in traces of the legacy profiler, and no host-to-device copy)";
    return w;
  }
  w.inferred = true;
  w.ranges = IntervalSet::fromUnsorted(std::move(phases));
  const BreakdownResult as_loader = computeBreakdown(model, steps, w.ranges);
  const IntervalSet waits = workerWaits(model, steps.main_track, w.ranges);
  for (size_t s = 0; s < steps.steps.size(); ++s) {
    w.per_step_ns.push_back(
        as_loader.per_step[s].ns[static_cast<size_t>(StepCategory::kDataLoader)]);
    w.worker_wait_ns.push_back(waits.overlapLength(steps.steps[s].start_ns, steps.steps[s].end_ns));
  }
  average(w, steps);
  return w;
}

}  // namespace steplint::analyzer
