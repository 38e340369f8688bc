// The only place that reads environment variables (docs/reference/style.md §2.9).
#include "config.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <limits>

#include "process_info.h"
#include "steplint/trace/trace_file_names.h"

namespace steplint::collector {
namespace {

bool parseInt(const char* text, int64_t min_value, int64_t max_value, int64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  while (end != nullptr && (*end == ' ' || *end == '\t')) ++end;
  if (errno != 0 || end == text || *end != '\0' || v < min_value || v > max_value) return false;
  *out = v;
  return true;
}

bool parseBool(const char* text, bool* out) {
  std::string s(text);
  if (s == "1" || s == "true" || s == "on" || s == "yes") {
    *out = true;
    return true;
  }
  if (s == "0" || s == "false" || s == "off" || s == "no") {
    *out = false;
    return true;
  }
  return false;
}

// Collects warnings for one parse; each names the variable, the bad value and what was kept.
class Reader {
 public:
  Reader(const EnvLookup& env, std::vector<std::string>* warnings)
      : env_(env), warnings_(warnings) {}

  const char* get(const char* name) const {
    const char* v = env_ ? env_(name) : nullptr;
    return (v != nullptr && *v != '\0') ? v : nullptr;
  }
  void bad(const char* name, const char* value, const std::string& expected) {
    ok_ = false;
    if (warnings_ != nullptr) {
      warnings_->push_back(std::string("steplint: ignoring ") + name + "=\"" + value +
                           "\": expected " + expected + "; using the default");
    }
  }
  void readBool(const char* name, bool* field) {
    const char* v = get(name);
    if (v != nullptr && !parseBool(v, field)) bad(name, v, "0 or 1");
  }
  template <typename T>
  void readInt(const char* name, int64_t min_value, int64_t max_value, T* field,
               const char* expected) {
    const char* v = get(name);
    int64_t parsed = 0;
    if (v == nullptr) return;
    if (parseInt(v, min_value, max_value, &parsed)) {
      *field = static_cast<T>(parsed);
    } else {
      bad(name, v, expected);
    }
  }
  bool ok() const { return ok_; }

 private:
  const EnvLookup& env_;
  std::vector<std::string>* warnings_;
  bool ok_ = true;
};

}  // namespace

EnvLookup processEnv() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

bool parseSchedule(const std::string& text, ScheduleConfig* out) {
  std::vector<std::string> parts;
  size_t pos = 0;
  for (;;) {
    size_t comma = text.find(',', pos);
    parts.push_back(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (parts.size() < 3 || parts.size() > 4) return false;
  int64_t values[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parseInt(parts[i].c_str(), 0, std::numeric_limits<int32_t>::max(), &values[i]))
      return false;
  }
  if (values[2] < 1) return false;  // torch.profiler.schedule requires active >= 1
  out->enabled = true;
  out->wait = values[0];
  out->warmup = values[1];
  out->active = values[2];
  out->repeat = values[3];
  return true;
}

bool parseConfig(const EnvLookup& env, CollectorConfig* config,
                 std::vector<std::string>* warnings) {
  Reader r(env, warnings);
  if (const char* v = r.get("STEPLINT_OUTPUT")) config->output_path = v;
  if (const char* v = r.get("STEPLINT_STATUS_FD")) config->status_channel = v;
  if (const char* v = r.get("STEPLINT_TRACE_NAME")) config->trace_name = v;
  r.readBool("STEPLINT_SHAPES", &config->record_shapes);
  r.readBool("STEPLINT_TORCH", &config->enable_torch);
  r.readBool("STEPLINT_CUPTI", &config->enable_cupti);
  r.readBool("STEPLINT_CUPTI_DRIVER", &config->cupti_driver);
  r.readBool("STEPLINT_CUPTI_SYNC", &config->cupti_sync);
  r.readBool("STEPLINT_CUPTI_CLOCK_CALLBACK", &config->cupti_clock_callback);
  r.readBool("STEPLINT_CUPTI_API_FILTER", &config->cupti_api_filter);
  r.readBool("STEPLINT_NVTX", &config->enable_nvtx);
  r.readBool("STEPLINT_RECORD", &config->autostart);
  if (const char* v = r.get("STEPLINT_SCHEDULE")) {
    ScheduleConfig schedule;
    if (parseSchedule(v, &schedule)) {
      config->schedule = schedule;
    } else {
      r.bad("STEPLINT_SCHEDULE", v, "wait,warmup,active[,repeat] with active >= 1");
    }
  }
  int64_t mb = 0;
  r.readInt("STEPLINT_MAX_BUFFER_MB", 1, int64_t{1} << 20, &mb, "an integer 1..1048576 (MiB)");
  if (mb > 0) config->max_buffer_bytes = static_cast<uint64_t>(mb) << 20;
  r.readInt("STEPLINT_FLUSH_MS", 10, 3600 * 1000, &config->flush_interval_ms,
            "an integer 10..3600000 (ms)");
  r.readInt("RANK", 0, 1 << 24, &config->rank, "a non-negative integer");
  r.readInt("LOCAL_RANK", 0, 1 << 24, &config->local_rank, "a non-negative integer");
  r.readInt("WORLD_SIZE", 1, 1 << 24, &config->world_size, "a positive integer");
  // Set by the Python import hook for a rank that torch.multiprocessing.spawn started, whose
  // rank only init_process_group knows (it sets ours, not the program's RANK).
  r.readInt("STEPLINT_RANK", 0, 1 << 24, &config->rank, "a non-negative integer");
  r.readInt("STEPLINT_WORLD_SIZE", 1, 1 << 24, &config->world_size, "a positive integer");
  // torchrun starts every rank with the same STEPLINT_OUTPUT: each writes its own file.
  if (config->rank >= 0 && config->world_size != 1) {
    const std::string tag = trace::rankTag(config->rank);
    if (!config->output_path.empty())
      config->output_path = trace::processTracePath(config->output_path, tag);
    if (!config->trace_name.empty())
      config->trace_name = trace::processTracePath(config->trace_name, tag);
  }
  return r.ok();
}

std::string defaultOutputPath(int rank) {
  int64_t epoch_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  std::string worker = hostName();
  if (worker.empty()) worker = "localhost";
  if (rank >= 0) worker += "_rank" + std::to_string(rank);
  worker += "_" + std::to_string(static_cast<long>(getpid()));
  return worker + "." + std::to_string(epoch_ms) + ".pt.trace.json.gz";
}

}  // namespace steplint::collector
