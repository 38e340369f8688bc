// `steplint record` refusing an -o it must not or cannot write, before the program runs
// (issue 12). No LibTorch needed: every case ends before a trainer would start, or runs a
// program without LibTorch. Recordings of real trainers: tests/collector_e2e/record_e2e_test.cpp.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "run_steplint.h"

namespace steplint::test {
namespace {

namespace fs = std::filesystem;

/// A fresh empty directory under the scratch directory.
std::string scratchDir(const std::string& name) {
  const std::string dir = scratchPath(name);
  fs::create_directories(dir);
  return dir;
}

/// `steplint record --no-report -o OUTPUT [extra...] -- /bin/sh -c 'touch MARKER'`: the marker
/// exists afterwards only if the program was started.
RunResult recordTouching(const std::string& output, const std::string& marker,
                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"record", "--no-report", "-o", output};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const char* arg : {"--", "/bin/sh", "-c"}) args.emplace_back(arg);
  args.push_back("touch '" + marker + "'");
  return runSteplint(args);
}

/// Files left in `dir` besides `keep` (staging files must never stay behind).
std::vector<std::string> othersIn(const std::string& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> others;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (std::find(keep.begin(), keep.end(), name) == keep.end()) others.push_back(name);
  }
  return others;
}

}  // namespace

TEST_CASE("record: a FIFO at -o is refused before the program runs, and left alone",
          "[cli][record]") {
  const std::string dir = scratchDir("fifo");
  const std::string fifo = dir + "/t.json";
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);  // a device node needs root; a FIFO does not
  const RunResult r = recordTouching(fifo, dir + "/ran");
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "steplint: error: " + fifo +
            " exists and is not a regular file; steplint record writes only regular files\n");
  struct stat st {};
  REQUIRE(stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(othersIn(dir, {"t.json"}).empty());  // no marker: the program did not run
}

TEST_CASE("record: an -o ending in '/' is refused before the program runs", "[cli][record]") {
  const std::string dir = scratchDir("slash");
  const RunResult r = recordTouching(dir + "/newdir/", dir + "/ran");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("newdir/ names a directory; -o takes the trace's file name") !=
        std::string::npos);
  CHECK(othersIn(dir, {}).empty());  // no directory made, no staging file, no marker
}

TEST_CASE("record: a directory at -o is refused and left alone", "[cli][record]") {
  const std::string dir = scratchDir("dir");
  const std::string target = dir + "/t.json";
  fs::create_directory(target);
  const RunResult r = recordTouching(target, dir + "/ran");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(target + " exists and is not a regular file") != std::string::npos);
  CHECK(fs::is_directory(target));
  CHECK(othersIn(dir, {"t.json"}).empty());
}

constexpr const char* kOldTrace = R"({"schemaVersion": 1, "traceEvents": []})";

TEST_CASE("record: an existing trace survives a program that cannot run", "[cli][record]") {
  const std::string dir = scratchDir("keep");
  const std::string trace = dir + "/t.json";
  std::ofstream(trace) << kOldTrace;
  const RunResult r =
      runSteplint({"record", "--no-report", "-o", trace, "--", dir + "/no-such-program"});
  CHECK(r.exit_code == 127);
  CHECK(r.err.find("cannot run " + dir + "/no-such-program") != std::string::npos);
  CHECK(readFile(trace) == kOldTrace);
  CHECK(othersIn(dir, {"t.json"}).empty());
}

TEST_CASE("record: a file at -o that is no trace is refused before the program runs",
          "[cli][record]") {
  // `-o train.py -- python train.py` used to replace the user's script with the trace.
  const std::string dir = scratchDir("notrace");
  const std::string script = dir + "/train.py";
  std::ofstream(script) << "import torch\n";
  const RunResult r = recordTouching(script, dir + "/ran");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "steplint: error: " + script +
                     " exists and is not a trace; steplint record replaces only an earlier "
                     "trace: choose another -o, or remove the file\n");
  CHECK(readFile(script) == "import torch\n");
  CHECK(othersIn(dir, {"train.py"}).empty());  // no marker: the program did not run
  SECTION("an empty file or an earlier trace, gzipped or not, may be replaced") {
    for (const std::string name : {"empty.json", "old.json"}) {
      std::ofstream(dir + "/" + name) << (name == "old.json" ? kOldTrace : "");
      CHECK(runSteplint(
                {"record", "--no-report", "-o", dir + "/" + name, "--", dir + "/no-such-program"})
                .exit_code == 127);  // accepted: the run was tried
    }
  }
}

TEST_CASE("record: report options a check would refuse are refused before the program runs",
          "[cli][record]") {
  // They used to be read after the whole training run, which then printed an error and no
  // report, and exited 0.
  const std::string dir = scratchDir("reportopts");
  const std::string trace = dir + "/t.json";
  const std::string marker = dir + "/ran";
  const auto refuses = [&](std::vector<std::string> options, const std::string& message) {
    std::vector<std::string> args = {"record", "-o", trace};
    args.insert(args.end(), options.begin(), options.end());
    for (const char* arg : {"--", "/bin/sh", "-c"}) args.emplace_back(arg);
    args.push_back("touch '" + marker + "'");
    const RunResult r = runSteplint(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(marker));
  };
  refuses({"--select", "SL9999"}, "steplint: error: --select: unknown rule selector 'SL9999'");
  refuses({"--compare", dir + "/nope.json"}, "--compare " + dir + "/nope.json: no such file");
  refuses({"--max-regression", "5%"}, "--max-regression needs --compare BASE");
  refuses({"--config", dir + "/missing.toml"}, "missing.toml");
  refuses({"--report-output", trace}, trace + ": ");  // the report would replace the trace
  refuses({"--report-output", dir}, dir + ": ");
  // --no-report: no report, nothing to refuse.
  CHECK(recordTouching(trace, marker, {"--select", "SL9999"}).exit_code != 2);
}

TEST_CASE(
    "record: an -o that cannot be written is refused with the OS reason before the program runs",
    "[cli][record]") {
  const std::string dir = scratchDir("unwritable");
  const std::string marker = dir + "/ran";
  SECTION("in /proc") {
    const RunResult r = recordTouching("/proc/nope/t.json.gz", marker);
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "steplint: error: cannot create the directory /proc/nope for /proc/nope/t.json.gz: "
          "No such file or directory\n");
  }
  SECTION("under a regular file") {  // root ignores permissions, so no chmod-based case
    std::ofstream(dir + "/file") << "x";
    const RunResult r = recordTouching(dir + "/file/t.json", marker);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot create the directory " + dir + "/file") != std::string::npos);
    CHECK(r.err.find("Not a directory") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("record: a bad --schedule is refused before the program runs", "[cli][record]") {
  const std::string dir = scratchDir("schedule");
  const std::string schedule = GENERATE("0,0,0", "a,b,c", "1,1", "1,1,1,1,1", "-1,0,1");
  const RunResult r = recordTouching(dir + "/t.json", dir + "/ran", {"--schedule", schedule});
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "steplint: error: --schedule " + schedule +
            ": expected wait,warmup,active[,repeat]: non-negative integers with active >= 1, as "
            "torch.profiler.schedule\n");
  CHECK(othersIn(dir, {}).empty());
}

TEST_CASE("record: a program without LibTorch leaves no trace and no staging file",
          "[cli][record]") {
  const std::string dir = scratchDir("none");
  const RunResult r = recordTouching(dir + "/t.json", dir + "/ran", {"--schedule", "1,1,2"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("no trace was written to " + dir + "/t.json") != std::string::npos);
  CHECK(othersIn(dir, {"ran"}).empty());
}

TEST_CASE("record: a trainer killed before it wrote a byte leaves nothing to analyse, said once",
          "[cli][record]") {
  // h6 D11: "analysing the incomplete trace", then "not a trace (empty file)". The program
  // stands in for a trainer SIGKILLed while its collector had the trace open but empty.
  const std::string dir = scratchDir("killed");
  const RunResult r = runSteplint({"record", "--no-config", "-o", dir + "/t.json", "--", "/bin/sh",
                                   "-c", ": > \"$STEPLINT_OUTPUT.partial\"; kill -9 $$"});
  INFO(r.err);
  CHECK(r.exit_code == 128 + 9);  // the trainer's
  CHECK(r.err.find("steplint: warning: " + dir +
                   "/t.json.partial: the recording did not finish (") != std::string::npos);
  CHECK(r.err.find("; the file is empty: there is nothing to analyse\n") != std::string::npos);
  CHECK(r.err.find("analysing the incomplete trace") == std::string::npos);
  CHECK(r.err.find("not a trace") == std::string::npos);
}

}  // namespace steplint::test
