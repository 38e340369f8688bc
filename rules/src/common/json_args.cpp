#include "common/json_args.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace steplint::rules::common {

namespace {

std::string itemText(const nlohmann::json& item) {
  return item.is_string() ? item.get<std::string>() : item.dump();
}

}  // namespace

std::optional<std::vector<std::string>> jsonArrayItems(std::string_view array_json) {
  const nlohmann::json array =
      nlohmann::json::parse(array_json, nullptr, /*allow_exceptions=*/false);
  if (!array.is_array()) return std::nullopt;
  std::vector<std::string> items;
  items.reserve(array.size());
  for (const nlohmann::json& item : array) items.push_back(itemText(item));
  return items;
}

std::optional<std::string> jsonArrayItem(std::string_view array_json, size_t index) {
  const nlohmann::json array =
      nlohmann::json::parse(array_json, nullptr, /*allow_exceptions=*/false);
  if (!array.is_array() || index >= array.size()) return std::nullopt;
  return itemText(array[index]);
}

std::optional<double> parseNumber(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace steplint::rules::common
