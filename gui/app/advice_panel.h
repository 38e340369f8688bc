// The advice panel: the findings (severity, message, estimated saving), the selected rule's
// doc page below them, the rules that were not checked and why, and the trace-health list
// (import warnings, config errors). Selecting a finding zooms the timeline to its evidence
// and highlights it, through SelectionAndZoom only. The ranks view shows a job's findings in
// the same panel (setJobFindings), without a SelectionAndZoom: it follows findingSelected.
#pragma once

#include <QWidget>
#include <memory>

#include "steplint/gui/loaded_trace.h"

class QListWidget;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace steplint::gui {

class DiagnosticsModel;
class NotCheckedModel;
class SelectionAndZoom;

class AdvicePanel final : public QWidget {
  Q_OBJECT

 public:
  /// `selection` may be null (a job's findings have no timeline of their own).
  explicit AdvicePanel(SelectionAndZoom* selection, QWidget* parent = nullptr);
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  /// A job's findings, not-checked rules and warnings (the third tab becomes "Warnings");
  /// `summary` is the Markdown shown while no finding is selected.
  void setJobFindings(std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings,
                      std::shared_ptr<const std::vector<analyzer::NotChecked>> not_checked,
                      const std::vector<std::string>& warnings, const QString& summary);

  /// Selects the first finding with `code` in the view (as a click would); false if none.
  bool selectFirstFinding(const QString& code);

  QTableView* findingsView() const { return findings_view_; }
  QTextBrowser* docBrowser() const { return doc_; }
  QTableView* notCheckedView() const { return not_checked_; }
  QListWidget* healthList() const { return health_; }
  QSplitter* splitter() const { return splitter_; }
  QTabWidget* tabs() const { return tabs_; }

 signals:
  /// The current finding changed: its index in the list shown (-1: none).
  void findingSelected(int index);

 private:
  void setLists(const std::vector<std::string>& warnings, const QString& health_title);
  void onCurrentRowChanged(const QModelIndex& current);
  void zoomToFinding(const QModelIndex& index);
  void showFinding(int diagnostic_index);
  void showOverviewText();

  SelectionAndZoom* selection_;
  std::shared_ptr<const LoadedTrace> trace_;                           // null for a job's findings
  std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings_;  // the trace's or the job's
  QString summary_;  // shown while no finding is selected
  DiagnosticsModel* model_;
  NotCheckedModel* not_checked_model_;
  QSortFilterProxyModel* proxy_;
  QTabWidget* tabs_;
  QSplitter* splitter_;
  QTableView* findings_view_;
  QTextBrowser* doc_;
  QTableView* not_checked_;
  QListWidget* health_;
};

/// The Markdown shown for one finding: its message, saving, evidence steps and fix hints,
/// then the rule's doc page (what it does, why it matters, how to fix).
QString findingMarkdown(const analyzer::Diagnostic& diagnostic);

/// "**Fixing all findings:** ~9.1 ms/step (38% of the 24.0 ms step) ...", or "" without time
/// savings (docs/savings.md); `left_out` (analyzer::findingsLeftOutOfSavings) are named as not
/// included.
QString savingAllMarkdown(const analyzer::SavingsTotal& total,
                          const std::vector<std::string>& left_out = {});

}  // namespace steplint::gui
