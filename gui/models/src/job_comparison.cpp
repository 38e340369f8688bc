#include "steplint/gui/job_comparison.h"

#include "steplint/gui/job_loader.h"

namespace steplint::gui {
namespace {

// What `steplint diff` warns about a side, said in the window instead (the diff's own notes
// say what could not be compared).
void addNotices(const std::string& side, const LoadedJob& job, std::vector<std::string>& out) {
  for (const std::string& p : job.problems) out.push_back(side + ": not opened: " + p);
  for (const NotARank& t : job.not_ranks)
    out.push_back(side + ": " + t.path + ": " + t.reason + ": not a rank of the job, left out");
  if (job.jobs.size() > 1)
    out.push_back(side + ": holds " + std::to_string(job.jobs.size()) +
                  " jobs; compared the first (" + job.jobs.front().identity + ")");
  for (const std::string& w : job.jobs.front().warnings) out.push_back(side + ": " + w);
}

}  // namespace

JobComparisonLoader::JobComparisonLoader(QObject* parent) : BackgroundLoader(parent) {
  qRegisterMetaType<std::shared_ptr<const steplint::gui::LoadedJobComparison>>(
      "std::shared_ptr<const steplint::gui::LoadedJobComparison>");
}

void JobComparisonLoader::load(const QStringList& base, const QStringList& next) {
  run(
      [this, base, next](const std::atomic<bool>& cancel, std::string& error) {
        return loadNow(base, next, &cancel, progressReporter(), error);
      },
      [this](std::shared_ptr<LoadedJobComparison> comparison) {
        emit loaded(std::move(comparison));
      });
}

std::shared_ptr<LoadedJobComparison> JobComparisonLoader::loadNow(
    const QStringList& base, const QStringList& next, const std::atomic<bool>* cancel,
    const std::function<void(double)>& progress, std::string& error) {
  auto half = [&progress](double offset) {
    return std::function<void(double)>([&progress, offset](double f) {
      if (progress) progress(offset + f / 2);
    });
  };
  auto out = std::make_shared<LoadedJobComparison>();
  std::string side_error;
  out->base = JobLoader::loadNow(base, cancel, half(0.0), side_error);
  if (!out->base) {
    error = "base: " + side_error;
    return nullptr;
  }
  out->next = JobLoader::loadNow(next, cancel, half(0.5), side_error);
  if (!out->next) {
    error = "new: " + side_error;
    return nullptr;
  }
  // As `steplint diff BASE_DIR NEW_DIR`: the first job of each side (the notices name others).
  out->diff = analyzer::diffJobs(out->base->jobs.front(), out->next->jobs.front());
  // The job rules' findings, which JobLoader ran with the default configuration, as `diff`.
  analyzer::compareJobFindings(out->diff, out->base->lint.front().diagnostics,
                               out->next->lint.front().diagnostics);
  out->diff.base_source = base.join(QStringLiteral(" ")).toStdString();
  out->diff.new_source = next.join(QStringLiteral(" ")).toStdString();
  addNotices("base", *out->base, out->notices);
  addNotices("new", *out->next, out->notices);
  return out;
}

}  // namespace steplint::gui
