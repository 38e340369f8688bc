// The batch driver: the fast path over a whole batch, then event by event with repair
// (kineto_event_parser.h). Reading an event's fields: kineto_event_fields.cpp; turning them
// into model records: kineto_event_commit.cpp.
#include "kineto_event_parser.h"

#include "json_repair.h"
#include "kineto_event_raw.h"

namespace steplint::trace {

namespace od = simdjson::ondemand;

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

bool KinetoEventParser::parseFast(const char* base,
                                  const std::vector<ArraySplitter::Element>& elements, size_t first,
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

void KinetoEventParser::parseBatch(const char* base,
                                   const std::vector<ArraySplitter::Element>& elements,
                                   size_t first, size_t last, EventBatch& out) {
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
