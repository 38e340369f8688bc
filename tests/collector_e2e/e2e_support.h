// Helpers for the collector end-to-end tests: run a sample trainer under the preload library
// (the mechanism behind `steplint record`), then import and lint the trace it wrote.
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/model.h"

namespace steplint::e2e {

using Env = std::vector<std::pair<std::string, std::string>>;

/// The variables `steplint record` sets, for output path `trace`.
Env recordEnv(const std::string& trace);

/// How the started process differs from a plain child, as a shell or launcher may set it up.
struct ChildSetup {
  std::vector<int> ignored_signals;  // SIG_IGN before exec (nohup, `trainer &` in a script)
  long long file_size_limit =
      -1;  // RLIMIT_FSIZE soft limit in bytes (SIGXFSZ then ignored): a full disk
  bool own_process_group = false;  // setpgid(0, 0): kill(-pid, sig) reaches it and its children
};

/// Starts argv[0] with `env` added; stdout and stderr go to `log`. Returns the pid.
pid_t startProcess(const std::vector<std::string>& argv, const Env& env, const std::string& log,
                   const ChildSetup& setup = {});
/// Waits for pid; returns its exit status, 128 + signal when killed.
int waitProcess(pid_t pid);
/// startProcess + waitProcess.
int runProcess(const std::vector<std::string>& argv, const Env& env, const std::string& log);

/// A fresh path under the test scratch directory (the directory exists; the file does not).
std::string scratchPath(const std::string& name);
std::string readFile(const std::string& path);

/// A TCP port on 127.0.0.1 that the kernel just handed out as free (bound to port 0, then
/// closed), for a rendezvous (MASTER_PORT). A port computed from the pid could fall in the
/// ephemeral range, where an outgoing connection may hold it: "Address already in use".
int freeTcpPort();

/// A trace imported, summarised and linted with the default rule selection.
struct LintedTrace {
  trace::TraceModel model;
  analyzer::TraceSummary summary;
  analyzer::LintResult lint;
  nlohmann::json json;  // the raw file (plain JSON traces only; null for .gz)
  const analyzer::Diagnostic* finding(const std::string& code) const;
  bool notChecked(const std::string& code) const;
  size_t countNamed(std::string_view name) const;
};

/// Imports `path` (empty optional-like result: model has no events) and runs the rules.
bool lintTrace(const std::string& path, LintedTrace& out, std::string* error);

/// Records `trainer args` into a plain-JSON trace at scratchPath(name) and lints it, with
/// `extra_env` on top of recordEnv(). Cached per name, so several TEST_CASEs share one run.
const LintedTrace& recordSample(const std::string& name, const std::vector<std::string>& argv,
                                const Env& extra_env = {});

}  // namespace steplint::e2e
