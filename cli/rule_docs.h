// The CLI's view of the embedded rule doc pages. The pages themselves live in
// steplint_rule_docs (rules/docs/), shared with steplint-gui, which must not link the CLI;
// the names are re-exported here so CLI code keeps saying cli::findRuleDoc.
#pragma once

#include <map>
#include <string>

#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/rule_docs.h"

namespace steplint::cli {

using rules::docSection;
using rules::embeddedRuleDocs;
using rules::findRuleDoc;
using rules::RuleDoc;

/// Rule code -> first paragraph of its page's "What it does" (SARIF fullDescription).
std::map<std::string, std::string> ruleDescriptions(const analyzer::RuleRegistry& registry);

}  // namespace steplint::cli
