// Training iterations seen live, for trainers recorded without step markers (issue #4): the
// schedule (--schedule) and the per-step memory samples need step boundaries while recording,
// and `steplint record` cannot add StepScope to someone else's loop.
//
// The signal is the one the analyzer's step detection uses afterwards: a backward pass. An
// iteration ends when the thread that ran the forward pass (the autograd forward thread id
// of the backward ops) starts a top-level op after a backward pass — in a plain loop that is
// optimizer.step() or zero_grad(), once per iteration:
//
//   forward ops (main, depth 0) · backward nodes (any thread) · optimizer op (main, depth 0) ←
//   boundary
//
// Torch-free so it is unit-tested here; torch_hooks.cpp feeds it from the op callback.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace steplint::collector {

class IterationCounter {
 public:
  /// One op start. `thread` is torch's id of the calling thread, `forward_thread` the forward
  /// thread id of a backward node (RecordFunction::forwardThreadId), `depth` the number of
  /// ops open on this thread. Returns true when this op starts a new iteration.
  bool onOpStart(uint64_t thread, bool backward, uint64_t forward_thread, int depth) noexcept {
    if (backward) {
      // The engine's wrapper ranges carry no forward thread (0): keep the nodes' value.
      if (forward_thread != 0) main_thread_.store(forward_thread, std::memory_order_relaxed);
      in_backward_.store(true, std::memory_order_relaxed);
      return false;
    }
    if (depth != 0 || !in_backward_.load(std::memory_order_relaxed) ||
        thread != main_thread_.load(std::memory_order_relaxed))
      return false;
    bool expected = true;  // exactly one caller wins if two top-level ops race
    return in_backward_.compare_exchange_strong(expected, false, std::memory_order_relaxed);
  }

  void reset() noexcept { in_backward_.store(false, std::memory_order_relaxed); }

  /// Backward work as the counter sees it: autograd nodes (scope BACKWARD_FUNCTION) and the
  /// engine's wrapper ranges around them, which run at depth 0 on the CPU.
  static bool isBackwardOp(std::string_view name, bool backward_scope) noexcept {
    constexpr std::string_view kEngine = "autograd::engine::evaluate_function";
    return backward_scope || name.substr(0, kEngine.size()) == kEngine;
  }

 private:
  std::atomic<uint64_t> main_thread_{0};
  std::atomic<bool> in_backward_{false};
};

}  // namespace steplint::collector
