// libFuzzer target for the files a repository commits beside its traces (docs/fuzzing.md):
// steplint.toml (or pyproject.toml's [tool.steplint]) and a --baseline file. They are read as
// `steplint check` reads them, and what they set then runs: the rules with the options read
// (every value the file may set, up to the ends of each option's range), the baseline with its
// scope and worse-factor, the gate with the file's limits, and every report format.
//
// An input is the TOML text, then optionally a form feed ('\f') and the baseline's JSON. The
// rules run on three seed traces of fuzz/corpus_analysis (a GPU Python run with its DataLoader,
// a LibTorch CPU run, an NCCL rank), imported once.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/baseline.h"
#include "steplint/analyzer/compare_config.h"
#include "steplint/analyzer/emitters.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/regression.h"
#include "steplint/analyzer/run_diff.h"
#include "steplint/analyzer/summary.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

#include "fuzz_invariants.h"

namespace {

namespace analyzer = steplint::analyzer;
namespace trace = steplint::trace;
namespace fs = std::filesystem;
using steplint::fuzz::checkSavings;

struct SeedTrace {
  std::string path;  // as a user's file would be named: the baseline's scope comes from it
  trace::TraceModel model;
  analyzer::TraceSummary summary;
};

// The files the input is written to: the readers take paths, as the CLI gives them.
class Scratch {
 public:
  Scratch()
      : dir_(fs::temp_directory_path() / ("steplint-config-fuzz-" + std::to_string(getpid()))) {
    fs::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, std::string_view text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(text.data(), text.size());
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

struct Fixture {
  analyzer::RuleRegistry rules;
  analyzer::EmitterRegistry emitters;
  std::vector<SeedTrace> traces;
  Scratch scratch;

  Fixture() {
    steplint::rules::registerBuiltinRules(rules);
    analyzer::registerBuiltinEmitters(emitters);
    const std::string seeds = std::string(STEPLINT_FUZZ_DIR) + "/corpus_analysis/";
    for (const char* name :
         {"python_slow_loader.json", "slow_trainer.json", "tracegen_nccl_rank0.json"}) {
      SeedTrace seed;
      seed.path = std::string("runs/worker0.1732900000123.") + name;
      trace::ImportOptions import;
      import.threads = 1;
      if (!trace::importTraceFile(seeds + name, seed.model, import).ok()) __builtin_trap();
      analyzer::SummaryOptions options;
      options.threads = 1;
      seed.summary = analyzer::summarize(seed.model, options);
      traces.push_back(std::move(seed));
    }
  }
};

// A baseline written from a run's findings accepts every one of them again (`check
// --write-baseline`, then `check --baseline`): nothing suppressed is reported, nothing is worse.
void checkBaselineRoundTrip(const Fixture& fixture, const std::vector<analyzer::LintResult>& runs,
                            const std::vector<std::string>& scopes, double worse_factor) {
  std::vector<analyzer::ScopedResult> scoped;
  for (size_t i = 0; i < runs.size(); ++i) scoped.push_back({&runs[i], scopes[i]});
  const std::string path = fixture.scratch.path("written-baseline.json");
  if (!analyzer::writeBaseline(path, scoped).empty()) __builtin_trap();
  analyzer::Baseline written;
  if (!analyzer::loadBaseline(path, written).empty()) __builtin_trap();
  for (size_t i = 0; i < runs.size(); ++i) {
    analyzer::LintResult again = runs[i];
    const size_t findings = again.diagnostics.size();
    const analyzer::BaselineOutcome outcome =
        analyzer::applyBaseline(written, again, scopes[i], worse_factor);
    if (outcome.suppressed != findings || outcome.worse != 0 || !again.diagnostics.empty())
      __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Fixture fixture;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\f');
  const std::string_view toml = input.substr(0, split);
  // pyproject.toml is read for its [tool.steplint] table only: name the file as its text asks.
  const std::string config_path = fixture.scratch.write(
      toml.find("[tool.") != std::string_view::npos ? "pyproject.toml" : "steplint.toml", toml);

  analyzer::LintConfig config;
  analyzer::GateOptions gate;
  analyzer::BaselineOptions baseline_options;
  std::vector<analyzer::ConfigError> errors =
      analyzer::loadLintConfig(config_path, fixture.rules, config);
  if (errors.empty()) errors = analyzer::loadCompareConfig(config_path, gate, baseline_options);
  for (const analyzer::ConfigError& error : errors)
    if (error.message.empty()) __builtin_trap();  // every refusal says why
  if (!errors.empty()) return 0;                  // `check` stops here (exit 2)
  if (baseline_options.worse_factor <= 1) __builtin_trap();

  analyzer::Baseline baseline;
  if (split != std::string_view::npos) {
    const std::string path = fixture.scratch.write("baseline.json", input.substr(split + 1));
    if (!analyzer::loadBaseline(path, baseline).empty()) return 0;  // `check` stops (exit 2)
  }

  analyzer::LintReport report;
  for (const analyzer::RuleDefinition* rule : config.selectedRules(fixture.rules))
    report.selected.push_back(rule->info());
  std::vector<analyzer::LintResult> unfiltered;
  std::vector<std::string> scopes;
  std::vector<analyzer::RunProfile> profiles;
  for (const SeedTrace& seed : fixture.traces) {
    analyzer::TraceReport entry;
    entry.summary = seed.summary;
    entry.lint = analyzer::runLint(seed.model, seed.summary, fixture.rules, config);
    entry.lint.source = seed.path;
    checkSavings(entry.lint);
    profiles.push_back(analyzer::profileRun(seed.model, seed.summary, &entry.lint));
    unfiltered.push_back(entry.lint);
    scopes.push_back(analyzer::traceScope(seed.path, seed.model.metadata, baseline_options.scope));
    entry.suppressed =
        analyzer::applyBaseline(baseline, entry.lint, scopes.back(), baseline_options.worse_factor)
            .suppressed;
    checkSavings(entry.lint);
    report.traces.push_back(std::move(entry));
  }
  checkBaselineRoundTrip(fixture, unfiltered, scopes, baseline_options.worse_factor);

  // The gate with the file's limits: between different runs anything goes, a run against itself
  // never regressed.
  std::ostringstream out;
  for (size_t i = 0; i < profiles.size(); ++i) {
    for (const analyzer::GateCheck& check : analyzer::runGate(profiles[i], profiles[i], gate))
      if (check.verdict == analyzer::GateVerdict::kRegressed) __builtin_trap();
    const size_t next = (i + 1) % profiles.size();
    for (const analyzer::GateCheck& check : analyzer::runGate(profiles[i], profiles[next], gate))
      out << check.reason;
  }
  report.fail_on = config.fail_on;
  for (const auto& emitter : fixture.emitters.emitters()) emitter->emit(report, {}, out);
  return 0;
}
