#include "step_windows.h"

#include <algorithm>
#include <numeric>

namespace steplint::analyzer {

std::vector<StepWindow> stepWindows(const std::vector<Step>& steps, size_t max_windows) {
  std::vector<size_t> order(steps.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return steps[a].start_ns < steps[b].start_ns; });
  const size_t per_window =
      std::max<size_t>(1, (steps.size() + max_windows - 1) / std::max<size_t>(1, max_windows));
  std::vector<StepWindow> windows;
  for (size_t i : order) {
    const Step& s = steps[i];
    // A new window only where no earlier step reaches: then the windows stay disjoint.
    if (windows.empty() ||
        (windows.back().steps.size() >= per_window && s.start_ns >= windows.back().end)) {
      StepWindow w;
      w.start = w.end = s.start_ns;
      windows.push_back(std::move(w));
    }
    StepWindow& w = windows.back();
    w.steps.push_back(i);
    w.end = std::max({w.end, s.start_ns, s.end_ns});
  }
  return windows;
}

WindowEvents::WindowEvents(const trace::TraceModel& model)
    : model_(model), next_(model.tracks.size()) {
  for (size_t t = 0; t < model.tracks.size(); ++t) next_[t] = model.tracks[t].first_event;
}

}  // namespace steplint::analyzer
