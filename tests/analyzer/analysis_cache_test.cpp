// The per-trace caches that let analyses and rules skip repeated work on big traces:
// NameMemo (a name property decided once per StringId) and AnalysisContext::shared().
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule.h"

using steplint::analyzer::AnalysisContext;
using steplint::analyzer::NameMemo;
using steplint::analyzer::TraceSummary;
using steplint::trace::StringId;
using steplint::trace::TraceModel;

TEST_CASE("NameMemo classifies each distinct name once and answers like the predicate",
          "[analysis-cache]") {
  TraceModel model;
  const StringId nccl = model.strings.intern("nccl:all_reduce");
  const StringId mm = model.strings.intern("aten::mm");
  int calls = 0;
  NameMemo is_nccl(model, [&calls](std::string_view name) {
    ++calls;
    return name.substr(0, 5) == "nccl:";
  });
  for (int i = 0; i < 3; ++i) {
    CHECK(is_nccl(nccl));
    CHECK_FALSE(is_nccl(mm));
  }
  CHECK(calls == 2);
  // An id added after the memo was made is still answered (uncached).
  const StringId late = model.strings.intern("nccl:broadcast");
  CHECK(is_nccl(late));
}

TEST_CASE("NameMemo keeps non-bool results", "[analysis-cache]") {
  TraceModel model;
  const StringId a = model.strings.intern("abc");
  const StringId b = model.strings.intern("abcdef");
  NameMemo length(model, [](std::string_view name) { return static_cast<int>(name.size()); });
  CHECK(length(a) == 3);
  CHECK(length(b) == 6);
  CHECK(length(a) == 3);
  CHECK(length(0) == 0);  // id 0 is the empty string
}

TEST_CASE("AnalysisContext::shared computes a key once and returns the same object",
          "[analysis-cache]") {
  const TraceModel model;
  const TraceSummary summary;
  const AnalysisContext context(model, summary);
  int made = 0;
  auto make = [&made] {
    ++made;
    return std::vector<int>{1, 2, 3};
  };
  const std::vector<int>& first = context.shared<std::vector<int>>("test.numbers", make);
  const std::vector<int>& second = context.shared<std::vector<int>>("test.numbers", make);
  CHECK(&first == &second);
  CHECK(made == 1);
  CHECK(first == std::vector<int>{1, 2, 3});
  // A maker may ask for other entries.
  const std::string& text = context.shared<std::string>("test.text", [&] {
    return std::to_string(context.shared<std::vector<int>>("test.numbers", make).size());
  });
  CHECK(text == "3");
  CHECK(made == 1);
  CHECK_THROWS_AS(context.shared<std::string>("test.numbers", [] { return std::string(); }),
                  std::logic_error);
}
