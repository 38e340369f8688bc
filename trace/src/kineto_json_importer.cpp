#include "kineto_json_importer.h"

#include <algorithm>
#include <cstring>

#include <simdjson.h>

#include "batch_merger.h"
#include "json_splitter.h"
#include "memory_advice.h"
#include "parse_pipeline.h"
#include "steplint/trace/builder.h"
#include "top_level.h"

namespace steplint::trace {
namespace {

constexpr size_t kChunkSize = size_t{8} << 20;  // input read per refill
constexpr size_t kBatchBytes = size_t{512}
                               << 10;  // text per parse job: small enough to spread over threads
constexpr size_t kPadding = 64;
// A view of a mapped file stands in for a chunk, so the mapping promises as much padding.
static_assert(MappedInput::kPadding >= kPadding);
constexpr size_t kMaxKeyBytes = 4096;
constexpr size_t kKeysNamed = 5;  // keys a "not a trace" message names

bool isSpace(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The legacy autograd profiler's export (docs/reference/trace-format.md, the array form): ranges
// on pid "CPU functions" (Python's export_chrome_trace; "CPU Functions" from C++ RecordProfile),
// and with use_cuda "CUDA functions", none with a `cat`.
bool isLegacyProfilerExport(const TraceModel& model) {
  if (model.metadata.format != "chrome-json-array") return false;
  const int64_t python = model.strings.find("CPU functions"),
                cpp = model.strings.find("CPU Functions");
  const bool on_cpu_row =
      std::any_of(model.tracks.begin(), model.tracks.end(), [&](const Track& t) {
        const auto label = static_cast<int64_t>(t.pid_label);
        return t.pid_label != 0 && t.event_count > 0 && (label == python || label == cpp);
      });
  return on_cpu_row && std::all_of(model.events.begin(), model.events.end(),
                                   [&](const Event& e) { return model.str(e.category).empty(); });
}

// Chunked input with a byte cursor for the top level and whole chunks for the events.
class Reader {
 public:
  Reader(ByteSource& source, std::string head) : source_(source) {
    chunk_ = makeChunk(head.size() + nextReadSize());
    std::memcpy(chunk_->owned.get(), head.data(), head.size());
    chunk_->size = head.size();
    bytes_read_ = head.size();
  }

  int peek() {
    if (pos_ == chunk_->size && !refill(pos_)) return -1;
    return static_cast<unsigned char>(chunk_->data[pos_]);
  }
  int get() {
    const int c = peek();
    if (c >= 0) ++pos_;
    return c;
  }
  void skipSpace() {
    while (isSpace(peek())) ++pos_;
  }
  uint64_t offset() const { return base_ + pos_; }
  uint64_t bytesRead() const { return bytes_read_; }

  // Replaces the chunk by a new one holding [keep_from, size) of the old and fresh input.
  // Returns false (and sets eof) when the input has no more bytes.
  bool refill(size_t keep_from) {
    if (eof_) return false;
    const size_t keep = chunk_->size - keep_from;
    size_t want = nextReadSize();
    // Full-size refills read a little less so that kept text plus fresh input stays one chunk:
    // every pooled chunk then fits every later refill. (keep + kChunkSize made each chunk a few
    // bytes larger than the next might need, so the pool kept missing and up to 16 chunks,
    // 128 MiB of fresh pages, were allocated.) Only a huge partial event needs a larger chunk.
    if (want == kChunkSize && keep <= kChunkSize / 2) want = kChunkSize - keep;
    std::shared_ptr<TextChunk> next = viewChunk(keep, want);
    size_t filled = next ? next->size : keep;
    if (!next) {
      next = makeChunk(keep + want);
      std::memcpy(next->owned.get(), chunk_->data + keep_from, keep);
      while (filled < keep + want) {
        const size_t n = source_.read(next->owned.get() + filled, keep + want - filled);
        if (n == 0) break;
        filled += n;
      }
      next->size = filled;
    }
    bytes_read_ += filled - keep;
    base_ += keep_from;
    pos_ -= std::min(pos_, keep_from);
    chunk_ = std::move(next);
    if (filled == keep) eof_ = true;
    return !eof_;
  }

  std::shared_ptr<TextChunk>& chunk() { return chunk_; }
  size_t& pos() { return pos_; }
  bool eof() const { return eof_; }

 private:
  // How much to read next: a chunk, or less when the (uncompressed) input is known to be
  // smaller, so small inputs (tests, the fuzzer) do not allocate 8 MiB buffers.
  size_t nextReadSize() const {
    const uint64_t size = source_.inputSize();
    if (source_.compressed() || size == 0) return kChunkSize;
    const uint64_t left = size > source_.inputConsumed() ? size - source_.inputConsumed() : 0;
    return static_cast<size_t>(std::min<uint64_t>(kChunkSize, left + 64));
  }

  // A mapped file needs no copy: the kept bytes are the view's start. The chunk it replaces
  // then drops only its pages before that start.
  std::shared_ptr<TextChunk> viewChunk(size_t keep, size_t want) {
    MappedView view;
    if (!source_.readView(keep, want, view)) return nullptr;
    auto c = std::make_shared<TextChunk>();
    c->data = view.mapping->data() + view.offset;
    c->capacity = c->size = view.size;
    c->mapping = std::move(view.mapping);
    c->release_begin = view.offset;
    c->release_end = view.offset + view.size;
    if (chunk_->mapping) chunk_->release_end = view.offset;
    return c;
  }

  // Chunks come back from parser threads when their batches are done; reusing them avoids
  // faulting in fresh pages for every refill.
  std::shared_ptr<TextChunk> makeChunk(size_t capacity) {
    for (auto& c : pool_) {
      if (c.use_count() == 1 && c->capacity >= capacity) {
        c->size = 0;
        return c;
      }
    }
    auto c = std::make_shared<TextChunk>();
    c->owned.reset(new char[capacity + kPadding]);
    c->data = c->owned.get();
    c->capacity = capacity;
    adviseHugePages(c->data, capacity + kPadding);
    if (pool_.size() < kPoolSize) pool_.push_back(c);
    return c;
  }

  static constexpr size_t kPoolSize = 16;
  ByteSource& source_;
  std::vector<std::shared_ptr<TextChunk>> pool_;
  std::shared_ptr<TextChunk> chunk_;
  size_t pos_ = 0;
  uint64_t base_ = 0;
  bool eof_ = false;
  uint64_t bytes_read_ = 0;
};

class ChromeJsonImport {
 public:
  ChromeJsonImport(ByteSource& source, std::string head, TraceModel& model,
                   const ImportOptions& options)
      : source_(source),
        reader_(source, std::move(head)),
        model_(model),
        options_(options),
        builder_(model),
        merger_(builder_, options.keep_flows),
        pipeline_(workerCount(options), kChunkSize / kBatchBytes,
                  [this](EventBatch& b) { merger_.merge(b); }) {}

  ImportStatus run();

 private:
  static int workerCount(const ImportOptions& options) {
    if (options.threads > 0) return options.threads;
    const unsigned cores = availableCores();
    return cores > 1 ? static_cast<int>(cores) : 0;
  }
  ImportStatus fail(ImportError error, const std::string& what) const {
    return {error, what + " at byte " + std::to_string(reader_.offset())};
  }
  ImportStatus walkObject();
  bool readKey(std::string& key);
  bool readValue(std::string& text);
  // Returns true if the array was closed by ']'.
  bool readEvents(bool array_form);
  void dispatch(std::vector<ArraySplitter::Element>& elements);
  bool cancelled() const {
    return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
  }
  void reportProgress();
  void countTrailingBytes();
  void finish();
  void reserveForInput();

  ByteSource& source_;
  Reader reader_;
  TraceModel& model_;
  const ImportOptions& options_;
  TraceBuilder builder_;
  BatchMerger merger_;
  ParsePipeline pipeline_;
  bool saw_events_ = false, saw_trace_key_ = false;
  std::vector<std::string> keys_;  // the object's first keys, to say what the file is instead
};

// "; its keys: "schema", "findings"": what a whole JSON object that is no trace holds (a
// steplint report, a memory snapshot ...); the byte offset, its end, would say nothing.
std::string keysNote(const std::vector<std::string>& keys, size_t max_keys) {
  if (keys.empty()) return ", an empty one";
  std::string out = "; its keys: ";
  for (size_t i = 0; i < keys.size() && i < max_keys; ++i) {
    if (i > 0) out += ", ";
    out += '"';
    for (const char c : keys[i].substr(0, 40))  // a terminal line: printable ASCII only
      out += c >= 0x20 && c < 0x7f ? c : '?';
    out += keys[i].size() > 40 ? "...\"" : "\"";
  }
  return out + (keys.size() > max_keys ? ", ..." : "");
}

// ": 12 with a phase steplint does not read (such as Chrome's async b/e)": why an array of
// objects kept no event, from the counts of what was dropped.
std::string droppedNote(const ImportStats& stats) {
  std::string out;
  const auto add = [&](Stat stat, const char* what) {
    if (const uint64_t n = stats.get(stat))
      out += (out.empty() ? ": " : ", ") + std::to_string(n) + what;
  };
  add(Stat::event_missing_field, " without a usable ph, ts or dur");
  add(Stat::event_unknown_phase,
      " with a phase steplint does not read (such as Chrome's async b/e, which torch.profiler "
      "does not write)");
  return out;
}

void ChromeJsonImport::reportProgress() {
  if (!options_.progress || source_.inputSize() == 0) return;
  options_.progress(
      std::min(1.0, static_cast<double>(source_.inputConsumed()) / source_.inputSize()));
}

void ChromeJsonImport::dispatch(std::vector<ArraySplitter::Element>& elements) {
  size_t first = 0;
  while (first < elements.size()) {
    size_t last = first + 1;
    const size_t limit = elements[first].begin + kBatchBytes;
    while (last < elements.size() && elements[last].end <= limit) ++last;
    BatchJob job;
    job.chunk = reader_.chunk();
    job.elements.assign(elements.begin() + static_cast<ptrdiff_t>(first),
                        elements.begin() + static_cast<ptrdiff_t>(last));
    pipeline_.submit(std::move(job));
    first = last;
  }
  elements.clear();
}

bool ChromeJsonImport::readEvents(bool array_form) {
  saw_events_ = true;
  ArraySplitter splitter;
  splitter.start(reader_.pos(), options_.max_event_bytes);
  std::vector<ArraySplitter::Element> elements;
  while (true) {
    auto& chunk = reader_.chunk();
    const auto result = splitter.scan(chunk->data, chunk->size, reader_.eof(), elements);
    dispatch(elements);
    const bool array_end = result == ArraySplitter::Result::kArrayEnd;
    const bool cancel = cancelled();
    // Batches still in flight are merged into model_ (its stats among them) on worker threads:
    // they finish before this thread writes model_ again (a race ThreadSanitizer found).
    if (array_end || reader_.eof() || cancel) pipeline_.drain();
    if (array_end) {
      reader_.pos() = splitter.arrayEnd() + 1;
      model_.stats.add(Stat::json_event_too_large, splitter.skippedElements());
      model_.stats.add(Stat::event_not_object, splitter.scalarElements());
      return true;
    }
    if (reader_.eof() || cancel) {
      model_.stats.add(Stat::json_event_too_large, splitter.skippedElements());
      model_.stats.add(Stat::event_not_object, splitter.scalarElements());
      // The array form may legally lack its closing ']' (Chrome trace spec).
      if (!cancel && (splitter.inElement() || !array_form)) model_.stats.add(Stat::json_truncated);
      reader_.pos() = chunk->size;
      return false;
    }
    const size_t keep_from = splitter.inElement() && !splitter.skipping() ? splitter.elementStart()
                                                                          : splitter.position();
    reader_.pos() = keep_from;
    reader_.refill(keep_from);
    splitter.rebase(keep_from);
    reportProgress();
  }
}

bool ChromeJsonImport::readKey(std::string& key) {
  key.clear();
  for (int c = reader_.get(); c != '"'; c = reader_.get()) {
    if (c < 0 || key.size() > kMaxKeyBytes) return false;
    if (c == '\\') {
      c = reader_.get();
      if (c < 0) return false;
    }
    key.push_back(static_cast<char>(c));
  }
  return true;
}

// Reads one JSON value's text at the top level (deviceProperties, distributedInfo, ...).
// Values larger than max_event_bytes are skipped (text left empty) so memory stays bounded.
bool ChromeJsonImport::readValue(std::string& text) {
  text.clear();
  const auto keep = [&](int c) {
    if (text.size() < options_.max_event_bytes) text.push_back(static_cast<char>(c));
  };
  const int first = reader_.peek();
  if (first < 0) return false;
  if (first != '{' && first != '[' && first != '"') {  // number or literal: up to a delimiter
    for (int c = reader_.peek(); c >= 0 && c != ',' && c != '}' && c != ']' && !isSpace(c);
         c = reader_.peek())
      keep(reader_.get());
    return !text.empty();
  }
  int64_t depth = 0;
  bool in_string = false;
  do {
    const int c = reader_.get();
    if (c < 0) return false;
    keep(c);
    if (in_string) {
      if (c == '\\') {
        const int escaped = reader_.get();
        if (escaped < 0) return false;
        keep(escaped);
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  } while (in_string || depth > 0);
  return true;
}

ImportStatus ChromeJsonImport::walkObject() {
  std::string key, value;
  while (true) {
    reader_.skipSpace();
    const int c = reader_.get();
    if (c == '}') return {};
    if (c == ',') continue;
    if (c < 0) {
      if (!saw_events_ && !saw_trace_key_)
        return fail(ImportError::kNotATrace, "JSON object ends without traceEvents");
      if (!model_.stats.get(Stat::json_truncated)) model_.stats.add(Stat::json_truncated);
      return {};
    }
    if (c != '"' || !readKey(key)) {
      if (!saw_events_ && !saw_trace_key_)
        return fail(ImportError::kNotATrace, "not a JSON trace object");
      model_.stats.add(Stat::json_trailing_garbage);
      return {};
    }
    reader_.skipSpace();
    if (reader_.get() != ':') {
      if (!saw_events_ && !saw_trace_key_)
        return fail(ImportError::kNotATrace, "malformed JSON (expected ':')");
      model_.stats.add(Stat::json_trailing_garbage);
      return {};
    }
    if (keys_.size() <= kKeysNamed) keys_.push_back(key);
    reader_.skipSpace();
    if (key == "traceEvents" && reader_.peek() == '[') {
      reader_.get();
      if (!readEvents(false)) return {};
      continue;
    }
    if (!readValue(value)) {
      if (!model_.stats.get(Stat::json_truncated)) model_.stats.add(Stat::json_truncated);
      if (!saw_events_ && !saw_trace_key_ && !isKnownTopLevelKey(key))
        return fail(ImportError::kNotATrace, "JSON object without traceEvents");
      return {};
    }
    saw_trace_key_ |= isKnownTopLevelKey(key);
    applyTopLevel(key, value, model_);
  }
}

// Reserving from the input size avoids growing (copying and re-faulting) the model's big
// vectors; untouched reserved pages cost no memory. Kineto events average 220-460 bytes of
// JSON (docs/reference/trace-format.md §1), gzip shrinks them 13-30x. The events themselves
// wait in the builder's per-track store until finalize() (track_event_store.h), which sizes
// TraceModel::events exactly.
void ChromeJsonImport::reserveForInput() {
  uint64_t bytes = source_.inputSize();
  if (bytes == 0) return;
  if (source_.compressed()) bytes *= 20;
  const size_t events = static_cast<size_t>(std::min<uint64_t>(bytes / 200, uint64_t{1} << 28));
  reserveHuge(model_.gpu_details, events / 4);
  reserveHuge(model_.op_details, events / 2);
  reserveHuge(model_.memory_events, events / 4);
  if (options_.keep_flows) reserveHuge(model_.flows, events / 2);
}

// What follows the trace. Another '{' or '[' is a second document (two traces concatenated,
// `cat a.json b.json`): its events are lost, which is data loss, not harmless garbage such as
// the NUL padding some writers leave.
void ChromeJsonImport::countTrailingBytes() {
  reader_.skipSpace();
  const int c = reader_.peek();
  if (c == '{' || c == '[')
    model_.stats.add(Stat::json_second_document);
  else if (c >= 0)
    model_.stats.add(Stat::json_trailing_garbage);
}

void ChromeJsonImport::finish() {
  pipeline_.drain();
  merger_.finish();
  model_.metadata.input_bytes = reader_.bytesRead();
  reportProgress();
  builder_.finalize(std::max(workerCount(options_), 1));
  model_.metadata.legacy_profiler_export = isLegacyProfilerExport(model_);
}

ImportStatus ChromeJsonImport::run() {
  reserveForInput();
  reader_.skipSpace();
  if (reader_.peek() == 0xEF) {  // UTF-8 byte order mark
    for (int i = 0; i < 3; ++i) reader_.get();
    reader_.skipSpace();
  }
  const int c = reader_.get();
  ImportStatus status;
  int first_element = -1;  // the array form's first element's first byte
  if (c < 0) return fail(ImportError::kNotATrace, "empty file");
  if (c == '[') {
    model_.metadata.format = "chrome-json-array";
    reader_.skipSpace();
    first_element = reader_.peek();
    readEvents(true);
  } else if (c == '{') {
    model_.metadata.format = "kineto-json";
    status = walkObject();
    if (!status.ok()) return status;
    if (!saw_events_)
      return {ImportError::kNotATrace,
              "a JSON object without traceEvents" + keysNote(keys_, kKeysNamed)};
  } else {
    return fail(ImportError::kNotATrace, "does not start with a JSON object or array");
  }
  if (cancelled()) return {ImportError::kCancelled, "import cancelled"};
  countTrailingBytes();
  finish();
  // An array of numbers or arrays (a memory-timeline export, a list of figures), or of objects
  // none of which is an event (an inference server's request log: no "ph"), is no trace:
  // refused like an object without traceEvents, not passed on as an empty one (exit 0).
  const bool nothing_kept = model_.events.empty() && model_.counters.empty() &&
                            model_.instants.empty() && model_.memory_events.empty();
  if (first_element >= 0 && first_element != ']' && nothing_kept) {
    if (first_element != '{')
      return {ImportError::kNotATrace, "a JSON array whose elements are not event objects"};
    // A metadata row or a flow still names a row: such an array is a trace, if an empty one.
    if (model_.tracks.empty() && merger_.metaRows() == 0) {
      return {ImportError::kNotATrace,
              "a JSON array of objects none of which is a trace event" + droppedNote(model_.stats)};
    }
  }
  return status;
}

}  // namespace

bool sniffChromeJson(std::string_view head) {
  size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < head.size() && isSpace(static_cast<unsigned char>(head[i]))) ++i;
  return i < head.size() && (head[i] == '{' || head[i] == '[');
}

ImportStatus importChromeJson(ByteSource& source, std::string head, TraceModel& model,
                              const ImportOptions& options) {
  ChromeJsonImport import(source, std::move(head), model, options);
  ImportStatus status = import.run();
  const std::string source_error = source.error();
  if (!source_error.empty() && status.ok())
    model.stats.add(source.compressed() ? Stat::gzip_error : Stat::input_read_error);
  return status;
}

}  // namespace steplint::trace
