#include "screenshot.h"

#include <QApplication>
#include <QBuffer>
#include <QEventLoop>
#include <QFileInfo>
#include <QImageWriter>
#include <QTabWidget>
#include <QTimer>

#include "advice_panel.h"
#include "compare_window.h"
#include "job_compare_window.h"
#include "job_window.h"
#include "main_window.h"
#include "steplint/gui/comparison_loader.h"
#include "steplint/gui/job_loader.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/trace_loader.h"
#include "steplint/trace/output_file.h"

namespace steplint::gui {
namespace {

// Loading two ranks' traces for the picture must not hang a script forever.
constexpr int kPairTimeoutMs = 300'000;

QImage grabAndHide(QWidget& window) {
  QApplication::processEvents();
  QImage image = window.grab().toImage();
  window.hide();
  return image;
}

int compareTab(const QString& name) {
  if (name == QLatin1String("steps")) return CompareWindow::kStepsTab;
  if (name == QLatin1String("ops")) return CompareWindow::kOpsTab;
  if (name == QLatin1String("findings")) return CompareWindow::kFindingsTab;
  return CompareWindow::kTimelinesTab;
}

/// The picture for the command's options: a job, a comparison or one trace; null and `error`
/// when the input cannot be loaded.
QImage renderFor(const ScreenshotOptions& options, bool& found, QString& error) {
  std::string message;
  QImage image;
  if (!options.job.isEmpty() && !options.compare_with.isEmpty()) {
    auto comparison =
        JobComparisonLoader::loadNow(options.job, {options.compare_with}, nullptr, {}, message);
    if (comparison) image = renderJobCompareWindow(comparison, options);
    found = true;
  } else if (!options.job.isEmpty()) {
    if (auto job = JobLoader::loadNow(options.job, nullptr, {}, message))
      image = renderJobWindow(job, options, &found);
  } else if (!options.compare_with.isEmpty()) {
    auto comparison =
        ComparisonLoader::loadNow(options.trace.toStdString(), options.compare_with.toStdString(),
                                  true, nullptr, {}, message);
    if (comparison) image = renderCompareWindow(comparison, options);
    found = true;
  } else if (auto trace = TraceLoader::loadNow(options.trace.toStdString(), nullptr, {}, message)) {
    image = renderMainWindow(std::move(trace), options, &found);
  }
  if (!message.empty()) error = QString::fromStdString(message);
  return image;
}

}  // namespace

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
  return grabAndHide(window);
}

QImage renderJobWindow(std::shared_ptr<const LoadedJob> job, const ScreenshotOptions& options,
                       bool* finding_found) {
  JobWindow window;
  window.resize(options.size);
  window.setJob(std::move(job));
  window.show();
  QApplication::processEvents();
  bool shown = false;
  QEventLoop wait;
  QObject::connect(&window, &JobWindow::rankPairShown, &wait, [&] {
    shown = true;
    wait.quit();
  });
  const bool found =
      !options.finding.isEmpty() && window.advicePanel()->selectFirstFinding(options.finding);
  if (found && !shown) {  // the two ranks' traces load in the background
    QTimer::singleShot(kPairTimeoutMs, &wait, &QEventLoop::quit);
    wait.exec();
  }
  if (finding_found != nullptr) *finding_found = found;
  return grabAndHide(window);
}

QImage renderCompareWindow(std::shared_ptr<const LoadedComparison> comparison,
                           const ScreenshotOptions& options) {
  CompareWindow window;
  window.resize(options.size);
  window.setComparison(std::move(comparison));
  window.show();
  window.tabs()->setCurrentIndex(compareTab(options.tab));
  return grabAndHide(window);
}

QImage renderJobCompareWindow(std::shared_ptr<const LoadedJobComparison> comparison,
                              const ScreenshotOptions& options) {
  JobCompareWindow window;
  window.resize(options.size);
  window.setComparison(std::move(comparison));
  window.show();
  window.tabs()->setCurrentIndex(options.tab == QLatin1String("parts") ? JobCompareWindow::kPartsTab
                                 : options.tab == QLatin1String("findings")
                                     ? JobCompareWindow::kFindingsTab
                                     : JobCompareWindow::kRanksTab);
  return grabAndHide(window);
}

namespace {

// The image format a file name asks for: its suffix, as Qt's writers name formats.
QByteArray imageFormat(const QString& path) {
  return QFileInfo(path).suffix().toLower().toLatin1();
}

// Before anything is loaded: the picture's file is one Qt can encode by its name, and neither
// an input nor another trace (QImage::save truncated "t.json" to nothing before failing to
// encode it; output_file.h).
bool checkScreenshotPath(const ScreenshotOptions& options, QString& error) {
  const QByteArray format = imageFormat(options.output);
  if (format.isEmpty() || !QImageWriter::supportedImageFormats().contains(format)) {
    error =
        QStringLiteral("%1: not an image file name; name the screenshot .png").arg(options.output);
    return false;
  }
  std::vector<std::string> inputs;
  for (const QString& path : QStringList{options.trace, options.compare_with} + options.job)
    if (!path.isEmpty()) inputs.push_back(path.toStdString());
  const std::string problem = trace::checkOutputPath(options.output.toStdString(), inputs);
  if (problem.empty()) return true;
  error = QStringLiteral("%1: %2").arg(options.output, QString::fromStdString(problem));
  return false;
}

// Encoded in memory, then written as every report is: a failed write leaves the old file.
bool writeImage(const QImage& image, const QString& path) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (image.isNull() || !image.save(&buffer, imageFormat(path).constData())) return false;
  return trace::writeOutputFile(
             path.toStdString(),
             std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())))
      .empty();
}

}  // namespace

int runScreenshot(const ScreenshotOptions& options, QString& error) {
  if (!checkScreenshotPath(options, error)) return 2;
  bool found = false;
  const QImage image = renderFor(options, found, error);
  if (image.isNull() && !error.isEmpty()) return 2;
  if (!options.finding.isEmpty() && !found) {
    qWarning("steplint-gui: no finding %s in this trace; screenshot taken without a selection",
             qPrintable(options.finding));
  }
  if (!writeImage(image, options.output)) {
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
