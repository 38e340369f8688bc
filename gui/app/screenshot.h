// `steplint-gui --screenshot out.png [--finding SL101] [--size 1600x1000] TRACE` (also a
// job: DIR or several traces, and `--compare BASE NEW`): load synchronously, optionally select
// a finding, render the window offscreen and save it. Used for the docs' screenshots and by the
// tests.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <memory>

#include "steplint/gui/job_comparison.h"
#include "steplint/gui/loaded_comparison.h"
#include "steplint/gui/loaded_job.h"
#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

struct ScreenshotOptions {
  QString trace;         // the trace to open (BASE with compare_with)
  QStringList job;       // instead of `trace`: the ranks view of these folders, globs or traces
  QString compare_with;  // with `trace`: the comparison view, this trace as NEW; with `job`: the
                         // job comparison, this folder or glob as NEW
  QString output;        // the PNG to write
  QString finding;       // select the first finding with this code ("" = none)
  QSize size{1600, 1000};
  bool overview = false;  // show the Overview tab instead of the timeline
  QString tab;  // comparison view: "timelines" (default), "steps", "ops" or "findings"; job
                // comparison: "ranks" (default), "parts" or "findings"
};

/// The main window showing `trace` at `options.size` rendered to an image (options.trace and
/// options.output are not used). With options.finding, the first finding with that code is
/// selected as a click would, and its first evidence event too, so the details pane shows
/// something; `finding_found` (optional) says whether there was such a finding.
QImage renderMainWindow(std::shared_ptr<const LoadedTrace> trace, const ScreenshotOptions& options,
                        bool* finding_found = nullptr);

/// The ranks view of `job` at `options.size`. With options.finding, the first job finding with
/// that code is selected as a click would, and the picture waits for the two ranks' timelines.
QImage renderJobWindow(std::shared_ptr<const LoadedJob> job, const ScreenshotOptions& options,
                       bool* finding_found = nullptr);

/// The comparison view of `comparison` at `options.size`, on the tab `options.tab` names.
QImage renderCompareWindow(std::shared_ptr<const LoadedComparison> comparison,
                           const ScreenshotOptions& options);

/// The job comparison view of `comparison` at `options.size`, on the tab `options.tab` names.
QImage renderJobCompareWindow(std::shared_ptr<const LoadedJobComparison> comparison,
                              const ScreenshotOptions& options);

/// The whole command: 0 on success, 2 with `error` set when the trace cannot be loaded or
/// the image cannot be written.
int runScreenshot(const ScreenshotOptions& options, QString& error);

/// Parses "1600x1000"; false on anything else (or sizes outside 200..10000).
bool parseSize(const QString& text, QSize& out);

}  // namespace steplint::gui
