// Interned strings: each distinct string is stored once in a chunked arena and named by a
// 32-bit id. Id 0 is the empty string. Views stay valid for the table's lifetime because
// chunks never move.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace steplint::trace {

using StringId = uint32_t;

class StringTable {
 public:
  StringTable();
  StringTable(StringTable&&) noexcept = default;
  StringTable& operator=(StringTable&&) noexcept = default;
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;

  /// Returns the id of `s`, adding it if new.
  StringId intern(std::string_view s);
  /// Returns the id of `s` or -1 (as int64) if absent; never adds.
  int64_t find(std::string_view s) const;
  std::string_view view(StringId id) const {
    return id < views_.size() ? views_[id] : std::string_view();
  }
  size_t size() const { return views_.size(); }
  /// Empties the table (keeping its first arena chunk and index capacity for reuse).
  void clear();
  /// Bytes held by the arena and the index (for memory accounting).
  size_t memoryBytes() const;

 private:
  std::string_view store(std::string_view s);
  void grow();

  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunk_used_ = 0;
  size_t chunk_size_ = 0;        // of chunks_.back()
  size_t first_chunk_size_ = 0;  // of chunks_.front(), the one clear() keeps
  std::vector<std::string_view> views_;
  std::vector<uint64_t> hashes_;  // per id
  std::vector<uint32_t> slots_;   // open addressing: id + 1, 0 = empty
  size_t arena_bytes_ = 0;
};

/// 64-bit hash used by the table (exposed for tests).
uint64_t hashBytes(std::string_view s);

}  // namespace steplint::trace
