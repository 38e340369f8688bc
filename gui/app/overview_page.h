// The "Overview" tab: what recording cost, step-time breakdown (chart + table), the step
// attribution, GPU summary, idle time per stream, HTA's temporal breakdown, and the top CPU ops
// and kernels, each table sortable and the big ones filterable.
#pragma once

#include <QScrollArea>
#include <memory>

#include "steplint/gui/loaded_trace.h"

class QLabel;

namespace steplint::gui {

class AttributionModel;
class BreakdownChart;
class GpuSummaryModel;
class IdleModel;
class KernelStatsModel;
class OpStatsModel;
class StatsTable;
class StepBreakdownModel;
class TemporalModel;

class OverviewPage final : public QScrollArea {
  Q_OBJECT

 public:
  explicit OverviewPage(QWidget* parent = nullptr);
  void setTrace(std::shared_ptr<const LoadedTrace> trace);

  BreakdownChart* chart() const { return chart_; }
  /// What the recording cost (summary's "Profiler overhead"); hidden when the trace says nothing.
  QLabel* profilerLabel() const { return profiler_; }
  StatsTable* stepTable() const { return steps_; }
  StatsTable* gpuTable() const { return gpus_; }
  StatsTable* idleTable() const { return idle_; }
  StatsTable* attributionTable() const { return attribution_; }
  StatsTable* temporalTable() const { return temporal_; }
  StatsTable* opTable() const { return ops_; }
  StatsTable* kernelTable() const { return kernels_; }

 signals:
  /// A step row was activated: show that step on the timeline.
  void stepActivated(qint64 start_ns, qint64 end_ns);
  /// An op or kernel row was activated: find its events on the timeline.
  void nameActivated(const QString& name);

 private:
  QWidget* buildContent();
  void connectActivation();

  StepBreakdownModel* step_model_;
  GpuSummaryModel* gpu_model_;
  IdleModel* idle_model_;
  AttributionModel* attribution_model_;
  TemporalModel* temporal_model_;
  OpStatsModel* op_model_;
  KernelStatsModel* kernel_model_;
  std::shared_ptr<const LoadedTrace> trace_;
  QLabel* header_ = nullptr;
  QLabel* profiler_ = nullptr;
  BreakdownChart* chart_ = nullptr;
  StatsTable* steps_ = nullptr;
  StatsTable* gpus_ = nullptr;
  StatsTable* idle_ = nullptr;
  StatsTable* attribution_ = nullptr;
  StatsTable* temporal_ = nullptr;
  StatsTable* ops_ = nullptr;
  StatsTable* kernels_ = nullptr;
};

}  // namespace steplint::gui
