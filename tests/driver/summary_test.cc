#include "report/summary.h"

#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "driver/input.h"
#include "driver/pools.h"
#include "tests/buffer_maker.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

LoadedInput Csv(TimeStep time_steps, std::vector<Buffer> buffers) {
  LoadedInput input;
  input.format = InputFormat::kLifetimeCsv;
  input.buffers.input = "in.csv";
  input.buffers.time_steps = time_steps;
  input.buffers.buffers = std::move(buffers);
  return input;
}

// The summaries of a loaded input, as `memplan stats` and `memplan plan` print them.
std::string Stats(const LoadedInput& input) {
  return FormatStats(SummaryInputOf(input));
}
std::string Summary(const LoadedInput& input, const Plan& plan) {
  return FormatPlanSummary(SummaryInputOf(input), plan, std::nullopt);
}

// A stopped exact search says how to search longer: name the flag when the
// limit was the default, say "higher" when the user gave it (a trial read
// "--time-limit S searches longer" after passing --time-limit 30).
TEST(FormatPlanSummaryTest, AStoppedSearchSaysHowToSearchLonger) {
  const LoadedInput input = Csv(2, {Make("a", 4, 0, 1)});
  Plan plan;
  plan.peak = 4;
  plan.lower_bound = 4;
  plan.search_status = "stopped";
  plan.proven_lower_bound = 4;
  plan.search_time_limit_seconds = 30;
  EXPECT_NE(Summary(input, plan).find("exact search stopped at its time limit of 30 s (so this "
                                      "plan may differ between runs); a higher --time-limit "
                                      "searches longer\n"),
            std::string::npos)
      << Summary(input, plan);
  plan.search_default_time_limit = true;
  plan.search_time_limit_seconds = 10;
  EXPECT_NE(Summary(input, plan).find("exact search stopped at its default time limit of 10 s "
                                      "(so this plan may differ between runs); --time-limit S "
                                      "searches longer\n"),
            std::string::npos)
      << Summary(input, plan);
}

// Every line of the report, hand-computed: live bytes 4 12 8 2 over 4 steps,
// one band per step.
TEST(FormatStatsTest, SmallInputExactReport) {
  const LoadedInput input = Csv(4, {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3),
                                    Make("k", 100, 0, 3, Lifetime::kConstant)});
  EXPECT_EQ(Stats(input),
            "in.csv: 4 buffers, 4 time steps\n"
            "total bytes: 114 bytes\n"
            "  transient         3 buffers             14 bytes\n"
            "  constant          1 buffer             100 bytes\n"
            "lower bound (max live activations): 12 bytes at step 1\n"
            "max live (all buffers, weights included): 112 bytes at step 1\n"
            "activation peak: 12 bytes live at step 1 in 2 buffers:\n"
            "   66.67%  b: 8 bytes\n"
            "   33.33%  a: 4 bytes\n"
            "live bytes over time (activations, max per band):\n"
            "  [      0,       0]              4 #############\n"
            "  [      1,       1]             12 ########################################\n"
            "  [      2,       2]              8 ##########################\n"
            "  [      3,       3]              2 ######\n");
}

// The MiniMalloc rows b1,0,4000000000,4 and b2,3999999999,2^63-1,8 (half-open
// upper bounds): time steps up to 2^63 - 1 cost only their events. The 16
// bands split the time line exactly (band b starts at floor(b * steps / 16)).
TEST(FormatStatsTest, HugeTimeRange) {
  constexpr TimeStep kMax = std::numeric_limits<TimeStep>::max();
  const LoadedInput input =
      Csv(kMax, {Make("b1", 4, 0, 3999999999), Make("b2", 8, 3999999999, kMax - 1)});
  const std::string text = Stats(input);
  EXPECT_EQ(text.substr(0, text.find("live bytes over time")),
            "in.csv: 2 buffers, 9223372036854775807 time steps\n"
            "total bytes: 12 bytes\n"
            "  transient         2 buffers             12 bytes\n"
            "lower bound (max live activations): 12 bytes at step 3999999999\n"
            "max live (all buffers, weights included): 12 bytes at step 3999999999\n"
            "activation peak: 12 bytes live at step 3999999999 in 2 buffers:\n"
            "   66.67%  b2: 8 bytes\n"
            "   33.33%  b1: 4 bytes\n");
  // 2^63 - 1 = 16 * 576460752303423487 + 15. The time columns are as wide
  // as the widest label (19 digits), so the bars line up.
  EXPECT_NE(text.find("  [                  0,  576460752303423486]             12 "
                      "########################################\n"
                      "  [ 576460752303423487, 1152921504606846974]              8 "
                      "##########################\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  [8646911284551352319, 9223372036854775806]              8 "),
            std::string::npos)
      << text;
}

TEST(FormatStatsTest, NoBuffers) {
  EXPECT_EQ(Stats(Csv(0, {})),
            "in.csv: 0 buffers, 0 time steps\n"
            "total bytes: 0 bytes\n"
            "lower bound (max live activations): 0 bytes (no transient buffers)\n"
            "max live (all buffers, weights included): 0 bytes (no buffers)\n");
}

// A CSV plan: the pool table keeps its 10-character name column.
TEST(FormatPlanSummaryTest, PlanWithoutRegions) {
  const LoadedInput input = Csv(4, {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)});
  absl::StatusOr<Plan> plan = PlanPools(input.buffers, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  plan->verified = true;
  EXPECT_EQ(Summary(input, *plan),
            "in.csv: 3 buffers, 4 time steps\n"
            "pool       space      buffers          bytes         extent    lower bound     over\n"
            "transient  default          3             14             12             12    0.00%\n"
            "transient extent 12 bytes, lower bound 12 bytes (0.00% over)\n"
            "activation peak: 12 bytes live at step 1 in 2 buffers:\n"
            "   66.67%  b: 8 bytes\n"
            "   33.33%  a: 4 bytes\n"
            "default memory: 12 bytes used, max live 12 bytes at step 1 (0.00% over)\n"
            "algorithm: " + plan->algorithm + "; alignment 1; plan verified\n"
            "auto (effort default): 2 members ran, 10 skipped; the lowest peak is chosen, 0 bytes "
            "over the lower bound\n"
            "  members in the order auto tried them (most expected gain per estimated cost "
            "first), then those it skipped\n"
            "  ran      online-best-fit                    12 bytes (0.00% over)\n"
            "  ran      best-fit-spatial                   12 bytes (0.00% over)  <- chosen\n"
            // A skipped member's line comes after the member its reason names.
            "  skipped  skyline-area           not needed: best-fit-spatial reached the lower bound and wins ties\n"
      "  skipped  skyline-crowded        not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  best-fit-start-time    not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  best-fit-busiest       not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  skyline-longest        not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  best-fit-temporal      not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  in-order               not needed: best-fit-spatial reached the lower bound and wins ties\n"
            "  skipped  skyline-local-search   not needed: the best peak is at the lower bound\n"
            "  skipped  skyline-window-search  not needed: the best peak is at the lower bound\n"
            "  skipped  exact                  not needed: the best peak is at the lower bound\n");
}

// At --effort fast the members go by expected gain alone, and the summary
// says so.
TEST(FormatPlanSummaryTest, FastEffortSaysItsOrder) {
  const LoadedInput input = Csv(4, {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)});
  PoolPlanOptions options;
  options.effort = PackEffort::kFast;
  absl::StatusOr<Plan> plan = PlanPools(input.buffers, options);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string summary = Summary(input, *plan);
  EXPECT_NE(summary.find("auto (effort fast): "), std::string::npos) << summary;
  EXPECT_NE(summary.find("\n  members in the order auto tried them (most expected gain first, "
                         "among the members near n log n), then those it skipped\n"),
            std::string::npos)
      << summary;
}

// With fast memory: the peak lines follow the default-memory buffers (b,
// moved to alternate memory, is not among them) and the aliasing line says
// both figures were planned without fast memory.
TEST(FormatPlanSummaryTest, FastMemoryPeakAndAliasing) {
  const LoadedInput input = Csv(4, {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)});
  absl::StatusOr<Plan> plan = PlanPools(input.buffers, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  plan->placements[1].allocations = {Allocation{kAlternateSpace, 0, 1, 2}};
  plan->verified = true;
  const std::string text = FormatPlanSummary(SummaryInputOf(input), *plan,
                                             AliasingSaving{12, 20, /*without_fast_memory=*/true});
  EXPECT_NE(text.find("activation peak: 4 bytes live at step 0 in 1 buffer:\n"
                      "  100.00%  a: 4 bytes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("aliasing (both planned without fast memory): transient extent 20 bytes "
                      "without views and in-place reuse, 12 bytes with them (saves 8 B)\n"),
            std::string::npos)
      << text;
}

// The input of a planned region program, as `memplan plan` loads it.
LoadedInput RegionInput(const testing_regions::Planned& p) {
  LoadedInput input;
  input.format = InputFormat::kTextIr;
  input.program = p.program;
  input.analysis = p.analysis;
  input.buffers = p.analysis.buffers;
  input.buffers.input = "t.mpir";
  return input;
}

// examples/region.mpir: the name column is as wide as the longest pool name,
// and the region's line sums its allocations and waves.
TEST(FormatPlanSummaryTest, RegionPlan) {
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(
      "program @region\n"
      "entry func @main(%input: 4096 external, %ready: timepoint) {\n"
      "  %out, %finished = execute(%input, %ready) : 4096 external, timepoint {callee = @stage}\n"
      "  return %out, %finished\n"
      "}\n"
      "region @stage(%in: 4096, %await: timepoint) affinity(\"gpu0\") {\n"
      "  %zeros = splat() : 8192 {wave = 0}\n"
      "  %t0 = dispatch(%in) : 8192 {wave = 0}\n"
      "  %t1 = dispatch(%t0, %zeros) : 8192 {wave = 1}\n"
      "  %acc = update(%zeros, %t1[0 for 8192]) : 8192 tied(%t1) {wave = 2}\n"
      "  %o = dispatch(%acc) : 4096 {wave = 3, scratch = 1024}\n"
      "  return %o, %await\n"
      "}\n");
  ASSERT_TRUE(p.ok()) << p.status();
  p->plan.verified = true;
  EXPECT_EQ(Summary(RegionInput(*p), p->plan),
            "t.mpir: 6 buffers, 5 time steps, 6 ops\n"
            "pool                   space      buffers          bytes         extent    lower bound     over\n"
            "stage.slab             default          4          25600          24576          24576    0.00%\n"
            "external               default          1           4096           4096           4096    0.00%\n"
            "stage.results.external default          1           4096           4096           4096    0.00%\n"
            "transient extent 24576 bytes (24.00 KiB), lower bound 24576 bytes (24.00 KiB) (0.00% over)\n"
            "  (transient: the region slabs, packed over time; allocations never alive together "
            "share bytes)\n"
            "activation peak: 24576 bytes live at step 1 (op %t1 = dispatch) in 3 buffers:\n"
            "   33.33%  zeros: 8192 bytes (8.00 KiB)\n"
            "   33.33%  t0: 8192 bytes (8.00 KiB)\n"
            "   33.33%  t1: 8192 bytes (8.00 KiB)\n"
            "region @stage on gpu0: slab 24576 bytes (lower bound 24576, 0.00% over), results "
            "4096 bytes in 1 allocation, uploads 0 bytes, 5 commands in 4 steps\n"
            // Slab and external input live at step 1 (28 KiB); the result
            // reservation sits above them.
            "default memory: 32768 bytes (32.00 KiB) used, max live 28672 bytes (28.00 KiB) at "
            "step 1 (14.29% over)\n"
            "algorithm: auto; alignment 1 (region slices: offsets 64, sizes padded to 64); plan "
            "verified\n");
}

// A symbolic slab is shown as its expression and its value at the
// evaluation point; uploads are listed (warnings go to stderr, not here).
TEST(FormatPlanSummaryTest, SymbolicSlabUploadsAndWarnings) {
  RegionPlanOptions options;
  options.max_allocation_size = 256;
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(
      "program @t\n"
      "dim %n <= 64\n"
      "entry func @main(%x: (4*%n) external, %ready: timepoint) {\n"
      "  %y, %done = execute(%x, %ready) : (4*%n) external, timepoint {callee = @r}\n"
      "  return %y, %done\n"
      "}\n"
      "region @r(%in: (4*%n), %await: timepoint) affinity(\"gpu0\") {\n"
      "  %k = constant() : 128\n"
      "  %t = dispatch(%in, %k) : (4*%n + 64)\n"
      "  %o = dispatch(%t) : (4*%n)\n"
      "  return %o, %await\n"
      "}\n",
      options, {{"n", 16}});
  ASSERT_TRUE(p.ok()) << p.status();
  const std::string text = Summary(RegionInput(*p), p->plan);
  const std::size_t region = text.find("region @r");
  ASSERT_NE(region, std::string::npos) << text;
  EXPECT_EQ(text.substr(region, text.find("default memory") - region),
            "region @r on gpu0: slab align(4*%n, 64) + 64 = 128 bytes at n=16 (lower bound 128, "
            "0.00% over), results 64 bytes in 1 allocation, uploads 128 bytes in 1 allocation, "
            "2 commands in 2 steps\n");
}

}  // namespace
}  // namespace memplan
