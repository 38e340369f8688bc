#include "steplint/analyzer/display_text.h"

#include <cstdint>
#include <cstdio>

#include "steplint/trace/utf8.h"

namespace steplint::analyzer {
namespace {

bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// What a terminal or a log viewer acts on instead of showing: C0 and DEL, C1 (0x9B is CSI on
// terminals that read 8-bit controls), the line and paragraph separators, and the bidi
// embeddings, overrides and isolates that reorder what follows them ("Trojan source").
bool needsEscape(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
         cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

void appendEscape(std::string& out, uint32_t cp) {
  switch (cp) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  char buf[12];
  std::snprintf(buf, sizeof buf, cp < 0x100 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

bool plainAscii(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) return false;
  }
  return true;
}

}  // namespace

std::string displayText(std::string_view text) {
  if (plainAscii(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = trace::validUtf8Length(text.substr(i));
    if (n == 0) {
      out += trace::kReplacementChar;
      ++i;
      continue;
    }
    const uint32_t cp = trace::decodeUtf8(text.substr(i), n);
    if (needsEscape(cp))
      appendEscape(out, cp);
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

size_t displayWidth(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += !isContinuation(c);
  return n;
}

std::string truncateMiddle(std::string_view text, size_t max_chars) {
  const size_t chars = displayWidth(text);
  if (chars <= max_chars || max_chars < 8) return std::string(text);
  const size_t head = (max_chars - 3) * 2 / 3, tail = max_chars - 3 - head;
  // Byte offsets of the head's end and the tail's start, each on a character boundary.
  size_t head_end = 0;
  for (size_t seen = 0; head_end < text.size(); ++head_end) {
    if (!isContinuation(text[head_end]) && seen++ == head) break;
  }
  size_t tail_start = text.size();
  for (size_t seen = 0; tail_start > 0 && seen < tail;) {
    --tail_start;
    if (!isContinuation(text[tail_start])) ++seen;
  }
  return std::string(text.substr(0, head_end)) + "..." + std::string(text.substr(tail_start));
}

}  // namespace steplint::analyzer
