// Helpers for importer tests: import inline JSON and find events.
#pragma once

#include <string>
#include <string_view>

#include "steplint/trace/importer.h"

namespace steplint::test {

struct Imported {
  trace::ImportStatus status;
  trace::TraceModel model;
};

inline Imported importJson(std::string_view json, trace::ImportOptions options = {}) {
  Imported r;
  r.status = trace::importTraceBytes(json, r.model, options, "inline.json");
  return r;
}

/// First complete event with this name, or nullptr.
inline const trace::Event* findEvent(const trace::TraceModel& m, std::string_view name) {
  for (const auto& e : m.events)
    if (m.name(e) == name) return &e;
  return nullptr;
}

}  // namespace steplint::test
