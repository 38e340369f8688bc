// The status bar's load indicator shared by the trace, job and comparison windows: a progress
// bar and a Cancel button, visible only while one of the loaders it tracks is loading.
#pragma once

#include <QObject>

class QProgressBar;
class QPushButton;
class QStatusBar;

namespace steplint::gui {

class BackgroundLoader;

class LoadProgress final : public QObject {
  Q_OBJECT

 public:
  /// Adds the bar and the button to `bar` (permanent widgets, right-hand side), hidden.
  explicit LoadProgress(QStatusBar* bar);

  /// Shows `loader`'s loads: the bar from started() to finished(), Cancel cancels it.
  void track(BackgroundLoader* loader);
  QPushButton* cancelButton() const { return cancel_; }

 private:
  void setLoading(bool loading);

  QStatusBar* bar_;
  QProgressBar* progress_;
  QPushButton* cancel_;
};

}  // namespace steplint::gui
