// Opens a trace off the GUI thread: import (with progress and cancel), then the analyses
// and the rules, exactly as `steplint check` runs them. Reports through queued signals
// carrying value types, so receivers never see a half-built trace (docs/reference/style.md §2.12).
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "steplint/gui/background_loader.h"
#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

class TraceLoader final : public BackgroundLoader {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);

  /// Starts loading `path`; a load already running is cancelled first.
  void load(const QString& path);

  /// The whole pipeline on the calling thread (what the worker runs; tests and the
  /// benchmark call it directly). Returns nullptr and sets `error` on failure or cancel.
  static std::shared_ptr<LoadedTrace> loadNow(const std::string& path,
                                              const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress,
                                              std::string& error);
  /// loadNow with the rules configured as `steplint check` would; `lint` false skips them
  /// (the job and comparison views load traces only to show their timelines and ops).
  static std::shared_ptr<LoadedTrace> loadNow(const std::string& path,
                                              const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress,
                                              bool lint, std::string& error);

 signals:
  void loaded(std::shared_ptr<const steplint::gui::LoadedTrace>
                  trace);  // progress: analysis is the last 10 %
};

}  // namespace steplint::gui

Q_DECLARE_METATYPE(std::shared_ptr<const steplint::gui::LoadedTrace>)
