#include "steplint/gui/utilization_series.h"

#include <algorithm>
#include <vector>

#include "steplint/analyzer/intervals.h"

namespace steplint::gui {

std::map<int32_t, CounterSeries> kernelBusySeries(const trace::TraceModel& model, int buckets) {
  std::map<int32_t, std::vector<analyzer::Interval>> kernels;
  for (const trace::Event& e : model.events) {
    if (e.kind == trace::EventKind::kKernel && e.dur_ns > 0)
      kernels[model.deviceOf(e)].push_back({e.start_ns, e.end_ns()});
  }
  std::map<int32_t, CounterSeries> out;
  const auto [start, end] = model.timeRange();
  if (kernels.empty() || end <= start || buckets <= 0) return out;
  // Buckets at least 1 µs wide: finer than that the row is a barcode, not a rate.
  const int64_t width = std::max<int64_t>((end - start + buckets - 1) / buckets, 1000);
  for (auto& [device, intervals] : kernels) {
    const analyzer::IntervalSet busy = analyzer::IntervalSet::fromUnsorted(std::move(intervals));
    CounterSeries& s = out[device];
    s.percent = true;
    for (int64_t t = start; t < end; t += width) {
      s.ts_ns.push_back(t);
      s.values.push_back(static_cast<double>(busy.overlapLength(t, t + width)) /
                         static_cast<double>(width));
    }
  }
  return out;
}

}  // namespace steplint::gui
