// Session control, used by api.cpp (the C ABI), process_hooks.cpp (signals, atexit, fork) and
// the preload library. Implemented in recorder.cpp. One session per process at a time.
#pragma once

#include <signal.h>

#include <cstdint>
#include <string>

namespace steplint::collector {

struct CollectorConfig;

enum class StartResult : uint8_t {
  kStarted = 0,  // this call started the session
  kJoined = 1,   // a session already runs
  kFailed = 2,   // output not writable, or called in a forked child of a recording process
};

/// Starts with the configuration from the environment; a non-empty output_path overrides
/// STEPLINT_OUTPUT. Config warnings go to stderr ("steplint: ...") and into the trace.
StartResult startSession(const char* output_path) noexcept;
/// Starts with an explicit configuration (tests, embedding); the environment is not read.
StartResult startSession(const CollectorConfig& config) noexcept;
/// Stops the running session and writes the trace. False when none ran or writing failed;
/// on success *trace_path (when given) is the file written.
bool stopSession(std::string* trace_path = nullptr) noexcept;
bool sessionRunning() noexcept;
/// Called by the atexit handler before it stops the session (processExiting() in recorder.h).
void markProcessExiting() noexcept;

// ---- process_hooks.cpp
/// Installs SIGINT/SIGTERM/SIGHUP handlers where the signal has its default action (an ignored
/// signal or the trainer's own handler is left alone), the atexit stop and pthread_atfork handlers
/// (once per process image; again in a forked child that starts its own session).
void installProcessHooks() noexcept;
/// Blocks every signal but the synchronous faults (SIGSEGV, ...) in the calling thread while it
/// lives, so a thread started meanwhile inherits that mask: the collector's threads (writer,
/// signal watcher) never take a signal meant for the trainer, such as one a trainer thread
/// waits for in sigwait().
class HelperThreadSignals {
 public:
  HelperThreadSignals() noexcept;
  ~HelperThreadSignals();
  HelperThreadSignals(const HelperThreadSignals&) = delete;
  HelperThreadSignals& operator=(const HelperThreadSignals&) = delete;

 private:
  sigset_t saved_;
};
/// True in a forked child of a process that was recording at fork time, until
/// startSessionInForkedChild() starts this process's own session.
bool inForkedChild() noexcept;
void clearForkedChild() noexcept;
/// recorder_fork.cpp, for the atfork child handler, on the child's one thread: fresh collector
/// state (recorder globals, thread buffers, thread ids), the parent's leaked. The parent's session,
/// its writer thread and its buffers are not this process's, and a mutex another parent thread held
/// at the fork stays locked here for good. Every call is a no-op until a session starts here.
void resetStateInForkedChild() noexcept;
/// recorder_fork.cpp: the fallback when that fails: the parent's state, marked dead.
void markSessionDeadInChild() noexcept;
/// recorder_fork.cpp: starts this forked child's own session (a rank that fork started), configured
/// from the environment (the Python hook sets STEPLINT_RANK and STEPLINT_WORLD_SIZE first),
/// host side only. kFailed when this is not a forked child of a recording process.
StartResult startSessionInForkedChild() noexcept;

}  // namespace steplint::collector
