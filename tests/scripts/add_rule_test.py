#!/usr/bin/env python3
"""CTest for scripts/add_rule.py, run on a copy of the tree parts it edits.

Checks the files it writes (sorted registration, CMake lists and README row, doc sections),
that it refuses a taken code or name and bad input without writing anything, that --dry-run
writes nothing, and compiles the generated rule, registry and test TUs with the project's
own flags (-Werror included) from compile_commands.json. A full build and run of the
generated test is too slow for every CTest run; it is described in CONTRIBUTING.md.

usage: add_rule_test.py SOURCE_DIR [COMPILE_COMMANDS_JSON]
"""
import json
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile

SOURCE = pathlib.Path(sys.argv[1]).resolve()
COMMANDS = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
SCRIPT = SOURCE / "scripts" / "add_rule.py"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def run(root, *args):
    return subprocess.run([sys.executable, str(SCRIPT), *args, "--root", str(root)], capture_output=True, text=True)


def snapshot(root):
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def compile_like(reference, source, out_dir):
    """Compiles `source` with the flags compile_commands.json records for `reference`."""
    entries = json.loads(COMMANDS.read_text())
    entry = next((e for e in entries if pathlib.Path(e["file"]).resolve() == reference.resolve()), None)
    if entry is None:
        return f"no compile command for {reference}"
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    args = [str(source) if a == entry["file"] else a for a in args]
    if "-o" in args:
        args[args.index("-o") + 1] = str(out_dir / (source.name + ".o"))
    result = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
    return "" if result.returncode == 0 else result.stdout + result.stderr


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp) / "tree"
        for part in ("rules", "docs/rules", "tests/rules"):
            shutil.copytree(SOURCE / part, root / part)

        before = snapshot(root)
        for args, why in ((["SL101", "fresh-name", "--category", "input_pipeline"], "a taken code"),
                          (["SL199", "dataloader-wait", "--category", "input_pipeline"], "a taken name"),
                          (["SL299", "fresh-name", "--category", "input_pipeline"], "a code outside the block"),
                          (["SL199", "Fresh_Name", "--category", "input_pipeline"], "a name not kebab-case"),
                          (["SL199", "avoid-thing", "--category", "input_pipeline"], "an avoid- name")):
            result = run(root, *args)
            check(result.returncode == 1 and "add_rule.py:" in result.stderr, f"refuses {why}: {result.stderr}")
        check(run(root, "SL199", "scaffold-check", "--category", "input_pipeline", "--dry-run").returncode == 0,
              "--dry-run succeeds")
        check(snapshot(root) == before, "refusals and --dry-run write nothing")

        result = run(root, "SL199", "scaffold-check", "--category", "input_pipeline")
        check(result.returncode == 0, f"creates SL199: {result.stderr}")
        rule = root / "rules/src/input_pipeline/sl199_scaffold_check.cpp"
        test = root / "tests/rules/input_pipeline/sl199_scaffold_check_test.cpp"
        doc = root / "docs/rules/SL199-scaffold-check.md"
        for path in (rule, test, doc):
            check(path.is_file(), f"writes {path.relative_to(root)}")
        text = rule.read_text()
        check('{"SL199", "scaffold-check", analyzer::Category::kInputPipeline' in text, "rule info")
        check("class ScaffoldCheckRule final : public analyzer::RuleWith<Options>" in text, "rule class")
        check('sink.notChecked("not implemented")' in text, "check() says not implemented")
        registry = (root / "rules/src/input_pipeline/registry.cpp").read_text()
        calls = [line.strip() for line in registry.splitlines() if line.startswith("  registerSl")]
        check(calls == ["registerSl101(registry);", "registerSl102(registry);", "registerSl199(registry);"],
              f"registry calls sorted: {calls}")
        check("void registerSl199(analyzer::RuleRegistry& registry);  // scaffold-check" in registry, "declaration")
        sources = (root / "rules/src/input_pipeline/sources.cmake").read_text()
        check(sources.index("sl102_") < sources.index("sl199_scaffold_check.cpp"), "sources.cmake entry sorted")
        tests = (root / "tests/rules/input_pipeline/tests.cmake").read_text()
        check("input_pipeline/sl199_scaffold_check_test.cpp" in tests, "tests.cmake entry")
        index = (root / "docs/rules/README.md").read_text()
        check(index.index("[SL102]") < index.index("[SL199](SL199-scaffold-check.md)") < index.index("[SL201]"),
              "README row sorted by code")
        page = doc.read_text()
        at = 0
        for section in ("## What it does", "## Why is this bad?", "## Trace evidence", "## Example",
                        "## How to fix", "## Options", "## Relation to other tools"):
            found = page.find("\n" + section + "\n", at)
            check(found >= 0, f"doc section {section} in order")
            at = max(at, found)
        check("REQUIRE(run.diagnostics.size() == 1)" in test.read_text(), "positive test expects a finding")
        check(run(root, "SL199", "other-name", "--category", "input_pipeline").returncode == 1,
              "refuses the code it just created")
        clang_format = shutil.which("clang-format")
        if clang_format is None:
            print("format check skipped: no clang-format")
        else:
            for path in (rule, test):
                result = subprocess.run([clang_format, f"--style=file:{SOURCE / '.clang-format'}", str(path)],
                                        capture_output=True, text=True)
                check(result.returncode == 0 and result.stdout == path.read_text(),
                      f"{path.name} is formatted as .clang-format says (scripts/check-format.sh)")

        if COMMANDS is None or not COMMANDS.is_file():
            print("compile check skipped: no compile_commands.json")
        else:
            out = pathlib.Path(tmp) / "obj"
            out.mkdir()
            for reference, generated in (
                    (SOURCE / "rules/src/input_pipeline/sl101_dataloader_wait.cpp", rule),
                    (SOURCE / "rules/src/input_pipeline/registry.cpp", root / "rules/src/input_pipeline/registry.cpp"),
                    (SOURCE / "tests/rules/input_pipeline/sl101_dataloader_wait_test.cpp", test)):
                problem = compile_like(reference, generated, out)
                check(not problem, f"{generated.name} compiles with the project's flags: {problem[:4000]}")
    print("FAILED" if failures else "OK", f"({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
