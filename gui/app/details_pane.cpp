#include "details_pane.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "steplint/gui/format.h"
#include "steplint/gui/selection_and_zoom.h"

namespace steplint::gui {
namespace {

QString esc(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString linkRow(const DetailLink& link) {
  return QStringLiteral("<tr><td>%1</td><td><a href=\"event:%2\">%3</a></td></tr>")
      .arg(esc(link.relation))
      .arg(link.event)
      .arg(esc(link.label.empty() ? "(unnamed)" : link.label));
}

QString section(const QString& title) {
  return QStringLiteral("<tr><td colspan=\"2\"><br><b>%1</b></td></tr>").arg(title);
}

}  // namespace

QString detailsHtml(const EventDetails& d) {
  if (d.title.empty())
    return QObject::tr("<i>Click an event in the timeline to see its details.</i>");
  QString html = QStringLiteral("<h3>%1</h3><table cellspacing=\"2\">").arg(esc(d.title));
  for (const DetailRow& row : d.rows) {
    html += QStringLiteral("<tr><td><i>%1</i>&nbsp;&nbsp;</td><td>%2</td></tr>")
                .arg(esc(row.key), esc(row.value));
  }
  if (d.in_step) {
    html +=
        QStringLiteral("<tr><td><i>Step</i></td><td><a href=\"range:%1:%2\">#%3</a> (%4)</td></tr>")
            .arg(d.step_start_ns)
            .arg(d.step_end_ns)
            .arg(d.step_number)
            .arg(QString::fromStdString(formatDurationNs(d.step_end_ns - d.step_start_ns)));
  } else {
    html += QObject::tr("<tr><td><i>Step</i></td><td>outside every step</td></tr>");
  }
  if (!d.links.empty()) {
    html += section(QObject::tr("Linked events"));
    for (const DetailLink& link : d.links) html += linkRow(link);
    if (d.links_not_shown > 0)
      html += QObject::tr("<tr><td></td><td>… and %1 more</td></tr>").arg(d.links_not_shown);
  }
  if (!d.parents.empty()) {
    html += section(QObject::tr("Parents (innermost first)"));
    for (const DetailLink& link : d.parents) html += linkRow(link);
  }
  return html + QStringLiteral("</table>");
}

void selectAndZoomToEvent(SelectionAndZoom& selection, const trace::TraceModel& model,
                          uint32_t event_index) {
  if (event_index >= model.events.size()) return;
  const trace::Event& e = model.events[event_index];
  selection.selectEvent(event_index);
  // A margin of one event width on each side: the event plus its neighbours, as in Perfetto's "F".
  selection.zoomTo({e.start_ns, e.end_ns()}, 1.0);
}

DetailsPane::DetailsPane(SelectionAndZoom* selection, QWidget* parent)
    : QWidget(parent), selection_(selection), browser_(new QTextBrowser(this)) {
  browser_->setOpenLinks(false);  // our own schemes: handled in activateLink
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser_);
  connect(browser_, &QTextBrowser::anchorClicked, this, &DetailsPane::activateLink);
  connect(selection_, &SelectionAndZoom::selectedEventChanged, this, &DetailsPane::showDetails);
  showDetails(trace::kNoIndex);
}

DetailsPane::~DetailsPane() = default;

void DetailsPane::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  index_.reset();
  trace_ = std::move(trace);
  if (trace_) index_ = std::make_unique<EventDetailsIndex>(trace_->model, trace_->summary.steps);
  showDetails(selection_->selectedEvent());
}

void DetailsPane::activateLink(const QUrl& url) {
  if (!trace_) return;
  const QStringList parts = url.toString().split(QLatin1Char(':'));
  if (parts.size() == 2 && parts[0] == QLatin1String("event")) {
    bool ok = false;
    const uint32_t event = parts[1].toUInt(&ok);
    if (ok) selectAndZoomToEvent(*selection_, trace_->model, event);
  } else if (parts.size() == 3 && parts[0] == QLatin1String("range")) {
    selection_->zoomTo({parts[1].toLongLong(), parts[2].toLongLong()}, 0.02);
  }
}

void DetailsPane::showDetails(uint32_t event_index) {
  if (!index_) {
    browser_->setHtml(tr("<i>No trace loaded.</i>"));
    return;
  }
  browser_->setHtml(detailsHtml(index_->describe(event_index)));
}

}  // namespace steplint::gui
