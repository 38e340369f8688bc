// steplint: measure, explain and gate training-step bottlenecks in PyTorch/LibTorch traces.
//
// main() only builds the command line from the registry (command_registry.cpp), parses it and
// runs the chosen subcommand. Usage errors are one line on stderr and exit code 2.
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "command.h"
#include "exit_codes.h"
#include "messages.h"

namespace {

/// "steplint summary" for the subcommand the user was typing, so the hint points at its help.
std::string commandPath(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    path += " " + sub->get_name();
  }
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  using steplint::cli::kExitUsageError;

  CLI::App app{"steplint: find training-step bottlenecks in PyTorch/LibTorch profiler traces",
               "steplint"};
  app.set_version_flag("--version", std::string("steplint ") + STEPLINT_VERSION);
  app.require_subcommand(1);

  steplint::cli::CommandRegistry registry;
  steplint::cli::registerBuiltinCommands(registry);
  for (const auto& command : registry.commands()) {
    CLI::App* sub =
        app.add_subcommand(std::string(command->name()), std::string(command->description()));
    command->addOptions(*sub);
  }

  if (argc <= 1) {
    std::cerr << app.help();
    return kExitUsageError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    std::string message = error.what();
    // CLI11 words a mistyped subcommand as "A subcommand is required"; name the word instead.
    if (app.get_subcommands().empty()) {
      for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') continue;
        if (registry.find(argv[i]) == nullptr)
          message = std::string("unknown command '") + argv[i] + "'";
        break;
      }
    }
    steplint::cli::printError(message + " (see '" + commandPath(app) + " --help')");
    return kExitUsageError;
  }

  try {
    for (const auto& command : registry.commands()) {
      if (app.got_subcommand(std::string(command->name()))) return command->run();
    }
  } catch (const std::exception& error) {
    steplint::cli::printError(std::string("internal error: ") + error.what());
    return kExitUsageError;
  }
  return kExitUsageError;
}
