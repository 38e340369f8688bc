// The legacy profiler's export (torch without Kineto, e.g. Debian's torch 1.13) carries no
// shapes, stacks or memory events whatever record_shapes, with_stack or profile_memory said.
// Rules that need them name the format instead of asking for a flag that was probably set.
#include <string>

#include <catch2/catch.hpp>

#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

const std::string kLegacyShapes =
    "the trace is the legacy profiler's export (torch without Kineto, or use_kineto=False), "
    "whose format carries no input shapes whatever record_shapes says: record with steplint "
    "record --shapes, or torch.profiler on a torch built with Kineto";

// Three steps of a convolution without "Input Dims", cudnn.benchmark recorded as off.
steplint::trace::TraceModel convTrace(bool legacy) {
  KinetoTrace t;
  t.device(0, 7, 0);
  t.metadata("cudnn_benchmark", "false");
  for (int s = 0; s < 3; ++s) {
    const double base = 1000.0 * s;
    t.step(s, base, 1000);
    t.op("aten::convolution", base + 10, 100);
    const int64_t conv = t.op("aten::cudnn_convolution", base + 20, 80).lastExternalId();
    t.launch(conv, base + 30, 5, "volta_scudnn_128x64_relu_interior_nn_v1", base + 40, 300);
  }
  steplint::trace::TraceModel model = steplint::test::importInline(t.str());
  // The importer sets it for the array form on pid "CPU functions"; a legacy export with GPU
  // kernels is rare, so the flag is set by hand on a trace these rules reach their shape test in.
  model.metadata.legacy_profiler_export = legacy;
  return model;
}

}  // namespace

TEST_CASE("SL304 and SL403 on a legacy export name the format, not record_shapes") {
  for (const bool legacy : {false, true}) {
    INFO("legacy export: " << legacy);
    const auto model = convTrace(legacy);
    const auto sl304 = steplint::test::runRule("SL304", model);
    CHECK(sl304.diagnostics.empty());
    REQUIRE(sl304.not_checked.size() == 1);
    CHECK(sl304.not_checked[0] ==
          (legacy ? kLegacyShapes : "convolution input shapes not recorded (record_shapes)"));
    const auto sl403 = steplint::test::runRule("SL403", model);
    CHECK(sl403.diagnostics.empty());
    REQUIRE(sl403.not_checked.size() == 1);
    CHECK(sl403.not_checked[0] ==
          (legacy ? kLegacyShapes + ", and the trace has no dataloader_batch_size"
                  : "input shapes were not recorded (record_shapes=True, steplint record --shapes) "
                    "and the trace has no dataloader_batch_size"));
  }
}
