#include "memory_probe.h"

#include <algorithm>

namespace steplint::collector {
namespace {

void raiseTo(std::atomic<int64_t>& peak, int64_t value) noexcept {
  int64_t seen = peak.load(std::memory_order_relaxed);
  while (value > seen && !peak.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

}  // namespace

PeakTracker::Device* PeakTracker::at(int device) noexcept {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  Device* d = &devices_[static_cast<size_t>(device)];
  d->seen.store(true, std::memory_order_relaxed);
  return d;
}

void PeakTracker::seed(int device, int64_t allocated, int64_t reserved) noexcept {
  Device* d = at(device);
  if (d == nullptr) return;
  d->allocated.store(allocated, std::memory_order_relaxed);
  d->reserved.store(reserved, std::memory_order_relaxed);
  raiseTo(d->peak_allocated, allocated);
  raiseTo(d->peak_reserved, reserved);
}

void PeakTracker::onAllocated(int device, int64_t bytes, int64_t now_ns) noexcept {
  Device* d = at(device);
  if (d == nullptr) return;
  const int64_t total = d->allocated.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  // The timestamp may pair with a slightly different peak under a race between two threads
  // allocating at once; the byte figure itself is exact.
  if (total > d->peak_allocated.load(std::memory_order_relaxed)) {
    raiseTo(d->peak_allocated, total);
    d->peak_ts_ns.store(now_ns, std::memory_order_relaxed);
  }
}

void PeakTracker::onFreed(int device, int64_t bytes) noexcept {
  if (Device* d = at(device)) d->allocated.fetch_sub(bytes, std::memory_order_relaxed);
}

void PeakTracker::onReserved(int device, int64_t bytes) noexcept {
  Device* d = at(device);
  if (d == nullptr) return;
  const int64_t total = d->reserved.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  raiseTo(d->peak_reserved, total);
}

void PeakTracker::take(std::vector<MemorySample>& out, int64_t now_ns) noexcept {
  for (int i = 0; i < kMaxDevices; ++i) {
    Device& d = devices_[static_cast<size_t>(i)];
    if (!d.seen.load(std::memory_order_relaxed)) continue;
    MemorySample s;
    s.device = i;
    // Restart each peak from the current total: the next window's peak is at least that.
    s.peak_allocated = d.peak_allocated.exchange(d.allocated.load(std::memory_order_relaxed));
    s.peak_reserved = d.peak_reserved.exchange(d.reserved.load(std::memory_order_relaxed));
    s.ts_ns = d.peak_ts_ns.exchange(now_ns);
    if (s.ts_ns == 0) s.ts_ns = now_ns;
    s.peak_allocated = std::max<int64_t>(s.peak_allocated, 0);
    try {
      out.push_back(s);
    } catch (...) {
      return;  // out of memory: skip the sample, never throw into the trainer
    }
  }
}

}  // namespace steplint::collector
