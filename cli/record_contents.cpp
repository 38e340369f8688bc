#include "record_contents.h"

#include <algorithm>

#include "steplint/trace/importer.h"
#include "steplint/trace/peek.h"

namespace steplint::cli {
namespace {

bool holdsOps(const trace::TraceModel& model) {
  return std::any_of(model.events.begin(), model.events.end(), [](const trace::Event& e) {
    return trace::isCpuRange(e.kind) || trace::isDeviceOp(e.kind);
  });
}

}  // namespace

RecordedCheck checkRecordsAnything(const std::string& path, size_t head_bytes) {
  RecordedCheck check;
  std::string head;
  bool whole = false;
  if (trace::readTextHead(path, head_bytes, head, whole)) {
    // A head cut inside an event loses that event only (json_truncated), as a cut file does.
    trace::TraceModel model;
    trace::ImportOptions options;
    options.threads = 1;
    const bool read = trace::importTraceBytes(head, model, options, path).ok();
    if (read && holdsOps(model)) return check;
    if (whole) {
      check.records_anything = !read;  // unreadable: keep it, check says why
      return check;
    }
  }
  check.read_past_head = true;
  trace::TraceModel model;
  check.records_anything = !trace::importTraceFile(path, model).ok() || holdsOps(model);
  return check;
}

}  // namespace steplint::cli
