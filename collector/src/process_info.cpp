#include "process_info.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

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

int64_t residentBytes() noexcept {
  // "size resident shared text lib data dt", in pages. One pread on a descriptor opened once:
  // open + read + close cost three times as much, and this runs at every step. A forked child
  // never samples (its session does not exist), so the parent's /proc path is never misread.
  static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* end = nullptr;
  std::strtoll(buf, &end, 10);  // size
  if (end == buf) return -1;
  char* resident_end = nullptr;
  const long long pages = std::strtoll(end, &resident_end, 10);
  if (resident_end == end || pages < 0) return -1;
  static const long page = ::sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<int64_t>(pages) * page : -1;
}

}  // namespace steplint::collector
