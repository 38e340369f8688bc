// Helpers for the collector tests: scratch directories, file reading, importing a trace with
// steplint's own importer, and looking events up by name.
#pragma once

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"

namespace steplint::test {

/// A fresh directory under $TMPDIR, removed with its content at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "steplint_collector_XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    path_ = mkdtemp(buf.data()) != nullptr ? std::string(buf.data()) : std::string("/tmp");
  }
  ~ScratchDir() {
    std::error_code ec;
    if (path_ != "/tmp") std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Waits for pid up to timeout; kills it and returns false when it is still running (a hang
/// fails the test instead of blocking it).
inline bool waitWithTimeout(pid_t pid, int* status, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, status, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, status, 0);
  return false;
}

/// Runs body() in a forked child and returns its exit status (body's return value), 128 +
/// signal when it died of one, -1 when it ran past `timeout`. For process-wide state: signal
/// dispositions and masks, resource limits, a session that must not leak into other tests.
/// The child starts as a trainer would, with SIGINT and SIGTERM at their default action (not
/// Catch2's handlers).
template <typename Body>
int runInChild(Body&& body, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    _exit(body());
  }
  int status = 0;
  if (pid < 0 || !waitWithTimeout(pid, &status, timeout)) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool fileExists(const std::string& path) { return std::filesystem::exists(path); }

inline trace::ImportStatus importFile(const std::string& path, trace::TraceModel& model) {
  trace::ImportOptions options;
  options.threads = 1;
  return trace::importTraceFile(path, model, options);
}

inline std::string eventName(const trace::TraceModel& m, const trace::Event& e) {
  return std::string(m.strings.view(e.name));
}

/// Events named `name`, in model order.
inline std::vector<const trace::Event*> eventsNamed(const trace::TraceModel& m,
                                                    const std::string& name) {
  std::vector<const trace::Event*> out;
  for (const auto& e : m.events) {
    if (eventName(m, e) == name) out.push_back(&e);
  }
  return out;
}

inline std::string extraValue(const trace::TraceModel& m, const std::string& key) {
  for (const auto& [k, v] : m.metadata.extra) {
    if (k == key) return v;
  }
  return {};
}

}  // namespace steplint::test
