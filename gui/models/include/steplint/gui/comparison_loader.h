// Opens two traces off the GUI thread, one after the other, and diffs them (analyzer
// run_diff.h). The comparison window uses it for BASE and NEW; the ranks view for a late
// rank's trace and a waiting rank's (without the rules: only their timelines are shown).
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "steplint/gui/background_loader.h"
#include "steplint/gui/loaded_comparison.h"

namespace steplint::gui {

class ComparisonLoader final : public BackgroundLoader {
  Q_OBJECT

 public:
  explicit ComparisonLoader(QObject* parent = nullptr);

  /// Starts loading; a running load is cancelled first. `lint`: run the rules on both, so
  /// the diff compares their findings.
  void load(const QString& base, const QString& next, bool lint = true);

  /// The whole pipeline on the calling thread; nullptr and `error` (naming the file) on failure.
  static std::shared_ptr<LoadedComparison> loadNow(const std::string& base, const std::string& next,
                                                   bool lint, const std::atomic<bool>* cancel,
                                                   const std::function<void(double)>& progress,
                                                   std::string& error);

 signals:
  void loaded(std::shared_ptr<const steplint::gui::LoadedComparison> comparison);
};

}  // namespace steplint::gui

Q_DECLARE_METATYPE(std::shared_ptr<const steplint::gui::LoadedComparison>)
