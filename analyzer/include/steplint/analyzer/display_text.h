// Text from a trace (names, paths, metadata) made safe to print where a person or a log reader
// sees it: terminals, CI logs, Markdown and XML. A trace is input we do not control; a name
// with a newline would forge a line (a GitHub `::error` workflow command, a fake finding), an
// escape sequence would clear the screen or set the window title, and a cut through a
// multi-byte character would leave output that is not UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace steplint::analyzer {

/// One line of `text` for a terminal or a log: valid UTF-8 (U+FFFD for invalid bytes), and
/// each control character (C0 with newline and tab, DEL, C1), line or paragraph separator and
/// bidirectional override written as a visible escape (`\n`, `\t`, `\x1b`, `\u202e`).
/// Printable text, non-ASCII included, is returned unchanged.
std::string displayText(std::string_view text);

/// Code points in `text`: the column count of an aligned table (each character counts one).
size_t displayWidth(std::string_view text);

/// At most `max_chars` code points: the head, "...", the tail, cut between characters.
/// Text of up to `max_chars` characters, or a limit below 8, is returned whole.
std::string truncateMiddle(std::string_view text, size_t max_chars);

}  // namespace steplint::analyzer
