// The calls CUPTI is told not to record (cupti_api_filter.h): exactly those the converter
// drops; names from the real libcupti table (no driver needed).
#include <catch2/catch.hpp>

#include <algorithm>

#include "cupti/cupti_api_filter.h"

using namespace steplint::collector;

namespace {

bool has(const std::vector<CUpti_CallbackId>& ids, CUpti_CallbackId id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST_CASE("API selection turns off the driver calls the converter drops, by libcupti's names",
          "[cupti][api_filter]") {
  const ApiSelection s = selectApis(cuptiApiNames());
  // Launches, copies, sets and waits stay on (Triton's cuLaunchKernel among them).
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx));
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2));
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async));
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize));
  CHECK_FALSE(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch));
  // The calls the runtime makes on its own behalf, several per launch, go.
  CHECK(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent));
  CHECK(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute));
  CHECK(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState));
  CHECK(has(s.driver_off, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2));
  // Most driver calls go.
  CHECK(s.driver_off.size() > CUPTI_DRIVER_TRACE_CBID_SIZE * 3 / 4);

  CHECK(has(s.runtime_off, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020));
  CHECK(has(s.runtime_off, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020));
  CHECK_FALSE(has(s.runtime_off, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
  CHECK(s.runtime_off.size() == 6);
}

TEST_CASE("API selection covers calls a newer libcupti knows beyond the compiled-in table",
          "[cupti][api_filter]") {
  const CUpti_CallbackId future = CUPTI_DRIVER_TRACE_CBID_SIZE + 10;
  const ApiSelection s = selectApis([&](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return static_cast<const char*>(nullptr);
    if (id == future) return "cuGetSomethingNew";
    if (id == future + 1) return "cuLaunchKernelSomeday";
    if (id == 3) return "cuDeviceGet";
    if (id == 4) return "cuMemcpyHtoD_v2";
    return static_cast<const char*>(nullptr);  // unknown ids stay as they are
  });
  CHECK(s.driver_off == std::vector<CUpti_CallbackId>{3, future});
}
