#include "check_config.h"

#include <filesystem>

namespace steplint::cli {
namespace fs = std::filesystem;

std::optional<std::string> chooseConfigFile(const std::string& explicit_path, bool no_config,
                                            const std::string& trace_dir, const std::string& cwd) {
  if (!explicit_path.empty()) return explicit_path;
  if (no_config) return std::nullopt;
  if (auto found = analyzer::findLintConfig(trace_dir)) return found;
  return analyzer::findLintConfig(cwd);
}

std::vector<analyzer::ConfigError> applyCliOverrides(const CliLintOverrides& flags,
                                                     const analyzer::RuleRegistry& registry,
                                                     analyzer::LintConfig& config) {
  // Validate the flags alone, then rename "lint.select" to "--select" for the message.
  analyzer::LintConfig given;
  given.select = flags.select.value_or(std::vector<std::string>{});
  given.extend_select = flags.extend_select;
  given.ignore = flags.ignore;
  std::vector<analyzer::ConfigError> errors = analyzer::validateSelectors(given, registry);
  for (analyzer::ConfigError& e : errors) {
    e.file.clear();
    e.key = "--" + e.key.substr(e.key.find('.') + 1);
  }
  if (flags.fail_on && !analyzer::parseSeverity(*flags.fail_on, config.fail_on))
    errors.push_back(
        {"", "--fail-on", "expected note, warning or error, got '" + *flags.fail_on + "'"});

  if (flags.select) {
    config.select = *flags.select;
    config.extend_select.clear();
    config.ignore.clear();
  }
  config.extend_select.insert(config.extend_select.end(), flags.extend_select.begin(),
                              flags.extend_select.end());
  config.ignore.insert(config.ignore.end(), flags.ignore.begin(), flags.ignore.end());
  return errors;
}

std::string describeConfigError(const analyzer::ConfigError& error, const std::string& cwd) {
  std::string line;
  if (!error.file.empty()) {
    const fs::path shown = fs::path(error.file).lexically_normal();
    const fs::path relative = shown.is_absolute() ? shown.lexically_relative(cwd) : shown;
    const bool below = !relative.empty() && *relative.begin() != "..";
    line = (below ? relative : shown).generic_string() + ": ";
  }
  if (!error.key.empty()) line += error.key + ": ";
  return line + error.message;
}

std::string currentDir() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? std::string(".") : cwd.string();
}

}  // namespace steplint::cli
