// parseConfig with an injected environment: good values, bad values (warning + default).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "config.h"

using steplint::collector::CollectorConfig;
using steplint::collector::EnvLookup;
using steplint::collector::parseConfig;

namespace {
EnvLookup envOf(const std::map<std::string, std::string>& values) {
  return [values](const char* name) -> const char* {
    auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
}
}  // namespace

TEST_CASE("config: defaults without any variable") {
  CollectorConfig c;
  std::vector<std::string> warnings;
  CHECK(parseConfig(envOf({}), &c, &warnings));
  CHECK(warnings.empty());
  CHECK(c.output_path.empty());
  CHECK_FALSE(c.schedule.enabled);
  CHECK(c.enable_torch);
  CHECK(c.enable_cupti);
  CHECK(c.cupti_driver);
  CHECK(c.cupti_sync);
  CHECK(c.enable_nvtx);
  CHECK_FALSE(c.record_shapes);
  CHECK_FALSE(c.autostart);
  CHECK(c.max_buffer_bytes == (uint64_t{256} << 20));
  CHECK(c.flush_interval_ms == 1000);
  CHECK(c.rank == -1);
}

TEST_CASE("config: good values are taken") {
  CollectorConfig c;
  std::vector<std::string> warnings;
  CHECK(parseConfig(envOf({{"STEPLINT_OUTPUT", "out/t.pt.trace.json"},
                           {"STEPLINT_SCHEDULE", "1,2,3,4"},
                           {"STEPLINT_SHAPES", "1"},
                           {"STEPLINT_CUPTI", "0"},
                           {"STEPLINT_TORCH", "0"},
                           {"STEPLINT_CUPTI_DRIVER", "0"},
                           {"STEPLINT_CUPTI_SYNC", "off"},
                           {"STEPLINT_NVTX", "false"},
                           {"STEPLINT_MAX_BUFFER_MB", "64"},
                           {"STEPLINT_FLUSH_MS", "250"},
                           {"STEPLINT_RECORD", "1"},
                           {"RANK", "3"},
                           {"LOCAL_RANK", "1"},
                           {"WORLD_SIZE", "8"},
                           {"STEPLINT_STATUS_FD", "5:1234"},
                           {"STEPLINT_TRACE_NAME", "/runs/t.json"}}),
                    &c, &warnings));
  CHECK(warnings.empty());
  CHECK(c.output_path ==
        "out/t.rank3.pt.trace.json");  // a rank of 8 writes a file of its own (#16)
  CHECK(c.schedule.enabled);
  CHECK(c.schedule.wait == 1);
  CHECK(c.schedule.warmup == 2);
  CHECK(c.schedule.active == 3);
  CHECK(c.schedule.repeat == 4);
  CHECK(c.record_shapes);
  CHECK_FALSE(c.enable_cupti);
  CHECK_FALSE(c.cupti_driver);
  CHECK_FALSE(c.cupti_sync);
  CHECK_FALSE(c.enable_torch);
  CHECK_FALSE(c.enable_nvtx);
  CHECK(c.max_buffer_bytes == (uint64_t{64} << 20));
  CHECK(c.flush_interval_ms == 250);
  CHECK(c.autostart);
  CHECK(c.rank == 3);
  CHECK(c.local_rank == 1);
  CHECK(c.world_size == 8);
  CHECK(c.status_channel == "5:1234");
  CHECK(c.trace_name == "/runs/t.rank3.json");
}

TEST_CASE("config: the output path gets the rank only in a world of several ranks (#16)") {
  CollectorConfig single;
  std::vector<std::string> warnings;
  CHECK(parseConfig(envOf({{"STEPLINT_OUTPUT", "t.json.gz"}, {"RANK", "0"}, {"WORLD_SIZE", "1"}}),
                    &single, &warnings));
  CHECK(single.output_path == "t.json.gz");
  CollectorConfig unknown_world;  // RANK without WORLD_SIZE: a rank of a world of unknown size
  CHECK(parseConfig(envOf({{"STEPLINT_OUTPUT", "t.json.gz"}, {"RANK", "2"}}), &unknown_world,
                    &warnings));
  CHECK(unknown_world.output_path == "t.rank2.json.gz");
  CollectorConfig no_rank;
  CHECK(parseConfig(envOf({{"STEPLINT_OUTPUT", "t.json.gz"}, {"WORLD_SIZE", "4"}}), &no_rank,
                    &warnings));
  CHECK(no_rank.output_path == "t.json.gz");
}

TEST_CASE("config: STEPLINT_RANK and STEPLINT_WORLD_SIZE (a spawned rank) win over RANK (#16)") {
  CollectorConfig spawned;
  std::vector<std::string> warnings;
  CHECK(parseConfig(envOf({{"STEPLINT_OUTPUT", "t.json.gz"},
                           {"RANK", "0"},
                           {"STEPLINT_RANK", "3"},
                           {"STEPLINT_WORLD_SIZE", "4"}}),
                    &spawned, &warnings));
  CHECK(spawned.rank == 3);
  CHECK(spawned.world_size == 4);
  CHECK(spawned.output_path == "t.rank3.json.gz");
  CollectorConfig bad;
  CHECK_FALSE(parseConfig(envOf({{"STEPLINT_RANK", "-1"}}), &bad, &warnings));
  CHECK(bad.rank == -1);
}

TEST_CASE("config: a schedule without repeat repeats forever") {
  CollectorConfig c;
  CHECK(parseConfig(envOf({{"STEPLINT_SCHEDULE", "0,1,2"}}), &c, nullptr));
  CHECK(c.schedule.enabled);
  CHECK(c.schedule.repeat == 0);
}

TEST_CASE("config: each bad value gives one warning naming variable and value, default kept") {
  CollectorConfig c;
  std::vector<std::string> warnings;
  CHECK_FALSE(parseConfig(envOf({{"STEPLINT_SCHEDULE", "1,x,3"},
                                 {"STEPLINT_SHAPES", "maybe"},
                                 {"STEPLINT_MAX_BUFFER_MB", "-5"},
                                 {"STEPLINT_FLUSH_MS", "12abc"},
                                 {"RANK", "two"}}),
                          &c, &warnings));
  REQUIRE(warnings.size() == 5);
  for (const auto& w : warnings) CHECK(w.rfind("steplint: ", 0) == 0);
  CHECK(warnings[0].find("STEPLINT_SHAPES=\"maybe\"") != std::string::npos);
  CHECK(warnings[1].find("STEPLINT_SCHEDULE=\"1,x,3\"") != std::string::npos);
  CHECK(warnings[2].find("STEPLINT_MAX_BUFFER_MB=\"-5\"") != std::string::npos);
  CHECK(warnings[3].find("STEPLINT_FLUSH_MS=\"12abc\"") != std::string::npos);
  CHECK(warnings[4].find("RANK=\"two\"") != std::string::npos);
  CHECK_FALSE(c.schedule.enabled);
  CHECK_FALSE(c.record_shapes);
  CHECK(c.max_buffer_bytes == (uint64_t{256} << 20));
  CHECK(c.flush_interval_ms == 1000);
  CHECK(c.rank == -1);
}

TEST_CASE("config: schedules with active 0 or too many fields are rejected") {
  steplint::collector::ScheduleConfig s;
  CHECK_FALSE(steplint::collector::parseSchedule("1,1,0,1", &s));
  CHECK_FALSE(steplint::collector::parseSchedule("1,1,1,1,1", &s));
  CHECK_FALSE(steplint::collector::parseSchedule("1,1", &s));
  CHECK_FALSE(steplint::collector::parseSchedule("", &s));
  CHECK(steplint::collector::parseSchedule(" 1, 2 ,3", &s));  // blanks around fields are fine
  CHECK(s.warmup == 2);
  CHECK(steplint::collector::parseSchedule("0,0,1,0", &s));
}

TEST_CASE("config: default output name follows the tb_plugin worker pattern") {
  std::string plain = steplint::collector::defaultOutputPath(-1);
  std::string ranked = steplint::collector::defaultOutputPath(2);
  CHECK(plain.size() > std::string(".pt.trace.json.gz").size());
  CHECK(plain.substr(plain.size() - 17) == ".pt.trace.json.gz");
  CHECK(ranked.find("_rank2_") != std::string::npos);
  CHECK(plain.find("_rank") == std::string::npos);
}
