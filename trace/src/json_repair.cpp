#include "json_repair.h"

#include <cctype>

namespace steplint::trace {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool isWordChar(unsigned char c) { return std::isalpha(c) || c == '/' || c == '_'; }

bool closesString(std::string_view in, size_t quote) {
  size_t j = quote + 1;
  while (j < in.size() && (in[j] == ' ' || in[j] == '\t' || in[j] == '\n' || in[j] == '\r')) ++j;
  return j == in.size() || in[j] == ',' || in[j] == ':' || in[j] == '}' || in[j] == ']';
}

}  // namespace

size_t validUtf8Length(std::string_view s) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0)
    n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0)
    n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (s.size() < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool repairJson(std::string_view in, std::string& out, ImportStats& stats) {
  out.clear();
  out.reserve(in.size() + 16);
  bool changed = false, in_string = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<unsigned char>(in[i]);
    if (c >= 0x80) {
      const size_t n = validUtf8Length(in.substr(i));
      if (n > 0 && in_string) {
        out.append(in.substr(i, n));
        i += n - 1;
      } else {
        // Outside strings any non-ASCII byte is a syntax error: drop it there.
        if (in_string) out.append(kReplacement);
        stats.add(Stat::json_invalid_utf8);
        changed = true;
      }
    } else if (in_string) {
      if (c == '\\' && i + 1 < in.size()) {
        out.push_back('\\');
        out.push_back(in[++i]);
      } else if (c == '"') {
        if (closesString(in, i)) {
          in_string = false;
          out.push_back('"');
        } else {
          out.append("\\\"");
          stats.add(Stat::json_unescaped_quote);
          changed = true;
        }
      } else if (c < 0x20) {
        static constexpr char kHex[] = "0123456789abcdef";
        out.append("\\u00");
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
        stats.add(Stat::json_control_char_escaped);
        changed = true;
      } else {
        out.push_back(static_cast<char>(c));
      }
    } else if (c == '"') {
      in_string = true;
      out.push_back('"');
    } else if (std::isdigit(c) || c == '-') {
      // A number token, exponent included ("1e5" must not read as the bare word "e5").
      size_t j = i;
      while (j < in.size() && (std::isdigit(static_cast<unsigned char>(in[j])) || in[j] == '.' ||
                               in[j] == 'e' || in[j] == 'E' || in[j] == '+' || in[j] == '-'))
        ++j;
      out.append(in.substr(i, j - i));
      i = j - 1;
    } else if (isWordChar(c)) {
      size_t j = i;
      while (j < in.size() && isWordChar(static_cast<unsigned char>(in[j]))) ++j;
      const std::string_view word = in.substr(i, j - i);
      if (word == "true" || word == "false" || word == "null") {
        out.append(word);
      } else {
        out.push_back('"');
        out.append(word);
        out.push_back('"');
        stats.add(Stat::json_bare_na_quoted);
        changed = true;
      }
      i = j - 1;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return changed;
}

}  // namespace steplint::trace
