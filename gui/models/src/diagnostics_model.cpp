#include "steplint/gui/diagnostics_model.h"

#include <QColor>

#include "steplint/gui/format.h"
#include "steplint/gui/rich_text.h"
#include "steplint/gui/selection_and_zoom.h"

namespace steplint::gui {
namespace {

int severityRank(analyzer::Severity s) { return static_cast<int>(s); }  // note 0 < warning < error

QColor severityColor(analyzer::Severity s) {
  switch (s) {
    case analyzer::Severity::kError:
      return QColor(0xc6, 0x28, 0x28);
    case analyzer::Severity::kWarning:
      return QColor(0xef, 0x8a, 0x00);
    case analyzer::Severity::kNote:
      break;
  }
  return QColor(0x1e, 0x6f, 0xc8);
}

QString savingMs(const analyzer::SavingEstimate& s) {
  return s.known() ? QString::number(s.per_step_ms, 'f', 2) : QStringLiteral("?");
}

QString savingFraction(const analyzer::SavingEstimate& s) {
  return s.fraction_of_step >= 0 ? QString::fromStdString(formatFraction(s.fraction_of_step))
                                 : QStringLiteral("?");
}

}  // namespace

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  if (!trace) {
    setFindings(nullptr);
    return;
  }
  std::vector<TimeRange> extents;
  for (const auto& d : trace->lint.diagnostics)
    extents.push_back(evidenceExtent(d.evidence, trace->model));
  // Aliasing: the list lives inside the trace, which the pointer keeps alive.
  setFindings({trace, &trace->lint.diagnostics}, std::move(extents));
}

void DiagnosticsModel::setFindings(
    std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings,
    std::vector<TimeRange> extents) {
  beginResetModel();
  findings_ = std::move(findings);
  extents_ = std::move(extents);
  endResetModel();
}

int DiagnosticsModel::firstRowWithCode(const QString& code) const {
  if (!findings_) return -1;
  const std::string wanted = code.toStdString();
  const auto& all = *findings_;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].code == wanted) return static_cast<int>(i);
  }
  return -1;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !findings_) return 0;
  return static_cast<int>(findings_->size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !findings_) return {};
  const auto row = static_cast<size_t>(index.row());
  const analyzer::Diagnostic& d = (*findings_)[row];
  switch (role) {
    case Qt::DisplayRole:
      return display(d, index.column());
    case Qt::ToolTipRole:
      return tooltipLiteral(QString::fromStdString(
          d.message + (d.saving.method.empty() ? "" : "\nSaving: " + d.saving.method)));
    case Qt::ForegroundRole:
      return index.column() == kSeverityColumn ? QVariant(severityColor(d.severity)) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() >= kSavingMsColumn
                 ? QVariant(static_cast<int>(Qt::AlignRight | Qt::AlignVCenter))
                 : QVariant();
    case kEvidenceRole:
      return QVariant::fromValue(row < extents_.size() ? extents_[row] : TimeRange{0, 0});
    case kDiagnosticIndexRole:
      return index.row();
    case kCodeRole:
      return QString::fromStdString(d.code);
    case kSortRole:
      return sortKey(d, index.column());
    default:
      return {};
  }
}

QVariant DiagnosticsModel::display(const analyzer::Diagnostic& d, int column) const {
  switch (column) {
    case kSeverityColumn:
      return QString::fromUtf8(analyzer::severityName(d.severity).data());
    case kCodeColumn:
      return QString::fromStdString(d.code);
    case kMessageColumn:
      return QString::fromStdString(d.message);
    case kSavingMsColumn:
      return savingMs(d.saving);
    case kSavingStepColumn:
      return savingFraction(d.saving);
    default:
      return {};
  }
}

QVariant DiagnosticsModel::sortKey(const analyzer::Diagnostic& d, int column) const {
  switch (column) {
    case kSeverityColumn:
      return severityRank(d.severity);
    case kSavingMsColumn:
      return d.saving.per_step_ms;
    case kSavingStepColumn:
      return d.saving.fraction_of_step;
    default:
      return display(d, column);
  }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kSeverityColumn:
      return tr("Severity");
    case kCodeColumn:
      return tr("Rule");
    case kMessageColumn:
      return tr("Finding");
    case kSavingMsColumn:
      return tr("Saving (ms/step)");
    case kSavingStepColumn:
      return tr("% of step");
    default:
      return {};
  }
}

NotCheckedModel::NotCheckedModel(QObject* parent) : QAbstractTableModel(parent) {}

void NotCheckedModel::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  setNotChecked(trace ? std::shared_ptr<const std::vector<analyzer::NotChecked>>(
                            trace, &trace->lint.not_checked)
                      : nullptr);
}

void NotCheckedModel::setNotChecked(
    std::shared_ptr<const std::vector<analyzer::NotChecked>> rules) {
  beginResetModel();
  rules_ = std::move(rules);
  endResetModel();
}

int NotCheckedModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !rules_) return 0;
  return static_cast<int>(rules_->size());
}

int NotCheckedModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant NotCheckedModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !rules_) return {};
  const analyzer::NotChecked& n = (*rules_)[static_cast<size_t>(index.row())];
  if (role == kCodeRole) return QString::fromStdString(n.code);
  if (role == Qt::ToolTipRole) return tooltipLiteral(data(index, Qt::DisplayRole).toString());
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kCodeColumn:
      return QString::fromStdString(n.code);
    case kNameColumn:
      return QString::fromStdString(n.name);
    case kReasonColumn:
      return QString::fromStdString(n.reason);
    default:
      return {};
  }
}

QVariant NotCheckedModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kCodeColumn:
      return tr("Rule");
    case kNameColumn:
      return tr("Name");
    case kReasonColumn:
      return tr("Why not checked");
    default:
      return {};
  }
}

}  // namespace steplint::gui
