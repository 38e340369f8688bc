#include "steplint/gui/job_models.h"

#include <QFileInfo>
#include <QFont>

#include "steplint/gui/rich_text.h"

namespace steplint::gui {
namespace {

double ms(double ns) { return ns / 1e6; }

QString rankText(int64_t rank) { return rank < 0 ? QStringLiteral("-") : QString::number(rank); }

}  // namespace

void JobTableModel::setJob(std::shared_ptr<const LoadedJob> job, size_t index) {
  resetResult([&] {
    job_ = std::move(job);
    analysis_ = job_ && index < job_->jobs.size() ? &job_->jobs[index] : nullptr;
  });
}

RanksModel::RanksModel(QObject* parent)
    // Two-line headers keep eleven columns readable at 1600 px beside the findings.
    : JobTableModel({tr("Rank"), tr("Trace"), tr("Step\n(ms)"), tr("Compute\n(ms)"),
                     tr("Comm\ntransfer"), tr("Comm\nwait"), tr("Host\nsyncs"), tr("Host\nwork"),
                     tr("Data-\nLoader"), tr("Idle\n(ms)"), tr("Late in\nsteps")},
                    kStepColumn, parent) {}

QVariant RanksModel::value(int row, int column) const {
  const analyzer::JobRank& r = analysis_->ranks[static_cast<size_t>(row)];
  switch (column) {
    case kRankColumn:
      return QVariant::fromValue<qlonglong>(r.rank);
    case kStepColumn:
      return ms(r.step_ns);
    case kComputeColumn:
      return ms(r.compute_ns);
    case kTransferColumn:
      return ms(r.transfer_ns);
    case kWaitColumn:
      return ms(r.wait_ns);
    case kSyncColumn:
      return ms(r.sync_ns);
    case kHostWorkColumn:
      return ms(r.host_work_ns);
    case kDataLoaderColumn:
      return ms(r.dataloader_ns);
    case kIdleColumn:
      return ms(r.idle_ns);
    case kLateStepsColumn:
      return QVariant::fromValue<qlonglong>(r.straggler_steps);
    case kSourceColumn:
      return QString::fromStdString(r.source);
    default:
      return {};
  }
}

QString RanksModel::text(int row, int column) const {
  if (column == kSourceColumn) return QFileInfo(value(row, column).toString()).fileName();
  return JobTableModel::text(row, column);
}

QVariant RanksModel::extra(int row, int column, int role) const {
  const analyzer::JobRank& r = analysis_->ranks[static_cast<size_t>(row)];
  if (role == kRankRole) return QVariant::fromValue<qlonglong>(r.rank);
  if (role == kSourceRole) return QString::fromStdString(r.source);
  if (role == Qt::FontRole && r.rank == analysis_->straggler && analysis_->straggler >= 0) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::ToolTipRole && column == kSourceColumn)
    return tooltipLiteral(QString::fromStdString(r.source));
  if (role == Qt::ToolTipRole && column == kWaitColumn)
    return tr("%1 ms per step waiting inside collectives for a slower rank").arg(text(row, column));
  return {};
}

QString lateCauseText(const analyzer::JobStep& step) {
  if (step.straggler < 0) return QStringLiteral("-");
  const auto name = analyzer::lateCauseName(step.cause);
  QString cause = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
  if (step.cause != analyzer::LateCause::kUnexplained)
    cause +=
        QStringLiteral(" (+%1 ms)").arg(ms(static_cast<double>(step.cause_excess_ns)), 0, 'f', 3);
  if (!step.grown_kernels.empty())
    cause += QStringLiteral(": ") + QString::fromStdString(step.grown_kernels.front().name);
  return cause;
}

JobStepsModel::JobStepsModel(QObject* parent)
    : JobTableModel({tr("Step"), tr("Median\n(ms)"), tr("Collec-\ntives"), tr("Late\nrank"),
                     tr("Others\nwaited (ms)"), tr("Cause")},
                    kMedianColumn, parent) {}

QVariant JobStepsModel::value(int row, int column) const {
  const analyzer::JobStep& s = analysis_->steps[static_cast<size_t>(row)];
  switch (column) {
    case kStepColumn:
      return QVariant::fromValue<qlonglong>(s.number);
    case kMedianColumn:
      return ms(static_cast<double>(s.median_step_ns));
    case kCollectivesColumn:
      return QVariant::fromValue<qlonglong>(s.collectives);
    case kLateRankColumn:
      return QVariant::fromValue<qlonglong>(s.straggler);
    case kLateColumn:
      return s.straggler < 0 ? 0.0 : ms(static_cast<double>(s.late_ns));
    case kCauseColumn:
      return lateCauseText(s);
    default:
      return {};
  }
}

QString JobStepsModel::text(int row, int column) const {
  const analyzer::JobStep& s = analysis_->steps[static_cast<size_t>(row)];
  if (column == kLateRankColumn) return rankText(s.straggler);
  if (column == kLateColumn && s.straggler < 0) return QStringLiteral("-");
  return JobTableModel::text(row, column);
}

QVariant JobStepsModel::extra(int row, int /*column*/, int role) const {
  if (role == kStepRole)
    return QVariant::fromValue<qlonglong>(analysis_->steps[static_cast<size_t>(row)].number);
  return {};
}

}  // namespace steplint::gui
