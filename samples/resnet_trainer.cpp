// resnet_trainer: a ResNet-50 trained the way the guidance says (the collector-overhead
// benchmark's large trainer, issue 16): batch 64 of 224x224 images on a GPU, pinned batches
// copied with non_blocking, cudnn.benchmark and TF32 on, zero_grad(set_to_none), no per-step
// host sync. About 160 convolutions, 1,500 recorded ops and as many kernels a step: the
// collector's per-op and per-kernel costs against a step that is long enough to matter.
// On the CPU (tests, this machine's 2 cores) the images are 64x64 and the batch 4.
//
//   ./resnet_trainer [--device cpu|cuda] [--steps N] [--steplint-steps] [--kineto-profile FILE]
#include <cstdio>

#include "reference_profiler.h"
#include "resnet_model.h"
#include "sample_loop.h"
#include "sample_model.h"

using namespace steplint::samples;  // NOLINT(google-build-using-namespace): sample program

namespace {

constexpr int64_t kPoolBatches = 4;  // distinct batches cycled through: real copies every step

/// kPoolBatches synthetic batches made once (in pinned memory on a GPU run); a "batch" is one
/// of them, so the input pipeline costs nothing and the step is the model's.
class PooledImages
    : public torch::data::datasets::BatchDataset<PooledImages, torch::data::Example<>> {
 public:
  PooledImages(int64_t batch, int64_t image_size, bool pinned) : batch_(batch) {
    for (int64_t i = 0; i < kPoolBatches; ++i) {
      torch::Tensor images = torch::randn({batch, 3, image_size, image_size});
      torch::Tensor labels = torch::randint(kClasses, {batch}, torch::kLong);
      images_.push_back(pinned ? images.pin_memory() : images);
      labels_.push_back(pinned ? labels.pin_memory() : labels);
    }
  }
  torch::data::Example<> get_batch(torch::ArrayRef<size_t> indices) override {
    const auto slot =
        static_cast<size_t>(indices.empty() ? 0 : indices[0] / static_cast<size_t>(batch_));
    return {images_[slot % kPoolBatches], labels_[slot % kPoolBatches]};
  }
  torch::optional<size_t> size() const override {
    return static_cast<size_t>(batch_ * kPoolBatches);
  }

 private:
  int64_t batch_;
  std::vector<torch::Tensor> images_, labels_;
};

}  // namespace

int main(int argc, char** argv) {
  SampleOptions options;
  if (!parseSampleOptions(argc, argv, &options)) return 2;
  if (options.mistakes_given) {
    std::fprintf(stderr, "resnet_trainer: --mistakes and --fix are slow_trainer's switches\n");
    return 2;
  }
  const bool cuda = options.device == "cuda";
  if (cuda && !torch::cuda::is_available()) {
    std::fprintf(stderr, "resnet_trainer: --device cuda but CUDA is not available\n");
    return 2;
  }
  const torch::Device device(cuda ? torch::kCUDA : torch::kCPU);
  torch::manual_seed(0);
  at::globalContext().setBenchmarkCuDNN(true);
  if (cuda) {
    at::globalContext().setAllowTF32CuBLAS(true);
    at::globalContext().setAllowTF32CuDNN(true);
  }
  const int64_t batch = cuda ? 64 : 4;
  ResNet50 model(kClasses);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  auto loader = torch::data::make_data_loader(
      PooledImages(batch, cuda ? 224 : 64, /*pinned=*/cuda),
      torch::data::samplers::SequentialSampler(static_cast<size_t>(batch * kPoolBatches)),
      torch::data::DataLoaderOptions().batch_size(static_cast<size_t>(batch)).workers(0));

  ReferenceProfiler reference;
  if (!reference.start(options, cuda)) return 2;
  torch::Tensor loss_sum = torch::zeros({}, torch::TensorOptions().device(device));
  const double mean_ms = runSteps(*loader, options, [&](torch::data::Example<>& example) {
    tunedTrainStep(model, optimizer, example, device, loss_sum);
  });
  reference.stop();
  printStepTime("resnet_trainer", options.steps, mean_ms);
  std::printf("resnet_trainer: mean loss %.4f\n",
              loss_sum.item<double>() / static_cast<double>(options.steps));
  return options.exit_code;
}
