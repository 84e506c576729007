#include <string>

#include "gtest/gtest.h"
#include "msa/copy_bandwidth.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

// Six 1 s steps (1 flop at 1 flop/s; memory traffic negligible).
std::unique_ptr<testing::MsaFixture> SixSecondSteps() {
  Target t;
  t.flops_per_second = 1;
  t.transcendentals_per_second = 1;
  t.default_bandwidth = 1e12;
  t.alternate_bandwidth = 1e12;
  t.copy_bandwidth = 1;
  std::string text = "entry func @main(%x: f32[2]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < 6; ++i) {
    text += "  %t" + std::to_string(i) + " = negate(" + prev + ") : f32[2] {flops = 1}\n";
    prev = "%t" + std::to_string(i);
  }
  return testing::Load(text + "  return " + prev + "\n}\n", t);
}

// The example of msa/copy_bandwidth.h.
TEST(CopyBandwidthTest, HeaderExample) {
  auto f = SixSecondSteps();
  CopyBandwidth bandwidth(*f->cost, 6, 1.0);
  ASSERT_TRUE(bandwidth.Fits(0, 3, 1.5));
  const CopyBandwidth::Usage first = bandwidth.Consume(0, 3, 1.5);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], std::make_pair(TimeStep{1}, 1.0));
  EXPECT_EQ(first[1], std::make_pair(TimeStep{2}, 0.5));
  ASSERT_TRUE(bandwidth.Fits(1, 4, 1.0));
  bandwidth.Consume(1, 4, 1.0);  // 0.5 s at step 2, 0.5 s at step 3
  EXPECT_FALSE(bandwidth.Fits(0, 3, 0.01));
  EXPECT_TRUE(bandwidth.Fits(2, 5, 1.5));   // 0.5 s at 3, 1 s at 4
  EXPECT_FALSE(bandwidth.Fits(2, 5, 1.6));
  EXPECT_FALSE(bandwidth.Fits(3, 4, 0.01));  // no step strictly between
  bandwidth.Release(first);  // steps 1 and 2 get back 1 s and 0.5 s
  EXPECT_TRUE(bandwidth.Fits(0, 3, 1.5));
  EXPECT_FALSE(bandwidth.Fits(0, 3, 1.6));
}

TEST(CopyBandwidthTest, ShareScalesEveryStep) {
  auto f = SixSecondSteps();
  CopyBandwidth bandwidth(*f->cost, 6, 0.25);
  EXPECT_TRUE(bandwidth.Fits(0, 5, 1.0));   // four steps x 0.25 s
  EXPECT_FALSE(bandwidth.Fits(0, 4, 1.0));  // three
}

}  // namespace
}  // namespace memplan
