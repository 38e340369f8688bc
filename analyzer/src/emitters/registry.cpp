#include "builtin_emitters.h"

#include <set>
#include <string_view>

namespace steplint::analyzer {

std::string ruleDocUrl(std::string_view code, std::string_view name) {
  std::string url(kRuleDocsBaseUrl);
  url.append(code).append("-").append(name).append(".md");
  return url;
}

size_t LintReport::findingCount() const {
  size_t n = 0;
  for (const TraceReport& t : traces) n += t.lint.diagnostics.size();
  return n;
}

size_t LintReport::failingCount() const {
  size_t n = 0;
  for (const TraceReport& t : traces)
    for (const Diagnostic& d : t.lint.diagnostics)
      if (d.severity >= fail_on) ++n;
  return n;
}

size_t LintReport::suppressedCount() const {
  size_t n = 0;
  for (const TraceReport& t : traces) n += t.suppressed;
  return n;
}

size_t LintReport::notCheckedCount() const {
  size_t n = 0;
  for (const TraceReport& t : traces) n += t.lint.not_checked.size();
  return n;
}

size_t LintReport::notCheckedRuleCount() const {
  std::set<std::string_view> codes;
  for (const TraceReport& t : traces)
    for (const NotChecked& n : t.lint.not_checked) codes.insert(n.code);
  return codes.size();
}

const Emitter* EmitterRegistry::find(std::string_view name) const {
  for (const auto& e : emitters_)
    if (e->name() == name) return e.get();
  return nullptr;
}

std::vector<std::string> EmitterRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : emitters_) out.emplace_back(e->name());
  return out;
}

void registerBuiltinEmitters(EmitterRegistry& registry) {
  registry.add<TextEmitter>();
  registry.add<JsonEmitter>();
  registry.add<SarifEmitter>();
  registry.add<JunitEmitter>();
  registry.add<GithubEmitter>();
  registry.add<MarkdownEmitter>();
}

}  // namespace steplint::analyzer
