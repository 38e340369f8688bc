// The profilers the overhead benchmark compares steplint with (bench/collector_overhead):
// libtorch's legacy autograd profiler (--legacy-profile FILE) and, with torch 2.x, Kineto —
// what torch.profiler runs — with CPU and, on a GPU, CUDA activities (--kineto-profile FILE).
// Header-only; included by each sample's one torch TU.
#pragma once

#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/version.h>  // before the #if below: it defines TORCH_VERSION_MAJOR
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/autograd/profiler_kineto.h>
#endif

#include <cstdio>
#include <optional>
#include <set>
#include <string>

#include "sample_options.h"

namespace steplint::samples {

class ReferenceProfiler {
 public:
  ReferenceProfiler() = default;
  ReferenceProfiler(const ReferenceProfiler&) = delete;
  ReferenceProfiler& operator=(const ReferenceProfiler&) = delete;
  ~ReferenceProfiler() { stop(); }

  /// Starts what the options ask for; false (with a message) when it cannot run in this build.
  bool start(const SampleOptions& options, bool cuda) {
    if (!options.legacy_profile.empty()) legacy_.emplace(options.legacy_profile);
    if (options.kineto_profile.empty()) return true;
#if TORCH_VERSION_MAJOR >= 2
    namespace impl = torch::profiler::impl;
    const impl::ProfilerConfig config(impl::ProfilerState::KINETO);
    std::set<impl::ActivityType> activities{impl::ActivityType::CPU};
    if (cuda) activities.insert(impl::ActivityType::CUDA);
    torch::autograd::profiler::prepareProfiler(config, activities);
    torch::autograd::profiler::enableProfiler(config, activities);
    kineto_path_ = options.kineto_profile;
    return true;
#else
    (void)cuda;
    std::fprintf(stderr, "--kineto-profile needs torch 2.x (this LibTorch %d.%d has no Kineto)\n",
                 TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR);
    return false;
#endif
  }

  /// Ends profiling and writes the profiler's trace file.
  void stop() {
    legacy_.reset();
#if TORCH_VERSION_MAJOR >= 2
    if (!kineto_path_.empty()) torch::autograd::profiler::disableProfiler()->save(kineto_path_);
#endif
    kineto_path_.clear();
  }

 private:
  std::optional<torch::autograd::profiler::RecordProfile> legacy_;
  std::string kineto_path_;
};

}  // namespace steplint::samples
