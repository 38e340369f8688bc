// Step detection on real torch.profiler traces (ResNet-50, 0 and 4 DataLoader workers) with
// their ProfilerStep#N ranges removed: the detected steps must start where ProfilerStep did.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "fixture_trace.h"
#include "steplint/analyzer/step_detect.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/builder.h"

using namespace steplint;
using analyzer::computeSteps;
using analyzer::StepSource;

namespace {

int64_t absNs(int64_t v) { return v < 0 ? -v : v; }

bool isProfilerStep(const trace::TraceModel& m, const trace::Event& e) {
  return trace::isCpuRange(e.kind) && m.name(e).substr(0, 13) == "ProfilerStep#";
}

// A copy of `in` built from scratch (finalize() redoes nesting and links), optionally without
// the ProfilerStep ranges, as a trainer that never called prof.step() would have written it.
void rebuild(const trace::TraceModel& in, trace::TraceModel& out, bool keep_steps) {
  trace::TraceBuilder b(out);
  for (const trace::Event& e : in.events) {
    if (!keep_steps && isProfilerStep(in, e)) continue;
    const trace::Track& t = in.tracks[e.track];
    trace::Event c = e;
    c.name = b.intern(in.name(e));
    c.category = b.intern(in.str(e.category));
    c.track = b.track(trace::RowId{t.pid, t.pid_label ? in.str(t.pid_label) : std::string_view()},
                      trace::RowId{t.tid, t.tid_label ? in.str(t.tid_label) : std::string_view()});
    c.parent = c.link = trace::kNoIndex;
    c.depth = 0;
    c.flags = 0;
    if (e.detail != trace::kNoIndex) {
      if (trace::isCpuRange(e.kind)) {
        trace::OpDetail d = in.op_details[e.detail];
        d.input_dims = d.input_types = d.concrete_inputs = d.call_stack =
            0;  // other string table; unused here
        c.detail = b.addOpDetail(d);
      } else {
        c.detail = b.addGpuDetail(in.gpu_details[e.detail]);
      }
    }
    b.addEvent(c);
  }
  b.finalize();
}

void checkFixture(const std::string& relative) {
  trace::TraceModel original;
  test::importFixture(relative, original);
  trace::TraceModel with_steps, without_steps;
  rebuild(original, with_steps, true);
  rebuild(original, without_steps, false);
  const auto real = computeSteps(original);
  REQUIRE(real.source == StepSource::kProfilerStep);
  REQUIRE(real.steps.size() >= 2);
  // The copy is faithful: the real analysis is unchanged on it.
  const auto again = computeSteps(with_steps);
  REQUIRE(again.steps.size() == real.steps.size());
  CHECK(again.steps.back().end_ns == real.steps.back().end_ns);

  const analyzer::DetectedSteps raw = analyzer::detectSteps(without_steps);
  const auto found = computeSteps(without_steps);
  const std::string note = found.notes.empty() ? std::string() : found.notes.front();
  INFO(note);
  REQUIRE(found.source == StepSource::kDetected);
  CHECK(static_cast<int64_t>(raw.steps.size()) <= raw.backward_passes);
  CHECK(found.steps.size() >= real.steps.size());
  double max_error_ms = 0, max_error_fraction = 0;
  for (const analyzer::Step& want : real.steps) {
    // The detected step nearest to this ProfilerStep; they must be within 1 % of a step.
    const auto nearest =
        std::min_element(found.steps.begin(), found.steps.end(), [&](const auto& a, const auto& b) {
          return absNs(a.host_start_ns - want.host_start_ns) <
                 absNs(b.host_start_ns - want.host_start_ns);
        });
    const int64_t host_error = absNs(nearest->host_start_ns - want.host_start_ns);
    const int64_t error = std::max(host_error, absNs(nearest->start_ns - want.start_ns));
    max_error_ms = std::max(max_error_ms, static_cast<double>(error) / 1e6);
    max_error_fraction = std::max(
        max_error_fraction, static_cast<double>(error) / static_cast<double>(want.duration_ns()));
  }
  CHECK(max_error_ms < 0.2);
  CHECK(max_error_fraction < 0.01);
}

}  // namespace

TEST_CASE("ResNet-50 without ProfilerStep, 0 workers: detected steps match the real ones",
          "[steps][detect][fixtures]") {
  checkFixture("kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  checkFixture("kineto/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz");
}

TEST_CASE("ResNet-50 without ProfilerStep, 4 workers: detected steps match the real ones",
          "[steps][detect][fixtures]") {
  checkFixture("kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");
  checkFixture("kineto/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz");
}
