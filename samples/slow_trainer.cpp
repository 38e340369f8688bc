// slow_trainer: a small LibTorch classifier with the input-pipeline and synchronisation
// mistakes steplint finds (its fixed twin is fast_trainer.cpp). Each mistake is a switch
// (sample_mistakes.h; all on by default) whose fix changes only that one thing, so
// bench/savings can measure what fixing it alone saves:
//   * loader-inline: DataLoader with 0 workers over a data set that builds every sample on
//     the fly (SL101);
//   * item-sync: loss.item() every step: a host sync per step (SL202 on a GPU);
//   * zero-grad-fill: zero_grad() that zeroes gradients instead of setting them to None (SL601);
//   * pageable-copy: batches in pageable host memory, blocking copies (SL201, SL203);
//   * cpu-scalar: a per-step scalar created on the CPU and moved to the device (SL204);
//   * batch-unaligned: batch size 100, not a multiple of 8/64 (SL403);
//   * cudnn-benchmark-off: cudnn.benchmark off (SL304);
//   * fp32-matmul: FP32 matmuls without TF32 on a GPU (SL303).
//
//   ./slow_trainer [--device cpu|cuda] [--steps N] [--steplint-steps] [--mistakes
//   all|none|NAME,...]
//                  [--fix NAME,...]
//   steplint record -- ./slow_trainer --steps 30
#include <cstdio>

#include "reference_profiler.h"
#include "sample_loop.h"
#include "sample_model.h"

using namespace steplint::samples;  // sample program

namespace {

/// The model, its optimizer and one training step, with each mistake on or off.
class Trainer {
 public:
  Trainer(const MistakeSet& mistakes, torch::Device device)
      : mistakes_(mistakes),
        device_(device),
        model_(onDevice(Mlp(sampleShape(device.is_cuda())), device)),
        optimizer_(model_->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9)),
        loss_on_device_(torch::zeros({}, torch::TensorOptions().device(device))) {}

  void step(torch::data::Example<>& batch) {
    const bool pinned = device_.is_cuda() && !on(Mistake::kPageableCopy);
    // The inline loader stacks pageable batches; pinning them here is what Python's
    // DataLoader(pin_memory=True) does with 0 workers. The materialised one gathers pinned.
    if (pinned && !batch.data.is_pinned())
      batch = {batch.data.pin_memory(), batch.target.pin_memory()};
    torch::Tensor x = batch.data.to(device_, /*non_blocking=*/pinned);
    torch::Tensor y = batch.target.to(device_, /*non_blocking=*/pinned);
    torch::Tensor scale = on(Mistake::kCpuScalar)
                              ? torch::tensor({1.0f}).to(device_)  // built on the CPU
                              : torch::ones({1}, torch::TensorOptions().device(device_));
    {
      // The names torch.optim's hooks give these ranges in Python; LibTorch has none (SL601).
      RECORD_USER_SCOPE("Optimizer.zero_grad#SGD.zero_grad");
      zeroGrad(optimizer_, *model_, /*set_to_none=*/!on(Mistake::kZeroGradFill));
    }
    torch::Tensor loss = torch::nn::functional::cross_entropy(model_->forward(x) * scale, y);
    loss.backward();
    {
      RECORD_USER_SCOPE("Optimizer.step#SGD.step");
      optimizer_.step();
    }
    if (on(Mistake::kItemSync)) {
      loss_on_host_ += loss.item<double>();  // host sync every step
    } else {
      loss_on_device_ += loss.detach();  // stays on the device: read once in lossSum()
    }
  }

  // With item-sync on, the sum is on the host already: no extra aten::item in the trace.
  double lossSum() const {
    return on(Mistake::kItemSync) ? loss_on_host_ : loss_on_device_.item<double>();
  }

 private:
  static Mlp onDevice(Mlp model, torch::Device device) {
    model->to(device);  // before the optimizer takes its parameters, as a trainer does
    return model;
  }
  bool on(Mistake m) const { return mistakes_.has(m); }

  MistakeSet mistakes_;
  torch::Device device_;
  Mlp model_;
  torch::optim::SGD optimizer_;
  double loss_on_host_ = 0;
  torch::Tensor loss_on_device_;
};

template <typename Loader>
int train(Loader& loader, Trainer& trainer, const SampleOptions& options) {
  ReferenceProfiler reference;
  if (!reference.start(options, options.device == "cuda")) return 2;
  const double mean_ms =
      runSteps(loader, options, [&](torch::data::Example<>& batch) { trainer.step(batch); });
  reference.stop();
  printStepTime("slow_trainer", options.steps, mean_ms);
  std::printf("slow_trainer: mean loss %.4f\n",
              trainer.lossSum() / static_cast<double>(options.steps));
  return options.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  SampleOptions options;
  if (!parseSampleOptions(argc, argv, &options)) return 2;
  const bool cuda = options.device == "cuda";
  if (cuda && !torch::cuda::is_available()) {
    std::fprintf(stderr, "slow_trainer: --device cuda but CUDA is not available\n");
    return 2;
  }
  const MistakeSet& mistakes = options.mistakes;
  const torch::Device device(cuda ? torch::kCUDA : torch::kCPU);
  torch::manual_seed(0);
  at::globalContext().setBenchmarkCuDNN(!mistakes.has(Mistake::kCudnnBenchmarkOff));
  if (cuda && !mistakes.has(Mistake::kFp32Matmul)) at::globalContext().setAllowTF32CuBLAS(true);
  const int64_t batch_size = mistakes.has(Mistake::kBatchUnaligned) ? 100 : 128;
  printMistakes("slow_trainer", mistakes, batch_size);

  const int64_t features = sampleShape(cuda).features;
  Trainer trainer(mistakes, device);
  auto loader_options = torch::data::DataLoaderOptions().batch_size(batch_size).drop_last(true);
  if (mistakes.has(Mistake::kLoaderInline)) {
    auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        SlowDataset(features).map(torch::data::transforms::Stack<>()),
        loader_options.workers(loaderWorkers(options, 0)));
    return train(*loader, trainer, options);
  }
  // fast_trainer's input pipeline (on a GPU, 2 worker threads gather into pinned memory).
  const bool pinned = cuda && !mistakes.has(Mistake::kPageableCopy);
  auto loader = torch::data::make_data_loader(
      InMemoryDataset(pinned, features), torch::data::samplers::RandomSampler(kDatasetSize),
      loader_options.workers(loaderWorkers(options, cuda ? 2 : 0)));
  return train(*loader, trainer, options);
}
