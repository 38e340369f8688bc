// Reading a rank summary back from a `steplint summary --format json` document
// (rank_summary.h). simdjson rather than nlohmann: a job report from 1,000 such files must take
// under a second, and nlohmann's DOM of the whole summary was most of that time
// (docs/benchmarks.md "Whole job"). Only "schema" and "rank_summary" are read.
#include <simdjson.h>

#include <utility>

#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/input_file.h"

namespace steplint::analyzer {
namespace {

namespace dom = simdjson::dom;

// Bounds on what a file may claim, so a hostile or corrupt file cannot make the job step
// allocate without limit (a real rank has a few hundred steps and a few dozen collectives).
constexpr size_t kMaxSteps = 100'000;
constexpr size_t kMaxPerStep = 100'000;

/// Field access that remembers the first problem instead of throwing: the caller checks once.
class Fields {
 public:
  int64_t integer(dom::object o, const char* key) {
    int64_t v = 0;
    if (o[key].get_int64().get(v)) fail(std::string(key) + " is not an integer");
    return v;
  }
  /// Keys added after the first release of the format: absent in older files (-1).
  int64_t optionalInteger(dom::object o, const char* key) {
    dom::element e;
    return o[key].get(e) ? -1 : integer(o, key);
  }
  std::string text(dom::object o, const char* key) {
    std::string_view v;
    if (o[key].get_string().get(v)) fail(std::string(key) + " is not a string");
    return std::string(v);
  }
  bool boolean(dom::object o, const char* key) {
    bool v = false;
    if (o[key].get_bool().get(v)) fail(std::string(key) + " is not a boolean");
    return v;
  }
  /// Calls visit(element) for each element of the array under `key`, unless it is missing, no
  /// array or longer than `max` (a default dom::array has no document: never iterate one).
  template <typename Visit>
  void each(dom::object o, const char* key, size_t max, Visit&& visit) {
    dom::array v;
    if (o[key].get_array().get(v) || v.size() > max) {
      fail(std::string(key) + " is not an array of at most " + std::to_string(max));
      return;
    }
    for (dom::element e : v) visit(e);
  }
  dom::object object(dom::element e, const char* what) {
    dom::object v;
    if (e.get_object().get(v)) fail(std::string(what) + " is not an object");
    return v;
  }
  const std::string& problem() const { return problem_; }

 private:
  void fail(std::string what) {
    if (problem_.empty()) problem_ = std::move(what);
  }
  std::string problem_;
};

// The integer fields of a step, under the keys rankSummaryToJson writes.
constexpr std::pair<const char*, int64_t RankStep::*> kStepFields[] = {
    {"number", &RankStep::number},
    {"step_ns", &RankStep::step_ns},
    {"compute_ns", &RankStep::compute_ns},
    {"comm_ns", &RankStep::comm_ns},
    {"sync_ns", &RankStep::sync_ns},
    {"host_work_ns", &RankStep::host_work_ns},
    {"dataloader_ns", &RankStep::dataloader_ns},
    {"idle_ns", &RankStep::idle_ns}};

// The rank's text fields likewise.
constexpr std::pair<const char*, std::string RankSummary::*> kRankTexts[] = {
    {"source", &RankSummary::source},
    {"backend", &RankSummary::backend},
    {"comm_source", &RankSummary::comm_source},
    {"step_source", &RankSummary::step_source}};

RankStep readStep(dom::object s, Fields& f) {
  RankStep step;
  for (const auto& [key, member] : kStepFields) step.*member = f.integer(s, key);
  f.each(s, "collectives", kMaxPerStep, [&](dom::element e) {
    const dom::object c = f.object(e, "a collective");
    if (!f.problem().empty()) return;
    step.collectives.push_back({f.text(c, "group"), f.integer(c, "index"), f.text(c, "name"),
                                f.integer(c, "dur_ns"), f.optionalInteger(c, "seq"),
                                f.optionalInteger(c, "nelems")});
  });
  f.each(s, "top_kernels", kMaxPerStep, [&](dom::element e) {
    const dom::object k = f.object(e, "a kernel");
    if (!f.problem().empty()) return;
    step.top_kernels.push_back({f.text(k, "name"), f.integer(k, "ns")});
  });
  return step;
}

void readGroups(dom::object j, Fields& f, RankSummary& r) {
  dom::element present;
  if (j["groups"].get(present)) return;  // files from before process groups were kept
  f.each(j, "groups", kMaxPerStep, [&](dom::element e) {
    const dom::object g = f.object(e, "a group");
    if (!f.problem().empty()) return;
    ProcessGroup group{f.text(g, "name"), f.text(g, "description"), {}};
    f.each(g, "ranks", kMaxPerStep, [&](dom::element member) {
      int64_t rank = 0;
      if (!member.get_int64().get(rank)) group.ranks.push_back(rank);
    });
    r.groups.push_back(std::move(group));
  });
}

RankSummary readRank(dom::object j, Fields& f) {
  RankSummary r;
  for (const auto& [key, member] : kRankTexts) r.*member = f.text(j, key);
  r.rank = f.integer(j, "rank");
  r.world_size = f.integer(j, "world_size");
  r.rank_from_file_name = f.boolean(j, "rank_from_file_name");
  readGroups(j, f, r);
  f.each(j, "steps", kMaxSteps, [&](dom::element e) {
    const dom::object s = f.object(e, "a step");
    if (f.problem().empty()) r.steps.push_back(readStep(s, f));
  });
  f.each(j, "notes", kMaxPerStep, [&](dom::element n) {
    std::string_view note;
    if (!n.get_string().get(note)) r.notes.emplace_back(note);
  });
  return r;
}

}  // namespace

RankSummaryRead readRankSummaryDocument(std::string_view json_text, RankSummary& out,
                                        std::string& problem) {
  thread_local dom::parser parser;  // its buffers are reused from file to file
  dom::element doc;
  std::string_view schema;
  if (parser.parse(json_text.data(), json_text.size()).get(doc) ||
      doc["schema"].get_string().get(schema) || schema != "steplint.summary/1")
    return RankSummaryRead::kNotASummary;
  dom::element rank;
  if (doc["rank_summary"].get(rank)) {
    problem = "a steplint summary without \"rank_summary\" (written by an older steplint?)";
    return RankSummaryRead::kBroken;
  }
  Fields fields;
  dom::object object = fields.object(rank, "rank_summary");
  RankSummary read = fields.problem().empty() ? readRank(object, fields) : RankSummary{};
  if (!fields.problem().empty()) {
    problem = "not a rank summary: " + fields.problem();
    return RankSummaryRead::kBroken;
  }
  out = std::move(read);
  return RankSummaryRead::kRead;
}

bool readRankSummaryFile(const std::string& path, const trace::FilePeek& peek, RankSummary& out,
                         std::string& problem) {
  constexpr size_t kMaxBytes = size_t{64} << 20;  // KBs per step; anything larger is no summary
  if (!peek.mayBeOtherJson() || peek.size > kMaxBytes) return false;
  std::string text, error;
  if (!trace::readInputFile(path, kMaxBytes, text, error)) return false;  // the importer says why
  switch (readRankSummaryDocument(text, out, problem)) {
    case RankSummaryRead::kRead:
      return true;
    case RankSummaryRead::kBroken:
      problem = path + ": " + problem;
      return false;
    case RankSummaryRead::kNotASummary:
      return false;
  }
  return false;
}

}  // namespace steplint::analyzer
