// Helpers for the collector tests: scratch directories, file reading, importing a trace with
// steplint's own importer, and looking events up by name.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"

namespace steplint::test {

/// A fresh directory under $TMPDIR, removed with its content at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "steplint_collector_XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    path_ = mkdtemp(buf.data()) != nullptr ? std::string(buf.data()) : std::string("/tmp");
  }
  ~ScratchDir() {
    std::error_code ec;
    if (path_ != "/tmp") std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool fileExists(const std::string& path) { return std::filesystem::exists(path); }

inline trace::ImportStatus importFile(const std::string& path, trace::TraceModel& model) {
  trace::ImportOptions options;
  options.threads = 1;
  return trace::importTraceFile(path, model, options);
}

inline std::string eventName(const trace::TraceModel& m, const trace::Event& e) {
  return std::string(m.strings.view(e.name));
}

/// Events named `name`, in model order.
inline std::vector<const trace::Event*> eventsNamed(const trace::TraceModel& m, const std::string& name) {
  std::vector<const trace::Event*> out;
  for (const auto& e : m.events) {
    if (eventName(m, e) == name) out.push_back(&e);
  }
  return out;
}

inline std::string extraValue(const trace::TraceModel& m, const std::string& key) {
  for (const auto& [k, v] : m.metadata.extra) {
    if (k == key) return v;
  }
  return {};
}

}  // namespace steplint::test
