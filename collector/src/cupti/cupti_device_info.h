// Device properties and driver/runtime versions for the trace header, read through dlopen so
// the collector never links libcuda or libcudart (docs/reference/toolchain.md §4.2: a binary linked
// to the driver stub dies at load time on machines without a driver).
#pragma once

#include <string>
#include <vector>

#include "steplint/trace/kineto_writer.h"

namespace steplint::collector {

struct GpuDriverInfo {
  int driver_version = 0;   // cuDriverGetVersion, e.g. 13000; 0 = no driver
  int runtime_version = 0;  // cudaRuntimeGetVersion of an already loaded libcudart; 0 = none
  std::vector<trace::WriterDeviceProperties> devices;  // docs/reference/trace-format.md §10.1
  std::string why;  // why devices is empty ("libcuda.so.1 not found", ...)
};

/// Queries libcuda.so.1 (already loaded, else loaded now; never unloaded while in use) and
/// cudaRuntimeGetVersion from a libcudart the process already has. Never throws.
GpuDriverInfo queryGpuDriver();

}  // namespace steplint::collector
