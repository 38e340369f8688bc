// "Did you mean" suggestions (suggest.h).
#include "steplint/analyzer/suggest.h"

#include <catch2/catch.hpp>

namespace steplint::test {
namespace {

TEST_CASE("suggest: edit distance counts transpositions once, ignores case", "[engine][suggest]") {
  CHECK(analyzer::editDistance("dataloader-wait", "dataloader-wait") == 0);
  CHECK(analyzer::editDistance("dataloader-wiat", "dataloader-wait") == 1);
  CHECK(analyzer::editDistance("sl101", "SL101") == 0);
  CHECK(analyzer::editDistance("SL10", "SL101") == 1);
  CHECK(analyzer::editDistance("", "abc") == 3);
}

TEST_CASE("suggest: only close candidates are offered", "[engine][suggest]") {
  const std::vector<std::string> names = {"SL101", "dataloader-wait", "pageable-h2d-copy"};
  CHECK(analyzer::closestMatch("SL10l", names) == "SL101");
  CHECK(analyzer::closestMatch("pageable-h2d-cpy", names) == "pageable-h2d-copy");
  CHECK(analyzer::closestMatch("SL999", names).empty());
  CHECK(analyzer::closestMatch("something-else", names).empty());
  CHECK(analyzer::didYouMean("dataloader-wiat", names) == " (did you mean 'dataloader-wait'?)");
  CHECK(analyzer::didYouMean("zzz", names).empty());
}

}  // namespace
}  // namespace steplint::test
