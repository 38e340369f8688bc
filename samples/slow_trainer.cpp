// slow_trainer: a small LibTorch classifier with the input-pipeline and synchronisation
// mistakes steplint finds (its fixed twin is fast_trainer.cpp):
//   * DataLoader with 0 workers over a data set that builds every sample on the fly (SL101);
//   * loss.item() every step: a host sync per step (SL202 on a GPU);
//   * zero_grad() that zeroes gradients instead of setting them to None;
//   * batches built in pageable host memory and copied to the device each step, plus a
//     per-step scalar created on the CPU and moved (SL2xx);
//   * batch size 100 (not a multiple of 8/64) and cudnn.benchmark off (SL403, SL304).
//
//   ./slow_trainer [--device cpu|cuda] [--steps N] [--steplint-steps]
//   steplint record -- ./slow_trainer --steps 30
#include <cstdio>

#include "reference_profiler.h"
#include "sample_loop.h"
#include "sample_model.h"

using namespace steplint::samples;  // NOLINT(google-build-using-namespace): sample program

int main(int argc, char** argv) {
  SampleOptions options;
  if (!parseSampleOptions(argc, argv, &options)) return 2;
  if (options.device == "cuda" && !torch::cuda::is_available()) {
    std::fprintf(stderr, "slow_trainer: --device cuda but CUDA is not available\n");
    return 2;
  }
  const torch::Device device(options.device == "cuda" ? torch::kCUDA : torch::kCPU);
  torch::manual_seed(0);
  at::globalContext().setBenchmarkCuDNN(false);

  const SampleShape shape = sampleShape(device.is_cuda());
  Mlp model(shape);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      SlowDataset(shape.features).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(100).workers(loaderWorkers(options, 0)).drop_last(true));

  ReferenceProfiler reference;
  if (!reference.start(options, device.is_cuda())) return 2;
  double loss_sum = 0;
  const double mean_ms = runSteps(*loader, options, [&](torch::data::Example<>& batch) {
    torch::Tensor x = batch.data.to(device);  // pageable memory, blocking copy
    torch::Tensor y = batch.target.to(device);
    torch::Tensor scale = torch::tensor({1.0f}).to(device);  // built on the CPU every step
    {
      // The names torch.optim's hooks give these ranges in Python; LibTorch has none (SL601).
      RECORD_USER_SCOPE("Optimizer.zero_grad#SGD.zero_grad");
#if TORCH_VERSION_MAJOR >= 2
      optimizer.zero_grad(/*set_to_none=*/false);
#else
      optimizer.zero_grad();  // 1.13: always zeroes (no set_to_none)
#endif
    }
    torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(x) * scale, y);
    loss.backward();
    {
      RECORD_USER_SCOPE("Optimizer.step#SGD.step");
      optimizer.step();
    }
    loss_sum += loss.item<double>();  // host sync every step
  });
  reference.stop();
  printStepTime("slow_trainer", options.steps, mean_ms);
  std::printf("slow_trainer: mean loss %.4f\n", loss_sum / static_cast<double>(options.steps));
  return options.exit_code;
}
