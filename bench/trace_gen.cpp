// steplint-tracegen: writes a synthetic torch.profiler (current Kineto) trace of a ResNet-50-like
// training loop. Used by the import benchmark (files up to several GB), by the README demo and
// by tests that need a large realistic input. Output is streamed one step at a time, so memory
// stays at a few MB regardless of --target-bytes.
//
//   steplint-tracegen --steps 20 -o demo.pt.trace.json.gz
//   steplint-tracegen --target-bytes 1G -o bench/results/gen_1G.pt.trace.json
//   steplint-tracegen --ranks 4 --straggler backward --straggler-rank 2 -o job/   (one file per
//   rank)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tracegen/job_synth.h"
#include "tracegen/output_sink.h"
#include "tracegen/step_synth.h"

namespace {

// "1G", "100M", "64k", "1e9" or a plain number of bytes (powers of 1000 for the suffixes, like
// file sizes in the benchmark report).
bool parseBytes(const std::string& text, uint64_t& out) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || value < 0) return false;
  double scale = 1;
  std::string suffix(end);
  if (suffix == "k" || suffix == "K" || suffix == "kB" || suffix == "KB")
    scale = 1e3;
  else if (suffix == "M" || suffix == "MB")
    scale = 1e6;
  else if (suffix == "G" || suffix == "GB")
    scale = 1e9;
  else if (!suffix.empty())
    return false;
  out = static_cast<uint64_t>(value * scale);
  return true;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// --ranks: a whole job, rank<r>.pt.trace.json[.gz] in the directory `dir`, one step at a time.
int writeJob(const steplint::bench::JobSynthOptions& options, const std::string& dir, int64_t steps,
             int gzip_level, bool quiet) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "steplint-tracegen: %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  steplint::bench::JobSynthesizer job(options);
  std::vector<steplint::bench::OutputSink> sinks(static_cast<size_t>(job.ranks()));
  std::string error;
  for (int r = 0; r < job.ranks(); ++r) {
    const std::string path =
        (std::filesystem::path(dir) /
         ("rank" + std::to_string(r) + ".pt.trace.json" + (gzip_level >= 0 ? ".gz" : "")))
            .string();
    if (!sinks[static_cast<size_t>(r)].open(path, gzip_level, error)) {
      std::fprintf(stderr, "steplint-tracegen: %s\n", error.c_str());
      return 1;
    }
  }
  std::vector<std::string> chunks;
  auto flush = [&] {
    for (size_t r = 0; r < sinks.size(); ++r) sinks[r].write(chunks[r]), chunks[r].clear();
  };
  job.begin(chunks);
  for (int64_t n = 1; n <= steps; ++n) {
    job.step(n, chunks);
    flush();
  }
  job.end(chunks);
  flush();
  for (auto& sink : sinks)
    if (!sink.close(error)) {
      std::fprintf(stderr, "steplint-tracegen: %s\n", error.c_str());
      return 1;
    }
  if (!quiet)
    std::fprintf(stderr, "steplint-tracegen: %d ranks x %lld steps in %s (straggler: %s)\n",
                 job.ranks(), static_cast<long long>(steps), dir.c_str(),
                 steplint::bench::plantedStragglerName(options.straggler));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Write a synthetic torch.profiler / Kineto trace (deterministic for a given --seed)"};
  std::string output = "-";
  int64_t steps = 10;
  std::string target_text;
  bool gzip = false;
  int gzip_level = 6;
  bool quiet = false;
  std::string trace_name;
  steplint::bench::SynthOptions synth;
  app.add_option("-o,--output", output, "Output path; '-' = stdout; a .gz name implies --gzip");
  app.add_option("--steps", steps,
                 "Number of ProfilerStep#N to write (ignored with --target-bytes)")
      ->check(CLI::PositiveNumber);
  app.add_option(
      "--target-bytes", target_text,
      "Keep adding steps until the uncompressed JSON is about this size (e.g. 1G, 100M)");
  app.add_flag("--gzip", gzip, "Write a gzip stream");
  app.add_option("--gzip-level", gzip_level, "zlib level 0-9 for --gzip")->check(CLI::Range(0, 9));
  app.add_option("--dataloader-ms", synth.dataloader_ms, "Mean DataLoader time per step")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--kernels-per-step", synth.kernels_per_step, "Kernels launched per step (>= 15)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--seed", synth.seed, "Random seed");
  app.add_option(
      "--noise-seed", synth.noise_seed,
      "Per-event noise from this seed, the model from --seed: a re-recording of the same trainer");
  app.add_option("--kernel-slowdown", synth.kernel_slowdown,
                 "Every kernel's mean duration times this (e.g. 1.1)")
      ->check(CLI::Range(0.01, 100.0));
  app.add_option("--extra-dtod-copies", synth.extra_dtod_copies,
                 "Device-to-device copies added per step")
      ->check(CLI::Range(0, 10000));
  app.add_option("--trace-name", trace_name, "Value of the top-level traceName key");
  app.add_flag("-q,--quiet", quiet, "No summary line on stderr");
  steplint::bench::JobSynthOptions job;
  job.ranks = 0;
  std::string straggler = "none", collectives = "nccl", collective_args = "none";
  bool no_distributed_info = false;
  app.add_option("--ranks", job.ranks,
                 "Write a whole job: one trace per rank into the directory -o")
      ->check(CLI::Range(1, 4096));
  app.add_option("--straggler", straggler, "Planted straggler: none, backward, dataloader or sync")
      ->check(CLI::IsMember({"none", "backward", "dataloader", "sync"}));
  app.add_option("--straggler-rank", job.straggler_rank, "The straggling rank")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--collectives", collectives, "nccl (device kernels) or gloo (host ranges)")
      ->check(CLI::IsMember({"nccl", "gloo"}));
  app.add_option(
         "--collective-args", collective_args,
         "c10d args on the collectives: none, group (process group on record_param_comms) or seq "
         "(group and sequence number, also on NCCL kernels: torch >= 2.3)")
      ->check(CLI::IsMember({"none", "group", "seq"}));
  app.add_flag("--no-distributed-info", no_distributed_info,
               "Leave distributedInfo out (ranks from file names)");
  CLI11_PARSE(app, argc, argv);
  if (job.ranks > 0) {
    if (output == "-") {
      std::fprintf(stderr, "steplint-tracegen: --ranks needs -o DIRECTORY\n");
      return 2;
    }
    steplint::bench::parsePlantedStraggler(straggler, job.straggler);
    job.style = collectives == "gloo" ? steplint::bench::CollectiveStyle::kGloo
                                      : steplint::bench::CollectiveStyle::kNccl;
    job.distributed_info = !no_distributed_info;
    steplint::bench::parseCollectiveArgs(collective_args, job.collective_args);
    job.seed = synth.seed;
    return writeJob(job, output, steps, gzip ? gzip_level : -1, quiet);
  }

  uint64_t target_bytes = 0;
  if (!target_text.empty() && !parseBytes(target_text, target_bytes)) {
    std::fprintf(stderr, "steplint-tracegen: bad --target-bytes '%s'\n", target_text.c_str());
    return 2;
  }
  if (endsWith(output, ".gz")) gzip = true;
  if (trace_name.empty()) trace_name = output == "-" ? "synthetic.pt.trace.json" : output;

  steplint::bench::OutputSink sink;
  std::string error;
  if (!sink.open(output, gzip ? gzip_level : -1, error)) {
    std::fprintf(stderr, "steplint-tracegen: %s\n", error.c_str());
    return 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  steplint::bench::StepSynthesizer synthesizer(synth, steplint::bench::TraceLayout{});
  std::string chunk;
  chunk.reserve(size_t{4} << 20);
  synthesizer.begin(chunk);
  int64_t written_steps = 0;
  for (int64_t n = 1;; ++n) {
    synthesizer.step(n, chunk);
    ++written_steps;
    uint64_t step_bytes = chunk.size();
    if (!sink.write(chunk)) break;
    chunk.clear();
    // Stop when one more step would overshoot the target by more than it undershoots now.
    bool done = target_bytes > 0 ? sink.bytesIn() + step_bytes / 2 >= target_bytes : n >= steps;
    if (done) break;
  }
  synthesizer.end(chunk, trace_name);
  sink.write(chunk);
  uint64_t in = sink.bytesIn(), out = sink.bytesOut();
  if (!sink.close(error)) {
    std::fprintf(stderr, "steplint-tracegen: %s: %s\n", output.c_str(), error.c_str());
    return 1;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!quiet) {
    std::fprintf(
        stderr,
        "steplint-tracegen: %lld steps, %.1f MB JSON (%.1f MB written) in %.2f s (%.0f MB/s)\n",
        static_cast<long long>(written_steps), static_cast<double>(in) / 1e6,
        static_cast<double>(out) / 1e6, seconds, static_cast<double>(in) / 1e6 / seconds);
  }
  return 0;
}
