// peekFile (peek.h): the first bytes through the importer's own byte sources (gzip included),
// then the top-level keys scanned up to traceEvents, skipping values without parsing them.
#include "steplint/trace/peek.h"

#include <sys/stat.h>

#include <string_view>

#include "byte_source.h"
#include "steplint/trace/trace_head.h"
#include "top_level.h"

namespace steplint::trace {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t skipSpace(std::string_view text, size_t i) {
  while (i < text.size() && isSpace(text[i])) ++i;
  return i;
}

/// The end of the JSON string starting at text[i] == '"' (one past the closing quote), or npos.
size_t stringEnd(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
  }
  return std::string_view::npos;
}

/// One past the JSON value starting at text[i], or npos when the head ends inside it.
size_t valueEnd(std::string_view text, size_t i) {
  if (i >= text.size()) return std::string_view::npos;
  if (text[i] == '"') return stringEnd(text, i);
  if (text[i] != '{' && text[i] != '[') {  // number or literal: up to a delimiter
    while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' &&
           !isSpace(text[i]))
      ++i;
    return i < text.size() ? i : std::string_view::npos;
  }
  int64_t depth = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      i = stringEnd(text, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (c == '{' || c == '[')
      ++depth;
    else if ((c == '}' || c == ']') && --depth == 0)
      return i + 1;
    ++i;
  }
  return std::string_view::npos;
}

/// The top-level keys of an object in `text` (text[i] == '{'), up to traceEvents or the head's end.
void scanKeys(std::string_view text, size_t i, FilePeek& out) {
  ++i;
  while (true) {
    i = skipSpace(text, i);
    if (i < text.size() && text[i] == ',') i = skipSpace(text, i + 1);
    if (i >= text.size() || text[i] != '"') return;
    const size_t key_end = stringEnd(text, i);
    if (key_end == std::string_view::npos) return;
    const std::string key(text.substr(i + 1, key_end - i - 2));
    i = skipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return;
    i = skipSpace(text, i + 1);
    if (out.first_key.empty()) {
      out.first_key = key.empty() ? std::string(" ") : key;
      out.trace_key_first = isKnownTopLevelKey(key);
    }
    if (key == "traceEvents") return;
    const size_t end = valueEnd(text, i);
    if (end == std::string_view::npos) return;
    if (key == "distributedInfo") {
      TraceModel scratch;  // the importer's own reading of the key
      applyTopLevel(key, std::string(text.substr(i, end - i)), scratch);
      out.distributed = scratch.metadata.distributed;
    }
    i = end;
  }
}

/// The file's (decompressed) text as a byte source; null when it is not a readable regular
/// file. Sets out.size and out.gzip.
std::unique_ptr<ByteSource> openText(const std::string& path, FilePeek& out) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  std::string error;
  InputFile file = InputFile::open(path, error);
  if (!file.isOpen()) return nullptr;
  out.size = static_cast<uint64_t>(st.st_size);
  std::unique_ptr<ByteSource> source = openFileSource(std::move(file));
  std::string magic(2, '\0');
  magic.resize(readFully(*source, magic.data(), magic.size()));
  out.gzip = isGzipHead(magic);
  source = openPrefixedSource(std::move(magic), std::move(source));
  if (out.gzip) source = openGzipSource(std::move(source));
  return source;
}

}  // namespace

bool readTextHead(const std::string& path, size_t max_bytes, std::string& head, bool& whole) {
  FilePeek peek;
  std::unique_ptr<ByteSource> source = openText(path, peek);
  if (!source) return false;
  head.assign(max_bytes, '\0');
  head.resize(readFully(*source, head.data(), head.size()));
  char more = 0;
  whole = head.size() < max_bytes || readFully(*source, &more, 1) == 0;
  return source->error().empty();  // a corrupt gzip: the caller's import says why
}

FilePeek peekFile(const std::string& path, size_t head_bytes) {
  FilePeek out;
  std::unique_ptr<ByteSource> source = openText(path, out);
  if (!source) return out;
  std::string head(head_bytes, '\0');
  head.resize(readFully(*source, head.data(), head.size()));
  out.peeked = true;
  size_t i = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // UTF-8 byte order mark
  i = skipSpace(head, i);
  if (i >= head.size()) return out;
  out.first_char = head[i];
  if (head[i] == '{') scanKeys(head, i, out);
  return out;
}

}  // namespace steplint::trace
