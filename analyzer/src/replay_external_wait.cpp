#include "replay_external_wait.h"

#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::analyzer {

bool runsWithPeers(const trace::TraceModel& model) {
  if (model.metadata.distributed.world_size > 1 || !model.collectives.empty()) return true;
  NameMemo comm_kernel(model, isCommunicationKernelName);
  for (const trace::Event& e : model.events)
    if (e.kind == trace::EventKind::kKernel && comm_kernel(e.name)) return true;
  return false;
}

}  // namespace steplint::analyzer
