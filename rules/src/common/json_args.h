// Single items of the raw JSON arrays the importer keeps for op args: "Input type"
// (["TensorList", "Scalar"]) and "Concrete Inputs" (["", "", "0.01"]). Rules read one or two
// items of a few ops (nlohmann_json parses the array; the importer keeps the text unparsed).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace steplint::rules::common {

/// Every item of a JSON array, as jsonArrayItem gives them; nullopt when `array_json` is not one.
std::optional<std::vector<std::string>> jsonArrayItems(std::string_view array_json);

/// Item `index` of a JSON array: a string's value, or another value's JSON text. nullopt when
/// `array_json` is not a valid JSON array or has no such item.
std::optional<std::string> jsonArrayItem(std::string_view array_json, size_t index);

/// `text` as a finite number when all of it is one ("0.01", "1e-08", "0.", "-3"); nullopt for
/// anything else ("", "None", "True", "[1, 2]").
std::optional<double> parseNumber(std::string_view text);

}  // namespace steplint::rules::common
