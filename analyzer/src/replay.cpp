// Runs the replay program (replay_internal.h) and attributes the saving of all fixes to each
// fix with Shapley values.
#include <algorithm>
#include <cmath>
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

}  // namespace

ReplayEnds runReplay(const ReplayProgram& p, const Factors& factors, uint64_t mask, int repetitions,
                     double op_overhead_ns) {
  ReplayEnds out;
  std::vector<double> free = p.slot_free;
  std::vector<double> end(p.ops.size(), 0);
  double h = p.start;
  for (int r = 0; r < repetitions; ++r) {
    double last = h;
    for (const ReplayItem& item : p.items) {
      switch (item.kind) {
        case ReplayItem::kWork: {
          // The profiler's own cost per recorded event comes out first (clamped: an item is
          // never shorter than nothing), then the fixes shrink what is left.
          const double unprofiled = std::max(0.0, item.dur - item.recorded * op_overhead_ns);
          h += unprofiled * product(factors.host, mask & item.mask);
          break;
        }
        case ReplayItem::kLaunch: {
          const ReplayOp& op = p.ops[item.op];
          double start = std::max(h + op.launch_delay, free[op.slot] + op.queue_delay);
          if (op.dep != kNoOp) start = std::max(start, end[op.dep] + op.dep_delay);
          const double finish = start + op.dur * product(factors.device, mask & op.mask);
          end[item.op] = finish;
          free[op.slot] = finish;
          last = std::max(last, finish);
          break;
        }
        case ReplayItem::kWait:
          if (const uint64_t removing = mask & item.mask; removing != 0) {
            h += item.dur * smallest(factors.residual, removing);
          } else {
            // An op from before the window has its observed end in the first pass; in later
            // passes its counterpart is long done.
            const double ready = item.op != kNoOp ? end[item.op] : (r == 0 ? item.fixed_end : h);
            h = std::max(h, ready) + item.after;
          }
          break;
      }
    }
    out.push_back(std::max(h, last));
    h = std::max(h, p.start);  // the next pass starts where this pass's host timeline ended
  }
  return out;
}

StepReplay::StepReplay(const trace::TraceModel& model, const StepResult& steps,
                       const std::vector<FixEffect>& fixes, double op_overhead_ns)
    : op_overhead_ns_(std::max(0.0, op_overhead_ns)) {
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
  return valid() ? runReplay(*program_, program_->point, mask, 1, 0).front() - program_->start : 0;
}

double StepReplay::replayStepNs(uint64_t mask, ReplayScenario scenario) const {
  if (!valid()) return 0;
  // The window's steps run kPasses times back to back; the last pass's length is the steady
  // state the trainer settles in, free of the first step's pipeline fill (the first kernel of
  // a window cannot overlap the host work before it).
  const ReplayEnds ends = runReplay(*program_, scenario.worst ? program_->worst : program_->point,
                                    mask, kPasses, scenario.keep_overhead ? 0 : op_overhead_ns_);
  return (ends[kPasses - 1] - ends[kPasses - 2]) / static_cast<double>(program_->steps);
}

namespace {

/// The savings of every fix in one scenario.
struct ScenarioSavings {
  std::vector<double> share, alone;
  double all = 0;
  double base = 0;
};

/// Every subset of up to kExactShapleyFixes fixes replayed once (in parallel: each replay reads
/// the program only); base, alone and all are entries of that table, and each fix's Shapley
/// value is its marginal saving averaged over the subsets without it.
ScenarioSavings exactSavings(const StepReplay& replay, size_t n, ReplayScenario scenario,
                             int threads) {
  std::vector<double> t(size_t{1} << n);
  trace::parallelFor(t.size(), threads, [&](size_t s) { t[s] = replay.replayStepNs(s, scenario); });
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
  std::vector<double> ends(n + 2);
  trace::parallelFor(ends.size(), threads, [&](size_t k) {
    const uint64_t mask = k == 0 ? 0 : k == 1 ? all : uint64_t{1} << (k - 2);
    ends[k] = replay.replayStepNs(mask, scenario);
  });
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
    uint64_t applied = 0;
    double before = out.base;
    for (size_t i : orders[r]) {
      applied |= uint64_t{1} << i;
      const double after = replay.replayStepNs(applied, scenario);
      marginal[r][i] = before - after;
      before = after;
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
  if (replay.opOverheadNs() > 0) pessimistic.push_back({/*worst=*/false, /*keep_overhead=*/true});
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
