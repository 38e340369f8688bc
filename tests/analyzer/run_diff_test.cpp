#include "steplint/analyzer/run_diff.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_model.h"

using namespace steplint;
using analyzer::FindingChange;
using analyzer::GroupChange;
using analyzer::StepCategory;
using test::TestTrace;

namespace {

// Every step keeps: the hand-made traces have no warm-up and complete device work.
analyzer::RunProfile profileOf(const trace::TraceModel& model, const std::string& source,
                               const analyzer::LintResult* lint = nullptr) {
  analyzer::SummaryOptions options;
  options.steps.drop_incomplete_tail = false;
  options.steps.drop_warmup_head = false;
  analyzer::TraceSummary summary = analyzer::summarize(model, options);
  summary.source = source;
  return analyzer::profileRun(model, summary, lint);
}

/// `steps` steps of 1000 µs: aten::mm launches gemm (stream 7) for `gemm_us`; with
/// `extra_copy`, aten::copy_ launches a 20 µs device-to-device copy per step.
void trainer(TestTrace& t, int steps, double gemm_us, bool extra_copy) {
  t.op("aten::empty", -500, 10);  // before the first step: not part of any step
  for (int i = 0; i < steps; ++i) {
    const double ts = i * 1000.0;
    t.step(i, ts, 1000);
    t.op("aten::mm", ts + 10, 50);
    t.launch(ts + 20, 5, ts + 100, gemm_us, "gemm");
    if (extra_copy) {
      t.op("aten::copy_", ts + 70, 20);
      t.launch(ts + 75, 5, ts + 400, 20, "Memcpy DtoD (Device -> Device)",
               trace::EventKind::kMemcpy);
    }
  }
  t.finalize();
}

const analyzer::GroupDelta& row(const std::vector<analyzer::GroupDelta>& rows,
                                const std::string& name) {
  for (const auto& r : rows)
    if (r.name == name) return r;
  FAIL("no row " << name);
  throw std::logic_error("unreachable");
}

double categoryDelta(const analyzer::RunDiff& d, StepCategory c) {
  return d.categories.at(static_cast<size_t>(c)).delta_ns();
}

analyzer::Diagnostic finding(const std::string& code, const std::string& key,
                             const std::string& metric, double value) {
  analyzer::Diagnostic d;
  d.code = code;
  d.name = "rule-" + code;
  d.fingerprint_key = key;
  d.message = code + " message";
  if (!metric.empty()) d.evidence.metrics = {{"device", 0}, {metric, value}};
  return d;
}

}  // namespace

TEST_CASE("a planted kernel slowdown and an extra copy per step show in every part of the diff",
          "[run_diff]") {
  TestTrace base, next;
  trainer(base, 3, 100, false);
  trainer(next, 6, 150, true);  // twice the steps: figures are per step
  const analyzer::RunDiff d =
      analyzer::diffRuns(profileOf(base.model, "base.json"), profileOf(next.model, "new.json"));

  CHECK(d.base_steps.count == 3);
  CHECK(d.new_steps.count == 6);
  CHECK(d.base_steps.mean_ns == Approx(1'000'000));
  CHECK(d.step_delta_ns == Approx(0).margin(1));
  CHECK(categoryDelta(d, StepCategory::kKernel) == Approx(50'000));
  CHECK(categoryDelta(d, StepCategory::kMemcpy) == Approx(20'000));

  const auto& gemm = row(d.device_ops, "gemm");
  CHECK(gemm.change == GroupChange::kMatched);
  CHECK_FALSE(gemm.by_name_only);
  CHECK(gemm.stream == TestTrace::kStream);
  CHECK(gemm.base_count == Approx(1));
  CHECK(gemm.new_count == Approx(1));
  CHECK(gemm.base_mean_ns == Approx(100'000));
  CHECK(gemm.new_mean_ns == Approx(150'000));
  CHECK(gemm.delta_ns() == Approx(50'000));

  const auto& copy = row(d.device_ops, "Memcpy DtoD (Device -> Device)");
  CHECK(copy.change == GroupChange::kAppeared);
  CHECK(copy.new_count == Approx(1));
  CHECK(copy.new_ns == Approx(20'000));
  CHECK(d.device_ops.front().name == "gemm");  // largest change first

  CHECK(row(d.ops, "aten::copy_").change == GroupChange::kAppeared);
  const auto& mm = row(d.ops, "aten::mm");
  CHECK(mm.change == GroupChange::kMatched);
  CHECK(mm.delta_ns() == Approx(0).margin(1));
  // aten::empty runs before the first step, in neither run's steps.
  CHECK(std::none_of(d.ops.begin(), d.ops.end(),
                     [](const auto& r) { return r.name == "aten::empty"; }));
  // gemm is in both runs: 250 of 270 µs per step of device time matched, so no note.
  CHECK(d.matched_device_fraction == Approx(250.0 / 270.0));
  CHECK(d.notes.empty());
  CHECK_FALSE(d.findings_compared);
}

TEST_CASE("a kernel on another stream is matched by name, one only in the base run vanished",
          "[run_diff]") {
  TestTrace base, next;
  for (TestTrace* t : {&base, &next}) {
    t->step(1, 0, 1000);
    t->launch(10, 5, 100, 100, "gemm", trace::EventKind::kKernel, trace::EventKind::kRuntime,
              t == &base ? 7 : 13);
    if (t == &base) t->launch(20, 5, 300, 40, "old_kernel");
    t->finalize();
  }
  const analyzer::RunDiff d =
      analyzer::diffRuns(profileOf(base.model, "b"), profileOf(next.model, "n"));
  const auto& gemm = row(d.device_ops, "gemm");
  CHECK(gemm.change == GroupChange::kMatched);
  CHECK(gemm.by_name_only);
  CHECK(gemm.stream == -1);
  const auto& old = row(d.device_ops, "old_kernel");
  CHECK(old.change == GroupChange::kVanished);
  CHECK(old.stream == 7);  // its only stream, kept
  CHECK(old.delta_ns() == Approx(-40'000));
}

TEST_CASE("runs of different models and devices are said to be so, and still diffed",
          "[run_diff]") {
  TestTrace base, next;
  base.step(1, 0, 1000);
  base.launch(10, 5, 100, 400, "resnet_conv");
  base.launch(20, 5, 600, 10, "shared_relu");
  base.model.metadata.devices.push_back({});
  base.model.metadata.devices.back().name = "Tesla V100";
  next.step(1, 0, 1000);
  next.launch(10, 5, 100, 300, "bert_gemm");
  next.launch(20, 5, 600, 10, "shared_relu");
  next.model.metadata.devices.push_back({});
  next.model.metadata.devices.back().name = "A100";
  base.finalize();
  next.finalize();
  const analyzer::RunDiff d =
      analyzer::diffRuns(profileOf(base.model, "b"), profileOf(next.model, "n"));
  CHECK(d.matched_device_fraction == Approx(20.0 / 720.0));
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[0].find("different devices (Tesla V100 vs A100)") != std::string::npos);
  CHECK(d.notes[1].find("different models") != std::string::npos);
  CHECK(row(d.device_ops, "shared_relu").change == GroupChange::kMatched);
  const auto devices = std::find_if(d.metadata.begin(), d.metadata.end(),
                                    [](const auto& m) { return m.key == "devices"; });
  REQUIRE(devices != d.metadata.end());
  CHECK(devices->differs());
}

TEST_CASE("run metadata written as JSON compares by value, not by its layout", "[run_diff]") {
  // The same recording's steplint_sources minified by json.dump, or with other values.
  TestTrace base, same, other;
  for (TestTrace* t : {&base, &same, &other}) {
    t->step(1, 0, 1000);
    t->finalize();
  }
  base.model.metadata.extra.emplace_back("steplint_sources",
                                         "{\"torch\": \"recording\",\n  \"cuda\": \"cupti\"}");
  same.model.metadata.extra.emplace_back("steplint_sources",
                                         R"({"cuda":"cupti","torch":"recording"})");
  other.model.metadata.extra.emplace_back("steplint_sources",
                                          R"({"cuda": "none", "torch": "recording"})");
  const auto sources = [](const analyzer::RunDiff& d) {
    return *std::find_if(d.metadata.begin(), d.metadata.end(),
                         [](const auto& m) { return m.key == "steplint_sources"; });
  };
  const auto b = profileOf(base.model, "b");
  CHECK_FALSE(sources(analyzer::diffRuns(b, profileOf(same.model, "s"))).differs());
  CHECK(sources(analyzer::diffRuns(b, profileOf(other.model, "o"))).differs());
}

namespace {
// Two runs of one 100 µs step each: the findings alone differ.
void oneStepEach(TestTrace& base, TestTrace& next) {
  for (TestTrace* t : {&base, &next}) {
    t->step(1, 0, 100);
    t->finalize();
  }
}
}  // namespace

TEST_CASE("findings are new, fixed, worse, better or the same by fingerprint and size",
          "[run_diff]") {
  analyzer::LintResult base_lint, new_lint;
  base_lint.diagnostics = {
      finding("SL204", "sync", "syncs_per_step", 6), finding("SL101", "", "wait_share", 0.3),
      finding("SL601", "", "zero_ops_per_step", 10), finding("SL602", "", "kernels_per_step", 10),
      finding("SL303", "", "eligible_share", 0.5)};
  new_lint.diagnostics = {finding("SL204", "sync", "syncs_per_step", 60),
                          finding("SL201", "", "copies_per_step", 2),
                          finding("SL601", "", "zero_ops_per_step", 9),
                          finding("SL602", "", "kernels_per_step", 5), finding("SL303", "", "", 0)};
  TestTrace base, next;
  oneStepEach(base, next);
  const analyzer::RunDiff d = analyzer::diffRuns(profileOf(base.model, "b", &base_lint),
                                                 profileOf(next.model, "n", &new_lint));
  REQUIRE(d.findings_compared);
  REQUIRE(d.findings.size() == 6);
  auto change = [&](const std::string& code) {
    for (const auto& f : d.findings)
      if ((f.next.fingerprint.empty() ? f.base : f.next).code == code) return f.change;
    FAIL("no finding " << code);
    return FindingChange::kSame;
  };
  CHECK(change("SL204") == FindingChange::kWorse);  // 6 -> 60 syncs per step
  CHECK(change("SL201") == FindingChange::kNew);
  CHECK(change("SL101") == FindingChange::kFixed);
  CHECK(change("SL602") == FindingChange::kBetter);  // 10 -> 5
  CHECK(change("SL601") == FindingChange::kSame);    // 10 -> 9: inside the 1.25x band
  CHECK(change("SL303") == FindingChange::kSame);    // no size in the new run: not compared
  // New first, then worse; "device" (an index) is never taken as a size.
  CHECK(d.findings[0].change == FindingChange::kNew);
  CHECK(d.findings[1].change == FindingChange::kWorse);
  CHECK(d.findings[1].next.unit == "syncs_per_step");
  CHECK(d.findings[1].next.magnitude == Approx(60));
}

TEST_CASE("a finding keyed by GPU index is matched across a renumbered GPU", "[run_diff]") {
  // The same run on GPU 6 and on GPU 7 (CUDA_VISIBLE_DEVICES): no "fixed" and "new" pair.
  analyzer::LintResult base_lint, new_lint;
  base_lint.diagnostics = {finding("SL301", "gpu6", "idle_ms_per_step", 48)};
  new_lint.diagnostics = {finding("SL301", "gpu7", "idle_ms_per_step", 2426)};
  TestTrace base, next;
  oneStepEach(base, next);
  const analyzer::RunDiff d = analyzer::diffRuns(profileOf(base.model, "b", &base_lint),
                                                 profileOf(next.model, "n", &new_lint));
  REQUIRE(d.findings.size() == 1);
  CHECK(d.findings[0].change == FindingChange::kWorse);
  CHECK(d.findings[0].device_renumbered);
  CHECK(std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) {
    return n.find("SL301 is compared across GPU indices (SL301:gpu6 in the base run, SL301:gpu7") !=
           std::string::npos;
  }));

  // Two GPUs in one run: which is which cannot be told, so nothing is paired.
  new_lint.diagnostics.push_back(finding("SL301", "gpu5", "idle_ms_per_step", 30));
  const analyzer::RunDiff two = analyzer::diffRuns(profileOf(base.model, "b", &base_lint),
                                                   profileOf(next.model, "n", &new_lint));
  CHECK(two.findings.size() == 3);
  CHECK(analyzer::deviceFingerprintCode("SL301:gpu12") == "SL301");
  CHECK(analyzer::deviceFingerprintCode("SL201:aten::copy_").empty());
  CHECK(analyzer::deviceFingerprintCode("SL301:gpu").empty());
}

TEST_CASE("a rule's declared size metric is its size, not the first per-step figure",
          "[run_diff]") {
  // SL301 lists the kernels' busy time before the idle time; low utilization grows with idle.
  analyzer::Diagnostic d;
  d.code = "SL301";
  d.evidence.metrics = {{"device", 0}, {"kernel_busy_ms_per_step", 5.3}, {"idle_ms_per_step", 27}};
  CHECK(analyzer::findingSize(d).unit == "kernel_busy_ms_per_step");
  d.evidence.size_metric = "idle_ms_per_step";
  const analyzer::FindingSize f = analyzer::findingSize(d);
  CHECK(f.unit == "idle_ms_per_step");
  CHECK(f.magnitude == Approx(27));
  d.evidence.size_metric = "not_a_metric";  // a name the metrics lack: the first one found
  CHECK(analyzer::findingSize(d).unit == "kernel_busy_ms_per_step");
}

TEST_CASE("per-step distribution: median and percentiles interpolate, stddev is the sample one",
          "[run_diff]") {
  const auto s = analyzer::describeDistribution({4, 1, 100, 3, 2});
  CHECK(s.count == 5);
  CHECK(s.mean_ns == Approx(22));
  CHECK(s.median_ns == Approx(3));
  CHECK(s.p10_ns == Approx(1.4));
  CHECK(s.p90_ns == Approx(61.6));
  CHECK(s.min_ns == 1);
  CHECK(s.max_ns == 100);
  CHECK(s.stddev_ns == Approx(43.6177));
  CHECK(analyzer::describeDistribution({}).count == 0);
  CHECK(analyzer::describeDistribution({7}).stddev_ns == 0);
}

TEST_CASE("text, Markdown and JSON carry the same deltas", "[run_diff]") {
  TestTrace base, next;
  trainer(base, 2, 100, false);
  trainer(next, 2, 150, true);
  const analyzer::RunDiff d =
      analyzer::diffRuns(profileOf(base.model, "base.json"), profileOf(next.model, "new.json"));
  std::ostringstream text, markdown;
  analyzer::printRunDiffText(text, d);
  analyzer::printRunDiffMarkdown(markdown, d);
  CHECK(text.str().find("Kernel +0.050, Memcpy +0.020") != std::string::npos);
  CHECK(text.str().find("appeared") != std::string::npos);
  CHECK(markdown.str().find("| appeared | +0.020 | 0 → 1 |") != std::string::npos);
  CHECK(markdown.str().find("Memcpy DtoD (Device -&gt; Device)") != std::string::npos);
  const nlohmann::json j = analyzer::runDiffToJson(d);
  CHECK(j["schema"] == "steplint.diff/1");
  CHECK(j["categories"]["kernel"]["delta_ms"].get<double>() == Approx(0.05));
  CHECK(j["device_ops"][0]["name"] == "gemm");
  CHECK(j["device_ops"][0]["stream"] == 7);
  CHECK(j["findings"].is_null());  // not linted: not compared, not "no findings"
}

namespace {
// Back-to-back steps of the given lengths (µs), each with one op.
void stepsOf(TestTrace& t, const std::vector<double>& lengths_us) {
  double ts = 0;
  for (size_t i = 0; i < lengths_us.size(); ++i) {
    t.step(static_cast<int>(i), ts, lengths_us[i]);
    t.op("aten::mm", ts + 10, 50);
    ts += lengths_us[i];
  }
  t.finalize();
}
}  // namespace

TEST_CASE("the headline carries the gate's test: one long step is not a change", "[run_diff]") {
  // h7 D5: two runs of one command; one 5 ms stall moved the mean +60%, the gate (Mann-Whitney
  // p = 0.159) called it noise and diff called it a change.
  TestTrace base, next, slower, few;
  stepsOf(base, {1000, 1010, 990, 1005, 995, 1020, 980, 1000});
  stepsOf(next, {1002, 1012, 992, 5000, 998, 1022, 982, 1002});
  stepsOf(slower, {1500, 1510, 1490, 1505, 1495, 1520, 1480, 1500});
  stepsOf(few, {1000, 5000, 1000});
  const analyzer::RunProfile b = profileOf(base.model, "b");
  const analyzer::RunDiff noise = analyzer::diffRuns(b, profileOf(next.model, "n"));
  CHECK(noise.step_test.tested);
  CHECK_FALSE(noise.step_test.significant);
  CHECK(noise.step_test.p_value > 0.05);
  const std::string headline = analyzer::runDiffHeadline(noise);
  INFO(headline);
  CHECK(headline.find("ms, +50.1% mean; not significant given the per-step spread (Mann-Whitney "
                      "p = ") != std::string::npos);
  CHECK(headline.find("over 8 and 8 steps); median +0.2%)") != std::string::npos);
  const nlohmann::json j = analyzer::runDiffToJson(noise);
  CHECK(j["step_change"]["tested"] == true);
  CHECK(j["step_change"]["significant"] == false);
  CHECK(j["step_change"]["p_value"].get<double>() == Approx(noise.step_test.p_value));
  CHECK(j["step_change"]["median_delta_ms"].get<double>() == Approx(0.002));
  CHECK(j["step_change"]["verdict"] == noise.step_test.text);
  std::ostringstream markdown;
  analyzer::printRunDiffMarkdown(markdown, noise);
  CHECK(markdown.str().find("mean; not significant given the per-step spread") !=
        std::string::npos);

  const analyzer::RunDiff real = analyzer::diffRuns(b, profileOf(slower.model, "s"));
  CHECK(real.step_test.significant);
  CHECK(analyzer::runDiffHeadline(real).find(
            "(+0.500 ms, +50.0%; significant given the per-step spread (Mann-Whitney p < 0.001 "
            "over 8 and 8 steps))") != std::string::npos);
  // Faster is tested as faster.
  CHECK(analyzer::diffRuns(profileOf(slower.model, "s"), b).step_test.significant);

  const analyzer::RunDiff short_run = analyzer::diffRuns(b, profileOf(few.model, "f"));
  CHECK_FALSE(short_run.step_test.tested);
  CHECK(analyzer::runDiffHeadline(short_run).find(
            "; too few steps to tell from step-to-step noise (8 and 3; the test needs 5 in "
            "each))") != std::string::npos);
}

TEST_CASE("a worse finding beside a step change that is not significant gets a note",
          "[run_diff]") {
  TestTrace base, next;
  stepsOf(base, {1000, 1010, 990, 1005, 995, 1020, 980, 1000});
  stepsOf(next, {1002, 1012, 992, 5000, 998, 1022, 982, 1002});
  analyzer::LintResult base_lint, new_lint;
  base_lint.diagnostics = {finding("SL101", "dataloader", "dataloader_ms_per_step", 0.17)};
  new_lint.diagnostics = {finding("SL101", "dataloader", "dataloader_ms_per_step", 0.71)};
  const analyzer::RunDiff d = analyzer::diffRuns(profileOf(base.model, "b", &base_lint),
                                                 profileOf(next.model, "n", &new_lint));
  REQUIRE(d.findings.size() == 1);
  CHECK(d.findings[0].change == FindingChange::kWorse);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].rfind("the step time's change is not significant given the per-step spread",
                         0) == 0);
  CHECK(d.notes[0].find("findings marked worse or better compare per-step averages") !=
        std::string::npos);
}
