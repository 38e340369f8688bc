// Opens a job off the GUI thread: each trace imported, reduced to its RankSummary and freed
// before the next (peak memory: one trace), then grouped into jobs, analysed and linted with
// the job rules, as `steplint check DIR` does.
#pragma once

#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>

#include "steplint/gui/background_loader.h"
#include "steplint/gui/loaded_job.h"

namespace steplint::gui {

class JobLoader final : public BackgroundLoader {
  Q_OBJECT

 public:
  explicit JobLoader(QObject* parent = nullptr);

  /// Starts loading the job named by `paths` (folders, globs, files); a running load is cancelled.
  void load(const QStringList& paths);

  /// The whole pipeline on the calling thread. Returns nullptr and sets `error` when no input
  /// gave a rank, or on cancel; inputs that fail beside others are listed in LoadedJob::problems.
  static std::shared_ptr<LoadedJob> loadNow(const QStringList& paths,
                                            const std::atomic<bool>* cancel,
                                            const std::function<void(double)>& progress,
                                            std::string& error);

 signals:
  void loaded(std::shared_ptr<const steplint::gui::LoadedJob> job);
};

}  // namespace steplint::gui

Q_DECLARE_METATYPE(std::shared_ptr<const steplint::gui::LoadedJob>)
