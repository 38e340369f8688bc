#include "steplint/gui/attribution_models.h"

#include "steplint/analyzer/summary.h"
#include "steplint/gui/format.h"

namespace steplint::gui {
namespace {

double ms(double ns) { return ns / 1e6; }
QString fraction(double f) { return QString::fromStdString(formatFraction(f)); }
QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

AttributionModel::AttributionModel(QObject* parent)
    // ms per step: in the table's title.
    : TraceTableModel({tr("Timeline"), tr("Cause"), tr("Per step"), tr("Share")}, kMsColumn,
                      parent) {}

// Rows are cached: the averages are spread over a host array and one array per device.
void AttributionModel::rebuild() {
  rows_.clear();
  if (!trace_) return;
  const analyzer::AttributionResult& a = trace_->summary.attribution;
  for (int c = 0; c < analyzer::kHostCauseCount; ++c) {
    const double ns = a.average_host_ns[static_cast<size_t>(c)];
    if (ns > 0)
      rows_.push_back(
          {tr("Host"), qs(analyzer::hostCauseLabel(a, static_cast<analyzer::HostCause>(c))), ns});
  }
  for (const auto& [device, causes] : a.average_device_ns) {
    for (int c = 0; c < analyzer::kDeviceCauseCount; ++c) {
      const double ns = causes[static_cast<size_t>(c)];
      if (ns > 0)
        rows_.push_back({tr("Device %1").arg(device),
                         qs(analyzer::deviceCauseName(static_cast<analyzer::DeviceCause>(c))), ns});
    }
  }
}

int AttributionModel::rows() const { return static_cast<int>(rows_.size()); }

QVariant AttributionModel::value(int row, int column) const {
  const Row& r = rows_[static_cast<size_t>(row)];
  const double step_ns = trace_->summary.attribution.average_total_ns;
  switch (column) {
    case kTimelineColumn:
      return r.timeline;
    case kCauseColumn:
      return r.cause;
    case kMsColumn:
      return ms(r.ns);
    case kShareColumn:
      return step_ns > 0 ? r.ns / step_ns : -1.0;
    default:
      return {};
  }
}

QString AttributionModel::text(int row, int column) const {
  if (column == kShareColumn) return fraction(value(row, column).toDouble());
  return TraceTableModel::text(row, column);
}

TemporalModel::TemporalModel(QObject* parent)
    : TraceTableModel({tr("GPU"), tr("Span"), tr("Idle"), tr("Compute"), tr("Non-compute"),
                       tr("Idle\nshare"), tr("Compute\nshare"), tr("Non-compute\nshare")},
                      kSpanColumn, parent) {}

int TemporalModel::rows() const { return static_cast<int>(trace_->summary.temporal.size()); }

QVariant TemporalModel::value(int row, int column) const {
  const analyzer::TemporalBreakdown& t = trace_->summary.temporal[static_cast<size_t>(row)];
  switch (column) {
    case kDeviceColumn:
      return t.device;
    case kSpanColumn:
      return ms(static_cast<double>(t.kernel_time_ns));
    case kIdleColumn:
      return ms(static_cast<double>(t.idle_ns));
    case kComputeColumn:
      return ms(static_cast<double>(t.compute_ns));
    case kNonComputeColumn:
      return ms(static_cast<double>(t.non_compute_ns));
    case kIdleShareColumn:
      return t.fraction(t.idle_ns);
    case kComputeShareColumn:
      return t.fraction(t.compute_ns);
    case kNonComputeShareColumn:
      return t.fraction(t.non_compute_ns);
    default:
      return {};
  }
}

QString TemporalModel::text(int row, int column) const {
  if (column >= kIdleShareColumn) return fraction(value(row, column).toDouble());
  return TraceTableModel::text(row, column);
}

}  // namespace steplint::gui
