#include "emit_util.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <vector>

#include "steplint/analyzer/display_text.h"
#include "steplint/analyzer/regression.h"
#include "steplint/trace/utf8.h"

namespace steplint::analyzer::emit {

std::string displayPath(const std::string& path, const std::string& base_dir) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (!base_dir.empty() && p.is_absolute()) {
    const fs::path relative =
        p.lexically_normal().lexically_relative(fs::path(base_dir).lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") p = relative;
  }
  std::string out = p.lexically_normal().generic_string();
  return out.empty() ? path : out;
}

namespace {

/// ", 33%", ", <1%": "0%" would read as "no saving" next to a non-zero ms figure.
std::string percentText(double fraction) {
  if (fraction < 0) return {};
  const double percent = fraction * 100.0;
  if (percent > 0 && percent < 0.5) return ", <1%";
  std::array<char, 32> buffer{};
  std::snprintf(buffer.data(), buffer.size(), ", %.0f%%", percent);
  return buffer.data();
}

/// "58.3 ms/step" or, with a low end, "41.0-58.3 ms/step"; a range whose ends print alike
/// ("0.1-0.1") is printed once.
std::string msText(double ms, double low_ms) {
  std::array<char, 32> high{}, low{};
  std::snprintf(high.data(), high.size(), "%.1f", ms);
  if (low_ms >= 0 && low_ms < ms) std::snprintf(low.data(), low.size(), "%.1f", low_ms);
  if (low[0] == '\0' || std::string_view(low.data()) == high.data())
    return std::string(high.data()) + " ms/step";
  return std::string(low.data()) + "-" + high.data() + " ms/step";
}

}  // namespace

std::string savingText(const SavingEstimate& saving) {
  if (!saving.known()) return {};
  return msText(saving.per_step_ms, saving.low_ms) + percentText(saving.fraction_of_step);
}

std::string savingAllText(const LintResult& lint) {
  const SavingsTotal& total = lint.saving_all;
  if (total.per_step_ms < 0)
    return total.not_estimated.empty() ? std::string() : "savings " + total.not_estimated;
  std::string text = "fixing all findings";
  if (total.suppressed > 0)
    text += ", the " + std::to_string(total.suppressed) + " the baseline hides included";
  text += ": ~" + msText(total.per_step_ms, total.low_ms);
  std::string aside;  // what the parentheses hold
  if (total.fraction_of_step >= 0) {
    std::array<char, 160> buffer{};
    if (total.profiler_overhead_ms >= 0.05)
      std::snprintf(buffer.data(), buffer.size(),
                    " of the %.1f ms step without the profiler's ~%.1f ms", total.step_ms,
                    total.profiler_overhead_ms);
    else
      std::snprintf(buffer.data(), buffer.size(), " of the %.1f ms step", total.step_ms);
    aside = percentText(total.fraction_of_step).substr(2) + buffer.data();
  }
  // Findings without a time estimate are not in the total: say which, so "all" is not read as
  // every finding listed above.
  const std::vector<std::string> left_out = findingsLeftOutOfSavings(lint);
  if (!left_out.empty()) {
    std::string codes;
    for (const std::string& code : left_out) codes += (codes.empty() ? "" : ", ") + code;
    aside += (aside.empty() ? "" : "; ") + codes + " not estimated, not included";
  }
  if (!aside.empty()) text += " (" + aside + ")";
  // The whole-trace fallback's "step" may hold many iterations (h6 D10: 2 of 18.5 ms read as
  // "16.8 ms/step" of loader wait): say what the unit is.
  if (total.whole_trace_step)
    text +=
        "; no iterations were found, so the step is the whole trace and each ms/step is for "
        "all of it";
  return text;
}

std::optional<int64_t> firstStep(const Diagnostic& d) {
  if (d.evidence.steps.empty()) return std::nullopt;
  return d.evidence.steps.front();
}

std::string counted(size_t n, std::string_view noun) {
  std::string text = std::to_string(n) + " " + std::string(noun);
  if (n != 1) text += "s";
  return text;
}

std::string severityBreakdown(const LintReport& report) {
  std::array<size_t, 3> counts{};  // indexed by Severity
  for (const TraceReport& t : report.traces)
    for (const Diagnostic& d : t.lint.diagnostics) ++counts[static_cast<size_t>(d.severity)];
  std::string text;
  for (Severity s : {Severity::kError, Severity::kWarning, Severity::kNote}) {
    const size_t n = counts[static_cast<size_t>(s)];
    if (n == 0) continue;
    if (!text.empty()) text += ", ";
    text += counted(n, severityName(s));
  }
  return text;
}

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = trace::validUtf8Length(text.substr(i));
    const uint32_t cp = n == 0 ? 0xFFFD : trace::decodeUtf8(text.substr(i), n);
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // As references, so an attribute keeps them (a parser turns raw ones into spaces).
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        // XML 1.0's Char production leaves out the other C0 controls, U+FFFE and U+FFFF (and
        // the surrogates, which validUtf8Length already rejects).
        if (n == 0 || cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF)
          out += trace::kReplacementChar;
        else
          out.append(text.substr(i, n));
    }
    i += n == 0 ? 1 : n;
  }
  return out;
}

std::string markdownCell(std::string_view text) {
  std::string line(text);
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::string out;
  for (char c : displayText(line)) {
    switch (c) {
      // GFM's backslash escapes: a backslash of the text must not escape our '|' (it would
      // end the cell), and '[', ']', '*', '`' would start links, images, emphasis or code;
      // '_' and '~' too: the loader's `_SingleProcessDataLoaderIter.__next__` showed "next" in
      // bold, and "~" pairs strike text through.
      case '\\':
      case '|':
      case '[':
      case ']':
      case '*':
      case '_':
      case '~':
      case '`':
        out += '\\';
        out += c;
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string markdownCode(std::string_view text) {
  std::string out = displayText(text);  // a line break would end a heading or a list item
  for (char& c : out)
    if (c == '`') c = '\'';
  return "`" + out + "`";
}

}  // namespace steplint::analyzer::emit
