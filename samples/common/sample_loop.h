// The training loop shared by the sample trainers: fetches batches across epochs (the fetch
// inside the step, as Python's `for batch in loader` is inside ProfilerStep#N), optionally marks
// steps and DataLoader waits with the linked steplint API (and records the worker count), and
// times the steps.
// Header-only; included only by the samples' torch TUs.
#pragma once

#include <steplint/collector.h>
#include <steplint/torch_data.h>
#include <torch/torch.h>

#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "sample_options.h"

namespace steplint::samples {

/// Runs options.steps steps of `train(batch)` over `loader`; returns the mean step time in ms
/// over the steps after warm-up (the first three).
template <typename Loader, typename TrainFn>
double runSteps(Loader& loader, const SampleOptions& options, TrainFn&& train) {
  using Clock = std::chrono::steady_clock;
  std::optional<decltype(loader.begin())> it;
  auto fetch = [&] {
    if (!it) {
      it.emplace(loader.begin());
    } else if (++*it == loader.end()) {
      it.emplace(loader.begin());  // next epoch: the previous iterator is exhausted
    }
    return **it;
  };
  // The worker count is a setting no trace shows; SL102 compares it with the host's cores.
  if (options.steplint_steps)
    annotate("dataloader_workers", static_cast<int64_t>(loader.options().workers));
  const int64_t warmup = options.steps > 5 ? 3 : 0;
  double total_ms = 0;
  std::vector<torch::Tensor>
      held;  // --hold-mb-per-step: a leak on purpose, as a list of kept tensors is
  for (int64_t n = 0; n < options.steps; ++n) {
    const auto t0 = Clock::now();
    {
      std::optional<StepScope> step;
      if (options.steplint_steps) step.emplace(n);
      auto batch = maybeDataLoaderWait(options.steplint_steps, fetch);
      train(batch);
      if (options.hold_mb_per_step > 0)
        held.push_back(torch::ones({options.hold_mb_per_step << 18}));  // floats
    }
    if (n >= warmup)
      total_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (options.sleep_after_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(options.sleep_after_ms));
  }
  return total_ms / static_cast<double>(options.steps - warmup);
}

}  // namespace steplint::samples
