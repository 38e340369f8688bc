#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

constexpr int64_t kGiB = 1024LL * 1024 * 1024;

// Three 1 ms steps, one kernel of `kernel_us` each (ending 10 µs before the step does), on a 32 GiB
// GPU whose memory peaks at `peak`.
std::string trace(double kernel_us, int64_t peak, double loader_us = 0) {
  KinetoTrace t;
  t.device(0, 7, 0, 32 * kGiB);
  forEachStep<0>(t, 3, 1000, [&](int, double base) {
    if (loader_us > 0)
      t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", base + 5,
                   loader_us);
    const double k_ts = base + 990 - kernel_us;
    const int64_t op = t.op("aten::mm", k_ts - 10, 5).lastExternalId();
    t.launch(op, k_ts - 9, 3, "volta_sgemm_64x64_nt", k_ts, kernel_us);
    t.memory(k_ts, peak);
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL402 flags an under-utilized GPU with most of its memory free") {
  const auto run = steplint::test::runRuleOnJson("SL402", trace(300, 2 * kGiB));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  // The figure is reserved memory, and the message says so (summary shows allocated and reserved).
  CHECK(
      d.message ==
      "GPU 0 peak reserved memory is 2.00 GiB of 32.0 GiB (6.2%) while its utilization is 30.0%: the batch could "
      "grow about 14x");
  // A larger batch makes steps longer and samples cheaper: no step-time saving is claimed.
  CHECK_FALSE(d.saving.known());
  CHECK(d.saving.method.find("not a step-time saving: a larger batch fills up to 0.7 ms/step") ==
        0);
}

TEST_CASE("SL402 is a note that names the input pipeline when the GPU mostly waits for data") {
  // 600 µs of each 1 ms step in the DataLoader, then a 300 µs kernel: a larger batch would load
  // proportionally longer, so the headroom is not where the time goes.
  const auto run = steplint::test::runRuleOnJson("SL402", trace(300, 2 * kGiB, 600));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.severity == steplint::analyzer::Severity::kNote);
  CHECK(d.message.find("; but 86% of that idle is waiting for data: a larger batch waits "
                       "proportionally longer, so fix the input pipeline first (SL101)") !=
        std::string::npos);
  CHECK(d.evidence.metric("idle_data_share") == Approx(0.6 / 0.7).margin(0.01));
  // Without the wait the same trace is the plain warning above.
  CHECK(steplint::test::runRuleOnJson("SL402", trace(300, 2 * kGiB)).diagnostics[0].severity ==
        steplint::analyzer::Severity::kWarning);
}

TEST_CASE("SL402 quotes allocated memory, and says so, when the trace has no reserved totals") {
  std::string json = trace(300, 2 * kGiB);
  const std::string reserved = "\"Total Reserved\": " + std::to_string(2 * kGiB) + ", ";
  for (size_t at = json.find(reserved); at != std::string::npos; at = json.find(reserved))
    json.erase(at, reserved.size());
  const auto run = steplint::test::runRuleOnJson("SL402", json);
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message.rfind(
            "GPU 0 peak allocated memory is 2.00 GiB of 32.0 GiB (6.2%)", 0) == 0);
}

TEST_CASE("SL402 is silent for a busy GPU or a full one") {
  CHECK(steplint::test::runRuleOnJson("SL402", trace(900, 2 * kGiB)).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL402", trace(300, 20 * kGiB)).diagnostics.empty());
}

TEST_CASE(
    "SL402 is not checked without allocator totals (legacy ResNet-50 traces) or GPU activity") {
  const auto model = steplint::test::loadFixture(steplint::test::kResnetWorkers0);
  const auto run = steplint::test::runRule("SL402", model);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.size() == 1);
  const auto cpu = steplint::test::loadFixture(steplint::test::kCpuOnly);
  CHECK(steplint::test::runRule("SL402", cpu).not_checked.size() == 1);
}
