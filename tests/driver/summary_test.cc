#include "driver/summary.h"

#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace memplan {
namespace {

Buffer Make(std::string name, Bytes size, TimeStep start, TimeStep end,
            Lifetime lifetime = Lifetime::kTransient) {
  Buffer b;
  b.name = std::move(name);
  b.size = size;
  b.start = start;
  b.end = end;
  b.lifetime = lifetime;
  return b;
}

LoadedInput Csv(TimeStep time_steps, std::vector<Buffer> buffers) {
  LoadedInput input;
  input.format = InputFormat::kLifetimeCsv;
  input.buffers.input = "in.csv";
  input.buffers.time_steps = time_steps;
  input.buffers.buffers = std::move(buffers);
  return input;
}

// Every line of the report, hand-computed: live bytes 4 12 8 2 over 4 steps,
// one band per step.
TEST(FormatStatsTest, SmallInputExactReport) {
  const LoadedInput input = Csv(4, {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3),
                                    Make("k", 100, 0, 3, Lifetime::kConstant)});
  EXPECT_EQ(FormatStats(input),
            "in.csv: 4 buffers, 4 time steps\n"
            "total bytes: 114 bytes (114 B)\n"
            "  transient         3 buffers             14 bytes\n"
            "  constant          1 buffers            100 bytes\n"
            "lower bound (max live, transient): 12 bytes (12 B) at time 1\n"
            "max live (all buffers): 112 bytes (112 B) at time 1\n"
            "live bytes over time (transient, max per band):\n"
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
  const std::string text = FormatStats(input);
  EXPECT_EQ(text.substr(0, text.find("live bytes over time")),
            "in.csv: 2 buffers, 9223372036854775807 time steps\n"
            "total bytes: 12 bytes (12 B)\n"
            "  transient         2 buffers             12 bytes\n"
            "lower bound (max live, transient): 12 bytes (12 B) at time 3999999999\n"
            "max live (all buffers): 12 bytes (12 B) at time 3999999999\n");
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
  EXPECT_EQ(FormatStats(Csv(0, {})),
            "in.csv: 0 buffers, 0 time steps\n"
            "total bytes: 0 bytes (0 B)\n"
            "lower bound (max live, transient): 0 bytes (0 B) (no transient buffers)\n"
            "max live (all buffers): 0 bytes (0 B) (no buffers)\n");
}

}  // namespace
}  // namespace memplan
