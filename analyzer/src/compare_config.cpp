// loadCompareConfig (compare_config.h): the `[compare]` section, read with toml++ after the
// lint reader has validated (and skipped) it, so the two sections evolve separately.
#include "steplint/analyzer/compare_config.h"

#include <toml++/toml.h>

#include <filesystem>

#include "lint_config_internal.h"

namespace steplint::analyzer {
namespace {

using detail::isPyproject;

class CompareReader {
 public:
  CompareReader(const std::string& file, GateOptions& options, std::vector<ConfigError>& errors)
      : file_(file), options_(options), errors_(errors) {}

  void read(const toml::table& compare, const std::string& prefix) {
    for (const auto& [key, node] : compare) {
      const std::string full = prefix + "." + std::string(key.str());
      if (key.str() == "max-regression")
        readLimits(node, full);
      else if (key.str() == "significance")
        readSignificance(node, full);
      else if (key.str() == "min-steps")
        readMinSteps(node, full);
      else
        error(full, "unknown key; expected one of: max-regression, significance, min-steps");
    }
  }

 private:
  void readLimits(const toml::node& node, const std::string& key) {
    if (const auto* text = node.as_string()) return addLimit(text->get(), key);
    const toml::array* list = node.as_array();
    if (!list) return error(key, "expected a string such as \"5%\" or a list of them");
    for (const toml::node& item : *list) {
      if (const auto* text = item.as_string())
        addLimit(text->get(), key);
      else
        error(key, "expected strings such as \"5%\" or \"kernel=10%\"");
    }
  }
  void addLimit(const std::string& text, const std::string& key) {
    RegressionLimit limit;
    if (std::string problem = parseRegressionLimit(text, limit); !problem.empty())
      return error(key, problem);
    options_.limits.push_back(limit);
  }
  void readSignificance(const toml::node& node, const std::string& key) {
    const std::optional<double> value = node.value<double>();
    if (!value || !(*value > 0 && *value < 1))
      return error(key, "expected a number between 0 and 1, such as 0.05");
    options_.alpha = *value;
  }
  void readMinSteps(const toml::node& node, const std::string& key) {
    const std::optional<int64_t> value = node.value<int64_t>();
    if (!value || *value < 2 || *value > 1'000'000)
      return error(key, "expected a whole number of steps, 2 or more");
    options_.min_steps = static_cast<size_t>(*value);
  }
  void error(const std::string& key, const std::string& message) {
    errors_.push_back({file_, key, message});
  }

  std::string file_;
  GateOptions& options_;
  std::vector<ConfigError>& errors_;
};

void readBaseline(const std::string& file, const toml::table& table, const std::string& prefix,
                  BaselineOptions& options, std::vector<ConfigError>& errors) {
  for (const auto& [key, node] : table) {
    const std::string full = prefix + "." + std::string(key.str());
    if (key.str() == "scope") {
      const std::optional<std::string> text = node.value<std::string>();
      if (!text || !parseBaselineScope(*text, options.scope))
        errors.push_back({file, full, "expected \"file\", \"rank\" or \"none\""});
    } else if (key.str() == "worse-factor") {
      const std::optional<double> value = node.value<double>();
      if (!value || !(*value > 1 && *value <= 1000))
        errors.push_back({file, full, "expected a number above 1, such as 2.0"});
      else
        options.worse_factor = *value;
    } else {
      errors.push_back({file, full, "unknown key; expected one of: scope, worse-factor"});
    }
  }
}

/// `name` under the root or pyproject's [tool.steplint]; an error when it is not a table.
const toml::table* section(const toml::table& root, bool pyproject, const std::string& name,
                           const std::string& file, std::vector<ConfigError>& errors) {
  const toml::node_view<const toml::node> node =
      pyproject ? root["tool"]["steplint"][name] : root[name];
  if (node && !node.is_table())
    errors.push_back({file, (pyproject ? "tool.steplint." : "") + name, "expected a table"});
  return node.as_table();
}

}  // namespace

std::vector<ConfigError> loadCompareConfig(const std::string& path, GateOptions& gate,
                                           BaselineOptions& baseline) {
  toml::table root;
  // loadLintConfig reads the same file first and reports its read or syntax error.
  if (detail::parseConfigFile(path, root)) return {};
  const bool pyproject = isPyproject(path);
  const std::string prefix = pyproject ? "tool.steplint." : "";
  std::vector<ConfigError> errors;
  if (const toml::table* compare = section(root, pyproject, "compare", path, errors))
    CompareReader(path, gate, errors).read(*compare, prefix + "compare");
  if (const toml::table* table = section(root, pyproject, "baseline", path, errors))
    readBaseline(path, *table, prefix + "baseline", baseline, errors);
  return errors;
}

}  // namespace steplint::analyzer
