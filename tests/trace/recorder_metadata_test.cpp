// The collector's own loss keys (recorded_names.h) become data-loss stats at import: real
// counts, an early stop with its reason, and values that cannot be trusted counted instead.
#include <catch2/catch.hpp>

#include "steplint/trace/import_stats.h"
#include "steplint/trace/recorded_names.h"
#include "test_util.h"

using namespace steplint::trace;
using steplint::test::importJson;

namespace {

// A recorded trace with the given top-level text after traceEvents, where the collector's
// trailer puts it.
std::string recorded(const std::string& trailer) {
  return R"J({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50}
  ])J" + trailer +
         "}";
}

std::string key(std::string_view k, const std::string& raw) {
  return ", \"" + std::string(k) + "\": " + raw;
}

}  // namespace

TEST_CASE("recorder metadata: dropped host events and CUPTI records become data-loss stats",
          "[trace][recorder]") {
  const auto r = importJson(
      recorded(key(kDroppedEventsKey, "13852") + key(kDroppedActivityRecordsKey, "30600")));
  REQUIRE(r.status.ok());
  CHECK(r.model.stats.get(Stat::recorder_dropped_events) == 13852);
  CHECK(r.model.stats.get(Stat::recorder_dropped_gpu_records) == 30600);
  CHECK(r.model.stats.get(Stat::recorder_stopped_early) == 0);
  CHECK(r.model.stats.get(Stat::recorder_metadata_bad) == 0);
  CHECK(r.model.stats.hasDataLoss());
  CHECK(r.model.events.size() == 2);  // the events that were written are all kept
  const std::vector<std::string> lines = importStatLines(r.model.stats);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("13852 x recorder_dropped_events [data-loss]: ", 0) == 0);
  CHECK(lines[0].find("STEPLINT_MAX_BUFFER_MB") != std::string::npos);
  CHECK(lines[1].rfind("30600 x recorder_dropped_gpu_records [data-loss]: ", 0) == 0);
}

TEST_CASE("recorder metadata: zero counts and absent keys are a complete recording",
          "[trace][recorder]") {
  const auto zero =
      importJson(recorded(key(kDroppedEventsKey, "0") + key(kDroppedActivityRecordsKey, " 0 ")));
  REQUIRE(zero.status.ok());
  CHECK_FALSE(zero.model.stats.hasDataLoss());
  CHECK(zero.model.stats.get(Stat::recorder_metadata_bad) == 0);
  CHECK(importStatLines(zero.model.stats).empty());

  const auto absent = importJson(recorded(""));
  REQUIRE(absent.status.ok());
  CHECK_FALSE(absent.model.stats.hasDataLoss());
  CHECK(absent.model.stats.total(StatSeverity::kError) == 0);
  CHECK(absent.model.metadata.stopped_early_reason.empty());
}

TEST_CASE("recorder metadata: counts that are not non-negative integers are not trusted",
          "[trace][recorder]") {
  for (const std::string raw : {"-5", "1e3", "12.5", "\"7\"", "null", "true", "[3]", "{}",
                                "18446744073709551616" /* 2^64 */, "99999999999999999999999"}) {
    INFO(raw);
    const auto r = importJson(recorded(key(kDroppedEventsKey, raw)));
    REQUIRE(r.status.ok());
    CHECK(r.model.stats.get(Stat::recorder_dropped_events) == 0);
    CHECK(r.model.stats.get(Stat::recorder_metadata_bad) == 1);
    CHECK(r.model.events.size() == 2);
  }
  const auto max = importJson(recorded(key(kDroppedActivityRecordsKey, "18446744073709551615")));
  CHECK(max.model.stats.get(Stat::recorder_dropped_gpu_records) == UINT64_MAX);
}

TEST_CASE("recorder metadata: an early stop is data loss with its reason on one line",
          "[trace][recorder]") {
  const auto r = importJson(
      recorded(key(kDroppedEventsKey, "0") +
               key(kStoppedEarlyKey, R"("the trainer closed stdout;\nstopped at step 4")")));
  REQUIRE(r.status.ok());
  CHECK(r.model.stats.get(Stat::recorder_stopped_early) == 1);
  CHECK(r.model.stats.hasDataLoss());
  CHECK(r.model.metadata.stopped_early_reason == "the trainer closed stdout; stopped at step 4");

  const auto empty = importJson(recorded(key(kStoppedEarlyKey, R"("")")));
  CHECK(empty.model.stats.get(Stat::recorder_stopped_early) == 1);
  CHECK(empty.model.metadata.stopped_early_reason.empty());

  const auto garbage = importJson(recorded(key(kStoppedEarlyKey, "42")));
  CHECK(garbage.model.stats.get(Stat::recorder_stopped_early) == 0);
  CHECK(garbage.model.stats.get(Stat::recorder_metadata_bad) == 1);
}

TEST_CASE("recorder metadata: a long reason is capped, a repeated key counts once",
          "[trace][recorder]") {
  const auto r = importJson(recorded(key(kStoppedEarlyKey, "\"" + std::string(1000, 'x') + "\"") +
                                     key(kDroppedEventsKey, "5") + key(kDroppedEventsKey, "7")));
  REQUIRE(r.status.ok());
  CHECK(r.model.metadata.stopped_early_reason == std::string(300, 'x') + "...");
  CHECK(r.model.stats.get(Stat::recorder_dropped_events) ==
        7);  // the last value, as a JSON reader keeps

  // Top-level text over 4 KiB is kept cut (and so no longer valid JSON): not trusted.
  const auto huge =
      importJson(recorded(key(kStoppedEarlyKey, "\"" + std::string(5000, 'x') + "\"")));
  CHECK(huge.model.stats.get(Stat::recorder_stopped_early) == 0);
  CHECK(huge.model.stats.get(Stat::recorder_metadata_bad) == 1);
}

TEST_CASE("recorder metadata: keys before traceEvents count too", "[trace][recorder]") {
  const auto r = importJson(R"({"steplint_dropped_events": 12, "traceEvents": []})");
  REQUIRE(r.status.ok());
  CHECK(r.model.stats.get(Stat::recorder_dropped_events) == 12);
}

TEST_CASE(
    "recorder metadata: the import hook's distributed_backend fills an empty distributedInfo.backend",
    "[trace][recorder]") {
  const std::string header =
      R"J({"schemaVersion": 1, "distributedInfo": {"rank": 1, "world_size": 2}, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50}
  ])J";
  const auto filled = importJson(header + key(kDistributedBackendKey, "\"gloo\"") + "}");
  REQUIRE(filled.status.ok());
  CHECK(filled.model.metadata.distributed.rank == 1);
  CHECK(filled.model.metadata.distributed.backend == "gloo");

  // A backend torch.profiler wrote itself stays; a value that is no string is ignored.
  const std::string with_backend =
      R"J({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2}, "traceEvents": []
    )J";
  const auto kept = importJson(with_backend + key(kDistributedBackendKey, "\"gloo\"") + "}");
  REQUIRE(kept.status.ok());
  CHECK(kept.model.metadata.distributed.backend == "nccl");
  const auto bad = importJson(header + key(kDistributedBackendKey, "7") + "}");
  REQUIRE(bad.status.ok());
  CHECK(bad.model.metadata.distributed.backend.empty());
}
