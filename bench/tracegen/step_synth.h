// Synthesizes the events of a ResNet-50-like training loop, one ProfilerStep at a time.
//
// The story the numbers tell (the README demo relies on it): the DataLoader runs in the main
// process and takes ~40 % of every step (2.5x longer every 10th step) while the GPU idles;
// the batch is copied from pageable memory with a cudaStreamSynchronize after it; the step
// ends with loss.item(), a host sync that waits for the whole backward pass to drain.
// Everything is derived from one seeded generator, so equal options give equal bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tracegen/kineto_format.h"

namespace steplint::bench {

struct SynthOptions {
  double dataloader_ms = 45.0;
  int kernels_per_step = 379;  // 53 conv/bn/relu triples (ResNet-50) -> 379 kernels
  uint64_t seed = 1;
  // Run pairs for `steplint diff` and the regression gate (docs/benchmarks.md). The defaults
  // leave the output byte-identical to earlier versions for a given seed.
  uint64_t noise_seed =
      0;  // != 0: the model (layer sizes) from `seed`, the per-event noise from this
  double kernel_slowdown = 1.0;  // every kernel's mean duration times this (a planted slowdown)
  int extra_dtod_copies = 0;     // device-to-device copies added after the input copy, per step
};

class StepSynthesizer {
 public:
  StepSynthesizer(const SynthOptions& options, const TraceLayout& layout);

  /// Header, metadata events and the iteration marker.
  void begin(std::string& out);
  /// All events of ProfilerStep#`number`, CPU side first, then the device side.
  void step(int64_t number, std::string& out);
  /// Span event, Record Window End, closing brackets and traceName.
  void end(std::string& out, std::string_view trace_name);

 private:
  struct Layer {
    int64_t conv_ns, bn_ns, relu_ns;
    int64_t activation_bytes;
    KernelShape conv, bn, relu;
  };
  struct Thread {
    int64_t tid = 0;
    int64_t now_ns = 0;
    std::vector<size_t> open;  // indices into cpu_ of the ops enclosing `now`
  };
  enum class BackwardKind : uint8_t { kConv, kBatchNorm, kRelu, kLoss };
  struct PendingBackward {
    BackwardKind kind;
    int64_t sequence_number;
    int64_t flow_id;
    const Layer* layer;
    uint64_t activation_addr;
  };
  struct FlowMark {
    char phase;
    int64_t id, tid, ts_ns;
  };

  // Deterministic randomness (splitmix64).
  uint64_t next();
  double uniform();  // [0, 1)
  int64_t jitter(int64_t ns, double spread);

  size_t open(Thread& t, std::string_view name, CpuCategory category, int64_t sequence_number = -1,
              int64_t fwd_thread_id = -1);
  void close(Thread& t);
  int64_t currentExternalId(const Thread& t) const;
  size_t runtimeCall(Thread& t, std::string_view name, int32_t cbid, int64_t dur_ns);
  void launchKernel(Thread& t, std::string_view name, const KernelShape& shape, int64_t mean_ns);
  void copyAsync(Thread& t, std::string_view name, int64_t bytes, double gbytes_per_s);
  void memsetAsync(Thread& t, int64_t bytes);
  void streamSynchronize(Thread& t);
  /// Records an allocation (bytes > 0, returns the new address) or a free of `addr` (bytes < 0).
  uint64_t allocation(Thread& t, int64_t bytes, uint64_t addr = 0);

  void dataLoader(int64_t number);
  void copyToDevice(int64_t bytes);
  void zeroGrad();
  void forward();
  void backward();
  void optimizerStep();
  void lossItem();
  void flush(std::string& out);

  SynthOptions options_;
  TraceLayout layout_;
  KinetoFormatter format_;
  std::vector<Layer> layers_;
  uint64_t rng_;

  Thread main_, autograd_;
  int64_t gpu_free_ns_ = 0;  // when the stream finishes the work queued so far
  int64_t trace_start_ns_ = 0;
  int64_t external_id_ = 0, correlation_ = 0, ev_idx_ = 0, sequence_ = 0, flow_id_ = 0;
  int64_t allocated_ = 0, reserved_ = 0;
  uint64_t next_addr_ = 0x7f3a40000000;

  std::string step_name_;
  std::vector<CpuEvent> cpu_;
  std::vector<GpuEvent> gpu_;
  std::vector<MemoryInstant> memory_;
  std::vector<FlowMark> fwdbwd_;
  std::vector<PendingBackward> pending_;
  std::vector<std::pair<int64_t, uint64_t>> batch_allocations_;  // freed after loss.item()
};

}  // namespace steplint::bench
