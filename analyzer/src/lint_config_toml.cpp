// steplint.toml / pyproject.toml reading with toml++. Every problem becomes a ConfigError with
// the full dotted key; reading goes on after an error so one run reports all of them.
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>

#include "lint_config_internal.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/suggest.h"
#include "steplint/trace/input_file.h"

namespace steplint::analyzer {
namespace {

using detail::isPyproject;
using detail::kMaxConfigBytes;

namespace fs = std::filesystem;

// Real configs are a few KiB; the limit only stops a mistaken path (a trace, a log, a pipe
// that never ends) from being read whole into memory before TOML parsing rejects it.

// `compare` and `baseline` are read by loadCompareConfig (compare_config.cpp); this reader skips
// them.
const std::vector<std::string> kSectionKeys = {"lint", "compare", "baseline"};
const std::vector<std::string> kLintKeys = {"select", "extend-select", "ignore", "fail-on",
                                            "options"};

std::string typeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::string expectedName(const OptionValue& value) {
  switch (value.index()) {
    case 0:
      return "a boolean";
    case 1:
      return "an integer";
    case 2:
      return "a number";
    default:
      return "a string";
  }
}

/// `part` as a TOML key: bare when it can be, quoted otherwise; abbreviated when huge, since
/// the result only names the key in messages.
std::string joinKey(const std::string& prefix, std::string_view full_part) {
  const std::string shortened = abbreviate(full_part);
  const std::string_view part = shortened;
  const bool bare = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
  std::string piece = bare ? std::string(part) : "\"" + std::string(part) + "\"";
  return prefix.empty() ? piece : prefix + "." + piece;
}

class ConfigReader {
 public:
  ConfigReader(const std::string& file, const RuleRegistry& registry, LintConfig& config,
               std::vector<ConfigError>& errors)
      : file_(file), registry_(registry), config_(config), errors_(errors) {}

  /// `section` holds `lint`: the file's root, or pyproject's [tool.steplint].
  void readSection(const toml::table& section, const std::string& prefix) {
    for (const auto& [key, node] : section) {
      const std::string full = joinKey(prefix, key.str());
      if (key.str() == "compare" || key.str() == "baseline") continue;
      if (key.str() != "lint")
        unknownKey(full, key.str(), kSectionKeys);
      else if (const toml::table* lint = node.as_table())
        readLint(*lint, full);
      else
        error(full, "expected a table, got " + typeName(node));
    }
  }

 private:
  void readLint(const toml::table& lint, const std::string& prefix) {
    for (const auto& [key, node] : lint) {
      const std::string full = joinKey(prefix, key.str());
      const std::string_view name = key.str();
      if (name == "select")
        readSelectors(node, full, config_.select, true);
      else if (name == "extend-select")
        readSelectors(node, full, config_.extend_select, false);
      else if (name == "ignore")
        readSelectors(node, full, config_.ignore, false);
      else if (name == "fail-on")
        readFailOn(node, full);
      else if (name == "options")
        readOptions(node, full);
      else
        unknownKey(full, name, kLintKeys);
    }
  }

  void readSelectors(const toml::node& node, const std::string& key, std::vector<std::string>& out,
                     bool replace) {
    const toml::array* array = node.as_array();
    if (array == nullptr) return error(key, "expected an array of strings, got " + typeName(node));
    std::vector<std::string> values;
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& item = *array->get(i);
      if (const auto* text = item.as_string())
        values.push_back(text->get());
      else
        error(key + "[" + std::to_string(i) + "]", "expected a string, got " + typeName(item));
    }
    detail::validateSelectorList(values, key, file_, registry_, errors_);
    if (replace) out.clear();
    out.insert(out.end(), values.begin(), values.end());
  }

  void readFailOn(const toml::node& node, const std::string& key) {
    const auto* text = node.as_string();
    if (text == nullptr) return error(key, "expected a string, got " + typeName(node));
    if (!parseSeverity(text->get(), config_.fail_on))
      error(key,
            "expected \"note\", \"warning\" or \"error\", got \"" + abbreviate(text->get()) + "\"");
  }

  void readOptions(const toml::node& node, const std::string& key) {
    const toml::table* table = node.as_table();
    if (table == nullptr) return error(key, "expected a table, got " + typeName(node));
    for (const auto& [rule_key, rule_node] : *table) {
      const std::string full = joinKey(key, rule_key.str());
      const RuleDefinition* rule = registry_.find(rule_key.str());
      if (rule == nullptr && isJobRule(rule_key.str())) {
        error(full,
              "'" + std::string(rule_key.str()) + "' is a job rule; job rules have no options");
      } else if (rule == nullptr) {
        error(full, "unknown rule '" + abbreviate(rule_key.str()) + "'" +
                        didYouMean(rule_key.str(), ruleCodesAndNames(registry_)));
      } else if (const toml::table* values = rule_node.as_table()) {
        readRuleOptions(*rule, *values, full);
      } else {
        error(full, "expected a table, got " + typeName(rule_node));
      }
    }
  }

  bool isJobRule(std::string_view code_or_name) const {
    const auto& jobs = registry_.apartRuleInfos();
    return std::any_of(jobs.begin(), jobs.end(), [&](const RuleInfo& info) {
      return info.code == code_or_name || info.name == code_or_name;
    });
  }

  void readRuleOptions(const RuleDefinition& rule, const toml::table& values,
                       const std::string& prefix) {
    const std::vector<OptionSpec>& specs = rule.options();
    RuleOptions& target = config_.options[std::string(rule.info().code)];
    for (const auto& [key, node] : values) {
      const std::string full = joinKey(prefix, key.str());
      auto spec = std::find_if(specs.begin(), specs.end(),
                               [&name = key](const OptionSpec& s) { return s.name == name.str(); });
      if (spec == specs.end()) {
        unknownOption(rule, specs, full, key.str());
        continue;
      }
      auto value = convert(node, spec->default_value, full);
      if (!value) continue;
      if (const std::string problem = checkOptionValue(*spec, *value); !problem.empty())
        error(full, problem);
      else
        target.set(spec->name, *value);
    }
  }

  /// The node as the option's type; an integer is accepted where a number is expected.
  std::optional<OptionValue> convert(const toml::node& node, const OptionValue& want,
                                     const std::string& key) {
    if (std::holds_alternative<bool>(want) && node.is_boolean()) return node.as_boolean()->get();
    if (std::holds_alternative<int64_t>(want) && node.is_integer()) return node.as_integer()->get();
    if (std::holds_alternative<double>(want) && node.is_floating_point())
      return node.as_floating_point()->get();
    if (std::holds_alternative<double>(want) && node.is_integer())
      return static_cast<double>(node.as_integer()->get());
    if (std::holds_alternative<std::string>(want) && node.is_string())
      return node.as_string()->get();
    error(key, "expected " + expectedName(want) + ", got " + typeName(node));
    return std::nullopt;
  }

  void unknownOption(const RuleDefinition& rule, const std::vector<OptionSpec>& specs,
                     const std::string& key, std::string_view name) {
    const std::string label = std::string(rule.info().code) + " " + std::string(rule.info().name);
    if (specs.empty()) return error(key, "unknown option: " + label + " has no options");
    std::vector<std::string> names;
    for (const OptionSpec& s : specs) names.push_back(s.name);
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    error(key, "unknown option for " + label + didYouMean(name, names) + "; options: " + list);
  }

  void unknownKey(const std::string& key, std::string_view name,
                  const std::vector<std::string>& allowed) {
    std::string list;
    for (const std::string& n : allowed) list += (list.empty() ? "" : ", ") + n;
    error(key, "unknown key" + didYouMean(name, allowed) + "; expected one of: " + list);
  }

  void error(const std::string& key, std::string message) {
    errors_.push_back({file_, key, std::move(message)});
  }

  const std::string& file_;
  const RuleRegistry& registry_;
  LintConfig& config_;
  std::vector<ConfigError>& errors_;
};

/// A pyproject.toml counts when it has [tool.steplint]; one that does not parse but mentions
/// it is returned too, so the user sees the syntax error instead of a silently ignored file.
/// One that cannot be read (too large, unreadable) is returned as well, for the same reason.
bool pyprojectHasSteplint(const fs::path& path) {
  std::string text, problem;
  if (!trace::readInputFile(path.string(), kMaxConfigBytes, text, problem)) return true;
  if (text.find("steplint") == std::string::npos) return false;  // skip parsing unrelated files
  try {
    const toml::table root = toml::parse(text, path.string());
    return root["tool"]["steplint"].is_table();
  } catch (const toml::parse_error&) {
    return text.find("tool.steplint") != std::string::npos;
  }
}

}  // namespace

std::vector<ConfigError> loadLintConfig(const std::string& path, const RuleRegistry& registry,
                                        LintConfig& config) {
  toml::table root;
  if (std::optional<ConfigError> error = detail::parseConfigFile(path, root))
    return {std::move(*error)};
  config.source_file = path;
  std::vector<ConfigError> errors;
  ConfigReader reader(path, registry, config, errors);
  if (!isPyproject(path)) {
    reader.readSection(root, "");
  } else if (const toml::table* section = root["tool"]["steplint"].as_table()) {
    reader.readSection(*section, "tool.steplint");
  }
  return errors;
}

std::optional<std::string> findLintConfig(const std::string& dir) {
  std::error_code ec;
  fs::path current =
      fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir), ec).lexically_normal();
  if (ec) return std::nullopt;
  while (true) {
    // Closest directory wins; within one, steplint.toml wins over pyproject.toml (as ruff does).
    if (fs::is_regular_file(current / "steplint.toml", ec))
      return (current / "steplint.toml").string();
    const fs::path pyproject = current / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec) && pyprojectHasSteplint(pyproject))
      return pyproject.string();
    if (!current.has_parent_path() || current.parent_path() == current) return std::nullopt;
    current = current.parent_path();
  }
}

namespace detail {

bool isPyproject(const std::string& path) { return fs::path(path).filename() == "pyproject.toml"; }

std::optional<ConfigError> parseConfigFile(const std::string& path, toml::table& root) {
  trace::InputOpenOptions input;
  input.what = "config file";
  std::string text, problem;
  if (!trace::readInputFile(path, kMaxConfigBytes, text, problem, input))
    return ConfigError{path, "", problem};
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    return ConfigError{path, "",
                       "TOML syntax error at line " + std::to_string(at.line) + ", column " +
                           std::to_string(at.column) + ": " + std::string(e.description())};
  }
  return std::nullopt;
}

}  // namespace detail

}  // namespace steplint::analyzer
