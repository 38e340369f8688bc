#!/usr/bin/env python3
"""Metamorphic test: a trace rewritten in ways that carry no meaning must get the same findings,
savings and not-checked reasons from `steplint check`.

    metamorphic_test.py STEPLINT TRACE...

Each TRACE is read, written back as it is (the reference: Python's float output may round
epoch-µs digits), and rewritten five ways: minified, indented by 4, its complete events shuffled,
its clock moved to zero, and its CPU ranges split into B/E halves (args on the B). Every rewrite
must give the reference's findings (code, message, saving, metrics), "fixing all findings" and
not-checked rules exactly. Each of these once differed (docs/accuracy.md, "Transformed traces"):
a crash on shuffled events, savings that moved with the clock, B/E halves that lost their args,
evidence that followed the order of the file's threads.
"""
import gzip
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

CPU_RANGES = {"cpu_op", "user_annotation", "python_function"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def events_of(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def with_events(doc, events):
    if isinstance(doc, dict):
        out = dict(doc)
        out["traceEvents"] = events
        return out
    return events


def shuffled(doc):
    # Complete events carry no meaning in their order; B/E halves and metadata keep their slots.
    events = list(events_of(doc))
    slots = [i for i, e in enumerate(events) if e.get("ph") == "X"]
    moved = [events[i] for i in slots]
    random.Random(7).shuffle(moved)
    for i, e in zip(slots, moved):
        events[i] = e
    return with_events(doc, events)


def rebased(doc):
    # Every time moved by a whole number of µs (exact in the floats Python read); the trace's
    # base time, when it has one, takes the difference.
    stamps = [e["ts"] for e in events_of(doc) if isinstance(e.get("ts"), (int, float))]
    origin = int(min(stamps)) if stamps else 0
    events = []
    for e in events_of(doc):
        e = dict(e)
        if isinstance(e.get("ts"), (int, float)):
            e["ts"] = e["ts"] - origin
        events.append(e)
    out = with_events(doc, events)
    if isinstance(out, dict) and isinstance(out.get("baseTimeNanoseconds"), int):
        out["baseTimeNanoseconds"] += origin * 1000
    return out


def begin_end(doc):
    # CPU ranges as B/E halves, args on the B, in an order that nests: at one instant the ends
    # come before the begins, inner ends before outer ones, outer begins before inner ones.
    kept, halves = [], []
    for e in events_of(doc):
        if e.get("ph") != "X" or e.get("cat") not in CPU_RANGES or "dur" not in e:
            kept.append(e)
            continue
        start, end = e["ts"], e["ts"] + e["dur"]
        begin = {k: v for k, v in e.items() if k != "dur"}
        begin["ph"] = "B"
        finish = {"ph": "E", "pid": e["pid"], "tid": e["tid"], "ts": end}
        halves.append(((start, 1, -e["dur"]), begin))
        halves.append(((end, 0, -start), finish))
    halves.sort(key=lambda h: h[0])
    return with_events(doc, kept + [h[1] for h in halves])


def same(a, b, tolerance):
    """Equal, numbers within `tolerance` of each other (relative)."""
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        return abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-9)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tolerance) for k in a)
    return a == b


def check(steplint, path):
    run = subprocess.run([steplint, "check", "--no-config", "--format", "json", path],
                         capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"{path}: exit {run.returncode}: {run.stderr.strip()}")
    trace = json.loads(run.stdout)["traces"][0]
    findings = [(f["code"], f["message"], f.get("saving"), f.get("evidence", {}).get("metrics"))
                for f in trace["findings"]]
    return {"findings": findings, "saving_all": trace.get("saving_all"),
            "not_checked": sorted(n["code"] for n in trace["not_checked"]),
            "average_step_ms": trace.get("average_step_ms")}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    steplint, traces = sys.argv[1], sys.argv[2:]
    # (write, tolerance): exact, but for the E halves' times, which Python sums in floats
    # (epoch µs: the last ns digit can differ).
    rewrites = {
        "minified": (lambda d, f: json.dump(d, f, separators=(",", ":")), 0),
        "indented": (lambda d, f: json.dump(d, f, indent=4), 0),
        "shuffled": (lambda d, f: json.dump(shuffled(d), f), 0),
        "rebased": (lambda d, f: json.dump(rebased(d), f), 0),
        "begin_end": (lambda d, f: json.dump(begin_end(d), f), 1e-6),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for trace in traces:
            doc = load(trace)
            reference = Path(tmp) / "reference.json"
            with open(reference, "w") as f:
                json.dump(doc, f)
            expected = check(steplint, str(reference))
            if not expected["findings"]:
                print(f"{trace}: no findings: nothing to compare", file=sys.stderr)
                failures += 1
            for name, (write, tolerance) in rewrites.items():
                path = Path(tmp) / f"{name}.json"
                with open(path, "w") as f:
                    write(doc, f)
                got = check(steplint, str(path))
                for key in expected:
                    if not same(got[key], expected[key], tolerance):
                        failures += 1
                        print(f"{trace} {name}: {key} differs:\n  reference {expected[key]}\n"
                              f"  rewritten {got[key]}", file=sys.stderr)
            print(f"{trace}: {len(expected['findings'])} findings, {len(rewrites)} rewrites compared")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
