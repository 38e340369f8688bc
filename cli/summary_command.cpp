#include "summary_command.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "messages.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"
#include "steplint/trace/output_file.h"
#include "terminal.h"

namespace steplint::cli {
namespace {

ColorMode parseColorMode(const std::string& text) {
  if (text == "always") return ColorMode::kAlways;
  if (text == "never") return ColorMode::kNever;
  return ColorMode::kAuto;
}


}  // namespace

void SummaryCommand::addOptions(CLI::App& app) {
  app.add_option("TRACE", traces_, "Trace files: torch.profiler / Kineto JSON, plain or .gz")
      ->required()
      ->type_name("FILE");
  app.add_option("--format", format_,
                 "Output format; json: schema steplint.summary/1 (docs/cli.md)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  step_flags_.add(app);
  app.add_option("--color", color_, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("-o,--output", output_path_,
                 "Write the summary to FILE instead of standard output")
      ->type_name("FILE");
}

int SummaryCommand::run() {
  const bool json = format_ == "json";
  const bool to_file = !output_path_.empty();
  const bool color = !json && shouldUseColor(parseColorMode(color_), !to_file && stdoutIsTerminal(),
                                             std::getenv("NO_COLOR"), std::getenv("TERM"));

  // Before any import: `-o t.json t.json` would replace the trace with its own summary.
  if (to_file) {
    if (std::string problem = trace::checkOutputPath(output_path_, traces_); !problem.empty()) {
      printError(output_path_ + ": " + problem);
      return kExitUsageError;
    }
  }

  // -o output is collected first so that a run whose inputs all fail leaves no file behind.
  std::ostringstream buffer;
  std::ostream& out = to_file ? static_cast<std::ostream&>(buffer) : std::cout;

  analyzer::SummaryOptions options;
  options.steps = step_flags_.options();

  bool any_failed = false;
  size_t rendered = 0;
  nlohmann::json documents = nlohmann::json::array();
  for (const std::string& path : traces_) {
    trace::TraceModel model;  // one trace in memory at a time
    if (!importTraceReporting(path, model)) {
      any_failed = true;
      continue;
    }
    analyzer::TraceSummary summary = analyzer::summarize(model, options);
    if (summary.source.empty()) summary.source = path;
    if (json) {
      documents.push_back(analyzer::summaryToJson(summary, model));
    } else {
      if (rendered > 0) out << '\n';
      analyzer::printSummaryText(out, summary, model, color);
      out.flush();
    }
    ++rendered;
  }

  // JSON: one TRACE argument gives one summary object; several give an array of the
  // summaries that could be imported, in argument order (docs/cli.md).
  if (json && traces_.size() == 1 && !documents.empty()) out << documents.front().dump(2) << '\n';
  if (json && traces_.size() > 1) out << documents.dump(2) << '\n';

  if (to_file && (rendered > 0 || (json && traces_.size() > 1))) {
    if (std::string problem = trace::writeOutputFile(output_path_, buffer.str()); !problem.empty()) {
      printError(output_path_ + ": " + problem);
      return kExitUsageError;
    }
  }
  if (!to_file) {
    std::cout.flush();
    if (!std::cout) {
      printError("writing to standard output failed");
      return kExitUsageError;
    }
  }
  return any_failed ? kExitUsageError : kExitOk;
}

}  // namespace steplint::cli
