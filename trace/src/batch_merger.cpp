#include "batch_merger.h"

namespace steplint::trace {

uint32_t EventBatch::track(RowKey pid, RowKey tid) {
  // Labels are tagged in the top bit so the number 5 and the label with id 5 differ.
  constexpr uint64_t kLabel = uint64_t{1} << 63;
  const auto key = [](RowKey r) {
    return r.label ? (kLabel | r.label) : (static_cast<uint64_t>(r.number) & ~kLabel);
  };
  auto [it, inserted] =
      track_index_.try_emplace({key(pid), key(tid)}, static_cast<uint32_t>(tracks.size()));
  if (inserted) tracks.push_back({pid, tid});
  return it->second;
}

void EventBatch::clear() {
  strings.clear();
  tracks.clear();
  events.clear();
  gpu.clear();
  ops.clear();
  collectives.clear();
  memory.clear();
  instants.clear();
  counters.clear();
  flows.clear();
  meta.clear();
  halves.clear();
  stats = ImportStats();
  track_index_.clear();
}

RowId BatchMerger::row(const RowKey& key, const EventBatch& batch) const {
  return key.label ? RowId{0, batch.strings.view(key.label)} : RowId{key.number, {}};
}

void BatchMerger::applyMeta(const EventBatch::Meta& m, const EventBatch& batch) {
  using Kind = EventBatch::Meta::Kind;
  ++meta_rows_;
  const std::string_view text = batch.strings.view(m.text);
  switch (m.kind) {
    case Kind::kProcessName:
      builder_.setProcessName(row(m.pid, batch), text);
      break;
    case Kind::kThreadName:
      builder_.setThreadName(row(m.pid, batch), row(m.tid, batch), text);
      break;
    case Kind::kThreadSortIndex:
      builder_.setSortIndex(row(m.pid, batch), row(m.tid, batch), m.number);
      break;
    case Kind::kProcessSortIndex:
      break;  // tracks are ordered by the GUI; nothing to keep yet
  }
}

void BatchMerger::pairHalf(const EventBatch::Half& half) {
  const Event& e = half.event;
  if (open_.size() <= e.track) open_.resize(e.track + 1);
  auto& stack = open_[e.track];
  if (half.phase == 'B') {
    stack.push_back(e);
    return;
  }
  if (stack.empty()) {
    builder_.stats().add(Stat::event_unmatched_begin_end);
    return;
  }
  Event done = stack.back();
  stack.pop_back();
  done.dur_ns = e.start_ns >= done.start_ns ? e.start_ns - done.start_ns : 0;
  builder_.appendEvent(done);
  builder_.stats().add(Stat::event_begin_end_pair);
}

void BatchMerger::merge(EventBatch& batch) {
  strings_.resize(batch.strings.size());
  for (StringId i = 0; i < batch.strings.size(); ++i)
    strings_[i] = builder_.intern(batch.strings.view(i));
  tracks_.resize(batch.tracks.size());
  for (size_t i = 0; i < batch.tracks.size(); ++i)
    tracks_[i] = builder_.track(row(batch.tracks[i].pid, batch), row(batch.tracks[i].tid, batch));

  TraceModel& model = builder_.model();
  const auto gpu_base = static_cast<uint32_t>(model.gpu_details.size());
  const auto op_base = static_cast<uint32_t>(model.op_details.size());
  model.gpu_details.insert(model.gpu_details.end(), batch.gpu.begin(), batch.gpu.end());
  for (OpDetail op : batch.ops) {
    op.input_dims = strings_[op.input_dims];
    op.input_types = strings_[op.input_types];
    op.concrete_inputs = strings_[op.concrete_inputs];
    op.call_stack = strings_[op.call_stack];
    model.op_details.push_back(op);
  }
  for (CollectiveDetail c : batch.collectives) {
    for (StringId* id : {&c.name, &c.group, &c.group_desc, &c.group_ranks, &c.dtype})
      *id = strings_[*id];
    c.owner += c.on_device ? gpu_base : op_base;
    model.collectives.push_back(c);
  }
  for (Event e : batch.events) {
    e.name = strings_[e.name];
    e.category = strings_[e.category];
    e.track = tracks_[e.track];
    if (e.detail != kNoIndex) e.detail += isCpuRange(e.kind) ? op_base : gpu_base;
    builder_.appendEvent(e);
  }
  for (MemoryEvent m : batch.memory) {
    m.track = tracks_[m.track];
    model.memory_events.push_back(m);
  }
  for (InstantEvent i : batch.instants) {
    i.name = strings_[i.name], i.category = strings_[i.category], i.track = tracks_[i.track];
    model.instants.push_back(i);
  }
  for (CounterSample c : batch.counters) {
    c.name = strings_[c.name], c.series = strings_[c.series], c.track = tracks_[c.track];
    model.counters.push_back(c);
  }
  // Flows that are not kept still made their tracks and strings above: the model's tracks
  // and names are the same either way.
  if (keep_flows_) {
    for (FlowEvent f : batch.flows) {
      f.name = strings_[f.name], f.category = strings_[f.category], f.track = tracks_[f.track];
      model.flows.push_back(f);
    }
  }
  for (const auto& m : batch.meta) applyMeta(m, batch);
  for (auto half : batch.halves) {
    Event& e = half.event;
    e.name = strings_[e.name];
    e.category = strings_[e.category];
    e.track = tracks_[e.track];
    // A B half carries its event's details (shapes, collective args) from this batch.
    if (e.detail != kNoIndex) e.detail += isCpuRange(e.kind) ? op_base : gpu_base;
    pairHalf(half);
  }
  model.stats.merge(batch.stats);
}

void BatchMerger::finish() {
  for (const auto& stack : open_)
    if (!stack.empty()) builder_.stats().add(Stat::event_unmatched_begin_end, stack.size());
}

}  // namespace steplint::trace
