#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "command.h"

namespace steplint::cli {

TEST_CASE("built-in commands: names unique, summary present", "[cli]") {
  CommandRegistry registry;
  registerBuiltinCommands(registry);
  REQUIRE_FALSE(registry.commands().empty());
  std::set<std::string> names;
  for (const auto& command : registry.commands()) {
    CHECK_FALSE(command->name().empty());
    CHECK_FALSE(command->description().empty());
    CHECK(names.insert(std::string(command->name())).second);
  }
  REQUIRE(registry.find("summary") != nullptr);
  CHECK(registry.find("summary")->name() == "summary");
  CHECK(registry.find("no-such-command") == nullptr);
}

}  // namespace steplint::cli
