// Process events around a session: SIGINT/SIGTERM/SIGHUP (write a valid trace, then die as the
// trainer would have), exit (stop) and fork (the child does not own the parent's session).
//
// The trainer's own signal handling comes first. A handler is installed only where the signal
// still has its default action: an ignored signal (a trainer started by nohup, or with `&` in a
// script) stays ignored and recording goes on; a trainer's own handler stays in charge, and its
// exit (if it decides to) stops the session through atexit. Our handler only writes the signal
// number to a pipe (async-signal-safe); a watcher thread stops the session, restores the default
// action and sends the signal again, so the heavy work (draining, gzip, rename) never runs in
// signal context. The collector's threads block every signal, so a signal meant for the trainer
// (a sigwait() loop, a trainer thread's handler) always reaches a trainer thread.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "session.h"
#include "status_channel.h"
#include "steplint/trace/kineto_writer.h"
#include "steplint/trace/recorded_names.h"

namespace steplint::collector {
namespace {

// SIGHUP: the terminal or ssh session went away, which ends a training run as often as Ctrl-C.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr size_t kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
/// How long the watcher waits for the re-sent signal to end the process before it concludes
/// that the program goes on. Dying takes microseconds; a loaded machine may delay it a little.
constexpr auto kDeathGrace = std::chrono::seconds(2);

struct HookState {
  std::mutex mutex;        // guards installation; never taken in the child handler
  bool installed = false;  // in this process image (reset in a forked child)
  bool atexit_registered = false;
  bool atfork_registered = false;
  int pipe_fds[2] = {-1, -1};
  bool ours[kSignalCount] = {};  // our handler replaced the default action of kSignals[i]
  struct sigaction previous[kSignalCount] = {};
  std::atomic<pid_t> owner_pid{0};  // the process whose watcher thread reads the pipe
  std::atomic<bool> forked_child{false};
};

HookState& hooks() {
  static HookState* state = new HookState();  // leaked: used from atexit and signal paths
  return *state;
}

size_t signalIndex(int signo) {
  size_t i = 0;
  while (i + 1 < kSignalCount && kSignals[i] != signo) ++i;
  return i;
}

const char* signalName(int signo) {
  return signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "SIGHUP";
}

void onSignal(int signo) {
  HookState& h = hooks();
  const int saved_errno = errno;
  if (h.owner_pid.load(std::memory_order_relaxed) != getpid()) {
    // A forked child without a watcher: behave as if we had never been installed.
    sigaction(signo, &h.previous[signalIndex(signo)], nullptr);
    raise(signo);
  } else {
    const char byte = static_cast<char>(signo);
    if (write(h.pipe_fds[1], &byte, 1) < 0) {
      sigaction(signo, &h.previous[signalIndex(signo)], nullptr);
      raise(signo);
    }
  }
  errno = saved_errno;
}

bool isHandler(const struct sigaction& action, void (*handler)(int)) {
  return (action.sa_flags & SA_SIGINFO) == 0 && action.sa_handler == handler;
}

void installHandler(HookState& h, int signo) {
  const size_t i = signalIndex(signo);
  struct sigaction current = {};
  if (sigaction(signo, nullptr, &current) != 0 || !isHandler(current, SIG_DFL)) return;
  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  h.ours[i] = sigaction(signo, &action, &h.previous[i]) == 0;
}

/// The recording stopped but the process lives on: say so in the trace, on stderr and to
/// steplint record, so nobody takes the trace for the whole run.
void reportStoppedEarly(const std::string& trace_path, int signo) {
  const std::string reason = std::string("recording stopped at ") + signalName(signo) +
                             ", but the program went on (every thread blocks the signal); the "
                             "trace ends at the signal";
  std::fprintf(stderr, "steplint: %s\n", reason.c_str());
  sendStatus(StatusKind::kStoppedEarly, reason);
  std::string quoted, error;
  trace::appendJsonString(quoted, reason);
  if (!trace::appendTraceMetadata(trace_path, trace::kStoppedEarlyKey, quoted, &error))
    std::fprintf(stderr, "steplint: %s\n", error.c_str());
}

void onTrainerSignal(int signo) {
  struct sigaction current = {};
  sigaction(signo, nullptr, &current);
  // The trainer installed its own handler after ours and calls ours from it: it decides
  // whether to exit, and its exit writes the trace (atexit).
  if (!isHandler(current, onSignal)) return;
  std::string trace_path;
  const bool stopped = stopSession(&trace_path);
  // Re-deliver with the default action, to the process (this thread blocks every signal): a
  // trainer thread takes it and the process dies of it, as it would have without us.
  sigaction(signo, &hooks().previous[signalIndex(signo)], nullptr);
  kill(getpid(), signo);
  std::this_thread::sleep_for(kDeathGrace);
  // Still alive: no thread accepts the signal (it stays pending until one unblocks it).
  if (stopped) reportStoppedEarly(trace_path, signo);
}

void watchSignals(int read_fd) {
  pthread_setname_np(pthread_self(), "steplint_signal");
  for (;;) {
    char byte = 0;
    ssize_t n = read(read_fd, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    onTrainerSignal(static_cast<unsigned char>(byte));
  }
}

void onExit() {
  markProcessExiting();
  stopSession();
}

void atforkChild() {
  HookState& h = hooks();
  // Threads do not survive fork: no watcher reads the pipe here, so hand the signals back.
  // The mutex may have been held by another parent thread; construct a fresh one.
  new (&h.mutex) std::mutex();
  if (h.installed) {
    for (int signo : kSignals) {
      if (h.ours[signalIndex(signo)]) sigaction(signo, &h.previous[signalIndex(signo)], nullptr);
    }
    close(h.pipe_fds[0]);
    close(h.pipe_fds[1]);
    h.installed = false;
  }
  if (sessionRunning()) {
    h.forked_child.store(true, std::memory_order_relaxed);
    resetStateInForkedChild();
  }
}

}  // namespace

HelperThreadSignals::HelperThreadSignals() noexcept {
  sigset_t all;
  sigfillset(&all);
  // A fault in our own thread must still reach the trainer's crash handler: a blocked SIGSEGV
  // would kill the process with the default action instead.
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) sigdelset(&all, fault);
  pthread_sigmask(SIG_BLOCK, &all, &saved_);
}

HelperThreadSignals::~HelperThreadSignals() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

void installProcessHooks() noexcept {
  HookState& h = hooks();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (!h.atfork_registered)
    h.atfork_registered = pthread_atfork(nullptr, nullptr, atforkChild) == 0;
  if (!h.atexit_registered) h.atexit_registered = std::atexit(onExit) == 0;
  if (h.installed) return;
  if (pipe2(h.pipe_fds, O_CLOEXEC) != 0) return;
  fcntl(h.pipe_fds[1], F_SETFL, O_NONBLOCK);  // a full pipe must never block the handler
  try {
    HelperThreadSignals blocked;
    std::thread(watchSignals, h.pipe_fds[0]).detach();
  } catch (...) {
    close(h.pipe_fds[0]);
    close(h.pipe_fds[1]);
    return;
  }
  h.owner_pid.store(getpid(), std::memory_order_relaxed);
  for (int signo : kSignals) installHandler(h, signo);
  h.installed = true;
}

bool inForkedChild() noexcept { return hooks().forked_child.load(std::memory_order_relaxed); }

void clearForkedChild() noexcept { hooks().forked_child.store(false, std::memory_order_relaxed); }

}  // namespace steplint::collector
