#include "steplint/gui/trace_loader.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "fixtures.h"

using steplint::gui::LoadedTrace;
using steplint::gui::TraceLoader;

namespace {

/// QSignalSpy records from the worker thread directly, so the signal may be in before wait()
/// starts; wait() only reports signals that arrive while it waits.
bool arrived(QSignalSpy& spy) { return !spy.isEmpty() || spy.wait(30000); }

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile file(path);
  REQUIRE(file.open(QIODevice::WriteOnly));
  file.write(bytes);
  return path;
}

}  // namespace

TEST_CASE("trace loader: a file that is not a trace fails with a message naming the file") {
  QTemporaryDir dir;
  const QString path = writeFile(dir, QStringLiteral("notes.json"), "hello, this is not JSON\n");
  std::string error;
  CHECK(TraceLoader::loadNow(path.toStdString(), nullptr, {}, error) == nullptr);
  CHECK(QString::fromStdString(error).contains(QStringLiteral("notes.json")));

  TraceLoader loader;
  QSignalSpy failed(&loader, &TraceLoader::failed);
  QSignalSpy loaded(&loader, &TraceLoader::loaded);
  loader.load(path);
  REQUIRE(arrived(failed));
  CHECK(failed.first().first().toString().contains(QStringLiteral("notes.json")));
  CHECK(loaded.isEmpty());

  failed.clear();
  loader.load(dir.filePath(QStringLiteral("missing.json.gz")));
  REQUIRE(arrived(failed));
  CHECK(failed.first().first().toString().contains(QStringLiteral("missing.json.gz")));
}

TEST_CASE("trace loader: the 0-worker ResNet-50 trace loads in the background with progress",
          "[fixture]") {
  const std::string path = steplint::test::requireFixture(
      "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  TraceLoader loader;
  QSignalSpy loaded(&loader, &TraceLoader::loaded);
  QSignalSpy progress(&loader, &TraceLoader::progress);
  loader.load(QString::fromStdString(path));
  REQUIRE(arrived(loaded));
  const auto trace = loaded.first().first().value<std::shared_ptr<const LoadedTrace>>();
  REQUIRE(trace != nullptr);
  CHECK(trace->model.events.size() > 1000);
  CHECK_FALSE(trace->summary.steps.steps.empty());
  CHECK_FALSE(trace->lint.diagnostics.empty());
  REQUIRE_FALSE(progress.isEmpty());
  CHECK(progress.last().first().toDouble() == Approx(1.0));
}

TEST_CASE(
    "trace loader: events the collector lost are listed under Trace health with counts and reason") {
  const std::string path = steplint::test::testDataPath("cli/recorded_with_loss.json");
  std::string error;
  const auto trace = TraceLoader::loadNow(path, nullptr, {}, error);
  REQUIRE(trace != nullptr);
  const auto has = [&](const std::string& prefix) {
    for (const std::string& w : trace->warnings)
      if (w.rfind(prefix, 0) == 0) return true;
    return false;
  };
  CHECK(has("13852 x recorder_dropped_events [data-loss]: "));
  CHECK(has("1 x recorder_stopped_early [data-loss]: "));
  CHECK(has(
      "recording stopped early: the output file could not be written (No space left on device)"));
  bool sl001 = false;
  for (const auto& d : trace->lint.diagnostics) sl001 |= d.code == "SL001";
  CHECK(sl001);
}
