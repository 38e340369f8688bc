// The collector's configuration, read from STEPLINT_* environment variables in config.cpp only
// (docs/reference/style.md §2.9). Bad values never abort the trainer: each produces one warning
// line naming the variable and the value, and the default is kept.
//
//   CollectorConfig config;
//   std::vector<std::string> warnings;
//   parseConfig(processEnv(), &config, &warnings);   // tests pass their own EnvLookup
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace steplint::collector {

/// torch.profiler.schedule(wait, warmup, active, repeat); enabled == false: record everything.
struct ScheduleConfig {
  bool enabled = false;
  int64_t wait = 0;
  int64_t warmup = 0;
  int64_t active = 1;
  int64_t repeat = 0;  // 0 = repeat forever
};

struct CollectorConfig {
  std::string output_path;     // empty = defaultOutputPath() at start
  std::string trace_name;      // STEPLINT_TRACE_NAME: "traceName" when the file is renamed later
                               // (steplint record); empty = output_path
  bool record_shapes = false;  // STEPLINT_SHAPES
  ScheduleConfig schedule;     // STEPLINT_SCHEDULE "wait,warmup,active,repeat"
  bool enable_torch = true;    // STEPLINT_TORCH=0 disables
  bool enable_cupti = true;    // STEPLINT_CUPTI=0 disables
  std::string cupti_off_why;   // when CUPTI is off for another reason than STEPLINT_CUPTI=0
  bool cupti_driver = true;    // STEPLINT_CUPTI_DRIVER=0: no driver-API records (Triton launches)
  bool cupti_sync = true;      // STEPLINT_CUPTI_SYNC=0: no synchronization records
  bool cupti_clock_callback = true;  // STEPLINT_CUPTI_CLOCK_CALLBACK=0: CUPTI's clock + offset
  bool cupti_api_filter = true;      // STEPLINT_CUPTI_API_FILTER=0: every driver call to CUPTI
  bool enable_nvtx = true;           // STEPLINT_NVTX=0 disables
  uint64_t max_buffer_bytes = uint64_t{256} << 20;  // STEPLINT_MAX_BUFFER_MB
  int64_t flush_interval_ms = 1000;                 // STEPLINT_FLUSH_MS
  bool autostart = false;      // STEPLINT_RECORD=1 (the preload library starts a session)
  int rank = -1;               // RANK; -1 = not set (the trace says rank 0)
  int local_rank = -1;         // LOCAL_RANK
  int world_size = -1;         // WORLD_SIZE
  std::string status_channel;  // STEPLINT_STATUS_FD "<fd>:<inode>", set by steplint record
                               // (status_channel.h)
};

/// Returns the value of an environment variable or nullptr; injectable for tests.
using EnvLookup = std::function<const char*(const char*)>;

/// The process environment (std::getenv).
EnvLookup processEnv();

/// Fills *config from env. Returns false when a value was bad (a line per problem goes to
/// *warnings, prefixed "steplint: "; the default was kept). Never throws.
bool parseConfig(const EnvLookup& env, CollectorConfig* config, std::vector<std::string>* warnings);

/// Parses "wait,warmup,active,repeat" (repeat optional, default 0). False on bad text.
bool parseSchedule(const std::string& text, ScheduleConfig* out);

/// "<host>_<pid>.<epoch_ms>.pt.trace.json.gz" (tb_plugin worker naming); with rank >= 0 the
/// worker part is "<host>_rank<R>_<pid>".
std::string defaultOutputPath(int rank);

}  // namespace steplint::collector
