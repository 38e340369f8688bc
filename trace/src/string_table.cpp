#include "steplint/trace/string_table.h"

#include <algorithm>
#include <cstring>

#if __has_include(<xxhash.h>)
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

namespace steplint::trace {
namespace {
constexpr size_t kFirstChunk = size_t{64} << 10;
constexpr size_t kMaxChunk = size_t{4} << 20;
}  // namespace

// xxHash's XXH3 where its header is installed (Debian's libxxhash-dev; scripts/install-deps.sh):
// its independent multiply lanes hash the long names (kernels, shapes) several times faster
// than a chain of one multiply per word. Machines without the header (the GPU machines have no
// package network) keep the chain below; ids do not depend on the hash, so neither do outputs.
#if __has_include(<xxhash.h>)
uint64_t hashBytes(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }
#else
uint64_t hashBytes(std::string_view s) {
  // FNV-1a over 8-byte words, then a final avalanche: fast for the short names that dominate
  // traces (op and kernel names) and good enough for open addressing.
  uint64_t h = 0xcbf29ce484222325ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
  h = (h ^ tail) * 0x100000001b3ull;
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  return h;
}
#endif

StringTable::StringTable() { clear(); }

void StringTable::clear() {
  // The kept chunk is the first, whose size the last chunk's may not be: a batch that interned
  // more than it holds wrote the next batch's strings past its end (a heap overflow).
  if (chunks_.size() > 1) chunks_.resize(1);
  chunk_used_ = 0;
  chunk_size_ = chunks_.empty() ? 0 : first_chunk_size_;
  arena_bytes_ = chunk_size_;
  views_.clear();
  hashes_.clear();
  views_.emplace_back();
  hashes_.push_back(hashBytes({}));
  if (slots_.empty()) slots_.resize(1024);
  std::fill(slots_.begin(), slots_.end(), 0);
  slots_[hashes_[0] & (slots_.size() - 1)] = 1;
}

std::string_view StringTable::store(std::string_view s) {
  if (s.empty()) return {};
  if (chunks_.empty() || chunk_used_ + s.size() > chunk_size_) {
    size_t next = chunks_.empty() ? kFirstChunk : std::min(chunk_size_ * 2, kMaxChunk);
    if (next < s.size()) next = s.size();
    if (chunks_.empty()) first_chunk_size_ = next;
    chunks_.emplace_back(new char[next]);
    chunk_size_ = next;
    chunk_used_ = 0;
    arena_bytes_ += next;
  }
  char* dst = chunks_.back().get() + chunk_used_;
  std::memcpy(dst, s.data(), s.size());
  chunk_used_ += s.size();
  return {dst, s.size()};
}

void StringTable::grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < views_.size(); ++id) {
    size_t pos = hashes_[id] & mask;
    while (slots[pos] != 0) pos = (pos + 1) & mask;
    slots[pos] = id + 1;
  }
  slots_.swap(slots);
}

StringId StringTable::intern(std::string_view s) {
  const uint64_t h = hashBytes(s);
  const size_t mask = slots_.size() - 1;
  size_t pos = h & mask;
  while (uint32_t slot = slots_[pos]) {
    const uint32_t id = slot - 1;
    if (hashes_[id] == h && views_[id] == s) return id;
    pos = (pos + 1) & mask;
  }
  const auto id = static_cast<StringId>(views_.size());
  views_.push_back(store(s));
  hashes_.push_back(h);
  slots_[pos] = id + 1;
  if (views_.size() * 2 > slots_.size()) grow();
  return id;
}

int64_t StringTable::find(std::string_view s) const {
  const uint64_t h = hashBytes(s);
  const size_t mask = slots_.size() - 1;
  for (size_t pos = h & mask; uint32_t slot = slots_[pos]; pos = (pos + 1) & mask) {
    const uint32_t id = slot - 1;
    if (hashes_[id] == h && views_[id] == s) return id;
  }
  return -1;
}

size_t StringTable::memoryBytes() const {
  return arena_bytes_ + views_.capacity() * sizeof(std::string_view) + hashes_.capacity() * 8 +
         slots_.capacity() * 4;
}

}  // namespace steplint::trace
