// libsteplint_preload.so: starts a steplint recording inside an unmodified LibTorch trainer.
//
// `steplint record` puts this library in LD_PRELOAD with STEPLINT_RECORD=1. Its constructor
// runs in every process the command starts. It acts only where libtorch is already mapped (the
// trainer links it), so shells, launchers and Python before `import torch` are left alone,
// and it has no libtorch dependency of its own. Then it dlopens libsteplint_collector.so
// (STEPLINT_COLLECTOR_LIB, else the file next to this one) and calls steplint_start(NULL);
// the collector reads the rest of STEPLINT_* itself and ends the recording at exit or on
// SIGINT/SIGTERM.
//
// The only environment reads outside collector/src/config.cpp (style.md §2.9): they decide
// whether the collector is loaded at all.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr const char* kCollectorFile = "libsteplint_collector.so";

bool envIsOn(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && (std::strcmp(v, "1") == 0 || std::strcmp(v, "true") == 0 ||
                          std::strcmp(v, "on") == 0 || std::strcmp(v, "yes") == 0);
}

int findLibtorch(struct dl_phdr_info* info, size_t /*size*/, void* found) {
  const char* path = info->dlpi_name;
  if (path == nullptr) return 0;
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  if (std::strncmp(base, "libtorch_cpu.so", 15) == 0) {
    *static_cast<bool*>(found) = true;
    return 1;  // stop iterating
  }
  return 0;
}

bool libtorchIsMapped() {
  bool found = false;
  dl_iterate_phdr(&findLibtorch, &found);
  return found;
}

/// The collector's path: STEPLINT_COLLECTOR_LIB, else the directory this library was loaded from.
std::string collectorPath() {
  if (const char* explicit_path = std::getenv("STEPLINT_COLLECTOR_LIB"); explicit_path && *explicit_path)
    return explicit_path;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&collectorPath), &info) != 0 && info.dli_fname != nullptr) {
    std::string self = info.dli_fname;
    const size_t slash = self.rfind('/');
    if (slash != std::string::npos) return self.substr(0, slash + 1) + kCollectorFile;
  }
  return kCollectorFile;  // the dynamic loader's search path
}

__attribute__((constructor)) void steplintPreloadInit() {
  if (!envIsOn("STEPLINT_RECORD") || !libtorchIsMapped()) return;
  const std::string path = collectorPath();
  // RTLD_NODELETE: the collector's atexit handler must still be mapped when it runs.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  if (handle == nullptr) {
    std::fprintf(stderr, "steplint: cannot load the collector %s: %s\n", path.c_str(), dlerror());
    return;
  }
  using StartFn = int (*)(const char*);
  auto start = reinterpret_cast<StartFn>(dlsym(handle, "steplint_start"));
  if (start == nullptr) {
    std::fprintf(stderr, "steplint: %s has no steplint_start\n", path.c_str());
    return;
  }
  start(nullptr);  // 1 = already recording (a linked Session came first): fine
}

}  // namespace
