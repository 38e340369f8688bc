// The step attribution (attribution.h): every nanosecond of a step once, on the host timeline
// and on each device, with the device's idle time split by what the host was doing.
#include <catch2/catch.hpp>

#include <numeric>

#include "steplint/analyzer/attribution.h"
#include "steplint/analyzer/breakdown.h"
#include "test_model.h"

using steplint::analyzer::computeAttribution;
using steplint::analyzer::computeSteps;
using steplint::analyzer::DeviceCause;
using steplint::analyzer::HostCause;
using steplint::test::TestTrace;
using steplint::trace::EventKind;

namespace {

constexpr double kMs = 1000;  // TestTrace takes µs

int64_t host(const steplint::analyzer::StepAttribution& a, HostCause c) {
  return a.host_ns[static_cast<size_t>(c)];
}
int64_t device(const steplint::analyzer::StepAttribution& a, DeviceCause c) {
  return a.devices.at(0).ns[static_cast<size_t>(c)];
}

}  // namespace

// Per step: DataLoader [0, 3) ms, a 9 ms kernel launched at 3 ms ([3.02, 12.02)), loss.item()'s
// synchronize [4, 12.025), then host work until 12.12 ms.
TEST_CASE("attribution: a DataLoader wait, a kernel and an end-of-step sync, every ns once") {
  TestTrace t;
  double at = 0;
  for (int n = 0; n < 3; ++n) {
    const double kernel_start = at + 3 * kMs + 20, kernel_end = kernel_start + 9 * kMs;
    t.step(n, at, kernel_end + 100 - at);
    t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", at, 3 * kMs);
    t.launch(at + 3 * kMs, 10, kernel_start, 9 * kMs, "gemm");
    t.event(EventKind::kRuntime, "cudaStreamSynchronize", at + 4 * kMs,
            kernel_end + 5 - (at + 4 * kMs));
    at = kernel_end + 100;
  }
  t.finalize();
  const auto steps = computeSteps(t.model);
  REQUIRE(steps.steps.size() == 3);
  const auto result = computeAttribution(t.model, steps);
  REQUIRE(result.per_step.size() == 3);
  for (const auto& a : result.per_step) {
    INFO("step " << a.step_number);
    CHECK(a.total_ns == 12'120'000);
    CHECK(std::accumulate(a.host_ns.begin(), a.host_ns.end(), int64_t{0}) == a.total_ns);
    REQUIRE(a.devices.size() == 1);
    CHECK(std::accumulate(a.devices[0].ns.begin(), a.devices[0].ns.end(), int64_t{0}) ==
          a.total_ns);
    CHECK(host(a, HostCause::kDataLoader) == 3'000'000);
    CHECK(host(a, HostCause::kLaunch) == 10'000);
    CHECK(host(a, HostCause::kBlockedSync) == 8'025'000);
    CHECK(host(a, HostCause::kUnrecorded) == 1'085'000);
    CHECK(device(a, DeviceCause::kCompute) == 9'000'000);
    CHECK(device(a, DeviceCause::kIdleData) == 3'000'000);
    CHECK(device(a, DeviceCause::kIdleBlocked) == 5'000);  // the sync's return after the kernel
  }
  // Step 0 starts with the host in the lead: its 20 µs before the kernel are launch work and
  // host work. From step 1 on the device has been idle since the previous step's sync returned:
  // that is the lead the sync cost, 95 µs at the end of each step and 20 µs at the next start.
  CHECK(device(result.per_step[0], DeviceCause::kIdleLaunch) == 10'000);
  CHECK(device(result.per_step[0], DeviceCause::kIdleHostWork) == 10'000);
  CHECK(device(result.per_step[0], DeviceCause::kIdleAfterSync) == 95'000);
  CHECK(device(result.per_step[1], DeviceCause::kIdleAfterSync) == 115'000);
  CHECK(device(result.per_step[1], DeviceCause::kIdleLaunch) == 0);
}

TEST_CASE(
    "attribution: communication hidden under compute counts as compute, exposed as communication") {
  TestTrace t;
  t.step(0, 0, 10 * kMs);
  t.launch(100, 10, 200, 4 * kMs, "gemm");
  t.launch(150, 10, 3 * kMs, 3 * kMs, "ncclDevKernel_AllReduce", EventKind::kKernel,
           EventKind::kRuntime, 13);
  t.finalize();
  const auto result = computeAttribution(t.model, computeSteps(t.model));
  REQUIRE(result.per_step.size() == 1);
  const auto& a = result.per_step[0];
  CHECK(device(a, DeviceCause::kCompute) == 4'000'000);        // [0.2, 4.2) ms
  CHECK(device(a, DeviceCause::kCommunication) == 1'800'000);  // [4.2, 6) ms of [3, 6)
  CHECK(std::accumulate(a.devices[0].ns.begin(), a.devices[0].ns.end(), int64_t{0}) == a.total_ns);
}

// DeepEP's all-to-all (here DeepSeek's own namespace) is communication too, though no
// collective op launched it and tb_plugin's breakdown counts it as a kernel.
TEST_CASE("attribution: DeepEP and NVSHMEM kernels are communication") {
  TestTrace t;
  t.step(0, 0, 10 * kMs);
  t.launch(100, 10, 200, 4 * kMs, "gemm");
  t.launch(150, 10, 5 * kMs, 2 * kMs,
           "void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*)",
           EventKind::kKernel, EventKind::kRuntime, 13);
  t.launch(160, 10, 8 * kMs, 1 * kMs, "nvshmemi_transfer_rma_kernel", EventKind::kKernel,
           EventKind::kRuntime, 13);
  t.finalize();
  const auto result = computeAttribution(t.model, computeSteps(t.model));
  REQUIRE(result.per_step.size() == 1);
  const auto& a = result.per_step[0];
  CHECK(device(a, DeviceCause::kCompute) == 4'000'000);
  CHECK(device(a, DeviceCause::kCommunication) == 3'000'000);
  CHECK(steplint::analyzer::isPeerLibraryKernelName("deep_ep::intranode::dispatch<8>"));
  CHECK_FALSE(steplint::analyzer::isPeerLibraryKernelName("ampere_sgemm_128x64_tn"));
}

TEST_CASE("attribution: no steps, no attribution") {
  TestTrace t;
  t.finalize();
  CHECK(computeAttribution(t.model, computeSteps(t.model)).per_step.empty());
}
