#include "record_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "config.h"
#include "exit_codes.h"
#include "messages.h"
#include "record_contents.h"
#include "record_output.h"
#include "status_channel.h"
#include "steplint/analyzer/display_text.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/output_file.h"
#include "steplint/trace/trace_file_names.h"
#include "summary_command.h"

#ifndef STEPLINT_INSTALL_LIBDIR
#define STEPLINT_INSTALL_LIBDIR "lib"  // set by cli/CMakeLists.txt from GNUInstallDirs
#endif

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPreloadFile = "libsteplint_preload.so";
constexpr const char* kCollectorFile = "libsteplint_collector.so";
constexpr const char* kPythonHookDir = "steplint_python";

// The running trainer, for the signal handler (async-signal-safe access only).
volatile sig_atomic_t g_child_pid = 0;

/// The signals steplint forwards to the trainer instead of dying of them: it must outlive the
/// trainer to move the trace into place (SIGHUP: an ssh session or terminal that went away).
constexpr std::array<int, 3> kForwarded = {SIGINT, SIGTERM, SIGHUP};
using Dispositions = std::array<struct sigaction, kForwarded.size()>;

/// Forwards a signal sent to steplint alone (kill, a job scheduler) to the trainer. A Ctrl-C
/// or a hang-up from the terminal (si_code SI_KERNEL) already reached the whole foreground
/// process group, trainer included; forwarding it again would look like a second one.
void forwardSignal(int sig, siginfo_t* info, void* /*context*/) {
  if (g_child_pid > 0 && (info == nullptr || info->si_code != SI_KERNEL)) kill(g_child_pid, sig);
}

/// Forwards kForwarded unless steplint was started with one ignored (nohup, `&` in a script):
/// then both steplint and the trainer, which inherits the disposition, keep ignoring it.
void installForwarding(Dispositions& old) {
  struct sigaction action {};
  action.sa_sigaction = &forwardSignal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < kForwarded.size(); ++i) {
    sigaction(kForwarded[i], nullptr, &old[i]);
    const bool ignored = (old[i].sa_flags & SA_SIGINFO) == 0 && old[i].sa_handler == SIG_IGN;
    if (!ignored) sigaction(kForwarded[i], &action, nullptr);
  }
}

void restoreDispositions(const Dispositions& old) {
  for (size_t i = 0; i < kForwarded.size(); ++i) sigaction(kForwarded[i], &old[i], nullptr);
}

/// Everything the collectors wrote to the status pipe by now (non-blocking: processes the
/// trainer forked may still hold the write end, so EOF may never come). At most 64 KiB.
std::string drainStatusPipe(int fd) {
  std::string text;
  char chunk[4096];
  while (text.size() < 65536) {
    const ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EAGAIN: nothing more; 0: every writer is gone
    text.append(chunk, static_cast<size_t>(n));
  }
  return text;
}

const collector::StatusMessage* findStatus(const std::vector<collector::StatusMessage>& messages,
                                           collector::StatusKind kind) {
  for (const collector::StatusMessage& m : messages)
    if (m.kind == kind) return &m;
  return nullptr;
}

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = 0; !from.empty() && (at = text.find(from, at)) != std::string::npos;
       at += to.size())
    text.replace(at, from.size(), to);
}

/// Why a recording left only a .partial, for the warning.
std::string unfinishedCause(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return "the trainer was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  // Exit 0 without a finished trace: os._exit() / _exit() skip the exit handler that finishes
  // it (the collector's own failures reach us through the status pipe, and are said instead).
  return "the program ended without running its exit handlers (os._exit() or _exit(), or a "
         "crash), so the collector did not finish the trace; it holds what was written until "
         "then (the collector writes once a second)";
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// A trace the recording left with no byte in it (the trainer killed before the collector
/// wrote any): nothing to analyse.
bool isEmptyFile(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && fs::file_size(path, ec) == 0 && !ec;
}

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

std::string selfExecutable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.string();
}

/// True when the trace holds any operator or device op (record_contents.h).
bool recordsAnything(const std::string& path) {
  return checkRecordsAnything(path).records_anything;
}

std::string describeProcess(const StagedTrace& trace) {
  if (trace.tag.empty()) return "";
  return trace.isRank() ? " (" + trace.tag.substr(0, 4) + " " + trace.tag.substr(4) + ")"
                        : " (another process of the run: " + trace.tag + ")";
}

/// The traces to analyse: every rank's when the run had ranks (one job report), else the
/// first process's (or, when it wrote none, the others'). A rank-less trace of a run with
/// ranks that recorded nothing is the launcher's: it is removed, with a note.
std::vector<std::string> tracesToReport(std::vector<StagedTrace>& traces) {
  std::vector<std::string> ranks, others;
  for (const StagedTrace& t : traces) (t.isRank() ? ranks : others).push_back(t.path);
  if (ranks.empty())
    return traces.front().tag.empty() ? std::vector<std::string>{traces.front().path} : others;
  auto launcher = std::find_if(traces.begin(), traces.end(),
                               [](const StagedTrace& t) { return t.tag.empty(); });
  if (launcher != traces.end() && launcher->state == StagedTrace::State::kComplete &&
      !recordsAnything(launcher->path)) {
    printNote("the run's launcher (" + launcher->path +
              ") recorded no operator; its trace was removed");
    std::remove(launcher->path.c_str());
    traces.erase(launcher);
  }
  return ranks;
}

}  // namespace

CollectorLibraries findCollectorLibraries(const std::string& exe_path) {
  CollectorLibraries libs;
  auto withCollector = [&libs](const fs::path& preload) {
    libs.preload = preload.string();
    libs.collector = (preload.parent_path() / kCollectorFile).string();
    libs.python_hook = (preload.parent_path() / kPythonHookDir).string();
    return libs;
  };
  if (const char* explicit_path = std::getenv("STEPLINT_PRELOAD_LIB");
      explicit_path && *explicit_path)
    return withCollector(explicit_path);
  const fs::path dir = fs::path(exe_path).parent_path();
  for (const fs::path& candidate :
       {dir / ".." / "collector" / kPreloadFile,              // build tree: <build>/cli/steplint
        dir / ".." / STEPLINT_INSTALL_LIBDIR / kPreloadFile,  // install: <prefix>/bin/steplint
        dir / ".." / "lib" / kPreloadFile, dir / ".." / "lib64" / kPreloadFile,
        dir / ".." / "lib" / "steplint" / kPreloadFile, dir / kPreloadFile}) {
    if (isFile(candidate)) return withCollector(candidate.lexically_normal());
  }
  return libs;
}

std::string appendPreload(const char* existing, const std::string& library) {
  if (existing == nullptr || *existing == '\0') return library;
  return std::string(existing) + ":" + library;
}

std::string prependPythonPath(const char* existing, const std::string& hook_dir) {
  if (existing == nullptr || *existing == '\0') return hook_dir;
  return hook_dir + ":" + existing;
}

int exitCodeOf(int wait_status) {
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  return kExitUsageError;
}

void RecordCommand::addOptions(CLI::App& app) {
  app.add_option("COMMAND", command_, "The trainer and its arguments, after --")
      ->required()
      ->type_name("PROGRAM ARGS...");
  app.add_option(
         "-o,--output", output_path_,
         "Trace file to write (default steplint_<program>.pt.trace.json.gz; .gz compresses)")
      ->type_name("FILE");
  app.add_option("--schedule", schedule_,
                 "Record only some steps: wait,warmup,active[,repeat] as torch.profiler.schedule")
      ->type_name("W,WU,A[,R]");
  app.add_flag("--shapes", shapes_, "Record input shapes and dtypes (Input Dims; more overhead)");
  app.add_flag("--modules", modules_,
               "Python: a range around every nn.Module forward, named by its path (more overhead)");
  app.add_flag("--no-cupti", no_cupti_, "Do not record GPU activity with CUPTI");
  app.add_flag("--no-report", no_report_, "Only record; do not print the findings afterwards");
  app.add_option(
         "--summary-dir", summary_dir_,
         "Also write each trace's summary (summary --format json, with its rank summary) into DIR, "
         "from which a job report can be built without the traces")
      ->type_name("DIR");
  check_.addReportOptions(app, /*with_output=*/false);
}

void RecordCommand::execTrainer(const CollectorLibraries& libs, const std::string& trace_path,
                                int status_fd) const {
  setenv("STEPLINT_RECORD", "1", 1);
  setenv("STEPLINT_OUTPUT", trace_path.c_str(), 1);
  setenv("STEPLINT_TRACE_NAME", output_path_.c_str(),
         1);  // the name it will have, not the staging name
  if (status_fd >= 0 && fcntl(status_fd, F_SETFD, 0) == 0)  // inherited across exec
    setenv("STEPLINT_STATUS_FD", collector::statusChannelSpec(status_fd).c_str(), 1);
  setenv("STEPLINT_COLLECTOR_LIB", libs.collector.c_str(), 1);
  setenv("NVTX_INJECTION64_PATH", libs.collector.c_str(), 1);  // NVTX ranges → the collector
  setenv("LD_PRELOAD", appendPreload(std::getenv("LD_PRELOAD"), libs.preload).c_str(), 1);
  // Python trainers: the settings the rules read (collector/python/sitecustomize.py).
  if (isFile(fs::path(libs.python_hook) / "sitecustomize.py"))
    setenv("PYTHONPATH", prependPythonPath(std::getenv("PYTHONPATH"), libs.python_hook).c_str(), 1);
  if (!schedule_.empty()) setenv("STEPLINT_SCHEDULE", schedule_.c_str(), 1);
  if (shapes_) setenv("STEPLINT_SHAPES", "1", 1);
  if (modules_) setenv("STEPLINT_MODULES", "1", 1);
  if (no_cupti_) setenv("STEPLINT_CUPTI", "0", 1);
  std::vector<char*> argv;
  for (const std::string& arg : command_) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  const std::string message = "steplint: error: cannot run " + analyzer::displayText(command_[0]) +
                              " (" + std::strerror(errno) + ")\n";
  (void)!write(STDERR_FILENO, message.data(), message.size());
  _exit(127);  // what shells report for a command that cannot be run
}

int RecordCommand::runTrainer(const CollectorLibraries& libs, const std::string& trace_path,
                              std::string* status_text) const {
  int status_pipe[2] = {-1, -1};
  if (pipe2(status_pipe, O_CLOEXEC | O_NONBLOCK) != 0) status_pipe[0] = status_pipe[1] = -1;
  Dispositions old{};
  installForwarding(old);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    printError(std::string("fork failed (") + std::strerror(errno) + ")");
    return -1;
  }
  if (pid == 0) {
    restoreDispositions(old);  // the trainer gets the signal dispositions we got
    execTrainer(libs, trace_path, status_pipe[1]);
  }
  if (status_pipe[1] >= 0) close(status_pipe[1]);
  g_child_pid = pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      printError(std::string("waiting for the trainer failed (") + std::strerror(errno) + ")");
      status = -1;
      break;
    }
  }
  g_child_pid = 0;
  restoreDispositions(old);
  // The trainer is done: a reader that went away (`| head`, a closed terminal) must not kill
  // steplint before the traces are in place and the exit code is the trainer's.
  signal(SIGPIPE, SIG_IGN);
  if (status_pipe[0] >= 0) {
    *status_text = drainStatusPipe(status_pipe[0]);
    close(status_pipe[0]);
  }
  return status;
}

void RecordCommand::warnAbout(const StagedTrace& trace, const collector::StatusMessage* failure,
                              int wait_status) {
  // The report carries each warning too: its reader may see nothing else of the run.
  if (!trace.problem.empty()) {
    printWarning(trace.problem + "; the trace is " + trace.path);
    check_.carryWarning(trace.problem + "; the trace is " + trace.path);
  }
  if (trace.state != StagedTrace::State::kPartial) return;
  // An empty file is not analysed (reportTraces leaves it out): saying it would be, and then
  // "not a trace (empty file)", contradicted itself.
  const bool empty = isEmptyFile(trace.path);
  const std::string analysing = empty        ? "; the file is empty: there is nothing to analyse"
                                : no_report_ ? ""
                                             : "; analysing the incomplete trace";
  const std::string why =
      failure != nullptr ? failure->text
                         : "the recording did not finish (" + unfinishedCause(wait_status) + ")";
  if (failure != nullptr)
    printError(trace.path + ": " + why + analysing);
  else
    printWarning(trace.path + ": " + why + analysing);
  check_.carryWarning(trace.path + ": " + why +
                      (empty ? "; the trace is empty" : "; the trace is incomplete"));
}

int RecordCommand::reportTraces(std::vector<StagedTrace> traces, int wait_status,
                                const std::string& status_text) {
  const int trainer_exit = exitCodeOf(wait_status);
  const auto messages = collector::parseStatusMessages(status_text);
  const collector::StatusMessage* failure =
      findStatus(messages, collector::StatusKind::kWriteFailed);
  if (failure == nullptr) failure = findStatus(messages, collector::StatusKind::kNotRecording);
  // A collector built against another torch records nothing: with no trace at all, that is why.
  const collector::StatusMessage* mismatch =
      findStatus(messages, collector::StatusKind::kTorchMismatch);
  const auto written = [](const StagedTrace& t) {
    return t.state == StagedTrace::State::kComplete || t.state == StagedTrace::State::kPartial;
  };
  const bool none_written = std::none_of(traces.begin(), traces.end(), written);
  bool kept_earlier = false;
  for (const StagedTrace& t : traces) {
    if (t.state != StagedTrace::State::kEmpty) continue;
    printWarning("the run recorded no operator or step" + describeProcess(t) + ": " + t.path +
                 " was left as it was (an earlier trace)");
    kept_earlier = true;
  }
  if (none_written && kept_earlier) return trainer_exit;
  if (failure == nullptr && none_written) failure = mismatch;
  // The trainer succeeded but its trace is lost or cut short: a failure of the recording.
  const int exit_code = failure != nullptr && trainer_exit == 0 ? kExitUsageError : trainer_exit;
  if (none_written) {
    if (failure != nullptr) {
      printError("no trace was written to " + output_path_ + ": " + failure->text);
    } else {
      printError("no trace was written to " + output_path_ +
                 ". Likely reasons: the program does not link LibTorch (libtorch_cpu.so), so the "
                 "collector was not started (a Python program must `import torch`); it exited or "
                 "crashed before LibTorch was loaded; or "
                 "it was killed with SIGKILL");
    }
    return exit_code;
  }
  if (mismatch != nullptr)
    printWarning(mismatch->text);  // a process of the run that did not record
  traces.erase(std::remove_if(traces.begin(), traces.end(),
                              [&](const StagedTrace& t) { return !written(t); }),
               traces.end());
  std::vector<std::string> report = tracesToReport(traces);
  for (const StagedTrace& trace : traces) warnAbout(trace, failure, wait_status);
  const auto emptyPartial = [](const StagedTrace& t) {
    return t.state == StagedTrace::State::kPartial && isEmptyFile(t.path);
  };
  for (const StagedTrace& trace : traces)
    if (emptyPartial(trace))
      report.erase(std::remove(report.begin(), report.end(), trace.path), report.end());
  // A run of ranks: the job's findings and each rank's own, as `check --per-rank` (a rank's
  // pageable copies or slow loader must not disappear behind the job report).
  if (report.size() > 1) check_.keepRankFindings();
  if (!no_report_ && !report.empty()) check_.runOn(report);
  for (const StagedTrace& trace : traces)
    printNote("trace: " + trace.path + describeProcess(trace));
  if (!summary_dir_.empty() && !writeSummaries(traces) && exit_code == 0) return kExitUsageError;
  return exit_code;
}

bool RecordCommand::writeSummaries(const std::vector<StagedTrace>& traces) const {
  bool all_written = true;
  for (const StagedTrace& staged : traces) {
    trace::TraceModel model;
    if (!trace::importTraceFile(staged.path, model).ok()) continue;  // check said why
    analyzer::TraceSummary summary = analyzer::summarize(model);
    summary.source = staged.path;
    const std::string name = fs::path(staged.path).filename().string();
    const std::string stem = name.substr(0, name.size() - trace::traceSuffix(name).size());
    const std::string out = (fs::path(summary_dir_) / (stem + ".summary.json")).string();
    std::string problem = trace::checkOutputPath(out, {staged.path});
    if (problem.empty())
      problem =
          trace::writeOutputFile(out, analyzer::jsonText(summaryDocument(summary, model)) + "\n");
    if (!problem.empty()) {
      printError(out + ": " + problem);
      all_written = false;
      continue;
    }
    printNote("summary: " + out);
  }
  return all_written;
}

int RecordCommand::run() {
  collector::ScheduleConfig schedule;
  if (!schedule_.empty() && !collector::parseSchedule(schedule_, &schedule)) {
    printError("--schedule " + schedule_ + ": expected wait,warmup,active[,repeat]: non-negative " +
               "integers with active >= 1, as torch.profiler.schedule");
    return kExitUsageError;
  }
  const CollectorLibraries libs = findCollectorLibraries(selfExecutable());
  if (libs.preload.empty() || !isFile(libs.preload)) {
    printError(std::string("cannot find ") + kPreloadFile +
               " next to the steplint executable; set STEPLINT_PRELOAD_LIB to its path");
    return kExitUsageError;
  }
  if (output_path_.empty())
    output_path_ = "steplint_" + fs::path(command_[0]).filename().string() + ".pt.trace.json.gz";
  output_path_ = absolutePath(output_path_);
  // Everything that can be checked before the trainer runs is: a refused -o costs no run.
  if (!summary_dir_.empty()) {
    std::error_code ec;
    fs::create_directories(summary_dir_, ec);
    if (!fs::is_directory(summary_dir_, ec)) {
      printError("--summary-dir " + summary_dir_ + ": not a directory and cannot be created" +
                 (ec ? " (" + ec.message() + ")" : std::string()));
      return kExitUsageError;
    }
  }
  if (!no_report_ && !check_.checkBeforeRun(output_path_)) return kExitUsageError;
  // `record --format json > report.json` would hold the trainer's prints too.
  if (const std::string format = check_.machineFormatOnStdout(); !no_report_ && !format.empty())
    printNote("the " + format +
              " report follows the trainer's own output on standard output; --report-output "
              "FILE writes it apart");
  TraceStaging staging;
  std::string problem;
  if (!staging.reserve(output_path_, &problem)) {
    printError(problem);
    return kExitUsageError;
  }
  std::string status_text;
  const int status = runTrainer(libs, staging.path(), &status_text);
  if (status < 0) return kExitUsageError;
  std::vector<StagedTrace> traces = staging.finish(recordsAnything);
  // The collectors' messages name the staging files: name the files the user will find.
  for (const StagedTrace& trace : traces)
    replaceAll(status_text, trace.staged,
               trace.tag.empty() ? output_path_ : trace::processTracePath(output_path_, trace.tag));
  const int trainer_exit = exitCodeOf(status);
  if (trainer_exit != 0)
    printNote(command_[0] + " exited with status " + std::to_string(trainer_exit));
  return reportTraces(std::move(traces), status, status_text);
}

}  // namespace steplint::cli
