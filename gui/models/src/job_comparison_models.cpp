#include "steplint/gui/job_comparison_models.h"

#include <QFont>

#include "steplint/gui/comparison_models.h"

namespace steplint::gui {
namespace {

double ms(double ns) { return ns / 1e6; }

/// The trace of `rank` in `job`'s compared job, or "" when the rank is not in it.
QString sourceOf(const LoadedJob& job, int64_t rank) {
  for (const analyzer::JobRank& r : job.jobs.front().ranks)
    if (r.rank == rank) return QString::fromStdString(r.source);
  return {};
}

// The part columns of the ranks table, as indexes into analyzer::JobParts.
constexpr size_t kCompute = 0, kWait = 2, kSyncs = 3, kHost = 4, kLoader = 5;

}  // namespace

void JobComparisonTableModel::setComparison(std::shared_ptr<const LoadedJobComparison> comparison) {
  resetResult([&] { comparison_ = std::move(comparison); });
}

JobPartDeltaModel::JobPartDeltaModel(QObject* parent)
    : JobComparisonTableModel(
          {tr("Part"), tr("Base (ms)"), tr("New (ms)"), tr("Delta (ms)"), tr("Delta (%)")},
          kBaseColumn, parent) {}

QVariant JobPartDeltaModel::value(int row, int column) const {
  const auto part = static_cast<size_t>(row);
  const bool step = part == analyzer::kJobPartCount;
  const double base = step ? diff().base.step_ns : diff().base.parts[part];
  const double next = step ? diff().next.step_ns : diff().next.parts[part];
  if (column != kPartColumn) return baseNewDelta(column - kBaseColumn, base, next);
  if (step) return tr("Step time");
  const std::string_view name = analyzer::jobPartName(part);
  return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString JobPartDeltaModel::text(int row, int column) const {
  if (column == kDeltaColumn) return signedMs(value(row, column).toDouble() * 1e6);
  if (column == kDeltaPercentColumn && !value(row, column).isValid()) return QStringLiteral("-");
  return JobComparisonTableModel::text(row, column);
}

QVariant JobPartDeltaModel::extra(int row, int column, int role) const {
  if (role == Qt::ForegroundRole && column == kDeltaColumn)
    return deltaForeground(value(row, column).toDouble() * 1e6);
  if (role != Qt::FontRole || static_cast<size_t>(row) != analyzer::kJobPartCount) return {};
  QFont bold;
  bold.setBold(true);
  return bold;
}

RankDeltaModel::RankDeltaModel(QObject* parent)
    : JobComparisonTableModel({tr("Rank"), tr("Base step\n(ms)"), tr("New step\n(ms)"),
                               tr("Delta\n(ms)"), tr("Compute\ndelta"), tr("Comm wait\ndelta"),
                               tr("Host syncs\ndelta"), tr("Host work\ndelta"),
                               tr("DataLoader\ndelta"), tr("Late in steps\n(base)"),
                               tr("Late in steps\n(new)")},
                              kBaseStepColumn, parent) {}

QVariant RankDeltaModel::value(int row, int column) const {
  const analyzer::RankDelta& r = diff().ranks[static_cast<size_t>(row)];
  const bool both = r.in_base && r.in_new;
  const auto part = [&](size_t p) {
    return both ? QVariant(ms(r.new_parts[p] - r.base_parts[p])) : QVariant();
  };
  switch (column) {
    case kRankColumn:
      return QVariant::fromValue<qlonglong>(r.rank);
    case kBaseStepColumn:
      return r.in_base ? QVariant(ms(r.base_step_ns)) : QVariant();
    case kNewStepColumn:
      return r.in_new ? QVariant(ms(r.new_step_ns)) : QVariant();
    case kDeltaColumn:
      return both ? QVariant(ms(r.new_step_ns - r.base_step_ns)) : QVariant();
    case kComputeColumn:
      return part(kCompute);
    case kWaitColumn:
      return part(kWait);
    case kSyncColumn:
      return part(kSyncs);
    case kHostWorkColumn:
      return part(kHost);
    case kDataLoaderColumn:
      return part(kLoader);
    case kBaseLateColumn:
      return r.in_base ? QVariant::fromValue<qlonglong>(r.base_late_steps) : QVariant();
    case kNewLateColumn:
      return r.in_new ? QVariant::fromValue<qlonglong>(r.new_late_steps) : QVariant();
    default:
      return {};
  }
}

QString RankDeltaModel::text(int row, int column) const {
  const QVariant v = value(row, column);
  if (!v.isValid()) return QStringLiteral("-");
  if (column >= kDeltaColumn && column <= kDataLoaderColumn) return signedMs(v.toDouble() * 1e6);
  return JobComparisonTableModel::text(row, column);
}

QVariant RankDeltaModel::extra(int row, int column, int role) const {
  const analyzer::RankDelta& r = diff().ranks[static_cast<size_t>(row)];
  switch (role) {
    case kRankRole:
      return QVariant::fromValue<qlonglong>(r.rank);
    case kBaseSourceRole:
      return sourceOf(*comparison_->base, r.rank);
    case kNewSourceRole:
      return sourceOf(*comparison_->next, r.rank);
    case Qt::ForegroundRole:
      if (column >= kDeltaColumn && column <= kDataLoaderColumn && value(row, column).isValid())
        return deltaForeground(value(row, column).toDouble() * 1e6);
      return {};
    default:
      return {};
  }
}

}  // namespace steplint::gui
