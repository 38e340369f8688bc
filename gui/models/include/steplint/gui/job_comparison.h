// Two runs of a distributed job compared (`steplint-gui --compare BASE_DIR NEW_DIR`): each
// job loaded as the ranks view loads it (JobLoader: per-rank summaries only, no trace kept),
// then the analyzer's job diff (analyzer/job_diff.h), exactly as `steplint diff BASE_DIR NEW_DIR`
// computes it. JobComparisonLoader builds it off the GUI thread.
#pragma once

#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "steplint/analyzer/job_diff.h"
#include "steplint/gui/background_loader.h"
#include "steplint/gui/loaded_job.h"

namespace steplint::gui {

struct LoadedJobComparison {
  std::shared_ptr<const LoadedJob> base;
  std::shared_ptr<const LoadedJob> next;  // "new" is a keyword
  analyzer::JobDiff diff;                 // base->jobs[0] → next->jobs[0]
  /// What the window must say before the tables: each side's failed inputs, traces that are no
  /// rank, and other jobs among the inputs (jobNotices), prefixed "base: " / "new: ".
  std::vector<std::string> notices;
};

class JobComparisonLoader final : public BackgroundLoader {
  Q_OBJECT

 public:
  explicit JobComparisonLoader(QObject* parent = nullptr);

  /// Starts loading both jobs (folders, globs or trace lists); a running load is cancelled.
  void load(const QStringList& base, const QStringList& next);

  /// The whole pipeline on the calling thread; nullptr and `error` (saying which side) when a
  /// side has no job, or on cancel.
  static std::shared_ptr<LoadedJobComparison> loadNow(const QStringList& base,
                                                      const QStringList& next,
                                                      const std::atomic<bool>* cancel,
                                                      const std::function<void(double)>& progress,
                                                      std::string& error);

 signals:
  void loaded(std::shared_ptr<const steplint::gui::LoadedJobComparison> comparison);
};

}  // namespace steplint::gui

Q_DECLARE_METATYPE(std::shared_ptr<const steplint::gui::LoadedJobComparison>)
