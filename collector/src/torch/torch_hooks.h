// Internals shared by the torch source's two TUs (torch_hooks.cpp: RecordFunction callbacks;
// torch_describe.cpp: run metadata). Nothing here includes torch headers, so it can be unit
// tested without LibTorch.
#pragma once

#include <cstdint>
#include <string_view>

namespace steplint::collector::torch_hooks {

/// Scope codes of at::RecordScope that the callbacks care about (stable since torch 1.8).
enum class OpScope : uint8_t { kFunction = 0, kBackwardFunction = 1, kUserScope = 7, kOther = 255 };

/// HostFlag bits implied by an op's name and scope alone (host sync for scalar reads, backward
/// for autograd nodes, step / DataLoader for ranges named like torch.profiler's).
uint8_t flagsForOp(std::string_view name, OpScope scope) noexcept;

/// Adds the torch_version, intra_op_threads, cudnn_* / allow_tf32_* and cuda_available
/// metadata keys (torch_describe.cpp), each read on its own. Never throws. report_status: set
/// the torch source's status, naming the values it could not read (the reads at step
/// boundaries and at stop; the start's status is the source's own).
void describeTorchRuntime(bool report_status) noexcept;

}  // namespace steplint::collector::torch_hooks
