// slow_trainer's mistake switches (--mistakes, --fix): they parse, the startup line names what
// is on (bench/savings reads it), and a single fix removes its own finding and no other.
#include <catch2/catch.hpp>

#include "e2e_support.h"

namespace steplint::e2e {
namespace {

constexpr const char* kAllMistakes =
    "loader-inline,item-sync,zero-grad-fill,pageable-copy,cpu-scalar,batch-unaligned,cudnn-benchmark-off,"
    "fp32-matmul";

struct Run {
  int rc;
  std::string output;
};

Run runTrainer(const std::string& name, std::vector<std::string> argv) {
  const std::string log = scratchPath(name + ".log");
  const int rc = runProcess(argv, {}, log);
  return {rc, readFile(log)};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("slow_trainer prints the mistakes that are on and its batch, then trains", "[torch]") {
  struct Case {
    std::vector<std::string> switches;
    std::string line;
  };
  const std::vector<Case> cases = {
      {{},
       std::string("slow_trainer: mistakes ") + kAllMistakes +
           " (batch 100)\n"},  // the default: all
      {{"--mistakes", "none"}, "slow_trainer: mistakes none (batch 128)\n"},
      {{"--fix", "item-sync,batch-unaligned"},
       "slow_trainer: mistakes loader-inline,zero-grad-fill,pageable-copy,cpu-scalar,cudnn-benchmark-off,"
       "fp32-matmul (batch 128)\n"},
      // --fix applies after --mistakes whatever the order.
      {{"--fix", "zero-grad-fill", "--mistakes", "zero-grad-fill,item-sync"},
       "slow_trainer: mistakes item-sync (batch 128)\n"},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::vector<std::string> argv = {SLOW_TRAINER, "--steps", "2"};
    argv.insert(argv.end(), c.switches.begin(), c.switches.end());
    const Run run = runTrainer("switch_" + std::to_string(n++), argv);
    INFO(run.output);
    CHECK(run.rc == 0);
    CHECK(contains(run.output, c.line));
    CHECK(contains(run.output, "slow_trainer: 2 steps, mean step "));
  }
}

TEST_CASE("slow_trainer: an unknown mistake is a usage error listing the valid names", "[torch]") {
  const Run run =
      runTrainer("switch_bad", {SLOW_TRAINER, "--mistakes", "item-sync,no-such", "--steps", "2"});
  INFO(run.output);
  CHECK(run.rc == 2);
  CHECK(contains(run.output, "unknown mistake 'no-such' in --mistakes"));
  CHECK(contains(run.output,
                 std::string("mistake names: all, none, ") +
                     "loader-inline, item-sync, zero-grad-fill, pageable-copy, cpu-scalar, "
                     "batch-unaligned, cudnn-benchmark-off, fp32-matmul\n"));
  CHECK_FALSE(contains(run.output, "mean step"));
  CHECK(runTrainer("switch_empty", {SLOW_TRAINER, "--fix", "", "--steps", "2"}).rc == 2);
  CHECK(runTrainer("switch_fast", {FAST_TRAINER, "--fix", "item-sync", "--steps", "2"}).rc == 2);
}

TEST_CASE("slow_trainer: one fix removes its own finding and keeps the others", "[torch]") {
  const LintedTrace& loader =
      recordSample("fix_loader.json",
                   {SLOW_TRAINER, "--steps", "8", "--steplint-steps", "--fix", "loader-inline"});
  CHECK_FALSE(loader.notChecked("SL101"));
  CHECK(loader.finding("SL101") == nullptr);
  CHECK(loader.finding("SL601") != nullptr);

  const LintedTrace& zero =
      recordSample("fix_zero.json",
                   {SLOW_TRAINER, "--steps", "8", "--steplint-steps", "--fix", "zero-grad-fill"});
  CHECK_FALSE(zero.notChecked("SL601"));
  CHECK(zero.finding("SL601") == nullptr);
  CHECK(zero.finding("SL101") != nullptr);
  CHECK(zero.countNamed("aten::item") == 8);  // item-sync is still on
}

}  // namespace steplint::e2e
