// tb_plugin's StepParser (docs/reference/peer-tools.md §1.3), reproduced step for step so the
// numbers match what TensorBoard users know. Deliberate differences are marked TB-Qn.
#include "steplint/analyzer/steps.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "step_ranges.h"
#include "steplint/analyzer/medians.h"
#include "steplint/analyzer/step_detect.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

// tb_plugin's fallback: one step over all CPU activity. tb uses ops and Python events only;
// we also count user annotations, which only widens the step to annotated CPU work, and
// runtime and driver calls: a cudaDeviceSynchronize after the last op is the step's end on the
// host (the replay replays the host range), and a trace of CUDA calls alone still has a step.
bool wholeTraceStep(const TraceModel& model, Step& step) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (const Event& e : model.events) {
    if (!trace::isCpuRange(e.kind) && !trace::isLaunchApi(e.kind)) continue;
    lo = std::min(lo, e.start_ns);
    hi = std::max(hi, e.end_ns());
  }
  if (lo > hi) return false;
  step.host_start_ns = step.start_ns = lo;
  step.host_end_ns = step.end_ns = hi;
  return true;
}

// A launch call and one device op it caused. The call's start and end are copied in, read
// while the device op's link is followed anyway, so neither the sort nor the match chases
// each call through the event array (the match's cache misses were 40 % of computeSteps).
struct Launch {
  int64_t call_start_ns = 0;
  int64_t call_end_ns = 0;
  uint32_t call = trace::kNoIndex;
  uint32_t op = trace::kNoIndex;
  bool operator<(const Launch& o) const {
    if (call_start_ns != o.call_start_ns) return call_start_ns < o.call_start_ns;
    return call != o.call ? call < o.call : op < o.op;
  }
};

// Launches ordered by call start (then call, then op: the ops of one call stay together, in
// event order). A flat array: one small vector per call costs millions of allocations. One
// pass: the vector grows by doubling rather than after a counting pass over every event.
std::vector<Launch> sortedLaunches(const TraceModel& model) {
  std::vector<Launch> launches;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const Event& e = model.events[i];
    if (!trace::isDeviceOp(e.kind) || e.link == trace::kNoIndex) continue;
    // Driver launches (Triton's cuLaunchKernel) count too; tb_plugin ignores them (TB-Q10).
    const Event& call = model.events[e.link];
    if (trace::isLaunchApi(call.kind))
      launches.push_back({call.start_ns, call.end_ns(), e.link, i});
  }
  std::sort(launches.begin(), launches.end());
  return launches;
}

struct DeviceMatch {
  std::vector<int64_t> min_start, max_end;  // per step; kNoTime when nothing matched
  std::vector<uint8_t> matched;             // per event: device op matched to some step
  bool any = false;
};

// tb_plugin's two-way merge: a launch belongs to a step only if it lies entirely inside the
// host step; launches that start before a step or straddle its end are skipped (TB-Q7).
DeviceMatch matchDeviceOps(const TraceModel& model, std::vector<Step>& steps) {
  DeviceMatch m;
  m.min_start.assign(steps.size(), kNoTime);
  m.max_end.assign(steps.size(), kNoTime);
  m.matched.assign(model.events.size(), 0);
  size_t s = 0;
  const std::vector<Launch> launches = sortedLaunches(model);
  for (size_t g = 0, next = 0; g < launches.size(); g = next) {
    next = g + 1;  // [g, next): the ops of one launch call
    while (next < launches.size() && launches[next].call == launches[g].call) ++next;
    const int64_t call_start = launches[g].call_start_ns, call_end = launches[g].call_end_ns;
    // Same test order as tb_plugin, so zero-length steps and calls behave alike.
    while (s < steps.size() && call_start >= steps[s].host_start_ns &&
           call_end > steps[s].host_end_ns && call_start >= steps[s].host_end_ns)
      ++s;
    if (s == steps.size()) break;
    if (call_start < steps[s].host_start_ns || call_end > steps[s].host_end_ns) continue;
    for (size_t k = g; k < next; ++k) {
      const uint32_t op = launches[k].op;
      const Event& e = model.events[op];
      m.min_start[s] =
          m.min_start[s] == kNoTime ? e.start_ns : std::min(m.min_start[s], e.start_ns);
      m.max_end[s] = std::max(m.max_end[s], e.end_ns());
      m.matched[op] = 1;
      ++steps[s].device_op_count;
      m.any = true;
    }
  }
  return m;
}

// Device work that no step launched but that ended before step 0's first device op
// (launched before profiling started) pushes step 0's start later. Each track is in start
// order, so its scan stops at the first event starting at or after that op: only the work
// before the first step is read, not the whole trace.
int64_t firstStepStart(const TraceModel& model, const std::vector<Step>& steps,
                       const DeviceMatch& m) {
  int64_t prev_end = steps.front().host_start_ns;
  const int64_t first_op = m.min_start.front();
  if (first_op == kNoTime) return prev_end;
  for (const trace::Track& track : model.tracks) {
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const Event& e = model.events[i];
      if (e.start_ns >= first_op) break;
      if (trace::isDeviceOp(e.kind) && !m.matched[i] && e.end_ns() < first_op)
        prev_end = std::max(prev_end, e.end_ns());
    }
  }
  return prev_end;
}

// Each step counts from where the previous one ended (tb_plugin's rule), so no time is counted
// twice. Host ranges overlap only in malformed or merged traces (ProfilerStep ranges on two
// threads, two recordings in one file); notes say how many overlapped and which were emptied.
void extendSteps(const TraceModel& model, std::vector<Step>& steps, const DeviceMatch& m,
                 std::vector<std::string>& notes) {
  int64_t prev_end = firstStepStart(model, steps, m);
  int64_t prev_host_end = kNoTime;
  size_t overlapping = 0, emptied = 0;
  std::string which;  // the first emptied steps' numbers
  for (size_t i = 0; i < steps.size(); ++i) {
    Step& s = steps[i];
    if (s.host_start_ns < prev_host_end) ++overlapping;
    prev_host_end = std::max(prev_host_end, s.host_end_ns);
    s.start_ns = std::max(prev_end, s.host_start_ns);
    s.end_ns = m.max_end[i] == kNoTime ? s.host_end_ns : std::max(s.host_end_ns, m.max_end[i]);
    if (s.end_ns < s.start_ns) {
      if (++emptied <= 3) which += (emptied > 1 ? ", " : "") + std::to_string(s.number);
      s.end_ns = s.start_ns;
    }
    prev_end = s.end_ns;
  }
  if (overlapping > 0)
    notes.push_back(std::to_string(overlapping) +
                    " ProfilerStep range(s) start before the previous one ends (another "
                    "thread's ranges, or two recordings in one file?): each step counts from "
                    "the previous step's end");
  if (emptied == 0) return;
  notes.push_back(std::to_string(emptied) + " step(s) (" + which + (emptied > 3 ? ", ..." : "") +
                  ") end, GPU work and host range, before the previous step ends: counted as 0 ns");
}

// TB-Q6: the last steps often lose kernels to the end of profiling; tb_plugin drops trailing
// steps without device ops, and the last one too when it has < 80% of the previous one's.
int64_t tailStepsToDrop(const std::vector<Step>& steps) {
  if (steps.size() < 2) return 0;
  int64_t j = static_cast<int64_t>(steps.size()) - 1;
  while (j >= 0 && steps[j].device_op_count == 0) --j;
  if (j < 0) return 0;
  int64_t keep = j + 1;
  if (j > 0 && 0.8 * static_cast<double>(steps[j - 1].device_op_count) >
                   static_cast<double>(steps[j].device_op_count))
    keep = j;
  return static_cast<int64_t>(steps.size()) - keep;
}

void dropTail(StepResult& result) {
  const int64_t drop = tailStepsToDrop(result.steps);
  if (drop == 0) return;
  result.steps.resize(result.steps.size() - static_cast<size_t>(drop));
  result.dropped_tail_steps = drop;
  result.notes.push_back(
      "dropped the last " + std::to_string(drop) +
      " step(s): the profiler may not have captured all the GPU work they launched "
      "(as tb_plugin does; --keep-tail-steps keeps them)");
}

// CPU ops of `track` that start in [from, to), not counting ProfilerStep ranges (cpu_op in
// the legacy export); a track's events are in start order.
int64_t cpuOpsIn(const TraceModel& model, uint32_t track, int64_t from, int64_t to) {
  const auto [begin, end] = model.trackEvents(track);
  const Event* e =
      std::lower_bound(begin, end, from, [](const Event& x, int64_t t) { return x.start_ns < t; });
  int64_t n = 0;
  for (; e != end && e->start_ns < to; ++e)
    n += e->kind == EventKind::kCpuOp && !isHostStepEvent(model, *e);
  return n;
}

// profile.stop() closes the ProfilerStep range that the loop's last profile.step() opened, so
// a loop that ends while recording leaves a last step with no iteration in it: the
// DataLoader's StopIteration (recorded: 0.018 ms and 6 ops after 1 ms steps of 320 ops). With
// GPU work the tail rule above drops it (it launches nothing); without, the last step goes
// when it is under a tenth of the median of the others both in time and in CPU ops on the
// training thread. A tenth: a real iteration, even a short one at the end of an epoch, runs
// the whole loop body, while a tail of a tenth or less has none of it.
void dropEmptyLastStep(const TraceModel& model, StepResult& result) {
  constexpr int64_t kFar = 10;
  const std::vector<Step>& steps = result.steps;
  if (steps.size() < 2 || result.main_track == trace::kNoIndex) return;
  std::vector<int64_t> durations, ops;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    durations.push_back(steps[i].duration_ns());
    ops.push_back(cpuOpsIn(model, result.main_track, steps[i].host_start_ns, steps[i].host_end_ns));
  }
  const Step& last = steps.back();
  const int64_t last_ops = cpuOpsIn(model, result.main_track, last.host_start_ns, last.host_end_ns);
  const int64_t median_ns = upperMedian(durations), median_ops = upperMedian(ops);
  if (last.duration_ns() * kFar >= median_ns || last_ops * kFar >= median_ops) return;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%.3f ms and %lld CPU op(s) against a median step of %.3f ms and %lld",
                static_cast<double>(last.duration_ns()) / 1e6, static_cast<long long>(last_ops),
                static_cast<double>(median_ns) / 1e6, static_cast<long long>(median_ops));
  result.notes.push_back("dropped the last step (" + std::to_string(last.number) + "): " + buf +
                         ", the range the profiler closes when it stops after the loop's last "
                         "profile.step(), not an iteration (--keep-tail-steps keeps it)");
  result.steps.pop_back();
  result.dropped_tail_steps = 1;
}

// Time from the end of the last op or annotation on `track` that starts in [from, to)
// (ProfilerStep ranges aside) to `to`: how much of a step's end no recorded work reaches.
int64_t unrecordedTail(const TraceModel& model, uint32_t track, int64_t from, int64_t to) {
  const auto [begin, end] = model.trackEvents(track);
  const Event* e =
      std::lower_bound(begin, end, from, [](const Event& x, int64_t t) { return x.start_ns < t; });
  int64_t last = from;
  for (; e != end && e->start_ns < to; ++e)
    if (trace::isCpuRange(e->kind) && !isHostStepEvent(model, *e))
      last = std::max(last, std::min(e->end_ns(), to));
  return to - last;
}

// A file cut short ("later events lost") keeps the range of the step it ends in, written
// when the step began, but not the step's later events: their time read as "Other" (h7 D7,
// a truncated .gz: 0.832 ms of 1.106). That step is the last, and no recorded op on the
// training thread reaches as close to its end as in every other step: it is dropped.
void dropTruncatedLastStep(const TraceModel& model, StepResult& result) {
  using trace::Stat;
  const auto& stats = model.stats;
  if (stats.get(Stat::json_truncated) + stats.get(Stat::gzip_error) +
              stats.get(Stat::input_read_error) ==
          0 ||
      result.steps.size() < 2 || result.main_track == trace::kNoIndex)
    return;
  int64_t others = 0;  // the longest unrecorded tail of the other steps
  for (size_t i = 0; i + 1 < result.steps.size(); ++i) {
    const Step& s = result.steps[i];
    others =
        std::max(others, unrecordedTail(model, result.main_track, s.host_start_ns, s.host_end_ns));
  }
  const Step& last = result.steps.back();
  const int64_t tail =
      unrecordedTail(model, result.main_track, last.host_start_ns, last.host_end_ns);
  if (tail <= others) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "its last %.3f ms hold no recorded op (other steps: %.3f ms)",
                static_cast<double>(tail) / 1e6, static_cast<double>(others) / 1e6);
  result.notes.push_back("dropped the last step (" + std::to_string(last.number) +
                         "): the trace file ends inside it (later events lost) and " + buf +
                         " (--keep-tail-steps keeps it)");
  result.steps.pop_back();
  result.dropped_tail_steps = 1;
}

// Median duration of steps [from, end).
int64_t medianDuration(const std::vector<Step>& steps, size_t from) {
  std::vector<int64_t> d;
  for (size_t i = from; i < steps.size(); ++i) d.push_back(steps[i].duration_ns());
  return upperMedian(std::move(d));
}

// Start-up makes the first step(s) of an unscheduled recording tens of times longer than the
// rest (measured: a 300 ms first step before 1.5 ms steps on an H100), and averaging it in
// flags idle GPUs that are busy in steady state. At most 3 leading steps go, and at least 3
// steps stay, so the median is meaningful and a short run is never emptied.
void dropWarmup(StepResult& result) {
  constexpr size_t kMaxWarmup = 3, kMinKept = 3;
  size_t drop = 0;
  while (drop < kMaxWarmup && result.steps.size() - drop > kMinKept) {
    const int64_t median = medianDuration(result.steps, drop + 1);
    if (static_cast<double>(result.steps[drop].duration_ns()) <=
        kWarmupFactor * static_cast<double>(median))
      break;
    ++drop;
  }
  if (drop == 0) return;
  std::string numbers;
  for (size_t i = 0; i < drop; ++i)
    numbers += (i ? ", " : "") + std::to_string(result.steps[i].number);
  const double first_ms = static_cast<double>(result.steps[0].duration_ns()) / 1e6;
  const double median_ms = static_cast<double>(medianDuration(result.steps, drop)) / 1e6;
  result.steps.erase(result.steps.begin(),
                     result.steps.begin() + static_cast<std::ptrdiff_t>(drop));
  result.dropped_warmup_steps = static_cast<int64_t>(drop);
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "took more than %.0fx the median step (first %.1f ms, median %.1f ms)",
                kWarmupFactor, first_ms, median_ms);
  result.notes.push_back("dropped warm-up step(s) " + numbers + ": " + buf +
                         ", start-up rather than training (--keep-warmup-steps keeps them)");
}

}  // namespace

StepResult computeSteps(const TraceModel& model, const StepOptions& options) {
  StepResult result;
  result.steps = profilerStepRanges(model, result.notes);
  result.source = StepSource::kProfilerStep;
  if (!result.steps.empty()) result.main_track = model.events[result.steps.front().event].track;
  if (result.steps.empty()) {
    Step whole;
    if (!wholeTraceStep(model, whole)) {
      result.source = StepSource::kNone;
      result.notes.push_back(
          "no CPU events and no runtime calls in this trace: steps and the step-time breakdown are not computed");
      return result;
    }
    // A training loop recorded without prof.step() / ProfilerStep: find its iterations.
    DetectedSteps detected = detectSteps(model);
    if (!detected.steps.empty()) {
      result.source = StepSource::kDetected;
      result.steps = std::move(detected.steps);
      result.main_track = detected.main_track;
      result.notes.push_back(std::move(detected.note));
    } else {
      result.source = StepSource::kWholeTrace;
      result.steps.push_back(whole);
      result.notes.push_back(
          "no ProfilerStep#N ranges: the whole CPU activity is treated as one step (" +
          detected.note + ")");
    }
  }
  if (options.drop_incomplete_tail) dropTruncatedLastStep(model, result);
  const DeviceMatch match = matchDeviceOps(model, result.steps);
  // Without device work too: host ranges on two threads (or two recordings in one file) may
  // overlap, and a step counts from where the previous one ended, as tb_plugin's.
  if (!result.steps.empty()) extendSteps(model, result.steps, match, result.notes);
  if (match.any) {
    if (options.drop_incomplete_tail) dropTail(result);
  } else {
    if (model.events.end() !=
        std::find_if(model.events.begin(), model.events.end(),
                     [](const Event& e) { return trace::isDeviceOp(e.kind); }))
      result.notes.push_back(
          "no GPU work was launched inside a step: steps are the host ranges only");
    if (options.drop_incomplete_tail) dropEmptyLastStep(model, result);
  }
  if (options.drop_warmup_head && result.stepsAreIterations()) dropWarmup(result);
  return result;
}

}  // namespace steplint::analyzer
