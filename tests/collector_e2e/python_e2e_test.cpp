// `steplint record -- python3 train.py` end to end (issue 16): the preload starts the collector
// at `import torch`, torch's Python ranges arrive through the RecordFunction callback, and the
// import hook writes the DataLoader settings, so SL101 and SL102 decide. Needs Debian's
// python3-torch under /usr/bin/python3 (the libtorch the collector links); skipped without it.
// The torch-mismatch case needs no torch: a stand-in libtorch_cpu.so in a wheel layout.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e_support.h"
#include "steplint/trace/trace_file_names.h"

namespace steplint::e2e {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

void requireTorchPython() {
  const int rc = runProcess({kPython, "-c", "import torch"}, {}, scratchPath("import_torch.log"));
  if (rc == 0) return;
  std::fprintf(stderr,
               "SKIPPED: %s cannot import torch (install python3-torch: scripts/install-deps.sh)\n",
               kPython);
  std::fflush(stderr);
  std::_Exit(77);
}

/// The `steplint check --format json` report of `trace`, parsed.
nlohmann::json checkJson(const std::string& trace) {
  const std::string report = scratchPath("check.json");
  runProcess({STEPLINT_EXE, "check", "--no-config", "--format", "json", "-o", report, trace}, {},
             scratchPath("check.log"));
  return nlohmann::json::parse(readFile(report), nullptr, /*allow_exceptions=*/false);
}

const nlohmann::json* findByCode(const nlohmann::json& list, const std::string& code) {
  for (const nlohmann::json& item : list)
    if (item.value("code", "") == code) return &item;
  return nullptr;
}

/// Records the Python sample once for all test cases of this process.
const std::string& recordedPythonSample() {
  static const std::string trace = [] {
    const std::string path = scratchPath("python_sample.pt.trace.json");
    const std::string log = scratchPath("python_sample.log");
    const int rc = runProcess({STEPLINT_EXE, "record", "--no-report", "-o", path, "--", kPython,
                               PYTHON_SAMPLE, "--steps", "8", "--delay-ms", "2"},
                              {}, log);
    INFO(readFile(log));
    REQUIRE(rc == 0);
    return path;
  }();
  return trace;
}

}  // namespace

TEST_CASE("steplint record records a Python trainer with no code change", "[torch][python]") {
  requireTorchPython();
  LintedTrace t;
  std::string error;
  REQUIRE(lintTrace(recordedPythonSample(), t, &error));
  // torch's own Python-side ranges, through the collector's RecordFunction callback.
  CHECK(t.countNamed("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") ==
        9);  // 8 + the last
  CHECK(t.countNamed("Optimizer.step#SGD.step") == 8);
  CHECK(t.countNamed("Optimizer.zero_grad#SGD.zero_grad") == 8);
  CHECK(t.countNamed("aten::addmm") >= 8 * 3);
  // The import hook's settings (sitecustomize.py), written as the rules read them.
  REQUIRE(t.json.is_object());
  CHECK(t.json.value("dataloader_workers", -1) == 0);
  CHECK(t.json.value("dataloader_batch_size", -1) == 30);
  CHECK(t.json.value("dataloader_pin_memory", true) == false);
  CHECK(t.json.value("dataloader_persistent_workers", true) == false);
  CHECK(t.json.value("cudnn_benchmark", true) == false);
  CHECK(t.json.value("autocast_enabled", true) == false);
}

TEST_CASE(
    "steplint check on a recorded Python trainer: SL101 names the DataLoader wait, SL102 decides",
    "[torch][python]") {
  requireTorchPython();
  const nlohmann::json report = checkJson(recordedPythonSample());
  REQUIRE(report.is_object());
  const nlohmann::json& result = report["traces"][0];
  const nlohmann::json* sl101 = findByCode(result["findings"], "SL101");
  REQUIRE(sl101 != nullptr);
  const std::string message = (*sl101)["message"];
  INFO(message);
  CHECK(message.find("waiting for the DataLoader (single-process loader: num_workers=0)") !=
        std::string::npos);
  // 30 samples x 2 ms each per step against a sub-millisecond MLP step: most of the step.
  CHECK((*sl101)["evidence"]["metrics"]["dataloader_fraction"].get<double>() > 0.5);
  // The worker count is in the trace: SL102 decides (0 workers + 1 process fit any host).
  CHECK(findByCode(result["not_checked"], "SL102") == nullptr);
  CHECK(findByCode(result["findings"], "SL102") == nullptr);
  // SL403 judges tensor-core alignment: on a CPU-only run it honestly stays not checked, for
  // the device and not for a missing batch size (the rule reads dataloader_batch_size).
  const nlohmann::json* sl403 = findByCode(result["not_checked"], "SL403");
  REQUIRE(sl403 != nullptr);
  CHECK((*sl403)["reason"] == "no GPU activity in this trace");
}

TEST_CASE("steplint record on Python: DataLoader worker processes write no trace of their own",
          "[torch][python]") {
  requireTorchPython();
  for (const std::string context : {"fork", "spawn", "forkserver"}) {
    const std::string trace = scratchPath("python_workers_" + context + ".pt.trace.json");
    const std::string log = scratchPath("python_workers_" + context + ".log");
    const std::string script =
        "import sys, torch\n"
        "from torch.utils.data import DataLoader, TensorDataset\n"
        "if __name__ == '__main__':\n"
        "    dl = DataLoader(TensorDataset(torch.randn(64, 8)), batch_size=16, num_workers=2,\n"
        "                    multiprocessing_context='" +
        context +
        "')\n"
        "    for (x,) in dl: torch.mm(x, x.t())\n";
    const std::string script_path = scratchPath("workers_" + context + ".py");
    std::ofstream(script_path) << script;
    const int rc = runProcess(
        {STEPLINT_EXE, "record", "--no-report", "-o", trace, "--", kPython, script_path}, {}, log);
    INFO(context << ": " << readFile(log));
    REQUIRE(rc == 0);
    LintedTrace t;
    std::string error;
    REQUIRE(lintTrace(trace, t, &error));
    CHECK(t.json.value("dataloader_workers", -1) == 2);
    CHECK(t.countNamed("aten::mm") == 4);  // the main process's four batches, nothing else
    CHECK(t.countNamed("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__") == 5);
  }
}

TEST_CASE(
    "steplint record on a 2-rank DDP job: one trace per rank, the slow loader's rank named (#14, #16)",
    "[torch][python][slow]") {
  requireTorchPython();
  const std::string trace = scratchPath("ddp.pt.trace.json.gz");
  const std::string log = scratchPath("ddp.log");
  // What torchrun sets up (Debian's torchrun does not start on Python 3.11); a port per run.
  const std::string port = std::to_string(freeTcpPort());
  const std::string rank = std::string(kPython) + " " + DDP_SAMPLE +
                           " --straggler dataloader --straggler-rank 1 --steps 8 --delay-ms 1";
  const std::string script = "export MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port +
                             " WORLD_SIZE=2 OMP_NUM_THREADS=1; RANK=0 " + rank + " & RANK=1 " +
                             rank + "; wait";
  const int rc = runProcess(
      {STEPLINT_EXE, "record", "--no-config", "-o", trace, "--", "sh", "-c", script}, {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 0);
  // 64 samples a step at 1 ms against 4 ms on rank 1: it keeps rank 0 waiting every step.
  CHECK(output.find("SL701 [warning] rank 1 keeps the other 1 rank(s) waiting") !=
        std::string::npos);
  CHECK(output.find("cause: input pipeline") != std::string::npos);
  for (const char* tag : {"rank0", "rank1"}) {
    const std::string path = trace::processTracePath(trace, tag);
    CHECK(output.find("trace: " + path) != std::string::npos);
    LintedTrace t;
    std::string error;
    REQUIRE(lintTrace(path, t, &error));
    CHECK(t.model.metadata.distributed.world_size == 2);
    CHECK(t.model.metadata.distributed.backend == "gloo");  // from the import hook
  }
}

namespace {

/// Records the DDP sample starting 2 ranks itself with `start_method` (no RANK in their
/// environment: only init_process_group knows who is who), checks what every such job shows
/// (exit 0, SL701 on the slow loader's rank, a trace per rank with its rank, the loader's
/// settings and 8 optimizer steps, no launcher trace), runs `per_rank` on each rank's trace
/// and returns the command's output.
std::string recordSelfStartedRanks(const std::string& start_method,
                                   const std::function<void(const LintedTrace&)>& per_rank) {
  const std::string trace = scratchPath(start_method + "_ranks.pt.trace.json");
  const std::string log = scratchPath(start_method + "_ranks.log");
  const std::string port = std::to_string(freeTcpPort());
  const int rc = runProcess({STEPLINT_EXE,
                             "record",
                             "--no-config",
                             "-o",
                             trace,
                             "--",
                             kPython,
                             DDP_SAMPLE,
                             "--spawn",
                             "2",
                             "--start-method",
                             start_method,
                             "--straggler",
                             "dataloader",
                             "--straggler-rank",
                             "1",
                             "--steps",
                             "8",
                             "--delay-ms",
                             "1"},
                            {{"MASTER_PORT", port}, {"OMP_NUM_THREADS", "1"}}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 0);
  CHECK(output.find("SL701 [warning] rank 1 keeps the other 1 rank(s) waiting") !=
        std::string::npos);
  for (int rank : {0, 1}) {
    const std::string path = trace::processTracePath(trace, "rank" + std::to_string(rank));
    LintedTrace t;
    std::string error;
    REQUIRE(lintTrace(path, t, &error));
    CHECK(t.model.metadata.distributed.rank == rank);
    CHECK(t.model.metadata.distributed.world_size == 2);
    CHECK(t.json.value("dataloader_workers", -1) == 0);  // the hook runs in the rank too
    CHECK(t.countNamed("Optimizer.step#SGD.step") == 8);
    per_rank(t);
  }
  // The launcher ran no operator: its own trace is removed, no third file is left.
  CHECK_FALSE(std::filesystem::exists(trace));
  return output;
}

}  // namespace

TEST_CASE(
    "steplint record on ranks started by torch.multiprocessing.spawn: each rank records from "
    "init_process_group on, under its own rank (#16)",
    "[torch][python][slow]") {
  requireTorchPython();
  const std::string output = recordSelfStartedRanks(
      "spawn", [](const LintedTrace& t) { CHECK(t.model.metadata.distributed.backend == "gloo"); });
  // Rank 0's exposed communication is nearly all waiting for rank 1: said, and not its saving.
  CHECK(output.find("of it is waiting for rank 1 (SL701), which only that rank's fix removes") !=
        std::string::npos);
}

TEST_CASE(
    "steplint record on ranks started with fork: each rank records on its own from "
    "init_process_group on and host side only (#16)",
    "[torch][python][slow]") {
  requireTorchPython();
  // The ranks are forked from the recording launcher: they inherit its collector with nothing
  // running (a fresh state, collector/src/session.h) and end in os._exit(), without atexit.
  recordSelfStartedRanks("fork", [](const LintedTrace& t) {
    // Nothing of the launcher or the other rank: one process's pid on every op.
    std::set<int64_t> pids;
    for (const auto& e : t.json["traceEvents"])
      if (e.value("cat", "") == "cpu_op") pids.insert(e.value("pid", int64_t{-1}));
    CHECK(pids.size() == 1);
    const std::string cupti = t.json["steplint_sources"].value("cupti", "");
    CHECK(cupti.find("not restarted in a rank forked from the recording process") !=
          std::string::npos);
  });
}

TEST_CASE(
    "steplint record on ranks started with forkserver: each rank starts the collector at its "
    "init_process_group (#16)",
    "[torch][python][slow]") {
  requireTorchPython();
  // Forked from a fork server that never imported torch: no collector before the fork, so the
  // rank loads one through the preload, as a spawn child does, and CUPTI is not ruled out.
  recordSelfStartedRanks("forkserver", [](const LintedTrace& t) {
    const std::string cupti = t.json["steplint_sources"].value("cupti", "");
    CHECK(cupti.find("forked") == std::string::npos);
  });
}

TEST_CASE("steplint record --modules names every nn.Module forward by its path (#16)",
          "[torch][python]") {
  requireTorchPython();
  const std::string trace = scratchPath("python_modules.pt.trace.json");
  const std::string log = scratchPath("python_modules.log");
  const int rc = runProcess({STEPLINT_EXE, "record", "--no-report", "--modules", "-o", trace, "--",
                             kPython, PYTHON_SAMPLE, "--steps", "4", "--delay-ms", "1"},
                            {}, log);
  INFO(readFile(log));
  REQUIRE(rc == 0);
  LintedTrace t;
  std::string error;
  REQUIRE(lintTrace(trace, t, &error));
  // The sample's model is a Sequential of Linear/ReLU layers, and its loss a module too.
  CHECK(t.countNamed("nn.Module: Sequential") == 4);
  CHECK(t.countNamed("nn.Module: Sequential.0 (Linear)") == 4);
  CHECK(t.countNamed("nn.Module: CrossEntropyLoss") == 4);
  // Each layer's range holds its own aten::linear / addmm: the ranges nest as the calls do.
  const trace::TraceModel& m = t.model;
  int64_t linear_inside = 0;
  for (const trace::Event& e : m.events) {
    if (m.name(e) != "aten::linear" || e.parent == trace::kNoIndex) continue;
    linear_inside += m.name(m.events[e.parent]).rfind("nn.Module: Sequential.", 0) == 0;
  }
  CHECK(linear_inside == 4 * 3);
  // Without --modules there are none (the recorded sample of the other tests).
  LintedTrace plain;
  REQUIRE(lintTrace(recordedPythonSample(), plain, &error));
  CHECK(plain.countNamed("nn.Module: Sequential") == 0);
}

TEST_CASE("steplint record on Python: Ctrl-C still leaves a complete trace (#16)",
          "[torch][python]") {
  requireTorchPython();
  // Python ends a KeyboardInterrupt by sending itself SIGINT after finalization, which skips
  // the C exit handler: the trace used to stay an unfinished .partial.
  const std::string script = scratchPath("ctrl_c.py");
  std::ofstream(script) << "import os, signal, torch\n"
                           "x = torch.randn(32, 32)\n"
                           "for i in range(60):\n"
                           "    y = x @ x\n"
                           "    if i == 30:\n"
                           "        os.kill(os.getpid(), signal.SIGINT)\n";
  const std::string trace = scratchPath("ctrl_c.pt.trace.json");
  const std::string log = scratchPath("ctrl_c.log");
  const int rc =
      runProcess({STEPLINT_EXE, "record", "--no-report", "-o", trace, "--", kPython, script}, {},
                 log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 130);  // 128 + SIGINT: the program's own end, unchanged
  CHECK(output.find("KeyboardInterrupt") != std::string::npos);
  CHECK(output.find("did not finish") == std::string::npos);
  REQUIRE(std::filesystem::exists(trace));
  CHECK_FALSE(std::filesystem::exists(trace + ".partial"));
  const nlohmann::json doc = nlohmann::json::parse(readFile(trace), nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());  // whole JSON, not a cut-off one
  size_t matmuls = 0;
  for (const auto& e : doc["traceEvents"]) matmuls += e.value("name", "") == "aten::matmul";
  CHECK(matmuls == 31);  // every op before the interrupt
}

TEST_CASE("steplint record on Python: a program ending in os._exit() leaves a complete trace",
          "[torch][python]") {
  requireTorchPython();
  // os._exit() runs no exit handler: the trace stayed an unfinished .partial (0 bytes when the
  // program ran under a second). A forked worker that ends the same way must change nothing.
  const std::string script = scratchPath("os_exit.py");
  std::ofstream(script) << "import os, torch\n"
                           "x = torch.randn(32, 32)\n"
                           "for i in range(20):\n"
                           "    y = x @ x\n"
                           "pid = os.fork()\n"
                           "if pid == 0:\n"
                           "    os._exit(0)\n"
                           "os.waitpid(pid, 0)\n"
                           "os._exit(3)\n";
  const std::string trace = scratchPath("os_exit.pt.trace.json");
  const std::string log = scratchPath("os_exit.log");
  const int rc = runProcess(
      {STEPLINT_EXE, "record", "--no-report", "-o", trace, "--", kPython, script}, {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 3);  // the program's own status
  CHECK(output.find("did not finish") == std::string::npos);
  REQUIRE(std::filesystem::exists(trace));
  CHECK_FALSE(std::filesystem::exists(trace + ".partial"));
  const nlohmann::json doc = nlohmann::json::parse(readFile(trace), nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  size_t matmuls = 0;
  for (const auto& e : doc["traceEvents"]) matmuls += e.value("name", "") == "aten::matmul";
  CHECK(matmuls == 20);
  CHECK(doc.contains("cudnn_benchmark"));  // the final settings were written before the end
}

TEST_CASE("steplint record on Python keeps the environment's sitecustomize working", "[python]") {
  const std::string dir = scratchPath("own_site");
  std::filesystem::create_directories(dir);
  const std::string marker = dir + "/ran";
  std::ofstream(dir + "/sitecustomize.py")
      << "open(" << nlohmann::json(marker).dump() << ", 'w').write('yes')\n";
  const std::string log = scratchPath("own_site.log");
  runProcess({STEPLINT_EXE, "record", "--no-report", "-o", scratchPath("own_site.json"), "--",
              kPython, "-c", "import sitecustomize, sys; print(sitecustomize.__file__)"},
             {{"PYTHONPATH", dir}}, log);
  INFO(readFile(log));
  CHECK(readFile(marker) == "yes");
  CHECK(readFile(log).find("steplint_python/sitecustomize.py") !=
        std::string::npos);  // ours came first
}

TEST_CASE("steplint record refuses a torch the collector was not built against, in one line",
          "[python]") {
  // A program that maps another libtorch_cpu.so (a stand-in in a wheel's torch/lib/).
  const std::string trace = scratchPath("mismatch.pt.trace.json");
  const std::string log = scratchPath("mismatch.log");
  const int rc = runProcess(
      {STEPLINT_EXE, "record", "-o", trace, "--", kPython, "-c",
       std::string("import ctypes; ctypes.CDLL('") + FAKE_WHEEL_LIBTORCH + "'); print('ran')"},
      {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 2);  // the program ran, the recording failed
  CHECK(output.find("ran\n") != std::string::npos);
  CHECK(output.find("steplint: error: no trace was written to " + trace +
                    ": the program loads torch 9.9.0+fake (" + FAKE_WHEEL_LIBTORCH +
                    "), but this collector was built against torch") != std::string::npos);
  CHECK(output.find("cmake -B build-torch -DCMAKE_PREFIX_PATH=") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(trace));
}

}  // namespace steplint::e2e
