// The input-pipeline wait of a trace without DataLoader ranges, inferred (docs/analyses.md
// §2b). A LibTorch trainer recorded with `steplint record -- ./train` has no
// `enumerate(DataLoader)#…__next__` ranges: its loader runs as plain ops on the training
// thread (0 workers) or as an unrecorded wait on it (worker threads). Each iteration starts
// with that input phase and then trains, so the input phase is the iteration's prefix before
// its training computation begins:
//
//   training thread  |-- loader ops / idle wait --|to(cuda)|zero_grad|t addmm relu
//   ...|backward|step|
//                    ^ step start                 ^ the first of: host-to-device copy,
//                                                   Optimizer.zero_grad, first autograd node
//
// An evaluation at the top of an iteration (nanoGPT's estimate_loss() under torch.no_grad(),
// then torch.save) creates no autograd node: the phase ends where such a forward starts, known
// by the training forward's first ops, by name and in order. Only the prefix is looked at: a
// batch fetched after the forward (nanoGPT fetches the next one before the backward) is not.
//
// tb_plugin, HTA and TraceLens compute no data-loading figure without the named ranges
// (tb_plugin counts this time as CPU Exec or Other), so this is steplint's own; every figure
// that uses it says it is inferred.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// What ended an iteration's input phase.
enum class InputEnd : uint8_t {
  kNone,                // nothing found: the step's inferred wait is 0
  kHostToDevice,        // the first host-to-device copy (the batch moving to the device)
  kZeroGrad,            // an Optimizer.zero_grad range before the forward
  kForward,             // the op that created the iteration's first autograd node
  kForwardWithoutGrad,  // the model's first ops run earlier without autograd nodes (evaluation)
};
inline constexpr int kInputEndCount = 5;

struct InferredInputWait {
  /// False when nothing was inferred; `reason` says why (the trace has DataLoader ranges, no
  /// iterations, no training thread, or no step shows where its training starts).
  bool inferred = false;
  std::string reason;
  /// The input phase of every kept step, [iteration start, end of input), on the training thread.
  IntervalSet ranges;
  /// Per kept step: the input phase not hidden by device work, communication or runtime calls,
  /// i.e. what the breakdown's DataLoader category would read had it been a DataLoader range
  /// (the figure SL101 compares with its threshold, as for measured waits).
  std::vector<int64_t> per_step_ns;
  /// Per kept step: the part of the input phase in which the training thread recorded nothing
  /// while other threads ran ops: blocked waiting for loader worker threads.
  std::vector<int64_t> worker_wait_ns;
  std::array<int64_t, kInputEndCount> steps_by_end{};  // how many steps each signal ended
  double average_ns = 0;
  double average_worker_wait_ns = 0;
  /// The median and the longest per-step figure, and the longest one's step number: a phase
  /// far above the median may hold other work than loading, which method() then mentions.
  int64_t median_ns = 0, longest_ns = 0, longest_step = 0;

  /// One sentence: how the wait was inferred and which signals ended the steps' input phases.
  std::string method() const;
};

/// The inferred input wait of the kept steps; `inferred` is false on traces that have any
/// DataLoader range (their wait is measured).
InferredInputWait inferInputWait(const trace::TraceModel& model, const StepResult& steps);

}  // namespace steplint::analyzer
