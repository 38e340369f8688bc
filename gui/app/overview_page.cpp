#include "overview_page.h"

#include <QLabel>
#include <QVBoxLayout>

#include "breakdown_chart.h"
#include "stats_table.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/gui/attribution_models.h"
#include "steplint/gui/format.h"
#include "steplint/gui/stats_models.h"
#include "steplint/gui/summary_models.h"

namespace steplint::gui {
namespace {

QString stepSourceText(const analyzer::StepResult& steps) {
  switch (steps.source) {
    case analyzer::StepSource::kProfilerStep:
      return QObject::tr("ProfilerStep ranges");
    case analyzer::StepSource::kDetected:
      return QObject::tr("detected from the loop's period");
    case analyzer::StepSource::kWholeTrace:
      return QObject::tr("no steps: the whole trace as one step");
    case analyzer::StepSource::kNone:
      break;
  }
  return QObject::tr("none");
}

/// One line above the chart: how many steps, where they came from, the average step time.
QString headerText(const LoadedTrace& t) {
  const auto& steps = t.summary.steps;
  QString text = QObject::tr("<b>%1 steps</b> (%2), average %3")
                     .arg(steps.steps.size())
                     .arg(stepSourceText(steps))
                     .arg(QString::fromStdString(formatDurationNs(
                         static_cast<int64_t>(t.summary.breakdown.average_total_ns))));
  if (steps.dropped_warmup_steps > 0)
    text += QObject::tr("; %1 warm-up step(s) dropped").arg(steps.dropped_warmup_steps);
  if (steps.dropped_tail_steps > 0)
    text += QObject::tr("; %1 incomplete tail step(s) dropped").arg(steps.dropped_tail_steps);
  for (const std::string& note : steps.notes)
    text += "<br>" + QString::fromStdString(note).toHtmlEscaped();
  return text;
}

/// The profiler's cost per step and CUPTI's overhead records, in summary's words
/// (analyzer::profilerCostLines); empty when the trace has neither.
QString profilerText(const LoadedTrace& t) {
  const auto& s = t.summary;
  const std::vector<std::string> lines =
      analyzer::profilerCostLines(s.profiler, s.attribution.average_total_ns, s.steps.steps.size());
  if (lines.empty()) return {};
  QString text = QObject::tr("<b>Profiler overhead</b>");
  for (const std::string& line : lines)
    text += "<br>" + QString::fromStdString(line).toHtmlEscaped();
  return text;
}

}  // namespace

OverviewPage::OverviewPage(QWidget* parent)
    : QScrollArea(parent),
      step_model_(new StepBreakdownModel(this)),
      gpu_model_(new GpuSummaryModel(this)),
      idle_model_(new IdleModel(this)),
      attribution_model_(new AttributionModel(this)),
      temporal_model_(new TemporalModel(this)),
      op_model_(new OpStatsModel(this)),
      kernel_model_(new KernelStatsModel(this)) {
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
  setWidget(buildContent());
  connectActivation();
}

void OverviewPage::connectActivation() {
  connect(steps_, &StatsTable::rowActivated, this, [this](int row) {
    const qlonglong number =
        step_model_->index(row, 0).data(StepBreakdownModel::kStepRole).toLongLong();
    if (!trace_ || number < 0) return;  // the "Average" row has no place on the timeline
    for (const analyzer::Step& s : trace_->summary.steps.steps) {
      if (s.number == number) emit stepActivated(s.start_ns, s.end_ns);
    }
  });
  const auto by_name = [this](QAbstractItemModel* model) {
    return [this, model](int row) { emit nameActivated(model->index(row, 0).data().toString()); };
  };
  connect(ops_, &StatsTable::rowActivated, this, by_name(op_model_));
  connect(kernels_, &StatsTable::rowActivated, this, by_name(kernel_model_));
}

QWidget* OverviewPage::buildContent() {
  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  header_ = new QLabel(tr("No trace loaded"), content);
  header_->setWordWrap(true);
  profiler_ = new QLabel(content);
  profiler_->setWordWrap(true);
  profiler_->setTextFormat(Qt::RichText);
  profiler_->hide();
  chart_ = new BreakdownChart(content);
  chart_->setMinimumHeight(220);
  steps_ = new StatsTable(tr("Step time breakdown (ms)"), step_model_, false, content);
  steps_->setEmptyText(tr("No steps found"));
  gpus_ = new StatsTable(tr("GPU summary"), gpu_model_, false, content);
  gpus_->setEmptyText(tr("No GPU activity in this trace"));
  gpus_->setStretchColumn(GpuSummaryModel::kNameColumn);
  gpus_->setSortingEnabled(
      false);  // a row per GPU, in device order; its two-line headers stay narrow
  idle_ = new StatsTable(
      tr("GPU idle time per stream (ms), over the analysed steps and over HTA's window"),
      idle_model_, false, content);
  idle_->setEmptyText(tr("No GPU activity in this trace"));
  attribution_ = new StatsTable(
      tr("Why the step takes its time: each timeline's average step split by cause (ms)"),
      attribution_model_, false, content);
  attribution_->setEmptyText(tr("No steps found"));
  attribution_->setSortingEnabled(false);  // host causes, then each device's, in priority order
  attribution_->setStretchColumn(AttributionModel::kCauseColumn);
  temporal_ = new StatsTable(tr("HTA temporal breakdown per GPU, over HTA's window (ms)"),
                             temporal_model_, false, content);
  temporal_->setEmptyText(tr("No GPU activity in this trace"));
  ops_ = new StatsTable(tr("Top CPU ops"), op_model_, true, content);
  ops_->setEmptyText(tr("No CPU ops in this trace"));
  kernels_ = new StatsTable(tr("Kernels"), kernel_model_, true, content);
  kernels_->setEmptyText(tr("No kernels in this trace"));
  // The small tables are as tall as their rows (a few GPUs, streams or steps); the long op and
  // kernel lists scroll inside their table.
  steps_->setMaxVisibleRows(12);
  gpus_->setMaxVisibleRows(4);
  idle_->setMaxVisibleRows(8);
  attribution_->setMaxVisibleRows(16);
  temporal_->setMaxVisibleRows(4);
  for (StatsTable* big : {ops_, kernels_}) big->setMinimumHeight(280);
  // One column, every table at the page's full width: beside the advice dock a 1600-pixel
  // window leaves the page about 900 pixels, too narrow for two tables side by side without
  // cutting columns off; the page scrolls vertically instead.
  for (QWidget* w :
       std::initializer_list<QWidget*>{header_, profiler_, chart_, steps_, attribution_, gpus_,
                                       idle_, temporal_, ops_, kernels_})
    layout->addWidget(w);
  layout->addStretch(1);
  return content;
}

void OverviewPage::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  trace_ = trace;
  step_model_->setTrace(trace);
  gpu_model_->setTrace(trace);
  idle_model_->setTrace(trace);
  attribution_model_->setTrace(trace);
  temporal_model_->setTrace(trace);
  op_model_->setTrace(trace);
  kernel_model_->setTrace(trace);
  chart_->setBreakdown(trace ? trace->summary.breakdown : analyzer::BreakdownResult{});
  header_->setText(trace ? headerText(*trace) : tr("No trace loaded"));
  const QString profiler = trace ? profilerText(*trace) : QString();
  profiler_->setText(profiler);
  profiler_->setVisible(!profiler.isEmpty());
  steps_->sortBy(StepBreakdownModel::kStepColumn, Qt::AscendingOrder);
  ops_->sortBy(OpStatsModel::kTotalColumn);
  kernels_->sortBy(KernelStatsModel::kTotalColumn);
}

}  // namespace steplint::gui
