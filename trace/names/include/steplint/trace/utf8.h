// UTF-8 checks shared by the trace writer, the importer's repair pass and the report emitters:
// one definition of "valid" (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF), so a name the importer kept is one every output can write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace steplint::trace {

inline constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the valid UTF-8 sequence that starts `s` (1 for ASCII), or 0 when it is invalid
/// (a stray continuation byte, overlong, a surrogate, beyond U+10FFFF, cut short) or `s` is empty.
inline size_t validUtf8Length(std::string_view s) {
  if (s.empty()) return 0;
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

/// The code point of a sequence validUtf8Length() accepted (`n` its length).
inline uint32_t decodeUtf8(std::string_view s, size_t n) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  if (n == 1) return b(0);
  static constexpr unsigned char kLead[] = {0, 0, 0x1F, 0x0F, 0x07};
  uint32_t cp = b(0) & kLead[n];
  for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (b(i) & 0x3F);
  return cp;
}

/// `cp` (at most U+10FFFF, not a surrogate) appended to `out` as UTF-8.
inline void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// `s` appended to `out` with each byte that starts no valid sequence replaced by U+FFFD.
/// Returns how many bytes were replaced.
inline size_t appendValidUtf8(std::string& out, std::string_view s) {
  size_t replaced = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t run = i;  // ASCII and valid sequences are copied in runs
    while (run < s.size()) {
      const size_t n =
          static_cast<unsigned char>(s[run]) < 0x80 ? 1 : validUtf8Length(s.substr(run));
      if (n == 0) break;
      run += n;
    }
    out.append(s.substr(i, run - i));
    if (run == s.size()) break;
    out.append(kReplacementChar);
    ++replaced;
    i = run + 1;
  }
  return replaced;
}

/// `s` with invalid bytes replaced by U+FFFD (a copy of `s` when it is valid).
inline std::string validUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  appendValidUtf8(out, s);
  return out;
}

}  // namespace steplint::trace
