// The recorder in a forked child (session.h): the state a child of a recording process starts
// with, and the session a rank started with fork records on its own. The atfork handler that
// calls resetStateInForkedChild() is in process_hooks.cpp.
#include <cstdio>
#include <string>
#include <vector>

#include "config.h"
#include "recorder.h"
#include "recorder_state.h"
#include "session.h"
#include "thread_buffers.h"
#include "thread_ids.h"

namespace steplint::collector {

void resetStateInForkedChild() noexcept {
  try {
    installFreshGlobals();
    ThreadBuffers::resetInForkedChild();
    resetThreadIdsInForkedChild();
    forgetCurrentThreadId();
  } catch (...) {
    markSessionDeadInChild();  // out of memory: the parent's state, every call a no-op
  }
}

StartResult startSessionInForkedChild() noexcept {
  if (!inForkedChild()) return StartResult::kFailed;
  try {
    CollectorConfig config;
    std::vector<std::string> warnings;
    parseConfig(processEnv(), &config, &warnings);
    for (const auto& w : warnings) std::fprintf(stderr, "%s\n", w.c_str());
    // CUPTI's state (its subscriber, enabled kinds, buffer callbacks) is the parent's copy, and
    // NVIDIA does not support using it after fork: GPU activity is not recorded here.
    config.enable_cupti = false;
    config.cupti_off_why =
        "unavailable: not restarted in a rank forked from the recording process; ranks that "
        "torchrun or torch.multiprocessing.spawn starts record their GPU activity";
    clearForkedChild();
    return startSession(config);
  } catch (...) {
    return StartResult::kFailed;
  }
}

void markSessionDeadInChild() noexcept {
  recorderGlobals().capturing.store(false, std::memory_order_relaxed);
  recorderGlobals().live.store(false, std::memory_order_relaxed);
  recorderGlobals().activity.store(nullptr, std::memory_order_relaxed);
}

}  // namespace steplint::collector
