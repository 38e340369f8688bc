// The ranks view's data: a synthetic 4-rank job with a planted straggler, loaded as
// `steplint-gui DIR` loads it, must give the numbers of the analyzer's job analysis (the ones
// `steplint summary DIR` prints), name the planted rank and cause, and pick the right two ranks
// to show. Bad inputs give a message, never a crash.
#include "steplint/gui/job_models.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "gui_test_jobs.h"
#include "steplint/analyzer/job.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/gui/job_inputs.h"
#include "steplint/gui/job_loader.h"
#include "steplint/gui/rank_pair.h"
#include "steplint/trace/importer.h"

using namespace steplint;
using gui::JobLoader;
using gui::JobStepsModel;
using gui::RanksModel;

namespace {

std::shared_ptr<const gui::LoadedJob> load(const QStringList& paths, std::string& error) {
  return JobLoader::loadNow(paths, nullptr, {}, error);
}

/// The job analysis as `steplint summary DIR` computes it, straight from the analyzer.
analyzer::JobAnalysis analyzerJob(const QStringList& paths) {
  std::vector<analyzer::RankSummary> ranks;
  for (const QString& path : paths) {
    trace::TraceModel model;
    REQUIRE(trace::importTraceFile(path.toStdString(), model).ok());
    analyzer::TraceSummary summary = analyzer::summarize(model);
    summary.source = path.toStdString();
    ranks.push_back(analyzer::summarizeRank(model, summary));
  }
  std::vector<std::string> warnings;
  auto jobs = analyzer::groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 1);
  return analyzer::analyzeJob(jobs[0]);
}

double cell(const QAbstractItemModel& m, int row, int column) {
  return m.index(row, column).data(gui::ResultTableModel::kSortValueRole).toDouble();
}

}  // namespace

TEST_CASE("job inputs: a folder, a glob and several files are a job, one file is a trace") {
  QTemporaryDir dir;
  const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
  CHECK(gui::isJobInput({dir.path()}));
  CHECK(gui::isJobInput({dir.filePath(QStringLiteral("rank*.json"))}));
  CHECK(gui::isJobInput(paths));
  CHECK_FALSE(gui::isJobInput({paths.first()}));
  CHECK_FALSE(gui::isJobInput({dir.filePath(QStringLiteral("missing.json"))}));

  CHECK(gui::expandJobInputs({dir.path()}).files == paths);  // sorted by name
  CHECK(gui::expandJobInputs({dir.filePath(QStringLiteral("rank[01]*.json"))}).files ==
        paths.mid(0, 2));
  const gui::JobInputs none = gui::expandJobInputs({dir.filePath(QStringLiteral("nothing*.json"))});
  CHECK(none.files.isEmpty());
  REQUIRE(none.problems.size() == 1);
  CHECK(none.problems.first().contains(QStringLiteral("matches no file")));
}

TEST_CASE("job inputs: a single-process run's log folder stands for its one trace") {
  // tensorboard_trace_handler's folder of a one-GPU run: opened (or compared) as a job, it said
  // "no trace names its rank".
  QTemporaryDir job_dir;
  const QStringList ranks = test::writeJob(job_dir.path(), test::backwardStraggler());
  CHECK(gui::singleRunTrace(job_dir.path()) == job_dir.path());  // a job stays a job
  QTemporaryDir run_dir;
  // No distributedInfo, no rank in the name (torch 1.13's export).
  const QString plain =
      QString::fromStdString(test::testDataPath("torch113/adam_single_no_wd.json.gz"));
  const QString run = run_dir.filePath(QStringLiteral("host_7.1700000000000.pt.trace.json.gz"));
  REQUIRE(QFile::copy(plain, run));
  CHECK(gui::singleRunTrace(run_dir.path()) == run);
  CHECK(gui::singleRunTrace(run) == run);  // a file is itself
  // One rank of a job alone in a folder (its file name says rank 1): still a job's rank.
  QTemporaryDir rank_dir;
  const QString rank1 = rank_dir.filePath(QStringLiteral("rank1.pt.trace.json.gz"));
  REQUIRE(QFile::copy(plain, rank1));
  CHECK(gui::singleRunTrace(rank_dir.path()) == rank_dir.path());
}

TEST_CASE(
    "job loader: the ranks table holds the analyzer's numbers and names the planted straggler (#14)") {
  QTemporaryDir dir;
  const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
  std::string error;
  const auto job = load({dir.path()}, error);
  INFO(error);
  REQUIRE(job != nullptr);
  REQUIRE(job->jobs.size() == 1);
  CHECK(job->problems.empty());
  const analyzer::JobAnalysis& a = job->jobs[0];
  CHECK(a.straggler == 2);
  CHECK(a.straggler_cause == analyzer::LateCause::kGpuCompute);
  CHECK(a.mean_late_ns == Approx(8e6).epsilon(0.05));

  RanksModel ranks;
  QAbstractItemModelTester tester(&ranks, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ranks.setJob(job);
  REQUIRE(ranks.rowCount() == 4);
  CHECK(ranks.columnCount() == RanksModel::kColumnCount);
  const analyzer::JobAnalysis expected = analyzerJob(paths);
  for (int r = 0; r < 4; ++r) {
    const analyzer::JobRank& e = expected.ranks[static_cast<size_t>(r)];
    CHECK(ranks.index(r, RanksModel::kRankColumn).data().toString() == QString::number(r));
    CHECK(cell(ranks, r, RanksModel::kStepColumn) == Approx(e.step_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kComputeColumn) == Approx(e.compute_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kTransferColumn) == Approx(e.transfer_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kWaitColumn) == Approx(e.wait_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kSyncColumn) == Approx(e.sync_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kHostWorkColumn) == Approx(e.host_work_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kDataLoaderColumn) == Approx(e.dataloader_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kIdleColumn) == Approx(e.idle_ns / 1e6));
    CHECK(cell(ranks, r, RanksModel::kLateStepsColumn) == (r == 2 ? 6 : 0));
  }
  // The waiting ranks wait about as long as rank 2 is late; the text has the CLI's 3 decimals.
  CHECK(cell(ranks, 0, RanksModel::kWaitColumn) > 0.8 * 8.0);
  CHECK(cell(ranks, 2, RanksModel::kWaitColumn) < 0.8);
  CHECK(ranks.index(0, RanksModel::kStepColumn)
            .data()
            .toString()
            .section(QLatin1Char('.'), 1)
            .size() == 3);
  CHECK(ranks.index(2, 0).data(Qt::FontRole).value<QFont>().bold());
  CHECK(ranks.index(1, 0).data(RanksModel::kSourceRole).toString() == paths[1]);

  JobStepsModel steps;
  QAbstractItemModelTester steps_tester(&steps,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
  steps.setJob(job);
  REQUIRE(steps.rowCount() == 6);
  CHECK(steps.index(0, JobStepsModel::kLateRankColumn).data().toString() == "2");
  CHECK(steps.index(0, JobStepsModel::kCauseColumn)
            .data()
            .toString()
            .startsWith(QStringLiteral("GPU compute")));
  CHECK(steps.index(0, JobStepsModel::kCauseColumn)
            .data()
            .toString()
            .contains(QStringLiteral("ampere_sgemm_128x64_nt")));
  CHECK(cell(steps, 0, JobStepsModel::kCollectivesColumn) == 2);
}

TEST_CASE(
    "job loader: the straggler finding leads to the late rank and the rank that waited longest (#14)") {
  QTemporaryDir dir;
  test::writeJob(dir.path(), test::backwardStraggler());
  std::string error;
  const auto job = load({dir.path()}, error);
  REQUIRE(job != nullptr);
  const auto& findings = job->lint[0].diagnostics;
  const auto sl701 = std::find_if(findings.begin(), findings.end(),
                                  [](const auto& d) { return d.code == "SL701"; });
  REQUIRE(sl701 != findings.end());
  const auto pair = gui::rankPairForFinding(job->jobs[0], *sl701);
  REQUIRE(pair);
  CHECK(pair->late->rank == 2);
  CHECK(pair->waiting->rank != 2);
  CHECK(pair->step == sl701->evidence.steps.front());
  CHECK(pair->late_step->straggler == 2);
  for (const analyzer::JobRank& r : job->jobs[0].ranks)
    if (r.rank != 2) CHECK(pair->waiting->wait_ns >= r.wait_ns);

  const auto by_step = gui::rankPairForStep(job->jobs[0], 4);
  REQUIRE(by_step);
  CHECK(by_step->step == 4);
  CHECK(by_step->late->rank == 2);
  CHECK_FALSE(gui::rankPairForStep(job->jobs[0], 99));
}

TEST_CASE("job loader: a balanced job has no straggler and no pair to show") {
  QTemporaryDir dir;
  test::writeJob(dir.path(), bench::JobSynthOptions{});
  std::string error;
  const auto job = load({dir.path()}, error);
  REQUIRE(job != nullptr);
  CHECK(job->jobs[0].straggler < 0);
  for (const analyzer::JobStep& s : job->jobs[0].steps)
    CHECK_FALSE(gui::rankPairForStep(job->jobs[0], s.number));
  CHECK(gui::jobNotices(*job, 0).empty());
}

TEST_CASE("job loader: bad inputs give messages, never a crash (#14)") {
  QTemporaryDir dir;
  std::string error;
  SECTION("a missing file alone fails, naming it") {
    CHECK(load({dir.filePath(QStringLiteral("absent.json")),
                dir.filePath(QStringLiteral("gone.json"))},
               error) == nullptr);
    CHECK(error.find("absent.json") != std::string::npos);
    CHECK(error.find("gone.json") != std::string::npos);
  }
  SECTION("an empty folder says it has no traces") {
    CHECK(load({dir.path()}, error) == nullptr);
    CHECK(error.find("no trace files") != std::string::npos);
  }
  SECTION("a missing file beside a job is listed; the job still opens") {
    QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
    paths << dir.filePath(QStringLiteral("rank9.pt.trace.json"));
    const auto job = load(paths, error);
    REQUIRE(job != nullptr);
    CHECK(job->jobs[0].ranks.size() == 4);
    const auto notices = gui::jobNotices(*job, 0);
    REQUIRE(!notices.empty());
    CHECK(notices.front().find("not opened") == 0);
    CHECK(notices.front().find("rank9.pt.trace.json") != std::string::npos);
  }
  SECTION("one rank opens, and says there is nothing to compare it with") {
    const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
    const auto job = load({paths.first(), dir.filePath(QStringLiteral("absent.json"))}, error);
    REQUIRE(job != nullptr);
    REQUIRE(job->jobs.size() == 1);
    CHECK(job->jobs[0].ranks.size() == 1);
    const auto notices = gui::jobNotices(*job, 0);
    CHECK(std::any_of(notices.begin(), notices.end(), [](const std::string& n) {
      return n.find("one rank") != std::string::npos;
    }));
  }
  SECTION("traces of two jobs in one folder become two jobs, and the notice says so") {
    test::writeJob(dir.path(), test::backwardStraggler(), 6, QStringLiteral("a_"));
    bench::JobSynthOptions two;
    two.ranks = 2;
    test::writeJob(dir.path(), two, 6, QStringLiteral("b_"));
    const auto job = load({dir.path()}, error);
    REQUIRE(job != nullptr);
    REQUIRE(job->jobs.size() == 2);
    REQUIRE(job->lint.size() == 2);
    const auto notices = gui::jobNotices(*job, 0);
    CHECK(std::any_of(notices.begin(), notices.end(), [](const std::string& n) {
      return n.find("2 different jobs") != std::string::npos;
    }));
  }
}

TEST_CASE("job loader: a trace that is no rank beside a job's ranks is offered on its own") {
  QTemporaryDir dir;
  const QStringList ranks = test::writeJob(dir.path(), test::backwardStraggler());
  const auto write = [&](const QString& name, const char* head) {
    QFile file(dir.filePath(name));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(head);
    file.write(R"("traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1,
                   "tid": 1, "ts": 0, "dur": 10}]})");
    return file.fileName().toStdString();
  };
  const std::string no_rank = write(QStringLiteral("notes.json"), "{");
  const std::string single =
      write(QStringLiteral("single.json"), R"({"distributedInfo": {"rank": 0, "world_size": 1},)");
  std::string error;
  const auto job = load({dir.path()}, error);
  REQUIRE(job != nullptr);
  REQUIRE(job->jobs.size() == 1);
  CHECK(job->jobs[0].ranks.size() == 4);  // the job's report is unchanged by them
  CHECK(job->jobs[0].straggler == 2);
  REQUIRE(job->not_ranks.size() == 2);
  // The folder's traces in name order: notes.json, rank0-3, single.json.
  CHECK(job->not_ranks[0].path == no_rank);
  CHECK(job->not_ranks[0].reason == "no distributedInfo and no rank in the file name");
  CHECK(job->not_ranks[1].path == single);
  CHECK(job->not_ranks[1].reason == "a single-process run (world_size 1)");
  // Said once, as not a rank: not also "left out of the job report" by the grouping.
  for (const std::string& w : job->warnings) CHECK(w.find("left out") == std::string::npos);
  const auto notices = gui::jobNotices(*job, 0);
  CHECK(std::count_if(notices.begin(), notices.end(), [](const std::string& n) {
          return n.find(": not a rank of the job, open it on its own") != std::string::npos;
        }) == 2);

  SECTION("without a job beside it, one rank of a single-process run opens as a one-rank job") {
    const auto alone = load({QString::fromStdString(single)}, error);
    REQUIRE(alone != nullptr);
    CHECK(alone->not_ranks.empty());
    REQUIRE(alone->jobs.size() == 1);
    CHECK(alone->jobs[0].ranks.size() == 1);
  }
}

TEST_CASE("job loader: a rank's summary file stands in for its trace, as in summary DIR") {
  QTemporaryDir dir;
  const QStringList paths = test::writeJob(dir.path(), test::backwardStraggler());
  const analyzer::JobAnalysis expected = analyzerJob(paths);
  // Rank 3's trace replaced by its `steplint summary --format json` document.
  analyzer::RankSummary rank3;
  {
    trace::TraceModel model;
    REQUIRE(trace::importTraceFile(paths[3].toStdString(), model).ok());
    analyzer::TraceSummary summary = analyzer::summarize(model);
    summary.source = paths[3].toStdString();
    rank3 = analyzer::summarizeRank(model, summary);
  }
  const nlohmann::json doc = {{"schema", "steplint.summary/1"},
                              {"rank_summary", analyzer::rankSummaryToJson(rank3)}};
  QFile summary_file(dir.filePath(QStringLiteral("rank3.summary.json")));
  REQUIRE(summary_file.open(QIODevice::WriteOnly));
  summary_file.write(QByteArray::fromStdString(doc.dump()));
  summary_file.close();
  REQUIRE(QFile::remove(paths[3]));

  std::string error;
  const auto job = load({dir.path()}, error);
  INFO(error);
  REQUIRE(job != nullptr);
  CHECK(job->problems.empty());
  REQUIRE(job->jobs.size() == 1);
  const analyzer::JobAnalysis& a = job->jobs[0];
  REQUIRE(a.ranks.size() == 4);
  CHECK(a.ranks[3].source == paths[3].toStdString());  // the trace it was made from
  CHECK(a.straggler == expected.straggler);
  CHECK(a.straggler_steps == expected.straggler_steps);
  CHECK(a.mean_late_ns == expected.mean_late_ns);

  SECTION("a broken summary file is named, and the ranks beside it still open") {
    QFile broken(dir.filePath(QStringLiteral("rank9.summary.json")));
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write(R"({"schema": "steplint.summary/1", "steps": []})");
    broken.close();
    const auto with_broken = load({dir.path()}, error);
    REQUIRE(with_broken != nullptr);
    REQUIRE(with_broken->problems.size() == 1);
    CHECK(with_broken->problems[0].find("rank9.summary.json: a steplint summary without") !=
          std::string::npos);
    CHECK(with_broken->jobs[0].ranks.size() == 4);
  }
}
