// The one way steplint writes a JSON document: strings that are not valid UTF-8 (a file name
// in Latin-1, a byte a trace carried through) are written with U+FFFD where nlohmann::json's
// default would throw halfway through the output.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace steplint::analyzer {

/// `doc` as JSON text, indented by `indent` spaces (-1: one line), invalid UTF-8 replaced.
inline std::string jsonText(const nlohmann::json& doc, int indent = 2) {
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace steplint::analyzer
