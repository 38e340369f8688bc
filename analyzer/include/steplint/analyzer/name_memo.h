// A yes/no property of event names, decided once per distinct name. Traces repeat a few
// thousand names over millions of events, so testing the interned id against a memo instead
// of running string compares per event removes most of a name-based scan's cost.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// `classify(std::string_view name)`, memoized by StringId; its Result type must be cheap to
/// copy (bool, an enum, an int). Not thread-safe: make one per scan.
template <typename Classify>
class NameMemo {
 public:
  using Result = decltype(std::declval<Classify&>()(std::string_view()));

  NameMemo(const trace::TraceModel& model, Classify classify)
      : model_(model),
        classify_(std::move(classify)),
        known_(model.strings.size(), 0),
        values_(known_.size()) {}

  Result operator()(trace::StringId name) {
    if (name >= known_.size()) return classify_(model_.str(name));
    if (!known_[name]) {
      values_[name] = classify_(model_.str(name));
      known_[name] = 1;
    }
    return values_[name];
  }

 private:
  const trace::TraceModel& model_;
  Classify classify_;
  std::vector<uint8_t> known_;
  std::vector<Result> values_;  // std::vector<bool> when Result is bool: fine, it is only read back
};

}  // namespace steplint::analyzer
