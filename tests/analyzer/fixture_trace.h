// Importing the shared real-world traces in analyzer tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "fixtures.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/model.h"

namespace steplint::test {

/// Imports a fixture (skipping the test when it is absent) and requires the import to succeed.
inline void importFixture(const std::string& relative, trace::TraceModel& model) {
  const std::string path = requireFixture(relative);
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  REQUIRE_FALSE(model.events.empty());
}

}  // namespace steplint::test
