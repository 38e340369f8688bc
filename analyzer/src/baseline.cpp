#include "steplint/analyzer/baseline.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "steplint/trace/input_file.h"
#include "steplint/trace/output_file.h"

namespace steplint::analyzer {
namespace {

// A baseline entry is about 200 bytes, so 64 MiB is some 300,000 accepted findings, far
// beyond any real project; the limit stops a mistaken path (a trace, /dev/zero behind a
// pipe) from being read whole into memory, and the JSON parser's ~10x on top of it.
constexpr size_t kMaxBaselineBytes = size_t{64} << 20;

// Files without "schema" are accepted: hand-written lists of fingerprints are documented in
// baseline.h. One with another schema comes from a newer steplint (or is not a baseline) and
// would be misread, so it is refused rather than silently matching nothing.
std::string checkSchema(const nlohmann::json& doc) {
  const auto schema = doc.find("schema");
  if (schema == doc.end() || (schema->is_string() && schema->get<std::string>() == kBaselineSchema)) return {};
  const std::string found = schema->is_string() ? "\"" + schema->get<std::string>() + "\"" : schema->dump();
  return "unsupported baseline schema " + (found.size() > 80 ? found.substr(0, 80) + "..." : found) +
         " (this steplint reads \"" + kBaselineSchema + "\")";
}

}  // namespace

std::string loadBaseline(const std::string& path, Baseline& out) {
  trace::InputOpenOptions input;
  input.what = "baseline file";
  std::string text, problem;
  if (!trace::readInputFile(path, kMaxBaselineBytes, text, problem, input)) return problem;
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return "not a JSON file";
  const auto list = doc.is_object() ? doc.find("fingerprints") : doc.end();
  if (!doc.is_object() || list == doc.end() || !list->is_array())
    return "not a steplint baseline (expected an object with a \"fingerprints\" array)";
  if (std::string bad_schema = checkSchema(doc); !bad_schema.empty()) return bad_schema;
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& entry = (*list)[i];
    if (entry.is_string()) {
      out.fingerprints.insert(entry.get<std::string>());
    } else if (entry.is_object() && entry.contains("fingerprint") &&
               entry["fingerprint"].is_string()) {
      out.fingerprints.insert(entry["fingerprint"].get<std::string>());
    } else {
      return "fingerprints[" + std::to_string(i) +
             "]: expected a string or an object with a \"fingerprint\" string";
    }
  }
  return {};
}

std::string writeBaseline(const std::string& path, const std::vector<LintResult>& results) {
  // Keyed by fingerprint so the file is sorted and stable across runs (reviewable diffs).
  std::map<std::string, nlohmann::json> entries;
  for (const LintResult& result : results) {
    for (const Diagnostic& d : result.diagnostics) {
      const std::string fingerprint = d.fingerprint();
      if (entries.count(fingerprint) > 0) continue;
      entries[fingerprint] = {{"fingerprint", fingerprint},
                              {"code", d.code},
                              {"name", d.name},
                              {"message", d.message},
                              {"trace", result.source}};
    }
  }
  nlohmann::json doc = {{"schema", kBaselineSchema}, {"fingerprints", nlohmann::json::array()}};
  for (auto& [fingerprint, entry] : entries) doc["fingerprints"].push_back(std::move(entry));

  return trace::writeOutputFile(path, doc.dump(2) + '\n');
}

size_t applyBaseline(const Baseline& baseline, LintResult& result) {
  const size_t before = result.diagnostics.size();
  auto& diagnostics = result.diagnostics;
  diagnostics.erase(
      std::remove_if(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return baseline.contains(d.fingerprint()); }),
      diagnostics.end());
  return before - diagnostics.size();
}

}  // namespace steplint::analyzer
