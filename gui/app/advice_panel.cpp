#include "advice_panel.h"

#include <QHeaderView>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "steplint/gui/diagnostics_model.h"
#include "steplint/gui/format.h"
#include "steplint/gui/rich_text.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/rules/rule_docs.h"

namespace steplint::gui {
namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setModel(model);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setHighlightSections(false);
  return view;
}

// Rule text (messages, fix hints, saving methods) quotes code and trace names verbatim.
QString literal(const std::string& text) { return markdownLiteral(QString::fromStdString(text)); }

QString savingLine(const analyzer::SavingEstimate& s) {
  if (!s.known())
    return QObject::tr("**Estimated saving:** unknown") +
           (s.method.empty() ? QString() : " — " + literal(s.method));
  QString line = QObject::tr("**Estimated saving:** %1 ms/step").arg(s.per_step_ms, 0, 'f', 2);
  if (s.fraction_of_step >= 0)
    line += QObject::tr(" (%1 of the step)")
                .arg(QString::fromStdString(formatFraction(s.fraction_of_step)));
  if (!s.method.empty()) line += " — " + literal(s.method);
  return line;
}

}  // namespace

QString savingAllMarkdown(const analyzer::SavingsTotal& total,
                          const std::vector<std::string>& left_out) {
  if (total.per_step_ms < 0 && !total.not_estimated.empty())
    return QObject::tr("**Savings** %1.\n\n").arg(literal(total.not_estimated));
  if (total.per_step_ms < 0) return {};
  QString md =
      QObject::tr("**Fixing all findings:** ~%1 ms/step").arg(total.per_step_ms, 0, 'f', 1);
  if (total.low_ms >= 0)
    md = QObject::tr("**Fixing all findings:** ~%1–%2 ms/step")
             .arg(total.low_ms, 0, 'f', 1)
             .arg(total.per_step_ms, 0, 'f', 1);
  if (total.fraction_of_step >= 0)
    md += QObject::tr(" (%1 of the %2 ms step)")
              .arg(QString::fromStdString(formatFraction(total.fraction_of_step)))
              .arg(total.step_ms, 0, 'f', 1);
  if (total.profiler_overhead_ms >= 0.05)
    md += QObject::tr(", after taking out the profiler's ~%1 ms/step")
              .arg(total.profiler_overhead_ms, 0, 'f', 1);
  if (!left_out.empty()) {
    QStringList codes;
    for (const std::string& code : left_out) codes << QString::fromStdString(code);
    md += QObject::tr("; %1 not estimated, not included").arg(codes.join(QStringLiteral(", ")));
  }
  if (total.whole_trace_step)
    md += QObject::tr(
        "; no iterations were found, so the step is the whole trace and each ms/step is for all "
        "of it");
  return md +
         QObject::tr(
             ". Each finding's saving is its own share of this: they add up to it and never count "
             "a millisecond twice.\n\n");
}

QString findingMarkdown(const analyzer::Diagnostic& d) {
  QString md = QStringLiteral("### %1 %2 (%3)\n\n%4\n\n%5\n\n")
                   .arg(literal(d.code), literal(d.name),
                        QString::fromUtf8(analyzer::severityName(d.severity).data()),
                        literal(d.message), savingLine(d.saving));
  if (!d.evidence.steps.empty()) {
    QStringList steps;
    for (int64_t s : d.evidence.steps) steps << QString::number(s);
    md += QObject::tr("**Steps:** %1\n\n").arg(steps.join(QStringLiteral(", ")));
  }
  for (const std::string& hint : d.fix) md += "- " + literal(hint) + "\n";
  md += "\n---\n\n";
  if (const rules::RuleDoc* doc = rules::findRuleDoc(d.code)) {
    md += QString::fromUtf8(doc->text.data(), static_cast<qsizetype>(doc->text.size()));
  } else {
    md += QObject::tr("No documentation page for %1.").arg(QString::fromStdString(d.code));
  }
  return md;
}

AdvicePanel::AdvicePanel(SelectionAndZoom* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new DiagnosticsModel(this)),
      not_checked_model_(new NotCheckedModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      tabs_(new QTabWidget(this)),
      splitter_(new QSplitter(Qt::Vertical, this)),
      doc_(new QTextBrowser(this)),
      health_(new QListWidget(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(DiagnosticsModel::kSortRole);
  findings_view_ = makeTable(proxy_, this);
  findings_view_->setSortingEnabled(true);
  findings_view_->sortByColumn(
      -1, Qt::AscendingOrder);  // the engine's order (severity, code, step) first
  findings_view_->horizontalHeader()->setSectionResizeMode(DiagnosticsModel::kMessageColumn,
                                                           QHeaderView::Stretch);
  not_checked_ = makeTable(not_checked_model_, this);
  not_checked_->horizontalHeader()->setStretchLastSection(true);
  doc_->setOpenExternalLinks(true);
  splitter_->addWidget(findings_view_);
  splitter_->addWidget(doc_);
  splitter_->setStretchFactor(0, 2);
  splitter_->setStretchFactor(1, 3);
  tabs_->addTab(splitter_, tr("Findings"));
  tabs_->addTab(not_checked_, tr("Not checked"));
  tabs_->addTab(health_, tr("Trace health"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
  connect(findings_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { onCurrentRowChanged(current); });
  // Clicking the selected finding again zooms back to it after the user panned away.
  connect(findings_view_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (index.row() == findings_view_->currentIndex().row()) zoomToFinding(index);
  });
  setTrace(nullptr);
}

void AdvicePanel::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  trace_ = trace;
  findings_ = trace ? std::shared_ptr<const std::vector<analyzer::Diagnostic>>(
                          trace, &trace->lint.diagnostics)
                    : nullptr;
  model_->setTrace(trace);
  not_checked_model_->setTrace(trace);
  if (!trace_)
    summary_ = tr("Open a trace (File > Open, or drop a `.json` / `.json.gz` file here).");
  else if (trace_->lint.diagnostics.empty())
    summary_ = tr(
        "**No findings.** The rules that could not decide on this trace are under *Not checked*.");
  else
    summary_ = savingAllMarkdown(trace_->lint.saving_all,
                                 analyzer::findingsLeftOutOfSavings(trace_->lint)) +
               tr("Select a finding to zoom the timeline to its evidence and read how to fix it.");
  setLists(trace_ ? trace_->warnings : std::vector<std::string>{}, tr("Trace health (%1)"));
}

void AdvicePanel::setJobFindings(
    std::shared_ptr<const std::vector<analyzer::Diagnostic>> findings,
    std::shared_ptr<const std::vector<analyzer::NotChecked>> not_checked,
    const std::vector<std::string>& warnings, const QString& summary) {
  trace_ = nullptr;
  findings_ = findings;
  model_->setFindings(std::move(findings));
  not_checked_model_->setNotChecked(std::move(not_checked));
  summary_ = summary;
  setLists(warnings, tr("Warnings (%1)"));
}

void AdvicePanel::setLists(const std::vector<std::string>& warnings, const QString& health_title) {
  health_->clear();
  for (const std::string& w : warnings) health_->addItem(QString::fromStdString(w));
  if (health_->count() == 0) health_->addItem(tr("No import warnings or configuration errors."));
  tabs_->setTabText(0, tr("Findings (%1)").arg(model_->rowCount()));
  tabs_->setTabText(1, tr("Not checked (%1)").arg(not_checked_model_->rowCount()));
  tabs_->setTabText(2, health_title.arg(warnings.size()));
  findings_view_->resizeColumnsToContents();
  findings_view_->horizontalHeader()->setSectionResizeMode(DiagnosticsModel::kMessageColumn,
                                                           QHeaderView::Stretch);
  not_checked_->resizeColumnsToContents();
  showOverviewText();
}

bool AdvicePanel::selectFirstFinding(const QString& code) {
  const int row = model_->firstRowWithCode(code);
  if (row < 0) return false;
  const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
  findings_view_->selectionModel()->setCurrentIndex(
      index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  findings_view_->scrollTo(index);
  return true;
}

void AdvicePanel::onCurrentRowChanged(const QModelIndex& current) {
  if (!findings_ || !current.isValid()) {
    if (selection_ != nullptr) selection_->selectFinding(-1, nullptr);
    showOverviewText();
    emit findingSelected(-1);
    return;
  }
  const int index = current.data(DiagnosticsModel::kDiagnosticIndexRole).toInt();
  if (selection_ != nullptr && trace_) {
    selection_->selectFinding(index, &(*findings_)[static_cast<size_t>(index)].evidence);
    zoomToFinding(current);
  }
  showFinding(index);
  emit findingSelected(index);
}

void AdvicePanel::zoomToFinding(const QModelIndex& index) {
  const auto extent = index.data(DiagnosticsModel::kEvidenceRole).value<TimeRange>();
  if (selection_ != nullptr && extent.end_ns > extent.start_ns)
    selection_->zoomTo(extent);  // {0,0}: nothing to show
}

void AdvicePanel::showFinding(int diagnostic_index) {
  doc_->setMarkdown(findingMarkdown((*findings_)[static_cast<size_t>(diagnostic_index)]));
}

void AdvicePanel::showOverviewText() { doc_->setMarkdown(summary_); }

}  // namespace steplint::gui
