#include "job_inputs.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "messages.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/importer.h"

namespace steplint::cli {
namespace {

/// What one worker leaves for the printing thread: messages are printed in argument order
/// after all imports, so parallel imports do not interleave their lines.
struct Slot {
  trace::ImportStatus status;
  std::vector<std::string> warnings;
  analyzer::RankSummary rank;
};

// A summary file is small (KBs per step); anything larger is not one.
constexpr uintmax_t kMaxRankSummaryBytes = uintmax_t{64} << 20;

/// True when `path` is a `steplint summary --format json` document with a rank summary.
bool readRankSummaryFile(const std::string& path, analyzer::RankSummary& rank, std::string& problem) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > kMaxRankSummaryBytes)
    return false;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (!doc.is_object() || doc.value("schema", "") != "steplint.summary/1") return false;
  const auto it = doc.find("rank_summary");
  if (it == doc.end()) {
    problem = path + ": a steplint summary without \"rank_summary\" (written by an older steplint?)";
    return false;
  }
  problem = analyzer::rankSummaryFromJson(*it, rank);
  if (!problem.empty()) problem = path + ": " + problem;
  return problem.empty();
}

void importOne(const std::string& path, const JobInputOptions& options, int parse_threads, Slot& slot) {
  trace::TraceModel model;  // freed when this returns: only the summary outlives it
  trace::ImportOptions import;
  import.threads = parse_threads;
  slot.status = trace::importTraceFile(path, model, import);
  if (slot.status.error == trace::ImportError::kNotATrace) {
    std::string problem;
    if (readRankSummaryFile(path, slot.rank, problem)) slot.status = {};
    else if (!problem.empty()) slot.status.message = problem;
    return;
  }
  if (!slot.status.ok()) return;
  slot.warnings = importWarnings(path, model);
  analyzer::TraceSummary summary = analyzer::summarize(model, options.summary);
  summary.source = path;
  slot.rank = analyzer::summarizeRank(model, summary);
}

}  // namespace

InputRead importTraceOrRankSummary(const std::string& path, trace::TraceModel& model, analyzer::RankSummary& rank) {
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  if (status.error == trace::ImportError::kNotATrace) {
    std::string problem;
    if (readRankSummaryFile(path, rank, problem)) return InputRead::kRankSummary;
    printError(problem.empty() ? describeImportError(path, status) : problem);
    return InputRead::kFailed;
  }
  if (!status.ok()) {
    printError(describeImportError(path, status));
    return InputRead::kFailed;
  }
  for (const std::string& line : importWarnings(path, model)) printWarning(line);
  return InputRead::kTrace;
}

JobInputResult summarizeRanks(const std::vector<std::string>& paths, const JobInputOptions& options) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned workers = options.workers ? options.workers : std::min(cores, 4u);
  workers = std::max(1u, std::min<unsigned>(workers, static_cast<unsigned>(paths.size())));
  const int parse_threads = static_cast<int>(std::max(1u, cores / workers));
  std::vector<Slot> slots(paths.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) importOne(paths[i], options, parse_threads, slots[i]);
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  JobInputResult result;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!slots[i].status.ok()) {
      printError(describeImportError(paths[i], slots[i].status));
      result.all_imported = false;
      continue;
    }
    for (const std::string& w : slots[i].warnings) printWarning(w);
    result.ranks.push_back(std::move(slots[i].rank));
  }
  return result;
}

std::vector<analyzer::JobAnalysis> analyzeJobs(std::vector<analyzer::RankSummary> ranks,
                                               std::vector<std::string>& warnings) {
  std::vector<analyzer::JobAnalysis> out;
  for (const analyzer::Job& job : analyzer::groupJobs(std::move(ranks), warnings)) out.push_back(analyzer::analyzeJob(job));
  return out;
}

std::string jobSource(const analyzer::JobAnalysis& job) {
  std::string folder;
  for (const analyzer::JobRank& r : job.ranks) {
    const size_t slash = r.source.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : r.source.substr(0, slash);
    if (!folder.empty() && dir != folder) return "job " + job.identity;
    folder = dir;
  }
  return folder.empty() ? "job " + job.identity : folder;
}

bool looksLikeJob(const std::vector<analyzer::RankSummary>& ranks) {
  std::set<int64_t> distinct;
  for (const analyzer::RankSummary& r : ranks) {
    if (r.world_size > 1) return true;
    if (r.rank >= 0) distinct.insert(r.rank);
  }
  return distinct.size() >= 2;
}

}  // namespace steplint::cli
