#include "process_info.h"

#include <unistd.h>

#include <fstream>
#include <iterator>

namespace steplint::collector {
namespace {

std::string readFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return {};
  return buf;
}

std::string executableName() {
  std::string name = readFile("/proc/self/comm");
  while (!name.empty() && (name.back() == '\n' || name.back() == '\0')) name.pop_back();
  return name.empty() ? "unknown" : name;
}

std::string commandLine() {
  std::string raw = readFile("/proc/self/cmdline");  // NUL-separated arguments
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  return raw;
}

}  // namespace steplint::collector
