#include "steplint/gui/event_search.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace steplint::gui {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

/// (start, index) strictly before: the order "next" walks in.
bool before(const trace::Event& a, uint32_t ai, const trace::Event& b, uint32_t bi) {
  return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : ai < bi;
}

}  // namespace

bool containsIgnoringCase(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  const auto* it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                               [](char a, char b) { return lower(a) == lower(b); });
  return it != haystack.end();
}

uint32_t findNextEvent(const trace::TraceModel& model, std::string_view needle, uint32_t after) {
  if (needle.empty()) return trace::kNoIndex;
  std::vector<int8_t> matches(model.strings.size(), -1);  // per StringId: -1 untested, 0/1
  const auto n = static_cast<uint32_t>(model.events.size());
  const bool have_after = after < n;
  uint32_t first = trace::kNoIndex;  // earliest match overall (the wrap-around)
  uint32_t next = trace::kNoIndex;   // earliest match after `after`
  for (uint32_t i = 0; i < n; ++i) {
    const trace::Event& e = model.events[i];
    if (e.name >= matches.size()) matches.resize(e.name + 1, -1);  // ids are dense; never trust it
    int8_t& m = matches[e.name];
    if (m < 0) m = containsIgnoringCase(model.name(e), needle) ? 1 : 0;
    if (m == 0) continue;
    if (first == trace::kNoIndex || before(e, i, model.events[first], first)) first = i;
    if (have_after && before(model.events[after], after, e, i) &&
        (next == trace::kNoIndex || before(e, i, model.events[next], next)))
      next = i;
  }
  return next != trace::kNoIndex ? next : first;
}

}  // namespace steplint::gui
