// The built-in emitters, one per --format; each emit() lives in <format>_emitter.cpp.
#pragma once

#include "steplint/analyzer/emitters.h"

namespace steplint::analyzer {

#define SL_DECLARE_EMITTER(Class, format, text)                     \
  class Class final : public Emitter {                              \
   public:                                                          \
    std::string_view name() const override { return format; }       \
    std::string_view description() const override { return text; }  \
    void emit(const LintReport& report, const EmitOptions& options, \
              std::ostream& out) const override;                    \
  };

SL_DECLARE_EMITTER(TextEmitter, "text", "one line per finding, flake8 style (default)")
SL_DECLARE_EMITTER(JsonEmitter, "json", "JSON, schema steplint.check/1 (docs/check-json.md)")
SL_DECLARE_EMITTER(SarifEmitter, "sarif", "SARIF 2.1.0 for GitHub code scanning")
SL_DECLARE_EMITTER(JunitEmitter, "junit",
                   "JUnit XML: one test suite per trace, one test case per rule")
SL_DECLARE_EMITTER(GithubEmitter, "github", "GitHub Actions workflow annotations (::warning ...)")
SL_DECLARE_EMITTER(MarkdownEmitter, "markdown", "Markdown tables for $GITHUB_STEP_SUMMARY")

#undef SL_DECLARE_EMITTER

}  // namespace steplint::analyzer
