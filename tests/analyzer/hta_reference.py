#!/usr/bin/env python3
"""HTA's idle-time and temporal breakdowns, re-implemented from its definition on the raw JSON.

Derives the golden numbers of tests/analyzer/hta_window_test.cpp without steplint's importer:
it reads the Kineto JSON itself and follows HTA v0.6.1 step by step
(docs/reference/peer-tools.md §2.1 loading and last-step filter, §2.3
get_temporal_breakdown, §2.4 get_idle_time_breakdown):

  * events = complete events with `dur` and `cat`, minus cat "Trace";
  * GPU event = args.stream >= 0 and args.correlation >= 0, or name Event Sync / Context Sync;
  * with >= 2 distinct ProfilerStep#N names: CPU events with ts < the last ProfilerStep's start,
    GPU events whose correlation matches a kept CPU event;
  * idle per stream: kernel/memcpy/memset rows sorted by ts, gap to the previous row's end,
    HOST_WAIT if the launch (CPU row with the same correlation) started after that end,
    KERNEL_WAIT if the gap < 30 us, else OTHER; sums include negative gaps, as HTA's do;
  * temporal: rows with a stream; T = last end - first start, idle = T - |union|,
    compute = |union of COMPUTATION kernels|, non-compute = T - compute - idle.

Arithmetic is exact (timestamps read as decimals, results in integer ns). `--round` applies
HTA's default inward rounding of float timestamps (ceil(ts), floor(ts + dur), in us); without
it the result is HTA with HTA_DISABLE_NS_ROUNDING=1, computed without float error.

Usage: hta_reference.py TRACE.json[.gz] [--round]
Python standard library only (HTA itself needs pandas and is not installed here).
"""
import argparse
import collections
import decimal
import gzip
import json
import math
import re

STEP = re.compile(r"^ProfilerStep#(\d+)")
IDLE_CATS = {"kernel", "Kernel", "gpu_memset", "Memset", "gpu_memcpy", "Memcpy"}
COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
MEMORY = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
NON_COMPUTE = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)|(^runFunction)"
    r"|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)|(^collective_subgraph_execution)")


def as_int(value):
    try:
        return int(value)
    except (TypeError, ValueError, decimal.InvalidOperation):
        return -1


def load(path, round_ns):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    raw = doc["traceEvents"] if isinstance(doc, dict) else doc
    rows = [e for e in raw if "dur" in e and e.get("cat") is not None and e["cat"] != "Trace" and "ts" in e]
    has_float = any(isinstance(e["ts"], decimal.Decimal) for e in rows)
    out = []
    for e in rows:
        ts, dur = decimal.Decimal(e["ts"]), decimal.Decimal(e["dur"])
        if round_ns and has_float:
            start_us, end_us = math.ceil(ts), math.floor(ts + dur)
            start, end = start_us * 1000, end_us * 1000
        else:
            start, end = int(ts * 1000), int((ts + dur) * 1000)
        args = e.get("args") or {}
        out.append({"name": e.get("name", ""), "cat": e["cat"], "ts": start, "end": end,
                    "stream": as_int(args.get("stream", -1)), "corr": as_int(args.get("correlation", -1))})
    return out


def is_gpu(e):
    return (e["stream"] >= 0 and e["corr"] >= 0) or e["name"] in ("Event Sync", "Context Sync")


def last_step_filter(events):
    names = {e["name"] for e in events if STEP.match(e["name"])} | {e["cat"] for e in events if STEP.match(e["cat"])}
    if len(names) < 2:
        return events, None
    cpu = [e for e in events if not is_gpu(e)]
    cutoff = max(e["ts"] for e in cpu if STEP.match(e["name"]))
    kept_cpu = [e for e in cpu if e["ts"] < cutoff]
    corrs = collections.Counter(e["corr"] for e in kept_cpu)
    kept_gpu = [e for e in events if is_gpu(e) for _ in range(corrs[e["corr"]])]  # an inner join
    return kept_cpu + kept_gpu, cutoff


def idle_breakdown(events, threshold_ns=30_000):
    launch_ts = {}
    for e in events:
        if not is_gpu(e) and e["corr"] >= 0:
            launch_ts.setdefault(e["corr"], e["ts"])
    result = {}
    streams = sorted({e["stream"] for e in events if e["stream"] != -1 and e["cat"] in IDLE_CATS})
    for s in streams:
        ops = sorted((e for e in events if e["stream"] == s and e["cat"] in IDLE_CATS), key=lambda e: e["ts"])
        cats = {"host_wait": 0, "kernel_wait": 0, "other": 0, "negative_gaps": 0}
        for prev, op in zip(ops, ops[1:]):
            gap = op["ts"] - prev["end"]
            runtime = launch_ts.get(op["corr"])
            if runtime is not None and runtime > prev["end"]:
                cats["host_wait"] += gap
            elif gap < threshold_ns:
                cats["kernel_wait"] += gap
            else:
                cats["other"] += gap
            cats["negative_gaps"] += gap < 0
        result[s] = cats
    return result


def union_length(intervals):
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return total + (cur_e - cur_s if cur_e is not None else 0)


def kernel_type(name):
    if COMM.match(name):
        return "COMMUNICATION"
    if MEMORY.match(name):
        return "MEMORY"
    return "OTHER" if NON_COMPUTE.match(name) else "COMPUTATION"


def temporal(events):
    gpu = [e for e in events if e["stream"] != -1]
    T = max(e["end"] for e in gpu) - min(e["ts"] for e in gpu)
    idle = T - union_length([(e["ts"], e["end"]) for e in gpu])
    compute = union_length([(e["ts"], e["end"]) for e in gpu if kernel_type(e["name"]) == "COMPUTATION"])
    return {"kernel_time": T, "idle": idle, "compute": compute, "non_compute": T - compute - idle}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--round", action="store_true", help="HTA's default inward rounding of float timestamps")
    opts = parser.parse_args()
    events, cutoff = last_step_filter(load(opts.trace, opts.round))
    print("cutoff_ns", cutoff)
    for stream, cats in idle_breakdown(events).items():
        print("stream", stream, cats)
    print("temporal", temporal(events))


if __name__ == "__main__":
    main()
