// Two traces' timelines one above the other with their steps aligned: step N of the lower
// trace under step N of the upper one, at the same scale, and every zoom or pan of either
// followed by the other (step_alignment.h). The comparison window shows BASE above NEW; the
// ranks view a late rank above a rank that waited for it. Each timeline has its own
// SelectionAndZoom, so selecting an event in one does not select a stranger in the other.
#pragma once

#include <QWidget>
#include <memory>

#include "steplint/gui/loaded_trace.h"
#include "steplint/gui/step_alignment.h"

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace steplint::gui {

class SelectionAndZoom;
class TimelineWidget;

class AlignedTimelines final : public QWidget {
  Q_OBJECT

 public:
  explicit AlignedTimelines(QWidget* parent = nullptr);

  /// Shows both traces (titles are plain text), the whole upper trace and its aligned part of
  /// the lower one. Either null shows the placeholder instead.
  void setTraces(std::shared_ptr<const LoadedTrace> upper, const QString& upper_title,
                 std::shared_ptr<const LoadedTrace> lower, const QString& lower_title);
  /// Shown instead of the timelines ("Loading…", "Select a late step…"); clears the traces.
  void showMessage(const QString& text);
  /// Zooms both to step `number`, each whole and start-aligned; false when the upper trace
  /// has no such step.
  bool showStep(int64_t number);

  const LoadedTrace* upperTrace() const { return upper_trace_.get(); }
  const LoadedTrace* lowerTrace() const { return lower_trace_.get(); }
  QString upperTitle() const;
  QString lowerTitle() const;
  TimelineWidget* upperTimeline() const { return upper_; }
  TimelineWidget* lowerTimeline() const { return lower_; }
  SelectionAndZoom* upperSelection() const { return upper_selection_; }
  SelectionAndZoom* lowerSelection() const { return lower_selection_; }
  QComboBox* stepBox() const { return step_box_; }

 private:
  QWidget* buildTimelines();
  void follow(SelectionAndZoom* leader, SelectionAndZoom* follower, bool leader_is_upper);
  AlignedSide side(bool upper) const;
  void fillStepBox();

  SelectionAndZoom* upper_selection_;
  SelectionAndZoom* lower_selection_;
  std::shared_ptr<const LoadedTrace> upper_trace_;
  std::shared_ptr<const LoadedTrace> lower_trace_;
  QStackedWidget* stack_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* upper_title_ = nullptr;
  QLabel* lower_title_ = nullptr;
  TimelineWidget* upper_ = nullptr;
  TimelineWidget* lower_ = nullptr;
  QComboBox* step_box_ = nullptr;
  bool following_ = false;  // a follower's change must not be followed back
};

}  // namespace steplint::gui
