// The medians the analyses take, in one place. Two on purpose: thresholds in detection use the
// upper median (one of the values, found by nth_element in linear time), figures a report prints
// use the middle of the two central values for an even count, as pandas (HTA) and NumPy do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace steplint::analyzer {

/// The element at index size/2 in sorted order (the upper median); T{} for no values.
template <class T>
T upperMedian(std::vector<T> v) {
  if (v.empty()) return T{};
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

/// The median as statistics define it: for an even count, halfway between the two central
/// values (for integers rounded toward the lower one, without overflow); T{} for no values.
template <class T>
T middleMedian(std::vector<T> v) {
  if (v.empty()) return T{};
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  const T upper = *mid;
  const T lower = *std::max_element(v.begin(), mid);
  if constexpr (std::is_floating_point_v<T>)
    return (lower + upper) / 2;
  else
    return lower + (upper - lower) / 2;
}

}  // namespace steplint::analyzer
