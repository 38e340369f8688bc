// Rendering a lint report (`steplint check --format ...`). One LintReport over one or more
// traces feeds every format; each format is one Emitter in analyzer/src/emitters/, registered
// by --format name in registerBuiltinEmitters() (docs/reference/style.md §2.2, §2.7).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/summary.h"

namespace steplint::analyzer {

/// Where rule doc pages live on the web: SARIF helpUri, JSON doc_url and Markdown links point
/// at `kRuleDocsBaseUrl + "SL101-dataloader-wait.md"`. One constant so a fork changes one line.
inline constexpr std::string_view kProjectUrl = "https://github.com/steplint/steplint";
inline constexpr std::string_view kRuleDocsBaseUrl =
    "https://github.com/steplint/steplint/blob/main/docs/rules/";
std::string ruleDocUrl(std::string_view code, std::string_view name);

/// The `steplint check` JSON schema id (docs/check-json.md).
inline constexpr std::string_view kCheckJsonSchema = "steplint.check/1";

/// One trace's part of a report.
struct TraceReport {
  LintResult lint;        // findings left after the baseline, and the rules not checked
  TraceSummary summary;   // the analyses; Markdown shows its step-time breakdown
  size_t suppressed = 0;  // findings hidden by --baseline
};

struct LintReport {
  std::vector<TraceReport> traces;
  /// The rules that ran, per-trace and job rules alike, in registry order: SARIF rules[], JUnit
  /// test cases, the "N rules selected" count.
  std::vector<RuleInfo> selected;
  Severity fail_on = Severity::kWarning;
  std::string tool_version;  // "0.1.0"
  /// What makes a result partial or less certain, as `steplint: warning:` said it on stderr
  /// (events lost on import, ranks missing from a job, inputs skipped, a recording that did not
  /// finish, the gate's notes): a CI job reading only the report must see them too. Text
  /// output leaves them to stderr.
  std::vector<std::string> warnings;
  /// Rule code -> the doc page's "What it does" paragraph (SARIF fullDescription); optional.
  std::map<std::string, std::string> rule_descriptions;

  size_t findingCount() const;
  /// Findings at or above fail_on: what makes `check` exit 1.
  size_t failingCount() const;
  size_t suppressedCount() const;
  size_t notCheckedCount() const;
  /// Distinct rules not checked on at least one trace (notCheckedCount counts each trace's).
  size_t notCheckedRuleCount() const;
};

struct EmitOptions {
  bool color = false;  // ANSI colour (text only)
  /// Trace paths under this directory are written relative to it (SARIF artifact URIs and
  /// GitHub `file=` must be relative to the repository root). "" keeps paths as given.
  std::string base_dir;
};

class Emitter {
 public:
  virtual ~Emitter() = default;
  virtual std::string_view name() const = 0;         // the --format value
  virtual std::string_view description() const = 0;  // one line for --help and docs
  virtual void emit(const LintReport& report, const EmitOptions& options,
                    std::ostream& out) const = 0;
};

class EmitterRegistry {
 public:
  template <typename E, typename... Args>
  void add(Args&&... args) {
    emitters_.push_back(std::make_unique<E>(std::forward<Args>(args)...));
  }
  const std::vector<std::unique_ptr<Emitter>>& emitters() const { return emitters_; }
  const Emitter* find(std::string_view name) const;  // nullptr if unknown
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Emitter>> emitters_;
};

/// text, json, sarif, junit, github, markdown — in the order --help lists them.
void registerBuiltinEmitters(EmitterRegistry& registry);

}  // namespace steplint::analyzer
