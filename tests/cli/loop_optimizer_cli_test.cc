// The memory-bound loop optimizer on the command line (docs/msa.md,
// "Memory-bound loop optimizer"): the flags, the loop in the summary and the
// JSON plan, `memplan verify` and `memplan execute` of such a plan, default
// mode keeping it only when faster, and the refusals.
#include <fstream>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing_cli::CliRun;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kLoop = MEMPLAN_SOURCE_DIR "/tests/data/mpir/unrolled_loop.mpir";
const std::string kPlan = "plan " + kLoop + " --target " MEMPLAN_SOURCE_DIR
                          "/tests/data/msa/unrolled_loop_target.json ";

TEST(LoopOptimizerCliTest, LoopInTheSummaryAndTheJsonPlan) {
  const std::string json = TestTempPath("loop_optimizer_cli.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference --loop-optimizer --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(
      "memory-bound loop: steps 1..12, period 3, 4 iterations (8 temporary, 4 loop-carried, "
      "1 pinned, 5 prefetch, 0 other); steady-state iteration 7.04e-09 s (was 9.6e-09 s without "
      "the loop optimizer)\n"
      "estimated time: 3.776e-08 s"));
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr(
      "\"loops\":[{\"start\":1,\"period\":3,\"iterations\":4,\"chosen\":true,"
      "\"steady_state_iteration_s\":7.039999999999998e-09,"
      "\"steady_state_without_s\":9.599999999999998e-09,\"temporary\":8,\"loop_carried\":4,"
      "\"pinned\":1,\"prefetch\":5,\"other\":0}]"));
  EXPECT_THAT(plan, HasSubstr("\"loop_optimizer_min_iterations\":3"));
  // Each weight's copy issued after the previous iteration's matmul.
  EXPECT_THAT(plan, HasSubstr("\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":4,"
                              "\"done\":7,\"bytes\":256}"));
  CliRun verify = Memplan("verify " + kLoop + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  CliRun execute = Memplan("execute " + kLoop + " " + json);
  EXPECT_EQ(execute.exit_code, 0) << execute.err;
  EXPECT_THAT(execute.out, HasSubstr("every read found its producer's data"));
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Replaces the first `from` in `text` by `to`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(LoopOptimizerCliTest, VerifierChecksTheLoop) {
  const std::string json = TestTempPath("loop_optimizer_cli_rules.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference --loop-optimizer -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  const std::string bad = TestTempPath("loop_optimizer_cli_bad.json");
  // Four iterations of 3 steps from step 3 end past the 14 steps.
  WriteFile(bad, Replace(plan, "\"loops\":[{\"start\":1,", "\"loops\":[{\"start\":3,"));
  CliRun v = Memplan("verify " + kLoop + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("the MSA statistics' loop 0 (start 3, period 3, 4 iterations) "
                               "does not lie in the schedule's 14 steps"));
  // A steady state slower than the whole run.
  WriteFile(bad, Replace(plan, "\"steady_state_iteration_s\":7.039999999999998e-09",
                         "\"steady_state_iteration_s\":1.0"));
  v = Memplan("verify " + kLoop + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("reports a steady-state iteration of"));
  // A time without the optimizer for a loop the plan did not use.
  WriteFile(bad, Replace(plan, "\"chosen\":true", "\"chosen\":false"));
  v = Memplan("verify " + kLoop + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("(chosen: false)"));
  // A malformed loop entry is bad input, located.
  WriteFile(bad, Replace(plan, "\"period\":3", "\"period\":0"));
  v = Memplan("verify " + kLoop + " " + bad);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_THAT(v.err, HasSubstr("/msa/loops/0/period"));
}

TEST(LoopOptimizerCliTest, WithoutTheFlagNothingChanges) {
  const std::string json = TestTempPath("loop_optimizer_cli_off.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("memory-bound loop")));
  EXPECT_THAT(r.out, HasSubstr("estimated time: 4.544e-08 s"));
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, Not(HasSubstr("\"loops\"")));
  EXPECT_THAT(plan, Not(HasSubstr("loop_optimizer")));
}

TEST(LoopOptimizerCliTest, DefaultModeKeepsItOnlyWhenFaster) {
  CliRun on = Memplan(kPlan + "--loop-optimizer");
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_THAT(on.out, HasSubstr("(default mode, variant reference-loop)"));
  EXPECT_THAT(on.out, HasSubstr("estimated time: 3.776e-08 s"));
  // The kept plan's steady state equals that of the fastest plan without
  // the optimizer (7.04 ns): its gain (4.224e-08 -> 3.776e-08 s) lies in
  // the iterations outside the steady state, and the line says so.
  EXPECT_THAT(on.out, HasSubstr("steady-state iteration 7.04e-09 s (the same without the loop "
                                "optimizer: the gain is outside the steady state)\n"));
  CliRun off = Memplan(kPlan + "--no-loop-optimizer");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("estimated time: 4.224e-08 s"));
  EXPECT_THAT(off.out, Not(HasSubstr("memory-bound loop")));
  CliRun tight = Memplan(kPlan + "--fast-memory 448 --loop-optimizer");
  ASSERT_EQ(tight.exit_code, 0) << tight.err;
  EXPECT_THAT(tight.out, HasSubstr("4 iterations (8 temporary, 4 loop-carried, 1 pinned, 5 "
                                   "prefetch, 0 other); not chosen: no variant with the loop "
                                   "optimizer was faster; steady-state iteration 8.32e-09 s\n"));
  CliRun none = Memplan(kPlan + "--loop-optimizer --loop-optimizer-min-iterations 5");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_THAT(none.out, HasSubstr("memory-bound loop: none found (no ops repeating for 5 or more "
                                  "iterations)\n"));
}

// Without the flag default mode tries the loop optimizer when it finds a
// loop: here it keeps the same plan as with the flag (3.776e-08 s against
// 4.224e-08 s with --no-loop-optimizer) and says the try kept it.
TEST(LoopOptimizerCliTest, DefaultModeTriesItWithoutTheFlag) {
  const std::string json = TestTempPath("loop_optimizer_cli_auto.json");
  CliRun r = Memplan(kPlan + "--json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(default mode, variant reference-loop)"));
  EXPECT_THAT(r.out, HasSubstr(
      "memory-bound loop (kept by default mode's automatic try; --no-loop-optimizer: off): "
      "steps 1..12, period 3, 4 iterations (8 temporary, 4 loop-carried, 1 pinned, 5 prefetch, "
      "0 other); steady-state iteration 7.04e-09 s"));
  EXPECT_THAT(r.out, HasSubstr("estimated time: 3.776e-08 s"));
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr("\"loops\":[{\"start\":1,\"period\":3,\"iterations\":4,"
                              "\"chosen\":true"));
  EXPECT_THAT(plan, Not(HasSubstr("loop_optimizer")));  // no flag recorded
  CliRun verify = Memplan("verify " + kLoop + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
}

// With 448 bytes neither the loop (found, not kept) nor a window of 224, 112
// or 56 bytes makes the plan faster: the summary and the JSON plan are
// those with both tries off, but for the flags recorded in msa.options.
TEST(LoopOptimizerCliTest, TriesThatKeepNothingLeaveThePlanAsWithoutThem) {
  const std::string auto_json = TestTempPath("loop_optimizer_cli_auto_none.json");
  const std::string off_json = TestTempPath("loop_optimizer_cli_off_none.json");
  CliRun tried = Memplan(kPlan + "--fast-memory 448 --json " + auto_json);
  CliRun off = Memplan(kPlan + "--fast-memory 448 --window-prefetch 0 --no-loop-optimizer --json " +
                       off_json);
  ASSERT_EQ(tried.exit_code, 0) << tried.err;
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(tried.out, off.out);
  EXPECT_THAT(tried.out, HasSubstr("estimated time: 4.608e-08 s"));
  EXPECT_THAT(tried.out, Not(HasSubstr("window prefetch")));
  EXPECT_THAT(tried.out, Not(HasSubstr("memory-bound loop")));
  std::string off_plan = Slurp(off_json);
  const std::string flags = ",\"window_prefetch\":0,\"no_loop_optimizer\":true";
  const std::size_t at = off_plan.find(flags);
  ASSERT_NE(at, std::string::npos);
  off_plan.erase(at, flags.size());
  EXPECT_EQ(Slurp(auto_json), off_plan);
}

TEST(LoopOptimizerCliTest, BadUses) {
  CliRun r = Memplan("plan " + kLoop + " --loop-optimizer");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --loop-optimizer applies only when fast memory is planned "
            "(--fast-memory or --target)\n");
  r = Memplan(kPlan + "--loop-optimizer --loop-optimizer-min-iterations 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--loop-optimizer-min-iterations: expected an integer from 3"));
  r = Memplan(kPlan + "--loop-optimizer --loop-optimizer-min-iterations x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("got 'x'"));
  r = Memplan(kPlan + "--loop-optimizer --no-loop-optimizer");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--loop-optimizer excludes --no-loop-optimizer"));
  r = Memplan(kPlan + "--loop-optimizer-min-iterations 4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "memplan: error: --loop-optimizer-min-iterations applies only with "
                   "--loop-optimizer\n");
}

}  // namespace
}  // namespace memplan
