#include "steplint/analyzer/summary.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_model.h"

using namespace steplint;
using test::TestTrace;

namespace {

std::string textOf(const analyzer::TraceSummary& s, const trace::TraceModel& model) {
  std::ostringstream out;
  analyzer::printSummaryText(out, s, model);
  return out.str();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void buildGpuTrace(TestTrace& t) {
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.op("aten::mm", 10, 20);
  t.launch(12, 2, 20, 50, "volta_sgemm_64x64_nn");
  t.op("aten::mm", 110, 20);
  t.launch(112, 2, 120, 50, "volta_sgemm_64x64_nn");
  const uint32_t k = t.launch(150, 2, 180, 10, "volta_h884gemm_64x64_nt");
  t.gpu(k).blocks_per_sm = 2.0f;
  t.gpu(k).occupancy_pct = 50;
  t.finalize();
  t.model.metadata.source_path = "unit.json";
}

}  // namespace

TEST_CASE("summarize runs every analysis", "[summary]") {
  TestTrace t;
  buildGpuTrace(t);
  const auto s = analyzer::summarize(t.model);
  CHECK(s.source == "unit.json");
  CHECK(s.steps.steps.size() == 2);
  CHECK(s.breakdown.per_step.size() == 2);
  REQUIRE(s.gpus.size() == 1);
  CHECK(s.idle.size() == 1);
  CHECK(s.top_kernels.size() == 2);
  CHECK(s.event_count == t.model.events.size());
  CHECK(s.notes.empty());
}

TEST_CASE("the text summary has every section", "[summary]") {
  TestTrace t;
  buildGpuTrace(t);
  const auto s = analyzer::summarize(t.model);
  const std::string text = textOf(s, t.model);
  CHECK(has(text, "steplint summary: unit.json"));
  CHECK(has(text, "2 step(s) from ProfilerStep#N ranges, numbers 1..2"));
  CHECK(has(text, "Step-time breakdown"));
  CHECK(has(text, "CPU Exec"));
  CHECK(has(text, "Per step (ms)"));
  CHECK(has(text, "GPU summary"));
  CHECK(has(text, "GPU idle time per stream"));
  CHECK(has(text, "Top kernels"));
  CHECK(has(text, "volta_h884gemm_64x64_nt"));
  CHECK(has(text, "Trace import"));
  CHECK_FALSE(has(text, "\033["));  // no colour unless asked
  std::ostringstream colored;
  analyzer::printSummaryText(colored, s, t.model, true);
  CHECK(has(colored.str(), "\033[1m"));
}

TEST_CASE("the summary says what it cannot compute", "[summary]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.op("aten::add", 10, 10);
  t.finalize();
  const auto s = analyzer::summarize(t.model);
  CHECK(s.gpus.empty());
  const std::string text = textOf(s, t.model);
  CHECK(has(text, "no GPU activity in this trace: GPU summary"));
  CHECK_FALSE(has(text, "GPU summary (kernels over"));

  CHECK_FALSE(has(text, "legacy profiler's export"));
  // torch without Kineto (tests/data/torch113, recorded with record_shapes and with_stack).
  t.model.metadata.legacy_profiler_export = true;
  const auto legacy = analyzer::summarize(t.model);
  REQUIRE_FALSE(legacy.notes.empty());
  CHECK(legacy.notes.back() ==
        "the legacy profiler's export (torch without Kineto, or use_kineto=False): its format "
        "records no input shapes, Python stacks or memory events (steplint record or a torch "
        "built with Kineto records them)");
  CHECK(has(textOf(legacy, t.model), "Not computed"));

  trace::TraceModel empty;
  const auto e = analyzer::summarize(empty);
  const std::string empty_text = textOf(e, empty);
  CHECK(has(empty_text, "no CPU events and no runtime calls in this trace"));
  CHECK(has(empty_text, "no steps: step-time breakdown not computed"));
  CHECK(has(empty_text, "nothing repaired, dropped or skipped"));
}

TEST_CASE("JSON summary follows steplint.summary/1", "[summary]") {
  TestTrace t;
  buildGpuTrace(t);
  const auto s = analyzer::summarize(t.model);
  const nlohmann::json j = analyzer::summaryToJson(s, t.model);
  CHECK(j["schema"] == "steplint.summary/1");
  CHECK(j["source"] == "unit.json");
  CHECK(j["trace"]["events"] == t.model.events.size());
  CHECK(j["steps"]["source"] == "profiler_step");
  CHECK(j["steps"]["count"] == 2);
  CHECK(j["steps"]["items"][0]["number"] == 1);
  const auto& b = j["breakdown"];
  CHECK(b["per_step"].size() == 2);
  int64_t sum = 0;
  for (const auto& [key, value] : b["per_step"][0]["ns"].items()) sum += value.get<int64_t>();
  CHECK(sum == b["per_step"][0]["total_ns"].get<int64_t>());
  CHECK(b["average_fraction"].contains("cpu_exec"));
  const auto& g = j["gpus"][0];
  CHECK(g["device"] == 0);
  CHECK(g["sm_efficiency"].is_number());
  CHECK(g["tensor_core_share"].get<double>() > 0.0);
  CHECK(j["idle"]["kernel_wait_threshold_ns"] == 30'000);
  CHECK(j["idle"]["streams"][0]["stream"] == 7);
  CHECK(j["top_kernels"][0].contains("tensor_core"));
  CHECK(j["notes"].is_array());
  CHECK(j["import_stats"].is_array());
}

TEST_CASE("JSON uses null for what is unknown", "[summary]") {
  trace::TraceModel empty;
  const nlohmann::json j = analyzer::summaryToJson(analyzer::summarize(empty), empty);
  CHECK(j["breakdown"].is_null());
  CHECK(j["steps"]["source"] == "none");
  CHECK(j["gpus"].empty());
  CHECK(j["trace"]["base_time_ns"].is_null());
  CHECK(j["trace"]["distributed"].is_null());

  TestTrace t;
  t.step(1, 0, 100);
  t.launch(1, 1, 10, 10);
  t.finalize();
  const nlohmann::json k = analyzer::summaryToJson(analyzer::summarize(t.model), t.model);
  CHECK(k["gpus"][0]["sm_efficiency"].is_null());
  CHECK(k["gpus"][0]["achieved_occupancy_pct"].is_null());
}

// Issue 13: idle time over the whole trace and over HTA's window differed by 20-59 % with no
// way to tell which one a number was; every idle figure now names its window.
TEST_CASE("idle time is reported per window, labelled, with HTA's temporal breakdown",
          "[summary]") {
  TestTrace t;
  buildGpuTrace(t);  // steps 1 and 2; ops launched at 12 (step 1), 112 and 150 (step 2)
  const auto s = analyzer::summarize(t.model);
  REQUIRE(s.idle_steps.size() == 1);
  CHECK(s.idle_steps[0].span_ns == 170'000);  // 20 µs .. 190 µs: all three ops
  CHECK(s.idle_steps[0].host_wait_ns == 50'000);
  REQUIRE(s.idle_hta.size() == 1);  // HTA drops what ProfilerStep#2 launched
  CHECK(s.idle_hta[0].span_ns == 50'000);
  CHECK(s.idle_hta[0].idle_ns() == 0);
  REQUIRE(s.temporal.size() == 1);
  CHECK(s.temporal[0].kernel_time_ns == 50'000);
  CHECK(s.temporal[0].compute_ns == 50'000);

  const std::string text = textOf(s, t.model);
  CHECK(has(text, "GPU idle time per stream over the analysed steps"));
  CHECK(has(text, "window: steps 1..2"));
  CHECK(has(
      text,
      "GPU idle time per stream over HTA's window (what HTA's get_idle_time_breakdown reports)"));
  CHECK(has(text, "ProfilerStep#2, starts at ts 100.000 µs (HTA's default drops the last step)"));
  CHECK(has(text, "GPU temporal breakdown over HTA's window"));
  CHECK(has(text, "Peak allocated"));
  CHECK(has(text, "Peak reserved"));

  const nlohmann::json j = analyzer::summaryToJson(s, t.model);
  const auto& idle = j["idle"];
  CHECK(idle["streams"][0]["span_ns"] == 170'000);  // v1 field: still the whole trace
  CHECK(idle["steps_window"]["first_step"] == 1);
  CHECK(idle["steps_window"]["last_step"] == 2);
  CHECK(idle["steps_window"]["start_ns"] == 0);
  CHECK(idle["steps_window"]["streams"][0]["host_wait_ns"] == 50'000);
  CHECK(idle["hta_window"]["last_step_dropped"] == true);
  CHECK(idle["hta_window"]["last_step"] == "ProfilerStep#2");
  CHECK(idle["hta_window"]["cutoff_ns"] == 100'000);
  CHECK(idle["hta_window"]["profiler_step_names"] == 2);
  CHECK(idle["hta_window"]["streams"][0]["span_ns"] == 50'000);
  const auto& temporal = j["temporal_breakdown"];
  CHECK(temporal["window"] == "hta_window");
  CHECK(temporal["gpus"][0]["kernel_time_ns"] == 50'000);
  CHECK(temporal["gpus"][0]["compute_pct"].get<double>() == Approx(100.0));
  CHECK(temporal["gpus"][0]["idle_pct"].get<double>() == Approx(0.0));
}

TEST_CASE("without two ProfilerStep names HTA's window is the whole trace, and says so",
          "[summary]") {
  TestTrace t;
  t.op("aten::mm", 0, 50);
  t.launch(10, 2, 20, 10);
  t.finalize();
  const auto s = analyzer::summarize(t.model);
  const std::string text = textOf(s, t.model);
  CHECK(has(text, "window: the whole trace (fewer than 2 ProfilerStep#N, so HTA drops no step)"));
  const nlohmann::json j = analyzer::summaryToJson(s, t.model);
  CHECK(j["idle"]["hta_window"]["last_step_dropped"] == false);
  CHECK(j["idle"]["hta_window"]["last_step"].is_null());
  CHECK(j["idle"]["hta_window"]["cutoff_ns"].is_null());
}

TEST_CASE(
    "summary: the profiler's cost per step is the recorded host events per step times the cost per event (#16)",
    "[summary]") {
  TestTrace t;
  buildGpuTrace(
      t);  // per step: the ProfilerStep range and one aten::mm (launches are not host events)
  t.model.metadata.extra = {{"steplint_version", "\"0.1.0\""}, {"steplint_op_overhead_ns", "500"}};
  const analyzer::TraceSummary s = analyzer::summarize(t.model);
  REQUIRE(s.steps.steps.size() == 2);
  CHECK(s.profiler.events_per_step == Approx(2.0));
  CHECK(s.profiler.nsPerStep() == Approx(1000.0));
  const nlohmann::json j = analyzer::summaryToJson(s, t.model);
  CHECK(j["profiler_overhead"]["ns_per_event"] == Approx(500.0));
  CHECK(j["profiler_overhead"]["ms_per_step"] == Approx(0.001));
  CHECK(has(textOf(s, t.model),
            "2 recorded host events per step x 500 ns (the recording's cost per recorded op"));

  t.model.metadata.extra = {
      {"steplint_version", "\"0.1.0\""}};  // an older steplint: nothing measured
  const analyzer::TraceSummary older = analyzer::summarize(t.model);
  CHECK(older.profiler.nsPerStep() == 0);
  CHECK(has(textOf(older, t.model), "not taken out: not measured by this recording"));
}
