#!/usr/bin/env python3
"""Validates `steplint check --format sarif` output against the SARIF 2.1.0 JSON schema.

usage: validate_sarif.py STEPLINT SCHEMA TRACE...

Runs steplint on the traces (exit 0 or 1 are both fine: 1 means findings), then checks the
log with jsonschema's Draft 4 validator (the schema's own draft), and that every result names
a rule listed in the run's driver. Exits 77 (CTest: skipped) when python3-jsonschema is
missing, 1 on any validation error.
"""
import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("SKIPPED: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(77)


def main() -> int:
    steplint, schema_path, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    run = subprocess.run([steplint, "check", "--no-config", "--format", "sarif", *traces],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        print(f"steplint exited {run.returncode}: {run.stderr}", file=sys.stderr)
        return 1
    log = json.loads(run.stdout)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    for e in errors[:20]:
        print(f"schema: {'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
    results = [r for run_ in log["runs"] for r in run_.get("results", [])]
    rule_ids = {r["id"] for run_ in log["runs"] for r in run_["tool"]["driver"].get("rules", [])}
    unknown = [r["ruleId"] for r in results if r["ruleId"] not in rule_ids]
    if unknown:
        print(f"results name rules missing from tool.driver.rules: {sorted(set(unknown))}", file=sys.stderr)
    if not results:
        print("no results: the test traces are meant to produce findings", file=sys.stderr)
    print(f"{len(results)} results, {len(rule_ids)} rules, {len(errors)} schema errors")
    return 1 if errors or unknown or not results else 0


if __name__ == "__main__":
    sys.exit(main())
