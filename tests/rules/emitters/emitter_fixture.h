// One hand-built report over two traces, rendered by every emitter test:
//   run/a.pt.trace.json: SL201 error (steps 3,4), SL101 warning (step 5), SL102 note (no step,
//     a message with characters every format must escape), SL001 not checked;
//   b.json: no findings, 2 suppressed by the baseline, step-time breakdown of 2 steps.
#pragma once

#include <sstream>
#include <string>

#include "../engine/fake_rules.h"
#include "steplint/analyzer/emitters.h"

namespace steplint::test {

inline constexpr const char* kAwkwardMessage = "Pipe | <tag> & \"quotes\" 100% a,b: c\nsecond line";

struct EmitterFixture {
  analyzer::RuleRegistry registry;
  analyzer::LintReport report;

  EmitterFixture() {
    addFakeRules(registry);
    analyzer::LintConfig defaults;
    for (const analyzer::RuleDefinition* r : defaults.selectedRules(registry))
      report.selected.push_back(r->info());
    report.tool_version = "0.1.0";
    report.traces.push_back(firstTrace());
    report.traces.push_back(secondTrace());
  }

  analyzer::Diagnostic make(const std::string& code, analyzer::Severity severity,
                            std::string message) const {
    analyzer::Diagnostic d = fakeDiagnostic(registry, code);
    d.severity = severity;
    d.message = std::move(message);
    return d;
  }

  analyzer::TraceReport firstTrace() const {
    analyzer::TraceReport t;
    t.lint.source = "run/a.pt.trace.json";
    analyzer::Diagnostic copy =
        make("SL201", analyzer::Severity::kError, "Pageable H2D copies: 18.4 MB per step");
    copy.evidence.steps = {3, 4};
    copy.evidence.metrics = {{"bytes", 19267584}};
    copy.saving = {12.04, 0.068, "copy time not overlapped"};
    copy.fingerprint_key = "aten::copy_";
    analyzer::Diagnostic wait =
        make("SL101", analyzer::Severity::kWarning, "DataLoader wait is 33% of step time");
    wait.evidence.steps = {5};
    wait.saving = {58.3, 0.331, "wait not hidden"};
    wait.fingerprint_key = "dataloader";
    analyzer::Diagnostic odd = make("SL102", analyzer::Severity::kNote, kAwkwardMessage);
    t.lint.diagnostics = {copy, wait, odd};
    t.lint.not_checked = {{"SL001", "dropped-thing", "no trace metadata"}};
    return t;
  }

  static analyzer::TraceReport secondTrace() {
    analyzer::TraceReport t;
    t.lint.source = "b.json";
    t.suppressed = 2;
    analyzer::BreakdownResult& b = t.summary.breakdown;
    b.per_step.resize(2);
    b.average_total_ns = 10e6;
    b.average_ns[static_cast<int>(analyzer::StepCategory::kKernel)] = 6e6;
    b.average_ns[static_cast<int>(analyzer::StepCategory::kDataLoader)] = 4e6;
    return t;
  }

  std::string render(std::string_view format, analyzer::EmitOptions options = {}) const {
    analyzer::EmitterRegistry emitters;
    analyzer::registerBuiltinEmitters(emitters);
    const analyzer::Emitter* emitter = emitters.find(format);
    REQUIRE(emitter != nullptr);
    std::ostringstream out;
    emitter->emit(report, options, out);
    return out.str();
  }
};

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace steplint::test
