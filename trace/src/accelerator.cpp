#include "steplint/trace/accelerator.h"

#include <vector>

namespace steplint::trace {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool istartsWith(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if ((s[i] | 0x20) != (prefix[i] | 0x20)) return false;
  return true;
}

// What one category says on its own. Ordered by strength: a back-end's own category names it
// outright; CUPTI-only records only say CUDA when nothing stronger is there.
enum class CategorySign : uint8_t { kNeutral, kCupti, kXpu, kMtia, kHpu, kPrivateUse1, kOther };

CategorySign categorySign(std::string_view c) {
  if (istartsWith(c, "mtia_")) return CategorySign::kMtia;
  if (istartsWith(c, "xpu_")) return CategorySign::kXpu;
  if (istartsWith(c, "hpu_")) return CategorySign::kHpu;
  if (istartsWith(c, "privateuse1_")) return CategorySign::kPrivateUse1;
  if (istartsWith(c, "mlu_") || istartsWith(c, "gcu_")) return CategorySign::kOther;
  if (c == "cuda_sync" || c == "cuda_event" || c == "cuda_profiler_range")
    return CategorySign::kCupti;
  return CategorySign::kNeutral;
}

// A named back-end beats an unknown vendor's category, which beats CUPTI-only records (a
// host can record CUDA syncs next to another device's work).
int strength(CategorySign s) {
  switch (s) {
    case CategorySign::kNeutral:
      return 0;
    case CategorySign::kCupti:
      return 1;
    case CategorySign::kOther:
      return 2;
    case CategorySign::kXpu:
    case CategorySign::kMtia:
    case CategorySign::kHpu:
    case CategorySign::kPrivateUse1:
      return 3;
  }
  return 0;
}

Accelerator fromSign(CategorySign sign) {
  switch (sign) {
    case CategorySign::kMtia:
      return Accelerator::kMtia;
    case CategorySign::kXpu:
      return Accelerator::kXpu;
    case CategorySign::kHpu:
      return Accelerator::kHpu;
    case CategorySign::kPrivateUse1:
      return Accelerator::kPrivateUse1;
    case CategorySign::kOther:
      return Accelerator::kOther;
    case CategorySign::kCupti:
      return Accelerator::kCuda;
    case CategorySign::kNeutral:
      break;
  }
  return Accelerator::kNone;
}

// cudaLaunchKernel, cuLaunchKernel, cuStreamSynchronize: "cu" followed by an upper-case letter.
bool isCudaApiName(std::string_view n) {
  return startsWith(n, "cuda") ||
         (n.size() > 2 && n[0] == 'c' && n[1] == 'u' && n[2] >= 'A' && n[2] <= 'Z');
}

struct Signs {
  CategorySign strongest = CategorySign::kNeutral;  // the strongest back-end category seen
  bool hip_calls = false;
  bool cuda_calls = false;
  bool device_ops = false;
};

Signs collectSigns(const TraceModel& model) {
  Signs signs;
  // Categories repeat across millions of events: classify each distinct one once.
  std::vector<int8_t> by_category(model.strings.size(), -1);
  for (const Event& e : model.events) {
    int8_t& sign = by_category[e.category < by_category.size() ? e.category : 0];
    if (sign < 0) sign = static_cast<int8_t>(categorySign(model.str(e.category)));
    const auto s = static_cast<CategorySign>(sign);
    if (strength(s) > strength(signs.strongest)) signs.strongest = s;
    if (isDeviceOp(e.kind)) signs.device_ops = true;
    if (!isLaunchApi(e.kind)) continue;
    const std::string_view name = model.name(e);
    if (startsWith(name, "hip"))
      signs.hip_calls = true;
    else if (isCudaApiName(name))
      signs.cuda_calls = true;
  }
  return signs;
}

}  // namespace

Accelerator acceleratorFromDeviceName(std::string_view n) {
  for (std::string_view v : {"NVIDIA", "Tesla", "GeForce", "Quadro", "TITAN"})
    if (contains(n, v)) return Accelerator::kCuda;
  for (std::string_view v : {"AMD", "Radeon", "Instinct"})
    if (contains(n, v)) return Accelerator::kRocm;
  if (contains(n, "Intel")) return Accelerator::kXpu;
  if (contains(n, "MTIA")) return Accelerator::kMtia;
  return Accelerator::kNone;
}

Accelerator detectAccelerator(const TraceModel& model) {
  const Signs signs = collectSigns(model);
  if (signs.strongest != CategorySign::kNeutral && signs.strongest != CategorySign::kCupti)
    return fromSign(signs.strongest);
  if (signs.hip_calls) return Accelerator::kRocm;
  for (const DeviceProperties& d : model.metadata.devices)
    if (const Accelerator a = acceleratorFromDeviceName(d.name); a != Accelerator::kNone) return a;
  if (signs.cuda_calls || signs.strongest == CategorySign::kCupti) return Accelerator::kCuda;
  // Unnamed device work and bare deviceProperties: what Kineto records by default (CUPTI).
  if (signs.device_ops || !model.metadata.devices.empty()) return Accelerator::kCuda;
  return Accelerator::kNone;
}

}  // namespace steplint::trace
