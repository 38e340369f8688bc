// Process events around a session: SIGINT/SIGTERM (write a valid trace, then die as the
// trainer would have), exit (stop) and fork (the child does not own the parent's session).
//
// The signal handler only writes the signal number to a pipe (async-signal-safe); a watcher
// thread stops the session, restores the previous disposition and re-raises, so the heavy work
// (draining, gzip, rename) never runs in signal context.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "session.h"

namespace steplint::collector {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM};

struct HookState {
  std::mutex mutex;               // guards installation; never taken in the child handler
  bool installed = false;         // in this process image (reset in a forked child)
  bool atexit_registered = false;
  bool atfork_registered = false;
  int pipe_fds[2] = {-1, -1};
  struct sigaction previous[2] = {};
  std::atomic<pid_t> owner_pid{0};     // the process whose watcher thread reads the pipe
  std::atomic<bool> forked_child{false};
};

HookState& hooks() {
  static HookState* state = new HookState();  // leaked: used from atexit and signal paths
  return *state;
}

int signalIndex(int signo) { return signo == SIGINT ? 0 : 1; }

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

void installHandler(int signo) {
  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(signo, &action, &hooks().previous[signalIndex(signo)]);
}

void watchSignals(int read_fd) {
  pthread_setname_np(pthread_self(), "steplint_signal");
  for (;;) {
    char byte = 0;
    ssize_t n = read(read_fd, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    const int signo = static_cast<unsigned char>(byte);
    stopSession();
    // Re-deliver with the disposition the trainer had: SIG_DFL terminates with this signal
    // (the parent sees WIFSIGNALED), a handler of the trainer runs, SIG_IGN does nothing.
    struct sigaction ours = {};
    sigaction(signo, &hooks().previous[signalIndex(signo)], &ours);
    raise(signo);
    sigaction(signo, &ours, nullptr);  // still alive: keep flushing later sessions
  }
}

void onExit() { stopSession(); }

void atforkChild() {
  HookState& h = hooks();
  // Threads do not survive fork: no watcher reads the pipe here, so hand the signals back.
  // The mutex may have been held by another parent thread; construct a fresh one.
  new (&h.mutex) std::mutex();
  if (h.installed) {
    for (int signo : kSignals) sigaction(signo, &h.previous[signalIndex(signo)], nullptr);
    close(h.pipe_fds[0]);
    close(h.pipe_fds[1]);
    h.installed = false;
  }
  if (sessionRunning()) {
    h.forked_child.store(true, std::memory_order_relaxed);
    markSessionDeadInChild();
  }
}

}  // namespace

void installProcessHooks() noexcept {
  HookState& h = hooks();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (!h.atfork_registered) h.atfork_registered = pthread_atfork(nullptr, nullptr, atforkChild) == 0;
  if (!h.atexit_registered) h.atexit_registered = std::atexit(onExit) == 0;
  if (h.installed) return;
  if (pipe2(h.pipe_fds, O_CLOEXEC) != 0) return;
  fcntl(h.pipe_fds[1], F_SETFL, O_NONBLOCK);  // a full pipe must never block the handler
  try {
    std::thread(watchSignals, h.pipe_fds[0]).detach();
  } catch (...) {
    close(h.pipe_fds[0]);
    close(h.pipe_fds[1]);
    return;
  }
  h.owner_pid.store(getpid(), std::memory_order_relaxed);
  for (int signo : kSignals) installHandler(signo);
  h.installed = true;
}

bool inForkedChild() noexcept { return hooks().forked_child.load(std::memory_order_relaxed); }

}  // namespace steplint::collector
