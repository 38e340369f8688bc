// steplint-collector-overhead: the collector's cost on a sample trainer, measured in one run.
//
// Runs the trainer (default: fast_trainer, CPU) in several configurations, interleaved over
// several rounds so machine noise hits all alike, and keeps the best (fastest) round of the
// trainer's "mean step" line and of its process CPU time (one intra-op thread each):
//   baseline   no recording (the collector library is linked but never started)
//   default    recorded through the preload library, default settings (CUPTI on with --device cuda)
//   shapes     the same with STEPLINT_SHAPES=1
//   host-only  (--device cuda) the same with CUPTI off: the op hooks' share of the cost
//   schedule   default with STEPLINT_SCHEDULE=5,1,3,1 and marked steps: the cost outside a window
//   legacy     torch's legacy profiler (torch::autograd::profiler::RecordProfile), no steplint
//   kineto     (--kineto 1, torch 2.x) Kineto, torch.profiler's engine, CPU (+ CUDA) activities
// Prints each as a ratio to the baseline and as extra ns per recorded op (events per step are
// counted in the default trace).
//
//   steplint-collector-overhead --trainer build/samples/fast_trainer
//       --preload build/collector/libsteplint_preload.so [--steps 300] [--rounds 5] [--dir /tmp/x]
//       [--device cpu|cuda] [--kineto 1] [--configs baseline,default,kineto]
// --configs keeps only the named configurations (baseline always runs): a large trainer on a
// GPU machine lent for minutes cannot afford all seven. --variant NAME:K=V[,K=V] (repeatable)
// adds a recorded configuration with extra STEPLINT_* settings, e.g.
// --variant unfiltered:STEPLINT_CUPTI_API_FILTER=0, to compare a switch with the default.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "steplint/trace/importer.h"

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

struct Options {
  std::string trainer, preload, dir = "/tmp/steplint-overhead", device = "cpu";
  int steps = 300, rounds = 5;
  bool kineto = false;  // also time Kineto, torch.profiler's engine (torch 2.x samples only)
  std::string configs;  // comma-separated names to run; "" = all
  std::vector<std::string> variants;  // "NAME:K=V,K=V": recorded with extra settings
};

/// True when `name` is in the comma-separated `list` (an empty list names everything).
bool listed(const std::string& list, const std::string& name) {
  return list.empty() || name == "baseline" ||
         ("," + list + ",").find("," + name + ",") != std::string::npos;
}

/// One way of running the trainer: its arguments and extra environment.
struct Config {
  std::string name;
  std::vector<std::string> argv;
  Env env;
};

struct RunTime {
  double step_ms = -1;  // the trainer's own mean wall-clock step time
  double cpu_s = -1;    // user + system CPU of the whole process (less noisy on a shared machine)
};

/// Runs argv with env added (one intra-op thread, so runs do not fight over cores), stdout to
/// `log`; returns the "mean step X ms" value and the process's CPU time.
RunTime runTrainer(const std::vector<std::string>& argv, const Env& env, const std::string& log) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("OMP_NUM_THREADS", "1", 1);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    if (!freopen(log.c_str(), "w", stdout)) _exit(126);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  RunTime result;
  if (wait4(pid, &status, 0, &usage) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return result;
  result.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find("mean step ");
    if (at != std::string::npos) result.step_ms = std::atof(line.c_str() + at + 10);
  }
  return result;
}

/// The fastest round: noise from other processes only ever adds time.
double best(const std::vector<double>& v) {
  return v.empty() ? -1 : *std::min_element(v.begin(), v.end());
}

/// The middle round: on a machine whose speed drifts between rounds (a VM's boost clocks), the
/// best round can be one lucky run; the median shows whether it was.
double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// "K=V,K=V" → pairs; entries without '=' are skipped.
Env parseEnv(const std::string& text) {
  Env env;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    if (eq != std::string::npos) env.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return env;
}

bool parseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--trainer")
      o->trainer = value;
    else if (key == "--preload")
      o->preload = value;
    else if (key == "--dir")
      o->dir = value;
    else if (key == "--steps")
      o->steps = std::atoi(value.c_str());
    else if (key == "--rounds")
      o->rounds = std::atoi(value.c_str());
    else if (key == "--device")
      o->device = value;
    else if (key == "--kineto")
      o->kineto = value == "1";
    else if (key == "--configs")
      o->configs = value;
    else if (key == "--variant" && value.find(':') != std::string::npos)
      o->variants.push_back(value);
    else
      return false;
  }
  return !o->trainer.empty() && !o->preload.empty() && o->steps > 5 && o->rounds > 0;
}

/// CPU ops recorded per step: events in the trace over the steps the trainer ran.
double opsPerStep(const std::string& trace, int steps) {
  steplint::trace::TraceModel model;
  if (!steplint::trace::importTraceFile(trace, model).ok()) return -1;
  return static_cast<double>(model.events.size()) / steps;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parseArgs(argc, argv, &o)) {
    std::fprintf(
        stderr,
        "usage: %s --trainer PATH --preload LIB [--steps N] [--rounds R] [--dir DIR] [--device cpu|cuda] [--kineto 1] [--configs A,B] [--variant NAME:K=V,K=V]...\n",
        argv[0]);
    return 2;
  }
  if (std::system(("mkdir -p '" + o.dir + "'").c_str()) != 0) return 2;
  const std::vector<std::string> base_argv{o.trainer, "--steps", std::to_string(o.steps),
                                           "--device", o.device};
  const bool gpu = o.device == "cuda";
  auto recorded = [&](const std::string& name, Env extra) {
    Env env{{"STEPLINT_RECORD", "1"},
            {"STEPLINT_OUTPUT", o.dir + "/" + name + ".pt.trace.json"},
            {"LD_PRELOAD", o.preload}};
    env.insert(env.end(), extra.begin(), extra.end());
    return Config{name, base_argv, env};
  };
  auto profiled = [&](const std::string& name, const char* flag) {
    std::vector<std::string> args = base_argv;
    args.insert(args.end(), {flag, o.dir + "/" + name + ".json"});
    return Config{name, args, {}};
  };
  // On a GPU the default configuration includes CUPTI: that is what a user pays there;
  // "host-only" (CUPTI off) splits the cost between the op hooks and CUPTI.
  std::vector<Config> configs{
      {"baseline", base_argv, {}},
      recorded("default", {{"STEPLINT_CUPTI", gpu ? "1" : "0"}}),
      recorded("shapes", {{"STEPLINT_CUPTI", gpu ? "1" : "0"}, {"STEPLINT_SHAPES", "1"}})};
  if (gpu) configs.push_back(recorded("host-only", {{"STEPLINT_CUPTI", "0"}}));
  // torch.profiler's usual window: 5 wait, 1 warmup, 3 active steps, once; the rest of the run
  // pays only for the paused hooks (needs step markers: --steplint-steps).
  Config scheduled =
      recorded("schedule", {{"STEPLINT_CUPTI", gpu ? "1" : "0"}, {"STEPLINT_SCHEDULE", "5,1,3,1"}});
  scheduled.argv.push_back("--steplint-steps");
  configs.push_back(scheduled);
  configs.push_back(profiled("legacy", "--legacy-profile"));
  if (o.kineto) configs.push_back(profiled("kineto", "--kineto-profile"));
  for (const std::string& v : o.variants) {
    Env env = parseEnv(v.substr(v.find(':') + 1));
    env.insert(env.begin(), {"STEPLINT_CUPTI", gpu ? "1" : "0"});
    configs.push_back(recorded(v.substr(0, v.find(':')), env));
    if (!o.configs.empty()) o.configs += "," + configs.back().name;
  }
  configs.erase(std::remove_if(configs.begin(), configs.end(),
                               [&](const Config& c) { return !listed(o.configs, c.name); }),
                configs.end());

  std::map<std::string, std::vector<double>> ms, cpu;
  for (int round = 0; round < o.rounds; ++round) {
    for (const Config& c : configs) {
      const RunTime t = runTrainer(c.argv, c.env, o.dir + "/" + c.name + ".log");
      ms[c.name].push_back(t.step_ms);
      cpu[c.name].push_back(t.cpu_s);
    }
  }
  const double base = best(ms["baseline"]), base_cpu = best(cpu["baseline"]);
  if (base <= 0) {
    std::fprintf(stderr, "baseline run failed (see %s/baseline.log)\n", o.dir.c_str());
    return 1;
  }
  const double ops = opsPerStep(o.dir + "/default.pt.trace.json", o.steps);
  std::printf("trainer %s, %d steps, best of %d rounds; %.0f recorded events per step\n",
              o.trainer.c_str(), o.steps, o.rounds, ops);
  std::printf("%-10s %10s %7s %11s %9s %7s %12s %10s %7s\n", "config", "step ms", "ratio",
              "ns per op", "cpu s", "ratio", "cpu ns/op", "median ms", "ratio");
  const double total_ops = ops * o.steps, base_median = median(ms["baseline"]);
  for (const Config& config : configs) {
    const std::string& name = config.name;
    const double m = best(ms[name]), c = best(cpu[name]), mid = median(ms[name]);
    std::printf("%-10s %10.4f %7.4f %11.1f %9.3f %7.4f %12.1f %10.4f %7.4f\n", name.c_str(), m,
                m / base, ops > 0 ? (m - base) * 1e6 / ops : -1.0, c, c / base_cpu,
                total_ops > 0 ? (c - base_cpu) * 1e9 / total_ops : -1.0, mid, mid / base_median);
  }
  const double ours = best(ms["default"]) - base,
               legacy = ms.count("legacy") ? best(ms["legacy"]) - base : -1;
  std::printf("default overhead %.2f%% (goal <= 3%%)", 100.0 * ours / base);
  if (legacy > 0)
    std::printf("; %.2f of the legacy profiler's overhead (goal < 0.33)", ours / legacy);
  std::printf("\n");
  if (ms.count("kineto") > 0) {
    const double kineto = best(ms["kineto"]) - base;
    const double kineto_mid = median(ms["kineto"]) - base_median,
                 ours_mid = median(ms["default"]) - base_median;
    std::printf(
        "kineto (torch.profiler) overhead %.2f%%; steplint's is %.2f of it (medians: %.2f%% vs "
        "%.2f%%, %.2f)\n",
        100.0 * kineto / base, kineto > 0 ? ours / kineto : -1.0, 100.0 * ours_mid / base_median,
        100.0 * kineto_mid / base_median, kineto_mid > 0 ? ours_mid / kineto_mid : -1.0);
  }
  return 0;
}
