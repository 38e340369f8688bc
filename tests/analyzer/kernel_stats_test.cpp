#include "steplint/analyzer/kernel_stats.h"

#include <catch2/catch.hpp>

#include "test_model.h"

using namespace steplint;
using test::TestTrace;

TEST_CASE("kernels are grouped by name and sorted by total time", "[kernels]") {
  TestTrace t;
  t.orphanKernel(0, 10, "volta_sgemm_64x64_nn");
  t.orphanKernel(20, 30, "volta_sgemm_64x64_nn");
  t.orphanKernel(60, 50, "volta_h884gemm_64x64_nt");
  t.orphanKernel(120, 5, "elementwise");
  t.launch(0, 1, 130, 1, "Memcpy HtoD (Pageable -> Device)",
           trace::EventKind::kMemcpy);  // not a kernel
  t.finalize();
  const auto all = analyzer::computeKernelStats(t.model);
  REQUIRE(all.size() == 3);
  CHECK(all[0].name == "volta_h884gemm_64x64_nt");
  CHECK(all[0].tensor_core);
  CHECK(all[1].name == "volta_sgemm_64x64_nn");
  CHECK(all[1].count == 2);
  CHECK(all[1].total_ns == 40'000);
  CHECK(all[1].min_ns == 10'000);
  CHECK(all[1].max_ns == 30'000);
  CHECK(all[1].mean_ns() == Approx(20'000));
  CHECK_FALSE(all[1].tensor_core);
  CHECK(analyzer::computeKernelStats(t.model, 1).size() == 1);
}
