#include "steplint/analyzer/baseline.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace steplint::analyzer {

std::string loadBaseline(const std::string& path, Baseline& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot read (") + std::strerror(errno) + ")";
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return "not a JSON file";
  const auto list = doc.is_object() ? doc.find("fingerprints") : doc.end();
  if (!doc.is_object() || list == doc.end() || !list->is_array())
    return "not a steplint baseline (expected an object with a \"fingerprints\" array)";
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

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return std::string("cannot open for writing (") + std::strerror(errno) + ")";
  file << doc.dump(2) << '\n';
  file.flush();
  return file ? std::string() : std::string("write failed");
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
