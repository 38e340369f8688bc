// The phases of one synthetic training step (see step_synth.h for the story they tell).
#include <algorithm>

#include "tracegen/step_synth.h"
#include "tracegen/synth_constants.h"

namespace steplint::bench {
using namespace names;  // constants only

void StepSynthesizer::step(int64_t number, std::string& out) {
  cpu_.clear();
  gpu_.clear();
  memory_.clear();
  fwdbwd_.clear();
  pending_.clear();
  step_name_ = "ProfilerStep#" + std::to_string(number);

  open(main_, step_name_, CpuCategory::kUserAnnotation);
  dataLoader(number);
  copyToDevice(kBatchBytes);
  copyToDevice(32 * 8);                                   // the int64 labels
  for (int i = 0; i < options_.extra_dtod_copies; ++i) {  // e.g. a .contiguous() the change added
    open(main_, "aten::copy_", CpuCategory::kCpuOp);
    copyAsync(main_, "Memcpy DtoD (Device -> Device)", kBatchBytes, kDeviceCopyGbps);
    close(main_);
  }
  zeroGrad();
  forward();
  backward();
  optimizerStep();
  lossItem();
  main_.now_ns += jitter(40 * kUs, 0.3);  // logging between loss.item() and the next batch
  close(main_);
  flush(out);
}

void StepSynthesizer::dataLoader(int64_t number) {
  // Every 10th batch hits a slow shard: the stall the README demo points at.
  double scale = number % 10 == 9 ? 2.5 : 1.0;
  auto total =
      jitter(static_cast<int64_t>(options_.dataloader_ms * scale * static_cast<double>(kMs)), 0.12);
  open(main_, kDataLoaderNext, CpuCategory::kUserAnnotation);
  main_.now_ns += total / 5;  // Python: sampler, PIL decode and augmentation (no ops recorded)
  open(main_, "aten::stack", CpuCategory::kCpuOp);
  open(main_, "aten::cat", CpuCategory::kCpuOp);
  main_.now_ns += total * 3 / 5;
  close(main_);
  close(main_);
  open(main_, "aten::div_", CpuCategory::kCpuOp);
  main_.now_ns += total / 10;
  close(main_);
  open(main_, "aten::sub_", CpuCategory::kCpuOp);
  main_.now_ns += total / 10;
  close(main_);
  close(main_);
}

void StepSynthesizer::copyToDevice(int64_t bytes) {
  open(main_, "aten::to", CpuCategory::kCpuOp);
  open(main_, "aten::_to_copy", CpuCategory::kCpuOp);
  open(main_, "aten::empty_strided", CpuCategory::kCpuOp);
  uint64_t addr = allocation(main_, bytes);
  close(main_);
  open(main_, "aten::copy_", CpuCategory::kCpuOp);
  copyAsync(main_, "Memcpy HtoD (Pageable -> Device)", bytes, kPageableGbps);
  streamSynchronize(main_);
  close(main_);
  close(main_);
  close(main_);
  batch_allocations_.push_back({bytes, addr});
}

void StepSynthesizer::zeroGrad() {
  open(main_, "Optimizer.zero_grad#SGD.zero_grad", CpuCategory::kUserAnnotation);
  for (int bucket = 0; bucket < 4;
       ++bucket) {  // ResNet-50's 25.6 M fp32 gradients in four flat buckets
    open(main_, "aten::zero_", CpuCategory::kCpuOp);
    open(main_, "aten::fill_", CpuCategory::kCpuOp);
    memsetAsync(main_, int64_t{25557032} * 4 / 4);
    close(main_);
    close(main_);
  }
  close(main_);
}

void StepSynthesizer::forward() {
  auto forwardOp = [&](BackwardKind kind, const Layer* layer, std::string_view top) {
    int64_t seq = sequence_++;
    open(main_, top, CpuCategory::kCpuOp, seq, 0);
    int64_t flow = ++flow_id_;
    fwdbwd_.push_back({'s', flow, main_.tid, cpu_[main_.open.back()].start_ns});
    pending_.push_back({kind, seq, flow, layer, 0});
  };
  for (const Layer& l : layers_) {
    forwardOp(BackwardKind::kConv, &l, "aten::conv2d");
    open(main_, "aten::convolution", CpuCategory::kCpuOp);
    open(main_, "aten::_convolution", CpuCategory::kCpuOp);
    open(main_, "aten::cudnn_convolution", CpuCategory::kCpuOp);
    main_.now_ns += jitter(12 * kUs, 0.3);  // cuDNN heuristics and descriptor setup
    pending_.back().activation_addr = allocation(main_, l.activation_bytes);
    launchKernel(main_, kConvFwd, l.conv, l.conv_ns);
    for (int i = 0; i < 4; ++i) close(main_);

    forwardOp(BackwardKind::kBatchNorm, &l, "aten::batch_norm");
    open(main_, "aten::_batch_norm_impl_index", CpuCategory::kCpuOp);
    open(main_, "aten::cudnn_batch_norm", CpuCategory::kCpuOp);
    pending_.back().activation_addr = allocation(main_, l.activation_bytes);
    launchKernel(main_, kBnFwd, l.bn, l.bn_ns);
    for (int i = 0; i < 3; ++i) close(main_);

    forwardOp(BackwardKind::kRelu, &l, "aten::relu_");
    open(main_, "aten::clamp_min_", CpuCategory::kCpuOp);
    launchKernel(main_, kReluFwd, l.relu, l.relu_ns);
    close(main_);
    close(main_);
  }
  forwardOp(BackwardKind::kLoss, nullptr, "aten::cross_entropy_loss");
  open(main_, "aten::log_softmax", CpuCategory::kCpuOp);
  open(main_, "aten::_log_softmax", CpuCategory::kCpuOp);
  KernelShape small;
  small.grid[0] = 32;
  small.block[0] = 128;
  small.active_blocks_per_sm = 16;
  launchKernel(main_, kSoftmaxFwd, small, 9 * kUs);
  close(main_);
  close(main_);
  open(main_, "aten::nll_loss_nd", CpuCategory::kCpuOp);
  open(main_, "aten::nll_loss", CpuCategory::kCpuOp);
  open(main_, "aten::nll_loss_forward", CpuCategory::kCpuOp);
  small.grid[0] = 1;
  small.block[0] = 32;
  launchKernel(main_, kNllFwd, small, 4 * kUs);
  for (int i = 0; i < 4; ++i) close(main_);
}

void StepSynthesizer::backward() {
  // loss.backward() hands the graph to the autograd thread; the main thread waits in Python.
  autograd_.now_ns = std::max(autograd_.now_ns, main_.now_ns + 25 * kUs);
  KernelShape small;
  small.grid[0] = 32;
  small.block[0] = 128;
  small.active_blocks_per_sm = 16;
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    static constexpr std::string_view kEngine[] = {
        "autograd::engine::evaluate_function: ConvolutionBackward0",
        "autograd::engine::evaluate_function: CudnnBatchNormBackward0",
        "autograd::engine::evaluate_function: ReluBackward0",
        "autograd::engine::evaluate_function: NllLossBackward0"};
    static constexpr std::string_view kNode[] = {"ConvolutionBackward0", "CudnnBatchNormBackward0",
                                                 "ReluBackward0", "NllLossBackward0"};
    static constexpr std::string_view kAten[] = {
        "aten::convolution_backward", "aten::cudnn_batch_norm_backward", "aten::threshold_backward",
        "aten::nll_loss_backward"};
    auto k = static_cast<size_t>(it->kind);
    open(autograd_, kEngine[k], CpuCategory::kCpuOp);
    fwdbwd_.push_back({'f', it->flow_id, autograd_.tid, cpu_[autograd_.open.back()].start_ns});
    open(autograd_, kNode[k], CpuCategory::kCpuOp, it->sequence_number, kLogicalMainThread);
    open(autograd_, kAten[k], CpuCategory::kCpuOp);
    const Layer* l = it->layer;
    switch (it->kind) {
      case BackwardKind::kConv:
        launchKernel(autograd_, kConvDgrad, l->conv, l->conv_ns);
        launchKernel(autograd_, kConvWgrad, l->conv, l->conv_ns * 11 / 10);
        break;
      case BackwardKind::kBatchNorm:
        launchKernel(autograd_, kBnBwd, l->bn, l->bn_ns * 3 / 2);
        break;
      case BackwardKind::kRelu:
        launchKernel(autograd_, kReluBwd, l->relu, l->relu_ns * 3 / 2);
        break;
      case BackwardKind::kLoss:
        launchKernel(autograd_, kNllBwd, small, 4 * kUs);
        launchKernel(autograd_, kSoftmaxBwd, small, 8 * kUs);
        break;
    }
    if (it->activation_addr != 0) allocation(autograd_, -l->activation_bytes, it->activation_addr);
    for (int i = 0; i < 3; ++i) close(autograd_);
  }
  main_.now_ns = std::max(main_.now_ns, autograd_.now_ns) + jitter(15 * kUs, 0.3);
}

void StepSynthesizer::optimizerStep() {
  open(main_, "Optimizer.step#SGD.step", CpuCategory::kUserAnnotation);
  KernelShape apply;
  apply.grid[0] = 2048;
  apply.block[0] = 512;
  apply.registers_per_thread = 40;
  apply.active_blocks_per_sm = 4;
  static constexpr std::string_view kOps[] = {"aten::_foreach_mul_", "aten::_foreach_add_",
                                              "aten::_foreach_add_", "aten::_foreach_add_"};
  for (int i = 0; i < 4; ++i) {  // weight decay, momentum buffer, momentum add, parameter update
    open(main_, kOps[i], CpuCategory::kCpuOp);
    launchKernel(main_, i == 0 ? kForeachMul : kForeachAdd, apply, 260 * kUs);
    close(main_);
  }
  close(main_);
}

void StepSynthesizer::lossItem() {
  // loss.item(): a 4-byte copy to pageable memory that waits for the whole queue (host sync).
  open(main_, "aten::item", CpuCategory::kCpuOp);
  open(main_, "aten::_local_scalar_dense", CpuCategory::kCpuOp);
  copyAsync(main_, "Memcpy DtoH (Device -> Pageable)", 4, kPageableGbps);
  streamSynchronize(main_);
  close(main_);
  close(main_);
  for (const auto& [bytes, addr] : batch_allocations_) allocation(main_, -bytes, addr);
  batch_allocations_.clear();
}

void StepSynthesizer::flush(std::string& out) {
  for (const CpuEvent& e : cpu_) format_.cpu(out, e);
  for (const FlowMark& f : fwdbwd_) format_.fwdbwdFlow(out, f.phase, f.id, f.tid, f.ts_ns);
  for (const MemoryInstant& m : memory_) format_.memory(out, m);
  for (const GpuEvent& g : gpu_) format_.gpu(out, g);
}

void StepSynthesizer::end(std::string& out, std::string_view trace_name) {
  int64_t last = std::max({main_.now_ns, autograd_.now_ns, gpu_free_ns_});
  format_.span(out, trace_start_ns_, last - trace_start_ns_);
  format_.globalInstant(out, "Record Window End", "", "", last + 10 * kUs);
  format_.footer(out, trace_name);
}

}  // namespace steplint::bench
