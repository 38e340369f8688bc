// The torch source: one global RecordFunction callback that turns every ATen op, autograd node
// and user scope into a HostEvent (docs/reference/trace-format.md §7.1).
//
// The only TU that includes <ATen/record_function.h>; compiled with NDEBUG in every build type
// (sources.cmake, docs/reference/toolchain.md §3.3). Built against torch 1.13 (Debian) and
// torch 2.x: the RecordFunction calls used here (name, seqNr, forwardThreadId, scope, inputs, the
// callback builder) have the same shape in both.
//
// Cost model (docs/reference/toolchain.md §3.5): RecordFunction itself costs ~0.1 µs per op; the
// callback adds one heap context, two clock reads and a lock-free append. Shapes (inputs()) cost
// more and are off by default.
#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include "config.h"
#include "iteration_counter.h"
#include "recorder.h"
#include "sources.h"
#include "steplint/trace/recorded_names.h"
#include "torch_hooks.h"

namespace steplint::collector {
namespace torch_hooks {
namespace {

// Set by TorchSource::start/stop. The callback stays registered for the whole process:
// removing a global callback while other threads run ops is not allowed (record_function.h).
std::atomic<bool> g_enabled{false};
std::once_flag g_register_once;

// torch's settings are read again at step boundaries, at most this often (the first boundary
// always): a trainer sets cudnn.benchmark & co. in main(), after the preload started the
// session, and the atexit stop may not read them (processExiting()).
constexpr int64_t kSettingsRefreshNs = 1'000'000'000;
std::atomic<int64_t> g_next_settings_refresh_ns{0};

// Ops open on this thread (the end callback runs for every start, with or without a context),
// and the live iteration boundaries for trainers without step markers.
thread_local int t_depth = 0;
IterationCounter g_iterations;

// The recording's own cost per op, sampled (one recorded op in kOverheadSample): the time from
// entering the start callback to the op's start stamp, and from its end stamp to leaving the
// end callback. Two extra clock reads on one op in 64 cost nothing measurable; the mean goes
// into the trace (trace::kOpOverheadKey) so the analyzer can take the inflation out.
constexpr uint32_t kOverheadSample = 64;
// RecordFunction's own work per op while a global callback is registered (building the record,
// calling the callbacks, destroying our context): ~0.1 µs (docs/reference/toolchain.md §3.5); not
// measurable from inside the callbacks, so added as a constant.
constexpr int64_t kRecordFunctionNs = 100;
thread_local uint32_t t_overhead_counter = 0;
std::atomic<int64_t> g_overhead_ns{0};
std::atomic<int64_t> g_overhead_samples{0};

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

/// Per-op state between the start and the end callback (same thread; torch owns and deletes it).
struct OpContext final : at::ObserverContext {
  int64_t start_ns = 0;
  int64_t start_cost_ns = -1;  // >= 0 on a sampled op: the start callback's cost
  uint64_t external_id = 0;
  bool pushed = false;
  uint8_t flags = 0;
  std::string args;  // "Input Dims": ..., "Input type": ... (only with shapes)
};

void appendDims(const at::Tensor& t, std::string& dims) {
  dims += '[';
  bool first = true;
  for (int64_t d : t.sizes()) {
    if (!first) dims += ", ";
    first = false;
    dims += std::to_string(d);
  }
  dims += ']';
}

std::string_view typeName(const c10::IValue& v) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    if (!t.defined()) return "";
    const auto name = t.dtype().name();  // "float", "long int", "c10::Half" as Kineto writes
    return std::string_view(name.data(), name.size());
  }
  if (v.isScalar()) return "Scalar";
  if (v.isTensorList()) return "TensorList";
  if (v.isList()) return "ScalarList";
  return "";
}

/// True when `aten::copy_(self, src, non_blocking)` copies a CUDA tensor into host memory
/// without non_blocking: the host waits for the device.
bool isBlockingCopyToHost(std::string_view name, c10::ArrayRef<const c10::IValue> in) {
  if (name != "aten::copy_" || in.size() < 2 || !in[0].isTensor() || !in[1].isTensor())
    return false;
  const at::Tensor& dst = in[0].toTensor();
  const at::Tensor& src = in[1].toTensor();
  if (!dst.defined() || !src.defined() || !dst.is_cpu() || !src.is_cuda()) return false;
  return !(in.size() > 2 && in[2].isBool() && in[2].toBool());
}

/// Renders `"Input Dims": [[..]], "Input type": [..]` from fn.inputs(); only valid in the start
/// callback. Adds kFlagHostSync for a blocking device-to-host copy.
void renderInputs(const at::RecordFunction& fn, OpContext& ctx) {
  const c10::ArrayRef<const c10::IValue> inputs = fn.inputs();
  std::string dims = "\"Input Dims\": [";
  std::string types = "\"Input type\": [";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i > 0) {
      dims += ", ";
      types += ", ";
    }
    const c10::IValue& v = inputs[i];
    if (v.isTensor() && v.toTensor().defined()) {
      appendDims(v.toTensor(), dims);
    } else {
      dims += "[]";
    }
    types += '"';
    types += typeName(v);  // dtype names and our literals need no JSON escaping
    types += '"';
  }
  ctx.args = dims + "], " + types + "]";
  if (isBlockingCopyToHost(fn.name(), inputs)) ctx.flags |= kFlagHostSync;
}

OpScope scopeOf(const at::RecordFunction& fn) {
  switch (fn.scope()) {
    case at::RecordScope::FUNCTION:
      return OpScope::kFunction;
    case at::RecordScope::BACKWARD_FUNCTION:
      return OpScope::kBackwardFunction;
    case at::RecordScope::USER_SCOPE:
      return OpScope::kUserScope;
    default:
      return OpScope::kOther;
  }
}

/// Feeds the iteration counter; runs for every op while a session is live, also outside the
/// schedule's active steps (that is when the schedule needs to count).
void countIteration(const at::RecordFunction& fn, int depth) noexcept {
  const bool backward =
      IterationCounter::isBackwardOp(fn.name(), fn.scope() == at::RecordScope::BACKWARD_FUNCTION);
  const uint64_t forward_thread = backward && fn.seqNr() >= 0 ? fn.forwardThreadId() : 0;
  if (g_iterations.onOpStart(at::RecordFunction::currentThreadId(), backward, forward_thread,
                             depth))
    onIterationDetected();
}

std::unique_ptr<at::ObserverContext> onOpStart(const at::RecordFunction& fn) {
  if (!g_enabled.load(std::memory_order_relaxed)) return nullptr;
  countIteration(fn, t_depth++);
  if (!isCapturing()) return nullptr;
  const bool sampled = ++t_overhead_counter % kOverheadSample == 0;
  const int64_t entry_ns = sampled ? nowNs() : 0;
  try {
    auto ctx = std::make_unique<OpContext>();
    ctx->external_id = nextExternalId();
    if (ActivitySource* device = activeActivitySource()) {
      device->pushExternalId(ctx->external_id);
      ctx->pushed = true;
    }
    if (fn.needsInputs()) renderInputs(fn, *ctx);
    ctx->start_ns = nowNs();  // last, so our own work is outside the op's duration
    if (sampled) ctx->start_cost_ns = ctx->start_ns - entry_ns;
    return ctx;
  } catch (...) {  // never let an exception reach torch (docs/reference/style.md §2.9)
    return nullptr;
  }
}

void onOpEnd(const at::RecordFunction& fn, at::ObserverContext* raw) {
  if (t_depth > 0) --t_depth;  // clamped: a session may start while this thread is inside ops
  if (raw == nullptr) return;
  const int64_t end_ns = nowNs();
  auto* ctx = static_cast<OpContext*>(raw);
  if (ctx->pushed) {
    if (ActivitySource* device = activeActivitySource()) device->popExternalId();
  }
  try {
    HostEvent e;
    e.name = fn.name();  // copied by recordHostEvent: string-named records own their name
    e.args_json = ctx->args;
    e.start_ns = ctx->start_ns;
    e.end_ns = end_ns;
    e.external_id = ctx->external_id;
    e.seq_nr = fn.seqNr();
    if (e.seq_nr >= 0) e.fwd_thread = static_cast<int64_t>(fn.forwardThreadId());
    const OpScope scope = scopeOf(fn);
    e.kind = scope == OpScope::kUserScope ? HostKind::kUserAnnotation : HostKind::kCpuOp;
    e.flags = static_cast<uint8_t>(ctx->flags | flagsForOp(e.name, scope));
    recordHostEvent(e);
  } catch (...) {
  }
  if (ctx->start_cost_ns >= 0) {
    g_overhead_ns.fetch_add(ctx->start_cost_ns + (nowNs() - end_ns), std::memory_order_relaxed);
    g_overhead_samples.fetch_add(1, std::memory_order_relaxed);
  }
}

/// Writes the mean cost of recording one op (trace::kOpOverheadKey) when ops were sampled.
void describeOverhead() {
  const int64_t samples = g_overhead_samples.load(std::memory_order_relaxed);
  if (samples <= 0) return;
  const int64_t mean = g_overhead_ns.load(std::memory_order_relaxed) / samples + kRecordFunctionNs;
  setMetadata(trace::kOpOverheadKey, std::to_string(mean));
  setMetadata(trace::kOpOverheadSamplesKey, std::to_string(samples));
}

void registerCallbackOnce(bool record_shapes) {
  std::call_once(g_register_once, [record_shapes] {
    at::addGlobalCallback(
        at::RecordFunctionCallback(&onOpStart, &onOpEnd).needsInputs(record_shapes).needsIds(true));
  });
}

class TorchSource final : public HostSource {
 public:
  const char* name() const override { return "torch"; }

  bool start(const CollectorConfig& config, std::string* why) override {
    try {
      // needsInputs is fixed at registration: a later session in the same process keeps the
      // first session's shapes setting (the callback checks needsInputs() itself).
      registerCallbackOnce(config.record_shapes);
      g_iterations.reset();
      g_overhead_ns.store(0, std::memory_order_relaxed);
      g_overhead_samples.store(0, std::memory_order_relaxed);
      g_next_settings_refresh_ns.store(0, std::memory_order_relaxed);
      g_enabled.store(true, std::memory_order_release);
      return true;
    } catch (const std::exception& error) {
      if (why) *why = std::string("at::addGlobalCallback failed: ") + error.what();
    } catch (...) {
      if (why) *why = "at::addGlobalCallback failed";
    }
    return false;
  }

  void stop() override {
    g_enabled.store(false, std::memory_order_release);
    describeOverhead();
    // Again at the end (with LD_PRELOAD the session starts before main() sets cudnn.benchmark
    // & co.), unless exit() is under way: then torch's lazily built statics may be destroyed
    // and the values read at the last step boundary stand.
    if (!processExiting()) describeTorchRuntime(/*report_status=*/true);
  }

  void describe() override { describeTorchRuntime(/*report_status=*/false); }
};

/// Re-reads torch's settings on the trainer thread at a step boundary (sources.h).
void refreshSettingsAtStep(int64_t now_ns) noexcept {
  if (!g_enabled.load(std::memory_order_acquire)) return;
  int64_t due = g_next_settings_refresh_ns.load(std::memory_order_relaxed);
  if (now_ns < due) return;
  // One thread per interval, should several trainer threads mark steps at once.
  if (!g_next_settings_refresh_ns.compare_exchange_strong(due, now_ns + kSettingsRefreshNs)) return;
  describeTorchRuntime(/*report_status=*/true);
}

}  // namespace

uint8_t flagsForOp(std::string_view name, OpScope scope) noexcept {
  switch (scope) {
    case OpScope::kBackwardFunction:
      return kFlagBackward;
    case OpScope::kUserScope:
      if (startsWith(name, "ProfilerStep#")) return kFlagStep;
      if (startsWith(name, "enumerate(DataLoader)#")) return kFlagDataLoader;
      return 0;
    default:
      // .item() runs aten::item → aten::_local_scalar_dense; only the inner op reads the
      // device value, so flagging it alone counts each sync once.
      return name == "aten::_local_scalar_dense" ? kFlagHostSync : 0;
  }
}

}  // namespace torch_hooks

void refreshTorchSettingsAtStep(int64_t now_ns) noexcept {
  torch_hooks::refreshSettingsAtStep(now_ns);
}

std::unique_ptr<HostSource> makeTorchSource() {
  return std::make_unique<torch_hooks::TorchSource>();
}

}  // namespace steplint::collector
