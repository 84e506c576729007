#include "driver/sweep_job.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace memplan {
namespace {

const std::string kBatchChain = std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/mpir/batch_chain.mpir";

TEST(SweepGridTest, FirstDimSlowestFastMemoryFastest) {
  const std::vector<SweepPoint> points =
      SweepGrid({{"batch", {1, 2}}, {"seq", {8, 16}}}, {256, 1024});
  ASSERT_EQ(points.size(), 8u);
  std::vector<std::string> described;
  for (const SweepPoint& p : points) described.push_back(DescribeSweepPoint(p));
  EXPECT_EQ(described, (std::vector<std::string>{
                           "--dim batch=1 --dim seq=8 --fast-memory 256",
                           "--dim batch=1 --dim seq=8 --fast-memory 1024",
                           "--dim batch=1 --dim seq=16 --fast-memory 256",
                           "--dim batch=1 --dim seq=16 --fast-memory 1024",
                           "--dim batch=2 --dim seq=8 --fast-memory 256",
                           "--dim batch=2 --dim seq=8 --fast-memory 1024",
                           "--dim batch=2 --dim seq=16 --fast-memory 256",
                           "--dim batch=2 --dim seq=16 --fast-memory 1024"}));
}

TEST(SweepGridTest, NothingSweptIsOneEmptyPoint) {
  const std::vector<SweepPoint> points = SweepGrid({}, {});
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0].dims.empty());
  EXPECT_FALSE(points[0].fast_memory);
  EXPECT_EQ(DescribeSweepPoint(points[0]), "");
}

// batch_chain.mpir: %a and %b (64*B bytes each) are live together at the
// add, so the transient extent and its lower bound are 128*B bytes.
TEST(SweepJobTest, PeakScalesWithTheBatch) {
  PlanJobOptions options;
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(kBatchChain, options, SweepGrid({{"batch", {1, 2, 4}}}, {}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);
  const std::int64_t batches[] = {1, 2, 4};
  for (size_t i = 0; i < 3; ++i) {
    const SweepRow& row = (*rows)[i];
    SCOPED_TRACE(batches[i]);
    EXPECT_FALSE(row.over_capacity);
    EXPECT_TRUE(row.verified);
    EXPECT_EQ(row.peak, 128 * batches[i]);
    EXPECT_EQ(row.lower_bound, 128 * batches[i]);
    EXPECT_EQ(row.time_steps, 3);
    EXPECT_EQ(row.buffers, 5);
    EXPECT_FALSE(row.msa);
    EXPECT_FALSE(row.alternate_bytes);
  }
}

TEST(SweepJobTest, PointsOverCapacityAreRowsNotErrors) {
  PlanJobOptions options;
  options.pools.capacity = 600;  // batch 1 needs far less, batch 4 far more
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(kBatchChain, options, SweepGrid({{"batch", {1, 4}}}, {}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_FALSE((*rows)[0].over_capacity);
  ASSERT_TRUE((*rows)[1].over_capacity);
  EXPECT_NE((*rows)[1].over_capacity->find("plan does not fit"), std::string::npos)
      << *(*rows)[1].over_capacity;
  // The row has what batch 4 needs: 2 x 256 B activations live together,
  // 1088 bytes of default memory in all.
  EXPECT_EQ((*rows)[1].peak, 512);
  EXPECT_EQ((*rows)[1].lower_bound, 512);
  EXPECT_EQ((*rows)[1].default_bytes, 1088);
  EXPECT_TRUE((*rows)[1].HasFigures());
}

TEST(SweepGridTest, RepeatedValuesAreOnePointAtTheirFirstPlace) {
  const std::vector<SweepPoint> points = SweepGrid({{"batch", {4, 1, 4, 1}}}, {2048, 0, 2048});
  std::vector<std::string> described;
  for (const SweepPoint& p : points) described.push_back(DescribeSweepPoint(p));
  EXPECT_EQ(described, (std::vector<std::string>{
                           "--dim batch=4 --fast-memory 2048", "--dim batch=4 --fast-memory 0",
                           "--dim batch=1 --fast-memory 2048", "--dim batch=1 --fast-memory 0"}));
}

// Out of line: inlined into the test body, GCC 12 (-O2, no unity build)
// warns that the engaged optional's members may be used uninitialized.
[[gnu::noinline]] PlanJobOptions WithFastMemory() {
  PlanJobOptions options;
  options.msa.emplace();
  return options;
}

TEST(SweepJobTest, FastMemorySizesGiveEstimatedTimes) {
  const PlanJobOptions options = WithFastMemory();
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(kBatchChain, options, SweepGrid({{"batch", {2}}}, {0, 4096}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  const SweepRow& none = (*rows)[0];
  const SweepRow& all = (*rows)[1];
  ASSERT_TRUE(none.msa && all.msa);
  // No fast memory: the estimate is the all-default bound; 4 KiB holds every
  // buffer of batch 2 (1 KiB in all), so the estimate improves.
  EXPECT_DOUBLE_EQ(none.msa->estimated_time_s, none.msa->time_all_default_s);
  EXPECT_EQ(none.captured_speedup, 0);
  EXPECT_LT(all.msa->estimated_time_s, none.msa->estimated_time_s);
  EXPECT_GT(all.captured_speedup, 0);
  ASSERT_TRUE(all.alternate_bytes);
  EXPECT_GT(*all.alternate_bytes, 0);
  EXPECT_LE(*all.alternate_bytes, 4096);
}

TEST(SweepJobTest, BadPointNamesItself) {
  PlanJobOptions options;
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(kBatchChain, options, SweepGrid({{"batch", {1, 65}}}, {}));
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(rows.status().message()).find("(sweep point --dim batch=65)"),
            std::string::npos)
      << rows.status();
}

}  // namespace
}  // namespace memplan
