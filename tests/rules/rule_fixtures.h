// Real traces for the rule tests: the shared real-world fixtures (a test case that needs an
// absent one is skipped with 77, tests/common/fixtures.h) and the traces kept in tests/data.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <string_view>

#include "fixtures.h"
#include "rule_test_util.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"

namespace steplint::test {

inline constexpr const char* kResnetWorkers0 =
    "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
inline constexpr const char* kResnetWorkers4 =
    "kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
inline constexpr const char* kCpuOnly =
    "hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";
inline constexpr const char* kNcclDdp = "hta/nccl_parser_config/nccl_data.json.gz";

/// Imports a shared real-world trace; skips the test case when it is absent.
inline trace::TraceModel loadFixture(const std::string& relative) {
  const std::string path = requireFixture(relative);
  trace::TraceModel model;
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  return model;
}

inline RuleRun runRuleOnFile(std::string_view code, const std::string& path,
                             const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  trace::TraceModel model;
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  return runRule(code, model, overrides);
}

inline RuleRun runRuleOnFixture(
    std::string_view code, const std::string& relative,
    const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  return runRuleOnFile(code, requireFixture(relative), overrides);
}

/// PyTorch 1.13 CPU traces recorded by tests/data/torch113/record.py (always present).
inline RuleRun runRuleOnTorch113(
    std::string_view code, const std::string& name,
    const std::map<std::string, analyzer::OptionValue>& overrides = {}) {
  return runRuleOnFile(code, testDataPath("torch113/" + name + ".json.gz"), overrides);
}

}  // namespace steplint::test
