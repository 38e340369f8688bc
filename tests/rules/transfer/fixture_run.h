// Runs one rule on a shared real-world trace (skips the test case when it is absent).
#pragma once

#include <string>

#include "../rule_test_util.h"
#include "fixtures.h"
#include "steplint/trace/importer.h"

namespace steplint::test {

inline constexpr const char* kResnetWorkers0 = "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
inline constexpr const char* kResnetWorkers4 = "kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
inline constexpr const char* kCpuOnly = "hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";

inline RuleRun runRuleOnFixture(std::string_view code, const std::string& relative,
                                const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  const std::string path = requireFixture(relative);
  trace::TraceModel model;
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  return runRule(code, model, overrides);
}

}  // namespace steplint::test
