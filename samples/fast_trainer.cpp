// fast_trainer: slow_trainer.cpp with its problems fixed:
//   * a data set materialised once, one index_select per batch (no per-sample work);
//   * no per-step .item(): the loss is accumulated on the device and read once at the end;
//   * zero_grad with set_to_none (torch 2.x; on 1.13 the gradients are reset by hand);
//   * pinned host memory and non_blocking copies; per-step tensors created on the device;
//   * batch size 128 (512 on a GPU, where the loader runs on 2 worker threads so batches are
//     ready before the GPU needs them), cudnn.benchmark on, TF32 matmuls on a GPU.
//
//   ./fast_trainer [--device cpu|cuda] [--steps N] [--steplint-steps]
#include <cstdio>

#include "reference_profiler.h"
#include "sample_loop.h"
#include "sample_model.h"

using namespace steplint::samples;  // sample program

int main(int argc, char** argv) {
  SampleOptions options;
  if (!parseSampleOptions(argc, argv, &options)) return 2;
  if (options.mistakes_given) {
    std::fprintf(
        stderr,
        "fast_trainer: --mistakes and --fix are slow_trainer's switches (slow_trainer --mistakes none "
        "is the slow sample with every mistake fixed)\n");
    return 2;
  }
  const bool cuda = options.device == "cuda";
  if (cuda && !torch::cuda::is_available()) {
    std::fprintf(stderr, "fast_trainer: --device cuda but CUDA is not available\n");
    return 2;
  }
  const torch::Device device(cuda ? torch::kCUDA : torch::kCPU);
  torch::manual_seed(0);
  at::globalContext().setBenchmarkCuDNN(true);
  if (cuda) at::globalContext().setAllowTF32CuBLAS(true);  // tensor cores for FP32 matmuls (SL303)

  const SampleShape shape = sampleShape(cuda);
  Mlp model(shape);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  auto loader = torch::data::make_data_loader(InMemoryDataset(/*pinned=*/cuda, shape.features),
                                              torch::data::samplers::RandomSampler(kDatasetSize),
                                              torch::data::DataLoaderOptions()
                                                  .batch_size(cuda ? 512 : 128)
                                                  .workers(loaderWorkers(options, cuda ? 2 : 0))
                                                  .drop_last(true));

  ReferenceProfiler reference;
  if (!reference.start(options, cuda)) return 2;
  torch::Tensor loss_sum = torch::zeros({}, torch::TensorOptions().device(device));
  const double mean_ms = runSteps(*loader, options, [&](torch::data::Example<>& batch) {
    tunedTrainStep(model, optimizer, batch, device, loss_sum);
  });
  reference.stop();
  printStepTime("fast_trainer", options.steps, mean_ms);
  std::printf("fast_trainer: mean loss %.4f\n",
              loss_sum.item<double>() / static_cast<double>(options.steps));
  return options.exit_code;
}
