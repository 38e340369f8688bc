#include "output_path.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "steplint/trace/trace_file_names.h"
#include "steplint/trace/trace_head.h"

namespace steplint::collector {

bool takenByAnotherProcess(const CollectorConfig& config) {
  std::error_code ec;
  return !config.trace_name.empty() && std::filesystem::file_size(config.output_path, ec) > 0 &&
         !ec;
}

bool namesUsersFile(const CollectorConfig& config) {
  return config.trace_name.empty() && !trace::mayReplaceWithTrace(config.output_path);
}

void moveBeside(CollectorConfig& config, bool users_file, std::vector<std::string>& warnings) {
  const std::string tag = trace::pidTag(static_cast<int64_t>(getpid()));
  const std::string asked = config.output_path;
  config.output_path = trace::processTracePath(config.output_path, tag);
  if (!config.trace_name.empty())
    config.trace_name = trace::processTracePath(config.trace_name, tag);
  if (!users_file) return;
  // "train.py.pid7.pt.trace.json", so that a folder's readers take it for a trace.
  if (trace::traceSuffix(config.output_path).empty()) config.output_path += ".pt.trace.json";
  const std::string said = "steplint: " + asked + " is not a trace: kept; recording to " +
                           config.output_path + " instead";
  std::fprintf(stderr, "%s\n", said.c_str());
  warnings.push_back(said);
}

}  // namespace steplint::collector
