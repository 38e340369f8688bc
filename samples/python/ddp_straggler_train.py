"""A DDP job with one rank made slow on purpose: the multi-rank sample (issue 14).

    torchrun --nproc-per-node 4 samples/python/ddp_straggler_train.py \
        --straggler backward --straggler-rank 2 [--profile-dir DIR] [--steps N]

Every rank trains the same MLP with DistributedDataParallel over gloo (all ranks share GPU 0
when there is one, else the CPU), so the gradient all-reduce makes every rank's step as long as
the slowest rank's. The planted cause, on `--straggler-rank` only:

* `backward`:   extra matrix products inside the backward pass (a gradient hook), i.e. more
                GPU (or CPU) compute in backward than on the other ranks;
* `dataloader`: each sample takes `--slow-factor` times longer to "decode" on the training
                thread (num_workers=0);
* `sync`:       a host sync after every layer's forward (`.item()`), so the host waits for the
                device several times a step;
* `none`:       a balanced job.

`--spawn N` starts N ranks itself with torch.multiprocessing.spawn (no RANK in their
environment; MASTER_ADDR/MASTER_PORT default to 127.0.0.1:29500), as many notebooks and
single-node scripts do instead of torchrun; `--start-method fork` forks them instead
(torch.multiprocessing.start_processes), as notebook launchers do, and `forkserver` forks them
from a fork server (Python 3.14's default start method).

With `--profile-dir DIR` each rank profiles itself with torch.profiler and writes
`DIR/rank<R>.<ts>.pt.trace.json.gz` (tensorboard_trace_handler), as users record jobs today;
without it the script runs unprofiled, e.g. under `steplint record -- torchrun ...`.
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class DecodedDataset(Dataset):
    """Random samples that take `delay_s` each to "decode"."""

    def __init__(self, size, features, delay_s):
        self.size, self.features, self.delay_s = size, features, delay_s

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        if self.delay_s > 0:
            time.sleep(self.delay_s)
        generator = torch.Generator().manual_seed(index)
        x = torch.randn(self.features, generator=generator)
        return x, int(x.sum() > 0)


class Mlp(nn.Module):
    def __init__(self, features, hidden, sync_every_layer):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(features, hidden), nn.Linear(hidden, hidden),
                                     nn.Linear(hidden, hidden)])
        self.head = nn.Linear(hidden, 2)
        self.sync_every_layer = sync_every_layer

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
            if self.sync_every_layer:
                x.sum().item()  # the planted host sync
        return self.head(x)


def extra_backward_work(size, rounds, device):
    """A gradient hook that does `rounds` size x size matrix products in backward."""
    a = torch.randn(size, size, device=device)

    def hook(grad):
        b = a
        for _ in range(rounds):
            b = torch.tanh(b @ a)
        return grad + 0 * b.mean()  # keeps the work on the gradient's path
    return hook


def make_profiler(args, rank, cuda):
    if not args.profile_dir:
        return None
    activities = [torch.profiler.ProfilerActivity.CPU]
    if cuda:
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    active = max(1, args.steps - 4)
    return torch.profiler.profile(
        activities=activities,
        schedule=torch.profiler.schedule(wait=2, warmup=2, active=active, repeat=1),
        on_trace_ready=torch.profiler.tensorboard_trace_handler(
            args.profile_dir, worker_name=f"rank{rank}", use_gzip=True))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--straggler", choices=["none", "backward", "dataloader", "sync"], default="none")
    parser.add_argument("--straggler-rank", type=int, default=1)
    parser.add_argument("--delay-ms", type=float, default=0.05, help="per-sample decode time")
    parser.add_argument("--slow-factor", type=float, default=4.0, help="dataloader straggler: x slower")
    parser.add_argument("--extra-rounds", type=int, default=12, help="backward straggler: products")
    parser.add_argument("--profile-dir", default="")
    parser.add_argument("--spawn", type=int, default=0, help="start N ranks with mp.spawn")
    parser.add_argument("--start-method", choices=["spawn", "fork", "forkserver"], default="spawn")
    args = parser.parse_args()

    if args.spawn > 0:
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29500")
        torch.multiprocessing.start_processes(train, args=(args.spawn, args), nprocs=args.spawn,
                                              start_method=args.start_method)
    else:
        train(int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1)), args)


def train(rank, world, args):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    cuda = torch.cuda.is_available()
    device = torch.device("cuda", 0) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(0)
    features, hidden = (1024, 2048) if cuda else (128, 256)
    slow = rank == args.straggler_rank
    delay = args.delay_ms / 1000 * (args.slow_factor if slow and args.straggler == "dataloader" else 1)

    torch.manual_seed(0)
    dataset = DecodedDataset(args.steps * args.batch_size * world, features, delay)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=True, drop_last=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=0,
                        pin_memory=cuda, drop_last=True)
    model = Mlp(features, hidden, sync_every_layer=slow and args.straggler == "sync").to(device)
    ddp = DistributedDataParallel(model)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    criterion = nn.CrossEntropyLoss()
    hook = extra_backward_work(hidden, args.extra_rounds, device) if slow and args.straggler == "backward" else None

    profiler = make_profiler(args, rank, cuda)
    if profiler:
        profiler.start()
    start, steps = time.perf_counter(), 0
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        out = ddp(x)
        if hook:
            out.register_hook(hook)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        steps += 1
        if profiler:
            profiler.step()
    if cuda:
        torch.cuda.synchronize()
    if profiler:
        profiler.stop()
    elapsed_ms = (time.perf_counter() - start) * 1000
    print(f"rank {rank}/{world}: {steps} steps, mean step {elapsed_ms / max(1, steps):.2f} ms"
          f" (straggler {args.straggler} on rank {args.straggler_rank})", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
