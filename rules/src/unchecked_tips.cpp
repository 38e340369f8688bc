#include "steplint/rules/unchecked_tips.h"

namespace steplint::rules {

const std::vector<UncheckedTip>& uncheckedTips() {
  static const std::vector<UncheckedTip> kTips = {
      {"batch-normalization",
       "add normalization layers (BatchNorm, LayerNorm) to train deep nets with larger learning rates",
       "its gain is in convergence (fewer steps to a given loss), and a trace records how long steps take, never the "
       "loss; the normalization kernels' own time shows like any other kernel's (SL302, SL305)"},
      {"gradient-clipping", "clip gradients (clip_grad_norm_) to keep training stable",
       "whether to clip is a convergence decision no trace can judge; how the clipping runs is a speed cost a trace "
       "shows: SL606 per-parameter-grad-clipping"},
      {"input-normalization", "normalize inputs to zero mean and unit variance",
       "it changes how many steps training needs, not how long a step takes; a trace holds neither the input "
       "statistics nor the loss, and normalizing on the GPU costs a few elementwise kernels (SL302 if they matter)"},
  };
  return kTips;
}

const UncheckedTip* findUncheckedTip(std::string_view topic) {
  for (const UncheckedTip& tip : uncheckedTips())
    if (tip.topic == topic) return &tip;
  return nullptr;
}

}  // namespace steplint::rules
