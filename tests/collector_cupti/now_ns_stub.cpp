// Stand-in for the collector core's trace clock and thread id while steplint_collector_core
// does not exist (tests link the CUPTI sources on their own). Same definitions as recorder.h
// documents.
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

#include "recorder.h"

namespace steplint::collector {

int64_t nowNs() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

int64_t currentThreadId() noexcept { return static_cast<int64_t>(syscall(SYS_gettid)); }

}  // namespace steplint::collector
