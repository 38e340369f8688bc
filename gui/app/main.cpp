// steplint-gui: main() only (docs/reference/style.md §2.18: tests link steplint_gui_app, never this
// file).
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "screenshot.h"
#include "steplint/gui/job_inputs.h"
#include "windows.h"

namespace {

/// --screenshot must work on a machine without a display: pick the offscreen platform
/// before QApplication exists, unless the user chose one.
void preferOffscreenForScreenshots(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--screenshot", 12) == 0 &&
        std::getenv("QT_QPA_PLATFORM") == nullptr) {
      setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  preferOffscreenForScreenshots(argc, argv);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("steplint"));
  QApplication::setApplicationName(QStringLiteral("steplint-gui"));
  QApplication::setApplicationVersion(QStringLiteral(STEPLINT_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Profile viewer and advisor for PyTorch training traces."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("trace"),
      QStringLiteral("A trace (.json or .json.gz) to open; a folder, a glob or several "
                     "traces open a distributed job's ranks view."),
      QStringLiteral("[TRACE | DIR | TRACE...]"));
  const QCommandLineOption compare(
      QStringLiteral("compare"),
      QStringLiteral("Compare two runs: steplint-gui --compare BASE NEW (two traces, or two "
                     "jobs' folders or quoted globs)."));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Render the window for TRACE to <png> and exit."), QStringLiteral("png"));
  const QCommandLineOption finding(
      QStringLiteral("finding"),
      QStringLiteral("With --screenshot: select the first finding <code>."),
      QStringLiteral("code"));
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("With --screenshot: window size WxH."),
                                QStringLiteral("WxH"), QStringLiteral("1600x1000"));
  const QCommandLineOption overview(QStringLiteral("overview"),
                                    QStringLiteral("With --screenshot: show the Overview tab."));
  const QCommandLineOption tab(
      QStringLiteral("tab"),
      QStringLiteral("With --screenshot --compare: the tab to show (timelines, steps, ops, "
                     "findings; for two jobs: ranks, parts, findings)."),
      QStringLiteral("name"));
  parser.addOptions({compare, screenshot, finding, size, overview, tab});
  parser.process(app);
  // A single-process run's log folder is its one trace (on either side of --compare too).
  QStringList positional = parser.positionalArguments();
  if (positional.size() <= 2)
    for (QString& path : positional) path = steplint::gui::singleRunTrace(path);

  const bool comparing = parser.isSet(compare);
  if (comparing && positional.size() != 2) {
    std::fprintf(stderr, "usage: steplint-gui --compare BASE NEW\n");
    return 2;
  }
  const bool job = !comparing && steplint::gui::isJobInput(positional);
  // As `steplint diff`: a folder or a glob on either side compares two jobs.
  const bool job_comparison = comparing && (steplint::gui::isJobInput({positional.at(0)}) ||
                                            steplint::gui::isJobInput({positional.at(1)}));

  if (parser.isSet(screenshot)) {
    steplint::gui::ScreenshotOptions options;
    options.output = parser.value(screenshot);
    options.finding = parser.value(finding);
    options.overview = parser.isSet(overview);
    options.tab = parser.value(tab);
    if (positional.isEmpty() || (!job && !comparing && positional.size() != 1) ||
        !steplint::gui::parseSize(parser.value(size), options.size)) {
      std::fprintf(stderr,
                   "usage: steplint-gui --screenshot OUT.png [--finding CODE] [--size WxH] "
                   "TRACE | DIR | --compare BASE NEW\n");
      return 2;
    }
    if (job)
      options.job = positional;
    else if (job_comparison)
      options.job = {positional.first()};
    else
      options.trace = positional.first();
    if (comparing) options.compare_with = positional.at(1);
    QString error;
    const int rc = steplint::gui::runScreenshot(options, error);
    if (rc != 0) std::fprintf(stderr, "steplint-gui: %s\n", qPrintable(error));
    return rc;
  }

  if (job_comparison)
    steplint::gui::openJobCompareWindow({positional.at(0)}, {positional.at(1)});
  else if (comparing)
    steplint::gui::openCompareWindow(positional.at(0), positional.at(1));
  else if (job)
    steplint::gui::openJobWindow(positional);
  else
    steplint::gui::openTraceWindow(positional.isEmpty() ? QString() : positional.first(), true);
  return QApplication::exec();
}
