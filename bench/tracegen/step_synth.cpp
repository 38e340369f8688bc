#include "tracegen/step_synth.h"

#include <algorithm>

#include "tracegen/synth_constants.h"

namespace steplint::bench {
using namespace names;  // constants only

namespace {

KernelShape shape(int32_t grid_x, int32_t grid_y, int32_t block_x, int32_t regs, int32_t smem,
                  double active) {
  KernelShape s;
  s.grid[0] = grid_x;
  s.grid[1] = grid_y;
  s.block[0] = block_x;
  s.registers_per_thread = regs;
  s.shared_memory = smem;
  s.active_blocks_per_sm = active;
  return s;
}

}  // namespace

StepSynthesizer::StepSynthesizer(const SynthOptions& options, const TraceLayout& layout)
    : options_(options),
      layout_(layout),
      format_(layout),
      rng_(options.seed * 0x9E3779B97F4A7C15ull + 1) {
  // Each conv/bn/relu triple costs 3 forward + 4 backward kernels; loss and optimizer add 8.
  int triples = std::max(1, (options_.kernels_per_step - 8) / 7);
  for (int i = 0; i < triples; ++i) {
    int stage =
        std::min(3, i * 4 / triples);  // ResNet stages: spatial size halves, channels double
    Layer l;
    l.activation_bytes = int64_t{32} * 256 * 3136 * 4 >> stage;
    l.conv_ns = static_cast<int64_t>((180 + 340 * uniform()) * kUs);
    l.bn_ns = static_cast<int64_t>((150 >> stage) * kUs + 20 * kUs * uniform());
    l.relu_ns = static_cast<int64_t>((80 >> stage) * kUs + 10 * kUs * uniform());
    l.conv = shape(static_cast<int32_t>(64 + next() % 448), 1, 128, 128, 49152, 2);
    l.bn = shape(static_cast<int32_t>(64 << stage), 1, 512, 30, 4096, 4);
    l.relu = shape(static_cast<int32_t>((6272 >> stage) + next() % 64), 1, 128, 18, 0, 16);
    layers_.push_back(l);
  }
  // Same model, other noise: two recordings of one trainer.
  if (options_.noise_seed != 0) rng_ = options_.noise_seed * 0x9E3779B97F4A7C15ull + 1;
  main_.tid = layout_.main_tid;
  autograd_.tid = layout_.autograd_tid;
  main_.now_ns = trace_start_ns_ = 5 * kMs;
}

uint64_t StepSynthesizer::next() {
  uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double StepSynthesizer::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

int64_t StepSynthesizer::jitter(int64_t ns, double spread) {
  return static_cast<int64_t>(static_cast<double>(ns) * (1.0 + spread * (2 * uniform() - 1)));
}

void StepSynthesizer::begin(std::string& out) {
  format_.header(out);
  const int64_t pid = layout_.cpu_pid, dev = layout_.device;
  format_.metadata(out, "process_labels", pid, 0, "labels", "CPU");
  format_.metadataSortIndex(out, "process_sort_index", pid, 0, pid);
  format_.metadata(out, "process_name", dev, 0, "name", "python3.10");
  format_.metadata(out, "process_labels", dev, 0, "labels", "GPU 0");
  format_.metadataSortIndex(out, "process_sort_index", dev, 0, 0x1000000 + dev);
  format_.metadata(out, "thread_name", pid, main_.tid, "name", "thread 4242 (python3.10)");
  format_.metadataSortIndex(out, "thread_sort_index", pid, main_.tid, main_.tid);
  format_.metadata(out, "thread_name", pid, autograd_.tid, "name", "thread 4290 (pt_autograd_0)");
  format_.metadataSortIndex(out, "thread_sort_index", pid, autograd_.tid, autograd_.tid);
  format_.metadata(out, "thread_name", dev, layout_.stream, "name",
                   "stream 7 ");  // trailing space as Kineto
  format_.metadataSortIndex(out, "thread_sort_index", dev, layout_.stream, layout_.stream);
  format_.globalInstant(out, "Iteration Start: PyTorch Profiler", "Traces",
                        "Trace PyTorch Profiler", trace_start_ns_);
}

size_t StepSynthesizer::open(Thread& t, std::string_view name, CpuCategory category,
                             int64_t sequence_number, int64_t fwd_thread_id) {
  t.now_ns += jitter(3 * kUs, 0.5);  // dispatcher overhead before the op's own work
  CpuEvent e;
  e.name = name;
  e.category = category;
  e.tid = t.tid;
  e.start_ns = t.now_ns;
  e.external_id = ++external_id_;
  e.ev_idx = ev_idx_++;
  e.sequence_number = sequence_number;
  e.fwd_thread_id = fwd_thread_id;
  cpu_.push_back(e);
  t.open.push_back(cpu_.size() - 1);
  return cpu_.size() - 1;
}

void StepSynthesizer::close(Thread& t) {
  t.now_ns += jitter(2 * kUs, 0.5);
  CpuEvent& e = cpu_[t.open.back()];
  e.dur_ns = t.now_ns - e.start_ns;
  t.open.pop_back();
  t.now_ns += 500;  // the parent's bookkeeping between children
}

int64_t StepSynthesizer::currentExternalId(const Thread& t) const {
  return t.open.empty() ? 0 : cpu_[t.open.back()].external_id;
}

size_t StepSynthesizer::runtimeCall(Thread& t, std::string_view name, int32_t cbid,
                                    int64_t dur_ns) {
  t.now_ns += 800;
  CpuEvent e;
  e.name = name;
  e.category = CpuCategory::kRuntime;
  e.tid = t.tid;
  e.start_ns = t.now_ns;
  e.dur_ns = dur_ns;
  e.external_id = currentExternalId(t);
  e.cbid = cbid;
  e.correlation = ++correlation_;
  e.flow_start = cbid != kCbidStreamSynchronize;  // a sync has no device op to point at here
  cpu_.push_back(e);
  t.now_ns += dur_ns;
  return cpu_.size() - 1;
}

void StepSynthesizer::launchKernel(Thread& t, std::string_view name, const KernelShape& shape,
                                   int64_t mean_ns) {
  const CpuEvent& call =
      cpu_[runtimeCall(t, "cudaLaunchKernel", kCbidLaunchKernel, jitter(5 * kUs, 0.4))];
  GpuEvent k;
  k.name = name;
  k.kind = GpuKind::kKernel;
  k.start_ns = std::max(gpu_free_ns_, call.start_ns + 4 * kUs);
  if (options_.kernel_slowdown != 1.0)
    mean_ns = static_cast<int64_t>(static_cast<double>(mean_ns) * options_.kernel_slowdown);
  k.dur_ns = jitter(mean_ns, 0.08);
  k.correlation = call.correlation;
  k.external_id = call.external_id;
  k.shape = shape;
  gpu_free_ns_ = k.start_ns + k.dur_ns + jitter(2 * kUs, 0.5);
  gpu_.push_back(k);
}

// Copies to or from pageable memory are staged by the driver: the call returns only when the
// copy is done, so the CPU call spans the wait for the queue plus the transfer.
void StepSynthesizer::copyAsync(Thread& t, std::string_view name, int64_t bytes,
                                double gbytes_per_s) {
  size_t idx = runtimeCall(t, "cudaMemcpyAsync", kCbidMemcpyAsync, 0);
  CpuEvent& call = cpu_[idx];
  GpuEvent c;
  c.name = name;
  c.kind = GpuKind::kMemcpy;
  c.start_ns = std::max(gpu_free_ns_, call.start_ns + 6 * kUs);
  c.dur_ns =
      std::max<int64_t>(1500, static_cast<int64_t>(static_cast<double>(bytes) / gbytes_per_s));
  c.correlation = call.correlation;
  c.external_id = call.external_id;
  c.bytes = bytes;
  gpu_free_ns_ = c.start_ns + c.dur_ns + kUs;
  call.dur_ns = c.start_ns + c.dur_ns + jitter(4 * kUs, 0.3) - call.start_ns;
  t.now_ns = call.start_ns + call.dur_ns;
  gpu_.push_back(c);
}

void StepSynthesizer::memsetAsync(Thread& t, int64_t bytes) {
  const CpuEvent& call =
      cpu_[runtimeCall(t, "cudaMemsetAsync", kCbidMemsetAsync, jitter(4 * kUs, 0.3))];
  GpuEvent m;
  m.name = "Memset (Device)";
  m.kind = GpuKind::kMemset;
  m.start_ns = std::max(gpu_free_ns_, call.start_ns + 3 * kUs);
  m.dur_ns = std::max<int64_t>(1200, bytes / 900);  // ~900 GB/s
  m.correlation = call.correlation;
  m.external_id = call.external_id;
  m.bytes = bytes;
  gpu_free_ns_ = m.start_ns + m.dur_ns + kUs;
  gpu_.push_back(m);
}

void StepSynthesizer::streamSynchronize(Thread& t) {
  int64_t wait = std::max<int64_t>(0, gpu_free_ns_ - (t.now_ns + 800));
  runtimeCall(t, "cudaStreamSynchronize", kCbidStreamSynchronize, wait + jitter(3 * kUs, 0.3));
}

uint64_t StepSynthesizer::allocation(Thread& t, int64_t bytes, uint64_t addr) {
  MemoryInstant m;
  m.tid = t.tid;
  m.ts_ns = t.now_ns;
  m.bytes = bytes;
  allocated_ += bytes;
  // The caching allocator reserves in 20 MiB segments and never gives memory back.
  reserved_ = std::max(reserved_, (allocated_ + (20 << 20) - 1) / (20 << 20) * (20 << 20));
  m.total_allocated = allocated_;
  m.total_reserved = reserved_;
  m.addr = bytes > 0 ? next_addr_ : addr;
  if (bytes > 0) next_addr_ += static_cast<uint64_t>(bytes + 511) / 512 * 512;
  m.ev_idx = ev_idx_++;
  memory_.push_back(m);
  return m.addr;
}

}  // namespace steplint::bench
