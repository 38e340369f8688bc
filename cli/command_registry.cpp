#include "command.h"

#include "summary_command.h"

namespace steplint::cli {

Command* CommandRegistry::find(std::string_view name) const {
  for (const auto& command : commands_)
    if (command->name() == name) return command.get();
  return nullptr;
}

// Planned, in this order: check (rules + exit code 1), explain SLNNN, rules, record.
void registerBuiltinCommands(CommandRegistry& registry) { registry.add<SummaryCommand>(); }

}  // namespace steplint::cli
