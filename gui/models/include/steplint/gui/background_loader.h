// The base of the GUI's loaders (a trace, a job, a comparison): the work runs on a worker
// thread (BackgroundTask) and reports through signals carrying value types, which Qt queues
// onto the receivers' thread, so a view never sees a half-built result (docs/reference/style.md
// §2.12). Each loader adds its own `loaded(result)` signal and `load(...)`.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "steplint/gui/background_task.h"

namespace steplint::gui {

class BackgroundLoader : public QObject {
  Q_OBJECT

 public:
  void cancel() { task_.cancel(); }
  bool busy() const { return task_.busy(); }

 signals:
  void started();                       // on the caller's thread, before the work
  void progress(double fraction);       // 0..1
  void finished();                      // before loaded, failed or cancelled
  void failed(const QString& message);  // not emitted for a cancel
  void cancelled();

 protected:
  explicit BackgroundLoader(QObject* parent) : QObject(parent) {}

  /// Runs `work(cancel, error)` on the worker thread (a running load is cancelled first). A
  /// non-null result goes to `deliver` (which emits the subclass's loaded signal); null means
  /// cancelled or failed with `error`. Call from the loader's own thread.
  template <class Work, class Deliver>
  void run(Work work, Deliver deliver) {
    const uint64_t load = ++loads_;
    emit started();
    task_.start([this, load, work = std::move(work),
                 deliver = std::move(deliver)](const std::atomic<bool>& cancel) {
      std::string error;
      auto result = work(cancel, error);
      const bool was_cancelled = cancel.load();
      // Reported from the loader's thread, where a newer load() may have replaced this one: its
      // late "finished" must not hide the newer load's progress.
      QMetaObject::invokeMethod(
          this,
          [this, load, result, error, deliver, was_cancelled]() {
            if (load != loads_) return;
            emit finished();
            if (result)
              deliver(result);
            else if (was_cancelled)
              emit cancelled();
            else
              emit failed(QString::fromStdString(error));
          },
          Qt::QueuedConnection);
    });
  }

  /// What the pipelines take as their progress callback: emits progress().
  std::function<void(double)> progressReporter() {
    return [this](double fraction) { emit progress(fraction); };
  }

 private:
  uint64_t loads_ = 0;   // loads started; only the latest one reports
  BackgroundTask task_;  // last member: destroyed (cancelled, joined) first
};

}  // namespace steplint::gui
