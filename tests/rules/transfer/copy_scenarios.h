// Step layouts shared by the transfer rule tests (times in µs; steps are 10 ms apart).
#pragma once

#include <string>

#include "kineto_trace.h"

namespace steplint::test {

/// Each step: aten::to > aten::_to_copy > aten::copy_ issuing a 12 MB host-to-device copy
/// (`src` memory) through cudaMemcpyAsync [130, 2130) with the memcpy at [150, 2050), then,
/// when `sync`, cudaStreamSynchronize [2140, 2240); then a kernel [2500, 8500) launched by
/// aten::conv2d. GPU idle after the copy: 2500 - 2050 = 450 µs.
inline std::string hostToDeviceCopySteps(const std::string& src, bool sync, int steps = 3,
                                         int major = 7, double call_us = 2000) {
  KinetoTrace t;
  t.device(0, major);
  forEachStep(t, steps, 10000, [&](int, double b) {
    t.op("aten::to", b + 100, 2200)
        .op("aten::_to_copy", b + 110, 2180)
        .op("aten::copy_", b + 120, 2150);
    t.copy("HtoD", src, "Device", b + 130, call_us, b + 150, 1900, 12'000'000);
    if (sync) t.runtime("cudaStreamSynchronize", b + 2140, 100);
    t.op("aten::conv2d", b + 2400, 200).kernel(b + 2450, 20, b + 2500, 6000);
  });
  return t.str();
}

}  // namespace steplint::test
