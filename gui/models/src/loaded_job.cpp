#include "steplint/gui/loaded_job.h"

namespace steplint::gui {

std::shared_ptr<const std::vector<analyzer::Diagnostic>> LoadedJob::findings(
    std::shared_ptr<const LoadedJob> job, size_t index) {
  if (!job || index >= job->lint.size()) return nullptr;
  return {job, &job->lint[index].diagnostics};  // aliasing: the list lives as long as the job
}

std::shared_ptr<const std::vector<analyzer::NotChecked>> LoadedJob::notChecked(
    std::shared_ptr<const LoadedJob> job, size_t index) {
  if (!job || index >= job->lint.size()) return nullptr;
  return {job, &job->lint[index].not_checked};
}

std::vector<std::string> jobNotices(const LoadedJob& job, size_t index) {
  std::vector<std::string> out;
  for (const std::string& p : job.problems) out.push_back("not opened: " + p);
  for (const NotARank& t : job.not_ranks)
    out.push_back(t.path + ": " + t.reason + ": not a rank of the job, open it on its own");
  if (job.jobs.size() > 1)
    out.push_back("these traces belong to " + std::to_string(job.jobs.size()) +
                  " different jobs (different world sizes or backends); pick one above");
  if (index < job.jobs.size())
    for (const std::string& n : job.jobs[index].not_checked) out.push_back("not compared: " + n);
  return out;
}

}  // namespace steplint::gui
