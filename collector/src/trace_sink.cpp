#include "trace_sink.h"

#include <unistd.h>

#include <thread>

#include "config.h"
#include "process_info.h"
#include "steplint/trace/kineto_writer.h"
#include "steplint/trace/recorded_names.h"

namespace steplint::collector {

void writeHostEvent(trace::KinetoJsonWriter& out, const HostEvent& e, int64_t pid, int64_t tid) {
  const bool instant = e.kind == HostKind::kInstant;
  auto b = out.event(instant ? 'i' : 'X');
  b.cat(e.kind == HostKind::kCpuOp ? "cpu_op" : "user_annotation")
      .name(e.name)
      .pid(pid)
      .tid(tid)
      .ts(e.start_ns);
  if (instant) {
    b.field("s", "\"t\"");
  } else {
    b.dur(e.end_ns - e.start_ns);
  }
  if (e.external_id != 0) b.arg("External id", static_cast<int64_t>(e.external_id));
  if (e.seq_nr >= 0) b.arg("Sequence number", e.seq_nr);
  if (e.fwd_thread >= 0) b.arg("Fwd thread id", e.fwd_thread);
  if ((e.flags & kFlagHostSync) != 0) b.arg("steplint_host_sync", int64_t{1});
  b.rawArgs(e.args_json);
  b.done();
}

void writeProcessMetadata(trace::KinetoJsonWriter& out, int64_t pid, std::string_view process_name,
                          std::string_view labels, int64_t sort_index, int64_t ts_ns) {
  out.event('M').name("process_name").ts(ts_ns).pid(pid).tid(0).arg("name", process_name).done();
  out.event('M').name("process_labels").ts(ts_ns).pid(pid).tid(0).arg("labels", labels).done();
  out.event('M')
      .name("process_sort_index")
      .ts(ts_ns)
      .pid(pid)
      .tid(0)
      .arg("sort_index", sort_index)
      .done();
}

void writeThreadMetadata(trace::KinetoJsonWriter& out, int64_t pid, int64_t tid,
                         std::string_view thread_name, int64_t ts_ns) {
  out.event('M').name("thread_name").ts(ts_ns).pid(pid).tid(tid).arg("name", thread_name).done();
  out.event('M')
      .name("thread_sort_index")
      .ts(ts_ns)
      .pid(pid)
      .tid(tid)
      .arg("sort_index", tid)
      .done();
}

void writeMemorySample(trace::KinetoJsonWriter& out, const MemorySample& sample, int64_t pid,
                       int64_t tid) {
  constexpr int64_t kCudaDeviceType = 1;  // c10::DeviceType::CUDA
  out.event('i')
      .cat("cpu_instant_event")
      .name("[memory]")
      .field("s", "\"t\"")
      .pid(pid)
      .tid(tid)
      .ts(sample.ts_ns)
      .arg("Total Reserved", sample.peak_reserved)
      .arg("Total Allocated", sample.peak_allocated)
      .arg("Bytes", int64_t{0})
      .arg("Addr", int64_t{0})
      .arg("Device Id", int64_t{sample.device})
      .arg("Device Type", kCudaDeviceType)
      .arg("steplint_peak_sample", int64_t{1})
      .done();
}

void writeHostMemorySample(trace::KinetoJsonWriter& out, const HostMemorySample& sample,
                           int64_t pid) {
  out.event('C')
      .name(trace::kHostMemoryCounter)
      .pid(pid)
      .tid(sample.tid)
      .ts(sample.ts_ns)
      .arg(trace::kHostMemorySeries, sample.rss_bytes)
      .done();
}

void writeSpan(trace::KinetoJsonWriter& out, int64_t start_ns, int64_t end_ns) {
  constexpr int64_t kSpansSortIndex = 0x20000000;  // Kineto's sort index for "Spans"
  out.event('M')
      .name("process_name")
      .ts(start_ns)
      .pidString("Spans")
      .field("tid", "0")
      .arg("name", "Spans")
      .done();
  out.event('M')
      .name("process_sort_index")
      .ts(start_ns)
      .pidString("Spans")
      .field("tid", "0")
      .arg("sort_index", kSpansSortIndex)
      .done();
  out.event('X')
      .cat("Trace")
      .name("PyTorch Profiler (0)")
      .pidString("Spans")
      .field("tid", "\"PyTorch Profiler\"")
      .ts(start_ns)
      .dur(end_ns - start_ns)
      .arg("Op count", int64_t{0})
      .done();
}

RawJsonPairs collectRunMetadata(const CollectorConfig& config) {
  RawJsonPairs meta;
  meta.emplace_back("host_name", jsonString(hostName()));
  meta.emplace_back("pid", std::to_string(static_cast<long>(getpid())));
  meta.emplace_back("command_line", jsonString(commandLine()));
  meta.emplace_back(trace::kCpuCoresKey, std::to_string(std::thread::hardware_concurrency()));
  if (config.rank >= 0) meta.emplace_back("rank", std::to_string(config.rank));
  if (config.local_rank >= 0) meta.emplace_back("local_rank", std::to_string(config.local_rank));
  if (config.world_size >= 0) meta.emplace_back("world_size", std::to_string(config.world_size));
  if (config.record_shapes) meta.emplace_back("record_shapes", "1");  // torch.profiler's key
  return meta;
}

std::string jsonString(std::string_view text) {
  std::string out;
  trace::appendJsonString(out, text);
  return out;
}

std::string jsonObject(const RawJsonPairs& members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ", ";
    trace::appendJsonString(out, members[i].first);
    out += ": ";
    out += members[i].second.empty() ? std::string("null") : members[i].second;
  }
  return out + "}";
}

std::string jsonStringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    trace::appendJsonString(out, items[i]);
  }
  return out + "]";
}

}  // namespace steplint::collector
