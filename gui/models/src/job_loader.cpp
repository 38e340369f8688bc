#include "steplint/gui/job_loader.h"

#include <chrono>

#include "steplint/gui/job_inputs.h"
#include "steplint/rules/job_rules.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/peek.h"

namespace steplint::gui {
namespace {

/// One trace reduced to its rank summary, the model freed on return; or a rank-summary file
/// (`steplint summary --format json`) read as it is, as `steplint summary DIR` reads one. False
/// (and a problem line) when it cannot be read.
bool summarizeOne(const std::string& path, const std::atomic<bool>* cancel, LoadedJob& out,
                  std::vector<analyzer::RankSummary>& ranks) {
  analyzer::RankSummary read;
  std::string problem;
  if (analyzer::readRankSummaryFile(path, trace::peekFile(path), read, problem)) {
    ranks.push_back(std::move(read));
    return true;
  }
  if (!problem.empty()) {
    out.problems.push_back(problem);
    return false;
  }
  trace::TraceModel model;
  trace::ImportOptions options;
  options.cancel = cancel;
  const trace::ImportStatus status = trace::importTraceFile(path, model, options);
  if (!status.ok()) {
    out.problems.push_back(status.message);
    return false;
  }
  for (const std::string& line : trace::importStatLines(model.stats))
    out.warnings.push_back(path + ": " + line);
  // Default summary options: the same numbers as `steplint summary DIR`.
  analyzer::TraceSummary summary = analyzer::summarize(model);
  summary.source = path;
  ranks.push_back(analyzer::summarizeRank(model, summary));
  return true;
}

// As `steplint check DIR`: beside a job's ranks, a trace that is none is no part of the job
// (groupJobs would leave it out with a warning); the window offers it on its own instead.
void takeNotRanks(std::vector<analyzer::RankSummary>& ranks, LoadedJob& out) {
  if (!analyzer::looksLikeJob(ranks)) return;
  std::vector<analyzer::RankSummary> kept;
  for (analyzer::RankSummary& r : ranks) {
    std::string why = analyzer::notARankReason(r);
    if (why.empty())
      kept.push_back(std::move(r));
    else
      out.not_ranks.push_back({r.source, std::move(why)});
  }
  ranks = std::move(kept);
}

void analyzeAll(std::vector<analyzer::RankSummary> ranks, LoadedJob& out) {
  analyzer::JobRuleRegistry registry;
  rules::registerJobRules(registry);
  for (const analyzer::Job& job : analyzer::groupJobs(std::move(ranks), out.warnings)) {
    out.jobs.push_back(analyzer::analyzeJob(job));
    out.lint.push_back(analyzer::lintJob(out.jobs.back(), registry));
  }
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

}  // namespace

JobLoader::JobLoader(QObject* parent) : BackgroundLoader(parent) {
  qRegisterMetaType<std::shared_ptr<const steplint::gui::LoadedJob>>(
      "std::shared_ptr<const steplint::gui::LoadedJob>");
}

void JobLoader::load(const QStringList& paths) {
  run(
      [this, paths](const std::atomic<bool>& cancel, std::string& error) {
        return loadNow(paths, &cancel, progressReporter(), error);
      },
      [this](std::shared_ptr<LoadedJob> job) { emit loaded(std::move(job)); });
}

std::shared_ptr<LoadedJob> JobLoader::loadNow(const QStringList& paths,
                                              const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress,
                                              std::string& error) {
  const auto started = std::chrono::steady_clock::now();
  auto out = std::make_shared<LoadedJob>();
  const JobInputs inputs = expandJobInputs(paths);
  for (const QString& p : inputs.problems) out->problems.push_back(p.toStdString());
  std::vector<analyzer::RankSummary> ranks;
  for (qsizetype i = 0; i < inputs.files.size(); ++i) {
    if (cancel != nullptr && cancel->load()) return nullptr;
    out->files.push_back(inputs.files[i].toStdString());
    summarizeOne(out->files.back(), cancel, *out, ranks);
    if (progress) progress(static_cast<double>(i + 1) / static_cast<double>(inputs.files.size()));
  }
  if (cancel != nullptr && cancel->load()) return nullptr;
  if (ranks.empty()) {
    error = out->problems.empty() ? "no trace to open" : joined(out->problems);
    return nullptr;
  }
  takeNotRanks(ranks, *out);
  analyzeAll(std::move(ranks), *out);
  if (out->jobs.empty()) {  // every trace lacked a rank: groupJobs said why
    error = "no trace names its rank (no distributedInfo, no rank in the file name):\n" +
            joined(out->warnings);
    return nullptr;
  }
  out->load_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace steplint::gui
