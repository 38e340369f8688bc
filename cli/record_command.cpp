#include "record_command.h"

#include <CLI/CLI.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "exit_codes.h"
#include "messages.h"

#ifndef STEPLINT_INSTALL_LIBDIR
#define STEPLINT_INSTALL_LIBDIR "lib"  // set by cli/CMakeLists.txt from GNUInstallDirs
#endif

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPreloadFile = "libsteplint_preload.so";
constexpr const char* kCollectorFile = "libsteplint_collector.so";

// The running trainer, for the signal handler (async-signal-safe access only).
volatile sig_atomic_t g_child_pid = 0;

/// Forwards SIGINT/SIGTERM sent to steplint alone (kill, a job scheduler) to the trainer. A
/// Ctrl-C from the terminal (si_code SI_KERNEL) already reached the whole foreground process
/// group, trainer included; forwarding it again would look like a second Ctrl-C.
void forwardSignal(int sig, siginfo_t* info, void* /*context*/) {
  if (g_child_pid > 0 && (info == nullptr || info->si_code != SI_KERNEL)) kill(g_child_pid, sig);
}

void installForwarding(struct sigaction* old_int, struct sigaction* old_term) {
  struct sigaction action {};
  action.sa_sigaction = &forwardSignal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, old_int);
  sigaction(SIGTERM, &action, old_term);
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
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

void printNote(const std::string& message) { std::cerr << "steplint: note: " << message << '\n'; }

}  // namespace

CollectorLibraries findCollectorLibraries(const std::string& exe_path) {
  CollectorLibraries libs;
  auto withCollector = [&libs](const fs::path& preload) {
    libs.preload = preload.string();
    libs.collector = (preload.parent_path() / kCollectorFile).string();
    return libs;
  };
  if (const char* explicit_path = std::getenv("STEPLINT_PRELOAD_LIB"); explicit_path && *explicit_path)
    return withCollector(explicit_path);
  const fs::path dir = fs::path(exe_path).parent_path();
  for (const fs::path& candidate :
       {dir / ".." / "collector" / kPreloadFile,        // build tree: <build>/cli/steplint
        dir / ".." / STEPLINT_INSTALL_LIBDIR / kPreloadFile,  // install: <prefix>/bin/steplint
        dir / ".." / "lib" / kPreloadFile,
        dir / ".." / "lib64" / kPreloadFile,
        dir / ".." / "lib" / "steplint" / kPreloadFile,
        dir / kPreloadFile}) {
    if (isFile(candidate)) return withCollector(candidate.lexically_normal());
  }
  return libs;
}

std::string appendPreload(const char* existing, const std::string& library) {
  if (existing == nullptr || *existing == '\0') return library;
  return std::string(existing) + ":" + library;
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
  app.add_option("-o,--output", output_path_,
                 "Trace file to write (default steplint_<program>.pt.trace.json.gz; .gz compresses)")
      ->type_name("FILE");
  app.add_option("--schedule", schedule_,
                 "Record only some steps: wait,warmup,active[,repeat] as torch.profiler.schedule")
      ->type_name("W,WU,A[,R]");
  app.add_flag("--shapes", shapes_, "Record input shapes and dtypes (Input Dims; more overhead)");
  app.add_flag("--no-cupti", no_cupti_, "Do not record GPU activity with CUPTI");
  app.add_flag("--no-report", no_report_, "Only record; do not print the findings afterwards");
  check_.addReportOptions(app, /*with_output=*/false);
}

void RecordCommand::execTrainer(const CollectorLibraries& libs) const {
  setenv("STEPLINT_RECORD", "1", 1);
  setenv("STEPLINT_OUTPUT", output_path_.c_str(), 1);
  setenv("STEPLINT_COLLECTOR_LIB", libs.collector.c_str(), 1);
  setenv("NVTX_INJECTION64_PATH", libs.collector.c_str(), 1);  // NVTX ranges → the collector
  setenv("LD_PRELOAD", appendPreload(std::getenv("LD_PRELOAD"), libs.preload).c_str(), 1);
  if (!schedule_.empty()) setenv("STEPLINT_SCHEDULE", schedule_.c_str(), 1);
  if (shapes_) setenv("STEPLINT_SHAPES", "1", 1);
  if (no_cupti_) setenv("STEPLINT_CUPTI", "0", 1);
  std::vector<char*> argv;
  for (const std::string& arg : command_) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  const std::string message = "steplint: error: cannot run " + command_[0] + " (" +
                              std::strerror(errno) + ")\n";
  (void)!write(STDERR_FILENO, message.data(), message.size());
  _exit(127);  // what shells report for a command that cannot be run
}

int RecordCommand::runTrainer(const CollectorLibraries& libs) const {
  struct sigaction old_int {}, old_term {};
  installForwarding(&old_int, &old_term);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    printError(std::string("fork failed (") + std::strerror(errno) + ")");
    return -1;
  }
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);  // the trainer gets the signal dispositions we got
    sigaction(SIGTERM, &old_term, nullptr);
    execTrainer(libs);
  }
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
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return status;
}

void RecordCommand::reportTrace() {
  std::string trace = output_path_;
  if (!isFile(trace)) {
    const std::string partial = output_path_ + ".partial";
    if (!isFile(partial)) {
      printError("no trace was written to " + output_path_ +
                 ". Likely reasons: the program does not link LibTorch (libtorch_cpu.so), so the "
                 "collector was not started; it exited or crashed before LibTorch was loaded; or "
                 "it was killed with SIGKILL");
      return;
    }
    printWarning(partial + ": the recording did not finish (the trainer crashed or was killed); "
                 "analysing the incomplete trace");
    trace = partial;
  }
  if (!no_report_) check_.runOn({trace});
  printNote("trace: " + trace);
}

int RecordCommand::run() {
  const CollectorLibraries libs = findCollectorLibraries(selfExecutable());
  if (libs.preload.empty() || !isFile(libs.preload)) {
    printError(std::string("cannot find ") + kPreloadFile +
               " next to the steplint executable; set STEPLINT_PRELOAD_LIB to its path");
    return kExitUsageError;
  }
  if (output_path_.empty())
    output_path_ = "steplint_" + fs::path(command_[0]).filename().string() + ".pt.trace.json.gz";
  output_path_ = absolutePath(output_path_);
  std::error_code ec;
  fs::remove(output_path_, ec);  // a stale trace from an earlier run must not be reported
  fs::remove(output_path_ + ".partial", ec);
  const int status = runTrainer(libs);
  if (status < 0) return kExitUsageError;
  const int trainer_exit = exitCodeOf(status);
  if (trainer_exit != 0) printNote(command_[0] + " exited with status " + std::to_string(trainer_exit));
  reportTrace();
  return trainer_exit;
}

}  // namespace steplint::cli
