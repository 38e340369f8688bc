#include "kineto_event_parser.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "json_repair.h"

namespace steplint::trace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

namespace {

constexpr int64_t kMaxDurationNs = int64_t{604'800'000'000} * 1000;  // 7 days, as HTA
constexpr int64_t kMaxMicros = INT64_MAX / 1000;

bool parseInteger(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  bool neg = s[0] == '-';
  size_t i = neg ? 1 : 0;
  if (i == s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (v > (uint64_t{INT64_MAX} - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool readDouble(od::value& v, double& out) {
  double d;
  if (v.get_double().get(d) || !std::isfinite(d)) return false;
  out = d;
  return true;
}

bool readString(od::value& v, std::string_view& out) { return !v.get_string().get(out); }

// A field's key as written (Kineto's keys never contain escapes; a key that does is simply
// not one we know). Keys are short, so a plain loop beats memchr's call overhead.
std::string_view rawKey(od::field& field) {
  const char* k = field.key().raw();
  size_t n = 0;
  while (n < 64 && k[n] != '"') {
    if (k[n] == '\\') return {};
    ++n;
  }
  return n < 64 ? std::string_view(k, n) : std::string_view();
}

enum class Key : uint8_t {
  kUnknown, kPh, kName, kCat, kPid, kTid, kTs, kDur, kId, kScope, kBindPoint, kArgs,
  kExternalId, kCorrelation, kDevice, kStream, kBytes, kBlocksPerSm, kWarpsPerSm, kOccupancy, kGrid, kBlock,
  kRegisters, kSharedMemory, kSequenceNumber, kFwdThreadId, kInputDims, kInputType, kConcreteInputs, kCallStack,
  kTotalAllocated, kTotalReserved, kMemoryBytes, kAddr, kDeviceId, kDeviceType, kSortIndex,
};

// Keys of the event object and of its args (docs/reference/trace-format.md §4, §7, §9), dispatched on
// length first: this runs for every field of every event, so a chain of ~30 string compares
// would show up in profiles.
Key classifyKey(std::string_view k) {
  switch (k.size()) {
    case 1: return k == "s" ? Key::kScope : Key::kUnknown;
    case 2: return k == "ph" ? Key::kPh : k == "ts" ? Key::kTs : k == "id" ? Key::kId : k == "bp" ? Key::kBindPoint : Key::kUnknown;
    case 3: return k == "cat" ? Key::kCat : k == "pid" ? Key::kPid : k == "tid" ? Key::kTid : k == "dur" ? Key::kDur : Key::kUnknown;
    case 4: return k == "name" ? Key::kName : k == "args" ? Key::kArgs : k == "grid" ? Key::kGrid : k == "Addr" ? Key::kAddr : Key::kUnknown;
    case 5: return k == "bytes" ? Key::kBytes : k == "block" ? Key::kBlock : k == "Bytes" ? Key::kMemoryBytes : Key::kUnknown;
    case 6: return k == "device" ? Key::kDevice : k == "stream" ? Key::kStream : Key::kUnknown;
    case 9: return k == "Device Id" ? Key::kDeviceId : Key::kUnknown;
    case 10:
      if (k == "Input Dims" || k == "Input dims") return Key::kInputDims;
      return k == "Input type" ? Key::kInputType : k == "Call stack" ? Key::kCallStack
             : k == "sort_index" ? Key::kSortIndex : Key::kUnknown;
    case 11:
      if (k == "External id" || k == "external id") return Key::kExternalId;
      return k == "correlation" ? Key::kCorrelation : k == "Device Type" ? Key::kDeviceType : Key::kUnknown;
    case 12: return k == "warps per SM" ? Key::kWarpsPerSm : Key::kUnknown;
    case 13:
      return k == "blocks per SM" ? Key::kBlocksPerSm : k == "shared memory" ? Key::kSharedMemory
             : k == "Fwd thread id" ? Key::kFwdThreadId : Key::kUnknown;
    case 14: return k == "Total Reserved" ? Key::kTotalReserved : Key::kUnknown;
    case 15:
      return k == "Sequence number" ? Key::kSequenceNumber : k == "Total Allocated" ? Key::kTotalAllocated
             : k == "Concrete Inputs" ? Key::kConcreteInputs : Key::kUnknown;
    case 20: return k == "registers per thread" ? Key::kRegisters : Key::kUnknown;
    case 25: return k == "est. achieved occupancy %" ? Key::kOccupancy : Key::kUnknown;
    default: return Key::kUnknown;
  }
}

}  // namespace

bool readInt(od::value& v, int64_t& out, bool& overflow) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) {
    std::string_view s;
    return !v.get_string().get(s) && parseInteger(s, out);
  }
  if (type != od::json_type::number) return false;
  od::number_type nt;
  if (v.get_number_type().get(nt)) {
    overflow = true;
    return false;
  }
  if (nt == od::number_type::signed_integer) return !v.get_int64().get(out);
  if (nt == od::number_type::unsigned_integer) {
    overflow = true;  // above INT64_MAX (e.g. "Comms Id")
    return false;
  }
  double d;
  if (v.get_double().get(d) || !std::isfinite(d) || std::fabs(d) > 9.2e18) {
    overflow = true;
    return false;
  }
  out = std::llround(d);
  return true;
}

bool readRawJson(od::value& v, EventBatch& batch, StringId& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  std::string_view text;
  if (type == od::json_type::array) {
    od::array arr;
    if (v.get_array().get(arr) || arr.raw_json().get(text)) return false;
  } else if (type == od::json_type::string) {
    if (v.get_string().get(text)) return false;
  } else {
    text = v.raw_json_token();
  }
  out = batch.strings.intern(text);
  return true;
}

bool parseMicrosToNanos(std::string_view t, int64_t& ns, bool& overflow) {
  size_t i = 0;
  while (i < t.size() && (t[i] == ' ' || t[i] == '"')) ++i;
  const bool neg = i < t.size() && t[i] == '-';
  if (neg) ++i;
  uint64_t whole = 0;
  size_t digits = 0;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits) {
    whole = whole * 10 + static_cast<uint64_t>(t[i] - '0');
    if (whole > static_cast<uint64_t>(kMaxMicros)) {
      overflow = true;
      return false;
    }
  }
  uint64_t frac = 0;
  if (i < t.size() && t[i] == '.') {
    ++i;
    int taken = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits) {
      if (taken < 3) frac = frac * 10 + static_cast<uint64_t>(t[i] - '0');
      else if (taken == 3 && t[i] >= '5') ++frac;  // round half up on the first dropped digit
      ++taken;
    }
    for (; taken < 3; ++taken) frac *= 10;
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    // Exponent notation (Python writers): rare, so the double route is fine here.
    char buf[64];
    const size_t n = std::min(t.size(), sizeof(buf) - 1);
    std::memcpy(buf, t.data(), n);
    buf[n] = 0;
    const char* start = buf;
    while (*start == ' ' || *start == '"') ++start;
    const double us = std::strtod(start, nullptr);
    if (!std::isfinite(us) || std::fabs(us) > static_cast<double>(kMaxMicros)) {
      overflow = true;
      return false;
    }
    ns = std::llround(us * 1000.0);
    return true;
  }
  const auto value = static_cast<int64_t>(whole * 1000 + frac);
  ns = neg ? -value : value;
  return true;
}

struct KinetoEventParser::Raw {
  char ph = 0;
  StringId name = 0, cat = 0;
  bool has_cat = false;
  RowKey pid, tid;
  int64_t ts = 0, dur = 0;
  bool has_ts = false, has_dur = false, bad_number = false, overflow = false;
  uint64_t id = 0;
  bool has_id = false, binds_enclosing = false;
  char scope = 't';
  int64_t external_id = kNoId, correlation = kNoId;
  GpuDetail gpu;
  OpDetail op;
  bool has_op = false;
  CollectiveDetail collective;  // kept when it has a name ("Collective name")
  int64_t mem_bytes = 0, total_allocated = -1, total_reserved = -1, addr = 0;
  int64_t device_type = 0, device_id = -1;
  StringId meta_text = 0;
  int64_t sort_index = 0;
  bool has_sort_index = false;
  std::vector<std::pair<StringId, double>>* series = nullptr;
};

namespace {

// pid/tid: ints, floats, numeric strings, "stream 7" (legacy GPU rows) or labels ("Spans").
bool readRow(od::value& v, RowKey& out, bool is_tid, EventBatch& batch, bool& overflow) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) {
    std::string_view s;
    if (v.get_string().get(s)) return false;
    if (is_tid && s.substr(0, 7) == "stream " && parseInteger(s.substr(7), out.number)) return true;
    if (parseInteger(s, out.number)) return true;
    out.label = s.empty() ? batch.strings.intern(" ") : batch.strings.intern(s);
    return true;
  }
  int64_t n = 0;
  if (!readInt(v, n, overflow)) return false;
  out.number = n;
  return true;
}

bool readTime(od::value& v, int64_t& ns, bool& overflow) {
  std::string_view token;
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) {
    if (v.get_string().get(token)) return false;
  } else if (type == od::json_type::number) {
    token = v.raw_json_token();
  } else {
    return false;
  }
  return parseMicrosToNanos(token, ns, overflow);
}

void readTriple(od::value& v, int32_t (&out)[3]) {
  od::array arr;
  if (v.get_array().get(arr)) return;
  int i = 0;
  for (auto item : arr) {
    int64_t n;
    bool overflow = false;
    od::value val;
    if (std::move(item).get(val) || i >= 3) break;
    if (readInt(val, n, overflow)) out[i] = static_cast<int32_t>(n);
    ++i;
  }
}

// Flow ids: numbers, or strings that Perfetto reads as hexadecimal.
void readFlowId(od::value& v, KinetoEventParser::Raw& raw) {
  int64_t n;
  bool overflow = false;
  std::string_view s;
  if (readInt(v, n, overflow)) {
    raw.id = static_cast<uint64_t>(n), raw.has_id = true;
  } else if (readString(v, s)) {
    raw.id = std::strtoull(std::string(s).c_str(), nullptr, 16), raw.has_id = true;
  }
}

}  // namespace

error_code KinetoEventParser::parseArgs(od::object args, Raw& raw, EventBatch& out) {
  for (auto item : args) {
    od::field field;
    if (auto err = std::move(item).get(field)) return err;
    const std::string_view key = rawKey(field);
    od::value v = field.value();
    int64_t n = 0;
    double d = 0;
    std::string_view s;
    bool overflow = false;
    // Every numeric arg of a counter event is a series. When args come before ph (legal,
    // never seen from Kineto) collect them anyway and let commit() decide.
    if (raw.ph == 'C' || raw.ph == 0) {
      od::json_type type;
      if (raw.series && !v.type().get(type) && type == od::json_type::number && readDouble(v, d))
        raw.series->emplace_back(out.strings.intern(key), d);
      if (raw.ph == 'C') continue;
    }
    const bool meta = raw.ph == 'M' || raw.ph == 0;
    switch (classifyKey(key)) {
      case Key::kExternalId:
        if (readInt(v, n, overflow)) raw.external_id = n;
        break;
      case Key::kCorrelation:
        if (readInt(v, n, overflow)) raw.correlation = n;
        break;
      case Key::kDevice:
        if (readInt(v, n, overflow)) raw.gpu.device = static_cast<int32_t>(n);
        break;
      case Key::kStream:
        if (readInt(v, n, overflow)) raw.gpu.stream = static_cast<int32_t>(n);
        break;
      case Key::kBytes:
        if (readInt(v, n, overflow)) raw.gpu.bytes = n;
        break;
      case Key::kBlocksPerSm:
        if (readDouble(v, d)) raw.gpu.blocks_per_sm = static_cast<float>(d);
        break;
      case Key::kWarpsPerSm:
        if (readDouble(v, d)) raw.gpu.warps_per_sm = static_cast<float>(d);
        break;
      case Key::kOccupancy:
        if (readDouble(v, d)) raw.gpu.occupancy_pct = static_cast<float>(d);
        break;
      case Key::kGrid:
        readTriple(v, raw.gpu.grid);
        break;
      case Key::kBlock:
        readTriple(v, raw.gpu.block);
        break;
      case Key::kRegisters:
        if (readInt(v, n, overflow)) raw.gpu.registers_per_thread = static_cast<int32_t>(n);
        break;
      case Key::kSharedMemory:
        if (readInt(v, n, overflow)) raw.gpu.shared_memory = static_cast<int32_t>(n);
        break;
      case Key::kSequenceNumber:
        if (readInt(v, n, overflow)) raw.op.sequence_number = n, raw.has_op = true;
        break;
      case Key::kFwdThreadId:
        if (readInt(v, n, overflow)) raw.op.fwd_thread_id = n, raw.has_op = true;
        break;
      case Key::kInputDims:
        if (!readRawJson(v, out, raw.op.input_dims)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case Key::kInputType:
        if (!readRawJson(v, out, raw.op.input_types)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case Key::kConcreteInputs:
        if (!readRawJson(v, out, raw.op.concrete_inputs)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case Key::kCallStack:
        if (readString(v, s)) raw.op.call_stack = out.strings.intern(s), raw.has_op = true;
        break;
      case Key::kTotalAllocated:
        if (readInt(v, n, overflow)) raw.total_allocated = n;
        break;
      case Key::kTotalReserved:
        if (readInt(v, n, overflow)) raw.total_reserved = n;
        break;
      case Key::kMemoryBytes:
        if (readInt(v, n, overflow)) raw.mem_bytes = n;
        break;
      case Key::kAddr:
        if (readInt(v, n, overflow)) raw.addr = n;
        break;
      case Key::kDeviceId:
        if (readInt(v, n, overflow)) raw.device_id = n;
        break;
      case Key::kDeviceType:
        if (readInt(v, n, overflow)) raw.device_type = n;
        break;
      case Key::kName:
        if (meta && readString(v, s)) raw.meta_text = out.strings.intern(s);
        break;
      case Key::kSortIndex:
        if (meta && readInt(v, n, overflow)) raw.sort_index = n, raw.has_sort_index = true;
        break;
      default:
        if (const CollectiveKey ck = classifyCollectiveKey(key); ck != CollectiveKey::kNone) {
          if (!readCollectiveArg(ck, v, raw.collective, out, overflow)) return simdjson::TAPE_ERROR;
        }
        break;
    }
    if (overflow) out.stats.add(Stat::event_integer_overflow);
  }
  return simdjson::SUCCESS;
}

error_code KinetoEventParser::parseObject(od::object obj, Raw& raw, EventBatch& out) {
  for (auto item : obj) {
    od::field field;
    if (auto err = std::move(item).get(field)) return err;
    const std::string_view key = rawKey(field);
    od::value v = field.value();
    std::string_view s;
    switch (classifyKey(key)) {
      case Key::kPh:
        if (readString(v, s) && !s.empty()) raw.ph = s[0];
        break;
      case Key::kName:
        if (readString(v, s)) raw.name = out.strings.intern(s);
        break;
      case Key::kCat:
        if (readString(v, s)) raw.cat = out.strings.intern(s), raw.has_cat = true;
        break;
      case Key::kPid:
        if (!readRow(v, raw.pid, false, out, raw.overflow)) raw.bad_number = true;
        break;
      case Key::kTid:
        if (!readRow(v, raw.tid, true, out, raw.overflow)) raw.bad_number = true;
        break;
      case Key::kTs:
        raw.has_ts = readTime(v, raw.ts, raw.overflow);
        raw.bad_number |= !raw.has_ts;
        break;
      case Key::kDur:
        raw.has_dur = readTime(v, raw.dur, raw.overflow);
        raw.bad_number |= !raw.has_dur;
        break;
      case Key::kId:
        readFlowId(v, raw);
        break;
      case Key::kScope:
        if (readString(v, s) && !s.empty()) raw.scope = s[0];
        break;
      case Key::kBindPoint:
        if (readString(v, s)) raw.binds_enclosing = s == "e";
        break;
      case Key::kArgs: {
        od::object args;
        if (v.get_object().get(args)) break;  // args that are not an object: ignore
        if (auto err = parseArgs(args, raw, out)) return err;
        break;
      }
      default:
        break;
    }
  }
  return simdjson::SUCCESS;
}

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
  // A range without a category is a CPU range (the legacy autograd profiler's array form).
  e.kind = raw.has_cat ? kindOf(raw.cat, raw.name, out) : EventKind::kCpuOp;
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
  if (isCpuRange(e.kind)) {
    if (raw.has_op || raw.collective.name != 0) {
      e.detail = static_cast<uint32_t>(out.ops.size());
      out.ops.push_back(raw.op);
    }
  } else if (isDeviceOp(e.kind) || e.kind == EventKind::kGpuUserAnnotation || e.kind == EventKind::kCudaSync ||
             e.kind == EventKind::kCudaEvent) {
    GpuDetail& d = raw.gpu;
    if (d.device < 0 && raw.pid.label == 0) d.device = static_cast<int32_t>(raw.pid.number);
    if (d.stream < 0 && raw.tid.label == 0 && e.kind != EventKind::kCudaSync)
      d.stream = static_cast<int32_t>(raw.tid.number);
    if (e.kind == EventKind::kMemcpy || e.kind == EventKind::kMemset) parseCopyName(out.strings.view(raw.name), d);
    e.detail = static_cast<uint32_t>(out.gpu.size());
    out.gpu.push_back(d);
  }
  // Only a named collective: "dtype" or "Seq" alone may mean something else on another op.
  if (raw.collective.name != 0 && e.detail != kNoIndex && (isCpuRange(e.kind) || e.kind == EventKind::kKernel)) {
    raw.collective.owner = e.detail;
    raw.collective.on_device = !isCpuRange(e.kind);
    out.collectives.push_back(raw.collective);
  }
  out.events.push_back(e);
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
  if (name == "process_name") m.kind = Kind::kProcessName;
  else if (name == "thread_name") m.kind = Kind::kThreadName;
  else if (name == "process_sort_index" && raw.has_sort_index) m.kind = Kind::kProcessSortIndex;
  else if (name == "thread_sort_index" && raw.has_sort_index) m.kind = Kind::kThreadSortIndex;
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
      out.halves.push_back({raw.ph, baseEvent(raw, out)});
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

bool KinetoEventParser::parseText(std::string_view text, EventBatch& out) {
  // Copy with padding: simdjson needs SIMDJSON_PADDING readable bytes past the end.
  scratch_.assign(text);
  scratch_.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser_.iterate(scratch_.data(), text.size(), scratch_.size()).get(doc)) return false;
  od::object obj;
  if (doc.get_object().get(obj)) {
    od::json_type type;
    if (!doc.type().get(type) && type != od::json_type::object) {
      out.stats.add(Stat::event_not_object);
      return true;
    }
    return false;
  }
  std::vector<std::pair<StringId, double>> series;
  Raw raw;
  raw.series = &series;
  if (parseObject(obj, raw, out)) return false;
  commit(raw, out);
  return true;
}

void KinetoEventParser::parseOne(std::string_view text, EventBatch& out) {
  // Strict first; the repair's counters only count when the repaired text then parses.
  if (parseText(text, out)) return;
  ImportStats repair_stats;
  if (repairJson(text, repaired_, repair_stats) && parseText(repaired_, out)) {
    out.stats.merge(repair_stats);
    return;
  }
  out.stats.add(Stat::json_event_unparseable);
}

bool KinetoEventParser::parseFast(const char* base, const std::vector<ArraySplitter::Element>& elements, size_t first,
                                  size_t last, EventBatch& out, size_t& parsed) {
  const size_t begin = elements[first].begin, end = elements[last - 1].end;
  scratch_.clear();
  scratch_.reserve(end - begin + 2 + simdjson::SIMDJSON_PADDING);
  scratch_.push_back('[');
  scratch_.append(base + begin, end - begin);
  scratch_.push_back(']');
  const size_t len = scratch_.size();
  scratch_.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser_.iterate(scratch_.data(), len, scratch_.size()).get(doc)) return false;
  od::array arr;
  if (doc.get_array().get(arr)) return false;
  std::vector<std::pair<StringId, double>> series;
  for (auto item : arr) {
    od::object obj;
    if (parsed == last - first || item.get_object().get(obj)) return false;
    Raw raw;
    series.clear();
    raw.series = &series;
    if (parseObject(obj, raw, out)) return false;
    commit(raw, out);
    ++parsed;
  }
  return parsed == last - first;
}

void KinetoEventParser::parseBatch(const char* base, const std::vector<ArraySplitter::Element>& elements, size_t first,
                                   size_t last, EventBatch& out) {
  kind_cache_.clear();  // category ids are local to each batch
  if (first >= last) return;
  // A failed fast attempt may have committed events of elements before the failure (those
  // are complete and kept); the rest go one by one.
  size_t parsed = 0;
  if (parseFast(base, elements, first, last, out, parsed)) return;
  for (size_t i = first + parsed; i < last; ++i) {
    const auto& el = elements[i];
    parseOne(std::string_view(base + el.begin, el.end - el.begin), out);
  }
}

}  // namespace steplint::trace
