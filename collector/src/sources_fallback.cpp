// Stand-ins for the sources a build leaves out (see sources.h).
#include "sources.h"

namespace steplint::collector {

#ifndef STEPLINT_HAVE_TORCH
std::unique_ptr<HostSource> makeTorchSource() { return nullptr; }
void refreshTorchSettingsAtStep(int64_t) noexcept {}
#endif
#ifndef STEPLINT_HAVE_NVTX
std::unique_ptr<HostSource> makeNvtxSource() { return nullptr; }
#endif
#ifndef STEPLINT_HAVE_CUPTI
std::unique_ptr<ActivitySource> makeCuptiSource() { return nullptr; }
#endif
#ifndef STEPLINT_HAVE_CUDA_MEMORY
std::unique_ptr<MemoryProbe> makeCudaMemoryProbe() { return nullptr; }
#endif

}  // namespace steplint::collector
