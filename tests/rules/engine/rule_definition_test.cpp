// Rules declared once and built per run (rule_definition.h): the option table gives the specs
// (defaults from the Options struct), create() gives each run its own configured rule, and two
// runs with different options on two threads each get their own result.
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "kineto_trace.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

namespace steplint::test {
namespace {

using analyzer::OptionValue;

struct Options {
  double threshold = 0.5;
  int64_t repeat = 2;
  bool loud = false;
  std::string label = "x";
};

/// Reports `repeat` findings whose message is its options; reads them once per finding, so a
/// rule object shared and reconfigured by another run would mix two runs' values.
class EchoRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext&, analyzer::DiagnosticSink& sink) const override {
    for (int64_t i = 0; i < options().repeat; ++i) {
      analyzer::Diagnostic d = makeDiagnostic();
      d.message = options().label + " " + std::to_string(options().threshold) +
                  (options().loud ? " loud" : "");
      sink.report(std::move(d));
    }
  }
};

constexpr analyzer::RuleInfo kEchoInfo{
    "SL777", "echo-options",       analyzer::Category::kPreview, analyzer::Severity::kNote,
    true,    "reports its options"};

void addEchoRule(analyzer::RuleRegistry& registry) {
  registry.add<EchoRule>(
      kEchoInfo, {
                     analyzer::option("threshold", &Options::threshold, "a share", 0.0, 1.0),
                     analyzer::option("repeat", &Options::repeat, "findings per run", 1),
                     analyzer::option("loud", &Options::loud, "say so"),
                     analyzer::option("label", &Options::label, "message prefix"),
                 });
}

TEST_CASE("rule definition: specs come from the option table and the Options defaults",
          "[engine][definition]") {
  analyzer::RuleRegistry registry;
  addEchoRule(registry);
  const analyzer::RuleDefinition& echo = *registry.find("SL777");
  REQUIRE(echo.options().size() == 4);
  CHECK(echo.options()[0].name == "threshold");
  CHECK(echo.options()[0].default_value == OptionValue(0.5));
  CHECK(echo.options()[0].description == "a share");
  CHECK(echo.options()[0].max_value == 1.0);
  CHECK(echo.options()[1].default_value == OptionValue(int64_t{2}));
  CHECK(echo.options()[1].min_value == 1.0);
  CHECK(echo.options()[2].default_value == OptionValue(false));
  CHECK(echo.options()[3].default_value == OptionValue(std::string("x")));
  CHECK(echo.findOption("label") == &echo.options()[3]);
  CHECK(echo.findOption("nope") == nullptr);
}

TEST_CASE("rule definition: built-in shares lie in [0, 1] and speedups are at least 1",
          "[engine][definition]") {
  // `min-utilization = 50` meant as 50 % used to be accepted and flag every GPU "below 5000%"
  // (found by the config fuzzer's seeds); SL404's growth may exceed 100 % of the first step.
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  size_t shares = 0, speedups = 0;
  for (const auto& rule : registry.rules()) {
    for (const analyzer::OptionSpec& spec : rule->options()) {
      INFO(std::string(rule->info().code) + " " + spec.name);
      const bool share =
          (spec.name.find("share") != std::string::npos ||
           spec.name.find("fraction") != std::string::npos ||
           spec.name.find("utilization") != std::string::npos || spec.name == "assumed-gain") &&
          spec.name != "min-growth-fraction";
      if (share) {
        ++shares;
        CHECK(spec.min_value == 0.0);
        CHECK(spec.max_value == 1.0);
        CHECK(analyzer::checkOptionValue(spec, 50.0) == "must be at most 1, got 50");
      } else if (spec.name == "assumed-speedup") {
        ++speedups;
        CHECK(spec.min_value == 1.0);
        CHECK(analyzer::checkOptionValue(spec, 0.5) == "must be at least 1, got 0.5");
      }
    }
  }
  CHECK(shares == 19);
  CHECK(speedups == 6);
  // The advice multiplies it by the GPUs used: 2^62 per GPU overflowed int64 on two.
  const analyzer::OptionSpec* per_gpu = registry.find("SL101")->findOption("workers-per-gpu");
  REQUIRE(per_gpu != nullptr);
  CHECK(analyzer::checkOptionValue(*per_gpu, int64_t{1} << 62) ==
        "must be at most 1024, got 4.61169e+18");
}

TEST_CASE("rule definition: create() fills defaults, takes overrides, ignores other names",
          "[engine][definition]") {
  analyzer::RuleRegistry registry;
  addEchoRule(registry);
  const analyzer::RuleDefinition& echo = *registry.find("SL777");
  analyzer::RuleOptions values;
  values.set("repeat", int64_t{1});
  values.set("loud", true);
  values.set("other-rules-option", 3.0);
  const analyzer::RuleOptions resolved = echo.resolve(values);
  CHECK(resolved.values().size() == 4);
  CHECK(resolved.number("threshold", -1) == 0.5);
  CHECK(resolved.integer("repeat", -1) == 1);
  CHECK_FALSE(resolved.has("other-rules-option"));

  const trace::TraceModel model;
  const analyzer::TraceSummary summary;
  const analyzer::AnalysisContext context(model, summary);
  struct Sink final : analyzer::DiagnosticSink {
    std::vector<std::string> messages;
    void report(analyzer::Diagnostic d) override { messages.push_back(d.message); }
    void notChecked(std::string) override {}
  } sink;
  echo.create(values)->check(context, sink);
  CHECK(sink.messages == std::vector<std::string>{"x 0.500000 loud"});
  sink.messages.clear();
  echo.create()->check(context, sink);  // a fresh rule: the earlier values are not kept
  CHECK(sink.messages == std::vector<std::string>{"x 0.500000", "x 0.500000"});

  analyzer::RuleOptions wrong;
  wrong.set("label", 3.0);
  CHECK_THROWS_AS(echo.create(wrong), std::invalid_argument);
}

analyzer::LintConfig echoConfig(double threshold, int64_t repeat) {
  analyzer::LintConfig config;
  config.options["SL777"].set("threshold", threshold);
  config.options["SL777"].set("repeat", repeat);
  return config;
}

TEST_CASE("rule definition: two runs with different options on two threads",
          "[engine][definition]") {
  analyzer::RuleRegistry registry;
  addEchoRule(registry);
  const trace::TraceModel model;
  const analyzer::TraceSummary summary;
  auto runMany = [&](double threshold, int64_t repeat, std::vector<std::string>& wrong) {
    const analyzer::LintConfig config = echoConfig(threshold, repeat);
    const std::string want = "x " + std::to_string(threshold);
    for (int i = 0; i < 300; ++i) {
      const analyzer::LintResult result = analyzer::runLint(model, summary, registry, config);
      bool ok = result.diagnostics.size() == static_cast<size_t>(repeat);
      for (const analyzer::Diagnostic& d : result.diagnostics) ok = ok && d.message == want;
      if (!ok)
        wrong.push_back(std::to_string(result.diagnostics.size()) + " findings, first '" +
                        (result.diagnostics.empty() ? "" : result.diagnostics[0].message) + "'");
    }
  };
  std::vector<std::string> wrong_a, wrong_b;
  std::thread a([&] { runMany(0.25, 3, wrong_a); });
  std::thread b([&] { runMany(0.75, 5, wrong_b); });
  a.join();
  b.join();
  CHECK(wrong_a.empty());
  CHECK(wrong_b.empty());
}

// Three 10 ms steps, 30 % of each waiting for the DataLoader (SL101 dataloader-wait).
trace::TraceModel loaderModel() {
  KinetoTrace t;
  forEachStep(t, 3, 10000, [&](int, double b) {
    t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", b + 10, 3000);
    t.op("aten::conv2d", b + 3100, 5000);
  });
  trace::TraceModel model;
  REQUIRE(trace::importTraceBytes(t.str(), model, {}, "loader.json").ok());
  return model;
}

TEST_CASE("rule definition: built-in rules with different options on two threads",
          "[engine][definition]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const trace::TraceModel model = loaderModel();
  const analyzer::TraceSummary summary = analyzer::summarize(model);
  auto config = [](double fraction) {
    analyzer::LintConfig c;
    c.select = {"SL101"};
    c.options["SL101"].set("min-wait-fraction", fraction);
    return c;
  };
  size_t flagged = 0, silent = 0;
  std::thread low([&] {
    for (int i = 0; i < 100; ++i)
      flagged += analyzer::runLint(model, summary, registry, config(0.1)).diagnostics.size();
  });
  std::thread high([&] {
    for (int i = 0; i < 100; ++i)
      silent += analyzer::runLint(model, summary, registry, config(0.5)).diagnostics.size();
  });
  low.join();
  high.join();
  CHECK(flagged == 100);  // 30 % > 10 %: one finding every run
  CHECK(silent == 0);     // 30 % < 50 %: none
}

}  // namespace
}  // namespace steplint::test
