#include "ir/counting_sort.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(StableSortBySmallKey, HeaderExample) {
  std::vector<std::pair<int, char>> v = {{3, 'a'}, {1, 'b'}, {3, 'c'}, {0, 'd'}};
  StableSortBySmallKey(v, 4, [](const auto& e) { return e.first; });
  EXPECT_EQ(v, (std::vector<std::pair<int, char>>{{0, 'd'}, {1, 'b'}, {3, 'a'}, {3, 'c'}}));
}

TEST(StableSortBySmallKey, MatchesStableSort) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<std::pair<int, int>> v(rng() % 300);
    const int keys = 1 + static_cast<int>(rng() % 50);
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = {static_cast<int>(rng() % static_cast<unsigned>(keys)), static_cast<int>(i)};
    }
    std::vector<std::pair<int, int>> expected = v;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    StableSortBySmallKey(v, static_cast<std::size_t>(keys), [](const auto& e) { return e.first; });
    ASSERT_EQ(v, expected);
  }
}

}  // namespace
}  // namespace memplan
