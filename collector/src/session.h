// Session control, used by api.cpp (the C ABI), process_hooks.cpp (signals, atexit, fork) and
// the preload library. Implemented in recorder.cpp. One session per process at a time.
#pragma once

#include <cstdint>

namespace steplint::collector {

struct CollectorConfig;

enum class StartResult : uint8_t {
  kStarted = 0,    // this call started the session
  kJoined = 1,     // a session already runs
  kFailed = 2,     // output not writable, or called in a forked child of a recording process
};

/// Starts with the configuration from the environment; a non-empty output_path overrides
/// STEPLINT_OUTPUT. Config warnings go to stderr ("steplint: ...") and into the trace.
StartResult startSession(const char* output_path) noexcept;
/// Starts with an explicit configuration (tests, embedding); the environment is not read.
StartResult startSession(const CollectorConfig& config) noexcept;
/// Stops the running session and writes the trace. False when none ran or writing failed.
bool stopSession() noexcept;
bool sessionRunning() noexcept;

// ---- process_hooks.cpp
/// Installs SIGINT/SIGTERM handlers, the atexit stop and pthread_atfork handlers (once per
/// process image; again in a forked child that starts its own session).
void installProcessHooks() noexcept;
/// True in a forked child of a process that was recording at fork time.
bool inForkedChild() noexcept;
/// recorder.cpp: turns every recording call into a no-op (atfork child handler).
void markSessionDeadInChild() noexcept;

}  // namespace steplint::collector
