// End-to-end runs of the `steplint` executable: what a user or CI script sees.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accelerator_traces.h"
#include "fixtures.h"
#include "run_steplint.h"

namespace steplint::test {

std::vector<std::string> RunResult::errLines() const {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

std::string scratchPath(const std::string& name) {
  static std::atomic<int> counter{0};
  std::filesystem::create_directories(STEPLINT_CLI_TEST_TMP);
  return std::string(STEPLINT_CLI_TEST_TMP) + "/" + std::to_string(::getpid()) + "_" +
         std::to_string(counter++) + "_" + name;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

// `command` with stdout and stderr captured and stdin from /dev/null.
RunResult runCaptured(std::string command) {
  const std::string out_path = scratchPath("stdout");
  const std::string err_path = scratchPath("stderr");
  command += " >" + shellQuote(out_path) + " 2>" + shellQuote(err_path) + " </dev/null";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  result.out = readFile(out_path);
  result.err = readFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return result;
}

}  // namespace

RunResult runSteplint(const std::vector<std::string>& args) {
  std::string command = "env -u NO_COLOR TERM=dumb " + shellQuote(STEPLINT_EXE);
  for (const std::string& arg : args) command += " " + shellQuote(arg);
  return runCaptured(std::move(command));
}

RunResult runShell(const std::string& script) {
  return runCaptured("env -u NO_COLOR TERM=dumb STEPLINT=" + shellQuote(STEPLINT_EXE) +
                     " /bin/sh -c " + shellQuote(script));
}

namespace {

const std::string kTinyTrace = testDataPath("cli/tiny_steps.json");
const std::string kNotATrace = testDataPath("cli/not_a_trace.txt");
const std::string kTruncated = testDataPath("cli/truncated.json");

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("steplint --help lists the summary subcommand", "[cli]") {
  RunResult r = runSteplint({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("summary") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("steplint summary --help shows its options", "[cli]") {
  RunResult r = runSteplint({"summary", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* option : {"--format", "--keep-tail-steps", "--color", "--output", "TRACE"})
    CHECK(r.out.find(option) != std::string::npos);
}

TEST_CASE("steplint --version prints one line", "[cli]") {
  RunResult r = runSteplint({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(startsWith(r.out, "steplint "));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
}

TEST_CASE("usage errors exit 2 with one error line", "[cli]") {
  SECTION("no arguments") {
    RunResult r = runSteplint({});
    CHECK(r.exit_code == 2);
    CHECK_FALSE(r.err.empty());
  }
  SECTION("unknown subcommand") {
    RunResult r = runSteplint({"frobnicate"});
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(startsWith(r.err, "steplint: error: "));
  }
  SECTION("unknown option") {
    RunResult r = runSteplint({"summary", "--no-such-option", kTinyTrace});
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(startsWith(r.err, "steplint: error: "));
    CHECK(r.err.find("steplint summary --help") != std::string::npos);
  }
  SECTION("bad --format value") {
    RunResult r = runSteplint({"summary", "--format", "yaml", kTinyTrace});
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(startsWith(r.err, "steplint: error: "));
  }
  SECTION("summary without a trace") {
    RunResult r = runSteplint({"summary"});
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    CHECK(startsWith(r.err, "steplint: error: "));
  }
}

TEST_CASE("a missing file exits 2 with one error line naming it", "[cli]") {
  const std::string missing = scratchPath("does_not_exist.json");
  RunResult r = runSteplint({"summary", missing});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  REQUIRE(r.errLines().size() == 1);
  CHECK(r.errLines()[0] == "steplint: error: " + missing + ": no such file");
}

TEST_CASE(
    "a directory is read as a folder of traces, one without traces exits 2 with one error line",
    "[cli]") {
  const std::string empty = scratchPath("no_traces");
  REQUIRE(runShell("mkdir -p " + shellQuote(empty)).exit_code == 0);
  RunResult r = runSteplint({"summary", empty});
  CHECK(r.exit_code == 2);
  REQUIRE(r.errLines().size() == 1);
  CHECK(r.errLines()[0] ==
        "steplint: error: " + empty + ": no trace files in it (*.json, *.json.gz)");
}

TEST_CASE("a file that is not a trace exits 2 with one error line", "[cli]") {
  for (const char* format : {"text", "json"}) {
    CAPTURE(format);
    RunResult r = runSteplint({"summary", "--format", format, kNotATrace});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    REQUIRE(r.errLines().size() == 1);
    CHECK(startsWith(r.errLines()[0], "steplint: error: " + kNotATrace + ": not a trace ("));
  }
}

TEST_CASE("summary --format json prints one steplint.summary/1 object", "[cli]") {
  RunResult r = runSteplint({"summary", "--format", "json", kTinyTrace});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc.is_object());
  CHECK(doc.value("schema", "") == "steplint.summary/1");
}

TEST_CASE("summary --format json with several traces prints an array", "[cli]") {
  SECTION("all readable") {
    RunResult r = runSteplint({"summary", "--format", "json", kTinyTrace, kTinyTrace});
    CHECK(r.exit_code == 0);
    nlohmann::json doc = nlohmann::json::parse(r.out);
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() == 2);
    for (const auto& item : doc) CHECK(item.value("schema", "") == "steplint.summary/1");
  }
  SECTION("one unreadable: the others are still printed, exit 2") {
    RunResult r = runSteplint({"summary", "--format", "json", kNotATrace, kTinyTrace});
    CHECK(r.exit_code == 2);
    REQUIRE(r.errLines().size() == 1);
    nlohmann::json doc = nlohmann::json::parse(r.out);
    REQUIRE(doc.is_array());
    CHECK(doc.size() == 1);
  }
}

TEST_CASE("summary text output", "[cli]") {
  RunResult r = runSteplint({"summary", "--color", "never", kTinyTrace});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK_FALSE(r.out.empty());
  CHECK(r.out.find('\x1b') == std::string::npos);  // no ANSI escapes when colour is off

  RunResult colored = runSteplint({"summary", "--color", "always", kTinyTrace});
  CHECK(colored.exit_code == 0);
  CHECK(colored.out.find('\x1b') != std::string::npos);

  RunResult piped = runSteplint({"summary", kTinyTrace});  // --color auto, stdout is a file
  CHECK(piped.out.find('\x1b') == std::string::npos);

  RunResult two = runSteplint({"summary", "--color", "never", kTinyTrace, kTinyTrace});
  CHECK(two.exit_code == 0);
  CHECK(two.out.size() > r.out.size());
}

TEST_CASE("summary --keep-tail-steps is accepted", "[cli]") {
  RunResult r = runSteplint({"summary", "--keep-tail-steps", "--format", "json", kTinyTrace});
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out).value("schema", "") == "steplint.summary/1");
}

TEST_CASE("summary -o writes the file and nothing to stdout", "[cli]") {
  const std::string output = scratchPath("summary.json");
  RunResult r = runSteplint({"summary", "--format", "json", "-o", output, kTinyTrace});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(nlohmann::json::parse(readFile(output)).value("schema", "") == "steplint.summary/1");
  std::remove(output.c_str());
}

TEST_CASE("summary -o leaves no file when the input is not a trace", "[cli]") {
  const std::string output = scratchPath("never_written.json");
  RunResult r = runSteplint({"summary", "--format", "json", "-o", output, kNotATrace});
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("summary -o into a missing directory exits 2", "[cli]") {
  RunResult r = runSteplint({"summary", "-o", scratchPath("no/such/dir/out.txt"), kTinyTrace});
  CHECK(r.exit_code == 2);
  REQUIRE(r.errLines().size() == 1);
  CHECK(r.err.find("cannot open for writing") != std::string::npos);
}

TEST_CASE("data-loss import warnings go to stderr and keep exit code 0", "[cli]") {
  RunResult r = runSteplint({"summary", "--format", "json", kTruncated});
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out).value("schema", "") == "steplint.summary/1");
  bool found = false;
  for (const std::string& line : r.errLines()) {
    CHECK(startsWith(line, "steplint: warning: " + kTruncated + ": "));
    if (line.find("json_truncated") != std::string::npos) found = true;
  }
  CHECK(found);
}

TEST_CASE("check: the report carries the import warnings, in every machine format", "[cli]") {
  // They went to stderr only: a CI job reading the JSON or SARIF saw a clean, whole result.
  const RunResult json = runSteplint({"check", "--format", "json", kTruncated});
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  REQUIRE(doc.at("warnings").size() == json.errLines().size());
  for (size_t i = 0; i < json.errLines().size(); ++i)
    CHECK("steplint: warning: " + doc["warnings"][i].get<std::string>() == json.errLines()[i]);
  CHECK(doc["warnings"][0].get<std::string>().find("json_truncated") != std::string::npos);
  const nlohmann::json sarif =
      nlohmann::json::parse(runSteplint({"check", "--format", "sarif", kTruncated}).out);
  bool found = false;
  for (const nlohmann::json& n : sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"])
    found = found || (n["level"] == "warning" && n["message"]["text"] == doc["warnings"][0]);
  CHECK(found);
  CHECK(nlohmann::json::parse(runSteplint({"check", "--format", "json", kTinyTrace}).out)
            .at("warnings")
            .empty());
}

// Issue 13: on an MTIA trace steplint said "CUDA activity was not captured" (SL002) and
// "conv/matmul ops compute on the CPU ... (est. saving 4.4 ms/step, 49%)" (SL604).
TEST_CASE("check on an MTIA trace: device work counted, no CUDA claim", "[cli][accelerator]") {
  const std::string path = scratchPath("mtia.json");
  std::ofstream(path) << mtiaTrace();
  RunResult r = runSteplint({"check", path});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No findings in 1 trace") != std::string::npos);
  CHECK(r.out.find("SL604 gpu-idle-while-cpu-busy: device is MTIA: this rule reads") !=
        std::string::npos);
  CHECK(r.out.find("SL002 missing-gpu-activity: device is MTIA: this rule reads") !=
        std::string::npos);
  CHECK(r.out.find("est. saving") == std::string::npos);
  RunResult summary = runSteplint({"summary", "--format", "json", path});
  const nlohmann::json doc = nlohmann::json::parse(summary.out);
  CHECK(doc["trace"]["accelerator"] == "MTIA");
  CHECK(doc["breakdown"]["average_fraction"]["kernel"].get<double>() == Approx(6.8 / 9.0));
  std::remove(path.c_str());
}

TEST_CASE("summary on a shared reference trace", "[cli][slow]") {
  const std::string path =
      requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  RunResult r = runSteplint({"summary", "--format", "json", path});
  CHECK(r.exit_code == 0);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  CHECK(doc.value("schema", "") == "steplint.summary/1");
}

}  // namespace steplint::test
