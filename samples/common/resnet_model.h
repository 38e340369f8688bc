// ResNet-50 (He et al. 2015, torchvision's layout: bottleneck blocks [3, 4, 6, 3], stride on
// the 3x3 convolution) for resnet_trainer. Header-only and torch-including: only
// resnet_trainer.cpp includes it (docs/reference/toolchain.md §8). torchvision has no C++
// library in Debian or in the torch wheel, so the few layers are written out here.
#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace steplint::samples {

/// 1x1 reduce, 3x3 (carrying the stride), 1x1 expand by 4, each with batch norm; the shortcut
/// is a strided 1x1 projection where the shape changes.
struct BottleneckImpl : torch::nn::Module {
  BottleneckImpl(int64_t in_channels, int64_t width, int64_t stride)
      : conv1(register_module("conv1", conv(in_channels, width, 1, 1))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(width))),
        conv2(register_module("conv2", conv(width, width, 3, stride))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(width))),
        conv3(register_module("conv3", conv(width, width * 4, 1, 1))),
        bn3(register_module("bn3", torch::nn::BatchNorm2d(width * 4))) {
    if (stride != 1 || in_channels != width * 4) {
      downsample = register_module("downsample",
                                   torch::nn::Sequential(conv(in_channels, width * 4, 1, stride),
                                                         torch::nn::BatchNorm2d(width * 4)));
    }
  }

  torch::Tensor forward(const torch::Tensor& x) {
    torch::Tensor out = torch::relu(bn1->forward(conv1->forward(x)));
    out = torch::relu(bn2->forward(conv2->forward(out)));
    out = bn3->forward(conv3->forward(out));
    return torch::relu(out + (downsample ? downsample->forward(x) : x));
  }

  static torch::nn::Conv2d conv(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
    return torch::nn::Conv2d(
        torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false));
  }

  // In initialisation order (conv, its batch norm, ...).
  torch::nn::Conv2d conv1;
  torch::nn::BatchNorm2d bn1;
  torch::nn::Conv2d conv2;
  torch::nn::BatchNorm2d bn2;
  torch::nn::Conv2d conv3;
  torch::nn::BatchNorm2d bn3;
  torch::nn::Sequential downsample{nullptr};
};
TORCH_MODULE(Bottleneck);

struct ResNet50Impl : torch::nn::Module {
  explicit ResNet50Impl(int64_t classes)
      : stem(register_module(
            "stem",
            torch::nn::Sequential(
                torch::nn::Conv2d(
                    torch::nn::Conv2dOptions(3, 64, 7).stride(2).padding(3).bias(false)),
                torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
                torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(3).stride(2).padding(1))))),
        fc(register_module("fc", torch::nn::Linear(2048, classes))) {
    const int64_t blocks[4] = {3, 4, 6, 3};
    int64_t in_channels = 64;
    for (int64_t stage = 0; stage < 4; ++stage) {
      const int64_t width = int64_t{64} << stage;
      torch::nn::Sequential layer;
      for (int64_t b = 0; b < blocks[stage]; ++b) {
        layer->push_back(Bottleneck(in_channels, width, b == 0 && stage > 0 ? 2 : 1));
        in_channels = width * 4;
      }
      layers.push_back(register_module("layer" + std::to_string(stage + 1), layer));
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    x = stem->forward(x);
    for (auto& layer : layers) x = layer->forward(x);
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    return fc->forward(x);
  }

  torch::nn::Sequential stem;
  std::vector<torch::nn::Sequential> layers;
  torch::nn::Linear fc;
};
TORCH_MODULE(ResNet50);

}  // namespace steplint::samples
