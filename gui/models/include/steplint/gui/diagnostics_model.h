// The advice panel's lists: the rules engine's findings (DiagnosticsModel) and the rules that
// could not decide on this trace (NotCheckedModel). Both take the whole LoadedTrace, or a
// job's lists (the job window), kept alive by the shared pointer to their owner.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "steplint/gui/loaded_trace.h"
#include "steplint/gui/selection_and_zoom.h"  // TimeRange and its metatype

namespace steplint::gui {

class DiagnosticsModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kSeverityColumn,
    kCodeColumn,
    kMessageColumn,
    kSavingMsColumn,
    kSavingStepColumn,
    kColumnCount
  };
  enum Role {
    kEvidenceRole = Qt::UserRole,  // TimeRange: evidenceExtent() of the finding ({0,0}: none)
    kDiagnosticIndexRole,          // int: index into LintResult::diagnostics
    kCodeRole,                     // QString: "SL101"
    kSortRole,                     // number: severity rank, saving; text columns sort as text
  };

  explicit DiagnosticsModel(QObject* parent = nullptr);
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  /// Any list of findings (a job's); `extents` per finding, or empty when they have no time.
  void setFindings(std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings,
                   std::vector<TimeRange> extents = {});

  /// The row of the first finding with `code`, -1 when none.
  int firstRowWithCode(const QString& code) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant display(const analyzer::Diagnostic& d, int column) const;
  QVariant sortKey(const analyzer::Diagnostic& d, int column) const;

  std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings_;
  std::vector<TimeRange> extents_;  // per finding, computed once in setTrace; empty: none
};

class NotCheckedModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kCodeColumn, kNameColumn, kReasonColumn, kColumnCount };
  enum Role { kCodeRole = Qt::UserRole };

  explicit NotCheckedModel(QObject* parent = nullptr);
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  void setNotChecked(std::shared_ptr<const std::vector<analyzer::NotChecked>> rules);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const std::vector<analyzer::NotChecked>> rules_;
};

}  // namespace steplint::gui
