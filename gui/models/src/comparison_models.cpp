#include "steplint/gui/comparison_models.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>
#include <map>

namespace steplint::gui {
namespace {

double ms(double ns) { return ns / 1e6; }

QString utf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// As `steplint diff`: deltas under half a microsecond per step are rounding, not change.
constexpr double kNoiseNs = 500;

// Which category moved most between two breakdowns of the same step: "DataLoader -58.110".
QString mostMoved(const analyzer::StepBreakdown& base, const analyzer::StepBreakdown& next) {
  size_t best = 0;
  int64_t best_delta = 0;
  for (size_t c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const int64_t delta = next.ns[c] - base.ns[c];
    if (std::llabs(delta) > std::llabs(best_delta)) {
      best = c;
      best_delta = delta;
    }
  }
  if (static_cast<double>(std::llabs(best_delta)) < kNoiseNs) return {};
  return utf8(analyzer::stepCategoryName(static_cast<analyzer::StepCategory>(best))) +
         QLatin1Char(' ') + signedMs(static_cast<double>(best_delta));
}

QString kindText(trace::EventKind kind) {
  switch (kind) {
    case trace::EventKind::kKernel:
      return QObject::tr("kernel");
    case trace::EventKind::kMemcpy:
      return QObject::tr("memcpy");
    case trace::EventKind::kMemset:
      return QObject::tr("memset");
    default:
      return utf8(trace::eventKindName(kind));
  }
}

QString sizeText(const analyzer::FindingSize& f) {
  if (f.fingerprint.empty()) return QStringLiteral("-");
  return f.magnitude < 0 ? QStringLiteral("?") : QString::number(f.magnitude, 'f', 2);
}

// The diff's findings, kept alive by the comparison they belong to (an aliasing pointer).
template <class Comparison>
std::shared_ptr<const std::vector<analyzer::FindingDelta>> findingsOf(
    std::shared_ptr<const Comparison> comparison) {
  if (!comparison) return nullptr;
  return {comparison, &comparison->diff.findings};
}

}  // namespace

QString signedMs(double ns) {
  if (std::fabs(ns) < kNoiseNs) return QStringLiteral("0.000");
  return (ns > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
         QString::number(ms(std::fabs(ns)), 'f', 3);
}

QVariant baseNewDelta(int offset, double base_ns, double next_ns) {
  switch (offset) {
    case 0:
      return ms(base_ns);
    case 1:
      return ms(next_ns);
    case 2:
      return ms(next_ns - base_ns);
    case 3:
      return base_ns > 0 ? QVariant(100.0 * (next_ns - base_ns) / base_ns) : QVariant();
    default:
      return {};
  }
}

QVariant deltaForeground(double delta_ns) {
  if (std::fabs(delta_ns) < kNoiseNs) return {};
  return delta_ns > 0 ? QColor(0xc6, 0x28, 0x28) : QColor(0x2e, 0x7d, 0x32);
}

void ComparisonTableModel::setComparison(std::shared_ptr<const LoadedComparison> comparison) {
  resetResult([&] { comparison_ = std::move(comparison); });
}

CategoryDeltaModel::CategoryDeltaModel(QObject* parent)
    : ComparisonTableModel(
          {tr("Category"), tr("Base (ms)"), tr("New (ms)"), tr("Delta (ms)"), tr("Delta (%)")},
          kBaseColumn, parent) {}

QVariant CategoryDeltaModel::value(int row, int column) const {
  const bool total = static_cast<size_t>(row) == diff().categories.size();
  double base = diff().base_steps.mean_ns;
  double next = diff().new_steps.mean_ns;
  if (!total) {
    const analyzer::CategoryDelta& c = diff().categories[static_cast<size_t>(row)];
    base = c.base_ns;
    next = c.new_ns;
    if (column == kCategoryColumn) return utf8(analyzer::stepCategoryName(c.category));
  }
  if (column == kCategoryColumn) return tr("Step time");
  return baseNewDelta(column - kBaseColumn, base, next);
}

QString CategoryDeltaModel::text(int row, int column) const {
  if (column == kDeltaColumn) return signedMs(value(row, column).toDouble() * 1e6);
  if (column == kDeltaPercentColumn && !value(row, column).isValid()) return QStringLiteral("-");
  return ComparisonTableModel::text(row, column);
}

QVariant CategoryDeltaModel::extra(int row, int /*column*/, int role) const {
  if (role != Qt::FontRole || static_cast<size_t>(row) != diff().categories.size()) return {};
  QFont bold;
  bold.setBold(true);
  return bold;
}

StepPairModel::StepPairModel(QObject* parent)
    : ComparisonTableModel(
          {tr("Step"), tr("Base (ms)"), tr("New (ms)"), tr("Delta (ms)"), tr("Moved most (ms)")},
          kBaseColumn, parent) {}

void StepPairModel::rebuild() {
  rows_.clear();
  if (!comparison_) return;
  std::map<int64_t, Row> by_number;
  for (const analyzer::StepBreakdown& s : comparison_->base->summary.breakdown.per_step) {
    by_number[s.step_number].step = s.step_number;
    by_number[s.step_number].base = &s;
  }
  for (const analyzer::StepBreakdown& s : comparison_->next->summary.breakdown.per_step) {
    by_number[s.step_number].step = s.step_number;
    by_number[s.step_number].next = &s;
  }
  for (auto& [number, row] : by_number) rows_.push_back(row);
}

QVariant StepPairModel::value(int row, int column) const {
  const Row& r = rows_[static_cast<size_t>(row)];
  switch (column) {
    case kStepColumn:
      return QVariant::fromValue<qlonglong>(r.step);
    case kBaseColumn:
      return r.base ? QVariant(ms(static_cast<double>(r.base->total_ns))) : QVariant();
    case kNewColumn:
      return r.next ? QVariant(ms(static_cast<double>(r.next->total_ns))) : QVariant();
    case kDeltaColumn:
      return r.base && r.next
                 ? QVariant(ms(static_cast<double>(r.next->total_ns - r.base->total_ns)))
                 : QVariant();
    case kMovedColumn:
      return r.base && r.next ? mostMoved(*r.base, *r.next) : QString();
    default:
      return {};
  }
}

QString StepPairModel::text(int row, int column) const {
  const QVariant v = value(row, column);
  if (column >= kBaseColumn && column <= kDeltaColumn && !v.isValid()) return tr("(no step)");
  if (column == kDeltaColumn) return signedMs(v.toDouble() * 1e6);
  return ComparisonTableModel::text(row, column);
}

QVariant StepPairModel::extra(int row, int /*column*/, int role) const {
  if (role == kStepRole)
    return QVariant::fromValue<qlonglong>(rows_[static_cast<size_t>(row)].step);
  return {};
}

GroupDeltaModel::GroupDeltaModel(QObject* parent)
    : ComparisonTableModel(
          {tr("Kind"), tr("Name"), tr("Change"), tr("Base\ncalls/step"), tr("New\ncalls/step"),
           tr("Base\n(ms/step)"), tr("New\n(ms/step)"), tr("Delta\n(ms/step)"), tr("|Delta|"),
           tr("Base mean\n(µs)"), tr("New mean\n(µs)")},
          kBaseCountColumn, parent) {}

const analyzer::GroupDelta& GroupDeltaModel::group(int row) const {
  const auto r = static_cast<size_t>(row);
  return isDevice(row) ? diff().device_ops[r - diff().ops.size()] : diff().ops[r];
}

QVariant GroupDeltaModel::value(int row, int column) const {
  const analyzer::GroupDelta& g = group(row);
  switch (column) {
    case kKindColumn:
      return isDevice(row) ? kindText(g.kind) : tr("CPU op");
    case kNameColumn:
      return QString::fromStdString(g.name);
    case kChangeColumn:
      return utf8(analyzer::groupChangeName(g.change)) +
             (g.by_name_only ? tr(" (by name)") : QString());
    case kBaseCountColumn:
      return g.base_count;
    case kNewCountColumn:
      return g.new_count;
    case kBaseMsColumn:
      return ms(g.base_ns);
    case kNewMsColumn:
      return ms(g.new_ns);
    case kDeltaMsColumn:
      return ms(g.delta_ns());
    case kAbsDeltaColumn:
      return ms(std::fabs(g.delta_ns()));
    case kBaseMeanColumn:
      return g.base_mean_ns / 1e3;
    case kNewMeanColumn:
      return g.new_mean_ns / 1e3;
    default:
      return {};
  }
}

int GroupDeltaModel::decimals(int column) const {
  if (column == kBaseCountColumn || column == kNewCountColumn) return 2;
  return column >= kBaseMeanColumn ? 1 : 3;
}

QString GroupDeltaModel::text(int row, int column) const {
  if (column == kDeltaMsColumn) return signedMs(group(row).delta_ns());
  return ComparisonTableModel::text(row, column);
}

QVariant GroupDeltaModel::extra(int row, int column, int role) const {
  const analyzer::GroupDelta& g = group(row);
  if (role == kNameRole) return QString::fromStdString(g.name);
  if (role == kIsDeviceRole) return isDevice(row);
  if (role == Qt::ForegroundRole && column == kDeltaMsColumn) return deltaForeground(g.delta_ns());
  if (role == Qt::ToolTipRole && column == kNameColumn) {
    QString tip = QString::fromStdString(g.name);
    if (!g.shapes.empty()) tip += tr("\nInput shapes: %1").arg(QString::fromStdString(g.shapes));
    if (g.stream >= 0) tip += tr("\nStream %1").arg(g.stream);
    return tip;
  }
  return {};
}

FindingDeltaModel::FindingDeltaModel(QObject* parent)
    : ResultTableModel(
          {tr("Change"), tr("Rule"), tr("Finding"), tr("Base size"), tr("New size"), tr("Unit")},
          kBaseSizeColumn, parent) {}

void FindingDeltaModel::setFindings(
    std::shared_ptr<const std::vector<analyzer::FindingDelta>> findings) {
  resetResult([&] { findings_ = std::move(findings); });
}

void FindingDeltaModel::setComparison(std::shared_ptr<const LoadedComparison> comparison) {
  setFindings(findingsOf(std::move(comparison)));
}

void FindingDeltaModel::setComparison(std::shared_ptr<const LoadedJobComparison> comparison) {
  setFindings(findingsOf(std::move(comparison)));
}

QVariant FindingDeltaModel::value(int row, int column) const {
  const analyzer::FindingDelta& f = (*findings_)[static_cast<size_t>(row)];
  const analyzer::FindingSize& shown = f.next.fingerprint.empty() ? f.base : f.next;
  switch (column) {
    case kChangeColumn:
      return utf8(analyzer::findingChangeName(f.change));
    case kCodeColumn:
      return QString::fromStdString(shown.code);
    case kMessageColumn:
      return QString::fromStdString(shown.message);
    case kBaseSizeColumn:
      return f.base.magnitude;
    case kNewSizeColumn:
      return f.next.magnitude;
    case kUnitColumn:
      return QString::fromStdString(shown.unit);
    default:
      return {};
  }
}

QString FindingDeltaModel::text(int row, int column) const {
  const analyzer::FindingDelta& f = (*findings_)[static_cast<size_t>(row)];
  if (column == kBaseSizeColumn) return sizeText(f.base);
  if (column == kNewSizeColumn) return sizeText(f.next);
  return ResultTableModel::text(row, column);
}

}  // namespace steplint::gui
