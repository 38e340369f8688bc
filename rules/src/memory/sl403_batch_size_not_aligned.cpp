// SL403 batch-size-not-aligned: tensor-core GEMM/conv tiles want dimensions that are multiples
// of 8 (fp16) or 16 (int8). The batch size is read from the recorded input shapes of the first
// conv or 2-D linear/matmul of each step; the most common value across steps is judged, so one
// short last batch does not fire. Without recorded shapes, the DataLoader's batch_size that
// `steplint record` writes for Python runs (dataloader_batch_size) is judged instead.
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "common/input_dims.h"
#include "common/kernel_util.h"
#include "common/run_metadata.h"
#include "steplint/analyzer/display_text.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

// Which input of an op carries the batch, and whether only a 2-D one says it.
struct BatchInput {
  int input = -1;        // -1: not an op whose shape names the batch
  bool only_2d = false;  // a linear/matmul input of 3+ dims is [batch, seq, ...] or [seq,
                         // batch, ...] (nn.MultiheadAttention's default): which, shapes do
                         // not say, and the GEMM's rows are their product anyway
};

BatchInput batchInput(std::string_view name) {
  static const std::set<std::string_view> kConv = {"aten::conv1d", "aten::conv2d", "aten::conv3d",
                                                   "aten::convolution"};
  if (kConv.count(name)) return {0, false};  // N first, by definition
  if (name == "aten::linear" || name == "aten::matmul" || name == "aten::mm") return {0, true};
  if (name == "aten::addmm") return {1, true};  // input 0 is the bias
  return {};  // bmm's first dimension counts its matrices: no GEMM dimension
}

// Per step, the earliest op whose shape names the batch (step -> (op, batch)); `ambiguous` is
// set to an op whose shape could not (3+ dims), when one was seen.
struct BatchReads {
  std::map<int, std::pair<uint32_t, int64_t>> first_by_step;
  bool any_op = false;
  uint32_t ambiguous = trace::kNoIndex;
};

BatchReads readBatches(const AnalysisContext& context) {
  const trace::TraceModel& model = context.model();
  BatchReads out;
  analyzer::NameMemo batch_input(model, batchInput);
  const auto eligible = [&](const trace::Event& p) {
    return p.kind == trace::EventKind::kCpuOp && batch_input(p.name).input >= 0;
  };
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    const BatchInput how = e.kind == trace::EventKind::kCpuOp ? batch_input(e.name) : BatchInput{};
    if (how.input < 0) continue;
    // A CPU op belongs to the ProfilerStep it runs in, not to the step extended over it.
    const int step = common::hostStepAt(context, e.start_ns);
    if (step < 0) continue;
    out.any_op = true;
    // The outermost such op speaks for those inside it: a 3-D linear's addmm sees the product.
    if (e.parent != trace::kNoIndex && findEnclosing(model, e.parent, eligible) != trace::kNoIndex)
      continue;
    const trace::OpDetail* op = model.op(e);
    int64_t batch = 0;
    size_t rank = 0;
    if (!op ||
        !firstDimOfInput(model.str(op->input_dims), static_cast<size_t>(how.input), batch, &rank))
      continue;
    if (how.only_2d && rank != 2) {
      if (out.ambiguous == trace::kNoIndex) out.ambiguous = i;
      continue;
    }
    auto it = out.first_by_step.find(step);
    if (it == out.first_by_step.end() || e.start_ns < model.events[it->second.first].start_ns)
      out.first_by_step[step] = {i, batch};
  }
  return out;
}

}  // namespace

namespace {

struct Options {
  int64_t multiple = 8;
};

// Tiles align to 8-256 elements; a bound keeps "the next multiple" of any batch a trace can name
// within int64 arithmetic.
constexpr int64_t kMaxMultiple = 65536;

/// SL403: the batch dimension of the step's first conv/linear/matmul is not a multiple of 8.
class BatchSizeNotAlignedRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // A multiple below 1 means nothing (and 0 would divide by zero).
  int64_t multiple() const { return std::max<int64_t>(1, options().multiple); }
};

std::string ambiguousText(const trace::TraceModel& model, uint32_t op) {
  const trace::OpDetail* detail = model.op(model.events[op]);
  const std::string dims =
      analyzer::truncateMiddle(detail ? model.str(detail->input_dims) : std::string_view(), 80);
  return "the conv/linear/matmul inputs with recorded shapes have 3 or more dimensions (" +
         std::string(model.name(model.events[op])) + " " + dims +
         "): whether the first is the batch or the sequence, shapes do not say, and the trace "
         "has no dataloader_batch_size";
}

// The aligned sizes either side of the batch; 0 stands for one that does not exist (none below
// a batch smaller than the multiple, none above one near INT64_MAX).
std::string alignedSizes(int64_t down, int64_t up) {
  if (down > 0 && up > 0)
    return strf("%lld or %lld", static_cast<long long>(down), static_cast<long long>(up));
  return strf("%lld", static_cast<long long>(down > 0 ? down : up));
}

}  // namespace

void registerSl403(analyzer::RuleRegistry& registry) {
  registry.add<BatchSizeNotAlignedRule>(
      {"SL403", "batch-size-not-aligned", analyzer::Category::kMemory, analyzer::Severity::kNote,
       true, "the batch size is not a multiple of 8 (tensor-core tile alignment)"},
      {
          analyzer::option(
              "multiple", &Options::multiple,
              "the alignment the batch size should have (8 for fp16/bf16/tf32, 16 for int8)", 1.0,
              static_cast<double>(kMaxMultiple)),
      });
}

void BatchSizeNotAlignedRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaAndRocm,
                                  "tensor-core tile sizes and compute capabilities"))
    return;
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  if (context.steps().steps.empty()) return sink.notChecked("no training steps");
  bool tensor_cores = model.metadata.devices.empty();  // unknown: judge anyway
  for (const auto& dev : model.metadata.devices)
    tensor_cores |= dev.compute_major < 0 || dev.compute_major >= 7;
  if (!tensor_cores) return;  // pre-Volta GPUs have no tensor-core tiles to align to
  const BatchReads reads = readBatches(context);
  const auto& first_by_step = reads.first_by_step;
  if (!reads.any_op) return;  // no conv/linear/matmul: nothing to align
  int64_t batch = 0;
  std::string source;
  if (first_by_step.empty()) {
    const auto loader_batch = common::metadataInteger(model.metadata, {"dataloader_batch_size"});
    if ((!loader_batch || *loader_batch <= 0) && model.metadata.legacy_profiler_export)
      return sink.notChecked(common::legacyExportLacks(model.metadata, "input shapes",
                                                       "record_shapes",
                                                       "steplint record --shapes") +
                             ", and the trace has no dataloader_batch_size");
    if ((!loader_batch || *loader_batch <= 0) && reads.ambiguous != trace::kNoIndex)
      return sink.notChecked(ambiguousText(model, reads.ambiguous));
    if (!loader_batch || *loader_batch <= 0)
      return sink.notChecked(
          "input shapes were not recorded (record_shapes=True, steplint record --shapes) and "
          "the trace has no dataloader_batch_size");
    batch = *loader_batch;
    source = "the DataLoader's batch_size";
  } else {
    std::map<int64_t, int> votes;
    for (const auto& [step, v] : first_by_step) ++votes[v.second];
    int best = 0;
    for (const auto& [b, n] : votes)
      if (n > best) best = n, batch = b;
    source = "first input of " +
             std::string(model.name(model.events[first_by_step.begin()->second.first]));
  }
  if (batch % multiple() == 0) return;
  // The batch comes from the trace (a shape or the loader's setting) and may be near INT64_MAX,
  // where the next multiple up does not exist; then only the one below is offered.
  const int64_t down = batch / multiple() * multiple();
  int64_t up = 0;
  if (__builtin_mul_overflow(batch / multiple() + 1, multiple(), &up)) up = 0;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf("batch size %lld (%s) is not a multiple of %lld", static_cast<long long>(batch),
                   source.c_str(), static_cast<long long>(multiple()));
  for (const auto& [step, v] : first_by_step) {
    d.evidence.steps.push_back(context.steps().steps[static_cast<size_t>(step)].number);
    if (d.evidence.events.size() < 20) d.evidence.events.push_back(v.first);
  }
  d.evidence.metrics = {{"batch_size", static_cast<double>(batch)},
                        {"multiple", static_cast<double>(multiple())}};
  d.saving.method =
      "not measurable from one trace: unaligned GEMM/conv dimensions can make cuBLAS/cuDNN pick "
      "slower non-tensor-core or padded kernels";
  d.fix = {
      "use a batch size of " + alignedSizes(down, up) + " (scale the learning rate with the batch)",
      "also keep channel and hidden sizes multiples of 8; pad vocabularies (e.g. to a multiple of 64)"};
  d.fingerprint_key = "batch-size";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
