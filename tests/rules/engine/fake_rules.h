// Test-only rules with fixed metadata, so the engine and the emitters can be tested whatever
// the real catalog holds. Each run builds its own FakeRule; what it was built with is kept in
// a FakeRuns log owned by the test.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "steplint/analyzer/rule_registry.h"

namespace steplint::test {

/// The resolved options each fake rule was last built with, by code.
struct FakeRuns {
  std::map<std::string, analyzer::RuleOptions> configured;
};

class FakeRule final : public analyzer::Rule {
 public:
  using Rule::Rule;
  void check(const analyzer::AnalysisContext&, analyzer::DiagnosticSink&) const override {}
};

/// A diagnostic as rule `code` of `registry` would start one (code, name, default severity).
inline analyzer::Diagnostic fakeDiagnostic(const analyzer::RuleRegistry& registry,
                                           std::string_view code) {
  const analyzer::RuleDefinition* definition = registry.find(code);
  analyzer::Diagnostic d;
  d.code = std::string(definition->info().code);
  d.name = std::string(definition->info().name);
  d.severity = definition->info().default_severity;
  return d;
}

/// SL001 dropped-thing, SL101 dataloader-wait (with one option of each type), SL102
/// single-process-dataloader, SL201 pageable-h2d-copy, SL901 preview-thing (off by default).
/// Returns the log of what runs built them with.
inline std::shared_ptr<FakeRuns> addFakeRules(analyzer::RuleRegistry& registry) {
  using analyzer::Category;
  using analyzer::Severity;
  auto runs = std::make_shared<FakeRuns>();
  auto add = [&](const analyzer::RuleInfo& info, std::vector<analyzer::OptionSpec> options = {}) {
    registry.add(analyzer::RuleDefinition(
        info, std::move(options), [info, runs](const analyzer::RuleOptions& resolved) {
          runs->configured[std::string(info.code)] = resolved;
          return std::unique_ptr<analyzer::Rule>(std::make_unique<FakeRule>(info));
        }));
  };
  add({"SL001", "dropped-thing", Category::kTraceHealth, Severity::kWarning, true,
       "Trace lost data"});
  add({"SL101", "dataloader-wait", Category::kInputPipeline, Severity::kWarning, true,
       "Steps wait for the DataLoader"},
      {{"min-wait-fraction", 0.05, "smallest wait fraction reported"},
       {"max-findings", int64_t{3}, "cap"},
       {"report-idle", false, "also report idle"},
       {"mode", std::string("avg"), "avg or max"}});
  add({"SL102", "single-process-dataloader", Category::kInputPipeline, Severity::kNote, true,
       "DataLoader runs in the main process"});
  add({"SL201", "pageable-h2d-copy", Category::kTransfer, Severity::kError, true,
       "Host-to-device copies from pageable memory"});
  add({"SL901", "preview-thing", Category::kPreview, Severity::kNote, false,
       "A noisy preview rule"});
  return runs;
}

/// Codes of `rules`, for compact assertions.
inline std::vector<std::string> codesOf(const std::vector<const analyzer::RuleDefinition*>& rules) {
  std::vector<std::string> codes;
  for (const analyzer::RuleDefinition* r : rules) codes.emplace_back(r->info().code);
  return codes;
}

}  // namespace steplint::test
