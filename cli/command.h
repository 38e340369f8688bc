// Subcommands of the `steplint` executable and their registry.
//
// Each subcommand is one class in its own file (summary_command.cpp, later check, explain,
// rules, record). They are listed in one function, registerBuiltinCommands(), in the order
// `steplint --help` shows them; there is no static-initialiser self-registration
// (docs/reference/style.md §2.2).
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace steplint::cli {

class Command {
 public:
  virtual ~Command() = default;
  /// The word after `steplint` ("summary").
  virtual std::string_view name() const = 0;
  /// One line for `steplint --help`.
  virtual std::string_view description() const = 0;
  /// Declares the subcommand's options on `app`, binding them to members of this object.
  virtual void addOptions(CLI::App& app) = 0;
  /// Runs after a successful parse; returns an ExitCode.
  virtual int run() = 0;
};

class CommandRegistry {
 public:
  template <typename T, typename... Args>
  void add(Args&&... args) {
    commands_.push_back(std::make_unique<T>(std::forward<Args>(args)...));
  }
  const std::vector<std::unique_ptr<Command>>& commands() const { return commands_; }
  /// nullptr when no command has that name.
  Command* find(std::string_view name) const;

 private:
  std::vector<std::unique_ptr<Command>> commands_;
};

/// Adds every built-in subcommand, in help order.
void registerBuiltinCommands(CommandRegistry& registry);

}  // namespace steplint::cli
