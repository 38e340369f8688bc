// Parses batches of Kineto / Chrome-trace event objects (cut by ArraySplitter) into an
// EventBatch. Fast path: the whole batch as one simdjson On-Demand array. When that fails
// (bad UTF-8, raw control characters, bare N/A, ...), the batch continues event by event,
// each one repaired (json_repair.h) only if it fails strict parsing; what still fails is
// dropped and counted. Field meanings: docs/reference/trace-format.md §4–§9.
//
// Sources: kineto_event_parser.cpp (the batch driver above), kineto_event_fields.cpp (one
// object's fields into a Raw, kineto_event_keys.h / kineto_event_raw.h), kineto_event_commit.cpp
// (a Raw into model records by phase), kineto_event_parser_kinds.cpp (kinds from categories).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "event_batch.h"
#include "json_splitter.h"

namespace steplint::trace {

/// Parses `ts`/`dur` text (microseconds, integer or decimal, optional exponent, optionally
/// quoted) into integer nanoseconds without going through double for plain decimals, so
/// absolute µs timestamps keep their ns digits. Returns false on junk; sets `overflow` when
/// the value does not fit int64 ns.
bool parseMicrosToNanos(std::string_view text, int64_t& ns, bool& overflow);

/// An integer-valued JSON value: ints, floats rounded, numeric strings. Sets `overflow` for
/// values beyond int64 (e.g. "Comms Id").
bool readInt(simdjson::ondemand::value& v, int64_t& out, bool& overflow);

/// A value's text, interned: a string's contents, or an array's or number's JSON text. False
/// when the value is not valid JSON (e.g. a bare N/A), so the event goes to the repair path
/// instead of silently losing the field.
bool readRawJson(simdjson::ondemand::value& v, EventBatch& batch, StringId& out);

/// The c10d collective args (kineto_collective_args.cpp; docs/reference/trace-format.md §7.1).
enum class CollectiveKey : uint8_t {
  kNone,
  kName,
  kGroup,
  kGroupDesc,
  kGroupRanks,
  kDtype,
  kSeq,
  kInNelems,
  kOutNelems,
  kGroupSize
};
CollectiveKey classifyCollectiveKey(std::string_view key);
/// Stores one collective arg in `out`; false when the value is not valid JSON (see readRawJson).
bool readCollectiveArg(CollectiveKey key, simdjson::ondemand::value& v, CollectiveDetail& out,
                       EventBatch& batch, bool& overflow);

/// Kind of an event from its `cat`, accepting legacy capitalised names (case-insensitive).
/// (kineto_event_parser_kinds.cpp, with the three below.)
EventKind eventKindFromCategory(std::string_view category);

/// True for a category that mixes compute and copies (mtia_ccp_events): its events' kinds come
/// from deviceKindFromName.
bool isSplitByName(std::string_view category);

/// Kind of a device event in such a category: `dma*` / `Memcpy*` are copies, `Memset*` fills,
/// anything else a kernel.
EventKind deviceKindFromName(std::string_view name);

/// Copy direction and memory kinds of a memcpy/memset from its name, which is the only place
/// Kineto writes them: "Memcpy HtoD (Pageable -> Device)", "Memset (Device)"; XPU's
/// "Memcpy H2D (HOST -> DEVICE)".
void parseCopyName(std::string_view name, GpuDetail& detail);

class KinetoEventParser {
 public:
  /// Parses elements [first, last) of `elements`, whose offsets point into `base`.
  void parseBatch(const char* base, const std::vector<ArraySplitter::Element>& elements,
                  size_t first, size_t last, EventBatch& out);

 public:
  struct Raw;  // one event's fields while it is being read

 private:
  bool parseFast(const char* base, const std::vector<ArraySplitter::Element>& elements,
                 size_t first, size_t last, EventBatch& out, size_t& parsed);
  void parseOne(std::string_view text, EventBatch& out);
  bool parseText(std::string_view text, EventBatch& out);
  // Objects, fields and values are taken by reference, never copied: the compiler stores
  // simdjson's small iterator structs in pieces and a copy loads them back whole, a stalled
  // store-to-load forward each time (with copies, over half of the samples of these functions).
  simdjson::error_code parseObject(simdjson::ondemand::object& obj, Raw& raw, EventBatch& out);
  simdjson::error_code parseArgs(simdjson::ondemand::object& args, Raw& raw, EventBatch& out);
  void commit(Raw& raw, EventBatch& out);
  Event baseEvent(const Raw& raw, EventBatch& out);
  void commitComplete(Raw& raw, EventBatch& out);
  void attachDetail(Raw& raw, Event& e, EventBatch& out);
  void commitInstant(Raw& raw, EventBatch& out);
  void commitMeta(Raw& raw, EventBatch& out);
  EventKind kindOf(StringId category, StringId name, EventBatch& out);

  simdjson::ondemand::parser parser_;
  std::string scratch_;
  std::string repaired_;
  std::vector<int8_t>
      kind_cache_;  // per local string id of a category: EventKind + 1, 0x40: by name
};

}  // namespace steplint::trace
