#include "torch_match.h"

#include <link.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>

#ifndef STEPLINT_BUILT_TORCH_LIB
#define STEPLINT_BUILT_TORCH_LIB ""  // a build without torch: nothing matches
#endif
#ifndef STEPLINT_BUILT_TORCH_VERSION
#define STEPLINT_BUILT_TORCH_VERSION "unknown"
#endif

namespace steplint::preload {
namespace {

int findLibtorch(struct dl_phdr_info* info, size_t /*size*/, void* found) {
  const char* path = info->dlpi_name;
  if (path == nullptr) return 0;
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  if (std::strncmp(base, "libtorch_cpu.so", 15) != 0) return 0;
  *static_cast<std::string*>(found) = path;
  return 1;  // stop iterating
}

std::string realPath(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

/// A wheel's layout is torch/lib/libtorch_cpu.so next to torch/version.py, which holds
/// `__version__ = '2.1.0+cu121'`. Distribution packages have no such file: "".
std::string wheelVersion(const std::string& libtorch) {
  const size_t slash = libtorch.rfind('/');
  if (slash == std::string::npos) return {};
  std::ifstream in(libtorch.substr(0, slash) + "/../version.py");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("__version__", 0) != 0) continue;
    const size_t open = line.find_first_of("'\"");
    const size_t close = open == std::string::npos ? open : line.find(line[open], open + 1);
    if (close != std::string::npos) return line.substr(open + 1, close - open - 1);
  }
  return {};
}

}  // namespace

std::string mappedLibtorch() {
  std::string found;
  dl_iterate_phdr(&findLibtorch, &found);
  return found;
}

TorchMatch matchBuiltTorch(const std::string& loaded_path) {
  TorchMatch match;
  match.loaded_path = loaded_path;
  const std::string built = STEPLINT_BUILT_TORCH_LIB;
  match.same = !built.empty() && realPath(loaded_path) == realPath(built);
  if (!match.same) match.loaded_version = wheelVersion(loaded_path);
  return match;
}

std::string mismatchMessage(const TorchMatch& match) {
  const std::string loaded =
      (match.loaded_version.empty() ? std::string("a torch") : "torch " + match.loaded_version) +
      " (" + match.loaded_path + ")";
  return "the program loads " + loaded +
         ", but this collector was built against torch " STEPLINT_BUILT_TORCH_VERSION
         " (" STEPLINT_BUILT_TORCH_LIB
         "), so it records nothing. Build the collector against the program's torch: "
         "cmake -B build-torch -DCMAKE_PREFIX_PATH=\"$(python -c 'import torch; print(torch.utils.cmake_prefix_path)')\" "
         "&& cmake --build build-torch --target steplint steplint_preload, then record with build-torch/cli/steplint "
         "(docs/collector.md, Python trainers)";
}

}  // namespace steplint::preload
