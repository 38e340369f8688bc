// Reading the recorded "Input Dims" of an op (a JSON text kept raw in the model).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace steplint::rules {

/// First dimension of input `input` in a raw "Input Dims" JSON text ("[[32, 3, 224, 224], []]");
/// false when that input has no dimensions or the text is malformed. `rank`, when given, is set
/// to that input's number of dimensions.
bool firstDimOfInput(std::string_view dims_json, size_t input, int64_t& out,
                     size_t* rank = nullptr);

}  // namespace steplint::rules
