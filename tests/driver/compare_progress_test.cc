// `memplan compare`'s progress phases (driver/compare_job.h): what the line
// on a terminal shows while the strategies run, on a fake clock.
#include <string>
#include <string_view>
#include <vector>

#include "driver/compare_job.h"
#include "driver/progress.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(CompareProgressTest, ImportMemplansPlanThenEachStrategyCounted) {
  std::vector<std::string> lines;  // each drawn line, its padding trimmed
  ProgressReporter::Io io{[] { return 5.0; },
                          [&](std::string_view text) {
                            // "\r" + line + padding; the erase is "\r",
                            // spaces, "\r" (read as an empty line).
                            std::string line(text.substr(1));
                            line.erase(line.find_last_not_of(" \r") + 1);
                            lines.push_back(line);
                          },
                          nullptr};
  // No delay and no interval: every phase and every count is drawn.
  ProgressReporter progress(true, io, /*delay_s=*/0, /*interval_s=*/0);
  CompareJobOptions options;
  options.progress = &progress;
  const absl::StatusOr<CompareJobResult> result =
      RunCompareJob(MEMPLAN_SOURCE_DIR "/tests/data/csv/compare_peers.csv", options);
  ASSERT_TRUE(result.ok()) << result.status();
  progress.Finish();
  const std::string strategies = "memplan: packing with the other planners' strategies ";
  const std::vector<std::string> expected = {
      "memplan: importing compare_peers.csv · 0.0 s",
      "memplan: packing memplan's plan (6 buffers) · 0.0 s",
      strategies + "0/6 strategies · 0.0 s",
      strategies + "1/6 strategies · 0.0 s",
      strategies + "2/6 strategies · 0.0 s",
      strategies + "3/6 strategies · 0.0 s",
      strategies + "4/6 strategies · 0.0 s",
      strategies + "5/6 strategies · 0.0 s",
      strategies + "6/6 strategies · 0.0 s",
      "",  // erased
  };
  EXPECT_EQ(lines, expected);
}

}  // namespace
}  // namespace memplan
