// Runs the replay program (replay_internal.h) and attributes the saving of all fixes to each
// fix with Shapley values.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "replay_internal.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/parallel_for.h"

namespace steplint::analyzer {
namespace {

/// The host timeline of the largest traces is replayed over a run of their steps only: every
/// subset of up to kExactShapleyFixes fixes is replayed, so one replay must stay cheap.
constexpr size_t kMaxItems = 200'000;

/// Fix orders sampled when there are too many fixes for every subset.
constexpr size_t kSampledOrders = 64;

/// Passes of the window replayed back to back for a steady-state step (replayStepNs).
constexpr int kPasses = 3;

/// Masks replayed together in one pass over the program (runReplays): enough to keep the
/// cores busy with independent work per item; their timelines take 8 × 8 bytes per op.
constexpr size_t kReplayBatch = 8;

double product(const std::vector<double>& factors, uint64_t bits) {
  double f = 1;
  while (bits != 0) {
    f *= factors[static_cast<size_t>(__builtin_ctzll(bits))];
    bits &= bits - 1;
  }
  return f;
}

double smallest(const std::vector<double>& factors, uint64_t bits) {
  double f = 1;
  while (bits != 0) {
    f = std::min(f, factors[static_cast<size_t>(__builtin_ctzll(bits))]);
    bits &= bits - 1;
  }
  return f;
}

double shapleyWeight(size_t subset_size, size_t n) {
  // |S|! (n − |S| − 1)! / n!, via lgamma: exact enough for n ≤ kExactShapleyFixes.
  const double k = static_cast<double>(subset_size);
  const double m = static_cast<double>(n);
  return std::exp(std::lgamma(k + 1) + std::lgamma(m - k) - std::lgamma(m + 1));
}

/// The device ops' time on the busiest (device, stream) queue among the ops that start in
/// [from, to). Each track is in start order.
double busiestQueueNs(const trace::TraceModel& model, int64_t from, int64_t to) {
  std::map<std::pair<int32_t, int32_t>, double> busy;
  for (const trace::Track& track : model.tracks) {
    if (track.kind == trace::TrackKind::kCpuThread) continue;  // host rows hold no device ops
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const trace::Event& e = model.events[i];
      if (!trace::isDeviceOp(e.kind) || e.start_ns < from) continue;
      if (e.start_ns >= to) break;
      const trace::GpuDetail* g = model.gpu(e);  // the replay's queues (replay_build.cpp)
      busy[{g ? g->device : -1, g ? g->stream : -1}] += static_cast<double>(e.dur_ns);
    }
  }
  double most = 0;
  for (const auto& [queue, ns] : busy) most = std::max(most, ns);
  return most;
}

}  // namespace

void runReplays(const ReplayProgram& p, const Factors& factors, const uint64_t* masks, size_t count,
                int repetitions, const ProfilerOverhead& overhead, double* ends) {
  // The masks' timelines side by side: [slot or op][mask]. Each item is decoded once for all
  // of them and the masks' chains of max and add are independent, where one mask at a time
  // streamed the whole program through the cache for every subset of the fixes.
  std::vector<double> free(p.slot_free.size() * count);
  for (size_t s = 0; s < p.slot_free.size(); ++s)
    std::fill_n(free.begin() + static_cast<std::ptrdiff_t>(s * count), count, p.slot_free[s]);
  std::vector<double> end(p.ops.size() * count, 0);
  // anchor: where pinned ops count their offset from, the previous pass's end (host and GPU;
  // the window's start in the first pass): what they waited for came after the program's
  // previous iteration, not after its host's launch (replay_external_wait.h).
  std::vector<double> h(count, p.start), last(count), anchor(count, p.start);
  for (int r = 0; r < repetitions; ++r) {
    last = h;
    for (const ReplayItem& item : p.items) {
      switch (item.kind) {
        case ReplayItem::kWork: {
          // The profiler's own cost per recorded event comes out first (clamped: an item is
          // never shorter than nothing), then the fixes shrink what is left.
          const double unprofiled =
              std::max(0.0, item.dur - (item.recorded * overhead.per_event_ns +
                                        item.recorded_frames * overhead.per_python_frame_ns));
          for (size_t k = 0; k < count; ++k)
            h[k] += unprofiled * product(factors.host, masks[k] & item.mask);
          break;
        }
        case ReplayItem::kLaunch: {
          const ReplayOp& op = p.ops[item.op];
          double* slot_free = &free[op.slot * count];
          double* op_end = &end[item.op * count];
          const double* dep_end = op.dep != kNoOp ? &end[op.dep * count] : nullptr;
          for (size_t k = 0; k < count; ++k) {
            double start = std::max(h[k] + op.launch_delay, slot_free[k] + op.queue_delay);
            if (dep_end != nullptr) start = std::max(start, dep_end[k] + op.dep_delay);
            if (op.pinned >= 0) start = std::max(start, anchor[k] + op.pinned);
            const double finish = start + op.dur * product(factors.device, masks[k] & op.mask);
            op_end[k] = finish;
            slot_free[k] = finish;
            last[k] = std::max(last[k], finish);
          }
          break;
        }
        case ReplayItem::kWait:
          for (size_t k = 0; k < count; ++k) {
            if (const uint64_t removing = masks[k] & item.mask; removing != 0) {
              h[k] += item.dur * smallest(factors.residual, removing);
            } else {
              // An op from before the window has its observed end in the first pass; in later
              // passes its counterpart is long done.
              const double ready =
                  item.op != kNoOp ? end[item.op * count + k] : (r == 0 ? item.fixed_end : h[k]);
              h[k] = std::max(h[k], ready) + item.after;
            }
          }
          break;
      }
    }
    for (size_t k = 0; k < count; ++k) {
      anchor[k] = std::max(h[k], last[k]);
      ends[k * static_cast<size_t>(repetitions) + static_cast<size_t>(r)] = anchor[k];
      h[k] = std::max(h[k], p.start);  // the next pass starts where this pass's host timeline ended
    }
  }
}

StepReplay::StepReplay(const trace::TraceModel& model, const StepResult& steps,
                       const std::vector<FixEffect>& fixes, const ProfilerOverhead& overhead)
    : overhead_{
          std::max(0.0, overhead.per_event_ns), std::max(0.0, overhead.per_python_frame_ns), {}} {
  const size_t n = steps.steps.size();
  if (n == 0) return;
  // Counted first, built once: building the whole trace's program only to measure it took
  // ~160 MB and 5 % of `check` on a 1 GB trace.
  const size_t items = countReplayItems(model, steps, 0, n, fixes);
  size_t first = 0, last = n;
  if (items > kMaxItems && n > 1) {
    // A contiguous run from the middle: steps of one training loop are alike, and the middle
    // is farthest from start-up and from an incomplete tail.
    const size_t keep = std::max<size_t>(1, n * kMaxItems / items);
    first = (n - keep) / 2;
    last = first + keep;
  }
  program_ = std::make_unique<ReplayProgram>(buildReplayProgram(model, steps, first, last, fixes));
  device_floor_ns_ =
      busiestQueueNs(model, steps.steps[first].start_ns, steps.steps[last - 1].end_ns) /
      static_cast<double>(last - first);
}

StepReplay::~StepReplay() = default;
StepReplay::StepReplay(StepReplay&&) noexcept = default;
StepReplay& StepReplay::operator=(StepReplay&&) noexcept = default;

bool StepReplay::valid() const { return program_ != nullptr && program_->steps > 0; }
size_t StepReplay::windowSteps() const { return valid() ? program_->steps : 0; }
size_t StepReplay::fixCount() const { return valid() ? program_->point.host.size() : 0; }

bool StepReplay::hasWorstCase() const {
  if (!valid()) return false;
  return program_->point.host != program_->worst.host ||
         program_->point.device != program_->worst.device;
}

double StepReplay::observedStepNs() const {
  return valid() ? program_->observed / static_cast<double>(program_->steps) : 0;
}

double StepReplay::replayWindowNs(uint64_t mask) const {
  if (!valid()) return 0;
  double end = 0;
  runReplays(*program_, program_->point, &mask, 1, 1, ProfilerOverhead{}, &end);
  return end - program_->start;
}

double StepReplay::replayStepNs(uint64_t mask, ReplayScenario scenario) const {
  double step = 0;
  replayStepsNs(&mask, 1, scenario, &step);
  return step;
}

void StepReplay::replayStepsNs(const uint64_t* masks, size_t count, ReplayScenario scenario,
                               double* steps) const {
  if (!valid()) {
    std::fill_n(steps, count, 0.0);
    return;
  }
  // The window's steps run kPasses times back to back; the last pass's length is the steady
  // state the trainer settles in, free of the first step's pipeline fill (the first kernel of
  // a window cannot overlap the host work before it).
  const Factors& factors = scenario.worst ? program_->worst : program_->point;
  static const ProfilerOverhead kLeftIn{};
  const ProfilerOverhead& overhead = scenario.keep_overhead ? kLeftIn : overhead_;
  std::array<double, kReplayBatch* static_cast<size_t>(kPasses)> ends;
  for (size_t first = 0; first < count; first += kReplayBatch) {
    const size_t n = std::min(kReplayBatch, count - first);
    runReplays(*program_, factors, masks + first, n, kPasses, overhead, ends.data());
    for (size_t k = 0; k < n; ++k) {
      const double* pass = &ends[k * static_cast<size_t>(kPasses)];
      steps[first + k] =
          (pass[kPasses - 1] - pass[kPasses - 2]) / static_cast<double>(program_->steps);
    }
  }
}

namespace {

/// The savings of every fix in one scenario.
struct ScenarioSavings {
  std::vector<double> share, alone;
  double all = 0;
  double base = 0;
};

/// replayStepsNs of each mask into out[], a batch of masks per task on up to `threads` threads.
void replayInBatches(const StepReplay& replay, const std::vector<uint64_t>& masks,
                     ReplayScenario scenario, int threads, double* out) {
  const size_t batches = (masks.size() + kReplayBatch - 1) / kReplayBatch;
  trace::parallelFor(batches, threads, [&](size_t b) {
    const size_t first = b * kReplayBatch;
    replay.replayStepsNs(masks.data() + first, std::min(kReplayBatch, masks.size() - first),
                         scenario, out + first);
  });
}

/// Every subset of up to kExactShapleyFixes fixes replayed once (in parallel: each replay reads
/// the program only); base, alone and all are entries of that table, and each fix's Shapley
/// value is its marginal saving averaged over the subsets without it.
ScenarioSavings exactSavings(const StepReplay& replay, size_t n, ReplayScenario scenario,
                             int threads) {
  std::vector<double> t(size_t{1} << n);
  std::vector<uint64_t> subsets(t.size());
  std::iota(subsets.begin(), subsets.end(), uint64_t{0});
  replayInBatches(replay, subsets, scenario, threads, t.data());
  ScenarioSavings out;
  out.base = t[0];
  out.all = out.base - t.back();
  out.share.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    out.alone.push_back(out.base - t[bit]);
    for (uint64_t s = 0; s < t.size(); ++s) {
      if (s & bit) continue;
      out.share[i] +=
          shapleyWeight(static_cast<size_t>(__builtin_popcountll(s)), n) * (t[s] - t[s | bit]);
    }
  }
  return out;
}

/// Too many fixes for every subset: marginals along kSampledOrders random orders (each order's
/// marginals add up to the fix-all saving, so the averaged shares do too). The orders are drawn
/// first and replayed in parallel; the shares are summed in order, as one thread would.
ScenarioSavings sampledSavings(const StepReplay& replay, size_t n, ReplayScenario scenario,
                               int threads) {
  ScenarioSavings out;
  const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  std::vector<uint64_t> masks = {0, all};
  for (size_t i = 0; i < n; ++i) masks.push_back(uint64_t{1} << i);
  std::vector<double> ends(masks.size());
  replayInBatches(replay, masks, scenario, threads, ends.data());
  out.base = ends[0];
  out.all = out.base - ends[1];
  for (size_t i = 0; i < n; ++i) out.alone.push_back(out.base - ends[i + 2]);
  std::mt19937_64 rng(0x5EED);  // fixed seed: the same trace gives the same report
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::vector<size_t>> orders;  // each a shuffle of the one before
  for (size_t r = 0; r < kSampledOrders; ++r) {
    std::shuffle(order.begin(), order.end(), rng);
    orders.push_back(order);
  }
  std::vector<std::vector<double>> marginal(kSampledOrders, std::vector<double>(n));
  trace::parallelFor(kSampledOrders, threads, [&](size_t r) {
    // The fixes applied one more at a time: every mask of the order is known up front.
    std::vector<uint64_t> applied(n);
    for (size_t j = 0; j < n; ++j)
      applied[j] = (j ? applied[j - 1] : 0) | uint64_t{1} << orders[r][j];
    std::vector<double> after(n);
    replay.replayStepsNs(applied.data(), n, scenario, after.data());
    double before = out.base;
    for (size_t j = 0; j < n; ++j) {
      marginal[r][orders[r][j]] = before - after[j];
      before = after[j];
    }
  });
  out.share.assign(n, 0);
  for (size_t r = 0; r < kSampledOrders; ++r) {
    for (size_t i = 0; i < n; ++i)
      out.share[i] += marginal[r][i] / static_cast<double>(kSampledOrders);
  }
  return out;
}

ScenarioSavings scenarioSavings(const StepReplay& replay, size_t n, ReplayScenario scenario,
                                int threads, bool* exact) {
  if (n <= kExactShapleyFixes) return exactSavings(replay, n, scenario, threads);
  *exact = false;
  return sampledSavings(replay, n, scenario, threads);
}

void keepLower(std::vector<double>& low, const std::vector<double>& other) {
  for (size_t i = 0; i < low.size(); ++i) low[i] = std::min(low[i], other[i]);
}

}  // namespace

FixSavings computeFixSavings(const StepReplay& replay, int threads) {
  FixSavings out;
  const size_t n = std::min(replay.fixCount(), StepReplay::kMaxFixes);
  if (!replay.valid()) return out;
  if (threads <= 0) threads = static_cast<int>(trace::availableCores());
  out.recorded_step_ns = replay.replayStepNs(0, {false, /*keep_overhead=*/true});
  const ScenarioSavings point = scenarioSavings(replay, n, {}, threads, &out.exact_shares);
  out.step_ns = point.base;
  out.share_ns = point.share;
  out.alone_ns = point.alone;
  out.all_ns = point.all;
  out.share_low_ns = point.share;
  out.alone_low_ns = point.alone;
  out.all_low_ns = point.all;
  if (n == 0) return out;
  // The low end: the fixes' pessimistic factors, and the host timeline as recorded (the
  // profiler's inflation left in, which is what host-side fixes' savings are smallest with).
  std::vector<ReplayScenario> pessimistic;
  if (replay.hasWorstCase()) pessimistic.push_back({/*worst=*/true, /*keep_overhead=*/false});
  if (replay.takesOverheadOut()) pessimistic.push_back({/*worst=*/false, /*keep_overhead=*/true});
  for (const ReplayScenario scenario : pessimistic) {
    const ScenarioSavings s = scenarioSavings(replay, n, scenario, threads, &out.exact_shares);
    // The recorded-timeline scenario measures against a longer step: compare fractions.
    const double scale = s.base > 0 ? point.base / s.base : 1;
    std::vector<double> share = s.share, alone = s.alone;
    for (double& v : share) v *= scale;
    for (double& v : alone) v *= scale;
    keepLower(out.share_low_ns, share);
    keepLower(out.alone_low_ns, alone);
    out.all_low_ns = std::min(out.all_low_ns, s.all * scale);
  }
  return out;
}

}  // namespace steplint::analyzer
