#include "command.h"

#include "check_command.h"
#include "diff_command.h"
#include "explain_command.h"
#include "record_command.h"
#include "rules_command.h"
#include "summary_command.h"

namespace steplint::cli {

Command* CommandRegistry::find(std::string_view name) const {
  for (const auto& command : commands_)
    if (command->name() == name) return command.get();
  return nullptr;
}

// Help order: analyse, compare, gate, then look up rules, then record.
void registerBuiltinCommands(CommandRegistry& registry) {
  registry.add<SummaryCommand>();
  registry.add<DiffCommand>();
  registry.add<CheckCommand>();
  registry.add<ExplainCommand>();
  registry.add<RulesCommand>();
  registry.add<RecordCommand>();
}

}  // namespace steplint::cli
