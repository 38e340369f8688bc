// The model and data shared by the sample trainers. Header-only and torch-including: each
// sample has exactly one TU that includes it (docs/reference/toolchain.md §8).
#pragma once

#include <torch/torch.h>
#include <torch/version.h>  // TORCH_VERSION_MAJOR for zeroGrad

#include <chrono>
#include <cstdint>
#include <thread>

namespace steplint::samples {

constexpr int64_t kClasses = 10;
constexpr int64_t kDatasetSize = 4096;

/// Model and input size. On the CPU the samples must finish in seconds on 2 cores; on a GPU
/// the work must be large enough that the GPU, not the launch overhead, bounds the fixed
/// sample (an H100 runs the CPU-sized model in microseconds), and that a batch of inputs is
/// over SL201's 1 MiB per step.
struct SampleShape {
  int64_t features;
  int64_t hidden;
};
inline SampleShape sampleShape(bool cuda) {
  return cuda ? SampleShape{4096, 4096} : SampleShape{64, 256};
}

/// An MLP classifier: three Linear layers (aten::addmm), ReLU, cross-entropy.
struct MlpImpl : torch::nn::Module {
  explicit MlpImpl(SampleShape shape)
      : fc1(register_module("fc1", torch::nn::Linear(shape.features, shape.hidden))),
        fc2(register_module("fc2", torch::nn::Linear(shape.hidden, shape.hidden))),
        fc3(register_module("fc3", torch::nn::Linear(shape.hidden, kClasses))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    x = torch::relu(fc2->forward(x));
    return fc3->forward(x);
  }
  torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Mlp);

/// Builds each sample on demand with a per-sample CPU "augmentation" (normalisation plus a
/// short sleep standing in for decoding), the slow input pipeline of slow_trainer.
class SlowDataset : public torch::data::datasets::Dataset<SlowDataset> {
 public:
  explicit SlowDataset(int64_t features) : features_(features) {}
  torch::data::Example<> get(size_t index) override {
    torch::Tensor x = torch::randn({features_});
    x = torch::tanh((x - x.mean()) * 0.5);  // (x.std() would read a scalar: aten::item)
    std::this_thread::sleep_for(std::chrono::microseconds(60));
    return {x, torch::tensor(static_cast<int64_t>(index % kClasses))};
  }
  torch::optional<size_t> size() const override { return kDatasetSize; }

 private:
  int64_t features_;
};

/// The whole data set materialised once; a batch is one index_select (fast_trainer). With
/// `pinned`, the batch is gathered straight into page-locked memory (one copy per batch,
/// not a gather then a pin_memory() copy), so host-to-device copies can be asynchronous.
class InMemoryDataset
    : public torch::data::datasets::BatchDataset<InMemoryDataset, torch::data::Example<>> {
 public:
  InMemoryDataset(bool pinned, int64_t features)
      : data_(torch::randn({kDatasetSize, features})),
        targets_(torch::arange(kDatasetSize, torch::kLong).remainder(kClasses)),
        pinned_(pinned) {}
  torch::data::Example<> get_batch(torch::ArrayRef<size_t> indices) override {
    std::vector<int64_t> idx(indices.begin(), indices.end());
    const torch::Tensor index = torch::tensor(idx, torch::kLong);
    const auto n = static_cast<int64_t>(idx.size());
    torch::Tensor x = torch::empty({n, data_.size(1)}, data_.options().pinned_memory(pinned_));
    torch::Tensor y = torch::empty({n}, targets_.options().pinned_memory(pinned_));
    torch::index_select_out(x, data_, 0, index);
    torch::index_select_out(y, targets_, 0, index);
    return {x, y};
  }
  torch::optional<size_t> size() const override { return kDatasetSize; }

 private:
  torch::Tensor data_, targets_;
  bool pinned_;
};

/// zero_grad as the samples call it: `set_to_none` drops the gradients (the fix of SL601),
/// otherwise they are zeroed in place.
inline void zeroGrad(torch::optim::Optimizer& optimizer, torch::nn::Module& model,
                     bool set_to_none) {
#if TORCH_VERSION_MAJOR >= 2
  (void)model;
  optimizer.zero_grad(set_to_none);
#else
  if (!set_to_none) {
    optimizer.zero_grad();  // 1.13: always zeroes (no set_to_none)
    return;
  }
  // 1.13's zero_grad() cannot set to None: drop the gradients ourselves
  for (torch::Tensor& p : model.parameters()) p.mutable_grad().reset();
#endif
}

/// One step done as the guidance says (fast_trainer, resnet_trainer): the batch copied with
/// non_blocking, zero_grad(set_to_none), forward, cross-entropy, backward, SGD step, and the
/// loss summed on the device, so nothing in the step waits for the GPU.
template <typename Model>
void tunedTrainStep(Model& model, torch::optim::Optimizer& optimizer,
                    const torch::data::Example<>& batch, const torch::Device& device,
                    torch::Tensor& loss_sum) {
  torch::Tensor x = batch.data.to(device, /*non_blocking=*/true);
  torch::Tensor y = batch.target.to(device, /*non_blocking=*/true);
  {
    RECORD_USER_SCOPE("Optimizer.zero_grad#SGD.zero_grad");
    zeroGrad(optimizer, *model, /*set_to_none=*/true);
  }
  torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(x), y);
  loss.backward();
  {
    RECORD_USER_SCOPE("Optimizer.step#SGD.step");
    optimizer.step();
  }
  loss_sum += loss.detach();  // stays on the device: no sync
}

}  // namespace steplint::samples
