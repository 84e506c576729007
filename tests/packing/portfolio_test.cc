#include "packing/portfolio.h"

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(PortfolioGlobalMembersTest, PairBudgetSharedByTheMembers) {
  EXPECT_EQ(PortfolioGlobalMembers(100, 0), 7u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 1'428'571), 7u);  // 7 x 1,428,571 <= 10^7
  EXPECT_EQ(PortfolioGlobalMembers(5000, 1'428'572), 6u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 5'000'000), 2u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 10'000'000), 1u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 10'000'001), 0u);
}

TEST(PortfolioGlobalMembersTest, LargeInputsKeepFourCandidates) {
  EXPECT_EQ(PortfolioGlobalMembers(20'000, 1000), 7u);
  EXPECT_EQ(PortfolioGlobalMembers(20'001, 1000), 4u);
  EXPECT_EQ(PortfolioGlobalMembers(100'000, 3'000'000), 3u);
}

}  // namespace
}  // namespace memplan
