// Streaming Kineto JSON writer: text is built in one std::string and pushed to the file (plain
// or gzip) in large blocks; the file is "<path>.partial" until endTrace renames it, so a crash
// leaves a truncated trace that the importer repairs (json_truncated) and never a half-written
// file under the final name.
#include "steplint/trace/kineto_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "partial_file.h"
#include "steplint/trace/utf8.h"

namespace steplint::trace {
namespace {

constexpr size_t kWriteThreshold = size_t{1} << 20;  // bytes buffered before a write

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// std::to_chars, not snprintf: the writer thread formats a few numbers per event while the
// trainer runs, and printf's format parsing was most of its non-compression time.
void appendInt(std::string& out, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, r.ptr);
}

void appendUint(std::string& out, uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, r.ptr);
}

// "{us}.{3-digit ns}" (docs/reference/trace-format.md §3 style C); negative values become 0.
void appendMicros(std::string& out, int64_t ns) {
  if (ns < 0) ns = 0;
  appendInt(out, ns / 1000);
  const int frac = static_cast<int>(ns % 1000);
  const char digits[4] = {'.', static_cast<char>('0' + frac / 100),
                          static_cast<char>('0' + frac / 10 % 10),
                          static_cast<char>('0' + frac % 10)};
  out.append(digits, sizeof(digits));
}

void appendDouble(std::string& out, double v) {
  if (!std::isfinite(v)) {  // JSON has no NaN/Inf; 0 keeps the event importable
    out += '0';
    return;
  }
  char buf[40];
  int n = std::snprintf(buf, sizeof(buf), "%.15g", v);
  if (std::strtod(buf, nullptr) != v) n = std::snprintf(buf, sizeof(buf), "%.17g", v);
  std::string_view text(buf, static_cast<size_t>(n));
  out.append(text);
  // Keep it a JSON float ("4.0", not "4") so readers see the same type Kineto writes.
  if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

}  // namespace

void appendJsonString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t len = validUtf8Length(s.substr(i));
      if (len == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD for each invalid byte
        ++i;
      } else {
        out.append(s.data() + i, len);
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

struct KinetoJsonWriter::Impl {
  std::string path;
  std::string buf;
  PartialFile file;
  bool began = false;
  bool ended = false;
  bool first_event = true;
  int64_t clock_origin_ns = 0;
  uint64_t events = 0;
  uint64_t bytes = 0;

  bool isOpen() const { return file.isOpen(); }

  void writeOut() {
    if (buf.empty()) return;
    bytes += buf.size();
    file.write(buf);
    buf.clear();
  }

  void maybeWriteOut() {
    if (buf.size() >= kWriteThreshold) writeOut();
  }

  void key(std::string_view k) {
    appendJsonString(buf, k);
    buf += ": ";
  }
};

KinetoJsonWriter::KinetoJsonWriter() : impl_(std::make_unique<Impl>()) {}

KinetoJsonWriter::~KinetoJsonWriter() {
  if (impl_->isOpen()) impl_->writeOut();  // PartialFile closes and keeps the .partial
}

bool KinetoJsonWriter::open(const std::string& path, std::string* error) {
  if (!impl_->file.open(path, endsWith(path, ".gz"), error)) return false;
  impl_->path = path;
  return true;
}

bool KinetoJsonWriter::openFailedInUse() const { return impl_->file.inUse(); }

void KinetoJsonWriter::beginTrace(const TraceHeader& header) {
  Impl& d = *impl_;
  if (d.began) return;
  d.began = true;
  d.clock_origin_ns = header.clock_origin_ns;
  std::string& b = d.buf;
  b += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [";
  for (size_t i = 0; i < header.devices.size(); ++i) {
    const WriterDeviceProperties& p = header.devices[i];
    b += i == 0 ? "\n    {" : ",\n    {";
    b += "\"id\": ";
    appendInt(b, p.id);
    b += ", \"name\": ";
    appendJsonString(b, p.name);
    b += ", \"totalGlobalMem\": ";
    appendInt(b, p.total_global_mem);
    b += ", \"computeMajor\": ";
    appendInt(b, p.compute_major);
    b += ", \"computeMinor\": ";
    appendInt(b, p.compute_minor);
    b += ", \"maxThreadsPerBlock\": ";
    appendInt(b, p.max_threads_per_block);
    b += ", \"maxThreadsPerMultiprocessor\": ";
    appendInt(b, p.max_threads_per_multiprocessor);
    b += ", \"regsPerBlock\": ";
    appendInt(b, p.regs_per_block);
    b += ", \"warpSize\": ";
    appendInt(b, p.warp_size);
    b += ", \"sharedMemPerBlock\": ";
    appendInt(b, p.shared_mem_per_block);
    b += ", \"numSms\": ";
    appendInt(b, p.num_sms);
    b += ", \"regsPerMultiprocessor\": ";
    appendInt(b, p.regs_per_multiprocessor);
    b += ", \"sharedMemPerBlockOptin\": ";
    appendInt(b, p.shared_mem_per_block_optin);
    b += ", \"sharedMemPerMultiprocessor\": ";
    appendInt(b, p.shared_mem_per_multiprocessor);
    b += "}";
  }
  b += header.devices.empty() ? "],\n" : "\n  ],\n";
  // HTA finds the rank with the regex "rank":\s+(\d+): the space after the colon is required.
  b += "  \"distributedInfo\": {";
  if (!header.backend.empty()) {
    b += "\"backend\": ";
    appendJsonString(b, header.backend);
    b += ", ";
  }
  b += "\"rank\": ";
  appendInt(b, header.rank);
  b += ", \"world_size\": ";
  appendInt(b, header.world_size);
  b += "},\n";
  for (const auto& [k, v] : header.metadata) {
    b += "  ";
    d.key(k);
    b += v.empty() ? std::string_view("null") : std::string_view(v);
    b += ",\n";
  }
  b += "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ";
  appendInt(b, header.base_time_ns);
  b += ",\n  \"traceEvents\": [";
}

EventBuilder KinetoJsonWriter::event(char ph) {
  Impl& d = *impl_;
  if (!d.began) beginTrace(TraceHeader{});  // keeps the file valid if a caller skipped it
  d.buf += d.first_event ? "\n  {\"ph\": \"" : ",\n  {\"ph\": \"";
  d.first_event = false;
  d.buf += ph;
  d.buf += '"';
  return EventBuilder(this);
}

void KinetoJsonWriter::flush() {
  Impl& d = *impl_;
  d.writeOut();
  d.file.syncFlush();
}

const std::string& KinetoJsonWriter::writeError() const { return impl_->file.writeError(); }

bool KinetoJsonWriter::endTrace(const TraceTrailer& trailer, std::string* error) {
  Impl& d = *impl_;
  if (!d.isOpen() || d.ended) {
    if (error != nullptr) *error = "writer not open";
    return false;
  }
  if (!d.began) beginTrace(TraceHeader{});
  d.ended = true;
  std::string& b = d.buf;
  b += d.first_event ? "],\n" : "\n  ],\n";
  for (const auto& [k, v] : trailer.metadata) {
    b += "  ";
    d.key(k);
    b += v.empty() ? std::string_view("null") : std::string_view(v);
    b += ",\n";
  }
  b += "  \"traceName\": ";
  appendJsonString(b, trailer.trace_name.empty() ? d.path : trailer.trace_name);
  b += "\n}\n";
  d.writeOut();
  return d.file.finish(error);
}

uint64_t KinetoJsonWriter::eventsWritten() const { return impl_->events; }
uint64_t KinetoJsonWriter::bytesWritten() const { return impl_->bytes + impl_->buf.size(); }

// ---- EventBuilder: appends `, "key": value` pairs to the writer's buffer in call order.
// Typed setters go through field(key, {}) (which writes a "null" placeholder) and replace the
// placeholder with their value, so every path shares field()'s args-closing logic.

std::string& EventBuilder::fieldKey(std::string_view key) {
  std::string& b = w_->impl_->buf;
  if (in_args_) {  // a field after args: close the args object first
    b += '}';
    in_args_ = false;
  }
  b += ", ";
  appendJsonString(b, key);
  b += ": ";
  return b;
}

std::string& EventBuilder::argsSeparator() {
  std::string& b = w_->impl_->buf;
  b += in_args_ ? ", " : ", \"args\": {";
  in_args_ = true;
  return b;
}

std::string& EventBuilder::argKey(std::string_view key) {
  std::string& b = argsSeparator();
  appendJsonString(b, key);
  b += ": ";
  return b;
}

EventBuilder& EventBuilder::cat(std::string_view c) {
  appendJsonString(fieldKey("cat"), c);
  return *this;
}

EventBuilder& EventBuilder::name(std::string_view n) {
  appendJsonString(fieldKey("name"), n);
  return *this;
}

EventBuilder& EventBuilder::pid(int64_t p) {
  appendInt(fieldKey("pid"), p);
  return *this;
}

EventBuilder& EventBuilder::pidString(std::string_view p) {
  appendJsonString(fieldKey("pid"), p);
  return *this;
}

EventBuilder& EventBuilder::tid(int64_t t) {
  appendInt(fieldKey("tid"), t);
  return *this;
}

EventBuilder& EventBuilder::ts(int64_t clock_ns) {
  appendMicros(fieldKey("ts"), clock_ns - w_->impl_->clock_origin_ns);
  return *this;
}

EventBuilder& EventBuilder::dur(int64_t ns) {
  appendMicros(fieldKey("dur"), ns);
  return *this;
}

EventBuilder& EventBuilder::id(uint64_t flow_id) {
  appendUint(fieldKey("id"), flow_id);
  return *this;
}

/// Writes `, "key": raw_json` ("null" for empty raw_json).
EventBuilder& EventBuilder::field(std::string_view key, std::string_view raw_json) {
  fieldKey(key) += raw_json.empty() ? std::string_view("null") : raw_json;
  return *this;
}

EventBuilder& EventBuilder::rawArg(std::string_view key, std::string_view raw_json) {
  argKey(key) += raw_json.empty() ? std::string_view("null") : raw_json;
  return *this;
}

EventBuilder& EventBuilder::rawArgs(std::string_view object_body) {
  if (!object_body.empty()) argsSeparator() += object_body;
  return *this;
}

EventBuilder& EventBuilder::arg(std::string_view key, int64_t v) {
  appendInt(argKey(key), v);
  return *this;
}

EventBuilder& EventBuilder::arg(std::string_view key, double v) {
  appendDouble(argKey(key), v);
  return *this;
}

EventBuilder& EventBuilder::arg(std::string_view key, std::string_view string_value) {
  appendJsonString(argKey(key), string_value);
  return *this;
}

void EventBuilder::done() {
  KinetoJsonWriter::Impl& d = *w_->impl_;
  if (in_args_) d.buf += '}';
  in_args_ = false;
  d.buf += '}';
  if (!d.isOpen() || d.ended) {
    d.buf.clear();  // nothing to write to: keep memory flat
    return;
  }
  ++d.events;
  d.maybeWriteOut();
}

}  // namespace steplint::trace
