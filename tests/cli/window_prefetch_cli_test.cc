// Window prefetch on the command line (docs/msa.md, "Window prefetch"): the
// flag, the window in the JSON plan and the summary, `memplan verify` of a
// plan with a window, `memplan execute` running it, default mode keeping
// the window only when faster, and the refusals.
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
using testing_cli::WriteText;

const std::string kMatmul = MEMPLAN_SOURCE_DIR "/tests/data/mpir/window_matmul.mpir";
const std::string kMatmulPlan =
    "plan " + kMatmul + " --target " MEMPLAN_SOURCE_DIR "/tests/data/msa/window_target.json ";

TEST(WindowPrefetchCliTest, TheWindowIsACopyInTheJsonPlanAndTheSummary) {
  const std::string json = TestTempPath("window_prefetch_cli.json");
  CliRun r = Memplan(kMatmulPlan + "--msa-mode reference --window-prefetch 64 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("async copies: 1 prefetch (16 B), 0 evictions (0 B), at most 1 "
                               "outstanding; 1 window prefetch (64 B)\n"
                               "estimated time: 2.304e-08 s"));
  // The window's 64 bytes, reserved over steps 1-3, count in the fast
  // memory's max live beside a's and b's 32 at step 1: the space is full
  // (it read 32 bytes at step 0 and 200% over without them).
  EXPECT_THAT(r.out, HasSubstr("alternate memory: 96 bytes used of 96 bytes capacity, max live "
                               "96 bytes at step 1 (0.00% over)\n"));
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr(
      "\"async_copies\": [\n"
      "    {\"buffer\":0,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":0,\"bytes\":16},\n"
      "    {\"buffer\":1,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":1,"
      "\"done\":3,\"bytes\":64,\"window_op\":3,\"window_operand\":1,\"window_offset\":32}\n"
      "  ],"));
  EXPECT_THAT(plan, HasSubstr("\"window_prefetches\":1,\"window_prefetch_bytes\":64"));
  EXPECT_THAT(plan, HasSubstr("\"peak_bytes\":96,\"alignment\":8,\"max_live_bytes\":96,\"peak_step\":1"));
  EXPECT_THAT(plan, HasSubstr("\"window_prefetch\":64"));
  // The saved plan re-verifies and executes: the window copy is one of the
  // two async copies, and the op checks the window's 64 bytes.
  CliRun verify = Memplan("verify " + kMatmul + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_THAT(verify.out, HasSubstr("alternate memory used 96 bytes"));
  CliRun execute = Memplan("execute " + kMatmul + " " + json);
  EXPECT_EQ(execute.exit_code, 0) << execute.err;
  EXPECT_THAT(execute.out, HasSubstr(", 2 async copies;"));
}

// The window copy writes real bytes: moved onto the prefetched buffer 0
// (alternate [0, 16)), it clobbers what op 3 reads there, and execute names
// the window prefetch as the cause (exit 1).
TEST(WindowPrefetchCliTest, ExecuteCatchesAWindowOverAnotherBuffer) {
  const std::string json = TestTempPath("window_prefetch_clobber.json");
  CliRun r = Memplan(kMatmulPlan + "--msa-mode reference --window-prefetch 64 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string plan = Slurp(json);
  const std::string at = "\"window_offset\":32";
  ASSERT_NE(plan.find(at), std::string::npos);
  plan.replace(plan.find(at), at.size(), "\"window_offset\":0");
  WriteText(json, plan);
  CliRun execute = Memplan("execute " + kMatmul + " " + json);
  EXPECT_EQ(execute.exit_code, 1) << execute.err;
  EXPECT_THAT(execute.err, HasSubstr("moved there by the window prefetch of"));
}

TEST(WindowPrefetchCliTest, DefaultModeKeepsTheWindowOnlyWhenFaster) {
  CliRun window = Memplan(kMatmulPlan + "--window-prefetch 64");
  ASSERT_EQ(window.exit_code, 0) << window.err;
  EXPECT_THAT(window.out, HasSubstr("(default mode, variant reference+window-64)"));
  EXPECT_THAT(window.out, HasSubstr("estimated time: 2.304e-08 s"));
  CliRun off = Memplan(kMatmulPlan + "--window-prefetch 0");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("(default mode, variant reference)"));
  EXPECT_THAT(off.out, HasSubstr("estimated time: 2.848e-08 s"));
  EXPECT_THAT(off.out, Not(HasSubstr("window prefetch")));
  // A window as large as the weight is no window: nothing changes, and the
  // summary says none was kept.
  CliRun whole = Memplan(kMatmulPlan + "--window-prefetch 256");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_THAT(whole.out, HasSubstr("(default mode, variant reference)"));
  EXPECT_THAT(whole.out, HasSubstr("\nwindow prefetch: none kept (no window of 256 B both fits the "
                                   "free fast memory and makes the plan faster)\n"));
  EXPECT_THAT(window.out, Not(HasSubstr("none kept")));
}

// Without the flag default mode tries windows of fast memory / 2, / 4 and
// / 8 (48, 24, 12 bytes) and keeps the 48-byte one (2.432e-08 s, against
// 2.848e-08 s with --window-prefetch 0; tests/msa/
// scenario_window_prefetch_test.cc derives it), and says so.
TEST(WindowPrefetchCliTest, DefaultModeTriesWindowsWithoutTheFlag) {
  const std::string json = TestTempPath("window_prefetch_cli_auto.json");
  CliRun r = Memplan(kMatmulPlan + "--json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(default mode, variant reference+window-48)"));
  EXPECT_THAT(r.out, HasSubstr("; 1 window prefetch (48 B)\n"
                               "window prefetch: windows of 48 B (fast memory / 2) kept by default "
                               "mode's automatic try (--window-prefetch 0: none)\n"
                               "estimated time: 2.432e-08 s"));
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr("\"bytes\":48,\"window_op\":3,\"window_operand\":1,"
                              "\"window_offset\":32}"));
  EXPECT_THAT(plan, Not(HasSubstr("\"window_prefetch\":")));  // no flag recorded
  CliRun verify = Memplan("verify " + kMatmul + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  // --emit-ir writes no windows, so default mode tries none.
  CliRun ir = Memplan(kMatmulPlan + "--emit-ir " + TestTempPath("window_prefetch_cli_auto.mpir"));
  ASSERT_EQ(ir.exit_code, 0) << ir.err;
  EXPECT_THAT(ir.out, HasSubstr("estimated time: 2.848e-08 s"));
}

// A negligible gain keeps no window (the minimum gain, msa/window_prefetch.h):
// transformer_block under 3 bytes of fast memory found seven 1-byte windows
// (fast memory / 2) saving 1.4e-13 s of 0.00676 s, about 2e-11 of the time,
// far below the 1e-6 margin, so the plan is the one of --window-prefetch 0:
// variant reference, no async copy, the same JSON plan but for the flag.
TEST(WindowPrefetchCliTest, DefaultModeDropsWindowsBelowTheMinimumGain) {
  const std::string block = "plan " MEMPLAN_SOURCE_DIR "/examples/hlo/transformer_block.hlo --fast-memory 3 ";
  const std::string json = TestTempPath("window_prefetch_cli_min_gain.json");
  const std::string json_off = TestTempPath("window_prefetch_cli_min_gain_off.json");
  CliRun r = Memplan(block + "--json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CliRun off = Memplan(block + "--window-prefetch 0 --json " + json_off);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  const std::string tail =
      "fast memory: 3 B on target edge-npu (default mode, variant reference)\n"
      "async copies: 0 prefetches (0 B), 0 evictions (0 B), at most 0 outstanding\n"
      "estimated time: 0.00676068 s, bound 0.00676068 s";
  EXPECT_THAT(r.out, HasSubstr(tail));
  EXPECT_THAT(off.out, HasSubstr(tail));
  EXPECT_THAT(r.out, Not(HasSubstr("window prefetch")));
  std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr("\"async_copies\": []"));
  EXPECT_THAT(plan, Not(HasSubstr("\"window_")));
  std::string plan_off = Slurp(json_off);
  const std::string flag = ",\"window_prefetch\":0";
  ASSERT_NE(plan_off.find(flag), std::string::npos);
  plan_off.erase(plan_off.find(flag), flag.size());
  EXPECT_EQ(plan, plan_off);
  // Asked for, the 1-byte window is not kept either, and the summary says so.
  CliRun one = Memplan(block + "--window-prefetch 1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.out, HasSubstr("(default mode, variant reference)\n"
                                 "async copies: 0 prefetches (0 B), 0 evictions (0 B), at most 0 "
                                 "outstanding\nwindow prefetch: none kept"));
}

TEST(WindowPrefetchCliTest, ReferenceModeWithoutTheFlagWritesNoWindows) {
  const std::string json = TestTempPath("window_prefetch_cli_none.json");
  CliRun r = Memplan(kMatmulPlan + "--msa-mode reference -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, Not(HasSubstr("\"window_")));
  EXPECT_THAT(plan, HasSubstr("\"estimated_time_s\":2.8479999999999998e-08"));
}

TEST(WindowPrefetchCliTest, BadUses) {
  CliRun r = Memplan("plan " + kMatmul + " --window-prefetch 64");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --window-prefetch applies only when fast memory is planned "
            "(--fast-memory or --target)\n");
  r = Memplan("plan " + kMatmul + " --fast-memory 96 --window-prefetch 6q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--window-prefetch: invalid byte size '6q'"));
  const std::string ir = TestTempPath("window_prefetch_cli.mpir");
  r = Memplan(kMatmulPlan + "--window-prefetch 64 --emit-ir " + ir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --emit-ir and --emit-hlo do not write window prefetches yet; drop "
            "--window-prefetch (or give it 0)\n");
}

}  // namespace
}  // namespace memplan
