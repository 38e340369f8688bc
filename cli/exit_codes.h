// Process exit codes of `steplint` (flake8/ruff habits; docs/cli.md "Exit codes").
#pragma once

namespace steplint::cli {

/// What `main` returns. Scripts and CI depend on these numbers: never renumber.
///
/// docs/reference/style.md §2.6 sketches a separate code 3 for unreadable input; v0 follows flake8
/// and ruff, which report both usage errors and unreadable input as 2, so CI wrappers need one
/// check.
enum ExitCode : int {
  kExitOk = 0,          // ran to completion; import warnings do not change this
  kExitFindings = 1,    // reserved for `steplint check`: findings at or above fail-on
  kExitUsageError = 2,  // bad command line, or an input that is missing, unreadable or not a trace
};

}  // namespace steplint::cli
