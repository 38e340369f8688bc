// Cutting a real trace at arbitrary byte offsets, as a crashed writer (libkineto's `.tmp`) or
// an interrupted copy leaves it: every cut must import without crashing, keep every event
// that is complete before the cut, and say so in json_truncated / gzip_error.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "robustness_support.h"
#include "steplint/trace/importer.h"

namespace {

using steplint::trace::ImportError;
using steplint::trace::ImportOptions;
using steplint::trace::ImportStatus;
using steplint::trace::Stat;
using steplint::trace::TraceModel;

constexpr const char* kResnetGz =
    "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

// Where the traceEvents array starts and ends in the text, and where its first event ends.
struct ArrayBounds {
  size_t open = 0;             // index of '['
  size_t close = 0;            // index of the matching ']'
  size_t first_event_end = 0;  // index just past the first element's '}'
};

ArrayBounds findTraceEvents(const std::string& text) {
  ArrayBounds b;
  size_t key = text.find("\"traceEvents\"");
  REQUIRE(key != std::string::npos);
  b.open = text.find('[', key);
  REQUIRE(b.open != std::string::npos);
  int depth = 0;
  bool in_string = false;
  for (size_t i = b.open; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}') {
      --depth;
      if (depth == 1 && b.first_event_end == 0) b.first_event_end = i + 1;
      if (depth == 0) {
        b.close = i;
        return b;
      }
    }
  }
  FAIL("unterminated traceEvents");
  return b;
}

struct CutResult {
  ImportStatus status;
  size_t kept = 0;
  uint64_t truncated = 0;
  uint64_t gzip_errors = 0;
};

CutResult importPrefix(std::string_view bytes) {
  TraceModel model;
  CutResult r;
  r.status = steplint::trace::importTraceBytes(bytes, model, ImportOptions{}, "cut");
  r.kept = steplint::test::keptRecords(model);
  r.truncated = model.stats.get(Stat::json_truncated);
  r.gzip_errors = model.stats.get(Stat::gzip_error);
  return r;
}

// Imports text[0, cut) and checks what every cut must satisfy; returns the records kept.
size_t checkPlainCut(const std::string& text, const ArrayBounds& b, size_t cut) {
  INFO("cut at byte " << cut << " of " << text.size());
  CutResult r = importPrefix(std::string_view(text).substr(0, cut));
  if (cut < b.first_event_end) {
    // Nothing complete to keep yet: an empty result or "not a trace" are both honest answers.
    if (!r.status.ok()) {
      CHECK(r.status.error == ImportError::kNotATrace);
      CHECK_FALSE(r.status.message.empty());
    }
    CHECK(r.kept == 0);
  } else {
    INFO(r.status.message);
    REQUIRE(r.status.ok());
    CHECK(r.kept >= 1);
  }
  if (cut > b.open && cut <= b.close) CHECK(r.truncated > 0);
  return r.kept;
}

void checkMonotonic(const std::string& text, const ArrayBounds& b, std::vector<size_t> cuts) {
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  size_t previous = 0;
  size_t previous_cut = 0;
  for (size_t cut : cuts) {
    size_t kept = checkPlainCut(text, b, cut);
    INFO("cut " << previous_cut << " kept " << previous << ", cut " << cut << " kept " << kept);
    CHECK(kept >= previous);  // a longer prefix never loses records
    previous = kept;
    previous_cut = cut;
  }
}

const std::string& resnetText() {
  static const std::string text = [] {
    std::string gz = steplint::test::readFileBytes(steplint::test::requireFixture(kResnetGz));
    steplint::test::Gunzipped g = steplint::test::gunzipPrefix(gz);
    REQUIRE(g.complete);
    return g.text;
  }();
  return text;
}

}  // namespace

TEST_CASE("truncated trace: every cut in the header and around the first events",
          "[robustness][truncation]") {
  const std::string& text = resnetText();
  ArrayBounds b = findTraceEvents(text);
  std::vector<size_t> cuts;
  // Every byte (every other byte under ASan, where each import costs ~30 ms of allocator work).
  const size_t stride = steplint::test::kSanitized ? 2 : 1;
  for (size_t i = 0; i < 300; i += stride) cuts.push_back(i);
  // From the traceEvents key to a little past the first event.
  size_t from = b.open > 40 ? b.open - 40 : 0;
  for (size_t i = from; i < std::min(text.size(), b.first_event_end + 40); i += stride)
    cuts.push_back(i);
  checkMonotonic(text, b, cuts);
}

TEST_CASE("truncated trace: cuts spread over the whole file", "[robustness][truncation][slow]") {
  const std::string& text = resnetText();
  ArrayBounds b = findTraceEvents(text);
  // ASan runs the importer several times slower; fewer cuts keep the case under ~30 s there.
  int n =
      steplint::test::envCount("STEPLINT_ROBUSTNESS_CUTS", steplint::test::kSanitized ? 40 : 200);
  std::vector<size_t> cuts;
  uint64_t x = 0x2545F4914F6CDD1Dull;
  for (int i = 1; i <= n; ++i) {
    x ^= x << 13, x ^= x >> 7,
        x ^= x << 17;  // jitter, so cuts fall at every position inside events
    size_t base = text.size() * static_cast<size_t>(i) / static_cast<size_t>(n + 1);
    cuts.push_back(std::min(text.size() - 1, base + x % 997));
  }
  // Just before and after the closing bracket, and the file without its last byte.
  for (size_t d = 0; d < 3; ++d) cuts.push_back(b.close + d);
  cuts.push_back(text.size() - 1);
  checkMonotonic(text, b, cuts);

  TraceModel whole;
  REQUIRE(steplint::trace::importTraceBytes(text, whole).ok());
  CHECK(whole.stats.get(Stat::json_truncated) == 0);
  CHECK(steplint::test::keptRecords(whole) >= checkPlainCut(text, b, text.size() - 1));
}

TEST_CASE("truncated trace: cut gzip stream keeps the events before the cut",
          "[robustness][truncation][slow]") {
  std::string gz = steplint::test::readFileBytes(steplint::test::requireFixture(kResnetGz));
  const std::string& text = resnetText();
  ArrayBounds b = findTraceEvents(text);
  std::vector<size_t> cuts;
  for (size_t i = 0; i < 64; i += 3) cuts.push_back(i);  // inside the gzip header
  int n =
      steplint::test::envCount("STEPLINT_ROBUSTNESS_GZ_CUTS", steplint::test::kSanitized ? 6 : 20);
  for (int i = 1; i <= n; ++i)
    cuts.push_back(gz.size() * static_cast<size_t>(i) / static_cast<size_t>(n + 1));
  cuts.push_back(gz.size() - 4);  // all data there, the CRC32/ISIZE trailer missing
  cuts.push_back(gz.size() - 1);

  size_t previous = 0;
  for (size_t cut : cuts) {
    INFO("gzip cut at byte " << cut << " of " << gz.size());
    std::string_view piece = std::string_view(gz).substr(0, cut);
    size_t decodable = steplint::test::gunzipPrefix(piece).text.size();
    INFO("decodable JSON prefix: " << decodable << " bytes");
    CutResult r = importPrefix(piece);
    INFO(r.status.message);
    if (decodable < b.first_event_end) {
      CHECK(r.kept == 0);  // any status, but no invented events
      continue;
    }
    REQUIRE(r.status.ok());
    CHECK(r.gzip_errors + r.truncated > 0);
    CHECK(r.kept >= previous);
    previous = r.kept;
    // What the same bytes give when handed over uncompressed, minus a margin for the
    // decompressor's last partial block.
    size_t margin = 64 * 1024;
    if (decodable > margin + b.first_event_end) {
      CutResult plain = importPrefix(std::string_view(text).substr(0, decodable - margin));
      CHECK(r.kept >= plain.kept);
    }
  }
}
