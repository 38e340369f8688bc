// NVTX ranges and marks as host events, through NVTX's injection hook.
//
// Every binary that calls nvtxRangePushA & co. carries NVTX's header-only loader. At its first
// NVTX call the loader dlopens the library named by NVTX_INJECTION64_PATH and calls its exported
// InitializeInjectionNvtx2, which fills the core callback table. `steplint record` sets that
// variable to this library; a trainer that links steplint_collector must have it set before its
// first NVTX call (NvtxSource::start sets it when unset, which is early enough for trainers
// that call steplint_start() first). Callbacks record only while isCapturing() (a range: when it
// both opens and ends then, so none starts before the trace) and never throw.
#include <nvtx3/nvToolsExt.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <dlfcn.h>

#include "config.h"
#include "recorder.h"
#include "sources.h"

namespace steplint::collector {
namespace {

struct OpenRange {
  std::string name;
  int64_t start_ns = 0;
  bool capturing = false;  // opened while capturing: only those are recorded when they end
};

// Push/pop nest per thread; start/end ranges may end on another thread, hence the map.
thread_local std::vector<OpenRange> t_stack;
std::mutex g_ranges_mutex;
std::unordered_map<nvtxRangeId_t, OpenRange> g_ranges;
nvtxRangeId_t g_next_range_id = 1;

std::string messageOf(const nvtxEventAttributes_t* attr) {
  if (attr == nullptr) return {};
  if (attr->messageType == NVTX_MESSAGE_TYPE_ASCII && attr->message.ascii != nullptr)
    return attr->message.ascii;
  return "nvtx range";  // wide and registered strings are not decoded
}

void record(const std::string& name, int64_t start_ns, int64_t end_ns, HostKind kind) noexcept {
  HostEvent e;
  e.name = name;
  e.start_ns = start_ns;
  e.end_ns = end_ns;
  e.kind = kind;
  recordHostEvent(e);
}

int pushRange(std::string name) noexcept {
  try {
    t_stack.push_back({std::move(name), nowNs(), isCapturing()});
    return static_cast<int>(t_stack.size()) - 1;
  } catch (...) {
    return -1;
  }
}

int NVTX_API rangePushA(const char* message) { return pushRange(message ? message : ""); }
int NVTX_API rangePushEx(const nvtxEventAttributes_t* attr) {
  try {
    return pushRange(messageOf(attr));
  } catch (...) {
    return -1;
  }
}

int NVTX_API rangePop() {
  if (t_stack.empty()) return -1;
  const int64_t end = nowNs();
  OpenRange r = std::move(t_stack.back());
  t_stack.pop_back();
  if (r.capturing && isCapturing()) record(r.name, r.start_ns, end, HostKind::kUserAnnotation);
  return static_cast<int>(t_stack.size());
}

nvtxRangeId_t startRange(const char* name) noexcept {
  try {
    std::lock_guard<std::mutex> lock(g_ranges_mutex);
    const nvtxRangeId_t id = g_next_range_id++;
    g_ranges.emplace(id, OpenRange{name ? name : "", nowNs(), isCapturing()});
    return id;
  } catch (...) {
    return 0;
  }
}

nvtxRangeId_t NVTX_API rangeStartA(const char* message) { return startRange(message); }
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* attr) {
  try {
    return startRange(messageOf(attr).c_str());
  } catch (...) {
    return 0;
  }
}

void NVTX_API rangeEnd(nvtxRangeId_t id) {
  const int64_t end = nowNs();
  try {
    OpenRange r;
    {
      std::lock_guard<std::mutex> lock(g_ranges_mutex);
      auto it = g_ranges.find(id);
      if (it == g_ranges.end()) return;
      r = std::move(it->second);
      g_ranges.erase(it);
    }
    if (r.capturing && isCapturing()) record(r.name, r.start_ns, end, HostKind::kUserAnnotation);
  } catch (...) {
  }
}

void NVTX_API markA(const char* message) {
  if (!isCapturing()) return;
  try {
    const int64_t now = nowNs();
    record(message ? message : "", now, now, HostKind::kInstant);
  } catch (...) {
  }
}
void NVTX_API markEx(const nvtxEventAttributes_t* attr) {
  if (!isCapturing()) return;
  try {
    const int64_t now = nowNs();
    record(messageOf(attr), now, now, HostKind::kInstant);
  } catch (...) {
  }
}

template <typename Fn>
void install(NvtxFunctionTable table, unsigned int size, NvtxCallbackIdCore id, Fn fn) {
  if (static_cast<unsigned int>(id) < size && table[id] != nullptr)
    *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

class NvtxSource final : public HostSource {
 public:
  const char* name() const override { return "nvtx"; }
  bool start(const CollectorConfig& config, std::string* why) override {
    if (!config.enable_nvtx) {
      if (why) *why = "disabled (STEPLINT_NVTX=0)";
      return false;
    }
    // NVTX calls InitializeInjectionNvtx2 itself; we only make sure it will find us. setenv
    // here (not in config.cpp, which only reads the environment) because it is an action.
    Dl_info info{};
    if (std::getenv("NVTX_INJECTION64_PATH") == nullptr &&
        dladdr(reinterpret_cast<void*>(&rangePop), &info) != 0 && info.dli_fname != nullptr)
      setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
    return true;
  }
  void stop() override {}
};

}  // namespace

std::unique_ptr<HostSource> makeNvtxSource() { return std::make_unique<NvtxSource>(); }

}  // namespace steplint::collector

// The entry point NVTX's loader looks up with dlsym: default visibility, C linkage.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_table) {
  using namespace steplint::collector;
  if (get_table == nullptr) return 0;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || table == nullptr)
    return 0;
  install(table, size, NVTX_CBID_CORE_RangePushA, &rangePushA);
  install(table, size, NVTX_CBID_CORE_RangePushEx, &rangePushEx);
  install(table, size, NVTX_CBID_CORE_RangePop, &rangePop);
  install(table, size, NVTX_CBID_CORE_RangeStartA, &rangeStartA);
  install(table, size, NVTX_CBID_CORE_RangeStartEx, &rangeStartEx);
  install(table, size, NVTX_CBID_CORE_RangeEnd, &rangeEnd);
  install(table, size, NVTX_CBID_CORE_MarkA, &markA);
  install(table, size, NVTX_CBID_CORE_MarkEx, &markEx);
  return 1;
}
