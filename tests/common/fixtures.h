// Access to the shared real-world traces (../shared/fixtures by default, CMake cache
// variable STEPLINT_FIXTURES). They are never copied into this repository.
#pragma once

#include <sys/stat.h>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace steplint::test {

inline std::string fixturePath(const std::string& relative) {
  return std::string(STEPLINT_FIXTURES) + "/" + relative;
}

/// Returns the fixture's path, or ends this test case with exit code 77, which CTest reports
/// as "Skipped" (each test case runs in its own process under ctest).
inline std::string requireFixture(const std::string& relative) {
  std::string path = fixturePath(relative);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "SKIPPED: fixture %s is absent (set STEPLINT_FIXTURES)\n", path.c_str());
    std::fflush(stderr);
    std::_Exit(77);
  }
  return path;
}

/// Small traces kept in this repository (tests/data).
inline std::string testDataPath(const std::string& relative) {
  return std::string(STEPLINT_TEST_DATA) + "/" + relative;
}

}  // namespace steplint::test
