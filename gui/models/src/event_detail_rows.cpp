#include "event_detail_rows.h"

#include <cstdio>

#include "steplint/gui/format.h"

namespace steplint::gui {
namespace {

std::string trackLabel(const trace::TraceModel& model, const trace::Track& track) {
  std::string label;
  if (track.kind == trace::TrackKind::kGpuStream) {
    label = std::string(trace::deviceNoun(model.metadata.accelerator)) + " " +
            std::to_string(track.pid) + ", stream " + std::to_string(track.tid);
  } else {
    const std::string_view pid = model.str(track.pid_label);
    const std::string_view tid = model.str(track.tid_label);
    label = "pid " + (pid.empty() ? std::to_string(track.pid) : std::string(pid)) + ", tid " +
            (tid.empty() ? std::to_string(track.tid) : std::string(tid));
  }
  const std::string_view thread = model.str(track.thread_name);
  if (!thread.empty()) label += " (" + std::string(thread) + ")";
  return label;
}

std::string dims3(const int32_t (&v)[3]) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
         "]";
}

std::string number(double value, const char* format) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

void addGeneralRows(const trace::TraceModel& model, const trace::Event& e, int64_t trace_start_ns,
                    std::vector<DetailRow>& rows) {
  rows.push_back({"Category", std::string(model.str(e.category))});
  rows.push_back({"Kind", std::string(trace::eventKindName(e.kind))});
  if (e.track < model.tracks.size())
    rows.push_back({"Track", trackLabel(model, model.tracks[e.track])});
  rows.push_back({"Start", formatDurationNs(e.start_ns - trace_start_ns) + " after trace start"});
  rows.push_back({"Duration", formatDurationNs(e.dur_ns)});
  if (e.external_id != trace::kNoId) rows.push_back({"External id", std::to_string(e.external_id)});
  if (e.correlation != trace::kNoId) rows.push_back({"Correlation", std::to_string(e.correlation)});
}

void addGpuRows(const trace::GpuDetail& gpu, trace::EventKind kind, std::vector<DetailRow>& rows) {
  if (gpu.device >= 0) rows.push_back({"Device", std::to_string(gpu.device)});
  if (gpu.stream >= 0) rows.push_back({"Stream", std::to_string(gpu.stream)});
  if (gpu.grid[0] > 0) rows.push_back({"Grid", dims3(gpu.grid)});
  if (gpu.block[0] > 0) rows.push_back({"Block", dims3(gpu.block)});
  if (gpu.registers_per_thread >= 0)
    rows.push_back({"Registers per thread", std::to_string(gpu.registers_per_thread)});
  if (gpu.shared_memory >= 0) rows.push_back({"Shared memory", formatBytes(gpu.shared_memory)});
  if (gpu.blocks_per_sm >= 0) rows.push_back({"Blocks per SM", number(gpu.blocks_per_sm, "%.2f")});
  if (gpu.warps_per_sm >= 0) rows.push_back({"Warps per SM", number(gpu.warps_per_sm, "%.2f")});
  if (gpu.occupancy_pct >= 0)
    rows.push_back({"Est. achieved occupancy", number(gpu.occupancy_pct, "%.0f %%")});
  if (gpu.bytes >= 0) rows.push_back({"Bytes", formatBytes(gpu.bytes)});
  if (gpu.copy_kind != trace::CopyKind::kUnknown)
    rows.push_back({"Copy kind", std::string(trace::copyKindName(gpu.copy_kind))});
  if (kind == trace::EventKind::kMemset) {
    if (gpu.dst_kind != trace::MemoryKind::kUnknown)
      rows.push_back({"Memory kind", std::string(trace::memoryKindName(gpu.dst_kind))});
    return;
  }
  if (gpu.src_kind != trace::MemoryKind::kUnknown)
    rows.push_back({"Source memory", std::string(trace::memoryKindName(gpu.src_kind))});
  if (gpu.dst_kind != trace::MemoryKind::kUnknown)
    rows.push_back({"Destination memory", std::string(trace::memoryKindName(gpu.dst_kind))});
}

void addOpRows(const trace::TraceModel& model, const trace::OpDetail& op,
               std::vector<DetailRow>& rows) {
  if (op.sequence_number != trace::kNoId)
    rows.push_back({"Sequence number", std::to_string(op.sequence_number)});
  if (op.fwd_thread_id != trace::kNoId)
    rows.push_back({"Forward thread", std::to_string(op.fwd_thread_id)});
  if (op.input_dims != 0) rows.push_back({"Input dims", std::string(model.str(op.input_dims))});
  if (op.input_types != 0) rows.push_back({"Input types", std::string(model.str(op.input_types))});
  if (op.concrete_inputs != 0)
    rows.push_back({"Concrete inputs", std::string(model.str(op.concrete_inputs))});
  if (op.call_stack != 0) rows.push_back({"Call stack", std::string(model.str(op.call_stack))});
}

}  // namespace steplint::gui
