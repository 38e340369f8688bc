// The regression gate (`check NEW --compare BASE`) and `diff` on run pairs with a known truth,
// made by steplint-tracegen: the same trainer re-recorded (other noise), a planted 10% kernel
// slowdown, a planted device-to-device copy per step, and a run too short to decide.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "run_steplint.h"

namespace steplint::test {
namespace {

/// A 20-step GPU-bound trainer (2 ms DataLoader) with the model of seed 3; `extra` adds
/// tracegen flags. Ends the test as skipped (77) when tracegen is not built.
std::string makeRun(const std::string& name, const std::string& extra, int steps = 20) {
#ifndef STEPLINT_TRACEGEN
  (void)name, (void)extra, (void)steps;
  std::fprintf(stderr, "SKIPPED: steplint-tracegen is not built (STEPLINT_BUILD_BENCH=OFF)\n");
  std::_Exit(77);
#else
  const std::string path = scratchPath(name + ".pt.trace.json.gz");
  const std::string command = shellQuote(STEPLINT_TRACEGEN) +
                              " -q --seed 3 --dataloader-ms 2 --steps " + std::to_string(steps) +
                              " " + extra + " -o " + shellQuote(path);
  REQUIRE(std::system(command.c_str()) == 0);
  return path;
#endif
}

nlohmann::json firstTrace(const RunResult& r) {
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["traces"].size() == 1);
  return doc["traces"][0];
}

}  // namespace

TEST_CASE("gate: a re-recording of the same trainer passes", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string same = makeRun("same", "--noise-seed 2");
  RunResult r = runSteplint({"check", "--select", "SL801", "--format", "json", same, "--compare",
                             base, "--max-regression", "2%,kernel=2%"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const nlohmann::json t = firstTrace(r);
  CHECK(t["findings"].empty());
  CHECK(t["not_checked"].empty());
  CHECK(r.err.find("regression gate, " + same + ": pass: step time") != std::string::npos);
}

TEST_CASE("gate: a planted 10% kernel slowdown fails, in every format", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slow = makeRun("slow", "--noise-seed 2 --kernel-slowdown 1.1");
  RunResult r =
      runSteplint({"check", "--select", "SL801", "--format", "json", slow, "--compare", base});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const nlohmann::json t = firstTrace(r);
  REQUIRE(t["findings"].size() == 1);
  const nlohmann::json& f = t["findings"][0];
  CHECK(f["code"] == "SL801");
  CHECK(f["severity"] == "error");
  CHECK(f["fingerprint"] == "SL801:step");
  // The kernels are ~92% of this step: +10% kernel time is about +9% step time.
  CHECK(f["evidence"]["metrics"]["regression_fraction"].get<double>() ==
        Approx(0.092).margin(0.01));
  CHECK(f["evidence"]["metrics"]["p_value"].get<double>() < 0.001);

  for (const char* format : {"sarif", "junit", "github", "markdown", "text"}) {
    RunResult other =
        runSteplint({"check", "--select", "SL801", "--format", format, slow, "--compare", base});
    INFO(format);
    CHECK(other.exit_code == 1);
    CHECK(other.out.find("SL801") != std::string::npos);
    CHECK(other.out.find("step time 8") != std::string::npos);  // the message with its figures
  }
  // A looser limit, in steplint.toml, passes the same pair.
  const std::string config = scratchPath("steplint.toml");
  std::ofstream(config) << "[compare]\nmax-regression = [\"15%\", \"kernel=15%\"]\n";
  RunResult loose =
      runSteplint({"check", "--config", config, "--select", "SL801", slow, "--compare", base});
  CHECK(loose.exit_code == 0);
  std::ofstream(config) << "[compare]\nmax-regression = \"fast=1%\"\n";
  RunResult bad = runSteplint({"check", "--config", config, slow, "--compare", base});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("compare.max-regression: unknown category 'fast'") != std::string::npos);
  std::remove(config.c_str());
}

TEST_CASE("gate: single-process runs' log folders are compared as their traces", "[cli][gate]") {
  // tensorboard_trace_handler's folder of a one-GPU run: `--compare base_log/` was refused
  // ("no trace in it names a rank").
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slow = makeRun("slow", "--noise-seed 2 --kernel-slowdown 1.1");
  const std::string base_dir = scratchPath("gate_base_log"), new_dir = scratchPath("gate_new_log");
  for (const auto& [dir, trace] : {std::pair{base_dir, base}, std::pair{new_dir, slow}}) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(trace, dir + "/host_1.1700000000000.pt.trace.json.gz");
  }
  RunResult r = runSteplint(
      {"check", "--select", "SL801", "--format", "json", new_dir, "--compare", base_dir});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const nlohmann::json t = firstTrace(r);
  REQUIRE(t["findings"].size() == 1);
  CHECK(t["findings"][0]["code"] == "SL801");
}

TEST_CASE("gate: a category limit catches what the step limit lets through", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string copy = makeRun("copy", "--noise-seed 2 --extra-dtod-copies 4");
  RunResult step_only = runSteplint({"check", "--select", "SL801", copy, "--compare", base});
  CHECK(step_only.exit_code == 0);  // 4 x 32 µs of copies: far inside 5% of an 82 ms step
  RunResult memcpy = runSteplint({"check", "--select", "SL801", "--format", "json", copy,
                                  "--compare", base, "--max-regression", "memcpy=2%"});
  INFO(memcpy.err);
  CHECK(memcpy.exit_code == 1);
  const nlohmann::json t = firstTrace(memcpy);
  REQUIRE(t["findings"].size() == 1);
  CHECK(t["findings"][0]["fingerprint"] == "SL801:memcpy");
}

TEST_CASE("gate: with too few steps it says it cannot decide and does not fail", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string few = makeRun("few", "--noise-seed 2 --kernel-slowdown 1.1", 4);
  RunResult r =
      runSteplint({"check", "--select", "SL801", "--format", "json", few, "--compare", base});
  CHECK(r.exit_code == 0);
  const nlohmann::json t = firstTrace(r);
  CHECK(t["findings"].empty());
  REQUIRE(t["not_checked"].size() == 1);
  CHECK(t["not_checked"][0]["code"] == "SL801");
  CHECK(t["not_checked"][0]["reason"].get<std::string>().find("cannot decide") !=
        std::string::npos);
  CHECK(t["not_checked"][0]["reason"].get<std::string>().find("needs 5 in each") !=
        std::string::npos);
}

TEST_CASE("gate: bad use is a usage error", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1", 5);
  RunResult no_base = runSteplint({"check", base, "--max-regression", "5%"});
  CHECK(no_base.exit_code == 2);
  CHECK(no_base.err.find("--max-regression needs --compare BASE") != std::string::npos);
  RunResult bad_limit = runSteplint({"check", base, "--compare", base, "--max-regression", "five"});
  CHECK(bad_limit.exit_code == 2);
  CHECK(bad_limit.err.find("expected a percentage") != std::string::npos);
  RunResult missing = runSteplint({"check", base, "--compare", "no-such-base.json"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no-such-base.json") != std::string::npos);
}

TEST_CASE(
    "diff on planted pairs: the kernel slowdown and the extra copy are where they were planted",
    "[cli][diff][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slow = makeRun("slow", "--noise-seed 2 --kernel-slowdown 1.1");
  const std::string copy = makeRun("copy", "--noise-seed 2 --extra-dtod-copies 1");
  RunResult r = runSteplint({"diff", "--no-findings", "--format", "json", base, slow});
  REQUIRE(r.exit_code == 0);
  nlohmann::json d = nlohmann::json::parse(r.out);
  const double kernel_base = d["categories"]["kernel"]["base_ms"].get<double>();
  CHECK(d["categories"]["kernel"]["delta_ms"].get<double>() ==
        Approx(0.1 * kernel_base).epsilon(0.1));
  CHECK(std::abs(d["categories"]["dataloader"]["delta_ms"].get<double>()) < 0.5);
  for (const nlohmann::json& row : d["device_ops"])  // every kernel is 10% slower, none new
    CHECK(row["change"] == "matched");

  r = runSteplint({"diff", "--no-findings", "--format", "json", base, copy});
  REQUIRE(r.exit_code == 0);
  d = nlohmann::json::parse(r.out);
  const nlohmann::json& first_new =
      *std::find_if(d["device_ops"].begin(), d["device_ops"].end(),
                    [](const nlohmann::json& row) { return row["change"] != "matched"; });
  CHECK(first_new["name"] == "Memcpy DtoD (Device -> Device)");
  CHECK(first_new["change"] == "appeared");
  CHECK(first_new["new"]["count_per_step"].get<double>() == Approx(1));
  for (const nlohmann::json& row : d["device_ops"])
    if (row["name"] != "Memcpy DtoD (Device -> Device)") CHECK(row["change"] == "matched");
}

TEST_CASE("gate: a job's folder is compared rank by rank, and its ranks' regressions fail",
          "[cli][gate]") {
  // `check job/ --compare base` used to skip the gate without a word (exit 0), and a job's
  // rank files given one by one printed "regressed" but dropped SL801 from the report.
#ifndef STEPLINT_TRACEGEN
  std::fprintf(stderr, "SKIPPED: steplint-tracegen is not built (STEPLINT_BUILD_BENCH=OFF)\n");
  std::_Exit(77);
#else
  const std::string dir = scratchPath("gatejob");
  const std::string command = shellQuote(STEPLINT_TRACEGEN) +
                              " -q --ranks 2 --steps 10 --straggler backward -o " +
                              shellQuote(dir + "/slow") + " && " + shellQuote(STEPLINT_TRACEGEN) +
                              " -q --ranks 2 --steps 10 -o " + shellQuote(dir + "/base");
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string base = dir + "/base/rank0.pt.trace.json";
  for (const std::vector<std::string>& news :
       {std::vector<std::string>{dir + "/slow"},
        std::vector<std::string>{dir + "/slow/rank0.pt.trace.json",
                                 dir + "/slow/rank1.pt.trace.json"}}) {
    std::vector<std::string> args = {"check", "--select", "SL801", "--format", "json"};
    args.insert(args.end(), news.begin(), news.end());
    args.insert(args.end(), {"--compare", base});
    const RunResult r = runSteplint(args);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    size_t regressions = 0;
    for (const auto& t : doc["traces"])
      for (const auto& f : t["findings"]) regressions += f["code"] == "SL801";
    CHECK(regressions == 2);  // each rank +25 % against the base rank
  }
  // The same job against its own rank passes.
  const RunResult same = runSteplint(
      {"check", "--select", "SL801", "--format", "json", dir + "/base", "--compare", base});
  CHECK(same.exit_code == 0);
#endif
}

TEST_CASE("gate: several base recordings, the new run against the slowest", "[cli][gate]") {
  // Recordings of one trainer can differ by more than their steps vary (another job on the
  // machine): here one base recording ran 10 % slower, and so did the new run.
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slower_base = makeRun("slower_base", "--noise-seed 3 --kernel-slowdown 1.1");
  const std::string next = makeRun("next", "--noise-seed 2 --kernel-slowdown 1.1");
  const RunResult alone = runSteplint({"check", "--select", "SL801", next, "--compare", base});
  CHECK(alone.exit_code == 1);
  const RunResult both = runSteplint(
      {"check", "--select", "SL801", next, "--compare", base, "--compare", slower_base});
  INFO(both.err);
  CHECK(both.exit_code == 0);
  CHECK(both.err.find("(against the slowest of 2 base runs, " + slower_base + ")") !=
        std::string::npos);
#ifdef STEPLINT_TRACEGEN  // makeRun has ended the test as skipped without it
  // A trace and a job's folder are no recordings of one run.
  const std::string folder = scratchPath("mixed_base");
  REQUIRE(std::system(
              (shellQuote(STEPLINT_TRACEGEN) + " -q --ranks 2 --steps 6 -o " + shellQuote(folder))
                  .c_str()) == 0);
  const RunResult mixed =
      runSteplint({"check", "--select", "SL801", next, "--compare", base, "--compare", folder});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("give either traces or jobs' folders or globs, not both") !=
        std::string::npos);
#endif
}

TEST_CASE("gate: a job compared with a job's folder, rank N against rank N", "[cli][gate]") {
  // `check new/ --compare base/` said "base/: is a directory, not a trace file" (exit 2).
#ifndef STEPLINT_TRACEGEN
  std::fprintf(stderr, "SKIPPED: steplint-tracegen is not built (STEPLINT_BUILD_BENCH=OFF)\n");
  std::_Exit(77);
#else
  const std::string dir = scratchPath("gatejobs");
  const std::string gen = shellQuote(STEPLINT_TRACEGEN) + " -q --ranks 4 --steps 10 ";
  const std::string command = gen + "--seed 1 -o " + shellQuote(dir + "/base") + " && " + gen +
                              "--seed 2 -o " + shellQuote(dir + "/same") + " && " + gen +
                              "--seed 2 --straggler backward --straggler-rank 2 -o " +
                              shellQuote(dir + "/slow");
  REQUIRE(std::system(command.c_str()) == 0);
  const auto gate = [&](const std::string& next, const std::string& base) {
    return runSteplint({"check", "--select", "SL801", "--format", "json", next, "--compare", base,
                        "--max-regression", "2%"});
  };
  // The checked trace's file name -> the message of its SL801 (sources are printed relative).
  const auto fileName = [](const std::string& path) { return path.substr(path.rfind('/') + 1); };
  const auto sl801 = [&](const RunResult& r) {
    std::map<std::string, std::string> against;
    const nlohmann::json doc = nlohmann::json::parse(r.out);  // alive through the loop
    for (const auto& t : doc["traces"])
      for (const auto& f : t["findings"])
        if (f["code"] == "SL801")
          against[fileName(t["source"].get<std::string>())] = f["message"].get<std::string>();
    return against;
  };
  SECTION("a re-recorded job passes; each rank is tested at the level over the ranks") {
    const RunResult r = gate(dir + "/same", dir + "/base");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(sl801(r).empty());
    CHECK(r.err.find("4 traces compared rank by rank with the base job: each is tested at "
                     "significance 0.0125") != std::string::npos);
  }
  SECTION("a straggler fails every rank, each against its own rank") {
    const RunResult r = gate(dir + "/slow", dir + "/base/*.json");  // a glob, as quoted
    INFO(r.err);
    CHECK(r.exit_code == 1);
    const auto against = sl801(r);
    REQUIRE(against.size() == 4);
    REQUIRE(against.count("rank2.pt.trace.json") == 1);
    CHECK(against.at("rank2.pt.trace.json").find("/base/rank2.pt.trace.json") != std::string::npos);
  }
  SECTION("a rank the base job lacks cannot be decided; a base naming no rank is an error") {
    REQUIRE(std::remove((dir + "/base/rank3.pt.trace.json").c_str()) == 0);
    const RunResult r = gate(dir + "/same", dir + "/base");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    bool undecided = false;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    for (const auto& t : doc["traces"])
      for (const auto& n : t["not_checked"])
        undecided =
            undecided || (fileName(t["source"].get<std::string>()) == "rank3.pt.trace.json" &&
                          n["code"] == "SL801" &&
                          n["reason"].get<std::string>().find(
                              "cannot decide: rank 3 is not in the base job") == 0);
    CHECK(undecided);
    const std::string unranked = dir + "/unranked";
    // No distributedInfo, and no rank in the file name.
    REQUIRE(std::system((gen + "--no-distributed-info -o " + shellQuote(unranked) + " && cd " +
                         shellQuote(unranked) + " && mv rank0.pt.trace.json run.json && rm rank?.*")
                            .c_str()) == 0);
    const RunResult bad = gate(dir + "/same", unranked);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("no trace in it names a rank") != std::string::npos);
  }
#endif
}

TEST_CASE("gate: a baseline does not hide SL801, and --ignore SL801 turns the gate off",
          "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slow = makeRun("slow", "--noise-seed 2 --kernel-slowdown 1.1");
  const std::string baseline = scratchPath("sl801-baseline.json");
  std::ofstream(baseline) << R"({"fingerprints": ["SL801:step"]})";
  const RunResult hidden =
      runSteplint({"check", "--select", "SL801", slow, "--compare", base, "--baseline", baseline});
  INFO(hidden.err);
  CHECK(hidden.exit_code == 1);
  CHECK(hidden.out.find("SL801 [error]") != std::string::npos);
  const RunResult off =
      runSteplint({"check", "--select", "SL001", "--ignore", "SL801", slow, "--compare", base});
  CHECK(off.exit_code == 0);
  CHECK(off.err.find("regression gate") == std::string::npos);
}

TEST_CASE("gate: a limit given twice counts once, the stricter", "[cli][gate]") {
  const std::string base = makeRun("base", "--noise-seed 1");
  const std::string slow = makeRun("slow", "--noise-seed 2 --kernel-slowdown 1.1");
  const RunResult r = runSteplint({"check", "--select", "SL801", "--format", "json", slow,
                                   "--compare", base, "--max-regression", "5%,3%"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const nlohmann::json t = firstTrace(r);
  REQUIRE(t["findings"].size() == 1);  // not one per spelling of the step limit
  CHECK(t["findings"][0]["message"].get<std::string>().find("limit +3.0%") != std::string::npos);
}

}  // namespace steplint::test
