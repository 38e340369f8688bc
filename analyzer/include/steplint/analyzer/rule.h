// The rule interface. One rule = one source file rules/src/<category>/slNNN_<name>.cpp (its
// Options, its class, its registration function), one doc page docs/rules/SLnnn-<name>.md, and
// its tests; scripts/add_rule.py creates all three. How a rule is declared and built per run:
// rule_definition.h.
#pragma once

#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <variant>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct RuleInfo {
  std::string_view code;  // "SL101"
  std::string_view name;  // "dataloader-wait": the pattern flagged, kebab-case
  Category category;
  Severity default_severity;
  bool enabled_by_default;   // false for SL9xx
  std::string_view summary;  // one line for `steplint rules`
};

/// A rule option as declared by the rule (name, type, default, meaning).
using OptionValue = std::variant<bool, int64_t, double, std::string>;
struct OptionSpec {
  std::string name;  // kebab-case: "min-wait-fraction"
  OptionValue default_value;
  std::string description;
  /// Range of a number option. Every option declared so far is a threshold, count, size or
  /// share, so the default is "not negative"; a rule whose option may be negative says so.
  double min_value = 0.0;
  double max_value = std::numeric_limits<double>::infinity();
};

/// "" when `value` suits `spec`, else why not ("expected a finite number, got nan", "must be
/// at least 0, got -1"). NaN and infinities are refused for every number option: no rule
/// threshold means anything with them, and comparisons with NaN are always false.
std::string checkOptionValue(const OptionSpec& spec, const OptionValue& value);

/// Option values after configuration: defaults overridden by steplint.toml / CLI.
class RuleOptions {
 public:
  void set(const std::string& name, OptionValue value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  /// The stored value, or nullptr.
  const OptionValue* get(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, OptionValue>& values() const { return values_; }
  double number(const std::string& name, double fallback) const;
  int64_t integer(const std::string& name, int64_t fallback) const;
  bool flag(const std::string& name, bool fallback) const;
  std::string text(const std::string& name, const std::string& fallback) const;

 private:
  std::map<std::string, OptionValue> values_;
};

/// Everything a rule may read: the model and the precomputed analyses. Rules never parse.
class AnalysisContext {
 public:
  AnalysisContext(const trace::TraceModel& model, const TraceSummary& summary);
  const trace::TraceModel& model() const { return model_; }
  const TraceSummary& summary() const { return summary_; }
  const StepResult& steps() const { return summary_.steps; }
  const BreakdownResult& breakdown() const { return summary_.breakdown; }
  /// Average step time in ms (0 when there are no steps).
  double averageStepMs() const { return summary_.breakdown.average_total_ns / 1e6; }
  /// Index into steps().steps of the kept step containing time t, or -1.
  int stepAt(int64_t t_ns) const;
  bool hasGpuActivity() const { return has_gpu_activity_; }

  /// Derived data several rules need (host syncs, launch links, GPU busy timelines ...): the
  /// first rule that asks for `key` computes it with make(), the others reuse it, so a
  /// multi-million-event trace is scanned once per derivation instead of once per rule.
  /// Every use of one key must ask for the same T. Thread-safe; make() may call shared().
  template <typename T, typename Make>
  const T& shared(std::string_view key, Make&& make) const {
    std::lock_guard<std::recursive_mutex> lock(cache_->mutex);
    auto it = cache_->entries.find(key);
    if (it == cache_->entries.end()) {
      std::shared_ptr<const void> value = std::make_shared<const T>(make());
      it = cache_->entries
               .emplace(std::string(key), CacheEntry{std::type_index(typeid(T)), std::move(value)})
               .first;
    }
    if (it->second.type != std::type_index(typeid(T)))
      throw std::logic_error("AnalysisContext::shared: key used with two types: " +
                             std::string(key));
    return *static_cast<const T*>(it->second.value.get());
  }

 private:
  struct CacheEntry {
    std::type_index type;
    std::shared_ptr<const void> value;
  };
  struct SharedCache {
    std::recursive_mutex mutex;
    std::map<std::string, CacheEntry, std::less<>> entries;
  };

  const trace::TraceModel& model_;
  const TraceSummary& summary_;
  bool has_gpu_activity_ = false;  // computed once: most rules ask, and it scans every event
  std::unique_ptr<SharedCache> cache_ = std::make_unique<SharedCache>();
};

/// Collects findings and "could not decide" notes from one rule.
class DiagnosticSink {
 public:
  virtual ~DiagnosticSink() = default;
  virtual void report(Diagnostic d) = 0;
  virtual void notChecked(std::string reason) = 0;
};

/// One rule as built for one analysis run: its options are fixed at construction (see
/// RuleDefinition::create), so check() reads nothing mutable and runs may overlap.
class Rule {
 public:
  explicit Rule(const RuleInfo& info) : info_(info) {}
  virtual ~Rule() = default;
  Rule(const Rule&) = delete;
  Rule& operator=(const Rule&) = delete;

  const RuleInfo& info() const { return info_; }
  virtual void check(const AnalysisContext& context, DiagnosticSink& sink) const = 0;

 protected:
  /// A diagnostic pre-filled with this rule's code, name and default severity.
  Diagnostic makeDiagnostic() const;

 private:
  RuleInfo info_;
};

/// A rule with a plain `Options` struct (member defaults are the option defaults, declared
/// once; the names users write are bound to the members in the rule's registration).
template <typename O>
class RuleWith : public Rule {
 public:
  using Options = O;
  RuleWith(const RuleInfo& info, const O& options) : Rule(info), options_(options) {}

 protected:
  const O& options() const { return options_; }

 private:
  O options_;
};

}  // namespace steplint::analyzer
