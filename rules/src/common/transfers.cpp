#include "common/transfers.h"

#include <algorithm>

#include "common/host_sync.h"
#include "common/rule_support.h"
#include "common/shared_data.h"
#include "common/trace_tree.h"

namespace steplint::rules::common {
namespace {

using trace::Event;
using trace::kNoIndex;

constexpr uint32_t kMaxPairingScan = 256;

/// The host sync call that follows the copy call `call` at the same level (same parent: the
/// same op, e.g. aten::copy_) before any other launch, else kNoIndex.
uint32_t syncAfter(const trace::TraceModel& model, uint32_t call) {
  const Event& c = model.events[call];
  const trace::Track& track = model.tracks[c.track];
  const uint32_t end = track.first_event + track.event_count;
  for (uint32_t j = call + 1, n = 0; j < end && n < kMaxPairingScan; ++j, ++n) {
    const Event& e = model.events[j];
    if (e.depth < c.depth) break;  // left the op
    if (e.parent != c.parent || !trace::isLaunchApi(e.kind)) continue;
    SyncApi api;
    return isSyncApiName(model.name(e), api) && api != SyncApi::kSyncCopy ? j : kNoIndex;
  }
  return kNoIndex;
}

std::vector<Transfer> computeTransfers(const analyzer::AnalysisContext& context) {
  const trace::TraceModel& model = context.model();
  std::vector<Transfer> out;
  for (const uint32_t i : kindIndex(context).of(trace::EventKind::kMemcpy)) {
    const Event& e = model.events[i];
    Transfer t;
    t.op = i;
    t.call = e.link;
    t.copy_ns = e.dur_ns;
    if (const trace::GpuDetail* g = model.gpu(e)) {
      t.kind = g->copy_kind;
      t.src = g->src_kind;
      t.dst = g->dst_kind;
      t.bytes = std::max<int64_t>(0, g->bytes);
    }
    const Event* call = t.call != kNoIndex ? &model.events[t.call] : nullptr;
    t.step = call ? hostStepAt(context, call->start_ns) : context.stepAt(e.start_ns);
    if (t.step < 0) continue;
    if (call) {
      const std::string_view name = model.name(*call);
      t.async_api = name.find("Async") != std::string_view::npos;
      SyncApi api;
      t.sync_api = isSyncApiName(name, api) && api == SyncApi::kSyncCopy;
      t.range = enclosingCpuRange(model, t.call);
      t.issuer = outermostAtenOp(model, t.call);
      if (t.issuer == kNoIndex) t.issuer = t.range;
      t.sync = syncAfter(model, t.call);
      t.host_blocked_ns = call->dur_ns + (t.sync != kNoIndex ? model.events[t.sync].dur_ns : 0);
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace

const std::vector<Transfer>& findTransfers(const analyzer::AnalysisContext& context) {
  return context.shared<std::vector<Transfer>>("common.transfers",
                                               [&] { return computeTransfers(context); });
}

}  // namespace steplint::rules::common
