#include "json_repair.h"

#include <cctype>

namespace steplint::trace {
namespace {

constexpr std::string_view kReplacement = kReplacementChar;

bool isWordChar(unsigned char c) { return std::isalpha(c) || c == '/' || c == '_'; }

bool closesString(std::string_view in, size_t quote) {
  size_t j = quote + 1;
  while (j < in.size() && (in[j] == ' ' || in[j] == '\t' || in[j] == '\n' || in[j] == '\r')) ++j;
  return j == in.size() || in[j] == ',' || in[j] == ':' || in[j] == '}' || in[j] == ']';
}

// Length of the surrogate escape at in[i]: 12 for a pair (high then low: one character, kept),
// 6 for an unpaired one (`paired` false), 0 when in[i] starts no surrogate escape.
size_t surrogateEscape(std::string_view in, size_t i, bool& paired) {
  uint32_t cp, low;
  if (in.substr(i, 2) != "\\u" || !readJsonHex4(in, i + 2, cp) || cp < 0xD800 || cp > 0xDFFF)
    return 0;
  paired = cp <= 0xDBFF && in.substr(i + 6, 2) == "\\u" && readJsonHex4(in, i + 8, low) &&
           low >= 0xDC00 && low <= 0xDFFF;
  return paired ? 12 : 6;
}

// One \u escape at token[i] (after the "\u"), a surrogate pair taken whole; an unpaired
// surrogate becomes U+FFFD. Returns the bytes read, 0 when the escape is malformed.
size_t appendUnicodeEscape(std::string_view token, size_t i, std::string& out, bool& replaced) {
  uint32_t cp;
  if (!readJsonHex4(token, i, cp)) return 0;
  size_t used = 4;
  uint32_t low;
  if (cp >= 0xD800 && cp <= 0xDBFF && token.substr(i + 4, 2) == "\\u" &&
      readJsonHex4(token, i + 6, low) && low >= 0xDC00 && low <= 0xDFFF) {
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    used = 10;
  }
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    out += kReplacementChar;
    replaced = true;
  } else {
    appendUtf8(out, cp);
  }
  return used;
}

}  // namespace

bool readJsonHex4(std::string_view s, size_t i, uint32_t& out) {
  if (i + 4 > s.size()) return false;
  out = 0;
  for (size_t k = i; k < i + 4; ++k) {
    const char c = s[k];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return false;
    out = out * 16 + static_cast<uint32_t>(digit);
  }
  return true;
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
        bool paired = false;
        if (const size_t n = surrogateEscape(in, i, paired); n > 0) {
          out.append(paired ? in.substr(i, n) : "\\ufffd");  // unpaired: U+FFFD
          if (!paired) stats.add(Stat::json_invalid_utf8);
          changed |= !paired;
          i += n - 1;
          continue;
        }
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

bool unescapeJsonString(std::string_view token, std::string& out, bool& replaced) {
  if (token.empty() || token.front() != '"') return false;
  out.clear();
  for (size_t i = 1; i < token.size();) {
    const char c = token[i];
    if (c == '"') return true;
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 >= token.size()) return false;
    const char e = token[i + 1];
    i += 2;
    static constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
    if (const size_t k = kFrom.find(e); k != std::string_view::npos) {
      out += kTo[k];
    } else if (e == 'u') {
      const size_t used = appendUnicodeEscape(token, i, out, replaced);
      if (used == 0) return false;
      i += used;
    } else {
      return false;
    }
  }
  return false;  // no closing quote
}

}  // namespace steplint::trace
