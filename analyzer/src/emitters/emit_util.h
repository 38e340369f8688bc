// Small helpers shared by the emitters (internal to the analyzer).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "steplint/analyzer/emitters.h"

namespace steplint::analyzer::emit {

/// `path` relative to `base_dir` when it lies inside it, with '/' separators; otherwise as
/// given. "./a.json" becomes "a.json".
std::string displayPath(const std::string& path, const std::string& base_dir);

/// "58.3 ms/step, 33%", "0.3 ms/step, <1%", "58.3 ms/step", or "" when the saving is unknown.
std::string savingText(const SavingEstimate& saving);

/// "fixing all findings: ~41.2 ms/step (37% of the step)", or "" without time savings; findings
/// without a time estimate are named as left out: "(37% of the step; SL102 not estimated, not
/// included)".
std::string savingAllText(const LintResult& lint);

/// The first evidence step, if any.
std::optional<int64_t> firstStep(const Diagnostic& d);

/// "1 finding", "3 findings" (English plurals by appending "s").
std::string counted(size_t n, std::string_view noun);

/// "1 error, 2 warnings" for the findings of the report ("" when none).
std::string severityBreakdown(const LintReport& report);

/// Text safe inside a Markdown table cell or paragraph: one line (breaks read as spaces, other
/// controls escaped), no column separators, links, emphasis or raw HTML.
std::string markdownCell(std::string_view text);

/// `text` as a Markdown code span on one line (display_text.h); backticks in it (which would end
/// the span early) become '.
std::string markdownCode(std::string_view text);

/// XML text/attribute escaping, valid UTF-8; what XML 1.0 forbids (most C0 controls, U+FFFE,
/// U+FFFF, invalid bytes) becomes U+FFFD; tab and line breaks become character references.
std::string xmlEscape(std::string_view text);

}  // namespace steplint::analyzer::emit
