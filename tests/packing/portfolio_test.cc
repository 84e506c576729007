#include "packing/portfolio.h"

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(PortfolioGlobalMembersTest, PairBudgetSharedByTheMembers) {
  EXPECT_EQ(PortfolioGlobalMembers(100, 0), 7u);
  // Budget for 5,000 items: 10^7 + 32 x 5,000 = 10,160,000 pair visits.
  EXPECT_EQ(PortfolioGlobalMembers(5000, 1'451'428), 7u);  // 7 x 1,451,428 = 10,159,996
  EXPECT_EQ(PortfolioGlobalMembers(5000, 1'451'429), 6u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 5'000'000), 2u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 10'160'000), 1u);
  EXPECT_EQ(PortfolioGlobalMembers(5000, 10'160'001), 0u);
}

TEST(PortfolioGlobalMembersTest, LargeInputsKeepFourCandidates) {
  EXPECT_EQ(PortfolioGlobalMembers(20'000, 1000), 7u);
  EXPECT_EQ(PortfolioGlobalMembers(20'001, 1000), 4u);
  // 10^5 items: 13,200,000 pair visits; 4 x 3.3 x 10^6 fit, 4 x 3.4 x 10^6 not.
  EXPECT_EQ(PortfolioGlobalMembers(100'000, 3'300'000), 4u);
  EXPECT_EQ(PortfolioGlobalMembers(100'000, 3'400'000), 3u);
  // 10^6 DNN-like ops (27 pairs per item): 4.2 x 10^7 -> one member.
  EXPECT_EQ(PortfolioGlobalMembers(1'000'000, 27'340'100), 1u);
}

}  // namespace
}  // namespace memplan
