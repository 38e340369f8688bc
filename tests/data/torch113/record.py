"""Records the CPU traces in this directory with torch.profiler (Debian's python3-torch 1.13).

Debian's build has no Kineto, so export_chrome_trace writes the legacy format: a JSON array,
no categories, no args (no shapes), no Python frames. That is the format steplint must read
without the help of any of those.

    /usr/bin/python3 record.py    # apt-get install python3-torch python3-numpy

Each trace: a 2-layer MLP, batch 64, 6 iterations, ProfilerStep#1..4 kept (wait 1, warmup 1).
"""
import gzip
import json

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile, schedule

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


if __name__ == "__main__":
    import os
    for name, args in VARIANTS.items():
        record(name, *args)
        os.remove(f"{name}.json")
    print(torch.__version__)
