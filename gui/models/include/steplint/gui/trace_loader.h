// Opens a trace off the GUI thread: import (with progress and cancel), then the analyses
// and the rules, exactly as `steplint check` runs them. Reports through queued signals
// carrying value types, so receivers never see a half-built trace (docs/reference/style.md §2.12).
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

class TraceLoader final : public QObject {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);
  ~TraceLoader() override;  // cancels and joins a running load

  /// Starts loading `path`; a load already running is cancelled first.
  void load(const QString& path);
  void cancel();
  bool busy() const { return busy_.load(); }

  /// The whole pipeline on the calling thread (what the worker runs; tests and the
  /// benchmark call it directly). Returns nullptr and sets `error` on failure or cancel.
  static std::shared_ptr<LoadedTrace> loadNow(const std::string& path, const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress, std::string& error);

 signals:
  void progress(double fraction);  // 0..1; analysis is the last 10 %
  void loaded(std::shared_ptr<const steplint::gui::LoadedTrace> trace);
  void failed(const QString& message);  // not emitted for a cancel
  void cancelled();

 private:
  void join();

  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> busy_{false};
};

}  // namespace steplint::gui

Q_DECLARE_METATYPE(std::shared_ptr<const steplint::gui::LoadedTrace>)
