// `memplan sweep`: the table, CSV and chart files, exit codes, bad lists.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_runner.h"

namespace memplan::testing_cli {
namespace {

const std::string kBatchChain = std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/mpir/batch_chain.mpir";

// batch_chain.mpir: transient extent and lower bound 128*B bytes (see the file).
TEST(SweepCliTest, TableCsvAndChartForABatchSweep) {
  const std::string dir = FreshDir();
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=1,2,8 --csv " + dir +
                           "/s.csv --svg " + dir + "/s.svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find(": 3 plans, all verified\n"
                       "batch  transient extent  lower bound  over bound  default used\n"
                       "1      128 B             128 B        0.0 %"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n8      1.00 KiB          1.00 KiB     0.0 %"), std::string::npos) << r.out;
  const std::string csv = Slurp(dir + "/s.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "batch,fast_memory_bytes,peak_bytes,lower_bound_bytes,default_bytes,alternate_bytes,"
            "estimated_time_s,time_bound_s,time_all_default_s,time_all_fast_s,captured_speedup,"
            "prefetches,evictions,time_steps,buffers,verified,over_capacity");
  EXPECT_NE(csv.find("\n2,,256,256,"), std::string::npos) << csv;
  EXPECT_NE(Slurp(dir + "/s.svg").find("(default-memory activations) vs batch"), std::string::npos);
}

// --algorithm exact: the line under the table says every search completed
// (the chain packs at its lower bound).
TEST(SweepCliTest, ExactSearchSaysItCompleted) {
  const CliRun r = Memplan("sweep " + kBatchChain +
                           " --dim batch=1,2 --algorithm exact --time-limit 30");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nexact search: completed at all 2 points (optimal, or proven within or "
                       "over the capacity)\n"),
            std::string::npos)
      << r.out;
}

TEST(SweepCliTest, FastMemorySweepShowsTimes) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=2 --fast-memory 0,4KiB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("batch  fast memory  transient extent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("est. time  bound"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2      0 B  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2      4.00 KiB  "), std::string::npos) << r.out;
}

TEST(SweepCliTest, CsvToStandardOutputReplacesTheTable) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=1,2 --csv -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find(',')), "batch");
  EXPECT_NE(r.out.find("\n1,,128,128,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2,,256,256,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sweep of"), std::string::npos) << r.out;
  const CliRun svg = Memplan("sweep " + kBatchChain + " --dim batch=1 --svg -");
  EXPECT_EQ(svg.exit_code, 2);
  EXPECT_EQ(svg.err,
            "memplan: error: --svg cannot write to standard output ('-'); only --csv can\n");
}

// --target alone sizes the fast memory: the rows record the size it used.
TEST(SweepCliTest, TargetFastMemorySizeIsRecorded) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=1 --target edge-npu --csv -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string row = r.out.substr(r.out.find('\n') + 1);
  EXPECT_EQ(row.substr(0, row.find(',', 2)), "1,2097152") << r.out;  // edge-npu's 2 MiB
}

TEST(SweepCliTest, OverCapacityPointsExitOne) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=1,16 --capacity 1KiB");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("2 plans, 1 verified, 1 do not fit"), std::string::npos) << r.out;
  // The row over capacity still says what it needs: batch 16 has two
  // 1 KiB activations live together (2 KiB) and needs 4160 bytes in all.
  EXPECT_NE(r.out.find("\n16     2.00 KiB          2.00 KiB     0.0 %       4.06 KiB      does not "
                       "fit: default memory needs 4.06 KiB (4160 bytes), 3.06 KiB (3136 bytes) "
                       "over --capacity 1KiB (transient extent 2048 bytes, lower bound 2048 "
                       "bytes); no plan can fit: every plan needs at least the lower bound, 4.06 "
                       "KiB (4160 bytes); the activations peak at step 1 (op %b = exp) with 2048 "
                       "bytes (2.00 KiB) live in 2 buffers, largest first: a 1024 bytes (1.00 "
                       "KiB), b 1024 bytes (1.00 KiB)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n1      128 B             128 B        0.0 %       320 B         fits\n"),
            std::string::npos)
      << r.out;
  const CliRun csv = Memplan("sweep " + kBatchChain + " --dim batch=16 --capacity 1KiB --csv -");
  EXPECT_EQ(csv.exit_code, 1) << csv.err;
  EXPECT_NE(csv.out.find("\n16,,2048,2048,4160,"), std::string::npos) << csv.out;
}

// A value listed twice is one point, at its first place, planned once.
TEST(SweepCliTest, RepeatedValuesArePlannedOnce) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=2,1,2 --fast-memory 1KiB,1024,0 --csv -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> points;
  for (size_t at = r.out.find('\n'); at + 1 < r.out.size(); at = r.out.find('\n', at + 1)) {
    const size_t second = r.out.find(',', r.out.find(',', at + 1) + 1);
    points.push_back(r.out.substr(at + 1, second - at - 1));
  }
  EXPECT_EQ(points, (std::vector<std::string>{"2,1024", "2,0", "1,1024", "1,0"})) << r.out;
}

TEST(SweepCliTest, BadListsAreUsageErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {" --dim batch=1,,2",
       "memplan: error: --dim expects NAME=VALUE[,VALUE...] with positive integers, got "
       "'batch=1,,2'\n"},
      {" --dim batch=0", "memplan: error: --dim expects NAME=VALUE[,VALUE...] with positive "
                         "integers, got 'batch=0'\n"},
      {" --dim batch=1 --dim batch=2",
       "memplan: error: --dim batch is given twice (list its values once: --dim batch=A,B,C)\n"},
      {" --fast-memory 1MiB,", "memplan: error: --fast-memory expects a comma-separated list, "
                               "got '1MiB,'\n"},
      {" --fast-memory 1MiB,lots",
       "memplan: error: --fast-memory: invalid byte size 'lots': "},
      {" --fast-memory 1MiB --emit-ir x.mpir",
       "memplan: error: sweep does not take --emit-ir (plan one point with memplan plan)\n"},
      {" --dim batch=1,99", ""},  // past the dim's bound: located, with the point
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args);
    const CliRun r = Memplan("sweep " + kBatchChain + args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    if (!expected.empty()) {
      EXPECT_EQ(r.err.substr(0, expected.size()), expected) << r.err;
    } else {
      EXPECT_NE(r.err.find("(sweep point --dim batch=99)"), std::string::npos) << r.err;
    }
  }
}

TEST(SweepCliTest, OutputNamingTheInputIsRefusedBeforePlanning) {
  const CliRun r = Memplan("sweep " + kBatchChain + " --dim batch=1 --csv " + kBatchChain);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kBatchChain + ": error: output path is the input file (--csv)\n");
  const std::string dir = FreshDir();
  const CliRun same = Memplan("sweep " + kBatchChain + " --dim batch=1 --csv " + dir +
                              "/out --svg " + dir + "/./out");
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_EQ(same.err, dir + "/./out: error: --csv and --svg name the same file\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out"));
}

}  // namespace
}  // namespace memplan::testing_cli
