// How a rule is declared and built. A rule's .cpp holds a plain `Options` struct whose member
// initialisers are the defaults, and binds each member once to the name users write, a doc
// line and its bounds: option("min-wait-fraction", &Options::min_wait_fraction, "doc").
// The OptionSpec list the config reader validates against, `steplint explain` and `steplint
// rules` print and the catalog test compares with the doc page is derived from that table.
// The registry holds immutable RuleDefinitions; every analysis run builds its own rules with
// create(), so two runs with different options never share a mutable object.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "steplint/analyzer/rule.h"

namespace steplint::analyzer {

/// One option of a rule's `Options` struct: what users see, and how a value reaches the member.
template <typename Options>
struct OptionBinding {
  OptionSpec spec;
  std::function<void(Options&, const OptionValue&)> assign;
};

namespace detail {

/// `value` as the member type T. Numbers convert both ways (an int64 option read as a count, a
/// test passing 3 for a float option); any other mismatch is a programming error, since the
/// config reader has already checked each value against its OptionSpec.
template <typename T>
T optionAs(const OptionValue& value, const std::string& name) {
  if (const T* exact = std::get_if<T>(&value)) return *exact;
  if constexpr (std::is_same_v<T, double>) {
    if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (const auto* d = std::get_if<double>(&value)) return static_cast<int64_t>(*d);
  }
  throw std::invalid_argument("option '" + name + "' given a value of the wrong type");
}

}  // namespace detail

/// The bounds of the common kinds of number option, for option(..., bounds).
struct OptionBounds {
  double min_value = 0.0;
  double max_value = std::numeric_limits<double>::infinity();
};
/// A share of something (the step, the kernel time, the steps): 50 for "50 %" is refused
/// ("must be at most 1, got 50") instead of never, or always, flagging.
inline constexpr OptionBounds kShareBounds{0.0, 1.0};
/// An assumed speedup of the fixed code: 1 is no gain; below 1 would be a slowdown.
inline constexpr OptionBounds kSpeedupBounds{1.0, std::numeric_limits<double>::infinity()};

/// Binds the option `name` to `member`; its default is the member's initialiser in Options.
/// The bounds apply to number options (default: not negative, see OptionSpec).
template <typename Options, typename T>
// NOLINTNEXTLINE(performance-unnecessary-value-param): both are moved; clang-tidy 14 misses it
OptionBinding<Options> option(std::string name, T Options::*member, std::string description,
                              double min_value = 0.0,
                              double max_value = std::numeric_limits<double>::infinity()) {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, double> || std::is_same_v<T, std::string>,
                "an option member is bool, int64_t, double or std::string");
  OptionBinding<Options> binding;
  binding.spec.name = std::move(name);
  binding.spec.default_value = OptionValue(Options{}.*member);
  binding.spec.description = std::move(description);
  binding.spec.min_value = min_value;
  binding.spec.max_value = max_value;
  binding.assign = [member, option_name = binding.spec.name](Options& options,
                                                             const OptionValue& value) {
    options.*member = detail::optionAs<T>(value, option_name);
  };
  return binding;
}

template <typename Options, typename T>
// NOLINTNEXTLINE(performance-unnecessary-value-param): both are moved; clang-tidy 14 misses it
OptionBinding<Options> option(std::string name, T Options::*member, std::string description,
                              OptionBounds bounds) {
  return option(std::move(name), member, std::move(description), bounds.min_value,
                bounds.max_value);
}

/// A registered rule: what the catalog shows (info, options) and how to build it for one run.
/// Immutable once registered, so a registry can be shared by concurrent runs.
class RuleDefinition {
 public:
  /// Builds the rule from resolved values (every declared option present).
  using Factory = std::function<std::unique_ptr<Rule>(const RuleOptions& resolved)>;

  RuleDefinition(const RuleInfo& info, std::vector<OptionSpec> options, Factory factory)
      : info_(info), options_(std::move(options)), factory_(std::move(factory)) {}

  const RuleInfo& info() const { return info_; }
  const std::vector<OptionSpec>& options() const { return options_; }
  const OptionSpec* findOption(std::string_view name) const;

  /// The declared defaults, overridden by those of `values` this rule declares (others are
  /// ignored: a config holds the options of every rule).
  RuleOptions resolve(const RuleOptions& values) const;
  /// A fresh rule for one run, configured with resolve(values).
  std::unique_ptr<Rule> create(const RuleOptions& values = {}) const {
    return factory_(resolve(values));
  }

 private:
  RuleInfo info_;
  std::vector<OptionSpec> options_;
  Factory factory_;
};

/// The definition of rule class R (constructible as R(info, R::Options)) with its option table.
template <typename R>
RuleDefinition defineRule(const RuleInfo& info,
                          std::vector<OptionBinding<typename R::Options>> table = {}) {
  using Options = typename R::Options;
  std::vector<OptionSpec> specs;
  for (const OptionBinding<Options>& binding : table) specs.push_back(binding.spec);
  auto bindings = std::make_shared<const std::vector<OptionBinding<Options>>>(std::move(table));
  return RuleDefinition(info, std::move(specs), [info, bindings](const RuleOptions& resolved) {
    Options options;
    for (const OptionBinding<Options>& binding : *bindings)
      if (const OptionValue* value = resolved.get(binding.spec.name))
        binding.assign(options, *value);
    return std::unique_ptr<Rule>(std::make_unique<R>(info, options));
  });
}

}  // namespace steplint::analyzer
