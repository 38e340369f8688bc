// Inputs built to hurt a parser: huge values, absurd nesting, binary junk and non-traces.
// The importer must finish, drop only the offending event, count why, and keep memory bounded
// by ImportOptions::max_event_bytes rather than by the input.
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "robustness_support.h"
#include "steplint/trace/importer.h"

namespace {

using steplint::trace::ImportError;
using steplint::trace::ImportOptions;
using steplint::trace::ImportStatus;
using steplint::trace::Stat;
using steplint::trace::TraceModel;

constexpr int64_t kMiB = 1 << 20;

std::string completeEvent(const char* name, int ts) {
  return std::string(R"({"ph":"X","cat":"cpu_op","name":")") + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":5,"args":{"External id":)" + std::to_string(ts) + "}}";
}

// {"traceEvents":[ <before>, <middle>, <after> ]} with `middle` written by the caller so a
// 200 MB value is built in place, not copied around.
std::string traceAround(const std::string& middle_open, size_t fill_count, char fill,
                        const std::string& middle_close, bool close_trace = true) {
  std::string text = "{\"traceEvents\":[\n" + completeEvent("before", 10) + ",\n" + middle_open;
  text.append(fill_count, fill);
  text += middle_close;
  if (close_trace) text += ",\n" + completeEvent("after", 30) + "\n]}\n";
  return text;
}

bool hasEventNamed(const TraceModel& model, std::string_view name) {
  for (const auto& e : model.events) {
    if (model.name(e) == name) return true;
  }
  return false;
}

// Memory an import may add on top of its input; ASan's redzones and 256 MB quarantine need more.
int64_t memoryBudget(int64_t plain) {
  return steplint::test::kSanitized ? plain + 512 * kMiB : plain;
}

void checkNotATrace(std::string_view bytes, const char* what) {
  INFO(what);
  TraceModel model;
  ImportStatus status = steplint::trace::importTraceBytes(bytes, model, ImportOptions{}, what);
  CHECK(status.error == ImportError::kNotATrace);
  CHECK_FALSE(status.message.empty());
  CHECK(steplint::test::keptRecords(model) == 0);
}

}  // namespace

TEST_CASE("hostile input: a 200 MB string value is skipped with bounded memory",
          "[robustness][hostile][slow]") {
  std::string text =
      traceAround(R"({"ph":"X","cat":"cpu_op","name":"huge","pid":1,"tid":1,"ts":20,"dur":5,)"
                  R"("args":{"Input Dims":")",
                  size_t{200} * kMiB, 'a', "\"}}");
  ImportOptions options;
  options.max_event_bytes = size_t{16} << 20;
  TraceModel model;
  steplint::test::PeakMemoryProbe probe;
  ImportStatus status = steplint::trace::importTraceBytes(text, model, options, "huge-string");
  int64_t added = probe.peakDeltaBytes();
  INFO(status.message << "; peak memory added " << added / kMiB
                      << " MiB (precise probe: " << probe.precise() << ")");
  REQUIRE(status.ok());
  CHECK(model.stats.get(Stat::json_event_too_large) == 1);
  CHECK(model.events.size() == 2);
  CHECK(hasEventNamed(model, "before"));
  CHECK(hasEventNamed(model, "after"));
  CHECK_FALSE(hasEventNamed(model, "huge"));
  CHECK(added < memoryBudget(150 * kMiB));
}

TEST_CASE("hostile input: 10^8 nested arrays in args are dropped without recursion",
          "[robustness][hostile][slow]") {
  const size_t depth = 100'000'000;
  std::string text =
      traceAround(R"({"ph":"X","cat":"cpu_op","name":"deep","pid":1,"tid":1,"ts":20,"dur":5,)"
                  R"("args":{"x":)",
                  depth, '[', std::string(depth, ']') + "}}");
  ImportOptions options;
  options.max_event_bytes = size_t{16} << 20;
  TraceModel model;
  steplint::test::PeakMemoryProbe probe;
  ImportStatus status = steplint::trace::importTraceBytes(text, model, options, "deep-nesting");
  int64_t added = probe.peakDeltaBytes();
  INFO(status.message << "; peak memory added " << added / kMiB << " MiB");
  REQUIRE(status.ok());
  CHECK(model.stats.get(Stat::json_event_too_large) +
            model.stats.get(Stat::json_event_unparseable) ==
        1);
  CHECK(hasEventNamed(model, "before"));
  CHECK(hasEventNamed(model, "after"));
  CHECK_FALSE(hasEventNamed(model, "deep"));
  CHECK(added < memoryBudget(150 * kMiB));
}

TEST_CASE("hostile input: deep nesting below the size limit causes no stack overflow",
          "[robustness][hostile]") {
  const size_t depth = 1'000'000;  // 2 MB: small enough to reach the JSON parser
  std::string text =
      traceAround(R"({"ph":"X","cat":"cpu_op","name":"deep","pid":1,"tid":1,"ts":20,"dur":5,)"
                  R"("args":{"x":)",
                  depth, '[', std::string(depth, ']') + "}}");
  TraceModel model;
  ImportStatus status =
      steplint::trace::importTraceBytes(text, model, ImportOptions{}, "deep-nesting-small");
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK(hasEventNamed(model, "before"));
  CHECK(hasEventNamed(model, "after"));
  // Valid JSON, so keeping the event (its args unread) is as right as dropping it; dropping
  // it silently is not.
  uint64_t dropped =
      model.stats.get(Stat::json_event_unparseable) + model.stats.get(Stat::json_event_too_large);
  CHECK(dropped == (hasEventNamed(model, "deep") ? 0u : 1u));
}

TEST_CASE("hostile input: 10^8 unclosed brackets up to the end of the file",
          "[robustness][hostile][slow]") {
  std::string text =
      traceAround(R"({"ph":"X","cat":"cpu_op","name":"deep","pid":1,"tid":1,"ts":20,"dur":5,)"
                  R"("args":{"x":)",
                  100'000'000, '[', "", /*close_trace=*/false);
  ImportOptions options;
  options.max_event_bytes = size_t{16} << 20;
  TraceModel model;
  steplint::test::PeakMemoryProbe probe;
  ImportStatus status = steplint::trace::importTraceBytes(text, model, options, "unclosed");
  int64_t added = probe.peakDeltaBytes();
  INFO(status.message << "; peak memory added " << added / kMiB << " MiB");
  REQUIRE(status.ok());
  CHECK(hasEventNamed(model, "before"));
  CHECK(model.events.size() == 1);
  CHECK(model.stats.get(Stat::json_truncated) + model.stats.get(Stat::json_event_too_large) > 0);
  CHECK(added < memoryBudget(150 * kMiB));
}

TEST_CASE("hostile input: files that are not traces", "[robustness][hostile]") {
  const char png[] =
      "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
  checkNotATrace(std::string_view(png, sizeof(png) - 1), "PNG header");
  checkNotATrace("hello", "plain text");
  checkNotATrace("{\"foo\":1}", "JSON object without traceEvents");
  {
    // A whole object says what it holds instead of a byte offset (its end).
    TraceModel model;
    const ImportStatus status = steplint::trace::importTraceBytes(
        "{\"schema\": \"steplint.check/1\", \"findings\": [], \"a\x01\": {\"k\": 1}, \"d\": 1, "
        "\"e\": 2, \"f\": 3}",
        model, ImportOptions{}, "report.json");
    CHECK(status.error == ImportError::kNotATrace);
    CHECK(status.message == R"(report.json: not a trace (a JSON object without traceEvents; )"
                            R"(its keys: "schema", "findings", "a?", "d", "e", ...))");
  }
  checkNotATrace("", "empty file");
  checkNotATrace(" \n\t\r\n   \n", "only whitespace");

  std::string noise(1 << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : noise) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  noise[0] = 'Z';  // not '{', '[' or the gzip magic
  checkNotATrace(noise, "1 MiB of random bytes");
}

TEST_CASE("hostile input: binary junk inside traceEvents costs only the events it hits",
          "[robustness][hostile]") {
  std::string junk(64 * 1024, '\0');
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (char& c : junk) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
    if (std::strchr("\"\\[]{}", c) != nullptr) c = '#';  // keep the event's own structure intact
  }
  std::string text = traceAround("{\"ph\":\"X\",\"name\":\"", 0, ' ', junk + "\"}");
  TraceModel model;
  ImportStatus status = steplint::trace::importTraceBytes(text, model, ImportOptions{}, "junk");
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK(hasEventNamed(model, "before"));
  CHECK(hasEventNamed(model, "after"));
  CHECK(model.events.size() == 2);
}

TEST_CASE("hostile input: an empty trace and unreadable paths", "[robustness][hostile]") {
  TraceModel empty;
  ImportStatus status = steplint::trace::importTraceBytes("{\"traceEvents\": []}", empty);
  CHECK(status.ok());
  CHECK(steplint::test::keptRecords(empty) == 0);

  TraceModel missing;
  status = steplint::trace::importTraceFile("/nonexistent/steplint/trace.json", missing);
  CHECK(status.error == ImportError::kIo);
  CHECK(status.message.find("/nonexistent/steplint/trace.json") != std::string::npos);

  TraceModel directory;
  status = steplint::trace::importTraceFile("/", directory);
  CHECK_FALSE(status.ok());
  CHECK_FALSE(status.message.empty());
}
