// End-to-end runs for issue 12: what the CLI does with inputs that are not regular files,
// oversized or hostile baselines, configs and selectors, and outputs that must not destroy a
// user's file. Each case is one reproduction from the issue, with its exit code and message.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "run_steplint.h"
#include "sanitizers.h"

namespace steplint::test {
namespace {

const std::string kTiny = testDataPath("cli/tiny_steps.json");
const std::string kGzipped = testDataPath("gpu/fast_trainer_marked.pt.trace.json.gz");

std::string writeScratch(const std::string& name, const std::string& text) {
  const std::string path = scratchPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Without a fix, reading /dev/zero grows without bound: cap the address space so such a run
// fails in a second instead of taking the machine's memory (not under ASan, which reserves
// terabytes of address space).
std::string memoryGuard() { return kSanitized ? "" : "ulimit -v 4194304; "; }

}  // namespace

TEST_CASE("inputs: a trace through a pipe is read once (summary <(...)) (#12)", "[cli][input]") {
  for (const std::string& file : {kTiny, kGzipped}) {
    CAPTURE(file);
    const RunResult direct = runSteplint({"summary", "--format", "json", file});
    REQUIRE(direct.exit_code == 0);
    const RunResult piped =
        runShell("cat " + shellQuote(file) + " | \"$STEPLINT\" summary --format json /dev/stdin");
    INFO(piped.err);
    REQUIRE(piped.exit_code == 0);
    const nlohmann::json a = nlohmann::json::parse(direct.out),
                         b = nlohmann::json::parse(piped.out);
    CHECK(b["source"] == "/dev/stdin");
    CHECK(a["steps"] == b["steps"]);
    CHECK(a["breakdown"] == b["breakdown"]);
  }
}

TEST_CASE("inputs: a FIFO whose writer starts late is read (#12)", "[cli][input]") {
  const std::string fifo = scratchPath("trace.fifo");
  // The writer execs cat, so $! is the process that blocks opening the FIFO: killing it
  // cannot leave a writer behind if steplint gave up before opening.
  const RunResult r = runShell("mkfifo " + shellQuote(fifo) + " || exit 99\n(sleep 0.3; exec cat " +
                               shellQuote(kTiny) + " > " + shellQuote(fifo) +
                               ") &\nwriter=$!\n\"$STEPLINT\" summary --format json " +
                               shellQuote(fifo) + "\nstatus=$?\nkill $writer 2>/dev/null\nrm -f " +
                               shellQuote(fifo) + "\nexit $status");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out).value("schema", "") == "steplint.summary/1");
}

TEST_CASE("inputs: a folder's dangling links and FIFOs named like traces are said, not dropped",
          "[cli][input]") {
  const std::string dir = scratchPath("odd_folder");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kTiny, dir + "/a.json");
  std::filesystem::create_symlink(dir + "/gone.json", dir + "/rank9.pt.trace.json");
  REQUIRE(mkfifo((dir + "/rank5.pt.trace.json").c_str(), 0600) == 0);
  const RunResult r = runSteplint({"summary", "--format", "json", dir});
  INFO(r.err);
  CHECK(r.exit_code == 0);  // the trace that is there is read; the FIFO is never opened
  CHECK(r.err.find("steplint: warning: " + dir +
                   "/rank9.pt.trace.json: skipped: a symbolic link to nothing (or a loop of "
                   "links)") != std::string::npos);
  CHECK(r.err.find("steplint: warning: " + dir +
                   "/rank5.pt.trace.json: skipped: a FIFO, not a "
                   "file") != std::string::npos);
}

TEST_CASE("inputs: a folder's other JSON files are skipped with a warning, broken traces not",
          "[cli][input]") {
  // A config or metrics file beside the traces made the whole run exit 2, report and all.
  const std::string dir = scratchPath("other_json_folder");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kTiny, dir + "/a.pt.trace.json");
  std::ofstream(dir + "/config.json") << R"({"lr": 0.1, "epochs": 3})";
  const std::string said = "steplint: warning: " + dir +
                           "/config.json: skipped: not a trace (a JSON object without traceEvents";
  const RunResult summary = runSteplint({"summary", "--format", "json", dir});
  INFO(summary.err);
  CHECK(summary.exit_code == 0);
  CHECK(summary.err.find(said) != std::string::npos);
  CHECK(nlohmann::json::parse(summary.out).size() == 1);
  const RunResult check = runSteplint({"check", "--no-config", "--format", "json", dir});
  INFO(check.err);
  CHECK(check.exit_code != 2);  // 1: the trace's own findings
  const nlohmann::json report = nlohmann::json::parse(check.out);
  REQUIRE(report.at("warnings").size() == 1);
  CHECK(("steplint: warning: " + report["warnings"][0].get<std::string>()).rfind(said, 0) == 0);
  // Named on the command line it is an error, and so is a trace-named file that is broken.
  CHECK(runSteplint({"check", "--no-config", dir + "/config.json"}).exit_code == 2);
  std::ofstream(dir + "/b.pt.trace.json") << "{\"traceEvents\": [{\"ph\": ";
  std::ofstream(dir + "/c.pt.trace.json");  // empty: a rank that crashed before writing
  const RunResult broken = runSteplint({"summary", dir});
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("steplint: error: " + dir + "/c.pt.trace.json: ") != std::string::npos);
}

TEST_CASE("inputs: devices are refused by what they are (#12)", "[cli][input]") {
  const RunResult trace = runSteplint({"summary", "/dev/zero"});
  CHECK(trace.exit_code == 2);
  CHECK(trace.errLines() ==
        std::vector<std::string>{
            "steplint: error: /dev/zero: is a character device, not a trace file"});

  // Beside a job folder, a device is one side of a job diff: one error, not a second "no rank".
  const std::string job = scratchPath("device_diff_job");
  std::filesystem::remove_all(job);
  std::filesystem::create_directories(job);
  std::filesystem::copy_file(kTiny, job + "/rank0.pt.trace.json");
  const RunResult job_diff = runSteplint({"diff", "/dev/zero", job});
  CHECK(job_diff.exit_code == 2);
  CHECK(job_diff.err.find("steplint: error: /dev/zero: is a character device, not a trace file") !=
        std::string::npos);
  CHECK(job_diff.err.find("/dev/zero: no rank of a job could be read") == std::string::npos);

  const RunResult baseline =
      runShell(memoryGuard() + "exec \"$STEPLINT\" check --no-config --baseline /dev/zero " +
               shellQuote(kTiny));
  CHECK(baseline.exit_code == 2);
  CHECK(baseline.errLines() ==
        std::vector<std::string>{
            "steplint: error: /dev/zero: is a character device, not a baseline file"});

  const RunResult config = runSteplint({"check", "--config", "/dev/null", kTiny});
  CHECK(config.exit_code == 2);
  CHECK(config.errLines() ==
        std::vector<std::string>{
            "steplint: error: /dev/null: is a character device, not a config file"});
}

TEST_CASE("inputs: an oversized baseline is refused before it is read (#12)",
          "[cli][input][baseline]") {
  const std::string huge = writeScratch("huge-baseline.json", "");
  std::filesystem::resize_file(huge, std::uintmax_t{65} << 20);  // sparse: costs no disk
  const RunResult file = runSteplint({"check", "--no-config", "--baseline", huge, kTiny});
  CHECK(file.exit_code == 2);
  CHECK(file.errLines() ==
        std::vector<std::string>{"steplint: error: " + huge +
                                 ": larger than 64 MiB, too large for a baseline file"});
  std::filesystem::remove(huge);

  // The same through a pipe, whose size only shows while reading: stopped at the limit.
  const RunResult piped =
      runShell(memoryGuard() + "head -c 100000000 /dev/zero | \"$STEPLINT\" check --no-config " +
               "--baseline /dev/stdin " + shellQuote(kTiny));
  CHECK(piped.exit_code == 2);
  CHECK(piped.errLines() ==
        std::vector<std::string>{
            "steplint: error: /dev/stdin: larger than 64 MiB, too large for a baseline file"});
}

TEST_CASE("inputs: a baseline of an unknown schema is refused (#12)", "[cli][input][baseline]") {
  const std::string baseline = writeScratch(
      "future-baseline.json", R"({"schema": "steplint.baseline/3", "fingerprints": []})");
  const RunResult r = runSteplint({"check", "--no-config", "--baseline", baseline, kTiny});
  CHECK(r.exit_code == 2);
  CHECK(r.errLines() == std::vector<std::string>{
                            "steplint: error: " + baseline +
                            ": unsupported baseline schema \"steplint.baseline/3\" (this "
                            "steplint reads \"steplint.baseline/2\" and \"steplint.baseline/1\")"});
}

TEST_CASE("inputs: a 100 KB selector is refused with a short message (#12)",
          "[cli][input][selector]") {
  // 100 KB: one command-line argument may not exceed 128 KiB on Linux.
  const RunResult r =
      runSteplint({"check", "--no-config", "--select", std::string(100'000, 'x'), kTiny});
  CHECK(r.exit_code == 2);
  CHECK(r.errLines() ==
        std::vector<std::string>{"steplint: error: --select: unknown rule selector '" +
                                 std::string(60, 'x') + "... (100000 bytes)'"});
}

TEST_CASE("inputs: rule options that are nan, inf or negative are refused (#12)",
          "[cli][input][config]") {
  const nlohmann::json rules =
      nlohmann::json::parse(runSteplint({"rules", "--format", "json"}).out);
  for (const nlohmann::json& rule : rules) {
    for (const nlohmann::json& option : rule["options"]) {
      if (!option["default"].is_number()) continue;
      const std::string code = rule["code"], name = option["name"];
      const std::string key = "lint.options." + code + "." + name;
      for (const auto& [value, problem] : std::vector<std::pair<std::string, std::string>>{
               {"nan", "expected a finite number, got nan"},
               {"-inf", "expected a finite number, got -inf"},
               {"-1", "must be at least 0, got -1"}}) {
        if (value != "-1" && !option["default"].is_number_float())
          continue;  // TOML: nan is a float
        CAPTURE(key, value);
        const std::string config = writeScratch(
            "steplint.toml", "[lint.options." + code + "]\n" + name + " = " + value + "\n");
        const RunResult r = runSteplint({"check", "--config", config, kTiny});
        CHECK(r.exit_code == 2);
        REQUIRE(r.errLines().size() == 1);
        const std::string tail =
            "steplint.toml: " + key + ": " + problem;  // the file is shown relative to cwd
        CHECK(r.errLines()[0].size() > tail.size());
        CHECK(r.errLines()[0].compare(r.errLines()[0].size() - tail.size(), tail.size(), tail) ==
              0);
      }
      return;  // one number option of a real rule is enough: the check is in the shared parser
    }
  }
  FAIL("no registered rule has a number option");
}

TEST_CASE("inputs: a corrupt gzip header and a second document are named (#12)", "[cli][input]") {
  const std::string gz = writeScratch("corrupt.json.gz", std::string("\x1f\x8bXXXXXXXXXXXXXXXX"));
  const RunResult corrupt = runSteplint({"summary", gz});
  CHECK(corrupt.exit_code == 2);
  CHECK(corrupt.errLines() ==
        std::vector<std::string>{"steplint: error: " + gz +
                                 ": corrupt gzip data (unknown compression method)"});

  const std::string two = writeScratch("two.json", "[]\n{\"traceEvents\": []}\n");
  const RunResult second = runSteplint({"summary", "--format", "json", two});
  CHECK(second.exit_code == 0);
  bool warned = false;
  for (const std::string& line : second.errLines())
    warned |= line.rfind("steplint: warning: " + two + ": 1 x json_second_document [data-loss]: ",
                         0) == 0;
  CHECK(warned);
}

TEST_CASE("outputs: -o naming an input trace is refused and the trace kept (#12)",
          "[cli][output]") {
  const std::string trace = scratchPath("trace.json");
  std::filesystem::copy_file(kTiny, trace);
  const std::string original = readFile(trace);
  const std::string refusal = "steplint: error: " + trace + ": is the same file as the input " +
                              trace + " (refusing to overwrite an input)";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"summary", "-o", trace, trace},
        {"check", "--no-config", "-o", trace, trace},
        {"check", "--no-config", "--write-baseline", trace, trace}}) {
    CAPTURE(args);
    const RunResult r = runSteplint(args);
    CHECK(r.exit_code == 2);
    CHECK(r.errLines() == std::vector<std::string>{refusal});
    CHECK(readFile(trace) == original);
  }
}

TEST_CASE("outputs: a trace in an input folder, a --compare base or no input is kept",
          "[cli][output]") {
  // `check DIR -o DIR/rank0.pt.trace.json` wrote the report over the rank's trace: the check
  // saw the folder, not the files in it. A trace that is no input was replaced as well.
  const std::string dir = scratchPath("output_job");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string rank0 = dir + "/rank0.pt.trace.json", rank1 = dir + "/rank1.pt.trace.json";
  std::filesystem::copy_file(kTiny, rank0);
  std::filesystem::copy_file(kTiny, rank1);
  const std::string other = scratchPath("not_an_input.pt.trace.json");
  std::filesystem::copy_file(kTiny, other, std::filesystem::copy_options::overwrite_existing);
  const std::string original = readFile(kTiny);
  const std::string input = "(refusing to overwrite an input)";
  const std::string a_trace = ": is a trace (refusing to replace it)";
  for (const auto& [args, said] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"check", "--no-config", "-o", rank0, dir}, input},
           {{"summary", "-o", rank1, dir + "/*.json"}, input},
           {{"check", "--no-config", "-o", rank1, kTiny, "--compare", dir}, input},
           {{"diff", dir, dir, "-o", rank0}, input},
           {{"diff", kTiny, kTiny, "-o", other}, a_trace},
           {{"check", "--no-config", "--write-baseline", other, kTiny}, a_trace}}) {
    CAPTURE(args);
    const RunResult r = runSteplint(args);
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(r.errLines()[0].find(said) != std::string::npos);
    CHECK(readFile(rank0) == original);
    CHECK(readFile(rank1) == original);
    CHECK(readFile(other) == original);
  }
  // A report written into the folder before is no input: the next run replaces it. A rank
  // summary there is one, and is kept.
  const std::string report = dir + "/report.json";
  for (int run = 0; run < 2; ++run) {
    const RunResult r =
        runSteplint({"check", "--no-config", "--format", "json", "-o", report, dir});
    INFO(r.err);
    CHECK(r.exit_code != 2);
  }
  CHECK(readFile(report).find("\"rules\"") != std::string::npos);
  const std::string summary = dir + "/rank2.summary.json";
  REQUIRE(runSteplint({"summary", "--format", "json", "-o", summary, rank0}).exit_code == 0);
  const RunResult over_summary = runSteplint({"check", "--no-config", "-o", summary, dir});
  CHECK(over_summary.exit_code == 2);
  CHECK(over_summary.err.find("(refusing to overwrite an input)") != std::string::npos);
}

TEST_CASE(
    "outputs: -o naming --baseline or --config is refused, --write-baseline may update --baseline (#12)",
    "[cli][output]") {
  const std::string config = writeScratch("steplint.toml", "[lint]\nfail-on = \"error\"\n");
  const std::string baseline =
      writeScratch("baseline.json", R"({"schema": "steplint.baseline/1", "fingerprints": []})");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"check", "--config", config, "-o", config, kTiny},
        {"check", "--config", config, "--write-baseline", config, kTiny},
        {"check", "--no-config", "--baseline", baseline, "-o", baseline, kTiny}}) {
    CAPTURE(args);
    const RunResult r = runSteplint(args);
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(r.errLines()[0].find("(refusing to overwrite an input)") != std::string::npos);
  }
  CHECK(readFile(config) == "[lint]\nfail-on = \"error\"\n");

  const RunResult update = runSteplint({"check", "--no-config", "--select", "ALL", "--baseline",
                                        baseline, "--write-baseline", baseline, kTiny});
  CHECK(update.exit_code == 0);
  CHECK(update.err.find("is a steplint.baseline/1 baseline: its entries apply to every trace") !=
        std::string::npos);
  CHECK(nlohmann::json::parse(readFile(baseline))["schema"] ==
        "steplint.baseline/2");  // rewritten as version 2
}

TEST_CASE("outputs: a failed write keeps the old report (#12)", "[cli][output]") {
  const std::string report = writeScratch("report.txt", "the old report\n");
  // A 512-byte file size limit: the summary (about 2 KB) cannot be written.
  const RunResult r = runShell("ulimit -f 1; trap '' XFSZ; exec \"$STEPLINT\" summary -o " +
                               shellQuote(report) + " " + shellQuote(kTiny));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(report + ": write failed (File too large)") != std::string::npos);
  CHECK(readFile(report) == "the old report\n");
}

TEST_CASE("outputs: -o /dev/null and /dev/stdout still work, a directory does not (#12)",
          "[cli][output]") {
  const RunResult plain = runSteplint({"check", "--no-config", "--format", "json", kTiny});
  const RunResult to_null =
      runSteplint({"check", "--no-config", "--format", "json", "-o", "/dev/null", kTiny});
  CHECK(to_null.exit_code == plain.exit_code);
  CHECK(to_null.out.empty());
  const RunResult to_stdout =
      runSteplint({"summary", "--format", "json", "-o", "/dev/stdout", kTiny});
  CHECK(to_stdout.exit_code == 0);
  CHECK(to_stdout.out == runSteplint({"summary", "--format", "json", kTiny}).out);

  const std::string dir = scratchPath("a-directory");
  std::filesystem::create_directories(dir);
  const RunResult r = runSteplint({"summary", "-o", dir, kTiny});
  CHECK(r.exit_code == 2);
  CHECK(r.errLines() == std::vector<std::string>{"steplint: error: " + dir + ": is a directory"});
}

}  // namespace steplint::test
