#include "steplint/gui/trace_loader.h"

#include <chrono>
#include <filesystem>

#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

namespace steplint::gui {
namespace {

// Import is most of the time; the analyses and rules take the rest of the bar.
constexpr double kImportShare = 0.9;

/// steplint.toml or pyproject.toml next to (or above) the trace, as `steplint check` finds
/// it; a bad file is reported and the defaults are used, so a trace always opens.
analyzer::LintConfig lintConfigFor(const std::string& path, const analyzer::RuleRegistry& registry,
                                   LoadedTrace& out) {
  analyzer::LintConfig config;
  std::error_code ec;
  const auto dir = std::filesystem::absolute(path, ec).parent_path().string();
  const auto file = analyzer::findLintConfig(dir);
  if (!file) return config;
  analyzer::LintConfig from_file;
  const auto errors = analyzer::loadLintConfig(*file, registry, from_file);
  if (errors.empty()) {
    out.config_file = *file;
    return from_file;
  }
  for (const auto& e : errors) {
    out.warnings.push_back(e.file + ": " + e.key + ": " + e.message + " (using the default rules)");
  }
  return config;
}

}  // namespace

TraceLoader::TraceLoader(QObject* parent) : BackgroundLoader(parent) {
  qRegisterMetaType<std::shared_ptr<const steplint::gui::LoadedTrace>>(
      "std::shared_ptr<const steplint::gui::LoadedTrace>");
}

void TraceLoader::load(const QString& path) {
  run(
      [this, file = path.toStdString()](const std::atomic<bool>& cancel, std::string& error) {
        return loadNow(file, &cancel, progressReporter(), error);
      },
      [this](std::shared_ptr<LoadedTrace> trace) { emit loaded(std::move(trace)); });
}

std::shared_ptr<LoadedTrace> TraceLoader::loadNow(const std::string& path,
                                                  const std::atomic<bool>* cancel,
                                                  const std::function<void(double)>& progress,
                                                  std::string& error) {
  return loadNow(path, cancel, progress, true, error);
}

std::shared_ptr<LoadedTrace> TraceLoader::loadNow(const std::string& path,
                                                  const std::atomic<bool>* cancel,
                                                  const std::function<void(double)>& progress,
                                                  bool lint, std::string& error) {
  const auto started = std::chrono::steady_clock::now();
  auto out = std::make_shared<LoadedTrace>();
  out->path = path;
  trace::ImportOptions options;
  options.cancel = cancel;
  if (progress) options.progress = [&progress](double f) { progress(f * kImportShare); };
  const trace::ImportStatus status = trace::importTraceFile(path, out->model, options);
  if (!status.ok()) {
    error = status.message;
    return nullptr;
  }
  if (cancel != nullptr && cancel->load()) return nullptr;
  for (std::string& line : trace::importStatLines(out->model.stats))
    out->warnings.push_back(std::move(line));
  if (!out->model.metadata.stopped_early_reason
           .empty())  // the collector's reason, beside its counter
    out->warnings.push_back("recording stopped early: " + out->model.metadata.stopped_early_reason);

  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const analyzer::LintConfig config = lintConfigFor(path, registry, *out);
  analyzer::SummaryOptions summary_options;
  summary_options.top_kernels = 0;  // every kernel: the overview's kernel table lists them all
  out->summary = analyzer::summarize(out->model, summary_options);
  out->summary.source = path;
  if (lint) out->lint = analyzer::runLint(out->model, out->summary, registry, config);
  out->lint.source = path;
  // Here, off the GUI thread: on millions of events it takes a noticeable fraction of a second.
  out->op_stats = analyzer::computeOpStats(out->model);
  if (progress) progress(1.0);
  out->load_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace steplint::gui
