// A rank's own findings read beside its job, on the real 4-rank DDP job whose rank 2 loads its
// data 4x slower (tests/data/gpu_ddp/README.md): every other rank waits for rank 2 inside the
// gloo all-reduce, which its own trace shows as exposed communication. Once scoped
// (rules::scopeRankFindings), SL503 and SL502 no longer claim that wait, and the trace's
// fix-all total still is the sum of the findings' shares.
#include <catch2/catch.hpp>

#include <vector>

#include "fixtures.h"
#include "steplint/analyzer/job.h"
#include "steplint/analyzer/lint.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"
#include "steplint/trace/importer.h"

using namespace steplint;

namespace {

const analyzer::Diagnostic* find(const analyzer::LintResult& lint, const std::string& code) {
  for (const analyzer::Diagnostic& d : lint.diagnostics)
    if (d.code == code) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("gpu ddp job: the waiting ranks' SL502/SL503 keep only their own transfers (#14)") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  std::vector<analyzer::RankSummary> ranks;
  std::vector<analyzer::LintResult> lints;
  for (int rank = 0; rank < 4; ++rank) {
    const std::string path =
        test::testDataPath("gpu_ddp/dataloader/rank" + std::to_string(rank) + ".pt.trace.json.gz");
    trace::TraceModel model;
    REQUIRE(trace::importTraceFile(path, model).ok());
    analyzer::TraceSummary summary = analyzer::summarize(model);
    summary.source = path;
    lints.push_back(analyzer::runLint(model, summary, registry, analyzer::LintConfig{}));
    lints.back().source = path;
    ranks.push_back(analyzer::summarizeRank(model, summary));
  }
  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 1);
  const analyzer::JobAnalysis job = analyzer::analyzeJob(jobs[0]);
  REQUIRE(job.straggler == 2);

  for (int rank = 0; rank < 4; ++rank) {
    analyzer::LintResult lint = lints[rank];
    rules::scopeRankFindings(job, lint);
    const analyzer::Diagnostic* before = find(lints[rank], "SL503");
    const analyzer::Diagnostic* after = find(lint, "SL503");
    REQUIRE(before != nullptr);
    REQUIRE(after != nullptr);
    INFO("rank " << rank << ": " << after->message);
    CHECK(after->message.find("one rank of 4") == std::string::npos);
    double shares = 0;
    for (const analyzer::Diagnostic& d : lint.diagnostics)
      if (d.saving.known()) shares += d.saving.per_step_ms;
    CHECK(lint.saving_all.per_step_ms == Approx(shares).margin(0.01));
    if (rank == 2) {  // the straggler waits for nobody: its findings keep their savings
      CHECK(after->message.find("the other ranks wait for this one (SL701)") != std::string::npos);
      CHECK(after->saving.per_step_ms == Approx(before->saving.per_step_ms));
      continue;
    }
    const double wait = after->evidence.metric("collective_wait_ms_per_step");
    const double exposed = after->evidence.metric("exposed_communication_ms_per_step");
    // Each waiting rank waits about rank 2's extra decoding time per step (its DataLoader takes
    // 22.2 ms, the others' 10.2-11.2 ms).
    CHECK(wait > 10.0);
    CHECK(wait < 14.0);
    CHECK(wait < exposed);
    CHECK(after->message.find("of it is waiting for rank 2 (SL701)") != std::string::npos);
    CHECK(after->saving.per_step_ms <= exposed - wait + 1e-6);
    CHECK(after->saving.per_step_ms < before->saving.per_step_ms);
    const analyzer::Diagnostic* sl502 = find(lint, "SL502");
    REQUIRE(sl502 != nullptr);
    CHECK(sl502->saving.per_step_ms <
          find(lints[rank], "SL502")->saving.per_step_ms * (exposed - wait) / exposed + 0.01);
    CHECK(lint.saving_all.per_step_ms < lints[rank].saving_all.per_step_ms);
  }
}
