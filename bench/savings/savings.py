#!/usr/bin/env python3
"""Predicted vs measured saving per finding of the slow sample (docs/accuracy.md).

Records slow_trainer with every mistake on, reads each finding's predicted saving from
`steplint check --format json`, then runs WITHOUT the profiler the all-mistakes configuration,
each single-fix configuration (`--fix NAME`) and the all-fixed one (`--mistakes none`),
interleaved in rounds so that machine drift hits every configuration alike, and compares
medians of the trainer's own mean step time. Uses only python3 and the built binaries.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# Which switch of slow_trainer fixes what each rule reports: the one table of the bench.
# A finding whose code is not here is listed as "no switch" (on a GPU: SL301 low utilization and
# SL402 memory headroom, consequences of the whole loop rather than of one mistake).
SWITCH_OF_CODE = {
    "SL101": "loader-inline",
    "SL201": "pageable-copy",
    "SL202": "item-sync",
    "SL203": "pageable-copy",
    "SL204": "cpu-scalar",
    "SL206": "pageable-copy",  # most of the sample's syncs are the blocking copies' (one is item's)
    "SL303": "fp32-matmul",
    "SL304": "cudnn-benchmark-off",
    "SL403": "batch-unaligned",
    "SL601": "zero-grad-fill",
}
# Switches whose mistake only costs time on a GPU: on the CPU their fix changes nothing that
# can be timed (a pinned copy, a CPU-to-CPU "move", cuDNN, TF32, a sync with no device queue).
GPU_ONLY = {"pageable-copy", "cpu-scalar", "cudnn-benchmark-off", "fp32-matmul", "item-sync"}
# A per-trace "fix all" estimate, once check's JSON has one (issue 13's attribution work);
# until then the bench sums the findings and says so.
FIX_ALL_FIELD = "saving_all"  # check JSON: what fixing every finding saves (docs/savings.md)
REPEAT = "all mistakes (repeat)"

TARGET_PCT, TARGET_FLOOR_MS, FIX_ALL_PCT = 0.30, 2.0, 0.20
STEP_LINE = re.compile(r"^slow_trainer: \d+ steps, mean step ([0-9.]+) ms \(after warm-up\)$", re.M)
MISTAKES_LINE = re.compile(r"^slow_trainer: mistakes (\S+) \(batch (\d+)\)$", re.M)


def fail(message):
    print(f"savings: error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", nargs="?", default="build", help="build directory (default: build)")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--steps", type=int, default=40, help="steps per timed run (3 are warm-up)")
    p.add_argument("--rounds", type=int, default=5, help="rounds of all configurations")
    p.add_argument("--record-steps", type=int, default=30, help="steps in the recorded trace")
    p.add_argument("--keep", metavar="DIR", help="keep the trace, report and per-round times in DIR")
    p.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args()
    if args.steps < 6 or args.rounds < 1 or args.record_steps < 6:
        fail("--steps and --record-steps must be at least 6 (3 warm-up steps), --rounds at least 1")
    return args


def binaries(build):
    paths = {"steplint": os.path.join(build, "cli", "steplint"),
             "trainer": os.path.join(build, "samples", "slow_trainer"),
             "preload": os.path.join(build, "collector", "libsteplint_preload.so")}
    missing = [p for p in paths.values() if not os.path.isfile(p)]
    if missing:
        fail(f"missing {', '.join(missing)}; build them first: cmake --build {build} -j2 --target "
             "steplint slow_trainer steplint_preload steplint_collector")
    return paths


def switch_names(trainer):
    """The trainer's own list of switches (its usage text), so the bench cannot drift from it."""
    run = subprocess.run([trainer, "--mistakes", "?"], capture_output=True, text=True)
    match = re.search(r"mistake names: all, none, (.*)$", run.stderr, re.M)
    if run.returncode != 2 or not match:
        fail(f"{trainer} does not list its mistakes (an old build?): {run.stderr.strip()}")
    names = [n.strip() for n in match.group(1).split(",")]
    unknown = sorted(set(SWITCH_OF_CODE.values()) - set(names))
    if unknown:
        fail(f"the bench's table names switches the trainer does not have: {', '.join(unknown)}")
    return names


def record_and_check(paths, args, work):
    trace = os.path.join(work, "slow.pt.trace.json.gz")
    cmd = [paths["steplint"], "record", "--no-report", "--no-config", "-o", trace]
    if args.device == "cpu":
        cmd.append("--no-cupti")
    cmd += ["--", paths["trainer"], "--steplint-steps", "--steps", str(args.record_steps), "--device", args.device]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(trace):
        fail(f"recording failed ({run.returncode}): {run.stderr.strip()}")
    check = subprocess.run([paths["steplint"], "check", "--no-config", "--format", "json", trace],
                           capture_output=True, text=True)
    if check.returncode not in (0, 1):  # 1: findings at or above fail-on, the expected case
        fail(f"steplint check failed ({check.returncode}): {check.stderr.strip()}")
    if args.keep:
        with open(os.path.join(work, "check.json"), "w") as f:
            f.write(check.stdout)
    return " ".join(cmd), json.loads(check.stdout)["traces"][0]


def timed_run(trainer, args, switches):
    run = subprocess.run([trainer, "--steps", str(args.steps), "--device", args.device] + switches,
                         capture_output=True, text=True)
    step, mistakes = STEP_LINE.search(run.stdout), MISTAKES_LINE.search(run.stdout)
    if run.returncode != 0 or not step or not mistakes:
        fail(f"{' '.join(switches)}: trainer failed ({run.returncode}): {run.stderr.strip()}")
    return float(step.group(1)), int(mistakes.group(2))


def measure(trainer, args, names):
    """Per configuration, the mean step time of every round in ms per baseline batch, and its batch."""
    # The baseline again at the end of each round: nothing changes, so its "saving" is the
    # measurement's own noise (an A/A control), the floor under which a difference means nothing.
    configs = ([("all mistakes", [])] + [(n, ["--fix", n]) for n in names] +
               [("all fixed", ["--mistakes", "none"]), (REPEAT, [])])
    times, batches = {label: [] for label, _ in configs}, {}
    for r in range(args.rounds):
        print(f"  round {r + 1}/{args.rounds}, load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
        for label, switches in configs:
            ms, batches[label] = timed_run(trainer, args, switches)
            # A fix that changes the batch size is compared per sample: the time for the
            # baseline's batch (the first run of every round), not for a bigger step.
            times[label].append(ms * batches["all mistakes"] / batches[label])
    return times, batches


def within(predicted, measured, pct, floor_ms):
    return abs(predicted - measured) <= max(pct * abs(measured), floor_ms)


def fmt(x):
    return "—" if x is None else f"{x:.2f}"


def saving_row(label, switch, predicted, times, note, pct=TARGET_PCT, floor_ms=TARGET_FLOOR_MS, why="none claimed"):
    """One table row; `predicted` None is no prediction (shown as `why`, not judged)."""
    base, fixed = times["all mistakes"], times[switch]
    measured = statistics.median(base) - statistics.median(fixed)
    paired = [b - f for b, f in zip(base, fixed)]
    spread = f"{min(paired):.2f} to {max(paired):.2f}"
    if predicted is None:
        return [label, switch, why, fmt(measured), spread, "—", "n/a", note]
    ratio = f"{predicted / measured:.2f}" if predicted > 0 and abs(measured) > 1e-9 else "—"
    ok = "yes" if within(predicted, measured, pct, floor_ms) else "no"
    return [label, switch, fmt(predicted), fmt(measured), spread, ratio, ok, note]


def table(trace, times, names, device):
    by_switch, rows, total = {}, [], 0.0
    for f in trace["findings"]:
        saving = f.get("saving") or {}
        per_step = saving.get("per_step_ms")
        total += per_step or 0.0
        switch = SWITCH_OF_CODE.get(f["code"])
        if switch is None:
            rows.append([f["code"], "no switch", fmt(per_step), "—", "—", "—", "—", f["name"]])
        else:
            by_switch.setdefault(switch, []).append((f["code"], per_step, saving.get("alone_ms")))
    not_checked = {n["code"] for n in trace.get("not_checked", [])}
    for switch in names:
        found = by_switch.get(switch, [])
        note = "no CPU effect" if device == "cpu" and switch in GPU_ONLY else ""
        if found:
            # One finding per switch: what fixing it alone saves (alone_ms) is what a single-fix
            # run measures. Several findings behind one switch: the sum of their shares, which
            # never counts a millisecond twice (their alone savings overlap).
            if len(found) == 1 and found[0][2] is not None:
                predicted = found[0][2]
            else:
                claimed = [s for _, s, _ in found if s is not None]
                predicted = sum(claimed) if claimed else None
            rows.append(saving_row("+".join(c for c, _, _ in found), switch, predicted, times, note))
            continue
        codes = sorted(c for c, s in SWITCH_OF_CODE.items() if s == switch)
        if codes and set(codes) <= not_checked:
            # The rules could not decide (e.g. no GPU activity): that is no prediction of 0.
            rows.append(saving_row("not checked: " + ", ".join(codes), switch, None, times, note, why="—"))
        else:
            rows.append(saving_row("no finding", switch, 0.0, times, note))
    fix_all = (trace.get(FIX_ALL_FIELD) or {}).get("per_step_ms")
    label = "fix all" if fix_all is not None else "fix all: sum of findings (no saving_all in the JSON)"
    rows.append(saving_row(label, "all fixed", total if fix_all is None else fix_all, times, "", FIX_ALL_PCT, 0.0))
    rows.append(saving_row("noise: the baseline run twice", REPEAT, None, times, "A/A control", why="—"))
    return rows


def print_configurations(times, batches):
    print("| Configuration | Median ms/step | Rounds min to max |")
    print("|---|---|---|")
    for label, values in times.items():
        shown = label if label in ("all mistakes", "all fixed", REPEAT) else f"--fix {label}"
        if batches[label] != batches["all mistakes"]:
            shown += f" (batch {batches[label]}, per {batches['all mistakes']} samples)"
        print(f"| {shown} | {statistics.median(values):.2f} | {min(values):.2f} to {max(values):.2f} |")


def print_report(trace, times, batches, rows):
    base = times["all mistakes"]
    print(f"# all mistakes: median step {statistics.median(base):.2f} ms without the profiler "
          f"(rounds {min(base):.2f} to {max(base):.2f}); recorded trace: {trace['average_step_ms']:.2f} ms per step")
    print(f"# measured = median(all mistakes) − median(fix), ms per step of {batches['all mistakes']} samples; spread = "
          f"min to max of the per-round differences; target ±{TARGET_PCT:.0%} or {TARGET_FLOOR_MS:g} ms, "
          f"fix all ±{FIX_ALL_PCT:.0%}; load average now {os.getloadavg()[0]:.1f}")
    print_configurations(times, batches)
    print()
    print("| Finding | Switch | Predicted ms/step | Measured ms/step | Spread | Ratio | Within target | Note |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def commit():
    """The checkout's commit, to quote with a result ("unknown" outside git)."""
    run = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "unknown"


def main():
    args = parse_args()
    paths = binaries(args.build)
    env_lib = os.environ.setdefault("STEPLINT_PRELOAD_LIB", os.path.abspath(paths["preload"]))
    work = args.keep or tempfile.mkdtemp(prefix="steplint-savings-")
    os.makedirs(work, exist_ok=True)
    try:
        names = switch_names(paths["trainer"])
        print(f"# savings bench, {datetime.date.today()}, {platform.platform()}, {os.cpu_count()} cores, "
              f"device {args.device}, commit {commit()}, load average {os.getloadavg()[0]:.1f}")
        print(f"# preload {env_lib}; {args.rounds} rounds x {len(names) + 3} configurations x {args.steps} steps")
        record_cmd, trace = record_and_check(paths, args, work)
        print(f"# recorded: {record_cmd}", flush=True)
        times, batches = measure(paths["trainer"], args, names)
        if args.keep:
            with open(os.path.join(work, "times.json"), "w") as f:
                json.dump(times, f, indent=1)
        rows = table(trace, times, names, args.device)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print_report(trace, times, batches, rows)
    missed = sum(1 for row in rows if row[6] == "no")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
