// The names of the trace files one recorded run writes: one per process when the run has
// several (torchrun, mpirun, srun, mp.spawn). Shared by the collector, which picks its process's
// name, and `steplint record`, which finds them all afterwards (docs/collector.md, "Several
// processes").
#pragma once

#include <string>
#include <string_view>

namespace steplint::trace {

/// Endings a trace file keeps after the process tag, longest first: "x.pt.trace.json.gz" gets
/// "x.rank3.pt.trace.json.gz", as tensorboard_trace_handler names a worker
/// "<name>.<ts>.pt.trace.json".
inline constexpr std::string_view kTraceSuffixes[] = {".pt.trace.json.gz", ".pt.trace.json",
                                                      ".json.gz", ".json", ".gz"};

/// The suffix of `file_name` from kTraceSuffixes, or "" when it has none of them.
inline std::string_view traceSuffix(std::string_view file_name) {
  for (std::string_view suffix : kTraceSuffixes) {
    if (file_name.size() > suffix.size() &&
        file_name.substr(file_name.size() - suffix.size()) == suffix)
      return suffix;
  }
  return {};
}

/// `path` with ".<tag>" put before its trace suffix ("rank3", "pid4242"), so that processes of
/// one run never write the same file and the name still says how it is compressed.
inline std::string processTracePath(std::string_view path, std::string_view tag) {
  const size_t slash = path.rfind('/');
  const std::string_view file_name =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::string_view suffix = traceSuffix(file_name);
  std::string out(path.substr(0, path.size() - suffix.size()));
  out += '.';
  out += tag;
  out += suffix;
  return out;
}

/// The tag of a process of a distributed run: "rank<N>".
inline std::string rankTag(int64_t rank) { return "rank" + std::to_string(rank); }

/// The tag of another process of the run (one with no rank of its own): "pid<N>".
inline std::string pidTag(int64_t pid) { return "pid" + std::to_string(pid); }

}  // namespace steplint::trace
