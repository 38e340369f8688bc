// Asks the kernel to back a large buffer with transparent huge pages. The importer fills
// hundreds of MB of fresh vectors; with 4 KiB pages each one costs a fault (and on VMs a
// costly exit), with 2 MiB pages 512 times fewer. A hint only: harmless where THP is off.
#pragma once

#include <cstddef>
#include <cstdint>

#include <sys/mman.h>

namespace steplint::trace {

inline void adviseHugePages(const void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

template <typename Vector>
void reserveHuge(Vector& v, size_t count) {
  v.reserve(count);
  adviseHugePages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

}  // namespace steplint::trace
