#include "common/input_dims.h"

#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

std::string convSteps(const std::vector<int>& batches, bool shapes = true,
                      const std::string& loader_batch = "") {
  KinetoTrace t;
  t.device(0, 7, 0);
  if (!loader_batch.empty()) t.metadata("dataloader_batch_size", loader_batch);
  for (size_t s = 0; s < batches.size(); ++s) {
    const double base = 1000.0 * static_cast<double>(s);
    t.step(static_cast<int>(s), base, 1000);
    const std::string n = std::to_string(batches[s]);
    const auto dims = [&](const std::string& raw) {
      return shapes ? "\"Input Dims\": " + raw : "";
    };
    t.opWithArgs("aten::conv2d", base + 10, 100,
                 dims("[[" + n + ", 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []]"));
    const int64_t conv = t.op("aten::cudnn_convolution", base + 20, 80).lastExternalId();
    t.launch(conv, base + 30, 5, "volta_scudnn_128x64_relu_interior_nn_v1", base + 40, 300);
    t.opWithArgs("aten::addmm", base + 500, 50,
                 dims("[[1000], [" + n + ", 2048], [2048, 1000], [], []]"));
  }
  return t.str();
}

}  // namespace

TEST_CASE("firstDimOfInput reads Input Dims text") {
  int64_t v = 0;
  CHECK(steplint::rules::firstDimOfInput("[[32, 3, 224, 224], [64, 3, 7, 7], []]", 0, v));
  CHECK(v == 32);
  CHECK(steplint::rules::firstDimOfInput("[[1000], [30, 2048], [2048, 1000]]", 1, v));
  CHECK(v == 30);
  CHECK_FALSE(steplint::rules::firstDimOfInput("[[], [30]]", 0, v));
  CHECK_FALSE(steplint::rules::firstDimOfInput("[[30]]", 2, v));
  CHECK_FALSE(steplint::rules::firstDimOfInput("", 0, v));
  size_t rank = 0;
  CHECK(steplint::rules::firstDimOfInput("[[53, 2, 17], [64, 17], [64]]", 0, v, &rank));
  CHECK(v == 53);
  CHECK(rank == 3);
  CHECK(steplint::rules::firstDimOfInput("[[64], [106, 17], [17, 64]]", 1, v, &rank));
  CHECK(rank == 2);
}

TEST_CASE("SL403 notes a batch size that is not a multiple of 8") {
  const auto run = steplint::test::runRuleOnJson("SL403", convSteps({30, 30, 30}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message == "batch size 30 (first input of aten::conv2d) is not a multiple of 8");
  CHECK(d.severity == steplint::analyzer::Severity::kNote);
  CHECK(d.evidence.steps == std::vector<int64_t>{0, 1, 2});
  CHECK(d.fix.front().find("24 or 32") != std::string::npos);
  CHECK_FALSE(d.saving.known());
}

TEST_CASE("SL403 judges the most common batch size, and follows the multiple option") {
  CHECK(steplint::test::runRuleOnJson("SL403", convSteps({32, 32, 30}))
            .diagnostics.empty());  // short last batch
  CHECK(steplint::test::runRuleOnJson("SL403", convSteps({30, 30}), {{"multiple", int64_t{2}}})
            .diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL403", convSteps({36, 36}), {{"multiple", int64_t{16}}})
            .diagnostics.size() == 1);
}

TEST_CASE("SL403 is not checked without recorded shapes") {
  const auto run = steplint::test::runRuleOnJson("SL403", convSteps({30, 30}, false));
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("record_shapes") != std::string::npos);
}

TEST_CASE("SL403 without shapes judges the DataLoader batch_size that steplint record wrote") {
  const auto run = steplint::test::runRuleOnJson("SL403", convSteps({30, 30}, false, "30"));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message ==
        "batch size 30 (the DataLoader's batch_size) is not a multiple of 8");
  CHECK(run.not_checked.empty());
  const auto aligned = steplint::test::runRuleOnJson("SL403", convSteps({32, 32}, false, "32"));
  CHECK(aligned.diagnostics.empty());
  CHECK(aligned.not_checked.empty());
  // Shapes, when recorded, win over the loader's setting (a collate_fn may change the batch).
  CHECK(
      steplint::test::runRuleOnJson("SL403", convSteps({32, 32}, true, "30")).diagnostics.empty());
}

TEST_CASE("SL403 on the ResNet-50 fixtures: batch 32 is aligned") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    const auto run = steplint::test::runRule("SL403", model);
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
}

TEST_CASE("SL403 advises only aligned sizes that exist") {
  // Below the multiple there is no smaller aligned size.
  const auto small = steplint::test::runRuleOnJson("SL403", convSteps({5, 5}));
  REQUIRE(small.diagnostics.size() == 1);
  CHECK(small.diagnostics[0].fix.front() ==
        "use a batch size of 8 (scale the learning rate with the batch)");
  // A hostile trace's loader batch of INT64_MAX has no aligned size above it in int64 (the next
  // multiple of 8 overflowed before).
  const auto huge =
      steplint::test::runRuleOnJson("SL403", convSteps({30, 30}, false, "9223372036854775807"));
  REQUIRE(huge.diagnostics.size() == 1);
  CHECK(huge.diagnostics[0].fix.front() ==
        "use a batch size of 9223372036854775800 (scale the learning rate with the batch)");
}

namespace {

// nn.MultiheadAttention's default layout: [seq 53, batch 2, 17] into a linear, whose addmm sees
// the flattened [106, 17]; optionally a conv1d of batch 2 later in each step.
std::string seqFirstSteps(bool with_conv) {
  KinetoTrace t;
  t.device(0, 8, 0);
  for (int s = 0; s < 2; ++s) {
    const double base = 1000.0 * s;
    t.step(s, base, 1000);
    t.opWithArgs("aten::linear", base + 10, 100, "\"Input Dims\": [[53, 2, 17], [64, 17], [64]]");
    t.opWithArgs("aten::addmm", base + 20, 50, "\"Input Dims\": [[64], [106, 17], [17, 64]]");
    const int64_t mm = t.op("aten::addmm_impl", base + 30, 10).lastExternalId();
    t.launch(mm, base + 31, 5, "ampere_sgemm_32x32_sliced1x4_tn", base + 40, 30);
    if (with_conv)
      t.opWithArgs("aten::conv1d", base + 300, 100,
                   "\"Input Dims\": [[2, 16, 53], [32, 16, 1], [32], [], [], [], []]");
  }
  return t.str();
}

}  // namespace

TEST_CASE("SL403 does not read a 3-D linear input's first dimension as the batch") {
  // Before: "batch size 53 (first input of aten::linear)"; 53 is the sequence.
  const auto alone = steplint::test::runRuleOnJson("SL403", seqFirstSteps(false));
  CHECK(alone.diagnostics.empty());
  REQUIRE(alone.not_checked.size() == 1);
  CHECK(alone.not_checked[0].find("3 or more dimensions (aten::linear [[53, 2, 17]") !=
        std::string::npos);
  // An op whose shape names the batch still decides.
  const auto conv = steplint::test::runRuleOnJson("SL403", seqFirstSteps(true));
  REQUIRE(conv.diagnostics.size() == 1);
  CHECK(conv.diagnostics[0].message ==
        "batch size 2 (first input of aten::conv1d) is not a multiple of 8");
}
