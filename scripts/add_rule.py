#!/usr/bin/env python3
"""Creates a new steplint rule: its source file, registration, doc page and tests.

    scripts/add_rule.py SL108 dataloader-pin-memory-off --category input_pipeline

writes
    rules/src/<category>/slNNN_<name>.cpp   Options, the rule class, registerSlNNN(), a check()
                                            that says "not checked: not implemented"
    rules/src/<category>/registry.cpp       declaration and call of registerSlNNN (sorted)
    rules/src/<category>/sources.cmake      the source file (sorted)
    docs/rules/SLNNN-<name>.md              the fixed sections (docs/reference/style.md §2.5), to fill in
    docs/rules/README.md                    the index row (sorted by code)
    tests/rules/<category>/slNNN_<name>_test.cpp and tests.cmake
                                            a positive test that fails until check() finds the
                                            pattern, and a negative one

It refuses a code or a name that exists, a code outside the category's hundreds block and a
name that is not kebab-case or starts with avoid-/use-. Nothing is written unless every check
passes. --root writes into another copy of the tree (the script's test uses it); --dry-run
prints what would be written.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

# The project's formatting: the C++ files this script creates are formatted with it, so that
# they pass scripts/check-format.sh (CI) as written. Named explicitly because --root may be a
# copy of the tree without it.
CLANG_FORMAT_STYLE = pathlib.Path(__file__).resolve().parent.parent / ".clang-format"

# Category directory -> (Category enumerator, hundreds digit, name in docs/rules/README.md).
CATEGORIES = {
    "trace_health": ("kTraceHealth", "0", "trace-health"),
    "input_pipeline": ("kInputPipeline", "1", "input-pipeline"),
    "transfer": ("kTransfer", "2", "transfer"),
    "gpu_execution": ("kGpuExecution", "3", "gpu-execution"),
    "memory": ("kMemory", "4", "memory"),
    "distributed": ("kDistributed", "5", "distributed"),
    "optimizer": ("kOptimizer", "6", "optimizer"),
}

RULE_TEMPLATE = """\
// {code} {name}: TODO one paragraph: the pattern flagged and what in the trace shows it.
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {{

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {{

/// Each member's initialiser is the option's default. Bind it to the name users write in
/// register{fn}() with analyzer::option(...) and list it in docs/rules/{code}-{name}.md.
struct Options {{}};

/// {code}: TODO the pattern flagged, in one line.
class {cls} final : public analyzer::RuleWith<Options> {{
 public:
  using RuleWith::RuleWith;
  void check(const AnalysisContext& context, DiagnosticSink& sink) const override;
}};

}}  // namespace

void register{fn}(analyzer::RuleRegistry& registry) {{
  registry.add<{cls}>({{"{code}", "{name}", analyzer::Category::{enum}, analyzer::Severity::kWarning,
                        true, "TODO one line for steplint rules"}});
}}

void {cls}::check(const AnalysisContext& context, DiagnosticSink& sink) const {{
  (void)context;
  sink.notChecked("not implemented");
}}

}}  // namespace steplint::rules
"""

DOC_TEMPLATE = """\
# {code} {name}
Category: {doc_category} · Default: on · Severity: warning · Since: 0.1

## What it does

TODO one paragraph.

## Why is this bad?

TODO the mechanism.

## Trace evidence

TODO exactly what is matched, with the thresholds and the events or args used.

## Example

TODO the symptom in a trace (a few event lines), then the code before → after.

## How to fix

1. TODO LibTorch C++ first.
2. TODO the Python equivalent.

## Options

None.

## Relation to other tools

TODO the tb_plugin / HTA / nsys / TorchTidy counterpart, and documented differences.
"""

TEST_TEMPLATE = """\
// {code} {name}. Written by scripts/add_rule.py: the positive test fails until check() finds
// the pattern; replace patternTrace() with a trace that shows it.
#include <catch2/catch.hpp>

#include "../rule_test_util.h"
#include "kineto_trace.h"

namespace steplint::test {{
namespace {{

// TODO a trace with the pattern. KinetoTrace builds steps, ops, runtime calls, kernels, memcpys.
std::string patternTrace() {{
  KinetoTrace t;
  t.device(0).step(1, 0, 1000).op("aten::mm", 10, 100).step(2, 1000, 1000).op("aten::mm", 1010, 100);
  return t.str();
}}

TEST_CASE("{code}: flags the pattern", "[rules][{code}]") {{
  const RuleRun run = runRuleOnJson("{code}", patternTrace());
  for (const std::string& reason : run.not_checked) UNSCOPED_INFO("not checked: " << reason);
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].code == "{code}");
  CHECK_FALSE(run.diagnostics[0].message.empty());
}}

TEST_CASE("{code}: a trace without the pattern has no finding", "[rules][{code}]") {{
  KinetoTrace t;
  t.device(0).step(1, 0, 1000).op("aten::add", 10, 100);
  const RuleRun run = runRuleOnJson("{code}", t.str());
  CHECK(run.not_checked.empty());
  CHECK(run.diagnostics.empty());
}}

}}  // namespace
}}  // namespace steplint::test
"""


class Refused(Exception):
    pass


def pascal(kebab):
    return "".join(part.capitalize() for part in kebab.split("-"))


def existing_rules(root):
    """(code, name) of every rule registered in rules/src, and every documented one."""
    found = set()
    for path in (root / "rules" / "src").glob("*/sl*.cpp"):
        for code, name in re.findall(r'\{"(SL\d{3})", "([a-z0-9-]+)"', path.read_text()):
            found.add((code, name))
    for path in (root / "docs" / "rules").glob("SL*-*.md"):
        code, _, name = path.stem.partition("-")
        found.add((code, name))
    return found


def insert_sorted(lines, new_line, pattern):
    """Inserts new_line among the consecutive lines matching `pattern`, keeping them sorted."""
    matching = [i for i, line in enumerate(lines) if re.match(pattern, line)]
    if not matching:
        raise Refused(f"no line matching {pattern!r} to insert {new_line.strip()!r} next to")
    at = next((i for i in matching if lines[i] > new_line), matching[-1] + 1)
    lines.insert(at, new_line)


def plan(root, code, name, category):
    """Every file to write: {path: new text}. Raises Refused on a bad or taken code/name."""
    if category not in CATEGORIES:
        raise Refused(f"unknown category '{category}'; expected one of: {', '.join(CATEGORIES)}")
    enum, digit, doc_category = CATEGORIES[category]
    if not re.fullmatch(r"SL\d{3}", code):
        raise Refused(f"code '{code}' is not SL followed by three digits")
    if code[2] != digit:
        raise Refused(f"{code} is outside the {category} block SL{digit}xx")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        raise Refused(f"name '{name}' is not kebab-case")
    if name.startswith(("avoid-", "use-")):
        raise Refused(f"name '{name}' must describe the pattern flagged, not avoid-/use- advice")
    for taken_code, taken_name in sorted(existing_rules(root)):
        if taken_code == code:
            raise Refused(f"{code} exists ({taken_code} {taken_name}); codes are never reused")
        if taken_name == name:
            raise Refused(f"the name '{name}' exists ({taken_code}); pick another")

    snake = f"sl{code[2:]}_{name.replace('-', '_')}"
    fn = "Sl" + code[2:]
    fields = dict(code=code, name=name, cls=pascal(name) + "Rule", fn=fn, enum=enum, doc_category=doc_category)
    rule_cpp = root / "rules" / "src" / category / f"{snake}.cpp"
    test_cpp = root / "tests" / "rules" / category / f"{snake}_test.cpp"
    doc = root / "docs" / "rules" / f"{code}-{name}.md"
    for path in (rule_cpp, test_cpp, doc):
        if path.exists():
            raise Refused(f"{path.relative_to(root)} exists")
    files = {rule_cpp: RULE_TEMPLATE.format(**fields), test_cpp: TEST_TEMPLATE.format(**fields),
             doc: DOC_TEMPLATE.format(**fields)}

    registry = root / "rules" / "src" / category / "registry.cpp"
    lines = registry.read_text().splitlines(keepends=True)
    insert_sorted(lines, f"void register{fn}(analyzer::RuleRegistry& registry);  // {name}\n",
                  r"void registerSl\d{3}\(")
    insert_sorted(lines, f"  register{fn}(registry);\n", r"  registerSl\d{3}\(registry\);")
    files[registry] = "".join(lines)

    sources = root / "rules" / "src" / category / "sources.cmake"
    lines = sources.read_text().splitlines(keepends=True)
    insert_sorted(lines, f"  src/{category}/{snake}.cpp\n", rf"  src/{category}/sl\d{{3}}_")
    files[sources] = "".join(lines)

    tests = root / "tests" / "rules" / category / "tests.cmake"
    lines = tests.read_text().splitlines(keepends=True)
    insert_sorted(lines, f"  {category}/{snake}_test.cpp\n", rf"  {category}/sl\d{{3}}_")
    files[tests] = "".join(lines)

    index = root / "docs" / "rules" / "README.md"
    lines = index.read_text().splitlines(keepends=True)
    insert_sorted(lines, f"| [{code}]({code}-{name}.md) | `{name}` | {doc_category} | on | warning | "
                         "TODO one line for steplint rules |\n", r"\| \[SL\d{3}\]\(")
    files[index] = "".join(lines)
    return files


def format_created(paths):
    """Formats the C++ files this run created with .clang-format (never a file it only edits,
    so that no line it did not write changes). Without clang-format they stay as written."""
    clang_format = shutil.which("clang-format")
    if not paths or clang_format is None or not CLANG_FORMAT_STYLE.is_file():
        if paths:
            print("add_rule.py: clang-format not found: run `git clang-format` before committing")
        return
    subprocess.run([clang_format, "-i", f"--style=file:{CLANG_FORMAT_STYLE}", *map(str, paths)], check=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("code", help="SLNNN, in the category's hundreds block")
    parser.add_argument("name", help="kebab-case name of the pattern flagged")
    parser.add_argument("--category", required=True, choices=sorted(CATEGORIES))
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                        help="the source tree to write into (default: this checkout)")
    parser.add_argument("--dry-run", action="store_true", help="print the files that would change, write nothing")
    args = parser.parse_args(argv)
    try:
        files = plan(args.root.resolve(), args.code, args.name, args.category)
    except (Refused, OSError) as error:
        print(f"add_rule.py: {error}", file=sys.stderr)
        return 1
    created = []
    for path, text in sorted(files.items()):
        verb = "modify" if path.exists() else "create"
        print(f"{verb} {path.relative_to(args.root.resolve())}")
        if not args.dry_run:
            if verb == "create" and path.suffix in (".cpp", ".h"):
                created.append(path)
            path.write_text(text)
    if not args.dry_run:
        format_created(created)
        print(f"next: write check() and the doc page; the tests ([{args.code}]) fail until the rule finds the pattern")
    return 0


if __name__ == "__main__":
    sys.exit(main())
