// The replacement operator new and delete behind heap_meter.h. Sizes come from
// malloc_usable_size, so the sized and unsized deletes agree with what new counted.
#include "heap_meter.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace steplint::bench {
namespace {

std::atomic<size_t> g_held{0};
std::atomic<size_t> g_peak{0};

void* allocate(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  const size_t size = malloc_usable_size(p);
  const size_t now = g_held.fetch_add(size, std::memory_order_relaxed) + size;
  size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return p;
}

void release(void* p) {
  if (p == nullptr) return;
  g_held.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

size_t heapBytes() { return g_held.load(std::memory_order_relaxed); }
size_t heapPeakBytes() { return g_peak.load(std::memory_order_relaxed); }
void resetHeapPeak() { g_peak.store(heapBytes(), std::memory_order_relaxed); }

}  // namespace steplint::bench

// Over-aligned types (alignas > 16) take the aligned forms, which stay the library's: none of
// the analyses allocate them, and malloc_usable_size cannot size an aligned_alloc'd block portably.
void* operator new(size_t n) { return steplint::bench::allocate(n); }
void* operator new[](size_t n) { return steplint::bench::allocate(n); }
void operator delete(void* p) noexcept { steplint::bench::release(p); }
void operator delete[](void* p) noexcept { steplint::bench::release(p); }
void operator delete(void* p, size_t) noexcept { steplint::bench::release(p); }
void operator delete[](void* p, size_t) noexcept { steplint::bench::release(p); }
