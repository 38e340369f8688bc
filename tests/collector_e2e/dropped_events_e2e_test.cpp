// Events the collector drops at its buffer cap reach the user (issue 12, item 4): recorded for
// real with a 1 MiB cap, then imported and linted like `steplint check` does.
#include <catch2/catch.hpp>

#include "e2e_support.h"
#include "steplint/trace/import_stats.h"

namespace steplint::e2e {

TEST_CASE("a recording over its buffer cap is SL001 with the dropped count", "[torch]") {
  // 10 steps of the slow sample write ~15,000 host events between two flushes at most once a
  // second: a 1 MiB cap drops most of them (13,852 in the run).
  const LintedTrace& t = recordSample("capped.json", {SLOW_TRAINER, "--steps", "10"},
                                      {{"STEPLINT_MAX_BUFFER_MB", "1"}});
  const uint64_t dropped = t.model.stats.get(trace::Stat::recorder_dropped_events);
  CHECK(dropped > 0);
  CHECK(t.json.value("steplint_dropped_events", uint64_t{0}) ==
        dropped);  // the real count, as written
  const analyzer::Diagnostic* d = t.finding("SL001");
  REQUIRE(d != nullptr);
  INFO(d->message);
  CHECK(d->evidence.metric("recorder_dropped_events") == Approx(static_cast<double>(dropped)));
  CHECK(d->message.find(std::to_string(dropped) +
                        " host events dropped at the collector's buffer cap") != std::string::npos);

  const LintedTrace& roomy = recordSample("uncapped.json", {SLOW_TRAINER, "--steps", "10"});
  CHECK(roomy.model.stats.get(trace::Stat::recorder_dropped_events) == 0);
  CHECK(roomy.finding("SL001") == nullptr);
}

}  // namespace steplint::e2e
