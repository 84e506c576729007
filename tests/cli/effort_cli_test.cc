// `memplan plan --effort / --time-limit / --timings`: auto's members in the
// summary and the JSON, the gap to the lower bound, byte-identical output
// for any thread count, and usage errors.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::RunMemplan;
using testing_cli::WriteText;

// 60 buffers of mixed sizes and ranges (MiniMalloc's CSV: half-open
// [lower, upper)); no member reaches the lower bound on them, so the local
// search runs too.
std::string MixedCsv(const std::string& dir) {
  std::string text = "id,lower,upper,size\n";
  for (int i = 0; i < 60; ++i) {
    const int lower = (i * 37) % 50;
    const int upper = lower + 1 + (i * 11) % 17;
    text += std::to_string(i) + "," + std::to_string(lower) + "," + std::to_string(upper) + "," +
            std::to_string(16 * (1 + (i * 7919) % 97)) + "\n";
  }
  const std::string path = dir + "/mixed.csv";
  WriteText(path, text);
  return path;
}

// A best-fit or in-order member of a better tie-break rank than the member
// at the bound stops once its own packing is above the bound (its peak
// can only grow), and reads "not needed" whether it stopped or finished:
// one thread (members in turn, each to its end) and two give the same
// output.
TEST(EffortCliTest, AMemberAboveTheBoundIsNotNeededForAnyThreadCount) {
  const std::string csv = MEMPLAN_SOURCE_DIR "/tests/data/csv/rose_above_bound.csv";
  const CliRun one = RunMemplan("MEMPLAN_THREADS=1 ", "plan " + csv);
  const CliRun two = RunMemplan("MEMPLAN_THREADS=2 ", "plan " + csv);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_THAT(one.out, HasSubstr("algorithm: skyline-crowded;"));
  int rose = 0;
  std::istringstream lines(one.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("rose above") == std::string::npos) continue;
    ++rose;
    EXPECT_THAT(line, ::testing::MatchesRegex("  skipped  (best-fit-[a-z-]+|in-order) +not "
                                              "needed: its packing rose above the lower bound, "
                                              "which skyline-crowded reached"));
  }
  EXPECT_EQ(rose, 5);  // the four best-fit orders and in-order
}

TEST(EffortCliTest, JsonNamesTheMembersAndIsTheSameForAnyThreadCount) {
  const std::string dir = FreshDir();
  const std::string csv = MixedCsv(dir);
  const CliRun one = RunMemplan("MEMPLAN_THREADS=1 ", "plan " + csv + " --json -");
  const CliRun two = RunMemplan("MEMPLAN_THREADS=2 ", "plan " + csv + " --json -");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  const nlohmann::json plan = nlohmann::json::parse(one.out);
  EXPECT_EQ(plan["gap_bytes"].get<long long>(),
            plan["peak_bytes"].get<long long>() - plan["lower_bound_bytes"].get<long long>());
  const nlohmann::json& packing = plan["packing"];
  EXPECT_EQ(packing["effort"], "default");
  EXPECT_EQ(packing["time_limited"], false);
  ASSERT_EQ(packing["members"].size(), 12u);
  EXPECT_EQ(packing["members"][0]["name"], "online-best-fit");
  EXPECT_EQ(packing["members"][0]["ran"], true);
  EXPECT_EQ(packing["members"][9]["name"], "skyline-local-search");
  EXPECT_EQ(packing["members"][10]["name"], "skyline-window-search");
  EXPECT_EQ(packing["members"][11]["name"], "exact");
  EXPECT_FALSE(packing["members"][0].contains("seconds"));
  EXPECT_FALSE(packing.contains("seconds"));
  // Counted work and allowance: none for online-best-fit (it does not
  // count); for every member that ran and counts, its count within its
  // allowance (the same on every thread count: part of the compared JSON).
  EXPECT_TRUE(packing["members"][0]["work_seconds"].is_null());
  EXPECT_TRUE(packing["members"][0]["allowed_work_seconds"].is_null());
  int counted = 0;
  for (const nlohmann::json& member : packing["members"]) {
    if (!member["ran"].get<bool>() || member["work_seconds"].is_null()) continue;
    ++counted;
    EXPECT_GT(member["work_seconds"].get<double>(), 0) << member["name"];
    EXPECT_LE(member["work_seconds"].get<double>(), member["allowed_work_seconds"].get<double>())
        << member["name"];
  }
  EXPECT_GT(counted, 0);
  // The summary names them too; seconds only with --timings.
  const CliRun summary = Memplan("plan " + csv);
  EXPECT_THAT(summary.out, HasSubstr("auto (effort default): "));
  EXPECT_THAT(summary.out, HasSubstr(" bytes over the lower bound\n"));
  EXPECT_THAT(summary.out, HasSubstr("  ran      online-best-fit "));
  EXPECT_THAT(summary.out, Not(HasSubstr(" s)\n")));
  const CliRun timed = Memplan("plan " + csv + " --timings --json -");
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_TRUE(nlohmann::json::parse(timed.out)["packing"].contains("seconds"));
}

TEST(EffortCliTest, EffortLevelsAndTimeLimit) {
  const std::string dir = FreshDir();
  const std::string csv = MixedCsv(dir);
  const CliRun fast = Memplan("plan " + csv + " --effort fast --json -");
  ASSERT_EQ(fast.exit_code, 0) << fast.err;
  const nlohmann::json fast_plan = nlohmann::json::parse(fast.out);
  EXPECT_EQ(fast_plan["packing"]["effort"], "fast");
  const CliRun max = Memplan("plan " + csv + " --effort max --json -");
  ASSERT_EQ(max.exit_code, 0) << max.err;
  EXPECT_LE(nlohmann::json::parse(max.out)["peak_bytes"].get<long long>(),
            fast_plan["peak_bytes"].get<long long>());
  // A limit long enough for everything cuts nothing.
  const CliRun limited = Memplan("plan " + csv + " --time-limit 600 --json -");
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_EQ(nlohmann::json::parse(limited.out)["packing"]["time_limited"], false);
}

// On the dense PanGu trace at the default effort, two best-fit members
// start and use up their allowances: the summary calls them stopped, not
// skipped, and counts them apart; the JSON marks them "stopped".
TEST(EffortCliTest, AMemberStoppedPartWayIsReportedStopped) {
  const std::string pangu = std::string(MEMPLAN_SHARED_DIR) + "/data/traces/pangu_2.6B.csv";
  if (!std::filesystem::exists(pangu)) GTEST_SKIP() << "no shared data at " << pangu;
  // One run (PanGu takes seconds under ASan): the summary and the JSON.
  const std::string json_path = FreshDir() + "/plan.json";
  const CliRun text = Memplan("plan " + pangu + " --json " + json_path);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("auto (effort default): 6 members ran, 2 stopped, 4 skipped; "));
  // 18,692 buffers: the exact search's first round alone is over its budget.
  EXPECT_THAT(text.out, HasSubstr("\n  skipped  exact                  its first round of restarts "
                                  "(448608 nodes, estimated 73.81 s of work) does not fit its "
                                  "2.00 s budget (--algorithm exact runs it alone)\n"));
  // best-fit-spatial fit its lane but counted more than its lane had left
  // (its allowance); best-fit-busiest no longer fit what the lanes had left
  // after the members that fit: it started anyway, capped at what both
  // lanes had left, and was stopped there; the max effort allows more.
  // Then both lanes were used up.
  EXPECT_THAT(text.out, HasSubstr("\n  stopped  best-fit-spatial       stopped when it had used "
                                  "the 0.43 s of work allowed to it (estimated 0.39 s) (--effort "
                                  "max allows it up to 0.78 s; --algorithm best-fit-spatial runs "
                                  "it alone)\n"));
  EXPECT_THAT(text.out, HasSubstr("\n  stopped  best-fit-busiest       stopped when it had used "
                                  "the 0.19 s of work allowed to it (estimated 0.33 s) (--effort "
                                  "max allows it up to 0.65 s; --algorithm best-fit-busiest runs "
                                  "it alone)\n"));
  EXPECT_THAT(text.out, HasSubstr("\n  skipped  best-fit-temporal      earlier members used up both "
                                  "lanes' 0.45 s work budgets (estimated 0.33 s) (raise --effort)\n"));
  // The parsed plan must outlive the loop (a range over a temporary's member
  // would dangle: ASan caught it).
  const nlohmann::json plan = nlohmann::json::parse(std::ifstream(json_path));
  for (const nlohmann::json& member : plan["packing"]["members"]) {
    const bool stopped = member["name"] == "best-fit-spatial" || member["name"] == "best-fit-busiest";
    EXPECT_EQ(member["stopped"], stopped) << member["name"];
    // Of the members that did not run, only the stopped ones counted work.
    if (!member["ran"].get<bool>()) {
      EXPECT_EQ(member["work_seconds"].is_null(), !stopped) << member["name"];
    }
  }
}

// A MEMPLAN_THREADS the packers would ignore is refused (a trial ran with
// "abc", "0" and "-1" and thought it had one thread).
TEST(EffortCliTest, ABadThreadCountIsAUsageError) {
  for (const std::string value : {"abc", "0", "-1", "65", "2x"}) {
    const CliRun r = RunMemplan("MEMPLAN_THREADS=" + value + " ",
                                "plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir");
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_EQ(r.out, "") << value;
    EXPECT_EQ(r.err, "memplan: error: MEMPLAN_THREADS='" + value +
                         "' is not a whole number from 1 to 64 (unset, the packers use up to 2 "
                         "threads)\n")
        << value;
  }
  EXPECT_EQ(RunMemplan("MEMPLAN_THREADS=64 ", "plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir").exit_code, 0);
}

TEST(EffortCliTest, BadEffortOrTimeLimitIsAUsageError) {
  const CliRun effort = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir --effort slow");
  EXPECT_EQ(effort.exit_code, 2);
  EXPECT_THAT(effort.err, HasSubstr("--effort: unknown effort 'slow' (expected one of: fast, "
                                    "default, max)"));
  const CliRun negative = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir --time-limit -1");
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_THAT(negative.err, HasSubstr("--time-limit -1 is outside 0 to 10^6 seconds"));
  // Echoed as written, not as the infinity it parses to.
  const CliRun huge = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir --time-limit 1e400");
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_THAT(huge.err, HasSubstr("--time-limit 1e400 is outside 0 to 10^6 seconds"));
  const CliRun nan = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mlp.mpir --time-limit nan");
  EXPECT_EQ(nan.exit_code, 2);
  EXPECT_THAT(nan.err, HasSubstr("--time-limit nan is not a number of seconds"));
}

// With a fixed --algorithm the portfolio's flags would be ignored: refused
// (exit 2, saying why), except --effort and --time-limit for
// skyline-local-search, whose search they size and stop.
TEST(EffortCliTest, AutoOnlyFlagsWithAFixedAlgorithmAreUsageErrors) {
  const std::string mlp = MEMPLAN_SOURCE_DIR "/examples/mlp.mpir";
  const CliRun effort = Memplan("plan " + mlp + " --algorithm best-fit-spatial --effort max");
  EXPECT_EQ(effort.exit_code, 2);
  EXPECT_THAT(effort.err,
              HasSubstr("--effort applies to --algorithm auto, skyline-local-search and "
                        "skyline-window-search; "
                        "--algorithm best-fit-spatial would ignore it (drop --effort, or use "
                        "--algorithm auto)"));
  const CliRun limit = Memplan("plan " + mlp + " --algorithm naive --time-limit 5");
  EXPECT_EQ(limit.exit_code, 2);
  EXPECT_THAT(limit.err, HasSubstr("--time-limit applies to --algorithm auto, "
                                   "skyline-local-search, skyline-window-search and exact; "
                                   "--algorithm naive would "
                                   "ignore it"));
  const CliRun timings = Memplan("plan " + mlp + " --algorithm skyline-local-search --timings");
  EXPECT_EQ(timings.exit_code, 2);
  EXPECT_THAT(timings.err, HasSubstr("--timings applies to --algorithm auto (its members' "
                                     "seconds); --algorithm skyline-local-search would ignore it"));
  const CliRun search =
      Memplan("plan " + mlp + " --algorithm skyline-local-search --effort fast --time-limit 60");
  EXPECT_EQ(search.exit_code, 0) << search.err;
  const CliRun with_auto = Memplan("plan " + mlp + " --algorithm auto --effort max --timings");
  EXPECT_EQ(with_auto.exit_code, 0) << with_auto.err;
}

}  // namespace
}  // namespace memplan
