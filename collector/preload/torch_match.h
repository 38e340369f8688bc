// Whether the libtorch a process loaded is the one the collector was built against.
//
// The collector is C++ against torch's C++ API: loaded into a process whose libtorch is another
// build (a pip wheel of another version, the other C++ ABI) it fails to load at best and
// corrupts the trainer at worst. The preload decides before loading it, from the file alone:
// the same libtorch_cpu file (after symlinks) is the same build. Torch-free; the build passes
// the reference through STEPLINT_BUILT_TORCH_LIB / STEPLINT_BUILT_TORCH_VERSION.
#pragma once

#include <string>

namespace steplint::preload {

struct TorchMatch {
  bool same = false;
  std::string loaded_path;     // the mapped libtorch_cpu, as the loader names it
  std::string loaded_version;  // from torch/version.py next to a wheel's torch/lib; "" if unknown
};

/// The path of the mapped libtorch_cpu.so*, "" when none is mapped.
std::string mappedLibtorch();

/// Compares the mapped libtorch `loaded_path` with the one the collector was built against.
TorchMatch matchBuiltTorch(const std::string& loaded_path);

/// The one-line status message for a mismatch: both torches and the command that builds the
/// collector against the loaded one (docs/collector.md, "Python trainers").
std::string mismatchMessage(const TorchMatch& match);

}  // namespace steplint::preload
