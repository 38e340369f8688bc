#include "steplint/analyzer/baseline.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "steplint/analyzer/json_text.h"
#include "steplint/analyzer/run_diff.h"
#include "steplint/trace/input_file.h"
#include "steplint/trace/output_file.h"
#include "text_table.h"

namespace steplint::analyzer {
namespace {

// A baseline entry is about 200 bytes, so 64 MiB is some 300,000 accepted findings, far
// beyond any real project; the limit stops a mistaken path (a trace, /dev/zero behind a
// pipe) from being read whole into memory, and the JSON parser's ~10x on top of it.
constexpr size_t kMaxBaselineBytes = size_t{64} << 20;

// Files without "schema" are accepted: hand-written lists of fingerprints are documented in
// baseline.h. Version 1 files are read as unscoped entries without sizes. Another schema
// comes from a newer steplint (or is not a baseline) and would be misread, so it is refused
// rather than silently matching nothing.
std::string readSchema(const nlohmann::json& doc, int& version) {
  const auto schema = doc.find("schema");
  if (schema == doc.end()) return {};
  if (schema->is_string() && schema->get<std::string>() == kBaselineSchema) {
    version = 2;
    return {};
  }
  if (schema->is_string() && schema->get<std::string>() == kBaselineSchemaV1) {
    version = 1;
    return {};
  }
  const std::string found =
      schema->is_string() ? "\"" + schema->get<std::string>() + "\"" : schema->dump();
  return "unsupported baseline schema " +
         (found.size() > 80 ? found.substr(0, 80) + "..." : found) + " (this steplint reads \"" +
         kBaselineSchema + "\" and \"" + kBaselineSchemaV1 + "\")";
}

// Entry fields of version 2; missing or mistyped ones leave the entry unscoped / unsized,
// which errs on the side of suppressing what the file accepted.
BaselineEntry readEntry(const nlohmann::json& entry) {
  BaselineEntry e;
  if (auto it = entry.find("scope"); it != entry.end() && it->is_string())
    e.scope = it->get<std::string>();
  if (auto it = entry.find("magnitude"); it != entry.end() && it->is_number())
    e.magnitude = it->get<double>();
  if (auto it = entry.find("unit"); it != entry.end() && it->is_string())
    e.unit = it->get<std::string>();
  return e;
}

// Timestamps and process ids change with every recording of the same program
// ("worker0.1623143089861.pt.trace.json", "host_48211.1700000000000.pt.trace.json"); short
// digit runs ("rank3", "worker0") name the process and are kept.
std::string namePattern(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  std::string out;
  for (size_t i = 0; i < name.size();) {
    size_t j = i;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
    if (j - i >= 4) {
      out += '*';
      i = j;
    } else if (j > i) {
      out.append(name, i, j - i);
      i = j;
    } else {
      out += name[i++];
    }
  }
  return out;
}

bool grewBeyond(const BaselineEntry& accepted, const FindingSize& now, double factor) {
  if (accepted.magnitude < 0 || now.magnitude < 0 || accepted.unit != now.unit) return false;
  if (accepted.magnitude == 0) return now.magnitude > 0;
  return now.magnitude > accepted.magnitude * factor;
}

std::string writeEntries(const std::string& path, const std::vector<ScopedResult>& results) {
  // Keyed by (fingerprint, scope) so the file is sorted and stable across runs (reviewable diffs).
  // Several traces of one scope (two runs of rank 0 with scope "rank", or scope "none") share an
  // entry: it keeps the largest occurrence, or reading the file back would report the bigger
  // ones again as worse than the baseline just written.
  struct Kept {
    double magnitude = 0;
    nlohmann::json entry;
  };
  std::map<std::pair<std::string, std::string>, Kept> entries;
  for (const ScopedResult& scoped : results) {
    for (const Diagnostic& d : scoped.result->diagnostics) {
      const FindingSize size = findingSize(d);
      auto [kept, added] = entries.try_emplace({size.fingerprint, scoped.scope});
      if (!added && kept->second.magnitude >= size.magnitude) continue;
      nlohmann::json entry = {{"fingerprint", size.fingerprint},
                              {"scope", scoped.scope},
                              {"code", d.code},
                              {"name", d.name},
                              {"message", d.message},
                              {"trace", scoped.result->source}};
      if (size.magnitude >= 0) {
        entry["magnitude"] = size.magnitude;
        entry["unit"] = size.unit;
      }
      kept->second = {size.magnitude, std::move(entry)};
    }
  }
  nlohmann::json doc = {{"schema", kBaselineSchema}, {"fingerprints", nlohmann::json::array()}};
  for (auto& [key, kept] : entries) doc["fingerprints"].push_back(std::move(kept.entry));
  return trace::writeOutputFile(path, jsonText(doc) + '\n');
}

}  // namespace

std::string_view baselineScopeName(BaselineScope scope) {
  switch (scope) {
    case BaselineScope::kFile:
      return "file";
    case BaselineScope::kRank:
      return "rank";
    case BaselineScope::kNone:
      return "none";
  }
  return "file";
}

bool parseBaselineScope(std::string_view text, BaselineScope& out) {
  for (BaselineScope s : {BaselineScope::kFile, BaselineScope::kRank, BaselineScope::kNone})
    if (baselineScopeName(s) == text) {
      out = s;
      return true;
    }
  return false;
}

std::string traceScope(const std::string& path, const trace::TraceMetadata& metadata,
                       BaselineScope scope) {
  std::string rank = metadata.distributed.present && metadata.distributed.rank >= 0
                         ? "rank=" + std::to_string(metadata.distributed.rank)
                         : "";
  switch (scope) {
    case BaselineScope::kNone:
      return "";
    case BaselineScope::kRank:
      return rank;
    case BaselineScope::kFile:
      return rank.empty() ? namePattern(path) : rank + ":" + namePattern(path);
  }
  return "";
}

const BaselineEntry* Baseline::find(const std::string& fingerprint,
                                    const std::string& scope) const {
  auto it = entries.find(fingerprint);
  if (it == entries.end()) return nullptr;
  // An unscoped entry applies to every trace; an unscoped trace (--baseline-scope none) to
  // every entry.
  for (const BaselineEntry& e : it->second)
    if (e.scope.empty() || scope.empty() || e.scope == scope) return &e;
  return nullptr;
}

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
  if (std::string bad_schema = readSchema(doc, out.version); !bad_schema.empty()) return bad_schema;
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& entry = (*list)[i];
    if (entry.is_string()) {
      out.entries[entry.get<std::string>()].push_back({});
    } else if (entry.is_object() && entry.contains("fingerprint") &&
               entry["fingerprint"].is_string()) {
      // Version 1 wrote no scope; were one present, it would still not be trusted.
      BaselineEntry e = out.version == 1 ? BaselineEntry{} : readEntry(entry);
      out.entries[entry["fingerprint"].get<std::string>()].push_back(std::move(e));
    } else {
      return "fingerprints[" + std::to_string(i) +
             "]: expected a string or an object with a \"fingerprint\" string";
    }
  }
  return {};
}

std::string writeBaseline(const std::string& path, const std::vector<ScopedResult>& results) {
  return writeEntries(path, results);
}

std::string writeBaseline(const std::string& path, const std::vector<LintResult>& results) {
  std::vector<ScopedResult> scoped;
  for (const LintResult& r : results) scoped.push_back({&r, ""});
  return writeEntries(path, scoped);
}

namespace {

// A finding keyed by GPU index (SL301:gpu6) with no entry of its own: the accepted entry of the
// same rule on another index, when each side has exactly one (the same GPU renumbered by
// CUDA_VISIBLE_DEVICES or another node), else nullptr.
const BaselineEntry* renumberedDevice(const Baseline& baseline,
                                      const std::map<std::string, size_t>& in_trace_by_code,
                                      const std::string& fingerprint, const std::string& scope) {
  const std::string code(deviceFingerprintCode(fingerprint));
  if (code.empty()) return nullptr;
  const auto in_trace = in_trace_by_code.find(code);
  if (in_trace == in_trace_by_code.end() || in_trace->second != 1) return nullptr;
  const BaselineEntry* only = nullptr;
  size_t in_baseline = 0;
  for (const auto& [accepted, entries] : baseline.entries) {
    if (deviceFingerprintCode(accepted) != code) continue;
    if (const BaselineEntry* e = baseline.find(accepted, scope)) only = e, ++in_baseline;
  }
  return in_baseline == 1 ? only : nullptr;
}

}  // namespace

BaselineOutcome applyBaseline(const Baseline& baseline, LintResult& result,
                              const std::string& scope, double worse_factor) {
  BaselineOutcome outcome;
  std::map<std::string, size_t> device_findings;  // by rule code, the findings keyed by GPU
  for (const Diagnostic& d : result.diagnostics) {
    const std::string fingerprint = d.fingerprint();  // the code below is a view into it
    if (const std::string_view code = deviceFingerprintCode(fingerprint); !code.empty())
      ++device_findings[std::string(code)];
  }
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : result.diagnostics) {
    const std::string fingerprint = d.fingerprint();
    const BaselineEntry* accepted = baseline.find(fingerprint, scope);
    if (accepted == nullptr)
      accepted = renumberedDevice(baseline, device_findings, fingerprint, scope);
    if (accepted == nullptr) {
      kept.push_back(std::move(d));
      continue;
    }
    const FindingSize now = findingSize(d);
    if (!grewBeyond(*accepted, now, worse_factor)) {
      ++outcome.suppressed;
      // Fixing all findings still includes it: say so, or the listed shares would not add up.
      if (d.saving.known()) ++result.saving_all.suppressed;
      continue;
    }
    d.message += "; worse than baseline: " + formatFixed(accepted->magnitude, 2) + " -> " +
                 formatFixed(now.magnitude, 2) + " " + now.unit + " (band " +
                 formatFixed(worse_factor, 2) + "x)";
    d.evidence.metrics.emplace_back("baseline_magnitude", accepted->magnitude);
    ++outcome.worse;
    kept.push_back(std::move(d));
  }
  result.diagnostics = std::move(kept);
  return outcome;
}

}  // namespace steplint::analyzer
