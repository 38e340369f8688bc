// Small hand-built LoadedTraces for the GUI model and panel tests (times in µs, as
// TestTrace takes them). The summary is computed by the real analyzer; findings are made up.
#pragma once

#include <memory>

#include "../analyzer/test_model.h"
#include "steplint/analyzer/summary.h"
#include "steplint/gui/loaded_trace.h"

namespace steplint::test {

/// Indices of the interesting events of smallTrace() (valid after finalize).
struct SmallTraceEvents {
  uint32_t step1 = trace::kNoIndex;
  uint32_t linear = trace::kNoIndex;  // aten::linear, encloses addmm
  uint32_t addmm = trace::kNoIndex;   // encloses the launch
  uint32_t kernel = trace::kNoIndex;  // launched from addmm
  uint32_t memcpy = trace::kNoIndex;
};

/// Three ProfilerSteps of 100 µs; in step 1 aten::linear > aten::addmm > cudaLaunchKernel
/// -> volta_sgemm kernel; a pageable HtoD memcpy in step 2; one kernel per step otherwise.
inline std::shared_ptr<gui::LoadedTrace> smallTrace(SmallTraceEvents* events = nullptr) {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.step(3, 200, 100);
  t.op("aten::linear", 10, 40);
  t.op("aten::addmm", 12, 30);
  t.launch(15, 5, 20, 50, "volta_sgemm_128x64_nn");
  t.op("aten::copy_", 110, 20);
  t.launch(112, 5, 120, 10, "Memcpy HtoD (Pageable -> Device)", trace::EventKind::kMemcpy,
           trace::EventKind::kRuntime);
  t.op("aten::addmm", 210, 20);
  t.launch(212, 5, 220, 30, "elementwise_kernel");
  t.finalize();
  auto out = std::make_shared<gui::LoadedTrace>();
  out->path = "small.json";
  out->model = std::move(t.model);
  analyzer::SummaryOptions options;
  options.steps.drop_incomplete_tail = false;  // keep all three steps: the tests count them
  out->summary = analyzer::summarize(out->model, options);
  out->op_stats = analyzer::computeOpStats(out->model);  // as TraceLoader does
  SmallTraceEvents found;
  const trace::TraceModel& m = out->model;
  for (uint32_t i = 0; i < m.events.size(); ++i) {
    const std::string_view name = m.name(m.events[i]);
    if (name == "ProfilerStep#1") found.step1 = i;
    if (name == "aten::linear") found.linear = i;
    if (name == "aten::addmm" && found.addmm == trace::kNoIndex) found.addmm = i;
    if (name == "volta_sgemm_128x64_nn") found.kernel = i;
    if (m.events[i].kind == trace::EventKind::kMemcpy) found.memcpy = i;
  }
  // The importer parses these from Kineto args; the builder alone does not.
  trace::GpuDetail& copy = out->model.gpu_details[m.events[found.memcpy].detail];
  copy.copy_kind = trace::CopyKind::kHtoD;
  copy.src_kind = trace::MemoryKind::kPageable;
  copy.dst_kind = trace::MemoryKind::kDevice;
  copy.bytes = 4096;
  if (events != nullptr) *events = found;
  return out;
}

/// Two findings and one not-checked rule, on smallTrace()'s events.
inline void addFindings(gui::LoadedTrace& t, const SmallTraceEvents& e) {
  analyzer::Diagnostic copy;
  copy.code = "SL201";
  copy.name = "pageable-h2d-copy";
  copy.severity = analyzer::Severity::kWarning;
  copy.message = "1 pageable host-to-device copy per step";
  copy.evidence.events = {e.memcpy};
  copy.saving.per_step_ms = 0.004;
  copy.saving.fraction_of_step = 0.04;
  analyzer::Diagnostic note;
  note.code = "SL303";
  note.name = "small-kernels";
  note.severity = analyzer::Severity::kNote;
  note.message = "kernels are small";
  note.evidence.ranges = {{200'000, 250'000}};
  note.saving.per_step_ms = 0.02;
  note.saving.fraction_of_step = 0.2;
  t.lint.diagnostics = {copy, note};
  t.lint.not_checked = {{"SL501", "straggler-rank", "no distributed info in this trace"}};
  t.warnings = {"unknown_category = 2: events with a category steplint does not know"};
}

}  // namespace steplint::test
