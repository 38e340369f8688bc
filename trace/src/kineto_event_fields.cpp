// Reading one event object's fields into KinetoEventParser::Raw: the value readers (numbers
// as ints, floats or strings; pid/tid labels; µs text to ns) and the fields and args Kineto
// writes (docs/reference/trace-format.md §4–§9; keys in kineto_event_keys.h, the c10d
// collective args in kineto_collective_args.cpp). Nothing here makes a model record:
// kineto_event_commit.cpp does, once the object is read.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "json_repair.h"  // unescapeJsonString
#include "kineto_event_keys.h"
#include "kineto_event_parser.h"
#include "kineto_event_raw.h"

namespace steplint::trace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

namespace {

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

// JSON allows an unpaired surrogate escape ("\ud800"; Python's json.dumps writes one for such a
// str) and simdjson rejects the string: it is decoded here instead, with U+FFFD in the
// surrogate's place (counted as json_invalid_utf8), so a name keeps the rest of its text rather
// than reading as "". The text lives in a per-thread buffer until the next such string; every
// caller interns or reads it at once.
bool readString(od::value& v, std::string_view& out, EventBatch& batch) {
  if (!v.get_string().get(out)) return true;
  thread_local std::string decoded;
  bool replaced = false;
  if (!unescapeJsonString(v.raw_json_token(), decoded, replaced)) return false;
  if (replaced) batch.stats.add(Stat::json_invalid_utf8);
  out = decoded;
  return true;
}

bool isJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A field's key as written, escapes and all (no key we read has one). Found backwards from the
// value: between the key's closing quote and the value there is only whitespace and the colon
// that simdjson checked, so a scan of two or three bytes finds the quote, where scanning the
// key forward for it cost a loop iteration per character (~9 % of the parse's instructions).
std::string_view rawKey(od::field& field) {
  const char* key = field.key().raw();
  const char* q = field.value().raw_json_token().data() - 1;
  if (*q == ' ' && q - 2 >= key && q[-1] == ':' && q[-2] == '"')  // `"key": value`, most traces
    return {key, static_cast<size_t>(q - 2 - key)};
  while (q > key && isJsonSpace(*q)) --q;
  if (q <= key || *q != ':') return {};
  --q;
  while (q > key && isJsonSpace(*q)) --q;
  if (q < key || *q != '"') return {};
  return {key, static_cast<size_t>(q - key)};
}

// A counter series' name: its key, unescaped when it has escapes (rare; simdjson copies it).
std::string_view seriesName(od::field& field, std::string_view raw_key) {
  std::string_view name;
  if (raw_key.find('\\') == std::string_view::npos) return raw_key;
  return field.unescaped_key().get(name) ? std::string_view() : name;
}

}  // namespace

bool readInt(od::value& v, int64_t& out, bool& overflow) {
  // Most ids are plain integers: parse once, before asking the type. A failed get_int64 leaves
  // the value unread (strings, floats, big unsigned ids), and the rest classifies as before.
  if (!v.get_int64().get(out)) return true;
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) {
    // Digits in quotes, read from the raw token: get_string here and again by a caller that
    // then reads the value as a string (readFlowId) unescaped it twice into simdjson's string
    // buffer, which holds each string once: a long string id overflowed it (found by the
    // fuzzer). An escape cannot be part of a plain integer.
    const std::string_view token = v.raw_json_token();
    const size_t close = token.rfind('"');
    if (token.empty() || token[0] != '"' || close == 0 || close == std::string_view::npos)
      return false;
    return parseInteger(token.substr(1, close - 1), out);
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

namespace {

// A pretty-printed trace (json.dump(indent=2) of a Kineto file) spreads "Input Dims" over lines:
// rewritten as Kineto writes it ("[[32, 3], []]": no whitespace outside strings but one space
// after each ',' and ':'), so the same shapes intern to the same text in either file and print
// on one line. Kineto's own text has no line breaks and is kept as it is.
std::string_view kinetoSpacing(std::string_view text, std::string& scratch) {
  // Every indented dump breaks lines (memchr-fast); a tab or space alone is Kineto's layout.
  if (text.find('\n') == std::string_view::npos) return text;
  scratch.clear();
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      scratch.push_back(c);
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    scratch.push_back(c);
    if (c == '"') in_string = true;
    if (c == ',' || c == ':') scratch.push_back(' ');
  }
  return scratch;
}

}  // namespace

bool readRawJson(od::value& v, EventBatch& batch, StringId& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  std::string_view text;
  std::string scratch;
  if (type == od::json_type::array) {
    od::array arr;
    if (v.get_array().get(arr) || arr.raw_json().get(text)) return false;
    text = kinetoSpacing(text, scratch);
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
      if (taken < 3)
        frac = frac * 10 + static_cast<uint64_t>(t[i] - '0');
      else if (taken == 3 && t[i] >= '5')
        ++frac;  // round half up on the first dropped digit
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

namespace {

// pid/tid: ints, floats, numeric strings, "stream 7" (legacy GPU rows) or labels ("Spans").
bool readRow(od::value& v, RowKey& out, bool is_tid, EventBatch& batch) {
  // Nearly every pid and tid is a plain integer: read it before asking the value's type (a
  // failed get_int64 leaves the value unread, as in readInt).
  if (!v.get_int64().get(out.number)) return true;
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
  bool too_big = false;
  if (readInt(v, n, too_big)) {
    out.number = n;
    return true;
  }
  // A pid or tid beyond int64 (a uint64 thread id) is an id, not a quantity: the row is named
  // by the number as written instead of the event being dropped.
  if (!too_big) return false;
  std::string_view token = v.raw_json_token();
  while (!token.empty() && isJsonSpace(token.back())) token.remove_suffix(1);
  if (token.empty()) return false;
  out.label = batch.strings.intern(token);
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
    if (item.error() || i >= 3) break;
    od::value& val = item.value_unsafe();  // in place (kineto_event_parser.h)
    if (readInt(val, n, overflow)) out[i] = static_cast<int32_t>(n);
    ++i;
  }
}

// Flow ids: numbers, or strings that Perfetto reads as hexadecimal.
void readFlowId(od::value& v, KinetoEventParser::Raw& raw, EventBatch& batch) {
  int64_t n;
  bool overflow = false;
  std::string_view s;
  if (readInt(v, n, overflow)) {
    raw.id = static_cast<uint64_t>(n), raw.has_id = true;
  } else if (readString(v, s, batch)) {
    raw.id = std::strtoull(std::string(s).c_str(), nullptr, 16), raw.has_id = true;
  }
}

}  // namespace

error_code KinetoEventParser::parseArgs(od::object& args, Raw& raw, EventBatch& out) {
  for (auto item : args) {
    if (auto err = item.error()) return err;
    od::field& field = item.value_unsafe();  // in place (kineto_event_parser.h)
    const std::string_view key = rawKey(field);
    od::value& v = field.value();
    int64_t n = 0;
    double d = 0;
    std::string_view s;
    bool overflow = false;
    // Every numeric arg of a counter event is a series. When args come before ph (legal,
    // never seen from Kineto) collect them anyway and let commit() decide.
    if (raw.ph == 'C' || raw.ph == 0) {
      od::json_type type;
      if (raw.series && !v.type().get(type) && type == od::json_type::number && readDouble(v, d))
        raw.series->emplace_back(out.strings.intern(seriesName(field, key)), d);
      if (raw.ph == 'C') continue;
    }
    const bool meta = raw.ph == 'M' || raw.ph == 0;
    switch (classifyEventKey(key)) {
      case EventKey::kExternalId:
        if (readInt(v, n, overflow)) raw.external_id = n;
        break;
      case EventKey::kCorrelation:
        if (readInt(v, n, overflow)) raw.correlation = n;
        break;
      case EventKey::kDevice:
        if (readInt(v, n, overflow)) raw.gpu.device = static_cast<int32_t>(n);
        break;
      case EventKey::kStream:
        if (readInt(v, n, overflow)) raw.gpu.stream = static_cast<int32_t>(n);
        break;
      case EventKey::kBytes:
        if (readInt(v, n, overflow)) raw.gpu.bytes = n;
        break;
      case EventKey::kBlocksPerSm:
        if (readDouble(v, d)) raw.gpu.blocks_per_sm = static_cast<float>(d);
        break;
      case EventKey::kWarpsPerSm:
        if (readDouble(v, d)) raw.gpu.warps_per_sm = static_cast<float>(d);
        break;
      case EventKey::kOccupancy:
        if (readDouble(v, d)) raw.gpu.occupancy_pct = static_cast<float>(d);
        break;
      case EventKey::kGrid:
        readTriple(v, raw.gpu.grid);
        break;
      case EventKey::kBlock:
        readTriple(v, raw.gpu.block);
        break;
      case EventKey::kRegisters:
        if (readInt(v, n, overflow)) raw.gpu.registers_per_thread = static_cast<int32_t>(n);
        break;
      case EventKey::kSharedMemory:
        if (readInt(v, n, overflow)) raw.gpu.shared_memory = static_cast<int32_t>(n);
        break;
      case EventKey::kSequenceNumber:
        if (readInt(v, n, overflow)) raw.op.sequence_number = n, raw.has_op = true;
        break;
      case EventKey::kFwdThreadId:
        if (readInt(v, n, overflow)) raw.op.fwd_thread_id = n, raw.has_op = true;
        break;
      case EventKey::kInputDims:
        if (!readRawJson(v, out, raw.op.input_dims)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case EventKey::kInputType:
        if (!readRawJson(v, out, raw.op.input_types)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case EventKey::kConcreteInputs:
        if (!readRawJson(v, out, raw.op.concrete_inputs)) return simdjson::TAPE_ERROR;
        raw.has_op = true;
        break;
      case EventKey::kCallStack:
        if (readString(v, s, out)) raw.op.call_stack = out.strings.intern(s), raw.has_op = true;
        break;
      case EventKey::kTotalAllocated:
        if (readInt(v, n, overflow)) raw.total_allocated = n;
        break;
      case EventKey::kTotalReserved:
        if (readInt(v, n, overflow)) raw.total_reserved = n;
        break;
      case EventKey::kMemoryBytes:
        if (readInt(v, n, overflow)) raw.mem_bytes = n;
        break;
      case EventKey::kAddr:
        if (readInt(v, n, overflow)) raw.addr = n;
        break;
      case EventKey::kDeviceId:
        if (readInt(v, n, overflow)) raw.device_id = n;
        break;
      case EventKey::kDeviceType:
        if (readInt(v, n, overflow)) raw.device_type = n;
        break;
      case EventKey::kName:
        if (meta && readString(v, s, out)) raw.meta_text = out.strings.intern(s);
        break;
      case EventKey::kSortIndex:
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

error_code KinetoEventParser::parseObject(od::object& obj, Raw& raw, EventBatch& out) {
  for (auto item : obj) {
    if (auto err = item.error()) return err;
    od::field& field = item.value_unsafe();  // in place (kineto_event_parser.h)
    const std::string_view key = rawKey(field);
    od::value& v = field.value();
    std::string_view s;
    switch (classifyEventKey(key)) {
      case EventKey::kPh:
        if (readString(v, s, out) && !s.empty()) raw.ph = s[0];
        break;
      case EventKey::kName:
        if (readString(v, s, out)) raw.name = out.strings.intern(s);
        break;
      case EventKey::kCat:
        if (readString(v, s, out)) raw.cat = out.strings.intern(s), raw.has_cat = true;
        break;
      case EventKey::kPid:
        if (!readRow(v, raw.pid, false, out)) raw.bad_number = true;
        break;
      case EventKey::kTid:
        if (!readRow(v, raw.tid, true, out)) raw.bad_number = true;
        break;
      case EventKey::kTs:
        raw.has_ts = readTime(v, raw.ts, raw.overflow);
        raw.bad_number |= !raw.has_ts;
        break;
      case EventKey::kDur:
        raw.has_dur = readTime(v, raw.dur, raw.overflow);
        raw.bad_number |= !raw.has_dur;
        break;
      case EventKey::kId:
        readFlowId(v, raw, out);
        break;
      case EventKey::kScope:
        if (readString(v, s, out) && !s.empty()) raw.scope = s[0];
        break;
      case EventKey::kBindPoint:
        if (readString(v, s, out)) raw.binds_enclosing = s == "e";
        break;
      case EventKey::kArgs: {
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

}  // namespace steplint::trace
