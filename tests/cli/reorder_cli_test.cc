// `--reorder` and `memplan schedule` end to end: the summary line, the JSON
// "schedule", --emit-ir, `memplan verify` of a reordered plan, and bad input.
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan::testing_cli {
namespace {

using ::testing::HasSubstr;

const std::string kDiamond = MEMPLAN_SOURCE_DIR "/examples/reorder_diamond.mpir";
const std::string kReorderLine =
    "order: reordered by xla-list (transient max-live 2.02 MiB → 1.03 MiB, -48.8 %; the "
    "order-independent bound 1.02 MiB)\n";

TEST(ReorderCliTest, PlanSaysWhatTheNewOrderSavesOnItsSecondLine) {
  CliRun run = Memplan("plan " + kDiamond + " --reorder");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find(kReorderLine), run.out.find('\n') + 1) << run.out;
  EXPECT_THAT(run.out, HasSubstr("transient extent 1081344 bytes (1.03 MiB), lower bound 1081344"));
  CliRun plain = Memplan("plan " + kDiamond);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, HasSubstr("transient extent 2113536 bytes (2.02 MiB)"));
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("order:")));
}

TEST(ReorderCliTest, JsonRecordsTheOrderAndVerifyReordersAgain) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  const std::string ir = dir + "/reordered.mpir";
  CliRun run = Memplan("plan " + kDiamond + " --reorder --quiet --json " + json + " --emit-ir " + ir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(plan["input_options"]["reorder"], true);
  const nlohmann::json& schedule = plan["schedule"];
  EXPECT_EQ(schedule["strategy"], "xla-list");
  EXPECT_EQ(schedule["input_peak_bytes"], 2113536);
  EXPECT_EQ(schedule["peak_bytes"], 1081344);
  EXPECT_EQ(schedule["lower_bound_bytes"], 1064960);
  std::string names;
  for (const nlohmann::json& op : schedule["ops"]) names += op["name"].get<std::string>() + " ";
  EXPECT_EQ(names, "a a2 b b2 r ");
  EXPECT_EQ(schedule["ops"][1]["id"], 2);
  // The emitted program runs in the new order and plans to the same peak.
  EXPECT_THAT(Slurp(ir), HasSubstr("%a2 = maxpool(%a)"));
  EXPECT_LT(Slurp(ir).find("%a2 = maxpool"), Slurp(ir).find("%b = conv"));
  CliRun again = Memplan("plan " + ir);
  EXPECT_THAT(again.out, HasSubstr("transient extent 1081344 bytes"));
  // verify loads the input as recorded: reordered again, the same buffers.
  CliRun verify = Memplan("verify " + kDiamond + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
}

// With fast memory the input order is planned too and the faster one kept:
// at 1 MiB the reordered diamond runs 3.8x faster; at 64 KiB the input
// order is faster, so the plan keeps it, the JSON records it (input_options
// without reorder, so that verify loads the input order) and verify passes.
TEST(ReorderCliTest, WithFastMemoryTheFasterOrderIsKept) {
  CliRun run = Memplan("plan " + kDiamond + " --reorder --fast-memory 1MiB");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("order: reordered by xla-list (transient max-live 2.02 MiB → 1.03 "
                                 "MiB, -48.8 %; the order-independent bound 1.02 MiB); estimated "
                                 "7.9872e-05 s vs 0.000305664 s in the input order\n"));
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  run = Memplan("plan " + kDiamond + " --reorder --fast-memory 64KiB --json " + json);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("order: kept the input order: reordered by xla-list (transient "
                                 "max-live 2.02 MiB → 1.03 MiB, -48.8 %; the order-independent "
                                 "bound 1.02 MiB), but with fast memory the input order runs "
                                 "faster (estimated 0.000526336 s vs 0.00053376 s reordered)\n"));
  const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(plan["input_options"]["reorder"], false);
  EXPECT_EQ(plan["schedule"]["fast_memory"]["kept"], "input");
  // 0.00052992 s without the 32 KiB windows (fast memory / 2) that default
  // mode keeps on the input order's plan; the reordered plan keeps none.
  EXPECT_DOUBLE_EQ(plan["schedule"]["fast_memory"]["input_order_estimated_time_s"].get<double>(),
                   0.000526336);
  std::string names;
  for (const nlohmann::json& op : plan["schedule"]["ops"]) names += op["name"].get<std::string>() + " ";
  EXPECT_EQ(names, "a b a2 b2 r ");
  CliRun verify = Memplan("verify " + kDiamond + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
}

TEST(ReorderCliTest, ScheduleVerbPrintsEachStrategyAndTheOrder) {
  CliRun run = Memplan("schedule " + kDiamond);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "strategy                      transient max-live    change\n"
            "input                   2113536 bytes (2.02 MiB)      0.0%\n"
            "xla-list                1081344 bytes (1.03 MiB)    -48.8%\n"
            "xla-dfs                 1081344 bytes (1.03 MiB)    -48.8%\n"
            "xla-post-order          1081344 bytes (1.03 MiB)    -48.8%\n"
            "inductor-lpmf           1081344 bytes (1.03 MiB)    -48.8%\n"
            "inductor-bfs            2113536 bytes (2.02 MiB)      0.0%\n"
            "inductor-dfs            1081344 bytes (1.03 MiB)    -48.8%\n"
            "local-search            1081344 bytes (1.03 MiB)    -48.8%\n"
            "exact                   1081344 bytes (1.03 MiB)    -48.8%\n"
            "lower bound             1064960 bytes (1.02 MiB)\n"
            "exact: 1 computation proven optimal for the peak model, 0 too large (over 64 ops), 0 "
            "stopped at 1000000 states; the order kept is optimal\n" +
                kReorderLine +
                "order:\n  @main:\n    %a = conv\n    %a2 = maxpool\n    %b = conv\n    %b2 = "
                "maxpool\n    %r = add\n");
}

TEST(ReorderCliTest, BadInputIsLocatedWithExitTwo) {
  const std::string dir = FreshDir();
  // A value read before the op that produces it (a cycle in the text form is
  // one too: some op of it reads a value defined later).
  WriteText(dir + "/later.mpir",
            "entry func @main(%x: 16) {\n  %a = exp(%b) : 16\n  %b = exp(%a) : 16\n  return %b\n}\n");
  for (const std::string args : {"plan later.mpir --reorder", "schedule later.mpir"}) {
    CliRun run = MemplanIn(dir, args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_EQ(run.err, "later.mpir:2:12: error: value %b is used before its definition at 3:3\n") << args;
  }
  WriteText(dir + "/in.csv", "id,lower,upper,size\n0,0,1,8\n");
  CliRun csv = Memplan("plan " + dir + "/in.csv --reorder");
  EXPECT_EQ(csv.exit_code, 2);
  EXPECT_THAT(csv.err, HasSubstr("in.csv: error: --reorder applies only to programs"));
}

}  // namespace
}  // namespace memplan::testing_cli
