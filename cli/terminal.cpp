#include "terminal.h"

#include <unistd.h>

namespace steplint::cli {

bool shouldUseColor(ColorMode mode, bool output_is_terminal, const char* no_color_env,
                    const char* term_env) {
  switch (mode) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      break;
  }
  if (!output_is_terminal) return false;
  if (no_color_env != nullptr && no_color_env[0] != '\0') return false;
  if (term_env != nullptr && std::string_view(term_env) == "dumb") return false;
  return true;
}

bool stdoutIsTerminal() { return ::isatty(STDOUT_FILENO) == 1; }

}  // namespace steplint::cli
