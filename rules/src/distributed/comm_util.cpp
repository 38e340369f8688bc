#include "distributed/comm_util.h"

#include "common/kernel_util.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::rules {

std::string oneRankCaveat(int64_t world_size) {
  return "; one rank of " + std::to_string(world_size) +
         ": its wait inside collectives for slower ranks counts here too (steplint check on all "
         "ranks' traces measures it apart)";
}

bool isCommKernelName(std::string_view name) {
  return startsWith(name, "nccl") || startsWith(name, "rccl") ||
         name.find("ncclKernel") != std::string_view::npos ||
         name.find("ncclDevKernel") != std::string_view::npos;
}

namespace {

// Which list of DistributedFacts a CPU range's name puts it in (kNone: none).
enum class CommNameClass : int8_t {
  kUnknown = -1,
  kNone,
  kDpForward,
  kDdpForward,
  kNcclOp,
  kGlooOp
};

CommNameClass classifyCommName(std::string_view name) {
  if (name == "DataParallel.forward") return CommNameClass::kDpForward;
  if (name == "DistributedDataParallel.forward") return CommNameClass::kDdpForward;
  if (startsWith(name, "nccl:")) return CommNameClass::kNcclOp;
  if (startsWith(name, "gloo:")) return CommNameClass::kGlooOp;
  return CommNameClass::kNone;
}

std::vector<uint32_t>* listFor(DistributedFacts& f, CommNameClass c) {
  switch (c) {
    case CommNameClass::kDpForward:
      return &f.dp_forward;
    case CommNameClass::kDdpForward:
      return &f.ddp_forward;
    case CommNameClass::kNcclOp:
      return &f.nccl_ops;
    case CommNameClass::kGlooOp:
      return &f.gloo_ops;
    default:
      return nullptr;
  }
}

}  // namespace

DistributedFacts readDistributedFacts(const trace::TraceModel& model) {
  DistributedFacts f;
  // Names are classified once per distinct name; consecutive device ops mostly share a device,
  // so the set is only touched when the device changes.
  std::vector<CommNameClass> name_class(model.strings.size(), CommNameClass::kUnknown);
  analyzer::NameMemo comm_kernel(model, isCommKernelName);
  int32_t last_device = -1;
  bool any_device = false;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (trace::isDeviceOp(e.kind)) {
      const int32_t device = model.deviceOf(e);
      if (!any_device || device != last_device) f.devices.insert(device);
      any_device = true;
      last_device = device;
      if (!f.nccl_kernels && e.kind == trace::EventKind::kKernel && comm_kernel(e.name))
        f.nccl_kernels = true;
      continue;
    }
    if (!trace::isCpuRange(e.kind)) continue;
    CommNameClass c =
        e.name < name_class.size() ? name_class[e.name] : classifyCommName(model.name(e));
    if (c == CommNameClass::kUnknown) c = name_class[e.name] = classifyCommName(model.name(e));
    if (std::vector<uint32_t>* list = listFor(f, c)) list->push_back(i);
  }
  return f;
}

const DistributedFacts& distributedFacts(const analyzer::AnalysisContext& context) {
  return context.shared<DistributedFacts>("distributed.facts",
                                          [&] { return readDistributedFacts(context.model()); });
}

}  // namespace steplint::rules
