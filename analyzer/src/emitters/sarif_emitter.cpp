// SARIF 2.1.0 for GitHub code scanning (github/codeql-action/upload-sarif). Code scanning
// needs a location per result, so each finding points at its trace file (line 1); the
// step-independent fingerprint goes into partialFingerprints so alerts survive re-runs.
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "builtin_emitters.h"
#include "emit_util.h"
#include "steplint/analyzer/json_text.h"

namespace steplint::analyzer {
namespace {

using nlohmann::json;

constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";

/// SARIF URIs are RFC 3986 references: percent-encode everything but unreserved and '/'.
std::string uriEncode(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

json ruleDescriptor(const LintReport& report, std::string_view code, std::string_view name,
                    const RuleInfo* rule) {
  const std::string summary = rule != nullptr ? std::string(rule->summary) : std::string(name);
  auto full = report.rule_descriptions.find(std::string(code));
  const Severity level = rule != nullptr ? rule->default_severity : Severity::kWarning;
  json d = {{"id", code},
            {"name", name},
            {"shortDescription", {{"text", summary}}},
            {"fullDescription",
             {{"text", full != report.rule_descriptions.end() ? full->second : summary}}},
            {"helpUri", ruleDocUrl(code, name)},
            {"defaultConfiguration", {{"level", severityName(level)}}}};
  if (rule != nullptr)
    d["properties"] = {{"category", categoryName(rule->category)},
                       {"tags", json::array({"performance", categoryName(rule->category)})}};
  return d;
}

/// rules[] in selection order, plus any rule that reported without being selected (defensive:
/// every result's ruleId must resolve). `index` maps code -> position.
json buildRules(const LintReport& report, std::map<std::string, size_t>& index) {
  json rules = json::array();
  auto add = [&](std::string_view code, std::string_view name, const RuleInfo* rule) {
    if (index.count(std::string(code)) > 0) return;
    index[std::string(code)] = rules.size();
    rules.push_back(ruleDescriptor(report, code, name, rule));
  };
  for (const RuleInfo& rule : report.selected) add(rule.code, rule.name, &rule);
  for (const TraceReport& t : report.traces) {
    for (const Diagnostic& d : t.lint.diagnostics) add(d.code, d.name, nullptr);
    for (const NotChecked& n : t.lint.not_checked) add(n.code, n.name, nullptr);
  }
  return rules;
}

json resultFor(const Diagnostic& d, size_t rule_index, const std::string& uri) {
  std::string text = d.message;
  if (const std::string saving = emit::savingText(d.saving); !saving.empty())
    text += " (est. saving " + saving + ")";
  json properties = {{"steps", d.evidence.steps}};
  if (d.saving.known()) properties["estimatedSavingMs"] = d.saving.per_step_ms;
  if (d.saving.fraction_of_step >= 0)
    properties["estimatedSavingFraction"] = d.saving.fraction_of_step;
  if (d.saving.alone_ms >= 0) properties["estimatedSavingAloneMs"] = d.saving.alone_ms;
  for (const auto& [key, value] : d.evidence.metrics) properties["metrics"][key] = value;
  // Braces alone would make nlohmann guess between arrays and objects; say which.
  json location = json::object();
  location["physicalLocation"]["artifactLocation"]["uri"] = uri;
  location["physicalLocation"]["region"]["startLine"] = 1;
  return {{"ruleId", d.code},
          {"ruleIndex", rule_index},
          {"level", severityName(d.severity)},
          {"message", {{"text", text}}},
          {"locations", json::array({location})},
          {"partialFingerprints", {{"steplintFingerprint/v1", d.fingerprint()}}},
          {"properties", properties}};
}

/// Rules that could not decide become tool notifications, not results: they are not findings.
json notificationFor(const NotChecked& n, size_t rule_index, const std::string& path) {
  return {
      {"level", "note"},
      {"message", {{"text", n.code + " " + n.name + " not checked in " + path + ": " + n.reason}}},
      {"associatedRule", {{"id", n.code}, {"index", rule_index}}}};
}

// A path outside the working directory cannot be relative to the repository root; it gets a
// file: scheme so viewers do not resolve it against the checkout. "../x.json" is outside too,
// and is made absolute first, so a trace has one URI however it was spelled.
std::string artifactUri(const std::string& path, const std::string& base_dir) {
  std::filesystem::path p(path);
  if (p.is_relative() && !p.empty() && *p.begin() == "..")
    p = (std::filesystem::path(base_dir) / p).lexically_normal();
  const std::string text = p.generic_string();
  return !text.empty() && text.front() == '/' ? "file://" + uriEncode(text) : uriEncode(text);
}

}  // namespace

void SarifEmitter::emit(const LintReport& report, const EmitOptions& options,
                        std::ostream& out) const {
  std::map<std::string, size_t> index;
  const json rules = buildRules(report, index);
  json results = json::array();
  json notifications = json::array();
  for (const TraceReport& t : report.traces) {
    const std::string path = emit::displayPath(t.lint.source, options.base_dir);
    const std::string uri = artifactUri(path, options.base_dir);
    for (const Diagnostic& d : t.lint.diagnostics)
      results.push_back(resultFor(d, index[d.code], uri));
    for (const NotChecked& n : t.lint.not_checked)
      notifications.push_back(notificationFor(n, index[n.code], path));
  }
  for (const std::string& w : report.warnings)
    notifications.push_back({{"level", "warning"}, {"message", {{"text", w}}}});
  const json driver = {{"name", "steplint"},
                       {"informationUri", kProjectUrl},
                       {"version", report.tool_version},
                       {"rules", rules}};
  json invocation = json::object();
  invocation["executionSuccessful"] = true;
  invocation["toolExecutionNotifications"] = notifications;
  const json run = {{"tool", {{"driver", driver}}},
                    {"invocations", json::array({invocation})},
                    {"results", results}};
  const json doc = {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  out << jsonText(doc) << '\n';
}

}  // namespace steplint::analyzer
