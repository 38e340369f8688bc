// libFuzzer target for the whole-job side (docs/fuzzing.md): rank summaries read back from
// `steplint summary --format json` files, as `summary|check|diff DIR` read a folder that holds
// them, then the job's grouping, cross-rank analysis, job rules, job diff and their reports.
// Such a file is user input like a trace: copied between machines, cut short, edited by hand.
//
// An input holds up to kMaxRanks documents separated by form feeds ('\f', which JSON allows
// only as whitespace between tokens, never inside a summary steplint writes).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/job_diff.h"
#include "steplint/analyzer/job_rule.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/rules/job_rules.h"

namespace {

namespace analyzer = steplint::analyzer;

constexpr size_t kMaxRanks = 8;

std::vector<analyzer::RankSummary> readRanks(std::string_view input) {
  std::vector<analyzer::RankSummary> ranks;
  for (size_t begin = 0; begin <= input.size() && ranks.size() < kMaxRanks;) {
    size_t end = input.find('\f', begin);
    if (end == std::string_view::npos) end = input.size();
    analyzer::RankSummary rank;
    std::string problem;
    const auto read =
        analyzer::readRankSummaryDocument(input.substr(begin, end - begin), rank, problem);
    if (read == analyzer::RankSummaryRead::kBroken && problem.empty()) __builtin_trap();
    if (read == analyzer::RankSummaryRead::kRead) ranks.push_back(std::move(rank));
    begin = end + 1;
  }
  return ranks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const analyzer::JobRuleRegistry rules = [] {
    analyzer::JobRuleRegistry registry;
    steplint::rules::registerJobRules(registry);
    return registry;
  }();
  std::vector<analyzer::RankSummary> ranks =
      readRanks(std::string_view(reinterpret_cast<const char*>(data), size));
  if (ranks.empty()) return 0;
  std::vector<std::string> warnings;
  std::ostringstream out;
  std::vector<analyzer::JobAnalysis> jobs;
  for (const analyzer::Job& job : analyzer::groupJobs(std::move(ranks), warnings)) {
    jobs.push_back(analyzer::analyzeJob(job));
    const analyzer::JobAnalysis& analysis = jobs.back();
    analyzer::printJobText(out, analysis);
    out << analyzer::jsonText(analyzer::jobToJson(analysis), -1);
    const analyzer::JobLintResult lint = analyzer::lintJob(analysis, rules);
    out << lint.diagnostics.size();
  }
  // A job against itself and against the next: `steplint diff BASE_DIR NEW_DIR`.
  for (size_t i = 0; i < jobs.size(); ++i) {
    const analyzer::JobDiff diff = analyzer::diffJobs(jobs[i], jobs[(i + 1) % jobs.size()]);
    analyzer::printJobDiffText(out, diff);
    analyzer::printJobDiffMarkdown(out, diff);
    out << analyzer::jsonText(analyzer::jobDiffToJson(diff), -1) << analyzer::jobDiffHeadline(diff);
  }
  return 0;
}
