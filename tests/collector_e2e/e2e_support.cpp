#include "e2e_support.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"

namespace steplint::e2e {

namespace fs = std::filesystem;

Env recordEnv(const std::string& trace) {
  return {{"STEPLINT_RECORD", "1"},
          {"STEPLINT_OUTPUT", trace},
          {"STEPLINT_COLLECTOR_LIB", COLLECTOR_LIB},
          {"STEPLINT_CUPTI", "0"},
          // One intra-op thread: with libtorch's default (all cores) and CTest running cases
          // in parallel, step times on a 16-core machine swung enough to change the shares.
          {"OMP_NUM_THREADS", "1"},
          {"LD_PRELOAD", PRELOAD_LIB}};
}

pid_t startProcess(const std::vector<std::string>& argv, const Env& env, const std::string& log,
                   const ChildSetup& setup) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (setup.own_process_group) setpgid(0, 0);
  for (int sig : setup.ignored_signals) signal(sig, SIG_IGN);
  if (setup.file_size_limit >= 0) {
    signal(SIGXFSZ,
           SIG_IGN);  // so that write() fails with EFBIG, as on a full disk, instead of killing
    rlimit limit{};
    getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = static_cast<rlim_t>(setup.file_size_limit);
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  for (const auto& [key, value] : env) setenv(key.c_str(), value.c_str(), 1);
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

int waitProcess(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int runProcess(const std::vector<std::string>& argv, const Env& env, const std::string& log) {
  return waitProcess(startProcess(argv, env, log));
}

int freeTcpPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

std::string scratchPath(const std::string& name) {
  std::error_code ec;
  fs::create_directories(E2E_TMP, ec);
  // CTest runs each test case in its own process, several at once (-j): the pid keeps two
  // cases that record the same sample from overwriting each other's trace.
  const fs::path path = fs::path(E2E_TMP) / (std::to_string(::getpid()) + "." + name);
  fs::remove(path, ec);
  fs::remove(path.string() + ".partial", ec);
  return path.string();
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const analyzer::Diagnostic* LintedTrace::finding(const std::string& code) const {
  for (const analyzer::Diagnostic& d : lint.diagnostics)
    if (d.code == code) return &d;
  return nullptr;
}

bool LintedTrace::notChecked(const std::string& code) const {
  for (const analyzer::NotChecked& n : lint.not_checked)
    if (n.code == code) return true;
  return false;
}

size_t LintedTrace::countNamed(std::string_view name) const {
  size_t n = 0;
  for (const trace::Event& e : model.events) n += model.name(e) == name ? 1 : 0;
  return n;
}

bool lintTrace(const std::string& path, LintedTrace& out, std::string* error) {
  const trace::ImportStatus status = trace::importTraceFile(path, out.model);
  if (!status.ok()) {
    *error = status.message;
    return false;
  }
  static analyzer::RuleRegistry registry = [] {
    analyzer::RuleRegistry r;
    rules::registerBuiltinRules(r);
    return r;
  }();
  out.summary = analyzer::summarize(out.model);
  out.lint = analyzer::runLint(out.model, out.summary, registry, analyzer::LintConfig{});
  if (path.size() < 3 || path.compare(path.size() - 3, 3, ".gz") != 0)
    out.json = nlohmann::json::parse(readFile(path), nullptr, /*allow_exceptions=*/false);
  return true;
}

const LintedTrace& recordSample(const std::string& name, const std::vector<std::string>& argv,
                                const Env& extra_env) {
  static std::map<std::string, std::unique_ptr<LintedTrace>> cache;
  auto& slot = cache[name];
  if (slot) return *slot;
  slot = std::make_unique<LintedTrace>();
  const std::string trace = scratchPath(name + ".pt.trace.json");  // plain: the test reads args
  const std::string log = scratchPath(name + ".log");
  Env env = recordEnv(trace);
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  const int rc = runProcess(argv, env, log);
  std::string error;
  if (rc != 0 || !lintTrace(trace, *slot, &error))
    slot->summary.notes.push_back("recording failed: exit " + std::to_string(rc) + " " + error +
                                  "\n" + readFile(log));
  return *slot;
}

}  // namespace steplint::e2e
