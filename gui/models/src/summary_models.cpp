#include "steplint/gui/summary_models.h"

#include <limits>

#include "steplint/gui/format.h"
#include "steplint/gui/rich_text.h"

namespace steplint::gui {
namespace {

double ms(double ns) { return ns / 1e6; }
// GiB, or -1 for the analyzer's "unknown" (-1 bytes).
double gib(int64_t bytes) {
  return bytes < 0 ? -1.0 : static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
}

QStringList breakdownHeaders() {
  QStringList headers = {QObject::tr("Step"), QObject::tr("Total")};
  for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const auto name = analyzer::stepCategoryName(static_cast<analyzer::StepCategory>(c));
    headers << QString::fromUtf8(name.data(),
                                 static_cast<qsizetype>(name.size()));  // ms: in the title
  }
  return headers;
}

QString fraction(double f) { return QString::fromStdString(formatFraction(f)); }

}  // namespace

StepBreakdownModel::StepBreakdownModel(QObject* parent)
    : TraceTableModel(breakdownHeaders(), kTotalColumn, parent) {}

int StepBreakdownModel::rows() const {
  const size_t steps = trace_->summary.breakdown.per_step.size();
  return static_cast<int>(steps == 0 ? 0 : steps + 1);
}

bool StepBreakdownModel::isAverageRow(int row) const {
  return trace_ && static_cast<size_t>(row) == trace_->summary.breakdown.per_step.size();
}

QVariant StepBreakdownModel::value(int row, int column) const {
  const analyzer::BreakdownResult& b = trace_->summary.breakdown;
  if (isAverageRow(row)) {
    if (column == kStepColumn)
      return QVariant::fromValue<qlonglong>(std::numeric_limits<qlonglong>::max());
    if (column == kTotalColumn) return ms(b.average_total_ns);
    return ms(b.average_ns[static_cast<size_t>(column - kFirstCategoryColumn)]);
  }
  const analyzer::StepBreakdown& s = b.per_step[static_cast<size_t>(row)];
  if (column == kStepColumn) return QVariant::fromValue<qlonglong>(s.step_number);
  if (column == kTotalColumn) return ms(static_cast<double>(s.total_ns));
  return ms(static_cast<double>(s.ns[static_cast<size_t>(column - kFirstCategoryColumn)]));
}

QString StepBreakdownModel::text(int row, int column) const {
  if (column == kStepColumn && isAverageRow(row)) return tr("Average");
  return TraceTableModel::text(row, column);
}

QVariant StepBreakdownModel::extra(int row, int column, int role) const {
  if (role == kStepRole) {
    return isAverageRow(row)
               ? qlonglong{-1}
               : qlonglong{
                     trace_->summary.breakdown.per_step[static_cast<size_t>(row)].step_number};
  }
  if (role == Qt::ToolTipRole && column >= kFirstCategoryColumn) {
    const double total = value(row, kTotalColumn).toDouble();
    const double part = value(row, column).toDouble();
    return text(row, column) + tr(" ms (") + fraction(total > 0 ? part / total : -1) +
           tr(" of the step)");
  }
  return {};
}

GpuSummaryModel::GpuSummaryModel(QObject* parent)
    // Two-line headers keep the ten columns narrow enough for the overview page (docs/gui.md).
    : TraceTableModel({tr("GPU"), tr("Name"), tr("Utilization"), tr("SM\nefficiency"),
                       tr("Occupancy"), tr("Tensor\ncores"), tr("Kernels"), tr("Kernel time\n(ms)"),
                       tr("Peak allocated\n(GiB)"), tr("Peak reserved\n(GiB)")},
                      kUtilizationColumn, parent) {}

int GpuSummaryModel::rows() const { return static_cast<int>(trace_->summary.gpus.size()); }

QVariant GpuSummaryModel::value(int row, int column) const {
  const analyzer::GpuSummary& g = trace_->summary.gpus[static_cast<size_t>(row)];
  switch (column) {
    case kDeviceColumn:
      return g.device;
    case kNameColumn:
      return QString::fromStdString(g.name);
    case kUtilizationColumn:
      return g.utilization;
    case kSmEfficiencyColumn:
      return g.sm_efficiency;
    // The analyzer gives occupancy in percent, the other shares as fractions.
    case kOccupancyColumn:
      return g.achieved_occupancy < 0 ? -1.0 : g.achieved_occupancy / 100.0;
    case kTensorCoreColumn:
      return g.tensor_core_share;
    case kKernelCountColumn:
      return QVariant::fromValue<qlonglong>(g.kernel_count);
    case kBusyColumn:
      return ms(static_cast<double>(g.kernel_busy_ns));
    case kPeakAllocatedColumn:
      return gib(g.peak_allocated_bytes);
    case kPeakReservedColumn:
      return gib(g.peak_reserved_bytes);
    default:
      return {};
  }
}

QString GpuSummaryModel::text(int row, int column) const {
  if (column >= kUtilizationColumn && column <= kTensorCoreColumn)
    return fraction(value(row, column).toDouble());
  if (column == kPeakAllocatedColumn || column == kPeakReservedColumn) {
    const analyzer::GpuSummary& g = trace_->summary.gpus[static_cast<size_t>(row)];
    const double peak = value(row, column).toDouble();
    if (peak < 0) return tr("n/a");
    if (g.memory_bytes <= 0) return QString::number(peak, 'f', 2);
    return tr("%1 of %2").arg(peak, 0, 'f', 2).arg(gib(g.memory_bytes), 0, 'f', 1);
  }
  return TraceTableModel::text(row, column);
}

IdleModel::IdleModel(QObject* parent)
    // ms: in the table's title.
    : TraceTableModel({tr("Window"), tr("GPU"), tr("Stream"), tr("Span"), tr("Busy"),
                       tr("Host wait"), tr("Kernel wait"), tr("Other idle"), tr("Idle share")},
                      kSpanColumn, parent) {}

int IdleModel::rows() const {
  return static_cast<int>(trace_->summary.idle_steps.size() + trace_->summary.idle_hta.size());
}

bool IdleModel::isHtaRow(int row) const {
  return static_cast<size_t>(row) >= trace_->summary.idle_steps.size();
}

const analyzer::StreamIdle& IdleModel::stream(int row) const {
  const analyzer::TraceSummary& s = trace_->summary;
  const auto i = static_cast<size_t>(row);
  return isHtaRow(row) ? s.idle_hta[i - s.idle_steps.size()] : s.idle_steps[i];
}

QVariant IdleModel::value(int row, int column) const {
  const analyzer::StreamIdle& s = stream(row);
  switch (column) {
    case kWindowColumn:
      return isHtaRow(row) ? tr("HTA") : tr("Steps");
    case kDeviceColumn:
      return s.device;
    case kStreamColumn:
      return QVariant::fromValue<qlonglong>(s.stream);
    case kSpanColumn:
      return ms(static_cast<double>(s.span_ns));
    case kBusyColumn:
      return ms(static_cast<double>(s.busy_ns));
    case kHostWaitColumn:
      return ms(static_cast<double>(s.host_wait_ns));
    case kKernelWaitColumn:
      return ms(static_cast<double>(s.kernel_wait_ns));
    case kOtherColumn:
      return ms(static_cast<double>(s.other_ns));
    case kIdleShareColumn:
      return s.span_ns > 0 ? static_cast<double>(s.idle_ns()) / static_cast<double>(s.span_ns)
                           : -1.0;
    default:
      return {};
  }
}

QString IdleModel::text(int row, int column) const {
  if (column == kIdleShareColumn) return fraction(value(row, column).toDouble());
  return TraceTableModel::text(row, column);
}

// The window column says which window a row covers: the same algorithm gives numbers far
// apart on different windows (HTA drops the last ProfilerStep).
QVariant IdleModel::extra(int row, int column, int role) const {
  if (role != Qt::ToolTipRole || column != kWindowColumn) return {};
  const analyzer::HtaWindow& hta = trace_->summary.hta;
  QString text;
  if (!isHtaRow(row))
    text = tr("Device ops that start inside the analysed steps (the GPU summary's window)");
  else if (!hta.filtered)
    text = tr("HTA's window: the whole trace (fewer than 2 ProfilerStep#N, HTA drops no step)");
  else
    text = tr("HTA's window: device ops launched before %1 starts (HTA drops the last step); "
              "these are the numbers HTA's get_idle_time_breakdown reports")
               .arg(QString::fromStdString(hta.last_step));
  return tooltipLiteral(text);
}

}  // namespace steplint::gui
