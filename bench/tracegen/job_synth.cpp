// JobSynthesizer (job_synth.h). Every rank runs the same step on the global timeline; the two
// collectives are barriers: each rank arrives when its own work allows, and the collective ends
// at the last arrival plus the transfer time on all ranks.
#include "tracegen/job_synth.h"

#include <algorithm>
#include <deque>

namespace steplint::bench {
namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;
constexpr int kLayers = 6;
constexpr int64_t kLoaderNs = 4 * kMs;
constexpr int64_t kForwardNs = 1500 * kUs;   // per layer
constexpr int64_t kBackwardNs = 1200 * kUs;  // per kernel, two kernels per layer
constexpr int64_t kBroadcastNs = 60 * kUs;   // the transfers themselves
constexpr int64_t kAllReduceNs = 3 * kMs;
constexpr int64_t kOptimizerNs = 300 * kUs;  // per kernel, three kernels
constexpr int32_t kComputeStream = 7;
constexpr int32_t kCommStream = 20;
constexpr int32_t kLaunchCbid = 211, kSyncCbid = 131;

constexpr const char* kFwdKernel = "ampere_sgemm_128x64_nn";
constexpr const char* kBwdWeightKernel = "ampere_sgemm_128x64_nt";
constexpr const char* kBwdInputKernel = "ampere_sgemm_64x64_tn";

std::string rankList(size_t world) {  // "0, 1, 2"
  std::string ranks;
  for (size_t r = 0; r < world; ++r) ranks += (r ? ", " : "") + std::to_string(r);
  return ranks;
}

std::string distributedInfoJson(int rank, int world, CollectiveStyle style) {
  const std::string backend = style == CollectiveStyle::kNccl ? "nccl" : "gloo";
  const std::string ranks = rankList(static_cast<size_t>(world));
  return "{\"backend\": \"" + backend + "\", \"rank\": " + std::to_string(rank) +
         ", \"world_size\": " + std::to_string(world) +
         ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
         "\"backend_config\": \"cuda:" +
         backend + "\", \"pg_size\": " + std::to_string(world) + ", \"ranks\": [" + ranks + "]}]}";
}

}  // namespace

struct JobSynthesizer::Rank {
  int index = 0;
  TraceLayout layout;
  TraceLayout comm_layout;
  int64_t clock_offset = 0;  // this rank's clock minus the global one
  uint64_t rng = 0;
  int64_t host = 0;          // main thread's time (global clock)
  int64_t compute_free = 0;  // compute stream busy until
  int64_t next_external = 1, next_correlation = 1, ev_idx = 0;
  int64_t ready = 0;  // arrival at the pending collective
  int64_t step_start = 0;
  std::vector<CpuEvent> cpu;
  std::vector<std::pair<bool, GpuEvent>> gpu;  // (on the comm stream, event)
  size_t pending_comm = 0;  // index in gpu of the collective kernel awaiting its end
  int64_t next_seq = 1;     // c10d's sequence number in the default group
  std::deque<std::string>
      args_text;  // collective args the step's events point to (stable addresses)

  double uniform() {
    rng += 0x9E3779B97F4A7C15ull;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  }
  int64_t jitter(int64_t ns, double spread) {
    return static_cast<int64_t>(static_cast<double>(ns) * (1.0 + spread * (2.0 * uniform() - 1.0)));
  }
  CpuEvent& op(std::string_view name, CpuCategory category, int64_t start, int64_t dur,
               int64_t tid = 0) {
    CpuEvent e;
    e.name = name;
    e.category = category;
    e.tid = tid ? tid : layout.main_tid;
    e.start_ns = start;
    e.dur_ns = dur;
    e.external_id = next_external++;
    e.ev_idx = ev_idx++;
    cpu.push_back(e);
    return cpu.back();
  }
  /// A launch call at `at`; the kernel starts when the stream is free. Returns the kernel's index.
  size_t launch(int64_t at, const char* kernel, int64_t dur, bool comm, int64_t stream_free) {
    CpuEvent call;
    call.name = "cudaLaunchKernel";
    call.category = CpuCategory::kRuntime;
    call.tid = layout.main_tid;
    call.start_ns = at;
    call.dur_ns = 8 * kUs;
    call.external_id = cpu.empty() ? 0 : cpu.back().external_id;
    call.ev_idx = ev_idx++;
    call.cbid = kLaunchCbid;
    call.correlation = next_correlation++;
    call.flow_start = true;
    cpu.push_back(call);
    GpuEvent k;
    k.name = kernel;
    k.start_ns = std::max(at + call.dur_ns + 5 * kUs, stream_free);
    k.dur_ns = dur;
    k.correlation = call.correlation;
    k.external_id = call.external_id;
    k.shape.grid[0] = 216;
    k.shape.block[0] = 256;
    gpu.push_back({comm, k});
    return gpu.size() - 1;
  }
  int64_t computeKernel(int64_t at, const char* kernel, int64_t dur) {
    const size_t i = launch(at, kernel, dur, false, compute_free);
    compute_free = gpu[i].second.start_ns + dur;
    return compute_free;
  }
  /// aten::item's synchronize: the host blocks until the compute stream drains.
  void hostSync(int64_t at) {
    const int64_t until = std::max(at + 10 * kUs, compute_free + 5 * kUs);
    op("aten::item", CpuCategory::kCpuOp, at, until - at + 10 * kUs);
    CpuEvent sync;
    sync.name = "cudaStreamSynchronize";
    sync.category = CpuCategory::kRuntime;
    sync.tid = layout.main_tid;
    sync.start_ns = at + 2 * kUs;
    sync.dur_ns = until - sync.start_ns;
    sync.external_id = cpu.back().external_id;
    sync.ev_idx = ev_idx++;
    sync.cbid = kSyncCbid;
    sync.correlation = next_correlation++;
    cpu.push_back(sync);
    host = until + 10 * kUs;
  }
};

const char* plantedStragglerName(PlantedStraggler s) {
  switch (s) {
    case PlantedStraggler::kNone:
      return "none";
    case PlantedStraggler::kBackward:
      return "backward";
    case PlantedStraggler::kDataLoader:
      return "dataloader";
    case PlantedStraggler::kHostSync:
      return "sync";
  }
  return "none";
}

bool parseCollectiveArgs(const std::string& text, CollectiveArgs& out) {
  if (text == "none") return out = CollectiveArgs::kNone, true;
  if (text == "group") return out = CollectiveArgs::kGroup, true;
  if (text == "seq") return out = CollectiveArgs::kSeq, true;
  return false;
}

bool parsePlantedStraggler(const std::string& text, PlantedStraggler& out) {
  for (PlantedStraggler s : {PlantedStraggler::kNone, PlantedStraggler::kBackward,
                             PlantedStraggler::kDataLoader, PlantedStraggler::kHostSync})
    if (text == plantedStragglerName(s)) return out = s, true;
  return false;
}

JobSynthesizer::JobSynthesizer(const JobSynthOptions& options) : options_(options) {
  ranks_.resize(static_cast<size_t>(std::max(1, options.ranks)));
  for (int r = 0; r < static_cast<int>(ranks_.size()); ++r) {
    Rank& rank = ranks_[static_cast<size_t>(r)];
    rank.index = r;
    rank.layout.cpu_pid = rank.layout.main_tid = 4242 + r;
    rank.layout.autograd_tid = rank.layout.cpu_pid + 1000;  // the gloo worker thread
    rank.layout.device = r % 8;
    rank.layout.stream = kComputeStream;
    rank.layout.distributed_info =
        options.distributed_info
            ? distributedInfoJson(r, static_cast<int>(ranks_.size()), options.style)
            : "-";
    rank.comm_layout = rank.layout;
    rank.comm_layout.stream = kCommStream;
    // Clocks disagree by milliseconds between hosts: more than a collective's wait.
    rank.clock_offset = 5 * kMs + r * 1'700'321;
    rank.rng = options.seed * 1000003 + static_cast<uint64_t>(r);
    rank.host = rank.jitter(200 * kUs, 0.5);
  }
}

JobSynthesizer::~JobSynthesizer() = default;

int JobSynthesizer::ranks() const { return static_cast<int>(ranks_.size()); }

void JobSynthesizer::begin(std::vector<std::string>& out) {
  out.resize(ranks_.size());
  for (Rank& rank : ranks_) {
    std::string& o = out[static_cast<size_t>(rank.index)];
    KinetoFormatter format(rank.layout);
    format.header(o);
    const int64_t pid = rank.layout.cpu_pid, dev = rank.layout.device;
    format.metadata(o, "process_labels", pid, 0, "labels", "CPU");
    format.metadata(o, "process_name", dev, 0, "name", "python3.10");
    format.metadata(o, "process_labels", dev, 0, "labels", "GPU " + std::to_string(dev));
    format.metadata(o, "thread_name", pid, rank.layout.main_tid, "name", "thread (python3.10)");
    format.metadata(o, "thread_name", pid, rank.layout.autograd_tid, "name",
                    "thread (gloo worker)");
  }
}

void JobSynthesizer::step(int64_t number, std::vector<std::string>& out) {
  const bool nccl = options_.style == CollectiveStyle::kNccl;
  auto planted = [&](const Rank& r, PlantedStraggler kind) {
    return options_.straggler == kind && r.index == options_.straggler_rank;
  };
  // Arrival at a collective: NCCL launches its kernel and goes on; gloo runs it on its worker
  // thread while the main thread waits (the work needs the tensors on the host first).
  const CollectiveArgs args = options_.collective_args;
  // record_param_comms with c10d's args, as torch writes it; returns the args for the kernel.
  auto paramComms = [&](Rank& r, const char* collective, int64_t nelems,
                        int64_t dur) -> std::string_view {
    if (args == CollectiveArgs::kNone) return {};
    std::string text =
        "\"Collective name\": \"" + std::string(collective) +
        "\", \"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
        "\"Process Group Ranks\": \"[" +
        rankList(ranks_.size()) + "]\", \"Group size\": " + std::to_string(ranks_.size()) +
        ", \"dtype\": \"Float\", \"In msg nelems\": " + std::to_string(nelems) +
        ", \"Out msg nelems\": " + std::to_string(nelems);
    if (args == CollectiveArgs::kSeq) text += ", \"Seq\": " + std::to_string(r.next_seq++);
    r.op("record_param_comms", CpuCategory::kCpuOp, r.host, dur).extra_args =
        r.args_text.emplace_back(std::move(text));
    return args == CollectiveArgs::kSeq ? r.args_text.back() : std::string_view();
  };
  auto arrive = [&](Rank& r, const char* collective, int64_t nelems, const char* range,
                    const char* kernel, bool after_compute) {
    if (nccl) {
      const std::string_view kernel_args = paramComms(r, collective, nelems, 40 * kUs);
      const int64_t at =
          r.host + (args == CollectiveArgs::kNone ? 0 : 2 * kUs);  // inside record_param_comms
      r.op(range, CpuCategory::kUserAnnotation, at, 30 * kUs);
      r.pending_comm = r.launch(at + 10 * kUs, kernel, 0, true, after_compute ? r.compute_free : 0);
      r.gpu[r.pending_comm].second.extra_args = kernel_args;
      r.ready = r.gpu[r.pending_comm].second.start_ns;
      r.host += 40 * kUs;
    } else {
      if (after_compute) r.hostSync(r.host);
      if (args != CollectiveArgs::kNone) {
        paramComms(r, collective, nelems,
                   20 * kUs);  // gloo runs the call itself on its worker thread
        r.host += 20 * kUs;
      }
      r.ready = r.host;
    }
  };
  auto finish = [&](Rank& r, const char* range, int64_t end) {
    if (nccl) {
      GpuEvent& k = r.gpu[r.pending_comm].second;
      k.dur_ns = end - k.start_ns;
      r.compute_free = std::max(r.compute_free, end);  // the next compute waits on the collective
    } else {
      r.op(range, CpuCategory::kUserAnnotation, r.ready, end - r.ready, r.layout.autograd_tid);
      r.op("c10d::Work::wait", CpuCategory::kCpuOp, r.host, end - r.host);
      r.host = end;
    }
  };
  auto barrier = [&](int64_t transfer) {
    int64_t last = 0;
    for (const Rank& r : ranks_) last = std::max(last, r.ready);
    return last + transfer;
  };

  for (Rank& r : ranks_) {
    r.step_start = r.host;
    const double factor = planted(r, PlantedStraggler::kDataLoader) ? options_.loader_factor : 1.0;
    const int64_t loader = r.jitter(static_cast<int64_t>(factor * kLoaderNs), 0.03);
    r.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
         CpuCategory::kUserAnnotation, r.host, loader);
    r.host += loader + 20 * kUs;
    arrive(r, "broadcast", 53120, nccl ? "nccl:broadcast" : "gloo:broadcast",
           "ncclDevKernel_Broadcast_RING_LL", false);
  }
  const int64_t broadcast_end = barrier(kBroadcastNs);
  for (Rank& r : ranks_) {
    finish(r, "gloo:broadcast", broadcast_end);
    const bool syncs = planted(r, PlantedStraggler::kHostSync);
    const auto sync_work = static_cast<int64_t>(options_.sync_host_work_us * kUs);
    for (int layer = 0; layer < kLayers; ++layer) {
      r.op("aten::linear", CpuCategory::kCpuOp, r.host, 50 * kUs);
      r.computeKernel(r.host + 20 * kUs, kFwdKernel, r.jitter(kForwardNs, 0.01));
      r.host += 60 * kUs;
      if (syncs) r.hostSync(r.host), r.host += sync_work;
    }
    const int64_t extra = planted(r, PlantedStraggler::kBackward)
                              ? static_cast<int64_t>(options_.extra_backward_ms * kMs) / kLayers
                              : 0;
    for (int layer = 0; layer < kLayers; ++layer) {
      r.op("autograd::engine::evaluate_function: MmBackward0", CpuCategory::kCpuOp, r.host,
           60 * kUs);
      r.computeKernel(r.host + 15 * kUs, kBwdWeightKernel, r.jitter(kBackwardNs + extra, 0.01));
      r.computeKernel(r.host + 35 * kUs, kBwdInputKernel, r.jitter(kBackwardNs, 0.01));
      r.host += 70 * kUs;
      if (syncs) r.hostSync(r.host), r.host += sync_work;
    }
    arrive(r, "allreduce", 6637568, nccl ? "nccl:all_reduce" : "gloo:all_reduce",
           "ncclDevKernel_AllReduce_Sum_f32_RING_LL", true);
  }
  const int64_t allreduce_end = barrier(kAllReduceNs);
  for (Rank& r : ranks_) {
    finish(r, "gloo:all_reduce", allreduce_end);
    r.op("Optimizer.step#SGD.step", CpuCategory::kUserAnnotation, r.host, 80 * kUs);
    for (int k = 0; k < 3; ++k)
      r.computeKernel(r.host + 10 * kUs + k * 20 * kUs, "multi_tensor_apply_kernel",
                      r.jitter(kOptimizerNs, 0.01));
    r.host += 90 * kUs;
    r.hostSync(r.host);  // loss.item()
    const std::string step_name =
        "ProfilerStep#" + std::to_string(number);  // outlives the writes below
    r.op(step_name, CpuCategory::kUserAnnotation, r.step_start, r.host - r.step_start);
    std::string& o = out[static_cast<size_t>(r.index)];
    const KinetoFormatter format(r.layout), comm_format(r.comm_layout);
    for (CpuEvent e : r.cpu) {
      e.start_ns += r.clock_offset;
      format.cpu(o, e);
    }
    for (auto [comm, e] : r.gpu) {
      e.start_ns += r.clock_offset;
      (comm ? comm_format : format).gpu(o, e);
    }
    r.cpu.clear();
    r.gpu.clear();
    r.args_text.clear();
    r.host += 20 * kUs;
  }
}

void JobSynthesizer::end(std::vector<std::string>& out) {
  for (Rank& r : ranks_) {
    std::string& o = out[static_cast<size_t>(r.index)];
    const KinetoFormatter format(r.layout);
    format.span(o, r.clock_offset, r.host);
    format.footer(o, "rank" + std::to_string(r.index) + ".pt.trace.json");
  }
}

}  // namespace steplint::bench
