// Imports a shared real-world trace for rule acceptance tests (skips with 77 when absent).
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "fixtures.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"

namespace steplint::test {

inline constexpr const char* kResnet0 = "kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
inline constexpr const char* kResnet4 = "kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
inline constexpr const char* kCpuOnly = "hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";
inline constexpr const char* kNcclDdp = "hta/nccl_parser_config/nccl_data.json.gz";

inline trace::TraceModel loadFixture(const std::string& relative) {
  const std::string path = requireFixture(relative);
  trace::TraceModel model;
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  return model;
}

}  // namespace steplint::test
