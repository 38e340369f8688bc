// appendTraceMetadata (kineto_writer.h): one more top-level key in a finished trace. A gzip
// stream cannot be edited in place, so the trace is copied (decompressed and compressed again
// when it is .gz) with the key inserted before the closing brace. Rare: the collector uses it
// only when a recording stopped while the program went on.
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "partial_file.h"
#include "steplint/trace/kineto_writer.h"

namespace steplint::trace {
namespace {

constexpr std::string_view kEnd = "\n}\n";  // how KinetoJsonWriter::endTrace ends every trace

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Closes `in` on every path; gzread reads a plain file as it is.
class GzReader {
 public:
  explicit GzReader(const std::string& path) : gz_(gzopen(path.c_str(), "rb")) {}
  ~GzReader() {
    if (gz_ != nullptr) gzclose(gz_);
  }
  GzReader(const GzReader&) = delete;
  GzReader& operator=(const GzReader&) = delete;
  gzFile get() const { return gz_; }

 private:
  gzFile gz_;
};

}  // namespace

bool appendTraceMetadata(const std::string& path, std::string_view key, std::string_view raw_json,
                         std::string* error) {
  auto failWith = [error](std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
  };
  GzReader in(path);
  if (in.get() == nullptr) return failWith("cannot open " + path + ": " + std::strerror(errno));
  PartialFile out;
  if (!out.open(path, endsWith(path, ".gz"), error)) return false;
  // Copy all but the last kEnd.size() bytes seen so far; they must be kEnd at the end.
  std::string held;
  char chunk[1 << 16];
  int n = 0;
  while ((n = gzread(in.get(), chunk, sizeof(chunk))) > 0) {
    held.append(chunk, static_cast<size_t>(n));
    if (held.size() > kEnd.size()) {
      out.write(std::string_view(held).substr(0, held.size() - kEnd.size()));
      held.erase(0, held.size() - kEnd.size());
    }
  }
  if (n < 0 || held != kEnd) {
    out.abandon();
    std::remove((path + ".partial").c_str());
    return failWith(path + " is not a finished steplint trace; cannot add " + std::string(key));
  }
  std::string tail = ",\n  ";
  appendJsonString(tail, key);
  tail += ": ";
  tail += raw_json.empty() ? std::string_view("null") : raw_json;
  tail += kEnd;
  out.write(tail);
  return out.finish(error);
}

}  // namespace steplint::trace
