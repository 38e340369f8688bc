// Colour decisions for text output (--color auto|always|never).
#pragma once

#include <string_view>

namespace steplint::cli {

enum class ColorMode { kAuto, kAlways, kNever };

/// `auto` colours only a terminal, and honours NO_COLOR (https://no-color.org) and TERM=dumb.
/// Pure so it can be tested; the caller passes what it read from the environment.
bool shouldUseColor(ColorMode mode, bool output_is_terminal, const char* no_color_env,
                    const char* term_env);

/// True when standard output is a terminal.
bool stdoutIsTerminal();

}  // namespace steplint::cli
