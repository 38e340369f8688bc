"""Records the CPU traces in this directory with torch.profiler (Debian's python3-torch 1.13).

Debian's build has no Kineto, so export_chrome_trace writes the legacy format: a JSON array,
no categories, no args (no shapes), no Python frames. That is the format steplint must read
without the help of any of those.

    /usr/bin/python3 record.py    # apt-get install python3-torch python3-numpy

Each optimizer trace: a 2-layer MLP, batch 64, 6 iterations, ProfilerStep#1..4 kept (wait 1,
warmup 1). The step traces (STEP_VARIANTS) record how torch 1.13 names and nests its
ProfilerStep ranges.
"""
import gzip
import json

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

VARIANTS = {
    # name: (optimizer, weight_decay, foreach, torch.tensor(array) per step)
    "adam_l2_foreach_tensor_copy": ("Adam", 0.01, True, True),
    "adam_l2_single_from_numpy": ("Adam", 0.01, False, False),
    "adamw_single_from_numpy": ("AdamW", 0.01, False, False),
    "adam_single_no_wd": ("Adam", 0.0, False, False),
}


def record(name, optimizer, weight_decay, foreach, copy_arrays):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
    opt = getattr(torch.optim, optimizer)(model.parameters(), lr=1e-3, weight_decay=weight_decay, foreach=foreach)
    rng = np.random.default_rng(0)
    data = rng.random((64, 256), dtype=np.float32)
    side = rng.random((2048, 1024), dtype=np.float32)  # 8 MiB: a copy worth finding
    labels = list(range(10)) * 6 + [0, 1, 2, 3]
    convert = torch.tensor if copy_arrays else torch.from_numpy
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_stack=True,
                 schedule=schedule(wait=1, warmup=1, active=4)) as prof:
        for _ in range(6):
            x, extra = convert(data), convert(side)
            y = torch.tensor(labels)  # a Python list: as_tensor would convert it too
            loss = torch.nn.functional.cross_entropy(model(x), y) + extra.mean() * 0
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            prof.step()
    path = f"{name}.json"
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)
    with gzip.open(f"{name}.json.gz", "wt") as f:
        json.dump(events, f, separators=(",", ":"))


def small_mlp():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = torch.randn(16, 64), torch.randint(0, 10, (16,))

    def train_step():
        with record_function("train_step"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()

    def evaluate():
        with torch.no_grad(), record_function("eval_step"):
            model(x)

    return train_step, evaluate


def record_nested_eval(path):
    """A training profiler that records from its first step, and inside every iteration an
    evaluation loop with a profiler of its own that never leaves its wait phase (torch 1.13
    without Kineto refuses a second recording profiler on one thread). The eval profiler's
    ProfilerStep#0, #0, #1 ranges are recorded by the training profiler, nested in its steps."""
    train_step, evaluate = small_mlp()
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_stack=True,
                 schedule=schedule(wait=0, warmup=0, active=6)) as prof:
        for _ in range(5):
            train_step()
            with profile(activities=[ProfilerActivity.CPU],
                         schedule=schedule(wait=100, warmup=1, active=1)) as eval_prof:
                for _ in range(2):
                    evaluate()
                    eval_prof.step()
            prof.step()
    prof.export_chrome_trace(path)


def record_repeat_cycles(path):
    """schedule(wait=0, warmup=0, active=3, repeat=2) with on_trace_ready: the first cycle's
    file reads ProfilerStep#0, #0, #1 (torch <= 1.13 names a step after the one before it)."""
    train_step, _ = small_mlp()
    written = []

    def ready(p):
        if not written:
            p.export_chrome_trace(path)
        written.append(p.step_num)

    with profile(activities=[ProfilerActivity.CPU], on_trace_ready=ready,
                 schedule=schedule(wait=0, warmup=0, active=3, repeat=2)) as prof:
        for _ in range(8):
            train_step()
            prof.step()


def record_cuda_links(path):
    """What profile(use_cuda=True) exports on torch 1.9 to 1.13 without Kineto: per op that ran
    CUDA work a "cpu_to_cuda" flow start ("ph": "s") and nothing of the GPU. This machine has no
    GPU, so the loop runs on the CPU and each op is given the kernel a CUDA run would have
    attached to it (FunctionEvent.append_kernel, as the legacy profiler does for every op whose
    CUDA events measured time); torch's own export_chrome_trace writes the file. Two steps: the
    last is the range profile.stop() closes."""
    train_step, _ = small_mlp()
    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=0, warmup=0, active=4)) as prof:
        for _ in range(5):
            train_step()
            prof.step()
    for evt in prof.profiler.function_events:
        evt.append_kernel(evt.name, 0, 1)
    prof.export_chrome_trace(path)


STEP_VARIANTS = {
    "steps_nested_eval_profiler": record_nested_eval,
    "steps_repeat_first_cycle": record_repeat_cycles,
    "cuda_links_no_kernels": record_cuda_links,
}


def gzip_json(name):
    with open(f"{name}.json") as f:
        events = json.load(f)
    with gzip.open(f"{name}.json.gz", "wt") as f:
        json.dump(events, f, separators=(",", ":"))


if __name__ == "__main__":
    import os
    for name, args in VARIANTS.items():
        record(name, *args)
        os.remove(f"{name}.json")
    for name, recorder in STEP_VARIANTS.items():
        recorder(f"{name}.json")
        gzip_json(name)
        os.remove(f"{name}.json")
    print(torch.__version__)
