#include "steplint/gui/comparison_loader.h"

#include "steplint/gui/trace_loader.h"

namespace steplint::gui {

ComparisonLoader::ComparisonLoader(QObject* parent) : BackgroundLoader(parent) {
  qRegisterMetaType<std::shared_ptr<const steplint::gui::LoadedComparison>>(
      "std::shared_ptr<const steplint::gui::LoadedComparison>");
}

void ComparisonLoader::load(const QString& base, const QString& next, bool lint) {
  run(
      [this, base = base.toStdString(), next = next.toStdString(), lint](
          const std::atomic<bool>& cancel, std::string& error) {
        return loadNow(base, next, lint, &cancel, progressReporter(), error);
      },
      [this](std::shared_ptr<LoadedComparison> comparison) { emit loaded(std::move(comparison)); });
}

std::shared_ptr<LoadedComparison> ComparisonLoader::loadNow(
    const std::string& base, const std::string& next, bool lint, const std::atomic<bool>* cancel,
    const std::function<void(double)>& progress, std::string& error) {
  auto half = [&progress](double offset) {
    return std::function<void(double)>([&progress, offset](double f) {
      if (progress) progress(offset + f / 2);
    });
  };
  auto out = std::make_shared<LoadedComparison>();
  out->base = TraceLoader::loadNow(base, cancel, half(0.0), lint, error);
  if (!out->base) return nullptr;
  out->next = TraceLoader::loadNow(next, cancel, half(0.5), lint, error);
  if (!out->next) return nullptr;
  // As `steplint diff`: one profile per run, then the diff; findings only when both were linted.
  const analyzer::RunProfile base_profile =
      analyzer::profileRun(out->base->model, out->base->summary, lint ? &out->base->lint : nullptr);
  const analyzer::RunProfile next_profile =
      analyzer::profileRun(out->next->model, out->next->summary, lint ? &out->next->lint : nullptr);
  out->diff = analyzer::diffRuns(base_profile, next_profile);
  return out;
}

}  // namespace steplint::gui
