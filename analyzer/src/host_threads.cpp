#include "host_threads.h"

#include <algorithm>

namespace steplint::analyzer {

std::vector<char> hostTimelineTracks(const trace::TraceModel& model, const StepResult& steps,
                                     int64_t from, int64_t to) {
  std::vector<char> host(model.tracks.size(), 0);
  for (const Step& s : steps.steps)
    if (s.event != trace::kNoIndex) host[model.events[s.event].track] = 1;
  std::vector<size_t> ops_on(model.tracks.size(), 0);
  for (uint32_t t = 0; t < model.tracks.size(); ++t) {
    const trace::Track& track = model.tracks[t];
    if (track.kind != trace::TrackKind::kCpuThread) continue;
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const trace::Event& e = model.events[i];
      if (e.start_ns < from || e.start_ns >= to) continue;
      if (trace::isLaunchApi(e.kind)) host[t] = 1;
      if (trace::isCpuRange(e.kind)) ++ops_on[t];
    }
  }
  if (std::find(host.begin(), host.end(), 1) == host.end()) {
    // Detected steps know their training thread; on a CPU trace with loader worker threads the
    // busiest thread would be a worker (each builds every sample of its batches).
    if (steps.main_track < host.size()) {
      host[steps.main_track] = 1;
      return host;
    }
    const auto busiest = std::max_element(ops_on.begin(), ops_on.end());
    if (busiest != ops_on.end() && *busiest > 0)
      host[static_cast<size_t>(busiest - ops_on.begin())] = 1;
  }
  return host;
}

}  // namespace steplint::analyzer
