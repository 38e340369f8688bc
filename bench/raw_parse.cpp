#include "raw_parse.h"

#include <zlib.h>

#include <chrono>
#include <string_view>

#include <simdjson.h>

#include "steplint/trace/peek.h"

namespace steplint::bench {
namespace {

namespace od = simdjson::ondemand;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// gzread passes plain files through unchanged, so one loop reads both forms.
bool readAll(const std::string& path, std::string& text, std::string& error) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    error = "cannot open " + path;
    return false;
  }
  gzbuffer(file, 1 << 20);
  constexpr size_t kStep = size_t{16} << 20;
  size_t size = 0;
  while (true) {
    text.resize(size + kStep);
    const int n = gzread(file, text.data() + size, static_cast<unsigned>(kStep));
    if (n <= 0) {
      if (n < 0) error = "read error in " + path;
      break;
    }
    size += static_cast<size_t>(n);
  }
  gzclose(file);
  text.resize(size);
  return error.empty();
}

// Visits every value and materialises what the importer would read: keys (unescaped),
// strings (unescaped) and numbers, so the walk does the work a field-by-field parse does.
simdjson::error_code walk(od::value value, uint64_t& values) {
  ++values;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      for (auto field : object) {
        std::string_view key;
        if (auto error = field.unescaped_key().get(key)) return error;
        if (auto error = walk(field.value(), values)) return error;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::array: {
      od::array array;
      if (auto error = value.get_array().get(array)) return error;
      for (auto element : array) {
        od::value item;
        if (auto error = element.get(item)) return error;
        if (auto error = walk(item, values)) return error;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::string: {
      std::string_view text;
      return value.get_string().get(text);
    }
    case od::json_type::number: {
      double number = 0;
      return value.get_double().get(number);
    }
    case od::json_type::boolean: {
      bool flag = false;
      return value.get_bool().get(flag);
    }
    case od::json_type::null:
      return value.is_null() ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
  }
  return simdjson::INCORRECT_TYPE;
}

simdjson::error_code walkDocument(od::parser& parser, const simdjson::padded_string& text,
                                  uint64_t& values) {
  od::document doc;
  if (auto error = parser.iterate(text).get(doc)) return error;
  od::value root;
  if (auto error = doc.get_value().get(root)) return error;
  return walk(root, values);
}

constexpr size_t kMaxDomBytes = size_t{2} << 30;

}  // namespace

RawParseResult measureRawParse(const std::string& path, int runs) {
  RawParseResult result;
  result.implementation = std::string(simdjson::get_active_implementation()->name());
  simdjson::padded_string padded;
  if (!trace::peekFile(path).gzip) {  // timed as simdjson's own loader reads it
    const auto t0 = Clock::now();
    if (simdjson::padded_string::load(path).get(padded)) {
      result.error = "simdjson cannot load " + path;
      return result;
    }
    result.load_seconds = secondsSince(t0);
  } else {
    std::string text;
    if (!readAll(path, text, result.error)) return result;
    padded = simdjson::padded_string(text);
  }
  result.json_bytes = padded.size();
  if (padded.size() > simdjson::SIMDJSON_MAXSIZE_BYTES) {
    result.error = "simdjson parses one document of at most 4 GiB; this one has " +
                   std::to_string(padded.size()) + " bytes";
    return result;
  }
  // The DOM holds the whole document's tape and strings, several times the text: above
  // kMaxDomBytes it is left out (n/a) rather than pushing the machine into swap.
  bool dom_runs = padded.size() <= kMaxDomBytes;
  if (!dom_runs) result.dom_error = "not run above 2 GB of JSON";

  od::parser ondemand;
  simdjson::dom::parser dom;
  for (int run = 0; run < runs; ++run) {
    uint64_t values = 0;
    auto t0 = Clock::now();
    if (auto error = walkDocument(ondemand, padded, values)) {
      result.error = std::string("On-Demand: ") + simdjson::error_message(error);
      return result;
    }
    const double od_seconds = secondsSince(t0);
    if (run == 0) result.first_ondemand_seconds = od_seconds;
    if (run == 0 || od_seconds < result.ondemand_seconds) result.ondemand_seconds = od_seconds;
    result.values = values;
    if (!dom_runs) continue;
    t0 = Clock::now();
    simdjson::dom::element root;
    if (auto error = dom.parse(padded).get(root)) {  // the baseline is On-Demand: go on
      result.dom_error = simdjson::error_message(error);
      result.dom_seconds = 0;
      dom_runs = false;
      continue;
    }
    const double dom_seconds = secondsSince(t0);
    if (run == 0 || dom_seconds < result.dom_seconds) result.dom_seconds = dom_seconds;
  }
  result.ok = true;
  return result;
}

}  // namespace steplint::bench
