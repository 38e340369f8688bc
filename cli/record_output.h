// Where `steplint record` has the traces written, so that `-o` is replaced only by a new trace.
//
// Before the trainer starts, reserve() checks the -o path (it must not exist, be empty or hold
// a trace: a device node, a FIFO, a directory or a file that is no trace, such as the trainer's
// own script, is refused) and creates a unique staging file in
// the same directory with O_EXCL, which also proves the directory writable. The trainer's
// collector writes "<staging>.partial" and renames it to <staging> when it finishes. After the
// trainer, finish() moves a finished trace over -o (the only moment an old trace is replaced,
// and only by one that recorded something) or keeps an unfinished one as "<-o>.partial"; every
// other staging file is removed. Two records with the same -o have different staging files and
// never read each other's.
//
// A run of several processes (torchrun, mp.spawn) writes one trace per process: a rank's
// collector tags the staging name with "rank<N>", any other process that finds the staging
// file taken with "pid<N>" (trace/names/.../trace_file_names.h). finish() moves each to -o with
// the same tag ("out.rank3.pt.trace.json.gz").
//
//   TraceStaging staging;
//   if (!staging.reserve(output, &error)) return refuse(error);        // exit 2, trainer not run
//   setenv("STEPLINT_OUTPUT", staging.path().c_str(), 1); ... run the trainer ...
//   const std::vector<StagedTrace> traces = staging.finish(recordsAnything);
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace steplint::cli {

/// What finish() found and where it left it.
struct StagedTrace {
  /// kEmpty: finished but holding nothing, so the earlier trace at -o was left in place.
  enum class State { kNone, kComplete, kPartial, kEmpty } state = State::kNone;
  std::string path;     // the trace to report: -o, "<-o>.partial", or a staging file kept
  std::string problem;  // why it is not where it should be ("" when it is)
  /// Which process wrote it: "" the run's first process (or its only one), "rank3" a rank of a
  /// distributed run, "pid4242" (or "rank3.pid4242") another process that found its name taken.
  std::string tag;
  std::string staged;  // the name the collector wrote it under (its messages name that one)
  bool isRank() const;
};

class TraceStaging {
 public:
  TraceStaging() = default;
  ~TraceStaging();  // removes staging files that finish() did not move
  TraceStaging(const TraceStaging&) = delete;
  TraceStaging& operator=(const TraceStaging&) = delete;

  /// `output` absolute. Creates missing parent directories, as the collector does. False +
  /// *error naming the path and the reason when nothing can be written there, or when a file
  /// that is not a trace is there (a finished run would replace it).
  bool reserve(const std::string& output, std::string* error);
  /// The path to give the collector (STEPLINT_OUTPUT): same directory, same suffix as -o.
  const std::string& path() const { return staging_; }
  /// -o itself, after symbolic links were followed.
  const std::string& output() const { return output_; }
  /// Moves what the collectors left into place; call once, after the trainer has ended. The
  /// first process's trace comes first (state kNone when it wrote none), then the ranks by
  /// number, then other processes. Also locks -o's directory against other steplint records
  /// (flock) until this object is destroyed, so that the traces reported meanwhile are this run's.
  /// `records_anything(path)` says whether a finished trace holds anything: one that does not
  /// is removed instead of replacing an earlier trace (kEmpty).
  using Recorded = std::function<bool(const std::string&)>;
  std::vector<StagedTrace> finish(const Recorded& records_anything);

 private:
  StagedTrace finishOne(const std::string& tag, const Recorded& records_anything);
  std::vector<std::string> stagedTags() const;

  std::string output_;
  std::string staging_;
  int directory_lock_ = -1;
  std::vector<std::string> keep_;  // staging files finish() reports under their own name
};

}  // namespace steplint::cli
