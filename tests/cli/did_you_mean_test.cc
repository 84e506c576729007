#include "cli/did_you_mean.h"

#include "gtest/gtest.h"

namespace memplan::cli {
namespace {

TEST(DidYouMean, ClosestNameWithinATypo) {
  const std::vector<std::string> flags = {"--fast-memory", "--json", "--csv", "--dim"};
  EXPECT_EQ(ClosestName("--fast-memroy", flags), "--fast-memory");  // a swap: 1 edit
  EXPECT_EQ(ClosestName("--jsno", flags), "--json");
  EXPECT_EQ(ClosestName("--cvs", flags), "--csv");
  EXPECT_EQ(ClosestName("--frobnicate", flags), std::nullopt);  // nothing near
  EXPECT_EQ(ClosestName("--json", flags), std::nullopt);        // exact: not a typo
  EXPECT_EQ(ClosestName("x", {"ab"}), std::nullopt);            // 2 edits on a short name
  EXPECT_EQ(ClosestName("pln", {"plan", "verify"}), "plan");
}

}  // namespace
}  // namespace memplan::cli
