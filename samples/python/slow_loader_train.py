"""A small CPU training script with the mistakes steplint finds in Python trainers.

    steplint record -- python3 samples/python/slow_loader_train.py [--steps N]

No steplint code in it: `steplint record` starts the collector at `import torch` and records
the DataLoader settings through its import hook. The mistakes, on purpose:

* a slow Dataset.__getitem__ (decoding stand-in) loaded on the training thread: num_workers=0
  (SL101 DataLoader wait; SL102 reads the worker count),
* pin_memory left off and a batch size of 30, not a multiple of 8 (SL201 and SL403 on a GPU;
  on a GPU each sample is image-sized, 3x64x64 values, so a batch is 1.4 MiB to copy),
* loss.item() every step, a host sync on a GPU (SL202).
"""
import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class SlowDataset(Dataset):
    """Random samples that take `delay_s` each to "decode"."""

    def __init__(self, size, features, delay_s):
        self.size, self.features, self.delay_s = size, features, delay_s

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        time.sleep(self.delay_s)
        generator = torch.Generator().manual_seed(index)
        x = torch.randn(self.features, generator=generator)
        return x, int(x.sum() > 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=30)
    parser.add_argument("--delay-ms", type=float, default=1.0, help="per-sample load time")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    # On a GPU an image-sized sample (3x64x64), so that the unpinned copy is worth reporting
    # (SL201 flags from 1 MiB per step); on the CPU a small one keeps the test quick.
    features = 3 * 64 * 64 if device == "cuda" else 256
    dataset = SlowDataset(args.steps * args.batch_size, features, args.delay_ms / 1000)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, num_workers=0, pin_memory=False)
    model = nn.Sequential(nn.Linear(features, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    criterion = nn.CrossEntropyLoss()

    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()  # a host sync every step
    print(f"mean loss {total / max(1, len(loader)):.4f} over {len(loader)} steps")


if __name__ == "__main__":
    main()
