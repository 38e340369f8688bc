#include "screenshot.h"

#include <QApplication>
#include <QTabWidget>

#include "advice_panel.h"
#include "main_window.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/trace_loader.h"

namespace steplint::gui {

QImage renderMainWindow(std::shared_ptr<const LoadedTrace> trace, const ScreenshotOptions& options,
                        bool* finding_found) {
  MainWindow window;
  window.resize(options.size);
  window.setTrace(trace);
  window.show();
  QApplication::processEvents();  // lay out docks and tables at the final size before selecting
  bool found = false;
  if (!options.finding.isEmpty()) found = window.advicePanel()->selectFirstFinding(options.finding);
  const int selected = window.selection()->selectedFinding();
  if (found && trace && selected >= 0) {
    const auto& evidence = trace->lint.diagnostics[static_cast<size_t>(selected)].evidence;
    if (!evidence.events.empty()) window.selection()->selectEvent(evidence.events.front());
  }
  if (finding_found != nullptr) *finding_found = found;
  if (options.overview) window.centralTabs()->setCurrentIndex(1);
  QApplication::processEvents();
  QImage image = window.grab().toImage();
  window.hide();
  return image;
}

int runScreenshot(const ScreenshotOptions& options, QString& error) {
  std::string message;
  auto trace = TraceLoader::loadNow(options.trace.toStdString(), nullptr, {}, message);
  if (!trace) {
    error = QString::fromStdString(message);
    return 2;
  }
  bool found = false;
  const QImage image = renderMainWindow(std::move(trace), options, &found);
  if (!options.finding.isEmpty() && !found) {
    qWarning("steplint-gui: no finding %s in this trace; screenshot taken without a selection",
             qPrintable(options.finding));
  }
  if (image.isNull() || !image.save(options.output)) {
    error = QStringLiteral("%1: cannot write the screenshot").arg(options.output);
    return 2;
  }
  return 0;
}

bool parseSize(const QString& text, QSize& out) {
  const QStringList parts = text.toLower().split(QLatin1Char('x'));
  if (parts.size() != 2) return false;
  bool ok_w = false;
  bool ok_h = false;
  const int w = parts[0].toInt(&ok_w);
  const int h = parts[1].toInt(&ok_h);
  if (!ok_w || !ok_h || w < 200 || h < 200 || w > 10000 || h > 10000) return false;
  out = QSize(w, h);
  return true;
}

}  // namespace steplint::gui
