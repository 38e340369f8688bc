// `steplint rules`: the rule catalog — code, name, category, default on/off, severity and a
// one-line summary — as a text table, JSON, or the Markdown index of docs/rules/README.md.
#pragma once

#include <string>

#include "command.h"

namespace steplint::cli {

class RulesCommand final : public Command {
 public:
  std::string_view name() const override { return "rules"; }
  std::string_view description() const override {
    return "List the rules with code, name, category and defaults";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

 private:
  std::string format_ = "text";
};

}  // namespace steplint::cli
