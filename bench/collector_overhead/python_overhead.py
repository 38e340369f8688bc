#!/usr/bin/env python3
"""What recording costs a Python trainer: no profiler, `steplint record` (with and without
--modules) and torch.profiler, on the same launch-bound loop (python_trainer.py), in one run.

    python3 bench/collector_overhead/python_overhead.py [--steplint build/cli/steplint]
        [--python /usr/bin/python3] [--rounds 3] [--steps 200] [--configs a,b,...] [-- trainer args]

The configurations run interleaved, round after round, so drifts of the machine hit them alike;
each figure is the best round's mean step time (the trainer times its own steps after warm-up,
so start-up, import and trace writing are not counted), next to the median CPU seconds of the
whole run (the trainer, the collector's writer thread and `steplint record` itself). Overheads are against `baseline` of
the same run, and steplint's against torch.profiler's. torch.profiler is Kineto where torch has
it (`torch.autograd.kineto_available()`), else its legacy profiler; the table says which.
Results and how they were obtained: docs/benchmarks.md ("Collector overhead").
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINER = os.path.join(HERE, "python_trainer.py")
CONFIGS = ["baseline", "steplint", "steplint-modules", "torch-profiler"]


def command(config, args, trainer_args, tmp):
    trainer = [args.python, TRAINER, "--steps", str(args.steps)] + trainer_args
    if config == "baseline":
        return trainer
    if config == "torch-profiler":
        return trainer + ["--torch-profiler"]
    record = [args.steplint, "record", "--no-report"]
    if config == "steplint-modules":
        record.append("--modules")
    return record + ["-o", os.path.join(tmp, config + ".pt.trace.json.gz"), "--"] + trainer


def children_cpu_s():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(cmd):
    """(the trainer's mean step in ms, the CPU seconds of the whole run: trainer, writer thread
    and steplint record), or None (with its output on stderr) when it failed. CPU time is the
    steadier figure on a shared machine; wall step time is what the trainer feels."""
    cpu_before = children_cpu_s()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cpu_s = children_cpu_s() - cpu_before
    match = re.search(r"mean_step_ms=([0-9.]+)", proc.stdout)
    if proc.returncode != 0 or match is None:
        sys.stderr.write(f"python_overhead: {' '.join(cmd)} failed ({proc.returncode}):\n"
                         f"{proc.stdout[-2000:]}\n")
        return None
    return float(match.group(1)), cpu_s


def profiler_kind(python):
    probe = "import torch; print(torch.autograd.kineto_available(), torch.__version__)"
    out = subprocess.run([python, "-c", probe], stdout=subprocess.PIPE, text=True).stdout.split()
    if len(out) != 2:
        return "torch.profiler (?)"
    return f"torch.profiler ({'Kineto' if out[0] == 'True' else 'legacy: no Kineto in this torch'}, torch {out[1]})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steplint", default="build/cli/steplint")
    parser.add_argument("--python", default="/usr/bin/python3")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("trainer_args", nargs="*", help="passed to python_trainer.py (after --)")
    args = parser.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown or "baseline" not in configs:
        parser.error(f"--configs: one or more of {', '.join(CONFIGS)}, baseline included")
    if any(c.startswith("steplint") for c in configs) and not shutil.which(args.steplint):
        parser.error(f"{args.steplint}: no steplint CLI there (build it, or pass --steplint)")

    times = {c: [] for c in configs}
    cpu = {c: [] for c in configs}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for c in configs:
                result = run_once(command(c, args, args.trainer_args, tmp))
                if result is not None:
                    times[c].append(result[0])
                    cpu[c].append(result[1])
                    print(f"round {r + 1}: {c:17s} {result[0]:8.3f} ms/step {result[1]:7.2f} CPU s",
                          flush=True)
    if not times["baseline"]:
        sys.exit("python_overhead: the baseline never ran")
    base = min(times["baseline"])
    print(f"\n{' '.join(args.trainer_args) or 'default trainer'}; {args.steps} steps, best of "
          f"{args.rounds} rounds; torch-profiler = {profiler_kind(args.python)}")
    base_cpu = statistics.median(cpu["baseline"])
    print(f"{'config':17s} {'best ms':>9s} {'median ms':>10s} {'overhead':>9s} {'CPU s':>7s} "
          f"{'CPU added':>9s}")
    overhead = {}
    for c in configs:
        if not times[c]:
            print(f"{c:17s} {'failed':>9s}")
            continue
        best = min(times[c])
        overhead[c] = best / base - 1
        cpu_s = statistics.median(cpu[c])
        print(f"{c:17s} {best:9.3f} {statistics.median(times[c]):10.3f} {100 * overhead[c]:+8.1f}% "
              f"{cpu_s:7.2f} {cpu_s - base_cpu:+9.2f}")
    reference = overhead.get("torch-profiler")
    for c in ("steplint", "steplint-modules"):
        if c in overhead and reference is not None and reference > 0:
            print(f"{c} / torch-profiler overhead: {overhead[c] / reference:.2f}")


if __name__ == "__main__":
    main()
