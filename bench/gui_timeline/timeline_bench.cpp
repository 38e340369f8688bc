// steplint-gui-timeline-bench: how fast the GUI opens a large trace and how long one timeline
// frame takes (docs/benchmarks.md, "GUI timeline"). Offscreen: no window is shown.
//
//   steplint-gui-timeline-bench                        # generates 5.1 M events (2.4 GB JSON) in
//   /tmp steplint-gui-timeline-bench --trace big.json --screenshot frame.png
//
// Goals (issue #6): open (import + analysis + timeline index) < 10 s; median frame < 16 ms
// over a scripted zoom from the whole trace down to a few µs, a pan, and back out.
#include <QApplication>
#include <QImage>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/timeline_widget.h"
#include "steplint/gui/trace_loader.h"
#include "tracegen/output_sink.h"
#include "tracegen/step_synth.h"

namespace {

using Clock = std::chrono::steady_clock;
using steplint::gui::TimeRange;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool generate(const std::string& path, int64_t steps) {
  steplint::bench::OutputSink sink;
  std::string error;
  if (!sink.open(path, -1, error)) {
    std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), error.c_str());
    return false;
  }
  steplint::bench::StepSynthesizer synth(steplint::bench::SynthOptions{},
                                         steplint::bench::TraceLayout{});
  std::string chunk;
  synth.begin(chunk);
  for (int64_t n = 1; n <= steps; ++n) {
    synth.step(n, chunk);
    if (!sink.write(chunk)) break;
    chunk.clear();
  }
  synth.end(chunk, path);
  sink.write(chunk);
  return sink.close(error);
}

// Zoom from the whole trace to `deepest_ns` around a point in a busy step, pan, zoom back.
std::vector<TimeRange> script(TimeRange full, int64_t anchor_ns, int64_t deepest_ns, int frames) {
  std::vector<TimeRange> out;
  const int in_frames = frames / 2, pan_frames = frames / 10,
            out_frames = frames - in_frames - pan_frames;
  const double full_span = static_cast<double>(full.end_ns - full.start_ns);
  const double shrink = std::pow(static_cast<double>(deepest_ns) / full_span, 1.0 / in_frames);
  double span = full_span;
  for (int i = 0; i < in_frames; ++i) {
    span *= shrink;
    const auto s = static_cast<int64_t>(span);
    out.push_back({anchor_ns - s / 3, anchor_ns - s / 3 + s});
  }
  for (int i = 0; i < pan_frames; ++i) {
    const int64_t d = (out.back().end_ns - out.back().start_ns) / 8;
    out.push_back({out.back().start_ns + d, out.back().end_ns + d});
  }
  const double grow = std::pow(full_span / span, 1.0 / out_frames);
  const int64_t centre = (out.back().start_ns + out.back().end_ns) / 2;
  for (int i = 0; i < out_frames; ++i) {
    span *= grow;
    const auto s = static_cast<int64_t>(span);
    out.push_back({centre - s / 2, centre - s / 2 + s});
  }
  return out;
}

struct FrameStats {
  double median_ms = 0, p90_ms = 0, max_ms = 0;
};

FrameStats measure(steplint::gui::TimelineWidget& widget,
                   steplint::gui::SelectionAndZoom& selection, const std::vector<TimeRange>& frames,
                   QImage& image) {
  std::vector<double> ms;
  for (const TimeRange& r : frames) {
    const auto t0 = Clock::now();
    selection.setVisibleRange(r);
    widget.render(&image);
    ms.push_back(secondsSince(t0) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back()};
}

struct Options {
  std::string trace_path, screenshot;
  std::string generated = "/tmp/steplint_gui_bench.pt.trace.json";
  int64_t steps = 2900;  // ~1770 events per step: 5.1 M events, 2.4 GB of JSON
  int frames = 200;
  bool keep = false;
};

struct Opened {
  std::shared_ptr<const steplint::gui::LoadedTrace> trace;
  double import_s = 0, load_s = 0, index_s = 0;
};

// TraceLoader::loadNow, timing the import (it reports 0.9 when analysis starts) and the rest.
Opened load(const std::string& path) {
  Opened out;
  const auto t0 = Clock::now();
  std::string error;
  const auto progress = [&](double f) {
    if (f >= 0.9 && out.import_s == 0) out.import_s = secondsSince(t0);
  };
  out.trace = steplint::gui::TraceLoader::loadNow(path, nullptr, progress, error);
  if (!out.trace) std::fprintf(stderr, "cannot open %s: %s\n", path.c_str(), error.c_str());
  out.load_s = secondsSince(t0);
  return out;
}

// Selects the first CPU op at or after `t_ns` (its flow arrows are drawn) and searches "conv".
void selectAndSearch(steplint::gui::SelectionAndZoom& selection,
                     const steplint::trace::TraceModel& model, int64_t t_ns) {
  selection.setSearchText(QStringLiteral("conv"));
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    if (model.events[i].kind == steplint::trace::EventKind::kCpuOp &&
        model.events[i].start_ns >= t_ns) {
      selection.selectEvent(i);
      return;
    }
  }
}

void report(const Options& o, const Opened& opened, const FrameStats& plain,
            const FrameStats& searched) {
  const steplint::trace::TraceModel& model = opened.trace->model;
  const double open_s = opened.load_s + opened.index_s;
  std::printf("trace: %s\nevents: %zu (%zu tracks, %zu steps), %.0f MB JSON\n",
              o.trace_path.c_str(), model.events.size(), model.tracks.size(),
              opened.trace->summary.steps.steps.size(),
              static_cast<double>(model.metadata.input_bytes) / 1e6);
  std::printf("open: %.2f s (import %.2f s, analysis + rules %.2f s, timeline index %.2f s)\n",
              open_s, opened.import_s, opened.load_s - opened.import_s, opened.index_s);
  std::printf("frames: %d at 1600x900, median %.2f ms, p90 %.2f ms, max %.2f ms\n", o.frames,
              plain.median_ms, plain.p90_ms, plain.max_ms);
  std::printf("frames with search + selection: median %.2f ms, p90 %.2f ms, max %.2f ms\n",
              searched.median_ms, searched.p90_ms, searched.max_ms);
  std::printf("goal open < 10 s: %s\n", open_s < 10.0 ? "PASS" : "MISS");
  std::printf("goal median frame < 16 ms: %s\n", plain.median_ms < 16.0 ? "PASS" : "MISS");
  if (model.events.size() < 5'000'000)
    std::printf("note: fewer than 5 M events; use --steps to make a larger trace\n");
}

int run(Options o) {
  const bool generating = o.trace_path.empty();
  if (generating) {
    const auto t0 = Clock::now();
    if (!generate(o.generated, o.steps)) return 1;
    std::printf("generated %s (%lld steps) in %.1f s\n", o.generated.c_str(),
                static_cast<long long>(o.steps), secondsSince(t0));
    o.trace_path = o.generated;
  }
  Opened opened = load(o.trace_path);
  if (!opened.trace) return 1;
  steplint::gui::SelectionAndZoom selection;
  steplint::gui::TimelineWidget widget(&selection);
  widget.resize(1600, 900);
  const auto t1 = Clock::now();
  widget.setTrace(opened.trace);
  opened.index_s = secondsSince(t1);
  if (generating && !o.keep) std::remove(o.generated.c_str());

  QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
  widget.render(&image);  // warm-up: fonts, glyph caches
  if (!o.screenshot.empty()) image.save(QString::fromStdString(o.screenshot));
  const TimeRange full = selection.fullRange();
  const auto& steps = opened.trace->summary.steps.steps;
  const int64_t anchor = steps.empty() ? (full.start_ns + full.end_ns) / 2
                                       : steps[steps.size() / 2].host_start_ns + 20'000'000;
  const std::vector<TimeRange> ranges = script(full, anchor, 5'000, o.frames);
  const FrameStats plain = measure(widget, selection, ranges, image);
  selectAndSearch(selection, opened.trace->model, anchor);
  const FrameStats searched = measure(widget, selection, ranges, image);
  report(o, opened, plain, searched);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  CLI::App app{"Open time and frame time of the steplint GUI timeline on a large trace"};
  Options o;
  app.add_option("--trace", o.trace_path, "Trace to open (default: generate one)");
  app.add_option("--generate-to", o.generated, "Where to write the generated trace");
  app.add_option("--steps", o.steps, "Steps to generate (~1770 events each)")
      ->check(CLI::PositiveNumber);
  app.add_option("--frames", o.frames, "Frames in the zoom/pan script")
      ->check(CLI::Range(10, 100000));
  app.add_option("--screenshot", o.screenshot, "Save the first (whole-trace) frame as PNG");
  app.add_flag("--keep", o.keep, "Keep the generated trace");
  CLI11_PARSE(app, argc, argv);
  int qt_argc = 1;
  QApplication qapp(qt_argc, argv);
  return run(o);
}
