// Shared tail of the per-name statistics (kernel_stats.cpp, op_stats.cpp): the groups keyed by
// interned name, largest total first (ties by name, so output is stable), cut to `limit`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "steplint/trace/string_table.h"

namespace steplint::analyzer {

template <typename Stat>
std::vector<Stat> rankByTotal(std::unordered_map<trace::StringId, Stat>& by_name, size_t limit) {
  std::vector<Stat> out;
  out.reserve(by_name.size());
  for (auto& [id, stat] : by_name) out.push_back(std::move(stat));
  std::sort(out.begin(), out.end(), [](const Stat& a, const Stat& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  if (limit > 0 && out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace steplint::analyzer
