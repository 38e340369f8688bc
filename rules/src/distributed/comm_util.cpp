#include "distributed/comm_util.h"

#include "common/kernel_util.h"

namespace steplint::rules {

bool isCommKernelName(std::string_view name) {
  return startsWith(name, "nccl") || startsWith(name, "rccl") || name.find("ncclKernel") != std::string_view::npos ||
         name.find("ncclDevKernel") != std::string_view::npos;
}

DistributedFacts readDistributedFacts(const trace::TraceModel& model) {
  DistributedFacts f;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (trace::isDeviceOp(e.kind)) {
      f.devices.insert(model.deviceOf(e));
      if (e.kind == trace::EventKind::kKernel && isCommKernelName(model.name(e))) f.nccl_kernels = true;
      continue;
    }
    if (!trace::isCpuRange(e.kind)) continue;
    const std::string_view name = model.name(e);
    if (name == "DataParallel.forward")
      f.dp_forward.push_back(i);
    else if (name == "DistributedDataParallel.forward")
      f.ddp_forward.push_back(i);
    else if (startsWith(name, "nccl:"))
      f.nccl_ops.push_back(i);
    else if (startsWith(name, "gloo:"))
      f.gloo_ops.push_back(i);
  }
  return f;
}

}  // namespace steplint::rules
