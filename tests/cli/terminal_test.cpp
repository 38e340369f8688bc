#include "terminal.h"

#include <catch2/catch.hpp>

namespace steplint::cli {

TEST_CASE("shouldUseColor", "[cli]") {
  CHECK(shouldUseColor(ColorMode::kAlways, false, "1", "dumb"));
  CHECK_FALSE(shouldUseColor(ColorMode::kNever, true, nullptr, "xterm"));
  CHECK(shouldUseColor(ColorMode::kAuto, true, nullptr, "xterm-256color"));
  CHECK(shouldUseColor(ColorMode::kAuto, true, "", nullptr));  // empty NO_COLOR is "unset"
  CHECK_FALSE(shouldUseColor(ColorMode::kAuto, false, nullptr, "xterm"));  // pipe or file
  CHECK_FALSE(shouldUseColor(ColorMode::kAuto, true, "1", "xterm"));       // NO_COLOR
  CHECK_FALSE(shouldUseColor(ColorMode::kAuto, true, nullptr, "dumb"));
}

}  // namespace steplint::cli
