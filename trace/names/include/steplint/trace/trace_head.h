// Whether a file's first bytes are a trace's: asked before anything is written over a file
// (a report must not replace a trace, a recording must not replace the user's own file), by
// the collector, `steplint record` and every -o. Read from the raw bytes, without a JSON parse.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

namespace steplint::trace {

/// Whether `text` has `key` (quotes included) as an object key: the name followed by a colon;
/// inside a JSON string its quotes would be escaped.
inline bool hasJsonKey(std::string_view text, std::string_view key) {
  for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    size_t i = at + key.size();
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
      ++i;
    if (i < text.size() && text[i] == ':') return true;
  }
  return false;
}

/// A gzip stream's magic bytes.
inline bool isGzipHead(std::string_view head) {
  return head.size() >= 2 && head[0] == '\x1f' && head[1] == '\x8b';
}

/// The first bytes of a trace: gzip (steplint writes no report compressed), an object with a
/// trace's keys (`schemaVersion` first in Kineto's, `traceEvents`), or a JSON array of events
/// (the legacy profiler's form: a `"ph"` key). A report (`summary --format json`, SARIF, text)
/// is none of them.
inline bool looksLikeTraceHead(std::string_view head) {
  if (isGzipHead(head)) return true;
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  if (head[first] == '{')
    return hasJsonKey(head, "\"schemaVersion\"") || hasJsonKey(head, "\"traceEvents\"");
  return head[first] == '[' && hasJsonKey(head, "\"ph\"");
}

/// The first bytes of the regular file at `path` ("" for an empty file, one that cannot be read,
/// and anything but a regular file: a FIFO is not read, that would take a writer's bytes).
inline std::string fileHead(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  char head[4096];
  ssize_t n;
  do {
    n = ::read(fd, head, sizeof head);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  return n > 0 ? std::string(head, static_cast<size_t>(n)) : std::string();
}

/// Whether the regular file at `path` starts as a trace (looksLikeTraceHead).
inline bool fileLooksLikeTrace(const std::string& path) {
  return looksLikeTraceHead(fileHead(path));
}

/// Whether a finished trace may take the place of what is at `path`: nothing, an empty file, an
/// earlier trace, or what is no regular file (writing refuses a device or a FIFO with its own
/// reason). Anything else (the trainer's script or config named by mistake) is the user's.
/// A gzip file is taken for a trace only by its name (`*.json.gz`): its text is not read here,
/// and a `backup.tar.gz` is the user's.
inline bool mayReplaceWithTrace(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return true;
  const std::string head = fileHead(path);  // "" when unreadable: then not a trace
  constexpr std::string_view kGzipTrace = ".json.gz";
  if (isGzipHead(head))
    return path.size() > kGzipTrace.size() &&
           path.compare(path.size() - kGzipTrace.size(), kGzipTrace.size(), kGzipTrace) == 0;
  return looksLikeTraceHead(head);
}

}  // namespace steplint::trace
