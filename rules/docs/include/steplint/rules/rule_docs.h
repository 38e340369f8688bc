// The rule doc pages (docs/rules/SLnnn-<name>.md), embedded at build time by
// embed_rule_docs.cmake so `steplint explain` and steplint-gui work from an installed binary.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace steplint::rules {

struct RuleDoc {
  std::string_view file_name;  // "SL101-dataloader-wait.md"
  std::string_view text;       // the Markdown page, byte-exact
};

/// Every embedded page, sorted by file name (generated: rule_docs_data.cpp).
const std::vector<RuleDoc>& embeddedRuleDocs();

/// The page whose file name starts with "<code>-", or nullptr.
const RuleDoc* findRuleDoc(std::string_view code);

/// The body of the "## <heading>" section (up to the next "## "), trimmed; "" if absent.
std::string docSection(std::string_view markdown, std::string_view heading);

}  // namespace steplint::rules
