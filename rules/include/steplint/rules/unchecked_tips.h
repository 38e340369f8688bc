// Training tips steplint has no rule for, because no trace can show what they cost or save.
// `steplint rules` lists them after the rules and `steplint explain TOPIC` prints one, so a
// reader of the catalog sees that the tip was considered and why it is not checked, instead of
// wondering whether it was forgotten (issue 13).
#pragma once

#include <string_view>
#include <vector>

namespace steplint::rules {

struct UncheckedTip {
  std::string_view topic;   // kebab-case, never a rule name: "input-normalization"
  std::string_view advice;  // the tip, one line
  std::string_view why;     // why a trace cannot check it, and which rules cover what it can
};

/// The tips, in topic order.
const std::vector<UncheckedTip>& uncheckedTips();

/// The tip with this topic, or nullptr.
const UncheckedTip* findUncheckedTip(std::string_view topic);

}  // namespace steplint::rules
