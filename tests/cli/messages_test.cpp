#include "messages.h"

#include <catch2/catch.hpp>

namespace steplint::cli {
namespace {

trace::ImportStatus status(trace::ImportError error, std::string message) {
  trace::ImportStatus s;
  s.error = error;
  s.message = std::move(message);
  return s;
}

}  // namespace

TEST_CASE("describeImportError: not a trace", "[cli]") {
  CHECK(describeImportError("a.txt", status(trace::ImportError::kNotATrace,
                                            "a.txt: expected '{' or '[' at offset 0")) ==
        "a.txt: not a trace (expected '{' or '[' at offset 0)");
  CHECK(describeImportError("a.txt",
                            status(trace::ImportError::kNotATrace, "no traceEvents array")) ==
        "a.txt: not a trace (no traceEvents array)");
  CHECK(describeImportError(
            "a.txt", status(trace::ImportError::kNotATrace, "a.txt: not a trace (binary data)")) ==
        "a.txt: not a trace (binary data)");
  CHECK(describeImportError("a.txt", status(trace::ImportError::kNotATrace, "")) ==
        "a.txt: not a trace (unrecognised content)");
}

TEST_CASE("describeImportError: I/O and cancel", "[cli]") {
  CHECK(describeImportError(
            "t.json", status(trace::ImportError::kIo, "t.json: cannot read (Permission denied)")) ==
        "t.json: cannot read (Permission denied)");
  CHECK(describeImportError("t.json", status(trace::ImportError::kIo, "t.json: no such file")) ==
        "t.json: no such file");
  CHECK(describeImportError("t.json", status(trace::ImportError::kIo, "")) ==
        "t.json: cannot read (I/O error)");
  CHECK(describeImportError("t.json", status(trace::ImportError::kCancelled, "")) ==
        "t.json: import cancelled");
}

TEST_CASE("importWarningLines: error and data-loss counters only, data-loss first", "[cli]") {
  trace::ImportStats stats;
  CHECK(importWarningLines("t.json", stats).empty());

  stats.add(trace::Stat::json_invalid_utf8, 5);    // info: not printed
  stats.add(trace::Stat::event_missing_field, 3);  // error
  stats.add(trace::Stat::json_truncated);          // data-loss
  auto lines = importWarningLines("t.json", stats);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] ==
        "t.json: 1 x json_truncated [data-loss]: File ended inside traceEvents; later events lost");
  CHECK(lines[1].rfind("t.json: 3 x event_missing_field [error]: ", 0) == 0);
}

}  // namespace steplint::cli
