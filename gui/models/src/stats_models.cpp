#include "steplint/gui/stats_models.h"

namespace steplint::gui {
namespace {

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }
double us(double ns) { return ns / 1e3; }

}  // namespace

OpStatsModel::OpStatsModel(QObject* parent)
    : TraceTableModel({tr("CPU op"), tr("Calls"), tr("Total (ms)"), tr("Self (ms)"),
                       tr("Mean (µs)"), tr("Max (µs)")},
                      kCountColumn, parent) {}

QVariant OpStatsModel::value(int row, int column) const {
  const analyzer::OpStat& s = trace_->op_stats[static_cast<size_t>(row)];
  switch (column) {
    case kNameColumn:
      return QString::fromStdString(s.name);
    case kCountColumn:
      return QVariant::fromValue<qlonglong>(s.count);
    case kTotalColumn:
      return ms(s.total_ns);
    case kSelfColumn:
      return ms(s.self_ns);
    case kMeanColumn:
      return us(s.mean_ns());
    case kMaxColumn:
      return us(static_cast<double>(s.max_ns));
    default:
      return {};
  }
}

KernelStatsModel::KernelStatsModel(QObject* parent)
    : TraceTableModel({tr("Kernel"), tr("Calls"), tr("Total (ms)"), tr("Mean (µs)"), tr("Min (µs)"),
                       tr("Max (µs)"), tr("Tensor cores")},
                      kCountColumn, parent) {}

QVariant KernelStatsModel::value(int row, int column) const {
  const analyzer::KernelStat& s = trace_->summary.top_kernels[static_cast<size_t>(row)];
  switch (column) {
    case kNameColumn:
      return QString::fromStdString(s.name);
    case kCountColumn:
      return QVariant::fromValue<qlonglong>(s.count);
    case kTotalColumn:
      return ms(s.total_ns);
    case kMeanColumn:
      return us(s.mean_ns());
    case kMinColumn:
      return us(static_cast<double>(s.min_ns));
    case kMaxColumn:
      return us(static_cast<double>(s.max_ns));
    case kTensorCoreColumn:
      return s.tensor_core ? 1 : 0;
    default:
      return {};
  }
}

QString KernelStatsModel::text(int row, int column) const {
  if (column == kTensorCoreColumn) return value(row, column).toInt() != 0 ? tr("yes") : tr("no");
  return TraceTableModel::text(row, column);
}

}  // namespace steplint::gui
