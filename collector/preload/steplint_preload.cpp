// libsteplint_preload.so: starts a steplint recording inside an unmodified PyTorch trainer.
//
// `steplint record` puts this library in LD_PRELOAD with STEPLINT_RECORD=1, so it is in every
// process the command starts. It starts the collector when the process has libtorch mapped:
// at once where the program links LibTorch, else the moment a dlopen brings libtorch in (Python
// loads it at `import torch`, through torch/_C's dependencies). Shells, launchers and Python
// before `import torch` are left alone, and it has no libtorch dependency of its own. Before
// loading libsteplint_collector.so (STEPLINT_COLLECTOR_LIB, else the file next to this one) it
// checks that the mapped libtorch is the one the collector was built against (torch_match.h);
// on a mismatch it says so once, on stderr and to `steplint record`, and loads nothing.
//
// The dlopen wrapper must not change what dlopen does. Once the collector is started (or ruled
// out) and for names without a '/', it forwards as a tail call, so glibc still sees the real
// caller (whose RUNPATH a bare name is searched in). Only path loads before libtorch appears pay
// one dl_iterate_phdr after the real dlopen returns.
//
// The only environment reads outside collector/src/config.cpp (docs/reference/style.md §2.9): they
// decide whether the collector is loaded at all.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "status_channel.h"
#include "torch_match.h"

namespace {

constexpr const char* kCollectorFile = "libsteplint_collector.so";

enum State : int { kWaiting, kStarting, kSettled };
// kSettled once the collector started, was ruled out, or recording is off: from then on the
// wrapper only forwards.
std::atomic<int> g_state{kSettled};
// A forked child never starts a collector at `import torch`; late (steplint_preload_start) only
// when no collector was loaded before the fork: a loaded one starts the child's own session
// itself (steplint_start_forked_rank).
std::atomic<bool> g_forked{false};
std::atomic<bool> g_collector_loaded{false};
std::atomic<bool> g_started_late{false};

bool envIsOn(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && (std::strcmp(v, "1") == 0 || std::strcmp(v, "true") == 0 ||
                          std::strcmp(v, "on") == 0 || std::strcmp(v, "yes") == 0);
}

/// The collector's path: STEPLINT_COLLECTOR_LIB, else the directory this library was loaded from.
std::string collectorPath() {
  if (const char* explicit_path = std::getenv("STEPLINT_COLLECTOR_LIB");
      explicit_path && *explicit_path)
    return explicit_path;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&collectorPath), &info) != 0 && info.dli_fname != nullptr) {
    std::string self = info.dli_fname;
    const size_t slash = self.rfind('/');
    if (slash != std::string::npos) return self.substr(0, slash + 1) + kCollectorFile;
  }
  return kCollectorFile;  // the dynamic loader's search path
}

using DlopenFn = void* (*)(const char*, int);
std::atomic<DlopenFn> g_real_dlopen{nullptr};

/// glibc's dlopen. Resolved without a static-init guard: a dlopen from inside dlsym (a malloc
/// interposer loading a library) would deadlock on one; resolving twice is harmless.
DlopenFn realDlopen() {
  DlopenFn real = g_real_dlopen.load(std::memory_order_acquire);
  if (real == nullptr) {
    real = reinterpret_cast<DlopenFn>(dlsym(RTLD_NEXT, "dlopen"));
    g_real_dlopen.store(real, std::memory_order_release);
  }
  return real;
}

void reportMismatch(const steplint::preload::TorchMatch& match) {
  const std::string message = steplint::preload::mismatchMessage(match);
  std::fprintf(stderr, "steplint: %s\n", message.c_str());
  if (const char* spec = std::getenv("STEPLINT_STATUS_FD"); spec != nullptr) {
    steplint::collector::openStatusChannel(spec);
    steplint::collector::sendStatus(steplint::collector::StatusKind::kTorchMismatch, message);
  }
}

/// Loads and starts the collector; true when it records (started now or already running).
bool startCollector(const std::string& libtorch) {
  // Read now, not at process start: a Python hook may have turned recording off for this
  // process (a multiprocessing spawn child) before it imported torch.
  if (!envIsOn("STEPLINT_RECORD")) return false;
  const steplint::preload::TorchMatch match = steplint::preload::matchBuiltTorch(libtorch);
  if (!match.same) {
    reportMismatch(match);
    return false;
  }
  const std::string path = collectorPath();
  DlopenFn real = realDlopen();
  // RTLD_NODELETE: the collector's atexit handler must still be mapped when it runs.
  void* handle =
      real != nullptr ? real(path.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE) : nullptr;
  if (handle == nullptr) {
    std::fprintf(stderr, "steplint: cannot load the collector %s: %s\n", path.c_str(), dlerror());
    return false;
  }
  using StartFn = int (*)(const char*);
  auto start = reinterpret_cast<StartFn>(dlsym(handle, "steplint_start"));
  if (start == nullptr) {
    std::fprintf(stderr, "steplint: %s has no steplint_start\n", path.c_str());
    return false;
  }
  g_collector_loaded.store(true);
  return start(nullptr) <= 1;  // 1 = already recording (a linked Session came first): fine
}

/// Starts the collector once, on the first thread that sees libtorch mapped. The collector's
/// own dlopens (CUPTI, from inside startCollector) find the state kStarting and only forward.
void startIfLibtorchMapped() noexcept {
  const std::string libtorch = steplint::preload::mappedLibtorch();
  if (libtorch.empty()) return;
  int expected = kWaiting;
  if (!g_state.compare_exchange_strong(expected, kStarting)) return;
  try {
    startCollector(libtorch);
  } catch (...) {  // never into the trainer's dlopen
  }
  g_state.store(kSettled);
}

/// A child forked before libtorch was loaded is not the process `steplint record` started (a
/// launcher's helper, a fork server): it must not write a second trace to the same file. An
/// exec() runs the constructor again and decides afresh.
void settleInChild() {
  g_state.store(kSettled);
  g_forked.store(true);
}

__attribute__((constructor)) void steplintPreloadInit() {
  if (!envIsOn("STEPLINT_RECORD")) return;
  pthread_atfork(nullptr, nullptr, settleInChild);
  realDlopen();
  g_state.store(kWaiting);
  startIfLibtorchMapped();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* dlopen(const char* file, int mode) {
  const DlopenFn real = realDlopen();
  if (real == nullptr) return nullptr;
  if (g_state.load(std::memory_order_acquire) != kWaiting || file == nullptr ||
      std::strchr(file, '/') == nullptr)
    return real(file, mode);  // tail call: glibc sees our caller as the caller
  void* handle = real(file, mode);
  if (handle != nullptr && (mode & RTLD_NOLOAD) == 0) {
    const int saved_errno = errno;  // the caller sees what its dlopen left
    startIfLibtorchMapped();
    errno = saved_errno;
  }
  return handle;
}

/// Starts recording now, once, in a process where the import hook deferred it: a
/// `torch.multiprocessing.spawn` child, or a child of a fork server (forked before torch was
/// imported), is a DataLoader worker or a rank, and only its call of `init_process_group` tells
/// which (collector/python/sitecustomize.py sets STEPLINT_RECORD=1 and STEPLINT_RANK first). The
/// same torch check as at `import torch`. Returns 0 when the collector records, 1 when it was
/// not started (recording off, forked from a process that had a collector, no libtorch mapped,
/// a torch mismatch, no collector: said on stderr where that is news).
extern "C" __attribute__((visibility("default"))) int steplint_preload_start(void) {
  if ((g_forked.load() && g_collector_loaded.load()) || g_started_late.exchange(true)) return 1;
  try {
    const std::string libtorch = steplint::preload::mappedLibtorch();
    return !libtorch.empty() && startCollector(libtorch) ? 0 : 1;
  } catch (...) {  // never into the trainer
    return 1;
  }
}
