// Turning one read event (KinetoEventParser::Raw) into model records by its phase: complete
// events and B/E halves, instants and [memory] samples, counters, flows and M rows, with the
// per-event checks whose failures are counted in ImportStats (docs/reference/trace-format.md §4).
#include "kineto_event_parser.h"
#include "kineto_event_raw.h"

namespace steplint::trace {

namespace {

constexpr int64_t kMaxDurationNs = int64_t{604'800'000'000} * 1000;  // 7 days, as HTA

}  // namespace

EventKind KinetoEventParser::kindOf(StringId category, StringId name, EventBatch& out) {
  constexpr int8_t kByName = 0x40;  // the category's device work is told apart by name
  if (category >= kind_cache_.size()) kind_cache_.resize(category + 64, 0);
  int8_t& cached = kind_cache_[category];
  if (cached == 0) {
    const std::string_view c = out.strings.view(category);
    cached = static_cast<int8_t>(static_cast<int8_t>(eventKindFromCategory(c)) + 1);
    if (isSplitByName(c)) cached = static_cast<int8_t>(cached | kByName);
  }
  if (cached & kByName) return deviceKindFromName(out.strings.view(name));
  return static_cast<EventKind>(cached - 1);
}

Event KinetoEventParser::baseEvent(const Raw& raw, EventBatch& out) {
  Event e;
  e.start_ns = raw.ts;
  e.name = raw.name;
  e.category = raw.cat;
  // A range without a category is a CPU range (the legacy autograd profiler's array form),
  // except on its "CUDA functions" row: each op's GPU time taken with CUDA events, nested as
  // the ops are, no kernel and no host work (docs/reference/trace-format.md, legacy form).
  e.kind = raw.has_cat ? kindOf(raw.cat, raw.name, out)
           : raw.pid.label != 0 && out.strings.view(raw.pid.label) == "CUDA functions"
               ? EventKind::kGpuUserAnnotation
               : EventKind::kCpuOp;
  // Not silently: a simulator's "compute" ranges are on the timeline but in no figure.
  if (e.kind == EventKind::kOther) out.stats.add(Stat::event_unknown_category);
  e.external_id = raw.external_id;
  e.correlation = raw.correlation;
  e.track = out.track(raw.pid, raw.tid);
  return e;
}

void KinetoEventParser::commitComplete(Raw& raw, EventBatch& out) {
  if (!raw.has_ts || !raw.has_dur) {
    out.stats.add(raw.overflow ? Stat::event_integer_overflow : Stat::event_missing_field);
    return;
  }
  if (raw.dur < 0) {
    out.stats.add(Stat::event_negative_duration);
    raw.dur = 0;
  }
  if (raw.dur > kMaxDurationNs) {
    out.stats.add(Stat::event_absurd_duration);
    return;
  }
  Event e = baseEvent(raw, out);
  e.dur_ns = raw.dur;
  attachDetail(raw, e, out);
  out.events.push_back(e);
}

// An op's details (shapes, sequence number, collective args) or a device event's (device,
// stream, copy kind): of a complete event and of a B half alike.
void KinetoEventParser::attachDetail(Raw& raw, Event& e, EventBatch& out) {
  if (isCpuRange(e.kind)) {
    if (raw.has_op || raw.collective.name != 0) {
      e.detail = static_cast<uint32_t>(out.ops.size());
      out.ops.push_back(raw.op);
    }
  } else if (isDeviceOp(e.kind) || e.kind == EventKind::kGpuUserAnnotation ||
             e.kind == EventKind::kCudaSync || e.kind == EventKind::kCudaEvent) {
    GpuDetail& d = raw.gpu;
    if (d.device < 0 && raw.pid.label == 0) d.device = static_cast<int32_t>(raw.pid.number);
    if (d.stream < 0 && raw.tid.label == 0 && e.kind != EventKind::kCudaSync)
      d.stream = static_cast<int32_t>(raw.tid.number);
    if (e.kind == EventKind::kMemcpy || e.kind == EventKind::kMemset)
      parseCopyName(out.strings.view(raw.name), d);
    e.detail = static_cast<uint32_t>(out.gpu.size());
    out.gpu.push_back(d);
  }
  // Only a named collective: "dtype" or "Seq" alone may mean something else on another op.
  if (raw.collective.name != 0 && e.detail != kNoIndex &&
      (isCpuRange(e.kind) || e.kind == EventKind::kKernel)) {
    raw.collective.owner = e.detail;
    raw.collective.on_device = !isCpuRange(e.kind);
    out.collectives.push_back(raw.collective);
  }
}

void KinetoEventParser::commitInstant(Raw& raw, EventBatch& out) {
  if (!raw.has_ts) {
    out.stats.add(Stat::event_missing_field);
    return;
  }
  const uint32_t track = out.track(raw.pid, raw.tid);
  if (out.strings.view(raw.name) == "[memory]") {
    MemoryEvent m;
    m.ts_ns = raw.ts;
    m.bytes = raw.mem_bytes;
    m.total_allocated = raw.total_allocated;
    m.total_reserved = raw.total_reserved;
    m.addr = static_cast<uint64_t>(raw.addr);
    m.device_type = static_cast<int32_t>(raw.device_type);
    m.device_id = static_cast<int32_t>(raw.device_id);
    m.track = track;
    out.memory.push_back(m);
    return;
  }
  InstantEvent i;
  i.ts_ns = raw.ts;
  i.name = raw.name;
  i.category = raw.cat;
  i.track = track;
  i.scope = raw.scope;
  out.instants.push_back(i);
}

void KinetoEventParser::commitMeta(Raw& raw, EventBatch& out) {
  using Kind = EventBatch::Meta::Kind;
  const std::string_view name = out.strings.view(raw.name);
  EventBatch::Meta m;
  m.pid = raw.pid;
  m.tid = raw.tid;
  m.text = raw.meta_text;
  m.number = raw.sort_index;
  if (name == "process_name")
    m.kind = Kind::kProcessName;
  else if (name == "thread_name")
    m.kind = Kind::kThreadName;
  else if (name == "process_sort_index" && raw.has_sort_index)
    m.kind = Kind::kProcessSortIndex;
  else if (name == "thread_sort_index" && raw.has_sort_index)
    m.kind = Kind::kThreadSortIndex;
  else {
    if (name != "process_labels") out.stats.add(Stat::metadata_unknown);
    return;
  }
  out.meta.push_back(m);
}

void KinetoEventParser::commit(Raw& raw, EventBatch& out) {
  if (raw.bad_number && raw.ph != 'M') {
    out.stats.add(raw.overflow ? Stat::event_integer_overflow : Stat::event_bad_number);
    return;
  }
  switch (raw.ph) {
    case 'X':
      commitComplete(raw, out);
      return;
    case 'B':
    case 'E': {
      if (!raw.has_ts) {
        out.stats.add(Stat::event_missing_field);
        return;
      }
      Event e = baseEvent(raw, out);
      // The B half's args are the event's; an E's args, which Chrome would merge in, are not
      // read (docs/reference/trace-format.md §4).
      if (raw.ph == 'B') attachDetail(raw, e, out);
      out.halves.push_back({raw.ph, e});
      return;
    }
    case 'i':
    case 'I':
    case 'R':
      commitInstant(raw, out);
      return;
    case 'C': {
      if (!raw.has_ts || !raw.series) return;
      const uint32_t track = out.track(raw.pid, raw.tid);
      for (const auto& [series, value] : *raw.series)
        out.counters.push_back({raw.ts, raw.name, series, value, track});
      return;
    }
    case 's':
    case 't':
    case 'f': {
      if (!raw.has_ts || !raw.has_id) {
        out.stats.add(Stat::event_missing_field);
        return;
      }
      // The legacy export's link from an op to its CUDA work; the kernels themselves it does
      // not write (docs/reference/trace-format.md, the array form).
      if (raw.ph == 's' && raw.has_cat && out.strings.view(raw.cat) == "cpu_to_cuda")
        out.stats.add(Stat::legacy_gpu_work_unwritten);
      FlowEvent f;
      f.ts_ns = raw.ts;
      f.id = raw.id;
      f.category = raw.cat;
      f.name = raw.name;
      f.track = out.track(raw.pid, raw.tid);
      f.phase = raw.ph;
      f.binds_enclosing = raw.binds_enclosing;
      out.flows.push_back(f);
      return;
    }
    case 'M':
      commitMeta(raw, out);
      return;
    case 0:
      out.stats.add(Stat::event_missing_field);
      return;
    default:
      out.stats.add(Stat::event_unknown_phase);
  }
}

}  // namespace steplint::trace
