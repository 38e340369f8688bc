// Memory copies between host and device, joined to the API call and CPU op that issued them
// and to a synchronize that follows the call inside the same op. Shared by SL201, SL203, SL204.
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/analyzer/rule.h"
#include "steplint/trace/model.h"

namespace steplint::rules::common {

struct Transfer {
  uint32_t op = trace::kNoIndex;     // the memcpy device op
  uint32_t call = trace::kNoIndex;   // the API call that issued it (cudaMemcpyAsync ...)
  uint32_t range = trace::kNoIndex;  // innermost CPU range around the call (aten::copy_ ...)
  uint32_t issuer =
      trace::kNoIndex;  // outermost aten op around the call (aten::to ...), else `range`
  uint32_t sync = trace::kNoIndex;  // a sync call right after `call` in the same op (next launch)
  int step = -1;                    // index into steps().steps (by the call's start)
  trace::CopyKind kind = trace::CopyKind::kUnknown;
  trace::MemoryKind src = trace::MemoryKind::kUnknown;
  trace::MemoryKind dst = trace::MemoryKind::kUnknown;
  int64_t bytes = 0;
  int64_t copy_ns = 0;          // device time of the copy
  bool async_api = false;       // the call is an *Async copy API
  bool sync_api = false;        // the call is a synchronous copy API (cudaMemcpy)
  int64_t host_blocked_ns = 0;  // call duration + the following sync's duration
};

/// Every memcpy whose issuing call (or, without one, the copy itself) lies inside a kept step.
/// Computed once per context (SL201, SL203 and SL204 all ask).
const std::vector<Transfer>& findTransfers(const analyzer::AnalysisContext& context);

/// Bytes per second of a copy (0 when its duration is 0).
inline double bandwidthGBps(const Transfer& t) {
  return t.copy_ns > 0 ? static_cast<double>(t.bytes) / static_cast<double>(t.copy_ns) : 0;
}

}  // namespace steplint::rules::common
