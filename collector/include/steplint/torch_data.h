// Helpers for LibTorch trainers that iterate a torch::data DataLoader and want steplint to see
// the wait for each batch (`enumerate(DataLoader)#...__next__`, what SL101 measures).
// Header-only; include it in the trainer's torch TU after <torch/torch.h>.
//
//   auto it = steplint::firstBatch(*loader);        // begin() inside a DataLoaderWait
//   for (int64_t n = 0; n < steps && it != loader->end(); ++n) {
//     steplint::StepScope step{n};
//     train(*it);
//     steplint::nextBatch(it);                      // ++it inside a DataLoaderWait
//   }
//
// Recording without code changes cannot see these waits: LibTorch's DataLoader has no
// RecordFunction range of its own.
#pragma once

#include <utility>

#include "steplint/collector.h"

namespace steplint {

/// loader.begin() — which fetches the first batch — timed as a DataLoader wait.
template <typename Loader>
auto firstBatch(Loader& loader) {
  DataLoaderWait wait;
  return loader.begin();
}

/// ++it — which fetches the next batch — timed as a DataLoader wait.
template <typename Iterator>
Iterator& nextBatch(Iterator& it) {
  DataLoaderWait wait;
  ++it;
  return it;
}

/// Runs fn() inside a DataLoader wait when `enabled`, else plainly (for trainers that mark
/// steps only on request).
template <typename Fn>
decltype(auto) maybeDataLoaderWait(bool enabled, Fn&& fn) {
  if (!enabled) return std::forward<Fn>(fn)();
  DataLoaderWait wait;
  return std::forward<Fn>(fn)();
}

}  // namespace steplint
