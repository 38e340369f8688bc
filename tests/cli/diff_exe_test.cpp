// `steplint diff` end to end: the known change between two real runs, and bad input.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>

#include "fixtures.h"
#include "run_steplint.h"

namespace steplint::test {
namespace {

const nlohmann::json* findRow(const nlohmann::json& rows, const std::string& name) {
  for (const nlohmann::json& r : rows)
    if (r["name"] == name) return &r;
  return nullptr;
}

const nlohmann::json* findFinding(const nlohmann::json& findings, const std::string& code) {
  for (const nlohmann::json& f : findings)
    if (f["code"] == code) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("diff of ResNet-50 with 0 and 4 DataLoader workers blames the DataLoader",
          "[cli][diff][slow]") {
  const std::string base =
      requireFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  const std::string next =
      requireFixture("kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");
  RunResult r = runSteplint({"diff", "--format", "json", base, next});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  CHECK(doc["schema"] == "steplint.diff/1");
  const nlohmann::json& c = doc["categories"];
  // Workers take the loading off the training thread: -58 ms/step of DataLoader time...
  CHECK(c["dataloader"]["delta_ms"].get<double>() == Approx(-58.08).margin(0.05));
  // ...while the main thread does more CPU-side work per step (pinned copies, IPC, launches).
  CHECK(c["cpu_exec"]["delta_ms"].get<double>() == Approx(8.99).margin(0.05));
  CHECK(c["runtime"]["delta_ms"].get<double>() == Approx(7.66).margin(0.05));
  CHECK(std::abs(c["kernel"]["delta_ms"].get<double>()) < 1.0);  // the GPU work is the same model
  CHECK(doc["step_delta_ms"].get<double>() == Approx(-36.52).margin(0.05));
  CHECK(doc["base"]["steps"]["steps"] == 6);
  // The single-process iterator vanished; the metadata says what the change was.
  const nlohmann::json* loader =
      findRow(doc["cpu_ops"], "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  REQUIRE(loader != nullptr);
  CHECK((*loader)["change"] == "vanished");
  bool dataloader_differs = false;
  for (const nlohmann::json& m : doc["metadata"])
    if (m["key"] == "dataloader") dataloader_differs = m["differs"].get<bool>();
  CHECK(dataloader_differs);
  const nlohmann::json* sl101 = findFinding(doc["findings"], "SL101");
  REQUIRE(sl101 != nullptr);
  CHECK((*sl101)["change"] == "fixed");
  CHECK(doc["matched_device_time_fraction"].get<double>() > 0.9);  // same model: no note
  CHECK(doc["notes"].empty());
}

TEST_CASE("diff as Markdown for a PR comment, and without the rules", "[cli][diff]") {
  const std::string slow = testDataPath("gpu/slow_trainer_marked.pt.trace.json.gz");
  const std::string fast = testDataPath("gpu/fast_trainer_marked.pt.trace.json.gz");
  RunResult md = runSteplint({"diff", "--format", "markdown", "--top", "3", slow, fast});
  REQUIRE(md.exit_code == 0);
  CHECK(md.out.rfind("## steplint diff\n", 0) == 0);
  CHECK(md.out.find("| fixed | SL101 dataloader-wait |") != std::string::npos);
  CHECK(md.out.find("more changed rows (--top 0 shows all)") != std::string::npos);
  RunResult json = runSteplint({"diff", "--format", "json", "--no-findings", slow, fast});
  REQUIRE(json.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["findings"].is_null());
  CHECK(doc["categories"]["dataloader"]["delta_ms"].get<double>() < -20);
}

TEST_CASE("diff refuses bad input with one clear line", "[cli][diff]") {
  const std::string slow = testDataPath("gpu/slow_trainer_marked.pt.trace.json.gz");
  RunResult missing = runSteplint({"diff", slow, "no-such-trace.json"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("steplint: error: no-such-trace.json") != std::string::npos);
  CHECK(missing.out.empty());
  RunResult not_trace = runSteplint({"diff", testDataPath("cli/not_a_trace.txt"), slow});
  CHECK(not_trace.exit_code == 2);
  CHECK(not_trace.err.find("not a trace") != std::string::npos);
  RunResult one = runSteplint({"diff", slow});
  CHECK(one.exit_code == 2);
  // -o naming an input would destroy the trace: refused before anything is read.
  RunResult overwrite = runSteplint({"diff", "-o", slow, slow, slow});
  CHECK(overwrite.exit_code == 2);
  const std::string out = scratchPath("diff.md");
  RunResult to_file =
      runSteplint({"diff", "--format", "markdown", "--no-findings", "-o", out, slow, slow});
  CHECK(to_file.exit_code == 0);
  CHECK(readFile(out).find("Step time: ") != std::string::npos);
  CHECK(readFile(out).find("+0.000 ms") == std::string::npos);  // a run against itself: no change
  std::remove(out.c_str());
}

TEST_CASE("diff of two single-process runs' folders compares their traces", "[cli][diff]") {
  // tensorboard_trace_handler's log folder of a one-GPU run holds one trace naming no rank:
  // `diff base_log/ new_log/` said "no rank of a job could be read" on both sides.
  const std::string slow = testDataPath("gpu/slow_trainer_marked.pt.trace.json.gz");
  const std::string fast = testDataPath("gpu/fast_trainer_marked.pt.trace.json.gz");
  const std::string base = scratchPath("diff_single_base"), next = scratchPath("diff_single_new");
  for (const auto& [dir, trace] : {std::pair{base, slow}, std::pair{next, fast}}) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(trace, dir + "/host_123.1700000000000.pt.trace.json.gz");
  }
  const RunResult folders = runSteplint({"diff", "--format", "json", base, next});
  INFO(folders.err);
  CHECK(folders.exit_code == 0);
  CHECK(folders.err.find("steplint: note: one single-process run on each side: comparing " + base +
                         "/host_123.1700000000000.pt.trace.json.gz with " + next) !=
        std::string::npos);
  const RunResult files = runSteplint({"diff", "--format", "json", slow, fast});
  REQUIRE(files.exit_code == 0);
  nlohmann::json a = nlohmann::json::parse(folders.out), b = nlohmann::json::parse(files.out);
  CHECK(a["step_time"] == b["step_time"]);
  // A folder holding a rank of a job (named by its file, no world of one) still means a job.
  std::filesystem::remove(next + "/host_123.1700000000000.pt.trace.json.gz");
  std::filesystem::copy_file(testDataPath("cli/tiny_steps.json"), next + "/rank0.pt.trace.json");
  CHECK(runSteplint({"diff", base, next}).err.find("one single-process run") == std::string::npos);
}

}  // namespace steplint::test
