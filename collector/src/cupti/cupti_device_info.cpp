#include "cupti/cupti_device_info.h"

#include <cuda.h>  // types and attribute numbers only; the functions come from dlsym
#include <dlfcn.h>

namespace steplint::collector {

namespace {

// Plain signatures: cuda.h maps some names to versioned symbols by macro, dlsym needs the real
// ones ("cuDeviceTotalMem_v2").
using InitFn = CUresult (*)(unsigned int);
using CountFn = CUresult (*)(int*);
using GetFn = CUresult (*)(CUdevice*, int);
using NameFn = CUresult (*)(char*, int, CUdevice);
using MemFn = CUresult (*)(size_t*, CUdevice);
using AttrFn = CUresult (*)(int*, CUdevice_attribute, CUdevice);
using VersionFn = CUresult (*)(int*);
using RuntimeVersionFn = int (*)(int*);

struct DriverApi {
  InitFn init = nullptr;
  CountFn count = nullptr;
  GetFn get = nullptr;
  NameFn name = nullptr;
  MemFn total_mem = nullptr;
  AttrFn attr = nullptr;
  VersionFn version = nullptr;
  bool complete() const { return init && count && get && name && total_mem && attr && version; }
};

void* openDriver() {
  // The trainer (torch) normally has the driver loaded already; RTLD_NOLOAD finds it without
  // a second load. The handle is never closed: the driver stays for the process lifetime.
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  return h != nullptr ? h : dlopen("libcuda.so.1", RTLD_NOW);
}

DriverApi resolve(void* h) {
  DriverApi api;
  api.init = reinterpret_cast<InitFn>(dlsym(h, "cuInit"));
  api.count = reinterpret_cast<CountFn>(dlsym(h, "cuDeviceGetCount"));
  api.get = reinterpret_cast<GetFn>(dlsym(h, "cuDeviceGet"));
  api.name = reinterpret_cast<NameFn>(dlsym(h, "cuDeviceGetName"));
  api.total_mem = reinterpret_cast<MemFn>(dlsym(h, "cuDeviceTotalMem_v2"));
  api.attr = reinterpret_cast<AttrFn>(dlsym(h, "cuDeviceGetAttribute"));
  api.version = reinterpret_cast<VersionFn>(dlsym(h, "cuDriverGetVersion"));
  return api;
}

int attribute(const DriverApi& api, CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  return api.attr(&v, a, dev) == CUDA_SUCCESS ? v : 0;
}

trace::WriterDeviceProperties describeDevice(const DriverApi& api, int index, CUdevice dev) {
  trace::WriterDeviceProperties p;
  p.id = index;
  char name[256] = {};
  if (api.name(name, sizeof(name) - 1, dev) == CUDA_SUCCESS) p.name = name;
  size_t mem = 0;
  if (api.total_mem(&mem, dev) == CUDA_SUCCESS) p.total_global_mem = static_cast<int64_t>(mem);
  p.compute_major = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  p.compute_minor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.max_threads_per_block = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  p.max_threads_per_multiprocessor =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  p.regs_per_block = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p.warp_size = attribute(api, dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p.shared_mem_per_block = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  p.num_sms = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  p.regs_per_multiprocessor =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  p.shared_mem_per_block_optin =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  p.shared_mem_per_multiprocessor =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  return p;
}

int runtimeVersionIfLoaded() {
  // Only a libcudart the trainer already loaded (torch's); loading one ourselves could pick a
  // different version than the trainer's.
  for (const char* soname : {"libcudart.so.13", "libcudart.so.12", "libcudart.so"}) {
    void* h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (h == nullptr) continue;
    auto fn = reinterpret_cast<RuntimeVersionFn>(dlsym(h, "cudaRuntimeGetVersion"));
    int v = 0;
    if (fn == nullptr || fn(&v) != 0) v = 0;
    dlclose(h);  // drops only the reference NOLOAD added
    if (v != 0) return v;
  }
  return 0;
}

}  // namespace

GpuDriverInfo queryGpuDriver() {
  GpuDriverInfo info;
  info.runtime_version = runtimeVersionIfLoaded();
  void* h = openDriver();
  if (h == nullptr) {
    info.why = "libcuda.so.1 not found (no NVIDIA driver)";
    return info;
  }
  DriverApi api = resolve(h);
  if (!api.complete()) {
    info.why = "libcuda.so.1 lacks a required symbol";
    return info;
  }
  if (api.version(&info.driver_version) != CUDA_SUCCESS) info.driver_version = 0;
  int count = 0;
  if (api.init(0) != CUDA_SUCCESS || api.count(&count) != CUDA_SUCCESS) {
    info.why = "cuInit failed (driver present but no usable GPU)";
    return info;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (api.get(&dev, i) == CUDA_SUCCESS) info.devices.push_back(describeDevice(api, i, dev));
  }
  return info;
}

}  // namespace steplint::collector
