#include "thread_ids.h"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "recorder.h"

namespace steplint::collector {
namespace {

constexpr size_t kMaxThreads = size_t{1} << 16;

struct ThreadIdMap {
  std::mutex mutex;
  std::unordered_map<uint32_t, int64_t> os_tid;  // CUPTI's thread id -> OS tid
  ThreadIdMap* parent_copy = nullptr;            // in a forked child: leaked, kept reachable
};

std::atomic<ThreadIdMap*>& threadIdMapSlot() {
  static std::atomic<ThreadIdMap*> slot{new ThreadIdMap()};  // leaked: read up to exit
  return slot;
}

ThreadIdMap& threadIdMap() { return *threadIdMapSlot().load(std::memory_order_acquire); }

}  // namespace

void resetThreadIdsInForkedChild() {
  auto* fresh = new ThreadIdMap();
  fresh->parent_copy = threadIdMapSlot().load(std::memory_order_acquire);
  threadIdMapSlot().store(fresh, std::memory_order_release);
}

uint32_t cuptiThreadIdOfCurrentThread() noexcept {
  return static_cast<uint32_t>(
      reinterpret_cast<uintptr_t>(reinterpret_cast<void*>(pthread_self())));
}

void rememberCurrentThreadIds() noexcept {
  try {
    ThreadIdMap& map = threadIdMap();
    std::lock_guard<std::mutex> lock(map.mutex);
    if (map.os_tid.size() < kMaxThreads)
      map.os_tid[cuptiThreadIdOfCurrentThread()] = currentThreadId();
  } catch (...) {
    // Out of memory: this thread's launches keep CUPTI's id.
  }
}

int64_t osThreadIdOf(uint32_t cupti_thread_id) noexcept {
  ThreadIdMap& map = threadIdMap();
  std::lock_guard<std::mutex> lock(map.mutex);
  const auto it = map.os_tid.find(cupti_thread_id);
  return it == map.os_tid.end() ? static_cast<int64_t>(cupti_thread_id) : it->second;
}

}  // namespace steplint::collector
