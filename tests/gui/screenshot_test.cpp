#include "screenshot.h"

#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "gui_test_traces.h"
#include "steplint/gui/trace_loader.h"

using namespace steplint;

namespace {

/// Distinct colours on a coarse grid: a blank or single-colour grab has one or two.
int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  }
  return static_cast<int>(colours.size());
}

}  // namespace

TEST_CASE("screenshot: the main window on the ResNet-50 fixture with SL101 selected is not blank",
          "[fixture]") {
  const std::string path =
      test::requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  std::string error;
  auto trace = gui::TraceLoader::loadNow(path, nullptr, {}, error);
  REQUIRE(trace != nullptr);
  gui::ScreenshotOptions render;
  render.size = QSize(1200, 800);
  render.finding = QStringLiteral("SL101");
  bool found = false;
  const QImage image = gui::renderMainWindow(trace, render, &found);
  CHECK(found);
  REQUIRE_FALSE(image.isNull());
  CHECK(image.width() >= 1200);
  CHECK(image.height() >= 800);
  CHECK(distinctColours(image) > 20);

  QTemporaryDir dir;
  gui::ScreenshotOptions options;
  options.trace = QString::fromStdString(path);
  options.output = dir.filePath(QStringLiteral("out.png"));
  options.finding = QStringLiteral("SL101");
  options.size = QSize(800, 600);
  QString message;
  CHECK(gui::runScreenshot(options, message) == 0);
  CHECK(QImage(options.output).width() >= 800);
}

TEST_CASE("screenshot: a bad file exits 2 with a message, a small trace renders") {
  QTemporaryDir dir;
  gui::ScreenshotOptions options;
  options.trace = dir.filePath(QStringLiteral("absent.json"));
  options.output = dir.filePath(QStringLiteral("out.png"));
  QString message;
  CHECK(gui::runScreenshot(options, message) == 2);
  CHECK(message.contains(QStringLiteral("absent.json")));
  gui::ScreenshotOptions render;
  render.size = QSize(900, 600);
  render.overview = true;
  CHECK(distinctColours(gui::renderMainWindow(test::smallTrace(), render)) > 5);

  // Nothing at all: no events, steps, GPU or findings. Every panel shows its empty state.
  auto empty = std::make_shared<gui::LoadedTrace>();
  empty->summary = analyzer::summarize(empty->model);
  render.overview = false;
  CHECK_FALSE(gui::renderMainWindow(empty, render).isNull());
  render.overview = true;
  CHECK_FALSE(gui::renderMainWindow(empty, render).isNull());

  QSize size;
  CHECK(gui::parseSize(QStringLiteral("1600x1000"), size));
  CHECK(size == QSize(1600, 1000));
  CHECK_FALSE(gui::parseSize(QStringLiteral("big"), size));
  CHECK_FALSE(gui::parseSize(QStringLiteral("10x10"), size));
}

TEST_CASE("screenshot: a trace named as the picture is kept whole") {
  // `steplint-gui t2.json --screenshot t.json` truncated t.json to nothing: QImage::save opened
  // it before finding no encoder for ".json".
  QTemporaryDir dir;
  const QString trace = QString::fromStdString(test::testDataPath("cli/tiny_steps.json"));
  const QString copy = dir.filePath(QStringLiteral("t.json"));
  const QString as_png = dir.filePath(QStringLiteral("t.png"));
  REQUIRE(QFile::copy(trace, copy));
  REQUIRE(QFile::copy(trace, as_png));
  const qint64 size = QFileInfo(copy).size();
  gui::ScreenshotOptions options;
  options.trace = trace;
  QString message;
  options.output = copy;
  CHECK(gui::runScreenshot(options, message) == 2);
  CHECK(message == copy + QStringLiteral(": not an image file name; name the screenshot .png"));
  options.output = as_png;
  CHECK(gui::runScreenshot(options, message) == 2);
  CHECK(message == as_png + QStringLiteral(": is a trace (refusing to replace it)"));
  CHECK(QFileInfo(copy).size() == size);
  CHECK(QFileInfo(as_png).size() == size);
  options.output = dir.filePath(QStringLiteral("new.png"));
  CHECK(gui::runScreenshot(options, message) == 0);
  CHECK(QFileInfo(options.output).size() > 0);
}
