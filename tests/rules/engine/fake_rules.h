// Test-only rules with fixed metadata and canned findings, so the engine and the emitters
// can be tested whatever the real catalog holds.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "steplint/analyzer/rule_registry.h"

namespace steplint::test {

class FakeRule final : public analyzer::Rule {
 public:
  FakeRule(analyzer::RuleInfo info, std::vector<analyzer::OptionSpec> options = {})
      : info_(info), options_(std::move(options)) {}
  const analyzer::RuleInfo& info() const override { return info_; }
  std::vector<analyzer::OptionSpec> options() const override { return options_; }
  void configure(const analyzer::RuleOptions& options) override { configured = options; }
  void check(const analyzer::AnalysisContext&, analyzer::DiagnosticSink& sink) const override {
    for (analyzer::Diagnostic d : findings) sink.report(std::move(d));
    if (!not_checked_reason.empty()) sink.notChecked(not_checked_reason);
  }
  analyzer::Diagnostic diagnostic() const { return makeDiagnostic(); }

  analyzer::RuleOptions configured;            // what configure() received last
  std::vector<analyzer::Diagnostic> findings;  // reported by check()
  std::string not_checked_reason;

 private:
  analyzer::RuleInfo info_;
  std::vector<analyzer::OptionSpec> options_;
};

/// SL001 dropped-thing, SL101 dataloader-wait (with one option of each type), SL102
/// single-process-dataloader, SL201 pageable-h2d-copy, SL901 preview-thing (off by default).
inline void addFakeRules(analyzer::RuleRegistry& registry) {
  using analyzer::Category;
  using analyzer::Severity;
  registry.add<FakeRule>(analyzer::RuleInfo{"SL001", "dropped-thing", Category::kTraceHealth,
                                            Severity::kWarning, true, "Trace lost data"});
  registry.add<FakeRule>(
      analyzer::RuleInfo{"SL101", "dataloader-wait", Category::kInputPipeline, Severity::kWarning,
                         true, "Steps wait for the DataLoader"},
      std::vector<analyzer::OptionSpec>{
          {"min-wait-fraction", 0.05, "smallest wait fraction reported"},
          {"max-findings", int64_t{3}, "cap"},
          {"report-idle", false, "also report idle"},
          {"mode", std::string("avg"), "avg or max"}});
  registry.add<FakeRule>(analyzer::RuleInfo{"SL102", "single-process-dataloader",
                                            Category::kInputPipeline, Severity::kNote, true,
                                            "DataLoader runs in the main process"});
  registry.add<FakeRule>(analyzer::RuleInfo{"SL201", "pageable-h2d-copy", Category::kTransfer,
                                            Severity::kError, true,
                                            "Host-to-device copies from pageable memory"});
  registry.add<FakeRule>(analyzer::RuleInfo{"SL901", "preview-thing", Category::kPreview,
                                            Severity::kNote, false, "A noisy preview rule"});
}

inline FakeRule& fakeRule(const analyzer::RuleRegistry& registry, std::string_view code) {
  return dynamic_cast<FakeRule&>(*registry.find(code));
}

/// Codes of `rules`, for compact assertions.
inline std::vector<std::string> codesOf(const std::vector<analyzer::Rule*>& rules) {
  std::vector<std::string> codes;
  for (const analyzer::Rule* r : rules) codes.emplace_back(r->info().code);
  return codes;
}

}  // namespace steplint::test
