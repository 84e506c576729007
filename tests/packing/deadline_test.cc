// --time-limit as a hard cap: every member auto runs under a deadline gives
// up once it has passed, polling every 16 steps (packing/deadline.h).
#include "packing/deadline.h"

#include <gtest/gtest.h>

#include <atomic>
#include <limits>
#include <optional>
#include <vector>

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/skyline.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

// 3,000 items (enough to poll the clock more than once in every packer,
// and above the skyline's scan limit so its queue is tested).
std::vector<PackItem> DeadlineTestItems() { return testing::RandomItems(3000, 400, 1000, 5); }

const PackDeadline kDeadlinePassed = std::optional(PackClock::now() - std::chrono::seconds(1));
const PackDeadline kDeadlineFarAway = std::optional(PackClock::now() + std::chrono::hours(1));

TEST(DeadlineTest, PollReadsTheClockEverySixteenCalls) {
  DeadlinePoll passed(kDeadlinePassed);
  for (int k = 1; k < 16; ++k) EXPECT_FALSE(passed.Passed()) << k;
  EXPECT_TRUE(passed.Passed());
  EXPECT_TRUE(passed.Passed());  // and stays passed
  DeadlinePoll none(std::nullopt);
  for (int k = 0; k < 64; ++k) EXPECT_FALSE(none.Passed());
  EXPECT_FALSE(DeadlineAfter(0).at.has_value());
  EXPECT_TRUE(DeadlineAfter(0.5).at.has_value());
}

// auto's members stop once a member of a better tie-break rank is at the
// bound (packing/portfolio.cc): moot from then on, read with the clock.
TEST(DeadlineTest, PollStopsARunOnceItIsMoot) {
  std::atomic<int> best_rank{7};
  DeadlinePoll poll(PackDeadline(std::nullopt, MootWhen{&best_rank, 5}));
  for (int k = 0; k < 64; ++k) EXPECT_FALSE(poll.Passed()) << k;  // 7 > 5: not moot
  best_rank = 5;  // a tie with the same rank is not better
  for (int k = 0; k < 64; ++k) EXPECT_FALSE(poll.Passed()) << k;
  best_rank = 4;
  for (int k = 1; k < 16; ++k) EXPECT_FALSE(poll.Passed()) << k;
  EXPECT_TRUE(poll.Passed());
  EXPECT_TRUE(poll.Passed());  // and stays stopped
  // A moot skyline run gives up like one past its deadline.
  const std::vector<PackItem> items = DeadlineTestItems();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> priority = SortForSkyline(items, SkylineOrder::kLargestArea);
  double work = 0;
  EXPECT_FALSE(packer
                   .RunWithin(priority, std::numeric_limits<Bytes>::max(),
                              std::numeric_limits<double>::infinity(), &work,
                              PackDeadline(std::nullopt, MootWhen{&best_rank, 5}))
                   .has_value());
}

TEST(DeadlineTest, BestFitGivesUpOnceThePassedDeadlineIsPolled) {
  const std::vector<PackItem> items = DeadlineTestItems();
  const std::vector<std::int32_t> order = SortForBestFit(items, BestFitOrder::kSpatial);
  const double unlimited = std::numeric_limits<double>::infinity();
  double work = 0;
  EXPECT_FALSE(BestFitInOrderWithin(items, order, 1, unlimited, &work, kDeadlinePassed).has_value());
  work = 0;
  EXPECT_EQ(*BestFitInOrderWithin(items, order, 1, unlimited, &work, kDeadlineFarAway),
            BestFitInOrder(items, order, 1));
}

TEST(DeadlineTest, InOrderGivesUpOnceThePassedDeadlineIsPolled) {
  const std::vector<PackItem> items = DeadlineTestItems();
  EXPECT_FALSE(InOrderPackUntil(items, 1, kDeadlinePassed).has_value());
  EXPECT_EQ(InOrderPackUntil(items, 1, kDeadlineFarAway)->offsets, InOrderPack(items, 1).offsets);
}

TEST(DeadlineTest, SkylineGivesUpOnceThePassedDeadlineIsPolled) {
  const std::vector<PackItem> items = DeadlineTestItems();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> priority = SortForSkyline(items, SkylineOrder::kLargestArea);
  const Bytes no_cutoff = std::numeric_limits<Bytes>::max();
  const double no_work_limit = std::numeric_limits<double>::infinity();
  double work = 0;
  EXPECT_FALSE(packer.RunWithin(priority, no_cutoff, no_work_limit, &work, kDeadlinePassed).has_value());
  EXPECT_EQ(*packer.RunWithin(priority, no_cutoff, no_work_limit, &work, kDeadlineFarAway),
            *packer.Run(priority, no_cutoff));
}

}  // namespace
}  // namespace memplan
