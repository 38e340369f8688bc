// GPU ops that waited for something the trace does not show (replay_build.cpp's delays): an op
// that started long after its launch call, on a free queue, with no op of another stream ending
// just before it. What it waited for decides how a fix moves it, and the trace says which of
// two it is only through who else ran the program (docs/savings.md "External waits"):
//
// - In a job of several ranks (world size above 1, or collectives in the trace) the wait is for
//   the other ranks, which run the same program and take the same fixes: the wait keeps its
//   length after the launch and pipelines with the host, as every other delay does.
// - In one process alone (an inference server's scheduler, an event recorded by another
//   process) it is for something outside the program, which a fix here does not move: the op
//   keeps its offset in the step (ReplayOp::pinned). Without this, the 463 ms wait of a
//   470 ms SGLang decode step overlapped the next step's once a host sync was removed, and the
//   sync's removal "saved" 98 % of the step.
#pragma once

#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// Longer than any launch latency or queueing a trace explains (typical: 5–50 µs).
inline constexpr double kExternalWaitNs = 1e6;

/// True when the trace shows other ranks running the same program: a world size above 1,
/// c10d collectives, or NCCL/RCCL kernels.
bool runsWithPeers(const trace::TraceModel& model);

}  // namespace steplint::analyzer
