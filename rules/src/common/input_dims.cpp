#include "common/input_dims.h"

#include <cctype>
#include <charconv>

namespace steplint::rules {
namespace {

/// How many dimensions a shape has, read from its first one to its closing bracket
/// ("32, 3, 224, 224], [64" -> 4).
size_t dimsFrom(std::string_view s) {
  size_t dims = 1, depth = 0;
  for (const char c : s) {
    if (c == '[') ++depth;
    if (c == ']' && depth-- == 0) break;
    if (c == ',' && depth == 0) ++dims;
  }
  return dims;
}

}  // namespace

bool firstDimOfInput(std::string_view s, size_t input, int64_t& out, size_t* rank) {
  size_t depth = 0, index = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      if (depth == 0) return false;
      --depth;
    } else if (c == ',' && depth == 1) {
      ++index;
    } else if (depth == 2 && index == input &&
               (std::isdigit(static_cast<unsigned char>(c)) || c == '-')) {
      auto [ptr, ec] = std::from_chars(s.data() + i, s.data() + s.size(), out);
      if (ec != std::errc() || out <= 0) return false;
      if (rank != nullptr) *rank = dimsFrom(s.substr(i));
      return true;
    }
    if (depth == 1 && index > input) return false;
  }
  return false;
}

}  // namespace steplint::rules
