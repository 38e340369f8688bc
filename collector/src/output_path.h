// Where a recording's trace goes when the path it was given is not free: another process of
// the same run holds it, or it names the user's own file. The trace then goes beside it, tagged
// with this process's pid, so nothing is overwritten and nothing goes unrecorded.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace steplint::collector {

/// Under `steplint record` (trace_name set) the output is a placeholder that record created
/// empty: a non-empty one is the finished trace of another process of the run. Elsewhere an
/// existing trace is an older run's and is replaced, as before.
bool takenByAnotherProcess(const CollectorConfig& config);

/// Outside `steplint record` (which checks -o itself) the path may name the user's own file
/// (STEPLINT_OUTPUT=train.py, Session{"config.yaml"}): one that is not a trace
/// (trace::mayReplaceWithTrace).
bool namesUsersFile(const CollectorConfig& config);

/// Moves `config`'s output (and its trace name) to "<path>.pid<N><suffix>" for this process;
/// with `users_file`, a name readers take for a trace and a warning (also printed) that the
/// file was kept.
void moveBeside(CollectorConfig& config, bool users_file, std::vector<std::string>& warnings);

}  // namespace steplint::collector
