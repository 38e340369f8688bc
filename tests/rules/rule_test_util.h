// Runs one built-in rule on a small trace: the trace is given as inline JSON (imported with
// the real importer) or as a model built with trace::TraceBuilder.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/summary.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

namespace steplint::test {

struct RuleRun {
  std::vector<analyzer::Diagnostic> diagnostics;
  std::vector<std::string> not_checked;
  analyzer::SavingsTotal saving_all;
};

inline RuleRun runRule(std::string_view code, const trace::TraceModel& model,
                       const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const analyzer::RuleDefinition* definition = registry.find(code);
  REQUIRE(definition != nullptr);
  analyzer::RuleOptions options;
  for (const auto& [name, value] : overrides) {
    INFO("option " << name);
    REQUIRE(definition->findOption(name) != nullptr);  // a misspelt override would be ignored
    options.set(name, value);
  }
  const std::unique_ptr<analyzer::Rule> rule = definition->create(options);
  const analyzer::TraceSummary summary = analyzer::summarize(model);
  const analyzer::AnalysisContext context(model, summary);
  struct Sink final : analyzer::DiagnosticSink {
    RuleRun* run;
    void report(analyzer::Diagnostic d) override { run->diagnostics.push_back(std::move(d)); }
    void notChecked(std::string reason) override { run->not_checked.push_back(std::move(reason)); }
  } sink;
  RuleRun run;
  sink.run = &run;
  rule->check(context, sink);
  // The saving users see comes from the step replay over the findings (runLint does the same).
  run.saving_all = analyzer::attributeSavings(context, run.diagnostics);
  return run;
}

/// One GPU stream of a hand-written trace: an op launched at `launch_at` (µs) starts `latency`
/// µs later, or when the stream's previous op ends, and runs `dur`. at() returns its start.
class StreamQueue {
 public:
  explicit StreamQueue(double latency_us) : latency_(latency_us) {}
  double at(double launch_at, double dur) {
    const double start = std::max(free_, launch_at + latency_);
    free_ = start + dur;
    return start;
  }

 private:
  double latency_;
  double free_ = 0;
};

inline trace::TraceModel importInline(std::string_view json) {
  trace::TraceModel model;
  const auto status = trace::importTraceBytes(json, model, {}, "inline.json");
  INFO(status.message);
  REQUIRE(status.ok());
  return model;
}

/// A metric of a diagnostic's evidence, or -1 when absent.
inline double metricOf(const analyzer::Diagnostic& d, const std::string& key) {
  return d.evidence.metric(key, -1);
}

inline RuleRun runRuleOnJson(std::string_view code, std::string_view json,
                             const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  const trace::TraceModel model = importInline(json);
  return runRule(code, model, overrides);
}

}  // namespace steplint::test
