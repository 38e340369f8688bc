// The details pane: everything about the selected event (SelectionAndZoom::selectedEvent):
// fields, GPU/op arguments, linked launch call / CPU op / device ops, parent chain and step.
// Links are clickable: they select that event and zoom the timeline to it.
#pragma once

#include <QWidget>
#include <memory>

#include "steplint/gui/event_details.h"
#include "steplint/gui/loaded_trace.h"

class QTextBrowser;
class QUrl;

namespace steplint::gui {

class SelectionAndZoom;

class DetailsPane final : public QWidget {
  Q_OBJECT

 public:
  explicit DetailsPane(SelectionAndZoom* selection, QWidget* parent = nullptr);
  ~DetailsPane() override;

  /// Builds the reverse link index for `trace` (once per trace).
  void setTrace(std::shared_ptr<const LoadedTrace> trace);

  QTextBrowser* browser() const { return browser_; }
  /// Follows a link as a click would ("event:<index>" or "range:<start>:<end>").
  void activateLink(const QUrl& url);

 private:
  void showDetails(uint32_t event_index);

  SelectionAndZoom* selection_;
  std::shared_ptr<const LoadedTrace> trace_;
  std::unique_ptr<EventDetailsIndex> index_;  // refers into *trace_: reset before trace_
  QTextBrowser* browser_;
};

/// The pane's HTML for `details` (links as "event:<index>"); pure, for tests.
QString detailsHtml(const EventDetails& details);

/// Selects `event_index` and zooms so the event fills about a third of the view.
void selectAndZoomToEvent(SelectionAndZoom& selection, const trace::TraceModel& model,
                          uint32_t event_index);

}  // namespace steplint::gui
