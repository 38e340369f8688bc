// Stand-in for the collector core's trace clock while steplint_collector_core does not exist
// (tests link the CUPTI sources on their own). Same definition as recorder.h documents.
#include <ctime>

#include "recorder.h"

namespace steplint::collector {

int64_t nowNs() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

}  // namespace steplint::collector
