"""A launch-bound Python training loop for the collector overhead benchmark (python_overhead.py).

    python3 python_trainer.py --steps 200 [--device cuda] [--torch-profiler] [--width 512]

Batches are made once, in memory, so the step is the model and the optimizer only: an MLP of
`--layers` Linear+ReLU layers trained with SGD, a few hundred ops per step, as in the C++
fast sample. It prints one line, `mean_step_ms=<ms> steps=<n>`, over the steps after warm-up.
With `--torch-profiler` the loop runs inside torch.profiler (CPU, and CUDA on a GPU), the way
users profile today; its trace is exported after the timed loop, so export is not timed.
"""
import argparse
import os
import tempfile
import time

import torch
from torch import nn


def build(width, layers, device):
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(width, width), nn.ReLU()]
    model = nn.Sequential(*blocks, nn.Linear(width, 10)).to(device)
    return model, torch.optim.SGD(model.parameters(), lr=0.01), nn.CrossEntropyLoss()


def train(model, optimizer, criterion, batches, steps, device):
    """Runs `steps` steps; returns the wall time of all but the first `warmup` of them."""
    warmup = min(10, steps // 5)
    start = None
    for n in range(steps):
        if n == warmup:
            if device == "cuda":
                torch.cuda.synchronize()
            start = time.perf_counter()
        x, y = batches[n % len(batches)]
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    if device == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1000, steps - warmup


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--width", type=int, default=0, help="default: 256 on a GPU, 32 on the CPU")
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--torch-profiler", action="store_true")
    args = parser.parse_args()

    # On the CPU a narrow model, so that the step is per-op cost (as launches are on a GPU)
    # rather than matrix arithmetic.
    args.width = args.width or (256 if args.device == "cuda" else 32)
    torch.manual_seed(0)
    torch.set_num_threads(1)  # steadier CPU timings; the C++ samples run one intra-op thread too
    model, optimizer, criterion = build(args.width, args.layers, args.device)
    batches = [(torch.randn(args.batch_size, args.width, device=args.device),
                torch.randint(0, 10, (args.batch_size,), device=args.device)) for _ in range(4)]
    if not args.torch_profiler:
        elapsed_ms, timed = train(model, optimizer, criterion, batches, args.steps, args.device)
    else:
        activities = [torch.profiler.ProfilerActivity.CPU]
        if args.device == "cuda":
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        with torch.profiler.profile(activities=activities) as prof:
            elapsed_ms, timed = train(model, optimizer, criterion, batches, args.steps, args.device)
        with tempfile.TemporaryDirectory() as tmp:  # exported, as users do, after the timing
            prof.export_chrome_trace(os.path.join(tmp, "trace.json"))
    print(f"mean_step_ms={elapsed_ms / timed:.4f} steps={timed}", flush=True)


if __name__ == "__main__":
    main()
