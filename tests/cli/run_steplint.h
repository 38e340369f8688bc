// Runs the built `steplint` executable and captures its exit code, stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace steplint::test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  /// stderr split into lines (without the newline).
  std::vector<std::string> errLines() const;
};

/// Runs `steplint ARGS` through /bin/sh with NO_COLOR unset and TERM=dumb. Each argument is
/// single-quoted, so paths with spaces work.
RunResult runSteplint(const std::vector<std::string>& args);

/// Runs `script` with /bin/sh (NO_COLOR unset, TERM=dumb, stdin /dev/null), where "$STEPLINT"
/// is the executable: for pipes, FIFOs and process limits that an argument list cannot express.
RunResult runShell(const std::string& script);

/// `text` single-quoted for /bin/sh.
std::string shellQuote(const std::string& text);

/// A fresh path under the test's scratch directory (not created).
std::string scratchPath(const std::string& name);

/// Whole file as a string ("" if it cannot be read).
std::string readFile(const std::string& path);

}  // namespace steplint::test
